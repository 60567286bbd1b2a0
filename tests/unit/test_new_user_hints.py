"""Hints a new user found to be the wrong edit (stop 28, helper ``hints``): each case is a
tripoley-as-sold house rule with one line broken the way they wrote it, and the hint and
edit expected worked out by hand from the grammar (grammar/boodle.lark: ``blinds: INT
("," INT)? chips``, ``bets: up to INT chips``, ``seating: redrawn each deal``)."""

from __future__ import annotations

import pytest

from boodle.language.build import load_text
from boodle.language.errors import BoodleError, Replacement
from boodle.language.syntax import parse

POKER = """\
variant t extends tripoley-as-sold {{
  title "T"
  phase poker "Poker" is poker {{
    {}
  }}
}}
"""
"""The line under test is line 4, indented by 4 spaces."""

SESSION = """\
variant t extends tripoley-as-sold {{
  title "T"
  session {{
    {}
  }}
}}
"""


def _syntax(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        parse(text, "t.boodle")
    return info.value


def _built(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, "t.boodle")
    return info.value


def _applied(text: str, edits: tuple[Replacement, ...]) -> str:
    """``text`` with ``edits`` made (1-based lines and columns, end exclusive)."""
    lines = text.split("\n")

    def offset(line: int, column: int) -> int:
        return sum(len(x) + 1 for x in lines[:line - 1]) + column - 1

    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        text = (text[:offset(edit.line, edit.column)] + edit.text
                + text[offset(edit.end_line, edit.end_column):])
    return text


def test_a_decimal_blind_says_a_blind_is_a_whole_number_with_no_comma_edit() -> None:
    err = _syntax(POKER.format("blinds: 1.5 chips"))
    assert err.hint == "a blind is a whole number of chips: write 1.5 as 1 or 2"
    assert not err.edits  # ',' for '.' would read 1,5: a small blind of 1 and a big one of 5


def test_a_unit_misspelt_after_a_plural_number_is_replaced_by_chips() -> None:
    err = _syntax(POKER.format("blinds: 1, 2 jetons"))
    assert err.hint == "write 'chips' instead of 'jetons' (write it blinds: 1, 2 chips)"
    assert "blinds: 1, 2 chips" in _applied(POKER.format("blinds: 1, 2 jetons"), err.edits)


def test_a_unit_misspelt_after_one_is_replaced_by_chip() -> None:
    err = _syntax(POKER.format("blinds: 1 jeton"))
    assert err.hint == "write 'chip' instead of 'jeton' (write it blinds: 1 chip)"


def test_a_line_ended_too_early_points_at_its_end_and_offers_the_whole_line() -> None:
    text = SESSION.format("seating: redrawn")
    err = _syntax(text)
    assert err.span is not None
    assert (err.span.line, err.span.column) == (4, 21)  # just after 'redrawn'
    assert err.message == "the line ends too early; expected \"each\""
    assert err.hint == "write it seating: redrawn each deal"
    fixed = _applied(text, err.edits)
    assert "    seating: redrawn each deal\n" in fixed
    parse(fixed, "t.boodle")


@pytest.mark.parametrize(("line", "fixed"), [
    ("bets: up to 0 chips", "bets: up to 1 chip"),  # the cap kept: 'up to' is not dropped
    ("bets: 0 chips", "bets: 1 chip"),
])
def test_a_bet_of_0_is_rewritten_to_1_chip_keeping_its_limit(line: str, fixed: str) -> None:
    text = POKER.format(line)
    err = _built(text)
    assert err.message == "a bet of 0 chips is a check, not a bet"
    assert err.hint == (f"write: {fixed}  (a bet is at least 1 chip; or remove the line: "
                        "no betting)")
    assert f"    {fixed}\n" in _applied(text, err.edits)
    load_text(_applied(text, err.edits), "t.boodle")


def test_a_line_written_twice_in_an_extending_file_is_deleted_once() -> None:
    text = POKER.format("bets: up to 4 chips\n    bets: up to 4 chips")
    err = _built(text)
    assert err.message == "'bets' is written twice in phase poker"
    assert err.hint == "the line is written twice: delete one of the two"
    assert "base variant" not in err.hint  # it is the extending file already
    fixed = _applied(text, err.edits)
    assert fixed == POKER.format("bets: up to 4 chips")
    load_text(fixed, "t.boodle")


def test_a_misspelt_phase_name_over_the_base_says_did_you_mean_it() -> None:
    # tripoley-as-sold's phases: hearts (holding), poker (poker), play (stops)
    text = POKER.format("bets: up to 4 chips").replace('phase poker "Poker" is', "phase pokr is")
    err = _built(text)
    assert err.message == "the base has no phase pokr: did you mean poker?"
    assert err.span is not None and (err.span.line, err.span.column) == (3, 9)
    assert err.hint is not None and err.hint.startswith("did you mean poker?")
    fixed = _applied(text, err.edits)
    assert "  phase poker is poker {\n" in fixed
    assert load_text(fixed, "t.boodle").name == "t"


def test_a_phase_of_its_own_named_after_the_base_phase_is_not_a_misspelling() -> None:
    text = POKER.format("bets: up to 4 chips").replace('phase poker "Poker" is', "phase poker2 is")
    assert _built(text).message == "poker phase poker2 names no pot"
