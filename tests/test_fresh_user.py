"""Defects a fresh user found following the README; each test failed before its fix.

Expected values are worked out by hand from the rules (spec/rules.md), not
copied from a run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boodle.cli import main

# ---------------------------------------------------------------- counts are usage errors (exit 2)


@pytest.mark.parametrize(("argv", "option", "reason"), [
    (["play", "michigan", "--players", "4", "--deals", "0"], "--deals", "at least 1, not 0"),
    (["play", "michigan", "--players", "4", "--deals", "-3"], "--deals", "at least 1, not -3"),
    (["play", "michigan", "--players", "0"], "--players", "at least 1, not 0"),
    (["simulate", "michigan", "--players", "4", "--deals", "0"], "--deals", "at least 1"),
    (["simulate", "michigan", "--players", "4", "--deals", "-1"], "--deals", "at least 1"),
    (["simulate", "michigan", "--players", "4", "--deals", "5", "--workers", "0"],
     "--workers", "at least 1, not 0"),
    (["simulate", "michigan", "--players", "4", "--deals", "5", "--workers", "-2"],
     "--workers", "at least 1, not -2"),
    (["simulate", "michigan", "--players", "4", "--deals", "5", "--workers", "two"],
     "--workers", "'two' is not a whole number"),
    (["simulate", "michigan", "--players", "4", "--deals", "5", "--backend", "dask",
      "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "0"],
     "--connect-timeout", "above 0, not 0"),
    (["conformance", "run", "--impl", "x", "--timeout", "0"], "--timeout", "above 0, not 0"),
    (["conformance", "run", "--impl", "x", "--timeout", "-1.5"], "--timeout", "above 0"),
    (["conformance", "run", "--impl", "x", "--timeout", "inf"], "--timeout", "above 0"),
    (["conformance", "run", "--impl", "x", "--details", "-1"], "--details", "0 or more"),
])
def test_a_count_out_of_range_is_a_usage_error(argv: list[str], option: str, reason: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"error: argument {option}: " in err and reason in err
    assert "Traceback" not in err


def test_scheduler_without_dask_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "michigan", "--players", "4", "--deals", "5",
              "--scheduler", "tcp://127.0.0.1:1"])
    assert stop.value.code == 2
    assert "--scheduler is for --backend dask" in capsys.readouterr().err


# ---------------------------------------------------------------- simulate: Dask, outputs, report


@pytest.mark.parametrize(("address", "why"), [
    ("garbage", "missing port number"),
    ("tcp://127.0.0.1:1", "Timed out"),  # nothing listens on port 1: refused until the timeout
])
def test_an_unreachable_scheduler_is_a_readable_error(address: str, why: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "michigan", "--players", "4", "--deals", "5", "--backend", "dask",
                   "--scheduler", address, "--connect-timeout", "0.5"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(f"error: --scheduler {address}: cannot connect to a Dask scheduler")
    assert why in err and "hint:" in err and "internal error" not in err


@pytest.mark.parametrize("option", ["--json", "--csv", "--plot"])
def test_output_paths_are_checked_before_the_run(option: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no-such-folder" / "out.png"
    # 10 million deals would take hours: an exit within the test's time shows nothing ran
    status = main(["simulate", "michigan", "--players", "4", "--deals", "10000000",
                   "--no-progress", option, str(target)])
    captured = capsys.readouterr()
    assert status == 1 and captured.out == ""
    assert captured.err.startswith(f"error: {option} {target}: cannot write there")
    assert not target.parent.exists()


def test_a_folder_is_not_an_output_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "michigan", "--players", "4", "--deals", "10000000",
                   "--csv", str(tmp_path)])
    assert status == 1
    assert f"--csv {tmp_path}: is a folder, not a file" in capsys.readouterr().err


def test_a_writable_output_is_left_as_it_was_until_the_report(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    out = tmp_path / "r.json"
    assert main(["simulate", "michigan", "--players", "3", "--deals", "3", "--json",
                 str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["deals"] == 3


def _sessions_of_one_deal(tmp_path: Path) -> Path:
    """Michigan from 0 chips ending when a player has no chips.

    After the first deal the balances add up to 0 less the chips left on the
    board (spec §9: conservation), so some balance is 0 or less and every
    session ends after exactly one deal (spec §10).
    """
    path = tmp_path / "one-deal.boodle"
    path.write_text("variant one-deal extends michigan {\n"
                    "  session { start: 0 chips  end: when a player has no chips }\n}\n",
                    encoding="utf-8")
    return path


def test_the_report_says_how_many_deals_were_played(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    rules = _sessions_of_one_deal(tmp_path)
    assert main(["simulate", str(rules), "--players", "4", "--deals", "10", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # 10 deals asked of sessions of 4 deals (1 rotation of 4 players): ⌈10/4⌉ = 3 sessions,
    # each ended after its first deal: 3 deals played
    assert (report["deals_asked"], report["sessions_played"], report["deals"]) == (10, 3, 3)
    assert report["sessions_completed"] == 3
    assert report["plays_per_deal"]["n"] == 3
    assert main(["simulate", str(rules), "--players", "4", "--deals", "10"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("one-deal: 3 deals played, 4 players, seed 0 (3 whole sessions")
    assert ("10 deals were asked: the run is 3 sessions of up to 4 deals, and a session ends "
            "after a deal that leaves a player with no chips") in " ".join(text.split())


def test_the_deals_asked_are_not_repeated_when_all_were_played(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "michigan", "--players", "4", "--deals", "6"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("michigan: 6 deals played, 4 players")
    assert "were asked" not in text


def test_net_per_deal_leaves_out_the_leftover_split_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _sessions_of_one_deal(tmp_path)
    assert main(["simulate", str(rules), "--players", "4", "--deals", "40", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # one deal per session from an empty board: per deal, the seats' nets add up to minus the
    # chips left on the board (the carry-over); per session, after the leftover is split
    # equally (spec §10), they add up to 0
    per_deal = sum(s["net_per_deal"]["mean"] for s in report["seats"])
    carried = sum(s["carry_over"]["mean"] for s in report["sections"])
    per_session = sum(s["net_per_session"]["mean"] for s in report["seats"])
    assert carried > 0
    assert per_deal == pytest.approx(-carried, abs=1e-5)
    assert per_session == pytest.approx(0, abs=1e-5)
    assert "leftover" in report["definitions"]["net_per_deal"]
    assert main(["simulate", str(rules), "--players", "4", "--deals", "4"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("the split of the leftover at a session's end is not in it (spec §10), net per "
            "session includes it") in text
