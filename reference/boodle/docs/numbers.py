"""Antes and deal sizes per number of players, computed by the reference interpreter.

Nothing here does arithmetic on the rules: each row is one real deal started
by :func:`boodle.engine.start_deal` (the antes are its ``Ante`` events, the
hand sizes its ``DealCards`` event), dealt from the unshuffled pack with the
last seat as dealer, so seat 0 is the dealer's left; every seat opens with
the session's start chips (a variant that eliminates a seat at zero chips
would not let a seat with none deal), and sections paid by a card drawn
from a second pack are bound to the first cards of the pack (which card
pays a section changes neither the antes nor the hand sizes).  Where the interpreter
cannot start a deal of the variant yet, hand sizes come from
:func:`boodle.engine.deal_hands` alone and the antes are reported missing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from boodle import engine
from boodle.engine.events import Ante, DealCards
from boodle.engine.ledger import Ledger, SeatAccount, SectionAccount
from boodle.language.errors import BoodleError
from boodle.language.model import Chips, Ruleset
from boodle.session.second_pack import bind_drawn, unbound_sections


@dataclass(frozen=True)
class Row:
    """One player count: ``hands`` in dealing order from the dealer's left (dealer last).

    ``sections``: chips one ante puts on each section (board order), ``None``
    when the interpreter cannot start a deal; ``dealer_pays`` /
    ``other_pays``: what the dealer and each other player put in.
    """

    players: int
    hands: tuple[int, ...]
    widow: int
    sections: tuple[Chips, ...] | None
    dealer_pays: Chips | None
    other_pays: Chips | None


@dataclass(frozen=True)
class Numbers:
    """Every row of a variant, and why antes are missing (``None`` if they are not)."""

    rows: tuple[Row, ...]
    unavailable: str | None
    chosen: tuple[int, ...]



def _started(ruleset: Ruleset, n: int) -> Row:
    dealer = n - 1
    ledger = Ledger.open(n, tuple(s.name for s in ruleset.board), ruleset.session.start_chips)
    _, events = engine.start_deal(ruleset, n, dealer, ledger, deck_order=ruleset.deck.cards())
    put: dict[str, Chips] = defaultdict(int)
    paid: dict[int, Chips] = defaultdict(int)
    dealt: DealCards | None = None
    for e in events:
        if isinstance(e, Ante) and isinstance(e.transfer.dst, SectionAccount):
            put[e.transfer.dst.name] += e.transfer.amount
            if isinstance(e.transfer.src, SeatAccount):
                paid[e.transfer.src.seat] += e.transfer.amount
        elif isinstance(e, DealCards) and dealt is None:
            dealt = e
    if dealt is None:
        raise BoodleError("the interpreter dealt no cards")
    return Row(n, tuple(len(h) for h in dealt.hands), len(dealt.widow),
               tuple(put[s.name] for s in ruleset.board), paid[dealer], paid[0])


def _dealt_only(ruleset: Ruleset, n: int) -> Row:
    hands, widow = engine.deal_hands(ruleset, n, n - 1, ruleset.deck.cards())
    return Row(n, tuple(len(h) for h in hands), len(widow), None, None, None)


def numbers(ruleset: Ruleset) -> Numbers:
    """The rows for every allowed player count.

    Chosen-boodle ante lines (a choice of each payer) are left out of the
    per-section figures; their amounts are returned in ``chosen``.
    """
    chosen = tuple(line.amount for line in ruleset.antes if line.chosen)
    fixed = replace(ruleset, antes=tuple(line for line in ruleset.antes if not line.chosen))
    unbound = len(unbound_sections(fixed))
    if unbound:
        fixed, _ = bind_drawn(fixed, fixed.deck.cards()[:unbound])
    rows: list[Row] = []
    why: str | None = None
    for n in ruleset.players.counts():
        try:
            rows.append(_started(fixed, n))
        except BoodleError as exc:
            why = why or exc.message
            rows.append(_dealt_only(fixed, n))
    return Numbers(tuple(rows), why, chosen)
