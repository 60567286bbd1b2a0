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

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from boodle.cli import _parser, main
from boodle.store import check, connect, deal_rows, ending_row, record_new, sessions
from boodle.store_cli import load_rules
from test_store import info_for, nothing

LONG = """\
variant long extends michigan {
  session { start: 50 chips  end: after 8 rotations }
}
"""
"""Michigan for 32 deals with 4 players: long enough for kills to land mid-session."""

ROOT = Path(__file__).resolve().parent.parent
_parser()  # import once every module the command loads, so a forked child starts at once


@dataclass
class Tally:
    """What the kills did: ``kills`` processes killed while running, ``mid`` of them after
    they had recorded at least one deal of their own; ``runs`` processes started."""

    kills: int = 0
    mid: int = 0
    runs: int = 0


def recorded(path: Path) -> tuple[list, dict | None] | None:
    """The stored deals and ending of the file's one session, or None before it exists."""
    if not path.is_file():
        return None
    with connect(path, create=True) as conn:
        found = sessions(conn)
        if not found:
            return None
        assert check(conn, found[0]) == [], "inconsistent after a kill"
        return deal_rows(conn, found[0]), ending_row(conn, found[0])


def reference(tmp: Path, variant: Path, seed: int) -> tuple[list, dict | None]:
    """The uninterrupted session, recorded in-process."""
    path = tmp / f"ref-{seed}.sqlite"
    info = info_for(name="k", seed=seed, variant=str(variant))
    record_new(path, info, load_rules(info), nothing)
    result = recorded(path)
    assert result is not None
    return result


def _child(argv: list[str]) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os._exit(main(argv))


def forked(argv: list[str]) -> multiprocessing.Process:
    process = multiprocessing.get_context("fork").Process(target=_child, args=(argv,))
    process.start()
    return process


def spawned(argv: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "reference"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "boodle.cli", *argv], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_until_done(tmp: Path, seed: int, rng: random.Random, tally: Tally, kills: int,
                    delay: tuple[float, float], spawn: bool) -> None:
    """Run one session to its end, killing each process at a random moment while ``tally``
    has fewer than ``kills`` kills; check the ledger after every process ends."""
    variant = tmp / "long.boodle"
    variant.write_text(LONG, encoding="utf-8")
    whole = reference(tmp, variant, seed)
    path = tmp / f"killed-{seed}.sqlite"
    start = ["play", str(variant), "--players", "4", "--seed", str(seed), "--session", "k",
             "--ledger", str(path)]
    while True:
        before = recorded(path)
        argv = start if before is None else ["play", "--resume", str(path)]
        tally.runs += 1
        wait = rng.uniform(*delay) if tally.kills < kills else None
        if spawn:
            proc = spawned(argv)
            try:
                code = proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                code = proc.wait()
        else:
            fork = forked(argv)
            fork.join(timeout=wait)
            if fork.is_alive():
                os.kill(fork.pid or 0, signal.SIGKILL)
            fork.join()
            code = fork.exitcode
        after = recorded(path)
        if code == -signal.SIGKILL:
            tally.kills += 1
            tally.mid += bool(after and len(after[0]) > len(before[0] if before else []))
        else:
            assert code == 0, f"run {tally.runs} ended with status {code}"
        if after is not None:
            rows, end = after
            assert rows == whole[0][: len(rows)], "a recorded deal differs from the reference"
            if end is not None:
                assert (rows, end) == whole
                return


def test_twenty_kills_with_fork(tmp_path: Path) -> None:
    rng = random.Random(2026)
    tally = Tally()
    seed = 0
    while tally.kills < 20:
        seed += 1
        kill_until_done(tmp_path, seed, rng, tally, 20, (0.0, 0.4), spawn=False)
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


