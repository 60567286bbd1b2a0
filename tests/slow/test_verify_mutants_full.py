"""Each mutant of tests/helpers/mutants.py caught on the full deck (the bounded versions:
tests/unit/test_verify_mutants.py)."""

from __future__ import annotations

import pytest

from boodle.verify.report import exit_status
from boodle.verify.verifier import Options, verify
from mutants import MUTANTS


@pytest.mark.slow
@pytest.mark.parametrize("prop", sorted(MUTANTS))
def test_each_mutant_on_the_full_deck(prop: str) -> None:
    options = Options(players=(3,), decks=((1, 5),) if prop == "termination" else ((2, 3),))
    results = verify([MUTANTS[prop]()], options)
    assert {r.prop for r in results if r.status == "counterexample"} == {prop}
    assert exit_status(results) == 1
