"""The symbolic checks (mypyvy's ``check_init`` / ``check_transitions``): z3 queries per action.

For one ruleset and player count (a :class:`System`):

- :func:`check_init`: Init ⇒ Inv, conjunct by conjunct;
- :func:`check_consecution`: Inv ∧ guard_a ⇒ Inv′ for every action a.  Each
  group of conjuncts is first tried with only the conjuncts it needs, the
  core of the guard and the parts of the goal the action changes (enough
  almost always); only if that fails is the query repeated with the whole
  invariant and guard, so a counterexample is always against the full
  invariant;
- :func:`check_progress`: Inv ∧ ¬over ⇒ some guard holds, split by step,
  seat to move and stopped suit;
- :func:`check_ranking`: Inv ∧ guard_a ⇒ 0 ≤ r′ <lex r for every action;
- :func:`check_exclusive`: guards that must exclude each other do.

Each returns :class:`Finding` records: one per property, with the time
spent, and for a failure the first counterexample (the pre-state as cards
and chips, and the action).  Queries are quantifier-free (integers, reals,
booleans).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import z3

from boodle.language.model import Ruleset
from boodle.verify.actions import Action, actions
from boodle.verify.invariants import (
    CHIPS,
    RUN,
    Conjunct,
    axioms,
    conjuncts,
    exact_start,
    initial,
    pass_measure,
)
from boodle.verify.layout import (
    FOLLOW,
    LEAD,
    OVER,
    Expr,
    Layout,
    SymState,
    all_of,
    any_of,
    fresh_ghosts,
    fresh_state,
    sum_of,
)
from boodle.verify.mutation import NO_MUTATION, Mutation
from boodle.verify.terms import eq, ge, ite_int, lt, sub

__all__ = ["Finding", "Prover", "System", "check_consecution", "check_exclusive", "check_init",
           "check_progress", "check_ranking", "prove"]

TIMEOUT_MS = 60_000
"""Per-query time limit; a query that runs out is reported ``unknown``, never ``proven``."""


@dataclass
class Finding:
    """The outcome of one check for one property.

    ``status``: ``proven``, ``counterexample`` or ``unknown`` (a query timed
    out); ``queries``: how many z3 queries; ``model``: for a counterexample,
    the values of the pre-state (see :func:`boodle.verify.z3eval.values`);
    ``action``: the action it fires; ``conjunct``: the invariant conjunct broken.
    """

    prop: str
    check: str
    status: str = "proven"
    seconds: float = 0.0
    queries: int = 0
    detail: str = ""
    action: str | None = None
    conjunct: str | None = None
    model: dict[str, Any] | None = None

    def fail(self, status: str, detail: str, **more: Any) -> None:
        """Record the first failure (later ones are not kept)."""
        if self.status == "proven":
            self.status, self.detail = status, detail
            for key, value in more.items():
                setattr(self, key, value)


@dataclass
class System:
    """The transition system of one ruleset's stops phase with ``n`` players (built lazily)."""

    ruleset: Ruleset
    n: int
    mutation: Mutation = field(default=NO_MUTATION)

    @cached_property
    def layout(self) -> Layout:
        """The encoding of cards and seats."""
        return Layout(self.ruleset, self.n)

    @cached_property
    def state(self) -> SymState:
        """The pre-state variables ``s``."""
        return fresh_state(self.layout, "s", fresh_ghosts(self.layout))

    @cached_property
    def actions(self) -> list[Action]:
        """Every action from ``s``."""
        return actions(self.layout, self.state, self.mutation)

    @cached_property
    def conjuncts(self) -> list[Conjunct]:
        """The invariant."""
        return conjuncts(self.layout)

    @cached_property
    def axioms(self) -> Expr:
        """Ranges of the ghosts."""
        return axioms(self.layout, self.state)

    @cached_property
    def exact(self) -> bool:
        """Whether Init is the exact post-deal state (no stage between the deal and play)."""
        return exact_start(self.layout)

    def inv(self, s: SymState, heavy: bool = True) -> list[Expr]:
        """The invariant's terms at ``s`` (without the heavy conjuncts unless ``heavy``)."""
        return [c.term(self.layout, s) for c in self.conjuncts if heavy or not c.heavy]

    @cached_property
    def inv_s(self) -> list[Expr]:
        """The whole invariant at ``s``."""
        return self.inv(self.state)

    @cached_property
    def pre_parts(self) -> dict[str, list[Expr]]:
        """Each conjunct's parts at ``s``."""
        return {c.name: c.parts(self.layout, self.state) for c in self.conjuncts}

    @cached_property
    def pre_ids(self) -> dict[str, frozenset[int]]:
        """The z3 ids of each conjunct's parts at ``s`` (kept alive by :attr:`pre_parts`)."""
        return {name: frozenset(p.get_id() for p in parts)
                for name, parts in self.pre_parts.items()}


