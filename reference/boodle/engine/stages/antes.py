"""The antes stage (spec §4): every ante line paid before the cards are dealt.

Lines are paid in the order written; within a line payer by payer,
clockwise from the dealer's left (the dealer last), and target by target in
the order the targets expand.  Each payment is one transfer and one
:class:`~boodle.engine.events.Ante` event.  Source: 001 §02 (each player 1 on each
boodle and 2 on the kitty); 000 step 2 (the dealer may pay double: lines add
up).  Under ``short stack: section by section`` a payer who cannot pay their whole ante pays
section by section in board order instead (:data:`SHORT_STACKS`, spec §4), and the sections
they anted are kept in ``DealState.short``.  A ``chosen boodle`` line waits for each payer's
choice, a
:class:`~boodle.engine.state.StakeMove` (Newmarket: each player stakes "as he
pleases" on a boodle card, games-of-playing-cards.pokerwiner.com).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from operator import itemgetter

from boodle.engine.events import Ante, Event
from boodle.engine.faults import IllegalMove
from boodle.engine.holders import SECTION_KINDS
from boodle.engine.ledger import Account, SeatAccount, SectionAccount, seat, section
from boodle.engine.stage import Stage
from boodle.engine.state import DealState, Move, StakeMove
from boodle.language.errors import BoodleError
from boodle.language.model import AnteLine, Chips, Payer, Ruleset, ShortStack, derived

__all__ = ["ANTE_REASONS", "PAYERS", "SHORT_STACKS", "STAGE", "ante_targets", "apply", "enter",
           "legal_moves"]


def ante_targets(ruleset: Ruleset, targets: tuple[str, ...]) -> list[str]:
    """The section names an ante line's targets expand to, in order (spec §4).

    ``each boodle``: every boodle section in board order; ``every section``:
    every section.  Raises :class:`BoodleError` for a name not on the board.
    Computed once per ruleset and targets (a new list each call).
    """
    known: dict[tuple[str, ...], tuple[str, ...]] = derived(ruleset, "_ante_targets", dict)
    names = known.get(targets)
    if names is None:
        names = known[targets] = tuple(_expand(ruleset, targets))
    return list(names)


def _expand(ruleset: Ruleset, targets: tuple[str, ...]) -> list[str]:
    names: list[str] = []
    for t in targets:
        if t == "each boodle":
            names.extend(s.name for s in ruleset.board if SECTION_KINDS[s.kind].per_card)
        elif t == "every section":
            names.extend(s.name for s in ruleset.board)
        elif any(s.name == t for s in ruleset.board):
            names.append(t)
        else:
            raise BoodleError(f"the ante names section {t!r}, which is not on the board")
    return names


PAYERS: dict[Payer, Callable[[int, Sequence[int]], tuple[int, ...]]] = {
    "each player": lambda dealer, everyone: tuple(everyone),
    "dealer": lambda dealer, everyone: (dealer,),
    "each other player": lambda dealer, everyone: tuple(everyone[:-1]),
    "widow": lambda dealer, everyone: (dealer,),  # the widow's share, paid by the dealer
}
"""Who pays an ante line (spec §4), one row per member of :data:`Payer`, given the dealer and
the seats still in clockwise from the dealer's left, dealer last: the payers in payment
order.  The compiled engine and the explicit-state checker read these rows."""


def _payers(line: AnteLine, state: DealState) -> tuple[int, ...]:
    """Who pays ``line``, in payment order: clockwise from the dealer's left, dealer last.

    Eliminated players pay no ante (spec §4, §10).
    """
    return PAYERS[line.payer](state.dealer, state.clockwise(state.dealer))


def _pay(
    state: DealState, payer: int, names: list[str], line: AnteLine, events: list[Event]
) -> DealState:
    """``payer`` puts ``line.amount`` on each section of ``names`` (one transfer each).

    Under ``balance: eliminated at zero`` a player pays at most their balance
    (spec §9).  The antes stay out of ``since_ante``: a misdeal keeps them.
    """
    return _pay_all(state, _payments(payer, names, line), events)


ANTE_REASONS: dict[Payer, str] = {
    "each player": "ante",
    "dealer": "ante",
    "each other player": "ante",
    "widow": "ante (widow's share)",  # paid by the dealer for the widow (spec §4)
}
"""The reason an ante line's transfers carry (spec §4), one row per member of :data:`Payer`."""


