"""A session: the first dealer by a high cut, deals passing round, the end and its split.

Sources: 001 §03 (first dealer by high cut, then the deal passes left),
001 §06 (an agreed number of full rotations; the leftover on the board is
split equally, fractions kept in the register; the best balance wins, ties
share); spec §10.

All randomness comes from ``seed`` through generators derived by name
(``"{seed}:draw"`` for boodle cards drawn from a second pack, ``"{seed}:cut"``,
``"{seed}:deal:{k}"``, ``"{seed}:seat:{i}"``), so the same seed always gives
the same session.  Drawn boodles are drawn first and bound for the whole
session (spec §3, §10 "Order"; :mod:`boodle.second_pack`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from .cards import Card
from .dealing import eliminated
from .engine import apply, legal_moves, shuffled_deck, start_deal
from .errors import BoodleError
from .events import Cut, Eliminated, Event, FirstDealt, SessionEnd, Split
from .ledger import Ledger, seat, section
from .model import Chips, Ruleset
from .second_pack import draw_boodles
from .state import DealState
from .strategies import Strategy, make


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


def first_dealer(ruleset: Ruleset, players: int, rng: random.Random) -> tuple[int, list[Event]]:
    """The first dealer (spec §5.1) and the events of the draw.

    ``high cut`` (001 §03): each seat draws a card; the highest rank deals;
    ties draw again.  ``first RANK dealt`` (Pope Joan, Hoyle's Games
    Modernized: "the player to whom the first knave falls"): a shuffled deck
    is dealt face up clockwise from seat 0 until the first card of RANK.
    """
    if ruleset.deal.first_dealer == "first dealt":
        return _first_dealt(ruleset, players, rng)
    events: list[Event] = []
    tied = list(range(players))
    while True:
        deck = shuffled_deck(ruleset, rng)
        draws = tuple(zip(tied, deck, strict=False))
        best = max(ruleset.deck.rank_index(card) for _, card in draws)
        tied = [s for s, card in draws if ruleset.deck.rank_index(card) == best]
        events.append(Cut(draws, tied[0] if len(tied) == 1 else None))
        if len(tied) == 1:
            return tied[0], events


def _first_dealt(ruleset: Ruleset, players: int, rng: random.Random) -> tuple[int, list[Event]]:
    """Deal face up from seat 0 until the first card of the rank (the build ensures one)."""
    rank = ruleset.deal.first_dealer_rank
    dealt: list[tuple[int, Card]] = []
    for i, card in enumerate(shuffled_deck(ruleset, rng)):
        dealt.append((i % players, card))
        if card.rank == rank:
            return i % players, [FirstDealt(tuple(dealt), rank, i % players)]
    raise BoodleError(f"the deck of {ruleset.name} has no {rank} to choose the first dealer")


def play_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    ledger: Ledger,
    deck_order: Sequence[Card],
    strategies: Sequence[Strategy],
    number: int | None = None,
) -> tuple[DealState, list[Event]]:
    """One whole deal from ``deck_order``, every move chosen by the mover's strategy."""
    state, events = start_deal(ruleset, players, dealer, ledger, deck_order=deck_order,
                               number=number)
    while (legal := legal_moves(ruleset, state)):
        assert state.to_move is not None
        move = strategies[state.to_move](ruleset, state, legal)
        state, more = apply(ruleset, state, move)
        events.extend(more)
    return state, events


def split_leftover(ruleset: Ruleset, ledger: Ledger) -> tuple[Ledger, list[Event]]:
    """``leftover: split equally`` (001 §06): each section's chips in exact equal shares.

    Sections in board order, shares seat by seat among the players still in
    (eliminated players share nothing, spec §10); ``leftover: stays`` moves
    nothing.
    """
    events: list[Event] = []
    if ruleset.session.leftover != "split equally":
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


@dataclass(frozen=True)
class Progress:
    """Where a session stands between two deals: all it needs to go on exactly.

    ``ledger``: every balance; ``dealer``: the seat dealing next; ``played``:
    deals played; ``rng_states``: each seat's ``random.Random`` state (what
    ``random.Random.getstate()`` returns).  Deck orders need no state: deal k
    is shuffled by ``"{seed}:deal:{k}"``.  Anything a session decides at its
    start and uses later belongs here, or a resumed session would differ.
    """

    ledger: Ledger
    dealer: int
    played: int
    rng_states: tuple[object, ...]


