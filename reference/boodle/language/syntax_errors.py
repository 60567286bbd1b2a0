"""What to say when the parser stops: message, caret and hint for a rules file's syntax error.

Every syntax error names the file, line and column, shows the line with a
caret, and gives a hint (spec §11.1; DEVELOPERS.md "Errors are part of the
product"): what may come at that point, in words a rules author knows; and,
where a small edit lets the parser read on past the next line (a misspelt
keyword, a missing ``:``, ``{`` or ``}``, a stray word or mark), that edit.
Text-level faults (an invisible character, an empty file, a keyword glued to
a word, a number too large) are found here too.  The parser is
:func:`boodle.language.grammar.parser`; :mod:`boodle.language.syntax` calls in here.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from boodle.language.errors import BoodleError, Span, did_you_mean
from boodle.language.grammar import (
    BOM,
    CURRENT_TEXT,
    EMOJI_STYLE,
    MAX_NUMBER,
    MAX_SOURCE_BYTES,
    GluedKeyword,
    TooLarge,
    parser,
    token_span,
)


def _shows(char: str) -> bool:
    """Whether ``char`` prints as something a reader can see (a variation selector does not)."""
    return char.isprintable() and not 0xFE00 <= ord(char) <= 0xFE0F


# The names of the C0 control characters and DEL, which unicodedata.name does not know
# (they are aliases in the Unicode database, not names).
_CONTROL_NAMES = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION",
    "ENQUIRY", "ACKNOWLEDGE", "BELL", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED",
    "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
    "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE",
    "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
    "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE", "INFORMATION SEPARATOR TWO",
    "INFORMATION SEPARATOR ONE",
)


def _char_name(char: str) -> str:
    """The Unicode name of one character, the control characters' aliases included
    (``ESCAPE`` for U+001B, ``DELETE`` for U+007F); empty if it has none (a C1 control)."""
    if ord(char) < 0x20:
        return _CONTROL_NAMES[ord(char)]
    if char == "\x7f":
        return "DELETE"
    return unicodedata.name(char, "")


def _visible(word: str) -> str:
    """``word`` quoted, or, if it holds a character that does not print (a byte order mark,
    a zero-width space, a control character, a no-break space), named by its code point:
    ``character U+FEFF (ZERO WIDTH NO-BREAK SPACE)``, ``character U+001B (ESCAPE)``."""
    if all(_shows(c) for c in word):
        return f"'{word}'"
    if len(word) == 1:
        name = _char_name(word)
        return f"character U+{ord(word):04X}" + (f" ({name})" if name else "")
    shown = "".join(c if _shows(c) else f"<U+{ord(c):04X}>" for c in word)
    return f"'{shown}'"


def _invisible_after(text: str, line: int, column: int) -> str | None:
    """A hint naming an invisible character at ``column`` that ended the word before it
    (``abo\u200but``: the lexer sees ``abo``)."""
    lines = _lines(text)
    rest = lines[line - 1][column - 1:] if 0 < line <= len(lines) else ""
    if rest and rest[0] not in " \t" and not _shows(rest[0]):
        return f"delete the invisible {_visible(rest[0])} after the word"
    return None


def _invisible_hint(word: str) -> str | None:
    """What to do about an unexpected character that does not print."""
    if word == BOM:
        return ("a byte order mark is allowed only as the file's first character; "
                "delete this one (it is invisible in most editors)")
    if len(word) == 1 and unicodedata.category(word) == "Zs":
        return "write a plain space instead"
    if word and not all(_shows(c) for c in word):
        if EMOJI_STYLE in word:
            return ("U+FE0F (emoji style) is allowed only right after a suit symbol, as in A♥️; "
                    "delete this one (it is invisible in most editors)")
        return "delete the invisible character, or retype the line"
    return None

_SURROGATE = re.compile("[\ud800-\udfff]")
# Control characters (spec §11.1): C0 but tab, line feed and carriage return, DEL, C1 ...
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# ... and inside a string, where a string is one line of text that prints, all of C0.
_CONTROL_IN_STRING = re.compile("[\x00-\x1f\x7f-\x9f]")
# A string or a comment, as the lexer reads them (grammar/boodle.lark STRING, COMMENT):
# scanned left to right, a '"' inside a comment and a '#' inside a string are theirs.
_STRING_OR_COMMENT = re.compile('"[^"\n]*"|#[^\n]*')


def _first_control(text: str) -> tuple[int, str] | None:
    """The offset of the first control character of ``text`` and where it is
    (``"string"``, ``"comment"`` or ``""``), or ``None``.  Tab, line feed and carriage
    return are whitespace outside strings; inside a string every control character counts."""
    loose = _CONTROL.search(text)
    first = (loose.start(), "") if loose else None
    for found in _STRING_OR_COMMENT.finditer(text):
        if first is not None and found.start() > first[0]:
            break
        where = "string" if found.group().startswith('"') else "comment"
        pattern = _CONTROL_IN_STRING if where == "string" else _CONTROL
        bad = pattern.search(text, found.start(), found.end())
        if bad is not None:
            return bad.start(), where
    return first


def _check_controls(text: str, file: str) -> None:
    """Refuse a control character anywhere in ``text`` (spec §11.1), strings and comments
    included: printed raw by ``boodle check`` or ``play`` it would drive the terminal
    (``ESC [31m`` turns the text red).  The error names it by code point."""
    found = _first_control(text)
    if found is None:
        return
    at, where = found
    char = text[at]
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    span = Span(file, line, column, line, column + 1, text)
    if where:
        message = f"control {_visible(char)} in a {where}"
        hint = ("write a space instead: a string is one line of characters that print"
                if char == "\t" else
                f"delete it: a {where} holds only characters that print "
                "(it is invisible in most editors)")
    else:
        message = f"unexpected {_visible(char)}"
        hint = "delete the invisible character, or retype the line"
    raise BoodleError(message, span, hint=hint)


def check_text(text: str, file: str) -> None:
    """Refuse, before parsing, a text over :data:`MAX_SOURCE_BYTES`, one that is not
    valid Unicode (a lone surrogate, which only a ``str`` built in memory can hold), or one
    holding a control character (spec §11.1), inside a string or a comment too.

    Raises :class:`BoodleError` with the line, column and a hint."""
    bad = _SURROGATE.search(text)
    if bad is not None:
        clean = _SURROGATE.sub("\ufffd", text)
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise BoodleError(
            f"character U+{ord(bad.group()):04X} is not valid text (a lone surrogate)",
            Span(file, line, column, line, column + 1, clean),
            hint="rules files are UTF-8 text",
        )
    if len(text.encode("utf-8")) > MAX_SOURCE_BYTES:
        raise BoodleError(
            f"rules file is larger than {MAX_SOURCE_BYTES // 1024} KiB",
            Span(file, 1, 1, 1, 2, text),
            hint="a variant is a few hundred lines at most; split house rules into files",
        )
    _check_controls(text, file)


def check_not_empty(text: str, file: str) -> None:
    """Refuse a file with no variant in it (empty, or only comments and blank lines) with
    the error at line 1, column 1 and the hint of what a rules file starts with."""
    if re.sub(r"#[^\n]*", "", text).strip():
        return
    what = "is empty" if not text.strip() else "holds only comments and blank lines"
    raise BoodleError(f"the rules file {what}: it has no variant", Span(file, 1, 1, 1, 2, text),
                      hint=RULES_FILE_START)


def too_large_error(token: Token, text: str, file: str) -> BoodleError:
    span = token_span(token, file, text)
    return BoodleError(
        f"the number {_shorten(str(token).lstrip('0') or '0')} is too large",  # its value
        span,
        hint=f"numbers are at most {MAX_NUMBER:,}; chip amounts at most 1,000,000",
    )


def _shorten(word: str, width: int = 24) -> str:
    return word if len(word) <= width else word[: width - 1] + "…"


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

_NAME_AFTER = {
    "variant": "the variant's name (lower case, such as my-house-rules)",
    "extends": "the name of the variant it extends, such as michigan",
    "phase": "the phase's name (lower case, such as play)",
    "in": "a phase's name",
    "of": "a phase's name",
}
"""What a NAME is, by the keyword before it, where only a name can follow."""


def _terminal_text(name: str) -> tuple[str, str | None]:
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


def _words_of(name: str) -> list[str]:
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


def _keywords() -> list[str]:
    return [
        term.pattern.value
        for term in parser().terminals
        if term.pattern.type == "str" and term.pattern.value.isalpha()
    ]


def glued_error(token: Token, text: str, file: str, start: str = "start") -> BoodleError:
    line, column = token.line or 1, token.column or 1
    word = _word_at(text, line, column)
    span = Span(file, line, column, line, column + len(word), text)
    hint = (_spelling_hint(word, text, line, column)
            or _within_budget(lambda: _two_words(word, text, _offset(text, line, column), start))
            or did_you_mean(word, _keywords()) or f"write '{token}' as a word of its own")
    return BoodleError(f"unexpected {_visible(word)}", span, hint=hint)


def _two_words(word: str, text: str, at: int, start: str) -> str | None:
    """``write 'same suit' as two words`` for two keywords written as one (``samesuit``), if
    the parser then reads past the next line (``everyone`` is no ``every one``)."""
    keywords = set(_keywords())
    goal = _past_next_line(text, at)
    for cut in range(1, len(word)):
        if word[:cut] in keywords and word[cut:] in keywords:
            split = f"{word[:cut]} {word[cut:]}"
            if _reaches(text[:at] + split + text[at + len(word):], start, goal, 1, at):
                return f"write '{split}' as two words"
    return None


def _at_end(exc: UnexpectedInput) -> bool:
    if isinstance(exc, UnexpectedEOF):
        return True
    return isinstance(exc, UnexpectedToken) and exc.token.type == "$END"


# ---------------------------------------------------------------- where: the open blocks

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
class _Block:
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


_SCAN = re.compile(r'#[^\n]*|"[^"\n]*"?|[{}]|\n')


def _open_blocks(text: str, end: int) -> list[_Block]:
    """The blocks opened and not closed before offset ``end``, outermost first (comments and
    labels skipped)."""
    return _scan_blocks(text, end)[0]


def _scan_blocks(text: str, end: int) -> tuple[list[_Block], list[tuple[_Block, int]]]:
    """:func:`_open_blocks`, and each block closed by a ``}`` that starts its line left of
    the block's own indentation, with that ``}``'s line: the ``}`` of an outer block,
    likely, the block's own being missing."""
    stack: list[_Block] = []
    early: list[tuple[_Block, int]] = []
    since = 0  # where the text since the last brace starts
    for m in _SCAN.finditer(text, 0, end):
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
            stack.append(_Block(_block_kind(header), header,
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
def _line_starts(kind: str) -> frozenset[str]:
    """The terminals a line of a ``kind`` block may start with (``}`` aside)."""
    prefix = _BLOCK_PREFIX.get(kind)
    if prefix is None:
        return frozenset()
    token = CURRENT_TEXT.set(prefix)
    try:
        probe = parser().parse_interactive(prefix)
        probe.exhaust_lexer()
        return frozenset(_accepts(probe)) - {"RBRACE"}
    finally:
        CURRENT_TEXT.reset(token)


def _accepts(probe: Any) -> set[str]:
    """The terminals Lark's interactive parser ``probe`` can shift next (its ``accepts``,
    which Lark leaves untyped)."""
    return set(probe.accepts())


def _line_start_words(kind: str) -> list[str]:
    return sorted(w for name in _line_starts(kind) for w in _words_of(name))


def _blocks_starting(word: str) -> list[str]:
    """The kinds of block a line may start with keyword ``word`` in."""
    return [kind for kind in _BLOCK_PREFIX if word in _line_start_words(kind)]


def _as_block(kind: str) -> str:
    """``a deal { … } block``, ``a stops phase``."""
    if kind.endswith(" phase"):
        return f"a {kind} (phase NAME is {kind.removesuffix(' phase')} {{ … }})"
    if kind == "variant":
        return "the variant block (outside the other blocks)"
    article = "an" if kind[0] in "aeiou" else "a"
    return f"{article} {kind} {{ … }} block"


# ---------------------------------------------------------------- what: expected, found, hint


def _offset(text: str, line: int, column: int) -> int:
    """The offset of (line, column) in ``text`` (lines end at ``\\n`` only)."""
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    return starts[min(line, len(starts)) - 1] + column - 1


REPARSE_BUDGET = MAX_SOURCE_BYTES
"""Characters the search for one error's repair hint may reparse in all: as much as one
file of the largest size (256 KiB): one reparse of such a file, about fifty of a 5 KB one,
ten times what the hints of the test suite take.  Counted, not timed, so a hint does not
depend on the machine's load; past it the search stops and the error keeps its plain hint
(what may come there)."""

_BUDGET: ContextVar[list[int] | None] = ContextVar("_BUDGET", default=None)
"""The characters the running hint search may still reparse (``None``: no search runs)."""


class _OutOfBudget(Exception):
    """The hint search reparsed :data:`REPARSE_BUDGET` characters: give up the hint."""


def _spend(chars: int) -> None:
    """Charge a reparse of ``chars`` characters to the running search's budget."""
    left = _BUDGET.get()
    if left is not None:
        left[0] -= chars
        if left[0] < 0:
            raise _OutOfBudget


def _within_budget(search: Callable[[], str | None]) -> str | None:
    """``search()`` (a hint search that reparses edited texts) with at most
    :data:`REPARSE_BUDGET` characters reparsed; ``None`` once they are spent."""
    token = _BUDGET.set([REPARSE_BUDGET])
    try:
        return search()
    except _OutOfBudget:
        return None
    finally:
        _BUDGET.reset(token)


def _reaches(fixed: str, start: str, goal: int, shift: int, at: int) -> bool:
    """Whether ``fixed`` (the text edited at offset ``at``, ``shift`` characters longer)
    parses past offset ``goal`` of the original text: whether the edit repairs the error.

    Only the text up to the end of the line after ``goal`` is parsed: reaching its end is
    reaching past ``goal``, and a large file costs no more than its part before the error.
    """
    cut = fixed.find("\n", goal + shift + 1)
    if cut >= 0:
        fixed = fixed[:cut]
    _spend(len(fixed))
    token = CURRENT_TEXT.set(fixed)
    try:
        parser(start).parse(fixed)
        return True
    except UnexpectedInput as exc:
        if _at_end(exc):
            where = len(fixed)
        elif exc.line is None or exc.column is None:
            return False
        else:
            where = _offset(fixed, exc.line, exc.column)
    except (GluedKeyword, TooLarge) as exc:
        where = exc.token.start_pos or 0
    finally:
        CURRENT_TEXT.reset(token)
    return where > at and where - shift > goal


def _shown_line(text: str, line: int) -> str:
    """Line ``line`` without its comment and outer spaces (for a hint that quotes it)."""
    lines = _lines(text)
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    return " ".join(re.sub(r'\s#[^"]*$|^#.*$', "", raw).split())


_PUNCTUATION = {"COLON": ":", "COMMA": ",", "LBRACE": "{"}


def syntax_error(exc: UnexpectedInput, text: str, file: str,
                  start: str = "start") -> BoodleError:
    """Lark's error as a :class:`BoodleError`: where (the unexpected word, or the end of the
    last line), what the parser could take there (:func:`_expected_words`) and always a
    hint: a character or spelling habit, else the edit that repairs the line
    (:func:`_repair_hint`, within :data:`REPARSE_BUDGET`), else what may come here
    (:func:`_expected_hint`)."""
    line, column = exc.line, exc.column
    at_end = _at_end(exc)
    if at_end or line is None or line < 1:
        lines = _lines(text)
        while len(lines) > 1 and not lines[-1]:
            lines.pop()
        line, column = len(lines), len(lines[-1]) + 1
    column = column or 1
    word = "" if at_end else _word_at(text, line, column)
    width = max(len(word), 1)
    span = Span(file, line, column, line, column + width, text)
    at = len(text) if at_end else _offset(text, line, column)
    expected = _accepted(exc, text, at, start)
    blocks = _open_blocks(text, at) if start == "start" else []
    found = _visible(word) if word else "end of file"
    message = f"unexpected {found}"
    wanted = _expected_words(expected, blocks, text[:at])
    if wanted:
        message += "; expected " + wanted
    hint = (_invisible_hint(word) or _invisible_after(text, line, column + len(word))
            or _spelling_hint(word, text, line, column)
            or _within_budget(lambda: _repair_hint(exc, text, start, line, column, word,
                                                   expected, blocks))
            or _expected_hint(expected, blocks, word, text[:at], text[at:]))
    return BoodleError(message, span, hint=hint)


def _accepted(exc: UnexpectedInput, text: str, at: int, start: str) -> set[str]:
    """The terminals the parser can take at offset ``at``.

    Lark's own ``expected`` is the lookahead set of an LALR state that many
    contexts share (after a card, it lists words of every block a card ends a
    line in); the interactive parser tries each and keeps those it can
    really shift.  The coarse set is the fallback.
    """
    coarse = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    prefix = text[:at]
    token = CURRENT_TEXT.set(prefix)
    try:
        probe = parser(start).parse_interactive(prefix)
        probe.exhaust_lexer()
        return _accepts(probe) or coarse
    except (UnexpectedInput, GluedKeyword, TooLarge):
        return coarse
    finally:
        CURRENT_TEXT.reset(token)


def _expected_words(expected: set[str], blocks: list[_Block], before: str) -> str:
    """What the parser expected, in a rules author's words: ``a number``, ``":"``, ``a
    card such as A♥ or a name such as kitty``, ``a line of the deal block or "}"``."""
    rest = set(expected)
    parts: list[str] = []
    inner = blocks[-1] if blocks else None
    starts = _line_starts(inner.kind) if inner else frozenset()
    if inner and starts and starts <= rest and "RBRACE" in rest:
        rest -= starts | {"RBRACE"}
        parts += ['"}"', f"a line of {inner.named()}"]
    if {"CARD", "NAME"} <= rest:
        rest -= {"CARD", "NAME"}
        parts.append("a card such as A♥ or a name such as kitty")
    if "NAME" in rest and len(rest) == 1:
        previous = re.search(r"([a-z]+)\s*$", re.sub(r"#[^\n]*", "", before))
        if previous and previous.group(1) in _NAME_AFTER:
            rest.clear()
            parts.append(_NAME_AFTER[previous.group(1)])
    readable = sorted({_terminal_text(name)[0] for name in rest})
    words = readable + parts[::-1]
    if len(words) > 10:
        words = [*words[:10], "…"]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _repair_hint(exc: UnexpectedInput, text: str, start: str, line: int, column: int,
                 word: str, expected: set[str], blocks: list[_Block]) -> str | None:
    """A hint from the edit that lets the parser read past the error's line: a misspelt
    keyword (the closest one the parser expected), a block not closed, a line in the wrong
    block, a missing ``:``, ``,``, ``{`` or keyword, a stray character; ``None`` if no
    simple edit does."""
    if _at_end(exc):
        return _unclosed_at_end(blocks, _scan_blocks(text, len(text))[1])
    at = _offset(text, line, column)
    goal = _past_next_line(text, at)
    inner = blocks[-1] if blocks else None
    if re.fullmatch(r"[A-Za-z][\w-]*", word):
        if (split := _two_words(word, text, at, start)) is not None:
            return split
        keywords = sorted({w for name in expected for w in _words_of(name)})
        close = difflib.get_close_matches(word.lower(), keywords, n=1, cutoff=0.6)
        if close and close[0] != word:
            return f"did you mean {close[0]}?"
        misspelt = _misspelt_before(text, at, start, goal) or (
            _extra_before(text, at, start, goal) if re.search(r"\b(the|an)[ \t]+$", text[:at])
            else None)  # an article is no section name: it goes before a comma goes in
        if misspelt:
            return misspelt
        elsewhere = _blocks_starting(word)
        if elsewhere and inner is not None and inner.kind not in elsewhere \
                and "RBRACE" in expected and _line_start(text, at) == at:
            balance = _balance(text)
            if balance > 0 and any(b.kind in elsewhere for b in blocks[:-1]) \
                    and _reaches(text[:at] + "} " + text[at:], start, goal, 2, at):
                return (f"{inner.named()}, opened at line {inner.line}, is not closed: "
                        f"add '}}' before '{word}'")
            where = " or ".join(_as_block(k) for k in elsewhere)
            if balance < 0:
                return (f"'{word}' starts a line of {where}, not of {inner.named()}: is the "
                        "line that opens that block missing above?")
            if balance == 0:
                return (f"'{word}' starts a line of {where}, not of {inner.named()}: move "
                        "this line there")
            return (f"'{word}' starts a line of {where}, not of {inner.named()}: is the "
                    "line that opens that block missing, or a '}' too many above?")
    if inner is not None and len(blocks) > 1 and _balance(text) > 0:
        first = _line_start(text, at)
        if first < at and _reaches(text[:first] + "} " + text[first:], start, goal, 2, first):
            return (f"{inner.named()}, opened at line {inner.line}, is not closed: add '}}' "
                    "before this line")
    stray = isinstance(exc, UnexpectedCharacters) and bool(word) and not word[0].isalnum() \
        and word[0] not in "\"{}"
    marks = [(name, _PUNCTUATION[name]) for name in sorted(expected) if name in _PUNCTUATION]
    if len(expected) <= 3:  # a missing keyword: one of the few the parser expected
        marks += [(" or ".join(f"'{w}'" for w in words), words[0]) for name in sorted(expected)
                  if (words := _words_of(name)) and name not in _PUNCTUATION]
    first = max(text.rfind("\n", 0, at), text.rfind("{", 0, at)) + 1  # the statement's start
    lead = re.match(r"[ \t]*([a-z]+)", text[first:at])
    keyword = lead.group(1) if lead else ""
    if word == "," and keyword in _keywords():
        fixed = text[:at] + " " + keyword + text[at + 1:]
        if _reaches(fixed, start, goal, len(keyword), at) and _line_complete(fixed, start, at):
            shown = _shown_line(fixed, line)
            example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
            return f"one item per '{keyword}': write '{keyword}' again{example}"
    if word in (":", ",") and _reaches(
            text[:at] + text[at + 1:], start, goal, -1, at - 1):
        fixed = text[:at] + text[at + 1:]
        shown = _shown_line(fixed, line)
        example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
        return f"delete '{word}': there is none here{example}"
    after = _previous_word(text, at)
    for name, mark in marks:
        if stray and mark in ":," and _reaches(text[:at] + mark + text[at + 1:], start, goal,
                                                len(mark) - 1, at):
            return f"write '{mark}' instead of '{word[0]}'"
        if stray:
            continue
        ins = _end_of_previous(text, at)
        added = mark if mark in ":,{" else " " + mark
        fixed = text[:ins] + added + text[ins:]
        commas = 1
        if not _reaches(fixed, start, goal, len(added), ins):
            # a comma is a local edit: it repairs a line that is whole after it, even if the
            # next line has an error of its own; and a list of three items or more lacks a
            # comma after each, where one is not enough.  A word a comma replaces ('A♥ and
            # kitty') is said below.
            if mark != "," or _comma_instead(text, at, word, start, goal):
                continue
            if not _line_complete(fixed, start, ins):
                more = _more_commas(fixed, start, goal, ins)
                if more is None:
                    continue
                fixed, commas = more
        if mark == "{":
            return f"put '{{' after '{after}' to open its block" if after else \
                "put '{' here to open the block"
        shown = _shown_line(fixed, fixed.count("\n", 0, ins) + 1)
        example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
        if mark == ",":
            each = " and before each item after it" if commas > 1 else ""
            return f"separate the items with ',': add one before '{word}'{each}{example}"
        where = f" after '{after}'" if after else ""
        return f"add {name if name.startswith(chr(39)) else repr(mark)}{where}{example}"
    if stray:
        if _reaches(text[:at] + text[at + 1:], start, goal, -1, at - 1):
            return f"delete '{word[0]}': it has no meaning in a rules file"
        return f"'{word[0]}' has no meaning here in a rules file"
    if re.fullmatch(r"[A-Za-z][\w-]*", word):
        end = at + len(word)
        for _, mark in marks:  # 'and' for ','
            fixed = text[:at].rstrip(" \t") + mark + text[end:]
            if mark in ":," and _reaches(fixed, start, goal, len(fixed) - len(text), at) \
                    and _line_complete(fixed, start, at):
                return f"write '{mark}' instead of '{word}'"
        extra = _extra_before(text, at, start, goal)
        if extra:
            return extra
        if "STRING" in expected:
            fixed = text[:at] + f'"{word}"' + text[end:]
            if _reaches(fixed, start, goal, 2, at) and _line_complete(fixed, start, at):
                return f'a label is written in double quotes: "{word}"'
        for label, mark in marks:
            if not mark.isalpha():
                continue
            fixed = text[:at] + mark + text[end:]
            if _reaches(fixed, start, goal, len(mark) - len(word), at) \
                    and _line_complete(fixed, start, at):
                shown = _shown_line(fixed, line)
                example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
                return f"write {label} instead of '{word}'{example}"
        gap = len(text[end:]) - len(text[end:].lstrip(" \t"))
        fixed = text[:at] + text[end + gap:]
        if _reaches(fixed, start, goal, -len(word) - gap, at - 1) \
                and _line_complete(fixed, start, at):
            shown = _shown_line(fixed, line)
            example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
            return f"delete '{word}': it has no place here{example}"
    return None


def _comma_instead(text: str, at: int, word: str, start: str, goal: int) -> bool:
    """Whether ``word`` (at offset ``at``) is a word to write ',' instead of ('A♥ and
    kitty'): the line is whole and the parser reads on with the comma in its place."""
    if not re.fullmatch(r"[A-Za-z][\w-]*", word):
        return False
    fixed = text[:at].rstrip(" \t") + "," + text[at + len(word):]
    return _reaches(fixed, start, goal, len(fixed) - len(text), at) \
        and _line_complete(fixed, start, at)


def _commas_repair(fixed: str, start: str, goal: int, commas: int, ins: int) -> bool:
    """Whether ``fixed`` (``commas`` commas added from offset ``ins`` on) repairs the error:
    the parser reads past ``goal``, or the edited line is a whole line.  A comma is a
    local edit: an error of its own on the next line does not make it wrong."""
    return _reaches(fixed, start, goal, commas, ins) or _line_complete(fixed, start, ins)


_MAX_COMMAS = 16  # commas :func:`_more_commas` adds at most, the first included


def _more_commas(fixed: str, start: str, goal: int, ins: int) -> tuple[str, int] | None:
    """``fixed`` (a comma added at offset ``ins`` of the original text) with a comma added
    before each later item of the same line the parser stops at wanting one (``remove 2♣ 3♣
    4♣``), and how many commas that makes, if that repairs the error
    (:func:`_commas_repair`); else ``None``."""
    commas = 1
    line_end = fixed.find("\n", ins)
    line_end = len(fixed) if line_end < 0 else line_end
    at = ins
    while commas < _MAX_COMMAS:  # each try parses the text so far: bounded
        token = CURRENT_TEXT.set(fixed[:line_end])
        try:
            parser(start).parse(fixed[:line_end])
            return None  # the line parses whole: the parser stopped at no missing comma
        except UnexpectedToken as exc:
            if "COMMA" not in exc.expected or exc.line is None or exc.column is None:
                return None
            where = _offset(fixed, exc.line, exc.column)
        except (UnexpectedInput, GluedKeyword, TooLarge):
            return None
        finally:
            CURRENT_TEXT.reset(token)
        if not at < where < line_end:
            return None
        at = _end_of_previous(fixed, where)
        fixed = fixed[:at] + "," + fixed[at:]
        commas += 1
        line_end += 1
        if _commas_repair(fixed, start, goal, commas, ins):
            return fixed, commas
    return None


def _line_complete(fixed: str, start: str, at: int) -> bool:
    """Whether the line of offset ``at`` in ``fixed`` parses and ends where a line may end
    (the parser could take a ``}`` next): an edit that deletes a word must leave a whole
    line, not one the next line would continue (``boodle KX`` is not ``boodle``)."""
    end = fixed.find("\n", at)
    prefix = fixed if end < 0 else fixed[:end]
    _spend(len(prefix))
    token = CURRENT_TEXT.set(prefix)
    try:
        probe = parser(start).parse_interactive(prefix)
        probe.exhaust_lexer()
        return bool(_accepts(probe) & {"RBRACE", "$END"})
    except (UnexpectedInput, GluedKeyword, TooLarge):
        return False
    finally:
        CURRENT_TEXT.reset(token)


def _past_next_line(text: str, at: int) -> int:
    """The offset where the line after the one of ``at`` ends (blank and comment lines
    skipped): an edit repairs the error when the parser reads that far.  Past the error's
    own line alone is not enough: an edit that leaves the line unfinished ('title' with its
    label deleted) fails only at the next line's first word."""
    end = text.find("\n", at)
    while end >= 0:
        nxt = text.find("\n", end + 1)
        line = text[end + 1: nxt if nxt >= 0 else len(text)]
        if line.strip() and not line.strip().startswith("#"):
            return nxt if nxt >= 0 else len(text)
        end = nxt
    return len(text)


def _end_of_previous(text: str, at: int) -> int:
    """The offset just after the last word before ``at`` (spaces, line breaks and comments
    between them skipped): where a missing ``:`` or keyword goes."""
    end = at
    while True:
        stripped = text[:end].rstrip()
        line_start = stripped.rfind("\n") + 1
        hash_at = _comment_start(stripped[line_start:])
        if hash_at is None:
            return len(stripped)
        end = line_start + hash_at


def _comment_start(line: str) -> int | None:
    """Where the comment of ``line`` starts (a ``#`` outside a label), or ``None``."""
    for m in re.finditer(r'"[^"]*"?|#', line):
        if m.group() == "#":
            return m.start()
    return None


def _misspelt_before(text: str, at: int, start: str, goal: int) -> str | None:
    """``did you mean each?`` for the word before offset ``at`` when it is no keyword, is
    close to one, and the parser reads past ``goal`` once it is spelt right (``on aech
    boodle``: ``aech`` was read as a section's name, and the error is at ``boodle``)."""
    match = re.search(r"([a-z][a-z0-9_-]*)([ \t]+)$", text[:at])
    if match is None:
        return None
    word = match.group(1)
    keywords = _keywords()
    if word in keywords:
        return None
    for close in difflib.get_close_matches(word, keywords, n=3, cutoff=0.75):
        begin = match.start(1)
        fixed = text[:begin] + close + text[match.end(1):]
        if _reaches(fixed, start, goal, len(close) - len(word), begin):
            return f"did you mean {close} (not {word})?"
    return None


def _extra_before(text: str, at: int, start: str, goal: int) -> str | None:
    """``delete 'the'`` for a word before offset ``at`` that is no keyword (read as a name:
    ``on the kitty``, the error at ``kitty``), when the line reads right without it."""
    match = re.search(r"([a-z][a-z0-9_-]*)([ \t]+)$", text[:at])
    if match is None or match.group(1) in _keywords():
        return None
    begin = match.start(1)
    fixed = text[:begin] + text[at:]
    if _reaches(fixed, start, goal, begin - at, begin) and _line_complete(fixed, start, begin):
        line = text.count("\n", 0, begin) + 1
        shown = _shown_line(fixed, line)
        example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
        return f"delete '{match.group(1)}': it has no place here{example}"
    return None


def _line_start(text: str, at: int) -> int:
    """The offset of the first word on the line of offset ``at``."""
    begin = text.rfind("\n", 0, at) + 1
    return begin + len(text[begin:at]) - len(text[begin:at].lstrip(" \t"))


def _previous_word(text: str, at: int) -> str:
    """The word (or mark) just before offset ``at``, comments skipped."""
    before = re.sub(r"#[^\n]*", "", text[:at]).rstrip()
    match = re.search(r'("[^"\n]*"|[^\s{}:,]+|[{}:,])$', before)
    return match.group(1) if match else ""


def _unclosed_at_end(blocks: list[_Block], early: list[tuple[_Block, int]]) -> str:
    """The hint for a file that ends inside ``blocks``; ``early``: blocks closed by a ``}``
    indented like an outer block's (:func:`_scan_blocks`), the likely culprit."""
    if not blocks:
        return "the file ends too early: a variant is 'variant NAME { … }'"
    if early and len(early) == 1 and len(blocks) == 1:
        block, at = early[0]
        return (f"{block.named()}, opened at line {block.line}, is not closed: the '}}' on "
                f"line {at} lines up with an outer block; add its own '}}' before line {at}")
    if len(blocks) == 1:
        return f"{blocks[0].named()}, opened at line {blocks[0].line}, is not closed: add '}}' " \
               "at the end of the file"
    shown = [f"{b.named()} (line {b.line})" for b in reversed(blocks)]
    return (", ".join(shown[:-1]) + " and " + shown[-1] +
            f" are not closed: add {len(blocks)} '}}', innermost first")


def _balance(text: str) -> int:
    """How many more ``{`` than ``}`` the text has (labels and comments skipped): above 0, a
    block is not closed; below 0, a block's opening line is missing."""
    marks = [m.group() for m in _SCAN.finditer(text)]
    return marks.count("{") - marks.count("}")


def _closing_line(text: str) -> int | None:
    """The line of the ``}`` that closes the first ``{`` of ``text`` (labels and comments
    skipped), or ``None``."""
    depth = 0
    for m in _SCAN.finditer(text):
        if m.group() == "{":
            depth += 1
        elif m.group() == "}":
            depth -= 1
            if depth == 0:
                return text.count("\n", 0, m.start()) + 1
    return None


def _expected_hint(expected: set[str], blocks: list[_Block], word: str, before: str,
                   after: str = "") -> str:
    """The hint when no simple edit repairs the error: what may come here, in words
    (``before`` and ``after``: the text before and from the error)."""
    inner = blocks[-1] if blocks else None
    if inner and _line_starts(inner.kind) and _line_starts(inner.kind) <= expected:
        starts = ", ".join(_line_start_words(inner.kind))
        return f"a line of {inner.named()} starts with one of: {starts}; or close it with '}}'"
    if expected == {"VARIANT"}:
        return RULES_FILE_START
    if expected and expected <= {"$END", "<END-OF-FILE>"}:
        closed = _closing_line(before)
        where = f" by the '}}' on line {closed}" if closed else ""
        return (f"the variant is already closed{where}: delete what follows it, or that "
                "'}' if it is one too many")
    if expected <= {"INT"}:
        return "write a number here, such as 2"
    if "STRING" in expected and word and re.fullmatch(r"[\w'-]+", word) \
            and "NAME" not in expected:
        said = " ".join(re.sub(r"#.*", "", after.split("\n", 1)[0]).split()) or word
        return f'a label is written in double quotes: "{said}"'

    if "CARD" in expected and word and re.fullmatch(r"(10|[0-9TJQKA])[A-Za-z♣♦♥♠]?", word):
        if word.startswith("1") and not word.startswith("10"):
            return "the ace is written A (A♥ or AH); the ranks are 2-10, J, Q, K, A"
        return "cards are written rank then suit: K♣, KC, 10♥ or TH"
    if expected == {"NAME"} and word and re.fullmatch(r"[\w-]+", word):
        lower = re.sub(r"[^a-z0-9_-]", "", word.lower())
        return ("names are lower case letters, digits, '_' and single hyphens"
                + (f": write {lower}" if lower and lower[0].isalpha() else ""))
    wanted = _expected_words(expected, [], before)
    return f"here the rules expect {wanted}" if wanted else "check the line against spec/rules.md"


RULES_FILE_START = ("a rules file starts with 'variant NAME {' (a new game) or 'variant NAME "
                    "extends michigan {' (house rules on a built-in variant), and ends with '}'")
"""The hint for a file with no variant in it, or one that does not start with ``variant``."""


_CARD_SPELLING = ("cards are a rank then a suit, in upper case: K♣ or KC, 10♥ or TH "
                  "(suits ♣ ♦ ♥ ♠ or C D H S; ranks 2-10, J, Q, K, A)")
_LIKE_CARD = re.compile(r"(10|[2-9TJQKAtjqka])[CDHScdhs♣♦♥♠♧♢♡♤]\ufe0f?", re.ASCII)
_CARD_AS_WRITTEN = re.compile("(10|[2-9TJQKA])(?:[♣♦♥♠]\ufe0f?|[CDHS])")
"""A card the grammar's CARD terminal reads (``10♥``, ``KC``)."""
_QUOTES = "“”„‟«»‘’‚‛"


def _spelling_hint(word: str, text: str, line: int, column: int) -> str | None:
    """A hint for a word a newcomer writes from habit: a card in lower case or with an outline
    suit (``Kc``, ``10h``, ``K♡``), curly quotes, a ``//`` comment, a name with a letter
    outside ASCII (``café``), or ``players 3`` without its upper bound."""
    before = "\n".join(text.split("\n")[: line - 1] + [_lines(text)[line - 1][: column - 1]]
                       if 0 < line <= len(_lines(text)) else [])
    if word and word[0] in _QUOTES:
        return 'labels use straight double quotes: "Kitty" (not curly quotes “…”)'
    if word.startswith("'"):
        return 'labels use double quotes: "Kitty", not \'Kitty\''
    if word.startswith('"') and (len(word) == 1 or not word.endswith('"')):
        return 'this label is not closed: a label ends with \'"\' on the same line'

    if word.startswith("/") and _lines(text)[line - 1][column - 1: column + 1] in ("//", "/*"):
        return "comments start with '#' and run to the end of the line"
    if _LIKE_CARD.fullmatch(word) and not _CARD_AS_WRITTEN.fullmatch(word):
        return _CARD_SPELLING
    hyphen = re.fullmatch(r"([0-9]+)-([0-9]+)", word)
    if hyphen:
        return f"write a range with 'to': {hyphen.group(1)} to {hyphen.group(2)}"
    rest = _lines(text)[line - 1][column - 1 + len(word):] if 0 < line <= len(_lines(text)) \
        else ""
    apart = re.match(r"[ \t]+([♣♦♥♠♧♢♡♤])", rest)
    if re.fullmatch(r"10|[2-9TJQKA]", word) and apart:
        return f"write the card without a space between rank and suit: {word}{apart.group(1)}"
    previous = re.search(r"([\w♣♦♥♠♧♢♡♤-]+)\s*$", before)
    if previous and _LIKE_CARD.fullmatch(previous.group(1)) \
            and not _CARD_AS_WRITTEN.fullmatch(previous.group(1)):
        return f"'{previous.group(1)}' is read as a name; " + _CARD_SPELLING
    players = re.search(r"(?:^|\s)players\s+([0-9]+)\s*$", before)
    if players:
        n = players.group(1)
        rest = _lines(text)[line - 1][column - 1:] if 0 < line <= len(_lines(text)) else ""
        high = re.match(r"\S*?\s*([0-9]+)", rest)
        if high:
            return f"players is a range: write players {n} to {high.group(1)}"
        return f"players is a range: write players {n} to {n} (or players {n} to 8, say)"
    if re.fullmatch(r"[\w-]+", word) and not word.isascii():
        return "names are ASCII: lower case letters a-z, digits, '-' and '_'"
    return None


def _lines(text: str) -> list[str]:
    """The lines as the lexer counts them: only ``\\n`` ends a line (spec §11.1)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def _word_at(text: str, line: int, column: int) -> str:
    lines = _lines(text)
    if not 0 < line <= len(lines):
        return ""
    match = re.match(r'"[^"\n]*"?|[\w♣♦♥♠♧♢♡♤\ufe0f-]+|\S|.', lines[line - 1][column - 1 :])
    return match.group(0) if match else ""
