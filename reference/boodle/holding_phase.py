"""The holding phase (spec §8.1): sections paid at once to the players holding their cards.

004 phase 1: "anyone holding the A♥ K♥ Q♥ J♥ or 10♥ takes that section at
once; holding K and Q of one suit takes King-Queen; holding 8, 9 and 10 of
one suit takes the Chien; sections whose cards are in the ghost hand carry
over"; 004 "Égalités": several King-Queen holders share.  Who qualifies and
the shares come from :mod:`boodle.holding`; :func:`pay_holders` moves the
chips, one :class:`~boodle.events.Claim` per share, clockwise from the
dealer's left.  No card moves.  Each section paid is recorded in
``DealState.taken`` for ``takes SECTION unless taken in PHASE`` (spec §7).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from .errors import BoodleError
from .events import Claim, Event
from .holding import award, qualifiers
from .ledger import seat, section
from .model import HoldingPhase, Ruleset
from .stage import Result, Stage, no_legal_moves, no_moves
from .state import DealState

__all__ = ["STAGE", "enter", "pay_holders"]


def pay_holders(
    ruleset: Ruleset,
    state: DealState,
    names: tuple[str, ...],
    split: Literal["share", "first seat"],
    events: list[Event],
    phase: str | None = None,
) -> DealState:
    """Pay each section of ``names``, in order, to the players whose hands qualify (spec §8.1).

    A boodle: the holder of its card (fixed, drawn and bound, or its rank in
    the deal's trump suit); a set: each player holding all its cards.
    Several qualifying players split it by ``split`` and the variant's
    ``chips`` (spec §9).  Widow cards qualify nobody: the section carries
    over.  With ``phase``, each section paid is recorded as taken by it.
    """
    n, dealer = state.players, state.dealer
    order = tuple((dealer + 1 + i) % n for i in range(n))
    hands = {s: state.hand(s) for s in order}
    taken = list(state.taken)
    for name in names:
        winners = qualifiers(ruleset.section(name), hands, order, ruleset.deck, state.trump)
        paid = award(name, winners, state.ledger.section(name), split, ruleset.chips)
        if paid is None:
            continue
        for who in paid.seats:
            state, t = state.pay(section(name), seat(who), paid.share, "claim")
            events.append(Claim(who, name, t))
        if phase is not None:
            taken.append((phase, name))
    return replace(state, taken=tuple(taken))


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Pay the phase's sections to their holders, in the order the phase lists them."""
    name = state.stage.removeprefix("phase:")
    phase = next((p for p in ruleset.phases if p.name == name), None)
    if not isinstance(phase, HoldingPhase):
        raise BoodleError(f"stage {state.stage} is not a holding phase of {ruleset.name}")
    events: list[Event] = []
    state = pay_holders(ruleset, state, phase.sections, phase.split, events, phase.name)
    return replace(state, to_move=None), events


STAGE = Stage("holding", enter, no_legal_moves, no_moves)
"""The holding phase: no moves."""
