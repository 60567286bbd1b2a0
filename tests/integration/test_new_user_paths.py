"""What a new user found on the command line's error paths (a house rule with pot-limit
betting, blinds and seats redrawn each deal): every refusal is a usage or input error with
a hint, made before the run and before any file is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main
from cli_helpers import usage_status

FRIDAY = """\
variant friday extends tripoley {
  title "Tripoley, Friday night"
  phase poker is poker {
    bets: pot limit
    blinds: 1, 2 chips
    raises: 3
  }
  session {
    start: 50 chips
    end: after 1 rotation
    leftover: split equally
    ties: share
    balance: may go negative
    seating: redrawn each deal
  }
}
"""


@pytest.fixture
def friday(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``friday.boodle`` in a fresh folder that is also the working folder."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "friday.boodle"
    path.write_text(FRIDAY, encoding="utf-8")
    return path


def test_too_many_deals_for_a_ledger_is_a_usage_error_before_the_file_is_made(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = "99999999999999999999"  # beyond a SQLite INTEGER (2**63 - 1)
    argv = ["play", str(friday), "--players", "4", "--seed", "1", "--deals", huge]
    assert usage_status(argv) == 2  # without --ledger: play's own bound
    capsys.readouterr()
    assert usage_status(argv + ["--ledger", "huge.sqlite"]) == 2
    err = capsys.readouterr().err
    assert f"--deals {huge}" in err and "9,223,372,036,854,775,807" in err
    assert "internal error" not in err
    assert not (friday.parent / "huge.sqlite").exists()


def test_a_ledger_under_a_file_is_said_to_be_under_a_file(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["play", str(friday), "--players", "4", "--seed", "1",
                   "--ledger", "friday.boodle/x.sqlite"])
    err = capsys.readouterr().err
    assert status == 1
    assert f"{friday} is a file, not a folder" in err
    assert "does not exist" not in err
    assert f"--ledger {friday.parent / 'x.sqlite'}" in err


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_session_name_is_a_usage_error(
        friday: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    argv = ["play", str(friday), "--players", "4", "--seed", "1", "--ledger", "f.sqlite",
            "--session", name]
    assert usage_status(argv) == 2
    assert "--session needs a name" in capsys.readouterr().err
    assert not (friday.parent / "f.sqlite").exists()
    assert usage_status(["play", "--resume", "f.sqlite", "--session", name]) == 2


def test_generate_out_under_a_file_is_refused_before_any_case_is_made(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conformance", "generate", "--rules", "friday.boodle",
                   "--out", "friday.boodle/sub"])
    captured = capsys.readouterr()
    assert status == 1
    assert "--out friday.boodle/sub: " in captured.err
    assert f"{friday} is a file, not a folder" in captured.err
    assert "hint: " in captured.err and "no case was made" in captured.err
    assert "Errno" not in captured.err
    assert "case" not in captured.out and "deal cases" not in captured.err  # before the run


def test_verify_cex_dir_under_a_file_is_refused_before_the_run(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["verify", "friday.boodle", "--players", "3", "--cex-dir",
                   "friday.boodle/cex"])
    captured = capsys.readouterr()
    assert status == 1
    assert f"--cex-dir friday.boodle/cex: {friday} is a file, not a folder" in captured.err
    assert "hint: " in captured.err and "nothing was verified" in captured.err
    assert captured.out == ""  # no report: refused before the run


def test_verify_cex_dir_that_is_a_file_is_refused(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "friday.boodle", "--cex-dir", "friday.boodle"]) == 1
    assert "--cex-dir friday.boodle: is a file, not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("cache", ["friday.boodle", "friday.boodle/proofs"])
def test_verify_cache_under_a_file_is_a_usage_error_before_the_run(
        friday: Path, capsys: pytest.CaptureFixture[str], cache: str) -> None:
    assert usage_status(["verify", "friday.boodle", "--players", "3", "--cache", cache]) == 2
    captured = capsys.readouterr()
    assert f"--cache {cache}: " in captured.err and "is a file, not a folder" in captured.err
    assert "--no-cache" in captured.err
    assert captured.out == ""  # refused before the run


@pytest.mark.parametrize("name", ["", "  "])
def test_ledger_with_an_empty_session_name_is_a_usage_error(
        friday: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert usage_status(["ledger", "club.sqlite", "--session", name]) == 2
    assert "--session: needs a name" in capsys.readouterr().err
    assert not (friday.parent / "club.sqlite").exists()


def test_a_new_cex_dir_is_not_made_before_a_counterexample(friday: Path) -> None:
    from boodle.out_paths import folder_problem

    assert folder_problem("--cex-dir", friday.parent / "new" / "cex") is None
    assert not (friday.parent / "new").exists()


def _seats_drawn(line: str) -> dict[str, str]:
    """``seats drawn for deal 2 (…): C sits in seat A, A sits in seat B`` → seat: player."""
    pairs = line.split(": ", 1)[1].split(", ")
    return {p.split(" sits in seat ")[1]: p.split(" sits in seat ")[0] for p in pairs}


def _balances(text: str) -> dict[str, str]:
    return dict(pair.split(" ") for pair in text.split(", "))


def test_redrawn_seats_the_trace_says_which_letters_are_seats_and_which_players(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(friday), "--players", "4", "--seed", "1",
                 "--ledger", "f.sqlite"]) == 0
    trace = capsys.readouterr().out.splitlines()
    assert main(["ledger", "f.sqlite"]) == 0
    # deal, dealer, winner and the players' balances, by player (spec §10)
    rows = {cells[0]: cells for line in capsys.readouterr().out.splitlines()
            if (cells := line.split()) and cells[0].isdigit()}
    seats: dict[str, str] = {}
    checked = 0
    for i, line in enumerate(trace):
        if line.startswith("seats drawn for deal "):
            seats = _seats_drawn(line)
        elif line.startswith("Deal ") and seats:
            number, rest = line[len("Deal "):].split(": ", 1)
            dealer = rest.split(" ")[0]
            assert rest.startswith(f"{dealer} deals (player {seats[dealer]}), 4 players; "
                                   "letters name seats as drawn")
            assert rows[number][1] == seats[dealer]
        elif line.startswith("  ledger by seat: "):
            by_seat = _balances(line[len("  ledger by seat: "):])
            label, by_player = trace[i + 1].split(": ", 1)
            assert label == "  ledger by player"
            # the same balances, renamed from seat to the player drawn into it
            assert _balances(by_player) == {seats[s]: a for s, a in by_seat.items()}
            assert list(_balances(by_player).values()) == rows[number][3:7]
            winner = trace[i - 2].split()
            assert winner[1:4] == ["wins", "the", "deal"]
            assert seats[winner[0]] == rows[number][2] == winner[-1].rstrip(")")
            checked += 1
            seats = {}
        else:
            assert not line.startswith("  ledger: ") or not seats, line
    assert checked == 3  # deals 2, 3 and 4 of the rotation: deal 1 keeps the starting seats


def test_play_prints_the_same_trace_with_a_ledger_as_without(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", str(friday), "--players", "4", "--seed", "1"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--ledger", "f.sqlite"]) == 0
    recorded = capsys.readouterr().out
    assert "\n\nseats drawn for deal 2 " in plain  # a blank line before each draw
    assert recorded == plain


@pytest.mark.parametrize("argv", [["docs", "build", "--out", "friday.boodle/site"],
                                  ["conformance", "export", "friday.boodle/suite"]])
def test_a_folder_to_write_under_a_file_is_refused_with_a_hint(
        friday: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"{friday} is a file, not a folder" in err and "Not a directory" not in err
    assert f"hint: give a folder that is not inside a file, as in {friday.parent}" in err


def test_play_positions_labels_a_drawn_deal_as_play_does(
        friday: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", str(friday), "--players", "4", "--seed", "1"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--positions"]) == 0
    traced = [line for line in capsys.readouterr().out.splitlines()
              if not line.startswith("    @ ")]
    assert "  ledger by player: A 38, B 38, C 48, D 52" in traced  # deal 2 (seed 1)
    assert traced == plain.splitlines()


def test_the_default_cex_dir_is_checked_only_for_a_file_in_the_way(friday: Path) -> None:
    from boodle.language.errors import BoodleError
    from boodle.verify.cli import CEX_DIR, _check_cex_dir

    assert _check_cex_dir(None) == CEX_DIR  # nothing made before a counterexample
    assert not (friday.parent / CEX_DIR).exists()
    (friday.parent / CEX_DIR).write_text("", encoding="utf-8")
    with pytest.raises(BoodleError, match="is a file, not a folder"):
        _check_cex_dir(None)
