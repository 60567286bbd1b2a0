"""verify's own statement of a betting round's side pots (spec §8.3) and the engine = model
check of the pot's payments by them (issue 16: a counterexample must be true of the engine).

The amounts are worked out by hand from spec §8.3 ("Showdown and side pots") and §9 (whole
chips: each of k sharers gets ⌊S/k⌋, the remainder stays on the pot).  The hands are given
as strengths (higher is better), so the tests do not depend on the hand evaluator.
"""

from __future__ import annotations

from boodle.engine.events import Bet, BetAction, Claim, Event, Showdown
from boodle.engine.ledger import Ledger, seat, section
from boodle.engine.poker_hands import PokerHand
from boodle.language.build import load_text
from boodle.language.model import Ruleset
from boodle.verify.engine_model import payouts_differ
from boodle.verify.own_rules import side_pots

NL = """variant nl extends tripoley {
  phase poker is poker { bets: no limit }
}
"""


def _rules(split: str = "share") -> Ruleset:
    return load_text(NL.replace("no limit", f"no limit  split: {split}"), "nl.boodle")


def _start(rules: Ruleset) -> Ledger:
    """3 seats of 20 chips; the pot holds 3 before the round (each seat's ante of 1)."""
    names = tuple(s.name for s in rules.board)
    sections = tuple((n, 3 if n == "pot" else 0) for n in names)
    return Ledger(seats=(19, 19, 19), sections=sections)


def _bet(who: int, action: BetAction, amount: int, level: int, all_in: bool = False) -> Bet:
    _, t = Ledger(seats=(99, 99, 99), sections=(("pot", 0),)).transfer(
        seat(who), section("pot"), amount, "bet")
    return Bet(who, action, t, level, all_in)


def _claim(who: int, amount: int) -> Claim:
    _, t = Ledger(seats=(0, 0, 0), sections=(("pot", 99),)).transfer(
        section("pot"), seat(who), amount, "claim")
    return Claim(who, "pot", t)


def _hand(strength: int) -> PokerHand:
    return PokerHand((0, strength), "high card", ())


def _round(strengths: dict[int, int], claims: list[tuple[int, int]]) -> list[Event]:
    """Dealer seat 2, seat 0 opens: seat 0 bets 4, seat 1 calls 4, seat 2 calls all in for
    2 (its whole 2 chips in this story).  Put in: seats 0, 1: 4 each, seat 2: 2; the pot
    holds 3 + 10 = 13.  By hand (§8.3): main pot 3 + 2 + 2 + 2 = 9 open to seats 0, 1, 2;
    side pot (4 − 2) + (4 − 2) = 4 open to seats 0 and 1."""
    hands = tuple((s, _hand(strengths[s])) for s in (0, 1, 2))
    top = max(strengths.values())
    events: list[Event] = [_bet(0, "bet", 4, 4), _bet(1, "call", 4, 4),
                           _bet(2, "call", 2, 4, True),
                           Showdown("poker", hands, tuple(s for s, h in hands
                                                         if h.strength == (0, top)))]
    return events + [_claim(w, a) for w, a in claims]


def test_side_pots_by_hand() -> None:
    # spec §8.3's example: 9 on the pot, seat 0 puts in 5, seat 2 (all in) 2, seat 3 folds
    assert side_pots({0: 5, 2: 2, 3: 0}, [0, 2], 9) == [(13, (0, 2)), (3, (0,))]
    # the story of _round: 9 for every live seat, 4 for seats 0 and 1
    assert side_pots({0: 4, 1: 4, 2: 2}, [0, 1, 2], 3) == [(9, (0, 1, 2)), (4, (0, 1))]
    # a round all checked: one pot, the chips before the round
    assert side_pots({}, [1, 0], 7) == [(7, (1, 0))]
    # two all-in levels: puts 1, 3, 6 (a folded seat's 2 counted): 4·1 = 4 (+ 5 before),
    # then (3−1) + (2−1) + (3−1) = 5 for seats 1 and 2, then 6 − 3 = 3 for seat 2
    assert side_pots({0: 1, 1: 3, 2: 6, 3: 2}, [0, 1, 2], 5) == [
        (9, (0, 1, 2)), (5, (1, 2)), (3, (2,))]


def test_a_short_all_in_winning_the_main_pot_is_accepted() -> None:
    rules = _rules()
    # seat 2 (all in) has the best hand: it takes the main pot 9; seat 0 beats seat 1 for
    # the side pot 4
    events = _round({0: 5, 1: 3, 2: 9}, [(2, 9), (0, 4)])
    assert payouts_differ(rules, _start(rules), events) is None
    # seat 0 best of all: it takes both pots, one claim each (not "paid twice")
    events = _round({0: 9, 1: 3, 2: 5}, [(0, 9), (0, 4)])
    assert payouts_differ(rules, _start(rules), events) is None


def test_ties_split_each_pot_by_its_own_sharers() -> None:
    rules = _rules()
    # seats 0 and 2 tie: the main pot 9 shared two ways, 4 each (1 stays, §9); the side pot
    # 4 is seat 0's alone (seat 2 did not put in that much)
    events = _round({0: 9, 1: 3, 2: 9}, [(0, 4), (2, 4), (0, 4)])
    assert payouts_differ(rules, _start(rules), events) is None
    # seats 0 and 1 tie below seat 2: seat 2 takes 9, the side pot 4 is shared, 2 each
    events = _round({0: 5, 1: 5, 2: 9}, [(2, 9), (0, 2), (1, 2)])
    assert payouts_differ(rules, _start(rules), events) is None


def test_a_wrong_layered_payment_is_still_flagged() -> None:
    rules = _rules()
    # the whole pot 13 to the short all-in seat: it may win only the main pot 9
    wrong = payouts_differ(rules, _start(rules), _round({0: 5, 1: 3, 2: 9}, [(2, 13)]))
    assert wrong is not None and "main" in wrong and "9" in wrong
    # the side pot to the worse hand (seat 1 instead of seat 0)
    wrong = payouts_differ(rules, _start(rules), _round({0: 5, 1: 3, 2: 9}, [(2, 9), (1, 4)]))
    assert wrong is not None and "side pot 1" in wrong
    # the tie of the main pot paid 9 and 0 instead of 4 and 4
    wrong = payouts_differ(rules, _start(rules),
                           _round({0: 9, 1: 3, 2: 9}, [(0, 9), (2, 0), (0, 4)]))
    assert wrong is not None and "each 4" in wrong
    # a pot paid that the rules do not make: seat 2 takes a second share
    wrong = payouts_differ(rules, _start(rules),
                           _round({0: 5, 1: 3, 2: 9}, [(2, 9), (0, 4), (2, 0)]))
    assert wrong is not None and "beyond the pots" in wrong


def test_one_seat_takes_each_pot_under_lowest_seat() -> None:
    rules = _rules("lowest seat")
    # seats 0 and 2 tie for the main pot: seat 0, the lower, takes all 9; the side pot too
    events = _round({0: 9, 1: 3, 2: 9}, [(0, 9), (0, 4)])
    assert payouts_differ(rules, _start(rules), events) is None
    wrong = payouts_differ(rules, _start(rules), _round({0: 9, 1: 3, 2: 9}, [(2, 9), (0, 4)]))
    assert wrong is not None and "the rules pay it to seats [0]" in wrong
