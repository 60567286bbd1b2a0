"""The symbolic state of a deal's stops phase: one z3 variable per card place, run and chip account.

A :class:`Layout` fixes, for one ruleset and player count, how the engine's
:class:`~boodle.engine.state.DealState` is written as integers (spec §6, §7, §9):

- every card of the deck has a **location** code: ``p`` in seat ``p``'s hand
  (0 ≤ p < n), ``n`` in the widow, ``n + 1 + p`` played by seat ``p``, and
  ``2n + 1`` out of play (a hand discarded in a widow sale, spec §5.4).  One
  variable per card is the model's form of "each card is in exactly one place";
- ``step`` (0 lead, 1 follow, 2 over), ``tomove`` (a seat, −1 once over),
  ``cur`` (the card the run is at, −1 when no run goes on), ``restart``,
  ``stopped`` (a suit index, −1 before the first stop), ``last`` (who played
  the stopped card, −1 before), ``passes``, ``flipped``, ``winner`` (−1: none);
- chips: one real per seat and per section, in board order;
- ``forfeit``: per seat, whether it claims nothing more this deal (spec §6.8,
  ``penalty: lead not lowest, …, forfeit boodles``).

:class:`Ghosts` are constants of a deal that the stops phase reads but never
changes: the chip total, the dealer, the trump suit, the winners of earlier
poker phases, which sections earlier phases took, which cards lie in the
widow or out of play when play starts, and which sections each seat may take (spec §4,
``short stack: section by section``: what a short seat anted).  Cards are indexed in
``ruleset.deck.cards()`` order (suit by suit, low to high).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

import z3

from boodle.language.cards import SUIT_COLOUR, Card
from boodle.language.model import Ruleset, Section, StopsPhase
from boodle.verify.own_rules import DRAWN, PHASE_WON, next_card, rank_position, seats_may_be_out

__all__ = ["FOLLOW", "LEAD", "NONE", "OVER", "Ghosts", "Layout", "SymState", "all_of", "any_of",
           "fresh_state", "sum_of"]

LEAD, FOLLOW, OVER = 0, 1, 2
"""The ``step`` codes (the engine's ``"lead"``, ``"follow"``, ``"over"``)."""

NONE = -1
"""The code of an absent seat, card or suit (the engine's ``None``)."""

Expr = Any
"""A z3 expression (z3 ships no type information)."""


def _is_int(ref: Any, ast: Any) -> bool:
    """Whether the term ``ast`` is of sort Int (z3's ``is_int``, in two C calls)."""
    return bool(z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, ast)) == z3.Z3_INT_SORT)


def _array(args: Sequence[Expr]) -> Any:
    if len(args) == 2:  # the commonest case, without a list
        return (z3.Ast * 2)(args[0].as_ast(), args[1].as_ast())
    return (z3.Ast * len(args))(*[a.as_ast() for a in args])


def any_of(args: Sequence[Expr]) -> Expr:
    """``Or(*args)`` (false when empty), built in one call: z3's Python ``Or`` checks every
    argument in Python, which dominates building the model's large disjunctions."""
    if not args:
        return z3.BoolVal(False)
    ctx = args[0].ctx
    return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), len(args), _array(args)), ctx)


def all_of(args: Sequence[Expr]) -> Expr:
    """``And(*args)`` (true when empty), built in one call (see :func:`any_of`)."""
    if not args:
        return z3.BoolVal(True)
    ctx = args[0].ctx
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(args), _array(args)), ctx)


def sum_of(args: Sequence[Expr]) -> Expr:
    """The sum of arithmetic terms of one sort (the integer 0 when empty), built in one call
    (see :func:`any_of`)."""
    if not args:
        return z3.IntVal(0)
    ctx = args[0].ctx
    return z3.ArithRef(z3.Z3_mk_add(ctx.ref(), len(args), _array(args)), ctx)


