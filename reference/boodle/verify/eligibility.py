"""Who may take a section in the z3 model of the stops phase, stated from the ruleset alone
(spec §4 short stacks, §5.2 a set in the widow).

Two rules gate a claim on play (§6.6) and going out's takes (§7), each one table keyed by
its rule kind:

- :data:`SHORT_STACK_TERMS` (spec §4): under ``short stack: section by section`` a seat that
  was short at the ante takes only the sections it anted.  Who may take what is decided by
  the antes, before play, and never changes during it: a ghost per seat and section
  (:attr:`boodle.verify.layout.Ghosts.eligible`), constrained by :func:`eligible_axioms` to
  what the antes can leave: a seat that was not short may take every section; a short seat
  only sections it owes (the ante lines that name it with its payer), and those in board
  order, each only if every earlier one it owes too (it pays section by section until the
  first it cannot pay in full, and that one and every later one get nothing).
- :data:`WIDOW_SET_TERMS` (spec §5.2): under ``widow: blocks sets`` a set whose cards all lie
  in the widow (``same suit``: its ranks in some one suit; ``of trumps``: in the trump suit)
  is blocked for the deal: nobody takes it and its chips stay.  The widow is read, as the
  engine reads it, in the places when the claim is made (in the stops phase widow cards
  never move, so that is the widow play started with).

Neither calls the engine: the model is the verifier's own statement of the rules
(issue 16, "an independent model"), held to the engine by :mod:`boodle.verify.engine_model`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from boodle.language.cards import Card
from boodle.language.model import Section, ShortStack, SuitRule, WidowSets
from boodle.verify.layout import Expr, Layout, SymState, all_of, any_of
from boodle.verify.own_rules import WHOLE_SET

__all__ = ["SHORT_STACK_TERMS", "WIDOW_HOLDS", "WIDOW_SET_TERMS", "ShortStackTerm", "WidowSetTerm",
           "blocked", "eligible_axioms", "may_take"]

_FALSE = z3.BoolVal(False)
_TRUE = z3.BoolVal(True)


@dataclass(frozen=True)
class ShortStackTerm:
    """How the z3 model states a short-stack rule (spec §4): ``tracked``, whether who may take
    which section is part of the deal's ghosts (:attr:`~boodle.verify.layout.Ghosts.eligible`);
    ``may_take(layout, s, seat, k)``: whether the seat term ``seat`` may take section ``k``
    (board index)."""

    tracked: bool
    may_take: Callable[[Layout, SymState, Expr, int], Expr]


def _anyone(layout: Layout, s: SymState, who: Expr, k: int) -> Expr:
    return _TRUE


def _if_anted(layout: Layout, s: SymState, who: Expr, k: int) -> Expr:
    eligible = s.ghosts.eligible
    if isinstance(who, int):
        return eligible[who][k]
    return layout.memo(("may take", who.get_id(), k), lambda: any_of(
        [all_of([layout.eq(who, p), eligible[p][k]]) for p in range(layout.n)]))


SHORT_STACK_TERMS: dict[ShortStack, ShortStackTerm] = {
    "as balance": ShortStackTerm(tracked=False, may_take=_anyone),  # spec §9, §10 decide
    "section by section": ShortStackTerm(tracked=True, may_take=_if_anted),
}
"""The z3 model's short-stack rules (spec §4), one row per member of :data:`ShortStack`."""


def may_take(layout: Layout, s: SymState, who: Expr, k: int) -> Expr:
    """Whether seat ``who`` (an int or a z3 seat term) may take section ``k`` this deal
    (spec §4, :data:`SHORT_STACK_TERMS`)."""
    return SHORT_STACK_TERMS[layout.ruleset.short_stack].may_take(layout, s, who, k)


