"""The numbers on the variant pages (antes, deal sizes) agree with the interpreter and the rules.

The table of each built-in variant page is read back from the generated
Markdown and compared, for every allowed player count, with a deal the
interpreter starts from a shuffled pack and another dealer, and for Michigan
with values worked out by hand from 001 §02-§03 and spec §5.2.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from boodle import engine
from boodle.docs.links import RuleRefs
from boodle.docs.templates import load
from boodle.docs.variant_page import VariantPage
from boodle.engine.events import Ante, DealCards
from boodle.engine.faults import NotSupported
from boodle.engine.ledger import Ledger, SeatAccount
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.language.variants import builtin_names
from boodle.language.variants import load as load_variant
from boodle.session.second_pack import bind_drawn, unbound_sections


def table(ruleset: Ruleset) -> dict[int, list[str]]:
    """Player count → the cells of its row in the page's numbers table, one cell per section
    in board order (a column shared by sections with the same antes is repeated for each)."""
    t = load("en")
    page = VariantPage(ruleset, t, RuleRefs(t, ruleset.name, [])).markdown()
    lines = page.split(t.text("page.numbers_heading"), 1)[1].splitlines()
    head = next(c.strip() for c in lines if c.startswith("| "))
    heads = [c.strip() for c in head.strip("|").split("|")]
    rows = [line for line in lines if line.startswith("| ") and line[2:3].isdigit()]
    if len(heads) < 5:  # hand sizes only
        return {int(cells[0]): cells for cells in
                ([c.strip() for c in row.strip("|").split("|")] for row in rows)}
    each = t.text("page.numbers_each", labels="")
    columns = [[x.strip() for x in h.removesuffix(each).split(", ")] for h in heads[3:-2]]
    order = [s.label for s in ruleset.board]
    assert sorted(x for c in columns for x in c) == sorted(order), heads
    out: dict[int, list[str]] = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        by_label = {label: cells[3 + i] for i, c in enumerate(columns) for label in c}
        out[int(cells[0])] = cells[:3] + [by_label[x] for x in order] + cells[-2:]
    return out


def test_sections_with_the_same_antes_share_a_column() -> None:
    # issue 21: the per-player table must fit at 1,280 px; Tripoli's had 13 columns
    t = load("en")
    page = VariantPage(load_variant("tripoli"), t, RuleRefs(t, "tripoli", [])).markdown()
    assert ("| players | cards per hand | widow | A♥, K♥, Q♥, J♥, 10♥, Pot, Chien, King-Queen "
            "(each) | dealer pays | each other pays |") in page
    michigan = VariantPage(load_variant("michigan"), t, RuleRefs(t, "michigan", [])).markdown()
    # 001 §02: with 4 players each boodle receives 4, the Kitty 8; 6 chips each
    assert "| 4 | 11 · 11 · 10 · 10 | 10 | 4 | 8 | 6 | 6 |" in michigan


# Michigan by hand: 52 cards over n players + the widow, first hands dealt get the extra cards
# (spec §5.2: 52 = q·h + r); each player puts 1 on each of the 4 boodles and 2 on the kitty
# (001 §02): n on each boodle, 2n on the kitty, 6 chips per player.
MICHIGAN_HANDS = {
    3: ("13 · 13 · 13", 13), 4: ("11 · 11 · 10 · 10", 10), 5: ("9 · 9 · 9 · 9 · 8", 8),
    6: ("8 · 8 · 8 · 7 · 7 · 7", 7), 7: ("7 · 7 · 7 · 7 · 6 · 6 · 6", 6),
    8: ("6 · 6 · 6 · 6 · 6 · 6 · 6 · 5", 5),
}


def test_michigan_numbers_are_the_hand_worked_ones(michigan: Ruleset) -> None:
    rows = table(michigan)
    assert sorted(rows) == [3, 4, 5, 6, 7, 8]
    for n, (hands, widow) in MICHIGAN_HANDS.items():
        assert rows[n][1:3] == [hands, str(widow)]
        assert rows[n][3:] == [str(n)] * 4 + [str(2 * n), "6", "6"]


def test_tripoli_antes_are_the_hand_worked_ones() -> None:
    # 004 "Mise en place" §2: the dealer puts 2 chips on each of the 8 sections, every other
    # player 1; so with n players each section holds n + 1, the dealer pays 16, the others 8
    # (a variant whose players are eliminated at zero chips: the table once said it could not
    # be dealt, since its deals were started with no chips)
    rows = table(load_variant("tripoli"))
    assert sorted(rows) == list(range(3, 10))
    for n, cells in rows.items():
        assert cells[3:] == [str(n + 1)] * 8 + ["16", "8"], n


def _interpreter_row(ruleset: Ruleset, n: int) -> tuple[list[int], int, list[int], int, int]:
    """Hand sizes from the dealer's left, widow, chips per section, dealer's and others' ante."""
    dealer = 1 % n
    deck = engine.shuffled_deck(ruleset, random.Random(f"docs:{n}"))
    ledger = Ledger.open(n, tuple(s.name for s in ruleset.board), ruleset.session.start_chips)
    unbound = unbound_sections(ruleset)
    if unbound:  # which card pays a drawn boodle changes no ante and no hand size
        ruleset, _ = bind_drawn(ruleset, random.Random(n).sample(ruleset.deck.cards(),
                                                                 len(unbound)))
    _, events = engine.start_deal(ruleset, n, dealer, ledger, deck_order=deck)
    dealt = next(e for e in events if isinstance(e, DealCards))
    order = [(dealer + 1 + i) % n for i in range(n)]
    put = {s.name: 0 for s in ruleset.board}
    paid = [0] * n
    for e in events:
        if isinstance(e, Ante):
            put[e.transfer.dst.name] += int(e.transfer.amount)  # type: ignore[union-attr]
            assert isinstance(e.transfer.src, SeatAccount)
            paid[e.transfer.src.seat] += int(e.transfer.amount)
    others = {paid[s] for s in order[:-1]}
    assert len(others) == 1, "every player but the dealer pays the same ante"
    return ([len(dealt.hands[s]) for s in order], len(dealt.widow), list(put.values()),
            paid[dealer], others.pop())


