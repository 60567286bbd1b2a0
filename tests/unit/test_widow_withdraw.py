"""The auction's highest bidder able to withdraw (spec §5.4 ``high bidder: may withdraw``;
github.com/Alysoun/tripoley, reducer.ts ``BLIND_AUCTION_PASS``: a high bidder who passes
"withdraws N chip bid for blind hand", the high bid cleared, no chip moved).

Michigan (tests/helpers/rules_by_hand.py) with an auction unseen from 2 chips into the kitty,
the dealer's own swap after it (so the dealer does not bid); 4 players start with 50 chips and
ante 6 each (1 on each of A♥ K♣ Q♦ J♠, 2 on the kitty): 44 each, the kitty 8, when the auction
starts.  D (seat 3) deals; A, B, C bid in turn.  Every expected figure below is worked out by
hand from those numbers.

The deal (52 cards = 13 + 9 + 12 + 9 + 9):
  A: 2♣ … K♣ and 2♦ (13 cards)   B: 3♦ … J♦ (9)   C: 2♥ … K♥ (12)   D: 2♠ … 10♠ (9)
  widow: A♣ Q♦ K♦ A♦ A♥ J♠ Q♠ K♠ A♠ (9)
"""

from __future__ import annotations

import random
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from boodle import engine
from boodle.conformance.wire import move_from_json, move_to_json
from boodle.engine import IllegalMove, apply, legal_moves, start_deal, to_move
from boodle.engine.events import WidowExchange, WidowPass, WidowUnsold, WidowWithdrawn
from boodle.engine.state import (
    BidMove,
    BidRange,
    DealState,
    LeadMove,
    Move,
    PassMove,
    SwapMove,
    WithdrawMove,
    allows,
)
from boodle.engine.strategies import greedy, random_legal
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import HighBid, Ruleset, WidowSale
from boodle.testing import last_word, machine
from rules_by_hand import card, cards, fresh_ledger, michigan

A, B, C, D = 0, 1, 2, 3
CLUBS = " ".join(f"{r}♣" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
HANDS = (
    cards(CLUBS + " 2♦"),
    cards("3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦"),
    cards("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"),
    cards("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"),
)
WIDOW = cards("A♣ Q♦ K♦ A♦ A♥ J♠ Q♠ K♠ A♠")


def auction(high_bid: HighBid = "may be withdrawn") -> Ruleset:
    """Michigan with michigan-widow-auction's block, and the given rule of the highest bid."""
    sale = WidowSale(mode="auction", price=2, seen=False, price_to="kitty", dealer_swap=True,
                     dealer_may_look=False, barred_by_boodle=False, discard="becomes widow",
                     high_bid=high_bid)
    return replace(michigan(), widow_sale=sale)


def start(rules: Ruleset) -> DealState:
    state, _ = start_deal(rules, 4, D, fresh_ledger(rules, 4, 50), hands=HANDS, widow=WIDOW)
    return state


def run(rules: Ruleset, state: DealState, *moves: Move) -> tuple[DealState, list[Any]]:
    events: list[Any] = []
    for move in moves:
        assert allows(legal_moves(rules, state), move), f"{move}: legal {legal_moves(rules, state)}"
        state, more = apply(rules, state, move)
        events.extend(more)
    return state, events


def refused(rules: Ruleset, state: DealState, move: Move) -> str | None:
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, move)
    return info.value.rule


# ---------------------------------------------------------------- the engine


def test_the_last_word_comes_once_every_other_bidder_has_passed() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), BidMove(A, 2), BidMove(B, 3))
    # C and A are still in: no withdrawal yet, only a pass or a bid above 3
    assert legal_moves(rules, state) == (PassMove(C), BidRange(C, 4, 44))
    state, events = run(rules, state, PassMove(C), PassMove(A))
    # A and C are out: B, the highest bidder at 3, moves once more
    assert to_move(state) == B and legal_moves(rules, state) == (PassMove(B), WithdrawMove(B))
    assert not any(isinstance(e, WidowExchange) for e in events)
    assert state.ledger.seats == (44, 44, 44, 44) and state.ledger.section("kitty") == 8


