"""Claims by holding (spec §8.1; §6.6 ``claims: on holding``): who qualifies, and for how much.

004 phase 1: "anyone holding the A♥ K♥ Q♥ J♥ or 10♥ takes that section at
once; holding K and Q of one suit takes the King-Queen section; holding 8, 9
and 10 of one suit takes the Chien; sections whose cards are in the ghost
hand carry over"; 004 "Égalités": several King-Queen holders share.

Pure functions over hands; the engine turns an :class:`Award` into transfers
(one per winner, from the section), and what the split leaves stays on the
section (spec §9).  Widow cards qualify nobody: only players' hands are
passed in; under ``widow: blocks sets`` a set complete in the widow blocks its section
(:func:`blocked`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from boodle.engine.shares import ChipMode, split
from boodle.language.cards import Card, card_of
from boodle.language.model import Chips, Deck, Section, SectionKind, Split, SuitRule, WidowSets

__all__ = ["PAYING_CARDS", "SECTION_KINDS", "SPLITS", "WIDOW_BLOCKS", "WIDOW_SETS", "Award",
           "SectionRow", "SplitRow", "award", "blocked", "in_split_order", "paying_cards",
           "qualifies", "qualifiers"]


@dataclass(frozen=True)
class SectionRow:
    """The engine's reading of a section kind (spec §3): ``claimed``, it is paid to the
    holder of its cards (a boodle, a set; a kitty or a pot is paid by no card);
    ``per_card``, each of its paying cards claims it alone (a boodle: ``each boodle`` ante
    lines name it; a set needs all its cards); ``kitty``, going out pays into it (spec §7)."""

    claimed: bool
    per_card: bool
    kitty: bool

    @property
    def whole_set(self) -> bool:
        """Paid only to the holder of all its cards (a set, spec §3)."""
        return self.claimed and not self.per_card


SECTION_KINDS: dict[SectionKind, SectionRow] = {
    "boodle": SectionRow(claimed=True, per_card=True, kitty=False),
    "set": SectionRow(claimed=True, per_card=False, kitty=False),
    "kitty": SectionRow(claimed=False, per_card=False, kitty=True),
    "pot": SectionRow(claimed=False, per_card=False, kitty=False),
}
"""The engine's row for every section kind, one per member of
:data:`~boodle.language.model.SectionKind`.  The compiled engine reads these rows."""


def paying_cards(
    section: Section, trump: str | None = None, drawn: Mapping[str, Card] | None = None
) -> tuple[Card, ...] | None:
    """The cards that pay ``section`` this deal (spec §3).

    - a boodle: its one card (fixed; drawn for the session, bound in
      ``section.cards`` or given in ``drawn``; or its rank in the ``trump`` suit);
    - a fixed set: its cards; a set ``of trumps``: its ranks in ``trump``;
    - ``None`` for a ``same suit`` set (any one suit will do) and for a
      kitty or a pot (paid by no card);
    - ``()`` when the deal has no trump suit or the card was never drawn:
      nothing pays the section.
    """
    if not SECTION_KINDS[section.kind].claimed:
        return None
    return PAYING_CARDS[section.suit_rule](section, trump, drawn)


def _drawn_cards(section: Section, trump: str | None, drawn: Mapping[str, Card] | None
                 ) -> tuple[Card, ...] | None:
    if section.cards:  # a drawn card already bound to the section for the session
        return section.cards
    card = (drawn or {}).get(section.name)
    return (card,) if card is not None else ()


PAYING_CARDS: dict[SuitRule, Callable[[Section, str | None, Mapping[str, Card] | None],
                                      tuple[Card, ...] | None]] = {
    "fixed": lambda section, trump, drawn: section.cards,
    "same suit": lambda section, trump, drawn: None,  # any one suit will do
    "trumps": lambda section, trump, drawn: tuple(card_of(r, trump) for r in section.ranks)
    if trump is not None else (),
    "drawn": _drawn_cards,
}
"""The cards that pay a boodle or set section (spec §3), one row per member of
:data:`SuitRule`, given the deal's trump suit and the cards drawn for the session."""


def qualifies(
    section: Section,
    hand: Collection[Card],
    deck: Deck,
    trump: str | None = None,
    drawn: Mapping[str, Card] | None = None,
) -> bool:
    """Whether a player holding ``hand`` qualifies for ``section`` (spec §8.1).

    A boodle or set: the hand holds every card that pays it.  A ``same suit``
    set: the hand holds all its ranks in at least one suit of ``deck`` (a
    player holding it in two suits qualifies once).  Kitties and pots: never.
    """
    if not SECTION_KINDS[section.kind].claimed:
        return False
    cards = paying_cards(section, trump, drawn)
    if cards is None:
        return any(
            all(card_of(rank, suit) in hand for rank in section.ranks) for suit in deck.suits
        )
    return bool(cards) and all(c in hand for c in cards)


