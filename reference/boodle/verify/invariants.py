"""Init, the inductive invariant and the ranking function of the stops phase, as z3 terms.

- :func:`axioms`: what the ghosts range over (a dealer is a seat, a drawn
  boodle is a card of the deck, each drawn card is different …).
- :func:`initial`: the states in which the stops phase can begin.  With
  ``exact`` (a variant whose deal goes straight from antes and dealing to
  play): the hand sizes of spec §5.2 and the antes of spec §4 paid from any
  ledger.  Otherwise an over-approximation that covers whatever the stages
  before play can leave (a widow exchange, holding and poker payouts,
  claims on holding, trumps turned up): any deal in which every player holds
  at least one card and no card is played, any chips with the sections
  non-negative; where seats may be out (spec §10), any eliminated seats but
  two, each holding no card and no chip.  Under ``balance: eliminated at
  zero`` the exact start pays the antes capped at each balance, from a
  ledger with every seat still in above zero and each eliminated one at
  zero, and deals nothing to an eliminated seat.
- :func:`conjuncts`: the inductive invariant, conjunct by conjunct, each
  tagged with the property it serves (spec/verification.md lists them).
- :func:`rank`: the ranking function (cards in players' hands, then a pass
  measure where the variant passes) and its bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

from boodle.language.model import HoldingPhase, Payer, PokerPhase
from boodle.verify.actions import ALL_PASS_TERMS, CLAIM_TERMS
from boodle.verify.eligibility import SHORT_STACK_TERMS, eligible_axioms
from boodle.verify.layout import (
    FOLLOW,
    LEAD,
    NONE,
    OVER,
    Expr,
    Layout,
    SymState,
    all_of,
    any_of,
    sum_of,
)
from boodle.verify.lead_terms import (
    has_option,
    leader_now,
    passes,
    rule_branches,
    suit_allowed,
)
from boodle.verify.own_rules import (
    ELIMINATES,
    PER_CARD,
    TURNED_UP,
    WIDOW_DEALT,
    ante_sections,
    hand_sizes,
    seats_may_be_out,
)
from boodle.verify.terms import (
    REAL0,
    add,
    eq,
    ge,
    implies,
    is_real,
    ite_bool,
    ite_int,
    le,
    lt,
    ne,
    not_,
    sub,
)

__all__ = ["Conjunct", "axioms", "conjuncts", "exact_start", "initial", "rank"]


@dataclass(frozen=True)
class Conjunct:
    """One conjunct of the invariant: ``name``, the ``prop`` it serves, and its parts.

    ``parts(layout, s)`` returns the terms whose conjunction is the conjunct
    (one per card, per seat …), so that a proof about an action only needs
    the parts the action changes.  ``needs``: the conjuncts assumed when
    proving it is preserved; ``group``: conjuncts of one group are proved in
    one query; ``heavy``: its first try takes the action's full guard (what a
    pass needs: that the passer had no lead), not only its core;
    ``only_when``: a cheap term outside which every part holds trivially (a
    part is an implication from it), so an action after which it cannot hold
    preserves the conjunct without its parts being built; ``opaque``: it is
    preserved whatever the chip amounts moved are (every transfer debits what
    it credits), so it is first tried with the amounts' definitions left out;
    ``sections``: it reads only the sections, so it is first tried with only
    the definitions of the amounts moved to or from a section; ``alone``: in the
    first try of a card's run query its parts are proved in a query of their own
    that assumes only this conjunct (z3 then decides far fewer atoms: two small
    searches cost less than one large one).
    """

    name: str
    prop: str
    parts: Callable[[Layout, SymState], list[Expr]]
    needs: tuple[str, ...] = ()
    group: str = ""
    heavy: bool = False
    only_when: Callable[[Layout, SymState], Expr] | None = None
    opaque: bool = False
    sections: bool = False
    alone: bool = False

    def term(self, layout: Layout, s: SymState) -> Expr:
        """The conjunct at state ``s``."""
        return z3.And(*self.parts(layout, s))


def axioms(layout: Layout, s: SymState) -> Expr:
    """The ranges of the ghosts of ``s`` (they never change during play)."""
    g, n = s.ghosts, layout.n
    terms = [g.dealer >= 0, g.dealer < n]
    if not TURNED_UP[layout.ruleset.deal.trumps]:
        terms.append(g.trump == NONE)
    else:
        terms += [g.trump >= 0, g.trump < len(layout.suits)]
    terms += [z3.And(w >= 0, w < n) for w in g.winners.values()]
    if g.gone:  # spec §10: an eliminated seat never deals nor wins; two seats at least are in
        seat_in = _seat_in(layout, g.gone)
        terms += [seat_in(g.dealer), *[seat_in(w) for w in g.winners.values()],
                  layout.seats_in(g.gone) >= 2]
    drawn = list(g.drawn.values())
    terms += [z3.And(d >= 0, d < len(layout.cards)) for d in drawn]
    if len(drawn) > 1:
        terms.append(z3.Distinct(*drawn))
    terms += [z3.Not(z3.And(w, o)) for w, o in zip(g.widow0, g.out0, strict=True)]
    terms += eligible_axioms(layout, s, lambda dealer, k, t: _owes(layout, dealer, k, t))
    return z3.And(*terms)


def _targets(layout: Layout, targets: tuple[str, ...]) -> list[int]:
    """The board indices an ante line's targets name (spec §4: ``each boodle``, every boodle
    section; ``every section``, all; else the section named), stated here from the board."""
    out: list[int] = []
    for t in targets:
        out += ([k for k, x in enumerate(layout.board) if PER_CARD[x.kind]]
                if t == "each boodle" else list(range(len(layout.board)))
                if t == "every section" else [layout.section_index(t)])
    return out


def _owes(layout: Layout, dealer: Expr, k: int, section: int) -> Expr:
    """Seat ``k`` owes ``section`` a due this deal when ``dealer`` deals (spec §4: some ante
    line names the section, with ``k`` among its payers)."""
    pays = [PAYER_TERMS[line.payer](dealer, k) for line in layout.ruleset.antes
            if line.amount > 0 and section in _targets(layout, line.targets)]
    return z3.Or(*pays) if pays else z3.BoolVal(False)


def exact_start(layout: Layout) -> bool:
    """Whether play starts right after the antes and the deal, with nothing in between."""
    rs = layout.ruleset
    return (rs.widow_sale is None and not TURNED_UP[rs.deal.trumps]
            and not any(isinstance(p, HoldingPhase | PokerPhase) for p in rs.phases)
            and not CLAIM_TERMS[layout.phase.claims].at_start
            and not any(a.chosen for a in rs.antes)
            and (not ELIMINATES[rs.session.negative]
                 or not SHORT_STACK_TERMS[rs.short_stack].tracked))


def _start_control(layout: Layout, s: SymState) -> list[Expr]:
    return [s.step == LEAD, s.restart == False, s.stopped == NONE, s.last == NONE,  # noqa: E712
            s.cur == NONE, s.passes == 0, s.flipped == False, s.winner == NONE,  # noqa: E712
            s.tomove == leader_now(layout, s), *[z3.Not(f) for f in s.forfeit]]


def initial(layout: Layout, s: SymState, exact: bool) -> tuple[Expr, list[Expr]]:
    """The start of play as a constraint on ``s``, and the fresh pre-ante constants it uses.

    ``exact``: see the module docstring (only meaningful when
    :func:`exact_start` holds).
    """
    n, g = layout.n, s.ghosts
    cards = range(len(layout.cards))
    terms = _start_control(layout, s)
    zero, top = layout.num(0), layout.num(n)  # z3's x >= 0, x <= n, ==, in C calls
    terms += [any_of([all_of([ge(x, zero), le(x, top)]), layout.eq(x, layout.out)])
              for x in s.loc]
    terms += [eq(layout.eq(x, layout.widow), w) for x, w in zip(s.loc, g.widow0, strict=True)]
    terms += [eq(layout.eq(x, layout.out), o) for x, o in zip(s.loc, g.out0, strict=True)]
    if g.gone:  # spec §10: a seat still in holds a card; an eliminated one holds nothing
        terms += [z3.If(o, z3.And(*[z3.Not(layout.eq(s.loc[i], p)) for i in cards],
                                  s.bal[p] == 0),
                        any_of([layout.eq(s.loc[i], p) for i in cards]))
                  for p, o in enumerate(g.gone)]
    else:
        terms += [any_of([layout.eq(s.loc[i], p) for i in cards]) for p in range(n)]
    if not WIDOW_DEALT[layout.ruleset.deal.widow_position]:
        terms += [z3.Not(w) for w in g.widow0]
    if not exact:
        terms += [x >= 0 for x in s.sec]
        terms.append(z3.Sum(*s.bal, *s.sec) == g.total)
        return all_of(terms), []
    terms += [z3.Not(o) for o in g.out0]
    terms += _hand_sizes(layout, s) if not g.gone else _hand_sizes_out(layout, s)
    ante, pre = _antes(layout, s)
    return all_of([*terms, ante]), pre


def _out_sets(layout: Layout) -> list[frozenset[int]]:
    """Every set of eliminated seats that leaves at least two seats in (spec §10)."""
    n = layout.n
    return [frozenset(k for k in range(n) if mask >> k & 1) for mask in range(2 ** n)
            if n - bin(mask).count("1") >= 2]


def _hand_sizes_out(layout: Layout, s: SymState) -> list[Expr]:
    """:func:`_hand_sizes` where seats may be out (spec §5.1, §10): for each dealer and each
    set of eliminated seats, the hand sizes of the deal that skips them (the verifier's own
    :func:`boodle.verify.own_rules.hand_sizes`), each eliminated seat dealt nothing."""
    n, total, gone = layout.n, len(layout.cards), s.ghosts.gone
    one, none = layout.num(1), layout.num(0)
    counts = {code: sum_of([ite_int(layout.eq(x, code), one, none) for x in s.loc])
              for code in (*range(n), layout.widow)}
    out = []
    for out_set in _out_sets(layout):
        which = all_of([o if k in out_set else z3.Not(o) for k, o in enumerate(gone)])
        for d in range(n):
            if d in out_set:
                continue
            sizes = hand_sizes(layout.ruleset, n, d, total, out_set)
            want = [counts[layout.widow if who is None else who] == size
                    for who, size in sizes.items()]
            want += [counts[k] == 0 for k in out_set]
            out.append(z3.Implies(z3.And(which, s.ghosts.dealer == d), all_of(want)))
    return out


def _seat_in(layout: Layout, gone: tuple[Expr, ...]) -> Callable[[Expr], Expr]:
    """The term "seat ``x`` is a seat still in" (spec §10), for a seat term ``x``."""
    def seat_in(x: Expr) -> Expr:
        return any_of([all_of([layout.eq(x, k), z3.Not(o)]) for k, o in enumerate(gone)])
    return seat_in


def _hand_sizes(layout: Layout, s: SymState) -> list[Expr]:
    """Spec §5.2: N = q·h + r; the first r hands in dealing order get q + 1 cards (the
    verifier's own statement of the deal, :func:`boodle.verify.own_rules.hand_sizes`)."""
    n, total = layout.n, len(layout.cards)
    counts: dict[int, Expr] = {}  # one sum per hand, shared by every dealer
    out = []
    for d in range(n):
        sizes = []
        for who, size in hand_sizes(layout.ruleset, n, d, total).items():
            code = layout.widow if who is None else who
            if code not in counts:
                one, none = layout.num(1), layout.num(0)  # z3's If(x == code, 1, 0)
                counts[code] = sum_of([ite_int(layout.eq(x, code), one, none) for x in s.loc])
            sizes.append(counts[code] == size)
        out.append(z3.Implies(s.ghosts.dealer == d, all_of(sizes)))
    return out



PAYER_TERMS: dict[Payer, Callable[[Expr, int], Expr]] = {
    "each player": lambda dealer, k: z3.BoolVal(True),
    "dealer": lambda dealer, k: dealer == k,
    "each other player": lambda dealer, k: dealer != k,
    "widow": lambda dealer, k: dealer == k,  # the widow's share, paid by the dealer
}
"""Whether seat ``k`` pays an ante line (spec §4) when ``dealer`` deals, as a z3 term, one
row per member of :data:`Payer`; under ``balance: eliminated at zero`` each payment is capped
at what the payer has left, so an eliminated seat (at zero) pays none (spec §4, §9, §10;
:func:`_capped_antes`)."""

def _antes(layout: Layout, s: SymState) -> tuple[Expr, list[Expr]]:
    """Spec §4: every line paid from any ledger with non-negative sections (lines add up).
    Under ``balance: eliminated at zero`` each payment is capped at the payer's balance
    (§9; :func:`_capped_antes`)."""
    if ELIMINATES[layout.ruleset.session.negative]:
        return _capped_antes(layout, s)
    n, g = layout.n, s.ghosts
    bal0 = [z3.Real(f"{s.step}.pre.seat.{k}") for k in range(n)]
    sec0 = [z3.Real(f"{s.step}.pre.section.{x.name}") for x in layout.board]
    paid: list[Expr] = [z3.RealVal(0)] * n
    got: list[Expr] = [z3.RealVal(0)] * len(sec0)
    for line in layout.ruleset.antes:
        targets = [layout.section_index(t) for t in ante_sections(layout.ruleset, line.targets)]
        for k in range(n):
            pays = PAYER_TERMS[line.payer](g.dealer, k)
            each = z3.If(pays, line.amount, 0)
            paid[k] = paid[k] + each * len(targets)
            for t in targets:
                got[t] = got[t] + each
    terms = [x >= 0 for x in sec0]
    terms += [b == b0 - p for b, b0, p in zip(s.bal, bal0, paid, strict=True)]
    terms += [x == x0 + a for x, x0, a in zip(s.sec, sec0, got, strict=True)]
    terms.append(g.total == z3.Sum(*bal0, *sec0))
    return z3.And(*terms), [*bal0, *sec0]


def _capped_antes(layout: Layout, s: SymState) -> tuple[Expr, list[Expr]]:
    """Spec §4, §9, §10 under ``balance: eliminated at zero``: from any ledger with the
    sections non-negative, a seat still in above zero and each eliminated seat at zero (a
    seat at zero when the deal starts is out), every line paid in order, target by target,
    each payment at most what the payer has left (``short stack: as balance``); an
    eliminated seat pays nothing."""
    n, g = layout.n, s.ghosts
    bal0 = [z3.Real(f"{s.step}.pre.seat.{k}") for k in range(n)]
    sec0 = [z3.Real(f"{s.step}.pre.section.{x.name}") for x in layout.board]
    left: list[Expr] = list(bal0)
    got: list[Expr] = [z3.RealVal(0)] * len(sec0)
    for line in layout.ruleset.antes:
        targets = [layout.section_index(t) for t in ante_sections(layout.ruleset, line.targets)]
        for k in range(n):
            pays = PAYER_TERMS[line.payer](g.dealer, k)
            for t in targets:
                amount = z3.If(pays, z3.If(left[k] < line.amount, left[k], line.amount), 0)
                left[k] = left[k] - amount
                got[t] = got[t] + amount
    terms = [x >= 0 for x in sec0]
    if g.gone:
        terms += [z3.If(o, b == 0, b > 0) for o, b in zip(g.gone, bal0, strict=True)]
    else:  # a seat at zero would be out: no deal of these rules has one (seats_may_be_out)
        terms += [b > 0 for b in bal0]
    terms += [b == x for b, x in zip(s.bal, left, strict=True)]
    terms += [x == x0 + a for x, x0, a in zip(s.sec, sec0, got, strict=True)]
    terms.append(g.total == z3.Sum(*bal0, *sec0))
    return z3.And(*terms), [*bal0, *sec0]


# ---------------------------------------------------------------- the invariant


def _cards(layout: Layout, s: SymState) -> list[Expr]:
    """Every card has one place of the domain; widow and out-of-play cards never move."""
    g = s.ghosts

    def part(x: Expr, w: Expr, o: Expr) -> Expr:
        return layout.memo(("cards", x.get_id(), w.get_id()), lambda: z3.And(
            x >= 0, x <= layout.out, layout.eq(x, layout.widow) == w,
            layout.eq(x, layout.out) == o))

    base = layout.bases.get("cards")
    if base is not None and base[0] is g:  # a state after a move: the parts of the cards moved
        out = list(base[2])
        for j, (x, y) in enumerate(zip(s.loc, base[1], strict=True)):
            if x is not y:
                out[j] = part(x, g.widow0[j], g.out0[j])
        return out
    parts = [part(x, w, o) for x, w, o in zip(s.loc, g.widow0, g.out0, strict=True)]
    if base is None:  # the first state asked about (the pre-state) gives the others their parts
        layout.bases["cards"] = (g, s.loc, parts)
    return parts


def _chips_total(layout: Layout, s: SymState) -> list[Expr]:
    """Spec §9: players' chips and every section add up to the deal's total."""
    terms = [*s.bal, *s.sec]
    if all(is_real(x) for x in terms) and is_real(s.ghosts.total):  # z3's Sum, ==: no casts
        return [eq(sum_of(terms), s.ghosts.total)]
    return [z3.Sum(*terms) == s.ghosts.total]


def _sections(layout: Layout, s: SymState) -> list[Expr]:
    """Spec §9: a section never goes below zero."""
    return [x >= 0 for x in s.sec]


def _control(layout: Layout, s: SymState) -> list[Expr]:
    """The run's bookkeeping is in range and consistent with the step (spec §6)."""
    n, eq, num = layout.n, layout.eq, layout.num
    over = eq(s.step, OVER)  # the terms of z3's Or, If, ==, >=, Implies …, in fewer calls
    terms = [
        any_of([eq(s.step, LEAD), eq(s.step, FOLLOW), over]),
        ite_bool(over, eq(s.tomove, NONE), all_of([ge(s.tomove, num(0)),
                                                   lt(s.tomove, num(n))])),
        ite_bool(s.restart, all_of([ge(s.stopped, num(0)), lt(s.stopped, num(len(layout.suits))),
                                    ge(s.last, num(0)), lt(s.last, num(n))]),
                 all_of([eq(s.stopped, NONE), eq(s.last, NONE)])),
        implies(ne(s.step, num(FOLLOW)), eq(s.cur, NONE)),
        ite_bool(over, all_of([ge(s.winner, num(NONE)), lt(s.winner, num(n))]),
                 eq(s.winner, NONE)),
        all_of([ge(s.passes, num(0)), le(s.passes, num(n))]),
        implies(eq(s.step, LEAD), lt(s.passes, layout.seats_in(s.ghosts.gone))),
        implies(eq(s.step, FOLLOW), all_of([eq(s.passes, 0), not_(s.flipped)])),
    ]
    # spec §10: an eliminated seat is never to move
    terms += [implies(o, not_(eq(s.tomove, p))) for p, o in enumerate(s.ghosts.gone)]
    if not any(p.forfeit_boodles for p in layout.phase.penalties):
        terms += [z3.Not(f) for f in s.forfeit]  # nobody forfeits without the rule
    if not passes(layout):
        terms += [s.passes == 0, z3.Not(s.flipped)]
    elif ALL_PASS_TERMS[layout.phase.all_pass].ends_deal:
        terms.append(z3.Not(s.flipped))  # an all-pass ends the deal: no colour ever flips
    return terms


def _played(layout: Layout, x: Expr) -> Expr:
    """``x`` is the code of a played card (one term per location term, shared)."""
    n = layout.n
    return layout.memo(("played", x.get_id()), lambda: z3.And(x >= n + 1, x <= 2 * n))


def _follow(layout: Layout, s: SymState) -> list[Expr]:
    """During a run, ``cur`` is played and the seat to move holds its next card (spec §6.2)."""
    pairs = layout.successions
    holds = layout.eqs([s.loc[nxt] for _, nxt in pairs], s.tomove)
    at = layout.eq_codes(s.cur, [i for i, _ in pairs])
    cases = [all_of([a, _played(layout, s.loc[i]), h])
             for (i, _), a, h in zip(pairs, at, holds, strict=True)]
    return [z3.Implies(s.step == FOLLOW, any_of(cases))]


def _live(layout: Layout, s: SymState) -> list[Expr]:
    """While the deal goes on, every player holds a card (spec §7: the first out ends it)."""
    base = layout.bases.get("live")
    if base is None:  # the first state asked about (the pre-state) gives every other its atoms
        base = layout.bases["live"] = (s.loc, [layout.eqs(s.loc, p) for p in range(layout.n)])
    gone = s.ghosts.gone
    return [z3.Implies(z3.And(s.step != OVER, z3.Not(gone[p])) if gone else s.step != OVER,
                       any_of(layout.eqs(s.loc, p, (base[0], base[1][p]))))
            for p in range(layout.n)]


def _gone_cards(layout: Layout, s: SymState) -> list[Expr]:
    """An eliminated seat (spec §10) holds and has played no card: one part per card (built
    once per card term and shared by every state that leaves the card in place, so an action
    changes the part of the card it moves alone)."""
    n, gone = layout.n, s.ghosts.gone

    def card(x: Expr) -> Expr:
        return layout.memo_list(("gone card", x.get_id()), lambda: [all_of(
            [implies(o, all_of([not_(layout.eq(x, p)), not_(layout.eq(x, n + 1 + p))]))
             for p, o in enumerate(gone)])], [x])[0]

    return [card(x) for x in s.loc]


def _gone_chips(layout: Layout, s: SymState) -> list[Expr]:
    """An eliminated seat (spec §10) has no chips and is paid none: its balance stays 0."""
    return [implies(o, eq(b, REAL0)) if is_real(b) else z3.Implies(o, b == 0)
            for o, b in zip(s.ghosts.gone, s.bal, strict=True)]


def _leader(layout: Layout, s: SymState) -> list[Expr]:
    """At a lead, the seat to move is ``passes`` seats left of the leader the rule names (seats
    still in, when seats may be out: spec §10)."""
    gone = s.ghosts.gone
    if gone:  # ``passes`` seats still in to the leader's left (spec §10: the out are skipped)
        leader = leader_now(layout, s)
        if not passes(layout):
            return [z3.Implies(s.step == LEAD, s.tomove == leader)]
        return [z3.Implies(z3.And(s.step == LEAD, s.passes == k),
                           s.tomove == layout.lefts(leader, k, gone)) for k in range(layout.n)]
    seat = leader_now(layout, s) + s.passes  # at most 2n - 2: one wrap round the table at most
    return [z3.Implies(s.step == LEAD, z3.Or(s.tomove == seat, s.tomove == seat - layout.n))]


def _passing(layout: Layout, s: SymState) -> Expr:
    """A round of passes is under way (before any flip)."""
    return z3.And(z3.Not(s.flipped), s.step == LEAD, s.passes >= 1)


def _passed(layout: Layout, s: SymState) -> list[Expr]:
    """Every seat that passed since the last card had no lead the rule allows (spec §6.5)."""
    n, gone = layout.n, s.ghosts.gone
    terms = []
    for j in range(n):
        none = z3.Not(has_option(layout, s, j))
        for k in range(1, n):
            if gone:  # j passed k passes ago: k seats still in to its left is the seat to move
                seen = z3.And(_passing(layout, s), s.passes >= k, z3.Not(gone[j]),
                              s.tomove == layout.lefts(j, k, gone))
            else:
                seen = z3.And(_passing(layout, s), s.passes >= k, s.tomove == (j + k) % n)
            terms.append(z3.Implies(seen, none))
    return terms


def _flipped(layout: Layout, s: SymState) -> list[Expr]:
    """After a flip every held card is of the colour now required, so nobody passes again."""
    rules = rule_branches(layout, s)
    ok = [z3.Or(*[z3.And(b.cond, suit_allowed(layout, s, b.rule, k, z3.BoolVal(True)))
                  for b in rules]) for k in range(len(layout.suits))]
    held = [z3.Implies(x < layout.n, ok[layout.suit_of(i)]) for i, x in enumerate(s.loc)]
    return [z3.Implies(s.flipped, z3.And(s.step == LEAD, s.passes == 0, *held))]


CHIPS, RUN, LEADER = "chips", "run", "leader"
_BASE = ("cards in one place", "run bookkeeping")


def conjuncts(layout: Layout) -> list[Conjunct]:
    """The invariant of ``layout``'s stops phase, conjunct by conjunct (with what each needs)."""
    eliminate = seats_may_be_out(layout.ruleset)  # spec §10: a deal with seats out
    run = (*_BASE, "run follows the next card", "players hold cards",
           *(("eliminated seats hold no cards",) if eliminate else ()))
    out = [
        Conjunct("cards in one place", "card conservation", _cards, run, RUN),
        Conjunct("chips add up", "chip conservation", _chips_total,
                 ("chips add up", "sections never negative", "run bookkeeping"), CHIPS,
                 opaque=True),
        Conjunct("sections never negative", "chip conservation", _sections,
                 ("chips add up", "sections never negative", "run bookkeeping"), CHIPS,
                 sections=True),
        Conjunct("run bookkeeping", "well-formedness", _control, run, RUN),
        Conjunct("run follows the next card", "well-formedness", _follow, run, RUN),
        Conjunct("players hold cards", "progress", _live, run, RUN, alone=True),
        Conjunct("leader named by the rule", "progress", _leader,
                 (*_BASE, "leader named by the rule"), LEADER),
    ]
    if eliminate:
        out += [
            Conjunct("eliminated seats hold no cards", "card conservation", _gone_cards, run,
                     RUN),
            Conjunct("eliminated seats hold no chips", "chip conservation", _gone_chips,
                     ("eliminated seats hold no chips", "run bookkeeping"), CHIPS),
        ]
    if passes(layout):
        passed = ("passers had no lead", *_BASE)
        out.append(Conjunct("passers had no lead", "termination", _passed, passed, "passed",
                            heavy=True, only_when=_passing))
        if not ALL_PASS_TERMS[layout.phase.all_pass].ends_deal:
            out.append(Conjunct("after a flip nobody passes", "termination", _flipped,
                                ("after a flip nobody passes", "players hold cards", *passed),
                                "flipped", heavy=True, only_when=lambda layout, s: s.flipped))
    return out


def pass_measure(layout: Layout, s: SymState) -> Expr:
    """Q, the second component of :func:`rank`."""
    n, num = layout.n, layout.num
    if not passes(layout):
        return num(0)
    # z3's If(flipped, 0, n + 1) + (n - passes), in C calls
    return add(ite_int(s.flipped, num(0), num(n + 1)), sub(num(n), s.passes))


def rank(layout: Layout, s: SymState) -> tuple[Expr, Expr]:
    """The ranking function (H, Q): H cards in players' hands; Q a pass measure.

    Q is 0 without passes; with passes ``(n + 1 if not flipped) + n − passes``:
    each pass lowers it, a flip lowers it by at least one, and a lead (which
    resets it) lowers H.  Ordered lexicographically; both are ≥ 0.
    """
    n = layout.n
    held = z3.Sum([z3.If(x < n, 1, 0) for x in s.loc])
    if not passes(layout):
        return held, z3.IntVal(0)
    return held, z3.If(s.flipped, 0, n + 1) + (n - s.passes)
