"""A poker phase's betting round (spec §8.3), against deals worked out by hand.

The deck is 9 to A of four suits (24 cards), four players, no widow, six cards each.  The
hands and their ranks (spec §8.2, standard ranking, worked out before running the code):

- ``FULL``: A♣ A♦ A♥ K♣ K♦ 9♠, a full house, aces over kings;
- ``TWO_PAIR``: 9♣ 9♦ 10♣ 10♦ J♣ Q♦, two pair, tens and nines, queen kicker;
- ``KING_SF``: 9♥ 10♥ J♥ Q♥ K♥ J♦, a straight flush to the king;
- ``ROYAL``: A♠ K♠ Q♠ J♠ 10♠ Q♣, the ace-high straight flush (the best).

Every player antes 1 on the pot and 1 on the kitty, so the pot holds 4 (one chip per
player) before the round.  The chip counts below are sums done by hand from these rules.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bet_probe import bet_probe
from boodle.engine import IllegalMove, apply, legal_moves, start_deal
from boodle.engine.events import Bet, Claim, Showdown
from boodle.engine.ledger import Ledger
from boodle.engine.stages.poker import layers
from boodle.engine.state import BidMove, BidRange, DealState, LeadMove, Move, PassMove
from boodle.engine.strategies import greedy, random_legal
from boodle.engine.trace import render_text
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import PokerPhase, Ruleset
from rules_by_hand import cards

FULL = cards("A♣ A♦ A♥ K♣ K♦ 9♠")
TWO_PAIR = cards("9♣ 9♦ 10♣ 10♦ J♣ Q♦")
KING_SF = cards("9♥ 10♥ J♥ Q♥ K♥ J♦")
ROYAL = cards("A♠ K♠ Q♠ J♠ 10♠ Q♣")


def rules(betting: str, session: str = "start: 20 chips  end: after 1 rotation") -> Ruleset:
    """A small variant whose poker phase has the betting lines ``betting``."""
    return bet_probe(betting, session)


def deal(rs: Ruleset, dealer: int, hands: list[tuple], seats: tuple[int, ...] = (20,) * 4
         ) -> tuple[DealState, list]:
    ledger = Ledger(seats, (("kitty", 0), ("pot", 0)))
    return start_deal(rs, 4, dealer, ledger, hands=hands, widow=())


def play(rs: Ruleset, state: DealState, moves: list[Move]) -> tuple[DealState, list]:
    events: list = []
    for move in moves:
        state, more = apply(rs, state, move)
        events += more
    return state, events


def test_the_dealer_opens_fixed_bets_raises_are_capped_and_the_best_hand_takes_the_pot() -> None:
    rs = rules("bets: 1 chip\n    raises: 2\n    opener: dealer")
    state, _ = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])
    assert state.to_move == 1  # the dealer opens (Cadaco)
    assert legal_moves(rs, state) == (PassMove(1), BidRange(1, 1, 1))  # check, or bet 1
    state, _ = apply(rs, state, BidMove(1, 1))
    # C owes 1: fold, call 1, or raise to 2 (a bid of 2)
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 1, 2))
    state, _ = play(rs, state, [BidMove(2, 2), BidMove(3, 2), PassMove(0)])
    # B owes 1 and one raise is left: call 1 or raise (2)
    assert legal_moves(rs, state) == (PassMove(1), BidRange(1, 1, 2))
    state, _ = apply(rs, state, BidMove(1, 2))
    # the cap (2 raises) is reached: C may only call the 1 it owes
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 1, 1))
    with pytest.raises(IllegalMove) as refused:
        apply(rs, state, BidMove(2, 2))
    assert refused.value.rule == "bet.amount"
    state, events = play(rs, state, [BidMove(2, 1), BidMove(3, 1)])
    bets = [e for e in events if isinstance(e, Bet)]
    assert [(e.seat, e.action, e.level) for e in bets] == [(2, "call", 3), (3, "call", 3)]
    show = next(e for e in events if isinstance(e, Showdown))
    assert [s for s, _ in show.hands] == [2, 3, 1]  # A folded and shows nothing
    assert show.winners == (3,)
    # the pot: 4 antes + 3 chips from each of B, C, D = 13, to D's royal flush
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 13)]
    assert state.ledger.seats == (18, 15, 15, 28)
    assert state.ledger.section("pot") == 0 and state.ledger.section("kitty") == 4
    assert isinstance(state.to_move, int) and state.stage == "phase:play"


def test_the_actions_in_order() -> None:
    rs = rules("bets: 1 chip\n    raises: 2\n    opener: dealer")
    state, _ = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])
    _, events = play(rs, state, [BidMove(1, 1), BidMove(2, 2), BidMove(3, 2), PassMove(0),
                                 BidMove(1, 2), BidMove(2, 1), BidMove(3, 1)])
    assert [(e.seat, e.action) for e in events if isinstance(e, Bet)] == [
        (1, "bet"), (2, "raise"), (3, "call"), (0, "fold"), (1, "raise"), (2, "call"),
        (3, "call")]


def test_when_all_but_one_fold_the_last_takes_the_pot_unseen() -> None:
    rs = rules("bets: 1 chip")  # opener: left of dealer (the default)
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    assert state.to_move == 1
    state, events = play(rs, state, [BidMove(1, 1), PassMove(2), PassMove(3), PassMove(0)])
    show = next(e for e in events if isinstance(e, Showdown))
    assert show.hands == () and show.winners == (1,)  # nobody shows (rneurocirugia.com)
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(1, 5)]
    assert state.ledger.seats == (18, 22, 18, 18)  # B: 18 - 1 + 5


def test_everyone_checks_and_the_showdown_is_as_without_betting() -> None:
    rs = rules("bets: up to 3 chips")
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    assert legal_moves(rs, state) == (PassMove(1), BidRange(1, 1, 3))
    state, events = play(rs, state, [PassMove(1), PassMove(2), PassMove(3), PassMove(0)])
    assert [e.action for e in events if isinstance(e, Bet)] == ["check"] * 4
    show = next(e for e in events if isinstance(e, Showdown))
    assert [s for s, _ in show.hands] == [1, 2, 3, 0] and show.winners == (3,)
    assert state.ledger.seats == (18, 18, 18, 22)


def test_an_all_in_call_makes_a_side_pot_for_the_others() -> None:
    # B starts with 3 chips: after the antes it has 1.  A bets 3, B calls all in for 1,
    # C calls 3, D folds.  Main pot: the 4 antes + 1 from each of A, B, C = 7, open to
    # A, B, C: B's royal flush takes it.  Side pot: 2 more from A and from C = 4, open to A
    # and C: C's straight flush beats A's full house.
    rs = rules("bets: up to 3 chips")
    state, _ = deal(rs, 3, [FULL, ROYAL, KING_SF, TWO_PAIR], seats=(20, 3, 20, 20))
    assert state.to_move == 0
    state, _ = apply(rs, state, BidMove(0, 3))
    assert legal_moves(rs, state) == (PassMove(1), BidRange(1, 1, 1))  # all it has
    with pytest.raises(IllegalMove) as refused:
        apply(rs, state, BidMove(1, 2))
    assert refused.value.rule == "bet.funds"
    state, _ = apply(rs, state, BidMove(1, 1))
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 3, 6))  # call 3, raise 1-3
    state, events = play(rs, state, [BidMove(2, 3), PassMove(3)])
    bets = [e for e in events if isinstance(e, Bet)]
    assert [(e.seat, e.action) for e in bets] == [(2, "call"), (3, "fold")]
    show = next(e for e in events if isinstance(e, Showdown))
    assert show.winners == (1,)  # the main pot's winner is the phase's
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(1, 7), (2, 4)]
    assert state.ledger.seats == (15, 7, 19, 18)
    assert sum(state.ledger.seats) + state.ledger.section("kitty") == 63  # 20 + 3 + 20 + 20


def test_layers_by_hand() -> None:
    # spec §8.3's example: base 9, seats put 5, 2 and 0 (the last folded)
    assert layers((5, 2, 0), [0, 1], 9) == [(13, [0, 1]), (3, [0])]
    # a folded seat's chips stay in the band they reach: 4 of a fold, 2 all in, 6 called
    assert layers((4, 2, 6, 6), [1, 2, 3], 0) == [(2 * 4, [1, 2, 3]), (2 + 4 + 4, [2, 3])]


def test_two_all_in_seats_of_different_stacks_make_two_side_pots() -> None:
    # By hand: base 4 (the antes); A all in for 3, B all in for 7, C and D put in 10 each.
    # Main pot 4 + 3*4 = 16 for all four; first side pot (7-3)*3 = 12 for B, C, D; second
    # side pot (10-7)*2 = 6 for C and D.  16 + 12 + 6 = 34 = 4 + 3 + 7 + 10 + 10.
    assert layers((3, 7, 10, 10), [0, 1, 2, 3], 4) == [
        (16, [0, 1, 2, 3]), (12, [1, 2, 3]), (6, [2, 3])]
    # D folds after putting in 5: its chips stay in the bands they reach (3 in the main pot,
    # 2 in the first side pot).  Main 4 + 3*4 = 16; first side 0 + 4 + 4 + 2 = 10 for B, C;
    # second side 3 for C alone.  16 + 10 + 3 = 29 = 4 + 3 + 7 + 10 + 5.
    assert layers((3, 7, 10, 5), [0, 1, 2], 4) == [(16, [0, 1, 2]), (10, [1, 2]), (3, [2])]


def test_a_player_with_no_chip_is_all_in_from_the_start_and_still_shows() -> None:
    rs = rules("bets: 1 chip", "start: 20 chips  end: after 1 rotation  balance: may go negative")
    # D has 1 chip: after its two antes, -1: it takes no turn, but its royal flush shows
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL], seats=(20, 20, 20, 1))
    state, events = play(rs, state, [BidMove(1, 1), BidMove(2, 1)])
    assert state.to_move == 0  # D was skipped
    state, events = apply(rs, state, BidMove(0, 1))
    show = next(e for e in events if isinstance(e, Showdown))
    assert show.winners == (3,)
    # main pot: the 4 antes (D put in nothing), to D; side pot 3 (1 each from A, B, C), to
    # C's straight flush, the best of those three
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 4), (2, 3)]


def test_the_play_by_play_labels_the_main_pot_and_the_side_pots() -> None:
    """Found by a new user: "C takes pot: 3" after "D takes pot: 4" did not say which pot.
    The hand above: the main pot (the 4 antes) to D, side pot 1 (1 each from A, B, C) to C;
    the JSON claims keep their fields (PROTOCOL.md: seat, section, amount)."""
    rs = rules("bets: 1 chip", "start: 20 chips  end: after 1 rotation  balance: may go negative")
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL], seats=(20, 20, 20, 1))
    state, events = play(rs, state, [BidMove(1, 1), BidMove(2, 1), BidMove(0, 1)])
    lines = render_text(events).splitlines()
    assert "    D takes pot (main pot): 4" in lines and "    C takes pot (side pot 1): 3" in lines
    claims = [e.to_json() for e in events if isinstance(e, Claim)]
    assert [sorted(c) for c in claims] == [["amount", "kind", "seat", "section"]] * 2
    # one pot only: no label
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    state, events = play(rs, state, [BidMove(1, 1), BidMove(2, 1), BidMove(3, 1),
                                     BidMove(0, 1)])
    assert "    D takes pot: 8" in render_text(events).splitlines()  # 4 antes + 4 bets


def test_raises_zero_allows_a_bet_and_calls_only() -> None:
    rs = rules("bets: 2 chips\n    raises: 0")
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    assert legal_moves(rs, state) == (PassMove(1), BidRange(1, 2, 2))
    state, _ = apply(rs, state, BidMove(1, 2))
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 2, 2))


def test_a_fixed_raise_is_listed_step_apart() -> None:
    rs = rules("bets: 2 chips")
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    state, _ = apply(rs, state, BidMove(1, 2))
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 2, 4, 2))  # call 2, raise 4
    with pytest.raises(IllegalMove) as refused:
        apply(rs, state, BidMove(2, 3))
    assert refused.value.rule == "bet.amount"
    with pytest.raises(IllegalMove) as refused:
        apply(rs, state, LeadMove(2, KING_SF[0]))
    assert refused.value.rule == "move.kind"


def test_the_lines_build_into_the_model() -> None:
    phase = rules("bets: up to 5 chips\n    raises: 3\n    opener: dealer").phases[0]
    assert isinstance(phase, PokerPhase)
    assert (phase.bets, phase.bet, phase.raises, phase.opener) == ("up to", 5, 3, "dealer")
    assert phase.bet_sizes() == (1, 5)
    plain = rules("").phases[0]
    assert isinstance(plain, PokerPhase) and not plain.betting


@pytest.mark.parametrize(("lines", "message", "hint"), [
    ("raises: 3", "'raises:' in poker phase poker, which has no betting round",
     "bets: 1 chip"),
    ("opener: dealer", "'opener:' in poker phase poker", "bets: 1 chip"),
    ("bets: 0 chips", "a bet of 0 chips is a check", "bets: 1 chip"),
])
def test_betting_lines_that_cannot_be_played_are_located_errors(lines: str, message: str,
                                                                hint: str) -> None:
    with pytest.raises(BoodleError) as err:
        rules(lines)
    assert message in err.value.message
    span = err.value.span
    assert span is not None and (span.line, span.column) == (16, 5)  # the line at fault
    assert hint in (err.value.hint or "")


def test_positions_in_a_betting_round_read_back_with_all_ins() -> None:
    """The position notation (FORMAT.md) writes the bets as moves before play (``pre:``);
    reading a position replays them, so an all-in call (B's 1 of 3 owed) and a seat all in
    from the start (D, at -1) must come out as they were."""
    from boodle.conformance.position import describe, parse, to_state

    rs = rules("bets: up to 3 chips")
    state, _ = deal(rs, 3, [FULL, ROYAL, KING_SF, TWO_PAIR], seats=(20, 3, 20, 20))
    state, _ = play(rs, state, [BidMove(0, 3), BidMove(1, 1)])
    text = describe(rs, state)
    assert text.endswith("C 15,0,18,18 kitty=4,pot=8 pre:Abid3,Bbid1")
    back = to_state(rs, parse(text))
    assert (back.bets, back.to_move, back.ledger) == (state.bets, state.to_move, state.ledger)
    rs = rules("bets: 1 chip", "start: 20 chips  end: after 1 rotation  balance: may go negative")
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL], seats=(20, 20, 20, 1))
    state, _ = play(rs, state, [BidMove(1, 1), BidMove(2, 1)])
    back = to_state(rs, parse(describe(rs, state)))
    assert back.to_move == 0 and back.bets == state.bets


def test_greedy_bets_by_its_best_hand() -> None:
    """Worked by hand (§8.3, thresholds in strategies.greedy): bets up to 3, 2 raises, seat 1
    deals and opens. Seat 1 high card checks, seat 2 one pair checks (nothing owed), seat 3
    two pair bets the most (3), seat 0 flush raises the most (3 owed + 3 = 6), seat 1 now
    owes 6 and folds, seat 2 calls 6, seat 3 (3 owed) makes the second and last raise (6),
    seat 0 may only call (3), seat 2 calls 3: the round ends."""
    rs = rules("bets: up to 3 chips\n    raises: 2\n    opener: dealer")
    high, pair = cards("9♣ 10♦ J♥ Q♠ A♣"), cards("9♦ 9♥ J♣ Q♣ A♦")
    two_pair, flush = cards("10♣ 10♥ K♣ K♦ J♦"), cards("A♥ A♠ K♥ K♠ Q♥ Q♦ 9♠ 10♠ J♠")
    state, _ = deal(rs, 1, [flush, high, pair, two_pair])
    chosen: list[Move] = []
    while state.bets is not None:
        move = greedy(rs, state, legal_moves(rs, state))
        chosen.append(move)
        state, _ = apply(rs, state, move)
    assert chosen == [PassMove(1), PassMove(2), BidMove(3, 3), BidMove(0, 6), PassMove(1),
                      BidMove(2, 6), BidMove(3, 6), BidMove(0, 3), BidMove(2, 3)]


def test_random_picks_an_action_then_an_amount_of_the_range() -> None:
    """Seat 1 bets 3 (bets up to 4), so seat 2 may fold or bid 3..7 (call 3, raise 1..4 more).
    Uniform over the two actions, then over the five amounts: about half the draws fold
    (one in six if every amount counted as a move), every amount lies in 3..7 and both ends
    come up; the same seed gives the same draws."""
    rs = rules("bets: up to 4 chips\n    opener: dealer")
    state, _ = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])
    state, _ = apply(rs, state, BidMove(1, 3))
    legal = legal_moves(rs, state)
    assert legal == (PassMove(2), BidRange(2, 3, 7))
    player = random_legal(random.Random(11))
    picks = [player(rs, state, legal) for _ in range(2000)]
    again = random_legal(random.Random(11))
    assert [again(rs, state, legal) for _ in range(2000)] == picks
    folds = sum(p == PassMove(2) for p in picks)
    amounts = Counter(p.amount for p in picks if isinstance(p, BidMove))
    assert 900 <= folds <= 1100
    assert set(amounts) == {3, 4, 5, 6, 7}
    assert all(150 <= n <= 250 for n in amounts.values())


# -- pot limit and no limit (spec §8.3) ------------------------------------------------------
# Worked by hand before running: every seat antes 1 on the pot and 1 on the kitty (pot 4).


def test_pot_limit_bets_and_raises_are_bounded_by_the_pot_after_the_call() -> None:
    rs = rules("bets: pot limit")
    state, _ = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])  # 18 chips each after antes
    assert state.to_move == 2  # left of dealer (the default)
    # nothing owed, the pot holds 4: a bet of 1 to 4
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 1, 4))
    state, _ = apply(rs, state, BidMove(2, 4))  # pot 8
    # D owes 4; the pot after the call is 8 + 4 = 12: D puts in 4 (call) to 4 + 12 = 16
    assert legal_moves(rs, state) == (PassMove(3), BidRange(3, 4, 16))
    with pytest.raises(IllegalMove) as refused:
        apply(rs, state, BidMove(3, 17))
    assert refused.value.rule == "bet.amount"
    state, _ = apply(rs, state, BidMove(3, 16))  # pot 24, D has 2 left
    # A owes 16 and has 18: the pot would allow 24 + 16 = 40 more, the balance 2
    assert legal_moves(rs, state) == (PassMove(0), BidRange(0, 16, 18))
    state, _ = play(rs, state, [BidMove(0, 16), PassMove(1)])  # pot 40; B folds
    # C put in 4 of 16, owes 12 and has 14: call 12 or raise by up to 2
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 12, 14))
    state, _ = apply(rs, state, BidMove(2, 14))  # all in, to 18; pot 54
    # D owes 2 and has 2: a call (all in), no raise
    assert legal_moves(rs, state) == (PassMove(3), BidRange(3, 2, 2))
    state, events = play(rs, state, [BidMove(3, 2), BidMove(0, 2)])  # pot 58, all three all in
    show = next(e for e in events if isinstance(e, Showdown))
    assert show.winners == (3,)  # D's royal flush
    # one pot: 4 antes + 18 from each of A, C, D = 58
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 58)]
    assert state.ledger.seats == (0, 18, 0, 58)
    assert state.ledger.section("pot") == 0 and state.ledger.section("kitty") == 4


def test_no_limit_bets_go_to_the_balance_and_side_pots_pay_the_all_ins() -> None:
    rs = rules("bets: no limit\n    raises: 1\n    opener: dealer")
    # after antes: A 18, B 6, C 28, D 10
    state, _ = deal(rs, 1, [TWO_PAIR, ROYAL, FULL, KING_SF], seats=(20, 8, 30, 12))
    assert legal_moves(rs, state) == (PassMove(1), BidRange(1, 1, 6))  # B opens: 1 to all
    state, events = apply(rs, state, BidMove(1, 6))
    assert [(e.action, e.all_in) for e in events if isinstance(e, Bet)] == [("bet", True)]
    # C owes 6: call 6 or raise to anything up to its 28
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 6, 28))
    state, _ = apply(rs, state, BidMove(2, 20))  # the one raise
    # D owes 20, has 10, no raise left: all in for 10; A owes 20, has 18, folds
    assert legal_moves(rs, state) == (PassMove(3), BidRange(3, 10, 10))
    state, _ = apply(rs, state, BidMove(3, 10))
    assert legal_moves(rs, state) == (PassMove(0), BidRange(0, 18, 18))
    state, events = apply(rs, state, PassMove(0))
    # C alone can bet and owes nothing: the showdown.  Put: A 0, B 6, C 20, D 10.
    # Main pot 4 + 6 + 6 + 6 = 22 (B, C, D): B's royal flush; side pot 4 + 4 = 8 (C, D):
    # D's straight flush beats C's full house; C's last 10 are C's alone.
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [
        (1, 22), (3, 8), (2, 10)]
    assert state.ledger.seats == (18, 22, 18, 8)
    assert sum(state.ledger.seats) + state.ledger.section("kitty") == 70


def test_a_pot_limit_bet_on_an_empty_pot_is_one_chip() -> None:
    from boodle.engine.stages.poker import BET_SIZES

    phase = PokerPhase("poker", "Poker", "pot", bets="pot limit")
    assert BET_SIZES["pot limit"](phase, 0, 0) == (1, 1, 1)
    assert BET_SIZES["pot limit"](phase, 9, 2) == (1, 11, 1)  # spec §8.3's example: 9 + 2
    assert BET_SIZES["no limit"](phase, 9, 2) == (1, None, 1)


@pytest.mark.parametrize(("line", "limit"), [("bets: pot limit", "pot limit"),
                                             ("bets: no limit", "no limit")])
def test_pot_and_no_limit_lines_build_print_and_load_back(line: str, limit: str) -> None:
    from boodle.language.printer import print_ruleset

    rs = rules(f"{line}\n    raises: 2")
    phase = rs.phases[0]
    assert isinstance(phase, PokerPhase)
    assert (phase.bets, phase.bet, phase.raises, phase.betting) == (limit, 0, 2, True)
    assert phase.bet_sizes() == (1, None)
    text = print_ruleset(rs)
    assert f"    {line}\n" in text
    assert load_text(text, "printed.boodle") == rs


@pytest.mark.parametrize(("word", "hint"), [("no-limit", "bets: no limit"),
                                            ("pot-limit", "bets: pot limit"),
                                            ("unlimited", "bets: no limit")])
def test_a_limit_misspelt_is_a_located_error_with_the_words(word: str, hint: str) -> None:
    with pytest.raises(BoodleError) as err:
        rules(f"bets: {word}")
    span = err.value.span
    assert span is not None and (span.line, span.column) == (16, 11)
    assert hint in (err.value.hint or "")


def test_the_hypothesis_oracle_probes_one_chip_above_the_pot_limit() -> None:
    # spec §8.3 read afresh (boodle.testing.BET_CEILINGS): B bet 1, the pot holds 4 + 1 = 5;
    # C owes 1 and has 18: the largest raise is 1 + (5 + 1) = 7, so 8 must be refused, even
    # when an engine under test lists bids up to the balance (as if there were no limit).
    from types import SimpleNamespace

    from boodle.testing import _bet_probes

    rs = rules("bets: pot limit")
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    state, _ = apply(rs, state, BidMove(1, 1))
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 1, 7))
    table = SimpleNamespace(state=state, ruleset=rs)
    too_wide = (PassMove(2), BidRange(2, 1, 18))
    assert (BidMove(2, 8), "bet.amount") in _bet_probes(table, too_wide)  # type: ignore[arg-type]
    probes = _bet_probes(table, legal_moves(rs, state))  # type: ignore[arg-type]
    for move, rule_id in probes:
        with pytest.raises(IllegalMove) as refused:
            apply(rs, state, move)
        assert refused.value.rule == rule_id


# -- blinds (spec §8.3) ----------------------------------------------------------------------
# Worked by hand before running: antes leave 18 each and 4 on the pot; C (left of the dealer B)
# posts the small blind, D the big one, and A is the first to act.


def test_blinds_count_as_bets_and_the_big_blind_has_the_option() -> None:
    rs = rules("bets: 2 chips\n    raises: 3\n    blinds: 1, 2 chips")
    state, events = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])
    blinds = [e for e in events if isinstance(e, Bet)]
    assert [(e.seat, e.action, e.transfer.amount if e.transfer else 0, e.level)
            for e in blinds] == [(2, "blind", 1, 1), (3, "blind", 2, 2)]
    assert state.ledger.section("pot") == 7 and state.to_move == 0
    # A owes the big blind: call 2 or raise by the bet size, to 4
    assert legal_moves(rs, state) == (PassMove(0), BidRange(0, 2, 4, 2))
    state, _ = play(rs, state, [BidMove(0, 2), BidMove(1, 2)])
    # C owes 1 of the big blind
    assert legal_moves(rs, state) == (PassMove(2), BidRange(2, 1, 3, 2))
    state, _ = apply(rs, state, BidMove(2, 1))
    # everyone called: D, the big blind, owes nothing and still acts (check or raise 2)
    assert state.to_move == 3
    assert legal_moves(rs, state) == (PassMove(3), BidRange(3, 2, 2))
    state, events = apply(rs, state, BidMove(3, 2))
    assert [(e.action, e.level) for e in events if isinstance(e, Bet)] == [("raise", 4)]
    state, events = play(rs, state, [BidMove(0, 2), PassMove(1), BidMove(2, 2)])
    # A, C and D put in 4 each, B 2: the pot 4 + 4 + 2 + 4 + 4 = 18, to D's royal flush
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 18)]
    assert state.ledger.seats == (14, 16, 14, 32)
    assert state.ledger.section("kitty") == 4


def test_when_all_fold_to_the_big_blind_it_takes_the_blinds_unseen() -> None:
    rs = rules("bets: 2 chips\n    blinds: 1, 2 chips")
    state, _ = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])
    state, events = play(rs, state, [PassMove(0), PassMove(1), PassMove(2)])
    show = next(e for e in events if isinstance(e, Showdown))
    assert show.hands == () and show.winners == (3,)
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 7)]  # 4 + 1 + 2
    assert state.ledger.seats == (18, 18, 17, 23)


def test_a_big_blind_that_checks_ends_the_round() -> None:
    rs = rules("bets: up to 3 chips\n    blinds: 2 chips\n    opener: dealer")
    state, events = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL])
    # one blind, posted by the opener (the dealer, B); C acts first
    assert [(e.seat, e.action) for e in events if isinstance(e, Bet)] == [(1, "blind")]
    assert state.to_move == 2
    state, _ = play(rs, state, [BidMove(2, 2), BidMove(3, 2), BidMove(0, 2)])
    assert state.to_move == 1 and legal_moves(rs, state) == (PassMove(1), BidRange(1, 1, 3))
    state, events = apply(rs, state, PassMove(1))  # B checks: everyone has matched 2
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 12)]  # 4 + 4×2
    assert state.ledger.seats == (16, 16, 16, 28)


def test_a_blind_larger_than_the_balance_puts_the_seat_all_in() -> None:
    rs = rules("bets: 2 chips\n    blinds: 1, 2 chips")
    # after antes: A 18, B 18, C 1, D 0 (D cannot post: all in from the start)
    state, events = deal(rs, 1, [FULL, TWO_PAIR, KING_SF, ROYAL], seats=(20, 20, 3, 2))
    assert [(e.seat, e.action, e.transfer.amount if e.transfer else 0, e.all_in)
            for e in events if isinstance(e, Bet)] == [(2, "blind", 1, True)]
    # the level is C's 1: A owes 1 and may raise by 2, to 3
    assert state.to_move == 0 and legal_moves(rs, state) == (PassMove(0), BidRange(0, 1, 3, 2))
    state, events = play(rs, state, [BidMove(0, 1), BidMove(1, 1)])
    # A, B, C matched 1, D is all in with nothing: showdown.  D put in 0, so the main pot is
    # the 4 antes, open to all four: D's royal flush; the layer of 1 from each of A, B, C
    # (3) is open to them only: C's straight flush
    assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 4), (2, 3)]
    assert state.ledger.seats == (17, 17, 3, 4)


def test_blinds_build_print_and_load_back() -> None:
    from boodle.language.printer import print_ruleset

    rs = rules("bets: 2 chips\n    blinds: 1, 2 chips")
    phase = rs.phases[0]
    assert isinstance(phase, PokerPhase) and phase.blinds == (1, 2)
    text = print_ruleset(rs)
    assert "    blinds: 1, 2 chips\n" in text
    assert load_text(text, "printed.boodle") == rs


@pytest.mark.parametrize(("lines", "message", "hint"), [
    ("blinds: 1, 2 chips", "'blinds:' in poker phase poker, which has no betting round",
     "bets: 1 chip"),
    ("bets: 2 chips\n    blinds: 0, 2 chips", "a blind of 0 chips is no blind",
     "blinds: 1, 2 chips"),
    ("bets: 2 chips\n    blinds: 2, 1 chips", "the small blind (2) is more than the big blind",
     "blinds: 1, 2 chips"),
])
def test_blind_lines_that_cannot_be_played_are_located_errors(lines: str, message: str,
                                                              hint: str) -> None:
    with pytest.raises(BoodleError) as err:
        rules(lines)
    assert message in err.value.message
    span = err.value.span
    assert span is not None and span.column == 5 and span.line in (16, 17)  # the blinds line
    assert hint in (err.value.hint or "")


def test_two_betting_paths_to_one_showdown_pay_alike_and_rank_the_hands_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The showdown is kept by what it reads (hands shown, chips put in, folds, ledger), so
    a second betting path to the same showdown is paid from the first, to the same state
    and events; chips by hand: 20 each, 2 anted, 1 bet each, D's royal flush takes 4 + 4."""
    import boodle.engine.stages.poker as poker

    rs = rules("bets: 1 chip")  # opener: left of dealer, B (seat 1)
    state, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL])
    ranked: list[int] = []
    real = poker.showdown

    def counted(*args: object, **kw: object) -> object:
        ranked.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(poker, "showdown", counted)
    bet_first, events_a = play(rs, state, [BidMove(1, 1), BidMove(2, 1), BidMove(3, 1),
                                           BidMove(0, 1)])
    check_first, events_b = play(rs, state, [PassMove(1), BidMove(2, 1), BidMove(3, 1),
                                             BidMove(0, 1), BidMove(1, 1)])
    for after, events in ((bet_first, events_a), (check_first, events_b)):
        assert after.ledger.seats == (17, 17, 17, 25)
        assert after.ledger.section("pot") == 0 and after.stage == "phase:play"
        assert [(e.seat, e.amount) for e in events if isinstance(e, Claim)] == [(3, 8)]
    show_a = next(e for e in events_a if isinstance(e, Showdown))
    show_b = next(e for e in events_b if isinstance(e, Showdown))
    assert show_a == show_b and show_a.winners == (3,)
    assert [s for s, _ in show_a.hands] == [1, 2, 3, 0]
    assert bet_first.ledger == check_first.ledger and bet_first.taken == check_first.taken
    assert bet_first.phase_winners == check_first.phase_winners == (("poker", (3,)),)
    assert len(ranked) == 1  # the second path's showdown was not ranked again
    # the same hands and bets from other chips are another showdown: D started with 10
    short, _ = deal(rs, 0, [FULL, TWO_PAIR, KING_SF, ROYAL], seats=(20, 20, 20, 10))
    after, _ = play(rs, short, [BidMove(1, 1), BidMove(2, 1), BidMove(3, 1), BidMove(0, 1)])
    assert after.ledger.seats == (17, 17, 17, 15)  # 10 - 2 - 1 + 8
    assert len(ranked) == 2
