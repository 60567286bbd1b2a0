"""A rules file as the editor sees it: its diagnostics, and the quick fix of each hint.

:func:`analyse` runs the project's own pipeline (:func:`boodle.language.syntax.parse`,
:func:`boodle.language.build.resolve`, :func:`boodle.language.build.build`) on the text of
an open document and turns every :class:`~boodle.language.errors.BoodleError` it raises,
the first and its ``more`` (every independent error of the file), into a
:class:`Diagnostic` with the error's range and hint.  A syntax error stops the parser; the
errors after it are found by applying the first one's quick fix (when it is a one-line
edit) and parsing again, so that a file with a misspelt keyword on line 5 and a missing
``:`` on line 30 shows both.  Warnings are added where the rules are legal but suspect: a
section no card can ever claim, a line of a house rule that restates its base, a house rule
that changes nothing (:func:`boodle.language.warnings.rules_warnings`, which ``boodle check``
prints too).

:func:`fixes` offers the edit a hint names as a quick fix ("did you mean kitty?" → replace
``kity`` by ``kitty``): the edit is the error's own
(:attr:`~boodle.language.errors.BoodleError.edits`, stated by the code that wrote the hint:
a repair strategy of :mod:`boodle.language.syntax_repairs` states the edit it parsed the
text with), never read back from the hint's sentence; it is kept only when the file, edited,
no longer has that error.

Positions are 0-based lines and 0-based columns in code points, end exclusive; lines end
at ``\\n`` only (spec §11.1).  Converting columns to the editor's units (UTF-16) is the
server's job (:mod:`boodle.lsp.server`).  Nothing here raises: an unexpected exception
becomes a diagnostic at the top of the file.
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from boodle.language import model as m
from boodle.language.build import Resolved, build, default_resolver, resolve
from boodle.language.errors import BoodleError, Replacement, Span
from boodle.language.grammar import BOM
from boodle.language.syntax import VariantDecl, parse
from boodle.language.warnings import RESTATED, RulesWarning, rules_warnings

Severity = Literal["error", "warning"]
Kind = Literal["syntax", "rules", "warning", "internal"]


@dataclass(frozen=True)
class Range:
    """A range of a document: 0-based line and column (code points), end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    def contains(self, line: int, column: int) -> bool:
        """Whether the position (0-based) is inside the range, its end included (a cursor
        just after a word is on the word)."""
        return (self.line, self.column) <= (line, column) <= (self.end_line, self.end_column)


@dataclass(frozen=True)
class Edit:
    """Replace the text of ``range`` by ``new_text``."""

    range: Range
    new_text: str


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning of a document, as an editor shows it.

    ``kind``: ``syntax`` (the parser stopped), ``rules`` (the builder refused a rule),
    ``warning`` (legal but suspect), ``internal`` (a bug of boodle's, never the author's).
    ``hint``: the error's hint, the edit :func:`fixes` looks for; ``notes``: its context
    notes (an error found in a base file, say where).
    """

    range: Range
    message: str
    severity: Severity
    kind: Kind
    hint: str | None = None
    notes: tuple[str, ...] = ()
    edits: tuple[Edit, ...] = ()
    """The edit the hint names (the error's :attr:`~boodle.language.errors.BoodleError.edits`,
    stated by the code that wrote the hint): the quick fix :func:`fixes` offers."""
    context: tuple[Edit, ...] = ()
    """For a syntax error found after another (:func:`_further_syntax_errors`): the quick
    fixes of the errors before it, which the parser needed to reach it."""


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found in one text: its diagnostics, and what parsed and built.

    ``decl``: the parsed file (``None`` on a syntax error); ``resolved``: its ``extends``
    chain merged (the clauses of the base included, each span naming its own file);
    ``ruleset``: the built rules (``None`` on any error); ``base``: the ruleset of the
    variant it extends, when that loads.
    """

    text: str
    path: str
    diagnostics: tuple[Diagnostic, ...]
    decl: VariantDecl | None = None
    resolved: Resolved | None = None
    ruleset: m.Ruleset | None = None
    base: m.Ruleset | None = field(default=None, repr=False)

    @property
    def bom(self) -> int:
        """1 when the text starts with a byte order mark (which the parser drops, so that the
        columns of line 1 of its spans are one less than the document's), else 0."""
        return 1 if self.text.startswith(BOM) else 0


