"""Tampered and read-only ledgers (issue 20, items 14 and 15).

A ledger is a file anyone can edit: any value in it may be of the wrong type, and a file
``boodle ledger`` calls INCONSISTENT, or whose random generators were bit-flipped, must not
be continued by ``--resume``.  Reading a ledger must not need write access.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.errors import BoodleError
from boodle.language.variants import load
from boodle.session.ledger_cli import load_rules
from boodle.session.store import connect, record_new, resume
from store_helpers import info_for, nothing

MICHIGAN = load("michigan")


class Crash(Exception):
    """Stands for the process dying after a deal was committed."""


def _unfinished(path: Path, units: int = 3) -> None:
    """A session of 4 deals killed after ``units`` units (the opening, then deals)."""
    seen = [0]

    def emit(events: object) -> None:
        seen[0] += 1
        if seen[0] >= units:
            raise Crash

    with pytest.raises(Crash):
        record_new(path, info_for(), MICHIGAN, emit)


def _sql(path: Path, statement: str, *values: object) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement, values)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("statement", "said"), [
    ("UPDATE session SET start_total = '\"1/0\"'", "session 's' is damaged: LedgerError: "
     "not a chip amount: '1/0'"),
    ("UPDATE session SET players = 'four'", "session 's' is damaged: TypeError: players "
     "'four' is not a whole number from 1"),
    ("UPDATE session SET players = 0", "players 0 is not a whole number from 1"),
    ("UPDATE session SET deals = 'x'", "deals 'x' is not a whole number from 0"),
    ("UPDATE session SET bases = '5'", "the bases are not a list of [name, file, text]"),
    ("UPDATE session SET seed = X'07'", "seed or strategy is not text"),
    ("UPDATE deal SET board = '[1]' WHERE number = 2", "deal 2 of session 's' is damaged: "
     "LedgerError: seats [61, 29, 28, 66] and board [1] are not"),
    ("UPDATE deal SET ledger = '{\"a\": 1}' WHERE number = 1", "deal 1 of session 's' is "
     "damaged"),
    ("UPDATE deal SET progress = 'null' WHERE number = 1", "the progress null is not a table"),
    ("UPDATE deal SET progress = '{\"rngs\": []}' WHERE number = 1", "KeyError: 'seats'"),
    # found by bench/fuzz_bounds.py (200 tampered ledgers): internal errors, exit 3
    ("UPDATE deal SET number = 'x' WHERE number = 2", "a deal's number 'x' is not a whole "
     "number from 0"),
    ("UPDATE deal SET number = '' WHERE number = 1", "a deal's number '' is not a whole"),
    ("UPDATE session SET players = 9223372036854775807", "players 9223372036854775807 is not "
     "a whole number from 1 to 20"),  # a MemoryError, after 21 GB
    ("UPDATE session SET strategy = 'null'", "strategy 'null' is not one of greedy, random"),
    ("UPDATE deal SET events = '0' WHERE number = 1", "deal 1 of session 's' is damaged: "
     "TypeError: its events are not a list of records"),
    ("UPDATE deal SET transfers = '[1]' WHERE number = 2", "deal 2 of session 's' is damaged: "
     "TypeError: its transfers are not a list of records"),
])
def test_a_tampered_value_is_a_damaged_ledger_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], statement: str, said: str) -> None:
    db = tmp_path / "ledger.sqlite"
    _unfinished(db)
    _sql(db, statement)
    assert main(["ledger", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the ledger's ") and said in err, err
    assert main(["play", "--resume", str(db)]) == 1
    assert "damaged" in capsys.readouterr().err


def test_resume_refuses_a_ledger_that_boodle_ledger_calls_inconsistent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "ledger.sqlite"
    _unfinished(db)
    with connect(db) as conn:
        seats = json.loads(conn.execute("SELECT ledger FROM deal WHERE number = 2").fetchone()[0])
    seats[0] += 1  # a chip made out of nothing, in the last deal the resume starts from
    _sql(db, "UPDATE deal SET ledger = ? WHERE number = 2", json.dumps(seats))
    assert main(["ledger", str(db)]) == 1
    assert "INCONSISTENT" in capsys.readouterr().out
    with pytest.raises(BoodleError) as err:
        resume(db, None, load_rules, nothing)
    assert err.value.message.startswith(
        f"session 's' in {db} is damaged and is not resumed: deal 2: chips 201 instead of 200")
    assert "boodle ledger" in (err.value.hint or "")
    with connect(db) as conn:  # nothing was played on
        assert conn.execute("SELECT count(*) FROM deal").fetchone()[0] == 3


def test_resume_refuses_a_bit_flipped_random_generator(tmp_path: Path) -> None:
    # consistent by every sum (the check passes), but deal 3 would not be the one the seed
    # plays: the replay of the recorded deals finds it
    db = tmp_path / "ledger.sqlite"
    _unfinished(db)
    with connect(db) as conn:
        progress = json.loads(
            conn.execute("SELECT progress FROM deal WHERE number = 2").fetchone()[0])
    progress["rngs"][1][1][100] ^= 1 << 7
    _sql(db, "UPDATE deal SET progress = ? WHERE number = 2", json.dumps(progress))
    assert main(["ledger", str(db)]) == 0  # nothing the check can see
    with pytest.raises(BoodleError) as err:
        resume(db, None, load_rules, nothing)
    assert "deal 2: the recorded progress (ledger, dealer or random generators) is not what" \
        in err.value.message


@pytest.mark.parametrize("deal", [1, 2])  # the progress resumed from, and the one before it
def test_resume_refuses_a_bit_flipped_generator_of_the_last_two_deals(
        tmp_path: Path, deal: int) -> None:
    db = tmp_path / "ledger.sqlite"
    _unfinished(db)
    with connect(db) as conn:
        progress = json.loads(conn.execute("SELECT progress FROM deal WHERE number = ?",
                                           (deal,)).fetchone()[0])
    progress["rngs"][0][1][7] ^= 1
    _sql(db, "UPDATE deal SET progress = ? WHERE number = ?", json.dumps(progress), deal)
    with pytest.raises(BoodleError, match="deal 2: (its recorded events|the recorded progress)"):
        resume(db, None, load_rules, nothing)


def test_resume_refuses_changed_events(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    _unfinished(db)
    with connect(db) as conn:
        events = json.loads(conn.execute("SELECT events FROM deal WHERE number = 2").fetchone()[0])
    play = next(e for e in events if e.get("kind") == "play")
    play["seat"] = (play["seat"] + 1) % 4  # another player played the card: no chip moves
    _sql(db, "UPDATE deal SET events = ? WHERE number = 2", json.dumps(events))
    assert main(["ledger", str(db)]) == 0  # nothing the check can see
    with pytest.raises(BoodleError, match="deal 2: its recorded events are not what"):
        resume(db, None, load_rules, nothing)


def test_an_intact_ledger_still_resumes(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    _unfinished(db)
    info, before = resume(db, None, load_rules, nothing)
    assert (info.name, before) == ("s", 2)


# ---------------------------------------------------------------- read-only


@pytest.fixture
def reachable() -> Iterator[Path]:
    """A folder any user can reach (pytest's own are the owner's only), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="boodle-ro-"))
    folder.chmod(0o755)
    yield folder
    for path in folder.rglob("*"):
        path.chmod(0o755)
    shutil.rmtree(folder)


