"""A session: the first dealer by a high cut, deals passing round, the end and its split.

Sources: 001 §03 (first dealer by high cut, then the deal passes left),
001 §06 (an agreed number of full rotations; the leftover on the board is
split equally, fractions kept in the register; the best balance wins, ties
share); spec §10.

Every chance outcome of a session comes from its :class:`SessionSources`: the
boodle cards drawn from a second pack, the cards of the cut (or the cards
dealt face up for ``first RANK dealt``), and each deal's deck.
:class:`SeededSources` derives them from ``seed`` through generators derived
by name (``"{seed}:draw"``, ``"{seed}:cut"``, ``"{seed}:deal:{k}"``, and under
``seating: redrawn each deal`` the seats of deal k from ``"{seed}:seating:{k}"``; the
players use ``"{seed}:seat:{i}"``), so the same seed always gives the same
session; :class:`ExplicitSources` takes them as given (a conformance case of
kind ``session``, ``conformance/FORMAT.md``), so that nothing depends on a
shuffle.  Drawn boodles are drawn first and bound for the whole session
(spec §3, §10 "Order"; :mod:`boodle.session.second_pack`).

Seating (spec §10 ``seating``): the ledger, the strategies and the players' random
generators belong to the players, named by their seat at the session's start.  A deal is
played at a table whose seat ``k`` holds player ``seating[k]`` (the identity under
``seating: fixed``): :func:`seated` gives the engine the balances in table order,
:func:`unseated` takes them back; the dealer is a seat of the table, passing by
``rotation`` from deal to deal whoever sits there (spec §5.1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, cast

from boodle import engine as reference
from boodle.engine.api import shuffled_deck
from boodle.engine.events import (
    Cut,
    Eliminated,
    Event,
    FirstDealt,
    Seating,
    SessionEnd,
    Split,
)
from boodle.engine.ledger import Ledger, seat, section
from boodle.engine.stages.dealing import eliminated
from boodle.engine.state import DealState, Legal, Move
from boodle.engine.strategies import Strategy, make
from boodle.engine.trace import seat_name
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import (
    Chips,
    EndRule,
    EndTie,
    FirstDealer,
    Leftover,
    Rotation,
    Ruleset,
    SeatingRule,
    SessionSpec,
)
from boodle.session.second_pack import bind_drawn, unbound_sections


@dataclass(frozen=True)
class SessionResult:
    """What a session produced.

    ``events``: every event in order; ``ledger``: the final balances;
    ``deals``: deals played; ``standings``: each seat's final balance;
    ``winners``: the best seat(s), empty when the session did not reach its
    end (a fixed number of deals was asked for).
    """

    events: tuple[Event, ...]
    ledger: Ledger
    deals: int
    standings: tuple[Chips, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class DealCards:
    """One deal's cards: the whole ``deck`` from the top (dealt as the variant says), or the
    ``hands`` as dealt (one per seat, empty for a seat that is out) and the ``widow``."""

    deck: tuple[Card, ...] | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    widow: tuple[Card, ...] | None = None


class SessionSources(Protocol):
    """Every chance outcome of a session, asked for in the order the session needs them.

    ``draw``: the cards of a second pack drawn for ``count`` drawn sections, in
    board order (spec §3); ``cut``: the next round of the high cut, one card per
    seat drawing (spec §5.1); ``faced``: the cards dealt face up for ``first RANK
    dealt``, in order (only those up to the first card of RANK are used);
    ``has_deal``/``deal``: deal ``number`` (1-based) exists / its cards; ``seating``: under
    ``seating: redrawn each deal``, the seats drawn before deal ``number`` (from 2): the
    player (by starting seat) in each seat, seat 0 first, a permutation of ``range(players)``.
    Explicit sources raise :class:`~boodle.language.errors.BoodleError` when asked for
    what they do not hold.
    """

    def draw(self, ruleset: Ruleset, count: int) -> Sequence[Card]: ...

    def cut(self, ruleset: Ruleset, seats: int) -> Sequence[Card]: ...

    def faced(self, ruleset: Ruleset) -> Iterable[Card]: ...

    def has_deal(self, number: int) -> bool: ...

    def deal(self, ruleset: Ruleset, number: int) -> DealCards: ...

    def seating(self, ruleset: Ruleset, players: int, number: int) -> Sequence[int]: ...


class SeededSources:
    """The sources of ``boodle play --seed``: the draw from ``"{seed}:draw"`` (a sample of
    the deck), the cut and the face-up deal from ``"{seed}:cut"`` (a fresh shuffle per
    round, its top cards), deal k's deck from ``"{seed}:deal:{k}"``, deal k's seats from
    ``"{seed}:seating:{k}"`` (a shuffle of the players)."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self.cut_rng = random.Random(f"{seed}:cut")

    def draw(self, ruleset: Ruleset, count: int) -> Sequence[Card]:
        return random.Random(f"{self.seed}:draw").sample(list(ruleset.deck.cards()), count)

    def cut(self, ruleset: Ruleset, seats: int) -> Sequence[Card]:
        return _RngCut(self.cut_rng).cut(ruleset, seats)

    def faced(self, ruleset: Ruleset) -> Iterable[Card]:
        return shuffled_deck(ruleset, self.cut_rng)

    def has_deal(self, number: int) -> bool:
        return True

    def deal(self, ruleset: Ruleset, number: int) -> DealCards:
        return DealCards(deck=shuffled_deck(ruleset, random.Random(f"{self.seed}:deal:{number}")))

    def seating(self, ruleset: Ruleset, players: int, number: int) -> Sequence[int]:
        order = list(range(players))
        random.Random(f"{self.seed}:seating:{number}").shuffle(order)
        return order


