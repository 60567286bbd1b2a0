"""The Lark parser of ``grammar/boodle.lark``, and how it reads text (spec §11.1, §11.3).

Built once per start symbol (:func:`parser`), from parse tables cached between runs.
Two checks the grammar cannot make are made while lexing, on the text being read
(:data:`CURRENT_TEXT`): a keyword must end at a word boundary (:class:`GluedKeyword`),
and a number may not exceed :data:`MAX_NUMBER` (:class:`TooLarge`); a number's leading
zeros are dropped (its value is what counts, however many zeros are written).
:mod:`boodle.language.syntax` turns the tree into the AST; :mod:`boodle.language.syntax_errors`
says what went wrong when the parser stops.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

import lark.lexer
from lark import Lark, Token
from lark import __version__ as lark_version

from boodle.language.errors import Span
from boodle.resources import grammar_path

MAX_SOURCE_BYTES = 256 * 1024
"""Rules files larger than this are refused before parsing (spec §11.3)."""

MAX_NUMBER = 1_000_000_000
"""A number written larger than this is refused while parsing (spec §11.3); each
field has its own, smaller limit, checked by :mod:`boodle.language.build`."""

BOM = "\ufeff"
"""The byte order mark: allowed, and dropped, only as a file's first character (spec §11.1)."""

EMOJI_STYLE = "\ufe0f"
"""VARIATION SELECTOR-16: allowed right after a suit symbol (``A♥️``, as phones type it) and
dropped there by the grammar's CARD and SUIT terminals (spec §11.1); elsewhere it is an
invisible character and is named by its code point."""

CURRENT_TEXT: ContextVar[str] = ContextVar("CURRENT_TEXT", default="")
"""The text being parsed, which the lexer's callbacks read: set around every parse."""


class GluedKeyword(Exception):
    """A keyword matched the front of a longer word (``onn`` lexed as ``on``)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


class TooLarge(Exception):
    """A number above :data:`MAX_NUMBER` (refused before ``int()`` reads it)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


def _keyword_boundary(token: Token) -> Token:
    text = CURRENT_TEXT.get()
    end = token.end_pos
    if end is not None and end < len(text) and (text[end].isalnum() or text[end] in "_-"):
        raise GluedKeyword(token)
    if token.type == "INT":
        digits = str(token).lstrip("0")
        if len(digits) > len(str(MAX_NUMBER)) or (digits and int(digits) > MAX_NUMBER):
            raise TooLarge(token)
        if len(digits) != len(token):  # leading zeros: read by value (``007`` is 7), so
            # thousands of zeros never reach int() (over Python's 4,300-digit limit)
            return Token.new_borrow_pos(token.type, digits or "0", token)
    return token


@cache
def parser(start: str = "start") -> Lark:
    """The LALR parser for ``start`` (``start``, ``card``, ``section``, ``lead_rule``).

    Built once per process and start symbol, from the parse tables cached in
    :func:`boodle.resources.cache_dir` when they are there (:func:`build_parser`).
    Keywords must end at a word boundary: the contextual lexer alone would read
    ``onn`` as the keyword ``on`` followed by ``n``.
    """
    from boodle.resources import cache_dir

    return build_parser(start, cache_dir())


def build_parser(start: str, folder: Path | None) -> Lark:
    """The LALR parser for ``start``, its tables kept in ``folder`` (``None``: no cache).

    The grammar is analysed at most once: on a cache hit not at all (Lark's
    ``Lark.load`` reads the tables from ``grammar-START-KEY.lark``, the key a hash of the
    grammar, the parser's options and the versions of Lark and Python), on a miss once,
    and the tables are saved (``Lark.save``) under a name of this process's own, then
    renamed into place, so that processes starting together never read half a file.
    A cache file that cannot be read or written is passed over: the parser is the same,
    built afresh.

    The boundary check (:func:`_keyword_boundary`) is a lexer callback on every keyword
    and pattern terminal, which are known only once the grammar is built.  So the
    callbacks are put in Lark's own dict of them after it is built or loaded (the lexers
    share that dict and read it when they first run), rather than by building the grammar
    a second time to learn its terminals first.
    """
    grammar = grammar_path().read_text(encoding="utf-8")
    file = _cache_file(grammar, start, folder)
    built = _load_cached(file) if file is not None else None
    if built is None:
        built = Lark(grammar, **_OPTIONS, start=start,
                     lexer_callbacks={_NO_TERMINAL: _keyword_boundary})
        if file is not None:
            _save_cached(built, file)
    _share_scanners(built)
    callbacks = built.lexer_conf.callbacks
    callbacks.clear()
    callbacks.update({
        term.name: _keyword_boundary
        for term in built.terminals
        if (term.pattern.type == "str" and term.pattern.value[-1:].isalpha())
        or (term.pattern.type == "re" and term.name not in ("STRING", "COMMENT", "WS"))
    })
    return built


_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True,
                            "maybe_placeholders": False}
"""Lark's options for every start symbol (part of the cache key)."""

