"""The seeds' statements (conformance/src/seeds.json) and the cases that cite them.

The statements are kept by hand: each quotes its seed and names the variant lines that state
it. These tests check what can be checked without the seeds themselves (they are shared with
the project, not part of it): the statements are well formed, the rule lines they name are
in the variants' files, every citation by a case is of a known statement of a seed its
``source.ref`` names, no case pins a statement the variants get wrong, and the per-seed
table of COVERAGE.md lists exactly the cases that cite each statement: never a case that
does not exist, and "no case yet" where none does.
"""

from __future__ import annotations

import copy
import re

import pytest

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.coverage import (
    READINGS,
    citation_errors,
    load_statements,
    seeds_markdown,
    statement_cases,
)
from boodle.conformance.paths import suite_dir, variant_paths
from boodle.conformance.wire import Json

SEEDS = {
    "000": "000_1cd38874b08dd73a.txt",
    "001": "001_a6108fd72e47ea5f.txt",
    "002": "002_040cc676956baca6.txt",
    "003": "003_2214c5b22daa4388.txt",
    "004": "004_55272b78a005a92e.txt",
}


@pytest.fixture(scope="module")
def statements() -> list[Json]:
    return load_statements()


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases()


def test_every_statement_is_well_formed(statements: list[Json]) -> None:
    ids = [s["id"] for s in statements]
    assert len(ids) == len(set(ids))
    by_id = {s["id"]: s for s in statements}
    for s in statements:
        prefix = s["id"].split("-")[0]
        assert SEEDS[prefix] == s["seed"], s["id"]
        assert s["quote"].strip() and s["en"].strip() and s["section"].strip(), s["id"]
        assert s["reading"] in READINGS, s["id"]
        if s["reading"] != "stated":
            assert s.get("note"), f"{s['id']}: a reading other than 'stated' says why"
        if prefix in ("002", "003"):
            original = by_id[s["translates"]]
            assert original["seed"] == SEEDS["000"]
            assert s["id"][4:] == original["id"][4:] and s["en"] == original["en"]
            assert s["reading"] == original["reading"]
        else:
            assert "translates" not in s, s["id"]


def test_every_seed_has_its_statements_and_002_003_translate_all_of_000(
        statements: list[Json]) -> None:
    per_seed = {f: [s["id"][4:] for s in statements if s["seed"] == f] for f in SEEDS.values()}
    assert all(per_seed.values())
    assert per_seed[SEEDS["000"]] == per_seed[SEEDS["002"]] == per_seed[SEEDS["003"]]


def test_the_rule_lines_named_are_in_the_variants_files(statements: list[Json]) -> None:
    files = variant_paths()
    for s in statements:
        if s["reading"] in ("stated", "decided otherwise", "wrong"):
            assert s["stated_by"], f"{s['id']}: which variant line states it?"
        for b in s["stated_by"]:
            text = files[b["variant"]].read_text(encoding="utf-8")
            assert b["rule"] in text, f"{s['id']}: {b['rule']!r} is not in {b['variant']}.boodle"


def test_every_citation_is_of_a_known_statement_of_a_seed_the_ref_names(
        cases: list[Case], statements: list[Json]) -> None:
    data = [c.data for c in cases]
    assert citation_errors(data, statements) == []
    cited = {sid for c in data for sid in c["source"].get("statements", [])}
    assert len(cited) > 100
    for c in data:
        if c["source"].get("statements"):
            assert c["source"]["kind"] == "seed", c["id"]
            assert ".gen-" not in c["id"]


def test_a_wrong_citation_is_refused(cases: list[Case], statements: list[Json]) -> None:
    case = copy.deepcopy(next(c.data for c in cases if ".worked-example-001." in c.id))
    case["source"]["statements"] = ["001-§99-z"]
    assert "no statement" in citation_errors([case], statements)[0]
    case["source"]["statements"] = ["004-play-1a"]  # the ref names 001 only
    assert "does not name that file" in citation_errors([case], statements)[0]
    # a statement the variants get wrong (none is, today: one is made for the test)
    wrong = {**next(s for s in statements if s["id"].startswith("004")), "id": "004-zz-wrong",
             "reading": "wrong"}
    case["source"] = {"kind": "seed", "ref": SEEDS["004"], "statements": [wrong["id"]]}
    assert "get wrong" in citation_errors([case], [*statements, wrong])[0]
    # a statement seeds.json says no case can pin (a strategy tip): citing it is refused
    case["source"] = {"kind": "seed", "ref": SEEDS["000"], "statements": ["000-tips-count"]}
    assert "says no case can pin" in citation_errors([case], statements)[0]