@dataclass
class ExplicitSources:
    """Sources given outright (a conformance case): ``drawn`` cards in board order, ``cuts``
    (one list of cards per round, one card per seat drawing, in seat order), ``faced``
    (the cards dealt face up), ``deals`` (one :class:`DealCards` per deal, in order),
    ``seatings`` (under ``seating: redrawn each deal``: the seats of deal 2, 3 …, each the
    player in every seat, seat 0 first).

    Raises :class:`~boodle.language.errors.BoodleError` when the session needs an outcome that is
    not given, or gets one of the wrong size; :meth:`check_used` when cut rounds are left.
    """

    drawn: tuple[Card, ...] = ()
    cuts: tuple[tuple[Card, ...], ...] = ()
    faced_cards: tuple[Card, ...] = ()
    deals: tuple[DealCards, ...] = ()
    seatings: tuple[tuple[int, ...], ...] = ()
    rounds_used: int = field(default=0)

    def draw(self, ruleset: Ruleset, count: int) -> Sequence[Card]:
        if len(self.drawn) != count:
            raise BoodleError(f"{ruleset.name} draws {count} boodle cards from a second pack; "
                              f"{len(self.drawn)} are given")
        return self.drawn

    def cut(self, ruleset: Ruleset, seats: int) -> Sequence[Card]:
        k = self.rounds_used
        if k >= len(self.cuts):
            raise BoodleError(f"the cut needs round {k + 1} ({seats} seats draw) and no such "
                              "round is given")
        cards = self.cuts[k]
        if len(cards) != seats:
            raise BoodleError(f"round {k + 1} of the cut: {seats} seats draw, "
                              f"{len(cards)} cards are given")
        deck = set(ruleset.deck.cards())
        if len(set(cards)) != len(cards) or any(c not in deck for c in cards):
            raise BoodleError(f"round {k + 1} of the cut: the cards must be distinct cards "
                              "of the deck (one fresh shuffle per round)")
        self.rounds_used += 1
        return cards

    def faced(self, ruleset: Ruleset) -> Iterable[Card]:
        deck = set(ruleset.deck.cards())
        if len(set(self.faced_cards)) != len(self.faced_cards) or any(
                c not in deck for c in self.faced_cards):
            raise BoodleError("the cards dealt face up must be distinct cards of the deck")
        return self.faced_cards

    def has_deal(self, number: int) -> bool:
        return number <= len(self.deals)

    def deal(self, ruleset: Ruleset, number: int) -> DealCards:
        if not self.has_deal(number):
            raise BoodleError(f"deal {number} is not given")
        return self.deals[number - 1]

    def seating(self, ruleset: Ruleset, players: int, number: int) -> Sequence[int]:
        if not 2 <= number <= len(self.seatings) + 1:
            raise BoodleError(f"the seats drawn before deal {number} are not given "
                              f"({len(self.seatings)} seatings for deals 2 on)")
        order = self.seatings[number - 2]
        if sorted(order) != list(range(players)):
            raise BoodleError(f"the seating of deal {number} must name each of the {players} "
                              f"players once (0 to {players - 1}); {list(order)} is given")
        return order

    def check_used(self) -> None:
        """Raise :class:`BoodleError` if rounds of the cut were given and not drawn."""
        if self.rounds_used < len(self.cuts):
            raise BoodleError(f"{len(self.cuts)} rounds of the cut are given; the first "
                              f"dealer is known after {self.rounds_used}")


