"""The widow sale and auction (spec §5.4), move by move on one constructed deal.

Michigan (tests/helpers/rules_by_hand.py) with a ``widow sale`` block; 4 players start
with 50 chips and ante 6 each (1 on each of A♥ K♣ Q♦ J♠, 2 on the kitty), so
each holds 44 and the kitty 8 when the sale starts.  D (seat 3) deals; the
sale is offered to A, B, C in turn (dealer's left to dealer's right).

The deal (52 cards = 13 + 9 + 12 + 9 + 9):
  A: 2♣ … K♣ and 2♦  (holds K♣, a boodle card)
  B: 3♦ … J♦
  C: 2♥ … K♥
  D: 2♠ … 10♠
  widow: A♣ Q♦ K♦ A♦ A♥ J♠ Q♠ K♠ A♠
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.engine import IllegalMove, apply, legal_moves, misdeal, start_deal, to_move
from boodle.engine.events import (
    Stop,
    WidowBid,
    WidowExchange,
    WidowOffered,
    WidowPass,
    WidowShown,
    WidowUnsold,
    transfers_in,
)
from boodle.engine.state import (
    BidMove,
    BidRange,
    BuyMove,
    DealState,
    LeadMove,
    Move,
    OfferMove,
    PassMove,
    SwapMove,
    allows,
)
from boodle.language.model import Ruleset, WidowSale
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


def sale_rules(**changes: object) -> Ruleset:
    """Michigan with a widow sale: by default 000 step 6 (unseen, 2 chips to the kitty)."""
    sale = WidowSale(mode="sale", price=2, seen=False, price_to="kitty", dealer_swap=True,
                     dealer_may_look=False, barred_by_boodle=False, discard="becomes widow")
    return replace(michigan(), widow_sale=replace(sale, **changes))  # type: ignore[arg-type]


def start(rules: Ruleset, chips: int = 50) -> tuple[DealState, list]:
    return start_deal(rules, 4, D, fresh_ledger(rules, 4, chips), hands=HANDS, widow=WIDOW)


def run(rules: Ruleset, state: DealState, *moves: Move) -> tuple[DealState, list]:
    events: list = []
    for move in moves:
        assert allows(legal_moves(rules, state), move), f"{move}: legal {legal_moves(rules, state)}"
        state, more = apply(rules, state, move)
        events.extend(more)
    return state, events


def refused(rules: Ruleset, state: DealState, move: Move) -> str | None:
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, move)
    return info.value.rule


# ---------------------------------------------------------------- fixed-price sale


def test_the_sale_is_offered_from_the_dealers_left_and_the_first_buyer_exchanges() -> None:
    rules = sale_rules()
    state, events = start(rules)
    assert to_move(state) == A and state.stage == "widow"
    assert legal_moves(rules, state) == (PassMove(A), BuyMove(A))
    state, events = run(rules, state, PassMove(A), BuyMove(B))
    assert events[0] == WidowPass(A, "offer")
    exchange = events[1]
    assert isinstance(exchange, WidowExchange) and exchange.how == "buy"
    # B pays the price, 2, into the kitty: 44 - 2 = 42; the kitty 8 + 2 = 10
    assert state.ledger.seats == (44, 42, 44, 44) and state.ledger.section("kitty") == 10
    assert set(state.hand(B)) == set(WIDOW) and set(state.widow()) == set(HANDS[B])
    # the sale is over: play starts with the first lead, left of the dealer (A)
    assert state.stage == "phase:play" and to_move(state) == A
    assert set(legal_moves(rules, state)) == {LeadMove(A, card("2♣")), LeadMove(A, card("2♦"))}


def test_nobody_buys_then_the_dealer_swaps_unseen_for_the_price() -> None:
    rules = sale_rules()
    state, _ = start(rules)
    state, events = run(rules, state, PassMove(A), PassMove(B), PassMove(C))
    assert to_move(state) == D and not any(isinstance(e, WidowShown) for e in events)
    assert legal_moves(rules, state) == (PassMove(D), SwapMove(D))
    assert refused(rules, state, BuyMove(D)) == "move.kind"
    state, events = run(rules, state, SwapMove(D))
    # the dealer pays 2 into the kitty (000 step 6): 44 - 2 = 42, kitty 10
    assert state.ledger.seats == (44, 44, 44, 42) and state.ledger.section("kitty") == 10
    assert set(state.hand(D)) == set(WIDOW) and to_move(state) == A


def test_pay_the_widow_dealer_looks_then_keeps_their_hand_and_pays_nothing() -> None:
    rules = sale_rules(dealer_may_look=True)
    state, _ = start(rules)
    state, events = run(rules, state, PassMove(A), PassMove(B), PassMove(C))
    assert events[-1] == WidowShown((D,), tuple(sorted(WIDOW, key=rules.deck.cards().index)))
    state, events = run(rules, state, PassMove(D))
    assert events == [WidowPass(D, "dealer"), WidowUnsold()]
    assert state.ledger.seats == (44, 44, 44, 44) and state.ledger.section("kitty") == 8
    assert set(state.widow()) == set(WIDOW)


# ---------------------------------------------------------------- the dealer's option


def test_the_dealer_may_withhold_the_widow_and_nobody_is_asked() -> None:
    """000 step 6: the dealer "peut proposer" the widow; not offered, it stays a blocker."""
    rules = sale_rules(dealer_may_withhold=True)
    state, _ = start(rules)
    # the dealer decides first, before A is asked; offering is no purchase
    assert to_move(state) == D and state.stage == "widow"
    assert legal_moves(rules, state) == (PassMove(D), OfferMove(D))
    assert refused(rules, state, BuyMove(D)) == "move.kind"
    assert refused(rules, state, SwapMove(D)) == "move.kind"
    state, events = run(rules, state, PassMove(D))
    assert events == [WidowPass(D, "dealer offers"), WidowUnsold()]
    # nothing paid: every seat keeps 44, the kitty 8; the widow as dealt; A leads
    assert state.ledger.seats == (44, 44, 44, 44) and state.ledger.section("kitty") == 8
    assert set(state.widow()) == set(WIDOW) and state.stage == "phase:play"
    assert to_move(state) == A
    # the widow's A♣ stops the clubs at K♣ for the rest of the deal
    state, events = run(rules, state, LeadMove(A, card("2♣")))
    assert refused(rules, state, OfferMove(D)) in ("move.kind", "turn")


def test_an_offered_widow_is_sold_as_without_the_option() -> None:
    rules = sale_rules(dealer_may_withhold=True)
    state, _ = start(rules)
    state, events = run(rules, state, OfferMove(D))
    assert events == [WidowOffered(D)]
    assert to_move(state) == A and legal_moves(rules, state) == (PassMove(A), BuyMove(A))
    assert refused(rules, state, OfferMove(A)) == "move.kind"
    state, events = run(rules, state, PassMove(A), BuyMove(B))
    # B pays 2 into the kitty: 42, kitty 10; the offer itself cost nothing
    assert state.ledger.seats == (44, 42, 44, 44) and state.ledger.section("kitty") == 10
    assert set(state.hand(B)) == set(WIDOW)


def test_without_a_dealer_line_an_unbought_widow_stays() -> None:
    rules = sale_rules(dealer_swap=False)
    state, _ = start(rules)
    state, events = run(rules, state, PassMove(A), PassMove(B), PassMove(C))
    assert events[-1] == WidowUnsold() and to_move(state) == A and state.stage == "phase:play"


def test_a_seen_sale_shows_the_widow_to_everyone_first() -> None:
    _, events = start(sale_rules(seen=True))
    shown = [e for e in events if isinstance(e, WidowShown)]
    assert len(shown) == 1 and shown[0].seats == (A, B, C, D)


def test_a_holder_of_a_boodle_card_is_barred() -> None:
    rules = sale_rules(barred_by_boodle=True)
    state, _ = start(rules)
    # A holds K♣, which pays the K♣ section by itself: A may only pass
    assert legal_moves(rules, state) == (PassMove(A),)
    assert refused(rules, state, BuyMove(A)) == "widow.barred"
    state, _ = run(rules, state, PassMove(A))
    assert legal_moves(rules, state) == (PassMove(B), BuyMove(B))


def test_a_player_short_of_the_price_may_not_buy() -> None:
    rules = sale_rules()
    state, _ = start(rules, chips=7)  # 7 - 6 ante = 1 chip left, the price is 2
    assert legal_moves(rules, state) == (PassMove(A),)
    assert refused(rules, state, BuyMove(A)) == "widow.funds"


def test_a_discard_out_of_play_stops_runs_and_is_never_played() -> None:
    rules = sale_rules(discard="out of play")
    state, _ = start(rules)
    state, _ = run(rules, state, PassMove(A), BuyMove(B))
    assert set(state.out_of_play()) == set(HANDS[B]) and state.widow() == ()
    # 52 cards: 13 (A) + 9 (B, the old widow) + 12 (C) + 9 (D) + 9 out of play
    assert sum(len(h) for h in state.hands) + len(state.out_of_play()) == 52
    # A leads 2♦; 3♦ is out of play, held by nobody: the run stops at once
    state, events = run(rules, state, LeadMove(A, card("2♦")))
    assert events[-1] == Stop(A, card("2♦"), "out of play", card("3♦"))


def test_a_discard_that_becomes_the_widow_stops_runs_as_the_widow() -> None:
    rules = sale_rules()
    state, _ = start(rules)
    state, _ = run(rules, state, PassMove(A), BuyMove(B))
    state, events = run(rules, state, LeadMove(A, card("2♦")))
    assert events[-1] == Stop(A, card("2♦"), "widow", card("3♦"))


def test_moves_of_the_wrong_form_or_seat_are_refused() -> None:
    rules = sale_rules()
    state, _ = start(rules)
    assert refused(rules, state, BuyMove(B)) == "turn"
    assert refused(rules, state, LeadMove(A, card("2♣"))) == "move.kind"
    assert refused(rules, state, BidMove(A, 3)) == "move.kind"
    assert refused(rules, state, SwapMove(A)) == "move.kind"


def test_a_misdeal_undoes_the_price_and_the_sale_starts_again() -> None:
    rules = sale_rules()
    state, _ = start(rules)
    state, _ = run(rules, state, BuyMove(A))
    assert state.ledger.seat(A) == 42
    state, _ = misdeal(rules, state, hands=HANDS, widow=WIDOW)
    assert state.ledger.seats == (44, 44, 44, 44) and state.ledger.section("kitty") == 8
    assert state.stage == "widow" and to_move(state) == A


# ---------------------------------------------------------------- auction


def auction_rules(**changes: object) -> Ruleset:
    """Rummoli's auction (rodsgamesite): the dealer may swap first; bids go to the dealer."""
    base = dict(mode="auction", price=0, dealer_swap=True, dealer_first=True, to_dealer=True,
                barred_by_boodle=True, discard="out of play")
    return sale_rules(**{**base, **changes})


