"""A set complete in the widow blocks its section (spec §5.2 ``widow: …, blocks sets``), by hand.

Tripoley (its rules file), 4 players from 50 chips, B (seat 1) deals: each player antes 1 on
each of the nine sections (41 each, 4 on every section).  Source: github.com/Alysoun/tripoley,
"Dead hand blocks pay cards" (RULES.md), payCards.ts ``eightNineTenBlocked``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.compiled.tables import unsupported_features
from boodle.engine import apply, legal_moves, start_deal
from boodle.engine.claims import blocked_sections
from boodle.engine.events import Claim
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import PokerPhase, Ruleset, WidowSets
from boodle.language.variants import load
from boodle.verify.verifier import unmodelled
from rules_by_hand import cards, fresh_ledger

A, B, C, D = 0, 1, 2, 3


def tripoley(rule: WidowSets, *, hearts: bool = True) -> Ruleset:
    rs = load("tripoley")
    phases = tuple(p for p in rs.phases
                   if not isinstance(p, PokerPhase) and (hearts or p.name != "hearts"))
    return replace(rs, deal=replace(rs.deal, widow_sets=rule), phases=phases)


def claims(events: list) -> list[tuple[int, str, object]]:  # type: ignore[type-arg]
    return [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]


# A holds 8-9-10 of clubs; 8-9-10 of diamonds (and of hearts and spades) lie in the widow.
HELD = (cards("8♣ 9♣ 10♣ 3♦"), cards("2♣ 2♦ 5♦"), cards("3♥ 4♠"), cards("4♣ 6♦"))


@pytest.mark.parametrize(("rule", "paid", "left"), [
    ("qualifies nobody", [(A, "eight-nine-ten", 4)], 0),  # 004: the widow qualifies nobody
    ("blocks sets", [], 4),                                # blocked: the 4 chips carry over
])
def test_a_holding_phase(rule: WidowSets, paid: list[tuple[int, str, int]], left: int) -> None:
    rules = tripoley(rule)
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=HELD)
    assert claims(events) == paid
    assert state.ledger.section("eight-nine-ten") == left
    # K♥ Q♥ lie in the widow too: King-Queen is blocked as well (held by nobody either way)
    want = {"eight-nine-ten", "king-queen"} if rule == "blocks sets" else set()
    assert blocked_sections(rules, state) == want


def test_a_set_the_widow_does_not_hold_whole_is_not_blocked() -> None:
    # 8♦ in A's hand: the widow holds 9♦ 10♦ but no whole 8-9-10 of diamonds; hearts and
    # spades it does hold whole, so the section is still blocked.  With 8♥ and 8♠ in hands
    # too, nothing is blocked and A's 8-9-10 of clubs takes it.
    rules = tripoley("blocks sets")
    hands = (cards("8♣ 9♣ 10♣ 8♦ 8♥ 8♠"), *HELD[1:])
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=hands)
    assert blocked_sections(rules, state) == {"king-queen"}  # K♥ Q♥ are the widow's
    assert claims(events) == [(A, "eight-nine-ten", 4)]


# B deals and holds 8-9-10-J of clubs; every move is forced.
PLAYED = (cards("2♦"), cards("8♣ 9♣ 10♣ J♣"), cards("3♦"), cards("4♦"))


@pytest.mark.parametrize(("rule", "b_gets"), [
    ("qualifies nobody", [(B, "eight-nine-ten", 4), (B, "kitty", 4)]),
    ("blocks sets", [(B, "kitty", 4)]),
])
def test_claims_on_play(rule: WidowSets, b_gets: list[tuple[int, str, int]]) -> None:
    rules = tripoley(rule, hearts=False)  # only play can take the 8-9-10
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=PLAYED)
    seen = claims(events)
    while legal_moves(rules, state):
        [move] = legal_moves(rules, state)  # forced: 8♣, 9♣, 10♣, J♣
        state, events = apply(rules, state, move)
        seen += claims(events)
    assert seen == b_gets
    assert state.ledger.seat(B) == 41 + sum(a for _, _, a in b_gets) + 3  # 1 from each other


def test_going_out_does_not_take_a_blocked_set() -> None:
    rules = tripoley("blocks sets", hearts=False)
    phase = rules.phases[-1]
    rules = replace(rules, phases=(replace(phase, going_out=replace(
        phase.going_out, takes=("kitty", "eight-nine-ten"))),))
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=PLAYED)
    seen = claims(events)
    while legal_moves(rules, state):
        state, events = apply(rules, state, legal_moves(rules, state)[0])
        seen += claims(events)
    assert seen == [(B, "kitty", 4)] and state.ledger.section("eight-nine-ten") == 4


def test_the_compiled_engine_runs_it_and_z3_models_it() -> None:
    rules = tripoley("blocks sets", hearts=False)
    assert not any("blocks" in u for u in unsupported_features(rules))
    # z3 gates every claim on play and going out's takes by the widow (verify/eligibility.py)
    assert not any("blocks" in u for u in unmodelled(rules))
    assert not any("blocks" in u for u in unmodelled(tripoley("qualifies nobody")))


def test_the_oracle_reads_the_block_afresh() -> None:
    from boodle.testing import _check_holding, blocked_now, expected_holding_claims

    rules = tripoley("blocks sets")
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=HELD)
    assert blocked_now(rules, state) == {"eight-nine-ten", "king-queen"}
    assert expected_holding_claims(rules, state) == []
    _check_holding(rules, state, events)
    paid, _ = start_deal(tripoley("qualifies nobody"), 4, B, fresh_ledger(rules, 4), hands=HELD)
    with pytest.raises(AssertionError, match="spec §8.1 pays"):
        _check_holding(rules, paid, start_deal(tripoley("qualifies nobody"), 4, B,
                                               fresh_ledger(rules, 4), hands=HELD)[1])


BASE = """variant x extends tripoley {
  deal {
    widow: WIDOW
  }
}
"""


def test_the_builder_locates_a_block_without_a_widow_or_a_set_of_any_suit() -> None:
    ok = load_text(BASE.replace("WIDOW", "blocks sets, first in each round"), "x.boodle")
    assert ok.deal.widow_sets == "blocks sets" and ok.deal.widow_position == "first"
    with pytest.raises(BoodleError, match="no widow") as err:
        load_text(BASE.replace("WIDOW", "none, blocks sets"), "x.boodle")
    assert err.value.span is not None and (err.value.span.line, err.value.span.column) == (3, 5)
    assert "remove 'blocks sets'" in (err.value.hint or "")
    michigan = BASE.replace("tripoley", "michigan").replace("WIDOW", "last in each round, "
                                                              "blocks sets")
    with pytest.raises(BoodleError, match="changes nothing") as err:
        load_text(michigan, "x.boodle")
    assert err.value.span is not None and err.value.span.line == 3
    with pytest.raises(BoodleError, match="contradicts"):
        load_text(BASE.replace("WIDOW", "blocks sets, qualifies nobody"), "x.boodle")


@pytest.mark.parametrize(("rule", "hearts", "hands", "paid"), [
    ("qualifies nobody", True, HELD, [(A, "eight-nine-ten", 4)]),
    ("blocks sets", True, HELD, []),
    ("qualifies nobody", False, PLAYED, [(B, "eight-nine-ten", 4), (B, "kitty", 4)]),
    ("blocks sets", False, PLAYED, [(B, "kitty", 4)]),
])
def test_the_compiled_engine_blocks_as_worked_above(
        rule: WidowSets, hearts: bool, hands: tuple[list[object], ...],
        paid: list[tuple[int, str, int]]) -> None:
    # The holding phase's claims (HELD, before the first lead) and play's claims (PLAYED,
    # every move forced) of the two tests above, on the compiled engine (issue 23).
    from boodle.compiled import compile_ruleset
    from boodle.compiled.deal import TraceItem, own_of, play_dealt

    rules = tripoley(rule, hearts=hearts)
    t = compile_ruleset(rules)
    own = own_of(t, [[t.index[c] for c in hand] for hand in hands])  # type: ignore[index]
    seats, sections = [50] * 4, [0] * len(rules.board)
    trace: list[TraceItem] = []
    play_dealt(t, 4, B, own, seats, sections, [lambda view, seat, opts: opts[0]] * 4, trace)
    lead = next(i for i, item in enumerate(trace) if item[0] == "lead")
    got = [item[1:] for item in (trace[:lead] if hearts else trace) if item[0] == "claim"]
    assert got == paid
    left = sections[[s.name for s in rules.board].index("eight-nine-ten")]
    assert left == (0 if paid[:1] and paid[0][1] == "eight-nine-ten" else 4)  # 4: carried over
