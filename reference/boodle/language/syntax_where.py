"""Where the parser stopped in a rules file: the blocks open there and the keywords it reads.

The ground :mod:`boodle.language.syntax_errors` (the message and hint for a syntax
error) and :mod:`boodle.language.syntax_repairs` (the trial edits that find a hint)
stand on: the grammar's terminals as a rules author writes them, the
``{ … }`` blocks open at an offset and what may start a line of each, and
offsets by line and column (only ``\\n`` ends a line, spec §11.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from boodle.language.grammar import CURRENT_TEXT, parser

_FRIENDLY = {
    "CARD": "a card such as 7♦ or 10♥",
    "RANK": "a rank (2-10, J, Q, K or A)",
    "SUIT": "a suit (♣ ♦ ♥ ♠, or C D H S)",
    "NAME": "a name such as kitty",
    "STRING": 'a quoted label such as "Kitty"',
    "INT": "a number",
    "$END": "the end of the file",
    "<END-OF-FILE>": "the end of the file",
}


def terminal_text(name: str) -> tuple[str, str | None]:
    """A readable name for terminal ``name`` and its keyword text, if it is one."""
    if name in _FRIENDLY:
        return _FRIENDLY[name], None
    for term in parser().terminals:
        if term.name == name:
            if term.pattern.type == "str":
                return f'"{term.pattern.value}"', term.pattern.value
            alts = re.findall(r"[a-z ]+", term.pattern.value)
            return " or ".join(f'"{alt}"' for alt in alts) or name.lower(), None
    return name.lower(), None


def words_of(name: str) -> list[str]:
    """The words terminal ``name`` matches when it is a keyword or a choice of keywords
    (``DIRECTION``: left, right); none for a card, a number, a name …"""
    if name in _FRIENDLY:
        return []
    for term in parser().terminals:
        if term.name == name:
            if term.pattern.type == "str":
                return [term.pattern.value]
            if re.fullmatch(r"\(\?:[a-z|]+\)|[a-z]+", term.pattern.value):
                return re.findall(r"[a-z]+", term.pattern.value)
    return []


def grammar_keywords() -> list[str]:
    return [
        term.pattern.value
        for term in parser().terminals
        if term.pattern.type == "str" and term.pattern.value.isalpha()
    ]


def at_file_end(exc: UnexpectedInput) -> bool:
    if isinstance(exc, UnexpectedEOF):
        return True
    return isinstance(exc, UnexpectedToken) and exc.token.type == "$END"



_BLOCK_PREFIX = {
    "variant": "variant v {",
    "deck": "variant v { deck {",
    "board": "variant v { board {",
    "ante": "variant v { ante {",
    "deal": "variant v { deal {",
    "widow sale": "variant v { widow sale {",
    "stops phase": "variant v { phase p is stops {",
    "holding phase": "variant v { phase p is holding {",
    "poker phase": "variant v { phase p is poker {",
    "session": "variant v { session {",
}
"""Each kind of block, as a text that opens it (to ask the parser what may start a line)."""


@dataclass(frozen=True)
class Block:
    """A ``{`` not yet closed where the error is: what opened it (``kind``, a key of
    :data:`_BLOCK_PREFIX` or ``"block"``), its header as written, and where."""

    kind: str
    header: str
    line: int
    indent: int = 0

    def named(self) -> str:
        """``the deal block``, ``phase play (stops)``, ``the variant block``."""
        if self.kind.endswith(" phase"):
            words = self.header.split()
            name = words[1] if len(words) > 1 else "?"
            return f"phase {name} ({self.kind.removesuffix(' phase')})"
        return f"the {self.kind} block"


BRACES = re.compile(r'#[^\n]*|"[^"\n]*"?|[{}]|\n')


def open_blocks(text: str, end: int) -> list[Block]:
    """The blocks opened and not closed before offset ``end``, outermost first (comments and
    labels skipped)."""
    return scan_blocks(text, end)[0]


def scan_blocks(text: str, end: int) -> tuple[list[Block], list[tuple[Block, int]]]:
    """:func:`open_blocks`, and each block closed by a ``}`` that starts its line left of
    the block's own indentation, with that ``}``'s line: the ``}`` of an outer block,
    likely, the block's own being missing."""
    stack: list[Block] = []
    early: list[tuple[Block, int]] = []
    since = 0  # where the text since the last brace starts
    for m in BRACES.finditer(text, 0, end):
        brace = m.group()
        if brace == "}":
            if stack:
                block = stack.pop()
                begin = text.rfind("\n", 0, m.start()) + 1
                if not text[begin:m.start()].strip(" \t") and m.start() - begin < block.indent:
                    early.append((block, text.count("\n", 0, m.start()) + 1))
            since = m.end()
        elif brace == "{":
            before = re.sub(r"#[^\n]*", "", text[since:m.start()])
            lines = [ln.strip() for ln in before.split("\n") if ln.strip()]
            header = " ".join(lines[-1].split()) if lines else ""
            opener = before.rstrip().rsplit("\n", 1)[-1] if before.strip() else ""
            indent = len(opener) - len(opener.lstrip(" \t"))
            if "\n" not in text[since:m.start()] and since > 0:
                begin = text.rfind("\n", 0, m.start()) + 1
                line_text = text[begin:m.start()]
                indent = len(line_text) - len(line_text.lstrip(" \t"))
            stack.append(Block(_block_kind(header), header,
                                text.count("\n", 0, m.start()) + 1, indent))
            since = m.end()
    return stack, early