@pytest.mark.parametrize("name", builtin_names())
def test_page_numbers_match_the_interpreter_for_every_player_count(name: str) -> None:
    ruleset = load_variant(name)
    base = load_variant(ruleset.base) if ruleset.base in builtin_names() else None
    if base is not None and all(getattr(base, f) == getattr(ruleset, f)
                                for f in ("players", "deck", "board", "antes", "deal")):
        # a house rule's page shows only what it changes: here the base's table applies
        t = load("en")
        page = VariantPage(ruleset, t, RuleRefs(t, ruleset.name, [])).markdown()
        assert t.text("page.numbers_heading") not in page
        return
    rows = table(ruleset)
    assert sorted(rows) == list(ruleset.players.counts())
    # a chosen-boodle line is each payer's move (spec §4): the table shows the other lines,
    # and says how much each payer adds by choice
    fixed = replace(ruleset, antes=tuple(a for a in ruleset.antes if not a.chosen))
    t = load("en")
    page = VariantPage(ruleset, t, RuleRefs(t, ruleset.name, [])).markdown()
    for line in ruleset.antes:
        if line.chosen:
            assert t.text("page.numbers_chosen", n=line.amount) in page
    for n in ruleset.players.counts():
        try:
            hands, widow, sections, dealer_pays, other_pays = _interpreter_row(fixed, n)
        except BoodleError as exc:  # the interpreter cannot start it alone: sizes only
            # only for a pending feature or boodles drawn per session (never, say, because
            # the ledger left every seat eliminated)
            assert isinstance(exc, NotSupported) or unbound_sections(ruleset), exc.message
            sizes, rest = engine.deal_hands(ruleset, n, 0, ruleset.deck.cards())
            assert rows[n][1:] == [" · ".join(str(len(sizes[(1 + i) % n])) for i in range(n)),
                                   str(len(rest))]
            continue
        expected = [" · ".join(map(str, hands)), str(widow), *map(str, sections),
                    str(dealer_pays), str(other_pays)]
        assert rows[n][1:] == expected, f"{name} with {n} players"