class _RngCut:
    """The cut drawn from one generator: each round the top cards of a fresh shuffle."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def cut(self, ruleset: Ruleset, seats: int) -> Sequence[Card]:
        return shuffled_deck(ruleset, self.rng)[:seats]


def first_dealer(ruleset: Ruleset, players: int, rng: random.Random) -> tuple[int, list[Event]]:
    """The first dealer (spec §5.1) and the events of the draw, drawn from ``rng``.

    ``high cut`` (001 §03): each seat draws a card; the highest rank deals;
    ties draw again.  ``first RANK dealt`` (Pope Joan, Hoyle's Games
    Modernized: "the player to whom the first knave falls"): a shuffled deck
    is dealt face up clockwise from seat 0 until the first card of RANK.
    """
    return choose_first_dealer(ruleset, players, cut=_RngCut(rng).cut,
                               faced=lambda: shuffled_deck(ruleset, rng))


Cutter = Callable[[Ruleset, int], Sequence[Card]]
"""``cut(ruleset, seats)``: one round of the cut, a card per seat drawing, in seat order."""

Facer = Callable[[], Iterable[Card]]
"""``faced()``: the cards dealt face up to choose the first dealer."""


def choose_first_dealer(
    ruleset: Ruleset,
    players: int,
    cut: Cutter | None,
    faced: Facer | None,
) -> tuple[int, list[Event]]:
    """The first dealer from given outcomes (spec §5.1): ``cut(ruleset, seats)`` gives each
    round's cards (one per seat drawing, in seat order); ``faced()`` the cards dealt face up.

    Only the outcome the rule reads is drawn (:data:`FIRST_DEALERS`).  Raises
    :class:`BoodleError` when the face-up cards hold no card of the rank.
    """
    return FIRST_DEALERS[ruleset.deal.first_dealer](ruleset, players, cut, faced)


def _by_high_cut(ruleset: Ruleset, players: int, cut: Cutter | None, faced: Facer | None
                 ) -> tuple[int, list[Event]]:
    """``high cut`` (001 §03): the highest rank cut deals; the tied seats cut again."""
    assert cut is not None
    events: list[Event] = []
    tied = list(range(players))
    while True:
        deck = cut(ruleset, len(tied))
        draws = tuple(zip(tied, deck, strict=False))
        best = max(ruleset.deck.rank_index(card) for _, card in draws)
        tied = [s for s, card in draws if ruleset.deck.rank_index(card) == best]
        events.append(Cut(draws, tied[0] if len(tied) == 1 else None))
        if len(tied) == 1:
            return tied[0], events


def _by_first_dealt(ruleset: Ruleset, players: int, cut: Cutter | None, faced: Facer | None
                    ) -> tuple[int, list[Event]]:
    assert faced is not None
    return _first_dealt(ruleset, players, faced())


FIRST_DEALERS: dict[FirstDealer, Callable[[Ruleset, int, Cutter | None, Facer | None],
                                          tuple[int, list[Event]]]] = {
    "high cut": _by_high_cut,
    "first dealt": _by_first_dealt,
}
"""How each first-dealer rule chooses from the outcomes given (spec §5.1), one row per member
of :data:`FirstDealer`: the first dealer and the events of the draw."""


def _first_dealt(ruleset: Ruleset, players: int, cards: Iterable[Card]
                 ) -> tuple[int, list[Event]]:
    """Deal face up from seat 0 until the first card of the rank (the build ensures one)."""
    rank = ruleset.deal.first_dealer_rank
    dealt: list[tuple[int, Card]] = []
    for i, card in enumerate(cards):
        dealt.append((i % players, card))
        if card.rank == rank:
            return i % players, [FirstDealt(tuple(dealt), rank, i % players)]
    raise BoodleError(f"the cards dealt face up hold no {rank} to choose the first dealer "
                      f"of {ruleset.name}")


class DealEngine(Protocol):
    """The engine a session plays its deals with: :mod:`boodle.engine`'s entry points, and
    ``ruleset`` (the rules the engine plays instead of the given ones; the session's own
    rules are read from it). ``boodle.conformance.engines.Engine`` is one."""

    def ruleset(self, ruleset: Ruleset) -> Ruleset: ...

    def start(self, ruleset: Ruleset, players: int, dealer: int, ledger: Ledger,
              deck_order: Sequence[Card] | None = None,
              hands: Sequence[Sequence[Card]] | None = None,
              widow: Sequence[Card] | None = None, *, number: int | None = None
              ) -> tuple[DealState, list[Event]]: ...

    def legal(self, ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]: ...

    def apply(self, ruleset: Ruleset, state: DealState, move: Move
              ) -> tuple[DealState, list[Event]]: ...


class _Reference:
    """:mod:`boodle.engine` itself as a :class:`DealEngine`."""

    def ruleset(self, ruleset: Ruleset) -> Ruleset:
        return ruleset

    def start(self, ruleset: Ruleset, players: int, dealer: int, ledger: Ledger,
              deck_order: Sequence[Card] | None = None,
              hands: Sequence[Sequence[Card]] | None = None,
              widow: Sequence[Card] | None = None, *, number: int | None = None
              ) -> tuple[DealState, list[Event]]:
        return reference.start_deal(ruleset, players, dealer, ledger, deck_order=deck_order,
                                    hands=hands, widow=widow, number=number)

    def legal(self, ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
        return reference.legal_moves(ruleset, state)

    def apply(self, ruleset: Ruleset, state: DealState, move: Move
              ) -> tuple[DealState, list[Event]]:
        return reference.apply(ruleset, state, move)


REFERENCE_ENGINE: DealEngine = _Reference()
"""The reference engine, the default of :class:`SessionRun` and :func:`play_deal`."""


def play_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    ledger: Ledger,
    deck_order: Sequence[Card] | None,
    strategies: Sequence[Strategy],
    number: int | None = None,
    *,
    hands: Sequence[Sequence[Card]] | None = None,
    widow: Sequence[Card] | None = None,
    engine: DealEngine = REFERENCE_ENGINE,
    events: list[Event] | None = None,
) -> tuple[DealState, list[Event]]:
    """One whole deal from ``deck_order`` (or ``hands`` and ``widow``), every move chosen
    by the mover's strategy (called at every point, forced moves included).

    ``events``: a list the events are appended to as they happen (so that a caller
    keeps the events of a deal its strategy interrupted by raising); returned.
    """
    out: list[Event] = [] if events is None else events
    state, first = engine.start(ruleset, players, dealer, ledger, deck_order, hands, widow,
                                number=number)
    out.extend(first)
    while (legal := engine.legal(ruleset, state)):
        assert state.to_move is not None
        move = strategies[state.to_move](ruleset, state, legal)
        state, more = engine.apply(ruleset, state, move)
        out.extend(more)
    return state, out


def split_leftover(ruleset: Ruleset, ledger: Ledger) -> tuple[Ledger, list[Event]]:
    """``leftover: split equally`` (001 §06): each section's chips in exact equal shares.

    Sections in board order, shares seat by seat among the players still in
    (eliminated players share nothing, spec §10); ``leftover: stays`` moves
    nothing.
    """
    events: list[Event] = []
    if not LEFTOVER_SPLITS[ruleset.session.leftover]:
        return ledger, events
    out = eliminated(ruleset, ledger)
    sharers = [s for s in range(ledger.players) if s not in out]
    for name, amount in ledger.sections:
        if amount == 0 or not sharers:
            continue
        share = Fraction(amount) / len(sharers)
        for s in sharers:
            ledger, t = ledger.transfer(section(name), seat(s), share, "split")
            events.append(Split(name, s, t))
    return ledger, events


def best_seats(ledger: Ledger) -> tuple[int, ...]:
    """The seats with the highest balance (001 §06: ties share the win)."""
    best = max(ledger.seats)
    return tuple(s for s, amount in enumerate(ledger.seats) if amount == best)


def seated(ledger: Ledger, seating: Sequence[int]) -> Ledger:
    """The players' ``ledger`` in table order: seat ``k`` holds player ``seating[k]``'s
    balance (spec §10 ``seating``).  No chip moves: the same balances, renamed."""
    return Ledger(tuple(ledger.seats[p] for p in seating), ledger.sections)


def unseated(ledger: Ledger, seating: Sequence[int]) -> Ledger:
    """The table's ``ledger`` back in player order (the inverse of :func:`seated`)."""
    seats: list[Chips] = list(ledger.seats)
    for k, p in enumerate(seating):
        seats[p] = ledger.seats[k]
    return Ledger(tuple(seats), ledger.sections)


