"""A user's rules file in the conformance suite (issue 15, part 1): the rules hash, loading,
the check that a case is run against the rules it was made from; and the reports' head,
the failures grouped by the rule they pin (part 5).

The hash's expected behaviour is the issue's words: reformatting a file does not change
it, a change of a base it extends does.  The groups are worked out by hand from the
outcomes each test builds.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from boodle.conformance.cases import Case, case_hash, check_case, dump_case
from boodle.conformance.paths import load_variant, use_rules
from boodle.conformance.report import (
    console_text,
    failure_groups,
    write_json,
    write_junit,
    write_markdown,
)
from boodle.conformance.rules_files import (
    canonical_rules,
    check_hashes,
    export_rules,
    load_rules,
    rules_hash,
    use,
)
from boodle.conformance.run_suite import Outcome, Report
from boodle.language.errors import BoodleError

HOUSE = """variant house extends mybase {
  phase play is stops {
    if none: pay 1 to kitty, pass left
    all pass: flip colour
  }
}
"""

BASE = """variant mybase extends michigan {
  title "My base"
  phase play is stops {
    restart: last player, lowest of opposite colour
  }
}
"""

# the same rules as BASE: other spacing, comments, the clauses in another order
BASE_REFORMATTED = """# my table's base rules
variant   mybase   extends michigan {
  phase play is stops {
      restart:   last player,  lowest of opposite colour   # the other colour
  }

  title "My base"
}
"""


@pytest.fixture(autouse=True)
def _no_rules_left() -> Iterator[None]:
    yield
    use_rules({})


def _write(folder: Path, base: str = BASE) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mybase.boodle").write_text(base, "utf-8")
    (folder / "house.boodle").write_text(HOUSE, "utf-8")
    return folder / "house.boodle"


def test_reformatting_a_file_keeps_its_hash(tmp_path: Path) -> None:
    one = load_rules([_write(tmp_path / "a")])[0]
    two = load_rules([_write(tmp_path / "b", BASE_REFORMATTED)])[0]
    assert len(one.hash) == 64 and one.hash == two.hash


def test_a_change_of_the_base_it_extends_changes_the_hash(tmp_path: Path) -> None:
    one = load_rules([_write(tmp_path / "a")])[0]
    changed = BASE.replace("last player,", "next player,")
    two = load_rules([_write(tmp_path / "b", changed)])[0]
    assert one.hash != two.hash
    # the house file itself is the same text in both folders
    assert (tmp_path / "a" / "house.boodle").read_bytes() == \
        (tmp_path / "b" / "house.boodle").read_bytes()


def test_the_hash_is_of_the_resolved_rules_without_spans(tmp_path: Path) -> None:
    rules = load_rules([_write(tmp_path)])[0]
    text = json.dumps(canonical_rules(rules.ruleset))
    assert '"span"' not in text and str(tmp_path) not in text
    assert "opposite colour" in text  # the base's rule, merged in
    assert rules_hash(rules.ruleset) == rules.hash
    # the file it extends is recorded (to be copied beside the cases), not michigan, which
    # mybase reaches as a built-in from its folder (copied too: it is what extends found)
    assert [p.name for p in rules.bases] == ["mybase.boodle", "michigan.boodle"]


def test_two_files_of_one_variant_are_refused(tmp_path: Path) -> None:
    path = _write(tmp_path)
    copy = tmp_path / "again.boodle"
    copy.write_text(HOUSE, "utf-8")
    with pytest.raises(BoodleError, match="variant 'house' is already defined by"):
        load_rules([path, copy])


def test_a_built_in_name_given_as_rules_is_refused_with_the_file_form(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rules michigan`` beside a folder named ``michigan`` said "Is a directory" (found
    by a new user): a bare built-in name is the built-in's (spec §11.1), which needs no
    --rules; the hint gives the file form."""
    (tmp_path / "michigan").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BoodleError, match="'michigan' is a built-in variant") as caught:
        load_rules([Path("michigan")])
    assert "./michigan.boodle" in (caught.value.hint or "")


