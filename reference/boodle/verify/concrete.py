"""Engine states as values of the model's variables, and the model asked about them.

:func:`encode` writes a :class:`~boodle.engine.state.DealState` of the stops phase
in the codes of :mod:`boodle.verify.layout` (and its ghosts: the chip
total, the dealer, the trump suit, earlier phases' winners and takings, the
widow and out-of-play cards, the eliminated seats, who may take which section).
:class:`ModelOracle` compiles every action's guard and post-state once
(:class:`~boodle.verify.z3eval.Evaluator`) and answers, for an encoded state, which actions
the model enables and what each leads to.  The agreement test compares these answers with
:func:`boodle.engine.legal_moves` and :func:`boodle.engine.apply`: without
that, the proofs would be about a different game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from boodle.engine.state import DealState, LeadMove, Move, PassMove, PlayMove
from boodle.verify.actions import Action
from boodle.verify.induction import System
from boodle.verify.layout import FOLLOW, LEAD, NONE, OVER, Layout, SymState
from boodle.verify.z3eval import Evaluator, Fn

__all__ = ["ModelOracle", "action_name", "encode"]

_STEP = {"lead": LEAD, "follow": FOLLOW, "over": OVER}


def _code(layout: Layout, kind: str, seat: int | None) -> int:
    n = layout.n
    if kind == "hand" and seat is not None:
        return seat
    if kind == "widow":
        return n
    if kind == "played" and seat is not None:
        return n + 1 + seat
    if kind == "out":
        return layout.out
    raise ValueError(f"a card in the {kind} has no place in the stops phase")


def encode(layout: Layout, state: DealState, s: SymState) -> list[Any]:
    """``state``'s values, aligned with ``s.flat()`` then ``s.ghosts.variables()``.

    Raises ``ValueError`` for a state the model does not describe (a card
    still in the pack, an eliminated seat under rules that eliminate nobody).
    """
    if state.out and not s.ghosts.gone:
        raise ValueError("the model has no eliminated seats")
    suits = layout.suits
    index = layout.index
    loc = [_code(layout, p.kind, p.seat) for p in state.places]
    scalars = [
        _STEP[state.step],
        NONE if state.to_move is None else state.to_move,
        NONE if state.current is None else index[state.current],
        state.restart,
        NONE if state.stopped is None else suits.index(state.stopped),
        NONE if state.last_player is None else state.last_player,
        state.passes,
        state.flipped,
        NONE if state.winner is None else state.winner,
    ]
    ledger = state.ledger
    values = [*loc, *scalars, *ledger.seats, *(amount for _, amount in ledger.sections),
              *(k in state.forfeited for k in range(layout.n))]
    return values + _ghosts(layout, state, s)


def _ghosts(layout: Layout, state: DealState, s: SymState) -> list[Any]:
    g = s.ghosts
    winners = dict(state.phase_winners)
    left = state.left_of(state.dealer)
    out: list[Any] = [state.ledger.total(), state.dealer,
                      NONE if state.trump is None else layout.suits.index(state.trump)]
    out += [winners[p][0] if winners.get(p) else left for p in g.winners]
    out += [(p, name) in state.taken for p, name in g.taken]
    if g.drawn:
        raise ValueError("drawn boodles must be bound before play (spec §3)")
    out += [p.kind == "widow" for p in state.places]
    out += [p.kind == "out" for p in state.places]
    out += [k in state.out for k in range(len(g.gone))]  # spec §10: the seats eliminated
    if g.eligible:  # spec §4: a seat short at the ante may take only the sections it anted
        short = dict(state.short)
        out += [name in short[k] if k in short else True
                for k in range(len(g.eligible)) for name in (x.name for x in layout.board)]
    return out


def action_name(layout: Layout, move: Move) -> str:
    """The model's action for an engine move: ``card C`` for a lead or follow of C, ``pass``."""
    if isinstance(move, LeadMove | PlayMove):
        return f"card {move.card}"
    if isinstance(move, PassMove):
        return "pass"
    raise ValueError(f"{move} is not a move of the stops phase")


@dataclass
class ModelOracle:
    """The model's guards and post-states, compiled once for one :class:`System`."""

    system: System

    @cached_property
    def evaluator(self) -> Evaluator:
        """An evaluator over the state and ghost variables, with every action's definitions."""
        s = self.system.state
        defs = {}
        for a in self.system.actions:
            for d in a.definitions:
                defs[d.arg(0)] = d.arg(1)
        return Evaluator([*s.flat(), *s.ghosts.variables()], defs)

    @cached_property
    def compiled(self) -> list[tuple[Action, Fn, list[Fn]]]:
        """Per action: its guard and its post-state terms, as closures."""
        ev = self.evaluator
        return [(a, ev.compile(a.guard), [ev.compile(t) for t in a.post.flat()])
                for a in self.system.actions]

    @cached_property
    def guards(self) -> list[tuple[Action, Fn]]:
        """Per action: its guard as a closure (the post-states are compiled on first use,
        :meth:`posts`: a state enables few actions, and most terms are in the posts)."""
        ev = self.evaluator
        return [(a, ev.compile(a.guard)) for a in self.system.actions]

    def posts(self, action: Action) -> list[Fn]:
        """``action``'s post-state terms as closures, compiled once."""
        got = self._posts.get(action.name)
        if got is None:
            ev = self.evaluator
            got = self._posts[action.name] = [ev.compile(t) for t in action.post.flat()]
        return got

    @cached_property
    def _posts(self) -> dict[str, list[Fn]]:
        return {}

    @cached_property
    def _withheld(self) -> dict[str, list[tuple[str, Fn]]]:
        ev = self.evaluator
        return {a.name: [(kind, ev.compile(c)) for kind, c in a.withheld]
                for a in self.system.actions}

    def withheld(self, values: list[Any], name: str) -> set[str]:
        """The kinds of the claims the action ``name`` would make in the state ``values``
        but that a rule withholds (:attr:`~boodle.verify.actions.Action.withheld`)."""
        checks = self._withheld.get(name, [])
        if not checks:
            return set()
        env = self.evaluator.env(values)
        return {kind for kind, holds in checks if holds(env)}

    def encode(self, state: DealState) -> list[Any]:
        """:func:`encode` for this system."""
        return encode(self.system.layout, state, self.system.state)

    def enabled(self, values: list[Any]) -> dict[str, list[Any]]:
        """The actions the model enables in the state ``values``, each with its successor's
        state values (aligned with ``SymState.flat()``)."""
        env = self.evaluator.env(values)
        return {a.name: [post(env) for post in self.posts(a)]
                for a, guard in self.guards if guard(env)}
