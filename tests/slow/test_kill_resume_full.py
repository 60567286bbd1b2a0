"""Kill-and-resume at length (the bounded version: tests/integration/test_kill_resume.py)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from kill_helpers import Tally, kill_until_done


@pytest.mark.slow
@pytest.mark.parametrize(("kills", "window", "spawn", "mid"), [
    (200, (0.3, 2.5), True, 20),     # the boodle command, killed at random moments
    (1000, (0.0, 0.4), False, 200),  # a forked session, killed early and often
], ids=["two-hundred-kills-of-the-command", "a-thousand-kills-with-fork"])
def test_killed_sessions_resume(tmp_path: Path, kills: int, window: tuple[float, float],
                                spawn: bool, mid: int) -> None:
    rng = random.Random(time.time_ns())
    tally = Tally()
    seed = 0
    while tally.kills < kills:
        seed += 1
        kill_until_done(tmp_path, seed, rng, tally, kills, window, spawn=spawn)
    print(f"\nkills survived: {tally.kills} ({tally.mid} mid-session), {seed} sessions, "
          f"{tally.runs} runs")
    assert tally.mid >= mid
