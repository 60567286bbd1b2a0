"""Chips: accounts, an immutable ledger, and the one primitive that moves chips.

An :data:`Account` is a player's seat (:class:`SeatAccount`) or a board
section (:class:`SectionAccount`, by the section's name).  A :class:`Ledger`
holds every balance; its only mutator is :meth:`Ledger.transfer`, which
returns a new ledger and the :class:`Transfer` record of the movement, so the
total of all balances is invariant by construction (spec §9).

Amounts are :data:`boodle.language.model.Chips`: ``int``, or ``fractions.Fraction``
where a rule splits (001 §06: the session-end split keeps fractions in the
register).  A fraction with denominator 1 is stored as an ``int``.

Player balances may go negative (a register, 001 §02); a section balance
never does: moving more than a section holds raises :class:`LedgerError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from boodle.language.model import Chips, derived


class LedgerError(ValueError):
    """A chip movement the ledger refuses: negative amount, overdrawn section, unknown account."""


@dataclass(frozen=True, order=True)
class SeatAccount:
    """A player's chips, by seat number (0-based, clockwise)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat}"

    def to_json(self) -> dict[str, object]:
        """Tagged JSON form: ``{"seat": 2}``."""
        return {"seat": self.seat}


@dataclass(frozen=True, order=True)
class SectionAccount:
    """A board section's chips, by section name (``"Q♦"``, ``"kitty"``)."""

    name: str

    def __str__(self) -> str:
        return f"section {self.name}"

    def to_json(self) -> dict[str, object]:
        """Tagged JSON form: ``{"section": "kitty"}``."""
        return {"section": self.name}


Account = SeatAccount | SectionAccount
"""Where chips can be: a seat or a board section."""


@lru_cache(maxsize=1024)
def seat(n: int) -> SeatAccount:
    """The account of seat ``n``.

    Accounts are immutable, so the same object is handed out again for the
    same seat (the engine names accounts at every payment).
    """
    return SeatAccount(n)


@lru_cache(maxsize=1024)
def section(name: str) -> SectionAccount:
    """The account of the section called ``name`` (the same object for the same name)."""
    return SectionAccount(name)


def normalize(amount: Chips) -> Chips:
    """``amount`` with a whole Fraction turned into an ``int``.

    Raises :class:`LedgerError` for anything that is not an int or a Fraction
    (floats and bools are refused: chips are exact).
    """
    if type(amount) is int:  # the common case, first (a bool is not an int here)
        return amount
    if isinstance(amount, bool) or not isinstance(amount, int | Fraction):
        raise LedgerError(f"a chip amount must be an int or a Fraction, not {amount!r}")
    if isinstance(amount, Fraction) and amount.denominator == 1:
        return int(amount.numerator)
    return amount


def capped_amount(amount: Chips, balance: Chips) -> Chips:
    """What a player with ``balance`` pays of ``amount`` when a player pays at most their
    balance (spec §9): ``amount``, or the balance if less, or nothing below zero."""
    return min(amount, max(balance, 0))


def chips_json(amount: Chips) -> int | str:
    """JSON form of an amount: ints as ints, fractions as ``"a/b"`` strings."""
    amount = normalize(amount)
    return amount if isinstance(amount, int) else f"{amount.numerator}/{amount.denominator}"


