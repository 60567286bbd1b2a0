"""Poker showdowns (spec §8.2): each player's best poker hand out of their whole hand.

004 phase 2: "without exchanging, each player's best five-card poker hand
from the cards in hand (cards beyond five are ignored)"; the best hand takes
the Pot and equal hands share it (004 "Égalités").

The best five cards are found by `pokerkit <https://pypi.org/project/pokerkit/>`_
(University of Toronto Computer Poker Student Research Group; typed, tested,
maintained), which tries every five-card combination of the hand against
its standard lookup table.  ``ace low straight: yes`` uses its
``StandardLookup`` (A-2-3-4-5 is the lowest straight, "the wheel");
``ace low straight: no`` uses ``Standard2Lookup``, whose straights do not
wrap, so A-2-3-4-5 is ace-high high card.

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
from itertools import combinations
from typing import TYPE_CHECKING

from boodle.language.cards import Card

if TYPE_CHECKING:  # pokerkit is imported on the first showdown (importing it costs 0.3 s)
    from pokerkit import Card as PkCard
    from pokerkit.hands import CombinationHand
    from pokerkit.lookups import Entry, Label

__all__ = ["CATEGORIES", "PokerHand", "best_hand", "showdown", "rank_value"]

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

_VALUES: dict[str, int] = {r: v for v, r in enumerate(
    ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), start=2)}
_PK_RANK = {"10": "T"}
_PK_SUIT = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def rank_value(card: Card) -> int:
    """A card's poker value: 2 … 10, J 11, Q 12, K 13, A 14 (poker is ace high, spec §8.2)."""
    return _VALUES[card.rank]


@cache
def _labels() -> dict[Label, int]:
    """pokerkit's labels → the category index of :data:`CATEGORIES`."""
    from pokerkit.lookups import Label

    return {
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


@cache
def hand_kind(ace_low_straight: bool) -> type[CombinationHand]:
    """pokerkit's hand class for five-card high hands: its ``StandardHighHand`` when
    A-2-3-4-5 is a straight (``ace_low_straight``), else a standard high hand whose
    straights do not wrap (its ``Standard2Lookup``), where A-2-3-4-5 is no straight.
    Imports pokerkit on the first call."""
    from pokerkit import StandardHighHand
    from pokerkit.hands import CombinationHand
    from pokerkit.lookups import Standard2Lookup

    if ace_low_straight:
        return StandardHighHand

    class _NoWheelHand(CombinationHand):
        lookup = Standard2Lookup()
        low = False
        card_count = 5

    return _NoWheelHand


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
    from pokerkit import Card as PkCard

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
    label, chosen = _pokerkit_best(cards, hand_kind(ace_low_straight))
    strength, ordered = _strength(_labels()[label], chosen)
    return PokerHand(strength, CATEGORIES[strength[0]], ordered)


_PRIMES: dict[str, int] = dict(zip(
    ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))
"""A prime per rank: five cards' product names their multiset of ranks (pokerkit's own key)."""

_SUIT_BITS: dict[str, int] = {"♣": 1, "♦": 2, "♥": 4, "♠": 8}

_ENTRIES: dict[type[CombinationHand], dict[tuple[int, bool], Entry | None]] = {}
"""Per hand kind: pokerkit's entry for each (rank multiset, suited) key met so far."""


def _pokerkit_best(cards: tuple[Card, ...], kind: type[CombinationHand]
                   ) -> tuple[Label, list[Card]]:
    """pokerkit's ``kind.from_game(cards)``: its label and five cards, with fewer lookups.

    ``from_game`` tries every five-card combination in ``itertools.combinations``
    order, skips the ones its lookup has no entry for, and keeps the first
    strictly greatest entry.  This loop does the same, in the same order, and
    compares the same entries; it only asks pokerkit's lookup once per key it
    has not met.  pokerkit's lookup keys a hand by two things alone
    (``Lookup._get_key``): the product of a prime per rank, which names the
    multiset of ranks, and whether the five cards share one suit; so every
    combination with the same key has the same entry, and the answer (the
    entry, and the cards of the first combination that reaches it) is
    pokerkit's.  ``tests/unit/test_poker.py`` compares the two on random hands.
    """
    entries = _ENTRIES.setdefault(kind, {})
    primes = [_PRIMES[c.rank] for c in cards]
    suits = [_SUIT_BITS[c.suit] for c in cards]
    best: Entry | None = None
    chosen: tuple[int, ...] = ()
    for combo in combinations(range(len(cards)), 5):
        a, b, c, d, e = combo
        key = (primes[a] * primes[b] * primes[c] * primes[d] * primes[e],
               suits[a] & suits[b] & suits[c] & suits[d] & suits[e] != 0)
        try:
            entry = entries[key]
        except KeyError:
            entry = kind.lookup.get_entry_or_none([_pk_card(_pk(cards[i])) for i in combo])
            entries[key] = entry
        if entry is not None and (best is None or best < entry):
            best, chosen = entry, combo
    if best is None:
        raise ValueError("no poker hand can be made of these cards")
    return best.label, [cards[i] for i in chosen]


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
