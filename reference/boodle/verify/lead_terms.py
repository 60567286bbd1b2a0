"""Leads as z3 terms (spec §6.1, §6.4, §6.5), mirroring :mod:`boodle.leads` rule by rule.

Who leads and which cards a lead rule allows are written over a
:class:`~boodle.verify.layout.SymState`; the seat may be symbolic.  A
``holder`` rule resolves to several **branches** (the first held candidate
card, or the dealer's left leading their lowest card when none is held), so
"the rule in force" is a list of (condition, rule, leader) triples whose
conditions are exclusive and cover every state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import z3

from ..cards import SUIT_COLOUR
from ..leads import LEFT_LOWEST
from ..model import SUIT_SCOPES, LeadRule
from .layout import Expr, Layout, SymState, any_of

__all__ = ["Branch", "LeadTerms", "branches", "lead_terms", "leader_now"]


@dataclass(frozen=True)
class Branch:
    """One case of a lead rule: when ``cond`` holds, ``rule`` is in force and ``leader`` leads."""

    cond: Expr
    rule: LeadRule
    leader: Expr


def _held_by_player(layout: Layout, s: SymState, i: int) -> Expr:
    return s.loc[i] < layout.n


def branches(layout: Layout, s: SymState, rule: LeadRule) -> list[Branch]:
    """The cases of ``rule`` in state ``s`` (spec §6.1; :func:`boodle.leads.leader`)."""
    g = s.ghosts
    if rule.who == "left of dealer":
        return [Branch(z3.BoolVal(True), rule, layout.left(g.dealer))]
    if rule.who == "dealer":
        return [Branch(z3.BoolVal(True), rule, g.dealer)]
    if rule.who == "last player":
        return [Branch(z3.BoolVal(True), rule, s.last)]
    if rule.who == "next player":
        return [Branch(z3.BoolVal(True), rule, layout.left(s.last))]
    if rule.who == "phase winner":
        seat = g.winners.get(rule.phase or "", layout.left(g.dealer))
        return [Branch(z3.BoolVal(True), rule, seat)]
    return _holder_branches(layout, s, rule)


def _holder_branches(layout: Layout, s: SymState, rule: LeadRule) -> list[Branch]:
    """``holder of CARD`` / ``holder of lowest SUIT``: the first held candidate, else the
    dealer's left with their lowest card (:func:`boodle.leads.resolve_holder`)."""
    deck = layout.ruleset.deck
    if rule.holder_suit is not None:
        cands = [c for c in layout.cards if c.suit == rule.holder_suit]
    elif rule.card is not None:
        cands = [c for c in layout.cards
                 if c.suit == rule.card.suit and deck.rank_index(c) >= deck.rank_index(rule.card)]
    else:
        cands = []
    out: list[Branch] = []
    none_before: list[Expr] = []
    for c in sorted(cands, key=deck.rank_index):
        i = layout.index[c]
        held = _held_by_player(layout, s, i)
        in_force = rule if c == rule.card or rule.card is None else replace(rule, card=c)
        out.append(Branch(z3.And(*none_before, held), in_force, s.loc[i]))
        none_before.append(z3.Not(held))
    out.append(Branch(z3.And(*none_before), LEFT_LOWEST, layout.left(s.ghosts.dealer)))
    return out


def rule_branches(layout: Layout, s: SymState) -> list[Branch]:
    """The rule in force for the lead due: ``first lead`` before any stop, ``restart`` after."""
    phase = layout.phase
    first = [replace(b, cond=z3.And(z3.Not(s.restart), b.cond))
             for b in branches(layout, s, phase.first_lead)]
    again = [replace(b, cond=z3.And(s.restart, b.cond)) for b in branches(layout, s, phase.restart)]
    return first + again


def leader_now(layout: Layout, s: SymState) -> Expr:
    """Who the rule in force names to lead (before any pass)."""
    out: Expr = z3.IntVal(-1)
    for b in reversed(rule_branches(layout, s)):
        out = z3.If(b.cond, b.leader, out)
    return out


