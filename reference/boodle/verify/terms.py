"""Cheap z3 term constructors for the model's hot paths.

z3's Python ``If`` checks and coerces its arguments in Python on every call,
which dominates building the transition relation (thousands of ledger
updates per system).  These call the C API directly on terms that are
already of the right sort, and skip a choice between two identical terms.
"""

from __future__ import annotations

import z3

from .layout import Expr

__all__ = ["ite_real"]


def ite_real(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)`` for a boolean ``cond`` and two real terms; ``then`` itself
    when both branches are the same term (z3 terms are hash-consed, so equal ids mean the
    same term).  Raises ``z3.Z3Exception`` if the sorts do not fit."""
    if then.get_id() == other.get_id():
        return then
    ctx = cond.ctx
    return z3.ArithRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)
