"""Kill-and-resume helpers: play a ledger-writing session in a child process, kill it at a
random moment, resume, and compare with the uninterrupted session of the same seed."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from boodle.cli import _parser, main
from boodle.session.ledger_cli import load_rules
from boodle.session.store import check, connect, deal_rows, ending_row, record_new, sessions
from store_helpers import info_for, nothing

LONG = """\
variant long extends michigan {
  session { start: 50 chips  end: after 8 rotations }
}
"""
"""Michigan for 32 deals with 4 players: long enough for kills to land mid-session."""

ROOT = Path(__file__).resolve().parents[2]
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
