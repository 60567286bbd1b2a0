"""A session: the first dealer by a high cut, deals passing round, the end and its split.

Sources: 001 §03 (first dealer by high cut, then the deal passes left),
001 §06 (an agreed number of full rotations; the leftover on the board is
split equally, fractions kept in the register; the best balance wins, ties
share); spec §10.

All randomness comes from ``seed`` through generators derived by name
(``"{seed}:cut"``, ``"{seed}:deal:{k}"``, ``"{seed}:seat:{i}"``), so the same
seed always gives the same session.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cards import Card
from .engine import apply, legal_moves, shuffled_deck, start_deal
from .events import Cut, Event, SessionEnd, Split
from .ledger import Ledger, seat, section
from .model import Chips, Ruleset
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
    """High cut (001 §03): each seat draws a card; the highest rank deals; ties draw again."""
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

    Sections in board order, shares seat by seat; ``leftover: stays`` moves nothing.
    """
    events: list[Event] = []
    if ruleset.session.leftover != "split equally":
        return ledger, events
    n = ledger.players
    for name, amount in ledger.sections:
        if amount == 0:
            continue
        share = Fraction(amount) / n
        for s in range(n):
            ledger, t = ledger.transfer(section(name), seat(s), share, "split")
            events.append(Split(name, s, t))
    return ledger, events


def best_seats(ledger: Ledger) -> tuple[int, ...]:
    """The seats with the highest balance (001 §06: ties share the win)."""
    best = max(ledger.seats)
    return tuple(s for s, amount in enumerate(ledger.seats) if amount == best)


def _strategies(
    players: int, seed: int | str, strategies: Sequence[Strategy | str] | None
) -> list[Strategy]:
    chosen: Sequence[Strategy | str] = ["random"] * players if strategies is None else strategies
    if len(chosen) != players:
        raise ValueError(f"{len(chosen)} strategies for {players} players")
    return [
        make(s, random.Random(f"{seed}:seat:{i}")) if isinstance(s, str) else s
        for i, s in enumerate(chosen)
    ]


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
    movers = _strategies(players, seed, strategies)
    names = tuple(s.name for s in ruleset.board)
    ledger = Ledger.open(players, names, ruleset.session.start_chips)
    dealer, events = first_dealer(ruleset, players, random.Random(f"{seed}:cut"))
    step = 1 if ruleset.deal.rotation == "left" else -1
    limit = deals if deals is not None else ruleset.session.rotations * players
    played = 0

    def one_deal() -> None:
        nonlocal ledger, dealer, played
        played += 1
        deck = shuffled_deck(ruleset, random.Random(f"{seed}:deal:{played}"))
        state, more = play_deal(ruleset, players, dealer, ledger, deck, movers, number=played)
        events.extend(more)
        ledger, dealer = state.ledger, (dealer + step) % players

    while played < limit:
        one_deal()
        if deals is None and ruleset.session.end_when_broke and min(ledger.seats) <= 0:
            break
    if deals is not None:
        return SessionResult(tuple(events), ledger, played, ledger.seats, ())
    ledger, more = split_leftover(ruleset, ledger)
    events.extend(more)
    if ruleset.session.ties == "one more deal" and len(best_seats(ledger)) > 1:
        one_deal()  # spec §10: at most one extra deal, then the leftover is split again
        ledger, more = split_leftover(ruleset, ledger)
        events.extend(more)
    winners = best_seats(ledger)
    events.append(SessionEnd(ledger.seats, winners, ledger))
    return SessionResult(tuple(events), ledger, played, ledger.seats, winners)
