"""One page per variant: every block of the ruleset in numbered plain language.

The page walks the :class:`~boodle.language.model.Ruleset` fields in declaration
order (session last), so a field added to the model appears on every page
once its templates exist.  Extras computed from the ruleset: the board SVG,
the antes and deal sizes per player count (:mod:`.numbers`), and a summary
of how each section is won.  A house rule (a variant with a built-in
``base``) shows only the blocks, and the phase rules, that differ from its
base, and links to the base's page.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from boodle.docs.board_svg import board_svg
from boodle.docs.constructs import constructs
from boodle.docs.escape import cell, code, md
from boodle.docs.links import RuleRefs
from boodle.docs.numbers import Row, numbers
from boodle.docs.rules_text import Rule, Speaker, card_html, squash
from boodle.docs.spans import SpanIndex
from boodle.docs.templates import Templates
from boodle.docs.translate import localized, with_terms
from boodle.language import model as m
from boodle.language.variants import builtin_names, load

LAST = ("session",)
"""Ruleset fields shown at the end of a page."""

NUMBERS_FROM = ("players", "deck", "board", "antes", "deal")
"""Ruleset fields the antes and deal-size table depends on."""


class VariantPage:
    """Builds the Markdown of one variant page in one language."""

    def __init__(self, ruleset: m.Ruleset, t: Templates, refs: RuleRefs,
                 standalone: bool = False) -> None:
        """``standalone``: a page outside the site (``boodle docs page FILE``), without links
        to the site's other pages."""
        self.r, self.t, self.refs, self.standalone = localized(ruleset, t), t, refs, standalone
        self.say = Speaker(self.r, t)
        self.where = SpanIndex.of(ruleset)

    # -- page
    def markdown(self) -> str:
        """The whole page."""
        base = self.base()
        out = self.head(base)
        for name in self.order():
            if base is None or self.changed(base, name):
                out += self.block(name, base)
        if base is not None and self.needs_numbers(base) and not self.changed(base, "antes"):
            out += self.numbers_table()
        return with_terms("\n".join(out).rstrip() + "\n", self.r, self.t)

    def needs_numbers(self, base: m.Ruleset | None) -> bool:
        """Whether the page shows the numbers table: always, or for a house rule that changes
        what they depend on (:data:`NUMBERS_FROM`)."""
        return base is None or any(self.changed(base, name) for name in NUMBERS_FROM)

    def base(self) -> m.Ruleset | None:
        """The built-in base of a house rule, or ``None``."""
        if self.r.base and self.r.base in builtin_names():
            return localized(load(self.r.base), self.t)
        return None

    def order(self) -> list[str]:
        names = constructs(m.Ruleset)
        return [n for n in names if n not in LAST] + [n for n in LAST if n in names]

    def changed(self, base: m.Ruleset, name: str) -> bool:
        return bool(getattr(base, name) != getattr(self.r, name))

    def _sources_inherited(self) -> bool:
        """Whether the ``source`` lines are the base's alone (spec §11.2: an extending file
        that writes none keeps its base's), so that the page does not cite them as this house
        rule's own."""
        origin, own = self.r.origin, self.r.span
        written = origin.span(self.r, "sources") if origin is not None else None
        if written is None or own is None:
            return False
        return Path(written.file).resolve() != Path(own.file).resolve()

    def head(self, base: m.Ruleset | None) -> list[str]:
        n = self.r.name
        out = [f"# {md(self.r.title)}", ""]
        if self.r.about:
            out += [md(self.r.about), ""]
        if not self.standalone:
            links = [f"[{self.t.text('page.example_link')}](../examples/{n}.md)",
                     f"[{self.t.text('page.source_link')}](../sources/{n}.md)"]
            out += [" · ".join(links), ""]
        if self.r.sources:
            value = ", ".join(code(s) for s in self.r.sources)
            out += [self.t.text("page.sources_of_base", base=md(base.title), value=value)
                    if base is not None and self._sources_inherited() else
                    self.t.text("page.sources", value=value), ""]
        if base is not None and self.standalone:
            out += [self.t.text("page.house_intro_alone", base=md(base.title),
                                    name=base.name), ""]
        elif base is not None:
            out += [self.t.text("page.house_intro", base=md(base.title),
                                link=f"{base.name}.md"), ""]
        return out

    # -- blocks
    def block(self, name: str, base: m.Ruleset | None) -> list[str]:
        """The block of Ruleset field ``name``: its heading and rules; nothing when the field
        says nothing (a rule whose default is told elsewhere: ``short stack: as balance``)."""
        value = getattr(self.r, name)
        special = getattr(self, f"block_{name}", None)
        body = special(value, base) if special is not None else self.generic(name, value)
        if not body and name != "phases":  # the phases' block also lists every claim
            return []
        out = [f"## {self.t.text(f'Ruleset.{name}')}", "", *body]
        out.append("")
        if name == "phases":
            out += self.claims()
        return out

    def generic(self, name: str, value: Any) -> list[str]:
        if dataclasses.is_dataclass(value) and constructs(type(value)):
            return self.refs.numbered(self.say.rules(value, self.where))
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            return self.refs.numbered([Rule(f"Ruleset.{name}", self.say.phrase(v), v.span)
                                       for v in value])
        text = self.say.field(self.r, name)
        return self.refs.numbered([Rule(f"Ruleset.{name}", text,
                                        self.where(self.r, name, value))]) if text else []

    def block_session(self, value: m.SessionSpec, base: m.Ruleset | None) -> list[str]:
        rules = self.say.rules(value, self.where)
        if value.end_never:  # spec §10: no end, so no split, tie deal or winner to state
            rules = [r for r in rules
                     if r.key not in ("SessionSpec.leftover", "SessionSpec.ties")]
        return self.refs.numbered(rules)

    def block_players(self, value: m.PlayerRange, base: m.Ruleset | None) -> list[str]:
        rule = Rule("Ruleset.players", self.say.phrase(value), self.where(self.r, "players", value))
        return self.refs.numbered([rule])

    def block_deck(self, value: m.Deck, base: m.Ruleset | None) -> list[str]:
        return [*self.generic("deck", value), "",
                self.t.text("page.deck_size", n=len(value.cards()))]

    def block_board(self, value: tuple[m.Section, ...], base: m.Ruleset | None) -> list[str]:
        return [f'<div class="boodle-board-frame">{board_svg(self.r, self.t)}</div>', "",
                *self.generic("board", value)]

    def block_antes(self, value: tuple[m.AnteLine, ...], base: m.Ruleset | None) -> list[str]:
        return [*self.generic("antes", value), "", *self.numbers_table()]

    def block_phases(self, value: tuple[m.Phase, ...], base: m.Ruleset | None) -> list[str]:
        out: list[str] = []
        old = {p.name: p for p in base.phases} if base else {}
        for i, phase in enumerate(value, 1):
            rules = self.say.rules(phase, self.where)
            if phase.name in old and old[phase.name] == phase:
                continue
            if phase.name in old:
                fields = {f"{type(phase).__name__}.{f}" for f in constructs(type(phase))
                          if getattr(phase, f) != getattr(old[phase.name], f, None)}
                rules = [r for r in rules if r.key in fields]
            out += [f"### {self.t.text('page.phase_heading', n=i, title=self.phase_title(phase))}",
                    "", *self.refs.numbered(rules), ""]
        return out

    def phase_title(self, phase: m.Phase) -> str:
        """A phase's label and its kind (``Hearts (holding)``), or its label alone where the
        label is the kind's own word (``Stops``, not ``Stops (stops)``; ``Poker``)."""
        full = squash(self.say.phrase(phase))
        kind = squash(self.say.phrase(dataclasses.replace(phase, label=""))).strip(" ()")
        return md(phase.label) if kind.casefold() == phase.label.casefold() else full

    # -- extras
    def numbers_table(self) -> list[str]:
        """The antes and deal sizes per player count: one row per count; sections that
        receive the same ante at every count share one column (Michigan's four boodles,
        Tripoli's eight sections), so the table fits a laptop's width."""
        nums = numbers(self.r)
        t = self.t
        out = [f"### {t.text('page.numbers_heading')}", "", t.text("page.numbers_intro"), ""]
        head = [t.text("page.numbers_players"), t.text("page.numbers_hands"),
                t.text("page.numbers_widow")]
        groups = self.section_groups(nums.rows) if nums.unavailable is None else []
        for group in groups:
            labels = ", ".join(cell(self.r.board[i].label) for i in group)
            head.append(labels if len(group) == 1 else t.text("page.numbers_each", labels=labels))
        if nums.unavailable is None:
            head += [t.text("page.numbers_dealer_pays"), t.text("page.numbers_other_pays")]
        out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        for row in nums.rows:
            cells = [str(row.players), " · ".join(map(str, row.hands)), str(row.widow)]
            if nums.unavailable is None and row.sections is not None:
                cells += [str(row.sections[group[0]]) for group in groups]
                cells += [str(row.dealer_pays), str(row.other_pays)]
            out.append("| " + " | ".join(cells) + " |")
        if nums.unavailable is not None:
            out += ["", t.text("page.numbers_unavailable", why=md(nums.unavailable))]
        for amount in nums.chosen:
            out += ["", t.text("page.numbers_chosen", n=amount)]
        return out

    def section_groups(self, rows: tuple[Row, ...]) -> list[list[int]]:
        """The board's sections (indices, board order) grouped by their column of antes:
        sections with the same ante at every player count are one group."""
        groups: dict[tuple[object, ...], list[int]] = {}
        for i in range(len(self.r.board)):
            column = tuple(row.sections[i] if row.sections is not None else None for row in rows)
            groups.setdefault(column, []).append(i)
        return list(groups.values())

    def claims(self) -> list[str]:
        t = self.t
        out = [f"## {t.text('page.claims_heading')}", "", t.text("page.claims_intro"), ""]
        for section in self.r.board:
            ways = self.ways(section) or [t.text("page.claim_none")]
            out.append("- " + t.text("page.claim_line", label=md(section.label),
                                     ways=t.text("page.claim_sep").join(ways)))
        stops = [p for p in self.r.phases if isinstance(p, m.StopsPhase)]
        for phase in stops:
            out += ["", t.text("page.payments_line", heading=t.text("page.payments_heading"),
                               phase=md(phase.label),
                               text=squash(self.say.phrase(phase.going_out)))]
        return [*out, ""]

    def ways(self, section: m.Section) -> list[str]:
        t, ways = self.t, []
        cards = self.paid_by(section)
        for p in self.r.phases:
            if (isinstance(p, m.StopsPhase) and section.kind in ("boodle", "set")
                    and p.claims != "none"):  # spec §6.6: 'claims: none' takes nothing
                key = "page.claim_play" if p.claims == "on play" else "page.claim_hold"
                ways.append(t.text(key, cards=cards, phase=md(p.label)))
            if isinstance(p, m.HoldingPhase) and section.name in p.sections:
                ways.append(t.text("page.claim_hold", cards=cards, phase=md(p.label)))
            if isinstance(p, m.PokerPhase) and p.pot == section.name:
                ways.append(t.text("page.claim_poker", phase=md(p.label)))
            if isinstance(p, m.StopsPhase) and (
                    section.name in p.going_out.takes
                    or (section.kind == "kitty" and p.going_out.to == "kitty")):
                ways.append(t.text("page.claim_out", phase=md(p.label)))
        return ways

    def paid_by(self, section: m.Section) -> str:
        if section.suit_rule == "fixed":
            return " ".join(card_html(c, self.t) for c in section.cards)
        if section.suit_rule == "drawn":
            return self.t.text("page.claim_any")
        key = "page.claim_trump" if section.suit_rule == "trumps" else "page.claim_same_suit"
        return self.t.text(key, ranks=" ".join(self.t.rank(x) for x in section.ranks))


def standalone_markdown(ruleset: m.Ruleset, t: Templates) -> str:
    """One variant's page standing alone, outside the site (``boodle docs page FILE``): the
    same numbered rules as its site page (a house rule's only where it differs from its
    built-in base), references as plain text (``friday.boodle:12 · §5.4``) since there are no
    site pages to link to, then the worked example of its first deal."""
    from boodle.docs.example import example_markdown

    page = VariantPage(ruleset, t, RuleRefs(t, ruleset.name, [], up=None), standalone=True)
    return (page.markdown() + f"\n## {t.text('page.example_title', title=md(page.r.title))}\n\n"
            + example_markdown(ruleset, t))


def section_ways(ruleset: m.Ruleset, t: Templates, section: m.Section) -> list[str]:
    """How ``section`` is won, each way a phrase of the rules page (``by playing A♥ in the
    phase Stops``); empty when nothing ever pays it out.  Used by the language server's
    hovers and by ``boodle check``'s "never claimed" warning (:mod:`boodle.language.warnings`)."""
    class _Claims(VariantPage):
        """The page's claims walk alone: it needs no rule lines (no :class:`SpanIndex`)."""

        def __init__(self) -> None:
            self.r, self.t = localized(ruleset, t), t

    return _Claims().ways(section)