MAX_FURTHER_SYNTAX_ERRORS = 4
"""Syntax errors found after the first by applying its quick fix and parsing again."""
FURTHER_SYNTAX_BUDGET_S = 0.5
"""CPU seconds the search for further syntax errors may take in all."""


def analyse(text: str, path: str) -> Analysis:
    """Every diagnostic of the rules file ``text`` (an open document saved, or to be
    saved, at ``path``: ``extends`` looks for its base in that folder, then among the
    built-ins).  Never raises: a bug of boodle's is a diagnostic of kind ``internal``."""
    try:
        return _analyse(text, path, further=True)
    except Exception as exc:  # a bug of ours: the server must answer, never crash
        return Analysis(text, path, (Diagnostic(
            Range(0, 0, 0, 1),
            f"internal error of boodle: {type(exc).__name__}: {exc}", "error", "internal",
            "this is a bug in boodle, not in the rules file; please report it with the file"),))


def _analyse(text: str, path: str, further: bool) -> Analysis:
    body = text.removeprefix(BOM)
    bom = len(text) - len(body)
    try:
        decl = parse(body, path)
    except BoodleError as exc:
        first = _diagnostic(exc, "syntax", path, None, bom)
        found = [first]
        if further:
            found += _further_syntax_errors(text, path, first)
        return Analysis(text, path, tuple(found))
    here = Path(path).parent if path and not path.startswith("<") else None
    try:
        resolved = resolve(decl, default_resolver, here)
    except BoodleError as exc:
        return Analysis(text, path, _diagnostics(exc, "rules", path, decl, bom), decl)
    base = _base_ruleset(resolved)
    try:
        ruleset = build(resolved)
    except BoodleError as exc:
        return Analysis(text, path, _diagnostics(exc, "rules", path, decl, bom), decl,
                        resolved, None, base)
    warnings = tuple(_warning(w, bom) for w in rules_warnings(decl, resolved, ruleset, base))
    return Analysis(text, path, warnings, decl, resolved, ruleset, base)


def _diagnostics(exc: BoodleError, kind: Kind, path: str, decl: VariantDecl | None,
                 bom: int) -> tuple[Diagnostic, ...]:
    """The error ``exc`` and each of its ``more``, as diagnostics."""
    out = [_diagnostic(exc, kind, path, decl, bom)]
    out += [_diagnostic(e, kind, path, decl, bom) for e in exc.more]
    return tuple(out)


def _diagnostic(exc: BoodleError, kind: Kind, path: str, decl: VariantDecl | None,
                bom: int) -> Diagnostic:
    """One error as a diagnostic at its span.  An error in another file (a base the
    extending file does not break, a base that does not load) is shown at the ``extends``
    name, its place named in the message; one without a place, at the variant's name."""
    span = exc.span
    message = exc.message
    edits = tuple(_edit_of(r, bom) for r in exc.edits) \
        if span is not None and span.file == path else ()
    if span is not None and span.file != path:
        message = f"{span}: {message}"
        span = decl.base.span if decl is not None and decl.base is not None else None
    where = span_range(span, bom) if span is not None else (
        span_range(decl.span, bom) if decl is not None else Range(0, 0, 0, 1))
    if decl is not None and (span is None or span == decl.span):
        # a fault of the whole variant (a block it lacks): shown on 'variant', not on all
        where = Range(where.line, where.column, where.line, where.column + 7)
    return Diagnostic(where, message, "error", kind, exc.hint, exc.notes, edits)


