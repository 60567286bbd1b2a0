"""Text → syntax tree: the Lark parser, its friendly errors, and the AST.

The grammar lives in ``grammar/boodle.lark`` (shipped as package data).  The
AST is deliberately thin: a :class:`VariantDecl` is a list of keyed
:class:`Clause` items (``players``, ``board``, ``phase:play`` …), blocks hold
clauses of their own.  Keys are what ``extends`` merges on (spec §11); the
meaning of each clause is given by :mod:`boodle.build`.
"""

from __future__ import annotations

import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .cards import Card, parse_card
from .errors import BoodleError, Span, did_you_mean
from .resources import grammar_path

MAX_SOURCE_BYTES = 256 * 1024
"""Rules files larger than this are refused before parsing (spec §11.3)."""

MAX_NUMBER = 1_000_000_000
"""A number written larger than this is refused while parsing (spec §11.3); each
field has its own, smaller limit, checked by :mod:`boodle.build`."""


@dataclass(frozen=True)
class Clause:
    """One keyed statement.  ``value`` is a plain value, a :class:`CardLit`,
    a tuple of those, or a nested tuple of clauses for blocks."""

    key: str
    value: Any
    span: Span = field(compare=False)


@dataclass(frozen=True)
class CardLit:
    """A card as written, with where it was written."""

    card: Card
    text: str
    span: Span = field(compare=False)


@dataclass(frozen=True)
class NameLit:
    """A name (section, phase or variant) as written."""

    name: str
    span: Span = field(compare=False)


@dataclass(frozen=True)
class PhaseDecl:
    """``phase NAME "label" is KIND { rules }``: rules keyed for merging."""

    name: str
    label: str | None
    kind: str
    rules: tuple[Clause, ...]
    span: Span = field(compare=False)


@dataclass(frozen=True)
class VariantDecl:
    """One parsed ``variant NAME [extends BASE] { … }`` before resolution."""

    name: str
    base: NameLit | None
    items: tuple[Clause, ...]
    span: Span = field(compare=False)
    source: str = field(default="", compare=False, repr=False)


_CURRENT_TEXT: ContextVar[str] = ContextVar("_CURRENT_TEXT", default="")


class _GluedKeyword(Exception):
    """A keyword matched the front of a longer word (``onn`` lexed as ``on``)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


class _TooLarge(Exception):
    """A number above :data:`MAX_NUMBER` (refused before ``int()`` reads it)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


def _keyword_boundary(token: Token) -> Token:
    text = _CURRENT_TEXT.get()
    end = token.end_pos
    if end is not None and end < len(text) and (text[end].isalnum() or text[end] in "_-"):
        raise _GluedKeyword(token)
    if token.type == "INT":
        digits = str(token).lstrip("0")
        if len(digits) > len(str(MAX_NUMBER)) or (digits and int(digits) > MAX_NUMBER):
            raise _TooLarge(token)
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


def parse(text: str, file: str = "<string>") -> VariantDecl:
    """Parse one rules file into a :class:`VariantDecl`.

    Raises :class:`BoodleError` with file, line, column, caret and hint on
    any syntax error, and for a file over :data:`MAX_SOURCE_BYTES`.  A byte
    order mark (U+FEFF) at the very start is not part of the text and is
    dropped, so columns count as an editor shows them (spec §11.1).
    """
    text = text.removeprefix(BOM)
    _check_text(text, file)
    token = _CURRENT_TEXT.set(text)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, file) from None
    except _GluedKeyword as exc:
        raise _glued_error(exc.token, text, file) from None
    except _TooLarge as exc:
        raise _too_large_error(exc.token, text, file) from None
    finally:
        _CURRENT_TEXT.reset(token)
    decl = _ToAst(file, text).transform(tree)
    assert isinstance(decl, VariantDecl)
    return decl


