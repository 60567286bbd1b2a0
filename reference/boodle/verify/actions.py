"""The transition relation of the stops phase, split per action (spec §6, §7;
:mod:`boodle.engine.stages.stops`).

One :class:`Action` per move kind and card: ``lead C`` and ``play C`` (a
follow) for every card C, and ``pass``.  Each has a **guard** (when the
move is legal) and a **post-state** (the successor, as z3 terms over the
pre-state), built from the ruleset exactly as :mod:`boodle.engine.stages.stops` plays it:
the card moves, then claims, then going out, a stop (with its bonus and the
restart leader) or the next follow.

Chips move only through :meth:`ChipTerms.move`, the symbolic twin of
``Ledger.transfer``: every amount is a fresh z3 constant whose definition is
kept in ``Action.defs``, so chip properties can be proved with or without
knowing the amounts.  A :class:`~boodle.verify.mutation.Mutation` may break
that primitive on purpose (a credit without its debit): the checks must
then find the fault.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import Literal

import z3

from boodle.language.cards import Card
from boodle.language.model import (
    AllPass,
    ClaimRule,
    Follow,
    PaidTo,
    Ruleset,
    Section,
    SuitRule,
)
from boodle.verify.eligibility import blocked, may_take
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
from boodle.verify.lead_terms import FAULT_TERMS, branches, lead_terms, passes
from boodle.verify.mutation import Mutation
from boodle.verify.own_rules import ELIMINATES, PER_CARD, WHOLE_SET
from boodle.verify.terms import (
    INT0,
    REAL0,
    TRUE,
    add,
    eq,
    eq_real,
    gt,
    is_real,
    ite,
    ite_arith,
    ite_bool,
    ite_int,
    ite_real,
    lt,
    neg,
    not_,
    real_const,
    sub,
    to_real,
)

__all__ = ["FOLLOW_SEATS", "Action", "ChipTerms", "actions"]

FOLLOW_SEATS: dict[Follow, Callable[[Sequence[Expr], int], Expr]] = {
    "owner": lambda loc, nxt: loc[nxt],
    "turn": lambda loc, nxt: loc[nxt],  # the turn reaches the card's one holder: the same seat
}
"""Spec §6.2 in the model: the seat that must play the next card of a run (card index
``nxt``; its location term is a seat when it is in a hand, and the run stops otherwise),
given the cards' location terms, one row per member of :data:`Follow`."""

Account = tuple[Literal["seat", "section"], Expr]
"""A chip account in the model: ``("seat", seat term)`` or ``("section", board index)``."""

_fresh = count()
_FALSE = z3.BoolVal(False)


