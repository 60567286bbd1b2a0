"""The poker phase (spec §8.2): a showdown of every player's best hand for the pot.

004 phase 2: "without exchanging, each player selects the best five-card
poker hand among the cards held (cards beyond five are ignored) … the best
hand takes the Pot"; 004 "Égalités": tied hands share it.  The hands are
ranked by :mod:`boodle.engine.poker_hands`; the pot goes to the best seat, or is split
among the tied seats as the phase's ``split`` and the variant's ``chips`` say
(spec §9: whole shares, the remainder stays on the pot; or exact shares).  Under ``short
stack: section by section`` only the best seats that anted the pot take it; when none did,
it stays (spec §4).
No card moves.  The best seats are the phase's winners, for ``winner of
PHASE`` leads (spec §6.1), in the split's order: first the first clockwise from the
dealer's left, or under ``split: lowest seat`` the lowest-numbered seat (the one who takes
the pot).
"""

from __future__ import annotations

from boodle.engine.events import Claim, Event, Showdown
from boodle.engine.holders import award, in_split_order
from boodle.engine.ledger import seat, section
from boodle.engine.poker_hands import showdown
from boodle.engine.stage import Result, Stage, no_legal_moves, no_moves
from boodle.engine.state import DealState
from boodle.language.errors import BoodleError
from boodle.language.model import PokerPhase, Ruleset

__all__ = ["STAGE", "enter"]


def _phase(ruleset: Ruleset, state: DealState) -> PokerPhase:
    name = state.stage.removeprefix("phase:")
    phase = next((p for p in ruleset.phases if p.name == name), None)
    if not isinstance(phase, PokerPhase):
        raise BoodleError(f"stage {state.stage} is not a poker phase of {ruleset.name}")
    return phase


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Show every hand, pay the pot to the best hand(s), record the winners (spec §8.2)."""
    phase = _phase(ruleset, state)
    order = state.clockwise(state.dealer)  # eliminated players take no part (spec §8.2)
    best, shown = showdown({s: state.hand(s) for s in order}, phase.best_of,
                           phase.ace_low_straight)
    winners = in_split_order([s for s in order if s in best], phase.split)
    events: list[Event] = [
        Showdown(phase.name, tuple((s, shown[s]) for s in order if s in shown), winners)]
    takers = [w for w in winners if state.may_take(w, phase.pot)]  # spec §4: who anted it
    paid = award(phase.pot, takers, state.ledger.section(phase.pot), phase.split, ruleset.chips)
    taken = state.taken
    if paid is not None:
        for who in paid.seats:
            state, t = state.pay(section(phase.pot), seat(who), paid.share, "claim")
            events.append(Claim(who, phase.pot, t))
        taken = (*taken, (phase.name, phase.pot))
    state = state.evolve(to_move=None, taken=taken,
                         phase_winners=(*state.phase_winners, (phase.name, winners)))
    return state, events


STAGE = Stage("poker", enter, no_legal_moves, no_moves)
"""The poker phase: no moves (the language has no betting, spec §8.2)."""
