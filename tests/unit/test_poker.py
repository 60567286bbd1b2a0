"""Poker showdowns (spec §8.2; 004 phase 2) against hands ranked by hand.

Every expected category and strength below was worked out from the standard
ranking (004 phase 2: royal flush > straight flush > four > full house >
flush > straight > three > two pair > pair > high card) before running the
code; strengths are (category index, tie-break values) with J=11, Q=12,
K=13, A=14 and the wheel's top card 5.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Card as PkCard
from pokerkit import StandardHighHand

from boodle.engine.poker_hands import CATEGORIES, best_hand, showdown
from boodle.language.cards import full_pack
from rules_by_hand import cards

# A 17-card hand (more than any Tripoli hand with 3 players and the ghost,
# 13): four sevens, six hearts (a flush), every rank (a straight: 10 J Q K A),
# a pair of twos with the sevens (a full house), no five in sequence in one
# suit.  Four of a kind is the best of these; its kicker is the highest other
# card, A♣.
SEVENTEEN_QUADS = cards("7♣ 7♦ 7♥ 7♠ 2♥ 4♥ 9♥ J♥ K♥ A♣ 3♦ 5♠ 6♣ 8♦ 10♠ Q♣ 2♦")

# Seventeen cards holding four aces and three kings (quads, full house) and a
# 5-to-9 straight flush in spades: the straight flush is best.
SEVENTEEN_STRAIGHT_FLUSH = cards(
    "5♠ 6♠ 7♠ 8♠ 9♠ A♣ A♦ A♥ A♠ K♣ K♦ K♥ 2♣ 3♦ 4♥ J♣ Q♦"
)


def test_seventeen_cards_four_of_a_kind_with_the_ace_kicker() -> None:
    assert len(set(SEVENTEEN_QUADS)) == 17
    hand = best_hand(SEVENTEEN_QUADS)
    assert hand.category == "four of a kind"
    assert hand.strength == (7, 7, 14)
    assert set(hand.cards) == set(cards("7♣ 7♦ 7♥ 7♠ A♣"))


def test_seventeen_cards_straight_flush_beats_four_aces() -> None:
    assert len(set(SEVENTEEN_STRAIGHT_FLUSH)) == 17
    hand = best_hand(SEVENTEEN_STRAIGHT_FLUSH)
    assert hand.category == "straight flush"
    assert hand.strength == (8, 9)
    assert set(hand.cards) == set(cards("5♠ 6♠ 7♠ 8♠ 9♠"))


def test_the_wheel_is_the_lowest_straight_when_ace_low_straights_count() -> None:
    wheel = cards("A♥ 2♣ 3♦ 4♠ 5♥ 9♣ K♦")
    trips = cards("9♠ 9♦ 9♥ 2♦ 3♣")
    six_high = cards("2♠ 3♠ 4♦ 5♣ 6♥")
    assert best_hand(wheel).strength == (4, 5)
    assert str(best_hand(wheel)) == "straight (5♥ 4♠ 3♦ 2♣ A♥)"
    assert best_hand(wheel) > best_hand(trips)  # a straight beats three of a kind
    assert best_hand(six_high) > best_hand(wheel)  # 6-high beats 5-high


def test_without_ace_low_straights_the_wheel_is_ace_high() -> None:
    wheel = cards("A♥ 2♣ 3♦ 4♠ 5♥ 9♣ K♦")
    hand = best_hand(wheel, ace_low_straight=False)
    assert hand.category == "high card"
    assert hand.strength == (0, 14, 13, 9, 5, 4)  # A K 9 5 4; the 3 and 2 are ignored
    assert best_hand(cards("9♠ 9♦ 9♥ 2♦ 3♣"), ace_low_straight=False) > hand
    # A-high straights and other straights are unaffected
    assert best_hand(cards("10♠ J♦ Q♣ K♥ A♣"), ace_low_straight=False).strength == (4, 14)
    assert best_hand(cards("A♥ 2♣ 3♦ 4♠ 5♥ 6♣"), ace_low_straight=False).strength == (4, 6)


def test_categories_in_order() -> None:
    ladder = [
        cards("A♠ K♦ Q♣ J♥ 9♠"),  # high card
        cards("2♠ 2♦ 3♣ 4♥ 9♣"),  # one pair
        cards("2♠ 2♦ 3♣ 3♥ 5♠"),  # two pair
        cards("2♠ 2♦ 2♣ 3♥ 5♠"),  # three of a kind
        cards("2♠ 3♦ 4♣ 5♥ 6♠"),  # straight
        cards("2♥ 4♥ 6♥ 8♥ 10♥"),  # flush
        cards("2♠ 2♦ 2♣ 3♥ 3♠"),  # full house
        cards("2♠ 2♦ 2♣ 2♥ 3♠"),  # four of a kind
        cards("2♣ 3♣ 4♣ 5♣ 6♣"),  # straight flush
    ]
    shown = [best_hand(h) for h in ladder]
    assert [h.category for h in shown] == list(CATEGORIES)
    assert shown == sorted(shown)
    assert len({h.strength for h in shown}) == len(shown)


def test_tie_breaks_within_a_category() -> None:
    # one pair: the pair, then the kickers highest first
    assert best_hand(cards("K♠ K♦ A♣ 9♥ 5♠")) > best_hand(cards("K♥ K♣ A♦ 9♠ 4♥"))
    assert best_hand(cards("K♠ K♦ A♣ 9♥ 5♠")).strength == (1, 13, 14, 9, 5)
    # two pair: the higher pair first, K-K-2-2 beats Q-Q-J-J
    assert best_hand(cards("K♠ K♦ 2♣ 2♥ 3♠")) > best_hand(cards("Q♠ Q♦ J♣ J♥ A♠"))
    # full house: the three decide, 3-3-3-2-2 beats 2-2-2-A-A
    assert best_hand(cards("3♠ 3♦ 3♣ 2♥ 2♠")) > best_hand(cards("2♦ 2♣ 2♥ A♠ A♦"))
    assert best_hand(cards("3♠ 3♦ 3♣ 2♥ 2♠")).strength == (6, 3, 2)
    # flush beats straight, straight flush beats four of a kind
    assert best_hand(cards("2♥ 4♥ 6♥ 8♥ 10♥")) > best_hand(cards("10♠ J♦ Q♣ K♥ A♣"))


def test_equal_best_fives_tie_and_cards_beyond_five_are_ignored() -> None:
    # 004 phase 2: "cards beyond five are simply ignored"; suits never break ties
    a = cards("A♠ K♠ Q♦ J♣ 9♥ 2♣")
    b = cards("A♦ K♥ Q♣ J♦ 9♠ 3♥")
    assert best_hand(a) == best_hand(b)
    assert best_hand(a).strength == (0, 14, 13, 12, 11, 9)
    royal_spades = cards("10♠ J♠ Q♠ K♠ A♠")
    royal_hearts = cards("10♥ J♥ Q♥ K♥ A♥ 2♣")
    assert best_hand(royal_spades) == best_hand(royal_hearts)


def test_showdown_returns_every_tied_winner() -> None:
    hands = {
        0: cards("A♠ K♠ Q♦ J♣ 9♥ 2♣"),  # A K Q J 9
        1: cards("A♦ K♥ Q♣ J♦ 9♠ 3♥"),  # A K Q J 9: ties seat 0
        2: cards("K♦ Q♥ 10♣ 8♦ 6♠ 4♠"),  # K Q 10 8 6: lower
    }
    winners, shown = showdown(hands)
    assert winners == (0, 1)
    assert shown[2].strength == (0, 13, 12, 10, 8, 6)
    winners, _ = showdown({0: hands[0], 1: hands[2], 2: cards("2♦ 2♥ 4♣ 6♦ 8♠")})
    assert winners == (2,)  # a pair of twos beats any high card


def test_short_hands_and_small_phases_make_pairs_and_sets_only() -> None:
    # best: 3 cards of K K Q Q 2: a pair of kings with the queen (two pair needs four cards)
    three = best_hand(cards("K♥ K♣ Q♦ Q♠ 2♥"), size=3)
    assert three.category == "one pair" and three.strength == (1, 13, 12)
    # best: 3 cards of a flush and a straight: neither counts with three cards
    assert best_hand(cards("2♥ 3♥ 4♥ 5♥ 6♥"), size=3).strength == (0, 6, 5, 4)
    # a 4-card hand in a 5-card showdown: three aces and a king beat three kings
    assert best_hand(cards("A♠ A♥ A♦ K♣")) > best_hand(cards("K♠ K♥ K♦ 2♣ 3♣"))
    # the same pair: the 5-card hand has one more kicker and wins
    assert best_hand(cards("Q♣ Q♦ 4♥ 3♠ 2♠")) > best_hand(cards("Q♠ Q♥ 4♦ 3♣"))
    # four of a kind in four cards beats a full house
    assert best_hand(cards("5♠ 5♥ 5♦ 5♣")) > best_hand(cards("K♠ K♥ K♦ Q♣ Q♠"))


def test_bad_hands_are_refused() -> None:
    import pytest

    with pytest.raises(ValueError):
        best_hand(())
    with pytest.raises(ValueError):
        best_hand(cards("2♠ 3♠"), size=6)
    with pytest.raises(ValueError):
        best_hand(cards("2♠ 2♠ 3♠ 4♠ 5♠"))


PACK = full_pack()


def _pk(hand: tuple) -> list[PkCard]:  # type: ignore[type-arg]
    text = "".join(("T" if c.rank == "10" else c.rank) + "cdhs"["♣♦♥♠".index(c.suit)]
                   for c in hand)
    return list(PkCard.parse(text))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PACK), min_size=10, max_size=14, unique=True))
def test_strength_orders_hands_as_pokerkit_does(sample: list) -> None:  # type: ignore[type-arg]
    """Our strengths compare two hands exactly as pokerkit's own hands do (ties included)."""
    a, b = tuple(sample[: len(sample) // 2]), tuple(sample[len(sample) // 2 :])
    ours = best_hand(a), best_hand(b)
    theirs = StandardHighHand.from_game(_pk(a)), StandardHighHand.from_game(_pk(b))
    assert (ours[0] < ours[1]) == (theirs[0] < theirs[1])
    assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])