def test_the_dealer_swaps_first_and_pays_nobody() -> None:
    rules = auction_rules()
    state, _ = start(rules)
    assert to_move(state) == D and legal_moves(rules, state) == (PassMove(D), SwapMove(D))
    state, events = run(rules, state, SwapMove(D))
    exchange = events[0]
    # the price would go from the dealer to the dealer: nothing is paid
    assert isinstance(exchange, WidowExchange) and exchange.transfer is None
    assert transfers_in(exchange) == ()
    assert state.ledger.seats == (44, 44, 44, 44) and set(state.hand(D)) == set(WIDOW)
    assert to_move(state) == A and state.stage == "phase:play"


def test_the_highest_bid_wins_and_is_paid_to_the_dealer() -> None:
    rules = auction_rules()
    state, _ = start(rules)
    state, _ = run(rules, state, PassMove(D))
    # A holds K♣ and is barred: A may only pass
    assert legal_moves(rules, state) == (PassMove(A),)
    state, _ = run(rules, state, PassMove(A))
    bids = legal_moves(rules, state)
    # B has 50 - 6 = 44 chips after the antes: one entry for every bid of 1 to 44 chips
    assert bids == (PassMove(B), BidRange(B, 1, 44))
    state, events = run(rules, state, BidMove(B, 1), BidMove(C, 3))
    assert events == [WidowBid(B, 1), WidowBid(C, 3)]
    # A passed and is out, D is not a bidder: the turn comes back to B
    assert to_move(state) == B
    assert refused(rules, state, BidMove(B, 3)) == "widow.bid-low"
    assert refused(rules, state, BidMove(B, 45)) == "widow.funds"
    state, events = run(rules, state, PassMove(B))
    exchange = events[-1]
    assert isinstance(exchange, WidowExchange) and exchange.how == "bid"
    # C pays 3 to the dealer D: C 44 - 3 = 41, D 44 + 3 = 47; C's hearts go out of play
    assert state.ledger.seats == (44, 44, 41, 47)
    assert set(state.hand(C)) == set(WIDOW) and set(state.out_of_play()) == set(HANDS[C])