@dataclass(frozen=True)
class Progress:
    """Where a session stands between two deals: all it needs to go on exactly.

    ``ledger``: every balance; ``dealer``: the seat dealing next; ``played``:
    deals played; ``rng_states``: each seat's ``random.Random`` state (what
    ``random.Random.getstate()`` returns); ``seating``: the seats of the deal last played
    (player by seat, spec §10), ``None`` for the starting seats (fixed seating, and every
    ledger written before seats could be drawn).  Deck orders and seatings need no state:
    deal k is shuffled by ``"{seed}:deal:{k}"``, its seats by ``"{seed}:seating:{k}"``.
    Under ``seating: redrawn each deal``, ``dealer`` is the seat the deal passes to before
    the seats are drawn (its player may be out: the deal then passes on).  Anything a
    session decides at its start and uses later belongs here, or a resumed session would
    differ.
    """

    ledger: Ledger
    dealer: int
    played: int
    rng_states: tuple[object, ...]
    seating: tuple[int, ...] | None = None


REDRAWS: dict[SeatingRule, bool] = {
    "fixed": False,
    "redrawn each deal": True,
}
"""Whether the seats are drawn again before each deal but the first (spec §10), one row
per member of :data:`SeatingRule`.  The simulator and the conformance referee read these rows."""