def parse_fragment(text: str, start: str) -> Tree[Token]:
    """Parse a fragment (a ``card``, a ``section`` line, a ``lead_rule``) alone."""
    token = _CURRENT_TEXT.set(text)
    try:
        return parser(start).parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, "<fragment>") from None
    except _GluedKeyword as exc:
        raise _glued_error(exc.token, text, "<fragment>") from None
    except _TooLarge as exc:
        raise _too_large_error(exc.token, text, "<fragment>") from None
    finally:
        _CURRENT_TEXT.reset(token)


# ---------------------------------------------------------------- errors

BOM = "\ufeff"
"""The byte order mark: allowed, and dropped, only as a file's first character (spec §11.1)."""

EMOJI_STYLE = "\ufe0f"
"""VARIATION SELECTOR-16: allowed right after a suit symbol (``A♥️``, as phones type it) and
dropped there by the grammar's CARD and SUIT terminals (spec §11.1); elsewhere it is an
invisible character and is named by its code point."""


def _shows(char: str) -> bool:
    """Whether ``char`` prints as something a reader can see (a variation selector does not)."""
    return char.isprintable() and not 0xFE00 <= ord(char) <= 0xFE0F


def _visible(word: str) -> str:
    """``word`` quoted, or, if it holds a character that does not print (a byte order mark,
    a zero-width space, a control character, a no-break space), named by its code point:
    ``character U+FEFF (ZERO WIDTH NO-BREAK SPACE)``."""
    if all(_shows(c) for c in word):
        return f"'{word}'"
    if len(word) == 1:
        name = unicodedata.name(word, "")
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


def _check_text(text: str, file: str) -> None:
    """Refuse, before parsing, a text over :data:`MAX_SOURCE_BYTES` or one that is not
    valid Unicode (a lone surrogate, which only a ``str`` built in memory can hold)."""
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


def _too_large_error(token: Token, text: str, file: str) -> BoodleError:
    span = _token_span(token, file, text)
    return BoodleError(
        f"the number {_shorten(str(token))} is too large",
        span,
        hint=f"numbers are at most {MAX_NUMBER:,}; chip amounts at most 1,000,000",
    )


def _shorten(word: str, width: int = 24) -> str:
    return word if len(word) <= width else word[: width - 1] + "…"


_FRIENDLY = {
    "CARD": "a card (like K♣, KC, 10♥ or TH)",
    "RANK": "a rank (2-10, J, Q, K, A)",
    "SUIT": "a suit (♣ ♦ ♥ ♠ or C D H S)",
    "NAME": "a name (lower case, like kitty or king-queen)",
    "STRING": 'a quoted label (like "Kitty")',
    "INT": "a whole number",
    "$END": "the end of the file",
}


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


def _keywords() -> list[str]:
    return [
        term.pattern.value
        for term in parser().terminals
        if term.pattern.type == "str" and term.pattern.value.isalpha()
    ]


def _glued_error(token: Token, text: str, file: str) -> BoodleError:
    line, column = token.line or 1, token.column or 1
    word = _word_at(text, line, column)
    span = Span(file, line, column, line, column + len(word), text)
    hint = (_spelling_hint(word, text, line, column) or did_you_mean(word, _keywords())
            or f"write '{token}' as a word of its own")
    return BoodleError(f"unexpected {_visible(word)}", span, hint=hint)


def _at_end(exc: UnexpectedInput) -> bool:
    if isinstance(exc, UnexpectedEOF):
        return True
    return isinstance(exc, UnexpectedToken) and exc.token.type == "$END"