def _same_colour(layout: Layout, suit_expr: Expr, suit: int) -> Expr:
    colour = SUIT_COLOUR[layout.suits[suit]]
    return z3.Or(*[suit_expr == k for k in layout.colour_suits(colour)])


def suit_allowed(layout: Layout, s: SymState, rule: LeadRule, suit: int,
                 flipped: Expr | None = None) -> Expr:
    """Whether a lead in suit index ``suit`` fits ``rule``'s scope (as
    :func:`boodle.leads.suit_allowed`).

    The stopped suit counts only after a stop (``restart``); ``flipped``
    (default: the state's) inverts a colour scope.
    """
    flip = s.flipped if flipped is None else flipped
    stopped, known = s.stopped, s.restart
    name = layout.suits[suit]
    scope = rule.scope
    if scope == "other suit":
        return z3.Or(z3.Not(known), stopped != suit)
    if scope == "same suit":
        return z3.And(known, stopped == suit)
    if scope == "opposite colour":
        same = _same_colour(layout, stopped, suit)
        return z3.If(z3.And(flip, known), same, z3.Or(z3.Not(known), z3.Not(same)))
    if scope == "suit":
        return z3.BoolVal(name == rule.suit)
    if scope in ("black", "red"):
        return z3.If(flip, z3.BoolVal(SUIT_COLOUR[name] != scope),
                     z3.BoolVal(SUIT_COLOUR[name] == scope))
    return z3.BoolVal(True)


def option(layout: Layout, s: SymState, rule: LeadRule, seat: Expr, i: int,
           allowed: dict[int, Expr] | None = None) -> Expr:
    """Whether ``seat`` may lead card ``i`` under ``rule`` (:func:`boodle.leads.options`).

    ``allowed``: suit index → :func:`suit_allowed` terms, when already built.
    """
    card = layout.cards[i]
    held = layout.eq(s.loc[i], seat)
    if rule.choice == "card":
        return held if card == rule.card else z3.BoolVal(False)
    ok = allowed if allowed is not None else {
        k: suit_allowed(layout, s, rule, k) for k in range(len(layout.suits))}
    suit = layout.suit_of(i)
    if rule.choice == "any":
        return z3.And(held, ok[suit])
    if rule.scope in SUIT_SCOPES:
        lower = [z3.Not(layout.eq(s.loc[j], seat)) for j in layout.same_suit_below(i)]
        terms = [held, ok[suit], *lower]
        if rule.scope == "longest suit":
            count = _suit_counts(layout, s, seat)
            terms += [z3.Implies(ok[t], count[suit] >= count[t])
                      for t in range(len(layout.suits)) if t != suit]
        return z3.And(*terms)
    below = [j for j in range(len(layout.cards)) if layout.rank_of(j) < layout.rank_of(i)]
    lower_allowed = [z3.Not(z3.And(layout.eq(s.loc[j], seat), ok[layout.suit_of(j)]))
                     for j in below]
    return z3.And(held, ok[suit], *lower_allowed)


def _suit_counts(layout: Layout, s: SymState, seat: Expr) -> list[Expr]:
    return [z3.Sum([z3.If(layout.eq(s.loc[j], seat), 1, 0) for j in range(len(layout.cards))
                    if layout.suit_of(j) == t]) for t in range(len(layout.suits))]


@dataclass(frozen=True)
class LeadTerms:
    """The lead options of the seat to move in one state, built once and shared by every action.

    ``main[i]``: card ``i`` is an option of the rule in force; ``any_main``:
    some card is; ``fallback[i]``: card ``i`` is an option of a ``lead``
    fallback (all false for a ``pass`` fallback); ``lead[i]``: card ``i`` may
    be led (spec §6.5: the fallback applies only when the rule finds nothing);
    ``must_pass``: the seat passes; ``fined[i]``: card ``i`` may be led with a
    fine under ``penalty: lead not lowest`` (spec §6.8).
    """

    main: tuple[Expr, ...]
    any_main: Expr
    fallback: tuple[Expr, ...]
    lead: tuple[Expr, ...]
    must_pass: Expr
    fined: tuple[Expr, ...] = ()


