"""Dealing (spec §5.2): who gets each card, the shuffle, and the deal stage.

The whole pack is dealt one card at a time, clockwise from the dealer's
left, with the widow dealt last (001 §03) or first (004) in each round.
:func:`new_deal` builds the state of a deal whose cards are still in the
pack; the deal stage (:data:`STAGE`) moves them to the hands and the widow
and records the :class:`~boodle.engine.events.DealCards` event.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boodle.engine.events import DealCards, Event
from boodle.engine.ledger import Ledger
from boodle.engine.stage import Stage, no_legal_moves, no_moves
from boodle.engine.state import DealState, card_index
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Balance, Chips, Ruleset, Trumps, WidowPosition, derived

__all__ = ["BALANCES", "STAGE", "TURN_UPS", "WIDOW_PLACES", "BalanceRule", "deal_hands",
           "deal_order", "eliminated", "new_deal", "shuffled_deck"]

Hands = tuple[tuple[Card, ...], ...]


def deal_order(
    ruleset: Ruleset, players: int, dealer: int, out: frozenset[int] = frozenset()
) -> tuple[int | None, ...]:
    """Who gets each card of a round, clockwise from the dealer's left (``None`` = widow).

    001 §03: the widow is dealt last in each round (``last``); 004: it sits
    at the dealer's left and is dealt first (``first``); ``none``: no widow.
    Eliminated seats (``out``, spec §10) are dealt nothing.  Computed once per
    ruleset, player count, dealer and ``out``.
    """
    known: dict[tuple[int, int, frozenset[int]], tuple[int | None, ...]] = derived(
        ruleset, "_deal_order", dict)
    order = known.get((players, dealer, out))
    if order is None:
        order = known[players, dealer, out] = _deal_order(ruleset, players, dealer, out)
    return order


Round = tuple[int | None, ...]
"""Who gets each card of one round of the deal: a seat, ``None`` for the widow."""

WIDOW_PLACES: dict[WidowPosition, Callable[[tuple[int, ...]], Round]] = {
    "last": lambda seats: (*seats, None),
    "first": lambda seats: (None, *seats),
    "none": lambda seats: seats,
}
"""Where the widow takes its card in a round of the deal (spec §5.2), the seats in turn from
the dealer's left given; one row per member of :data:`WidowPosition`."""


TURN_UPS: dict[Trumps, Callable[[tuple[Card, ...]], Card] | None] = {
    "none": None,
    "last widow card": lambda widow: widow[-1],
}
"""Which card of the widow (in dealt order, never empty) is turned up for trumps (spec
§5.2), one row per member of :data:`Trumps`; ``None``: no card is turned up, and a deal has
no trumps stage (:func:`boodle.engine.machine.plan`)."""


@dataclass(frozen=True)
class BalanceRule:
    """What the engine does under a balance rule (spec §9, §10): ``still_in``, whether a
    player with this balance (chips) is dealt in; ``capped``, whether a payment is capped at
    the payer's balance (the deal state's ``capped``)."""

    still_in: Callable[[Chips], bool]
    capped: bool


BALANCES: dict[Balance, BalanceRule] = {
    "allowed": BalanceRule(still_in=lambda balance: True, capped=False),
    "eliminate": BalanceRule(still_in=lambda balance: balance > 0, capped=True),
}
"""The engine's row for each balance rule, one per member of :data:`Balance`: a register
(every player plays every deal, whatever their balance), or physical chips (a player at
zero or less is out; spec §10).  The simulator reads these rows too."""


def _deal_order(
    ruleset: Ruleset, players: int, dealer: int, out: frozenset[int]
) -> tuple[int | None, ...]:
    seats = tuple(s for s in ((dealer + 1 + i) % players for i in range(players))
                  if s not in out)
    return WIDOW_PLACES[ruleset.deal.widow_position](seats)


def deal_hands(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    deck_order: Sequence[Card],
    out: frozenset[int] = frozenset(),
) -> tuple[Hands, tuple[Card, ...]]:
    """Deal the whole pack one card at a time (001 §03): (hands by seat, widow), in dealt order.

    Eliminated seats (``out``) get an empty hand.  Raises
    :class:`BoodleError` unless ``deck_order`` is a permutation of the deck.
    """
    if not _permutation(ruleset, deck_order):
        raise BoodleError("the deck order must hold every card of the deck exactly once")
    order = deal_order(ruleset, players, dealer, out)
    hands: list[list[Card]] = [[] for _ in range(players)]
    widow: list[Card] = []
    for i, card in enumerate(deck_order):
        who = order[i % len(order)]
        (widow if who is None else hands[who]).append(card)
    return tuple(tuple(h) for h in hands), tuple(widow)


