"""Where each rule is written: the DSL line of every construct of a built ruleset.

The builder keeps it in the model (:class:`boodle.language.origin.Origin`, no file is read
again): a composite construct (a lead rule, a section, an ante line) has its own ``span``, a
single line such as ``follow:`` or ``leftover:`` its span in ``Ruleset.origin`` (which names
the file of an ``extends`` chain each line came from).  :class:`SpanIndex` joins the two: a
field's own span if it has one, else the span of the line that states it, else ``None`` —
the rule is the spec's default and is written nowhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boodle.language import model as m
from boodle.language.errors import Span
from boodle.language.origin import Origin


class SpanIndex:
    """Where the rules of one ruleset are written (:meth:`of`)."""

    def __init__(self, origin: Origin | None) -> None:
        self.origin = origin

    @classmethod
    def of(cls, ruleset: m.Ruleset) -> SpanIndex:
        """The index of ``ruleset``, read from its ``origin`` (empty for a ruleset the
        builder did not make, or one built from a text that is no file: a page links to
        its rules file)."""
        if ruleset.span is None or not Path(ruleset.span.file).is_file():
            return cls(None)
        return cls(ruleset.origin)

    def __call__(self, obj: Any, field: str, value: Any) -> Span | None:
        """Where ``obj.field`` is written, or ``None`` for a default."""
        own = getattr(value, "span", None)
        if isinstance(own, Span):
            return own
        return self.origin.span(obj, field) if self.origin is not None else None


def source_name(span: Span) -> str:
    """The rules file a span points into, as a variant name (``michigan``)."""
    return Path(span.file).stem


def lines_text(span: Span) -> str:
    """``michigan.boodle:12`` or ``michigan.boodle:12-14``."""
    end = span.end_line if span.end_line > span.line else None
    return f"{source_name(span)}.boodle:{span.line}" + (f"-{end}" if end else "")
