"""Kill-and-resume (issue 9): SIGKILL a recording session at random moments, many times.

After each kill the ledger must be consistent (``store.check``: chips on seats and board
equal the starting total, deals numbered without a gap, each deal's transfers replay from
the previous ledger, so none is half-recorded, lost or counted twice), and what is recorded
must be a prefix of the uninterrupted session of the same seed; once resumed to the end,
the whole ledger must equal the uninterrupted one.

The bounded run forks the test process (no interpreter start-up and nothing to import
again, so kills land among the deals); a slow-marked run kills real ``python -m boodle.cli``
processes, most of them while they start.
"""

from __future__ import annotations

import random
from pathlib import Path

from kill_helpers import Tally, kill_until_done


def test_twenty_kills_with_fork(tmp_path: Path) -> None:
    rng = random.Random(2026)
    tally = Tally()
    seed = 0
    while tally.kills < 20:
        seed += 1
        # up to 0.6 s: a resume checks the whole ledger and replays its last deal first
        kill_until_done(tmp_path, seed, rng, tally, 20, (0.0, 0.6), spawn=False)
    assert tally.kills >= 20
    assert tally.mid >= 5  # kills that landed among the deals, not before the first
    print(f"\nkills survived: {tally.kills} ({tally.mid} mid-session), {seed} sessions, "
          f"{tally.runs} runs")


def test_a_killed_boodle_command_resumes(tmp_path: Path) -> None:
    # On a quiet machine a whole session can end before a late kill lands: keep playing
    # sessions (bounded) until a kill has landed, so the test never passes without one.
    rng = random.Random(7)
    tally = Tally()
    seed = 0
    while tally.kills < 2 and seed < 20:
        seed += 1
        kill_until_done(tmp_path, seed, rng, tally, 2, (0.2, 1.5), spawn=True)
    assert tally.kills >= 1
    assert tally.runs >= 2


