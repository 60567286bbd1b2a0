"""Exhaustive search on reduced decks: the reduction rule, suit symmetry, deal counts.

Counts are worked out by hand: a 2-suit × 3-rank deck (Q K A of ♣ and ♦)
dealt to 3 players and the widow, dealer seat 0, widow last in each round
(spec §5.2): 6 = 1·4 + 2, so seats 1 and 2 get 2 cards, seat 0 and the
widow 1: 6! / (2!·2!·1!·1!) = 180 deals.
"""

from __future__ import annotations

from dataclasses import replace

from boodle.engine import apply, is_terminal, legal_moves, start_deal
from boodle.engine.ledger import Ledger
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

    import pytest

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
