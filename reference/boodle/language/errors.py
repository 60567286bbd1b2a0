"""Source locations and the one error type users see.

Every error raised on user input is a :class:`BoodleError` carrying a
:class:`Span`; :meth:`BoodleError.render` prints it as ``file:line:col``,
the source line, a caret under the fault and a hint, the way compilers do.
Nothing else should reach a user as a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """Where a construct was written: 1-based line and column, end exclusive.

    ``text`` is the whole source the span points into (kept so an error can
    quote the line); it takes no part in equality.
    """

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def source_line(self) -> str:
        """The source line the span starts on, without its newline.

        Lines are counted as the lexer counts them: only ``\\n`` ends a line
        (a form feed or U+2028 inside a comment does not), and a ``\\r`` before
        it is dropped.
        """
        lines = self.text.split("\n")
        line = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        return line.removesuffix("\r")


@dataclass(frozen=True)
class Replacement:
    """One edit of the file an error is in: replace the text from line ``line``, column
    ``column`` to ``end_line``, ``end_column`` (1-based, end exclusive, as :class:`Span`
    counts: lines end at ``\\n`` only) by ``text``.  An insertion has its end at its start."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


def replacement(text: str, begin: int, end: int, new: str) -> Replacement:
    """The edit that replaces ``text[begin:end]`` (offsets of the whole file's text) by
    ``new``."""
    def position(offset: int) -> tuple[int, int]:
        line_start = text.rfind("\n", 0, offset) + 1
        return text.count("\n", 0, offset) + 1, offset - line_start + 1

    (line, column), (end_line, end_column) = position(begin), position(end)
    return Replacement(line, column, end_line, end_column, new)


def line_added(span: Span, line: str) -> Replacement | None:
    """The edit that adds ``line`` as the last line of the block written over ``span`` (a
    block of several lines, its ``}`` first on its last line), indented two spaces more
    than the block's first line; ``None`` for a block on one line."""
    lines = span.text.split("\n")
    if span.end_line <= span.line or not 0 < span.end_line <= len(lines) \
            or not lines[span.end_line - 1].lstrip(" \t").startswith("}"):
        return None
    first = lines[span.line - 1]
    indent = first[:len(first) - len(first.lstrip(" \t"))]
    return Replacement(span.end_line, 1, span.end_line, 1, f"{indent}  {line}\n")


def rewritten(span: Span, written: str) -> Replacement | None:
    """The edit that writes ``written`` in place of what ``span`` covers (one line); ``None``
    for a span of several lines."""
    if span.end_line != span.line or span.end_column <= span.column:
        return None
    return Replacement(span.line, span.column, span.end_line, span.end_column, written)


class Hint(str):
    """A hint together with the edit it names (``did you mean kitty?`` and the replacement
    of ``kity`` by ``kitty``), for an editor's quick fix: the producer of the hint, which
    knows the edit (a repair strategy has parsed the text with it), states it here, so that
    nothing has to read it back from the sentence.  It is the sentence everywhere else: a
    ``str`` (equal to it, printed as it); :class:`BoodleError` takes its ``edits``."""

    edits: tuple[Replacement, ...]

    def __new__(cls, sentence: str, edits: Iterable[Replacement] = ()) -> Hint:
        made = super().__new__(cls, sentence)
        made.edits = tuple(edits)
        return made

    def __reduce__(self) -> tuple[type[Hint], tuple[str, tuple[Replacement, ...]]]:
        return (Hint, (str(self), self.edits))


def hint_edits(hint: str | None) -> tuple[Replacement, ...]:
    """The edits ``hint`` names, if it is a :class:`Hint` (else none)."""
    return hint.edits if isinstance(hint, Hint) else ()