def _reason(line: AnteLine) -> str:
    return ANTE_REASONS[line.payer]


def _payments(payer: int, names: list[str], line: AnteLine
              ) -> list[tuple[Account, Account, Chips, str]]:
    """The transfers of ``payer``'s ante of ``line`` on each section of ``names``, whole."""
    src, reason = seat(payer), _reason(line)
    return [(src, section(name), line.amount, reason) for name in names]


def _pay_all(state: DealState, payments: list[tuple[Account, Account, Chips, str]],
             events: list[Event]) -> DealState:
    """Make ``payments`` in order in one pass over the ledger (under ``capped``, each cut to
    the payer's running balance, :meth:`~boodle.engine.state.DealState.payable`)."""
    ledger, done = state.ledger.transfer_all(payments, state.capped)
    events.extend(Ante(t) for t in done)
    return state.evolve(ledger=ledger)


def _pay_from(
    ruleset: Ruleset, state: DealState, at: tuple[int, int], events: list[Event]
) -> tuple[DealState, list[Event]]:
    """Pay the lines from (line, payer) ``at`` on, until a ``chosen boodle`` payer must choose.

    The payments up to the choice (or the end) are made in one pass over the ledger, on
    the running balances: what paying them payer by payer gives.
    """
    first_line, first_payer = at
    due: list[tuple[Account, Account, Chips, str]] = []  # payments not made yet
    for i, line in enumerate(ruleset.antes[first_line:], start=first_line):
        for j, payer in enumerate(_payers(line, state)):
            if i == first_line and j < first_payer:
                continue
            if line.chosen:  # spec §4: the payer's choice is a move
                if due:
                    state = _pay_all(state, due, events)
                return state.evolve(stake=(i, j), to_move=payer), events
            due.extend(_payments(payer, ante_targets(ruleset, line.targets), line))
    if due:  # the builder allows no choice here
        due, short = SHORT_STACKS[ruleset.short_stack](ruleset, state, due)
        if short or state.short:
            state = state.evolve(short=short)
    if due:
        state = _pay_all(state, due, events)
    return state.evolve(stake=None, to_move=None), events


Payments = list[tuple[Account, Account, Chips, str]]
Short = tuple[tuple[int, frozenset[str]], ...]


def _as_balance(ruleset: Ruleset, state: DealState, due: Payments) -> tuple[Payments, Short]:
    return due, ()


def _section_by_section(ruleset: Ruleset, state: DealState, due: Payments
                        ) -> tuple[Payments, Short]:
    """Spec §4 ``short stack: section by section``: a payer whose balance is less than their
    whole ante pays, at the place of their first payment, one transfer per section of their
    dues on it, in board order, each in full, until the first section they cannot pay in full;
    the rest stays with them.  The others pay as written.  Returns the payments and each short
    payer with the sections they anted (Alysoun/tripoley ``distributePlayerAnte``)."""
    totals: dict[int, Chips] = {}
    for src, _, amount, _ in due:
        assert isinstance(src, SeatAccount)  # the builder allows no widow line here
        totals[src.seat] = totals.get(src.seat, 0) + amount
    short = {s for s, total in totals.items() if state.ledger.seat(s) < total}
    if not short:
        return due, ()
    position = {s.name: i for i, s in enumerate(ruleset.board)}
    out: Payments = []
    anted: list[tuple[int, frozenset[str]]] = []
    for payment in due:
        src = payment[0]
        assert isinstance(src, SeatAccount)
        if src.seat not in short:
            out.append(payment)
            continue
        if any(s == src.seat for s, _ in anted):
            continue  # paid already, at the place of its first payment
        dues: dict[str, Chips] = {}
        for s, dst, amount, _ in due:
            if s == src and isinstance(dst, SectionAccount):
                dues[dst.name] = dues.get(dst.name, 0) + amount
        balance = state.ledger.seat(src.seat)
        paid: list[str] = []
        for name in sorted(dues, key=position.__getitem__):
            if dues[name] > balance:
                break
            out.append((src, section(name), dues[name], "ante"))
            balance -= dues[name]
            paid.append(name)
        anted.append((src.seat, frozenset(paid)))
    return out, tuple(anted)


