"""Helpers of the ledger store's tests (unit and kill-and-resume): a session's record and
an emit callback that prints nothing."""

from __future__ import annotations

from boodle.engine.events import Event
from boodle.session.ledger_cli import source_of
from boodle.session.store import SessionInfo


def info_for(name: str = "s", players: int = 4, seed: int = 1, deals: int | None = None,
             variant: str = "michigan") -> SessionInfo:
    file, text, bases = source_of(variant)
    return SessionInfo(name, variant, file, text, players, str(seed), "random", deals,
                       50 * players, bases)


def nothing(events: list[Event]) -> None:
    """An emit callback that prints nothing."""
