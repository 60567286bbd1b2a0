"""Helpers for the hand-worked multi-phase deals: play listed moves, read claims."""

from __future__ import annotations

from boodle.engine import apply, is_terminal, legal_moves
from boodle.engine.events import Claim, Event
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Move
from boodle.language.model import Ruleset


def play_out(
    rules: Ruleset, state: DealState, moves: tuple[Move, ...]
) -> tuple[Ledger, list[Event]]:
    """Play ``moves`` in order, each checked legal; the deal must end with the last.

    Returns the final ledger and the events the moves caused.
    """
    events: list[Event] = []
    for move in moves:
        assert move in legal_moves(rules, state), f"{move}: legal {legal_moves(rules, state)}"
        state, more = apply(rules, state, move)
        events.extend(more)
    assert is_terminal(state)
    return state.ledger, events


def claims(events: list[Event]) -> list[tuple[int, str, object]]:
    """(seat, section, amount) of every claim, in order."""
    return [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]