ROTATION_STEPS: dict[Rotation, int] = {
    "left": 1,
    "right": -1,
}
"""The seat the deal passes to, from the dealer's (spec §5.1: ``left``, the next seat
clockwise), one row per member of :data:`Rotation`.  The simulator reads these rows."""


LEFTOVER_SPLITS: dict[Leftover, bool] = {
    "split equally": True,
    "stays": False,
}
"""Whether the board's chips are split among the players still in at a session's end (spec
§10), one row per member of :data:`Leftover`.  The simulator reads these rows."""


TIE_DEALS: dict[EndTie, int] = {
    "share": 0,
    "one more deal": 1,
}
"""How many extra deals a tie for best at a session's end plays (spec §10), one row per
member of :data:`EndTie`.  The simulator and ``boodle ledger`` read these rows."""


ENDS_AFTER_DEAL: dict[EndRule, Callable[[SessionSpec, Sequence[Chips]], bool]] = {
    "rotations": lambda session, seats: False,  # counted by the deal limit, not by the chips
    "no chips": lambda session, seats: min(seats) <= 0,
    "last with chips": lambda session, seats: sum(b > 0 for b in seats) <= 1,
    "target": lambda session, seats: session.end_target is not None
    and max(seats) >= session.end_target,
    "never": lambda session, seats: False,  # the ledger runs on
}
"""Whether an end rule ends the session after a deal that left ``seats`` (chips, by seat;
spec §10), one row per member of :data:`EndRule`.  The simulator reads these rows."""


def _who(seats: Sequence[Chips], test: Callable[[Chips], bool]) -> tuple[str, bool]:
    """The seats whose balance passes ``test``, named (``"A, C"``), and whether several."""
    names = [seat_name(s) for s, b in enumerate(seats) if test(b)]
    return ", ".join(names), len(names) > 1


