"""The state of one deal, and the one primitive that moves a card.

A :class:`DealState` is immutable (copy-on-write with :meth:`DealState.evolve`,
a fast :func:`dataclasses.replace`).  Card locations are a single map: ``places[i]``
is where ``cards[i]`` is (a seat's hand, the widow, or played by a seat), so
every card of the deck is in exactly one place by construction; hands, the
widow and the played cards are views derived from it.  :meth:`DealState.move`
is the only way a card changes place; :meth:`boodle.engine.ledger.Ledger.transfer`
the only way chips move.

Moves are frozen dataclasses with a ``seat``: :class:`LeadMove`,
:class:`PlayMove`, :class:`PassMove` (the stops phase); :class:`BuyMove`,
:class:`BidMove`, :class:`SwapMove`, :class:`OfferMove`, :class:`WithdrawMove` (the widow sale,
where a pass declines);
:class:`StakeMove` (a ``chosen boodle`` ante).

Legal moves (:data:`Legal`) are moves, or a :class:`BidRange`: every bid of one seat
from ``low`` to ``high`` chips as one entry, so that what the engine lists (and what a
strategy, ``serve`` or ``simulate`` handles) does not grow with a balance (10^8 chips are
one entry, not 10^8 moves).  :func:`move_count`, :func:`nth_move`, :func:`allows`,
:func:`only_move` and :func:`each_move` read a tuple of legal moves as the sequence of
concrete moves it stands for, in order (a range's bids in increasing amount).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, Literal

from boodle.engine.ledger import Account, Ledger, SeatAccount, Transfer, capped_amount
from boodle.language.cards import Card
from boodle.language.model import Chips

PlaceKind = Literal["pack", "hand", "widow", "played", "out"]
Step = Literal["lead", "follow", "over"]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a card is: in the ``pack`` (before the deal), ``seat``'s hand, the widow,
    played by ``seat`` as play no. ``order``, or ``out`` of play (a hand discarded in
    a widow sale, spec §5.4)."""

    kind: PlaceKind
    seat: int | None = None
    order: int | None = None


PACK = Place("pack")
WIDOW = Place("widow")
OUT = Place("out")


@lru_cache(maxsize=256)
def in_hand(seat: int) -> Place:
    """The place "in ``seat``'s hand" (places are immutable: the same object for a seat)."""
    return Place("hand", seat)


@lru_cache(maxsize=4096)
def played_by(seat: int, order: int) -> Place:
    """The place "played by ``seat`` as play no. ``order``" (the same object each time)."""
    return Place("played", seat, order)


@dataclass(frozen=True)
class LeadMove:
    """``seat`` leads ``card``: opens a run (first lead or restart)."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} leads {self.card}"


@dataclass(frozen=True)
class PlayMove:
    """``seat`` plays ``card``, the next card of the run it holds."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@dataclass(frozen=True)
class PassMove:
    """``seat`` may lead no card and passes the lead to its left."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@dataclass(frozen=True)
class BuyMove:
    """``seat`` buys the widow at the sale's price (spec §5.4, ``offer: sale``)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} buys the widow"


@dataclass(frozen=True)
class BidMove:
    """``seat`` bids ``amount`` chips for the widow (spec §5.4, ``offer: auction``)."""

    seat: int
    amount: int

    def __str__(self) -> str:
        return f"seat {self.seat} bids {self.amount}"


@dataclass(frozen=True)
class SwapMove:
    """The dealer takes the widow in exchange for their hand (spec §5.4, ``dealer:``)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} swaps hands with the widow"


@dataclass(frozen=True)
class OfferMove:
    """The dealer offers the widow for sale in this deal (spec §5.4, ``dealer: may withhold``;
    a :class:`PassMove` there withholds it)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} offers the widow"