@dataclass
class ChipTerms:
    """A symbolic ledger being updated, one transfer at a time (the model's ``Ledger.transfer``).

    ``bal`` / ``sec``: the current terms per seat / section; ``defs``: the
    definitions of the amount constants made so far (shared by forks);
    ``defined``: the constants ``flags`` and ``defs`` define, by the id of their
    definition.
    """

    layout: Layout
    bal: list[Expr]
    sec: list[Expr]
    defs: list[Expr]
    mutation: Mutation
    capped: bool = False
    flags: list[Expr] = field(default_factory=list)
    section_defs: list[Expr] = field(default_factory=list)
    defined: dict[int, Expr] = field(default_factory=dict)
    withheld: list[tuple[str, Expr]] = field(default_factory=list)
    """(kind, condition) of each claim a rule withholds (:func:`_gated`; shared by forks)."""

    def fork(self) -> ChipTerms:
        """A copy to follow one branch of a move (the definitions stay shared)."""
        return ChipTerms(self.layout, list(self.bal), list(self.sec), self.defs,
                         self.mutation, self.capped, self.flags, self.section_defs,
                         self.defined, self.withheld)

    def free(self) -> tuple[Expr, ...]:
        """The constants defined by ``flags`` then ``defs``, in their order."""
        return tuple(self.defined[d.get_id()] for d in (*self.flags, *self.defs))

    def amount(self, expr: Expr, reason: str, section: bool = False) -> Expr:
        """A fresh constant standing for ``expr`` chips (its definition goes to ``defs``, and
        to ``section_defs`` too when ``section``: the transfer is to or from a section)."""
        var = real_const(f"amount.{next(_fresh)}.{reason}")
        self.defs.append(eq_real(var, expr) if z3.is_expr(expr) else var == expr)
        self.defined[self.defs[-1].get_id()] = var
        if section:
            self.section_defs.append(self.defs[-1])
        return var

    def balance(self, acct: Account) -> Expr:
        """The current term of an account."""
        kind, who = acct
        if kind == "section":
            return self.sec[who]
        if isinstance(who, int):
            return self.bal[who]
        out: Expr = self.bal[-1]
        for k in range(self.layout.n - 2, -1, -1):
            out = z3.If(who == k, self.bal[k], out)
        return out

    def move(self, src: Account, dst: Account, amount: Expr, reason: str,
             when: Expr = True) -> None:
        """Transfer ``amount`` chips from ``src`` to ``dst`` when ``when`` holds (else nothing).

        Under ``capped`` a seat pays at most its balance (spec §9).  The
        mutation may drop the debit of some reasons.
        """
        if self.capped and src[0] == "seat":
            have = self.balance(src)
            amount = z3.If(have > 0, z3.If(amount < have, amount, have), 0)
        # z3's If(when, amount, 0): the amounts moved here are real terms
        cond = TRUE if when is True else when
        zero = REAL0 if is_real(amount) else INT0
        a = self.amount(ite_arith(cond, amount, zero), reason, "section" in (src[0], dst[0]))
        if not self.mutation.drops_debit(reason):
            self._add(src, -a)
        self._add(dst, a)

    def gather(self, payers: list[tuple[int, Expr, Expr]], dst: Account, reason: str) -> None:
        """Each (seat, amount, when) pays ``amount`` into ``dst`` when ``when`` holds: the same
        transfers as one :meth:`move` each, with the credits added to ``dst`` at once."""
        paid = []
        for seat, amount, when in payers:  # z3's If(have > 0, If(amount < have, …), 0) …
            if self.capped:
                have, real = self.bal[seat], to_real(amount)
                amount = ite(gt(have, REAL0), ite(lt(real, have), real, have), REAL0)
            zero = REAL0 if is_real(amount) else INT0
            a = self.amount(ite(when, amount, zero), reason, dst[0] == "section")
            if not self.mutation.drops_debit(reason):
                self._add(("seat", seat), neg(a))
            paid.append(a)
        self._add(dst, sum_of(paid) if paid else z3.Sum(*paid))

    def _add(self, acct: Account, delta: Expr) -> None:
        kind, who = acct
        if kind == "section":
            self.sec[who] = add(self.sec[who], delta)
        elif isinstance(who, int):
            self.bal[who] = add(self.bal[who], delta)
        else:
            self.bal = [ite_real(self.layout.eq(who, k), add(b, delta), b)
                        for k, b in enumerate(self.bal)]


def merge(cond: Expr, a: ChipTerms, b: ChipTerms) -> ChipTerms:
    """The ledger that is ``a`` when ``cond`` holds and ``b`` otherwise (an account both
    leave alike is left as it is)."""
    out = a.fork()
    out.bal = [ite_real(cond, x, y) for x, y in zip(a.bal, b.bal, strict=True)]
    out.sec = [ite_real(cond, x, y) for x, y in zip(a.sec, b.sec, strict=True)]
    return out