class Prover:
    """Incremental z3 solvers holding the ghost axioms; each query is pushed and popped.

    A fresh solver per query costs more than most of our queries; pushing
    the query's own hypotheses keeps each one small.  The invariant's
    conjuncts at ``s``, which nearly every query assumes, are asserted once,
    each behind its own literal (``lit ⇒ conjunct``), and a query assumes the
    literals it needs (:meth:`hyps`): z3 takes in their terms once, not once
    per query, and a query's hypotheses stay exactly those it names.  There is
    one solver per set of literals assumed (run conjuncts, chip conjuncts, the
    whole invariant …): z3 decides every atom it holds (``smt.relevancy 0``),
    so a solver that also held the conjuncts a query does not assume would
    search them in vain.  A solver whose conjuncts are not chip ones (nor are
    its queries' terms: no guard or card place reads a chip) is set up for
    integer arithmetic (``QF_UFLIA``, the older simplex), which solves these
    queries faster; a real term there would give "unknown", never "unsat".
    """

    def __init__(self, system: System):
        self.system = system
        self._solvers: dict[frozenset[int], z3.Solver] = {}
        self._lits: dict[str, Expr] = {}
        self._parts: dict[int, Expr] = {}
        self._chip_lits: set[int] = set()
        """The ids of the literals of chip conjuncts (their terms are real)."""
        """The conjunct each literal stands for, by the literal's id."""
        self.shapes: dict[tuple[int, ...], tuple[bool, Expr]] = {}
        """Answers of :func:`_shape_holds` by query (the query kept alive with it)."""
        self.vacuous: set[tuple[str, str]] = set()
        """(action, group) pairs :func:`check_consecution` found trivially preserved
        (:func:`_vacuous`) in the query of the action's run conjuncts."""
        self.ranked: set[str] = set()
        """Actions whose ranking step :func:`check_consecution` proved with their run
        conjuncts (:func:`check_ranking` does not ask again)."""

    def _solver(self, assume: list[Expr]) -> z3.Solver:
        """The solver for queries that assume the literals ``assume``: the axioms and
        the conjuncts of those literals (``lit ⇒ conjunct``), asserted once."""
        key = frozenset(lit.get_id() for lit in assume)
        solver = self._solvers.get(key)
        if solver is None:
            if key and not key & self._chip_lits:
                # no chip (real) term: z3's set-up for integer arithmetic, with its older
                # simplex (about 13% less solving here, the same answers; a real term would
                # make such a solver answer "unknown", never a wrong "unsat")
                solver = self._solvers[key] = z3.SolverFor("QF_UFLIA")
                solver.set("smt.arith.solver", 2)
            else:
                solver = self._solvers[key] = z3.Solver()
            solver.set("timeout", TIMEOUT_MS)
            # every atom goes to the theories, not only those z3 judges relevant: the same
            # answers (a search heuristic, not a bound), about 25% less solving time here
            solver.set("smt.relevancy", 0)
            solver.add(self.system.axioms)
            for lit in assume:
                solver.add(z3.Implies(lit, self._parts[lit.get_id()]))
        return solver

    def hyps(self, names: Iterable[str] | None = None) -> list[Expr]:
        """The literals standing for the conjuncts ``names`` at ``s`` (default: all)."""
        system = self.system
        out = []
        for c in system.conjuncts:
            if names is not None and c.name not in names:
                continue
            lit = self._lits.get(c.name)
            if lit is None:
                lit = self._lits[c.name] = z3.Bool(f"inv[{c.name}]")
                self._parts[lit.get_id()] = all_of(system.pre_parts[c.name])
                if c.group == CHIPS:
                    self._chip_lits.add(lit.get_id())
            out.append(lit)
        return out

    def query(self, terms: Iterable[Expr], assume: Iterable[Expr] = ()
              ) -> tuple[Any, z3.ModelRef | None]:
        """Check ``terms`` (with the axioms) assuming the literals ``assume``:
        ``(sat|unsat|unknown, model if sat)``."""
        assume = list(assume)
        solver = self._solver(assume)
        solver.push()
        try:
            solver.add(*terms)
            result = solver.check(*assume)
            if result == z3.unknown:
                interrupted(solver)
            return result, solver.model() if result == z3.sat else None
        finally:
            solver.pop()


