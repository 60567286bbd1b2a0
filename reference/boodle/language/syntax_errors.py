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

import re
import unicodedata

from lark import Token
from lark.exceptions import UnexpectedInput

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
from boodle.language.syntax_repairs import (
    Slip,
    edit_hint,
    line_ended_early,
    repair_hint,
    two_words,
    within_budget,
)
from boodle.language.syntax_where import (
    BRACES,
    Block,
    at_file_end,
    grammar_keywords,
    line_start_words,
    line_starts,
    lines_of,
    offset_of,
    open_blocks,
    shiftable,
    terminal_text,
    words_of,
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
    lines = lines_of(text)
    rest = lines[line - 1][column - 1:] if 0 < line <= len(lines) else ""
    if rest and rest[0] not in " \t" and not _shows(rest[0]):
        at = offset_of(text, line, column)
        return edit_hint(f"delete the invisible {_visible(rest[0])} after the word", text, at,
                         at + 1, "")
    return None


def _invisible_hint(word: str, text: str, at: int) -> str | None:
    """What to do about an unexpected character that does not print (``word``, at offset
    ``at`` of ``text``), and its edit: the character deleted, a space for a wide one."""
    if word == BOM:
        return edit_hint("a byte order mark is allowed only as the file's first character; "
                         "delete this one (it is invisible in most editors)", text, at, at + 1,
                         "")
    if len(word) == 1 and unicodedata.category(word) == "Zs":
        return edit_hint("write a plain space instead", text, at, at + 1, " ")
    if word and not all(_shows(c) for c in word):
        shown = "".join(c for c in word if _shows(c))
        if EMOJI_STYLE in word:
            return edit_hint("U+FE0F (emoji style) is allowed only right after a suit symbol, "
                             "as in A♥️; delete this one (it is invisible in most editors)",
                             text, at, at + len(word), shown)
        return edit_hint("delete the invisible character, or retype the line", text, at,
                         at + len(word), shown)
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
        hint = (edit_hint("write a space instead: a string is one line of characters that "
                          "print", text, at, at + 1, " ")
                if char == "\t" else
                edit_hint(f"delete it: a {where} holds only characters that print "
                          "(it is invisible in most editors)", text, at, at + 1, ""))
    else:
        message = f"unexpected {_visible(char)}"
        hint = edit_hint("delete the invisible character, or retype the line", text, at,
                         at + 1, "")
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

_NAME_AFTER = {
    "variant": "the variant's name (lower case, such as my-house-rules)",
    "extends": "the name of the variant it extends, such as michigan",
    "phase": "the phase's name (lower case, such as play)",
    "in": "a phase's name",
    "of": "a phase's name",
}
"""What a NAME is, by the keyword before it, where only a name can follow."""


def glued_error(token: Token, text: str, file: str, start: str = "start") -> BoodleError:
    line, column = token.line or 1, token.column or 1
    word = _word_at(text, line, column)
    span = Span(file, line, column, line, column + len(word), text)
    keywords = grammar_keywords()
    seen = str(token)  # the keyword the lexer read at the start of the word
    at = offset_of(text, line, column)
    hint = (_spelling_hint(word, text, line, column)
            or within_budget(lambda: two_words(word, text, at, start))
            or (edit_hint(f"did you mean {seen}?", text, at, at + len(word), seen)
                if seen in keywords and seen != word else None)
            or did_you_mean(word, [k for k in keywords if k != word], span)
            or edit_hint(f"write '{token}' as a word of its own", text, at, at + len(word),
                         f"{seen} {word[len(seen):]}" if word.startswith(seen) else word))
    return BoodleError(f"unexpected {_visible(word)}", span, hint=hint)


def where_stopped(exc: UnexpectedInput, text: str, start: str = "start") -> Slip:
    """Where the parser stopped on ``text`` (parsed from grammar rule ``start``) with
    Lark's error ``exc``, as the repair strategies see it: the line and column (at the end
    of the file, just after its last line with text), the word there, what the parser
    could take there (:func:`_accepted`) and the blocks open there."""
    line, column = exc.line, exc.column
    at_end = at_file_end(exc)
    if at_end or line is None or line < 1:
        lines = lines_of(text)
        while len(lines) > 1 and not lines[-1]:
            lines.pop()
        line, column = len(lines), len(lines[-1]) + 1
    column = column or 1
    word = "" if at_end else _word_at(text, line, column)
    at = len(text) if at_end else offset_of(text, line, column)
    expected = _accepted(exc, text, at, start)
    blocks = open_blocks(text, at) if start == "start" else []
    return Slip(exc, text, start, line, column, word, expected, blocks)


def syntax_error(exc: UnexpectedInput, text: str, file: str,
                  start: str = "start") -> BoodleError:
    """Lark's error as a :class:`BoodleError`: where (the unexpected word, or the end of the
    last line: :func:`where_stopped`), what the parser could take there
    (:func:`_expected_words`) and always a hint: a character or spelling habit, else the
    edit that repairs the line (:func:`boodle.language.syntax_repairs.repair_hint`), else what may
    come here (:func:`_expected_hint`)."""
    slip = where_stopped(exc, text, start)
    line, column, word, at = slip.line, slip.column, slip.word, slip.at
    expected, blocks = slip.expected, slip.blocks
    early = _ended_early(slip, file)
    if early is not None:
        return early
    span = Span(file, line, column, line, column + max(len(word), 1), text)
    found = _visible(word) if word else "end of file"
    message = f"unexpected {found}"
    wanted = _expected_words(expected, blocks, text[:at])
    if wanted:
        message += "; expected " + wanted
    hint = (_invisible_hint(word, text, at) or _invisible_after(text, line, column + len(word))
            or _path_after_extends(text, line, column)
            or _spelling_hint(word, text, line, column)
            or _meant_word(word, expected, text, at)
            or repair_hint(slip)
            or _expected_hint(expected, blocks, word, text, at))
    return BoodleError(message, span, hint=hint)


def _ended_early(slip: Slip, file: str) -> BoodleError | None:
    """The error for a line that ends too early (``seating: redrawn``, the parser stopping
    at the next line's ``}``): placed just after the line's last word, not on the next
    line, with the line finished as its hint (``write it seating: redrawn each deal``,
    :func:`boodle.language.syntax_repairs.line_ended_early`); ``None`` for another slip."""
    found = line_ended_early(slip)
    if found is None:
        return None
    end, phrase = found
    text = slip.text
    line = text.count("\n", 0, end) + 1
    column = end - (text.rfind("\n", 0, end) + 1) + 1
    wanted = _expected_words(slip.expected, slip.blocks, text[:end])
    fixed = text[:end] + " " + phrase + text[end:]
    shown = " ".join(lines_of(fixed)[line - 1].split("#", 1)[0].split())
    return BoodleError("the line ends too early" + (f"; expected {wanted}" if wanted else ""),
                       Span(file, line, column, line, column + 1, text),
                       hint=edit_hint(f"write it {shown}", text, end, end, " " + phrase))


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
        return shiftable(probe) or coarse
    except (UnexpectedInput, GluedKeyword, TooLarge):
        return coarse
    finally:
        CURRENT_TEXT.reset(token)


def _expected_words(expected: set[str], blocks: list[Block], before: str) -> str:
    """What the parser expected, in a rules author's words: ``a number``, ``":"``, ``a
    card such as A♥ or a name such as kitty``, ``a line of the deal block or "}"``."""
    rest = set(expected)
    parts: list[str] = []
    inner = blocks[-1] if blocks else None
    starts = line_starts(inner.kind) if inner else frozenset()
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
    readable = sorted({terminal_text(name)[0] for name in rest})
    words = readable + parts[::-1]
    if len(words) > 10:
        words = [*words[:10], "…"]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _closing_line(text: str) -> int | None:
    """The line of the ``}`` that closes the first ``{`` of ``text`` (labels and comments
    skipped), or ``None``."""
    depth = 0
    for m in BRACES.finditer(text):
        if m.group() == "{":
            depth += 1
        elif m.group() == "}":
            depth -= 1
            if depth == 0:
                return text.count("\n", 0, m.start()) + 1
    return None


def _expected_hint(expected: set[str], blocks: list[Block], word: str, text: str,
                   at: int) -> str:
    """The hint when no simple edit repairs the error (``word``, at offset ``at`` of
    ``text``): what may come here, in words."""
    before, after = text[:at], text[at:]
    inner = blocks[-1] if blocks else None
    if inner and line_starts(inner.kind) and line_starts(inner.kind) <= expected:
        starts = ", ".join(line_start_words(inner.kind))
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
        code = re.sub(r"#.*", "", after.split("\n", 1)[0]).rstrip(" \t\r")
        said = " ".join(code.split()) or word
        return edit_hint(f'a label is written in double quotes: "{said}"', text, at,
                         at + max(len(code), len(word)), f'"{said}"')

    if "CARD" in expected and word and re.fullmatch(r"(10|[0-9TJQKA])[A-Za-z♣♦♥♠]?", word):
        if word.startswith("1") and not word.startswith("10"):
            return "the ace is written A (A♥ or AH); the ranks are 2-10, J, Q, K, A"
        return "cards are written rank then suit: K♣, KC, 10♥ or TH"
    if expected == {"NAME"} and word and re.fullmatch(r"[\w-]+", word):
        lower = re.sub(r"[^a-z0-9_-]", "", word.lower())
        sentence = "names are lower case letters, digits, '_' and single hyphens"
        if lower and lower[0].isalpha():
            return edit_hint(f"{sentence}: write {lower}", text, at, at + len(word), lower)
        return sentence
    wanted = _expected_words(expected, [], before)
    return f"here the rules expect {wanted}" if wanted else "check the line against spec/rules.md"


RULES_FILE_START = ("a rules file starts with 'variant NAME {' (a new game) or 'variant NAME "
                    "extends michigan {' (house rules on a built-in variant), and ends with '}'")
"""The hint for a file with no variant in it, or one that does not start with ``variant``."""


_LIKE_CARD = re.compile(r"(10|[2-9TJQKAtjqka])[CDHScdhs♣♦♥♠♧♢♡♤]\ufe0f?", re.ASCII)
_CARD_AS_WRITTEN = re.compile("(10|[2-9TJQKA])(?:[♣♦♥♠]\ufe0f?|[CDHS])")
"""A card the grammar's CARD terminal reads (``10♥``, ``KC``)."""
_QUOTES = "“”„‟«»‘’‚‛"


def _spelling_hint(word: str, text: str, line: int, column: int) -> str | None:
    """A hint for a word a newcomer writes from habit: a card in lower case or with an outline
    suit (``Kc``, ``10h``, ``K♡``), curly quotes, a ``//`` comment, a name with a letter
    outside ASCII (``café``), ``players 3`` without its upper bound, or poker's ``no-limit``
    for ``bets: no limit``."""
    before = "\n".join(text.split("\n")[: line - 1] + [lines_of(text)[line - 1][: column - 1]]
                       if 0 < line <= len(lines_of(text)) else [])
    at = len(before)
    line_end = text.find("\n", at)
    rest_of_line = text[at:len(text) if line_end < 0 else line_end].rstrip("\r")
    quoted = re.match(f"[{_QUOTES}'][^{_QUOTES}'\n]*[{_QUOTES}']", rest_of_line)
    if word and word[0] in _QUOTES:
        sentence = 'labels use straight double quotes: "Kitty" (not curly quotes “…”)'
        return edit_hint(sentence, text, at, at + quoted.end(), f'"{quoted.group()[1:-1]}"') \
            if quoted else sentence
    if word.startswith("'"):
        sentence = 'labels use double quotes: "Kitty", not \'Kitty\''
        return edit_hint(sentence, text, at, at + quoted.end(), f'"{quoted.group()[1:-1]}"') \
            if quoted else sentence
    if word.startswith('"') and (len(word) == 1 or not word.endswith('"')):
        close = at + len(rest_of_line.rstrip(" \t"))
        return edit_hint('this label is not closed: a label ends with \'"\' on the same line',
                         text, close, close, '"')

    if word.startswith("/") and lines_of(text)[line - 1][column - 1: column + 1] in ("//", "/*"):
        return "comments start with '#' and run to the end of the line"
    if _LIKE_CARD.fullmatch(word) and not _CARD_AS_WRITTEN.fullmatch(word):
        return edit_hint(_card_fix(word), text, at, at + len(word), _card_written(word))
    no_rank = _no_such_rank(word, text, at)
    if no_rank:
        return no_rank
    hyphen = re.fullmatch(r"([0-9]+)-([0-9]+)", word)
    if hyphen:
        written = f"{hyphen.group(1)} to {hyphen.group(2)}"
        return edit_hint(f"write a range with 'to': {written}", text, at, at + len(word),
                         written)
    rest = lines_of(text)[line - 1][column - 1 + len(word):] if 0 < line <= len(lines_of(text)) \
        else ""
    apart = re.match(r"[ \t]+([♣♦♥♠♧♢♡♤])", rest)
    if re.fullmatch(r"10|[2-9TJQKA]", word) and apart:
        card = _card_written(word + apart.group(1))
        return edit_hint(f"write the card without a space between rank and suit: "
                         f"{word}{apart.group(1)}", text, at, at + len(word) + apart.end(), card)
    previous = re.search(r"([\w♣♦♥♠♧♢♡♤-]+)\s*$", before)
    if previous and _LIKE_CARD.fullmatch(previous.group(1)) \
            and not _CARD_AS_WRITTEN.fullmatch(previous.group(1)):
        return edit_hint(f"'{previous.group(1)}' is read as a name: "
                         + _card_fix(previous.group(1)), text, previous.start(1),
                         previous.end(1), _card_written(previous.group(1)))
    decimal = _decimal_hint(word, text, at)
    if decimal:
        return decimal
    players = re.search(r"(?:^|\s)players\s+([0-9]+)\s*$", before)
    if players:
        n = players.group(1)
        rest = lines_of(text)[line - 1][column - 1:] if 0 < line <= len(lines_of(text)) else ""
        high = re.match(r"\S*?\s*([0-9]+)", rest)
        begin = players.start() + len(players.group()) - len(players.group().lstrip())
        if high:
            return edit_hint(f"players is a range: write players {n} to {high.group(1)}", text,
                             begin, at + high.end(), f"players {n} to {high.group(1)}")
        end = begin + len(players.group().strip())
        return edit_hint(f"players is a range: write players {n} to {n} (or players {n} to 8, "
                         "say)", text, begin, end, f"players {n} to {n}")
    limit = re.fullmatch(r"(no|pot)[-_]limit(?:ed)?", word, re.IGNORECASE)
    if limit:  # spec §8.3: poker's hyphenated "no-limit", "pot-limit"
        words = f"{limit.group(1).lower()} limit"
        return edit_hint(f"write it as two words: bets: {words}", text, at, at + len(word), words)
    if re.fullmatch(r"[\w-]+", word) and not word.isascii():
        return "names are ASCII: lower case letters a-z, digits, '-' and '_'"
    return None


_EXTENDS_TARGET = re.compile(r"\bextends[ \t]+([^\s{}#]+)")


def _path_after_extends(text: str, line: int, column: int) -> str | None:
    """``names are not paths: write extends michigan`` when the error is inside a file name
    or path written after ``extends`` (``extends michigan.boodle``, ``extends
    ../michigan``): a base is named, never a file (spec §11.1)."""
    lines = lines_of(text)
    if not 0 < line <= len(lines):
        return None
    found = _EXTENDS_TARGET.search(lines[line - 1])
    if found is None or not found.start(1) < column <= found.end(1) \
            or not re.search(r"[./\\]", found.group(1)):
        return None
    name = re.sub(r"\.boodle$", "", re.split(r"[/\\]", found.group(1))[-1])
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
        return "names are not paths: write extends and the base variant's name, such as michigan"
    begin = offset_of(text, line, found.start(1) + 1)
    return edit_hint(f"names are not paths: write extends {name} (a built-in variant, or the "
                     f"file {name}.boodle in this file's folder)", text, begin,
                     begin + len(found.group(1)), name)


_TURNS = {"clockwise": "left", "anticlockwise": "right", "counterclockwise": "right"}
"""Words for a direction and the language's word for each: the player on a player's left is
the next seat clockwise (spec/rules.md, Seats)."""


def _meant_word(word: str, expected: set[str], text: str, at: int) -> str | None:
    """The language's words for what an author writes in everyday words, where the nearest
    keyword would change the meaning: ``clockwise`` is ``left`` (not ``right``), and ``every
    boodle`` is ``each boodle`` (``every section`` would pay the kitty too)."""
    before = text[:at]
    accepted = {w for name in expected for w in words_of(name)}
    turn = _TURNS.get(word.lower().replace("-", ""))
    if turn is not None and turn in accepted:
        return edit_hint(f"write '{turn}' instead of '{word}': the player on a player's left "
                         "is the next seat clockwise", text, at, at + len(word), turn)
    previous = re.search(r"([a-z]+)[ \t]*$", before)
    if previous and previous.group(1) == "every" and word in ("boodle", "boodles") \
            and "SECTION" in expected:
        return edit_hint("write 'each boodle' for every boodle card ('every section' is every "
                         "section of the board, the kitty too)", text, previous.start(1),
                         at + len(word), "each boodle")
    return None


_SUIT_LETTERS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_OUTLINE_SUITS = {"♧": ("♣", "club"), "♢": ("♦", "diamond"), "♡": ("♥", "heart"),
                  "♤": ("♠", "spade")}


def _card_written(word: str) -> str:
    """The card ``word`` (a card written from habit, :func:`_card_fix`) as the language
    writes it: ``10h`` → ``10♥``, ``Q♤`` → ``Q♠``."""
    bare = word.replace("\ufe0f", "")
    rank, suit = bare[:-1].upper(), bare[-1]
    if suit in _OUTLINE_SUITS:
        return rank + _OUTLINE_SUITS[suit][0]
    return rank + _SUIT_LETTERS.get(suit.lower(), suit)


def _card_fix(word: str) -> str:
    """The hint for a card written from habit, with the card as the language writes it:
    ``10h`` is ``write 10♥ (or 10H)``, ``Q♤`` is ``write Q♠`` (the outline suits are not
    the language's), ``kc`` is ``write K♣ (or KC)``."""
    bare = word.replace("\ufe0f", "")
    rank, suit = bare[:-1].upper(), bare[-1]
    if suit in _OUTLINE_SUITS:
        filled, name = _OUTLINE_SUITS[suit]
        return (f"write {rank}{filled}: {suit} is the outline {name}; the suits are the "
                "filled ♣ ♦ ♥ ♠ (or the letters C D H S)")
    symbol = _SUIT_LETTERS.get(suit.lower(), suit)
    letter = next((k.upper() for k, v in _SUIT_LETTERS.items() if v == symbol), "")
    also = f" (or {rank}{letter})" if letter else ""
    return (f"write {rank}{symbol}{also}: a card is its rank then its suit, in upper case "
            "(ranks 2-10, J, Q, K, A; suits ♣ ♦ ♥ ♠ or C D H S)")


_NUMBERED_CARD = re.compile("([0-9]+)([CDHScdhs♣♦♥♠♧♢♡♤])\ufe0f?")
_RANK_FOR_NUMBER = {"1": "A", "11": "J", "12": "Q", "13": "K", "14": "A"}


def _no_such_rank(word: str, text: str = "", at: int = 0) -> str | None:
    """``there is no rank 11 ...`` for a card with a number outside 2-10 (``11♣``): the
    ranks that exist, and the one the number often stands for (11 the jack …)."""
    found = _NUMBERED_CARD.fullmatch(word)
    if found is None or 2 <= int(found.group(1)) <= 10:
        return None
    number, suit = found.group(1).lstrip("0") or "0", found.group(2)
    suit = _SUIT_LETTERS.get(suit.lower(), _OUTLINE_SUITS.get(suit, (suit, ""))[0])
    hint = f"there is no rank {number}: the ranks are 2 to 10, J, Q, K and A"
    named = _RANK_FOR_NUMBER.get(number)
    if named:
        what = {"A": "the ace", "J": "the jack", "Q": "the queen", "K": "the king"}[named]
        hint += f"; for {what} write {named}{suit}"
        return edit_hint(hint, text, at, at + len(word), named + suit) if text else hint
    return hint


_WHOLE_AMOUNTS = {"blinds": "a blind", "bets": "a bet", "start": "a stake"}
"""The statements whose number is a number of chips, and how a hint names it."""


def _decimal_hint(word: str, text: str, at: int) -> str | None:
    """``a blind is a whole number of chips: write 1.5 as 1 or 2`` for a number with a
    decimal point (``blinds: 1.5 chips``), with no edit: ``,`` for the ``.`` would read
    ``1,5``, a small blind of 1 and a big one of 5, and which whole number is meant is the
    author's choice.  Every number of a rules file is whole (grammar/boodle.lark's
    ``INT``): chips are physical (spec §9)."""
    whole = re.search(r"([0-9]+)$", text[:at])
    fraction = re.match(r"\.([0-9]+)", text[at:])
    if not word.startswith(".") or whole is None or fraction is None:
        return None
    written = whole.group(1) + fraction.group()
    low = int(whole.group(1))
    first = max(text.rfind("\n", 0, at), text.rfind("{", 0, at)) + 1
    lead = re.match(r"[ \t]*([a-z]+)", text[first:at])
    what = _WHOLE_AMOUNTS.get(lead.group(1) if lead else "")
    sentence = (f"{what} is a whole number of chips" if what
                else "a number in a rules file is a whole number")
    return f"{sentence}: write {written} as {low} or {low + 1}"


def _word_at(text: str, line: int, column: int) -> str:
    lines = lines_of(text)
    if not 0 < line <= len(lines):
        return ""
    match = re.match(r'"[^"\n]*"?|[\w♣♦♥♠♧♢♡♤\ufe0f-]+|\S|.', lines[line - 1][column - 1 :])
    return match.group(0) if match else ""
