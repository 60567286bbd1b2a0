"""A z3 trace replayed on the engine that plays (issue 16, "no spurious counterexample").

Bounded model checking (:mod:`boodle.verify.bmc`) finds traces of the z3 model.  A trace is
a COUNTEREXAMPLE of ``boodle verify`` only when the engine plays it too: :func:`replay`
deals the trace's start to the engine (:func:`boodle.engine.start_deal`, the chips before
the antes worked out so that the engine's antes give the trace's chips), plays each of its
moves (:func:`boodle.engine.apply`, each first looked up among
:func:`boodle.engine.legal_moves`), holds every state the engine reaches to the model's
state of the trace (:func:`boodle.verify.concrete.encode`), and then asks the engine itself
whether the property fails in the last state: chips or cards that do not add up
(:func:`boodle.verify.engine_model.engine_faults`), a deal not over with no legal move
(deadlock), the state of an earlier move again (a lasso: the deal can go round for ever), or
for another conjunct of the invariant the very model state in which it fails, reached by
the engine.

A trace from the over-approximated start of play (any deal and chips the stages before play
might leave, :attr:`~boodle.verify.bmc.BmcResult.exact` false) has no deal the engine can
be given: it is not replayed, and the failure stays ``unknown``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boodle.engine.api import apply, is_terminal, legal_moves, start_deal
from boodle.engine.events import Event
from boodle.engine.faults import IllegalMove
from boodle.engine.ledger import Ledger, LedgerError
from boodle.engine.state import DealState, Move, each_move
from boodle.engine.trace import render_text
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.verify.bmc import BmcResult
from boodle.verify.concrete import action_name, encode
from boodle.verify.engine_model import describe_state, engine_faults
from boodle.verify.explicit import state_key
from boodle.verify.induction import System
from boodle.verify.mutation import NO_MUTATION, Mutation

__all__ = ["Replayed", "replay"]

_PROPERTY = {"deadlock": "progress", "lasso": "termination"}

_PROBE = 10 ** 6
"""Each seat's chips in the probe deal that measures what the antes take (any amount above
every ante will do)."""


@dataclass
class Replayed:
    """What the engine made of a trace.  ``followed``: it dealt the trace's start, accepted
    every move and reached the model's state after each; ``broken``: the property fails in
    the engine's last state (``detail`` says how; when not followed, where and why the engine
    parts from the trace).  ``moves`` and ``events``: the engine's moves and events as far
    as it followed; ``deal``: the hands and the widow dealt."""

    followed: bool
    broken: bool
    detail: str
    moves: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    deal: dict[str, list[str]] = field(default_factory=dict)

    @property
    def counterexample(self) -> bool:
        """The trace is a play of the engine that breaks the property."""
        return self.followed and self.broken

    def lines(self) -> list[str]:
        """The report's lines: the verdict, then the engine's play-by-play."""
        head = ("  replayed on the engine: it plays every move of the trace and "
                + self.detail if self.followed else "  replayed on the engine: " + self.detail)
        out = [head]
        if self.events:
            out += ["    " + x for x in render_text(self.events).splitlines()]
        return out


def _flat(system: System, values: dict[str, Any]) -> list[Any]:
    s = system.state
    return [*values["loc"], *(values[k] for k in s.scalars()), *values["bal"], *values["sec"],
            *values["forfeit"]]


def _differences(system: System, model: list[Any], engine: list[Any]) -> str:
    names = [str(t) for t in system.state.flat()]
    cards = [str(c) for c in system.layout.cards]
    return ", ".join(f"{cards[k] if k < len(cards) else names[k]}: model {m} vs engine {e}"
                     for k, (m, e) in enumerate(zip(model, engine, strict=True)) if m != e)


def replay(ruleset: Ruleset, players: int, found: BmcResult, target: str,
           mutation: Mutation = NO_MUTATION) -> Replayed:
    """Play the trace ``found`` (of the z3 model of ``ruleset`` at ``players`` players,
    searched for ``target``: a conjunct's name, ``"deadlock"`` or ``"lasso"``) on the
    engine, as the module docstring says.  ``mutation``: a fault injected in the model and
    the engine alike (the verifier's own tests).  Never raises for an engine that refuses
    or parts from the trace: that is the answer."""
    if not found.found:
        return Replayed(False, False, "no trace to replay")
    if not found.exact:
        return Replayed(False, False, "not replayed: the trace starts from a state that "
                        "stands for every deal and chips the stages before play may leave, "
                        "not from a deal the engine can be given")
    system = System(ruleset, players, mutation)
    layout = system.layout
    width = len(system.state.flat())
    states = [step.before for step in found.steps]
    if found.final is not None:
        states.append(found.final)
    start = states[0]
    n = players
    hands = tuple(tuple(c for c, code in zip(layout.cards, start["loc"], strict=True)
                        if code == seat) for seat in range(n))
    widow: tuple[Card, ...] = tuple(c for c, code in zip(layout.cards, start["loc"], strict=True)
                                    if code == layout.widow)
    dealer = int(start["ghosts"]["dealer"])
    deal = {f"seat {s}": [str(c) for c in h] for s, h in enumerate(hands)}
    deal["widow"] = [str(c) for c in widow]
    names = tuple(s.name for s in ruleset.board)
    begin = mutation.start_ruleset(ruleset)
    try:  # what the antes take from each seat and give each section (spec §4)
        out = set(start["ghosts"].get("eliminated", ()))  # spec §10: a seat at zero is out
        probe, _ = start_deal(begin, n, dealer, Ledger(tuple(0 if k in out else _PROBE
                                                             for k in range(n)),
                                                       tuple((x, 0) for x in names)),
                              hands=hands, widow=widow)
        paid = [0 if k in out else _PROBE - probe.ledger.seat(k) for k in range(n)]
        got = [probe.ledger.section(x) for x in names]
        ledger = Ledger(tuple(b + p for b, p in zip(start["bal"], paid, strict=True)),
                        tuple((x, a - g) for x, a, g in zip(names, start["sec"], got,
                                                             strict=True)))
        state, events = start_deal(begin, n, dealer, ledger, hands=hands, widow=widow)
    except (BoodleError, LedgerError, ValueError) as e:
        return Replayed(False, False, f"not a deal the engine can start ({e}): the trace "
                        "is not reachable on the engine", deal=deal)
    trail: list[Event] = list(events)
    moves: list[str] = []
    seen: list[DealState] = [state]
    total = ledger.total()

    def parted(k: int, why: str) -> Replayed:
        where = "the deal's start" if k == 0 else f"move {k}"
        return Replayed(False, False, f"the engine parts from the trace at {where}: {why}; "
                        "the trace is not reachable on the engine", moves, trail, deal)

    for k, want in enumerate(states):
        try:
            have = encode(layout, state, system.state)[:width]
        except ValueError as e:
            return parted(k, f"its state has no model state ({e})")
        if have != _flat(system, want):
            return parted(k, f"{_differences(system, _flat(system, want), have)} in "
                          f"{describe_state(state)}")
        if k == len(found.steps):
            break
        step = found.steps[k]
        move = _move(ruleset, system, state, step.action)
        if move is None:
            return parted(k + 1, f"{step.action} is not among its legal moves in "
                          f"{describe_state(state)}")
        try:
            state, more = apply(ruleset, state, move)
        except (IllegalMove, BoodleError, LedgerError) as e:
            return parted(k + 1, f"{move} is listed as legal but refused ({e})")
        state = mutation.after_apply(state, more)
        moves.append(str(move))
        trail.extend(more)
        seen.append(state)
    broken, detail = _broken(ruleset, state, seen, found, target, total)
    return Replayed(True, broken, detail, moves, trail, deal)


def _move(ruleset: Ruleset, system: System, state: DealState, action: str) -> Move | None:
    """The engine's legal move that is the model's ``action``, if there is one."""
    try:
        legal = legal_moves(ruleset, state)
    except BoodleError:
        return None
    for m in each_move(legal):
        try:
            if action_name(system.layout, m) == action:
                return m
        except ValueError:
            continue
    return None


def _broken(ruleset: Ruleset, state: DealState, seen: list[DealState], found: BmcResult,
            target: str, total: Any) -> tuple[bool, str]:
    """Whether the property searched for fails in the engine's last state, and how."""
    if target == "deadlock":
        if is_terminal(state):
            return False, "the deal is over there: no deadlock on the engine"
        try:
            legal = list(each_move(legal_moves(ruleset, state)))
        except BoodleError as e:
            return True, f"reaches a deadlock: no move can be made ({e.message})"
        if legal:
            return False, f"has legal moves there ({', '.join(map(str, legal[:4]))})"
        return True, "reaches a deadlock: the deal is not over and no move is legal"
    if target == "lasso":
        back = found.loop_to
        if back is not None and state_key(seen[back]) == state_key(state):
            return True, (f"is back, after move {len(seen) - 1}, in the state it was in after "
                          f"move {back}: the deal can go round for ever")
        return False, "does not come back to an earlier state"
    faults = engine_faults(ruleset, state, total)
    if faults:
        return True, "breaks it: " + "; ".join(f"{p}: {why}" for p, why in faults)
    return True, (f"reaches the model's state in which '{target}' fails, "
                  f"{describe_state(state)}")