def interrupted(solver: z3.Solver) -> None:
    """Raise ``KeyboardInterrupt`` if ``solver``'s last check stopped because the user
    pressed Ctrl-C: z3 catches SIGINT during a check and answers "unknown" (reason
    "interrupted from keyboard"), which a caller would take for a hard query and go on
    (a first try that is not "unsat" is asked again in full)."""
    if "interrupted" in solver.reason_unknown():
        raise KeyboardInterrupt


def _parts(system: System, name: str, s: SymState) -> list[Expr]:
    c = next(c for c in system.conjuncts if c.name == name)
    return c.parts(system.layout, s)


def _changed(system: System, c: Conjunct, post: SymState) -> list[Expr]:
    """The parts of ``c`` at ``post`` that are not literally parts of ``c`` at ``s``: the
    others are hypotheses already."""
    before = system.pre_ids[c.name]
    return [p for p in c.parts(system.layout, post) if p.get_id() not in before]


def _model_values(system: System, model: z3.ModelRef, s: SymState) -> dict[str, Any]:
    from boodle.verify.z3eval import state_values

    return state_values(system.layout, s, model)


def _record(f: Finding, result: Any, model: z3.ModelRef | None, system: System,
            detail: str, **more: Any) -> None:
    if result == z3.sat and model is not None:
        f.fail("counterexample", detail, model=_model_values(system, model, system.state),
               **more)
    elif result != z3.unsat:
        f.fail("unknown", f"ran out of time: {detail}")


def check_init(system: System, prover: Prover) -> list[Finding]:
    """Init ⇒ each conjunct of the invariant: one query for all of them, and only if that
    fails one query per conjunct."""
    s = system.state
    init, _ = initial(system.layout, s, system.exact)
    found: dict[str, Finding] = {}
    # first every conjunct in one query (one search instead of one each); if that fails,
    # each apart, so a counterexample names its conjunct as before
    t = time.perf_counter()
    terms = [z3.And(*system.pre_parts[c.name]) for c in system.conjuncts]  # c.term(…, s)
    result, _ = prover.query([init, z3.Not(all_of(terms))])
    spent = time.perf_counter() - t
    if result == z3.unsat:
        for c in system.conjuncts:
            f = found.setdefault(c.prop, Finding(c.prop, "init"))
            f.seconds += spent / len(system.conjuncts)
            f.queries += 1
        return list(found.values())
    for c, term in zip(system.conjuncts, terms, strict=True):
        f = found.setdefault(c.prop, Finding(c.prop, "init"))
        t = time.perf_counter()
        result, model = prover.query([init, z3.Not(term)])
        f.seconds += time.perf_counter() - t
        f.queries += 1
        _record(f, result, model, system, f"a start of play breaks '{c.name}'", conjunct=c.name)
    return list(found.values())