def _permutation(ruleset: Ruleset, order: Sequence[Card]) -> bool:
    """Whether ``order`` holds every card of the deck as often as the deck does.

    The deck's cards are distinct (but for a rank order naming a rank twice): then
    ``order`` is one of their permutations when it is as long and holds the same cards.
    """
    cards = ruleset.deck.cards()
    distinct: frozenset[Card] = derived(ruleset.deck, "_card_set", lambda: frozenset(cards))
    if len(distinct) != len(cards):
        return Counter(order) == Counter(cards)
    return len(order) == len(cards) and distinct == set(order)


def shuffled_deck(ruleset: Ruleset, rng: random.Random) -> tuple[Card, ...]:
    """The deck's cards in a random order drawn from ``rng``."""
    cards = list(ruleset.deck.cards())
    rng.shuffle(cards)
    return tuple(cards)


def new_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    ledger: Ledger,
    deck_order: Sequence[Card] | None,
    hands: Sequence[Sequence[Card]] | None,
    widow: Sequence[Card] | None,
    out: frozenset[int] | None = None,
) -> DealState:
    """A deal's state with every card in the pack, to be dealt from ``deck_order``.

    Or, given ``hands`` (by seat) and ``widow``, dealt as given; with
    ``hands`` and no ``widow`` every undealt card is the widow.  The widow's
    cards are in the order dealt (a given ``widow``: as given; undealt cards:
    deck order), and its last is the card turned up for trumps.  Under
    ``balance: eliminated at zero`` every seat whose balance in ``ledger`` is
    zero or less is out of the deal (spec §10), and payments are capped at a
    player's balance (spec §9); ``out`` overrides who is out (a misdeal keeps
    the deal's players, whatever the ante left them).  Raises
    :class:`BoodleError` for a deal that is not a partition of the deck, or a
    dealer who is out.
    """
    out = eliminated(ruleset, ledger) if out is None else out
    if dealer in out:
        raise BoodleError(f"seat {dealer} is eliminated and cannot deal")
    dealt, rest = _the_deal(ruleset, players, dealer, deck_order, hands, widow, out)
    try:
        state = DealState.new(players, dealer, ruleset.deck.cards(), dealt, rest, ledger,
                              derived(ruleset.deck, "_card_index",
                                      lambda: card_index(ruleset.deck.cards())))
    except ValueError as e:
        raise BoodleError(f"bad deal: {e}") from None
    if BALANCES[ruleset.session.negative].capped:
        state = state.evolve(out=out, capped=True)
    turned = TURN_UPS[ruleset.deal.trumps]
    if turned is not None and rest:
        # spec §5.2: the widow's last-dealt card is turned up (the trumps stage shows it)
        state = state.evolve(turn_up=turned(rest))
    return state


def eliminated(ruleset: Ruleset, ledger: Ledger) -> frozenset[int]:
    """The seats out of play (spec §10): under ``balance: eliminated at zero``, those whose
    balance is zero or less; none otherwise."""
    still_in = BALANCES[ruleset.session.negative].still_in
    return frozenset(s for s in range(ledger.players) if not still_in(ledger.seat(s)))


def _the_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    deck_order: Sequence[Card] | None,
    hands: Sequence[Sequence[Card]] | None,
    widow: Sequence[Card] | None,
    out: frozenset[int],
) -> tuple[Hands, tuple[Card, ...]]:
    if hands is None:
        if deck_order is None:
            raise BoodleError("start_deal needs a deck order or the hands")
        return deal_hands(ruleset, players, dealer, deck_order, out)
    if len(hands) != players:
        raise BoodleError(f"{len(hands)} hands given for {players} players")
    if any(not hand for s, hand in enumerate(hands) if s not in out):
        raise BoodleError("every player must be dealt at least one card")
    if any(hand for s, hand in enumerate(hands) if s in out):
        raise BoodleError("an eliminated player is dealt no card")
    dealt = tuple(tuple(hand) for hand in hands)
    if widow is None:
        held = {c for hand in dealt for c in hand}
        widow = [c for c in ruleset.deck.cards() if c not in held]
    return dealt, tuple(widow)


def enter(ruleset: Ruleset, state: DealState) -> tuple[DealState, list[Event]]:
    """The deal stage: every card to its hand or the widow, and the ``deal`` event."""
    state = state.deal_out()
    order = deal_order(ruleset, state.players, state.dealer, state.out)
    return state, [DealCards(state.dealer, state.hands, state.widow(), order)]


STAGE = Stage("deal", enter, no_legal_moves, no_moves)
"""The deal stage: no moves."""
