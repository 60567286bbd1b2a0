"""Exhaustive search on reduced decks: the reduction rule, suit symmetry, deal counts.

Counts are worked out by hand: a 2-suit × 3-rank deck (Q K A of ♣ and ♦)
dealt to 3 players and the widow, dealer seat 0, widow last in each round
(spec §5.2): 6 = 1·4 + 2, so seats 1 and 2 get 2 cards, seat 0 and the
widow 1: 6! / (2!·2!·1!·1!) = 180 deals.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from boodle.engine import apply, is_terminal, legal_moves, start_deal
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState
from boodle.language.cards import parse_card
from boodle.language.model import Fallback, LeadRule, Ruleset, StopsPhase
from boodle.language.variants import load
from boodle.verify.explicit import check_deals, deals, default_start
from boodle.verify.reduce import reduce
from boodle.verify.symmetry import suit_symmetries


def _cards(text: str) -> list:  # type: ignore[type-arg]
    return [parse_card(t) for t in text.split()]


def test_the_reduction_maps_michigan_boodles_by_the_rule() -> None:
    red = reduce(load("michigan"), 2, 3)
    assert red.ruleset.deck.suits == ("♣", "♦") and red.ruleset.deck.ranks == ("Q", "K", "A")
    paid = {s.name: str(s.cards[0]) for s in red.ruleset.board if s.kind == "boodle"}
    # A♥: ♥ is suit 2, 2 mod 2 = 0 → ♣: A♣.  K♣, Q♦ are kept.  J♠: ♠ → ♦ (3 mod 2), J is
    # not kept → the lowest kept rank Q, but Q♦ is Q♦'s: down from Q there is nothing, up: K♦.
    assert paid == {"A♥": "A♣", "K♣": "K♣", "Q♦": "Q♦", "J♠": "K♦"}


def test_every_deal_is_counted_once() -> None:
    small = reduce(load("michigan"), 2, 3).ruleset
    all_deals = list(deals(small, 3))
    assert len(all_deals) == 180
    assert len(set(all_deals)) == 180
    assert all(len(d[1]) == len(d[2]) == 2 and len(d[0]) == len(d[3]) == 1 for d in all_deals)


def _kitty_only(rs: Ruleset) -> Ruleset:
    board = tuple(s for s in rs.board if s.kind == "kitty")
    return replace(rs, board=board, antes=tuple(a for a in rs.antes if a.targets == ("kitty",)))


def test_suit_symmetry_halves_the_deals_of_a_kitty_only_board() -> None:
    # With no section paid by a card, swapping ♣ and ♦ changes no rule: 2 symmetries.  No
    # deal is its own image (a hand of one card never is), so the 180 deals fall in 90 pairs.
    small = _kitty_only(reduce(load("michigan"), 2, 3).ruleset)
    assert len(suit_symmetries(small)) == 2
    res = check_deals(small, 3, "2x3")
    assert (res.deals_raw, res.deals_checked, res.symmetries) == (180, 90, 2)
    assert res.violations == {}
    assert len(suit_symmetries(reduce(load("michigan"), 2, 3).ruleset)) == 1  # boodles differ


def test_a_colour_rule_keeps_only_colour_preserving_symmetries() -> None:
    rs = _kitty_only(reduce(load("michigan"), 4, 3).ruleset)
    phase = rs.phases[0]
    assert isinstance(phase, StopsPhase)
    colour = replace(phase, restart=LeadRule("last player", "lowest", "opposite colour"),
                     fallback=Fallback("pass"), all_pass="end without winner")
    # 24 permutations of 4 suits; keeping ♣♠ black and ♦♥ red leaves 2 × 2 = 4
    assert len(suit_symmetries(rs)) == 24
    assert len(suit_symmetries(replace(rs, phases=(colour,)))) == 4


def test_michigan_on_the_small_deck_has_no_violation_and_deals_last_three_moves() -> None:
    small = reduce(load("michigan"), 2, 3).ruleset
    res = check_deals(small, 3, "2x3")
    assert res.violations == {}
    assert (res.deals_raw, res.deals_checked) == (180, 180)
    # 5 cards start in players' hands; the deal ends when one is out and two still hold a
    # card: at most 3 plays, reached by seat 1 leading Q♣, seat 2 K♣, seat 0 A♣ (out).
    assert res.depth == 3
    ledger = Ledger(default_start(small, 3), tuple((s.name, 0) for s in small.board))
    state, _ = start_deal(small, 3, 0, ledger, hands=[_cards("A♣"), _cards("Q♣ Q♦"),
                                                      _cards("K♣ A♦")], widow=_cards("K♦"))
    for seat, card in ((1, "Q♣"), (2, "K♣"), (0, "A♣")):
        assert state.to_move == seat
        move = next(m for m in legal_moves(small, state) if str(m.card) == card)  # type: ignore[union-attr]
        state, _ = apply(small, state, move)
    assert is_terminal(state) and state.winner == 0


def test_start_chips_are_each_seats_ante_plus_two() -> None:
    # Michigan, 3 players: each pays 1 on each of 4 boodles and 2 on the kitty = 6, + 2
    assert default_start(load("michigan"), 3) == (8, 8, 8)
    # the widow sale at 2: one chip more than the price, so every seat can buy
    assert default_start(load("michigan-widow-sale"), 3) == (9, 9, 9)


def test_the_search_pauses_the_cycle_collector_and_restores_it() -> None:
    import gc


    small = _kitty_only(reduce(load("michigan"), 2, 3).ruleset)
    try:
        gc.enable()
        check_deals(small, 3, "2x3")
        assert gc.isenabled()  # it was on: on again
        gc.disable()
        check_deals(small, 3, "2x3")
        assert not gc.isenabled()  # it was off: still off
        gc.enable()
        with pytest.raises(AttributeError):  # a search that fails restores it too
            check_deals(None, 3, "2x3")  # type: ignore[arg-type]
        assert gc.isenabled()
    finally:
        gc.enable()


def test_a_hand_count_gone_wrong_is_caught_even_when_no_card_moved(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The search remembers places it found right; a state with the very same places but
    wrong hand counts must still be caught (card conservation)."""
    from boodle.verify import explicit

    real = explicit.apply

    def broken(ruleset, state, move):  # type: ignore[no-untyped-def]
        new, events = real(ruleset, state, move)
        if state.plays == 0:  # the first lead: keep the places, miscount seat 0's hand
            return state.evolve(held=(state.held[0] + 1, *state.held[1:]), step="over"), events
        return new, events

    monkeypatch.setattr(explicit, "apply", broken)
    small = reduce(load("michigan"), 2, 3).ruleset
    res = check_deals(small, 3, "2x3")
    cex = res.violations["card conservation"]
    assert "hand counts" in cex.why
    assert cex.length == 1  # found right after the first lead


