"""The model against the engine on 10,000 states of every variant at 3, 5 and 8 players (the
bounded version: tests/unit/test_verify_agreement.py)."""

from __future__ import annotations

import pytest

from boodle.language.variants import load
from boodle.testing import playable_variants
from verify_helpers import agree


@pytest.mark.slow
@pytest.mark.parametrize("name", playable_variants())
@pytest.mark.parametrize("players", [3, 5, 8])
def test_every_variant_agrees_on_10000_states(name: str, players: int) -> None:
    rs = load(name)
    if players in rs.players:
        assert agree(name, players, 10_000, seed=players) == 10_000
