"""``boodle conformance run / list`` as a new user meets them: usage errors found before any
case runs, the folders ``--cases`` accepts, an implementation that never starts, wording.

Each test runs at most a handful of cases (``--case`` with a narrow glob).  The
expectations are worked out from the options' documented meaning: a usage error
is exit 2 and runs nothing; a selection that matches nothing is exit 1 for
``run`` and ``list`` alike; an implementation that never answers ``start`` is
started once, not once per case.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.conformance.cases import Case, load_cases
from boodle.conformance.paths import suite_dir

PY = sys.executable
SERVE = f"{PY} -m boodle.cli conformance serve"
EXAMPLE = "michigan.worked-example-001.*"
LEADS = "michigan.lead-not-lowest-of-suit.*"


def user_cases(folder: Path) -> list[Case]:
    """The cases ``--cases FOLDER`` reads (imported here, so each test fails on its own)."""
    from boodle.conformance.cli import user_cases as read

    return read(folder)


def _usage_error(argv: list[str], capsys) -> str:  # type: ignore[no-untyped-def]
    """Run ``boodle ARGV``, expect argparse's usage error (exit 2); its stderr."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return str(capsys.readouterr().err)


# ---------------------------------------------------------------- 1. --impl


@pytest.mark.parametrize(("impl", "why"), [
    ("", "--impl: is empty"),
    ("   ", "--impl: is empty"),
    ("'./my engine", "cannot split"),
])
def test_an_impl_that_is_no_command_is_a_usage_error(impl: str, why: str, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _usage_error(["conformance", "run", "--impl", impl, "--case", EXAMPLE], capsys)
    assert why in err and "internal error" not in err


# ---------------------------------------------------------------- 2. --cases


def _two_cases() -> list[Path]:
    cases = load_cases(check=False)
    chosen = [c for c in cases if ".worked-example-001." in c.id or ".lead-not-lowest-of-suit."
              in c.id]
    assert len(chosen) == 2
    return [c.path for c in chosen if c.path is not None]


def _export_like(root: Path) -> Path:
    """A folder laid out like ``boodle conformance export DIR``: cases/, schema/, documents."""
    for path in _two_cases():
        target = root / "cases" / path.parent.name / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    shutil.copytree(suite_dir() / "schema", root / "schema")
    shutil.copy2(suite_dir() / "PROTOCOL.md", root / "PROTOCOL.md")
    return root


def test_cases_reads_an_exported_folder_and_runs_it(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = _export_like(tmp_path / "suite")
    assert len(user_cases(folder)) == 2
    assert main(["conformance", "run", "--impl", SERVE, "--cases", str(folder)]) == 0
    assert "2 cases: 2 pass" in capsys.readouterr().out


def test_cases_reads_the_checkouts_conformance_folder() -> None:
    # conformance/ holds schema/, mutation-score.json and src/ beside cases/: only cases/ is read
    assert [c.id for c in user_cases(suite_dir())] == [c.id for c in load_cases()]


def test_cases_in_any_folder_skips_json_that_is_not_a_case(tmp_path: Path) -> None:
    for path in _two_cases():
        shutil.copy2(path, tmp_path / path.name)
    (tmp_path / "notes.json").write_text(json.dumps({"format": "something-else"}), "utf-8")
    shutil.copy2(suite_dir() / "schema" / "case.schema.json", tmp_path / "case.schema.json")
    ids = [c.id for c in user_cases(tmp_path)]
    assert len(ids) == 2 and all(i.startswith("michigan.") for i in ids)


def test_cases_in_a_folder_without_cases_is_an_input_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    shutil.copytree(suite_dir() / "schema", tmp_path / "schema")
    assert main(["conformance", "run", "--impl", SERVE, "--cases", str(tmp_path / "schema")]) == 1
    assert "no boodle-case/1 case file in it" in capsys.readouterr().err


def test_cases_naming_a_missing_folder_is_a_usage_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _usage_error(["conformance", "run", "--impl", SERVE,
                        "--cases", str(tmp_path / "missing")], capsys)
    assert "missing: no such folder" in err and "no case matches" not in err


# ---------------------------------------------------------------- 3. report files


@pytest.mark.parametrize(("option", "target", "why"), [
    ("--junit", "no-such-folder/r.xml", "cannot write there"),
    ("--json", ".", "is a folder, not a file"),
    ("--markdown", "no-such-folder/r.md", "cannot write there"),
    ("--write-expected-failures", "no-such-folder/xf", "cannot write there"),
])
def test_an_unwritable_report_file_is_refused_before_the_run(  # type: ignore[no-untyped-def]
        tmp_path: Path, option: str, target: str, why: str, capsys) -> None:
    started = tmp_path / "started"
    impl = f"{PY} -c \"open('{started}', 'w')\""
    err = _usage_error(["conformance", "run", "--impl", impl, "--case", EXAMPLE,
                        option, str(tmp_path / target)], capsys)
    assert f"{option} " in err and why in err
    assert not started.exists()  # the implementation was never started


# ---------------------------------------------------------------- 4. start-up


def test_an_implementation_that_never_starts_is_started_once(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    starts = tmp_path / "starts"
    hang = tmp_path / "hang.sh"
    hang.write_text(f"#!/bin/sh\necho started >> '{starts}'\nexec sleep 1000\n", "utf-8")
    hang.chmod(0o755)
    assert main(["conformance", "run", "--impl", str(hang), "--timeout", "1",
                 "--start-timeout", "0.5", "--case", EXAMPLE, "--case", LEADS]) == 1
    out = capsys.readouterr().out
    assert starts.read_text("utf-8").splitlines() == ["started"]
    assert "no answer within 0.5 s" in out
    assert "not run: the implementation never answered 'start'" in out
    assert "run stopped" in out and "2 cases: 2 error" in out


def test_a_one_shot_command_in_session_mode_gets_a_hint(capsys) -> None:  # type: ignore[no-untyped-def]
    # serve --one-shot reads its whole input before answering: 'start' gets no answer
    assert main(["conformance", "run", "--impl", f"{SERVE} --one-shot", "--start-timeout", "2",
                 "--case", EXAMPLE]) == 1
    assert "run it with --mode one-shot" in capsys.readouterr().out


def test_the_start_timeout_is_in_the_help(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "run", "--help"])
    assert stop.value.code == 0
    assert "--start-timeout S" in capsys.readouterr().out


# ---------------------------------------------------------------- 5. selections


@pytest.mark.parametrize("argv", [
    ["list", "--case", "zzz*"],
    ["list", "--variant", "michigan", "--case", "tripoley.*"],
    ["run", "--impl", SERVE, "--case", "zzz*"],
])
def test_a_selection_of_nothing_says_so(argv: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["conformance", *argv]) == 1
    captured = capsys.readouterr()
    assert "no case matches the selection" in captured.err and captured.out == ""


@pytest.mark.parametrize("command", [["list"], ["run", "--impl", SERVE]])
def test_an_unknown_variant_gets_a_did_you_mean(command: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["conformance", *command, "--variant", "michgan"]) == 1
    err = capsys.readouterr().err
    assert "no case of variant 'michgan'" in err and "did you mean 'michigan'" in err
    assert main(["conformance", *command, "--variant", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert "no case of variant 'nosuch'" in err and "variants with cases:" in err


# ---------------------------------------------------------------- 6, 7. wording


def test_details_zero_names_the_failures_shown_without_a_diff(capsys) -> None:  # type: ignore[no-untyped-def]
    mutant = ["conformance", "run", "--impl", f"{SERVE} --mutant going-out-kitty-only",
              "--case", EXAMPLE]
    assert main([*mutant, "--details", "0"]) == 1
    out = capsys.readouterr().out
    # one failure (001's payment of 3 chips made 0): listed, its diff left out and said so
    assert "FAIL  michigan.worked-example-001." in out
    assert "first difference at event 9" not in out
    assert "(1 failure above is shown without its diff" in out
    assert "more without details" not in out
    assert "1 case: 1 fail" in out and "1 cases" not in out
    assert main([*mutant, "--details", "1"]) == 1
    out = capsys.readouterr().out
    assert "first difference at event 9" in out and "without its diff" not in out


def test_a_json_file_that_does_not_parse_is_skipped_with_a_warning(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # a case cut short must not vanish from a run unnoticed (found by a fresh user)
    good = _two_cases()[0]
    shutil.copy2(good, tmp_path / good.name)
    (tmp_path / "broken.json").write_text(good.read_text("utf-8")[:200], "utf-8")
    (tmp_path / "latin.json").write_bytes(b"\xff\xfe{}")
    assert len(user_cases(tmp_path)) == 1
    err = capsys.readouterr().err
    assert f"warning: {tmp_path / 'broken.json'}: not JSON (line" in err
    assert f"warning: {tmp_path / 'latin.json'}: not UTF-8 text; skipped" in err


def test_export_refuses_a_folder_with_other_files_unless_forced(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # export wrote its README.md over the user's own without a word (found by a fresh user)
    mine = tmp_path / "project"
    mine.mkdir()
    (mine / "README.md").write_text("my own readme", "utf-8")
    assert main(["conformance", "export", str(mine)]) == 1
    assert "is not empty and was not written by 'boodle conformance export'" \
        in capsys.readouterr().err
    assert (mine / "README.md").read_text("utf-8") == "my own readme"
    assert not (mine / "cases").exists()
    with pytest.raises(SystemExit) as stop:  # '' would mean the current folder unsaid
        main(["conformance", "export", ""])
    assert stop.value.code == 2 and "an empty path" in capsys.readouterr().err
    out = tmp_path / "suite"
    assert main(["conformance", "export", str(out)]) == 0
    assert main(["conformance", "export", str(out)]) == 0  # again over its own export
    assert main(["conformance", "export", str(mine), "--force"]) == 0
    assert (mine / "cases").is_dir() and (mine / "PROTOCOL.md").is_file()


def test_a_builtin_variant_without_cases_is_said_so(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a built-in variant the suite has no case of (michigan-random-boodles had none before
    # session cases; now every built-in has some, so one is made up): the hint offered other
    # names as if it were a typo (found by a fresh user)
    import boodle.conformance.cli as conformance_cli

    builtin = conformance_cli._builtin_names()
    monkeypatch.setattr(conformance_cli, "_builtin_names", lambda: [*builtin, "michigan-unplayed"])
    assert main(["conformance", "run", "--impl", SERVE, "--variant", "michigan-unplayed"]) == 1
    err = capsys.readouterr().err
    assert "variant 'michigan-unplayed' has no case" in err and "did you mean" not in err


def test_serve_answers_a_malformed_run_in_the_protocols_words() -> None:
    # it said "KeyError: 'variant'" and answered a run of kind "bogus" with "done" (found by
    # a fresh user); the run message is checked against the protocol schema first
    from boodle.conformance.engines import REFERENCE
    from boodle.conformance.serve import answer

    missing = answer({"type": "run", "id": "x"}, REFERENCE)
    assert missing is not None and missing["status"] == "error"
    assert "'variant' is a required property" in missing["message"]
    assert "KeyError" not in missing["message"]
    case = load_cases()[0].request()
    bogus = answer({**case, "kind": "bogus"}, REFERENCE)
    assert bogus is not None and bogus["status"] == "error"
    assert "kind: 'bogus' is not one of" in bogus["message"]


def test_a_run_where_nothing_passes_warns_though_nothing_failed(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # an adapter that plays no variant skips every case: exit 0 by the rules, but it must
    # not go green unnoticed (found by a fresh user)
    impl = tmp_path / "empty.py"
    impl.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'type': 'started', 'protocol': m['protocol'],\n"
        "              'implementation': {'name': 'empty', 'version': '0'},\n"
        "              'variants': [], 'features': []}), flush=True)\n"
        "    elif m['type'] == 'stop':\n"
        "        break\n", "utf-8")
    report = tmp_path / "r.json"
    assert main(["conformance", "run", "--impl", f"{sys.executable} {impl}",
                 "--case", "*worked-example*", "--json", str(report)]) == 0
    captured = capsys.readouterr()
    assert "2 cases: 2 skip" in captured.out
    assert "warning: no case passed (2 cases skipped, 0 expected failures)" in captured.err
    # why they were skipped is on the terminal, not only in --json (a fresh user's adapter
    # announced michigan version 2 and saw no reason); the JSON report has the warning too
    # the two worked examples are michigan's (001) and probe-next-in-turn's
    assert "skipped: 1 case: the implementation does not play michigan version 1" in captured.out
    assert ("skipped: 1 case: the implementation does not play probe-next-in-turn version 1"
            in captured.out)
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert any(w.startswith("no case passed") for w in doc["warnings"])


def test_the_protocols_transcript_shows_the_started_message_serve_sends() -> None:
    # the transcript listed 33 variants when serve announced 40 (found by a fresh user)
    from boodle.conformance.engines import REFERENCE
    from boodle.conformance.serve import started

    text = (suite_dir() / "PROTOCOL.md").read_text("utf-8")
    line = next(x for x in text.splitlines() if x.startswith('< {"type":"started"'))
    assert json.loads(line[2:]) == started(REFERENCE)


def test_one_shot_mode_says_why_it_refuses_a_start_message(capsys) -> None:  # type: ignore[no-untyped-def]
    # it exited 2 with nothing on stdout or stderr (found by a fresh user)
    import io

    from boodle.conformance.serve import one_shot

    out = io.StringIO()
    start = '{"type":"start","protocol":"boodle-protocol/1"}'
    assert one_shot(inp=io.StringIO(start), out=out) == 2
    assert out.getvalue() == ""
    assert "one-shot mode takes one 'run' message, not 'start'" in capsys.readouterr().err


def test_an_expected_failures_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    # the error was Python's codec message, without the file (found by a fresh user)
    from boodle.conformance.expected import read_expected
    from boodle.language.errors import BoodleError

    path = tmp_path / "xfail.txt"
    path.write_bytes(b"\xffcase reason\n")
    with pytest.raises(BoodleError) as err:
        read_expected(path)
    assert f"the expected-failures file {path} is not UTF-8 text" in str(err.value)
