"""The counts README.md states agree with the tree (a new user found them out of date: the
built-in variants, Rummoli's lines, the conformance cases), and it lists what ``boodle
simulate`` refuses."""

from __future__ import annotations

import re
from pathlib import Path

from boodle.language.variants import builtin_names
from boodle.resources import variants_dir

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _number(pattern: str) -> tuple[int, ...]:
    found = re.search(pattern, README)
    assert found is not None, pattern
    return tuple(int(g.replace(",", "")) for g in found.groups())


def test_the_number_of_built_in_variants() -> None:
    total, measured, added = _number(r"# every built-in variant \((\d+) of them; .*? for the "
                                     r"(\d+) of [\d-]+, not re-measured with the (\d+) added")
    assert total == len(builtin_names())
    assert measured + added == total


def test_the_largest_built_in_variant_and_its_lines() -> None:
    found = re.search(r"the largest built-in variant \((\w[\w ]*), (\d+) lines\)", README)
    assert found is not None
    lines = {p.stem: len(p.read_text(encoding="utf-8").splitlines())
             for p in variants_dir().glob("*.boodle")}
    largest = max(lines, key=lambda name: lines[name])
    assert found.group(1).lower() == largest
    assert int(found.group(2)) == lines[largest]


def test_the_number_of_conformance_cases() -> None:
    (stated,) = _number(r"`conformance/` holds over ([\d,]+) language-agnostic cases")
    cases = sum(1 for _ in (ROOT / "conformance" / "cases").rglob("*.json"))
    assert stated == cases // 1000 * 1000  # "over N": N the thousands


def test_simulate_refusing_redrawn_seating_is_listed() -> None:
    # the refusal itself: tests/unit/test_seating.py (make_spec, at the line that asks)
    assert "`boodle simulate` refuses `seating: redrawn each deal`" in README