def qualifiers(
    section: Section,
    hands: Mapping[int, Collection[Card]],
    order: Sequence[int],
    deck: Deck,
    trump: str | None = None,
    drawn: Mapping[str, Card] | None = None,
) -> tuple[int, ...]:
    """The seats that qualify for ``section``, in ``order``.

    ``hands``: seat → hand for the players taking part; ``order``: those
    seats clockwise from the dealer's left (the order shares are paid in,
    spec §9).
    """
    return tuple(s for s in order if qualifies(section, hands[s], deck, trump, drawn))


def _never(section: Section, widow: Collection[Card], deck: Deck, trump: str | None) -> bool:
    return False


def _complete_in_widow(section: Section, widow: Collection[Card], deck: Deck,
                       trump: str | None) -> bool:
    return SECTION_KINDS[section.kind].whole_set and qualifies(section, widow, deck, trump)


WIDOW_SETS: dict[WidowSets, Callable[[Section, Collection[Card], Deck, str | None], bool]] = {
    "qualifies nobody": _never,           # 004 phase 1: widow cards qualify nobody
    "blocks sets": _complete_in_widow,    # Alysoun/tripoley: eightNineTenBlocked
}
"""The reference engine's row for each widow rule for sets (spec §5.2): whether ``section``
is blocked for the deal by the ``widow``'s cards (``blocks sets``: a set whose cards, or for
``same suit`` whose ranks in one suit, all lie in the widow)."""

WIDOW_BLOCKS: dict[WidowSets, bool] = {"qualifies nobody": False, "blocks sets": True}
"""Whether the widow may block a section at all (spec §5.2), one row per member of
:data:`~boodle.language.model.WidowSets`: the claims look for blocked sections only then."""


def blocked(section: Section, widow: Collection[Card], deck: Deck, trump: str | None,
            rule: WidowSets) -> bool:
    """Whether ``section`` is blocked by the ``widow`` under ``rule`` (:data:`WIDOW_SETS`):
    nobody claims it this deal and its chips carry over (spec §5.2, §6.6, §7, §8.1)."""
    return WIDOW_SETS[rule](section, widow, deck, trump)


@dataclass(frozen=True)
class Award:
    """What a holding claim pays: ``share`` chips to each of ``seats`` from ``section``.

    ``remainder``: chips the split leaves on the section (``chips whole``
    only; 0 otherwise).  ``len(seats) * share + remainder`` is the section's
    whole balance.
    """

    section: str
    seats: tuple[int, ...]
    share: Chips
    remainder: Chips


@dataclass(frozen=True)
class SplitRow:
    """How the reference engine pays several winners of one section under a :data:`Split`.

    ``order``: the winners, given clockwise from the dealer's left, in the order the rule
    reads them (the first is the one who takes it all, or the first share).  ``divides``:
    every winner gets an equal share (spec §9), else the first takes the whole section.
    """

    order: Callable[[Sequence[int]], tuple[int, ...]]
    divides: bool


def _clockwise(winners: Sequence[int]) -> tuple[int, ...]:
    return tuple(winners)


def _by_seat_number(winners: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(winners))


SPLITS: dict[Split, SplitRow] = {
    "share": SplitRow(_clockwise, divides=True),        # 004 "Égalités"
    "first seat": SplitRow(_clockwise, divides=False),  # the first from the dealer's left
    "lowest seat": SplitRow(_by_seat_number, divides=False),  # seat 0 first (Alysoun/tripoley)
}
"""The reference engine's row for each split rule (spec §8.1, §8.2), one per :data:`Split`."""


def in_split_order(winners: Sequence[int], split_rule: Split) -> tuple[int, ...]:
    """``winners`` (seats, clockwise from the dealer's left) in the order ``split_rule`` reads
    them: the first is the one who takes the whole section, or the first share (spec §8.1)."""
    return SPLITS[split_rule].order(winners)


def award(
    section: str,
    winners: Sequence[int],
    balance: Chips,
    split_rule: Split,
    chips: ChipMode,
) -> Award | None:
    """How ``balance`` chips on ``section`` go to ``winners`` (in clockwise order).

    ``share``: equal shares (spec §9: whole chips with the remainder left, or
    exact); ``first seat``: the first winner clockwise from the dealer's left takes it all;
    ``lowest seat``: the winner in the lowest-numbered seat takes it all (:data:`SPLITS`).
    ``None`` when nobody qualifies: the section carries over (spec §3; 004 phase 1).
    """
    if not winners:
        return None
    row = SPLITS[split_rule]
    ordered = row.order(winners)
    if not row.divides or len(ordered) == 1:
        return Award(section, (ordered[0],), balance, 0)
    share, remainder = split(balance, len(ordered), chips)
    return Award(section, ordered, share, remainder)