def test_a_withdrawal_pays_nothing_and_the_dealer_may_then_swap() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), BidMove(A, 2), PassMove(B), PassMove(C))
    state, events = run(rules, state, WithdrawMove(A))
    assert events == [WidowWithdrawn(A, 2)]
    # nothing paid: 44 each, the kitty 8; nobody bought, so the dealer's chance (at 2 chips)
    assert state.ledger.seats == (44, 44, 44, 44) and state.ledger.section("kitty") == 8
    assert to_move(state) == D and legal_moves(rules, state) == (PassMove(D), SwapMove(D))
    state, events = run(rules, state, PassMove(D))
    assert events == [WidowPass(D, "dealer"), WidowUnsold()]
    assert set(state.hand(A)) == set(HANDS[A]) and set(state.widow()) == set(WIDOW)
    assert legal_moves(rules, state)[0] == LeadMove(A, card("2♣"))  # play as dealt


def test_after_a_withdrawal_the_dealer_swaps_at_the_opening_price() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), PassMove(A), BidMove(B, 5), PassMove(C),
                   WithdrawMove(B))
    state, events = run(rules, state, SwapMove(D))
    # the 5 withdrawn is not owed; D pays the auction's 'at 2': 44 - 2 = 42, kitty 8 + 2 = 10
    assert state.ledger.seats == (44, 44, 44, 42) and state.ledger.section("kitty") == 10
    assert isinstance(events[-1], WidowExchange) and events[-1].how == "swap"


def test_a_pass_at_the_last_word_lets_the_bid_stand() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), BidMove(A, 2), BidMove(B, 3), PassMove(C), PassMove(A))
    state, events = run(rules, state, PassMove(B))
    assert events[0] == WidowPass(B, "high bidder")
    exchange = events[1]
    assert isinstance(exchange, WidowExchange) and (exchange.seat, exchange.how) == (B, "bid")
    # B pays its 3 into the kitty: 44 - 3 = 41, kitty 8 + 3 = 11
    assert state.ledger.seats == (44, 41, 44, 44) and state.ledger.section("kitty") == 11
    assert set(state.hand(B)) == set(WIDOW) and set(state.widow()) == set(HANDS[B])


def test_without_the_line_the_highest_bid_binds() -> None:
    rules = auction("binds")
    state, events = run(rules, start(rules), BidMove(A, 2), PassMove(B), PassMove(C))
    # C's pass ends the auction: A pays 2 at once (44 - 2 = 42, kitty 10), no last word
    assert isinstance(events[-1], WidowExchange) and events[-1].seat == A
    assert state.ledger.seats == (42, 44, 44, 44) and state.ledger.section("kitty") == 10
    assert refused(rules, state, WithdrawMove(A)) == "move.kind"


def test_a_withdrawal_at_any_other_time_is_refused() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), BidMove(A, 2))
    assert refused(rules, state, WithdrawMove(B)) == "move.kind"  # B is no high bidder
    assert refused(rules, state, WithdrawMove(A)) == "turn"  # B's move, not A's
    last, _ = run(rules, state, PassMove(B), PassMove(C))
    assert refused(rules, last, BidMove(A, 3)) == "move.kind"  # no bid against oneself
    played, _ = run(rules, last, PassMove(A))  # A takes the widow; play begins
    assert refused(rules, played, WithdrawMove(A)) == "move.kind"  # in play


# ---------------------------------------------------------------- the rules file

TEXT = """variant t extends michigan {
  widow sale {
    offer: OFFER unseen at 2
    price to: kitty
    high bidder: may withdraw
  }
}
"""


def test_the_builder_reads_the_line_and_refuses_it_on_a_fixed_price_sale() -> None:
    rules = load_text(TEXT.replace("OFFER", "auction"), "t.boodle")
    assert rules.widow_sale is not None and rules.widow_sale.high_bid == "may be withdrawn"
    plain = load_text(TEXT.replace("OFFER", "auction").replace(
        "    high bidder: may withdraw\n", ""), "t.boodle")
    assert plain.widow_sale is not None and plain.widow_sale.high_bid == "binds"
    with pytest.raises(BoodleError, match="a sale has no bids to withdraw") as err:
        load_text(TEXT.replace("OFFER", "sale"), "t.boodle")
    assert err.value.span is not None and (err.value.span.line, err.value.span.column) == (5, 5)
    hint = err.value.hint or ""
    assert "write: offer: auction unseen at 2" in hint and "delete the 'high bidder' line" in hint
    edits = getattr(hint, "edits", ())
    assert [(e.line, e.text) for e in edits] == [(3, "offer: auction unseen at 2")]


# ---------------------------------------------------------------- the protocol