@dataclass(frozen=True)
class Action:
    """One move kind of the stops phase: ``card`` C (a lead of C or the follow with C), or
    ``pass`` (spec §6.5).

    ``guard``: the move is legal; ``core``: the part of the guard that
    preservation proofs need (the step, the run, and that the mover holds
    the card); ``post``: the successor state; ``defs``: definitions of its
    amount constants; ``flags``: definitions of its "went out" and "stopped"
    booleans; ``moved``: the cards whose place changes; ``section_defs``: the
    definitions of the amounts moved to or from a section (part of ``defs``);
    ``free``: the constants ``flags`` then ``defs`` define, in their order; ``withheld``:
    (kind, condition) of each claim the move would make but that a rule withholds (a short
    seat's section it did not ante, ``"claim not anted"``, spec §4; a set the widow blocks,
    ``"claim blocked by the widow"``, §5.2): the branches the engine = model check accounts
    for (:mod:`~boodle.verify.engine_model`), not read by any proof.
    """

    name: str
    kind: Literal["card", "pass"]
    card: int | None
    guard: Expr
    core: Expr
    post: SymState
    defs: tuple[Expr, ...] = field(default=())
    moved: tuple[int, ...] = ()
    flags: tuple[Expr, ...] = ()
    section_defs: tuple[Expr, ...] = ()
    free: tuple[Expr, ...] = ()
    withheld: tuple[tuple[str, Expr], ...] = ()

    @property
    def definitions(self) -> tuple[Expr, ...]:
        """Every definition the post-state relies on (flags, then amounts)."""
        return (*self.flags, *self.defs)


def _chips(layout: Layout, s: SymState, mutation: Mutation) -> ChipTerms:
    capped = ELIMINATES[layout.ruleset.session.negative]
    return ChipTerms(layout, list(s.bal), list(s.sec), [], mutation, capped)


def actions(layout: Layout, s: SymState, mutation: Mutation) -> list[Action]:
    """Every :class:`Action` of the stops phase from state ``s``: one per card, and ``pass``.

    The action of card C is its lead (a :class:`~boodle.engine.state.LeadMove`,
    when a lead is due and the rule allows C) or its follow (a
    :class:`~boodle.engine.state.PlayMove`, when the run is at the card below C);
    a lead ends a round of passes (spec §6.5), a follow leaves the counters.
    """
    lt = lead_terms(layout, s)
    out: list[Action] = []
    leading = s.step == LEAD
    # z3's And, Or and == on these terms, built in fewer Python calls (the same terms)
    start = s.with_(passes=z3.If(leading, 0, s.passes),
                    flipped=z3.And(z3.Not(leading), s.flipped))
    following = layout.eq(s.step, FOLLOW)
    prevs = {nxt: i for i, nxt in layout.successions}
    for i, card in enumerate(layout.cards):
        held = layout.eq(s.loc[i], s.tomove)
        prev = prevs.get(i)
        follows = z3.BoolVal(False) if prev is None else \
            all_of([following, layout.eq(s.cur, prev)])
        fined = all_of([leading, lt.fined[i]])
        guard = any_of([all_of([leading, any_of([lt.lead[i], lt.fined[i]])]),
                        all_of([follows, held])])
        core = all_of([any_of([leading, follows]), held])
        post, chips = _play(layout, start, i, s.tomove, mutation, None if z3.is_false(
            z3.simplify(fined)) else fined)
        out.append(Action(f"card {card}", "card", i, guard, core, post, tuple(chips.defs), (i,),
                          tuple(chips.flags), tuple(chips.section_defs), chips.free(),
                          tuple(chips.withheld)))
    if passes(layout):
        post, chips = _pass(layout, s, mutation)
        out.append(Action("pass", "pass", None, z3.And(leading, lt.must_pass), leading, post,
                          tuple(chips.defs), (), tuple(chips.flags),
                          tuple(chips.section_defs), chips.free()))
    return out


def claim_condition(layout: Layout, s: SymState, section: Section, i: int, who: Expr,
                    loc: list[Expr]) -> Expr:
    """Whether ``who`` playing card ``i`` claims ``section`` (spec §6.6; as
    :func:`boodle.engine.claims.claims_of`).

    ``loc``: the places after the card is played.
    """
    if not (PER_CARD[section.kind] or WHOLE_SET[section.kind]):
        return z3.BoolVal(False)
    return SECTION_CLAIMS[section.suit_rule](layout, s, section, i, layout.played(who), loc)


def _claims_same_suit(layout: Layout, s: SymState, section: Section, i: int, mine: Expr,
                      loc: list[Expr]) -> Expr:
    card = layout.cards[i]
    if card.rank not in section.ranks:
        return z3.BoolVal(False)
    idx = [layout.index.get(Card(r, card.suit)) for r in section.ranks]
    return z3.And(*[z3.BoolVal(False) if j is None else loc[j] == mine for j in idx])


