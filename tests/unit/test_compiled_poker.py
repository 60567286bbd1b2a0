"""The compiled engine's poker phase (spec §8.2, §8.3): its hand evaluator against pokerkit,
and betting rounds worked out by hand.

The hand strengths below are written from the standard ranking (category, then the
tie-break values highest first, ace 14, the wheel's top card 5), not read from any engine;
random hands are compared with :func:`boodle.engine.poker_hands.best_hand`, which asks
pokerkit (the reference).  The betting rounds reuse the 24-card deck and the four hands of
``test_poker_betting.py`` (full house, two pair, king-high straight flush, royal flush), with
the chips summed by hand.
"""

from __future__ import annotations

import random

import pytest

from bet_probe import bet_probe
from boodle.compiled import compile_ruleset
from boodle.compiled.deal import DealView, TraceItem, own_of, play_dealt
from boodle.compiled.poker import PASS, BetAsk, Bettor, hand_strength
from boodle.compiled.tables import CompiledRules
from boodle.engine.poker_hands import best_hand
from boodle.language.model import Chips, Ruleset
from boodle.language.variants import load
from rules_by_hand import cards

FULL_DECK = compile_ruleset(load("michigan"))  # 52 cards: the evaluator reads only cards


def mask(t: CompiledRules, text: str) -> int:
    return sum(t.bit[t.index[c]] for c in cards(text))


@pytest.mark.parametrize(("hand", "ace_low", "strength"), [
    ("A♥ K♥ Q♥ J♥ 10♥ 2♣ 3♦", True, (8, 14)),             # royal flush
    ("A♣ 2♣ 3♣ 4♣ 5♣ 6♦ K♠", True, (8, 5)),               # steel wheel
    ("A♣ 2♣ 3♣ 4♣ 5♣ 6♦ K♠", False, (5, 14, 5, 4, 3, 2)),  # no wheel: an ace-high flush
    ("9♠ 9♥ 9♦ 9♣ K♦ 2♣ K♠", True, (7, 9, 13)),           # four nines, king kicker
    ("9♠ 9♥ 9♦ K♣ K♦ K♠ 2♣", True, (6, 13, 9)),           # two trips: kings full of nines
    ("2♦ 7♦ 9♦ J♦ K♦ 3♦ A♠ A♣", True, (5, 13, 11, 9, 7, 3)),  # six diamonds: the top five
    ("6♠ 7♥ 8♦ 9♣ 10♦ J♠ 2♣", True, (4, 11)),             # the higher straight
    ("A♠ 2♥ 3♦ 4♣ 5♦ K♠ Q♣", True, (4, 5)),               # the wheel
    ("A♠ 2♥ 3♦ 4♣ 5♦ K♠ Q♣", False, (0, 14, 13, 12, 5, 4)),
    ("Q♠ Q♥ Q♦ 2♣ 7♦ 9♠ 4♣", True, (3, 12, 9, 7)),
    ("J♠ J♥ 4♦ 4♣ 8♦ 8♠ 2♣", True, (2, 11, 8, 4)),        # three pairs: the third as kicker
    ("10♠ 10♥ A♦ 3♣ 7♦ 9♠", True, (1, 10, 14, 9, 7)),
    ("2♠ 4♥ 6♦ 8♣ 10♦ Q♠ K♣", True, (0, 13, 12, 10, 8, 6)),
])
def test_hand_strength_of_each_category(hand: str, ace_low: bool,
                                        strength: tuple[int, ...]) -> None:
    assert hand_strength(FULL_DECK, mask(FULL_DECK, hand), 5, ace_low) == strength
    assert best_hand(cards(hand), 5, ace_low).strength == strength  # the reference agrees


@pytest.mark.parametrize("ace_low", [True, False])
def test_hand_strength_is_pokerkits_on_random_hands(ace_low: bool) -> None:
    t = FULL_DECK
    rng = random.Random(f"hands {ace_low}")
    for _ in range(600):
        size = rng.randrange(5, 18)
        chosen = rng.sample(range(t.n_cards), size)
        hand = sum(t.bit[c] for c in chosen)
        expected = best_hand([t.cards[c] for c in chosen], 5, ace_low).strength
        assert hand_strength(t, hand, 5, ace_low) == expected, [str(t.cards[c]) for c in chosen]


def test_short_hands_and_fewer_cards_are_ranked_as_the_reference_does() -> None:
    """Fewer than five cards, or ``best: N cards`` with N < 5: pairs and sets only (§8.2)."""
    assert hand_strength(FULL_DECK, mask(FULL_DECK, "K♠ K♥ 2♦"), 5) == (1, 13, 2)
    assert hand_strength(FULL_DECK, mask(FULL_DECK, "K♠ K♥ 2♦ 2♣ A♠ Q♠ J♠ 10♠"), 2) == (1, 13)
    assert hand_strength(FULL_DECK, mask(FULL_DECK, "A♠ 9♥ 2♦"), 1) == (0, 14)


# ---------------------------------------------------------------- betting rounds by hand

FULL = "A♣ A♦ A♥ K♣ K♦ 9♠"       # seat 0: aces full of kings
TWO_PAIR = "9♣ 9♦ 10♣ 10♦ J♣ Q♦"  # seat 1
KING_SF = "9♥ 10♥ J♥ Q♥ K♥ J♦"   # seat 2: straight flush to the king
ROYAL = "A♠ K♠ Q♠ J♠ 10♠ Q♣"     # seat 3: the best