@dataclass(frozen=True)
class WithdrawMove:
    """The highest bidder of an auction withdraws their bid once every other bidder has
    passed: nothing is paid and nobody takes the widow from the auction (spec §5.4,
    ``high bidder: may withdraw``; a :class:`PassMove` there lets the bid stand)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} withdraws their bid"


@dataclass(frozen=True)
class StakeMove:
    """``seat`` puts its ``chosen boodle`` ante on ``section`` (spec §4; Newmarket)."""

    seat: int
    section: str

    def __str__(self) -> str:
        return f"seat {self.seat} stakes on {self.section}"


Move = (LeadMove | PlayMove | PassMove | BuyMove | BidMove | SwapMove | StakeMove | OfferMove
        | WithdrawMove)
"""Any move.  A :class:`PassMove` is also how a seat declines the widow or leaves an auction."""


@dataclass(frozen=True)
class BidRange:
    """Every bid ``seat`` may make now, as one legal entry: ``low`` to ``high`` chips
    inclusive, ``step`` chips apart (spec §5.4, ``offer: auction``).

    It is a shape of legal move, not a move: :meth:`bid` makes the
    :class:`BidMove` of an amount, and :func:`nth_move` the ``i``-th bid.  ``size`` bids in
    all, in increasing amount.  Raises ``ValueError`` unless ``1 <= step`` and
    ``low <= high`` (an auction that allows no bid lists no range).
    """

    seat: int
    low: int
    high: int
    step: int = 1

    def __post_init__(self) -> None:
        if self.step < 1 or self.low > self.high:
            raise ValueError(f"a bid range needs low <= high and step >= 1, not "
                             f"{self.low}..{self.high} step {self.step}")

    @property
    def size(self) -> int:
        """How many bids the range holds (amounts ``low``, ``low + step`` … ``<= high``)."""
        return (self.high - self.low) // self.step + 1

    def amounts(self) -> range:
        """The amounts in chips, increasing (a ``range``: no list is built)."""
        return range(self.low, self.high + 1, self.step)

    def holds(self, move: object) -> bool:
        """Whether ``move`` is one of the range's bids (same seat, an amount in it)."""
        return (isinstance(move, BidMove) and move.seat == self.seat
                and move.amount in self.amounts())

    def bid(self, amount: int) -> BidMove:
        """The bid of ``amount`` chips; raises ``ValueError`` if the range does not hold it."""
        if amount not in self.amounts():
            raise ValueError(f"{amount} is not a bid of {self}")
        return BidMove(self.seat, amount)

    def __str__(self) -> str:
        step = "" if self.step == 1 else f" in steps of {self.step}"
        return f"seat {self.seat} bids {self.low} to {self.high}{step}"


Legal = Move | BidRange
"""One entry of the legal moves: a move, or a :class:`BidRange` standing for its bids."""


def move_count(legal: Sequence[Legal]) -> int:
    """How many concrete moves ``legal`` stands for (a range counts its ``size``)."""
    return sum(m.size if isinstance(m, BidRange) else 1 for m in legal)


def nth_move(legal: Sequence[Legal], index: int) -> Move:
    """The ``index``-th concrete move of ``legal`` (0-based, a range's bids in increasing
    amount); cost: one step per entry, not per bid.  Raises ``IndexError`` out of range."""
    if index < 0:
        raise IndexError(index)
    for entry in legal:
        if isinstance(entry, BidRange):
            if index < entry.size:
                return BidMove(entry.seat, entry.low + index * entry.step)
            index -= entry.size
        elif index == 0:
            return entry
        else:
            index -= 1
    raise IndexError("no such legal move")


def allows(legal: Sequence[Legal], move: object) -> bool:
    """Whether ``move`` is among the moves ``legal`` stands for (a range holds its bids)."""
    return any(entry.holds(move) if isinstance(entry, BidRange) else entry == move
               for entry in legal)


def only_move(legal: Sequence[Legal]) -> Move | None:
    """The move when ``legal`` stands for exactly one (a forced move), else ``None``."""
    return nth_move(legal, 0) if move_count(legal) == 1 else None


def each_move(legal: Sequence[Legal]) -> Iterator[Move]:
    """Every concrete move ``legal`` stands for, in order.  A range yields each of its bids:
    use it only where the balances are bounded (the exhaustive search, small cases)."""
    for entry in legal:
        if isinstance(entry, BidRange):
            yield from (BidMove(entry.seat, a) for a in entry.amounts())
        else:
            yield entry


