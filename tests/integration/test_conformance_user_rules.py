"""Your rules file in, cases out (issue 15, part 1), end to end, with processes.

The example rules file ``conformance/examples/house-rules/tripoli-colours.boodle`` is a
user's (not a built-in): ``generate --rules`` makes its suite, ``run --rules`` runs it
against ``serve --rules`` (the reference playing those rules), which passes, and against
a deliberately broken reference (``serve --mutant no-pass``: the pass and its fee are
replaced by a lead in any suit), which fails it.  Expected values come from the rules
file itself: ``players 3 to 9`` (tripoli's), the pass fee to the Pot (§6.5/pass-fee) and
the opposite-colour restart (§6.1/opposite-colour) it writes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from boodle.cli import main
from boodle.conformance.paths import suite_dir

PY = sys.executable
RULES = suite_dir() / "examples" / "house-rules" / "tripoli-colours.boodle"
SERVE = f"{PY} -m boodle.cli conformance serve --rules {RULES}"


def boodle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "boodle.cli", *args], capture_output=True, text=True,
                          timeout=900, check=False)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("suite")
    done = boodle("conformance", "generate", "--rules", str(RULES), "--out", str(out),
                  "--size", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "of tripoli-colours (rules hash" in done.stdout
    return out


def _cases(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in sorted((folder / "cases").rglob("*.json"))]


def test_generate_writes_every_kind_for_every_player_count(suite: Path) -> None:
    cases = _cases(suite)
    assert {c["variant"]["name"] for c in cases} == {"tripoli-colours"}
    assert {c["kind"] for c in cases} == {"script", "reject", "count", "session"}
    deals = {c["setup"]["players"] for c in cases
             if ".gen-deal-" in str(c["id"])}
    sessions = {c["setup"]["players"] for c in cases if c["kind"] == "session"}
    assert deals == sessions == set(range(3, 10))  # players 3 to 9
    hashes = {c["rules_hash"] for c in cases}
    manifest = json.loads((suite / "suite.json").read_text("utf-8"))
    assert hashes == {manifest["rules"][0]["hash"]}
    pins = {p for c in cases for p in c["pins"]}
    assert {"§6.5/pass-fee", "§6.1/opposite-colour"} <= pins
    # self-contained: the rules file and the built-in it extends, beside the cases
    assert sorted(p.name for p in (suite / "variants").iterdir()) == \
        ["tripoli-colours.boodle", "tripoli.boodle"]


def test_run_rules_against_serve_rules_passes_and_reuses_the_cache(suite: Path,
                                                                   tmp_path: Path) -> None:
    """``run --rules`` generates the suite into the cache (the same files as ``generate``:
    deterministic), runs it, and reuses it the next time."""
    cache = tmp_path / "cache"
    run = ["conformance", "run", "--impl", SERVE, "--rules", str(RULES), "--size", "1",
           "--cache", str(cache)]
    first = boodle(*run)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    n = len(_cases(suite))
    assert f"{n} cases: {n} pass" in first.stdout
    assert "generated" in first.stderr
    # the hash it names is the one the cases carry (and generate prints), not the cache key
    rules_hash = json.loads((suite / "suite.json").read_text("utf-8"))["rules"][0]["hash"]
    assert f"rules hash {rules_hash[:12]}…" in first.stderr
    # generated again for the cache: deterministic, byte for byte what generate wrote
    made = next((cache / "conformance").glob("tripoli-colours-*"))
    files = sorted(p.relative_to(suite) for p in suite.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(made) for p in made.rglob("*") if p.is_file())
    assert all((suite / f).read_bytes() == (made / f).read_bytes() for f in files)
    second = boodle(*run, "--case", "*.gen-deal-p3-*")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "reusing the cases for tripoli-colours" in second.stderr
    assert "1 case: 1 pass" in second.stdout


def test_a_broken_reference_fails_the_suite(suite: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    done = boodle("conformance", "run", "--impl", f"{SERVE} --mutant no-pass",
                  "--cases", str(suite), "--json", str(report), "--details", "1")
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads(report.read_text("utf-8"))
    assert data["counts"]["fail"] > 0
    # the diagnostics of a user's rules: the state where it diverged, no excuse
    assert "state at point" in done.stdout
    assert "cannot play this setup" not in done.stdout
    assert "no variant" not in done.stdout
    # the report leads with the rules that fail; a pass of the house rule is among them
    rules = [g["rule"] for g in data["failures_by_rule"]]
    assert done.stdout.splitlines()[1].startswith("failures by the rule they pin")
    assert any(r.startswith("§6.5/") for r in rules), rules


def test_cases_run_against_changed_rules_are_an_error(suite: Path, tmp_path: Path) -> None:
    copy = tmp_path / "suite"
    shutil.copytree(suite, copy)
    rules = copy / "variants" / "tripoli-colours.boodle"
    # reformatted only (comments, spacing): the same rules, the same hash
    rules.write_text("# reformatted\n" + rules.read_text("utf-8").replace("  ", "    "),
                     "utf-8")
    same = boodle("conformance", "run", "--impl", SERVE, "--cases", str(copy),
                  "--case", "*.gen-reject-deal-*")
    assert same.returncode == 0, same.stdout + same.stderr
    # a rule changed: the fee is 2, not 1
    rules.write_text(rules.read_text("utf-8").replace("pay 1 to pot", "pay 2 to pot"), "utf-8")
    changed = boodle("conformance", "run", "--impl", SERVE, "--cases", str(copy))
    assert changed.returncode == 1
    assert "not the ones the case was made from" in changed.stderr
    assert str(rules) in changed.stderr and "Traceback" not in changed.stderr
    # and the base it extends, changed beside it (the rules file itself is untouched)
    base = copy / "variants" / "tripoli.boodle"
    rules.write_text(rules.read_text("utf-8").replace("pay 2 to pot", "pay 1 to pot"), "utf-8")
    base.write_text(base.read_text("utf-8").replace("start: 50 chips", "start: 60 chips"),
                    "utf-8")
    based = boodle("conformance", "run", "--impl", SERVE, "--cases", str(copy))
    assert based.returncode == 1 and "not the ones the case was made from" in based.stderr


def test_list_and_show_read_the_suite(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "list", "--cases", str(suite), "--case", "*.gen-count-*"]) == 0
    listed = capsys.readouterr().out.splitlines()
    counts = [c for c in _cases(suite) if c["kind"] == "count"]
    assert len(listed) == len(counts) and all(" count " in line for line in listed)
    assert main(["conformance", "show", str(counts[0]["id"]), "--cases", str(suite)]) == 0
    assert json.loads(capsys.readouterr().out) == counts[0]


def test_serve_rules_announces_the_variant() -> None:
    done = subprocess.run([PY, "-m", "boodle.cli", "conformance", "serve", "--rules", str(RULES)],
                          input='{"type": "start", "protocol": "boodle-protocol/1"}\n'
                          '{"type": "stop"}\n', capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    started = json.loads(done.stdout.splitlines()[0])
    assert {"name": "tripoli-colours", "version": 1} in started["variants"]
    assert {"name": "tripoli", "version": 1} in started["variants"]


def test_usage_errors_say_what_goes_with_what(tmp_path: Path) -> None:
    no_out = boodle("conformance", "generate", "--rules", str(RULES))
    assert no_out.returncode == 2 and "--rules needs --out DIR" in no_out.stderr
    size = boodle("conformance", "generate", "--size", "2", "--out", str(tmp_path))
    assert size.returncode == 2 and "--size goes with --rules" in size.stderr
    cache = boodle("conformance", "run", "--impl", "x", "--cache", str(tmp_path))
    assert cache.returncode == 2 and "go with --rules" in cache.stderr


def test_rules_the_reference_cannot_play_say_what_it_lacks(tmp_path: Path) -> None:
    rules = tmp_path / "unplayable.boodle"
    # 'going out' without 'ends deal': parsed and checked, not played by the engine yet
    rules.write_text("variant unplayable extends michigan {\n  phase play is stops {\n"
                     "    going out: 1 per card to winner\n  }\n}\n", "utf-8")
    for args in (("generate", "--out", str(tmp_path / "out")),
                 ("run", "--impl", SERVE, "--cache", str(tmp_path / "cache"))):
        done = boodle("conformance", *args, "--rules", str(rules))
        assert done.returncode == 1, done.stderr
        assert f"cannot play {rules} (variant unplayable) yet: phase play: going out " \
            "without ending the deal" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_selection_of_no_case_names_the_listing_of_those_cases(suite: Path,
                                                                 tmp_path: Path) -> None:
    """Tried as a new user: `run --rules mine.boodle --case 'x*'` said "see 'boodle
    conformance list' for the ids", which lists the built-in cases, none of the rules'."""
    cache = tmp_path / "cache"
    done = boodle("conformance", "run", "--impl", SERVE, "--rules", str(RULES), "--size", "1",
                  "--cache", str(cache), "--case", "nomatch*")
    assert done.returncode == 1, done.stdout + done.stderr
    made = next((cache / "conformance").glob("tripoli-colours-*"))
    assert f"hint: see 'boodle conformance list --cases {made}' for the ids" in done.stderr
    listed = boodle("conformance", "list", "--cases", str(made))
    assert listed.returncode == 0 and "tripoli-colours.gen-deal-p3-" in listed.stdout
    given = boodle("conformance", "list", "--cases", str(suite), "--case", "nomatch*")
    assert f"hint: see 'boodle conformance list --cases {suite}' for the ids" in given.stderr
    shown = boodle("conformance", "show", "nomatch", "--cases", str(suite))
    assert f"hint: see 'boodle conformance list --cases {suite}'" in shown.stderr
    builtin = boodle("conformance", "list", "--case", "nomatch*")
    assert "hint: see 'boodle conformance list' for the ids" in builtin.stderr