def test_an_auction_where_everyone_passes_leaves_the_widow() -> None:
    rules = auction_rules()
    state, _ = start(rules)
    state, events = run(rules, state, PassMove(D), PassMove(A), PassMove(B), PassMove(C))
    assert events[-1] == WidowUnsold() and state.ledger.seats == (44, 44, 44, 44)
    assert to_move(state) == A and state.stage == "phase:play"


def test_without_a_dealer_line_the_dealer_bids_and_the_turn_skips_the_highest_bidder() -> None:
    rules = auction_rules(dealer_swap=False, dealer_first=False, to_dealer=False,
                          barred_by_boodle=False, price=2, price_to="kitty")
    state, _ = start(rules)
    assert legal_moves(rules, state)[1] == BidRange(A, 2, 44)  # from the opening price 2 to A's 44
    assert refused(rules, state, BidMove(A, 1)) == "widow.bid-low"
    state, _ = run(rules, state, BidMove(A, 2), PassMove(B), PassMove(C), BidMove(D, 5))
    # B and C are out; A is asked again; after A passes, D has the highest bid alone
    assert to_move(state) == A
    state, events = run(rules, state, PassMove(A))
    assert isinstance(events[-1], WidowExchange) and events[-1].seat == D
    # D pays 5 into the kitty: 44 - 5 = 39, kitty 8 + 5 = 13
    assert state.ledger.seats == (44, 44, 44, 39) and state.ledger.section("kitty") == 13


