"""Positions along a played trace: ``boodle play … --positions``.

:func:`positions` replays the events of a session with the reference engine
and yields, after the events of each move, the position (notation of
:mod:`boodle.conformance.position`) the deal is in.  Moves are recovered
from the events alone: at each point the one legal move whose events are the
next events of the trace.  A deal the replay cannot follow (a misdeal, say)
gets no positions, and says so.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator, Sequence

from boodle.conformance.position import describe
from boodle.engine.api import apply, legal_moves, start_deal
from boodle.engine.events import (
    Bet,
    BoodlesDrawn,
    DealCards,
    DealStart,
    Event,
    WidowBid,
    transfers_in,
)
from boodle.engine.ledger import Ledger
from boodle.engine.state import BidRange, DealState, Legal, Move
from boodle.engine.trace import DrawnSeats, render_text
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.session.second_pack import bind_boodles, unbound_sections

Chunk = tuple[list[Event], str | None]
"""Some events of the trace and the position after them (``None``: none to show)."""


def _same(a: Sequence[Event], b: Sequence[Event]) -> bool:
    return [e.to_json() for e in a] == [e.to_json() for e in b]


def _track(ledger: Ledger | None, event: Event) -> Ledger | None:
    if ledger is None:
        return None
    for t in transfers_in(event):
        ledger, _ = ledger.transfer(t.src, t.dst, t.amount, t.reason)
    return ledger


def positions(ruleset: Ruleset, events: Sequence[Event]) -> Iterator[Chunk]:
    """The trace cut after each move, with the position there (the session's drawn boodle
    cards, spec §3, bound from its ``boodles-drawn`` event on)."""
    ledger: Ledger | None = None
    i = 0
    while i < len(events):
        event = events[i]
        if isinstance(event, BoodlesDrawn) and unbound_sections(ruleset):
            ruleset = bind_boodles(ruleset, dict(event.draws))  # for the session (spec §3)
        if isinstance(event, DealStart) and ledger is None:
            ledger = Ledger.open(event.players, tuple(s.name for s in ruleset.board),
                                 ruleset.session.start_chips)
        if isinstance(event, DealStart) and ledger is not None:
            done = yield from _deal(ruleset, events, i, ledger)
            if done > i:
                for e in events[i:done]:
                    ledger = _track(ledger, e)
                i = done
                continue
        ledger = _track(ledger, event)
        yield [event], None
        i += 1


def _deal(ruleset: Ruleset, events: Sequence[Event], i: int, ledger: Ledger
          ) -> Generator[Chunk, None, int]:
    """Replay the deal starting at ``events[i]``; returns the index after it (``i``: cannot)."""
    start = events[i]
    assert isinstance(start, DealStart)
    cards = next((e for e in events[i:] if isinstance(e, DealCards)), None)
    if cards is None:
        return i
    try:
        state, first = start_deal(ruleset, start.players, start.dealer, ledger,
                                  hands=cards.hands, widow=cards.widow, number=start.number)
    except BoodleError:
        return i
    if not _same(first, events[i:i + len(first)]):
        return i
    yield list(first), _where(ruleset, state)
    j = i + len(first)
    while state.step != "over":
        found = _next_move(ruleset, state, events[j:])
        if found is None:
            yield list(events[j:j + 1]), "(the replay cannot follow this deal from here)"
            return j + 1
        state, more = found
        yield list(more), _where(ruleset, state)
        j += len(more)
    return j


def _where(ruleset: Ruleset, state: DealState) -> str:
    """The position of ``state``, or why there is none (a stage before the stops phase)."""
    try:
        return describe(ruleset, state)
    except BoodleError as exc:
        return f"({exc.message})"


def _next_move(ruleset: Ruleset, state: DealState, rest: Sequence[Event]
               ) -> tuple[DealState, list[Event]] | None:
    for move in _candidates(legal_moves(ruleset, state), rest):
        after, more = apply(ruleset, state, move)
        if _same(more, rest[:len(more)]):
            return after, more
    return None


def _candidates(legal: Sequence[Legal], rest: Sequence[Event]) -> list[Move]:
    """The moves that may have made the next events: a bid range gives only the bid the
    next event names (a range of 10^8 amounts is never walked)."""
    out: list[Move] = []
    for entry in legal:
        if isinstance(entry, BidRange):
            first = rest[0] if rest else None
            if isinstance(first, WidowBid) and first.seat == entry.seat \
                    and first.amount in entry.amounts():
                out.append(entry.bid(first.amount))
            elif isinstance(first, Bet) and first.seat == entry.seat \
                    and first.transfer is not None \
                    and first.transfer.amount in entry.amounts():  # spec §8.3: chips put in
                out.append(entry.bid(int(first.transfer.amount)))
        else:
            out.append(entry)
    return out


def render_with_positions(ruleset: Ruleset, events: Sequence[Event], as_json: bool) -> str:
    """The trace (text or JSON lines) with the position after every move.

    Text: a line ``    @ POSITION`` after each move's lines.  JSON lines: an
    object ``{"kind": "position", "position": …}`` after each move's events.
    """
    out: list[str] = []
    seats = DrawnSeats()  # a deal's seats drawn in one chunk, its end in a later one
    for chunk, where in positions(ruleset, events):
        if as_json:
            out.extend(json.dumps(e.to_json(), ensure_ascii=False) for e in chunk)
            if where is not None:
                out.append(json.dumps({"kind": "position", "position": where},
                                      ensure_ascii=False))
        else:
            text = render_text(chunk, start=not out, seats=seats).rstrip("\n")
            if text:
                out.append(text)
            if where is not None:
                out.append(f"    @ {where}")
    return "\n".join(out) + "\n"