def _no_chips(session: SessionSpec, seats: Sequence[Chips]) -> str:
    who, several = _who(seats, lambda b: b <= 0)
    return f"{who} {'have' if several else 'has'} no chips left"


def _target(session: SessionSpec, seats: Sequence[Chips]) -> str:
    target = session.end_target or 0
    return f"{_who(seats, lambda b: b >= target)[0]} reached {target:,} chips"


END_REASONS: dict[EndRule, Callable[[SessionSpec, Sequence[Chips]], str]] = {
    "rotations": lambda session, seats: "",  # said from the deals played
    "no chips": _no_chips,
    "last with chips": lambda session, seats: "at most one player has chips left",
    "target": _target,
    "never": lambda session, seats: "",  # it never ends
}
"""Why an end rule of :data:`ENDS_AFTER_DEAL` ended the session after a deal that left
``seats``, in words for the play-by-play (spec §10), one row per member of :data:`EndRule`."""


def ends_after(session: SessionSpec, seats: Sequence[Chips]) -> bool:
    """Whether one of ``session``'s end rules ends it after a deal that left ``seats``."""
    return any(ENDS_AFTER_DEAL[end](session, seats) for end in session.ends())

class SessionRun:
    """A session (spec §10) played deal by deal, so that it can be stored and resumed.

    ``opening``: the events before the first deal (the draw of boodle cards, the cut).  Call
    :meth:`next_deal` while :meth:`more_deals` is true, then :meth:`finish`.
    :meth:`progress` and :meth:`restore` save and restore the state between
    deals; a restored run plays exactly as the uninterrupted one (named
    strategies only: a callable strategy keeps its own state).

    ``sources``: the chance outcomes (default :class:`SeededSources` of ``seed``);
    ``engine``: the deal engine (default the reference); ``ledger``: the balances at
    the start (default: every seat the variant's ``start`` chips, the board empty).
    With explicit sources that hold no further deal, :meth:`more_deals` turns false
    and ``stopped`` true: the session stops there, without its end.  After
    :meth:`finish`, ``over`` says whether the session reached its end.
    ``seating``: the seats of the deal last played (or about to be), the player in each
    seat (spec §10; the starting seats under ``seating: fixed``).
    ``dealers``: the dealer (a seat) of each deal this object played; ``current``: the
    events of the deal in progress (kept when a strategy interrupts it by raising),
    ``ending``: those of :meth:`finish` so far.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        seed: int | str,
        strategies: Sequence[Strategy | str] | None = None,
        deals: int | None = None,
        *,
        sources: SessionSources | None = None,
        engine: DealEngine = REFERENCE_ENGINE,
        ledger: Ledger | None = None,
    ) -> None:
        chosen: Sequence[Strategy | str] = (["random"] * players if strategies is None
                                            else strategies)
        if len(chosen) != players:
            raise ValueError(f"{len(chosen)} strategies for {players} players")
        self.ruleset, self.players, self.seed, self.deals = ruleset, players, seed, deals
        self.sources: SessionSources = SeededSources(seed) if sources is None else sources
        self.engine = engine
        self.rngs = [random.Random(f"{seed}:seat:{i}") for i in range(players)]
        self.movers = [make(s, rng) if isinstance(s, str) else s
                       for s, rng in zip(chosen, self.rngs, strict=True)]
        names = tuple(s.name for s in ruleset.board)
        self.ledger = Ledger.open(players, names, ruleset.session.start_chips) \
            if ledger is None else ledger
        # spec §10 "Order": boodle cards drawn from a second pack, bound for the session,
        # then the first dealer
        drawn: list[Event] = []
        unbound = unbound_sections(ruleset)
        if unbound:
            bound, drawn_events = bind_drawn(ruleset, self.sources.draw(ruleset, len(unbound)))
            self.ruleset, drawn = bound, list(drawn_events)
        self.rules = engine.ruleset(self.ruleset)
        """The rules the session itself follows (rotation, end, leftover, ties, balances)."""
        source = self.sources
        self.dealer, cut = choose_first_dealer(
            self.rules, players, cut=source.cut, faced=lambda: source.faced(self.rules))
        self.opening: list[Event] = [*drawn, *cut]
        self.step = ROTATION_STEPS[self.rules.deal.rotation]
        self.seating: tuple[int, ...] = tuple(range(players))
        self.redraws = REDRAWS[self.rules.session.seating]
        rotations = self.rules.session.rotations
        self.limit: int | None = deals if deals is not None else (
            None if rotations is None else rotations * players)
        """The most regular deals: ``deals``, or the rotations' deals; ``None``: no limit."""
        self.played = 0
        self.dealers: list[int] = []
        self.current: list[Event] = []
        self.ending: list[Event] = []
        self.stopped = False
        self.over = False
        self.reason = ""
        """Why the regular deals stopped (spec §10), once :meth:`more_deals` is false."""

    def progress(self) -> Progress:
        """The state between two deals (see :class:`Progress`)."""
        return Progress(self.ledger, self.dealer, self.played,
                        tuple(rng.getstate() for rng in self.rngs),
                        self.seating if self.redraws else None)

    def restore(self, progress: Progress) -> None:
        """Continue from ``progress`` (taken from a run of the same ruleset, players, seed)."""
        if len(progress.rng_states) != self.players or progress.ledger.players != self.players:
            raise ValueError("progress of a session with another number of players")
        seating = tuple(range(self.players)) if progress.seating is None else progress.seating
        if sorted(seating) != list(range(self.players)):
            raise ValueError(f"the seating {list(seating)} does not seat each of the "
                             f"{self.players} players once")
        self.ledger, self.dealer, self.played = progress.ledger, progress.dealer, progress.played
        self.seating = seating
        for rng, state in zip(self.rngs, progress.rng_states, strict=True):
            rng.setstate(cast(Any, state))

    def more_deals(self) -> bool:
        """Whether the session's regular deals go on (spec §10 ``end`` lines).

        Under ``balance: eliminated at zero`` it also ends when fewer players
        are still in than the variant's minimum, except under ``end: last player
        with chips``, where the players still in play on down to the last one
        with chips.  False (and ``stopped`` set) when the sources hold no further deal.
        """
        session = self.rules.session
        seats = self.ledger.seats
        ended = self.deals is None and self.played > 0 and ends_after(session, seats)
        still_in = self.players - len(eliminated(self.rules, self.ledger))
        fewest = 2 if session.end_last_with_chips else self.rules.players.low
        more = ((self.limit is None or self.played < self.limit) and not ended
                and still_in >= fewest)
        if not more:
            self.reason = self._end_reason(ended, still_in)
        if more and not self.sources.has_deal(self.played + 1):
            self.stopped = True
            return False
        return more

    def _end_reason(self, ended: bool, still_in: int) -> str:
        """Why the regular deals stop (spec §10), in words: the end line that ends the
        session after this deal, the deals played, or too few players still in."""
        session, seats = self.rules.session, self.ledger.seats
        if ended:
            end = next(e for e in session.ends() if ENDS_AFTER_DEAL[e](session, seats))
            return END_REASONS[end](session, seats)
        if self.limit is not None and self.played >= self.limit:
            return f"{self.played} deals played" if self.deals is not None else (
                f"{self.played} deals played ({session.rotations} full rotation"
                f"{'s' if session.rotations != 1 else ''} of {self.players} players)")
        low = self.rules.players.low
        return (f"only {still_in} player{'s' if still_in != 1 else ''} still in, fewer than "
                f"{self.ruleset.name}'s minimum of {low} players")

    def next_deal(self) -> list[Event]:
        """Play the next deal (after drawing its seats, under ``seating: redrawn each
        deal``, from deal 2 on); its events."""
        self.played += 1
        self.current = []
        if self.redraws and self.played > 1:
            self._draw_seats()
        cards = self.sources.deal(self.ruleset, self.played)
        self.dealers.append(self.dealer)
        table = seated(self.ledger, self.seating)
        movers = [self.movers[p] for p in self.seating]
        state, events = play_deal(self.ruleset, self.players, self.dealer, table,
                                  cards.deck, movers, number=self.played,
                                  hands=cards.hands, widow=cards.widow, engine=self.engine,
                                  events=self.current)
        before = eliminated(self.rules, self.ledger)
        self.ledger = unseated(state.ledger, self.seating)
        out = eliminated(self.rules, self.ledger)
        events.extend(Eliminated(s) for s in sorted(out - before))  # spec §10
        self.dealer = self._next_dealer(out)
        return events

    def _draw_seats(self) -> None:
        """Spec §10 ``seating: redrawn each deal``: every player of the session is drawn a
        seat (a player out keeps one and sits out); the deal stays with the seat it passed
        to, or, if that seat's player is out, passes on by ``rotation`` to the first seat
        whose player is still in (spec §5.1)."""
        self.seating = tuple(self.sources.seating(self.rules, self.players, self.played))
        self.current.append(Seating(self.played, self.seating))
        out = eliminated(self.rules, self.ledger)
        dealer = self.dealer
        for _ in range(self.players):
            if self.seating[dealer] not in out:
                self.dealer = dealer
                return
            dealer = (dealer + self.step) % self.players

    def _next_dealer(self, out: frozenset[int]) -> int:
        """The deal passes by ``rotation`` to the next seat whose player is still in (spec
        §5.1, §10); under ``seating: redrawn each deal`` to the next seat, whoever is drawn
        into it (:meth:`_draw_seats` passes it on from a seat whose player is out)."""
        if self.redraws:
            return (self.dealer + self.step) % self.players
        dealer = self.dealer
        for _ in range(self.players):
            dealer = (dealer + self.step) % self.players
            if self.seating[dealer] not in out:
                return dealer
        return self.dealer  # nobody is left in: no further deal is played

    def finish(self) -> list[Event]:
        """The session's end (none with a fixed number of deals, or once ``stopped``): split,
        tie deal, standings."""
        self.ending = []
        if self.deals is not None or self.stopped or self.rules.session.end_never:
            return self.ending  # 'end: never' (spec §10): the ledger runs on, no split
        self.ledger, events = split_leftover(self.rules, self.ledger)
        self.ending.extend(events)
        if TIE_DEALS[self.rules.session.ties] and len(best_seats(self.ledger)) > 1:
            if not self.sources.has_deal(self.played + 1):
                self.stopped = True
                return self.ending
            self.ending.extend(self.next_deal())  # spec §10: at most one extra deal
            self.ledger, more = split_leftover(self.rules, self.ledger)
            self.ending.extend(more)
        self.ending.append(SessionEnd(self.ledger.seats, best_seats(self.ledger), self.ledger,
                                      self.reason))
        self.over = True
        return self.ending

    def result(self, events: Sequence[Event]) -> SessionResult:
        """The :class:`SessionResult` of a run that has finished, given all its events."""
        winners = best_seats(self.ledger) if self.deals is None else ()
        return SessionResult(tuple(events), self.ledger, self.played, self.ledger.seats, winners)