def _claims_of_trumps(layout: Layout, s: SymState, section: Section, i: int, mine: Expr,
                      loc: list[Expr]) -> Expr:
    card = layout.cards[i]
    if card.rank not in section.ranks:
        return z3.BoolVal(False)
    idx = [layout.index.get(Card(r, card.suit)) for r in section.ranks]
    need = [z3.BoolVal(False) if j is None else loc[j] == mine for j in idx]
    mine_all = z3.BoolVal(True) if PER_CARD[section.kind] else z3.And(*need)
    return z3.And(s.ghosts.trump == layout.suit_of(i), mine_all)


def _claims_its_cards(layout: Layout, s: SymState, section: Section, i: int, mine: Expr,
                      loc: list[Expr]) -> Expr:
    if layout.cards[i] not in section.cards:
        return z3.BoolVal(False)
    if PER_CARD[section.kind]:
        return z3.BoolVal(True)
    others = [layout.index.get(c) for c in section.cards]
    return z3.And(*[z3.BoolVal(False) if j is None else loc[j] == mine for j in others])


def _claims_drawn(layout: Layout, s: SymState, section: Section, i: int, mine: Expr,
                  loc: list[Expr]) -> Expr:
    if section.cards:  # bound for the session: its card, as a fixed boodle
        return _claims_its_cards(layout, s, section, i, mine, loc)
    return s.ghosts.drawn[section.name] == i


SECTION_CLAIMS: dict[SuitRule, Callable[[Layout, SymState, Section, int, Expr, list[Expr]],
                                        Expr]] = {
    "fixed": _claims_its_cards,
    "same suit": _claims_same_suit,
    "trumps": _claims_of_trumps,
    "drawn": _claims_drawn,
}
"""Whether playing card ``i`` claims a boodle or set section (spec §3, §6.6), one row per
member of :data:`SuitRule`, given the player's ``played`` place and the places after the
play."""


def _play(layout: Layout, s: SymState, i: int, who: Expr, mutation: Mutation,
          fined: Expr | None = None) -> tuple[SymState, ChipTerms]:
    """``who`` plays card ``i`` (a lead with a fine when ``fined`` holds): the fine, then
    claims, then going out, a stop or the next follow (:func:`boodle.engine.stages.stops.apply`)."""
    phase = layout.phase
    loc = list(s.loc)
    loc[i] = layout.played(who)
    chips = _chips(layout, s, mutation)
    forfeit = list(s.forfeit)
    if fined is not None:
        forfeit = _fine(layout, chips, who, fined, forfeit, s.ghosts.gone)
    barred = any_of([all_of([layout.eq(who, k), f]) for k, f in enumerate(forfeit)])
    if CLAIM_TERMS[phase.claims].plays_claim:
        for k, section in enumerate(layout.board):
            when = claim_condition(layout, s, section, i, who, loc)
            if not z3.is_false(when):  # spec §4: a short seat takes only what it anted;
                # §5.2: nobody takes a set the widow blocks (the widow as play found it)
                chips.move(("section", k), ("seat", who), chips.sec[k], "claim",
                           _gated(chips, z3.And(when, z3.Not(barred)), layout, s, who, k))
    out = _flag(chips, "out", not_(_holds_another(layout, s, who, i)))
    nxt = layout.next_of(i)
    top_rank = layout.cards[i].rank == layout.ruleset.deck.ranks[-1]  # spec §2.1
    top = nxt is None or (phase.stop_at_top and top_rank)
    stop = z3.BoolVal(True) if top or nxt is None else \
        _flag(chips, "stop", not_(lt(loc[nxt], layout.num(layout.n))))
    went = _go_out(layout, s, chips.fork(), who, loc, out)
    stopped = _stop_bonus(layout, chips.fork(), who)
    ledger = merge(out, went, merge(stop, stopped, chips))
    after = s.with_(loc=tuple(loc), last=who, restart=z3.BoolVal(True))
    lead_next = _leader(layout, after)
    follow_seat = FOLLOW_SEATS[phase.follow](loc, nxt) if nxt is not None else z3.IntVal(NONE)
    stop_now = all_of([not_(out), stop])
    num = layout.num  # the terms of z3's If, ==, And, Or on these, built in fewer calls
    post = s.with_(
        loc=tuple(loc),
        step=ite_int(out, num(OVER), ite_int(stop, num(LEAD), num(FOLLOW))),
        tomove=ite_int(out, num(NONE), ite_int(stop, lead_next, follow_seat)),
        cur=ite_int(any_of([out, stop]), num(NONE), num(i)),
        restart=any_of([s.restart, stop_now]),
        stopped=ite_int(stop_now, num(layout.suit_of(i)), s.stopped),
        last=ite_int(stop_now, who, s.last),
        passes=ite_int(stop_now, num(0), s.passes),
        flipped=ite_bool(stop_now, _FALSE, s.flipped),
        winner=ite_int(out, who, s.winner),
        bal=tuple(ledger.bal),
        sec=tuple(ledger.sec),
        forfeit=tuple(forfeit),
    )
    return post, chips