def test_a_ledger_gone_wrong_is_caught_in_every_state_that_keeps_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The search remembers ledgers it found right; a wrong ledger is looked at in every
    state that has it, so the shortest way to it is still found (chip conservation)."""
    from boodle.verify import explicit

    real = explicit.apply
    wrong: list[Ledger] = []

    def broken(ruleset, state, move):  # type: ignore[no-untyped-def]
        new, events = real(ruleset, state, move)
        if not wrong:  # one ledger with a chip too many, shared by every later state
            seats = (new.ledger.seats[0] + 1, *new.ledger.seats[1:])
            wrong.append(Ledger(seats, new.ledger.sections))
        return new.evolve(ledger=wrong[0]), events

    monkeypatch.setattr(explicit, "apply", broken)
    small = reduce(load("michigan"), 2, 3).ruleset
    res = check_deals(small, 3, "2x3")
    cex = res.violations["chip conservation"]
    assert "chips, not" in cex.why
    assert cex.length == 1  # found right after the first move


def _as_sold() -> Ruleset:
    return reduce(load("tripoley-as-sold"), 2, 3).ruleset


def test_short_stacks_add_a_start_and_betting_at_four_players_keeps_it_alone() -> None:
    # tripoley-as-sold antes 1 on each of its 9 sections; its auction opens at 1 chip, so a
    # seat starts with 9 + 1 + 1 = 11.  Under `short stack: section by section` the seats
    # after the dealer's left (at 2 players, the dealer's left) also start with the 2 chips
    # a full seat keeps after its ante: they ante the first two sections of the board only.
    from boodle.verify.explicit import FULL_START_MOST, short_start, starts

    rs = _as_sold()
    assert default_start(rs, 4) == (11, 11, 11, 11)
    assert short_start(rs, 4) == (11, 11, 2, 2)
    assert starts(rs, 2) == ((11, 11), (11, 2))
    assert starts(rs, 3) == ((11, 11, 11), (11, 11, 2))
    assert FULL_START_MOST == 3 and starts(rs, 4) == ((11, 11, 2, 2),)
    assert starts(load("michigan"), 3) == ((8, 8, 8),)  # no short stack rule: one start
    ledger = Ledger((11, 11, 2, 2), tuple((s.name, 0) for s in rs.board))
    state, _ = start_deal(rs, 4, 0, ledger, hands=[_cards("Q♣ K♣"), _cards("A♣"),
                                                   _cards("Q♦"), _cards("K♦")],
                          widow=_cards("A♦"))
    first_two = frozenset(s.name for s in rs.board[:2])
    assert state.short == ((2, first_two), (3, first_two))
    assert state.ledger.seats == (2, 2, 0, 0)


def test_the_short_start_finds_the_faults_the_default_start_finds() -> None:
    # The start decides which chips the search plays with, not which rules: a fault in a
    # transfer of the betting round or of a claim is found from the short start alone as
    # from the default start (2 players: 90 deals, a few thousand states each way).
    from boodle.verify.explicit import short_start
    from boodle.verify.mutation import Mutation

    rs = _as_sold()
    for reason in ("bet", "claim"):
        fault = Mutation(f"{reason} credit", credit_only=frozenset({reason}))
        full = check_deals(rs, 2, "2x3", start=default_start(rs, 2), mutation=fault)
        short = check_deals(rs, 2, "2x3", start=short_start(rs, 2), mutation=fault)
        assert "chip conservation" in full.violations, reason
        assert "chip conservation" in short.violations, reason
    clean = check_deals(rs, 2, "2x3")
    assert clean.violations == {} and clean.complete
    assert clean.starts == ((11, 11), (11, 2))


def test_a_fault_of_the_short_stack_rule_is_reached_only_from_the_short_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """From the default start no seat is ever short, so a fault in the short-stack rule
    (here: the engine fails when a seat cannot pay its whole ante) goes unseen there; the
    search of :func:`~boodle.verify.explicit.starts` reaches it."""
    from boodle.engine.stages import antes
    from boodle.language.errors import BoodleError

    real = antes.SHORT_STACKS["section by section"]

    def broken(ruleset: Ruleset, state: DealState, due: Any) -> Any:
        payments, short = real(ruleset, state, due)
        if short:
            raise BoodleError("short stacks are broken")
        return payments, short

    monkeypatch.setitem(antes.SHORT_STACKS, "section by section", broken)
    rs = _as_sold()
    assert check_deals(rs, 2, "2x3", start=default_start(rs, 2)).violations == {}
    found = check_deals(rs, 2, "2x3").violations["well-formedness"]
    assert "short stacks are broken" in found.why
    assert found.deal["chips before the ante"] == ["11", "2"]


def test_the_report_names_the_starts_each_search_was_made_from(
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from boodle.cli import main

    assert main(["verify", "tripoley-as-sold", "--players", "2", "--no-z3", "--no-engine",
                 "--no-cache", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = [r for r in doc["results"] if r["method"] == "exhaustive"]
    assert rows and all(r["status"] == "checked" for r in rows)
    assert all("every deal from (11, 11) and (11, 2) chips by seat before the ante"
               in r["detail"] for r in rows)