def test_a_hand_met_again_gets_the_same_answer_and_errors_are_not_kept() -> None:
    import pytest

    first = best_hand(SEVENTEEN_QUADS)
    again = best_hand(list(SEVENTEEN_QUADS))  # a list: the same hand, kept answer
    assert again == first and again.cards == first.cards
    # four sevens and the highest other card, A♣ (worked out above)
    assert sorted(str(c) for c in first.cards[:4]) == sorted(["7♠", "7♥", "7♦", "7♣"])
    assert str(first.cards[4]) == "A♣"
    for _ in range(2):  # a refused hand is refused every time
        with pytest.raises(ValueError, match="twice"):
            best_hand(cards("7♣ 7♣ 2♦ 3♦ 4♦"))


_FEW_RANKS = [c for c in PACK if c.rank in ("A", "2", "3", "4", "5", "K")]


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.lists(st.sampled_from(PACK), min_size=5, max_size=17, unique=True),
    st.lists(st.sampled_from(_FEW_RANKS), min_size=5, max_size=13, unique=True)),
    st.booleans())
def test_the_lookup_once_per_key_is_pokerkits_from_game(sample: list, wheel: bool) -> None:  # type: ignore[type-arg]
    """The same label and the same five cards, in the same order, as pokerkit's
    ``from_game`` over the whole hand: equal combinations (a straight with two
    tens, the wheel in two suits) resolve to the one pokerkit keeps."""
    from boodle.engine.poker_hands import _pokerkit_best, hand_kind

    kind = StandardHighHand if wheel else hand_kind(False)
    theirs = kind.from_game(_pk(tuple(sample)))
    label, cards = _pokerkit_best(tuple(sample), kind)
    assert label == theirs.entry.label
    assert _pk(tuple(cards)) == list(theirs.cards)
