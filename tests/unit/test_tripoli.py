"""Tripoli (004) deals played stage by stage from constructed hands, worked by hand.

Hearts by holding (spec §8.1), the poker showdown (§8.2), the stops phase and
the Chien with and without the house rule (§7), in whole and exact chips (§9).
Every expected number is worked out in the comments from
spec/variants/tripoli.boodle and the spec before the engine was run.  Seats
are clockwise; the seat on the dealer's left leads.
"""

from __future__ import annotations

from fractions import Fraction

from boodle.engine import apply, legal_moves, misdeal, start_deal
from boodle.engine.events import Ante, DealCards, Payment, Showdown
from boodle.engine.ledger import seat
from boodle.engine.state import BidMove, LeadMove, Move, PassMove, PlayMove
from boodle.language.build import load_text
from boodle.language.model import Ruleset
from boodle.language.variants import load
from boodle.session.run import split_leftover
from deal_helpers import claims, play_out
from rules_by_hand import card, cards, fresh_ledger

# ---------------------------------------------------------------- Tripoli, 3 players
#
# Dealer: seat 2, so seat 0 leads.  Ante (004 set-up §2): the dealer 2 on each of
# the 8 sections (16), seats 0 and 1 one each (8): every section holds 4;
# balances 42, 42, 34.
TRIPOLI_3 = (
    cards("2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣"),  # seat 0: SF 4♦-8♦
    cards("4♠ 5♠ 6♠ 7♠ 8♠ K♠ Q♠ A♥ J♣ Q♣ A♣ 2♠ 3♠"),  # seat 1: SF 4♠-8♠, K-Q♠, A♥
    cards("K♥ Q♥ J♥ 4♥ 5♥ 6♥ 7♥ 8♥ 10♦ J♦ Q♦ A♦ 2♥"),  # seat 2: SF 4♥-8♥, K-Q♥, K♥ Q♥ J♥
)
GHOST_3 = cards("9♦ 10♣ 10♥ K♣ K♦ 8♣ 9♣ 3♥ 9♥ 9♠ 10♠ J♠ A♠")
# Stops: seat 0 leads 2♦ (its longest suit, 7 diamonds) and plays up to 8♦; 9♦ is
# the ghost's: stop.  Seat 0 restarts with 2♣ (its only suit) and goes out on 7♣.
SEAT0_RUNS: tuple[Move, ...] = (
    LeadMove(0, card("2♦")), *(PlayMove(0, c) for c in cards("3♦ 4♦ 5♦ 6♦ 7♦ 8♦")),
    LeadMove(0, card("2♣")), *(PlayMove(0, c) for c in cards("3♣ 4♣ 5♣ 6♣ 7♣")),
)


def test_tripoli_hearts_shared_king_queen_blocked_chien_and_a_three_way_poker_tie() -> None:
    rules = load("tripoli")
    state, events = start_deal(rules, 3, 2, fresh_ledger(rules, 3), hands=TRIPOLI_3,
                               widow=GHOST_3)
    # Hearts (004 phase 1): A♥ to seat 1 (4); K♥, Q♥, J♥ to seat 2 (12); 10♥ is the
    # ghost's and carries; King-Queen (4) shared by seats 1 (K-Q♠) and 2 (K-Q♥), 2 each;
    # the Chien is blocked: 8-9♣ and 9♦ 10♣ 10♥ 9♠ are the ghost's, nobody holds an 8-9-10.
    # Poker (004 phase 2): three straight flushes 8-high (4-8♦, 4-8♠, 4-8♥) tie: the Pot's
    # 4 chips give 1 each and 1 stays (chips whole, spec §9).
    assert claims(events) == [
        (1, "A♥", 4), (2, "K♥", 4), (2, "Q♥", 4), (2, "J♥", 4),
        (1, "king-queen", 2), (2, "king-queen", 2),
        (0, "pot", 1), (1, "pot", 1), (2, "pot", 1),
    ]
    shown = next(e for e in events if isinstance(e, Showdown))
    assert shown.winners == (0, 1, 2)
    assert [h.strength for _, h in shown.hands] == [(8, 8)] * 3
    assert state.ledger.seats == (43, 49, 49)
    assert dict(state.ledger.sections) == {
        "A♥": 0, "K♥": 0, "Q♥": 0, "J♥": 0, "10♥": 4, "pot": 1, "chien": 4, "king-queen": 0}
    # Stops (004 phase 3): seat 0 goes out; it takes the Chien (4) and 13 per opponent.
    final, events = play_out(rules, state, SEAT0_RUNS)
    assert claims(events) == [(0, "chien", 4)]
    assert [(e.payer, e.amount) for e in events if isinstance(e, Payment)] == [(1, 13), (2, 13)]
    assert final.seats == (73, 36, 36)
    assert dict(final.sections)["10♥"] == 4 and dict(final.sections)["pot"] == 1
    assert final.total() == 150


