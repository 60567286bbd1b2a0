"""The runner against deliberately broken implementations (issue 9: implementations misbehave).

Each adapter of ``conformance_adapters.py`` goes wrong on the second case of
every process it runs.  Four cases are run (a timeout of 6 s for the hanging
adapter, 10 s otherwise, so that a loaded machine does not time out a sound
answer: 2 s proved too short on a loaded machine); by hand:
cases 1 and 3 are answered by a fresh process and pass, cases 2 and 4 hit the
fault and are errors, and the runner restarts the implementation after each.
The report lists each case exactly once, and no process carrying the
adapter's marker is left behind.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
import uuid
from pathlib import Path

import pytest

from boodle.conformance.cases import load_cases
from boodle.conformance.engines import REFERENCE
from boodle.conformance.run_suite import run_suite
from boodle.conformance.serve import answer

ADAPTER = Path(__file__).parents[1] / "helpers" / "conformance_adapters.py"


@pytest.fixture(autouse=True)
def quick_start(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The adapters answer ``start`` with the reference's answer, computed once here."""
    monkeypatch.setenv("BOODLE_TEST_STARTED", json.dumps(_started()))


@functools.cache
def _started() -> dict:  # type: ignore[type-arg]
    reply = answer({"type": "start", "protocol": "boodle-protocol/1"}, REFERENCE)
    assert reply is not None
    return reply


@pytest.fixture(scope="module")
def four_cases():  # type: ignore[no-untyped-def]
    cases = [c for c in load_cases() if c.variant == "michigan" and c.kind == "reject"]
    assert len(cases) >= 4
    return cases[:4]


def _leftovers(marker: str) -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline and int(proc.name) != os.getpid():
            found.append(cmdline.replace("\0", " "))
    return found


def _run(mode: str, cases: list, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    marker = f"boodle-test-{uuid.uuid4().hex}"
    report = run_suite(cases, f"{sys.executable} {ADAPTER} {mode} {marker}", timeout=timeout)
    deadline = time.monotonic() + 3
    while _leftovers(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return report, _leftovers(marker)


def _outcomes(report) -> list[str]:  # type: ignore[no-untyped-def]
    return [o.outcome for o in report.outcomes]


def test_a_sound_adapter_passes_everything(four_cases) -> None:  # type: ignore[no-untyped-def]
    report, left = _run("ok", four_cases)
    assert _outcomes(report) == ["pass"] * 4 and report.warnings == [] and left == []


@pytest.mark.parametrize(("mode", "why"), [
    ("hang", "no answer within 6 s"),
    ("crash", "exited (status 3)"),
    ("garbage", "not JSON"),
    ("wrong-id", "answered case id"),
    ("flood", "flooded output"),
])
def test_a_fault_costs_one_error_and_a_restart(four_cases, mode: str, why: str) -> None:  # type: ignore[no-untyped-def]
    report, left = _run(mode, four_cases, 6.0 if mode == "hang" else 10.0)
    assert [o.id for o in report.outcomes] == [c.id for c in four_cases]
    assert _outcomes(report) == ["pass", "error"] * 2
    assert all(why in o.summary for o in report.outcomes if o.outcome == "error")
    assert left == []
    assert not report.ok()


def test_an_adapter_that_exits_at_start(four_cases) -> None:  # type: ignore[no-untyped-def]
    report, left = _run("exit-at-start", four_cases)
    assert [o.id for o in report.outcomes] == [c.id for c in four_cases]
    assert _outcomes(report) == ["error"] * 4
    # it never answered 'start': one attempt, then the remaining cases are not run at all
    assert "no valid 'started' answer" in report.outcomes[0].summary
    assert all("not run: the implementation never answered 'start'" in o.summary
               for o in report.outcomes[1:])
    assert any(w.startswith("run stopped") for w in report.warnings)
    assert left == []


def test_restarts_that_fail_twice_the_same_way_stop_the_run(tmp_path: Path) -> None:
    # the first process answers 'start', passes case 1 and crashes on case 2; every later
    # process exits with status 7 before answering 'start': case 3's restart and case 4's
    # fail alike, so case 5 is not run (nor is the implementation started for it)
    cases = [c for c in load_cases() if c.variant == "michigan" and c.kind == "reject"][:5]
    assert len(cases) == 5
    marker = f"boodle-test-{uuid.uuid4().hex}"
    starts = tmp_path / "starts"
    script = tmp_path / "impl.sh"
    script.write_text(f"#!/bin/sh\necho start >> '{starts}'\n"
                      f"if [ -e '{tmp_path}/first' ]; then exit 7; fi\n"
                      f"touch '{tmp_path}/first'\n"
                      f"exec '{sys.executable}' '{ADAPTER}' crash {marker}\n", "utf-8")
    script.chmod(0o755)
    report = run_suite(cases, str(script), timeout=10.0)
    summaries = [o.summary for o in report.outcomes]
    assert _outcomes(report) == ["pass"] + ["error"] * 4, summaries
    assert "exited (status 3)" in summaries[1]
    assert all("exited (status 7) before answering" in s for s in summaries[2:4]), summaries
    assert "--mode one-shot" not in summaries[2]  # it did start once: no hint about the mode
    assert "failed to start twice in a row the same way" in summaries[4]
    assert len(starts.read_text("utf-8").splitlines()) == 3
    assert any("twice in a row the same way" in w for w in report.warnings)
    assert _leftovers(marker) == []


def test_an_adapter_that_ignores_stop_is_killed(four_cases) -> None:  # type: ignore[no-untyped-def]
    report, left = _run("ignore-stop", four_cases)
    assert _outcomes(report) == ["pass"] * 4
    assert report.warnings == ["the implementation did not exit within 2 s of 'stop'; "
                               "it was killed"]
    assert left == []


def test_a_command_that_does_not_exist(four_cases) -> None:  # type: ignore[no-untyped-def]
    report = run_suite(four_cases[:2], "/nonexistent/boodle-impl", timeout=1.0)
    assert _outcomes(report) == ["error", "error"]
    assert "cannot start the implementation" in report.outcomes[0].summary
