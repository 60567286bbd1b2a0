"""Where a ruleset was written, and the ruleset it extends: what the builder keeps of the text.

The builder (:func:`boodle.language.build.build`) puts an :class:`Origin` in every
:class:`~boodle.language.model.Ruleset` it makes (``Ruleset.origin``, kept out of equality,
hashing and ``repr`` like every ``span``), so that nothing downstream reads a rules file
again: the rules page's source links and the language server's hover read where each rule
is written from :meth:`Origin.span` (:mod:`boodle.docs.spans`), ``boodle check`` compares a
house rule with :meth:`Origin.base` (:mod:`boodle.language.ruleset_diff`) and lists the
lines a block written in part drops from :attr:`Origin.resolved`
(:func:`~boodle.language.extends.dropped_lines`).

A composite construct (a section, an ante line, a lead rule, a phase) keeps its own ``span``
in the model; a single line (``follow:``, ``leftover:``) is no object of its own, so its
span is kept here, by the object that holds the field and the field's name.  A field with no
span anywhere is the spec's default, written nowhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boodle.language.errors import BoodleError, Span

if TYPE_CHECKING:
    from boodle.language.extends import Resolved
    from boodle.language.model import Ruleset
    from boodle.language.syntax import Clause

__all__ = ["CLAUSE_OF", "Origin", "field_spans", "owner_of"]

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
    ("WidowSale", "high_bid"): "high_bidder",
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
"""Model field → the clause key of :mod:`boodle.language.syntax` that states it, where the two
names differ (a key ending in ``:`` stands for every clause it begins: the penalties)."""

_IN_ANTE_BLOCK = frozenset({"short_stack"})
"""Ruleset fields stated by a line of the ante block (spec §4 ``short stack:``)."""

_BLOCK_OF = {"Deck": "deck", "DealSpec": "deal", "WidowSale": "widow_sale",
             "SessionSpec": "session"}
"""A block's model class → its clause key."""

_PHASES = frozenset({"StopsPhase", "HoldingPhase", "PokerPhase"})


def owner_of(obj: Any) -> str:
    """The key of a model object in :attr:`Origin.spans`: its class name, a phase's
    ``phase NAME`` (``Ruleset``, ``DealSpec``, ``phase play``)."""
    name = type(obj).__name__
    return f"phase {obj.name}" if name in _PHASES else name


@dataclass(frozen=True, eq=False)
class Origin:
    """What the builder keeps of a ruleset's text (see the module's docstring).

    ``spans``: ``(owner, field) → span`` (:func:`owner_of`) of each field of the ruleset and
    of its blocks and phases that a line of its own states, in the file that wrote it (a base's
    line names the base's file).  ``resolved``: the clauses the ruleset was built from, its
    ``extends`` chain merged (its ``parent``: the base alone, merged likewise).
    """

    spans: Mapping[tuple[str, str], Span]
    resolved: Resolved = field(repr=False)

    def span(self, obj: object, field_name: str) -> Span | None:
        """Where ``obj.field_name`` is written (``obj`` the ruleset or one of its blocks or
        phases), or ``None`` for a default; the span of a composite value is its own (the
        model's ``span``), not this."""
        return self.spans.get((owner_of(obj), field_name))

    def base(self) -> Ruleset | None:
        """The ruleset this one extends (spec §11.1), built from the clauses ``extends`` found
        (no file is read again), once; ``None`` if it extends nothing.  Raises
        :class:`~boodle.language.errors.BoodleError` if the base alone does not build (a
        base that an extending file completes)."""
        if self.resolved.parent is None:
            return None
        memo: dict[str, Any] = self.__dict__
        if "_base" not in memo:
            from boodle.language.build import build

            try:
                memo["_base"] = build(self.resolved.parent)
            except BoodleError as exc:
                memo["_base"] = exc
        found = memo["_base"]
        if isinstance(found, BoodleError):
            raise found
        return found  # type: ignore[no-any-return]

    def base_file(self) -> str | None:
        """The rules file the base was read from (a built-in's file for a built-in), or
        ``None`` if it extends nothing."""
        return None if self.resolved.parent is None else self.resolved.parent.span.file


def field_spans(ruleset: Ruleset, items: tuple[Clause, ...]) -> dict[tuple[str, str], Span]:
    """The span of the line that states each field of ``ruleset`` and of its blocks and
    phases, from the merged clauses ``items`` it was built from (for :attr:`Origin.spans`)."""
    from boodle.language.syntax import Clause, PhaseDecl

    by_key = {item.key: item for item in items}
    out: dict[tuple[str, str], Span] = {}

    def lines_of(obj: Any) -> tuple[Clause, ...]:
        name = type(obj).__name__
        if name in _PHASES:
            item = by_key.get(f"phase:{obj.name}")
            return item.value.rules if item and isinstance(item.value, PhaseDecl) else ()
        block = _BLOCK_OF.get(name)
        item = by_key.get(block) if block else None
        return tuple(c for c in item.value if isinstance(c, Clause)) if item else ()

    for f in dataclasses.fields(ruleset):
        key = CLAUSE_OF.get(("Ruleset", f.name), f.name)
        if f.name in _IN_ANTE_BLOCK:  # a line of the ante block, not a line of its own
            ante = by_key.get("ante")
            span = next((c.span for c in (ante.value if ante else ())
                         if isinstance(c, Clause) and c.key == key), None)
        else:
            item = by_key.get(key)
            span = item.span if item else None
        if span is not None:
            out[("Ruleset", f.name)] = span
    owners: list[Any] = [ruleset.deck, ruleset.deal, ruleset.session, *ruleset.phases]
    if ruleset.widow_sale is not None:
        owners.append(ruleset.widow_sale)
    for obj in owners:
        lines = lines_of(obj)
        for f in dataclasses.fields(obj):
            key = CLAUSE_OF.get((type(obj).__name__, f.name), f.name)
            found = next((line.span for line in lines if line.key == key
                          or (key.endswith(":") and line.key.startswith(key))), None)
            if found is not None:
                out[(owner_of(obj), f.name)] = found
    return out
