"""Cheap z3 term constructors for the model's hot paths.

z3's Python ``If``, ``==``, ``+``, ``<`` … check and coerce their arguments
in Python on every call, which dominates building the transition relation
(thousands of ledger updates per system).  These call the C API directly and
build the very terms z3's Python operators build (an integer operand meeting
a real one is cast with ``ToReal``, as z3 does), so nothing a proof sees
changes.  They take z3 terms (no Python numbers, but for the numerals given
here) and skip a choice between two identical terms.
"""

from __future__ import annotations

from typing import Any

import z3

from boodle.verify.layout import Expr

__all__ = ["INT0", "REAL0", "TRUE", "add", "eq", "eq_real", "ge", "gt", "implies", "is_real", "ite",
           "ite_arith", "ite_bool", "ite_int", "ite_real", "le", "lt", "ne", "neg", "not_",
           "real_const", "sub", "to_real"]

INT0: Expr = z3.IntVal(0)
"""The integer numeral 0."""

REAL0: Expr = z3.RealVal(0)
"""The real numeral 0."""

TRUE: Expr = z3.BoolVal(True)
"""The boolean constant true."""


_REAL = z3.RealSort()


def real_const(name: str) -> Expr:
    """``Real(name)``: the real constant called ``name``."""
    ctx = _REAL.ctx
    ref = ctx.ref()
    return z3.ArithRef(z3.Z3_mk_const(ref, z3.Z3_mk_string_symbol(ref, name), _REAL.ast), ctx)


def is_real(x: Expr) -> bool:
    """Whether the arithmetic term ``x`` is of sort Real (else Int)."""
    ref = x.ctx.ref()
    return bool(z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, x.as_ast())) == z3.Z3_REAL_SORT)


def to_real(x: Expr) -> Expr:
    """``ToReal(x)`` for an integer term, ``x`` itself for a real one (z3's coercion)."""
    if is_real(x):
        return x
    ctx = x.ctx
    return z3.ArithRef(z3.Z3_mk_int2real(ctx.ref(), x.as_ast()), ctx)


def _relation(make: Any, x: Expr, y: Expr) -> Expr:
    """The boolean term ``make`` (a z3 C API builder of a binary relation) makes of x, y."""
    ctx = x.ctx
    return z3.BoolRef(make(ctx.ref(), x.as_ast(), y.as_ast()), ctx)


def ite(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)`` for two arithmetic terms of one sort (``then`` itself when
    both are the same term).  Raises ``z3.Z3Exception`` if the sorts do not fit."""
    if then.as_ast().value == other.as_ast().value:  # hash-consed: one term, one pointer
        return then
    ctx = cond.ctx
    return z3.ArithRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)


def ite_int(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)`` for two integer terms, exactly as z3's ``If`` builds it (no
    shortcut for identical branches)."""
    ctx = cond.ctx
    return z3.ArithRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)


def ite_arith(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)`` for two arithmetic terms of one sort, exactly as z3's ``If``
    builds it (no shortcut for identical branches)."""
    ctx = cond.ctx
    return z3.ArithRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)


def ite_bool(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)`` for two boolean terms, exactly as z3's ``If`` builds it."""
    ctx = cond.ctx
    return z3.BoolRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)


def ite_real(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)`` for a boolean ``cond`` and two real terms; ``then`` itself
    when both branches are the same term (z3 terms are hash-consed, so equal ids mean the
    same term).  Raises ``z3.Z3Exception`` if the sorts do not fit."""
    return ite(cond, then, other)


def _pair(make: Any, x: Expr, y: Expr) -> Expr:
    """The arithmetic term ``make`` (a z3 C API builder over an array of terms) makes of
    ``[x, y]``."""
    ctx = x.ctx
    arr = (z3.Ast * 2)(x.as_ast(), y.as_ast())
    return z3.ArithRef(make(ctx.ref(), 2, arr), ctx)


def add(x: Expr, y: Expr) -> Expr:
    """``x + y`` for two terms of one arithmetic sort."""
    return _pair(z3.Z3_mk_add, x, y)


def sub(x: Expr, y: Expr) -> Expr:
    """``x - y`` for two terms of one arithmetic sort."""
    return _pair(z3.Z3_mk_sub, x, y)


def eq(x: Expr, y: Expr) -> Expr:
    """``x == y`` for two terms of one sort."""
    return _relation(z3.Z3_mk_eq, x, y)


def neg(x: Expr) -> Expr:
    """``-x`` for an arithmetic term."""
    ctx = x.ctx
    return z3.ArithRef(z3.Z3_mk_unary_minus(ctx.ref(), x.as_ast()), ctx)


def lt(x: Expr, y: Expr) -> Expr:
    """``x < y`` for two terms of one arithmetic sort."""
    return _relation(z3.Z3_mk_lt, x, y)


def gt(x: Expr, y: Expr) -> Expr:
    """``x > y`` for two terms of one arithmetic sort."""
    return _relation(z3.Z3_mk_gt, x, y)


def eq_real(var: Expr, x: Expr) -> Expr:
    """``var == x`` for a real ``var`` and an integer or real term ``x``."""
    return _relation(z3.Z3_mk_eq, var, to_real(x))


def ge(x: Expr, y: Expr) -> Expr:
    """``x >= y`` for two terms of one arithmetic sort."""
    return _relation(z3.Z3_mk_ge, x, y)


def le(x: Expr, y: Expr) -> Expr:
    """``x <= y`` for two terms of one arithmetic sort."""
    return _relation(z3.Z3_mk_le, x, y)


def ne(x: Expr, y: Expr) -> Expr:
    """``x != y`` for two terms of one sort (z3 writes it ``Distinct(x, y)``)."""
    ctx = x.ctx
    arr = (z3.Ast * 2)(x.as_ast(), y.as_ast())
    return z3.BoolRef(z3.Z3_mk_distinct(ctx.ref(), 2, arr), ctx)


def not_(x: Expr) -> Expr:
    """``Not(x)`` for a boolean term."""
    ctx = x.ctx
    return z3.BoolRef(z3.Z3_mk_not(ctx.ref(), x.as_ast()), ctx)


def implies(x: Expr, y: Expr) -> Expr:
    """``Implies(x, y)`` for two boolean terms."""
    ctx = x.ctx
    return z3.BoolRef(z3.Z3_mk_implies(ctx.ref(), x.as_ast(), y.as_ast()), ctx)