def _syntax_error(exc: UnexpectedInput, text: str, file: str) -> BoodleError:
    line, column = exc.line, exc.column
    if _at_end(exc) or line is None or line < 1:
        lines = _lines(text)
        while len(lines) > 1 and not lines[-1]:
            lines.pop()
        line, column = len(lines), len(lines[-1]) + 1
    expected: set[str] = set()
    if isinstance(exc, UnexpectedToken | UnexpectedEOF):
        expected = set(exc.expected)
    elif isinstance(exc, UnexpectedCharacters):
        expected = set(exc.allowed or ())
    readable = sorted({_terminal_text(name)[0] for name in expected})
    keywords = [kw for name in expected if (kw := _terminal_text(name)[1])]
    word = _word_at(text, line, column)
    width = max(len(word), 1)
    span = Span(file, line, column, line, column + width, text)
    if _at_end(exc):
        word, span = "", Span(file, line, column, line, column + 1, text)
    found = _visible(word) if word else "end of file"
    message = f"unexpected {found}"
    if readable:
        shown = readable if len(readable) <= 8 else [*readable[:8], "…"]
        message += "; expected " + ", ".join(shown)
    hint = (_invisible_hint(word) or _invisible_after(text, line, column + len(word))
            or _spelling_hint(word, text, line, column)
            or (did_you_mean(word, keywords) if word else None))
    if hint is None and re.fullmatch(r"(10|[0-9TJQKA])[A-Za-z♣♦♥♠]?", word):
        hint = "cards are written rank then suit: K♣, KC, 10♥ or TH"
    if hint is None and not word and '"}"' in readable:
        hint = "a block is not closed: add the missing '}'"
    return BoodleError(message, span, hint=hint)


_CARD_SPELLING = ("cards are a rank then a suit, in upper case: K♣ or KC, 10♥ or TH "
                  "(suits ♣ ♦ ♥ ♠ or C D H S; ranks 2-10, J, Q, K, A)")
_LIKE_CARD = re.compile(r"(10|[2-9TJQKAtjqka])[CDHScdhs♣♦♥♠♧♢♡♤]\ufe0f?", re.ASCII)
_QUOTES = "“”„‟«»‘’‚‛"


def _spelling_hint(word: str, text: str, line: int, column: int) -> str | None:
    """A hint for a word a newcomer writes from habit: a card in lower case or with an outline
    suit (``Kc``, ``10h``, ``K♡``), curly quotes, a ``//`` comment, a name with a letter
    outside ASCII (``café``), or ``players 3`` without its upper bound."""
    before = "\n".join(text.split("\n")[: line - 1] + [_lines(text)[line - 1][: column - 1]]
                       if 0 < line <= len(_lines(text)) else [])
    if word and word[0] in _QUOTES:
        return 'labels use straight double quotes: "Kitty" (not curly quotes “…”)'
    if word.startswith("/") and _lines(text)[line - 1][column - 1: column + 1] == "//":
        return "comments start with '#' and run to the end of the line"
    if _LIKE_CARD.fullmatch(word):
        return _CARD_SPELLING
    previous = re.search(r"([\w♣♦♥♠♧♢♡♤-]+)\s*$", before)
    if previous and _LIKE_CARD.fullmatch(previous.group(1)):
        return f"'{previous.group(1)}' is read as a name; " + _CARD_SPELLING
    players = re.search(r"(?:^|\s)players\s+([0-9]+)\s*$", before)
    if players:
        n = players.group(1)
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


# ---------------------------------------------------------------- tree → AST


def _span_of(meta: Any, file: str, text: str) -> Span:
    if getattr(meta, "empty", True):
        return Span(file, 1, 1, 1, 2, text)
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column, text)


