"""boodle-protocol/2 beside boodle-protocol/1 (conformance/PROTOCOL.md, "Versions").

The runner offers the newest version in ``start`` and runs in the one ``started`` names; an
implementation of version 1 gets version 1 messages (no ``protocol`` field in ``run``), cases
that need version 2 are skipped for it with their reason and said once in the warnings, and a
``started`` naming a version the runner did not offer is an error of the start.  A version 2
reject case fails an answer that gives events with its refusal (a refused move causes none).
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.compare import verdict
from boodle.conformance.report import skip_reasons
from boodle.conformance.run_suite import run_suite

FAKE = r'''
import json, sys
log = open(sys.argv[1], "a")
speaks = sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    log.write(line)
    log.flush()
    if message["type"] == "start":
        print(json.dumps({"type": "started", "protocol": speaks,
                          "implementation": {"name": "fake", "version": "0"},
                          "variants": [{"name": "michigan", "version": 1}],
                          "features": ["position", "count", "legal", "session", "someday"]}),
              flush=True)
    elif message["type"] == "run":
        print(json.dumps({"type": "result", "id": message["id"], "status": "skipped",
                          "reason": "a fake"}), flush=True)
    else:
        break
'''


def _fake(tmp_path: Path, speaks: str) -> tuple[str, Path]:
    script = tmp_path / "fake.py"
    script.write_text(FAKE, "utf-8")
    log = tmp_path / "received.jsonl"
    return f"{sys.executable} {script} {log} {speaks}", log


@functools.cache
def _suite() -> tuple[Case, ...]:
    return tuple(load_cases(check=False))


def _michigan_cases(n: int = 2) -> list[Case]:
    # cases any version-1 implementation is sent: not a misdeal (version 2, feature 'misdeal')
    return [c for c in _suite() if c.variant == "michigan" and c.kind == "script"
            and c.needs_protocol()[0] == 1 and "misdeal" not in c.needs()][:n]


def _count_case_with_a_range() -> Case:
    """A count case (in memory) whose breakdown holds a bid range: version 2 only."""
    base = next(c for c in _suite() if c.variant == "michigan" and c.kind == "count"
                and c.data["expect"]["count"]["by_first_move"])
    data: dict[str, Any] = json.loads(json.dumps(base.data))
    data["expect"]["count"]["by_first_move"][0]["move"] = {"move": "bid", "seat": 0,
                                                           "min": 1, "max": 5}
    return Case(data, None)


def _received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


def test_a_version_1_implementation_gets_version_1_messages(tmp_path: Path) -> None:
    command, log = _fake(tmp_path, "boodle-protocol/1")
    cases = _michigan_cases()
    report = run_suite(cases, command, timeout=20)
    start, *runs, stop = _received(log)
    assert start == {"type": "start", "protocol": "boodle-protocol/2"}  # the newest offered
    assert [r["id"] for r in runs] == [c.id for c in cases]
    assert all("protocol" not in r for r in runs)  # version 1 has no such field
    assert stop == {"type": "stop"}
    assert [o.outcome for o in report.outcomes] == ["skip", "skip"]  # skipped by the fake
    assert not any(o.outcome == "error" for o in report.outcomes)


def test_a_version_2_implementation_gets_version_2_messages(tmp_path: Path) -> None:
    command, log = _fake(tmp_path, "boodle-protocol/2")
    run_suite(_michigan_cases(1), command, timeout=20)
    _, run, _ = _received(log)
    assert run["protocol"] == "boodle-protocol/2"
    # and an unknown feature ("someday") in 'started' is no error: the run went on


def test_cases_that_need_version_2_are_skipped_for_version_1_and_said_once(tmp_path: Path
                                                                            ) -> None:
    command, log = _fake(tmp_path, "boodle-protocol/1")
    needy = [_count_case_with_a_range(), _count_case_with_a_range()]
    report = run_suite([*needy, *_michigan_cases(1)], command, timeout=20)
    skipped = [o for o in report.outcomes if o.summary.startswith("needs a newer protocol")]
    assert len(skipped) == 2
    assert "boodle-protocol/2" in skipped[0].summary and "bid range" in skipped[0].summary
    said = [line for line in skip_reasons(report) if "boodle-protocol/2" in line]
    assert len(said) == 1 and said[0].startswith("skipped: 2 cases: needs a newer protocol")
    _, *runs, _ = _received(log)
    assert len(runs) == 1  # the two were never sent


def test_one_shot_with_protocol_1_sends_no_case_that_needs_version_2(tmp_path: Path) -> None:
    never = tmp_path / "never-started"
    command = f"{sys.executable} -c \"open({str(never)!r}, 'w')\""
    report = run_suite([_count_case_with_a_range()], command, mode="one-shot",
                       protocol="boodle-protocol/1")
    assert [o.outcome for o in report.outcomes] == ["skip"] and not never.exists()


def test_a_started_naming_a_version_not_offered_is_an_error(tmp_path: Path) -> None:
    command, _ = _fake(tmp_path, "boodle-protocol/2")
    report = run_suite(_michigan_cases(1), command, timeout=20, protocol="boodle-protocol/1")
    outcome = report.outcomes[0]
    assert outcome.outcome == "error" and "did not offer" in outcome.summary


def test_version_2_fails_events_given_with_a_refusal_and_version_1_ignores_them() -> None:
    case = next(c for c in _suite() if c.kind == "reject")
    rule = case.data["expect"]["rejected"]
    events = [{"kind": "pass", "seat": 0, "reason": "x"}]
    answer = {"type": "result", "id": case.id, "status": "rejected", "rule": rule,
              "events": events}
    assert verdict(case, answer, 2).outcome == "fail"
    assert verdict(case, answer, 1).outcome == "pass"
    assert verdict(case, {**answer, "events": []}, 2).outcome == "pass"
