"""Bounded model checking from Init (mypyvy's ``check_bmc``): is a failure reachable?

When an induction query fails, its counterexample may be a state no deal
ever reaches (a weak invariant) or a real fault of the rules.  :func:`bmc`
unrolls the transition relation from the start of play, one step at a time
(every :class:`~boodle.verify.actions.Action` of the step as one disjunct),
and asks at each depth whether a **target** (the broken property) can hold.
A hit is a concrete trace from the start of play: a real fault.  No hit
within the depth says only that: no trace of that length exists.

Targets: a named invariant conjunct broken, a deadlock (not over and no
guard true), or a **lasso** (a state equal to an earlier one: play can go
round for ever, so the deal does not terminate).  Chips at the start of a
trace are kept within ±:data:`CHIPS` so that traces read easily; a trace
found is real, and "none found" is said with its bounds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import z3

from boodle.verify.actions import Action, actions
from boodle.verify.induction import System, interrupted
from boodle.verify.invariants import initial
from boodle.verify.layout import OVER, Expr, SymState, fresh_state
from boodle.verify.z3eval import state_values

__all__ = ["CHIPS", "BmcResult", "Step", "bmc"]

CHIPS = 100
"""Chips at the start of a searched trace lie in [−CHIPS, CHIPS] (readable traces; the
proofs themselves allow any amount)."""


@dataclass(frozen=True)
class Step:
    """One step of a trace: the ``action`` taken from state ``before`` (values as in
    :func:`~boodle.verify.z3eval.state_values`)."""

    action: str
    kind: str
    card: int | None
    before: dict[str, Any]


@dataclass
class BmcResult:
    """The outcome: ``found`` a trace of ``depth`` steps (``steps`` and the ``final`` state),
    or none up to ``depth``; ``exact``: the trace starts from an exact post-deal state (else
    from the over-approximated start of play); ``loop_to``: for a lasso, the step the final
    state repeats."""

    found: bool
    depth: int
    seconds: float
    exact: bool
    steps: list[Step] = field(default_factory=list)
    final: dict[str, Any] | None = None
    loop_to: int | None = None
    timed_out: bool = False


def _target(system: System, s: SymState, acts: list[Action], what: str) -> Expr:
    layout = system.layout
    if what == "deadlock":
        return z3.And(s.step != OVER, z3.Not(z3.Or(*[a.guard for a in acts])))
    c = next(c for c in system.conjuncts if c.name == what)
    return z3.Not(c.term(layout, s))


def _equal(a: SymState, b: SymState) -> Expr:
    return z3.And(*[x == y for x, y in zip(a.flat(), b.flat(), strict=True)])


def _transition(acts: list[Action], nxt: SymState, choice: Expr) -> list[Expr]:
    """``nxt`` is the post-state of one enabled action; ``choice`` records which."""
    cases = []
    for k, a in enumerate(acts):
        cases.append(z3.And(choice == k, a.guard, *a.definitions, _equal(nxt, a.post)))
    return [z3.Or(*cases)]


def bmc(system: System, what: str, depth: int, budget: float = 60.0) -> BmcResult:
    """Search traces of up to ``depth`` steps from the start of play that reach ``what``:
    a conjunct's name, ``"deadlock"`` or ``"lasso"``.  Stops after ``budget`` seconds."""
    start = time.perf_counter()
    layout = system.layout
    ghosts = system.state.ghosts
    states = [fresh_state(layout, "b0", ghosts)]
    init, pre = initial(layout, states[0], system.exact)
    solver = z3.Solver()
    solver.add(system.axioms, init)
    chips = pre or [*states[0].bal, *states[0].sec]
    solver.add(*[z3.And(x >= -CHIPS, x <= CHIPS) for x in chips])
    choices: list[Expr] = []
    all_actions: list[list[Action]] = []
    for k in range(depth + 1):
        acts = actions(layout, states[k], system.mutation)
        all_actions.append(acts)
        goal = _lasso(states) if what == "lasso" else _target(system, states[k], acts, what)
        remaining = budget - (time.perf_counter() - start)
        if remaining <= 0:
            return BmcResult(False, k, time.perf_counter() - start, system.exact, timed_out=True)
        solver.set("timeout", max(1, int(remaining * 1000)))
        solver.push()
        solver.add(goal)
        result = solver.check()
        if result == z3.sat:
            model = solver.model()
            solver.pop()
            return _decode(system, model, states, all_actions, choices, k,
                           time.perf_counter() - start, what)
        if result == z3.unknown:
            interrupted(solver)
        solver.pop()
        if result == z3.unknown:
            return BmcResult(False, k, time.perf_counter() - start, system.exact, timed_out=True)
        if k == depth:
            break
        nxt = fresh_state(layout, f"b{k + 1}", ghosts)
        choice = z3.Int(f"b{k}.action")
        solver.add(*_transition(acts, nxt, choice))
        states.append(nxt)
        choices.append(choice)
    return BmcResult(False, depth, time.perf_counter() - start, system.exact)


def _lasso(states: list[SymState]) -> Expr:
    last = states[-1]
    if len(states) < 2:
        return z3.BoolVal(False)
    return z3.Or(*[_equal(last, earlier) for earlier in states[:-1]])


def _decode(system: System, model: z3.ModelRef, states: list[SymState],
            acts: list[list[Action]], choices: list[Expr], k: int, seconds: float,
            what: str) -> BmcResult:
    layout = system.layout
    values = [state_values(layout, s, model) for s in states]
    steps = []
    for j, choice in enumerate(choices):
        a = acts[j][model.eval(choice, model_completion=True).as_long()]
        steps.append(Step(a.name, a.kind, a.card, values[j]))
    loop = None
    if what == "lasso":
        loop = next((j for j in range(k) if _same(values[j], values[k])), None)
    return BmcResult(True, k, seconds, system.exact, steps, values[k], loop)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a[key] == b[key] for key in a if key != "ghosts")
