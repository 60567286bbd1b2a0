"""``boodle conformance run / serve / list / show / export`` end to end.

The reference must pass every case (issue 6: done when).  Mutants stand in
for a wrong implementation where a failure is needed: going-out-kitty-only
pays nothing per card, so 001's worked example fails with it (B should get
3 + 1 + 2 from the opponents), while a reject case about leads passes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.conformance.cases import load_cases
from boodle.conformance.paths import suite_dir

PY = sys.executable
SERVE = f"{PY} -m boodle.cli conformance serve"
EXAMPLE = "michigan.worked-example-001.*"
LEADS = "michigan.lead-not-lowest-of-suit.*"


def boodle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "boodle.cli", *args], capture_output=True, text=True,
                          timeout=600, check=False)


def test_the_reference_passes_every_case(tmp_path: Path) -> None:
    out = boodle("conformance", "run", "--impl", SERVE, "--json", str(tmp_path / "r.json"),
                 "--junit", str(tmp_path / "r.xml"), "--markdown", str(tmp_path / "r.md"))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    n = len(load_cases(check=False))
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert report["ok"] and report["counts"]["pass"] == n
    assert len({c["id"] for c in report["cases"]}) == len(report["cases"]) == n
    junit = ET.parse(tmp_path / "r.xml").getroot()
    assert junit.get("tests") == str(n) and junit.get("failures") == "0"
    assert f"{n} cases: {n} pass" in out.stdout
    assert "| michigan |" in (tmp_path / "r.md").read_text("utf-8")


def test_one_shot_mode() -> None:
    # one accepted case (exit 0) and one rejected move (exit 1)
    out = boodle("conformance", "run", "--impl", f"{SERVE} --one-shot", "--mode", "one-shot",
                 "--case", EXAMPLE, "--case", LEADS)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 cases: 2 pass" in out.stdout


def test_a_failure_shows_the_first_diverging_event_and_the_state_there(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["conformance", "run", "--impl", f"{SERVE} --mutant going-out-kitty-only",
                 "--case", EXAMPLE]) == 1
    out = capsys.readouterr().out
    # B goes out; C (3 cards) pays first, 3 chips, not 0
    assert "first difference at event 9" in out
    assert '"payer": 2, "payee": {"seat": 1}, "amount": 3' in out
    # the state there: before B's last move (point 4), Q♦ played and B holding 3♣ alone
    assert "state at point 4 (reference), B to move" in out
    assert " A9♦C10♦AJ♦BQ♦ - B 44,48,44,44 " in out  # B took Q♦'s 4; nobody has paid yet
    assert "B: 3♣" in out and "1 fail" in out


def test_expected_failures(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    cases = load_cases(check=False)
    example = next(c.id for c in cases if ".worked-example-001." in c.id)
    leads = next(c.id for c in cases if ".lead-not-lowest-of-suit." in c.id)
    mutant = ["conformance", "run", "--impl", f"{SERVE} --mutant going-out-kitty-only",
              "--case", EXAMPLE, "--case", LEADS]
    xfail = tmp_path / "mine.xfail"
    xfail.write_text(f"# mine\n{example}  pays nothing per card\n{leads}  stale line\n"
                     "michigan.no-such-case.000000000000  gone\n", "utf-8")
    written = tmp_path / "written.xfail"
    # the stale line passes: an unexpected pass fails the run
    assert main([*mutant, "--expected-failures", str(xfail),
                 "--write-expected-failures", str(written)]) == 1
    out = capsys.readouterr().out
    assert "2 cases: 1 xfail, 1 xpass" in out
    assert "unknown case id: michigan.no-such-case.000000000000" in out
    assert written.read_text("utf-8").splitlines()[2:] == [f"{example}  pays nothing per card"]
    assert main([*mutant, "--expected-failures", str(written)]) == 0
    assert "2 cases: 1 pass, 1 xfail" in capsys.readouterr().out


def test_a_malformed_expected_failures_file_is_an_input_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.xfail"
    bad.write_text("michigan.worked-example-001.870e761e403e\n", "utf-8")
    assert main(["conformance", "run", "--impl", SERVE, "--case", EXAMPLE,
                 "--expected-failures", str(bad)]) == 1
    assert "bad.xfail:1:1: error: no reason given" in capsys.readouterr().err


def test_a_selection_of_nothing_is_an_input_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["conformance", "run", "--impl", SERVE, "--case", "nothing-matches-*"]) == 1
    assert "no case matches" in capsys.readouterr().err


def test_list_show_and_export(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["conformance", "list", "--variant", "probe-sets"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert any(".sets-and-payments-into-the-kitty." in ln for ln in listed)
    case = next(c for c in load_cases(check=False) if ".worked-example-001." in c.id)
    assert main(["conformance", "show", case.id]) == 0
    assert json.loads(capsys.readouterr().out) == case.data
    assert main(["conformance", "show", "worked-example"]) == 1
    assert "cases containing it" in capsys.readouterr().err
    out = tmp_path / "suite"
    assert main(["conformance", "export", str(out)]) == 0
    exported = list((out / "cases").rglob("*.json"))
    assert len(exported) == len(load_cases(check=False))
    for name in ("PROTOCOL.md", "FORMAT.md", "schema/case.schema.json",
                 "schema/protocol.schema.json", "variants/michigan.boodle",
                 "variants/probe-sets.boodle", "examples/michigan-node/adapter.js",
                 "examples/michigan-node/README.md", "spec/rules.md", "spec/michigan.md"):
        assert (out / name).is_file(), name
    # the documents send implementers to spec/rules.md §12 for the rule ids: it is there
    assert "## §12 Rule ids of rejected moves" in (out / "spec" / "rules.md").read_text("utf-8")
    variants = {p.stem for p in (out / "variants").glob("*.boodle")}
    assert {p.parent.name for p in exported} <= variants


@pytest.mark.parametrize("argv", [["serve", "--list-mutants"]])
def test_serve_lists_its_mutants(argv: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["conformance", *argv]) == 0
    names = [ln.split()[0] for ln in capsys.readouterr().out.splitlines()]
    assert len(names) >= 12 and "skip-widow-stop" in names and "widow-misplaced" in names


def test_the_suite_ships_its_documents() -> None:
    for name in ("README.md", "PROTOCOL.md", "FORMAT.md", "COVERAGE.md", "spec-rules.json"):
        assert (suite_dir() / name).is_file()