def _gated(chips: ChipTerms, when: Expr, layout: Layout, s: SymState, who: Expr, k: int,
           branch: Expr | None = None) -> Expr:
    """``when``, and the widow does not block section ``k`` (§5.2), and ``who`` may take it
    (spec §4, short stacks): the terms of :mod:`boodle.verify.eligibility`, left out where
    they are constantly true, so that a ruleset without either rule has the very terms it
    had.  Each claim so withheld from a section with chips on it is recorded in
    ``chips.withheld`` (under ``branch``, the move's branch when it is not the whole move)."""
    parts = [when]  # a withheld claim counts where it withholds chips (the section not empty)
    due = z3.And(when, chips.sec[k] > 0) if branch is None else \
        z3.And(branch, when, chips.sec[k] > 0)
    shut = blocked(layout, s, layout.board[k], s.loc)
    take = may_take(layout, s, who, k)
    if not z3.is_false(shut):  # blocked, where the seat could take it otherwise
        parts.append(z3.Not(shut))
        chips.withheld.append(("claim blocked by the widow", z3.And(due, take, shut)))
    if not z3.is_true(take):  # not anted, where the widow does not block it
        parts.append(take)
        chips.withheld.append(("claim not anted", z3.And(due, *parts[1:-1], z3.Not(take))))
    return parts[0] if len(parts) == 1 else z3.And(*parts)


def _fine(layout: Layout, chips: ChipTerms, who: Expr, fined: Expr,
          forfeit: list[Expr], gone: tuple[Expr, ...] = ()) -> list[Expr]:
    """Spec §6.8 (:func:`boodle.engine.stages.stops._penalise`): a lead that is not the lowest
    pays each ``lead not lowest`` penalty (to each opponent still in, ``gone``: the seats
    eliminated, §10), and under ``forfeit boodles`` its leader claims no more."""
    for pen in layout.phase.penalties:
        if not FAULT_TERMS[pen.fault].not_lowest:
            continue
        if pen.to == "each opponent":
            _each_opponent(layout, chips, who, z3.RealVal(pen.amount), fined, gone)
        else:
            chips.move(("seat", who), ("section", layout.section_index(pen.to)),
                       z3.RealVal(pen.amount), "penalty", fined)
        if pen.forfeit_boodles:
            forfeit = [z3.Or(f, z3.And(fined, who == k)) for k, f in enumerate(forfeit)]
    return forfeit


