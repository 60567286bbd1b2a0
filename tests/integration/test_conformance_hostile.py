"""The runner and ``serve`` against hostile implementations and files (issue 20, items 1-6).

Each test reproduces one defect an attack on the runner found; the expectations come from
the protocol's own words (conformance/PROTOCOL.md): a message that is not valid JSON text is
an error for its case, never a crash of the runner; every case gets exactly one outcome;
the implementation's processes are killed with it.  The adapters of
``conformance_adapters.py`` go wrong on the second case of each process (cases 1 and 3
pass, 2 and 4 are errors), except ``silent`` (no run is ever answered) and ``flood-lines``
(the first run is answered, then garbage without end).
"""

from __future__ import annotations

import functools
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.engines import REFERENCE
from boodle.conformance.report import console_text, write_json, write_junit, write_markdown
from boodle.conformance.run_suite import Report, run_suite
from boodle.conformance.serve import answer

ADAPTER = Path(__file__).parents[1] / "helpers" / "conformance_adapters.py"
PY = sys.executable


@functools.cache
def _started() -> str:
    reply = answer({"type": "start", "protocol": "boodle-protocol/1"}, REFERENCE)
    assert reply is not None
    return json.dumps(reply)


@pytest.fixture(autouse=True)
def quick_start(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The adapters answer ``start`` with the reference's answer, computed once here."""
    monkeypatch.setenv("BOODLE_TEST_STARTED", _started())


@functools.cache
def _rejects() -> tuple[Case, ...]:
    return tuple(c for c in load_cases() if c.variant == "michigan" and c.kind == "reject")


def _cases(n: int) -> list[Case]:
    cases = list(_rejects()[:n])
    assert len(cases) == n
    return cases


def _leftovers(marker: str) -> list[str]:
    """Live processes (not zombies) whose command line holds ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(cmdline.replace("\0", " "))
    return found


def _run(adapter: str, cases: list[Case], **options: float) -> tuple[Report, list[str]]:
    """Run ``cases`` against the adapter of that mode; the report and the processes left."""
    marker = f"boodle-test-{uuid.uuid4().hex}"
    options.setdefault("timeout", 10.0)
    report = run_suite(cases, f"{PY} {ADAPTER} {adapter} {marker}", **options)  # type: ignore[arg-type]
    deadline = time.monotonic() + 3
    while _leftovers(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return report, _leftovers(marker)


def _outcomes(report: Report) -> list[str]:
    return [o.outcome for o in report.outcomes]


def _all_reports(report: Report, folder: Path) -> None:
    """Every report of a run is written, as UTF-8 that reads back."""
    console_text(report).encode("utf-8")
    write_json(report, folder / "r.json")
    write_junit(report, folder / "r.xml")
    write_markdown(report, folder / "r.md")
    data = json.loads((folder / "r.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in data["cases"]] == [o.id for o in report.outcomes]
    assert len(ET.parse(folder / "r.xml").getroot().findall("testcase")) == len(report.outcomes)
    (folder / "r.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------- 1, 2: answers


@pytest.mark.parametrize(("mode", "why"), [
    ("deep", "nested more than"),
    ("surrogate", "lone surrogate"),
])
def test_a_hostile_answer_is_an_error_for_its_case(mode: str, why: str, tmp_path: Path) -> None:
    cases = _cases(4)
    report, left = _run(mode, cases)
    assert [o.id for o in report.outcomes] == [c.id for c in cases]
    assert _outcomes(report) == ["pass", "error"] * 2
    assert all(why in o.summary for o in report.outcomes if o.outcome == "error"), \
        [o.summary for o in report.outcomes]
    assert left == []
    _all_reports(report, tmp_path)


@pytest.mark.parametrize("mode", ["deep", "surrogate"])
def test_the_command_writes_every_report_whatever_the_answer(mode: str, tmp_path: Path) -> None:
    """Through the command line: exit 1 (a failed run, not 3), the console summary and the
    three reports, in a process whose output is UTF-8."""
    marker = f"boodle-test-{uuid.uuid4().hex}"
    ids = [c.id for c in _cases(2)]
    argv = [PY, "-m", "boodle.cli", "conformance", "run", "--impl",
            f"{PY} {ADAPTER} {mode} {marker}", "--json", str(tmp_path / "r.json"),
            "--junit", str(tmp_path / "r.xml"), "--markdown", str(tmp_path / "r.md"),
            *(x for i in ids for x in ("--case", i))]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env,
                          check=False)
    assert done.returncode == 1, done.stderr
    assert "2 cases: 1 pass, 1 error" in done.stdout
    assert "Traceback" not in done.stderr
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [c["outcome"] for c in data["cases"]] == ["pass", "error"]
    assert ET.parse(tmp_path / "r.xml").getroot().get("errors") == "1"
    assert "## Failures" in (tmp_path / "r.md").read_text(encoding="utf-8")


def _serve(lines: list[bytes]) -> tuple[list[dict], subprocess.CompletedProcess[bytes]]:  # type: ignore[type-arg]
    done = subprocess.run([PY, "-m", "boodle.cli", "conformance", "serve"],
                          input=b"".join(lines), capture_output=True, timeout=300, check=False)
    return [json.loads(line) for line in done.stdout.splitlines()], done


def test_serve_answers_hostile_messages_and_goes_on() -> None:
    case = _cases(1)[0]
    good = json.dumps(case.request()).encode() + b"\n"
    deep = b'{"type": "run", "id": "x", "setup": ' + b"[" * 1000 + b"]" * 1000 + b"}\n"
    surrogate = b'{"type": "run", "id": "boom \\ud800"}\n'
    not_utf8 = b'{"type": "run", "id": "\xff\xfe"}\n'
    answers, done = _serve([deep, surrogate, not_utf8, good, b'{"type": "stop"}\n'])
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    assert len(answers) == 4
    assert [a["status"] for a in answers[:3]] == ["error"] * 3
    assert "nested more than" in answers[0]["message"]
    assert "lone surrogate" in answers[1]["message"]
    assert "UTF-8" in answers[2]["message"]
    assert answers[3]["id"] == case.id and answers[3]["status"] == "rejected"


# ---------------------------------------------------------------- 3: the restart race


def test_a_restart_never_loses_the_new_processs_started_line() -> None:
    """Each process answers its first case (``skipped``), then floods short lines of garbage:
    the next case is an error and the implementation is restarted.  Every restart must read
    its own ``started``: no start may fail (the old process's reader once took the new one's
    line, in 22 of 85 restarts)."""
    cases = list(_rejects()[:30])
    report, left = _run("flood-lines", cases, start_timeout=20.0)
    summaries = [o.summary for o in report.outcomes]
    assert not any("started" in s for s in summaries), summaries
    assert _outcomes(report) == ["skip", "error"] * 15, summaries
    assert all(s.startswith("not JSON: 'garbage'") for s in summaries[1::2]), summaries
    assert left == []


# ---------------------------------------------------------------- 4: the process tree


@pytest.mark.parametrize("mode", ["setsid", "daemon"])
def test_grandchildren_in_sessions_of_their_own_are_killed(mode: str) -> None:
    report, left = _run(mode, _cases(4))
    assert _outcomes(report) == ["pass", "error"] * 2
    assert left == []


def test_one_shot_grandchildren_in_sessions_of_their_own_are_killed() -> None:
    report, left = _run("one-shot-setsid", _cases(3), mode="one-shot")  # type: ignore[arg-type]
    assert _outcomes(report) == ["pass"] * 3, [o.summary for o in report.outcomes]
    assert left == []


# ---------------------------------------------------------------- 5: the same failure again


def test_a_run_stops_after_the_same_failure_n_times_in_a_row(tmp_path: Path) -> None:
    """Every run times out: after 3 (the limit given) the remaining cases are not run, and
    the implementation is started 3 times, not once per case."""
    cases = list(_rejects()[:10])
    marker = f"boodle-test-{uuid.uuid4().hex}"
    starts = tmp_path / "starts"
    script = tmp_path / "impl.sh"
    script.write_text(f"#!/bin/sh\necho start >> '{starts}'\n"
                      f"exec '{PY}' '{ADAPTER}' silent {marker}\n", "utf-8")
    script.chmod(0o755)
    report = run_suite(cases, str(script), timeout=0.5, max_same_failures=3)
    summaries = [o.summary for o in report.outcomes]
    assert [o.id for o in report.outcomes] == [c.id for c in cases]
    assert _outcomes(report) == ["error"] * 10
    assert all(s == "no answer within 0.5 s" for s in summaries[:3]), summaries
    assert all(s.startswith("not run: the same failure 3 times in a row") for s in summaries[3:])
    assert len(starts.read_text("utf-8").splitlines()) == 3
    assert any("the same failure 3 times in a row" in w for w in report.warnings)
    # the warning names the option as a sentence of its own ("see --max-same-failures N
    # changes the limit" read as an instruction to see something)
    assert "run stopped: the same failure 3 times in a row (no answer within 0.5 s) " \
        "(--max-same-failures N changes the limit, 0 for none); the remaining cases were " \
        "not run" in report.warnings
    assert _leftovers(marker) == []


def test_failures_that_alternate_with_passes_do_not_stop_the_run() -> None:
    report, _ = _run("crash", _cases(4), max_same_failures=2)
    assert _outcomes(report) == ["pass", "error"] * 2
    assert not any(o.summary.startswith("not run") for o in report.outcomes)


def test_the_limit_is_an_option_of_the_command(capsys) -> None:  # type: ignore[no-untyped-def]
    from boodle.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["conformance", "run", "--impl", "x", "--max-same-failures", "-1"])
    assert stop.value.code == 2
    assert "--max-same-failures" in capsys.readouterr().err


# ---------------------------------------------------------------- 6: messages, bounds, files


def test_a_process_that_closes_its_stdout_is_not_said_to_have_exited() -> None:
    report, left = _run("close-stdout", _cases(2))
    summary = report.outcomes[1].summary
    assert "status None" not in summary
    assert summary.startswith("the implementation closed its stdout before answering "
                              "without exiting"), summary
    assert left == []


@pytest.mark.parametrize("option", ["--timeout", "--start-timeout"])
def test_a_timeout_too_large_is_a_usage_error(option: str, capsys) -> None:  # type: ignore[no-untyped-def]
    from boodle.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["conformance", "run", "--impl", "x", option, "1e10"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert option in err and "at most 86400" in err


def _limited() -> None:  # pragma: no cover - runs in the child
    two_gib = 2 << 30
    resource.setrlimit(resource.RLIMIT_AS, (two_gib, two_gib))


@pytest.mark.parametrize(("kind", "why"), [
    ("fifo", "not a regular file"),
    ("zero", "not a regular file"),
    ("big", "larger than"),
])
@pytest.mark.parametrize("layout", ["loose", "export"])
def test_a_case_file_that_is_no_regular_file_or_too_big(kind: str, why: str, layout: str,
                                                        tmp_path: Path) -> None:
    """A FIFO (once: a hang), a link to /dev/zero (once: all the memory) or a file over the
    size limit among the cases: a warning and the file skipped (any folder of case files),
    or an error naming it (an export's cases/, where every file must be a case); within
    30 s and 2 GiB."""
    case = _cases(1)[0]
    assert case.path is not None
    folder = tmp_path / "suite"
    where = folder / "cases" if layout == "export" else folder
    where.mkdir(parents=True)
    shutil.copy(case.path, where / "good.json")
    bad = where / "bad.json"
    if kind == "fifo":
        os.mkfifo(bad)
    elif kind == "zero":
        bad.symlink_to("/dev/zero")
    else:
        with bad.open("wb") as f:
            f.truncate(9 << 20)
    code = ("import sys\nfrom pathlib import Path\nfrom boodle.conformance.cli import user_cases\n"
            "from boodle.language.errors import BoodleError\n"
            "try:\n    print([c.id for c in user_cases(Path(sys.argv[1]))])\n"
            "except BoodleError as e:\n    print('error:', e.message)\n")
    done = subprocess.run([PY, "-c", code, str(folder)], capture_output=True, text=True,
                          timeout=30, preexec_fn=_limited, check=False)
    assert done.returncode == 0, done.stderr
    if layout == "loose":
        assert done.stdout.strip() == repr([case.id])
        assert f"{bad}: {why}" in done.stderr
    else:
        assert done.stdout.startswith(f"error: {bad}: {why}"), done.stdout


def test_the_decoding_bounds_are_the_protocols() -> None:
    """PROTOCOL.md, Transport: at most 64 deep; a surrogate pair is a character (😀), half of
    one is not; a bracket inside a string is no nesting."""
    from boodle.conformance.wire import MessageError, decode_message

    assert decode_message("[" * 64 + "]" * 64) is not None
    assert decode_message('{"a":' * 64 + "1" + "}" * 64) is not None
    assert decode_message('{"t": "' + "[" * 200 + '"}') == {"t": "[" * 200}
    assert decode_message('{"m": "\\ud83d\\ude00"}') == {"m": "\U0001f600"}
    refused = [("[" * 65 + "]" * 65, "depth"), ('[{"a":' * 40 + "1" + "}]" * 40, "depth"),
               ("[" * 100_000 + "]" * 100_000, "depth"), ('{"m": "boom \\ud800"}', "surrogate"),
               ('{"\\udfff": 1}', "surrogate"), ("not json", "json")]
    for text, kind in refused:
        with pytest.raises(MessageError) as caught:
            decode_message(text)
        assert caught.value.kind == kind, text[:40]


@pytest.mark.parametrize("where", ["dealer", "players"])
def test_a_whole_number_written_as_a_float_is_refused_in_words(where: str) -> None:
    """JSON Schema counts 2.0 as an integer; the protocol has no float field (spec §9), so
    ``"dealer": 2.0`` is an error answer saying where, not Python's "list indices"."""
    message = next(m for m in (c.request() for c in load_cases()) if "dealer" in m["setup"])
    message["setup"] = {**message["setup"], where: float(message["setup"][where])}
    reply = answer(message, REFERENCE)
    assert reply is not None and reply["status"] == "error"
    written = message["setup"][where]
    assert f"setup: '{where}' must be an integer, not {written!r}" in reply["message"]
    assert "indices" not in reply["message"]


def test_a_crash_that_leaves_a_daemon_holding_stdout_is_an_exit_not_a_timeout() -> None:
    """The daemon keeps the pipe open, so no end of file comes: the runner sees the exit
    itself (within ``EXIT_GRACE``) and says so, instead of waiting out the timeout."""
    report, left = _run("daemon", _cases(2), timeout=120.0)
    assert _outcomes(report) == ["pass", "error"]
    summary = report.outcomes[1].summary
    assert "exited (status" in summary and "no answer within" not in summary, summary
    assert left == []