def play_session(
    ruleset: Ruleset,
    players: int,
    seed: int | str,
    strategies: Sequence[Strategy | str] | None = None,
    deals: int | None = None,
) -> SessionResult:
    """Play a session (spec §10): deals until its end, then the split and the standings.

    The end: ``rotations`` × ``players`` deals, or earlier after a deal that
    leaves a player at zero or less under ``end: when a player has no
    chips``, at most one player with chips under ``end: last player with
    chips``, or a player with N chips or more under ``end: a player reaches N
    chips``; with ``ties: one more deal`` a tie for best plays one extra
    deal.  With ``deals=K``: exactly K deals and no session end (no split,
    ``winners`` empty).  A session under ``end: never`` needs ``deals``
    (``ValueError`` without it: it would not stop).  ``strategies``: one per
    seat, a callable or a name of :data:`~boodle.engine.strategies.STRATEGIES`
    (default ``random`` for all).
    Raises :class:`~boodle.engine.NotSupported` for a pending feature.
    """
    if deals is None and ruleset.session.end_never:
        raise ValueError(f"{ruleset.name} has no session end ('end: never'): give a number "
                         "of deals")
    run = SessionRun(ruleset, players, seed, strategies, deals)
    events = list(run.opening)
    while run.more_deals():
        events.extend(run.next_deal())
    events.extend(run.finish())
    return run.result(events)
