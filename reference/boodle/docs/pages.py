"""The site's other generated pages: index, comparison matrix, rules files, conformance cases.

Each function returns one page's Markdown; :mod:`boodle.docs.site` writes them.
"""

from __future__ import annotations

from collections.abc import Iterable

from boodle.docs.escape import code, md
from boodle.docs.links import PinGroup
from boodle.docs.rules_text import Speaker
from boodle.docs.spans import SpanIndex
from boodle.docs.specref import Case, case_anchor
from boodle.docs.templates import Templates
from boodle.docs.translate import localized
from boodle.language import model as m
from boodle.language.errors import Span
from boodle.language.variants import builtin_path


def index_page(rulesets: list[m.Ruleset], t: Templates) -> str:
    """The home page: what the site is, every variant with its links, the other pages."""
    out = [f"# {t.text('page.index_title')}", "", t.text("page.index_intro"), "",
           f"## {t.text('page.variants_heading')}", ""]
    for r in (localized(x, t) for x in rulesets):
        house = ""
        if r.base and any(b.name == r.base for b in rulesets):
            house = " (" + t.text("page.house_rule_of", base=r.base,
                                  link=f"variants/{r.base}.md") + ")"
        out.append("- " + t.text("page.index_item", title=md(r.title),
                                 link=f"variants/{r.name}.md", house=house, about=md(r.about),
                                 example=t.text("page.example_link"),
                                 example_link=f"examples/{r.name}.md"))
    out += ["", f"## {t.text('page.other_pages')}", ""]
    for key, link in (("matrix_link", "matrix.md"), ("dsl_link", "reference/language.md"),
                      ("spec_link", "spec/rules.md"), ("protocol_link", "reference/protocol.md"),
                      ("cases_link", "reference/cases.md"),
                      ("verification_link", "reference/verification.md")):
        out.append(f"- [{t.text('page.' + key)}]({link})")
    return "\n".join(out) + "\n"


def source_page(r: m.Ruleset, t: Templates) -> str:
    """A rules file, highlighted, with numbered lines the rules pages link to."""
    text = builtin_path(r.name).read_text(encoding="utf-8").rstrip()
    fence = "````" if "```" in text else "```"
    return "\n".join([f"# {t.text('page.source_title', name=r.name + '.boodle')}", "",
                      t.text("page.source_intro", title=md(r.title)), "",
                      f'{fence}boodle linenums="1"', text, fence, ""])


def _ace(r: m.Ruleset, t: Templates) -> str:
    ranks = r.deck.ranks
    kind = "high" if ranks[-1] == "A" else "low" if ranks[0] == "A" else "none"
    return t.text(f"page.matrix.ace_{kind}")


def _stops(r: m.Ruleset) -> m.StopsPhase | None:
    return next((p for p in r.phases if isinstance(p, m.StopsPhase)), None)


def dsl_words(span: Span) -> str:
    """The rules-file text of a one-line construct after its ``key:`` (comments dropped)."""
    lines = span.text.splitlines()[span.line - 1:span.end_line]
    text = " ".join(line.split("#")[0].strip() for line in lines)
    if span.end_line == span.line:
        text = lines[0][span.column - 1:span.end_column - 1] if lines else text
    return " ".join(text.split(":", 1)[-1].split())


class _Cells:
    """The matrix cells of one variant: the rules file's own words, or the default."""

    def __init__(self, r: m.Ruleset, t: Templates) -> None:
        self.r, self.t, self.say = r, t, Speaker(r, t)
        self.where = SpanIndex.of(r)

    def rule(self, obj: object, name: str) -> str:
        value = getattr(obj, name)
        span = self.where(obj, name, value)
        if span is not None and span.text:
            return code(dsl_words(span)).replace("|", "\\|")  # a bar ends a column even here
        shown = md(value) if isinstance(value, str) else self.say.field(obj, name)
        return f"{shown} ({self.t.text('page.matrix.default')})"

    def all(self) -> dict[str, str]:
        r, t = self.r, self.t
        stops = _stops(r)
        none = t.text("page.matrix.none")
        widow = self.rule(r.deal, "widow_position")
        if r.widow_sale is not None:
            widow += " · " + self.rule(r.widow_sale, "mode")
        out = {
            "players": f"{r.players.low}–{r.players.high}",
            "ace": _ace(r, t),
            "board": ", ".join(md(s.label) for s in r.board) or none,
            "phases": ", ".join(self.say.phrase(p) for p in r.phases) or none,
            "session": self.rule(r.session, "rotations") + " · " + self.rule(r.session, "ties"),
        }
        rules = {"lead": ("first_lead",), "restart": ("restart", "fallback"),
                 "claims": ("claims",), "payments": ("going_out",)}
        for row, names in rules.items():
            out[row] = " · ".join(self.rule(stops, n) for n in names) if stops else none
        out["widow"] = widow
        return out


MATRIX_ROWS = ("players", "ace", "board", "lead", "restart", "widow", "claims", "payments",
               "phases", "session")
"""The rule dimensions of the comparison matrix, one row each."""


def matrix_page(rulesets: list[m.Ruleset], t: Templates) -> str:
    """One row per rule dimension, one column per variant."""
    cells = {r.name: _Cells(localized(r, t), t).all() for r in rulesets}
    head = [t.text("page.matrix_rule"), *(f"[{r.name}](variants/{r.name}.md)" for r in rulesets)]
    out = ["---", "hide:", "  - navigation", "  - toc", "---", "",
           f"# {t.text('page.matrix_title')}", "", t.text("page.matrix_intro"), "",
           "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in MATRIX_ROWS:
        values = [cells[r.name][row] for r in rulesets]  # escaped for a table cell already
        out.append(f"| **{t.text('page.matrix.' + row)}** | " + " | ".join(values) + " |")
    return "\n".join(out) + "\n"


def cases_page(cases: list[Case], t: Templates, groups: Iterable[PinGroup] = ()) -> str:
    """Every conformance case that pins spec sections, each anchored (``#case-ID``); first,
    the cases of each rule the variant pages link to (``groups``: one anchored line per
    group, :class:`~boodle.docs.links.PinGroup`), by variant and section."""
    out = [f"# {t.text('page.cases_title')}", "", t.text("page.cases_intro"), ""]
    if not cases:
        return "\n".join([*out, t.text("page.cases_none"), ""])
    listed = sorted(groups, key=lambda g: (g.variant, _section_key(g.section), g.anchor))
    if listed:
        out += [f"## {t.text('page.cases_groups')}", "", t.text("page.cases_groups_intro"), ""]
        for g in listed:
            links = ", ".join(f"[{code(c.id)}](#{case_anchor(c.id)})" for c in g.cases)
            out.append(f'- <a id="{g.anchor}"></a>**{md(g.variant)}**, {md(g.section)} '
                       f"({t.text('page.rule_cases_n', n=len(g.cases))}): {links}")
        out += ["", f"## {t.text('page.cases_every')}", ""]
    for c in cases:
        where = md(", ".join(c.sections)) or "—"
        desc = f": {md(c.description)}" if c.description else ""
        out.append(f'- <a id="{case_anchor(c.id)}"></a>**{code(c.id)}** '
                   f'({md(c.variant or "—")}; {where}){desc} — {code("conformance/" + c.file)}')
    return "\n".join(out) + "\n"


def _section_key(section: str) -> tuple[int, ...]:
    """``§6.10`` after ``§6.9``: a section's numbers, compared as numbers."""
    return tuple(int(x) for x in section.lstrip("§").split(".") if x.isdigit())
