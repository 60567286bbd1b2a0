"""Poker showdowns (spec §8.2): each player's best poker hand out of their whole hand.

004 phase 2: "without exchanging, each player's best five-card poker hand
from the cards in hand (cards beyond five are ignored)"; the best hand takes
the Pot and equal hands share it (004 "Égalités").

The best five cards are the ones `pokerkit <https://pypi.org/project/pokerkit/>`_
(University of Toronto Computer Poker Student Research Group; typed, tested,
maintained) keeps when it tries every five-card combination of the hand
against its standard lookup table: the first of the strongest, in the order
of :func:`itertools.combinations`.  ``ace low straight: yes`` is its
``StandardLookup`` (A-2-3-4-5 is the lowest straight, "the wheel");
``ace low straight: no`` its ``Standard2Lookup``, whose straights do not
wrap, so A-2-3-4-5 is ace-high high card.  They are found directly, from the
counts of ranks and suits (a 17-card hand has 6,188 combinations: pokerkit
took milliseconds a hand); :func:`best_by_pokerkit` asks pokerkit itself, and
the tests require the same category and the same five cards.

From the five cards pokerkit picks, :class:`PokerHand` keeps a *strength*:
the category (0 high card … 8 straight flush) followed by the tie-break
ranks, highest first (2 … 14, ace 14; the wheel's top card is 5).  Two hands
tie exactly when their strengths are equal, which is when pokerkit gives
them the same entry: same category and same ranks, suits never break ties.
Hands of fewer cards than the phase asks for (spec §8.2: a short hand "is
compared as it is") and phases of ``best: N cards`` with N < 5 are ranked by
the same strength, computed here over every N-card subset: they can make
pairs, two pair, three and four of a kind, never a straight or a flush.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations, product

from pokerkit import Card as PkCard
from pokerkit import StandardHighHand
from pokerkit.hands import CombinationHand
from pokerkit.lookups import Label, Standard2Lookup

from .cards import Card

__all__ = ["CATEGORIES", "PokerHand", "best_by_pokerkit", "best_hand", "showdown", "rank_value"]

CATEGORIES: tuple[str, ...] = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""The categories, low to high (spec §8.2; 004 phase 2).  The royal flush is the
ace-high straight flush, not a category of its own."""

_LABELS: dict[Label, int] = {
    Label.HIGH_CARD: 0,
    Label.ONE_PAIR: 1,
    Label.TWO_PAIR: 2,
    Label.THREE_OF_A_KIND: 3,
    Label.STRAIGHT: 4,
    Label.FLUSH: 5,
    Label.FULL_HOUSE: 6,
    Label.FOUR_OF_A_KIND: 7,
    Label.STRAIGHT_FLUSH: 8,
}

_VALUES: dict[str, int] = {r: v for v, r in enumerate(
    ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), start=2)}
_PK_RANK = {"10": "T"}
_PK_SUIT = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def rank_value(card: Card) -> int:
    """A card's poker value: 2 … 10, J 11, Q 12, K 13, A 14 (poker is ace high, spec §8.2)."""
    return _VALUES[card.rank]


class _NoWheelHand(CombinationHand):
    """pokerkit's standard high hand whose straights do not wrap: A-2-3-4-5 is no straight."""

    lookup = Standard2Lookup()
    low = False
    card_count = 5


@dataclass(frozen=True, order=True)
class PokerHand:
    """One player's best poker hand.

    ``strength``: (category index, tie-break values …), compared
    lexicographically; higher is better, equal means a tie.  ``category``:
    one of :data:`CATEGORIES`.  ``cards``: the cards that make the hand,
    best first (at most N; fewer for a short hand).
    """

    strength: tuple[int, ...]
    category: str = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)

    def __str__(self) -> str:
        return f"{self.category} ({' '.join(map(str, self.cards))})"


def _pk(card: Card) -> str:
    return _PK_RANK.get(card.rank, card.rank) + _PK_SUIT[card.suit]


@cache
def _pk_card(text: str) -> PkCard:
    return next(iter(PkCard.parse(text)))


