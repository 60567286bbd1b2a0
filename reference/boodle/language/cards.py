"""Cards, suits and ranks: the vocabulary every other module speaks.

A card is a (rank, suit) pair.  Ranks are plain strings ("2" … "10", "J", "Q",
"K", "A"); whether an ace is high or low is not a property of the card but of
the variant's rank order (``deck { ranks … }``, spec §2.2), so this module
never compares ranks by itself.

Text forms (spec §2.1): ``K♣``, ``KC``, ``10♥``, ``TH`` and ``10H`` all name
the same kind of card; the canonical form is rank then suit symbol, with ten
written ``10`` (``10♥``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

SUITS: Final = ("♣", "♦", "♥", "♠")
"""The four suits in their canonical order (clubs, diamonds, hearts, spades)."""

SUIT_LETTERS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES: Final = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}
SUIT_COLOUR: Final = {"♣": "black", "♦": "red", "♥": "red", "♠": "black"}

RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Every rank a standard pack knows, in the usual ace-high order."""

RANK_ALIASES: Final = {"T": "10"}

_CARD_RE: Final = re.compile(r"^(10|[2-9TJQKA])([♣♦♥♠CDHS])$")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card.

    ``rank`` is canonical ("10", never "T"); ``suit`` is a suit symbol.
    Ordering is by (rank text, suit) and exists only so sets of cards print
    deterministically; game order comes from the ruleset's rank order.
    """

    rank: str
    suit: str

    def __eq__(self, other: object) -> bool:
        """The dataclass's equality (same class, same rank and suit), answered at once for
        the very same object (:func:`card_of` hands out one object per card)."""
        if self is other:
            return True
        if other.__class__ is self.__class__:
            assert isinstance(other, Card)
            return self.rank == other.rank and self.suit == other.suit
        return NotImplemented

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    @property
    def colour(self) -> str:
        """``"red"`` or ``"black"``."""
        return SUIT_COLOUR[self.suit]


@lru_cache(maxsize=1024)
def card_of(rank: str, suit: str) -> Card:
    """The card of ``rank`` (canonical) and ``suit`` (a symbol): equal to ``Card(rank, suit)``,
    and the same object each time, so that the decks, the parsed cards and the hands share
    their cards and look-ups find them by identity (cards are immutable)."""
    return Card(rank, suit)


def canonical_rank(text: str) -> str:
    """Return the canonical rank for ``text`` ("T" → "10").

    Raises ``ValueError`` if ``text`` is not a rank.
    """
    rank = RANK_ALIASES.get(text, text)
    if rank not in RANKS:
        raise ValueError(f"not a rank: {text!r}")
    return rank


def canonical_suit(text: str) -> str:
    """Return the suit symbol for ``text`` ("C" → "♣").

    Raises ``ValueError`` if ``text`` is not a suit.
    """
    suit = SUIT_LETTERS.get(text, text)
    if suit not in SUITS:
        raise ValueError(f"not a suit: {text!r}")
    return suit


@lru_cache(maxsize=1024)
def parse_card(text: str) -> Card:
    """Parse one card in any accepted text form (``K♣``, ``KC``, ``TH``, ``10♥``).

    Raises ``ValueError`` with the offending text if it is not a card.  Cards
    are immutable: a text met again gets the same card (case files and
    positions name the same few dozen cards thousands of times).
    """
    match = _CARD_RE.match(text.strip())
    if not match:
        raise ValueError(f"not a card: {text!r} (write it like K♣, KC, 10♥ or TH)")
    return card_of(canonical_rank(match.group(1)), canonical_suit(match.group(2)))


def full_pack() -> tuple[Card, ...]:
    """The 52 cards of a standard pack, suit by suit in canonical order."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def format_cards(cards: Iterable[Card]) -> str:
    """Render cards as space-separated canonical text."""
    return " ".join(str(card) for card in cards)