@dataclass(frozen=True)
class SaleState:
    """Where a widow sale or auction stands (spec §5.4).

    ``step``: ``dealer offers`` (under ``dealer: may withhold``, the dealer decides
    whether the widow is offered at all), ``dealer first`` (the dealer may swap before the offer),
    ``offer`` (buyers or bidders in turn), ``high bidder`` (under ``high bidder: may
    withdraw``, every other bidder has passed: the highest bidder lets the bid stand or
    withdraws it) or ``dealer`` (the dealer's chance after nobody bought).  ``asked``: seats
    offered the widow so far (a sale goes round once); ``out``: seats that passed in an
    auction; ``bid`` and ``bidder``: the highest bid so far (0 and ``None`` before the first).
    """

    step: Literal["dealer offers", "dealer first", "offer", "high bidder", "dealer"]
    asked: int = 0
    out: frozenset[int] = frozenset()
    bid: int = 0
    bidder: int | None = None


@dataclass(frozen=True)
class BetState:
    """Where a poker phase's betting round stands (spec §8.3).

    ``put``: the chips each seat has put into the pot this round (by seat number);
    ``level``: the most any seat has put in (what a seat must match to stay in);
    ``folded``: seats out of the round; ``acted``: seats that have acted since the last bet
    or raise; ``raises``: raises made after the opening bet (the cap of ``raises: N`` counts
    them).  A seat with no whole chip left is **all in** (from the start, or once it put in
    its last): it is read from the ledger, not kept here, since a balance only falls during
    the round.
    """

    put: tuple[int, ...]
    level: int = 0
    folded: frozenset[int] = frozenset()
    acted: frozenset[int] = frozenset()
    raises: int = 0

    def owed(self, seat: int) -> int:
        """What ``seat`` must put in to match the highest bet (0: nothing; it may check)."""
        return self.level - self.put[seat]