def _edit_of(edit: Replacement, bom: int) -> Edit:
    """An error's edit (1-based, the text without its byte order mark) as a document's."""
    def column(line: int, column: int) -> int:
        return column - 1 + (bom if line == 1 else 0)

    return Edit(Range(edit.line - 1, column(edit.line, edit.column), edit.end_line - 1,
                      column(edit.end_line, edit.end_column)), edit.text)


def span_range(span: Span, bom: int = 0) -> Range:
    """The 0-based range of a 1-based span (at least one character wide); ``bom``: see
    :attr:`Analysis.bom`."""
    line, column = span.line - 1, span.column - 1
    end_line, end_column = span.end_line - 1, span.end_column - 1
    if (end_line, end_column) <= (line, column):
        end_line, end_column = line, column + 1
    if bom:
        column += bom if line == 0 else 0
        end_column += bom if end_line == 0 else 0
    return Range(max(line, 0), max(column, 0), max(end_line, 0), max(end_column, 0))


# ---------------------------------------------------------------- further syntax errors


def _further_syntax_errors(text: str, path: str, first: Diagnostic) -> list[Diagnostic]:
    """The syntax errors after ``first``: its quick fix applied (a one-line edit: the lines
    after it keep their numbers, the columns of the other lines theirs), the text parsed
    again, and so on, at most :data:`MAX_FURTHER_SYNTAX_ERRORS` times and within
    :data:`FURTHER_SYNTAX_BUDGET_S` seconds.  Only errors on a later line than the last fix
    are kept: an error on the fixed line would be about text the author did not write."""
    found: list[Diagnostic] = []
    current, last = text, first
    started = time.process_time()
    while len(found) < MAX_FURTHER_SYNTAX_ERRORS \
            and time.process_time() - started < FURTHER_SYNTAX_BUDGET_S:
        edits = next((f.edits for f in _fixes(current, path, last)), None)
        if not edits or len(edits) != 1:
            break
        edit = edits[0]
        if edit.range.line != edit.range.end_line or "\n" in edit.new_text:
            break
        current = apply_edits(current, [edit])
        again = _analyse(current, path, further=False)
        nxt = next((d for d in again.diagnostics if d.kind == "syntax"), None)
        if nxt is None or nxt.range.line <= edit.range.line:
            break
        last = replace(nxt, context=(*last.context, edit))
        found.append(last)
    return found


# ---------------------------------------------------------------- warnings


def _base_ruleset(resolved: Resolved) -> m.Ruleset | None:
    """The ruleset of the variant ``resolved`` extends, built from the clauses ``extends``
    found (``resolved.parent``: no file read again), or ``None`` when it extends nothing or
    the base does not build alone.  Kept between analyses while the texts of the base's
    chain are unchanged: a keystroke in a house rule does not build its base again."""
    parent = resolved.parent
    if parent is None:
        return None
    key: list[tuple[str, str]] = []
    layer: Resolved | None = parent
    while layer is not None:
        key.append((layer.span.file, layer.span.text))
        layer = layer.parent
    found = _BASES.get(tuple(key))
    if found is None:
        try:
            found = build(parent)
        except BoodleError:
            return None
        if len(_BASES) >= 16:
            _BASES.clear()
        _BASES[tuple(key)] = found
    return found


_BASES: dict[tuple[tuple[str, str], ...], m.Ruleset] = {}
"""Built base rulesets by the file and text of each variant of the base's chain."""


def _warning(found: RulesWarning, bom: int) -> Diagnostic:
    """A warning of :func:`boodle.language.warnings.rules_warnings` as a diagnostic."""
    return Diagnostic(span_range(found.span, bom), found.message, "warning", "warning",
                      found.hint)


# ---------------------------------------------------------------- quick fixes


@dataclass(frozen=True)
class Fix:
    """A quick fix: its title (the hint) and the edits that make it."""

    title: str
    edits: tuple[Edit, ...]