@dataclass(frozen=True)
class Layout:
    """How one ruleset's stops phase with ``n`` players is written as integers.

    ``phase``: the stops phase; ``cards``: the deck in index order.  Raises
    ``ValueError`` if the ruleset has no stops phase.
    """

    ruleset: Ruleset
    n: int

    @cached_property
    def phase(self) -> StopsPhase:
        """The stops phase (the first, as the engine plays it)."""
        for p in self.ruleset.phases:
            if isinstance(p, StopsPhase):
                return p
        raise ValueError(f"{self.ruleset.name} has no stops phase")

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The deck, in index order."""
        return self.ruleset.deck.cards()

    @cached_property
    def index(self) -> dict[Card, int]:
        """Card → its index."""
        return {c: i for i, c in enumerate(self.cards)}

    @cached_property
    def suits(self) -> tuple[str, ...]:
        """The suits in play, by suit index."""
        return self.ruleset.deck.suits

    def suit_of(self, i: int) -> int:
        """The suit index of card ``i``."""
        return self.suits.index(self.cards[i].suit)

    def rank_of(self, i: int) -> int:
        """The rank position of card ``i`` (0 = lowest)."""
        return rank_position(self.ruleset.deck, self.cards[i])

    def next_of(self, i: int) -> int | None:
        """The index of the next card of card ``i`` (spec §2.2), ``None`` if it has none in the
        deck (top rank, or removed: both stop a run).  The verifier's own statement of the
        rank order (:func:`boodle.verify.own_rules.next_card`), not the engine's."""
        nxt = next_card(self.ruleset.deck, self.cards[i])
        return None if nxt is None else self.index.get(nxt)

    @cached_property
    def successions(self) -> tuple[tuple[int, int], ...]:
        """Every (card, its next card) of the deck, by card index (:meth:`next_of`)."""
        return tuple((i, nxt) for i in range(len(self.cards))
                     if (nxt := self.next_of(i)) is not None)

    def prev_of(self, i: int) -> int | None:
        """The index of the card whose next card is ``i``, if it is in the deck."""
        return next((j for j in range(len(self.cards)) if self.next_of(j) == i), None)

    def same_suit_below(self, i: int) -> list[int]:
        """Indices of the cards of ``i``'s suit ranked below it."""
        return [j for j in range(len(self.cards))
                if self.cards[j].suit == self.cards[i].suit and self.rank_of(j) < self.rank_of(i)]

    def colour_suits(self, colour: str) -> list[int]:
        """The suit indices of ``colour`` (``"red"`` or ``"black"``)."""
        return [k for k, s in enumerate(self.suits) if SUIT_COLOUR[s] == colour]

    @property
    def widow(self) -> int:
        """The location code of the widow."""
        return self.n

    @property
    def out(self) -> int:
        """The location code of "out of play"."""
        return 2 * self.n + 1

    def played(self, seat: Expr) -> Expr:
        """The location code of "played by ``seat``" (``seat`` may be symbolic: the term
        z3 makes of ``n + 1 + seat``, built once per seat term)."""
        if isinstance(seat, int):
            return self.n + 1 + seat
        def build() -> Expr:
            ctx = seat.ctx
            args = (z3.Ast * 2)(self.num(self.n + 1).as_ast(), seat.as_ast())
            return z3.ArithRef(z3.Z3_mk_add(ctx.ref(), 2, args), ctx)

        return self.memo(("played", seat.get_id()), build)

    def section_index(self, name: str) -> int:
        """A section's index in board order; raises ``KeyError`` for an unknown name."""
        for k, s in enumerate(self.ruleset.board):
            if s.name == name:
                return k
        raise KeyError(name)

    @property
    def board(self) -> tuple[Section, ...]:
        """The sections, in board order."""
        return self.ruleset.board

    @cached_property
    def _atoms(self) -> dict[tuple[int, int], Expr]:
        """The shared atoms of :meth:`eq`."""
        return {}

    def eq(self, x: Expr, code: Expr | int) -> Expr:
        """The term ``x == code``, built once per (term, code): every action and invariant
        shares the atoms of the cards it leaves in place."""
        key = (x.get_id(), code if isinstance(code, int) else -(10**9) - code.get_id())
        atom = self._atoms.get(key)
        if atom is None:
            atom = self._atoms[key] = self._int_eq(x, code) if isinstance(code, int) \
                else x == code
        return atom

    def eq_codes(self, x: Expr, codes: Sequence[int]) -> list[Expr]:
        """``[self.eq(x, k) for k in codes]`` (the very same terms) for an integer term ``x``,
        with ``x``'s key and sort found once."""
        if not z3.is_int(x):
            return [self.eq(x, k) for k in codes]
        xid, table, ctx = x.get_id(), self._atoms, x.ctx
        out = []
        for k in codes:
            atom = table.get((xid, k))
            if atom is None:
                atom = table[(xid, k)] = z3.BoolRef(
                    z3.Z3_mk_eq(ctx.ref(), x.as_ast(), self.num(k).as_ast()), ctx)
            out.append(atom)
        return out

    def eqs(self, xs: Sequence[Expr], code: Expr | int,
            base: tuple[Sequence[Expr], Sequence[Expr]] | None = None) -> list[Expr]:
        """``[self.eq(x, code) for x in xs]`` (the very same terms), with ``code``'s key
        computed once.  ``base``: terms ``ys`` and their atoms ``[self.eq(y, code) …]``
        made before; where ``xs[k] is ys[k]`` the atom is taken from there (the places
        after a move are those before it but for the cards moved)."""
        if base is not None:
            ys, atoms = base
            out = list(atoms)
            for k, (x, y) in enumerate(zip(xs, ys, strict=True)):
                if x is not y:
                    out[k] = self.eq(x, code)
            return out
        if isinstance(code, int):
            return [self.eq(x, code) for x in xs]
        tag = -(10**9) - code.get_id()
        table = self._atoms
        out = []
        ctx, c = code.ctx, code.as_ast()
        ref = ctx.ref()
        ints = _is_int(ref, c)
        for x in xs:
            key = (x.get_id(), tag)
            atom = table.get(key)
            if atom is None:  # x == code, built by z3's C API when no coercion is due
                a = x.as_ast()
                atom = table[key] = z3.BoolRef(z3.Z3_mk_eq(ref, a, c), ctx) \
                    if ints and _is_int(ref, a) else x == code
            out.append(atom)
        return out

    @cached_property
    def bases(self) -> dict[str, Any]:
        """Terms of a first state kept for later ones (see :meth:`eqs`), by name."""
        return {}

    @cached_property
    def _numerals(self) -> dict[int, Expr]:
        """Integer numerals, built once."""
        return {}

    def num(self, k: int) -> Expr:
        """The integer numeral ``k`` (z3's ``IntVal(k)``), built once."""
        out = self._numerals.get(k)
        if out is None:
            out = self._numerals[k] = z3.IntVal(k)
        return out

    def _int_eq(self, x: Expr, code: int) -> Expr:
        """``x == code`` through z3's C API for an integer term ``x`` (z3's ``==`` coerces its
        arguments in Python); any other sort takes z3's ``==``."""
        ctx = x.ctx
        ref, a = ctx.ref(), x.as_ast()
        if not _is_int(ref, a):
            return x == code
        num = self._numerals.get(code)
        if num is None:
            num = self._numerals[code] = z3.IntVal(code)
        return z3.BoolRef(z3.Z3_mk_eq(ref, a, num.as_ast()), ctx)

    @cached_property
    def _memo(self) -> dict[tuple[object, ...], Expr]:
        """The shared terms of :meth:`memo`."""
        return {}

    def memo(self, key: tuple[object, ...], build: Callable[[], Expr]) -> Expr:
        """The term ``build()`` made once per ``key`` (keys name the terms it reads by id)."""
        term = self._memo.get(key)
        if term is None:
            term = self._memo[key] = build()
        return term

    @cached_property
    def _ids(self) -> dict[int, tuple[tuple[Expr, ...], tuple[int, ...]]]:
        """The ids of :meth:`ids`, by the Python identity of the tuple (kept alive here)."""
        return {}

    def ids(self, terms: tuple[Expr, ...]) -> tuple[int, ...]:
        """The z3 ids of ``terms`` (a tuple of a state, such as its card places), computed
        once per tuple object: the states of every action share their pre-state's tuples."""
        hit = self._ids.get(id(terms))
        if hit is None or hit[0] is not terms:
            hit = self._ids[id(terms)] = (terms, tuple(x.get_id() for x in terms))
        return hit[1]

    @cached_property
    def _lists(self) -> dict[tuple[object, ...], tuple[tuple[Expr, ...], tuple[Expr, ...]]]:
        """The shared term lists of :meth:`memo_list`, with the terms their keys name."""
        return {}

    def memo_list(self, key: tuple[object, ...], build: Callable[[], Sequence[Expr]],
                  keep: Sequence[Expr] = ()) -> tuple[Expr, ...]:
        """The terms ``build()`` made once per ``key``.  ``keep``: the terms whose ids the key
        holds; they are kept alive with the entry, so that no id is reused by another term."""
        hit = self._lists.get(key)
        if hit is None:
            hit = self._lists[key] = (tuple(build()), tuple(keep))
        return hit[0]

    def left(self, seat: Expr, gone: Sequence[Expr] = ()) -> Expr:
        """The seat on ``seat``'s left (clockwise) that is still in (spec §10: an eliminated
        seat is skipped; :meth:`boodle.engine.state.DealState.left_of`).

        ``gone``: one boolean per seat, true for a seat eliminated (:attr:`Ghosts.gone`);
        empty when the rules eliminate nobody (then the next seat, ``seat + 1 mod n``).
        A seat with nobody else in is its own left.
        """
        if not gone:
            if isinstance(seat, int):
                return (seat + 1) % self.n
            return z3.If(seat == self.n - 1, z3.IntVal(0), seat + 1)
        n = self.n

        def of(k: int) -> Expr:  # z3's If(Not(gone[k+1]), k+1, If(Not(gone[k+2]), …, k))
            out: Expr = self.num(k)
            for d in range(n - 1, 0, -1):
                j = (k + d) % n
                out = z3.If(gone[j], out, self.num(j))
            return out

        keys = tuple(g.get_id() for g in gone)
        if isinstance(seat, int):
            return self.memo(("left of", seat, keys), lambda: of(seat))

        def chain() -> Expr:
            out = of(n - 1)
            for k in range(n - 2, -1, -1):
                out = z3.If(self.eq(seat, k), of(k), out)
            return out

        return self.memo_list(("left", seat.get_id(), keys), lambda: [chain()], [seat])[0]

    def lefts(self, seat: Expr, times: int, gone: Sequence[Expr] = ()) -> Expr:
        """:meth:`left` applied ``times`` times (the seat ``times`` seats still in to
        ``seat``'s left)."""
        out = seat
        for _ in range(times):
            out = self.left(out, gone)
        return out

    def seats_in(self, gone: Sequence[Expr]) -> Expr:
        """How many seats are still in (``n`` when ``gone`` is empty), an integer term."""
        if not gone:
            return self.num(self.n)
        keys = tuple(g.get_id() for g in gone)
        return self.memo(("seats in", keys), lambda: sum_of(
            [z3.If(g, self.num(0), self.num(1)) for g in gone]))