class BoodleError(Exception):
    """An error in user input (a rules file, a move, a command argument).

    ``message`` says what is wrong; ``span`` where (``None`` when there is
    no source, e.g. a bad command-line value); ``hint`` what to do instead;
    ``rule`` the spec rule id a rejected move breaks (e.g. ``lead.lowest``);
    ``notes`` stack context such as "while loading base variant michigan";
    ``more`` the further errors of the same file, independent of this one (a
    variant missing both its ``deal`` and its ``session`` block): :meth:`render`
    shows this one in full and lists those after it, as compilers do;
    ``edits`` the edit the hint names, in the file of ``span`` (an editor's quick fix), by
    default those of a :class:`Hint`.
    """

    def __init__(
        self,
        message: str,
        span: Span | None = None,
        hint: str | None = None,
        rule: str | None = None,
        notes: tuple[str, ...] = (),
        more: tuple[BoodleError, ...] = (),
        edits: tuple[Replacement, ...] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        self.rule = rule
        self.notes = notes
        self.more = more
        self.edits = hint_edits(hint) if edits is None else edits

    def with_note(self, note: str) -> BoodleError:
        """Return a copy of this error with one more context note."""
        return BoodleError(self.message, self.span, self.hint, self.rule, (*self.notes, note),
                           self.more, self.edits)

    def with_more(self, more: Iterable[BoodleError]) -> BoodleError:
        """Return a copy of this error with ``more`` (further errors of the same input,
        each without its own ``more``) after its own."""
        further = tuple(e for e in more)
        return BoodleError(self.message, self.span, self.hint, self.rule, self.notes,
                           (*self.more, *further), self.edits)

    def head(self) -> str:
        """The error's first line: ``file:line:col: error: message [rule R]``."""
        head = f"{self.span}: error: {self.message}" if self.span else f"error: {self.message}"
        if self.rule:
            head += f" [rule {self.rule}]"
        return printable(head)  # a message may quote what was typed: a file name, a word

    def render(self) -> str:
        """The full human-readable error: location, message, source line, caret, hint,
        notes; then each further error (:attr:`more`) as its first line and its hint."""
        out = [self.head()]
        if self.span and 0 < self.span.line <= self.span.text.count("\n") + 1:
            # the line is shown even when blank (an empty file: the caret at 1:1)
            line = self.span.source_line()
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            # the caret goes under the column: tabs before it widen as the line's do
            lead = line[:self.span.column - 1]
            indent = "".join(ch if ch == "\t" else " " for ch in lead)
            out.append(f"  {self.span.line:>4} | {printable(line)}")
            out.append("       | " + indent + "^" * width)
        if self.hint:
            out.append(f"  hint: {printable(self.hint)}")
        out.extend(f"  note: {printable(note)}" for note in self.notes)
        if self.more:
            count = len(self.more)
            out.append(f"{count} more error{'s' if count > 1 else ''}:")
            for other in self.more:
                out.append(f"  {other.head()}")
                if other.hint:
                    out.append(f"    hint: {printable(other.hint)}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render()


def printable(line: str) -> str:
    """``line`` (any text) as it may go to a terminal: each control character but tab and
    line feed shown as one printable character (its Control Pictures symbol, ␛ for ESC, ␡ for
    DEL; U+FFFD for a C1 control), so a caret below stays in its column and the text cannot
    drive the terminal (spec §11.1)."""
    return "".join(
        chr(0x2400 + ord(ch)) if ord(ch) < 0x20 and ch not in "\t\n"
        else "\u2421" if ch == "\x7f"
        else "\ufffd" if 0x80 <= ord(ch) < 0xA0
        else ch
        for ch in line)


def did_you_mean(word: str, choices: Iterable[str], span: Span | None = None) -> str | None:
    """A ``did you mean X?`` hint for the closest choice, or ``None``; with ``span`` (where
    ``word`` is written), a :class:`Hint` whose edit writes X there."""
    pool = list(choices)
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.5)
    if not close:
        folded = {choice.casefold(): choice for choice in pool}
        close = [folded[word.casefold()]] if word.casefold() in folded else []
    if not close:
        return None
    sentence = f"did you mean {close[0]}?"
    if span is None:
        return sentence
    return Hint(sentence, (Replacement(span.line, span.column, span.end_line, span.end_column,
                                       close[0]),))
