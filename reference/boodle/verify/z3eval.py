"""Concrete evaluation of the model's z3 terms, and values read back from z3 models.

:class:`Evaluator` compiles z3 terms (the guards and post-states of
:mod:`boodle.verify.actions`) into Python closures, through a dispatch table
keyed by z3's operator kinds, and evaluates them on concrete values of the
state variables.  This is how the agreement test asks the model itself —
the very terms z3 proves things about — which moves are enabled in an
engine state and what they lead to.  An operator outside the table raises
``NotImplementedError`` (never a silent wrong value); the table is checked
against z3's own simplifier in the tests.

:func:`state_values` reads a state out of a z3 model (for counterexamples).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import z3
from z3.z3 import _to_expr_ref

from boodle.verify.layout import Expr, Layout, SymState

__all__ = ["Evaluator", "state_values", "value_of"]

Env = dict[int, Any]
Fn = Callable[[Env], Any]


def value_of(v: Expr) -> Any:
    """A z3 numeral or boolean value as ``int``, ``Fraction`` or ``bool``."""
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        raise ValueError(f"not a rational: {v}")
    raise ValueError(f"not a value: {v}")


def _real(x: Any) -> Any:
    return Fraction(x) if isinstance(x, int) and not isinstance(x, bool) else x


def _and(args: list[Fn]) -> Fn:
    def f(env: Env) -> bool:
        return all(a(env) for a in args)
    return f


def _or(args: list[Fn]) -> Fn:
    def f(env: Env) -> bool:
        return any(a(env) for a in args)
    return f


def _ite(args: list[Fn]) -> Fn:
    c, t, e = args
    return lambda env: t(env) if c(env) else e(env)


def _sum(args: list[Fn]) -> Fn:
    return lambda env: sum(a(env) for a in args)


def _sub(args: list[Fn]) -> Fn:
    first, rest = args[0], args[1:]
    return lambda env: first(env) - sum(a(env) for a in rest)


def _mul(args: list[Fn]) -> Fn:
    def f(env: Env) -> Any:
        out: Any = 1
        for a in args:
            out = out * a(env)
        return out
    return f


def _binary(op: Callable[[Any, Any], Any]) -> Callable[[list[Fn]], Fn]:
    def make(args: list[Fn]) -> Fn:
        a, b = args
        return lambda env: op(a(env), b(env))
    return make


def _distinct(args: list[Fn]) -> Fn:
    def f(env: Env) -> bool:
        vals = [a(env) for a in args]
        return len(set(vals)) == len(vals)
    return f


_TABLE: dict[int, Callable[[list[Fn]], Fn]] = {
    z3.Z3_OP_AND: _and,
    z3.Z3_OP_OR: _or,
    z3.Z3_OP_NOT: lambda a: (lambda env: not a[0](env)),
    z3.Z3_OP_IMPLIES: _binary(lambda p, q: (not p) or q),
    z3.Z3_OP_XOR: _binary(lambda p, q: p != q),
    z3.Z3_OP_ITE: _ite,
    z3.Z3_OP_EQ: _binary(lambda p, q: p == q),
    z3.Z3_OP_DISTINCT: _distinct,
    z3.Z3_OP_LE: _binary(lambda p, q: p <= q),
    z3.Z3_OP_LT: _binary(lambda p, q: p < q),
    z3.Z3_OP_GE: _binary(lambda p, q: p >= q),
    z3.Z3_OP_GT: _binary(lambda p, q: p > q),
    z3.Z3_OP_ADD: _sum,
    z3.Z3_OP_SUB: _sub,
    z3.Z3_OP_MUL: _mul,
    z3.Z3_OP_UMINUS: lambda a: (lambda env: -a[0](env)),
    z3.Z3_OP_MOD: _binary(lambda p, q: p % q),
    z3.Z3_OP_TO_REAL: lambda a: (lambda env: _real(a[0](env))),
}
"""z3 operator kind → builder of the closure that evaluates it (a dispatch table, as mypyvy's)."""


class Evaluator:
    """Compiles z3 terms over some variables into closures; evaluates them on an environment.

    ``variables``: the z3 constants the terms may mention; ``definitions``:
    constants defined by a term (the amount constants of
    :mod:`boodle.verify.actions`), evaluated on demand.  Compiled sub-terms
    are shared, and a term of more than one argument is computed once per environment (its
    value kept in the environment: the guards share long chains of "no lower card held");
    an environment is therefore one state's, not reused for another.  A term mentioning
    any other constant raises ``KeyError``.
    """

    def __init__(self, variables: list[Expr], definitions: Mapping[Expr, Expr] | None = None):
        self.slots: dict[int, int] = {v.get_id(): k for k, v in enumerate(variables)}
        self.defs = {v.get_id(): d for v, d in (definitions or {}).items()}
        self.cache: dict[int, Fn] = {}
        self.size = len(variables)

    def compile(self, term: Expr) -> Fn:
        """The closure computing ``term`` from an environment (see :meth:`env`)."""
        return self._compile_ast(term.ctx, term.as_ast())

    def _compile_ast(self, ctx: Any, ast: Any) -> Fn:
        """:meth:`compile` of a raw AST of context ``ctx``, walked through z3's C API (the
        Python wrappers' ``decl()``, ``arg()`` cost most of the time otherwise)."""
        ref = ctx.ref()
        key = z3.Z3_get_ast_id(ref, ast)
        got = self.cache.get(key)
        if got is not None:
            return got
        fn = self._build(ctx, ast, key)
        if z3.Z3_get_ast_kind(ref, ast) == z3.Z3_APP_AST and z3.Z3_get_app_num_args(ref, ast) > 1:
            fn = _memo(key, fn)  # a sub-term terms share (the lead options' prefix chains)
        self.cache[key] = fn  # is computed once per environment
        return fn

    def _build(self, ctx: Any, ast: Any, key: int) -> Fn:
        ref = ctx.ref()
        ast_kind = z3.Z3_get_ast_kind(ref, ast)
        if ast_kind == z3.Z3_NUMERAL_AST:
            value = value_of(_to_expr_ref(ast, ctx))
            return lambda env: value
        if ast_kind != z3.Z3_APP_AST:
            raise NotImplementedError(f"no evaluation rule for {_to_expr_ref(ast, ctx)}")
        kind = z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, ast))
        count = z3.Z3_get_app_num_args(ref, ast)
        if kind == z3.Z3_OP_UNINTERPRETED and count == 0:
            if key in self.slots:
                slot = self.slots[key]
                return lambda env: env[slot]
            if key in self.defs:
                return _memo(key, self.compile(self.defs[key]))
            raise KeyError(f"no value for {_to_expr_ref(ast, ctx)}")
        if kind in (z3.Z3_OP_TRUE, z3.Z3_OP_FALSE, z3.Z3_OP_ANUM):
            value = value_of(_to_expr_ref(ast, ctx))
            return lambda env: value
        make = _TABLE.get(kind)
        if make is None:
            term = _to_expr_ref(ast, ctx)
            raise NotImplementedError(f"no evaluation rule for z3 operator {term.decl()}")
        args = [self._compile_ast(ctx, z3.Z3_get_app_arg(ref, ast, k)) for k in range(count)]
        if kind == z3.Z3_OP_ADD and z3.Z3_get_sort_kind(
                ref, z3.Z3_get_sort(ref, ast)) == z3.Z3_REAL_SORT:
            return lambda env: _real(sum(a(env) for a in args))
        return make(args)

    def env(self, values: list[Any]) -> Env:
        """An environment for one state: ``values`` aligned with the variables."""
        return dict(enumerate(values))