SHORT_STACKS: dict[ShortStack, Callable[[Ruleset, DealState, Payments],
                                        tuple[Payments, Short]]] = {
    "as balance": _as_balance,                   # spec §9, §10: the balance line decides
    "section by section": _section_by_section,   # Alysoun/tripoley distributePlayerAnte
}
"""The reference engine's row for each short-stack rule (spec §4): the ante's payments, in
order, and the short seats with the sections each anted (:attr:`DealState.short`)."""


def enter(ruleset: Ruleset, state: DealState) -> tuple[DealState, list[Event]]:
    """Pay every ante line (spec §4).  The antes are not in ``since_ante``: a misdeal keeps them.

    A ``chosen boodle`` line stops for each payer's :class:`~boodle.engine.state.StakeMove`.

    The antes read nothing of the cards: what they pay depends only on the ruleset and
    on the fields of :data:`_ANTE_INPUTS` (the seats, the dealer, who is out, the ledger
    …), which many deals share (every deal of a search from one start, a session's deals
    from equal balances).  So their outcome, the fields of :data:`_ANTE_OUTPUTS` and the
    events, is kept for the last :data:`ANTES_KEPT` rulesets and inputs met, and a deal
    from the same inputs is given it again (events and ledgers are immutable).
    """
    d = state.__dict__
    key = (id(ruleset), *_ante_inputs(d))
    found = _KEPT.get(key)
    if found is None or found[0]() is not ruleset:  # an id is another ruleset's once freed
        new, events = _pay_from(ruleset, state, (0, 0), [])
        if len(_KEPT) >= ANTES_KEPT:
            _KEPT.clear()
        _KEPT[key] = (weakref.ref(ruleset), _ante_outputs(new.__dict__), tuple(events))
        return new, events
    _, values, done = found
    return state.evolve(**dict(zip(_ANTE_OUTPUTS, values, strict=True))), list(done)


_ANTE_INPUTS = ("players", "dealer", "out", "capped", "ledger", "short", "stake", "to_move")
"""The fields of a state that the antes stage reads (:func:`_pay_from`: who pays, in which
order, from which balances, how a short stack pays) or that it may leave unchanged."""

_ANTE_OUTPUTS = ("ledger", "short", "stake", "to_move")
"""The fields the antes stage sets (:func:`_pay_from`); the rest of the state it keeps."""

_ante_inputs = itemgetter(*_ANTE_INPUTS)
_ante_outputs = itemgetter(*_ANTE_OUTPUTS)

ANTES_KEPT = 64
"""How many ante outcomes :func:`enter` keeps (all are dropped when full): few, in one table
for every ruleset, so that what is kept stays small (a suite's thousands of deals, each of
its own rules, would otherwise keep every ante's events alive, and the garbage collector
walk them)."""

_KEPT: dict[tuple[object, ...],
            tuple[weakref.ref[Ruleset], tuple[object, ...], tuple[Event, ...]]] = {}
"""The ante outcomes kept, by the ruleset's ``id`` and the inputs: the ruleset (weakly: it is
not kept alive, and an ``id`` met again is another ruleset's unless it is still the same),
the outputs and the events."""


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Move, ...]:
    """The stakes the payer due may make: one per boodle section of the line, in board order."""
    if state.stake is None or state.to_move is None:
        return ()
    line = ruleset.antes[state.stake[0]]
    return tuple(StakeMove(state.to_move, name) for name in line.targets)


def apply(ruleset: Ruleset, state: DealState, move: Move) -> tuple[DealState, list[Event]]:
    """Pay the payer's stake on the boodle they chose, then the antes after it (spec §4).

    Raises :class:`IllegalMove`: ``move.kind`` for anything but a stake,
    ``ante.stake`` for a section the line does not offer (not a boodle).
    """
    if state.stake is None or not isinstance(move, StakeMove):
        raise IllegalMove(f"{move}: the antes take only a stake on a boodle", rule="move.kind")
    line_no, payer_no = state.stake
    line = ruleset.antes[line_no]
    if move.section not in line.targets:
        raise IllegalMove(f"{move}: a chosen-boodle stake goes on one of "
                          f"{', '.join(line.targets)}", rule="ante.stake")
    events: list[Event] = []
    state = _pay(state, move.seat, [move.section], line, events)
    return _pay_from(ruleset, state, (line_no, payer_no + 1), events)


STAGE = Stage("antes", enter, legal_moves, apply)
"""The antes stage: its moves are the stakes of ``chosen boodle`` lines (Newmarket)."""
