"""Perft-style counts: complete play sequences and distinct terminal ledgers.

Definitions (``conformance/FORMAT.md`` §"count"), for a state ``s``:

- ``sequences(s)`` = 1 if the deal is over in ``s``; otherwise the sum of
  ``sequences(apply(s, m))`` over every legal move ``m``.  It is the number of
  distinct sequences of legal moves (forced ones included) that lead from
  ``s`` to the end of the deal.
- ``ledgers(s)`` = the number of distinct ledgers (every seat's and every
  section's chips, exactly) among the states where those sequences end.
- the breakdown gives, for each legal move ``m`` at ``s``, the two numbers
  for ``apply(s, m)``.  Sequences add up over the breakdown; ledgers need not.

Amounts (a widow auction's bids): every amount is a move of its own in ``sequences`` and
``ledgers``.  In the breakdown (``boodle-protocol/2``) a bid range is one row, for the range
as a whole: its sequences are the sum over its amounts, its ledgers the distinct ledgers
reached through any of them; the row is matched by its bounds (seat, min, max).  With
``ranges=False`` (``boodle-protocol/1``) each amount has a row of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from boodle.conformance.engines import REFERENCE, Engine
from boodle.engine.stages.stops import run_on
from boodle.engine.state import BidRange, DealState, Legal, each_move
from boodle.language.errors import BoodleError
from boodle.language.model import Chips, Ruleset

LedgerKey = tuple[tuple[Chips, ...], tuple[tuple[str, Chips], ...]]

DEFAULT_BUDGET = 2_000_000
"""Most states one count may visit before it gives up (a case too big to count)."""


class CountTooBig(BoodleError):
    """The count visited more states than its budget allows."""


@dataclass(frozen=True)
class Count:
    """The counts from one state, and per first move (``by_first_move``, in legal order: a
    :class:`~boodle.engine.state.BidRange` row counts all its bids)."""

    sequences: int
    ledgers: int
    by_first_move: tuple[tuple[Legal, int, int], ...]


class _Walker:
    """The depth-first walk of :func:`count`.

    On the reference engine itself (not a mutant, which may break the follows), a state
    whose only move is a follow that hands the run on is not stepped through: the follows
    of the run are played at once (:func:`boodle.engine.stages.stops.run_on`), as the
    forced moves they are.  A forced move does not change the sequences nor the ledgers
    reached, and the states skipped are counted as visited, so the budget stops the same
    counts as a walk through every state does.
    """

    def __init__(self, ruleset: Ruleset, engine: Engine, budget: int) -> None:
        self.ruleset, self.engine, self.budget = ruleset, engine, budget
        self.visited = 0
        self.runs_on = type(engine) is Engine

    def walk(self, state: DealState, ends: set[LedgerKey]) -> int:
        """Sequences from ``state``; adds every terminal ledger to ``ends``."""
        self.visited += 1
        if self.runs_on and state.step == "follow":
            state, skipped = run_on(self.ruleset, state)
            self.visited += skipped  # the states passed through, the last one included
        if self.visited > self.budget:
            raise CountTooBig(f"more than {self.budget} states to count")
        moves = self.engine.legal(self.ruleset, state)
        if not moves:
            ends.add((state.ledger.seats, state.ledger.sections))
            return 1
        total = 0
        for move in each_move(moves):
            after, _ = self.engine.apply(self.ruleset, state, move)
            total += self.walk(after, ends)
        return total


def count(ruleset: Ruleset, state: DealState, engine: Engine = REFERENCE,
          budget: int | None = None, ranges: bool = True) -> Count:
    """Count from ``state`` (see the module docstring); raises :class:`CountTooBig`.

    ``budget``: most states to visit (default :data:`DEFAULT_BUDGET`, read at the call);
    every amount of a range is visited, so a range of many amounts exhausts it.
    ``ranges``: one breakdown row per bid range (protocol 2), else one per amount.
    """
    walker = _Walker(ruleset, engine, DEFAULT_BUDGET if budget is None else budget)
    moves = engine.legal(ruleset, state)
    if not moves:
        return Count(1, 1, ())
    every: set[LedgerKey] = set()
    rows: list[tuple[Legal, int, int]] = []
    entries = moves if ranges else tuple(each_move(moves))
    for entry in entries:
        ends: set[LedgerKey] = set()
        sequences = 0
        for move in each_move((entry,)) if isinstance(entry, BidRange) else (entry,):
            after, _ = engine.apply(ruleset, state, move)
            sequences += walker.walk(after, ends)
        rows.append((entry, sequences, len(ends)))
        every |= ends
    return Count(sum(r[1] for r in rows), len(every), tuple(rows))