def _block_kind(header: str) -> str:
    if re.match(r"variant\b", header):
        return "variant"
    phase = re.search(r"\bis (stops|holding|poker)$", header)
    if phase:
        return f"{phase.group(1)} phase"
    if re.fullmatch(r"widow sale", header):
        return "widow sale"
    return header if header in _BLOCK_PREFIX else "block"


@cache
def line_starts(kind: str) -> frozenset[str]:
    """The terminals a line of a ``kind`` block may start with (``}`` aside)."""
    prefix = _BLOCK_PREFIX.get(kind)
    if prefix is None:
        return frozenset()
    token = CURRENT_TEXT.set(prefix)
    try:
        probe = parser().parse_interactive(prefix)
        probe.exhaust_lexer()
        return frozenset(shiftable(probe)) - {"RBRACE"}
    finally:
        CURRENT_TEXT.reset(token)


def shiftable(probe: Any) -> set[str]:
    """The terminals Lark's interactive parser ``probe`` can shift next (its ``accepts``,
    which Lark leaves untyped)."""
    return set(probe.accepts())


def line_start_words(kind: str) -> list[str]:
    return sorted(w for name in line_starts(kind) for w in words_of(name))


def blocks_starting(word: str) -> list[str]:
    """The kinds of block a line may start with keyword ``word`` in."""
    return [kind for kind in _BLOCK_PREFIX if word in line_start_words(kind)]


def as_block(kind: str) -> str:
    """``a deal { … } block``, ``a stops phase``."""
    if kind.endswith(" phase"):
        return f"a {kind} (phase NAME is {kind.removesuffix(' phase')} {{ … }})"
    if kind == "variant":
        return "the variant block (outside the other blocks)"
    article = "an" if kind[0] in "aeiou" else "a"
    return f"{article} {kind} {{ … }} block"




def offset_of(text: str, line: int, column: int) -> int:
    """The offset of (line, column) in ``text`` (lines end at ``\\n`` only)."""
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    return starts[min(line, len(starts)) - 1] + column - 1


def lines_of(text: str) -> list[str]:
    """The lines as the lexer counts them: only ``\\n`` ends a line (spec §11.1)."""
    return [line.removesuffix("\r") for line in text.split("\n")]
