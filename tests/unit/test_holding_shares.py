"""Holding claims (spec §8.1; 004 phase 1) and split arithmetic (spec §9), worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boodle.engine.holders import Award, award, paying_cards, qualifiers, qualifies
from boodle.engine.shares import split
from boodle.language.cards import RANKS
from boodle.language.model import Deck, Section
from rules_by_hand import card, cards

DECK = Deck(suits=("♣", "♦", "♥", "♠"), ranks=RANKS)
A_HEART = Section("A♥", "A♥", "boodle", (card("A♥"),))
TEN_HEART = Section("10♥", "10♥", "boodle", (card("10♥"),))
KING_QUEEN = Section("king-queen", "King-Queen", "set", (), ("K", "Q"), "same suit")
CHIEN = Section("chien", "Chien", "set", (), ("8", "9", "10"), "same suit")
AK_DIAMONDS = Section("ace-king", "A-K♦", "set", (card("A♦"), card("K♦")))
MATRIMONY = Section("matrimony", "Matrimony", "set", (), ("K", "Q"), "trumps")
KNAVE = Section("jack", "Knave", "boodle", (), ("J",), "trumps")
POT = Section("pot", "Pot", "pot")

# A Tripoli deal, 4 players, the dealer in seat 3 (so seats 0, 1, 2, 3 clockwise
# from the dealer's left); the ghost hand holds 10♥ and 10♦.
HANDS = {
    0: cards("A♥ K♠ Q♠ K♦ Q♦ 2♣"),  # A♥; K-Q in spades and in diamonds
    1: cards("K♣ Q♣ 3♣ A♦"),  # K-Q of clubs
    2: cards("8♦ 9♦ 8♣ 9♣ 10♣"),  # 8-9-10 of clubs
    3: cards("K♥ J♥ Q♥ 8♥ 9♥ 4♠"),  # K♥ Q♥ (K-Q of hearts); 8-9♥ but 10♥ is the ghost's
}
ORDER = (0, 1, 2, 3)


def test_boodles_go_to_their_holder_and_ghost_cards_qualify_nobody() -> None:
    assert qualifiers(A_HEART, HANDS, ORDER, DECK) == (0,)
    assert qualifiers(TEN_HEART, HANDS, ORDER, DECK) == ()  # 10♥ is in the ghost hand


def test_same_suit_sets_any_suit_once_per_player() -> None:
    # seats 0 (twice: spades and diamonds, counted once), 1 (clubs) and 3 (hearts)
    assert qualifiers(KING_QUEEN, HANDS, ORDER, DECK) == (0, 1, 3)
    assert qualifiers(CHIEN, HANDS, ORDER, DECK) == (2,)
    # order is the clockwise order passed in (dealer in seat 0: 1, 2, 3, 0)
    assert qualifiers(KING_QUEEN, HANDS, (1, 2, 3, 0), DECK) == (1, 3, 0)


def test_a_blocked_chien_carries_over() -> None:
    hands = {s: h for s, h in HANDS.items() if s != 2}
    assert qualifiers(CHIEN, hands, (0, 1, 3), DECK) == ()  # 8-9♥ without 10♥: blocked
    assert award("chien", (), 12, "share", "whole") is None


def test_fixed_sets_and_trump_sections() -> None:
    assert qualifies(AK_DIAMONDS, HANDS[1] + cards("K♦"), DECK)
    assert not qualifies(AK_DIAMONDS, HANDS[1], DECK)
    # trumps: Matrimony is K+Q of the trump suit; without trumps nothing pays it
    assert paying_cards(MATRIMONY, "♠") == cards("K♠ Q♠")
    assert qualifiers(MATRIMONY, HANDS, ORDER, DECK, trump="♠") == (0,)
    assert qualifiers(MATRIMONY, HANDS, ORDER, DECK, trump="♣") == (1,)
    assert qualifiers(MATRIMONY, HANDS, ORDER, DECK, trump=None) == ()
    assert qualifiers(KNAVE, HANDS, ORDER, DECK, trump="♥") == (3,)
    assert not qualifies(POT, HANDS[0], DECK)
    assert paying_cards(POT) is None


def test_drawn_boodles_are_paid_by_the_card_drawn_for_the_session() -> None:
    drawn = Section("first", "First", "boodle", (), (), "drawn")
    assert qualifiers(drawn, HANDS, ORDER, DECK, drawn={"first": card("J♥")}) == (3,)
    assert qualifiers(drawn, HANDS, ORDER, DECK) == ()
    bound = Section("first", "First", "boodle", (card("K♣"),), (), "drawn")  # bound by the session
    assert qualifiers(bound, HANDS, ORDER, DECK) == (1,)


def test_awards_split_as_the_chips_line_says() -> None:
    # King-Queen with 5 chips shared by two: 2 each and 1 stays (whole), 5/2 each (exact)
    assert award("king-queen", (0, 1), 5, "share", "whole") == Award("king-queen", (0, 1), 2, 1)
    assert award("king-queen", (0, 1), 5, "share", "exact") == Award(
        "king-queen", (0, 1), Fraction(5, 2), 0)
    # three holders of 7 chips: 2 each, 1 stays; first seat: all 7 to the first clockwise
    assert award("king-queen", (0, 1, 3), 7, "share", "whole") == Award(
        "king-queen", (0, 1, 3), 2, 1)
    assert award("king-queen", (1, 3, 0), 7, "first seat", "whole") == Award(
        "king-queen", (1,), 7, 0)
    assert award("A♥", (0,), 9, "share", "whole") == Award("A♥", (0,), 9, 0)


def test_split_by_hand() -> None:
    assert split(5, 2, "whole") == (2, 1)
    assert split(5, 2, "exact") == (Fraction(5, 2), 0)
    assert split(6, 3, "whole") == (2, 0)
    assert split(6, 3, "exact") == (2, 0)
    assert isinstance(split(6, 3, "exact")[0], int)  # a whole fraction is an int
    assert split(2, 3, "whole") == (0, 2)
    assert split(Fraction(7, 2), 2, "exact") == (Fraction(7, 4), 0)
    with pytest.raises(ValueError):
        split(5, 0, "whole")
    with pytest.raises(ValueError):
        split(-1, 2, "exact")


@given(st.integers(0, 10_000), st.integers(1, 20), st.sampled_from(["whole", "exact"]))
def test_splits_conserve_chips(amount: int, ways: int, chips: str) -> None:
    share, remainder = split(amount, ways, chips)  # type: ignore[arg-type]
    assert share * ways + remainder == amount
    assert share >= 0 and remainder >= 0
    if chips == "whole":
        assert isinstance(share, int) and remainder < ways
    else:
        assert remainder == 0