def _each_opponent(layout: Layout, chips: ChipTerms, who: Expr, amount: Expr,
                   when: Expr | None, gone: tuple[Expr, ...]) -> None:
    """``who`` pays ``amount`` to each opponent when ``when`` holds (a fine or a pass fee,
    spec §6.5, §6.8).  Without elimination (``gone`` empty): to each other seat.  Under
    ``balance: eliminated at zero``: to each seat still in, clockwise from ``who``'s left, as
    the engine pays (``clockwise(who)[:-1]``): a payment capped at ``who``'s balance (§9)
    goes to the first opponents in that order, and an eliminated seat (§10) is paid nothing
    (unless the mutation's fault pays it).  ``when``: ``None`` for always."""
    if not gone:
        for k in range(layout.n):
            chips.move(("seat", who), ("seat", k), amount, "penalty",
                       who != k if when is None else z3.And(when, who != k))
        return
    seats_in = layout.seats_in(gone)
    for d in range(1, layout.n):
        due = seats_in > d
        chips.move(("seat", who), ("seat", layout.lefts(who, d, gone)), amount, "penalty",
                   due if when is None else z3.And(when, due))
    if chips.mutation.pays_gone("penalty"):  # the fault: then each eliminated seat too
        for k, o in enumerate(gone):
            chips.move(("seat", who), ("seat", k), amount, "penalty",
                       o if when is None else z3.And(when, o))


def _holds_another(layout: Layout, s: SymState, who: Expr, i: int) -> Expr:
    """``who`` holds some card other than ``i`` in ``s``: the prefix chain of the cards before
    ``i`` or the suffix chain of those after it, both built once per (state, seat) and
    shared by every action (linear in the deck, where one disjunction per card is
    quadratic)."""
    n = len(s.loc)

    def chains() -> list[Expr]:
        held = [layout.eq(x, who) for x in s.loc]
        pre: list[Expr] = [z3.BoolVal(False)]
        for j in range(n - 1):
            pre.append(held[0] if j == 0 else any_of([pre[-1], held[j]]))
        suf: list[Expr] = [z3.BoolVal(False)]
        for j in range(n - 1, 0, -1):
            suf.append(held[n - 1] if j == n - 1 else any_of([suf[-1], held[j]]))
        return [*pre, *reversed(suf)]  # pre[i]: cards < i; then suf, index n + i: cards > i

    key = ("holds another", layout.ids(s.loc), who.get_id())
    both = layout.memo_list(key, chains, [*s.loc, who])
    before, after = both[i], both[n + i]
    if z3.is_false(before):
        return after
    return before if z3.is_false(after) else any_of([before, after])


def _flag(chips: ChipTerms, what: str, term: Expr) -> Expr:
    """A fresh boolean defined as ``term`` (its definition goes with the amounts): the
    solver treats "went out" and "stopped" as atoms and unfolds them only when needed."""
    var = z3.Bool(f"{what}.{next(_fresh)}")
    chips.flags.append(eq(var, term))
    chips.defined[chips.flags[-1].get_id()] = var
    return var


def _leader(layout: Layout, after: SymState) -> Expr:
    """The restart leader (spec §6.4) in the state after the stop card is played."""
    out: Expr = z3.IntVal(NONE)
    for b in reversed(branches(layout, after, layout.phase.restart)):
        out = ite_int(b.cond, b.leader, out)
    return out


def _hand_count(layout: Layout, loc: list[Expr], seat: int,
                before: tuple[Expr, ...] | None = None) -> Expr:
    """Cards in ``seat``'s hand; the 0/1 term of each card is built once and shared by every
    action that leaves the card in place.  With ``before`` (the places before the move):
    the count before, built once and shared by every action, corrected by the cards that
    moved (the same number, in a term of constant size)."""
    def one(x: Expr) -> Expr:
        return layout.memo(("one", x.get_id(), seat),  # z3's If(x == seat, 1, 0)
                           lambda: ite_int(layout.eq(x, seat), layout.num(1), layout.num(0)))

    if before is None:
        return sum_of([one(x) for x in loc])
    moved = [j for j, (x, y) in enumerate(zip(loc, before, strict=True)) if x is not y]
    key = ("count", seat, layout.ids(before))
    total = layout.memo(key, lambda: sum_of([one(x) for x in before]))
    for j in moved:
        total = add(sub(total, one(before[j])), one(loc[j]))
    return total