def test_a_fault_in_a_rules_file_names_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.boodle"
    bad.write_text("variant bad extends michigan {\n  players 3 to two\n}\n", "utf-8")
    with pytest.raises(BoodleError) as caught:
        load_rules([bad])
    assert caught.value.span is not None and caught.value.span.line == 2


def test_given_rules_are_found_by_name_before_the_built_ins(tmp_path: Path) -> None:
    rules = load_rules([_write(tmp_path)])[0]
    use([rules])
    assert load_variant("house") is rules.ruleset
    use_rules({})
    with pytest.raises(BoodleError, match="no variant 'house'"):
        load_variant("house")


def _case(rules_hash_value: str | None, variant: str = "house") -> Case:
    data: dict[str, object] = {
        "format": "boodle-case/1", "kind": "reject", "description": "d",
        "variant": {"name": variant, "version": 1}, "pins": ["§12/turn"],
        "source": {"kind": "generated", "generator": "g", "seed": "s"},
        "setup": {"position": "x"}, "move": {"move": "pass", "seat": 0},
        "expect": {"rejected": "turn"}}
    if rules_hash_value is not None:
        data["rules_hash"] = rules_hash_value
    data["id"] = f"{variant}.x.{case_hash(data)}"
    return Case(data, None)


def test_a_case_run_against_rules_of_another_hash_is_an_error(tmp_path: Path) -> None:
    rules = load_rules([_write(tmp_path)])[0]
    use([rules])
    check_hashes([_case(rules.hash)])  # the same rules: nothing to say
    with pytest.raises(BoodleError) as caught:
        check_hashes([_case("0" * 64)])
    message = caught.value.message
    assert "hash is 000000000000…" in message and f"hashes to {rules.hash[:12]}…" in message
    assert str(tmp_path / "house.boodle") in message
    assert "not the ones the case was made from" in message
    assert caught.value.hint is not None and "--rules" in caught.value.hint


def test_a_case_of_rules_not_given_says_which_to_give() -> None:
    with pytest.raises(BoodleError, match="no rules of that name were given"):
        check_hashes([_case("1" * 64, variant="no-such-house")])


def test_a_shipped_case_has_no_hash_and_keeps_its_id() -> None:
    plain = _case(None)
    hashed = _case("2" * 64)
    # rules_hash is part of the meaning when present, and absent from the shipped cases
    assert plain.id != hashed.id
    check_hashes([plain])  # nothing to check, whatever rules are loaded


def test_a_case_with_a_rules_hash_is_valid_and_printed(tmp_path: Path) -> None:
    case = _case("3" * 64).data
    text = dump_case(case)
    assert json.loads(text) == case
    assert text.index('"rules_hash"') < text.index('"pins"')
    check_case(case, "here")
    with pytest.raises(BoodleError, match="not a valid"):
        check_case({**case, "rules_hash": "sha"}, "here")


def test_export_copies_the_files_and_their_bases(tmp_path: Path) -> None:
    rules = load_rules([_write(tmp_path / "src")])
    written = export_rules(rules, tmp_path / "out")
    assert [p.name for p in written] == ["house.boodle", "michigan.boodle", "mybase.boodle"]
    again = load_rules([tmp_path / "out" / "house.boodle"])[0]
    assert again.hash == rules[0].hash
    # the copy reads its base beside it: self-contained
    assert again.bases[0] == tmp_path / "out" / "mybase.boodle"


# ---------------------------------------------------------------- reports (part 5)


def _outcome(case_id: str, kind: str, outcome: str, pins: list[str], detail: str = ""
             ) -> Outcome:
    summary = f"summary of {case_id}"
    if case_id == "e1":  # an error the implementation answered with: grouped
        summary = "the implementation reported an error: no such card"
    elif case_id == "e2":  # no valid answer (a crash): not about a rule, not grouped
        summary = "no answer within 10 s"
    return Outcome(case_id, "michigan", kind, outcome, summary, detail,
                   pins=pins, description=f"description of {case_id}")


