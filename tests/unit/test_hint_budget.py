"""The repair-hint search is bounded by what it reparses (issue 20, item 11).

A 256 KiB rules file with a syntax error at its end took 45 s of CPU finding a hint: each
edit the search tries is a reparse of everything before the error.  The search may reparse
:data:`~boodle.language.syntax_repairs.REPARSE_BUDGET` characters in all (a count, not a
time, so the hint does not depend on the machine's load); past it the error keeps its plain
hint.  A file of ordinary size keeps its repair hint.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from boodle.language import syntax_errors, syntax_repairs
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.grammar import MAX_SOURCE_BYTES

ROOT = Path(__file__).resolve().parents[2]
BAD = "  phase x is holding { pays: A♥ K♥ Q♥ J♥\n  }\n}\n"
"""A holding phase whose list lacks its commas, at the end of the file: the search tries a
comma before each card (a reparse each), then other edits."""


def _rules(sets: int) -> str:
    """Michigan's rules file with ``sets`` more board sections, ``BAD`` at its end."""
    text = (ROOT / "spec" / "variants" / "michigan.boodle").read_text(encoding="utf-8")
    board = re.search(r"board \{[^\n]*\n", text)
    assert board is not None
    more = "".join(f"    set s{k} \"S\" K Q same suit\n" for k in range(sets))
    text = text[:board.end()] + more + text[board.end():]
    return text.rstrip()[:-1] + BAD  # the variant's closing '}' moved after the bad phase


class _Counting:
    """Stands for :func:`boodle.language.grammar.parser` in the hint search: counts the
    characters it is given to parse."""

    def __init__(self, real: Any) -> None:
        self.real, self.chars = real, 0

    def __call__(self, start: str = "start") -> Any:
        lark = self.real(start)
        outer = self

        class Parser:
            terminals = lark.terminals

            def parse(self, text: str) -> Any:
                outer.chars += len(text)
                return lark.parse(text)

            def parse_interactive(self, text: str) -> Any:
                outer.chars += len(text)
                return lark.parse_interactive(text)

        return Parser()


def _error(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[BoodleError, int]:
    counting = _Counting(syntax_repairs.parser)
    monkeypatch.setattr(syntax_repairs, "parser", counting)
    monkeypatch.setattr(syntax_errors, "parser", counting)
    with pytest.raises(BoodleError) as err:
        load_text(text, "big.boodle")
    return err.value, counting.chars


def test_a_large_file_gets_the_plain_hint_within_the_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = _rules(8100)
    size = len(text.encode("utf-8"))
    assert MAX_SOURCE_BYTES - 20_000 < size <= MAX_SOURCE_BYTES  # as large as a file may be
    err, chars = _error(text, monkeypatch)
    line = text.count("\n", 0, text.index("pays: A♥ K♥")) + 1
    assert err.span is not None
    assert (err.span.line, err.span.column) == (line, 33)  # at K♥, where a ',' is missing
    assert err.message.startswith("unexpected 'K♥'; expected \",\"")
    assert err.hint == ("a line of phase x (holding) starts with one of: pays, split; "
                        "or close it with '}'")
    # the budget (one file's size), plus the parses that are not edits (what the parser
    # takes at the error, the search's first comma probe): before, 15 reparses of the file
    assert chars <= 4 * MAX_SOURCE_BYTES


def test_a_file_of_ordinary_size_keeps_its_repair_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    err, chars = _error(_rules(0), monkeypatch)
    assert err.hint is not None and err.hint.startswith(
        "separate the items with ',': add one before 'K♥' and before each item after it")
    assert chars < MAX_SOURCE_BYTES