def test_tripoli_exact_chips_split_the_pot_in_thirds() -> None:
    exact = load_text("variant tripoli-exact extends tripoli { chips exact }", "<test>")
    state, _ = start_deal(exact, 3, 2, fresh_ledger(exact, 3), hands=TRIPOLI_3, widow=GHOST_3)
    # the Pot's 4 chips in thirds: 4/3 each, nothing stays
    assert state.ledger.seats == (42 + Fraction(4, 3), 48 + Fraction(4, 3), 48 + Fraction(4, 3))
    assert state.ledger.section("pot") == 0
    final, _ = play_out(exact, state, SEAT0_RUNS)
    assert final.seats == (Fraction(220, 3), Fraction(109, 3), Fraction(109, 3))
    assert final.total() == 150


# ---------------------------------------------------------------- Tripoli, 4 players
#
# Dealer: seat 3.  Ante: seat 3 puts 2 on each of 8 sections (16), seats 0-2 one each:
# every section holds 5; balances 42, 42, 42, 34.
TRIPOLI_4 = (
    cards("2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 2♣ 3♣ 4♣ 5♣"),  # seat 0 (11): SF 4♦-8♦
    cards("8♠ 9♠ 10♠ J♠ 4♥ 5♥ 6♥ 7♥ 8♣ 9♣"),  # seat 1: 8-9-10♠
    cards("8♥ 9♥ 10♥ 2♥ 3♥ 10♣ Q♣ A♣ Q♦ A♦"),  # seat 2: 8-9-10♥ and 10♥
    cards("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 6♣ 7♣ 10♦ J♦"),  # seat 3: SF 3♠-7♠
)
GHOST_4 = cards("9♦ A♥ K♥ Q♥ J♥ K♣ K♦ K♠ J♣ Q♠ A♠")
SEAT0_RUNS_4: tuple[Move, ...] = (
    LeadMove(0, card("2♦")), *(PlayMove(0, c) for c in cards("3♦ 4♦ 5♦ 6♦ 7♦ 8♦")),
    LeadMove(0, card("2♣")), *(PlayMove(0, c) for c in cards("3♣ 4♣ 5♣")),
)
def _tripoli_4(rules: Ruleset) -> tuple:  # type: ignore[type-arg]
    state, events = start_deal(rules, 4, 3, fresh_ledger(rules, 4), hands=TRIPOLI_4,
                               widow=GHOST_4)
    # Hearts: 10♥ to seat 2 (5); A♥ K♥ Q♥ J♥ and every king are the ghost's, so those four
    # and King-Queen carry; the Chien (5) is shared by seats 1 (8-9-10♠) and 2 (8-9-10♥):
    # 2 each and 1 stays.  Poker: seat 0's 8-high straight flush beats seat 3's 7-high:
    # the Pot (5) to seat 0.
    assert claims(events) == [(2, "10♥", 5), (1, "chien", 2), (2, "chien", 2), (0, "pot", 5)]
    assert state.ledger.seats == (47, 44, 49, 34)
    assert state.ledger.section("chien") == 1
    return play_out(rules, state, SEAT0_RUNS_4)


def test_tripoli_stops_winner_takes_the_chien_remainder_without_the_house_rule() -> None:
    final, events = _tripoli_4(load("tripoli"))
    # 004 phase 3: the winner takes the Chien (the 1 chip left by the split) and 10 from
    # each opponent (10 cards each): 47 + 1 + 30 = 78.
    assert claims(events) == [(0, "chien", 1)]
    assert final.seats == (78, 34, 39, 24)
    assert final.section("chien") == 0
    assert final.total() == 200


def test_tripoli_chien_house_rule_leaves_the_remainder_for_the_next_deal() -> None:
    final, events = _tripoli_4(load("tripoli-chien-once"))
    # the hearts phase paid the Chien, so the winner does not take it: 47 + 30 = 77
    assert claims(events) == []
    assert final.seats == (77, 34, 39, 24)
    assert final.section("chien") == 1
    assert final.total() == 200


# ---------------------------------------------------------------- elimination at zero