def _go_out(layout: Layout, s: SymState, chips: ChipTerms, who: Expr,
            loc: list[Expr], went: Expr) -> ChipTerms:
    """Going out (spec §7; :func:`boodle.engine.stages.stops._go_out`): payments, sections
    taken (a short seat only those it anted, §4; none the widow blocks, §5.2).  ``went``: the
    move's "went out" flag, the branch these terms are taken in."""
    rules = layout.phase.going_out
    g = s.ghosts
    into, taken, to_winner = PAID_TO_TERMS[rules.to](layout.ruleset, rules.into)
    takes = list(rules.takes)
    if taken and into is not None and into not in takes:
        takes.append(into)
    if into is not None:
        _payments(layout, chips, who, loc, ("section", layout.section_index(into)), s.loc)
    for name in takes:
        barred = [g.taken[(earlier, n)] for n, earlier in rules.unless_taken if n == name]
        k = layout.section_index(name)
        chips.move(("section", k), ("seat", who), chips.sec[k], "claim",
                   _gated(chips, z3.Not(z3.Or(*barred)) if barred else z3.BoolVal(True),
                          layout, s, who, k, went))
    if to_winner:
        _payments(layout, chips, who, loc, ("seat", who), s.loc)
    return chips


def _paid_to_winner(ruleset: Ruleset, into: str | None) -> tuple[str | None, bool, bool]:
    return None, False, True


def _paid_into_kitty(ruleset: Ruleset, into: str | None) -> tuple[str | None, bool, bool]:
    kitty = ruleset.kitty()
    return (None if kitty is None else kitty.name), True, False


def _paid_into_section(ruleset: Ruleset, into: str | None) -> tuple[str | None, bool, bool]:
    return into, False, False  # spec §7: into a section, which nobody takes unless named


PAID_TO_TERMS: dict[PaidTo, Callable[[Ruleset, str | None], tuple[str | None, bool, bool]]] = {
    "winner": _paid_to_winner,
    "kitty": _paid_into_kitty,
    "section": _paid_into_section,
}
"""Where the z3 model's going-out payments go (spec §7), one row per member of
:data:`PaidTo`, given the rule's ``into``: (the section paid into before the sections are
taken, or ``None``; whether the winner takes it too; whether the winner is paid, after)."""


@dataclass(frozen=True)
class ClaimTerm:
    """How the z3 model states a claims rule (spec §6.6): ``plays_claim``, a play's
    post-state moves the sections the card claims; ``at_start``, the holders are paid at the
    phase start, a stage z3 does not model step by step (:func:`~.verifier.symbolic_gaps`)."""

    plays_claim: bool
    at_start: bool


CLAIM_TERMS: dict[ClaimRule, ClaimTerm] = {
    "on play": ClaimTerm(plays_claim=True, at_start=False),
    "on holding": ClaimTerm(plays_claim=False, at_start=True),
    "none": ClaimTerm(plays_claim=False, at_start=False),
}
"""The z3 model's claims rules, one row per member of :data:`ClaimRule`."""


def _not_seat(layout: Layout, who: Expr, k: int) -> Expr:
    """``who != k``, built once per term and seat."""
    return layout.memo(("not seat", who.get_id(), k), lambda: z3.Not(layout.eq(who, k)))


def _payments(layout: Layout, chips: ChipTerms, who: Expr, loc: list[Expr],
              dst: Account, before: tuple[Expr, ...]) -> None:
    """Each opponent pays ``per card`` chips per card left, unless excused (spec §7);
    ``before``: the places before the move."""
    rules = layout.phase.going_out
    excused_idx = [layout.index[c] for c in rules.excused if c in layout.index]
    payers = []
    for k in range(layout.n):
        count = _hand_count(layout, loc, k, before)
        amount = count if rules.per_card == 1 else rules.per_card * count
        if excused_idx:  # without excused cards, no choice is built
            excused = any_of([layout.eq(loc[j], k) for j in excused_idx])
            amount = z3.If(excused, 0, amount)
        payers.append((k, amount, _not_seat(layout, who, k)))
    chips.gather(payers, dst, "going out")


