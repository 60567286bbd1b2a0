"""The Lark parser of ``grammar/boodle.lark``, and how it reads text (spec §11.1, §11.3).

Built once per start symbol (:func:`parser`).  Two checks the grammar cannot
make are made while lexing, on the text being read (:data:`CURRENT_TEXT`):
a keyword must end at a word boundary (:class:`GluedKeyword`), and a number
may not exceed :data:`MAX_NUMBER` (:class:`TooLarge`); a number's leading zeros are
dropped (its value is what counts, however many zeros are written).  :mod:`boodle.language.syntax`
turns the tree into the AST; :mod:`boodle.language.syntax_errors` says what went wrong
when the parser stops.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache

from lark import Lark, Token

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

    Keywords must end at a word boundary: the contextual lexer alone would
    read ``onn`` as the keyword ``on`` followed by ``n``.
    """
    grammar = grammar_path().read_text(encoding="utf-8")
    probe = Lark(grammar, parser="lalr", start=start)
    callbacks = {
        term.name: _keyword_boundary
        for term in probe.terminals
        if (term.pattern.type == "str" and term.pattern.value[-1:].isalpha())
        or (term.pattern.type == "re" and term.name not in ("STRING", "COMMENT", "WS"))
    }
    return Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        start=start,
        maybe_placeholders=False,
        lexer_callbacks=callbacks,
    )


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
