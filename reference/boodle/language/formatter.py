"""``boodle fmt``: the canonical layout of a rules file, its words and comments kept.

Formatting changes only the space between the words of a file, never a word, its order or
a comment's text, so the file means what it meant (checked: the formatted text parses to the
same syntax tree, or :func:`format_text` raises ``AssertionError`` and nothing is written).
The layout is the printer's (:mod:`boodle.language.printer`, which writes a ruleset already
laid out so):

- one rule a line: every item of the variant, every line of a block and every rule of a
  phase starts a line of its own, indented two spaces a level;
- ``{`` ends the line of its block's head; ``}`` stands on a line of its own, at the head's
  level; an empty block is ``{}`` on the head's line;
- one space between words; none before a ``,`` or a ``:``, one after;
- blank lines: where the file had one or more between two lines, one is kept; none at the
  start or the end of a block or of the file;
- comments (spec §11.1: ``#`` to the end of the line):

  - a comment after code on its line stays at the end of that code's line (the line of the
    word before it); the comments of consecutive lines at one level are aligned two spaces
    after the longest of their code;
  - a comment on a line of its own belongs to the line after it: it is written on its own
    line just before it, at its level (at the end of a block, at the level of the block's
    lines);
  - a rule broken over several lines by a comment stays broken there, the rest of the rule
    indented one level more;
- the text ends with one newline; a byte order mark is dropped and line ends are ``\\n``.

:func:`format_text` is what a language server calls to format a document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from boodle.language.grammar import BOM
from boodle.language.printer import Line, render
from boodle.language.syntax import Clause, PhaseDecl, VariantDecl, parse

__all__ = ["format_file", "format_text"]

_TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|[{}:,]|[^ \t\f\r\n{}:,"#]+')
"""A word of a rules file that has parsed: a string, a comment, a brace or a mark, or a run
of other characters up to a space, a mark, a quote or ``#`` (the grammar's words)."""

_GLUED = frozenset({",", ":"})
"""Marks written right after the word before them."""


@dataclass(frozen=True)
class _Token:
    text: str
    line: int
    column: int


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    line, line_start = 1, 0
    for match in _TOKEN.finditer(text):
        start = match.start()
        newlines = text.count("\n", line_start, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", 0, start) + 1
        out.append(_Token(match.group(), line, start - line_start + 1))
    return out


def _line_starts(decl: VariantDecl) -> set[tuple[int, int]]:
    """Where each line of the canonical layout starts: the variant's head, its items, the
    lines of its blocks (an item whose value is clauses) and the rules of its phases."""
    starts = {(decl.span.line, decl.span.column)}
    for item in decl.items:
        starts.add((item.span.line, item.span.column))
        inner: tuple[Clause, ...] = ()
        if isinstance(item.value, PhaseDecl):
            inner = item.value.rules
        elif isinstance(item.value, tuple) and all(isinstance(v, Clause) for v in item.value):
            inner = item.value
        starts |= {(c.span.line, c.span.column) for c in inner}
    return starts


@dataclass
class _Out:
    depth: int
    words: list[str]
    comment: str | None = None
    blank_before: bool = False

    def code(self) -> str:
        text = ""
        for word in self.words:
            text += word if not text or word in _GLUED else f" {word}"
        return text


def _layout(text: str, decl: VariantDecl) -> list[Line]:
    starts = _line_starts(decl)
    tokens = _tokens(text)
    out: list[_Out] = []
    depth = 0
    open_line = False  # the next word may join the last line
    previous: _Token | None = None
    for i, tok in enumerate(tokens):
        blank = previous is not None and tok.line > previous.line + 1
        if tok.text.startswith("#"):
            comment = tok.text.rstrip()
            if previous is not None and tok.line == previous.line and out \
                    and out[-1].comment is None:
                out[-1].comment = comment
            else:
                out.append(_Out(depth, [], comment, blank))
            open_line = False
        elif tok.text == "}":
            out.append(_Out(depth - 1, ["}"]))
            depth -= 1
            open_line = False
        elif tok.text == "{":
            # '{' ends its head's line, before the comments written between them, which
            # then belong to the block's first line
            head = max(k for k, item in enumerate(out) if item.words)
            following = tokens[i + 1] if i + 1 < len(tokens) else None
            if following is not None and following.text == "}":
                out[head].words.append("{}")
                previous = tok = following
                tokens[i + 1] = _Token("", tok.line, tok.column)  # consumed
                open_line = False
                continue
            out[head].words.append("{")
            depth += 1
            for item in out[head + 1:]:
                item.depth = depth
            open_line = False
        elif not tok.text:
            continue  # a '}' consumed by its empty block
        elif open_line and (tok.line, tok.column) not in starts:
            out[-1].words.append(tok.text)
        else:
            cont = (tok.line, tok.column) not in starts and bool(out)
            out.append(_Out(depth + cont, [tok.text], None, blank))
            open_line = True
        previous = tok
    return _lines(out)


def _lines(out: list[_Out]) -> list[Line]:
    """Blank lines where kept (none after a ``{``, before a ``}`` or at the start), and the
    trailing comments of consecutive lines at one level aligned."""
    lines: list[Line] = []
    for i, item in enumerate(out):
        after_open = i == 0 or out[i - 1].code().endswith("{")
        closes = item.words == ["}"]
        if item.blank_before and not after_open and not closes:
            lines.append(Line(0, ""))
        lines.append(Line(item.depth, item.code(), item.comment))
    return _align(lines)


def _align(lines: list[Line]) -> list[Line]:
    out = list(lines)
    i = 0
    while i < len(out):
        if out[i].comment is None or not out[i].code:
            i += 1
            continue
        j = i
        while j < len(out) and out[j].comment is not None and out[j].code \
                and out[j].depth == out[i].depth:
            j += 1
        width = max(len(line.code) for line in out[i:j]) + len(_indent(out[i].depth))
        for k in range(i, j):
            out[k] = Line(out[k].depth, out[k].code, out[k].comment, width)
        i = j
    return out


def _indent(depth: int) -> str:
    from boodle.language.printer import INDENT

    return INDENT * depth


def format_text(text: str, file: str = "<string>") -> str:
    """The canonical layout of the rules file ``text`` (read from ``file``, which names it
    in errors and whose folder ``extends`` searches first, as ``boodle check``'s does).

    Raises :class:`~boodle.language.errors.BoodleError`, with every located error ``boodle
    check`` reports, for a text that does not load (syntax, ``extends``, the builder's
    checks): a file with errors is never formatted.  Raises ``AssertionError`` if the layout
    would change what the file says (a bug: it is never written).
    """
    from boodle.language.build import load_text

    text = text.removeprefix(BOM)
    load_text(text, file)
    decl = parse(text, file)
    formatted = render(_layout(text, decl))
    again = parse(formatted, file)
    if again != decl or again.name != decl.name or again.base != decl.base:
        raise AssertionError(f"formatting {file} would change what it says")
    return formatted


def format_file(path: str | Path) -> tuple[str, str]:
    """``(text as read, formatted text)`` of the rules file at ``path``.

    Raises :class:`~boodle.language.errors.BoodleError` as ``boodle check`` does for a
    file that cannot be read or does not load (:func:`format_text`).
    """
    from boodle.language.build import read_rules_file

    p = Path(path)
    text = read_rules_file(p)
    return text, format_text(text, str(p))