def fixes(analysis: Analysis, diagnostic: Diagnostic) -> list[Fix]:
    """The edit the hint of ``diagnostic`` describes, as a quick fix, if the file edited
    so no longer has that error (and gains no syntax error); else none."""
    try:
        return list(_cached_fixes(analysis.text, analysis.path, diagnostic))
    except Exception:  # a fix is a help, never a crash
        return []


@functools.lru_cache(maxsize=64)
def _cached_fixes(text: str, path: str, diag: Diagnostic) -> tuple[Fix, ...]:
    """:func:`_fixes`, kept for the last texts: an editor asks for the code actions at the
    cursor whenever it moves, and each candidate edit costs a parse."""
    return tuple(_fixes(text, path, diag))


def _fixes(text: str, path: str, diag: Diagnostic) -> list[Fix]:
    if diag.hint is None or diag.kind == "internal":
        return []
    for before in diag.context:
        text = apply_edits(text, [before])
    edits: tuple[Edit, ...]
    if diag.kind == "warning":
        edits = (_lines_deleted(text, diag.range),) if diag.message == RESTATED else ()
    else:
        edits = diag.edits
    if edits and _repairs(text, path, diag, edits):
        return [Fix(diag.hint, edits)]
    return []


def _repairs(text: str, path: str, diag: Diagnostic, edits: tuple[Edit, ...]) -> bool:
    """Whether ``edits`` repair the error ``diag`` of ``text``: the edited text no longer has
    it, and has no syntax error on a line up to the error's (a syntax error may move on to
    a later line: that is the next error, found by the parser reading further)."""
    fixed = apply_edits(text, list(edits))
    if fixed == text:
        return False
    after = _analyse(fixed, path, further=False).diagnostics
    shift = fixed.count("\n") - text.count("\n")
    for other in after:
        if diag.kind == "warning" and other.severity == "error":
            return False
        if other.kind == "syntax" and (diag.kind != "syntax"
                                       or other.range.line - shift <= diag.range.line):
            return False
        if other.message == diag.message and abs(other.range.line - diag.range.line) <= \
                abs(shift):
            return False
    return True


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made (ranges of the original text, none overlapping)."""
    starts = line_offsets(text)
    cuts = sorted(((offset_at(starts, e.range.line, e.range.column),
                    offset_at(starts, e.range.end_line, e.range.end_column), e.new_text)
                   for e in edits), reverse=True)
    for begin, end, new in cuts:
        text = text[:begin] + new + text[end:]
    return text


def line_offsets(text: str) -> list[int]:
    """The offset of each line's start (lines end at ``\\n`` only)."""
    return [0, *(found.end() for found in re.finditer("\n", text))]


def offset_at(starts: list[int], line: int, column: int) -> int:
    """The offset of a 0-based position, given :func:`line_offsets`."""
    if line >= len(starts):
        return starts[-1] + column if starts else column
    return starts[max(line, 0)] + column


def position_at(starts: list[int], offset: int) -> tuple[int, int]:
    """The 0-based (line, column) of an offset, given :func:`line_offsets`."""
    import bisect

    line = bisect.bisect_right(starts, offset) - 1
    return line, offset - starts[line]


def _edit(text: str, begin: int, end: int, new: str) -> Edit:
    starts = line_offsets(text)
    (line, column), (end_line, end_column) = position_at(starts, begin), position_at(starts, end)
    return Edit(Range(line, column, end_line, end_column), new)


def _lines_deleted(text: str, where: Range) -> Edit:
    """Delete what ``where`` covers: its whole lines, when nothing but spaces and a comment
    shares them (a comment after it goes with it), else the range alone."""
    starts = line_offsets(text)
    begin = offset_at(starts, where.line, where.column)
    end = offset_at(starts, where.end_line, where.end_column)
    line_begin = starts[where.line]
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if not text[line_begin:begin].strip() and (
            not text[end:line_end].strip() or text[end:line_end].strip().startswith("#")):
        return _edit(text, line_begin, min(line_end + 1, len(text)), "")
    return _edit(text, begin, end, "")
