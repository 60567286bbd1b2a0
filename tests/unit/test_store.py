"""The session ledger (issue 9): every deal in one transaction, exact resume, the check.

Expected values come from an uninterrupted :func:`boodle.session.run.play_session` of the same
seed (a path that never touches SQLite) and from the starting stakes: 4 players × 50 chips.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.engine.events import DealEnd, Event, SessionEnd
from boodle.language.errors import BoodleError
from boodle.language.variants import load
from boodle.session.ledger_cli import load_rules
from boodle.session.run import play_session
from boodle.session.store import (
    check,
    connect,
    deal_rows,
    ending_row,
    record_new,
    resume,
    sessions,
)
from store_helpers import info_for, nothing

MICHIGAN = load("michigan")


class Crash(Exception):
    """Stands for the process dying right after a deal was committed."""


def crash_after(units: int) -> object:
    """An emit callback that crashes once ``units`` units (opening, deals) are committed."""
    seen = [0]

    def emit(events: list[Event]) -> None:
        seen[0] += 1
        if seen[0] >= units:
            raise Crash

    return emit


@pytest.fixture()
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "ledger.sqlite"


def rows_of(path: Path, name: str = "s") -> tuple[list, dict | None]:
    with connect(path) as conn:
        info = next(s for s in sessions(conn) if s.name == name)
        return deal_rows(conn, info), ending_row(conn, info)


# ---------------------------------------------------------------- recording


def test_a_recorded_session_holds_every_deal_and_the_same_result_as_play_session(db: Path) -> None:
    record_new(db, info_for(), MICHIGAN, nothing)
    plain = play_session(MICHIGAN, 4, 1)
    rows, end = rows_of(db)
    assert [r.number for r in rows] == [0, 1, 2, 3, 4]  # opening + one rotation of 4 deals
    ends = [e for e in plain.events if isinstance(e, DealEnd)]
    assert [r.ledger for r in rows[1:]] == [e.ledger for e in ends]
    assert rows[0].ledger.seats == (50, 50, 50, 50) and rows[0].ledger.total() == 200
    assert end is not None and end["ledger"] == plain.ledger
    assert end["winners"] == list(plain.winners)
    assert all(r.ledger.total() == 200 for r in rows)
    with connect(db) as conn:
        assert check(conn, sessions(conn)[0]) == []


def test_fractions_from_the_leftover_split_are_stored_exactly(db: Path) -> None:
    # 3 players: the board's leftover is split in thirds (001 §06), kept as fractions;
    # paying the widow's share puts a number of chips on the board that 3 may not divide:
    # the first seed whose leftover is not a multiple of 3
    rules = load("michigan-pay-the-widow")
    results = ((k, play_session(rules, 3, k)) for k in range(60))
    seed, plain = next((k, r) for k, r in results
                       if any(isinstance(a, Fraction) for a in r.ledger.seats))
    record_new(db, info_for(players=3, seed=seed, variant="michigan-pay-the-widow"), rules,
               nothing)
    _, end = rows_of(db)
    assert end is not None and end["ledger"] == plain.ledger
    assert {a.denominator for a in end["ledger"].seats if isinstance(a, Fraction)} == {3}
    assert end["ledger"].total() == 150


def test_a_session_of_a_fixed_number_of_deals_is_marked_complete(db: Path) -> None:
    record_new(db, info_for(deals=2), MICHIGAN, nothing)
    rows, end = rows_of(db)
    assert [r.number for r in rows] == [0, 1, 2]
    assert end is not None and end["events"] == [] and end["winners"] == []
    assert end["ledger"] == rows[-1].ledger == play_session(MICHIGAN, 4, 1, deals=2).ledger


def test_a_second_session_of_the_same_name_is_refused(db: Path) -> None:
    record_new(db, info_for(deals=1), MICHIGAN, nothing)
    with pytest.raises(BoodleError, match="already holds a session 's'"):
        record_new(db, info_for(deals=1), MICHIGAN, nothing)


def test_the_name_of_a_complete_session_suggests_another_name_not_resume(db: Path) -> None:
    # issue 21: the hint said 'resume it', and --resume then failed: the session was complete
    record_new(db, info_for(deals=1), MICHIGAN, nothing)
    record_new(db, info_for("s-2", deals=1), MICHIGAN, nothing)
    with pytest.raises(BoodleError) as info:
        record_new(db, info_for(deals=1), MICHIGAN, nothing)
    hint = info.value.hint or ""
    assert "--resume" not in hint and "complete" in hint
    assert hint.endswith("--session s-3")  # s-2 is taken
    record_new(db, info_for("s-3", deals=1), MICHIGAN, nothing)  # the hint's edit works
    assert rows_of(db, "s-3")[1] is not None


def test_the_name_of_an_unfinished_session_suggests_resuming_it(db: Path) -> None:
    with pytest.raises(Crash):
        record_new(db, info_for(), MICHIGAN, crash_after(2))
    with pytest.raises(BoodleError) as info:
        record_new(db, info_for(), MICHIGAN, nothing)
    assert info.value.hint == (f"resume it: boodle play --resume {db} --session s, or start a "
                               "new one under another name: --session s-2")


# ---------------------------------------------------------------- resume


@pytest.mark.parametrize("units", [1, 2, 3, 4, 5])  # 1: only the opening survived … 5: all deals
def test_a_resumed_session_equals_the_uninterrupted_one(tmp_path: Path, units: int) -> None:
    whole, cut = tmp_path / "whole.sqlite", tmp_path / "cut.sqlite"
    rules = replace(MICHIGAN, session=replace(MICHIGAN.session, ties="one more deal"))
    record_new(whole, info_for(), rules, nothing)
    with pytest.raises(Crash):
        record_new(cut, info_for(), rules, crash_after(units))
    rows, end = rows_of(cut)
    assert len(rows) == units and end is None  # committed deals survive the crash
    info, before = resume(cut, None, lambda _: rules, nothing)
    assert (info.name, before) == ("s", units - 1)
    assert rows_of(cut) == rows_of(whole)  # every deal, event, ledger, generator state


def test_resume_continues_the_random_players_where_they_were(db: Path) -> None:
    # the seats' generators are restored, not restarted: deal 3 differs otherwise
    with pytest.raises(Crash):
        record_new(db, info_for(), MICHIGAN, crash_after(3))
    resume(db, None, load_rules, nothing)
    plain = play_session(MICHIGAN, 4, 1)
    rows, end = rows_of(db)
    assert [r.ledger for r in rows[1:]] == [e.ledger for e in plain.events
                                             if isinstance(e, DealEnd)]
    assert end is not None and end["ledger"] == plain.ledger


def test_resume_of_a_complete_session_or_an_empty_file_is_refused(db: Path,
                                                                 tmp_path: Path) -> None:
    record_new(db, info_for(deals=1), MICHIGAN, nothing)
    with pytest.raises(BoodleError, match="every session in .* is complete"):
        resume(db, None, load_rules, nothing)
    with pytest.raises(BoodleError, match="session 's' in .* is complete"):
        resume(db, "s", load_rules, nothing)
    with pytest.raises(BoodleError, match="no ledger file"):
        resume(tmp_path / "missing.sqlite", None, load_rules, nothing)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(BoodleError, match="is not a boodle ledger"):
        resume(other, None, load_rules, nothing)


def test_with_two_unfinished_sessions_resume_asks_which(db: Path) -> None:
    for name in ("a", "b"):
        with pytest.raises(Crash):
            record_new(db, info_for(name), MICHIGAN, crash_after(2))
    with pytest.raises(BoodleError, match="2 unfinished sessions") as info:
        resume(db, None, load_rules, nothing)
    assert info.value.hint == "choose one with --session: a, b"
    resume(db, "b", load_rules, nothing)
    assert rows_of(db, "b")[1] is not None and rows_of(db, "a")[1] is None


# ---------------------------------------------------------------- the check finds faults


def tamper(db: Path, sql: str, *params: object) -> list[str]:
    conn = sqlite3.connect(db)
    conn.execute(sql, params)
    conn.commit()
    conn.close()
    with connect(db) as c:
        return check(c, sessions(c)[0])


def test_the_check_finds_a_chip_created(db: Path) -> None:
    record_new(db, info_for(), MICHIGAN, nothing)
    rows, _ = rows_of(db)
    seats = [*rows[2].ledger.seats]
    seats[0] += 1
    problems = tamper(db, "UPDATE deal SET ledger = ? WHERE number = 2", json.dumps(seats))
    assert "deal 2: chips 201 instead of 200" in problems
    assert any(p.startswith("deal 2: its transfers from the previous ledger give")
               for p in problems)


def test_the_check_finds_a_deal_lost(db: Path) -> None:
    record_new(db, info_for(), MICHIGAN, nothing)
    problems = tamper(db, "DELETE FROM deal WHERE number = 2")
    assert problems[0] == "deal numbers [0, 1, 3, 4] are not 0, 1, 2 …"
    assert any(p.startswith("deal 3: its transfers") for p in problems)


def test_the_check_finds_a_deal_counted_twice(db: Path) -> None:
    record_new(db, info_for(), MICHIGAN, nothing)
    conn = sqlite3.connect(db)
    events, transfers = conn.execute(
        "SELECT events, transfers FROM deal WHERE number = 2").fetchone()
    conn.close()
    problems = tamper(db, "UPDATE deal SET events = ?, transfers = ? WHERE number = 3",
                      events, transfers)
    assert "deal 3: events hold deal starts [2] and 1 deal ends" in problems
    assert any(p.startswith(("deal 3: its transfers", "deal 3: a transfer does not replay"))
               for p in problems)


# ---------------------------------------------------------------- the command line


def test_play_with_a_ledger_prints_the_same_trace(db: Path, capsys: pytest.CaptureFixture[str]
                                                  ) -> None:
    assert main(["play", "michigan", "--players", "4", "--seed", "3"]) == 0
    plain = capsys.readouterr().out
    assert main(["play", "michigan", "--players", "4", "--seed", "3",
                 "--session", "friday", "--ledger", str(db)]) == 0
    assert capsys.readouterr().out == plain


def test_boodle_ledger_prints_history_standings_and_check(db: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["play", "michigan", "--players", "4", "--seed", "3", "--session", "friday",
                 "--ledger", str(db), "--json"]) == 0
    capsys.readouterr()
    assert main(["ledger", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    plain = play_session(MICHIGAN, 4, 3)
    end = next(e for e in plain.events if isinstance(e, SessionEnd))
    assert out[0] == "session friday: michigan, 4 players, seed 3, strategy random"
    assert out[1] == "  complete: 4 deals recorded (the whole session)"
    assert out[3].split() == ["start", "-", "-", "50", "50", "50", "50", "0"]
    for line, deal_end in zip(out[4:8], [e for e in plain.events if isinstance(e, DealEnd)],
                              strict=True):
        cells = line.split()
        assert cells[3:7] == [str(a) for a in deal_end.ledger.seats]
        assert cells[7] == str(sum(a for _, a in deal_end.ledger.sections))
    assert out[9] == "  final standings: " + ", ".join(
        f"{'ABCD'[s]} {a}" for s, a in enumerate(end.standings))
    assert out[10] == "  best: " + ", ".join("ABCD"[s] for s in end.winners)
    assert out[11] == "  check: players 200 + board 0 = 200, start 200: consistent"


def test_boodle_ledger_exits_1_on_an_inconsistent_ledger(db: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    record_new(db, info_for(), MICHIGAN, nothing)
    tamper(db, "DELETE FROM deal WHERE number = 1")
    assert main(["ledger", str(db)]) == 1
    assert "INCONSISTENT" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--resume", "X", "--players", "4"], "do not give --players"),
    (["play", "--resume", "X", "michigan"], "do not give VARIANT"),
    (["play", "michigan", "--players", "4", "--session", "s"], "add --ledger FILE.sqlite"),
    (["play"], "give a VARIANT and --players N (or --resume FILE.sqlite)"),
    # found trying the CLI as a new user: "give a VARIANT and --players N" to one who gave
    # the variant, or the players
    (["play", "michigan"], "error: give --players N: how many play michigan\n"),
    (["play", "--players", "4"], "error: give the VARIANT to play: a built-in variant's name"),
])
def test_options_that_do_not_go_together_are_usage_errors(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: boodle play") and message in err


def test_resume_from_the_command_line(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(Crash):
        record_new(db, info_for(), MICHIGAN, crash_after(2))
    assert main(["play", "--resume", str(db)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "resumed session 's' after deal 1\n"
    assert "Deal 2:" in captured.out and "Deal 1:" not in captured.out
    assert rows_of(db)[1] is not None
    assert main(["play", "--resume", str(db)]) == 1  # complete now


def test_resume_of_a_session_killed_in_its_first_deal_says_so(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tried as a new user (kill -9 during deal 1): "resumed session 's' after deal 0", a
    deal that does not exist; now it says that no deal was recorded."""
    with pytest.raises(Crash):
        record_new(db, info_for(), MICHIGAN, crash_after(1))
    assert main(["play", "--resume", str(db)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "resumed session 's' from its first deal (none was recorded)\n"
    assert "Deal 1:" in captured.out


def test_resume_says_which_session_before_the_deals(db: Path) -> None:
    # issue 21: the line came last, after thousands of lines of play
    with pytest.raises(Crash):
        record_new(db, info_for(), MICHIGAN, crash_after(2))
    code = "import sys; from boodle.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "play", "--resume", str(db)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "resumed session 's' after deal 1" and len(lines) > 20
    assert lines.count("resumed session 's' after deal 1") == 1


def test_a_resumed_session_plays_the_rules_it_started_with(tmp_path: Path) -> None:
    # a house rule over a base in its folder; both files change before the resume
    base = tmp_path / "base.boodle"
    base.write_text(Path(load("michigan").span.file).read_text(encoding="utf-8")
                    .replace("variant michigan", "variant base"), encoding="utf-8")
    house = tmp_path / "house.boodle"
    house.write_text("variant house extends base {\n  ante { each player 3 on kitty }\n}\n",
                     encoding="utf-8")
    whole, cut = tmp_path / "whole.sqlite", tmp_path / "cut.sqlite"
    info = info_for(variant=str(house))
    assert [name for name, _, _ in info.bases] == ["base"]
    record_new(whole, info, load_rules(info), nothing)
    with pytest.raises(Crash):
        record_new(cut, info, load_rules(info), crash_after(3))
    base.unlink()
    house.write_text("variant house extends michigan {\n}\n", encoding="utf-8")
    resume(cut, None, load_rules, nothing)
    rows, end = rows_of(cut)
    assert (rows, end) == rows_of(whole)
    for row in rows[1:]:  # the stored ante, every deal: each of 4 players 3 chips on the kitty
        antes = [(e["from"], e["to"], e["amount"]) for e in row.events if e["kind"] == "ante"]
        assert sorted(antes, key=str) == [({"seat": k}, {"section": "kitty"}, 3)
                                          for k in range(4)]


def test_a_damaged_row_is_an_error_not_a_traceback(db: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record_new(db, info_for(), MICHIGAN, nothing)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE deal SET board = '{\"kitty\": 1.5}' WHERE number = 2")
    conn.commit()
    conn.close()
    assert main(["ledger", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the ledger's deal 2 of session 's' is damaged: LedgerError")


def test_a_damaged_opening_and_a_missing_table_are_named_as_such(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tried as a new user damaging a ledger by hand: its opening (row 0, the cut) was
    "deal 0", which `boodle ledger` never lists, and a file without the deal table "has no
    session table" though it has one."""
    record_new(db, info_for(), MICHIGAN, nothing)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE deal SET events = '{not json' WHERE number = 0")
    conn.commit()
    conn.close()
    assert main(["ledger", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the ledger's opening (the cut and the draws before deal 1) "
                          "of session 's' is damaged: JSONDecodeError"), err
    assert "deal 0" not in err
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE deal")
    conn.commit()
    conn.close()
    assert main(["ledger", str(db)]) == 1
    assert capsys.readouterr().err.startswith(
        f"error: {db} is not a boodle ledger (no deal table)")


def test_a_new_ledger_given_as_a_folder_says_so(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Tried as a new user: `--ledger DIR` was "cannot open ledger DIR: unable to open
    database file" (SQLite's words); a folder is refused as one, with the edit."""
    assert main(["play", "michigan", "--players", "4", "--deals", "1",
                 "--ledger", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: {tmp_path} is a folder, not a ledger file\n"
                   f"  hint: name a file in it, as in --ledger {tmp_path / 'club.sqlite'}\n")
    assert list(tmp_path.iterdir()) == []


def test_a_ledger_in_a_missing_folder_says_what_to_do(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Tried as a new user: `--ledger /proc/x/club.sqlite` gave SQLite's words and no hint."""
    where = tmp_path / "nowhere" / "club.sqlite"
    assert main(["play", "michigan", "--players", "4", "--deals", "1",
                 "--ledger", str(where)]) == 1
    err = capsys.readouterr().err
    assert f"error: cannot open ledger {where}: " in err
    assert f"hint: the folder {where.parent} does not exist: create it" in err
    assert not where.parent.exists()
