"""Every built-in mutant of the reference fails at least one case, with a clear diff.

Cases are tried hand-written first (each pins one rule), then generated
scripts, rejects and counts, and the first failure is kept.  Then the same
case is run through the command line against ``serve --mutant``.
"""

from __future__ import annotations

import difflib
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.compare import verdict
from boodle.conformance.mutants import MUTANTS
from boodle.conformance.play_case import execute

KIND_ORDER = {"script": 0, "reject": 1, "count": 2, "session": 3}


@pytest.fixture(scope="module")
def killers() -> dict[str, tuple[str, str]]:
    cases: list[Case] = sorted(
        load_cases(),
        key=lambda c: (c.data["source"]["kind"] == "generated", KIND_ORDER[c.kind], c.id))
    found: dict[str, tuple[str, str]] = {}
    for name, engine in MUTANTS.items():
        for case in cases:
            v = verdict(case, execute(case.request(), engine))
            if v.outcome == "fail":
                found[name] = (case.id, v.detail)
                break
    return found


def test_there_are_at_least_twelve_mutants() -> None:
    assert len(MUTANTS) >= 12
    assert {"skip-widow-stop", "top-rank-continues", "restart-same-suit", "going-out-kitty-only",
            "claims-on-holding", "widow-misplaced"} <= set(MUTANTS)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_mutant_fails_a_case_with_a_diff(name: str, killers) -> None:  # type: ignore[no-untyped-def]
    assert name in killers, f"no case fails mutant {name}"
    case_id, detail = killers[name]
    assert detail.strip() and ("expected" in detail or "rejected" in detail)


@pytest.mark.parametrize("name", ["skip-widow-stop", "claims-on-holding"])
def test_serve_mutant_fails_through_the_protocol(name: str, killers) -> None:  # type: ignore[no-untyped-def]
    """A mutant wrapping apply and one wrapping the deal and changing the ruleset."""
    case_id, _ = killers[name]
    out = subprocess.run(
        [sys.executable, "-m", "boodle.cli", "conformance", "run", "--impl",
         f"{sys.executable} -m boodle.cli conformance serve --mutant {name}", "--case", case_id],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"FAIL  {case_id}" in out.stdout and "1 fail" in out.stdout
    assert f"+mutant:{name}" in out.stdout


# ---------------------------------------------------------------- the mutation bench's classifier

def _bench() -> Any:
    """bench/conformance_mutation.py as a module (bench/ is not a package)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "conformance_mutation.py"
    spec = importlib.util.spec_from_file_location("conformance_mutation", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCE = '''\
def check(move, found, events, state, who):
    if move.kind != "lead":
        raise IllegalMove(f"{move}: a lead is due", rule="move.kind")
    events.append(Pass(who, f"may lead no card under {found}"))
    state, t = state.pay(seat(who), section("kitty"), 1, "claim")
    state, t = state.pay(seat(who), section("kitty"), 1, "penalty")
    return state


STAGE = Stage("stops", check, check, check)
'''


def _diff(old: str, new: str) -> str:
    mutant = SOURCE.replace(old, new)
    assert mutant != SOURCE
    return "".join(difflib.unified_diff(SOURCE.splitlines(keepends=True),
                                        mutant.splitlines(keepends=True), "a.py", "a.py"))


@pytest.mark.parametrize(("old", "new", "kind"), [
    ('f"{move}: a lead is due"', 'f"XX{move}: a lead is dueXX"', "message"),
    ('f"may lead no card under {found}"', 'f"XXmay lead no card under {found}XX"', "pass reason"),
    ('1, "claim")', '1, "XXclaimXX")', "transfer reason"),
    ('Stage("stops"', 'Stage("XXstopsXX"', "stage label"),
    ('rule="move.kind"', 'rule="XXmove.kindXX"', None),   # a rule id is compared
    ('!= "lead"', '!= "XXleadXX"', None),                  # a comparison decides the game
    ('1, "penalty")', '1, "XXpenaltyXX")', None),          # a penalty's reason is in its JSON
    ('!= "lead"', '== "lead"', None),                      # not a string change
    ('section("kitty"), 1, "claim"', 'section("kitty"), 2, "claim"', None),
])
def test_the_bench_excepts_only_string_changes_nobody_sees(
        old: str, new: str, kind: str | None) -> None:
    found = _bench().classify(SOURCE, _diff(old, new))
    assert (found[0] if found else None) == kind
