"""One stage of a deal: the :class:`Stage` record every stage module exports as ``STAGE``.

The stage machine that runs them is :mod:`boodle.engine.machine` (read its docstring
to add a stage).  A stage is three pure functions over an immutable
:class:`~boodle.engine.state.DealState`:

- ``enter(ruleset, state) -> (state, events)``: the stage's automatic work;
- ``legal_moves(ruleset, state) -> moves``: the moves of ``state.to_move`` (moves, or a
  :class:`~boodle.engine.state.BidRange` for every bid at once);
- ``apply(ruleset, state, move) -> (state, events)``: check and play a move,
  raising :class:`~boodle.engine.faults.IllegalMove` with a rule id (spec §12).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boodle.engine.events import Event
from boodle.engine.faults import IllegalMove
from boodle.engine.state import DealState, Legal, Move
from boodle.language.model import Ruleset

__all__ = ["Result", "Stage", "no_legal_moves", "no_moves"]

Result = tuple[DealState, list[Event]]
"""What ``enter`` and ``apply`` return: the new state and the events caused, in order."""


@dataclass(frozen=True)
class Stage:
    """One stage of a deal: its name and its three functions (see :mod:`boodle.engine.machine`)."""

    name: str
    enter: Callable[[Ruleset, DealState], Result]
    legal_moves: Callable[[Ruleset, DealState], tuple[Legal, ...]]
    apply: Callable[[Ruleset, DealState, Move], Result]


def no_legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Move, ...]:
    """``legal_moves`` of a stage that takes no moves: none."""
    return ()


def no_moves(ruleset: Ruleset, state: DealState, move: Move) -> Result:
    """``apply`` of a stage that takes no moves: always refuses (``move.kind``)."""
    raise IllegalMove(f"{move}: no move is taken in stage {state.stage}", rule="move.kind")
