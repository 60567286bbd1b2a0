"""The stage machine: a deal is a sequence of stages, each a small module with one entry point.

A deal runs the stages of :func:`plan`, in this order (spec §10 "Order"):

    antes → deal → [trumps] → [widow] → phase:NAME … (the variant's phases as
    written, stops last; a widow sale ``when: before phase NAME`` sits before NAME)

Each stage is a :class:`~boodle.engine.stage.Stage`, three pure functions over an immutable
:class:`~boodle.engine.state.DealState` (``state.stage`` holds the current stage's
key):

- ``enter(ruleset, state) -> (state, events)``: the stage's automatic work
  (pay the antes, deal, show the widow, pay holders …).
- ``legal_moves(ruleset, state) -> moves``: the moves of ``state.to_move``.
- ``apply(ruleset, state, move) -> (state, events)``: check the move
  (raise :class:`~boodle.engine.faults.IllegalMove` with a rule id) and play it.

After ``enter`` or ``apply`` a stage leaves exactly one of: a seat to move
(``state.to_move`` set: the stage waits for that seat), no seat to move
(``to_move is None``: the stage is finished and :func:`advance` enters the
next one), or the deal over (``state.step == "over"``).  The driver checks
``deal.over`` and ``turn`` (spec §12) before a stage sees a move.

**How to add a stage** (for example trump turn-up, a holding or a poker phase):

1. Write a module (``trumps.py``) with the three functions and
   ``STAGE = Stage("trumps", enter, legal_moves, apply)`` (:mod:`boodle.engine.stage`).
   A stage without moves does its work in ``enter``, leaves ``to_move``
   ``None`` and uses :func:`~boodle.engine.stage.no_legal_moves` and
   :func:`~boodle.engine.stage.no_moves` (see :mod:`boodle.engine.stages.antes`).
2. Register it: a deal-level stage gets a key in :func:`plan`, read from the
   ruleset (``if ruleset.deal.trumps != "none"``), and an entry in
   :data:`FIXED_STAGES`; a phase kind gets an entry in :data:`PHASE_STAGES`
   (model class → stage).  Keep :func:`plan`'s order the spec's.
3. Per-stage state lives in a field of ``DealState`` with a default (as
   ``sale`` for the widow sale), set by the stage's ``enter``.
4. New moves: a frozen dataclass with a ``seat`` in :mod:`boodle.engine.state`, added
   to ``Move``; :mod:`boodle.engine.strategies` must handle it; new rule ids go in
   :data:`~boodle.engine.faults.RULE_IDS` and spec/rules.md §12.
5. New events: a frozen dataclass in :mod:`boodle.engine.events` and its line in
   :mod:`boodle.engine.trace`; a chip movement travels in exactly one event.
6. Remove the feature from :func:`boodle.engine.support.pending_features`.

A phase whose kind has no registered stage is **pending**: the driver plays
it as :data:`SKIPPED` (a ``PhaseSkipped`` event, printed in the trace), and
``boodle check`` lists it (:func:`skipped_phases`).  Any other pending
feature is refused when the deal starts (``NotSupported``).
"""

from __future__ import annotations

from boodle.engine.events import Event, PhaseSkipped
from boodle.engine.faults import IllegalMove
from boodle.engine.stage import Result, Stage, no_legal_moves, no_moves
from boodle.engine.stages import antes, dealing, stops, turn_up, widow
from boodle.engine.stages import holding as holding_phase
from boodle.engine.stages import poker as poker_phase
from boodle.engine.state import DealState, Legal, Move
from boodle.language.errors import BoodleError
from boodle.language.model import HoldingPhase, Phase, PokerPhase, Ruleset, StopsPhase, derived

__all__ = [
    "FIXED_STAGES",
    "PHASE_STAGES",
    "SKIPPED",
    "advance",
    "apply_move",
    "enter",
    "legal_moves",
    "plan",
    "skipped_phases",
]

def _skip(ruleset: Ruleset, state: DealState) -> Result:
    """A pending phase: played as nothing, said in a ``PhaseSkipped`` event."""
    phase = _phase_named(ruleset, state.stage.removeprefix("phase:"))
    kind = type(phase).__name__.removesuffix("Phase").lower()
    why = "this engine does not execute it yet; its sections carry over"
    return state, [PhaseSkipped(phase.name, kind, why)]


SKIPPED = Stage("skipped", _skip, no_legal_moves, no_moves)
"""The stage of a pending phase: a ``PhaseSkipped`` event, no moves, no chips."""

FIXED_STAGES: dict[str, Stage] = {
    "antes": antes.STAGE,
    "deal": dealing.STAGE,
    "trumps": turn_up.STAGE,
    "widow": widow.STAGE,
}
"""Deal-level stages by key (the keys :func:`plan` uses)."""

PHASE_STAGES: dict[type, Stage] = {
    HoldingPhase: holding_phase.STAGE,
    PokerPhase: poker_phase.STAGE,
    StopsPhase: stops.STAGE,
}
"""The stage playing each kind of phase (model class → stage); missing kinds are skipped."""


def plan(ruleset: Ruleset) -> tuple[str, ...]:
    """The keys of the stages a deal of ``ruleset`` runs, in order (computed once per ruleset)."""
    return derived(ruleset, "_plan", lambda: _plan(ruleset))


