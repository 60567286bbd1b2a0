"""A longer random run of the rules-file fuzzer (the bounded, derandomized runs:
tests/unit/test_fuzz_dsl.py; 100,000 inputs: bench/fuzz_dsl.py)."""

from __future__ import annotations

import pytest

import dsl_fuzz


@pytest.mark.slow
def test_a_longer_random_run() -> None:
    seen = dsl_fuzz.run_inputs(dsl_fuzz.any_input(), 20_000, derandomize=False)
    assert sum(seen.values()) == 20_000
