"""The trial edits that find a syntax error's hint: respell, add, move or delete, and reparse.

A hint is the right edit when the parser, given the edited text, reads past
the line after the error's (:func:`_reaches`).  :data:`REPAIRS` is the
ordered table of repair strategies, one small function per slip a rules
author makes (a misspelt keyword, a block not closed, a line in the wrong
block, a missing ``:``, ``,``, ``{`` or keyword, a stray mark or word); the
first that finds a hint wins (:func:`repair_hint`, called by
:func:`boodle.language.syntax_errors.syntax_error`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from boodle.language.errors import Hint, replacement
from boodle.language.grammar import CURRENT_TEXT, MAX_SOURCE_BYTES, GluedKeyword, TooLarge, parser
from boodle.language.syntax_where import (
    BRACES,
    Block,
    as_block,
    at_file_end,
    blocks_starting,
    grammar_keywords,
    lines_of,
    offset_of,
    scan_blocks,
    shiftable,
    words_of,
)

REPARSE_BUDGET = MAX_SOURCE_BYTES
"""Characters the search for one error's hint may reparse in all, its edits counted by their
length: as much as one file of the largest size (256 KiB), about fifty edits of a 5 KB file,
ten times what the hints of the test suite take (issue 20, item 11: a 256 KiB file with an
error at its end took 45 s of CPU, fifty reparses of the whole file).  Counted, not timed,
so a hint does not depend on the machine's load; past it the search gives up and the error
keeps its plain hint (what may come there)."""

_BUDGET: ContextVar[list[int] | None] = ContextVar("_BUDGET", default=None)
"""The characters the running hint search may still reparse (``None``: no search runs)."""


class _OutOfBudget(Exception):
    """The hint search reparsed :data:`REPARSE_BUDGET` characters: give up the hint."""


def _spend(text: str) -> str:
    """``text``, charged as one reparse to the running search's budget.

    Raises:
        _OutOfBudget: the search has spent :data:`REPARSE_BUDGET` characters.
    """
    left = _BUDGET.get()
    if left is not None:
        left[0] -= len(text)
        if left[0] < 0:
            raise _OutOfBudget
    return text


def within_budget(search: Callable[[], str | None]) -> str | None:
    """``search()`` (a hint search that reparses edited texts) with at most
    :data:`REPARSE_BUDGET` characters reparsed in all; ``None`` once they are spent."""
    token = _BUDGET.set([REPARSE_BUDGET])
    try:
        return search()
    except _OutOfBudget:
        return None
    finally:
        _BUDGET.reset(token)


def edit_hint(sentence: str, text: str, begin: int, end: int, new: str) -> Hint:
    """``sentence`` with its edit: ``text[begin:end]`` replaced by ``new`` (offsets of
    ``text``, the whole file's text)."""
    return Hint(sentence, (replacement(text, begin, end, new),))


def changed_hint(sentence: str, text: str, fixed: str) -> Hint:
    """``sentence`` with its edit: the part of ``text`` that ``fixed`` (the text with the
    edit made) changes, as one replacement (the common start and end kept)."""
    begin = 0
    most = min(len(text), len(fixed))
    while begin < most and text[begin] == fixed[begin]:
        begin += 1
    end = 0
    while end < most - begin and text[-1 - end] == fixed[-1 - end]:
        end += 1
    return edit_hint(sentence, text, begin, len(text) - end, fixed[begin:len(fixed) - end])


def deletion_hint(sentence: str, text: str, begin: int, end: int) -> Hint:
    """``sentence`` with its edit: ``text[begin:end]`` deleted with one of the gaps around
    it: the spaces after it when there are spaces on both sides (``on my kitty`` → ``on
    kitty``), those before it when it ends the line (``players 3 to 6 ;`` → ``players 3 to
    6``), else none (``title: "Mine"`` → ``title "Mine"``)."""
    line_start = text.rfind("\n", 0, begin) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    rest = re.sub(r"[ \t]*(#.*)?\r?$", "", text[end:line_end])
    after = len(text[end:line_end]) - len(text[end:line_end].lstrip(" \t"))
    before = len(text[line_start:begin]) - len(text[line_start:begin].rstrip(" \t"))
    if before and after and rest:
        return edit_hint(sentence, text, begin, end + after, "")
    if before and not rest:
        return edit_hint(sentence, text, begin - before, end, "")
    return edit_hint(sentence, text, begin, end, "")


def two_words(word: str, text: str, at: int, start: str) -> str | None:
    """``write 'same suit' as two words`` for two keywords written as one (``samesuit``), if
    the parser then reads past the next line (``everyone`` is no ``every one``)."""
    keywords = set(grammar_keywords())
    goal = _past_next_line(text, at)
    for cut in range(1, len(word)):
        if word[:cut] in keywords and word[cut:] in keywords:
            split = f"{word[:cut]} {word[cut:]}"
            if _reaches(text[:at] + split + text[at + len(word):], start, goal, 1, at):
                return edit_hint(f"write '{split}' as two words", text, at, at + len(word),
                                 split)
    return None


def _reaches(fixed: str, start: str, goal: int, shift: int, at: int) -> bool:
    """Whether ``fixed`` (the text edited at offset ``at``, ``shift`` characters longer)
    parses past offset ``goal`` of the original text: whether the edit repairs the error.

    Only the text up to the end of the line after ``goal`` is parsed: reaching its end is
    reaching past ``goal``, and a large file costs no more than its part before the error.
    """
    cut = fixed.find("\n", goal + shift + 1)
    if cut >= 0:
        fixed = fixed[:cut]
    token = CURRENT_TEXT.set(fixed)
    try:
        parser(start).parse(_spend(fixed))
        return True
    except UnexpectedInput as exc:
        if at_file_end(exc):
            where = len(fixed)
        elif exc.line is None or exc.column is None:
            return False
        else:
            where = offset_of(fixed, exc.line, exc.column)
    except (GluedKeyword, TooLarge) as exc:
        where = exc.token.start_pos or 0
    finally:
        CURRENT_TEXT.reset(token)
    return where > at and where - shift > goal


def _shown_line(text: str, line: int) -> str:
    """Line ``line`` without its comment and outer spaces (for a hint that quotes it)."""
    lines = lines_of(text)
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    return " ".join(re.sub(r'\s#[^"]*$|^#.*$', "", raw).split())


_PUNCTUATION = {"COLON": ":", "COMMA": ",", "LBRACE": "{"}


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
            parser(start).parse(_spend(fixed[:line_end]))
            return None  # the line parses whole: the parser stopped at no missing comma
        except UnexpectedToken as exc:
            if "COMMA" not in exc.expected or exc.line is None or exc.column is None:
                return None
            where = offset_of(fixed, exc.line, exc.column)
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
    token = CURRENT_TEXT.set(prefix)
    try:
        probe = parser(start).parse_interactive(_spend(prefix))
        probe.exhaust_lexer()
        return bool(shiftable(probe) & {"RBRACE", "$END"})
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
    keywords = grammar_keywords()
    if word in keywords:
        return None
    for close in difflib.get_close_matches(word, keywords, n=3, cutoff=0.75):
        begin = match.start(1)
        fixed = text[:begin] + close + text[match.end(1):]
        if _reaches(fixed, start, goal, len(close) - len(word), begin):
            return edit_hint(f"did you mean {close} (not {word})?", text, begin,
                             match.end(1), close)
    return None


def _extra_before(text: str, at: int, start: str, goal: int) -> str | None:
    """``delete 'the'`` for a word before offset ``at`` that is no keyword (read as a name:
    ``on the kitty``, the error at ``kitty``), when the line reads right without it."""
    match = re.search(r"([a-z][a-z0-9_-]*)([ \t]+)$", text[:at])
    if match is None or match.group(1) in grammar_keywords():
        return None
    begin = match.start(1)
    fixed = text[:begin] + text[at:]
    if _reaches(fixed, start, goal, begin - at, begin) and _line_complete(fixed, start, begin):
        line = text.count("\n", 0, begin) + 1
        shown = _shown_line(fixed, line)
        example = f" (write it {shown})" if 0 < len(shown) <= 72 else ""
        return deletion_hint(f"delete '{match.group(1)}': it has no place here{example}", text,
                             begin, match.end(1))
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


def _unclosed_at_end(blocks: list[Block], early: list[tuple[Block, int]]) -> str:
    """The hint for a file that ends inside ``blocks``; ``early``: blocks closed by a ``}``
    indented like an outer block's (:func:`scan_blocks`), the likely culprit."""
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
    marks = [m.group() for m in BRACES.finditer(text)]
    return marks.count("{") - marks.count("}")


# ---------------------------------------------------------------- the strategies


@dataclass(frozen=True)
class Slip:
    """A syntax error as the repair strategies see it: the parser's error ``exc`` on
    ``text`` (parsed from grammar rule ``start``), its ``line`` and ``column`` (1-based),
    the ``word`` found there (``""`` at the end of the file), the terminals the parser
    could take there (``expected``) and the blocks open there, outermost first
    (``blocks``).  The other attributes are worked out from those once, on first use."""

    exc: UnexpectedInput
    text: str
    start: str
    line: int
    column: int
    word: str
    expected: set[str]
    blocks: list[Block]

    @cached_property
    def at_end(self) -> bool:
        """Whether the parser stopped at the end of the file."""
        return at_file_end(self.exc)

    @cached_property
    def at(self) -> int:
        """The error's offset in ``text`` (its length at the end of the file)."""
        return len(self.text) if self.at_end else offset_of(self.text, self.line, self.column)

    @cached_property
    def goal(self) -> int:
        """The offset an edit must let the parser read past (:func:`_past_next_line`)."""
        return _past_next_line(self.text, self.at)

    @cached_property
    def inner(self) -> Block | None:
        """The innermost block open at the error, if any."""
        return self.blocks[-1] if self.blocks else None

    @cached_property
    def is_word(self) -> bool:
        """Whether the unexpected thing is a word (a letter, then letters, digits, ``_``
        or ``-``): a misspelt or misplaced keyword, a name, a label without quotes."""
        return re.fullmatch(r"[A-Za-z][\w-]*", self.word) is not None

    @cached_property
    def stray(self) -> bool:
        """Whether the unexpected thing is a mark the lexer does not know (``;``, ``=``,
        ``.``), neither a word nor a quote nor a brace."""
        return isinstance(self.exc, UnexpectedCharacters) and bool(self.word) \
            and not self.word[0].isalnum() and self.word[0] not in "\"{}"

    @cached_property
    def marks(self) -> list[tuple[str, str]]:
        """What may be missing here, as (how the hint names it, the text to add): the marks
        ``:``, ``,`` and ``{`` the parser expected and, where it expected at most three
        terminals, its keywords (``("'left' or 'right'", "left")``)."""
        marks = [(name, _PUNCTUATION[name]) for name in sorted(self.expected)
                 if name in _PUNCTUATION]
        if len(self.expected) <= 3:  # a missing keyword: one of the few the parser expected
            marks += [(" or ".join(f"'{w}'" for w in words), words[0])
                      for name in sorted(self.expected)
                      if (words := words_of(name)) and name not in _PUNCTUATION]
        return marks

    @cached_property
    def statement_keyword(self) -> str:
        """The keyword the error's statement starts with (``remove`` in ``remove A♥,
        K♥``), or ``""``."""
        first = max(self.text.rfind("\n", 0, self.at), self.text.rfind("{", 0, self.at)) + 1
        lead = re.match(r"[ \t]*([a-z]+)", self.text[first:self.at])
        return lead.group(1) if lead else ""

    @cached_property
    def end(self) -> int:
        """The offset just after the unexpected word."""
        return self.at + len(self.word)

    def reaches(self, fixed: str, shift: int, at: int) -> bool:
        """Whether the edited text ``fixed`` (edited at offset ``at``, ``shift`` characters
        longer) lets the parser read past :attr:`goal` (:func:`_reaches`)."""
        return _reaches(fixed, self.start, self.goal, shift, at)

    def whole_line(self, fixed: str, at: int) -> bool:
        """Whether the line of offset ``at`` in ``fixed`` is a whole line
        (:func:`_line_complete`)."""
        return _line_complete(fixed, self.start, at)


Repair = Callable[[Slip], str | None]
"""A repair strategy: the hint for the slip it repairs, ``None`` for any other."""


def _written(fixed: str, line: int) -> str:
    """`` (write it LINE)``: line ``line`` of ``fixed`` quoted for a hint, if it is short
    enough to quote (72 characters at most); else ``""``."""
    shown = _shown_line(fixed, line)
    return f" (write it {shown})" if 0 < len(shown) <= 72 else ""


def unclosed_at_end(slip: Slip) -> str | None:
    """The file ends inside a block: name the blocks not closed and where their ``}`` goes.
    ``variant v {`` then ``players 3 to 6`` → ``the variant block, opened at line 1, is not
    closed: add '}' at the end of the file``.  It answers every error at the end of the
    file, so the strategies after it see only errors inside the text."""
    if not slip.at_end:
        return None
    early = scan_blocks(slip.text, len(slip.text))[1]
    sentence = _unclosed_at_end(slip.blocks, early)
    text = slip.text
    if not slip.blocks:
        return sentence
    if early and len(early) == 1 and len(slip.blocks) == 1:  # its '}' before line N
        place = offset_of(text, early[0][1], 1)
        indent = re.match(r"[ \t]*", text[place:])
        return edit_hint(sentence, text, place, place, (indent.group() if indent else "")
                         + "}\n")
    closing = "" if text.endswith("\n") or not text else "\n"
    return edit_hint(sentence, text, len(text), len(text),
                     closing + "}\n" * len(slip.blocks))


def keywords_run_together(slip: Slip) -> str | None:
    """Two keywords written as one word: ``samesuit`` → ``write 'same suit' as two
    words``."""
    if not slip.is_word:
        return None
    return two_words(slip.word, slip.text, slip.at, slip.start)


def misspelt_keyword(slip: Slip) -> str | None:
    """A keyword the parser expected here, misspelt: ``palyers 3 to 7`` → ``did you mean
    players?`` (the closest expected keyword; none if the word is one already)."""
    if not slip.is_word:
        return None
    keywords = sorted({w for name in slip.expected for w in words_of(name)})
    close = difflib.get_close_matches(slip.word.lower(), keywords, n=1, cutoff=0.6)
    if close and close[0] != slip.word:
        return edit_hint(f"did you mean {close[0]}?", slip.text, slip.at, slip.end, close[0])
    return None


def misspelt_word_before(slip: Slip) -> str | None:
    """The word before the error is a misspelt keyword, read as a name: ``on aech boodle``
    (the error at ``boodle``) → ``did you mean each (not aech)?``."""
    if not slip.is_word:
        return None
    return _misspelt_before(slip.text, slip.at, slip.start, slip.goal)


def article_before(slip: Slip) -> str | None:
    """An article (``the``, ``an``) before the error, read as a name: ``on the kitty`` →
    ``delete 'the': it has no place here``.  An article is no section name, so this comes
    before a comma goes in (``on the, kitty``)."""
    if not slip.is_word or not re.search(r"\b(the|an)[ \t]+$", slip.text[:slip.at]):
        return None
    return _extra_before(slip.text, slip.at, slip.start, slip.goal)


def _other_blocks(slip: Slip) -> list[str]:
    """The kinds of block the error's word starts a line of, when it starts a line of the
    innermost open block and may not (the parser could take a ``}`` there); else none."""
    if not slip.is_word or slip.inner is None or "RBRACE" not in slip.expected \
            or _line_start(slip.text, slip.at) != slip.at:
        return []
    elsewhere = blocks_starting(slip.word)
    return [] if slip.inner.kind in elsewhere else elsewhere


def block_not_closed_before_word(slip: Slip) -> str | None:
    """A line of an outer block inside an inner one whose ``}`` is missing: ``deal {``,
    ``rotation: left``, then ``players 3 to 6`` (a line of the variant block) → ``the deal
    block, opened at line 2, is not closed: add '}' before 'players'``, if the parser
    reads on with that ``}``."""
    elsewhere = _other_blocks(slip)
    inner = slip.inner
    if not elsewhere or inner is None or _balance(slip.text) <= 0 \
            or not any(b.kind in elsewhere for b in slip.blocks[:-1]) \
            or not slip.reaches(slip.text[:slip.at] + "} " + slip.text[slip.at:], 2, slip.at):
        return None
    return edit_hint(f"{inner.named()}, opened at line {inner.line}, is not closed: "
                     f"add '}}' before '{slip.word}'", slip.text, slip.at, slip.at, "} ")


def line_in_wrong_block(slip: Slip) -> str | None:
    """A line of one kind of block inside another: ``session { rotation: left }`` →
    ``'rotation' starts a line of a deal { … } block, not of the session block: move this
    line there`` when the braces balance; else whether a block's opening line is missing
    (a ``}`` more than ``{``) or a ``}`` too many."""
    elsewhere = _other_blocks(slip)
    inner = slip.inner
    if not elsewhere or inner is None:
        return None
    where = " or ".join(as_block(k) for k in elsewhere)
    balance = _balance(slip.text)
    if balance < 0:
        return (f"'{slip.word}' starts a line of {where}, not of {inner.named()}: is the "
                "line that opens that block missing above?")
    if balance == 0:
        return (f"'{slip.word}' starts a line of {where}, not of {inner.named()}: move "
                "this line there")
    return (f"'{slip.word}' starts a line of {where}, not of {inner.named()}: is the "
            "line that opens that block missing, or a '}' too many above?")


def block_not_closed_before_line(slip: Slip) -> str | None:
    """An inner block whose ``}`` is missing, the error inside the line after it, if the
    parser reads on with a ``}`` at the line's start: ``ante {``, ``dealer 2 on kitty``,
    then ``widow sale {`` (``widow`` starts an ante line too, the error is at ``sale``) →
    ``the ante block, opened at line 2, is not closed: add '}' before this line``."""
    inner = slip.inner
    if inner is None or len(slip.blocks) < 2 or _balance(slip.text) <= 0:
        return None
    first = _line_start(slip.text, slip.at)
    if first < slip.at and slip.reaches(slip.text[:first] + "} " + slip.text[first:], 2,
                                        first):
        line_begin = slip.text.rfind("\n", 0, first) + 1
        return edit_hint(f"{inner.named()}, opened at line {inner.line}, is not closed: "
                         "add '}' before this line", slip.text, first, first,
                         "}\n" + slip.text[line_begin:first])
    return None


def keyword_again(slip: Slip) -> str | None:
    """A comma where the statement takes one item: ``kitty "Pot", "Pool"`` → ``one item
    per 'kitty': write 'kitty' again (write it kitty "Pot" kitty "Pool")``."""
    keyword, at, text = slip.statement_keyword, slip.at, slip.text
    if slip.word != "," or keyword not in grammar_keywords():
        return None
    fixed = text[:at] + " " + keyword + text[at + 1:]
    if slip.reaches(fixed, len(keyword), at) and slip.whole_line(fixed, at):
        return edit_hint(f"one item per '{keyword}': write '{keyword}' again"
                         f"{_written(fixed, slip.line)}", text, at, at + 1, " " + keyword)
    return None


def extra_colon_or_comma(slip: Slip) -> str | None:
    """A ``:`` or ``,`` where there is none: ``players: 3 to 7`` → ``delete ':': there is
    none here (write it players 3 to 7)``."""
    if slip.word not in (":", ","):
        return None
    fixed = slip.text[:slip.at] + slip.text[slip.at + 1:]
    if not slip.reaches(fixed, -1, slip.at - 1):
        return None
    return edit_hint(f"delete '{slip.word}': there is none here{_written(fixed, slip.line)}",
                     slip.text, slip.at, slip.at + 1, "")


def mark_for_stray(slip: Slip) -> str | None:
    """A stray mark where a ``:`` or ``,`` goes: ``rotation; left`` → ``write ':' instead
    of ';'``."""
    if not slip.stray:
        return None
    text, at = slip.text, slip.at
    for _, mark in slip.marks:
        if mark in ":," and slip.reaches(text[:at] + mark + text[at + 1:], len(mark) - 1, at):
            return edit_hint(f"write '{mark}' instead of '{slip.word[0]}'", text, at, at + 1,
                             mark)
    return None


def _with_mark(slip: Slip, mark: str) -> tuple[str, int] | None:
    """The text with ``mark`` added after the word before the error and how many marks
    that adds, if that repairs the error; else ``None``.  A comma is a local edit: it
    repairs a line that is whole after it, even if the next line has an error of its own;
    and a list of three items or more lacks a comma after each, where one is not enough.
    A word a comma replaces (``A♥ and kitty``) is not this slip (:func:`mark_for_word`)."""
    text, start, goal, at = slip.text, slip.start, slip.goal, slip.at
    ins = _end_of_previous(text, at)
    added = mark if mark in ":,{" else " " + mark
    fixed = text[:ins] + added + text[ins:]
    if slip.reaches(fixed, len(added), ins):
        return fixed, 1
    if mark != "," or _comma_instead(text, at, slip.word, start, goal):
        return None
    if _line_complete(fixed, start, ins):
        return fixed, 1
    return _more_commas(fixed, start, goal, ins)


def missing_mark(slip: Slip) -> str | None:
    """A missing ``:``, ``,``, ``{`` or keyword before the error, in the order of
    :attr:`Slip.marks`: ``rotation left`` → ``add ':' after 'rotation' (write it rotation:
    left)``; ``stop: top rank next card held by nobody`` → ``separate the items with ',':
    add one before 'next' (…)``; ``deal`` then a line → ``put '{' after 'deal' to open
    its block``."""
    if slip.stray:
        return None
    after = _previous_word(slip.text, slip.at)
    for name, mark in slip.marks:
        repaired = _with_mark(slip, mark)
        if repaired is None:
            continue
        fixed, commas = repaired
        ins = _end_of_previous(slip.text, slip.at)
        if mark == "{":
            return edit_hint(f"put '{{' after '{after}' to open its block" if after else
                             "put '{' here to open the block", slip.text, ins, ins, " {")
        example = _written(fixed, fixed.count("\n", 0, ins) + 1)
        if mark == ",":
            each = " and before each item after it" if commas > 1 else ""
            return changed_hint(f"separate the items with ',': add one before '{slip.word}'"
                                f"{each}{example}", slip.text, fixed)
        where = f" after '{after}'" if after else ""
        added = mark if mark in ":,{" else " " + mark
        return edit_hint(f"add {name if name.startswith(chr(39)) else repr(mark)}{where}"
                         f"{example}", slip.text, ins, ins, added)
    return None


def stray_mark(slip: Slip) -> str | None:
    """A mark the lexer does not know, no ``:`` or ``,`` in its place repairing the line:
    ``players 3 to 6 ;`` → ``delete ';': it has no meaning in a rules file`` if the line
    reads right without it, else ``';' has no meaning here in a rules file``."""
    if not slip.stray:
        return None
    if slip.reaches(slip.text[:slip.at] + slip.text[slip.at + 1:], -1, slip.at - 1):
        return deletion_hint(f"delete '{slip.word[0]}': it has no meaning in a rules file",
                             slip.text, slip.at, slip.at + 1)
    return f"'{slip.word[0]}' has no meaning here in a rules file"


def mark_for_word(slip: Slip) -> str | None:
    """A word where a ``:`` or ``,`` goes: ``on A♥ and kitty`` → ``write ',' instead of
    'and'``."""
    if not slip.is_word:
        return None
    for _, mark in slip.marks:
        fixed = slip.text[:slip.at].rstrip(" \t") + mark + slip.text[slip.end:]
        if mark in ":," and slip.reaches(fixed, len(fixed) - len(slip.text), slip.at) \
                and slip.whole_line(fixed, slip.at):
            begin = len(slip.text[:slip.at].rstrip(" \t"))
            return edit_hint(f"write '{mark}' instead of '{slip.word}'", slip.text, begin,
                             slip.end, mark)
    return None


def extra_word_before(slip: Slip) -> str | None:
    """A word before the error that is no keyword, read as a name, where the line reads
    right without it: ``dealer 2 on my kitty`` → ``delete 'my': it has no place here
    (write it dealer 2 on kitty)``."""
    if not slip.is_word:
        return None
    return _extra_before(slip.text, slip.at, slip.start, slip.goal)


def unquoted_label(slip: Slip) -> str | None:
    """A label without its quotes: ``title Mine`` → ``a label is written in double
    quotes: "Mine"``."""
    if not slip.is_word or "STRING" not in slip.expected:
        return None
    fixed = slip.text[:slip.at] + f'"{slip.word}"' + slip.text[slip.end:]
    if slip.reaches(fixed, 2, slip.at) and slip.whole_line(fixed, slip.at):
        return edit_hint(f'a label is written in double quotes: "{slip.word}"', slip.text,
                         slip.at, slip.end, f'"{slip.word}"')
    return None


def _agreeing(marks: list[tuple[str, str]], before: str) -> list[tuple[str, str]]:
    """``marks`` (as :attr:`Slip.marks`) with, after a number, the word that agrees with it
    first: ``chips`` after ``2`` (``blinds: 1, 2 jetons``), ``chip`` after ``1``."""
    if not before.isdigit():
        return marks
    plural = int(before) != 1
    return sorted(marks, key=lambda m: m[1].endswith("s") != plural)


def keyword_for_word(slip: Slip) -> str | None:
    """A word where one of the few keywords the parser expected goes: ``rotation: up`` →
    ``write 'right' or 'left' instead of 'up' (write it rotation: right)``."""
    if not slip.is_word:
        return None
    for label, mark in _agreeing(slip.marks, _previous_word(slip.text, slip.at)):
        if not mark.isalpha():
            continue
        fixed = slip.text[:slip.at] + mark + slip.text[slip.end:]
        if slip.reaches(fixed, len(mark) - len(slip.word), slip.at) \
                and slip.whole_line(fixed, slip.at):
            return edit_hint(f"write {label} instead of '{slip.word}'"
                             f"{_written(fixed, slip.line)}", slip.text, slip.at, slip.end,
                             mark)
    return None


def extra_word(slip: Slip) -> str | None:
    """A word with no place here, the line whole without it: ``players 3 to 6 please`` →
    ``delete 'please': it has no place here (write it players 3 to 6)``.  A word close to a
    keyword the parser expected is said first (:func:`misspelt_keyword`: there a line may
    start with ``phase``)."""
    if not slip.is_word:
        return None
    text, at, end = slip.text, slip.at, slip.end
    gap = len(text[end:]) - len(text[end:].lstrip(" \t"))
    fixed = text[:at] + text[end + gap:]
    if slip.reaches(fixed, -len(slip.word) - gap, at - 1) and slip.whole_line(fixed, at):
        return edit_hint(f"delete '{slip.word}': it has no place here"
                         f"{_written(fixed, slip.line)}", text, at, end + gap, "")
    return None


_MAX_PHRASE_WORDS = 5  # the longest phrase :func:`_phrases` tries
_MAX_PHRASES = 40      # and how many phrases it collects at most


def _phrases(prefix: str, start: str) -> list[str]:
    """The phrases of keywords that can end the line ``prefix`` stops inside (after its
    ``:`` or ``,``), as the grammar has them: after ``restart: last player,`` they are
    ``lowest of other suit``, ``lowest card``, ``any card`` …  A phrase is complete when
    the block could close after it; phrases with a card, a suit or a number are left out.
    Bounded: at most :data:`_MAX_PHRASE_WORDS` words and :data:`_MAX_PHRASES` phrases."""
    from lark import Token

    token = CURRENT_TEXT.set(prefix)
    try:
        probe = parser(start).parse_interactive(_spend(prefix))
        probe.exhaust_lexer()
    except (UnexpectedInput, GluedKeyword, TooLarge):
        return []
    finally:
        CURRENT_TEXT.reset(token)
    found: list[str] = []
    # Lark's interactive parser is untyped (as in syntax_where.shiftable)
    frontier: list[tuple[Any, list[str]]] = [(probe, [])]
    for _ in range(_MAX_PHRASE_WORDS):
        following: list[tuple[Any, list[str]]] = []
        for state, words in frontier:
            for name in sorted(shiftable(state)):
                if name in ("COMMA", "RBRACE") or (not words and name in ("COLON",)):
                    continue
                for word in words_of(name):
                    after = state.copy()
                    try:
                        after.feed_token(Token(name, word))
                    except (UnexpectedInput, GluedKeyword, TooLarge):
                        continue
                    phrase = [*words, word]
                    if "RBRACE" in shiftable(after):
                        found.append(" ".join(phrase))
                    else:
                        following.append((after, phrase))
                    if len(found) >= _MAX_PHRASES:
                        return found
        frontier = following
    return found


def comma_between_lines(slip: Slip) -> str | None:
    """A ``,`` between two lines of a block written on one line: ``ante { dealer 2 on kitty,
    each player 1 on each boodle }`` → ``delete the ',' before 'each': lines of a block are
    apart by spaces or a line break, not a comma (write it …)``.  The parser read the word
    after the comma as an item of the first line and stopped later, inside the second."""
    text, at = slip.text, slip.at
    begin = text.rfind("\n", 0, at) + 1
    head = re.sub(r'"[^"]*"', lambda m: " " * len(m.group()), text[begin:at])
    comma = head.rfind(",")
    if comma < 0:
        return None
    where = begin + comma
    fixed = text[:where] + " " + text[where + 1:]
    if not slip.reaches(fixed, 0, where) or not slip.whole_line(fixed, at):
        return None
    after = re.match(r"\s*([^\s,{}]+)", text[where + 1:])
    word = f" before '{after.group(1)}'" if after else ""
    return edit_hint(f"delete the ','{word}: lines of a block are apart by spaces or a line "
                     f"break, not a comma{_written(fixed, slip.line)}", text, where, where + 1,
                     " ")


def closest_phrase(slip: Slip) -> str | None:
    """``restart: last player, lowest card of another suit`` → ``restart: last player,
    lowest of other suit``: a line whose last part (after its last ``:`` or ``,``) is none
    of the grammar's phrases there but close to one, when the line reads right with that
    phrase; the phrases the grammar has there follow, so that the author can pick another."""
    text, at = slip.text, slip.at
    begin = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    head = re.sub(r'"[^"]*"', lambda m: " " * len(m.group()), text[begin:at])
    cut = max(head.rfind(","), head.rfind(":"))
    if cut < 0:
        return None
    part_at = begin + cut + 1
    comment = _comment_start(text[part_at:end])
    written = " ".join(text[part_at: end if comment is None else part_at + comment].split())
    phrases = _phrases(text[:part_at], slip.start)
    if not written or written in phrases or not phrases:
        return None
    best = max(phrases, key=lambda p: difflib.SequenceMatcher(None, written, p).ratio())
    if difflib.SequenceMatcher(None, written, best).ratio() < 0.6:
        return None
    fixed = text[:part_at] + " " + best + text[end:]
    if not slip.reaches(fixed, len(fixed) - len(text), part_at) \
            and not slip.whole_line(fixed, part_at):
        return None
    choices = ", ".join(sorted(phrases)) if len(phrases) <= 12 else ""
    code_end = len(text[:end if comment is None else part_at + comment].rstrip(" \t\r"))
    return edit_hint(f"write it {_shown_line(fixed, slip.line)}"
                     + (f" (the choices there: {choices})" if choices else ""), text, part_at,
                     max(code_end, part_at), " " + best)


def line_ended_early(slip: Slip) -> tuple[int, str] | None:
    """:func:`_line_ended_early` within :data:`REPARSE_BUDGET` characters reparsed
    (``None`` past it)."""
    found: list[tuple[int, str]] = []

    def search() -> str | None:
        result = _line_ended_early(slip)
        if result is not None:
            found.append(result)
        return None

    within_budget(search)
    return found[0] if found else None


def _line_ended_early(slip: Slip) -> tuple[int, str] | None:
    """For a line that ends too early, the parser stopping at the first word of the next
    line (``seating: redrawn``, then ``}``): the offset just after the line's last word and
    the one phrase of keywords that finishes it (``each deal``), when the text with it
    added reads on (:func:`_phrases`, :func:`_reaches`); else ``None``.  A line that may
    end where it does (the next line misplaced) or that several phrases finish is not this
    slip."""
    text, at = slip.text, slip.at
    if slip.at_end or _line_start(text, at) != at:
        return None
    end = _end_of_previous(text, at)
    if end <= 0 or "\n" not in text[end:at] or _line_complete(text, slip.start, end - 1):
        return None
    phrases = [p for p in _phrases(text[:end], slip.start)
               if all(w.isalpha() for w in p.split())]
    if len(phrases) != 1:
        return None
    fixed = text[:end] + " " + phrases[0] + text[end:]
    if not slip.reaches(fixed, len(phrases[0]) + 1, end):
        return None
    return end, phrases[0]


REPAIRS: tuple[Repair, ...] = (
    unclosed_at_end,
    keywords_run_together,
    misspelt_keyword,
    misspelt_word_before,
    article_before,
    block_not_closed_before_word,
    line_in_wrong_block,
    block_not_closed_before_line,
    keyword_again,
    extra_colon_or_comma,
    mark_for_stray,
    missing_mark,
    stray_mark,
    mark_for_word,
    extra_word_before,
    unquoted_label,
    keyword_for_word,
    extra_word,
    comma_between_lines,
    closest_phrase,
)
"""The repair strategies, in the order they are tried: the first hint wins.  The order
matters where two apply: a block left open is said before a line in the wrong block, a
keyword again before a comma deleted, a missing mark before a word deleted; a comma
between two lines (:func:`comma_between_lines`) and a phrase rewritten whole
(:func:`closest_phrase`) only when no smaller edit repairs the line."""


def repair_hint(slip: Slip) -> str | None:
    """A hint from the edit that lets the parser read past the error's line, from the
    first strategy of :data:`REPAIRS` that finds one; ``None`` if no simple edit does, or
    none within :data:`REPARSE_BUDGET` characters reparsed."""
    return within_budget(lambda: _first_repair(slip))


def _first_repair(slip: Slip) -> str | None:
    """The hint of the first strategy of :data:`REPAIRS` that finds one, else ``None``."""
    for repair in REPAIRS:
        hint = repair(slip)
        if hint is not None:
            return hint
    return None
