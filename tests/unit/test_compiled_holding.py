"""The compiled engine's holding phase (spec §8.1), against a deal of Tripoley worked out by
hand (its hearts phase: the five hearts honours, K-Q of hearts and 8-9-10 of one suit, shared
by the holders in whole chips, clockwise from the dealer's left; spec §9: the remainder
stays on the section)."""

from __future__ import annotations

from boodle.compiled import compile_ruleset
from boodle.compiled.deal import DealView, TraceItem, own_of, play_dealt
from boodle.compiled.poker import PASS, BetAsk
from boodle.language.model import Chips
from boodle.language.variants import load
from rules_by_hand import cards


def first(view: DealView, seat: int, options: list[int]) -> int:
    return options[0]


def passes(ask: BetAsk) -> int:
    return PASS


def test_tripoleys_hearts_phase_pays_the_holders() -> None:
    """Dealer 3; every section holds 4 chips after the antes (one from each of 4 players).
    Seat 0 holds A♥ K♥ Q♥ and 8-9-10 of spades; seat 1 J♥ and 8-9-10 of clubs; seat 2 10♥
    and 8-9-10 of diamonds.  So seat 0 takes A♥, K♥, Q♥ and K-Q (4 each), seat 1 J♥, seat
    2 10♥; 8-9-10 is shared three ways from the dealer's left: 1 chip each to seats 0, 1,
    2, and 1 chip stays."""
    t = compile_ruleset(load("tripoley"))
    hands = ["A♥ K♥ Q♥ 8♠ 9♠ 10♠", "J♥ 8♣ 9♣ 10♣", "10♥ 8♦ 9♦ 10♦", "2♣ 3♣ 4♣"]
    own = own_of(t, [[t.index[c] for c in cards(h)] for h in hands])
    seats: list[Chips] = [50] * 4
    sections: list[Chips] = [0] * len(t.section_names)
    trace: list[TraceItem] = []
    play_dealt(t, 4, 3, own, seats, sections, [first] * 4, trace, bettors=[passes] * 4)
    hearts = trace[:next(i for i, item in enumerate(trace) if item[0] == "showdown")]
    assert hearts == [("claim", 0, "A♥", 4), ("claim", 0, "K♥", 4), ("claim", 0, "Q♥", 4),
                      ("claim", 1, "J♥", 4), ("claim", 2, "10♥", 4),
                      ("claim", 0, "king-queen", 4), ("claim", 0, "eight-nine-ten", 1),
                      ("claim", 1, "eight-nine-ten", 1), ("claim", 2, "eight-nine-ten", 1)]