_NO_TERMINAL = "BOODLE_NO_SUCH_TERMINAL"
"""The key of a placeholder callback: Lark puts a dict of its own in place of an empty one."""


class TerminalScanner:
    """Lark's ``Scanner`` read terminal by terminal: the same matches, far less compiling.

    Lark's contextual lexer has one scanner per set of terminals a parser state accepts
    (some 200 for this grammar), and each compiles the alternation of its terminals,
    ``(?P<A>…)|(?P<B>…)|…``, when first used: most of the CPU time of ``boodle check``'s
    first parse.  An alternation matched at a position gives its first alternative that
    matches there, so trying the terminals' own patterns one by one, in the same order,
    gives the same token; the patterns are compiled once per process and shared by every
    scanner (:data:`_PATTERNS`).  Same interface as Lark's: ``allowed_types``,
    ``match(text, pos)`` → ``(value, terminal name)`` or ``None``, ``fullmatch(text)`` →
    the name or ``None``.
    """

    def __init__(self, terminals: list[Any], g_regex_flags: int, re_: Any,
                 use_bytes: bool) -> None:
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self._patterns: list[tuple[re.Pattern[str], str]] = [
            (_pattern(t.pattern.to_regexp(), g_regex_flags), t.name) for t in terminals]

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:
        """The first terminal matching ``text`` (Lark's ``TextSlice``) at ``pos``."""
        s, end = text.text, text.end
        for pattern, name in self._patterns:
            m = pattern.match(s, pos, end)
            if m:
                return m.group(0), name
        return None

    def fullmatch(self, text: str) -> str | None:
        """The first terminal matching the whole of ``text``."""
        for pattern, name in self._patterns:
            if pattern.fullmatch(text):
                return name
        return None


_PATTERNS: dict[tuple[str, int], re.Pattern[str]] = {}
"""Each terminal's pattern compiled once per process (keyed by its regexp and flags)."""


def _pattern(regexp: str, flags: int) -> re.Pattern[str]:
    key = (regexp, flags)
    found = _PATTERNS.get(key)
    if found is None:
        found = _PATTERNS[key] = re.compile(regexp, flags)
    return found


def _share_scanners(built: Lark) -> None:
    """Give every lexer of ``built`` a :class:`TerminalScanner` in place of Lark's own.

    Lark builds a lexer's scanner on first use, in ``BasicLexer._build_scanner``, with the
    module's ``Scanner`` (for the keywords a pattern also matches too); the lexers here
    build it with ``Scanner`` standing for :class:`TerminalScanner` for that call.  A Lark
    whose lexers are not built that way (another version, bytes input) is left as it is.
    """
    contextual = getattr(built.parser, "lexer", None)
    lexers = [*getattr(contextual, "lexers", {}).values(), getattr(contextual, "root_lexer", None)]
    for lexer in {id(x): x for x in lexers if isinstance(x, lark.lexer.BasicLexer)}.values():
        if getattr(lexer, "use_bytes", True) or not hasattr(lark.lexer, "Scanner"):
            continue
        lexer._build_scanner = _terminal_scanner_builder(lexer)  # type: ignore[method-assign]


def _terminal_scanner_builder(lexer: lark.lexer.BasicLexer) -> Any:
    def build() -> Any:
        saved = lark.lexer.Scanner
        lark.lexer.Scanner = TerminalScanner  # type: ignore[assignment,misc]
        try:
            return lark.lexer.BasicLexer._build_scanner(lexer)
        finally:
            lark.lexer.Scanner = saved  # type: ignore[misc]
    return build


def _cache_file(grammar: str, start: str, folder: Path | None) -> Path | None:
    """Where the tables of ``start`` are cached in ``folder`` (``None``: no cache)."""
    if folder is None:
        return None
    key = "\n".join([grammar, repr(sorted(_OPTIONS.items())), start, lark_version,
                     sys.version])
    return folder / f"grammar-{start}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.lark"


def _load_cached(file: Path) -> Lark | None:
    """The parser saved in ``file``, or ``None`` when there is none or it cannot be read."""
    try:
        with file.open("rb") as f:
            return Lark.load(f)
    except Exception:  # none yet, or cut short, or unreadable: build afresh
        return None


def _save_cached(built: Lark, file: Path) -> None:
    """Save ``built`` into ``file`` by way of a file of this process's own, renamed into
    place (atomic: a reader sees the whole file or none); nothing if it cannot be written."""
    part = file.with_name(f"{file.name}.{os.getpid()}.part")
    try:
        with part.open("wb") as f:
            built.save(f, exclude_options=("lexer_callbacks",))
        os.replace(part, file)
    except OSError:
        part.unlink(missing_ok=True)


def token_span(tok: Token, file: str, text: str) -> Span:
    """Where ``tok`` was written in ``text`` of ``file`` (line and column 1 where Lark has
    none)."""
    return Span(
        file,
        tok.line or 1,
        tok.column or 1,
        tok.end_line or tok.line or 1,
        tok.end_column or (tok.column or 1) + len(tok),
        text,
    )
