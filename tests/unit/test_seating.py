"""The session's ``seating`` line (spec §10): seats kept, or drawn again before each deal."""

from __future__ import annotations

import pytest

from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.printer import print_ruleset
from tiny_rules import BASE

REDRAWN = BASE.replace("session { start: 50 chips }",
                       "session { start: 50 chips  seating: redrawn each deal }")


def test_seating_is_fixed_unless_said() -> None:
    assert load_text(BASE, "t.boodle").session.seating == "fixed"
    fixed = BASE.replace("start: 50 chips }", "start: 50 chips  seating: fixed }")
    assert load_text(fixed, "t.boodle").session.seating == "fixed"


def test_seating_redrawn_is_read_and_printed_back() -> None:
    ruleset = load_text(REDRAWN, "t.boodle")
    assert ruleset.session.seating == "redrawn each deal"
    printed = print_ruleset(ruleset)
    assert "seating: redrawn each deal" in printed
    assert load_text(printed, "t.boodle").session.seating == "redrawn each deal"
    assert "seating" not in print_ruleset(load_text(BASE, "t.boodle"))


def test_a_bad_seating_is_a_located_error() -> None:
    text = REDRAWN.replace("redrawn each deal", "shuffled")
    with pytest.raises(BoodleError) as err:
        load_text(text, "t.boodle")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "shuffled" in row)
    assert err.value.span is not None and err.value.span.line == line


def test_two_seating_lines_are_refused() -> None:
    text = REDRAWN.replace("seating: redrawn each deal",
                           "seating: fixed  seating: redrawn each deal")
    with pytest.raises(BoodleError):
        load_text(text, "t.boodle")
