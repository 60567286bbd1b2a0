"""The conformance cases themselves: format, identity, coverage, determinism, documents.

The case files are golden files: a change of the engine or of a variant that
changes a case shows up here until ``boodle conformance generate`` is run and
the diff reviewed.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from boodle.conformance.cases import Case, case_hash, dump_case, load_cases, schema_errors
from boodle.conformance.coverage import coverage_markdown, gaps, pinned_by
from boodle.conformance.engines import REFERENCE
from boodle.conformance.generate import Catalogue, generated_cases, hand_cases, runnable_variants
from boodle.conformance.paths import cases_dir, suite_dir
from boodle.conformance.serve import answer
from boodle.conformance.validation import check
from boodle.engine.faults import RULE_IDS


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases()  # checks every file against the schema and its id against its hash


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return Catalogue.load()


def test_at_least_500_cases_over_every_playable_variant(cases: list[Case]) -> None:
    assert len(cases) >= 500
    assert set(runnable_variants()) <= {c.variant for c in cases}
    kinds = {c.kind for c in cases}
    assert kinds == {"script", "reject", "count", "session"}


def test_each_file_is_named_by_its_id_in_its_variants_folder(cases: list[Case]) -> None:
    for case in cases:
        assert case.path is not None
        assert case.path.name == f"{case.id}.json" and case.path.parent.name == case.variant
        assert case.id.endswith("." + case_hash(case.data))


def test_a_change_of_meaning_is_a_new_id(cases: list[Case]) -> None:
    case = copy.deepcopy(next(c for c in cases if ".worked-example-001." in c.id).data)
    before = case_hash(case)
    case["description"] = "reworded"
    assert case_hash(case) == before
    case["script"] = []
    assert case_hash(case) != before


def test_the_rule_ids_of_the_case_schema_are_the_engines() -> None:
    schema = json.loads((suite_dir() / "schema" / "case.schema.json").read_text("utf-8"))
    assert set(schema["$defs"]["ruleId"]["enum"]) == set(RULE_IDS)


def test_fast_checks_agree_with_the_schema_as_written(cases: list[Case]) -> None:
    sample = cases[:: max(1, len(cases) // 40)]
    for case in sample:
        assert schema_errors(case.data, "case.schema.json") == []
        result = answer(case.request(), REFERENCE)
        assert result is not None
        assert check(result, "protocol.schema.json", "result") == []
        assert schema_errors(result, "protocol.schema.json", "result") == []
    broken = [
        {"kind": "lead", "seat": 0, "card": "1♦", "restart": False},
        {"kind": "stop", "seat": 0, "card": "9♦", "reason": "tired", "next_card": None},
        {"kind": "claim", "seat": 0, "section": "kitty", "amount": "8"},
        {"kind": "Lead"},
        7,
    ]
    for event in broken:
        message = {"type": "result", "id": "x", "status": "accepted", "events": [event]}
        assert check(message, "protocol.schema.json", "result") != []
        assert schema_errors(message, "protocol.schema.json", "result") != []
    bad = {"type": "result", "id": "x", "status": "done", "events": [],
           "final": {"ledger": {"seats": ["x", 1], "sections": {}}},
           "legal": {"0": [{"move": "lead", "seat": 0}]}}
    fast, slow = check(bad, "protocol.schema.json", "result"), \
        schema_errors(bad, "protocol.schema.json", "result")
    assert sorted(e.split(":")[0] for e in fast) == sorted(e.split(":")[0] for e in slow) \
        == ["final/ledger/seats/0", "legal/0/0"]


def test_every_rule_a_case_can_pin_is_pinned(cases: list[Case], catalogue: Catalogue) -> None:
    data = [c.data for c in cases]
    assert gaps(data, catalogue.rules) == []
    assert set(pinned_by(data)) <= catalogue.ids()


def test_every_probe_variant_has_hand_written_cases(cases: list[Case]) -> None:
    probes = {p.stem for p in (suite_dir() / "variants").glob("*.boodle")}
    hand = {c.variant for c in cases if c.data["source"]["kind"] != "generated"}
    assert probes <= hand


def test_the_coverage_report_is_up_to_date(cases: list[Case], catalogue: Catalogue) -> None:
    expected = coverage_markdown([c.data for c in cases], catalogue.rules)
    assert (suite_dir() / "COVERAGE.md").read_text("utf-8") == expected


def _committed(case_id: str, variant: str) -> str:
    return (cases_dir() / variant / f"{case_id}.json").read_text("utf-8")


def test_regenerating_gives_byte_identical_files(catalogue: Catalogue) -> None:
    """The hand-written cases and two variants' generated cases (the whole suite: -m slow)."""
    fresh = list(hand_cases(catalogue))
    for name in ("michigan", "michigan-classic"):
        fresh.extend(generated_cases(name, catalogue))
    for case in fresh:
        assert dump_case(case) == _committed(case["id"], case["variant"]["name"]), case["id"]
    again = list(generated_cases("michigan", catalogue))
    assert [dump_case(c) for c in again] == [dump_case(c) for c in fresh
                                               if c["variant"]["name"] == "michigan"
                                               and c["source"]["kind"] == "generated"]


# ---------------------------------------------------------------- PROTOCOL.md


def _protocol_text() -> str:
    return (suite_dir() / "PROTOCOL.md").read_text("utf-8")


def test_the_protocol_document_holds_the_schema_of_every_message() -> None:
    schema = json.loads((suite_dir() / "schema" / "protocol.schema.json").read_text("utf-8"))
    blocks = re.findall(r"<!-- schema: (\w+) -->\n```json\n(.*?)\n```", _protocol_text(), re.S)
    shown = {name: json.loads(body) for name, body in blocks}
    assert {"start", "started", "run", "result", "stop"} <= set(shown)
    for name, body in shown.items():
        assert body == schema["$defs"][name], name


def test_the_protocol_documents_transcript_is_what_the_reference_answers() -> None:
    block = re.search(r"## A complete session.*?```text\n(.*?)\n```", _protocol_text(), re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    assert [ln[:2] for ln in lines] == ["> ", "< ", "> ", "< ", "> "]
    messages = [json.loads(ln[2:]) for ln in lines]
    assert [m["type"] for m in messages] == ["start", "started", "run", "result", "stop"]
    started = answer(messages[0], REFERENCE)
    assert started is not None
    keep = ("type", "protocol", "features")
    assert {k: started[k] for k in keep} == {k: messages[1][k] for k in keep}
    assert answer(messages[2], REFERENCE) == messages[3]
    assert answer(messages[4], REFERENCE) is None
    case = next(c for c in load_cases(check=False) if c.id == messages[2]["id"])
    assert case.request() == messages[2]