# ---------------------------------------------------------------- the DSL lines (spec §5.4)


def test_price_to_dealer_and_dealer_first_in_the_language() -> None:
    from pathlib import Path

    from boodle.language.build import load_text
    from boodle.language.variants import builtin_path

    text = builtin_path("michigan").read_text(encoding="utf-8").rstrip().removesuffix("}") + """
      widow sale {
        offer: auction unseen
        price to: dealer
        dealer: may look and swap first
        barred: holding a boodle card
        discard: out of play
      }
    }
    """
    sale = load_text(text, str(Path("/nowhere/michigan.boodle"))).widow_sale
    assert sale is not None
    assert (sale.to_dealer, sale.dealer_first, sale.dealer_may_look, sale.dealer_swap) == (
        True, True, True, True)
    plain = text.replace("price to: dealer", "price to: kitty").replace(" first\n", "\n")
    sale = load_text(plain, str(Path("/nowhere/michigan.boodle"))).widow_sale
    assert sale is not None
    assert (sale.to_dealer, sale.dealer_first, sale.price_to) == (False, False, "kitty")


def test_the_dealer_bids_at_most_their_balance_even_when_the_bid_goes_to_themself() -> None:
    # price to: dealer, no dealer line: the dealer D bids too and would pay itself nothing;
    # spec §5.4 still caps every bid at the bidder's balance (44 after the antes)
    rules = auction_rules(dealer_swap=False, dealer_first=False, to_dealer=True,
                          barred_by_boodle=False, price=1)
    state, _ = start(rules)
    state, _ = run(rules, state, PassMove(A), PassMove(B), PassMove(C))
    assert to_move(state) == D and legal_moves(rules, state) == (PassMove(D), BidRange(D, 1, 44))
    assert refused(rules, state, BidMove(D, 45)) == "widow.funds"