def _stop_bonus(layout: Layout, chips: ChipTerms, who: Expr) -> ChipTerms:
    """Spec §6.7: the player of the stop card receives the bonus."""
    bonus = layout.phase.stop_bonus
    if bonus is None:
        return chips
    if bonus.source == "each opponent":
        chips.gather([(k, z3.RealVal(bonus.amount), who != k) for k in range(layout.n)],
                     ("seat", who), "stop bonus")
        return chips
    k = layout.section_index(bonus.source)
    have = chips.sec[k]
    chips.move(("section", k), ("seat", who), z3.If(have < bonus.amount, have, bonus.amount),
               "stop bonus")
    return chips


def _pass(layout: Layout, s: SymState, mutation: Mutation) -> tuple[SymState, ChipTerms]:
    """Spec §6.5 (:func:`boodle.engine.stages.stops._pass`): fees and penalties, the lead passes
    left; when every player has passed the deal ends or the colour flips."""
    phase = layout.phase
    chips = _chips(layout, s, mutation)
    who, gone = s.tomove, s.ghosts.gone
    dues: list[tuple[int, str, bool]] = []
    fb = phase.fallback
    if fb.amount > 0 and fb.to is not None:
        dues.append((fb.amount, fb.to, fb.if_able))
    dues += [(p.amount, p.to, False) for p in phase.penalties if FAULT_TERMS[p.fault].at_pass]
    for amount, to, if_able in dues:
        if to == "each opponent":
            _each_opponent(layout, chips, who, z3.RealVal(amount), None, gone)
        else:  # 'if able' (spec §6.5): only a seat with at least the fee pays it
            able = chips.balance(("seat", who)) >= amount if if_able else True
            chips.move(("seat", who), ("section", layout.section_index(to)), z3.RealVal(amount),
                       "penalty", able)
    passes = s.passes + 1
    everyone = passes == layout.seats_in(gone)  # every seat still in passed (spec §10)
    nxt = layout.left(who, gone)
    row = ALL_PASS_TERMS[phase.all_pass]
    if row.ends_deal and phase.all_pass_to is not None:
        # spec §6.5: the round of passes ends the deal, each seat pays per card left
        loc = list(s.loc)
        charge = phase.all_pass_charge
        payers = [(k, _hand_count(layout, loc, k) * charge if charge != 1
                   else _hand_count(layout, loc, k), everyone) for k in range(layout.n)]
        chips.gather(payers, ("section", layout.section_index(phase.all_pass_to)), "all pass")
    post = row.post(s, everyone, nxt, passes)
    return post.with_(bal=tuple(chips.bal), sec=tuple(chips.sec)), chips


def _round_ends(s: SymState, everyone: Expr, nxt: Expr, passes: int) -> SymState:
    return s.with_(step=z3.If(everyone, OVER, LEAD), tomove=z3.If(everyone, NONE, nxt),
                   passes=passes)


def _colour_flips(s: SymState, everyone: Expr, nxt: Expr, passes: int) -> SymState:
    return s.with_(tomove=nxt, passes=z3.If(everyone, 0, passes),
                   flipped=z3.If(everyone, z3.Not(s.flipped), s.flipped))


@dataclass(frozen=True)
class AllPassTerm:
    """How the z3 model states an all-pass rule (spec §6.5): ``ends_deal``, a round of
    passes ends the deal (any charge per card is paid); ``post``, the pass's post-state
    (``everyone``: this pass completes the round); ``event``, the step kind the engine's
    trace shows for it (:mod:`~.engine_model`), ``None`` for none."""

    ends_deal: bool
    post: Callable[[SymState, Expr, Expr, int], SymState]
    event: str | None


ALL_PASS_TERMS: dict[AllPass, AllPassTerm] = {
    # told nothing, the engine flips a colour no rule reads (the 'no all-pass exit' mutant
    # of the verifier's tests: the round of passes goes on for ever)
    "none": AllPassTerm(ends_deal=False, post=_colour_flips, event=None),
    "end without winner": AllPassTerm(ends_deal=True, post=_round_ends, event="all-pass end"),
    "flip colour": AllPassTerm(ends_deal=False, post=_colour_flips, event="colour flip"),
}
"""The z3 model's all-pass rules, one row per member of :data:`AllPass`."""