@dataclass(frozen=True)
class Transfer:
    """One chip movement: ``amount`` chips from ``src`` to ``dst``, and why.

    ``reason`` names the rule that moved them (``ante``, ``claim``,
    ``payment``, ``penalty``, ``stop bonus``, ``split``).
    """

    kind: ClassVar[str] = "transfer"
    src: Account
    dst: Account
    amount: Chips
    reason: str

    def to_json(self) -> dict[str, object]:
        """``{"kind": "transfer", "from": …, "to": …, "amount": …, "reason": …}``."""
        return {
            "kind": self.kind,
            "from": self.src.to_json(),
            "to": self.dst.to_json(),
            "amount": chips_json(self.amount),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Ledger:
    """Every balance: one per seat, one per board section (in board order).

    Build one with :meth:`open`; change it only with :meth:`transfer`.
    """

    seats: tuple[Chips, ...]
    sections: tuple[tuple[str, Chips], ...]

    @classmethod
    def open(cls, players: int, section_names: tuple[str, ...], start: Chips = 0) -> Ledger:
        """A ledger with ``start`` chips per seat and every section empty."""
        if len(set(section_names)) != len(section_names):
            raise LedgerError(f"duplicate section names: {section_names}")
        return cls(
            seats=(normalize(start),) * players,
            sections=tuple((name, 0) for name in section_names),
        )

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    def section_names(self) -> tuple[str, ...]:
        """The sections' names, in board order."""
        return tuple(name for name, _ in self.sections)

    def seat(self, n: int) -> Chips:
        """Seat ``n``'s balance; raises :class:`LedgerError` if there is no such seat."""
        seats = self.seats
        if type(n) is int and 0 <= n < len(seats):
            return seats[n]
        return self.balance(SeatAccount(n))

    def section(self, name: str) -> Chips:
        """The balance of section ``name``; raises :class:`LedgerError` if there is none."""
        where = self._where()
        i = None if where is None else where.get(name)
        if i is None:
            return self.balance(SectionAccount(name))
        return self.sections[i][1]

    def balance(self, account: Account) -> Chips:
        """The balance of ``account``; raises :class:`LedgerError` if there is no such account."""
        if isinstance(account, SeatAccount):
            if not 0 <= account.seat < len(self.seats):
                raise LedgerError(f"no {account} in a ledger of {len(self.seats)} seats")
            return self.seats[account.seat]
        for name, amount in self.sections:
            if name == account.name:
                return amount
        raise LedgerError(f"no {account} on the board {self.section_names()}")

    def total(self) -> Chips:
        """All chips: every seat plus every section (invariant under :meth:`transfer`)."""
        return normalize(sum(self.seats) + sum([a for _, a in self.sections]))

    def _where(self) -> dict[str, int] | None:
        """Each section's position in :attr:`sections` by name; ``None`` if a name is there
        twice (only a ledger built by hand can have that).

        Computed once and kept in the instance dictionary (as ``_by_name``), outside the fields
        (equality, hashing and ``repr`` do not see it); the ledgers made by
        :meth:`transfer` and :meth:`transfer_all` have the same names in the
        same order and are handed the same map.
        """
        def compute() -> dict[str, int] | None:
            where = {name: i for i, (name, _) in enumerate(self.sections)}
            return where if len(where) == len(self.sections) else None

        return derived(self, "_by_name", compute)

    def transfer(
        self, src: Account, dst: Account, amount: Chips, reason: str
    ) -> tuple[Ledger, Transfer]:
        """Move ``amount`` chips from ``src`` to ``dst``: the new ledger and the record.

        Raises :class:`LedgerError` if ``amount`` is negative or not exact, if
        ``src`` is ``dst``, if an account does not exist, or if ``src`` is a
        section holding less than ``amount``.
        """
        where = self._where()
        if where is None:  # a name twice: every section of the name moves
            return self._transfer_by_name(src, dst, amount, reason)
        ledger, (record,) = self._moved([(src, dst, amount, reason)], where)
        return ledger, record

    def _transfer_by_name(
        self, src: Account, dst: Account, amount: Chips, reason: str
    ) -> tuple[Ledger, Transfer]:
        """:meth:`transfer` on a ledger whose sections may repeat a name: the balance is the
        first section's of the name, and every section of the name moves."""
        amount = normalize(amount)
        if amount < 0:
            raise LedgerError(f"cannot transfer a negative amount ({amount}) for {reason}")
        if type(src) is type(dst) and src == dst:
            raise LedgerError(f"cannot transfer from {src} to itself for {reason}")
        have = self.balance(src)
        self.balance(dst)
        if isinstance(src, SectionAccount) and have < amount:
            raise LedgerError(f"{src} holds {have}, cannot pay {amount} for {reason}")
        seats: list[Chips] | None = None
        sections = self.sections
        for account, delta in ((src, -amount), (dst, amount)):
            if isinstance(account, SeatAccount):
                if seats is None:
                    seats = list(self.seats)
                seats[account.seat] = normalize(seats[account.seat] + delta)
            else:
                sections = tuple([(name, normalize(a + delta) if name == account.name else a)
                                  for name, a in sections])
        return (Ledger(self.seats if seats is None else tuple(seats), sections),
                Transfer(src, dst, amount, reason))

    def transfer_all(
        self, moves: list[tuple[Account, Account, Chips, str]], capped: bool = False
    ) -> tuple[Ledger, list[Transfer]]:
        """:meth:`transfer` each of ``moves`` (source, destination, amount, reason) in order:
        the last ledger and every record, exactly as one :meth:`transfer` after another
        (same checks on the running balances, same errors), built in one pass.

        ``capped``: a seat pays at most its balance, none when it is zero or less (spec
        §9, ``balance: eliminated at zero``): each amount a seat pays is first cut to
        :func:`capped_amount` of the running balance, before any other check.
        """
        where = self._where()
        if where is None:  # a name twice: one transfer after another
            ledger, done = self, []
            for src, dst, amount, reason in moves:
                if capped and isinstance(src, SeatAccount):
                    amount = capped_amount(amount, ledger.balance(src))
                ledger, t = ledger._transfer_by_name(src, dst, amount, reason)
                done.append(t)
            return ledger, done
        return self._moved(moves, where, capped)

    def _moved(
        self, moves: list[tuple[Account, Account, Chips, str]], where: dict[str, int],
        capped: bool = False,
    ) -> tuple[Ledger, list[Transfer]]:
        """:meth:`transfer_all` for a ledger whose section names are unique (``where``: each
        section's position by name): the checks of :meth:`transfer` in its order, on the
        running balances, and one new ledger at the end."""
        seats, sections = list(self.seats), list(self.sections)
        n = len(seats)
        done = []
        for src, dst, amount, reason in moves:
            if capped and isinstance(src, SeatAccount):
                amount = capped_amount(amount, seats[self._slot(src, n, where)])
            if type(amount) is not int:
                amount = normalize(amount)
            if amount < 0:
                raise LedgerError(f"cannot transfer a negative amount ({amount}) for {reason}")
            if type(src) is type(dst) and src == dst:
                raise LedgerError(f"cannot transfer from {src} to itself for {reason}")
            # _slot, its common cases inline (a seat of the ledger, a section of the board)
            if type(src) is SeatAccount and 0 <= src.seat < n:
                a = src.seat
            elif type(src) is SectionAccount and src.name in where:
                a = ~where[src.name]
            else:
                a = self._slot(src, n, where)
            if type(dst) is SeatAccount and 0 <= dst.seat < n:
                b = dst.seat
            elif type(dst) is SectionAccount and dst.name in where:
                b = ~where[dst.name]
            else:
                b = self._slot(dst, n, where)
            if a < 0:  # a section pays: never more than it holds
                name, have = sections[~a]
                if have < amount:
                    raise LedgerError(f"{src} holds {have}, cannot pay {amount} for {reason}")
                left = have - amount
                sections[~a] = (name, left if type(left) is int else normalize(left))
            else:
                left = seats[a] - amount
                seats[a] = left if type(left) is int else normalize(left)
            if b < 0:
                name, have = sections[~b]
                got = have + amount
                sections[~b] = (name, got if type(got) is int else normalize(got))
            else:
                got = seats[b] + amount
                seats[b] = got if type(got) is int else normalize(got)
            # built without __init__ (a frozen dataclass's sets each field through
            # object.__setattr__)
            record = object.__new__(Transfer)
            fields = record.__dict__
            fields["src"], fields["dst"], fields["amount"], fields["reason"] = (
                src, dst, amount, reason)
            done.append(record)
        ledger = object.__new__(Ledger)
        fields = ledger.__dict__
        fields["seats"], fields["sections"], fields["_by_name"] = (
            tuple(seats), tuple(sections), where)
        return ledger, done

    def _slot(self, account: Account, seats: int, where: dict[str, int]) -> int:
        """Where ``account``'s balance is in :meth:`_moved`'s pass: its seat number, or ``~i``
        for the ``i``-th section.  Raises :class:`LedgerError` (:meth:`balance`'s words) if
        there is no such account."""
        if isinstance(account, SeatAccount):
            if 0 <= account.seat < seats:
                return account.seat
            raise LedgerError(f"no {account} in a ledger of {seats} seats")
        i = where.get(account.name)
        if i is None:
            raise LedgerError(f"no {account} on the board {self.section_names()}")
        return ~i

    def to_json(self) -> dict[str, object]:
        """``{"seats": [...], "sections": {name: amount}}`` with exact amounts."""
        return {
            "seats": [chips_json(a) for a in self.seats],
            "sections": {name: chips_json(a) for name, a in self.sections},
        }
