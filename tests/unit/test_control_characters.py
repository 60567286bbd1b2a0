"""A control character anywhere in a rules file is an error (spec §11.1), strings included.

Printed raw by ``boodle check`` (``changes from …: title: "…"``) or ``boodle play``, a control
character in a string would drive the terminal (``ESC [31m`` turns the output red).  Positions
are counted by hand from the texts below (columns from 1, only line feed ends a line).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.build import load_text
from boodle.language.errors import BoodleError

HEAD = "variant house extends michigan {\n"


def _error(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, "<test>")
    return info.value


@pytest.mark.parametrize(("line", "where", "message", "hint"), [
    # '  title "nul' is 12 characters: the NUL is column 13
    ('  title "nul\x00byte"', (2, 13), "control character U+0000 (NULL) in a string",
     "delete it"),
    ('  title "esc\x1b[31mRED\x1b[0m"', (2, 13), "control character U+001B (ESCAPE) in a string",
     "delete it"),
    # DEL and a C1 control (CSI, which some terminals take as ESC [)
    ('  about "a\x7fb"', (2, 11), "control character U+007F (DELETE) in a string", "delete it"),
    ('  about "a\x9b31mb"', (2, 11), "control character U+009B in a string", "delete it"),
    # a tab, whitespace between words, is a control character inside a string: one line that prints
    ('  title "a\tb"', (2, 11), "control character U+0009 (CHARACTER TABULATION) in a string",
     "write a space instead"),
    # a carriage return alone, mid-string (it would overwrite the line on a terminal)
    ('  title "ab\rcd"', (2, 12), "control character U+000D (CARRIAGE RETURN) in a string",
     "delete it"),
    # in a comment: '  # x' then BEL at column 6
    ("  # x\x07y", (2, 6), "control character U+0007 (BELL) in a comment", "delete it"),
    # a '"' in a comment opens no string, a '#' in a string opens no comment
    ('  # "\x1b', (2, 6), "control character U+001B (ESCAPE) in a comment", "delete it"),
    ('  title "#\x1b"', (2, 11), "control character U+001B (ESCAPE) in a string", "delete it"),
    # between words: a form feed (which the lexer once took as a space) and a BEL
    ("  title\x0c\"x\"", (2, 8), "unexpected character U+000C (FORM FEED)", "invisible"),
    ("  title \x07\"x\"", (2, 9), "unexpected character U+0007 (BELL)", "invisible"),
])
def test_a_control_character_is_named_at_its_place(
        line: str, where: tuple[int, int], message: str, hint: str) -> None:
    err = _error(HEAD + line + "\n}\n")
    assert err.span is not None and (err.span.line, err.span.column) == where
    assert err.message == message
    assert err.hint is not None and hint in err.hint
    # the quoted line cannot drive a terminal: no control character but line breaks and tabs
    rendered = err.render()
    assert not any(ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) < 0xA0 for c in rendered)


def test_the_first_control_character_is_the_one_reported() -> None:
    # a BEL between words on line 2 comes before the ESC in the string of line 3
    err = _error(HEAD + '  about \x07"a"\n  title "\x1b"\n}\n')
    assert err.span is not None and (err.span.line, err.span.column) == (2, 9)
    err = _error(HEAD + '  title "\x1b"\n  about \x07"a"\n}\n')
    assert err.span is not None and (err.span.line, err.span.column) == (2, 10)


def test_tabs_and_crlf_line_ends_outside_strings_are_whitespace() -> None:
    text = HEAD.replace("\n", "\r\n") + '\ttitle\t"Tabs"  # a\tcomment\r\n}\r\n'
    assert load_text(text, "<test>").title == "Tabs"


def test_the_caret_stays_under_the_character_in_the_shown_line() -> None:
    err = _error(HEAD + '  title "esc\x1b[31mRED"\n}\n')
    shown, caret = err.render().splitlines()[1:3]
    assert shown == '     2 |   title "esc\u241b[31mRED"'
    assert caret.index("^") == shown.index("\u241b")


def test_boodle_check_refuses_it_and_prints_no_escape(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "red.boodle"
    path.write_bytes((HEAD + '  title "esc\x1b[31mRED\x1b[0m"\n}\n').encode("utf-8"))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr()
    assert "\x1b" not in out.out + out.err
    assert f"{path}:2:13: error: control character U+001B (ESCAPE) in a string" in out.out + out.err
