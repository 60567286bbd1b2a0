"""Claims (spec §6.6, §8.1): which sections a played card takes, and paying holders.

A boodle section is claimed by playing its card (001 §05: "playing legally
A♥, K♣, Q♦ or J♠ takes the whole matching section at once; merely holding
it does not"); a set when one player has played all its cards.  Under
``claims: on holding`` (and in a holding phase) :func:`pay_holders` pays each
section to the players whose hands qualify, sharing it when several do
(:mod:`boodle.engine.holders` decides who qualifies and the shares).  Under
``claims: none`` the stops phase asks for no claim at all (004's Tripoli: its
holding phase has paid the sections); :func:`claims_of` still says what a card
would claim, for callers that check the phase's rule first.
"""

from __future__ import annotations

from boodle.engine.events import Claim, Event
from boodle.engine.holders import (
    SECTION_KINDS,
    WIDOW_BLOCKS,
    award,
    blocked,
    paying_cards,
    qualifiers,
)
from boodle.engine.ledger import Account, seat, section
from boodle.engine.state import DealState
from boodle.language.cards import Card, card_of
from boodle.language.model import Chips, Ruleset, Split, derived

__all__ = ["blocked_sections", "claims_of", "may_claim", "pay_holders", "take", "take_all"]


def claims_of(ruleset: Ruleset, state: DealState, who: int, card: Card) -> tuple[str, ...]:
    """Sections that ``who`` playing ``card`` claims (spec §6.6, 001 §05).

    A boodle section is claimed by playing its card (fixed, drawn and bound
    for the session, or its rank in the deal's trump suit); a ``set`` when
    one player has played all its cards (fixed, or its ranks in the trump
    suit), in any order (Pope Joan's Intrigue: the knave always comes before
    the queen in a run); a ``same suit`` set when one player has played all
    its ranks in one suit.  Valid before or after ``card`` is played.

    Only the sections ``card`` pays or belongs to are looked at
    (:func:`_sections_of`); most cards have none.
    """
    sections = _sections_of(ruleset, state.trump, card)
    if not sections:  # most cards pay no section and belong to no set
        return ()

    def mine(c: Card) -> bool:
        place = state.place(c)
        return c == card or (place is not None and place.kind == "played" and place.seat == who)

    found = tuple(name for name, boodle, cards in sections
                  if boodle or all(mine(c) for c in cards))
    if found and WIDOW_BLOCKS[ruleset.deal.widow_sets]:
        shut = blocked_sections(ruleset, state)
        found = tuple(name for name in found if name not in shut)
    if found and state.short:  # spec §4: a short seat takes only the sections it anted
        found = tuple(name for name in found if state.may_take(who, name))
    return found


def may_claim(ruleset: Ruleset, trump: str | None, card: Card) -> bool:
    """Whether playing ``card`` with ``trump`` as trumps can claim some section (spec §6.6):
    it pays a boodle or belongs to a set of the board.  ``False`` means :func:`claims_of`
    finds nothing for this card in any state with these trumps."""
    return bool(_sections_of(ruleset, trump, card))


def blocked_sections(ruleset: Ruleset, state: DealState) -> frozenset[str]:
    """The sections the widow blocks now (spec §5.2 ``blocks sets``): the sets whose cards all
    lie in the widow, read as it is when the claim is made.  Empty under ``qualifies nobody``."""
    rule = ruleset.deal.widow_sets
    if not WIDOW_BLOCKS[rule]:
        return frozenset()
    widow = set(state.widow())
    return frozenset(s.name for s in ruleset.board
                     if blocked(s, widow, ruleset.deck, state.trump, rule))


def _sections_of(ruleset: Ruleset, trump: str | None, card: Card
                 ) -> tuple[tuple[str, bool, tuple[Card, ...]], ...]:
    """The boodle and set sections that playing ``card`` can claim with ``trump`` as trumps,
    in board order, as (name, is a boodle, every card the set needs): the sections of
    :func:`_claimable` that ``card`` pays or belongs to (a same-suit set: its ranks in
    ``card``'s suit, when ``card``'s rank is one of them).  Worked out once per ruleset,
    trump suit and card."""
    table: dict[tuple[str | None, str, str], tuple[tuple[str, bool, tuple[Card, ...]], ...]] = (
        derived(ruleset, "_sections_of", dict))
    found = table.get((trump, card.rank, card.suit))  # strings: hashed without a Python call
    if found is None:
        found = table[trump, card.rank, card.suit] = tuple(
            (name, boodle, cards if cards is not None
             else tuple(card_of(r, card.suit) for r in ranks))
            for name, boodle, cards, ranks in _claimable(ruleset, trump)
            if (card.rank in ranks if cards is None else card in cards))
    return found


_Claimable = tuple[tuple[str, bool, tuple[Card, ...] | None, tuple[str, ...]], ...]