def _plan(ruleset: Ruleset) -> tuple[str, ...]:
    keys = ["antes", "deal"]
    if dealing.TURN_UPS[ruleset.deal.trumps] is not None:
        keys.append("trumps")  # spec §5.2: the turn-up, right after the deal
    sale = ruleset.widow_sale
    for p in ruleset.phases:
        if sale is not None and sale.before == p.name:
            keys.append("widow")
        keys.append(f"phase:{p.name}")
    if sale is not None and "widow" not in keys:
        keys.insert(keys.index("deal") + 1 + ("trumps" in keys), "widow")  # spec §5.4
    return tuple(keys)


def skipped_phases(ruleset: Ruleset) -> list[str]:
    """The phases a deal skips because no stage plays their kind yet: ``"NAME (kind)"``."""
    return [
        f"{p.name} ({type(p).__name__.removesuffix('Phase').lower()})"
        for p in ruleset.phases
        if type(p) not in PHASE_STAGES
    ]


def _phase_named(ruleset: Ruleset, name: str) -> Phase:
    named: dict[str, Phase] = derived(ruleset, "_phases_by_name", lambda: {
        p.name: p for p in reversed(ruleset.phases)})  # the first of a name wins
    phase = named.get(name)
    if phase is None:
        raise BoodleError(f"variant {ruleset.name} has no phase {name!r}")
    return phase


def stage_of(ruleset: Ruleset, key: str) -> Stage:
    """The stage whose key is ``key`` in a deal of ``ruleset``.

    A phase's stage is looked up once per ruleset, key and :data:`PHASE_STAGES`
    table (a table swapped for another, as tests do, is looked up afresh).
    """
    if key.startswith("phase:"):
        known: dict[str, tuple[object, Stage]] = derived(ruleset, "_phase_stages", dict)
        found = known.get(key)
        if found is None or found[0] is not PHASE_STAGES:
            found = known[key] = (PHASE_STAGES,
                                  PHASE_STAGES.get(type(_phase_named(ruleset, key[6:])), SKIPPED))
        return found[1]
    return FIXED_STAGES[key]


def enter(ruleset: Ruleset, state: DealState, key: str) -> Result:
    """Enter stage ``key`` and run the deal on until a seat must move or the deal is over."""
    state, events = stage_of(ruleset, key).enter(ruleset, state.evolve(stage=key))
    return advance(ruleset, state, events)


def advance(ruleset: Ruleset, state: DealState, events: list[Event]) -> Result:
    """Enter the following stages while the current one is finished (no seat to move)."""
    while state.step != "over" and state.to_move is None:
        keys = plan(ruleset)
        i = keys.index(state.stage) + 1
        if i == len(keys):
            raise BoodleError(f"the deal of {ruleset.name} ran out of stages without ending")
        state, more = stage_of(ruleset, keys[i]).enter(ruleset, state.evolve(stage=keys[i]))
        events.extend(more)
    return state, events


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
    """The legal moves of the seat to move (empty once the deal is over); a
    :class:`~boodle.engine.state.BidRange` stands for every bid of an auction."""
    if state.step == "over" or state.to_move is None:
        return ()
    return _moving_stage(ruleset, state.stage)[0].legal_moves(ruleset, state)


def apply_move(ruleset: Ruleset, state: DealState, move: Move) -> Result:
    """Check the rules every stage shares (``deal.over``, ``turn``), play ``move``, advance."""
    if state.step == "over":
        raise IllegalMove(f"{move}: the deal is over", rule="deal.over")
    if move.seat != state.to_move:
        raise IllegalMove(f"{move}: it is seat {state.to_move}'s move", rule="turn")
    key = state.stage
    stage, of_play = _moving_stage(ruleset, key)
    new, events = stage.apply(ruleset, state, move)
    # the move is counted on the state the stage made (one copy a move): in place, unless
    # the stage handed back a state some other holder may have (the one it was given)
    if of_play:  # a move of play
        new = new.evolve(moves=new.moves + 1) if new is state else new.counted_in_place()
    else:
        count = new.evolve if new is state else new.evolved_in_place
        new = count(moves=new.moves + 1, before_play=(*new.before_play, move))
    if new.to_move is None and new.step != "over":
        return advance(ruleset, new, events)
    return new, events


def _moving_stage(ruleset: Ruleset, key: str) -> tuple[Stage, bool]:
    """:func:`stage_of` ``key``, and whether its moves are moves of play (a stops phase's):
    what :func:`apply_move` asks at every move, kept per ruleset and key (and, as
    :func:`stage_of` keeps it, per :data:`PHASE_STAGES` table)."""
    known: dict[str, tuple[object, Stage, bool]] | None = ruleset.__dict__.get("_moving_stages")
    if known is None:  # asked at every move: the table derived keeps, read at once
        known = derived(ruleset, "_moving_stages", dict)
    found = known.get(key)
    if found is None or found[0] is not PHASE_STAGES:
        of_play = key.startswith("phase:") and isinstance(_phase_named(ruleset, key[6:]),
                                                          StopsPhase)
        found = known[key] = (PHASE_STAGES, stage_of(ruleset, key), of_play)
    return found[1], found[2]