def test_the_move_has_a_protocol_form() -> None:
    assert move_to_json(WithdrawMove(1)) == {"move": "withdraw", "seat": 1}
    assert move_from_json({"move": "withdraw", "seat": 1}) == WithdrawMove(1)


# ---------------------------------------------------------------- the strategies


def test_greedy_stands_while_the_widow_is_the_shorter_hand_and_withdraws_otherwise() -> None:
    rules = auction()
    # A holds 13 cards, the widow 9: the widow is shorter, A lets its bid stand
    state, _ = run(rules, start(rules), BidMove(A, 2), PassMove(B), PassMove(C))
    assert greedy(rules, state, legal_moves(rules, state)) == PassMove(A)
    # B holds 9 cards, as many as the widow: B withdraws
    state, _ = run(rules, start(rules), PassMove(A), BidMove(B, 2), PassMove(C))
    assert greedy(rules, state, legal_moves(rules, state)) == WithdrawMove(B)


def test_random_draws_both_moves_of_the_last_word() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), BidMove(A, 2), PassMove(B), PassMove(C))
    legal = legal_moves(rules, state)
    drawn = {random_legal(random.Random(seed))(rules, state, legal) for seed in range(40)}
    assert drawn == {PassMove(A), WithdrawMove(A)}


# ---------------------------------------------------------------- the Hypothesis machine

FIND = settings(max_examples=30, stateful_step_count=220, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck), phases=[Phase.generate])


def test_the_oracle_knows_the_last_word() -> None:
    rules = auction()
    state, _ = run(rules, start(rules), BidMove(A, 2), PassMove(B))
    assert not last_word(rules, state)
    state, _ = run(rules, state, PassMove(C))
    assert last_word(rules, state) and not last_word(auction("binds"), state)


def test_the_reference_engine_passes_the_machine_with_withdrawable_bids() -> None:
    run_state_machine_as_test(
        machine(variants=["michigan-widow-auction"], house_rules=["withdrawable bids"]),
        settings=settings(FIND, max_examples=6))


def _binding() -> Any:
    """An engine that ignores 'high bidder: may withdraw': the highest bid always binds."""
    def bound(ruleset: Any) -> Any:
        return replace(ruleset, widow_sale=replace(ruleset.widow_sale, high_bid="binds"))

    return SimpleNamespace(
        start_deal=engine.start_deal, is_terminal=engine.is_terminal,
        legal_moves=lambda rs, s: engine.legal_moves(bound(rs), s),
        apply=lambda rs, s, m: engine.apply(bound(rs), s, m))


def _charging() -> Any:
    """An engine whose withdrawal still takes the widow at the bid (a pass in its place)."""
    def apply(ruleset: Any, state: Any, move: Any) -> Any:
        if isinstance(move, WithdrawMove) and state.sale is not None \
                and state.sale.step == "high bidder":  # elsewhere refused, as it should be
            return engine.apply(ruleset, state, PassMove(move.seat))
        return engine.apply(ruleset, state, move)

    return SimpleNamespace(start_deal=engine.start_deal, legal_moves=engine.legal_moves,
                           apply=apply, is_terminal=engine.is_terminal)


@pytest.mark.parametrize(("broken", "why"), [
    (_binding, "last word"),
    (_charging, "a withdrawal moved chips"),
])
def test_a_broken_withdrawal_fails_the_machine(broken: Any, why: str) -> None:
    with pytest.raises(AssertionError, match=why):
        run_state_machine_as_test(
            machine(broken(), variants=["michigan-widow-auction"],
                    house_rules=["withdrawable bids"], oracle="none"),
            settings=FIND)


def test_a_sale_with_no_offer_line_but_a_high_bidder_line_is_offered_an_auction() -> None:
    """Found by a new user: with 'high bidder: may withdraw' and no offer line, the hint
    said to add 'offer: sale unseen at 2', which the next check refuses (a sale has no bids
    to withdraw, spec §5.4): the hint adds an auction."""
    text = TEXT.replace("    offer: OFFER unseen at 2\n", "")
    with pytest.raises(BoodleError, match="the widow sale has no offer line") as err:
        load_text(text, "t.boodle")
    hint = err.value.hint or ""
    assert "offer: auction unseen at 2" in hint and "sale" not in hint
    fixed = "".join(getattr(hint, "edits", ())[0].text)
    assert fixed.strip() == "offer: auction unseen at 2"