def _memo(key: int, inner: Fn) -> Fn:
    tag = -1 - key

    def f(env: Env) -> Any:
        if tag not in env:
            env[tag] = inner(env)
        return env[tag]
    return f


def state_values(layout: Layout, s: SymState, model: z3.ModelRef) -> dict[str, Any]:
    """The values of state ``s`` (and its ghosts) in ``model``: ``loc``, scalars, ``bal``,
    ``sec`` and ``ghosts`` (a name → value map)."""
    def val(t: Expr) -> Any:
        return value_of(model.eval(t, model_completion=True))

    g = s.ghosts
    ghosts: dict[str, Any] = {"total": val(g.total), "dealer": val(g.dealer),
                              "trump": val(g.trump)}
    ghosts.update({f"winner of {p}": val(w) for p, w in g.winners.items()})
    ghosts.update({f"taken {p} {n}": val(t) for (p, n), t in g.taken.items()})
    ghosts.update({f"drawn {n}": val(d) for n, d in g.drawn.items()})
    if g.gone:
        ghosts["eliminated"] = [k for k, o in enumerate(g.gone) if val(o) is True]
    if g.eligible:  # spec §4: the seats that may not take every section, and what they may
        ghosts["short"] = {k: [x.name for x, e in zip(layout.board, row, strict=True)
                               if val(e) is True]
                           for k, row in enumerate(g.eligible)
                           if not all(val(e) is True for e in row)}
    return {
        "loc": [val(x) for x in s.loc],
        **{k: val(v) for k, v in s.scalars().items()},
        "bal": [val(x) for x in s.bal],
        "sec": [val(x) for x in s.sec],
        "forfeit": [val(x) for x in s.forfeit],
        "ghosts": ghosts,
    }