class SessionRun:
    """A session (spec §10) played deal by deal, so that it can be stored and resumed.

    ``opening``: the events before the first deal (the draw of boodle cards, the cut).  Call
    :meth:`next_deal` while :meth:`more_deals` is true, then :meth:`finish`.
    :meth:`progress` and :meth:`restore` save and restore the state between
    deals; a restored run plays exactly as the uninterrupted one (named
    strategies only: a callable strategy keeps its own state).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        seed: int | str,
        strategies: Sequence[Strategy | str] | None = None,
        deals: int | None = None,
    ) -> None:
        chosen: Sequence[Strategy | str] = (["random"] * players if strategies is None
                                            else strategies)
        if len(chosen) != players:
            raise ValueError(f"{len(chosen)} strategies for {players} players")
        self.ruleset, self.players, self.seed, self.deals = ruleset, players, seed, deals
        self.rngs = [random.Random(f"{seed}:seat:{i}") for i in range(players)]
        self.movers = [make(s, rng) if isinstance(s, str) else s
                       for s, rng in zip(chosen, self.rngs, strict=True)]
        names = tuple(s.name for s in ruleset.board)
        self.ledger = Ledger.open(players, names, ruleset.session.start_chips)
        # spec §10 "Order": boodle cards drawn from a second pack, bound for the session,
        # then the first dealer
        self.ruleset, drawn = draw_boodles(ruleset, random.Random(f"{seed}:draw"))
        self.dealer, cut = first_dealer(self.ruleset, players, random.Random(f"{seed}:cut"))
        self.opening: list[Event] = [*drawn, *cut]
        self.step = 1 if ruleset.deal.rotation == "left" else -1
        self.limit = deals if deals is not None else ruleset.session.rotations * players
        self.played = 0

    def progress(self) -> Progress:
        """The state between two deals (see :class:`Progress`)."""
        return Progress(self.ledger, self.dealer, self.played,
                        tuple(rng.getstate() for rng in self.rngs))

    def restore(self, progress: Progress) -> None:
        """Continue from ``progress`` (taken from a run of the same ruleset, players, seed)."""
        if len(progress.rng_states) != self.players or progress.ledger.players != self.players:
            raise ValueError("progress of a session with another number of players")
        self.ledger, self.dealer, self.played = progress.ledger, progress.dealer, progress.played
        for rng, state in zip(self.rngs, progress.rng_states, strict=True):
            rng.setstate(cast(Any, state))

    def more_deals(self) -> bool:
        """Whether the session's regular deals go on (spec §10 ``end`` lines).

        Under ``balance: eliminated at zero`` it also ends when fewer players
        are still in than the variant's minimum.
        """
        broke = (self.deals is None and self.played > 0
                 and self.ruleset.session.end_when_broke and min(self.ledger.seats) <= 0)
        still_in = self.players - len(eliminated(self.ruleset, self.ledger))
        return self.played < self.limit and not broke and still_in >= self.ruleset.players.low

    def next_deal(self) -> list[Event]:
        """Play the next deal; its events."""
        self.played += 1
        deck = shuffled_deck(self.ruleset, random.Random(f"{self.seed}:deal:{self.played}"))
        state, events = play_deal(self.ruleset, self.players, self.dealer, self.ledger, deck,
                                  self.movers, number=self.played)
        before = eliminated(self.ruleset, self.ledger)
        self.ledger = state.ledger
        out = eliminated(self.ruleset, self.ledger)
        events.extend(Eliminated(s) for s in sorted(out - before))  # spec §10
        self.dealer = self._next_dealer(out)
        return events

    def _next_dealer(self, out: frozenset[int]) -> int:
        """The deal passes by ``rotation`` to the next player still in (spec §5.1, §10)."""
        dealer = self.dealer
        for _ in range(self.players):
            dealer = (dealer + self.step) % self.players
            if dealer not in out:
                return dealer
        return self.dealer  # nobody is left in: no further deal is played

    def finish(self) -> list[Event]:
        """The session's end (none with a fixed number of deals): split, tie deal, standings."""
        if self.deals is not None:
            return []
        self.ledger, events = split_leftover(self.ruleset, self.ledger)
        if self.ruleset.session.ties == "one more deal" and len(best_seats(self.ledger)) > 1:
            events.extend(self.next_deal())  # spec §10: at most one extra deal
            self.ledger, more = split_leftover(self.ruleset, self.ledger)
            events.extend(more)
        events.append(SessionEnd(self.ledger.seats, best_seats(self.ledger), self.ledger))
        return events

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
    chips``; with ``ties: one more deal`` a tie for best plays one extra
    deal.  With ``deals=K``: exactly K deals and no session end (no split,
    ``winners`` empty).  ``strategies``: one per seat, a callable or a name
    of :data:`~boodle.strategies.STRATEGIES` (default ``random`` for all).
    Raises :class:`~boodle.engine.NotSupported` for a pending feature.
    """
    run = SessionRun(ruleset, players, seed, strategies, deals)
    events = list(run.opening)
    while run.more_deals():
        events.extend(run.next_deal())
    events.extend(run.finish())
    return run.result(events)
