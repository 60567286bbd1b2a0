"""The z3 model and the engine agree state by state (issue 5, point 3).

In sampled states of the stops phase (random deals of the real engine, every
stage before play included), the moves the model's guards enable must be
the engine's legal moves, and each move's successor computed by the
model's terms must be the engine's state after the move: every card's
place, the run, the seat to move, passes, chips.  Bounded for CI: 2,000
states of Michigan (the reference profile) and 100 of each other variant
the engine plays; ``-m slow`` checks 10,000 states of every variant at 3, 5
and 8 players.  Variants whose stops phase, deck and board are the same
share one compiled model.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

import pytest

from boodle.language.model import Penalty, StopsPhase
from boodle.language.variants import load
from boodle.testing import playable_variants
from boodle.verify.agreement import disagreements, stops_states
from boodle.verify.concrete import ModelOracle
from boodle.verify.induction import System
from boodle.verify.mutation import Mutation
from verify_helpers import agree


def test_michigan_model_and_engine_agree_on_sampled_states() -> None:
    assert agree("michigan", 4, 2_000) == 2_000


OTHERS = [n for n in playable_variants() if n != "michigan"]


@pytest.mark.parametrize("name", OTHERS)
def test_each_variant_agrees_on_sampled_states(name: str) -> None:
    players = min(max(4, load(name).players.low), load(name).players.high)
    assert agree(name, players, 100) == 100


def test_fined_leads_and_forfeitsagree() -> None:
    # spec §6.8 (not in a built-in variant): fined leads, forfeited boodles, a pass penalty
    rs = load("michigan-classic")
    phase = rs.phases[0]
    assert isinstance(phase, StopsPhase)
    fined = replace(rs, phases=(replace(phase, penalties=(
        Penalty("lead not lowest", 1, "each opponent", True), Penalty("cannot lead", 1, "A♥"))),))
    oracle = ModelOracle(System(fined, 4))
    for state in islice(stops_states(fined, 4, 5), 600):
        assert disagreements(oracle, fined, state) == []


def test_a_different_model_is_caught() -> None:
    # the check is not empty: a model whose going-out payments are not debited disagrees
    # with the engine at the first going out
    rs = load("michigan")
    oracle = ModelOracle(System(rs, 3, Mutation("credit only", "", frozenset({"going out"}))))
    found = []
    for state in islice(stops_states(rs, 3, 3), 3000):
        found = disagreements(oracle, rs, state)
        if found:
            break
    assert found and "seat" in found[0]
