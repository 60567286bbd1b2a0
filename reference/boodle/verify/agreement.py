"""Agreement between the z3 model and the engine, state by state (issue 5, point 3).

:func:`stops_states` plays random deals on the real engine (every stage:
antes, widow sale, holding and poker phases are played as the engine plays
them) and yields the states of the stops phase.  :func:`disagreements`
asks the model (:class:`~boodle.verify.concrete.ModelOracle`) and the
engine the same two questions about one state — which moves are enabled,
and what state each leads to — and lists every difference.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from boodle.engine.api import apply, legal_moves, shuffled_deck, start_deal
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, each_move, move_count, nth_move
from boodle.language.model import Ruleset, StopsPhase
from boodle.session.second_pack import draw_boodles
from boodle.verify.concrete import ModelOracle, action_name

__all__ = ["disagreements", "playable_ruleset", "stops_states"]


def playable_ruleset(ruleset: Ruleset, seed: int) -> Ruleset:
    """``ruleset`` with any drawn boodles bound, as a session binds them (spec §3)."""
    bound, _ = draw_boodles(ruleset, random.Random(f"{seed}:draw"))
    return bound


def _in_stops(ruleset: Ruleset, state: DealState) -> bool:
    name = state.stage.removeprefix("phase:")
    return any(isinstance(p, StopsPhase) and p.name == name for p in ruleset.phases)


def stops_states(ruleset: Ruleset, players: int, seed: int) -> Iterator[DealState]:
    """The stops-phase states of random deals (random dealer, shuffle and moves), endlessly."""
    rng = random.Random(seed)
    names = tuple(s.name for s in ruleset.board)
    while True:
        dealer = rng.randrange(players)
        start = Ledger.open(players, names, rng.choice((3, 8, 50)))  # small: payments capped
        state, _ = start_deal(ruleset, players, dealer, start, shuffled_deck(ruleset, rng))
        while True:
            if _in_stops(ruleset, state):
                yield state
            moves = legal_moves(ruleset, state)
            if not moves:
                break
            state, _ = apply(ruleset, state, nth_move(moves, rng.randrange(move_count(moves))))


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(_num(x) == _num(y) for x, y in zip(a, b, strict=True))


def _num(x: Any) -> Any:
    return Fraction(x) if isinstance(x, int) and not isinstance(x, bool) else x


def disagreements(oracle: ModelOracle, ruleset: Ruleset, state: DealState) -> list[str]:
    """Every difference between the model and the engine in ``state`` (empty: they agree)."""
    layout = oracle.system.layout
    values = oracle.encode(state)
    width = len(oracle.system.state.flat())
    model = oracle.enabled(values)
    engine = {action_name(layout, m): m for m in each_move(legal_moves(ruleset, state))}
    out = []
    if set(model) != set(engine):
        out.append(f"enabled: model {sorted(model)} vs engine {sorted(engine)}")
    for name, move in engine.items():
        if name not in model:
            continue
        after, _ = apply(ruleset, state, move)
        want = oracle.encode(after)[:width]
        if not _same(model[name], want):
            fields = _differences(oracle, model[name], want)
            out.append(f"after {move}: {fields}")
    return out


def _differences(oracle: ModelOracle, got: list[Any], want: list[Any]) -> str:
    names = [str(t) for t in oracle.system.state.flat()]
    return ", ".join(f"{n}: model {g} vs engine {w}"
                     for n, g, w in zip(names, got, want, strict=True) if _num(g) != _num(w))
