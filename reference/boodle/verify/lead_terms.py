"""Leads as z3 terms (spec §6.1, §6.4, §6.5), mirroring :mod:`boodle.engine.leads` rule by rule.

Who leads and which cards a lead rule allows are written over a
:class:`~boodle.verify.layout.SymState`; the seat may be symbolic.  A
``holder`` rule resolves to several **branches** (the first held candidate
card, or the dealer's left leading their lowest card when none is held), so
"the rule in force" is a list of (condition, rule, leader) triples whose
conditions are exclusive and cover every state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import z3

from boodle.language.cards import SUIT_COLOUR, Card
from boodle.language.model import (
    Choice,
    Fallback,
    FallbackKind,
    Fault,
    LeadRule,
    Scope,
    TieBreak,
    Who,
)
from boodle.verify.layout import Expr, Layout, SymState, all_of, any_of, sum_of
from boodle.verify.own_rules import rank_position

LEFT_LOWEST = LeadRule("left of dealer", "lowest", "all")
"""Spec §6.1: no candidate of a ``holder of`` rule is held, so the dealer's left leads their
lowest card (stated here, apart from the engine's own constant)."""

__all__ = ["CHOICE_TERMS", "FALLBACK_TERMS", "FAULT_TERMS", "Branch", "ChoiceTerm", "FaultTerm",
           "LeadTerms", "SUIT_WALKS", "branches", "lead_terms", "leader_now", "passes"]


@dataclass(frozen=True)
class Branch:
    """One case of a lead rule: when ``cond`` holds, ``rule`` is in force and ``leader`` leads."""

    cond: Expr
    rule: LeadRule
    leader: Expr


def _held_by_player(layout: Layout, s: SymState, i: int) -> Expr:
    return s.loc[i] < layout.n


def branches(layout: Layout, s: SymState, rule: LeadRule) -> list[Branch]:
    """The cases of ``rule`` in state ``s`` (spec §6.1; :func:`boodle.engine.leads.leader`)."""
    return LEADER_BRANCHES[rule.who](layout, s, rule)


def _one(rule: LeadRule, seat: Expr) -> list[Branch]:
    return [Branch(z3.BoolVal(True), rule, seat)]


def _phase_winner_branches(layout: Layout, s: SymState, rule: LeadRule) -> list[Branch]:
    return _one(rule, s.ghosts.winners.get(rule.phase or "", layout.left(s.ghosts.dealer,
                                                                            s.ghosts.gone)))


LEADER_BRANCHES: dict[Who, Callable[[Layout, SymState, LeadRule], list[Branch]]] = {
    "left of dealer": lambda layout, s, rule: _one(rule, layout.left(s.ghosts.dealer,
                                                                     s.ghosts.gone)),
    "dealer": lambda layout, s, rule: _one(rule, s.ghosts.dealer),
    "last player": lambda layout, s, rule: _one(rule, s.last),
    "next player": lambda layout, s, rule: _one(rule, layout.left(s.last, s.ghosts.gone)),
    "phase winner": _phase_winner_branches,
    "holder": lambda layout, s, rule: _holder_branches(layout, s, rule),
}
"""The model's own statement of every ``who`` (spec §6.1): the cases of who leads, each with
its condition, in the model's terms (independent of :data:`boodle.engine.leads.LEADERS`);
"left" skips eliminated seats (spec §10, :meth:`~boodle.verify.layout.Layout.left`)."""


def _holder_branches(layout: Layout, s: SymState, rule: LeadRule) -> list[Branch]:
    """``holder of CARD`` / ``holder of lowest SUIT``: the first held candidate, else the
    dealer's left with their lowest card (:func:`boodle.engine.leads.resolve_holder`)."""
    deck = layout.ruleset.deck

    def rank(c: Card) -> int:
        return rank_position(deck, c)

    cands: list[tuple[Card, LeadRule]] = []
    if rule.holder_suit is not None:  # the walk: each suit low to high, in the order written
        for suit in (rule.holder_suit, *rule.holder_walk):
            walked = replace(rule, suit=suit) if SUIT_WALKS[rule.scope] \
                and rule.suit == rule.holder_suit else rule
            cands += [(c, walked) for c in sorted((c for c in layout.cards if c.suit == suit),
                                                  key=rank)]
    elif rule.card is not None:
        cands = [(c, rule if c == rule.card else replace(rule, card=c))
                 for c in sorted((c for c in layout.cards if c.suit == rule.card.suit
                                  and rank(c) >= rank(rule.card)),
                                 key=rank)]
    out: list[Branch] = []
    none_before: list[Expr] = []
    for c, in_force in cands:
        i = layout.index[c]
        held = _held_by_player(layout, s, i)
        out.append(Branch(all_of([*none_before, held]), in_force, s.loc[i]))
        none_before.append(z3.Not(held))
    out.append(Branch(all_of(none_before), LEFT_LOWEST,
                      layout.left(s.ghosts.dealer, s.ghosts.gone)))
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


SuitTerm = Callable[[Layout, SymState, LeadRule, str, int, Expr], Expr]
"""A scope's term: whether a lead in suit ``name`` (index ``suit``) fits the rule, in state
``s``, with ``flip`` standing for the colour flip."""


def _every_suit(layout: Layout, s: SymState, rule: LeadRule, name: str, suit: int,
                flip: Expr) -> Expr:
    return z3.BoolVal(True)


def _not_stopped_suit(layout: Layout, s: SymState, rule: LeadRule, name: str, suit: int,
                      flip: Expr) -> Expr:
    return z3.Or(z3.Not(s.restart), s.stopped != suit)


def _stopped_suit(layout: Layout, s: SymState, rule: LeadRule, name: str, suit: int,
                  flip: Expr) -> Expr:
    return z3.And(s.restart, s.stopped == suit)


def _other_colour(layout: Layout, s: SymState, rule: LeadRule, name: str, suit: int,
                  flip: Expr) -> Expr:
    same = _same_colour(layout, s.stopped, suit)
    return z3.If(z3.And(flip, s.restart), same, z3.Or(z3.Not(s.restart), z3.Not(same)))


def _the_named_suit(layout: Layout, s: SymState, rule: LeadRule, name: str, suit: int,
                    flip: Expr) -> Expr:
    return z3.BoolVal(name == rule.suit)


def _the_colour(layout: Layout, s: SymState, rule: LeadRule, name: str, suit: int,
                flip: Expr) -> Expr:
    return z3.If(flip, z3.BoolVal(SUIT_COLOUR[name] != rule.scope),
                 z3.BoolVal(SUIT_COLOUR[name] == rule.scope))


SUIT_WALKS: dict[Scope, bool] = {
    "chosen suit": False,
    "longest suit": False,
    "other suit": False,
    "same suit": False,
    "opposite colour": False,
    "opposite colour card": False,
    "suit": True,
    "black": False,
    "red": False,
    "all": False,
}
"""Per scope: does a ``holder of lowest SUIT`` walk carry the scope's named suit along, so
that ``lowest`` of the holder's suit becomes ``lowest`` of the suit reached (spec §6.1);
the z3 model's own row, apart from the engine's."""


SCOPE_TERMS: dict[Scope, tuple[SuitTerm, Literal["each suit", "longest suits", "whole set"]]] = {
    "chosen suit": (_every_suit, "each suit"),
    "longest suit": (_every_suit, "longest suits"),
    "other suit": (_not_stopped_suit, "each suit"),
    "same suit": (_stopped_suit, "each suit"),
    "opposite colour": (_other_colour, "each suit"),
    "opposite colour card": (_other_colour, "whole set"),
    "suit": (_the_named_suit, "whole set"),
    "black": (_the_colour, "whole set"),
    "red": (_the_colour, "whole set"),
    "all": (_every_suit, "whole set"),
}
"""The model's own statement of every lead scope (spec §6.1, §6.4, §6.5), written apart from
the engine's (:data:`boodle.engine.leads.SCOPES`) so that the two can be compared: the suits it
allows as a term, and what ``lowest`` picks (the lowest of each allowed suit, of each longest
one, or the lowest rank of the whole set)."""


def suit_allowed(layout: Layout, s: SymState, rule: LeadRule, suit: int,
                 flipped: Expr | None = None) -> Expr:
    """Whether a lead in suit index ``suit`` fits ``rule``'s scope (as
    :func:`boodle.engine.leads.suit_allowed`).

    The stopped suit counts only after a stop (``restart``); ``flipped``
    (default: the state's) inverts a colour scope.
    """
    flip = s.flipped if flipped is None else flipped
    return SCOPE_TERMS[rule.scope][0](layout, s, rule, layout.suits[suit], suit, flip)


def option(layout: Layout, s: SymState, rule: LeadRule, seat: Expr, i: int,
           allowed: dict[int, Expr] | None = None) -> Expr:
    """Whether ``seat`` may lead card ``i`` under ``rule`` (:func:`boodle.engine.leads.options`).

    ``allowed``: suit index → :func:`suit_allowed` terms, when already built.
    The term is one of :func:`options`, which builds every card's at once.
    """
    return options(layout, s, rule, seat, allowed)[i]


def state_terms(s: SymState) -> list[Expr]:
    """Every term of ``s`` and its ghosts (what :func:`state_key` names)."""
    return [*s.flat(), *s.ghosts.variables()]


def state_key(s: SymState) -> tuple[int, ...]:
    """The ids of every term of ``s`` and its ghosts: equal keys, equal states (z3 terms are
    hash-consed in a context), so terms built from a state can be memoised by it (with the
    terms kept alive, see :meth:`~boodle.verify.layout.Layout.memo_list`)."""
    return tuple(x.get_id() for x in state_terms(s))


def _key(x: Expr) -> object:
    return x if isinstance(x, int) else ("term", x.get_id())


def options(layout: Layout, s: SymState, rule: LeadRule, seat: Expr,
            allowed: dict[int, Expr] | None = None) -> list[Expr]:
    """Per card, whether ``seat`` may lead it under ``rule`` (:func:`boodle.engine.leads.options`),
    built once per (state, seat, rule) and in size linear in the deck.

    ``lowest`` compares each card with the cards below it through prefix
    chains shared by every card (z3 terms are DAGs): in a suit scope,
    ``below[r]`` = some card of the suit ranked under the r-th is held; else
    ``lower[r]`` = some held card of rank under r is in an allowed suit.
    """
    ok = allowed if allowed is not None else {
        k: suit_allowed(layout, s, rule, k) for k in range(len(layout.suits))}
    key = ("options", state_key(s), _key(seat), rule,
           tuple(ok[k].get_id() for k in sorted(ok)))
    keep = [*state_terms(s), *ok.values(), *([] if isinstance(seat, int) else [seat])]
    return list(layout.memo_list(key, lambda: _options(layout, s, rule, seat, ok), keep))


def _options(layout: Layout, s: SymState, rule: LeadRule, seat: Expr,
             ok: dict[int, Expr]) -> list[Expr]:
    held = [layout.eq(s.loc[i], seat) for i in range(len(layout.cards))]
    return CHOICE_TERMS[rule.choice].options(layout, s, rule, seat, held, ok)


def _the_card_terms(layout: Layout, s: SymState, rule: LeadRule, seat: Expr,
                    held: list[Expr], ok: dict[int, Expr]) -> list[Expr]:
    """Spec §6.1 an exact card: that card, if the seat holds it."""
    return [held[i] if layout.cards[i] == rule.card else z3.BoolVal(False)
            for i in range(len(layout.cards))]


def _any_allowed_terms(layout: Layout, s: SymState, rule: LeadRule, seat: Expr,
                       held: list[Expr], ok: dict[int, Expr]) -> list[Expr]:
    """Spec §6.4 ``any …``: every held card in an allowed suit."""
    return [all_of([held[i], ok[layout.suit_of(i)]]) for i in range(len(layout.cards))]


def _lowest_allowed_terms(layout: Layout, s: SymState, rule: LeadRule, seat: Expr,
                          held: list[Expr], ok: dict[int, Expr]) -> list[Expr]:
    """Spec §6.4 ``lowest …``: held, allowed, and no allowed held card below it (of its
    suit for a per-suit scope, among the longest suits for ``longest suit``), ties settled
    by :data:`TIE_TERMS`."""
    cards = range(len(layout.cards))
    lowest = SCOPE_TERMS[rule.scope][1]
    if lowest != "whole set":
        below = _below_in_suit(layout, held)
        out = [all_of([held[i], ok[layout.suit_of(i)], z3.Not(below[i])]) for i in cards]
        if lowest == "longest suits":
            count = _suit_counts(layout, s, seat)
            longest = [all_of([z3.Implies(ok[t], count[k] >= count[t])
                               for t in range(len(layout.suits)) if t != k])
                       for k in range(len(layout.suits))]
            out = [all_of([o, longest[layout.suit_of(i)]]) for i, o in enumerate(out)]
        return out
    lower = _lower_allowed(layout, held, ok)
    out = [all_of([held[i], ok[layout.suit_of(i)], z3.Not(lower[i])]) for i in cards]
    order = TIE_TERMS[rule.ties](layout, rule)
    if order is None:
        return out
    # spec §6.1: of equal ranks only the first in the order; a card loses to a held allowed
    # card of its rank in an earlier suit
    pos = {suit: k for k, suit in enumerate(order)}

    def beaten(i: int) -> Expr:
        mine = pos[layout.cards[i].suit]
        return any_of([all_of([held[j], ok[layout.suit_of(j)]]) for j in cards
                       if layout.rank_of(j) == layout.rank_of(i)
                       and pos[layout.cards[j].suit] < mine])
    return [all_of([o, z3.Not(beaten(i))]) if not z3.is_false(o) else o
            for i, o in enumerate(out)]


@dataclass(frozen=True)
class ChoiceTerm:
    """The model's own statement of a lead choice (spec §6.1, §6.4): ``options``, per card,
    whether the seat may lead it (given the cards held and the allowed suits); ``ranked``,
    only the lowest is allowed, so a lead that is not may be fined (spec §6.8)."""

    options: Callable[[Layout, SymState, LeadRule, Expr, list[Expr], dict[int, Expr]],
                      list[Expr]]
    ranked: bool


CHOICE_TERMS: dict[Choice, ChoiceTerm] = {
    "lowest": ChoiceTerm(_lowest_allowed_terms, ranked=True),
    "any": ChoiceTerm(_any_allowed_terms, ranked=False),
    "card": ChoiceTerm(_the_card_terms, ranked=False),
}
"""Every lead choice as z3 terms, one row per member of :data:`~boodle.language.model.Choice`
(stated apart from :data:`boodle.engine.leads.CHOICES`)."""


TIE_TERMS: dict[TieBreak, Callable[[Layout, LeadRule], tuple[str, ...] | None]] = {
    "chosen": lambda layout, rule: None,
    "suit order": lambda layout, rule: rule.tie_suits,
    "hand order": lambda layout, rule: layout.ruleset.deck.suits,
}
"""The model's own statement of every tie rule (spec §6.1): the suit order that settles
equal ranks, or ``None`` when the leader chooses among them."""


def _below_in_suit(layout: Layout, held: list[Expr]) -> list[Expr]:
    """Per card, some card of its suit ranked below it is held (a prefix chain per suit)."""
    out: list[Expr] = [z3.BoolVal(False)] * len(layout.cards)
    for k in range(len(layout.suits)):
        suit = sorted((i for i in range(len(layout.cards)) if layout.suit_of(i) == k),
                      key=layout.rank_of)
        chain: Expr = z3.BoolVal(False)
        for i in suit:
            out[i] = chain
            chain = held[i] if z3.is_false(chain) else any_of([chain, held[i]])
    return out


def _lower_allowed(layout: Layout, held: list[Expr], ok: dict[int, Expr]) -> list[Expr]:
    """Per card, some held card of lower rank is in an allowed suit (a prefix chain by rank)."""
    by_rank: dict[int, list[int]] = {}
    for i in range(len(layout.cards)):
        by_rank.setdefault(layout.rank_of(i), []).append(i)
    out: list[Expr] = [z3.BoolVal(False)] * len(layout.cards)
    chain: Expr = z3.BoolVal(False)
    for r in sorted(by_rank):
        for i in by_rank[r]:
            out[i] = chain
        here = [all_of([held[i], ok[layout.suit_of(i)]]) for i in by_rank[r]]
        chain = any_of(here if z3.is_false(chain) else [chain, *here])
    return out


def _suit_counts(layout: Layout, s: SymState, seat: Expr) -> list[Expr]:
    return [sum_of([z3.If(layout.eq(s.loc[j], seat), 1, 0) for j in range(len(layout.cards))
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
    def build() -> list[Expr]:
        per_rule = [options(layout, s, b.rule, seat) for b in rules]
        return [any_of([all_of([b.cond, opts[i]]) for b, opts in zip(rules, per_rule, strict=True)])
                for i in range(len(layout.cards))]

    conds = [b.cond for b in rules]
    key = ("options of", state_key(s), _key(seat), tuple(b.rule for b in rules),
           tuple(c.get_id() for c in conds))
    keep = [*state_terms(s), *conds, *([] if isinstance(seat, int) else [seat])]
    return list(layout.memo_list(key, build, keep))


def has_option(layout: Layout, s: SymState, seat: Expr) -> Expr:
    """Whether ``seat`` has some option under the rule in force (used by the pass invariant)."""
    return any_of(options_of(layout, s, rule_branches(layout, s), seat))


def lead_terms(layout: Layout, s: SymState) -> LeadTerms:
    """The :class:`LeadTerms` of the seat to move in ``s``."""
    seat = s.tomove
    main = options_of(layout, s, rule_branches(layout, s), seat)
    any_main = any_of(main)
    fb = layout.phase.fallback
    row = FALLBACK_TERMS[fb.kind]
    fallback = row.options(layout, s, fb, seat)
    lead = [z3.Or(m, z3.And(z3.Not(any_main), f)) for m, f in zip(main, fallback, strict=True)]
    must_pass = z3.And(z3.Not(any_main), z3.BoolVal(row.passes))
    fined = _fined(layout, s, main, any_main, fallback)
    return LeadTerms(tuple(main), any_main, tuple(fallback), tuple(lead), must_pass, fined)


def _lead_instead(layout: Layout, s: SymState, fb: Fallback, seat: Expr) -> list[Expr]:
    if fb.rule is None:  # refused by the builder and by start_deal
        return [z3.BoolVal(False)] * len(layout.cards)
    return options(layout, s, fb.rule, seat)


def _no_card_instead(layout: Layout, s: SymState, fb: Fallback, seat: Expr) -> list[Expr]:
    return [z3.BoolVal(False)] * len(layout.cards)


@dataclass(frozen=True)
class FallbackTerm:
    """How the z3 model states an ``if none`` rule (spec §6.5): ``options``, per card,
    whether the seat may lead it instead; ``passes``, a seat with no card passes (the pass
    action exists, and the ranking function counts passes)."""

    options: Callable[[Layout, SymState, Fallback, Expr], list[Expr]]
    passes: bool


FALLBACK_TERMS: dict[FallbackKind, FallbackTerm] = {
    "lead": FallbackTerm(_lead_instead, passes=False),
    "pass": FallbackTerm(_no_card_instead, passes=True),
}
"""The z3 model's ``if none`` rules, one row per member of :data:`FallbackKind`."""


def passes(layout: Layout) -> bool:
    """Whether a seat of ``layout``'s stops phase may pass (:data:`FALLBACK_TERMS`)."""
    return FALLBACK_TERMS[layout.phase.fallback.kind].passes


@dataclass(frozen=True)
class FaultTerm:
    """When the z3 model charges a penalty for a fault (spec §6.8): ``at_pass``, in the pass
    transition, after the fallback's fee (:func:`boodle.verify.actions`'s pass); ``not_lowest``,
    a lead the rule allows in every way but being the lowest is a transition of its own, its
    leader charged (:func:`_fined`)."""

    at_pass: bool
    not_lowest: bool


FAULT_TERMS: dict[Fault, FaultTerm] = {
    "cannot lead": FaultTerm(at_pass=True, not_lowest=False),
    "lead not lowest": FaultTerm(at_pass=False, not_lowest=True),
}
"""The z3 model's penalties, one row per member of :data:`Fault`."""


def _fined(layout: Layout, s: SymState, main: list[Expr], any_main: Expr,
           fallback: list[Expr]) -> tuple[Expr, ...]:
    """Spec §6.8 (:func:`boodle.engine.leads.penalised_leads`): under ``penalty: lead not
    lowest``, a held card the rule in force allows in every way but being the lowest may be led."""
    cards = range(len(layout.cards))
    if not any(FAULT_TERMS[p.fault].not_lowest for p in layout.phase.penalties):
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
    if not CHOICE_TERMS[rule.choice].ranked:
        return z3.BoolVal(False)
    suit = layout.suit_of(i)
    terms = [layout.eq(s.loc[i], s.tomove), z3.Not(found[i]),
             suit_allowed(layout, s, rule, suit)]
    if SCOPE_TERMS[rule.scope][1] == "longest suits":
        terms.append(z3.Or(*[found[j] for j in range(len(layout.cards))
                             if layout.suit_of(j) == suit]))
    return z3.And(*terms)