def rules(betting: str) -> Ruleset:
    """24 cards, no widow, 1 on the pot and 1 on the kitty each, then the betting line."""
    return bet_probe(betting)


def first(view: DealView, seat: int, options: list[int]) -> int:
    return options[0]


def scripted(answers: list[int], asks: list[BetAsk]) -> Bettor:
    def bet(ask: BetAsk) -> int:
        asks.append(ask)
        return answers.pop(0)
    return bet


def poker_part(rs: Ruleset, starts: list[int], answers: list[int]
               ) -> tuple[list[TraceItem], list[BetAsk]]:
    """The betting round and showdown of a deal of the four hands (dealer seat 0)."""
    t = compile_ruleset(rs)
    own = own_of(t, [[t.index[c] for c in cards(h)] for h in (FULL, TWO_PAIR, KING_SF, ROYAL)])
    seats: list[Chips] = list(starts)
    sections: list[Chips] = [0, 0]
    trace: list[TraceItem] = []
    asks: list[BetAsk] = []
    bettor = scripted(answers, asks)
    play_dealt(t, 4, 0, own, seats, sections, [first] * 4, trace, bettors=[bettor] * 4)
    assert not answers  # every scripted answer was asked for
    end = next(i for i, item in enumerate(trace) if item[0] in ("lead", "end"))
    return trace[:end], asks


def test_fixed_bets_raise_cap_and_the_best_hand_takes_the_pot() -> None:
    """Antes: pot 4, each seat 18.  The dealer (0) bets 2, seat 1 folds, seat 2 raises to 4
    (the one raise allowed), seat 3 may only call 4, the dealer calls 2 more: pot 16, to the
    royal flush (seat 3)."""
    trace, asks = poker_part(rules("bets: 2 chips\n    raises: 1\n    opener: dealer"),
                             [20] * 4, [2, PASS, 4, 4, 2])
    assert [(a.seat, a.owed, a.low, a.high, a.step) for a in asks] == [
        (0, 0, 2, 2, 1), (1, 2, 2, 4, 2), (2, 2, 2, 4, 2), (3, 4, 4, 4, 1), (0, 2, 2, 2, 1)]
    assert trace[:5] == [("bet", 0, "bet", 2, 2, False), ("bet", 1, "fold", 0, 2, False),
                         ("bet", 2, "raise", 4, 4, False), ("bet", 3, "call", 4, 4, False),
                         ("bet", 0, "call", 2, 4, False)]
    assert trace[5][0] == "showdown" and trace[5][3] == (3,)
    assert trace[6:] == [("claim", 3, "pot", 16)]


def test_a_short_seat_all_in_takes_the_main_pot_and_the_side_pot_goes_on() -> None:
    """No limit; seat 1 starts with 5 (3 after the antes).  The dealer bets 6, seat 1 calls
    all in with 3, seat 2 calls 6, seat 3 folds.  Main pot 4 + 3 × 3 = 13 for seats 1, 2, 0:
    the royal flush (seat 1 holds it here); side pot 3 + 3 = 6 for seats 2 and 0: the
    straight flush (seat 2)."""
    rs = rules("bets: no limit\n    opener: dealer")
    t = compile_ruleset(rs)
    hands = (FULL, ROYAL, KING_SF, TWO_PAIR)
    own = own_of(t, [[t.index[c] for c in cards(h)] for h in hands])
    seats: list[Chips] = [20, 5, 20, 20]
    sections: list[Chips] = [0, 0]
    trace: list[TraceItem] = []
    asks: list[BetAsk] = []
    answers = [6, 3, 6, PASS]
    bettor = scripted(answers, asks)
    play_dealt(t, 4, 0, own, seats, sections, [first] * 4, trace, bettors=[bettor] * 4)
    assert [(a.seat, a.low, a.high) for a in asks] == [(0, 1, 18), (1, 3, 3), (2, 6, 18),
                                                      (3, 6, 18)]
    assert trace[:4] == [("bet", 0, "bet", 6, 6, False), ("bet", 1, "call", 3, 6, True),
                         ("bet", 2, "call", 6, 6, False), ("bet", 3, "fold", 0, 6, False)]
    assert trace[5:7] == [("claim", 1, "pot", 13), ("claim", 2, "pot", 6)]


def test_blinds_then_everyone_folds_to_the_big_blind() -> None:
    """Blinds 1 and 2 from the dealer's left (seats 1, 2); seat 3, the dealer and seat 1 fold:
    the big blind takes the pot, 4 + 1 + 2 = 7, showing nothing."""
    trace, _ = poker_part(rules("bets: 2 chips\n    blinds: 1, 2 chips"), [20] * 4,
                          [PASS, PASS, PASS])
    assert trace == [("bet", 1, "blind", 1, 1, False), ("bet", 2, "blind", 2, 2, False),
                     ("bet", 3, "fold", 0, 2, False), ("bet", 0, "fold", 0, 2, False),
                     ("bet", 1, "fold", 0, 2, False), ("showdown", "poker", (), (2,)),
                     ("claim", 2, "pot", 7)]