def check_consecution(system: System, prover: Prover, chips: bool | None = None
                      ) -> list[Finding]:
    """Inv ∧ guard ⇒ Inv′ for every action (see the module docstring for the two tries).

    ``chips``: ``True`` checks only the chip conjuncts (group ``chips``),
    ``False`` only the others, ``None`` all of them.
    """
    chosen = [c for c in system.conjuncts if chips is None or (c.group == CHIPS) == chips]
    found = {c.prop: Finding(c.prop, "consecution") for c in chosen}
    groups: dict[str, list[Conjunct]] = {}
    for c in chosen:
        groups.setdefault(c.group, []).append(c)
    for a in system.actions:
        for key, members in groups.items():
            t = time.perf_counter()
            hyps = prover.hyps({n for c in members for n in c.needs})
            defs = a.definitions if key == CHIPS else a.flags
            guard = a.guard if any(c.heavy for c in members) else a.core
            done = (a.name, key) in prover.vacuous or _vacuous(
                system, prover, members, a, [guard, *defs], hyps) or (
                key == CHIPS and _one_by_one(system, prover, members, a, guard, hyps))
            goals = {} if done else {c.name: _changed(system, c, a.post) for c in members}
            goal = [p for parts in goals.values() for p in parts]
            if key == RUN and goal and not any(c.heavy for c in members) \
                    and _run_and_rank(system, prover, a, goals, hyps, groups):
                result = z3.unsat
            else:
                result, _ = prover.query([guard, *defs, z3.Not(all_of(goal))], hyps) \
                    if goal else (z3.unsat, None)
            _count(found, members, time.perf_counter() - t)
            if result != z3.unsat:
                for c in members:
                    _full_query(system, prover, found[c.prop], a, c)
    return list(found.values())


def _run_and_rank(system: System, prover: Prover, a: Action, goals: dict[str, list[Expr]],
                  hyps: list[Expr], groups: dict[str, list[Conjunct]]) -> bool:
    """Whether ``a`` preserves the run conjuncts (``goals``: the parts it changes, by
    conjunct), lowers the ranking function and leaves every ``only_when`` group of
    ``groups`` trivially true (:func:`_vacuous`), proved in one query (one search where
    several cost more) and one more per ``alone`` conjunct (assuming only that conjunct);
    on success ``a`` joins :attr:`Prover.ranked` and ``(a, group)`` :attr:`Prover.vacuous`.
    The queries assume the core of ``a``'s guard (which its guard implies), its flags and
    (some of) the run group's conjuncts: no more than any query they stand for assumes in
    full (:func:`_full_query`, :func:`check_ranking`), so "unsat" proves them all.  On
    "sat" they are asked apart, as before."""
    alone = {c.name for c in system.conjuncts if c.alone and goals.get(c.name)}
    for name in alone:
        result, _ = prover.query([a.core, *a.flags, z3.Not(all_of(goals[name]))],
                                 prover.hyps({name}))
        if result != z3.unsat:
            return False
    whens = {key: any_of([c.only_when(system.layout, a.post) for c in members
                          if c.only_when is not None])
             for key, members in groups.items()
             if key != CHIPS and all(c.only_when is not None for c in members)}
    rank = _lex_less(system.layout, a, system.state)
    goal = [p for name, parts in goals.items() if name not in alone for p in parts]
    result, _ = prover.query([a.core, *a.flags, z3.Not(all_of(
        [*goal, rank, *[z3.Not(w) for w in whens.values()]]))], hyps)
    if result != z3.unsat:
        return False
    prover.ranked.add(a.name)
    prover.vacuous.update((a.name, key) for key in whens)
    return True


def _one_by_one(system: System, prover: Prover, members: list[Conjunct], a: Action,
                guard: Expr, hyps: list[Expr]) -> bool:
    """Whether each conjunct of ``members`` is preserved by ``a``, proved one query each, an
    ``opaque`` one without the definitions of the amounts (so for any amounts: a stronger
    claim, and a much smaller query), a ``sections`` one with only those of the amounts
    moved to or from a section (the others left unknown: stronger again).  On any failure
    the group is tried as usual."""
    for c in members:
        goal = _changed(system, c, a.post)
        if not goal:
            continue
        if (c.opaque or c.sections) and _shape_holds(
                system, prover, a, goal, a.section_defs if c.sections else (), hyps):
            continue
        defs = a.flags if c.opaque else (*a.flags, *a.section_defs) if c.sections \
            else a.definitions
        result, _ = prover.query([guard, *defs, z3.Not(all_of(goal))], hyps)
        if result != z3.unsat:
            return False
    return True


