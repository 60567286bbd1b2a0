"""What the runner says when an implementation under test goes wrong at the start or dies.

Found by writing an adapter in JavaScript from the protocol documents alone: a Node.js
stack lost its message (the runner kept the last 300 characters, cut mid-line), a run
whose implementation never started printed one identical error line per case, the
one-shot hint was given for a 'started' answer with a schema fault, and the run's
time mixed the implementation's start-up with its cases.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.impl_process import excerpt
from boodle.conformance.report import console_text, summary_line, write_json
from boodle.conformance.run_suite import MODE_HINT, Report, run_suite

NODE_STDERR = ("/tmp/adapter.js:3\n  throw new Error('boom');\n  ^\n\nError: boom\n"
               + "".join(f"    at step{i} (node:events:524:28)\n" for i in range(100))
               + "\nNode.js v20.20.2\n")


def test_a_long_stderr_keeps_its_first_and_last_whole_lines() -> None:
    said = excerpt(NODE_STDERR[:1000], NODE_STDERR[-2000:], len(NODE_STDERR), limit=400)
    lines = said.splitlines()
    # the head: the file and line, the statement, the caret, the message (blank line dropped)
    assert lines[:4] == ["/tmp/adapter.js:3", "  throw new Error('boom');", "  ^", "Error: boom"]
    assert "…" in lines and lines[-1] == "Node.js v20.20.2"
    assert lines[-2] == "    at step99 (node:events:524:28)"
    # whole lines only: every kept stack line is one the adapter wrote
    assert all(ln in NODE_STDERR.splitlines() for ln in lines if ln != "…")
    assert len(said) <= 400 + 2


def test_a_short_stderr_is_kept_whole() -> None:
    text = "Traceback (most recent call last):\n  File \"x\", line 1\nValueError: bad card\n"
    assert excerpt(text, text, len(text)) == text.strip()
    assert excerpt("", "", 0) == ""


def test_one_line_too_long_is_cut_with_an_ellipsis() -> None:
    said = excerpt("x" * 1000, "y" * 2000, 5000, limit=100)
    # the first line gets half the limit (50 x, then "…"): 51 characters and a line break;
    # the last line gets what is left, 100 - 52 = 48 characters, after its own "…"
    assert said == "x" * 50 + "…\n…\n…" + "y" * 48


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "adapter.py"
    path.write_text(body, encoding="utf-8")
    return f"{sys.executable} {path}"


def _cases(n: int) -> list[Case]:
    cases = [c for c in load_cases() if c.variant == "michigan" and c.kind == "reject"]
    return cases[:n]


def test_a_crash_at_start_shows_the_message_of_its_stack(tmp_path: Path) -> None:
    command = _script(tmp_path, f"import sys\nsys.stdin.readline()\n"
                                f"sys.stderr.write({NODE_STDERR!r})\nsys.exit(3)\n")
    report = run_suite(_cases(3), command, timeout=10, start_timeout=10)
    first = report.outcomes[0]
    assert first.outcome == "error"
    assert first.summary.startswith("no valid 'started' answer: the implementation exited "
                                    "(status 3) before answering")
    assert "Error: boom" in first.detail and "Node.js v20.20.2" in first.detail
    text = console_text(report)
    # the two cases after the failed start are one line, not one each
    assert text.count("not run:") == 1
    assert f"{report.outcomes[1].id} and 1 more case: not run:" in text


def test_the_one_shot_hint_is_for_an_answer_that_is_no_started(tmp_path: Path) -> None:
    result = _script(tmp_path, "import sys, json\nsys.stdin.readline()\n"
                               "print(json.dumps({'type': 'result', 'id': '', 'status': 'error',"
                               " 'message': 'x'}))\nsys.stdout.flush()\nsys.stdin.read()\n")
    report = run_suite(_cases(1), result, timeout=10, start_timeout=10)
    assert MODE_HINT in report.outcomes[0].summary
    (tmp_path / "b").mkdir()
    started = _script(tmp_path / "b", "import sys, json\nsys.stdin.readline()\n"
                                      "print(json.dumps({'type': 'started'}))\nsys.stdout.flush()\n"
                                      "sys.stdin.read()\n")
    report = run_suite(_cases(1), started, timeout=10, start_timeout=10)
    assert report.outcomes[0].summary.startswith("no valid 'started' answer: not a valid "
                                                 "'started' message")
    assert MODE_HINT not in report.outcomes[0].summary


def test_the_time_line_says_how_much_was_start_up(tmp_path: Path) -> None:
    report = Report("x", "session", seconds=2.5, startup_seconds=0.84)
    assert summary_line(report) == ("0 cases: none in 2.5 s "
                                    "(0.84 s of it starting the implementation)")
    assert summary_line(Report("x", "one-shot", seconds=2.5)) == "0 cases: none in 2.5 s"
    write_json(report, tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert (data["seconds"], data["startup_seconds"]) == (2.5, 0.84)


def _several_in_a_row() -> Case:
    """A holds 7♠ 8♠ 9♠ 2♦ and leads first (lowest of a chosen suit: 7♠ or 2♦, a choice at
    point 0, the script's only decision: 7♠); then A plays 8♠ (point 1) and 9♠ (point 2),
    B follows with 10♠ (point 3), J♠ is in the widow: a stop; B leads 3♥, its last card."""
    return next(c for c in load_cases() if c.id.startswith("michigan.several-cards-in-a-row."))


def test_a_refused_decision_names_the_scripts_decision_or_the_forced_move() -> None:
    from boodle.conformance.compare import verdict

    case = _several_in_a_row()
    refused = {"type": "result", "id": case.id, "status": "rejected", "rule": "lead.suit",
               "at": 0, "message": "no"}
    v = verdict(case, refused)
    assert v.outcome == "fail"
    assert "the reference plays there the script's decision 1 of 1: lead 0 7♠" in v.detail
    v = verdict(case, {**refused, "at": 2, "rule": "turn"})
    assert "the reference plays there the forced move play 0 9♠" in v.detail


def test_a_run_that_ends_early_shows_the_implementations_final() -> None:
    from boodle.conformance.compare import verdict

    case = _several_in_a_row()
    early = {"type": "result", "id": case.id, "status": "done",
             "events": case.data["expect"]["events"][:1], "legal": {},
             "final": {"over": False, "to_move": 0, "unused": 0}}
    v = verdict(case, early)
    assert v.outcome == "fail"
    assert v.summary.startswith("event 1: expected ")
    assert v.summary.endswith("got (no more events)")
    assert ("the implementation's run ended there, its final: "
            '{"over": false, "to_move": 0, "unused": 0}') in v.detail


def test_a_crash_names_its_stacks_message_in_the_summary(tmp_path: Path) -> None:
    """Beyond --details only the summary is shown: it carries the stack's message line."""
    command = _script(tmp_path, f"import sys\nsys.stdin.readline()\n"
                                f"sys.stderr.write({NODE_STDERR!r})\nsys.exit(3)\n")
    report = run_suite(_cases(1), command, timeout=10, start_timeout=10)
    assert "its stderr says: Error: boom (" in report.outcomes[0].summary


def _adapter(tmp_path: Path, on_run: str, on_stop: str = "break") -> str:
    """A session-mode adapter that answers 'start' as the reference does, runs ``on_run``
    (Python, with ``m`` the run message) for each run and ``on_stop`` at 'stop'."""
    from boodle.conformance.engines import REFERENCE
    from boodle.conformance.serve import started

    return _script(tmp_path, "import sys, json\n"
                   f"started = {json.dumps(json.dumps(started(REFERENCE)))}\n"
                   "for line in sys.stdin:\n"
                   "    m = json.loads(line)\n"
                   "    if m['type'] == 'start':\n"
                   "        print(started, flush=True)\n"
                   "    elif m['type'] == 'stop':\n"
                   f"        {on_stop}\n"
                   "    else:\n"
                   f"        {on_run}\n")


def test_an_answer_without_its_line_break_is_said_so(tmp_path: Path) -> None:
    """The answer is written without its final line break: the runner never reads a line,
    times out, and says what arrived instead of a bare timeout."""
    command = _adapter(tmp_path, "sys.stdout.write(json.dumps({'type': 'result', 'id': m['id'],"
                                 " 'status': 'rejected', 'rule': 'turn'})); sys.stdout.flush()")
    report = run_suite(_cases(1), command, timeout=1.5, start_timeout=30)
    summary = report.outcomes[0].summary
    assert summary.startswith("no answer within 1.5 s (it wrote ")
    assert "bytes without a line end: '{\"type\": \"result\"" in summary
    assert summary.endswith(": an answer ends with a line break)")


def test_a_status_other_than_zero_after_stop_is_a_warning(tmp_path: Path) -> None:
    command = _adapter(tmp_path, "print(json.dumps({'type': 'result', 'id': m['id'], "
                                 "'status': 'skipped', 'reason': 'x'}), flush=True)",
                       on_stop="sys.exit(5)")
    report = run_suite(_cases(1), command, timeout=10, start_timeout=30)
    assert report.warnings == ["the implementation exited with status 5 after 'stop' "
                               "(PROTOCOL.md: it must exit with status 0)"]
