"""Fuzzing the rules-file parser and builder (issue 9): a bounded run, and every crash found.

Every input must give a ruleset or a located ``BoodleError`` — never another exception,
never a hang (``dsl_fuzz.check_outcome``).  The run here is bounded and derandomized (the
same inputs every time, about half a minute); ``bench/fuzz_dsl.py`` runs 100,000 and more,
and the slow-marked test below a random few thousand.  The inputs that crashed the parser
once are in ``tests/fuzz_regressions/`` (one JSON file each, with what they broke).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import dsl_fuzz
from boodle.language.build import load_text
from boodle.language.errors import BoodleError, Span

REGRESSIONS = sorted((Path(__file__).parents[1] / "fuzz_regressions").glob("*.json"))
CI = settings(database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))


def _plain(strategy: Callable[[], st.SearchStrategy[str]]) -> st.SearchStrategy[tuple[str, str]]:
    return strategy().map(lambda text: ("<fuzz>", text))


# ---------------------------------------------------------------- bounded runs


def test_mutated_variants_give_rulesets_or_located_errors() -> None:
    seen = dsl_fuzz.run_inputs(dsl_fuzz.mutated_texts(), 1500)
    assert sum(seen.values()) == 1500
    assert seen["ruleset"] >= 150  # edits that keep a valid variant reach the engine's model
    builder = [m for m in seen if m != "ruleset" and not m.startswith(("unexpected", "char"))]
    assert len(builder) >= 15, builder  # and many of the builder's own checks are reached


def test_grammar_sentences_give_rulesets_or_located_errors() -> None:
    seen = dsl_fuzz.run_inputs(_plain(dsl_fuzz.grammar_texts), 600)
    assert not any(m.startswith("unexpected") for m in seen)  # they always parse
    assert len(seen) >= 15


def test_token_soups_and_random_text_give_located_errors() -> None:
    seen = dsl_fuzz.run_inputs(_plain(dsl_fuzz.token_soups) | _plain(dsl_fuzz.random_texts), 900)
    assert sum(seen.values()) == 900


# ---------------------------------------------------------------- the property can fail


def test_an_error_without_a_location_fails_the_property() -> None:
    with pytest.raises(AssertionError, match="without a location"):
        dsl_fuzz.check_error(BoodleError("no place"), "variant x {}", "<fuzz>")


def test_a_location_outside_the_text_fails_the_property() -> None:
    text = "variant x {\n}"
    past = BoodleError("past the end", Span("<fuzz>", 3, 1, 3, 2, text))
    with pytest.raises(AssertionError, match="line 3 of 2"):
        dsl_fuzz.check_error(past, text, "<fuzz>")
    wide = BoodleError("past the line", Span("<fuzz>", 2, 3, 2, 4, text))
    with pytest.raises(AssertionError, match="column 3 past the end of line 2"):
        dsl_fuzz.check_error(wide, text, "<fuzz>")


def test_an_input_that_runs_too_long_is_a_hang() -> None:
    start = time.perf_counter()
    with pytest.raises(dsl_fuzz.Hang), dsl_fuzz.time_limit(0.2):
        while True:
            pass
    assert time.perf_counter() - start < 2


# ---------------------------------------------------------------- regressions


def _case(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    file = case["file"]
    if not file.startswith("<"):  # stored relative to the repository
        case["file"] = str(Path(__file__).parents[2] / file)
    return case


def _place(text: str, at: int) -> tuple[int, int]:
    """Line and column of offset ``at``, counting only '\\n' as a line break (spec §11.1)."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_an_input_that_once_crashed_now_gives_a_located_error(path: Path) -> None:
    case = _case(path)
    text = case["text"]
    assert dsl_fuzz.check_outcome(text, case["file"]).kind == "error", case["found"]
    with pytest.raises(BoodleError) as info:
        load_text(text, case["file"])
    err = info.value
    assert err.span is not None
    if "expect" in case:
        assert err.message == case["expect"]
    big = re.search(r"[0-9]{11,}", text)
    if big is not None:  # a number over 1,000,000,000 is refused where it is written
        assert err.message.startswith("the number 9")
        assert (err.span.line, err.span.column) == _place(text, big.start())
    if err.message.startswith("unexpected end of file"):  # just past the last character
        assert (err.span.line, err.span.column) == _place(text, len(text.rstrip("\n")))
    surrogate = re.search("[\ud800-\udfff]", text)
    if surrogate is not None:
        assert (err.span.line, err.span.column) == _place(text, surrogate.start())


def test_there_are_regressions_for_each_crash_found() -> None:
    found = {_case(p)["found"].split(" ")[0] for p in REGRESSIONS}
    assert {"UnicodeEncodeError", "VisitError", "error"} <= found
    assert len(REGRESSIONS) >= 8