def _claimable(ruleset: Ruleset, trump: str | None) -> _Claimable:
    """The board's boodle and set sections, in board order, as (name, is a boodle, the cards
    that pay it with ``trump`` as trumps (:func:`~boodle.engine.holders.paying_cards`: fixed, drawn
    and bound, or of trumps, spec §3; ``None`` for a same-suit set), its ranks); computed once
    per ruleset and trump suit."""
    table: dict[str | None, _Claimable] = derived(ruleset, "_claimable", dict)
    found = table.get(trump)
    if found is None:
        found = table[trump] = tuple(
            (s.name, SECTION_KINDS[s.kind].per_card, paying_cards(s, trump), s.ranks)
            for s in ruleset.board if SECTION_KINDS[s.kind].claimed)
    return found


def take(state: DealState, who: int, name: str, events: list[Event]) -> DealState:
    """``who`` takes the whole of section ``name`` (a Claim, amount 0 if it is empty)."""
    state, t = state.pay(section(name), seat(who), state.ledger.section(name), "claim")
    events.append(Claim(who, name, t))
    return state


def take_all(state: DealState, who: int, names: list[str] | tuple[str, ...],
             events: list[Event]) -> DealState:
    """:func:`take` each section of ``names`` in order: the same state and events as one
    :func:`take` after another, paid in one step (a name twice: one after another)."""
    if not names:
        return state
    if len(set(names)) != len(names):  # the second take of a name finds it empty
        for name in names:
            state = take(state, who, name, events)
        return state
    ledger = state.ledger
    state, done = state.pay_all([(section(name), seat(who), ledger.section(name), "claim")
                                 for name in names])
    events.extend(Claim(who, name, t) for name, t in zip(names, done, strict=True))
    return state


def pay_holders(
    ruleset: Ruleset,
    state: DealState,
    names: tuple[str, ...],
    split: Split,
    events: list[Event],
    phase: str | None = None,
) -> DealState:
    """Pay each section of ``names``, in order, to the players who hold its cards (spec §8.1).

    A boodle: the holder of its card (fixed, drawn and bound, or its rank in
    the deal's trump suit); a set: each player holding all its cards (``same
    suit``: all its ranks in one suit; ``of trumps``: in the trump suit).
    Several qualifying players split it by ``split`` and the variant's
    ``chips`` (spec §9: whole shares, the remainder stays on the section), in
    turn clockwise from the dealer's left; each share is one
    :class:`~boodle.engine.events.Claim`.  Widow cards qualify nobody: the section
    carries over (004 phase 1); under ``widow: blocks sets`` a set complete in the widow is
    paid to nobody, whoever else holds it (:func:`blocked_sections`, spec §5.2); a seat short
    at the ante under ``short stack: section by section`` qualifies only for the sections it
    anted (spec §4: the next qualifier takes it).  With
    ``phase`` (a holding phase), each section paid is recorded in ``DealState.taken``
    (spec §7 ``unless taken``).
    """
    order = state.clockwise(state.dealer)  # players still in, from the dealer's left
    hands = {s: state.hand(s) for s in order}
    if len(set(names)) != len(names):  # a section paid twice: the second sees the first
        return _pay_holders_one_by_one(ruleset, state, names, split, events, phase)
    taken = list(state.taken)
    payments: list[tuple[Account, Account, Chips, str]] = []
    claims: list[tuple[int, str]] = []
    ledger = state.ledger  # a section's balance does not change as the others are paid
    shut = blocked_sections(ruleset, state)
    for name in names:
        if name in shut:  # spec §5.2 'blocks sets': nobody takes it this deal
            continue
        winners = qualifiers(ruleset.section(name), hands, order, ruleset.deck, state.trump)
        if state.short:  # spec §4: a seat that did not ante the section does not qualify
            winners = tuple(w for w in winners if state.may_take(w, name))
        paid = award(name, winners, ledger.section(name), split, ruleset.chips)
        if paid is None:
            continue
        for who in paid.seats:
            payments.append((section(name), seat(who), paid.share, "claim"))
            claims.append((who, name))
        if phase is not None:
            taken.append((phase, name))
    if payments:
        state, done = state.pay_all(payments)
        events.extend(Claim(who, name, t) for (who, name), t in zip(claims, done, strict=True))
    return state.evolve(taken=tuple(taken))


def _pay_holders_one_by_one(
    ruleset: Ruleset,
    state: DealState,
    names: tuple[str, ...],
    split: Split,
    events: list[Event],
    phase: str | None,
) -> DealState:
    """:func:`pay_holders` one share at a time, each section's balance read when it is paid
    (for a list that names a section twice)."""
    order = state.clockwise(state.dealer)
    hands = {s: state.hand(s) for s in order}
    taken = list(state.taken)
    shut = blocked_sections(ruleset, state)
    for name in names:
        if name in shut:
            continue
        winners = qualifiers(ruleset.section(name), hands, order, ruleset.deck, state.trump)
        if state.short:  # spec §4: a seat that did not ante the section does not qualify
            winners = tuple(w for w in winners if state.may_take(w, name))
        paid = award(name, winners, state.ledger.section(name), split, ruleset.chips)
        if paid is None:
            continue
        for who in paid.seats:
            state, t = state.pay(section(name), seat(who), paid.share, "claim")
            events.append(Claim(who, name, t))
        if phase is not None:
            taken.append((phase, name))
    return state.evolve(taken=tuple(taken))
