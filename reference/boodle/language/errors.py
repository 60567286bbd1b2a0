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


class BoodleError(Exception):
    """An error in user input (a rules file, a move, a command argument).

    ``message`` says what is wrong; ``span`` where (``None`` when there is
    no source, e.g. a bad command-line value); ``hint`` what to do instead;
    ``rule`` the spec rule id a rejected move breaks (e.g. ``lead.lowest``);
    ``notes`` stack context such as "while loading base variant michigan";
    ``more`` the further errors of the same file, independent of this one (a
    variant missing both its ``deal`` and its ``session`` block): :meth:`render`
    shows this one in full and lists those after it, as compilers do.
    """

    def __init__(
        self,
        message: str,
        span: Span | None = None,
        hint: str | None = None,
        rule: str | None = None,
        notes: tuple[str, ...] = (),
        more: tuple[BoodleError, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        self.rule = rule
        self.notes = notes
        self.more = more

    def with_note(self, note: str) -> BoodleError:
        """Return a copy of this error with one more context note."""
        return BoodleError(self.message, self.span, self.hint, self.rule, (*self.notes, note),
                           self.more)

    def with_more(self, more: Iterable[BoodleError]) -> BoodleError:
        """Return a copy of this error with ``more`` (further errors of the same input,
        each without its own ``more``) after its own."""
        further = tuple(e for e in more)
        return BoodleError(self.message, self.span, self.hint, self.rule, self.notes,
                           (*self.more, *further))

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


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A ``did you mean X?`` hint for the closest choice, or ``None``."""
    pool = list(choices)
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.5)
    if not close:
        folded = {choice.casefold(): choice for choice in pool}
        close = [folded[word.casefold()]] if word.casefold() in folded else []
    return f"did you mean {close[0]}?" if close else None