@dataclass(frozen=True)
class Ghosts:
    """Constants of one deal that play reads but never changes (see the module docstring).

    ``total``: chips of all seats and sections; ``dealer``: a seat; ``trump``:
    the trump suit index (−1 without trumps); ``winners``: poker phase name →
    its winning seat; ``taken``: (phase, section) → whether that phase paid it;
    ``drawn``: a drawn section's name → its card's index; ``widow0`` /
    ``out0``: per card, whether it lies in the widow / out of play; ``gone``: per seat,
    whether it is eliminated (spec §10: it holds no card and no chip, is never to move and
    is skipped by "left" and "each opponent"), empty when no deal is played with a seat out
    (:func:`~boodle.verify.own_rules.seats_may_be_out`); ``eligible``: per seat, per section in
    board order, whether that seat may take that section this deal (spec §4, ``short stack:
    section by section``: a seat short at the ante takes only the sections it anted, any
    other seat every section; :mod:`boodle.verify.eligibility`), empty under a rule by which
    every seat may take every section.
    """

    total: Expr
    dealer: Expr
    trump: Expr
    winners: dict[str, Expr]
    taken: dict[tuple[str, str], Expr]
    drawn: dict[str, Expr]
    widow0: tuple[Expr, ...]
    out0: tuple[Expr, ...]
    gone: tuple[Expr, ...] = ()
    eligible: tuple[tuple[Expr, ...], ...] = ()

    def variables(self) -> list[Expr]:
        """Every ghost, flattened (``eligible`` seat by seat, each in board order)."""
        return [self.total, self.dealer, self.trump, *self.winners.values(),
                *self.taken.values(), *self.drawn.values(), *self.widow0, *self.out0,
                *self.gone, *(e for seat in self.eligible for e in seat)]


