"""The model-against-engine agreement check of the verifier's tests: one compiled model per
shape of rules, and a count of sampled states on which model and engine agree."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice

from boodle.language.model import Ruleset, StopsPhase
from boodle.language.variants import load
from boodle.verify.agreement import disagreements, playable_ruleset, stops_states
from boodle.verify.concrete import ModelOracle
from boodle.verify.induction import System

_ORACLES: dict[tuple[object, ...], ModelOracle] = {}


def model_oracle(rs: Ruleset, players: int) -> ModelOracle:
    """One compiled model per (deck, board, stops phase, chip rules, trumps, players)."""
    board = tuple(replace(s, label="") for s in rs.board)
    phases = tuple(replace(p, label="") for p in rs.phases if isinstance(p, StopsPhase))
    key = (rs.deck, board, phases, rs.session.negative, rs.deal.trumps, players)
    if key not in _ORACLES:
        _ORACLES[key] = ModelOracle(System(rs, players))
    return _ORACLES[key]


def agree(name: str, players: int, count: int, seed: int = 11) -> int:
    """How many sampled stops states of variant ``name`` the model and the engine agree on
    (asserting that they agree on each); at most ``count``."""
    rs = playable_ruleset(load(name), seed)
    oracle = model_oracle(rs, players)
    seen = 0
    for state in islice(stops_states(rs, players, seed), count):
        assert disagreements(oracle, rs, state) == [], (name, players, seen)
        seen += 1
    return seen