def _strength(category: int, cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """The strength of ``cards`` known to be of ``category``, and the cards best first.

    Ranks are grouped by how often they occur, larger groups first, then
    higher ranks first: K-K-K-2-2 is (6, 13, 2); a straight counts only its
    top card, 5 for the wheel A-2-3-4-5.
    """
    counts = Counter(rank_value(c) for c in cards)
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    if category in (4, 8):
        top = 5 if set(counts) == {14, 2, 3, 4, 5} else max(counts)
        order = [top]
    best = sorted(cards, key=lambda c: (counts[rank_value(c)], rank_value(c), c.suit),
                  reverse=True)
    if category in (4, 8) and order == [5]:
        best = [*best[1:], best[0]]  # the wheel reads 5-4-3-2-A
    return (category, *order), tuple(best)


def _category_of_short(cards: Sequence[Card]) -> int:
    """The category of fewer than five cards: pairs and sets only (spec §8.2)."""
    shape = sorted(Counter(rank_value(c) for c in cards).values(), reverse=True)
    if shape[0] == 4:
        return 7
    if shape[0] == 3:
        return 3
    if shape[0] == 2:
        return 2 if len(shape) > 1 and shape[1] == 2 else 1
    return 0


def _best_short(cards: Sequence[Card], size: int) -> PokerHand:
    """The best hand of ``size`` < 5 cards (or all of a short hand), by trying every subset."""
    k = min(size, len(cards))
    best: PokerHand | None = None
    for combo in combinations(cards, k):
        strength, ordered = _strength(_category_of_short(combo), combo)
        hand = PokerHand(strength, CATEGORIES[strength[0]], ordered)
        if best is None or hand > best:
            best = hand
    assert best is not None
    return best


def best_hand(cards: Sequence[Card], size: int = 5, ace_low_straight: bool = True) -> PokerHand:
    """The best poker hand of ``size`` cards (1 to 5) that ``cards`` can make (spec §8.2).

    ``cards``: a whole hand, any length (004: "up to 17 cards" and more);
    cards beyond ``size`` are ignored.  ``ace_low_straight``: whether
    A-2-3-4-5 is a straight (the lowest).  Raises ``ValueError`` for an empty
    hand, a ``size`` outside 1-5, or the same card twice.

    A pure function of its arguments (the order of ``cards`` included, which
    decides which of equal combinations pokerkit keeps): the last few thousand
    answers are kept, so a hand met again (the exhaustive search meets the same
    showdowns in many states) is not evaluated twice.
    """
    return _best_hand(tuple(cards), size, ace_low_straight)


@lru_cache(maxsize=4096)
def _best_hand(cards: tuple[Card, ...], size: int, ace_low_straight: bool) -> PokerHand:
    if not cards:
        raise ValueError("a poker hand needs at least one card")
    if not 1 <= size <= 5:
        raise ValueError(f"a poker hand is 1 to 5 cards, not {size}")
    if len(set(cards)) != len(cards):
        raise ValueError("the same card is in the hand twice")
    if size < 5 or len(cards) < 5:
        return _best_short(cards, size)
    category, chosen = _best_five(cards, ace_low_straight)
    strength, ordered = _strength(category, chosen)
    return PokerHand(strength, CATEGORIES[strength[0]], ordered)


def best_by_pokerkit(cards: Sequence[Card], ace_low_straight: bool = True
                     ) -> tuple[int, tuple[Card, ...]]:
    """pokerkit's best five of five or more distinct ``cards``: the category and the cards,
    in the order of ``cards``.  pokerkit tries every five-card combination in the order
    :func:`itertools.combinations` gives and keeps the first of the strongest; what
    :func:`best_hand` finds directly (:func:`_best_five`) is tested against this."""
    by_text = {_pk(c): c for c in cards}
    kind = StandardHighHand if ace_low_straight else _NoWheelHand
    found = kind.from_game([_pk_card(t) for t in by_text])
    return _LABELS[found.entry.label], tuple(by_text[repr(c)] for c in found.cards)


def _best_five(cards: tuple[Card, ...], ace_low_straight: bool
               ) -> tuple[int, tuple[Card, ...]]:
    """The category of the best five of ``cards`` (five or more, distinct) and the five cards,
    in the order of ``cards``: of the combinations that make the best hand, the first in the
    order :func:`itertools.combinations` tries them (the one pokerkit keeps,
    :func:`best_by_pokerkit`).

    The best hand is read from the counts of ranks and suits (:func:`_best_shape`); the
    combinations that make it are those with its ranks (and, for a flush, its suit), so
    only those are listed, as positions in ``cards``, and the least is taken.
    """
    category, needed, suits = _best_shape(cards, ace_low_straight)
    best: tuple[int, ...] | None = None
    for suit in suits:
        picks = []
        for value, count in needed.items():
            at = [i for i, c in enumerate(cards)
                  if rank_value(c) == value and (suit is None or c.suit == suit)]
            picks.append(list(combinations(at, count)))
        for chosen in product(*picks):
            positions = tuple(sorted(i for part in chosen for i in part))
            if best is None or positions < best:
                best = positions
    assert best is not None
    return category, tuple(cards[i] for i in best)


def _best_shape(cards: tuple[Card, ...], ace_low_straight: bool
                ) -> tuple[int, dict[int, int], list[str | None]]:
    """The best five-card hand ``cards`` can make (spec §8.2; the categories of
    :data:`CATEGORIES`): its category, how many cards of each rank value it takes, and the
    suits it must be in (a flush or straight flush: every suit that makes the same best one;
    otherwise ``[None]``, any suit)."""
    values = Counter(rank_value(c) for c in cards)
    by_suit: dict[str, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(rank_value(c))
    suited = {suit: vs for suit, vs in by_suit.items() if len(vs) >= 5}
    flushes = {suit: _straight_top(set(vs), ace_low_straight) for suit, vs in suited.items()}
    top = max((t for t in flushes.values() if t is not None), default=None)
    if top is not None:  # a straight flush
        return 8, _run(top), [s for s, t in flushes.items() if t == top]
    by_count = sorted(values, key=lambda v: (values[v], v), reverse=True)
    first = by_count[0]
    if values[first] == 4:
        kicker = max(v for v in values if v != first)
        return 7, {first: 4, kicker: 1}, [None]
    pairs = [v for v in by_count[1:] if values[v] >= 2]
    if values[first] == 3 and pairs:
        return 6, {first: 3, max(pairs): 2}, [None]
    if suited:
        tops = {suit: tuple(sorted(vs, reverse=True)[:5]) for suit, vs in suited.items()}
        best = max(tops.values())
        return 5, dict.fromkeys(best, 1), [s for s, t in tops.items() if t == best]
    straight = _straight_top(set(values), ace_low_straight)
    if straight is not None:
        return 4, _run(straight), [None]
    singles = sorted((v for v in values if values[v] == 1), reverse=True)
    if values[first] == 3:
        return 3, {first: 3, **dict.fromkeys(singles[:2], 1)}, [None]
    if values[first] == 2 and len(pairs) >= 1:
        second = pairs[0]
        kicker = max(v for v in values if v not in (first, second))
        return 2, {first: 2, second: 2, kicker: 1}, [None]
    if values[first] == 2:
        return 1, {first: 2, **dict.fromkeys(singles[:3], 1)}, [None]
    return 0, dict.fromkeys(singles[:5], 1), [None]


def _straight_top(values: set[int], ace_low_straight: bool) -> int | None:
    """The top value of the highest straight among ``values`` (5 for the wheel A-2-3-4-5,
    when ``ace_low_straight``), or ``None``."""
    for top in range(14, 5, -1):
        if all(v in values for v in range(top - 4, top + 1)):
            return top
    if ace_low_straight and {14, 2, 3, 4, 5} <= values:
        return 5
    return None


def _run(top: int) -> dict[int, int]:
    """One card of each value of the straight whose top value is ``top`` (5: the wheel)."""
    return dict.fromkeys((14, 2, 3, 4, 5) if top == 5 else range(top - 4, top + 1), 1)


def showdown(
    hands: Mapping[int, Sequence[Card]], size: int = 5, ace_low_straight: bool = True
) -> tuple[tuple[int, ...], dict[int, PokerHand]]:
    """Every seat's best hand, and the seats whose hands are best (ties: all of them).

    ``hands``: seat → whole hand, for the players taking part (the widow and
    eliminated players do not, spec §8.2); a seat with no card takes no part.
    Returns (winning seats in ascending seat order, seat → best hand).  The
    caller orders the winners clockwise from the dealer's left for a split.
    """
    shown = {s: best_hand(h, size, ace_low_straight) for s, h in hands.items() if h}
    if not shown:
        return (), shown
    top = max(shown.values())
    return tuple(sorted(s for s, h in shown.items() if h == top)), shown
