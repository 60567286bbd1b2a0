"""Where the pages are, and the references printed after each numbered rule.

Site layout (paths relative to the docs folder; the pages of the other
languages add ``.fr``, ``.it``, ``.pt`` before ``.md``): ``variants/NAME.md``,
``examples/NAME.md``, ``sources/NAME.md`` (the rules file), ``matrix.md``,
``reference/*.md``, ``reference/cases/VARIANT.md`` (the conformance cases of a variant),
``spec/*.md``.  Every link is relative, so ``mkdocs build --strict`` checks it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from boodle.docs.escape import code
from boodle.docs.rules_text import Rule
from boodle.docs.spans import lines_text, source_name
from boodle.docs.specref import Case, case_anchor, cases_for, spec_anchors, spec_section
from boodle.docs.templates import Templates
from boodle.language.errors import Span
from boodle.language.variants import builtin_names

LINE_ANCHOR = "__codelineno-0-{line}"
"""The anchor of a line of the (only) code block of a source page (pymdownx.highlight)."""


def source_link(span: Span, up: str = "../") -> str:
    """A Markdown link to the rules-file line(s) of ``span`` (plain text if not built in)."""
    name = source_name(span)
    text = lines_text(span)
    if name not in builtin_names():
        return code(text)
    return f"[{text}]({up}sources/{name}.md#{LINE_ANCHOR.format(line=span.line)})"


def spec_link(section: str, up: str | None = "../") -> str:
    """A link to a section of ``spec/rules.md`` (plain text if the spec is not at hand, or
    ``up`` is ``None``: a page standing alone, outside the site)."""
    anchor = spec_anchors().get(section) if up is not None else None
    return f"[{section}]({up}spec/rules.md#{anchor})" if anchor else section


CASES_FOLDER = "reference/cases"
"""The cases pages, one per variant (``reference/cases/michigan.md``), beside the summary
``reference/cases.md``: one page of every case was 1.4 MB."""


def cases_page_path(variant: str | None) -> str:
    """The site path of the cases page of ``variant`` (``None``: the cases naming none)."""
    slug = re.sub(r"[^a-z0-9]+", "-", (variant or "").lower()).strip("-")
    return f"{CASES_FOLDER}/{slug or '-'}.md"


@dataclass(frozen=True)
class PinGroup:
    """The conformance cases that pin one rule of one variant (spec ``section``): the
    list a rule's "pinned by N cases" link opens on the cases page."""

    variant: str
    section: str
    cases: tuple[Case, ...]

    @property
    def anchor(self) -> str:
        """The group's anchor on the cases page: readable (variant, section), and unique
        (a short hash of the case ids: two rules pinned by the same cases share it)."""
        digest = hashlib.sha256(" ".join(c.id for c in self.cases).encode()).hexdigest()[:8]
        words = re.sub(r"[^a-z0-9]+", "-", f"{self.variant} {self.section}".lower())
        return f"pins-{words.strip('-')}-{digest}"


@dataclass
class RuleRefs:
    """Prints the references of rules of one variant page in one language."""

    t: Templates
    variant: str
    cases: list[Case] = field(default_factory=list)
    up: str | None = "../"
    """How a page reaches the site's root; ``None`` for a page standing alone (every
    reference plain text: ``friday.boodle:12 · §5.4``)."""
    groups: dict[str, PinGroup] = field(default_factory=dict)
    """Every group of cases a rule links to, by anchor, filled as rules are printed: the
    cases page lists them (share one dict between the pages of a site)."""

    def refs(self, rule: Rule) -> str:
        """``michigan.boodle:45 · spec §6.1 · pinned by 20 cases`` for one rule: one link to
        the rules-file line, one to the spec section, and one to the list of the cases that
        pin it (the case itself when there is one)."""
        where = (source_link(rule.span, self.up) if self.up is not None else
                 code(lines_text(rule.span))) if rule.span else self.t.text("page.rule_default")
        parts = [where]
        section = spec_section(rule.key)
        if section:
            parts.append(self.t.text("page.rule_spec", section=spec_link(section, self.up)))
        pinned = cases_for(self.cases, self.variant, section, rule.tags)
        if pinned and section is not None:
            if len(pinned) == 1:
                cases = f"{self.up}{cases_page_path(pinned[0].variant)}"
                link = f"[{pinned[0].id}]({cases}#{case_anchor(pinned[0].id)})"
            else:
                group = PinGroup(self.variant, section, tuple(pinned))
                self.groups.setdefault(group.anchor, group)
                many = self.t.text("page.rule_cases_n", n=len(pinned))
                link = f"[{many}]({self.up}{cases_page_path(self.variant)}#{group.anchor})"
            parts.append(f"{self.t.text('page.rule_cases')} {link}")
        return " · ".join(parts)

    def numbered(self, rules: list[Rule]) -> list[str]:
        """Numbered Markdown lines, each rule followed by its references."""
        return [f"{i}. {rule.text} <small>({self.refs(rule)})</small>"
                for i, rule in enumerate(rules, 1)]