@dataclass(frozen=True)
class SymState:
    """One state of the stops phase as z3 terms (codes in the module docstring).

    ``bal``: one per seat; ``sec``: one per section, in board order;
    ``forfeit``: one per seat.
    """

    loc: tuple[Expr, ...]
    step: Expr
    tomove: Expr
    cur: Expr
    restart: Expr
    stopped: Expr
    last: Expr
    passes: Expr
    flipped: Expr
    winner: Expr
    bal: tuple[Expr, ...]
    sec: tuple[Expr, ...]
    forfeit: tuple[Expr, ...]
    ghosts: Ghosts = field(compare=False)

    def scalars(self) -> dict[str, Expr]:
        """The non-card, non-chip fields by name (for printing and comparing)."""
        skip = {"loc", "bal", "sec", "forfeit", "ghosts"}
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in skip}

    def flat(self) -> list[Expr]:
        """Every state term in a fixed order: cards, scalars, seats, sections, forfeits."""
        return [*self.loc, *self.scalars().values(), *self.bal, *self.sec, *self.forfeit]

    def with_(self, **changes: Any) -> SymState:
        """A copy with some fields replaced."""
        return replace(self, **changes)


def _tracks_eligibility(ruleset: Ruleset) -> bool:
    """Whether who may take which section is a ghost of the deal (spec §4)."""
    from boodle.verify.eligibility import SHORT_STACK_TERMS  # it reads this module's terms

    return SHORT_STACK_TERMS[ruleset.short_stack].tracked