@dataclass(frozen=True)
class DealState:
    """One deal in progress.

    - ``cards`` / ``places``: every card of the deck and where it is (aligned).
      Until the deal stage every card is in the ``pack``; ``to_deal`` holds
      the places the shuffle gives them (:meth:`deal_out` moves them).
    - ``stage``: the key of the stage the deal is in (``antes``, ``deal``,
      ``widow``, ``phase:NAME`` …; see :mod:`boodle.engine.machine`).
    - ``step``: within the stops phase, ``lead`` (``to_move`` must open a
      run) or ``follow`` (the holder of the card after ``current`` must play
      it); ``over`` once the deal has ended, whatever the stage.
    - ``restart``: the lead due is a restart after a stop (else the first lead).
    - ``stopped``: suit of the last stopped run; ``last_player``: who played
      its last card.
    - ``passes``: consecutive passes; ``flipped``: the required colour flipped.
    - ``winner``: who went out, once ``step == "over"`` (``None``: nobody).
    - ``held``: how many cards each seat holds (kept by :meth:`move`).
    - ``since_ante``: every transfer made since the ante, in order (kept by
      :meth:`pay`), so a declared misdeal can undo them (spec §5.3).
    - ``sale``: the widow sale's progress, during the widow stage.
    - ``moves``: moves applied so far in this deal (a misdeal under
      ``reshuffle and redeal`` is declared only before the first).
    - ``phase_winners``: (phase name, winning seats) of the phases played so
      far that have winners (poker, spec §8.2), for ``winner of PHASE``.
    - ``turn_up``: the widow's last-dealt card, turned up for trumps (spec
      §5.2: ``trumps: last card of widow``); its suit is :attr:`trump`.
    - ``taken``: (phase name, section) for every section a holding or poker
      phase paid to some player in this deal (spec §7 ``unless taken in``).
    - ``stake``: during the antes, the (ante line, payer) whose ``chosen
      boodle`` is awaited (spec §4), else ``None``.
    - ``out``: seats eliminated before this deal (``balance: eliminated at
      zero``, spec §10): dealt no card, no payer, no opponent, skipped
      clockwise (:meth:`clockwise`).  ``capped``: a player pays at most their
      balance (spec §9), under the same rule.
    - ``forfeited``: seats that claim no section for the rest of the deal
      (``penalty: lead not lowest, …, forfeit boodles``, spec §6.8).
    - ``short``: under ``short stack: section by section`` (spec §4), each seat that could
      not pay its whole ante, with the sections it anted: it takes no other this deal
      (:meth:`may_take`).  Empty for every other seat and rule.
    - ``bets``: the betting round's progress, during a poker phase with betting (spec §8.3).
    """

    players: int
    dealer: int
    cards: tuple[Card, ...]
    places: tuple[Place, ...]
    ledger: Ledger
    step: Step = "lead"
    to_move: int | None = None
    restart: bool = False
    current: Card | None = None
    stopped: str | None = None
    last_player: int | None = None
    passes: int = 0
    flipped: bool = False
    winner: int | None = None
    plays: int = 0
    held: tuple[int, ...] = ()
    since_ante: tuple[Transfer, ...] = ()
    stage: str = "antes"
    sale: SaleState | None = None
    to_deal: tuple[Place, ...] = ()
    moves: int = 0
    phase_winners: tuple[tuple[str, tuple[int, ...]], ...] = ()
    turn_up: Card | None = None
    taken: tuple[tuple[str, str], ...] = ()
    stake: tuple[int, int] | None = None
    out: frozenset[int] = frozenset()
    capped: bool = False
    forfeited: frozenset[int] = frozenset()
    short: tuple[tuple[int, frozenset[str]], ...] = ()
    bets: BetState | None = None
    index: Mapping[Card, int] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False
    )
    dealt: tuple[Place, ...] = field(default=(), compare=False, repr=False)
    """Where the deal put every card (aligned with ``cards``): the hands and the widow as
    dealt, before a widow exchange moved them.  Kept for the position notation (version 2,
    :mod:`boodle.conformance.position`); no rule reads it."""
    before_play: tuple[Move, ...] = field(default=(), compare=False, repr=False)
    """The moves made before the stops phase (the stakes of a ``chosen boodle`` ante, the
    widow sale's), in order.  Kept for the position notation; no rule reads it."""

    @classmethod
    def new(
        cls,
        players: int,
        dealer: int,
        cards: tuple[Card, ...],
        hands: tuple[tuple[Card, ...], ...],
        widow: tuple[Card, ...],
        ledger: Ledger,
        index: Mapping[Card, int] | None = None,
    ) -> DealState:
        """A fresh deal, every card still in the pack, to be dealt as ``hands`` and ``widow``.

        ``index``: :func:`card_index` of ``cards``, when the caller keeps it (it is made
        otherwise).  Raises ``ValueError`` unless hands and widow partition ``cards``.
        """
        if index is None:
            index = card_index(cards)
        places: list[Place | None] = [None] * len(cards)
        where = [(h, in_hand(s)) for s, hand in enumerate(hands) for h in hand]
        for card, place in [*where, *((w, WIDOW) for w in widow)]:
            i = index.get(card)
            if i is None:
                raise ValueError(f"{card} is not a card of this deck")
            if places[i] is not None:
                raise ValueError(f"{card} is dealt twice")
            places[i] = place
        missing = [str(c) for c, p in zip(cards, places, strict=True) if p is None]
        if missing:
            raise ValueError(f"cards not dealt: {' '.join(missing)}")
        to_deal = tuple(p for p in places if p is not None)
        return cls(players, dealer, cards, (PACK,) * len(cards), ledger,
                   held=(0,) * players, to_deal=to_deal, index=index)

    def evolve(self, **changes: Any) -> DealState:
        """This state with the fields named in ``changes`` replaced: what
        ``dataclasses.replace(self, **changes)`` returns, several times faster.

        The engine steps by copy-on-write, so this is its hottest call:
        ``dataclasses.replace`` walks ``fields()`` and re-runs ``__init__``;
        this copies the instance dictionary instead.  There is no
        ``__post_init__`` to re-run.  A value derived from the state and kept
        with it (``hands``, the lead options) is kept by the new state only
        when none of the fields it derives from changes (:data:`_DERIVED`).
        Raises ``TypeError`` for a name that is not a field, like
        ``dataclasses.replace``.
        """
        if not _FIELD_NAMES.issuperset(changes):
            unknown = sorted(set(changes) - _FIELD_NAMES)
            raise TypeError(f"DealState has no field {', '.join(unknown)}")
        d = self.__dict__.copy()
        if len(d) != _FIELD_COUNT and changes:  # some derived values are kept
            _drop_derived(d, changes)
        d.update(changes)
        new = object.__new__(DealState)
        object.__setattr__(new, "__dict__", d)
        return new

    def evolved_in_place(self, **changes: Any) -> DealState:
        """:meth:`evolve`, made on this very state: for a state that the step under way has
        just made and that nothing else holds yet (the stage machine counts the move on
        the state its stage returned, :func:`boodle.engine.machine.apply_move`), so that a
        move copies the state once, not twice.  What every holder of a state relies on,
        that it never changes, holds because no holder has it yet; the caller makes sure.
        Derived values are dropped as :meth:`evolve` drops them; returns this state.
        """
        if not _FIELD_NAMES.issuperset(changes):
            unknown = sorted(set(changes) - _FIELD_NAMES)
            raise TypeError(f"DealState has no field {', '.join(unknown)}")
        d = self.__dict__
        if len(d) != _FIELD_COUNT and changes:
            _drop_derived(d, changes)
        d.update(changes)
        return self

    def counted_in_place(self) -> DealState:
        """``evolved_in_place(moves=self.moves + 1)``: one more move made, on a state nothing
        else holds yet (:func:`boodle.engine.machine.apply_move` counts every move of play
        so); derived values are dropped as :meth:`evolve` drops them.  Returns this state."""
        d = self.__dict__
        if len(d) != _FIELD_COUNT:  # some derived values are kept
            _drop_derived(d, _COUNTED)
        d["moves"] += 1
        return self

    def may_take(self, seat: int, section: str) -> bool:
        """Whether ``seat`` may take ``section`` this deal: always, but for a seat that was short
        at the ante under ``short stack: section by section``, which takes only the sections it
        anted (spec §4, eligibility)."""
        for who, anted in self.short:
            if who == seat:
                return section in anted
        return True

    def deal_out(self) -> DealState:
        """Every card from the pack to the place the shuffle gave it (the deal, 001 §03)."""
        held = [0] * self.players
        for place in self.to_deal:
            if place.kind == "hand" and place.seat is not None:
                held[place.seat] += 1
        return self.evolve(places=self.to_deal, to_deal=(), held=tuple(held),
                           dealt=self.to_deal)

    @property
    def trump(self) -> str | None:
        """The trump suit of the deal: the turned-up card's suit (``None`` without trumps)."""
        return None if self.turn_up is None else self.turn_up.suit

    def place(self, card: Card) -> Place | None:
        """Where ``card`` is; ``None`` if it is not in this deck (removed)."""
        i = self.index.get(card)
        return None if i is None else self.places[i]

    def holder(self, card: Card) -> int | None:
        """The seat holding ``card`` in hand, or ``None`` (widow, played, not in deck)."""
        place = self.place(card)
        return place.seat if place is not None and place.kind == "hand" else None

    @cached_property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's hand, in deck order (suit, then rank)."""
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        for card, place in zip(self.cards, self.places, strict=True):
            if place.kind == "hand" and place.seat is not None:
                hands[place.seat].append(card)
        return tuple(tuple(h) for h in hands)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand, in deck order."""
        return self.hands[seat]

    def widow(self) -> tuple[Card, ...]:
        """The widow's cards, in deck order."""
        return tuple(c for c, p in zip(self.cards, self.places, strict=True) if p.kind == "widow")

    def out_of_play(self) -> tuple[Card, ...]:
        """The cards out of play (a discarded hand, spec §5.4), in deck order."""
        return tuple(c for c, p in zip(self.cards, self.places, strict=True) if p.kind == "out")

    def played(self) -> tuple[tuple[int, Card], ...]:
        """Every played card as (seat, card), in the order played."""
        done = [(p.order, p.seat, c) for c, p in zip(self.cards, self.places, strict=True)
                if p.kind == "played"]
        return tuple((s, c) for o, s, c in sorted(done, key=lambda t: t[0] or 0) if s is not None)

    def move(self, card: Card, place: Place, plays: int | None = None,
             **changes: Any) -> DealState:
        """The one card primitive: ``card`` is now at ``place`` (and nowhere else).

        ``plays``: the new count of played cards, when the move is a play.
        ``changes``: other fields to set in the same step (:meth:`evolve`'s, but
        ``places``, ``held`` and ``plays``), as ``move(…).evolve(**changes)`` would.
        If this state's :attr:`hands` are already computed, the new state's are
        derived from them (the card leaves one hand, or joins one in deck order)
        instead of being recomputed from every place.
        """
        if changes and not _SET_WITH_A_MOVE.issuperset(changes):
            unknown = sorted(set(changes) - _SET_WITH_A_MOVE)
            raise TypeError(f"DealState.move cannot set {', '.join(unknown)}")
        i = self.index[card]
        old = self.places[i]
        held = list(self.held)
        if old.kind == "hand" and old.seat is not None:
            held[old.seat] -= 1
        if place.kind == "hand" and place.seat is not None:
            held[place.seat] += 1
        places = list(self.places)
        places[i] = place
        # evolve(places=…, held=…, plays=…, **changes), its copy made here in one step
        d = self.__dict__.copy()
        hands = d.get("hands")
        if len(d) != _FIELD_COUNT:  # some derived values are kept
            _drop_derived(d, _MOVED.union(changes))
        d.update(changes)
        d["places"], d["held"], d["plays"] = (tuple(places), tuple(held),
                                              self.plays if plays is None else plays)
        new = object.__new__(DealState)
        object.__setattr__(new, "__dict__", d)
        if hands is not None:
            mine = list(hands)
            if old.kind == "hand" and old.seat is not None:
                same = self.cards[i]  # the hands hold this deck's card objects
                mine[old.seat] = tuple([c for c in mine[old.seat] if c is not same])
            if place.kind == "hand" and place.seat is not None:
                seat = place.seat
                mine[seat] = tuple([c for c, p in zip(self.cards, new.places, strict=True)
                                    if p.kind == "hand" and p.seat == seat])
            new.__dict__["hands"] = tuple(mine)
        return new

    def move_all(self, moves: list[tuple[Card, Place]]) -> DealState:
        """:meth:`move` each (card, place) of ``moves`` in order (no play among them): the
        same state as one :meth:`move` after another, built at once."""
        places, held = list(self.places), list(self.held)
        for card, place in moves:
            i = self.index[card]
            for old_new, delta in ((places[i], -1), (place, 1)):
                if old_new.kind == "hand" and old_new.seat is not None:
                    held[old_new.seat] += delta
            places[i] = place
        return self.evolve(places=tuple(places), held=tuple(held))

    def clockwise(self, after: int) -> tuple[int, ...]:
        """The seats still in the session, clockwise from ``after``'s left, ``after`` last.

        ``after`` itself ends the tuple when it is still in; eliminated seats
        (``out``) are skipped, so ``clockwise(dealer)`` is the payment order
        of the antes and ``clockwise(who)[:-1]`` are ``who``'s opponents.
        """
        return _clockwise(self.players, after, self.out)

    def left_of(self, seat: int) -> int:
        """The next seat clockwise from ``seat`` that is still in the session."""
        return self.clockwise(seat)[0]

    def payable(self, src: Account, amount: Chips, ledger: Ledger | None = None) -> Chips:
        """What ``src`` pays of ``amount``: all of it, or under ``capped`` at most a player's
        balance (spec §9: "a player pays at most their balance").

        ``ledger``: the balances to read, when several payments are made before
        the state is updated (default: this state's ledger).
        """
        if self.capped and isinstance(src, SeatAccount):
            return capped_amount(amount, (self.ledger if ledger is None else ledger).balance(src))
        return amount

    def pay(
        self, src: Account, dst: Account, amount: Chips, reason: str
    ) -> tuple[DealState, Transfer]:
        """The deal's chip primitive: :meth:`Ledger.transfer`, logged in ``since_ante``.

        Under ``capped`` a player pays at most their balance (:meth:`payable`).
        """
        if self.capped:
            amount = self.payable(src, amount)
        ledger, transfer = self.ledger.transfer(src, dst, amount, reason)
        return self.evolve(ledger=ledger, since_ante=(*self.since_ante, transfer)), transfer

    def pay_all(
        self, payments: list[tuple[Account, Account, Chips, str]]
    ) -> tuple[DealState, list[Transfer]]:
        """:meth:`pay` each of ``payments`` (source, destination, amount, reason) in order:
        the same state and transfers as one :meth:`pay` after another, built at once (under
        ``capped``, each cut to the running balance as :meth:`payable` cuts it)."""
        ledger, done = self.ledger.transfer_all(payments, self.capped)
        return self.evolve(ledger=ledger, since_ante=(*self.since_ante, *done)), done

    def play(self, seat: int, card: Card, **changes: Any) -> DealState:
        """``seat`` puts ``card`` from its hand face up as the next play in order; ``changes``:
        other fields set in the same step (:meth:`move`)."""
        return self.move(card, played_by(seat, self.plays), self.plays + 1, **changes)