def _read_only_ledger(folder: Path) -> Path:
    db = folder / "ro" / "ledger.sqlite"
    db.parent.mkdir()
    record_new(db, info_for(), MICHIGAN, nothing)
    assert not db.with_name("ledger.sqlite-wal").exists()  # closed cleanly: no -wal, -shm
    db.chmod(0o444)
    db.parent.chmod(0o555)
    return db


def _ledger_as_a_reader(db: Path) -> tuple[int, str]:
    """``boodle ledger DB`` by a user who may not write the file or its folder: in a forked
    child that drops to ``nobody`` when the tests run as root (root may write anything)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no pytest machinery from here on, only os._exit
        status = 99
        try:
            os.close(read)
            os.dup2(write, 1)
            os.dup2(write, 2)
            sys.stdout = sys.stderr = open(1, "w", closefd=False)  # noqa: SIM115
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            status = main(["ledger", str(db)])
            sys.stdout.flush()
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as f:
        out = f.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), out


def test_a_read_only_ledger_in_a_read_only_folder_can_be_read(
        reachable: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _read_only_ledger(reachable)
    warm = reachable / "warm.sqlite"  # every module the command needs, loaded before the fork
    shutil.copy(db, warm)
    assert main(["ledger", str(warm)]) == 0
    capsys.readouterr()
    status, out = _ledger_as_a_reader(db)
    assert status == 0, out
    assert "complete: 4 deals recorded" in out and ": consistent" in out
    assert sorted(p.name for p in db.parent.iterdir()) == ["ledger.sqlite"]  # nothing written
