"""The runner's fast paths give the verdicts and schema answers the slow ones give.

The runner checks every message with a compiled validator first and lets
``jsonschema`` judge only what it refuses; it compares events as written
before normalising them; a passing reject case shows no state.  Each fast
path must leave outcomes, summaries and error messages exactly as they were.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from boodle.conformance.cases import Case, load_cases, schema_errors
from boodle.conformance.compare import verdict
from boodle.conformance.engines import REFERENCE
from boodle.conformance.serve import answer
from boodle.conformance.validation import check


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases()


def _result(case: Case) -> dict[str, Any]:
    result = answer(case.request(), REFERENCE)
    assert result is not None
    return result


def _first(cases: list[Case], kind: str, event_kind: str | None = None) -> Case:
    for case in cases:
        if case.kind != kind:
            continue
        events = case.data["expect"].get("events", [])
        if event_kind is None or any(e.get("kind") == event_kind for e in events):
            return case
    raise AssertionError(f"no {kind} case with a {event_kind} event")


def _done(events: list[Any]) -> dict[str, Any]:
    ledger = {"seats": [0, 0], "sections": {}}
    return {"type": "result", "id": "x", "status": "done", "events": events, "legal": {},
            "final": {"ledger": ledger, "over": True, "to_move": None, "unused": 0}}


def test_messages_the_fast_validator_refuses_are_judged_by_jsonschema() -> None:
    lead = {"kind": "lead", "seat": 0, "card": "10♥", "restart": False}
    assert check(_done([lead]), "protocol.schema.json", "result") == []
    # Python's '$' also matches before a final newline: jsonschema accepts this card text,
    # the compiled validator (ECMA-262 '$') does not; the answer stays jsonschema's.
    newline = _done([{**lead, "card": "10♥\n"}])
    assert schema_errors(newline, "protocol.schema.json", "result") == []
    assert check(newline, "protocol.schema.json", "result") == []
    # A count too big for a 64-bit integer: Rust cannot take it, jsonschema can.
    huge = _done([lead])
    huge["final"]["unused"] = 10**30
    assert schema_errors(huge, "protocol.schema.json", "result") == []
    assert check(huge, "protocol.schema.json", "result") == []
    # A real error keeps jsonschema's message and path.
    bad = _done([{**lead, "card": "1♥"}])
    assert [e.split(":")[0] for e in check(bad, "protocol.schema.json", "result")] == \
        ["events/0/card"]
    assert check({"type": "result"}, "protocol.schema.json", "result") != []


def test_events_equal_only_once_normalised_still_pass(cases: list[Case]) -> None:
    case = _first(cases, "script", "pass")
    result = _result(case)
    assert verdict(case, result).outcome == "pass"
    reworded = copy.deepcopy(result)
    for event in reworded["events"]:
        if event["kind"] == "pass":
            event["reason"] = "a different explanation"  # informative only: not compared
    assert reworded["events"] != case.data["expect"]["events"]
    assert verdict(case, reworded).outcome == "pass"


def test_a_different_event_still_fails_at_its_index(cases: list[Case]) -> None:
    case = _first(cases, "script", "pass")
    result = copy.deepcopy(_result(case))
    index = next(i for i, e in enumerate(result["events"]) if e["kind"] == "pass")
    result["events"][index]["seat"] = (result["events"][index]["seat"] + 1) % 2
    found = verdict(case, result)
    assert found.outcome == "fail"
    assert found.summary.startswith(f"event {index}: expected ")
    assert "state at point" in found.detail


def test_a_reject_case_shows_the_state_only_when_it_fails(cases: list[Case]) -> None:
    case = _first(cases, "reject")
    rule = case.data["expect"]["rejected"]
    assert verdict(case, {"status": "rejected", "rule": rule}) == verdict(case, _result(case))
    assert verdict(case, {"status": "rejected", "rule": rule}).outcome == "pass"
    other = "play.not-next" if rule != "play.not-next" else "lead.not-allowed"
    wrong = verdict(case, {"status": "rejected", "rule": other, "message": "no"})
    assert wrong.outcome == "fail"
    assert wrong.summary == f"rejected with rule {other}, expected {rule}"
    assert "state at point 0 (reference)" in wrong.detail
    accepted = verdict(case, {"status": "accepted", "events": []})
    assert accepted.outcome == "fail"
    assert "state at point 0 (reference)" in accepted.detail