def _drop_derived(d: dict[str, Any], changed: Collection[str]) -> None:
    """Remove from a state's instance dictionary ``d`` the derived values (:data:`_DERIVED`)
    that a change of the fields ``changed`` makes stale: those derived from every field, and
    those derived from one of ``changed`` (:meth:`DealState.evolve`, :meth:`DealState.move`)."""
    for name in _FROM_EVERY_FIELD:
        d.pop(name, None)
    for name, sources in _FROM_SOME_FIELDS:
        if name in d and not sources.isdisjoint(changed):
            del d[name]


def card_index(cards: tuple[Card, ...]) -> Mapping[Card, int]:
    """Each card's position in ``cards`` (the last, for a card there twice), read-only: the
    ``index`` of the states of a deal of ``cards``."""
    return MappingProxyType({card: i for i, card in enumerate(cards)})


@lru_cache(maxsize=4096)
def _clockwise(n: int, after: int, out: frozenset[int]) -> tuple[int, ...]:
    """:meth:`DealState.clockwise` for ``n`` seats (a pure function, so computed once)."""
    return tuple(s for s in ((after + i) % n for i in range(1, n + 1)) if s not in out)


_FIELD_NAMES = frozenset(f.name for f in fields(DealState))
"""The names :meth:`DealState.evolve` accepts."""