def fresh_ghosts(layout: Layout, prefix: str = "g") -> Ghosts:
    """New z3 constants for the ghosts of ``layout``."""
    rs = layout.ruleset
    phase = layout.phase
    fallback = [phase.fallback.rule] if phase.fallback.rule else []
    rules = [phase.first_lead, phase.restart, *fallback]
    winners = sorted({r.phase for r in rules if PHASE_WON[r.who] and r.phase})
    return Ghosts(
        total=z3.Real(f"{prefix}.total"),
        dealer=z3.Int(f"{prefix}.dealer"),
        trump=z3.Int(f"{prefix}.trump"),
        winners={w: z3.Int(f"{prefix}.winner.{w}") for w in winners},
        taken={(earlier, name): z3.Bool(f"{prefix}.taken.{earlier}.{name}")
               for name, earlier in phase.going_out.unless_taken},
        drawn={s.name: z3.Int(f"{prefix}.drawn.{s.name}")
               for s in rs.board if DRAWN[s.suit_rule] and not s.cards},
        widow0=tuple(z3.Bool(f"{prefix}.widow.{c}") for c in layout.cards),
        out0=tuple(z3.Bool(f"{prefix}.out.{c}") for c in layout.cards),
        gone=tuple(z3.Bool(f"{prefix}.gone.{k}") for k in range(layout.n))
        if seats_may_be_out(rs) else (),
        eligible=tuple(tuple(z3.Bool(f"{prefix}.eligible.{k}.{s.name}") for s in rs.board)
                       for k in range(layout.n)) if _tracks_eligibility(rs) else (),
    )


def fresh_state(layout: Layout, prefix: str, ghosts: Ghosts) -> SymState:
    """A state of fresh z3 variables named ``prefix.…``."""
    p = prefix
    return SymState(
        loc=tuple(z3.Int(f"{p}.loc.{c}") for c in layout.cards),
        step=z3.Int(f"{p}.step"),
        tomove=z3.Int(f"{p}.tomove"),
        cur=z3.Int(f"{p}.cur"),
        restart=z3.Bool(f"{p}.restart"),
        stopped=z3.Int(f"{p}.stopped"),
        last=z3.Int(f"{p}.last"),
        passes=z3.Int(f"{p}.passes"),
        flipped=z3.Bool(f"{p}.flipped"),
        winner=z3.Int(f"{p}.winner"),
        bal=tuple(z3.Real(f"{p}.seat.{k}") for k in range(layout.n)),
        sec=tuple(z3.Real(f"{p}.section.{s.name}") for s in layout.board),
        forfeit=tuple(z3.Bool(f"{p}.forfeit.{k}") for k in range(layout.n)),
        ghosts=ghosts,
    )