def eligible_axioms(layout: Layout, s: SymState,
                    owes: Callable[[Expr, int, int], Expr]) -> list[Expr]:
    """What the antes can leave of :attr:`~boodle.verify.layout.Ghosts.eligible` (spec §4
    ``section by section``), one term per seat: it may take every section (it was not short),
    or it was short and may take only sections it owes, the later of any two it owes in board
    order only if the earlier one too.  ``owes(dealer, seat, k)``: the term "``seat`` owes
    section ``k`` a due when ``dealer`` deals" (the ante lines' payers).  Empty when the rule
    tracks nothing."""
    eligible = s.ghosts.eligible
    if not eligible:
        return []
    dealer = s.ghosts.dealer
    out = []
    for p, row in enumerate(eligible):
        due = [owes(dealer, p, k) for k in range(len(row))]
        prefix = []
        for k, e in enumerate(row):
            prefix.append(z3.Implies(e, due[k]))
            prefix += [z3.Implies(z3.And(e, due[j]), row[j]) for j in range(k)]
        out.append(z3.Or(z3.And(*row), z3.And(*prefix)))
    return out


def _in_widow(layout: Layout, loc: Sequence[Expr], cards: Sequence[Card | None]) -> Expr:
    """Every card of ``cards`` lies in the widow (false if one is not in the deck)."""
    idx = [None if c is None else layout.index.get(c) for c in cards]
    if not idx or any(j is None for j in idx):
        return _FALSE
    return all_of([layout.eq(loc[j], layout.widow) for j in idx if j is not None])


def _fixed_in_widow(layout: Layout, s: SymState, section: Section, loc: Sequence[Expr]) -> Expr:
    return _in_widow(layout, loc, section.cards)


def _same_suit_in_widow(layout: Layout, s: SymState, section: Section,
                        loc: Sequence[Expr]) -> Expr:
    return any_of([_in_widow(layout, loc, [Card(r, suit) for r in section.ranks])
                   for suit in layout.suits])


def _trumps_in_widow(layout: Layout, s: SymState, section: Section,
                     loc: Sequence[Expr]) -> Expr:
    return any_of([all_of([layout.eq(s.ghosts.trump, k),
                           _in_widow(layout, loc, [Card(r, suit) for r in section.ranks])])
                   for k, suit in enumerate(layout.suits)])


def _drawn_in_widow(layout: Layout, s: SymState, section: Section,
                    loc: Sequence[Expr]) -> Expr:
    return _in_widow(layout, loc, section.cards) if section.cards else _FALSE


WIDOW_HOLDS: dict[SuitRule, Callable[[Layout, SymState, Section, Sequence[Expr]], Expr]] = {
    "fixed": _fixed_in_widow,
    "same suit": _same_suit_in_widow,
    "trumps": _trumps_in_widow,
    "drawn": _drawn_in_widow,  # bound for the session before play (spec §3): its card
}
"""Whether the widow holds every card that pays a set section (spec §3, §5.2), one row per
member of :data:`SuitRule`, in the places ``loc``."""


def _never(layout: Layout, s: SymState, section: Section, loc: Sequence[Expr]) -> Expr:
    return _FALSE


def _complete_in_widow(layout: Layout, s: SymState, section: Section,
                       loc: Sequence[Expr]) -> Expr:
    if not WHOLE_SET[section.kind]:
        return _FALSE
    key = ("blocked", section.name, tuple(x.get_id() for x in loc))
    return layout.memo_list(key, lambda: [WIDOW_HOLDS[section.suit_rule](
        layout, s, section, loc)], list(loc))[0]


@dataclass(frozen=True)
class WidowSetTerm:
    """How the z3 model states a widow rule for sets (spec §5.2): ``blocks``, whether a set
    can be blocked at all; ``blocked(layout, s, section, loc)``: whether ``section`` is
    blocked in the places ``loc``."""

    blocks: bool
    blocked: Callable[[Layout, SymState, Section, Sequence[Expr]], Expr]


WIDOW_SET_TERMS: dict[WidowSets, WidowSetTerm] = {
    # a widow card is never played: no claim reads the widow
    "qualifies nobody": WidowSetTerm(blocks=False, blocked=_never),
    "blocks sets": WidowSetTerm(blocks=True, blocked=_complete_in_widow),
}
"""The z3 model's widow rules for sets (spec §5.2), one row per member of
:data:`WidowSets`."""


def blocked(layout: Layout, s: SymState, section: Section, loc: Sequence[Expr]) -> Expr:
    """Whether the widow blocks ``section`` in the places ``loc`` (spec §5.2,
    :data:`WIDOW_SET_TERMS`)."""
    return WIDOW_SET_TERMS[layout.ruleset.deal.widow_sets].blocked(layout, s, section, loc)