def test_no_case_possible_is_said_only_with_its_reason(statements: list[Json]) -> None:
    # the 8 statements the seeds make that nothing a program does can show (COVERAGE.md):
    # the cut (000/002/003 « Mise en place » 3), the tip (000/002/003 « Conseils »), and
    # 004's board-less Michigan and Joker Pope Joan
    moot = sorted(s["id"] for s in statements if s.get("no_case"))
    assert moot == ["000-setup-3", "000-tips-count", "002-setup-3", "002-tips-count",
                    "003-setup-3", "003-tips-count", "004-variants-michigan",
                    "004-variants-pope-joan"]
    assert all(isinstance(s["no_case"], str) and len(s["no_case"]) > 20
               for s in statements if s.get("no_case"))
    rows = _table_rows("\n".join(seeds_markdown([], statements)))
    assert rows["000-tips-count"].startswith("no case possible: not a rule: a strategy tip")
    assert rows["000-setup-3"].startswith("no case possible: nothing a case can observe")
    assert {sid for sid, cell in rows.items() if cell == "no case yet"} == \
        {s["id"] for s in statements if not s.get("no_case")}  # with no cases at all


def test_a_translation_counts_only_where_the_ref_names_its_seed(
        cases: list[Case], statements: list[Json]) -> None:
    case = copy.deepcopy(next(c.data for c in cases if ".lead-not-lowest-of-suit." in c.id))
    case["source"]["statements"] = ["000-play-1b"]
    case["source"]["ref"] = SEEDS["000"] + " «Déroulement» 1"
    pinned = statement_cases([case], statements)
    assert pinned["000-play-1b"] == [case["id"]]
    assert pinned["002-play-1b"] == [] and pinned["003-play-1b"] == []
    case["source"]["ref"] += ", " + SEEDS["002"]
    assert statement_cases([case], statements)["002-play-1b"] == [case["id"]]


def _table_rows(markdown: str) -> dict[str, str]:
    """Statement id → the cases cell of its row in the per-seed tables."""
    section = markdown.split("## Seed statements", 1)[1]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"^\| (00[0-4]-\S+) \|", line)
        if m:
            rows[m.group(1)] = line.rstrip(" |").rsplit(" | ", 1)[1]
    return rows


def test_the_table_lists_exactly_the_cases_that_cite_each_statement(
        cases: list[Case], statements: list[Json]) -> None:
    report = (suite_dir() / "COVERAGE.md").read_text(encoding="utf-8")
    rows = _table_rows(report)
    assert set(rows) == {s["id"] for s in statements}
    known = {c.id: c.data for c in cases}
    for s in statements:
        cell = rows[s["id"]]
        shown = re.findall(r"`([^`]+)`", cell)
        if not shown:
            expected_cell = (f"no case possible: {s['no_case']}" if s.get("no_case")
                             else "no case yet")
            assert cell == expected_cell, s["id"]
        for case_id in shown:
            case = known[case_id]  # the case exists ...
            cited = case["source"].get("statements", [])
            assert s["id"] in cited or s.get("translates") in cited  # ... and cites it
            assert s["seed"] in case["source"]["ref"]
    expected = "\n".join(seeds_markdown([c.data for c in cases], statements))
    assert expected.strip() in report


def test_the_summary_counts_add_up(cases: list[Case], statements: list[Json]) -> None:
    pinned = statement_cases([c.data for c in cases], statements)
    text = "\n".join(seeds_markdown([c.data for c in cases], statements))
    for seed in SEEDS.values():
        rows = [s for s in statements if s["seed"] == seed]
        n = sum(1 for s in rows if pinned[s["id"]])
        moot = sum(1 for s in rows if not pinned[s["id"]] and s.get("no_case"))
        assert f"| `{seed}` | {len(rows)} | {n} | {moot} | {len(rows) - n - moot} |" in text
    no_case = {s["id"] for s in statements if s.get("no_case")}
    assert text.count("| no case yet |") == sum(1 for sid, ids in pinned.items()
                                                 if not ids and sid not in no_case)
