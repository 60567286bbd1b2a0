"""Kill-and-resume at length (the bounded version: tests/integration/test_kill_resume.py)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from kill_helpers import Tally, kill_until_done


@pytest.mark.slow
def test_two_hundred_kills_of_the_boodle_command(tmp_path: Path) -> None:
    rng = random.Random(time.time_ns())
    tally = Tally()
    seed = 0
    while tally.kills < 200:
        seed += 1
        kill_until_done(tmp_path, seed, rng, tally, 200, (0.3, 2.5), spawn=True)
    print(f"\nkills survived: {tally.kills} ({tally.mid} mid-session), {seed} sessions, "
          f"{tally.runs} runs")
    assert tally.mid >= 20


@pytest.mark.slow
def test_a_thousand_kills_with_fork(tmp_path: Path) -> None:
    rng = random.Random(time.time_ns())
    tally = Tally()
    seed = 0
    while tally.kills < 1000:
        seed += 1
        kill_until_done(tmp_path, seed, rng, tally, 1000, (0.0, 0.4), spawn=False)
    print(f"\nkills survived: {tally.kills} ({tally.mid} mid-session), {seed} sessions, "
          f"{tally.runs} runs")
    assert tally.mid >= 200