_CANON: dict[tuple[int, bool], Expr] = {}


def _canonical(k: int, flag: bool) -> Expr:
    """The ``k``-th canonical flag or amount of :func:`_shape_holds` (built once)."""
    x = _CANON.get((k, flag))
    if x is None:
        x = _CANON[(k, flag)] = z3.Bool(f"shape.flag.{k}") if flag \
            else z3.Real(f"shape.amount.{k}")
    return x


def _shape_holds(system: System, prover: Prover, a: Action, goal: list[Expr],
                 keep: tuple[Expr, ...], hyps: list[Expr]) -> bool:
    """A chip goal after ``a`` holds whatever its "went out" and "stopped" flags and its
    amounts are (but those whose definitions ``keep`` gives), given only that the deal is
    not over (which the guard implies): a query that assumes less than the one it stands for.

    The amounts and flags are free constants that occur nowhere else in it, so they are
    renamed to canonical ones by position: actions whose ledgers have the same shape (most
    cards claim nothing) give the very same query, which z3 answers once per system
    (:attr:`Prover.shapes`).  Renaming free constants keeps (un)satisfiability.
    """
    free = a.free  # the constants a.definitions define, in their order
    pairs = [(x, _canonical(k, z3.is_bool(x))) for k, x in enumerate(free)]
    query = z3.substitute(all_of([*keep, z3.Not(all_of(goal))]), *pairs)
    key = (query.get_id(), *(h.get_id() for h in hyps))
    known = prover.shapes.get(key)
    if known is None:
        result, _ = prover.query([system.state.step != OVER, query], hyps)
        known = prover.shapes[key] = (bool(result == z3.unsat), query)
    return known[0]


def _count(found: dict[str, Finding], members: list[Conjunct], spent: float) -> None:
    for c in members:
        found[c.prop].seconds += spent / len(members)
        found[c.prop].queries += 1


def _vacuous(system: System, prover: Prover, members: list[Conjunct], a: Action,
             assumptions: list[Expr], hyps: list[Expr]) -> bool:
    """Whether every conjunct of ``members`` holds trivially after ``a`` (its ``only_when``
    cannot hold there), decided without building its parts."""
    if not all(c.only_when is not None for c in members):
        return False
    when = [c.only_when(system.layout, a.post) for c in members if c.only_when is not None]
    result, _ = prover.query([*assumptions, z3.Or(*when)], hyps)
    return bool(result == z3.unsat)


def _full_query(system: System, prover: Prover, f: Finding, a: Action, c: Conjunct) -> None:
    """Inv ∧ guard ∧ ¬c′ with the whole invariant: a model is a real counterexample to
    induction."""
    t = time.perf_counter()
    result, model = prover.query([a.guard, *a.definitions,
                                  z3.Not(c.term(system.layout, a.post))], prover.hyps())
    f.seconds += time.perf_counter() - t
    f.queries += 1
    _record(f, result, model, system, f"'{a.name}' breaks '{c.name}'", action=a.name,
            conjunct=c.name)


def _moves_hyps(system: System, prover: Prover) -> list[Expr]:
    """The literals of every conjunct but the chip ones: no guard reads a chip, so a check
    about guards first assumes only these (a smaller search; if it fails, the check is
    asked again with the whole invariant, so a counterexample is against all of it)."""
    return prover.hyps({c.name for c in system.conjuncts if c.group != CHIPS})


def _guards_query(system: System, prover: Prover, terms: list[Expr]
                  ) -> tuple[Any, z3.ModelRef | None]:
    """``terms`` about guards, asked first under :func:`_moves_hyps`, then under the whole
    invariant unless that proved them."""
    result, model = prover.query(terms, _moves_hyps(system, prover))
    if result == z3.unsat:
        return result, model
    return prover.query(terms, prover.hyps())