def test_a_player_pays_at_most_their_chips_and_is_then_out() -> None:
    rules = load("tripoli")
    ledger = fresh_ledger(rules, 3)
    ledger, _ = ledger.transfer(seat(1), seat(0), 40, "set-up")  # seat 1 starts with 10
    state, _ = start_deal(rules, 3, 2, ledger, hands=TRIPOLI_3, widow=GHOST_3)
    # seat 1: 10 - 8 (ante) + 4 (A♥) + 2 (King-Queen) + 1 (Pot) = 9
    assert state.ledger.seats == (83, 9, 49)
    final, events = play_out(rules, state, SEAT0_RUNS)
    # 004 "Victoire", spec §9: seat 1 owes 13 for its cards but pays the 9 it has
    assert [(e.payer, e.amount) for e in events if isinstance(e, Payment)] == [(1, 9), (2, 13)]
    assert final.seats == (83 + 4 + 9 + 13, 0, 36)
    assert final.total() == 150
    # the session's leftover (10♥ 4, Pot 1) is shared by the two players still in
    split, _ = split_leftover(rules, final)
    assert split.seats == (109 + Fraction(5, 2), 0, 36 + Fraction(5, 2))


def test_an_eliminated_player_is_dealt_nothing_and_pays_no_ante() -> None:
    rules = load("tripoli")
    ledger = fresh_ledger(rules, 4)
    ledger, _ = ledger.transfer(seat(1), seat(0), 50, "set-up")  # seat 1 is out
    state, events = start_deal(rules, 4, 3, ledger, deck_order=rules.deck.cards())
    # three players and the ghost: 52 = 4 x 13; seat 1 gets nothing
    dealt = next(e for e in events if isinstance(e, DealCards))
    assert [len(h) for h in dealt.hands] == [13, 0, 13, 13] and len(dealt.widow) == 13
    assert dealt.order == (None, 0, 2, 3)
    # antes: the dealer (seat 3) 2 on each of 8 sections, seats 0 and 2 one each; seat 1 none
    antes = [e.transfer for e in events if isinstance(e, Ante)]
    assert {t.src.seat for t in antes} == {0, 2, 3}  # type: ignore[union-attr]
    assert sum(t.amount for t in antes) == 16 + 8 + 8


# ---------------------------------------------------------------- ghost-hand auction


def test_the_ghost_hand_is_auctioned_after_hearts_and_poker_and_the_bid_feeds_the_chien() -> None:
    rules = load("tripoli-ghost-auction")
    state, events = start_deal(rules, 3, 2, fresh_ledger(rules, 3), hands=TRIPOLI_3,
                               widow=GHOST_3)
    # 004 "Variantes": the auction comes "before the stops phase" ('when: before phase
    # play'), so hearts and poker have paid the hands as dealt (as in the test above)
    assert state.stage == "widow" and state.ledger.seats == (43, 49, 49)
    assert any(isinstance(e, Showdown) for e in events)
    # bidding from the dealer's left: seat 0 bids 5, seats 1 and 2 pass
    state, _ = apply(rules, state, BidMove(0, 5))
    state, _ = apply(rules, state, PassMove(1))
    state, events = apply(rules, state, PassMove(2))
    # seat 0 pays 5 into the Chien (4 + 5 = 9) and takes the ghost hand; its old hand is
    # the new ghost.  In the ghost's cards clubs (8 9 10 K) and spades (9 10 J A) are the
    # longest suits: seat 0 may lead 8♣ or 9♠ (004 phase 3)
    assert state.ledger.seats == (38, 49, 49) and state.ledger.section("chien") == 9
    assert set(state.hand(0)) == set(GHOST_3) and set(state.widow()) == set(TRIPOLI_3[0])
    assert set(legal_moves(rules, state)) == {LeadMove(0, card("8♣")), LeadMove(0, card("9♠"))}


def test_a_misdeal_keeps_a_player_whom_the_ante_left_at_zero() -> None:
    rules = load("tripoli")
    ledger = fresh_ledger(rules, 3)
    ledger, _ = ledger.transfer(seat(1), seat(0), 42, "set-up")  # seat 1 has 8: its ante
    state, _ = start_deal(rules, 3, 2, ledger, hands=TRIPOLI_3, widow=GHOST_3)
    # seat 1: 8 - 8 (ante) + 4 (A♥) + 2 (King-Queen) + 1 (Pot) = 7
    assert state.ledger.seat(1) == 7
    # a misdeal undoes everything since the ante (seat 1 back to 0) and deals again:
    # seat 1 is still in the deal (spec §5.3, §10: elimination is judged at a deal's end)
    state, events = misdeal(rules, state, hands=TRIPOLI_3, widow=GHOST_3)
    dealt = next(e for e in events if isinstance(e, DealCards))
    assert len(dealt.hands[1]) == 13
    assert state.ledger.seat(1) == 7
