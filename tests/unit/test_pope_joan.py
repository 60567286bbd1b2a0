"""Pope Joan (spec/variants/pope-joan.boodle) played from a constructed deal, worked by hand.

The turn-up pays the dealer (spec §5.2), Intrigue is paid when one player plays
the knave then the queen of trumps (spec §6.6), and the holder of the Pope is
excused from paying the winner (spec §7).  Expected numbers are worked out in
the comments from the variant file before the engine was run.
"""

from __future__ import annotations

from boodle.engine import start_deal
from boodle.engine.events import Payment, TurnUp
from boodle.engine.state import LeadMove, Move, PlayMove
from boodle.language.variants import load
from deal_helpers import claims, play_out
from rules_by_hand import card, cards, fresh_ledger

# ---------------------------------------------------------------- Pope Joan, 3 players
#
# 51 cards (no 8♦), ace low, dealer seat 2; the widow is dealt last in each round, so
# seats 0, 1, 2 get 13 cards and the widow 12, the last of which, K♠, is turned up:
# spades are trumps.
POPE_HANDS = (
    cards("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ A♣"),  # seat 0
    cards("A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 9♦ 10♦ J♦ Q♦ K♦ 2♣"),  # seat 1 holds the Pope, 9♦
    cards("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"),  # seat 2, the dealer
)
POPE_WIDOW = cards("3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ K♠")  # K♠ dealt last


def test_pope_joan_turn_up_intrigue_by_knave_then_queen_and_the_pope_excused() -> None:
    rules = load("pope-joan")
    state, events = start_deal(rules, 3, 2, fresh_ledger(rules, 3), hands=POPE_HANDS,
                               widow=POPE_WIDOW)
    # The dealer dresses the board with 15 (6-2-2-1-1-1-1-1): 50 → 35.  The turn-up K♠
    # is the king of trumps: the dealer takes King (1): 36 (Hoyle's Modernized).
    turn = next(e for e in events if isinstance(e, TurnUp))
    assert (turn.card, turn.trump) == (card("K♠"), "♠")
    assert claims(events) == [(2, "king", 1)]
    assert state.ledger.seats == (50, 50, 36)
    # Seat 0 leads A♠ (ace of trumps: Ace, 1), runs to Q♠ (J♠: Knave, 1; Q♠: Queen 1 and
    # Intrigue 2, J♠ and Q♠ both played by seat 0, the knave first); K♠ is in the widow:
    # stop.  Seat 0 restarts with A♣, its last card: out.  Game (1); seat 1 holds the
    # Pope and is excused; seat 2 pays 13.  Matrimony (K♠ in the widow) and Pope carry.
    moves: tuple[Move, ...] = (
        LeadMove(0, card("A♠")),
        *(PlayMove(0, c) for c in cards("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠")),
        LeadMove(0, card("A♣")),
    )
    final, events = play_out(rules, state, moves)
    assert claims(events) == [
        (0, "ace", 1), (0, "jack", 1), (0, "intrigue", 2), (0, "queen", 1), (0, "game", 1)]
    payments = [(e.payer, e.excused, e.amount) for e in events if isinstance(e, Payment)]
    assert payments == [(1, True, 0), (2, False, 13)]
    assert final.seats == (69, 50, 23)
    assert final.section("pope") == 6 and final.section("matrimony") == 2
    assert final.total() == 150


def test_a_turned_up_pope_pays_the_dealer_the_pope() -> None:
    rules = load("pope-joan")
    # seat 1 gives the Pope to the widow's last place and takes K♠ instead
    hands = (POPE_HANDS[0], cards("A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ K♠ 10♦ J♦ Q♦ K♦ 2♣"), POPE_HANDS[2])
    widow = (*POPE_WIDOW[:-1], card("9♦"))
    state, events = start_deal(rules, 3, 2, fresh_ledger(rules, 3), hands=hands, widow=widow)
    # 9♦ turned: diamonds are trumps, and the dealer takes Pope's 6 (Hoyle's Modernized)
    turn = next(e for e in events if isinstance(e, TurnUp))
    assert (turn.card, turn.trump) == (card("9♦"), "♦")
    assert claims(events) == [(2, "pope", 6)]
    assert state.ledger.seats == (50, 50, 41)  # 50 - 15 + 6
