"""``boodle verify``: the table, the JSON form, exit statuses (issue 5, "boodle verify")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boodle.cli import main


def test_verify_michigan_for_three_players_proves_and_checks_everything(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "michigan — z3" in out and "no counterexample" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("chip conservation"))
    # z3 proved it on the full deck and the 180 deals of the 2x3 deck reached 840 states
    assert "proven" in row and "states" in row
    assert "at most 37 moves per deal" in out  # 52 - 13 (widow) - 2 (opponents keep a card)
    assert "180 deals" in out


def test_verify_json_without_z3(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan-classic", "--players", "4", "--no-z3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "verify-report" and doc["counterexamples"] == 0
    exhaustive = [r for r in doc["results"] if r["method"] == "exhaustive"]
    assert {r["property"] for r in exhaustive} == {"chip conservation", "card conservation",
                                                   "termination", "progress", "well-formedness",
                                                   "engine = model"}
    assert all(r["players"] == 4 and r["deck"] == "2x3" and r["status"] == "checked"
               for r in exhaustive)
    # and the engine compared with the model in random deals at every count (issue 16)
    engine = [r for r in doc["results"] if r["method"] == "engine"]
    assert [(r["players"], r["property"], r["status"]) for r in engine] == [
        (4, "engine = model", "checked")]
    assert not any(r["method"] == "z3" for r in doc["results"])


def test_a_bad_deck_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["verify", "michigan", "--deck", "9x9"])
    assert exc.value.code == 2
    assert "1-4 suits" in capsys.readouterr().err


def test_an_unknown_variant_is_a_rules_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michgan"]) == 1
    assert "did you mean michigan" in capsys.readouterr().err


def _not_ending(tmp_path) -> str:  # type: ignore[no-untyped-def]
    # Michigan whose going out does not end the deal: the builder accepts it, the engine
    # refuses to play it and the z3 model lacks it (spec §7), so no method verifies anything
    text = (Path(__file__).resolve().parents[2] / "spec" / "variants" / "michigan.boodle"
            ).read_text(encoding="utf-8")
    assert "going out: ends deal, takes kitty" in text
    path = tmp_path / "endless.boodle"
    path.write_text(text.replace("going out: ends deal, takes kitty", "going out: takes kitty"),
                    encoding="utf-8")
    return str(path)


def test_a_variant_nothing_verifies_is_not_reported_as_verified(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", _not_ending(tmp_path), "--players", "3"]) == 1
    out = capsys.readouterr().out
    assert "no counterexample\n" not in out + "\n" and not out.rstrip().endswith(
        "no counterexample")
    assert "NOT VERIFIED: 5 properties neither proven nor checked" in out
    gap = next(line for line in out.splitlines() if line.startswith("  ✗ endless, 3 players"))
    assert ("chip conservation, card conservation, termination, progress, well-formedness"
            in gap)
    assert "going out without ending the deal" in gap


def test_unverified_properties_are_listed_in_the_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", _not_ending(tmp_path), "--players", "4", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["counterexamples"] == 0
    assert sorted(g["property"] for g in doc["unverified"]) == [
        "card conservation", "chip conservation", "progress", "termination", "well-formedness"]
    assert all(g["players"] == 4 and g["variant"] == "endless" for g in doc["unverified"])


def test_switching_every_method_off_is_refused(capsys) -> None:  # type: ignore[no-untyped-def]
    # nothing would verify a property at a player count: a usage error, not a report
    with pytest.raises(SystemExit) as exc:
        main(["verify", "michigan", "--players", "3", "--no-z3", "--no-exhaustive"])
    assert exc.value.code == 2
    assert "leave no method" in capsys.readouterr().err


def test_progress_goes_to_stderr_one_line_per_count_and_method(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan-classic", "--players", "3", "--players", "4", "--no-z3",
                 "--json", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)  # stdout is the JSON document alone
    lines = captured.err.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "[1/1] michigan-classic, 3 players, exhaustive",
        "[1/1] michigan-classic, 4 players, exhaustive",
        "[1/1] michigan-classic, 3 players, engine",
        "[1/1] michigan-classic, 4 players, engine"]
    # the search checks five properties and compares its states with the model
    assert all("6 checked" in line and "s CPU" in line for line in lines[:2])
    assert all("1 checked" in line and "s CPU" in line for line in lines[2:])


def test_a_variant_that_plays_none_of_the_counts_is_left_out_not_unverified(capsys) -> None:  # type: ignore[no-untyped-def]
    # michigan plays 3-8, rummoli 2-8: with --players 2 michigan has nothing to verify; it
    # was reported NOT VERIFIED ("no method ran") with exit 1 (found by a fresh user)
    assert main(["verify", "michigan", "rummoli", "--players", "2", "--no-z3"]) == 0
    captured = capsys.readouterr()
    assert "michigan: left out, it plays 3-8 players (--players 2)" in captured.err
    assert "NOT VERIFIED" not in captured.out and "rummoli" in captured.out
    assert "michigan" not in captured.out


def test_without_z3_a_count_above_four_is_not_verified(capsys) -> None:  # type: ignore[no-untyped-def]
    """The exhaustive search covers 2 to 4 players; under --no-z3 michigan's 5 players is
    covered by nothing, so its five per-count properties are NOT VERIFIED and the exit status
    is 1 (a fresh user saw 5-8 players silently left out of the table, exit 0)."""
    assert main(["verify", "michigan", "--players", "4", "--players", "5", "--no-z3",
                 "--deck", "2x3", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    gaps = doc["unverified"]
    assert {(g["players"], g["property"]) for g in gaps} == {
        (5, p) for p in ("chip conservation", "card conservation", "termination", "progress",
                         "well-formedness")}
    assert all(g["why"] == "z3 is off, and the exhaustive search covers 2, 3 and 4 players only"
               for g in gaps)
    checked = {r["players"] for r in doc["results"] if r["method"] == "exhaustive"}
    assert checked == {4}
    assert main(["verify", "michigan", "--players", "5", "--no-z3"]) == 1
    out = capsys.readouterr().out
    assert "5 players" in out and "not covered" in out and "NOT VERIFIED: 5 properties" in out


# ---------------------------------------------------------------- --jobs

_TIMES = [
    (re.compile(r"[\d.]+ s wall, [\d.]+ s CPU"), "T s wall, T s CPU"),
    (re.compile(r"— exhaustive [\d.]+ s"), "— exhaustive T s"),
    (re.compile(r", engine [\d.]+ s"), ", engine T s"),
    (re.compile(r"[\d,]+ states per wall second, [\d,]+ per CPU second"), "R states per second"),
    (re.compile(r"\([\d.]+ s CPU\)"), "(T s CPU)"),
]
"""The figures of a report that are times or rates: they differ from run to run."""


def _untimed(text: str) -> str:
    for pattern, mask in _TIMES:
        text = pattern.sub(mask, text)
    return text


def _run(capsys, *args: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    main(["verify", "michigan-classic", "pope-joan", "--no-z3", "--no-engine", "--deck", "2x3",
          *args])
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_jobs_two_prints_the_serial_report(capsys) -> None:  # type: ignore[no-untyped-def]
    """Two processes, the same report as one: the same rows in the same order, as text and
    as JSON, times and rates aside; each progress line whole (the same lines, in the order
    the runs finish)."""
    one, one_err = _run(capsys, "--jobs", "1")
    two, two_err = _run(capsys, "--jobs", "2")
    assert "michigan-classic — exhaustive" in one and "pope-joan — exhaustive" in one
    assert _untimed(two) == _untimed(one)
    assert sorted(_untimed(two_err).splitlines()) == sorted(_untimed(one_err).splitlines())
    assert len(two_err.splitlines()) == 4  # 2 variants × 3 and 4 players (the search's 2-4)
    assert all(re.fullmatch(r"\[[12]/2\] [a-z-]+, [34] players, exhaustive: 5 checked "
                            r"\([\d.]+ s CPU\)", line) for line in two_err.splitlines())

    def rows(out: str) -> list[dict[str, object]]:
        doc = json.loads(out)
        return [{k: _untimed(v) if isinstance(v, str) else v for k, v in r.items()
                 if k != "run_seconds"} for r in doc["results"]]

    one_json, _ = _run(capsys, "--jobs", "1", "--json")
    two_json, _ = _run(capsys, "--jobs", "2", "--json")
    assert rows(two_json) == rows(one_json)
    # per variant: 3 static rows (well-formedness, session end, not modelled), 5 per count
    assert len(rows(one_json)) == 2 * (3 + 4 * 5 + 2 * 5)


def test_jobs_two_with_the_engine_check_prints_the_serial_report(capsys) -> None:  # type: ignore[no-untyped-def]
    """The engine = model check on (its comparisons in the search and its random deals, run
    in the worker that runs the count): two processes give the same rows as one, its own
    row and notes included, as text and as JSON."""
    args = ["verify", "michigan-classic", "pope-joan", "--no-z3", "--deck", "2x3",
            "--players", "3"]
    main([*args, "--jobs", "1"])
    one = capsys.readouterr()
    main([*args, "--jobs", "2"])
    two = capsys.readouterr()
    assert "engine = model" in one.out and "random deals, 3 players" in one.out
    assert _untimed(two.out) == _untimed(one.out)
    assert sorted(_untimed(two.err).splitlines()) == sorted(_untimed(one.err).splitlines())
    assert any(re.fullmatch(r"\[[12]/2\] [a-z-]+, 3 players, engine: 1 checked "
                            r"\([\d.]+ s CPU\)", line) for line in two.err.splitlines())

    def rows(out: str) -> list[dict[str, object]]:
        doc = json.loads(out)
        return [{k: _untimed(v) if isinstance(v, str) else v for k, v in r.items()
                 if k != "run_seconds"} for r in doc["results"]]

    main([*args, "--jobs", "1", "--json"])
    one_json = capsys.readouterr().out
    main([*args, "--jobs", "2", "--json"])
    assert rows(capsys.readouterr().out) == rows(one_json)
    assert any(r["property"] == "engine = model" for r in rows(one_json))


def test_jobs_zero_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["verify", "michigan", "--jobs", "0"])
    assert exc.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_runs_that_share_proofs_go_to_one_task() -> None:
    """Two subjects with the very same rules share every z3 proof at a player count (the
    serial run proves them once): under --jobs their runs at each count are one task, in the
    serial order, so each finds what the serial run finds; exhaustive searches, which share
    nothing, are a task each.  Michigan plays 3-8 players; the search covers 3 and 4."""
    from boodle.language.variants import load
    from boodle.verify.verifier import Options, Subject, _steps, _tasks

    rules = load("michigan")
    subjects = [Subject("a", rules), Subject("b", rules)]
    plan = [_steps(s, Options(engine=False)) for s in subjects]
    tasks = _tasks(subjects, plan)
    assert tasks == [*([(k, "exhaustive", n)] for k in (0, 1) for n in (3, 4)),
                     *([(0, "z3", n), (1, "z3", n)] for n in (8, 7, 6, 5, 4, 3))]


def test_a_session_with_no_end_names_its_chips_not_modelled(
        capsys: pytest.CaptureFixture[str]) -> None:
    """tripoli-lowest-club ('end: never', spec §10) printed 'not modelled by z3:  — …' with
    nothing before the dash: its chips still carry from deal to deal, unmodelled by z3."""
    assert main(["verify", "tripoli-lowest-club", "--players", "3", "--no-z3",
                 "--no-cache"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "not modelled by z3" in x)
    assert line.startswith("  not modelled by z3: the session's chips across deals (no end: "
                           "the ledger runs on) — "), line