def _token_span(tok: Token, file: str, text: str) -> Span:
    return Span(
        file,
        tok.line or 1,
        tok.column or 1,
        tok.end_line or tok.line or 1,
        tok.end_column or (tok.column or 1) + len(tok),
        text,
    )


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """One method per grammar alias; an unhandled alias is a programming error."""

    def __init__(self, file: str, text: str) -> None:
        super().__init__()
        self.file = file
        self.text = text

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
        raise AssertionError(f"grammar rule {data!r} has no AST method")

    # helpers
    def _s(self, meta: Any) -> Span:
        return _span_of(meta, self.file, self.text)

    def _c(self, key: str, value: Any, meta: Any) -> Clause:
        return Clause(key, value, self._s(meta))

    def _name(self, tok: Token) -> NameLit:
        return NameLit(str(tok), _token_span(tok, self.file, self.text))

    @staticmethod
    def _label(children: list[Any]) -> str | None:
        return next((c for c in children if isinstance(c, _Label)), _Label(None)).text

    # top level
    def start(self, meta: Any, c: list[Any]) -> Any:
        return c[0]

    def variant(self, meta: Any, c: list[Any]) -> VariantDecl:
        base = c[1] if len(c) > 1 and isinstance(c[1], NameLit) else None
        items = tuple(x for x in c[1:] if isinstance(x, Clause))
        return VariantDecl(str(c[0]), base, items, self._s(meta), self.text)

    def extends(self, meta: Any, c: list[Any]) -> NameLit:
        return self._name(c[0])

    def title(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("title", _unquote(c[0]), meta)

    def about(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("about", _unquote(c[0]), meta)

    def sources(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("sources", tuple(_unquote(t) for t in c), meta)

    def version(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("version", int(c[0]), meta)

    def players(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("players", (int(c[0]), int(c[1])), meta)

    def chips(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("chips", str(c[0]), meta)

    def carry(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("carry", str(c[0]), meta)

    def without_phase(self, meta: Any, c: list[Any]) -> Clause:
        return self._c(f"without:{c[0]}", self._name(c[0]), meta)

    # deck
    def deck(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("deck", tuple(c), meta)

    def suits(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("suits", tuple(c), meta)

    def ranks(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ranks", tuple(c), meta)

    def remove(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("remove", tuple(c), meta)

    # cards and names
    def card(self, meta: Any, c: list[Any]) -> CardLit:
        tok = c[0]
        text = str(tok).replace(EMOJI_STYLE, "")  # spec §11.1: ♥ + U+FE0F is ♥
        return CardLit(parse_card(text), text, _token_span(tok, self.file, self.text))

    def section_ref(self, meta: Any, c: list[Any]) -> CardLit | NameLit:
        return c[0] if isinstance(c[0], CardLit) else self._name(c[0])

    def label(self, meta: Any, c: list[Any]) -> _Label:
        return _Label(_unquote(c[0]))

    # board
    def board(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("board", tuple(c), meta)

    def boodle_card(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", (None, self._label(c), "fixed", c[0]), meta)

    def boodle_named(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", (self._name(c[0]), self._label(c), "fixed", c[-1]), meta)

    def boodle_trump(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", (self._name(c[0]), self._label(c), "trumps", c[-1]), meta)

    def boodle_drawn(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", (self._name(c[0]), self._label(c), "drawn", None), meta)

    def card_set(self, meta: Any, c: list[Any]) -> Clause:
        rule, items = c[-1]
        return self._c("set", (self._name(c[0]), self._label(c), rule, items), meta)

    def set_fixed(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return ("fixed", tuple(c))

    def set_same_suit(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return ("same suit", tuple(c))

    def set_trumps(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return ("trumps", tuple(c))

    def kitty(self, meta: Any, c: list[Any]) -> Clause:
        name = next((self._name(t) for t in c if isinstance(t, Token)), None)
        return self._c("kitty", (name, self._label(c)), meta)

    def pot(self, meta: Any, c: list[Any]) -> Clause:
        name = next((self._name(t) for t in c if isinstance(t, Token)), None)
        return self._c("pot", (name, self._label(c)), meta)

    # ante
    def ante(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ante", tuple(c), meta)

    def ante_line(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ante_line", (c[0], int(c[1]), tuple(c[2:])), meta)

    def each_player(self, meta: Any, c: list[Any]) -> str:
        return "each player"

    def each_other_player(self, meta: Any, c: list[Any]) -> str:
        return "each other player"

    def dealer(self, meta: Any, c: list[Any]) -> str:
        return "dealer"

    def widow_share(self, meta: Any, c: list[Any]) -> str:
        return "widow"

    def each_boodle(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("target", "each boodle", meta)

    def every_section(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("target", "every section", meta)

    def chosen_boodle(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("target", "chosen boodle", meta)

    # deal
    def deal(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("deal", tuple(c), meta)

    def first_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("first_dealer", "high cut", meta)

    def first_dealer_dealt(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("first_dealer", ("first dealt", c[0]), meta)

    def rotation(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("rotation", str(c[0]), meta)

    def widow(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("widow", tuple(c), meta)

    def widow_last(self, meta: Any, c: list[Any]) -> str:
        return "last"

    def widow_first(self, meta: Any, c: list[Any]) -> str:
        return "first"

    def widow_none(self, meta: Any, c: list[Any]) -> str:
        return "none"

    def widow_hidden(self, meta: Any, c: list[Any]) -> str:
        return "hidden"

    def widow_exposed(self, meta: Any, c: list[Any]) -> str:
        return "exposed"

    def trumps(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("trumps", "last widow card", meta)

    def turn_up_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("turn_up", "dealer takes boodle", meta)

    def misdeal(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("misdeal", c[0], meta)

    def misdeal_same_dealer(self, meta: Any, c: list[Any]) -> str:
        return "same dealer, no new ante"

    def misdeal_reshuffle(self, meta: Any, c: list[Any]) -> str:
        return "reshuffle and redeal"

    # widow sale
    def widow_sale(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("widow_sale", tuple(c), meta)

    def offer(self, meta: Any, c: list[Any]) -> Clause:
        price = int(c[2]) if len(c) > 2 else 0
        return self._c("offer", (str(c[0]), str(c[1]) == "seen", price), meta)

    def price_to(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("price_to", c[0], meta)

    def price_to_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("price_to", "dealer", meta)

    # dealer_swap values: (the dealer may look first, the dealer's chance comes first)
    def dealer_swap(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", (False, False), meta)

    def dealer_swap_first(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", (False, True), meta)

    def dealer_look_swap(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", (True, False), meta)

    def dealer_look_swap_first(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", (True, True), meta)

    def barred(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("barred", True, meta)

    def discard(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("discard", c[0], meta)

    def sale_before(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("when", self._name(c[0]), meta)

    def discard_widow(self, meta: Any, c: list[Any]) -> str:
        return "becomes widow"

    def discard_out(self, meta: Any, c: list[Any]) -> str:
        return "out of play"

    # phases
    def phase(self, meta: Any, c: list[Any]) -> Clause:
        kind, rules = c[-1]
        decl = PhaseDecl(str(c[0]), self._label(c), kind, tuple(rules), self._s(meta))
        return Clause(f"phase:{c[0]}", decl, self._s(meta))

    def stops_phase(self, meta: Any, c: list[Any]) -> tuple[str, list[Any]]:
        return ("stops", c)

    def holding_phase(self, meta: Any, c: list[Any]) -> tuple[str, list[Any]]:
        return ("holding", c)

    def poker_phase(self, meta: Any, c: list[Any]) -> tuple[str, list[Any]]:
        return ("poker", c)

    def first_lead(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("first_lead", c[0], meta)

    def follow_owner(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("follow", "owner", meta)

    def follow_turn(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("follow", "turn", meta)

    def stop(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("stop", tuple(c), meta)

    def stop_top(self, meta: Any, c: list[Any]) -> str:
        return "top rank"

    def stop_unheld(self, meta: Any, c: list[Any]) -> str:
        return "next card held by nobody"

    def restart(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("restart", c[0], meta)

    def lead_rule(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("lead_rule", (c[0], c[1]), meta)

    def who_left_of_dealer(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("left of dealer", None)

    def who_dealer(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("dealer", None)

    def who_holder(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("holder", c[0])

    def who_holder_lowest(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("holder of lowest", _suit(c[0]))

    def who_last_player(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("last player", None)

    def who_next_player(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("next player", None)

    def who_phase_winner(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("phase winner", self._name(c[0]))

    def lowest_of(self, meta: Any, c: list[Any]) -> tuple[str, str, Any]:
        return ("lowest", c[0], None)

    def lowest_card(self, meta: Any, c: list[Any]) -> tuple[str, str, Any]:
        return ("lowest", str(c[0]) if c else "all", None)

    def lowest_suit(self, meta: Any, c: list[Any]) -> tuple[str, str, Any]:
        return ("lowest", "suit", _suit(c[0]))

    def any_card(self, meta: Any, c: list[Any]) -> tuple[str, str, Any]:
        return ("any", "all", None)

    def exact_card(self, meta: Any, c: list[Any]) -> tuple[str, str, Any]:
        return ("card", "all", c[0])

    def colour_scope(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def scope_chosen(self, meta: Any, c: list[Any]) -> str:
        return "chosen suit"

    def scope_longest(self, meta: Any, c: list[Any]) -> str:
        return "longest suit"

    def scope_other(self, meta: Any, c: list[Any]) -> str:
        return "other suit"

    def scope_same(self, meta: Any, c: list[Any]) -> str:
        return "same suit"

    def scope_opposite(self, meta: Any, c: list[Any]) -> str:
        return "opposite colour"

    def fallback(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("fallback", c[0], meta)

    def fallback_lead(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("lead", c[0])

    def fallback_pass(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("pass", None)

    def fallback_pay_pass(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("pay and pass", (int(c[0]), c[1]))

    def all_pass(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("all_pass", c[0], meta)

    def all_pass_end(self, meta: Any, c: list[Any]) -> str:
        return "end without winner"

    def all_pass_flip(self, meta: Any, c: list[Any]) -> str:
        return "flip colour"

    def claims_on_play(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("claims", "on play", meta)

    def claims_on_holding(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("claims", "on holding", meta)

    def going_out(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("going_out", tuple(c), meta)

    def out_ends(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ends", True, meta)

    def out_takes(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("takes", c[0], meta)

    def out_takes_unless(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("takes_unless", (c[0], self._name(c[1])), meta)

    def out_per_card(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("per_card", (int(c[0]), str(c[1])), meta)

    def out_excused(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("excused", c[0], meta)

    def penalty(self, meta: Any, c: list[Any]) -> Clause:
        forfeit = len(c) > 3
        return self._c(f"penalty:{c[0]}", (c[0], int(c[1]), c[2], forfeit), meta)

    def fault_cannot_lead(self, meta: Any, c: list[Any]) -> str:
        return "cannot lead"

    def fault_not_lowest(self, meta: Any, c: list[Any]) -> str:
        return "lead not lowest"

    def each_opponent(self, meta: Any, c: list[Any]) -> str:
        return "each opponent"

    def payee(self, meta: Any, c: list[Any]) -> Any:
        return c[0]

    def stop_bonus(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("stop_bonus", (int(c[0]), c[1]), meta)

    def pays(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("pays", tuple(c), meta)

    def split_rule(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("split", c[0], meta)

    def split_share(self, meta: Any, c: list[Any]) -> str:
        return "share"

    def split_first_seat(self, meta: Any, c: list[Any]) -> str:
        return "first seat"

    def poker_pot(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("pot", c[0], meta)

    def poker_best(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("best", int(c[0]), meta)

    def poker_ace_low(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ace_low_straight", str(c[0]) == "yes", meta)

    # session
    def session(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("session", tuple(c), meta)

    def start_chips(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("start", int(c[0]), meta)

    def end_rotations(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_rotations", int(c[0]), meta)

    def end_broke(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_broke", True, meta)

    def leftover_split(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("leftover", "split equally", meta)

    def leftover_stays(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("leftover", "stays", meta)

    def ties_share(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ties", "share", meta)

    def ties_more_deal(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ties", "one more deal", meta)

    def balance_negative(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("balance", "allowed", meta)

    def balance_eliminate(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("balance", "eliminate", meta)


@dataclass(frozen=True)
class _Label:
    text: str | None


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


def _suit(tok: Token) -> str:
    from .cards import canonical_suit

    return canonical_suit(str(tok).replace(EMOJI_STYLE, ""))