def _widow_report() -> Report:
    """A broken widow stop: every case pinning §6.3/widow fails, and a count case that does
    not pin it fails too; every case pins §9/conservation."""
    generic = "§9/conservation"
    outcomes = [
        _outcome("c1", "count", "fail", [generic, "§6.3/widow"], "short"),
        _outcome("s1", "script", "fail", [generic, "§6.3/widow"], "a much longer diff\n" * 3),
        _outcome("s2", "script", "fail", [generic, "§6.3/widow"], "diff\n" * 2),
        _outcome("k1", "count", "fail", [generic, "§6/runs"]),
        _outcome("p1", "script", "pass", [generic, "§6/runs"]),
        _outcome("p2", "script", "pass", [generic, "§6/runs"]),
        _outcome("p3", "script", "pass", [generic]),
        _outcome("e1", "script", "error", []),
        _outcome("e2", "script", "error", ["§6.3/widow"]),
        _outcome("x1", "script", "skip", [generic, "§6.3/widow"]),
    ]
    return Report("impl", "session", {"name": "mine"}, outcomes)


def test_failures_are_grouped_under_the_rule_that_fails_most_often() -> None:
    groups = failure_groups(_widow_report())
    # §6.3/widow: 3 of 4 run fail (the skip is not run, e2's crash is not a wrong answer);
    # §9/conservation 4 of 7; §6/runs 1 of 3: k1 goes under §9/conservation (4/7 > 1/3)
    assert [(g.rule, [o.id for o in g.failing], g.pinned) for g in groups] == [
        ("§6.3/widow", ["s2", "s1", "c1"], 4),
        ("(no rule)", ["e1"], 1),
        ("§9/conservation", ["k1"], 7),
    ]
    # the example: a script before a count case, then the shorter diff
    assert groups[0].example.id == "s2"
    assert groups[0].text == "The next card in the widow stops the run."  # spec-rules.json's words


def test_every_report_starts_with_the_groups(tmp_path: Path) -> None:
    report = _widow_report()
    text = console_text(report)
    assert text.splitlines()[1].startswith("failures by the rule they pin (5 cases under 3 rules")
    assert text.index("§6.3/widow") < text.index("every failing case:") < text.index("FAIL  c1")
    assert "example: s2 (script): description of s2" in text

    write_json(report, tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert list(data)[:2] == ["format", "failures_by_rule"]
    assert data["failures_by_rule"][0] == {
        "rule": "§6.3/widow", "text": data["failures_by_rule"][0]["text"], "failing": 3,
        "pinned": 4, "example": "s2", "cases": ["s2", "s1", "c1"]}
    by_id = {c["id"]: c for c in data["cases"]}
    assert by_id["c1"]["pins"] == ["§9/conservation", "§6.3/widow"]
    assert by_id["c1"]["description"] == "description of c1"

    write_junit(report, tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()
    assert root[0].tag == "properties" and root[1].tag == "system-out"
    assert root[0][0].get("name") == "failing rule 1: §6.3/widow"
    assert "example s2" in (root[0][0].get("value") or "")

    write_markdown(report, tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text("utf-8")
    assert md.index("## Failures by the rule they pin") < md.index("| variant |") \
        < md.index("## Failures\n")
    assert "[`s2`](#case-s2)" in md and '<a id="case-s2"></a>' in md


def test_details_zero_leaves_the_examples_diff_out() -> None:
    text = console_text(_widow_report(), details=0)
    assert "example: s2 (script)" in text and "      diff" not in text


def test_a_run_without_failures_has_no_groups() -> None:
    report = Report("impl", "session", {}, [_outcome("p", "script", "pass", ["§6/runs"])])
    assert failure_groups(report) == []
    assert "failures by the rule" not in console_text(report)


def test_every_rule_text_reads_as_a_rule_not_a_placeholder() -> None:
    # a run's failure groups print these words ('§6.1/dealer: WHO 'dealer'.' read as a
    # template left unfilled): each text says what happens, the syntax's words quoted
    from boodle.conformance.paths import suite_dir

    data = json.loads((suite_dir() / "spec-rules.json").read_text(encoding="utf-8"))
    placeholders = [r["id"] for r in data["rules"]
                    if re.match(r"(WHO|CHOICE|SUIT|CARD|PHASE)\b", r.get("text", ""))]
    assert placeholders == []
    texts = {r["id"]: r["text"] for r in data["rules"]}
    assert texts["§6.1/dealer"] == "'dealer': the dealer leads."  # spec/rules.md §6.1's table
