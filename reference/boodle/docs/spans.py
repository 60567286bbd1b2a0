"""Where each rule is written: the DSL line of every construct of a built ruleset.

The model keeps spans for blocks and for the composite constructs (a lead
rule, a section, an ante line); a single line such as ``follow:`` or
``leftover:`` keeps its span in the merged clauses the builder works from
(:func:`boodle.language.build.resolve`, which also knows which file of an ``extends``
chain each line came from).  :class:`SpanIndex` joins the two: a field's own
span if it has one, else the span of the clause that states it, else
``None`` — the rule is the spec's default and is written nowhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boodle.language import model as m
from boodle.language.build import default_resolver, resolve
from boodle.language.errors import BoodleError, Span
from boodle.language.syntax import Clause, PhaseDecl, parse

CLAUSE_OF: dict[tuple[str, str], str] = {
    ("DealSpec", "widow_position"): "widow",
    ("DealSpec", "widow_visibility"): "widow",
    ("DealSpec", "widow_sets"): "widow",
    ("DealSpec", "turn_up"): "turn_up",
    ("WidowSale", "mode"): "offer",
    ("WidowSale", "seen"): "offer",
    ("WidowSale", "dealer_may_look"): "dealer_swap",
    ("WidowSale", "barred_by_boodle"): "barred",
    ("WidowSale", "to_dealer"): "price_to",
    ("WidowSale", "dealer_first"): "dealer_swap",
    ("WidowSale", "before"): "when",
    ("WidowSale", "dealer_may_withhold"): "dealer_withhold",
    ("StopsPhase", "stop_at_top"): "stop",
    ("StopsPhase", "penalties"): "penalty:",
    ("StopsPhase", "all_pass_to"): "all_pass",
    ("HoldingPhase", "sections"): "pays",
    ("PokerPhase", "best_of"): "best",
    ("SessionSpec", "start_chips"): "start",
    ("SessionSpec", "rotations"): "end_rotations",
    ("SessionSpec", "end_when_broke"): "end_broke",
    ("SessionSpec", "end_last_with_chips"): "end_last",
    ("SessionSpec", "end_never"): "end_never",
    ("SessionSpec", "negative"): "balance",
    ("Deck", "removed"): "remove",
}
"""Model field → the clause key that states it, where the two names differ."""

_IN_ANTE_BLOCK = frozenset({"short_stack"})
"""Ruleset fields stated by a line of the ante block (spec §4 ``short stack:``)."""

_BLOCK_OF = {"Deck": "deck", "DealSpec": "deal", "WidowSale": "widow_sale",
             "SessionSpec": "session"}


class SpanIndex:
    """The clauses of one variant, merged over its ``extends`` chain, by key."""

    def __init__(self, items: tuple[Clause, ...]) -> None:
        self.items = {item.key: item for item in items}

    @classmethod
    def of(cls, ruleset: m.Ruleset) -> SpanIndex:
        """Index the file ``ruleset`` was built from (empty if it cannot be read again)."""
        if ruleset.span is None or not Path(ruleset.span.file).is_file():
            return cls(())
        path = Path(ruleset.span.file)
        try:
            decl = parse(path.read_text(encoding="utf-8"), str(path))
            return cls(resolve(decl, default_resolver, path.parent).items)
        except BoodleError:
            return cls(())

    def _lines(self, obj: Any) -> tuple[Clause, ...]:
        if isinstance(obj, m.StopsPhase | m.HoldingPhase | m.PokerPhase):
            item = self.items.get(f"phase:{obj.name}")
            return item.value.rules if item and isinstance(item.value, PhaseDecl) else ()
        block = _BLOCK_OF.get(type(obj).__name__)
        item = self.items.get(block) if block else None
        return tuple(c for c in item.value if isinstance(c, Clause)) if item else ()

    def __call__(self, obj: Any, field: str, value: Any) -> Span | None:
        """Where ``obj.field`` is written, or ``None`` for a default."""
        own = getattr(value, "span", None)
        if isinstance(own, Span):
            return own
        key = CLAUSE_OF.get((type(obj).__name__, field), field)
        if isinstance(obj, m.Ruleset):
            if field in _IN_ANTE_BLOCK:  # a line of the ante block, not a line of its own
                ante = self.items.get("ante")
                return next((c.span for c in (ante.value if ante else ())
                             if isinstance(c, Clause) and c.key == key), None)
            item = self.items.get(key)
            return item.span if item else None
        for line in self._lines(obj):
            if line.key == key or (key.endswith(":") and line.key.startswith(key)):
                return line.span
        return None


def source_name(span: Span) -> str:
    """The rules file a span points into, as a variant name (``michigan``)."""
    return Path(span.file).stem


def lines_text(span: Span) -> str:
    """``michigan.boodle:12`` or ``michigan.boodle:12-14``."""
    end = span.end_line if span.end_line > span.line else None
    return f"{source_name(span)}.boodle:{span.line}" + (f"-{end}" if end else "")
