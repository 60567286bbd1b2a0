"""The holding phase (spec §8.1): sections paid at once to the players holding their cards.

004 phase 1: "anyone holding the A♥ K♥ Q♥ J♥ or 10♥ takes that section at
once; holding K and Q of one suit takes King-Queen; holding 8, 9 and 10 of
one suit takes the Chien; sections whose cards are in the ghost hand carry
over"; 004 "Égalités": several King-Queen holders share.  Who qualifies and
the shares come from :mod:`boodle.engine.holders`; :func:`boodle.engine.claims.pay_holders`
moves the chips, one :class:`~boodle.engine.events.Claim` per share, clockwise from the
dealer's left.  No card moves.  Each section paid is recorded in
``DealState.taken`` for ``takes SECTION unless taken in PHASE`` (spec §7).
"""

from __future__ import annotations

from boodle.engine.claims import pay_holders
from boodle.engine.events import Event
from boodle.engine.stage import Result, Stage, no_legal_moves, no_moves
from boodle.engine.state import DealState
from boodle.language.errors import BoodleError
from boodle.language.model import HoldingPhase, Ruleset

__all__ = ["STAGE", "enter"]


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Pay the phase's sections to their holders, in the order the phase lists them."""
    name = state.stage.removeprefix("phase:")
    phase = next((p for p in ruleset.phases if p.name == name), None)
    if not isinstance(phase, HoldingPhase):
        raise BoodleError(f"stage {state.stage} is not a holding phase of {ruleset.name}")
    events: list[Event] = []
    state = pay_holders(ruleset, state, phase.sections, phase.split, events, phase.name)
    return state.evolve(to_move=None), events


STAGE = Stage("holding", enter, no_legal_moves, no_moves)
"""The holding phase: no moves."""