def check_progress(system: System, prover: Prover) -> Finding:
    """Inv ∧ not over ⇒ some action's guard holds (no deadlock), one query per case: a
    follow, and each seat's lead (first that seat's every lead at once, then, if that
    fails, its first lead and its restart after each suit apart)."""
    layout, s = system.layout, system.state
    f = Finding("progress", "progress")
    stuck = z3.Not(z3.Or(*[a.guard for a in system.actions]))
    cases: list[tuple[str, list[Expr]]] = [("a follow is due", [s.step == FOLLOW])]
    for p in range(layout.n):
        # one query for the seat's every lead first (fewer, and here cheaper, searches); if
        # it fails, its cases apart, so a counterexample names the case as before
        t = time.perf_counter()
        result, _ = prover.query([s.step == LEAD, s.tomove == p, stuck],
                                 _moves_hyps(system, prover))
        f.seconds += time.perf_counter() - t
        f.queries += 1
        if result == z3.unsat:
            continue
        cases.append((f"seat {p} to lead first", [s.step == LEAD, s.tomove == p,
                                                  z3.Not(s.restart)]))
        for k in range(len(layout.suits)):
            cases.append((f"seat {p} to restart after {layout.suits[k]}",
                          [s.step == LEAD, s.tomove == p, s.restart, s.stopped == k]))
    for what, where in cases:
        t = time.perf_counter()
        result, model = _guards_query(system, prover, [*where, stuck])
        f.seconds += time.perf_counter() - t
        f.queries += 1
        _record(f, result, model, system, f"no move is legal ({what})")
    return f


def check_exclusive(system: System, prover: Prover) -> Finding:
    """Guards that must exclude each other do: a seat passes only when no card may be led
    (spec §6.5), and during a run at most one card can be played (spec §6.2)."""
    s = system.state
    f = Finding("well-formedness", "exclusive guards")
    cards = [a.guard for a in system.actions if a.kind == "card"]
    cases = [("a follow and another follow", [s.step == FOLLOW, z3.AtLeast(*cards, 2)])]
    cases += [("a pass and a lead", [a.guard, z3.Or(*cards)])
              for a in system.actions if a.kind == "pass"]
    for what, terms in cases:
        t = time.perf_counter()
        result, model = _guards_query(system, prover, terms)
        f.seconds += time.perf_counter() - t
        f.queries += 1
        _record(f, result, model, system, f"{what} are both allowed")
    return f


def _lex_less(layout: Layout, a: Action, s: SymState) -> Expr:
    """0 ≤ r′ and r′ <lex r; the change of H is summed over the moved cards only."""
    q, q2 = pass_measure(layout, s), pass_measure(layout, a.post)
    num, zero, one = layout.num, layout.num(0), layout.num(1)

    def in_hand(x: Expr) -> Expr:  # z3's If(x < n, 1, 0)
        return ite_int(lt(x, num(layout.n)), one, zero)

    d_held = sum_of([sub(in_hand(a.post.loc[i]), in_hand(s.loc[i])) for i in a.moved]) \
        if a.moved else zero
    return all_of([ge(q2, zero), any_of([lt(d_held, zero), all_of([eq(d_held, zero),
                                                                     lt(q2, q)])])])


def check_ranking(system: System, prover: Prover) -> Finding:
    """Inv ∧ guard ⇒ 0 ≤ r′ <lex r, for every action (r: :func:`~boodle.verify.invariants.rank`)."""
    layout, s = system.layout, system.state
    f = Finding("termination", "ranking")
    base = prover.hyps(("cards in one place", "run bookkeeping"))
    for a in system.actions:
        if a.name in prover.ranked:  # proved with its run conjuncts (check_consecution)
            f.queries += 1
            continue
        goal = _lex_less(layout, a, s)
        t = time.perf_counter()
        result, _ = prover.query([a.core, *a.flags, z3.Not(goal)], base)
        if result != z3.unsat:
            result, model = prover.query([a.guard, *a.definitions, z3.Not(goal)], prover.hyps())
            f.queries += 1
            _record(f, result, model, system, f"'{a.name}' does not lower the ranking function",
                    action=a.name)
        f.seconds += time.perf_counter() - t
        f.queries += 1
    return f


def prove(system: System) -> list[Finding]:
    """Every symbolic check: init, consecution, progress, ranking (findings per property)."""
    prover = Prover(system)
    return [*check_init(system, prover), *check_consecution(system, prover),
            check_progress(system, prover), check_ranking(system, prover),
            check_exclusive(system, prover)]