def options_of(layout: Layout, s: SymState, rules: list[Branch], seat: Expr) -> list[Expr]:
    """Per card, whether ``seat`` may lead it under the branches ``rules`` of the rule in force."""
    per_rule = []
    for b in rules:
        ok = {k: suit_allowed(layout, s, b.rule, k) for k in range(len(layout.suits))}
        per_rule.append([option(layout, s, b.rule, seat, i, ok) for i in range(len(layout.cards))])
    return [z3.Or(*[z3.And(b.cond, opts[i]) for b, opts in zip(rules, per_rule, strict=True)])
            for i in range(len(layout.cards))]


def has_option(layout: Layout, s: SymState, seat: Expr) -> Expr:
    """Whether ``seat`` has some option under the rule in force (used by the pass invariant)."""
    return any_of(options_of(layout, s, rule_branches(layout, s), seat))


def lead_terms(layout: Layout, s: SymState) -> LeadTerms:
    """The :class:`LeadTerms` of the seat to move in ``s``."""
    seat = s.tomove
    main = options_of(layout, s, rule_branches(layout, s), seat)
    any_main = any_of(main)
    fb = layout.phase.fallback
    if fb.kind == "lead" and fb.rule is not None:
        ok = {k: suit_allowed(layout, s, fb.rule, k) for k in range(len(layout.suits))}
        fallback = [option(layout, s, fb.rule, seat, i, ok) for i in range(len(layout.cards))]
    else:
        fallback = [z3.BoolVal(False)] * len(layout.cards)
    lead = [z3.Or(m, z3.And(z3.Not(any_main), f)) for m, f in zip(main, fallback, strict=True)]
    must_pass = z3.And(z3.Not(any_main), z3.BoolVal(fb.kind == "pass"))
    fined = _fined(layout, s, main, any_main, fallback)
    return LeadTerms(tuple(main), any_main, tuple(fallback), tuple(lead), must_pass, fined)


def _fined(layout: Layout, s: SymState, main: list[Expr], any_main: Expr,
           fallback: list[Expr]) -> tuple[Expr, ...]:
    """Spec §6.8 (:func:`boodle.leads.penalised_leads`): under ``penalty: lead not lowest``, a
    held card the rule in force allows in every way but being the lowest may be led."""
    cards = range(len(layout.cards))
    if not any(p.fault == "lead not lowest" for p in layout.phase.penalties):
        return tuple(z3.BoolVal(False) for _ in cards)
    cases = [z3.And(any_main, b.cond, _fine(layout, s, b.rule, main, i))
             for b in rule_branches(layout, s) for i in cards]
    per_card = [z3.Or(*cases[i::len(layout.cards)]) for i in cards]
    fb = layout.phase.fallback.rule
    if fb is not None:
        found = any_of(fallback)
        per_card = [z3.Or(c, z3.And(z3.Not(any_main), found, _fine(layout, s, fb, fallback, i)))
                    for i, c in enumerate(per_card)]
    return tuple(per_card)


def _fine(layout: Layout, s: SymState, rule: LeadRule, found: list[Expr], i: int) -> Expr:
    """Card ``i`` is a fined lead under ``rule`` whose options are ``found``."""
    if rule.choice != "lowest":
        return z3.BoolVal(False)
    suit = layout.suit_of(i)
    terms = [layout.eq(s.loc[i], s.tomove), z3.Not(found[i]),
             suit_allowed(layout, s, rule, suit)]
    if rule.scope == "longest suit":
        terms.append(z3.Or(*[found[j] for j in range(len(layout.cards))
                             if layout.suit_of(j) == suit]))
    return z3.And(*terms)
