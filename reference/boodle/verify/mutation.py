"""Deliberate faults, so that the verifier can be shown to catch broken rules.

A :class:`Mutation` breaks what a :class:`~boodle.language.model.Ruleset` cannot
express: a transfer primitive that credits without debiting (so chips
appear from nowhere), or a ruleset the engine would refuse to start
(:func:`boodle.engine.support.check_playable` refuses a pass rule without an
all-pass exit).  It acts in both semantics the verifier uses:

- in the z3 model, :meth:`Mutation.drops_debit` makes
  :meth:`~boodle.verify.actions.ChipTerms.move` skip the debit, and
  :meth:`Mutation.pays_gone` makes a fee "to each opponent" pay the
  eliminated seats too;
- around the real engine, :meth:`Mutation.after_apply` gives the debited
  chips back after each move (and pays the eliminated seats), and
  :meth:`Mutation.start_ruleset` is the ruleset the deal is *started* with
  (the checks of ``start_deal``), while every move is then played under the mutated ruleset itself.

Nothing here is used in play; the engine modules are not changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from boodle.engine.events import Event, transfers_in
from boodle.engine.ledger import Ledger, SeatAccount
from boodle.engine.state import DealState
from boodle.language.model import Ruleset

__all__ = ["NO_MUTATION", "Mutation"]


@dataclass(frozen=True)
class Mutation:
    """A named fault.  ``credit_only``: transfer reasons (``"going out"``, ``"claim"`` …) whose
    debit is dropped; ``credit_gone``: reasons of payments "to each opponent" that also pay
    each eliminated seat (spec §10 says they take no part); ``start_as``: the ruleset to
    start deals with (default: the ruleset)."""

    name: str = "none"
    about: str = ""
    credit_only: frozenset[str] = frozenset()
    credit_gone: frozenset[str] = frozenset()
    gone_amount: int = 1
    start_as: Callable[[Ruleset], Ruleset] | None = field(default=None, compare=False)

    def drops_debit(self, reason: str) -> bool:
        """Whether a transfer made for ``reason`` credits without debiting."""
        return reason in self.credit_only

    def pays_gone(self, reason: str) -> bool:
        """Whether a payment to each opponent made for ``reason`` pays the eliminated seats
        too (in the z3 model; around the engine, :meth:`after_apply`)."""
        return reason in self.credit_gone

    def start_ruleset(self, ruleset: Ruleset) -> Ruleset:
        """The ruleset a deal is started with."""
        return ruleset if self.start_as is None else self.start_as(ruleset)

    def after_apply(self, state: DealState, events: list[Event]) -> DealState:
        """``state`` with the debits of ``credit_only`` transfers in ``events`` given back."""
        if not self.credit_only and not self.credit_gone:
            return state
        ledger = state.ledger
        for event in events:
            for t in transfers_in(event):
                if t.reason in self.credit_only:
                    ledger = _credit(ledger, t.src, t.amount)
        ledger = self._pay_gone(state, events, ledger)
        return replace(state, ledger=ledger)

    def _pay_gone(self, state: DealState, events: list[Event], ledger: Ledger) -> Ledger:
        """Under ``credit_gone``: a payer that paid each opponent a ``credit_gone`` payment of
        ``gone_amount`` chips pays each eliminated seat the same after them, in seat order
        (at most what it has left when payments are capped), as the model's fault does."""
        for reason in self.credit_gone:
            paid = [t for event in events for t in transfers_in(event)
                    if t.reason == reason and isinstance(t.src, SeatAccount)
                    and isinstance(t.dst, SeatAccount)]
            if not paid:
                continue
            src, amount = paid[0].src, self.gone_amount
            assert isinstance(src, SeatAccount)
            for seat in sorted(state.out):
                have = ledger.seats[src.seat]
                give = min(amount, max(have, 0)) if state.capped else amount
                ledger = _credit(_credit(ledger, src, -give), SeatAccount(seat), give)
        return ledger


def _credit(ledger: Ledger, account: object, amount: object) -> Ledger:
    """``ledger`` with ``amount`` added to ``account`` without a matching debit (the fault)."""
    if isinstance(account, SeatAccount):
        seats = list(ledger.seats)
        seats[account.seat] += amount  # type: ignore[operator]
        return replace(ledger, seats=tuple(seats))
    sections = tuple((name, a + amount if name == getattr(account, "name", None) else a)  # type: ignore[operator]
                     for name, a in ledger.sections)
    return replace(ledger, sections=sections)


NO_MUTATION = Mutation()
"""The rules as written."""