_FIELD_COUNT = len(_FIELD_NAMES)

_MOVED = frozenset({"places", "held", "plays"})
"""The fields :meth:`DealState.move` sets itself (its ``changes`` may set the others)."""

_COUNTED = frozenset({"moves"})
"""The field :meth:`DealState.counted_in_place` sets."""

_SET_WITH_A_MOVE = _FIELD_NAMES - _MOVED
"""The fields the ``changes`` of :meth:`DealState.move` may set."""

_DERIVED: dict[str, frozenset[str]] = {
    "hands": frozenset({"players", "cards", "places"}),
    "_lead_options": _FIELD_NAMES,  # boodle.engine.leads.lead_options, kept for one state only
}
"""Each value derived from a :class:`DealState` and kept in its instance dictionary (the
cached properties, and ``_lead_options``), with the fields it is computed from: an evolved
state keeps the value only when none of them changes (a test checks that every cached
property is listed here)."""

_FROM_EVERY_FIELD = tuple(name for name, sources in _DERIVED.items() if sources == _FIELD_NAMES)
"""The values of :data:`_DERIVED` that any change drops."""

_FROM_SOME_FIELDS = tuple((name, sources) for name, sources in _DERIVED.items()
                          if sources != _FIELD_NAMES)
"""The other values of :data:`_DERIVED`, with their sources."""
