"""The site's other generated pages: index, comparison matrix, rules files, conformance cases.

Each function returns one page's Markdown; :mod:`boodle.docs.site` writes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boodle.docs.constructs import construct_value
from boodle.docs.escape import cell, code, md
from boodle.docs.links import PinGroup, cases_page_path
from boodle.docs.numbers import numbers
from boodle.docs.rules_text import Speaker, card_html
from boodle.docs.specref import Case, case_anchor
from boodle.docs.templates import Templates
from boodle.docs.translate import localized
from boodle.language import model as m
from boodle.language.variants import builtin_path

HOME = "michigan"
"""The home profile (001): the variant the site shows first."""


def site_order(bases: dict[str, str | None]) -> list[str]:
    """The variants in the order the site lists them (index, matrix, navigation): the home
    profile, then its house rules, then each other variant followed by its house rules,
    family by family (the first word of the name: ``michigan-cadaco`` is a Michigan).

    ``bases``: variant name → the name of the built-in variant it extends, or ``None``."""

    def root(name: str) -> str:
        seen = {name}
        while bases.get(name) in bases and bases[name] not in seen:
            name = bases[name] or name
            seen.add(name)
        return name

    def key(name: str) -> tuple[bool, str, bool, str, bool, str]:
        top = root(name)
        family = top.split("-")[0]
        return (family != HOME.split("-")[0], family, top != HOME, top, name != top, name)

    return sorted(bases, key=key)


def ordered(rulesets: list[m.Ruleset]) -> list[m.Ruleset]:
    """``rulesets`` in :func:`site_order`."""
    by_name = {r.name: r for r in rulesets}
    return [by_name[n] for n in site_order({r.name: r.base for r in rulesets})]


def index_page(rulesets: list[m.Ruleset], t: Templates) -> str:
    """The home page: what the site is, every variant with its links, the other pages."""
    out = [f"# {t.text('page.index_title')}", "", t.text("page.index_intro"), "",
           f"## {t.text('page.variants_heading')}", ""]
    for r in (localized(x, t) for x in ordered(rulesets)):
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


MATRIX_PLAYERS = 4
"""The table size of the matrix's antes row (every built-in variant allows 4 players)."""


class _Cells:
    """The matrix cells of one variant, each a few words or symbols in the page's language:
    cards as cards (red suits red), counts with their unit, sections and phases by their
    labels, and the lead rules and payments in the short ``page.matrix.*`` phrases (one per
    literal of the model: who leads, which card, how ties and a player unable to lead are
    settled, what going out pays), never the rules file's English words."""

    def __init__(self, r: m.Ruleset, t: Templates) -> None:
        self.r, self.t, self.say = r, t, Speaker(r, t)
        self.none = t.text("page.matrix.none")

    def cell_text(self, key: str, **kw: Any) -> str:
        return self.t.text(f"page.matrix.{key}", **kw)

    def deck(self) -> str:
        deck, t = self.r.deck, self.t
        out = t.count(len(deck.cards()), "card")
        if deck.removed:
            order = sorted(deck.removed, key=lambda c: (deck.suits.index(c.suit)
                                                        if c.suit in deck.suits else 9,
                                                        deck.ranks.index(c.rank)
                                                        if c.rank in deck.ranks else 99))
            gone = " ".join(card_html(c, t) for c in order)
            out += " " + self.cell_text("deck_without", cards=gone)
        return out

    def board(self) -> str:
        parts = ["-".join(card_html(c, self.t) for c in s.cards)
                 if s.suit_rule == "fixed" and s.cards else cell(s.label) for s in self.r.board]
        return ", ".join(parts) or self.none

    def antes(self) -> str:
        nums = numbers(self.r)
        row = next((x for x in nums.rows if x.players == MATRIX_PLAYERS), None)
        if row is None or row.dealer_pays is None or row.other_pays is None:
            return self.none
        out = self.cell_text("antes_cell", dealer=str(row.dealer_pays), other=str(row.other_pays))
        for amount in nums.chosen:
            out += " " + self.cell_text("antes_chosen", n=amount)
        return out

    def phase(self, phase: m.Phase) -> str:
        """A phase's label, with its betting round's bet size (spec §8.3) if it has one."""
        label = md(phase.label)
        key = BETS_CELL[phase.bets] if isinstance(phase, m.PokerPhase) else None
        if key is None or not isinstance(phase, m.PokerPhase):
            return label
        return f"{label} ({self.cell_text(key, bet=phase.bet)})"

    def widow(self) -> str:
        deal, sale = self.r.deal, self.r.widow_sale
        out = [self.cell_text(f"widow_{deal.widow_position}")]
        face = WIDOW_FACE_CELL[deal.widow_visibility]
        if deal.widow_position != "none" and face is not None:
            out.append(self.cell_text(face))
        if sale is not None:
            seen = self.cell_text("widow_seen" if sale.seen else "widow_unseen")
            key = "widow_sale" if sale.mode == "sale" else "widow_auction"
            out.append(self.cell_text(key, price=sale.price, seen=seen))
            if sale.dealer_may_withhold:  # spec §5.4 'dealer: may withhold'
                out.append(self.cell_text("widow_withheld"))
        return ", ".join(out)

    def lead(self, rule: m.LeadRule, who_shown: bool = True) -> str:
        """Who leads and what (``dealer's left: lowest of a chosen suit``); only what, if
        not ``who_shown``."""
        say = self.say
        if rule.choice == "any":
            what = self.cell_text("choice.any")
        elif rule.choice == "card":
            what = say.value(rule.card)
        else:
            what = self.cell_text(f"scope.{rule.scope}", suit=rule.suit or "")
        if rule.choice == "lowest" and rule.ties != "chosen":
            what += self.cell_text(f"ties.{rule.ties}", suits=say.value(rule.tie_suits))
        if not who_shown:
            return what
        who = self.cell_text(f"who.{construct_value(rule, 'who')}", card=say.value(rule.card),
                             suit=rule.holder_suit or "", walk=say.value(rule.holder_walk),
                             phase=say.word(rule.phase or ""))
        return self.cell_text("lead_cell", who=who, what=what)

    def restart(self, stops: m.StopsPhase) -> str:
        """The restart rule, then what a player does holding no card it allows (``else
        pass``; ``else lowest of the same suit``, said without its player when it is the
        restart's; nothing when the fallback is the restart rule itself)."""
        f, again = stops.fallback, stops.restart
        out = self.lead(again)
        if f.rule == again:
            return out
        same = f.rule is not None and construct_value(f.rule, "who") == construct_value(
            again, "who") and f.rule.phase == again.phase and f.rule.card == again.card
        text = self.cell_text(f"fallback.{construct_value(f, 'kind')}", amount=f.amount,
                              to=self.say.word(f.to or ""),
                              rule=self.lead(f.rule, not same) if f.rule is not None else "")
        return f"{out} · {text}" + (self.cell_text("fallback.if_able") if f.if_able else "")

    def payments(self, stops: m.StopsPhase) -> str:
        """What going out pays (``takes Kitty, 1 chip a card from each opponent``)."""
        g, say, out = stops.going_out, self.say, []
        if not g.ends_deal:
            out.append(self.cell_text("payments.goes_on"))
        if g.takes:
            out.append(self.cell_text("payments.takes",
                                      sections=", ".join(say.word(s) for s in g.takes)))
        if g.per_card:
            out.append(self.cell_text(f"payments.to.{g.to}", n=g.per_card,
                                      into=say.word(g.into or "")))
        if g.excused:
            out.append(self.cell_text("payments.excused", cards=say.value(g.excused)))
        for section, phase in g.unless_taken:
            out.append(self.cell_text("payments.unless_taken", section=say.word(section),
                                      phase=say.word(phase)))
        return ", ".join(out) or self.none

    def bonus(self, stops: m.StopsPhase) -> str:
        b = stops.stop_bonus
        return self.cell_text("bonus_cell", amount=b.amount, source=self.say.word(b.source)) if b \
            else self.none

    def penalties(self, stops: m.StopsPhase) -> str:
        return "; ".join(
            self.cell_text("penalty_cell", fault=self.t.text(f"page.example_fault.{p.fault}"),
                   amount=p.amount, to=self.say.word(p.to)) for p in stops.penalties) \
            or self.none

    def session(self) -> str:
        s, out = self.r.session, []
        if s.end_never:
            out.append(self.cell_text("session_never"))
        if s.rotations is not None:
            out.append(self.t.count(s.rotations, "rotation"))
        if s.end_when_broke:
            out.append(self.cell_text("session_broke"))
        if s.end_last_with_chips:
            out.append(self.cell_text("session_last"))
        if s.end_target is not None:
            out.append(self.cell_text("session_target", n=s.end_target))
        text = self.cell_text("session_or").join(out)
        tie = TIE_CELL[s.ties]
        if tie is not None and not s.end_never:
            text += " · " + self.cell_text(tie)
        return text + " · " + self.cell_text("session_start", n=s.start_chips)

    def all(self) -> dict[str, str]:
        r, t = self.r, self.t
        stops = _stops(r)
        out = {
            "players": f"{r.players.low}–{r.players.high}",
            "ace": _ace(r, t),
            "deck": self.deck(),
            "board": self.board(),
            "antes": self.antes(),
            "widow": self.widow(),
            "phases": " · ".join(self.phase(p) for p in r.phases) or self.none,
            "session": self.session(),
        }
        if stops is None:
            for row in ("lead", "restart", "claims", "payments", "bonus", "penalties"):
                out[row] = self.none
            return out
        out["lead"] = self.lead(stops.first_lead)
        out["restart"] = self.restart(stops)
        out["claims"] = self.cell_text(f"claims_{stops.claims.replace(' ', '_')}")
        out["payments"] = self.payments(stops)
        out["bonus"] = self.bonus(stops)
        out["penalties"] = self.penalties(stops)
        return out


BETS_CELL: dict[m.BetLimit, str | None] = {"none": None, "fixed": "bets_fixed",
                                            "up to": "bets_up_to",
                                            "pot limit": "bets_pot_limit",
                                            "no limit": "bets_no_limit"}
"""The matrix words of a poker phase's bet size (spec §8.3), by its limit."""

WIDOW_FACE_CELL: dict[m.WidowVisibility, str | None] = {"hidden": None,
                                                        "exposed": "widow_exposed"}
"""The matrix words of a widow's face after the deal (spec §5.2), by its visibility (``None``:
nothing is said), one row per member of :data:`~boodle.language.model.WidowVisibility`."""

TIE_CELL: dict[m.EndTie, str | None] = {"share": None, "one more deal": "session_tie_deal"}
"""The matrix words of a tie for best at a session's end (spec §10), by its rule (``None``:
nothing is said), one row per member of :data:`~boodle.language.model.EndTie`."""

MATRIX_ROWS = ("players", "ace", "deck", "board", "antes", "widow", "lead", "restart",
               "claims", "payments", "bonus", "penalties", "phases", "session")
"""The rule dimensions of the comparison matrix, one row each."""


def matrix_page(rulesets: list[m.Ruleset], t: Templates) -> str:
    """The variants compared: one table of the variants that stand alone (a column each,
    one row per rule dimension), then, family by family, the house rules, each with the
    rows where it differs from its base (or its description, where no row differs)."""
    rules = ordered(rulesets)
    names = {r.name for r in rules}
    cells = {r.name: _Cells(localized(r, t), t).all() for r in rules}
    bases = [r for r in rules if not (r.base and r.base in names)]
    out = ["---", "hide:", "  - navigation", "  - toc", "---", "",
           f"# {t.text('page.matrix_title')}", "", t.text("page.matrix_intro"), "",
           f"## {t.text('page.matrix_bases')}", ""]
    head = [t.text("page.matrix_rule"), *(f"[{r.name}](variants/{r.name}.md)" for r in bases)]
    out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in MATRIX_ROWS:
        label = t.text("page.matrix." + row, n=MATRIX_PLAYERS)
        out.append(f"| **{label}** | " + " | ".join(cells[r.name][row] for r in bases) + " |")
    by_name = {r.name: r for r in rules}

    def family(r: m.Ruleset) -> str:
        """The variant standing alone that ``r`` extends, through house rules of house rules."""
        while r.base and r.base in names:
            r = by_name[r.base]
        return r.name

    for base in bases:
        house = [r for r in rules if r.base and r.base in names and family(r) == base.name]
        if not house:
            continue
        title = md(localized(base, t).title)
        out += ["", f"## {t.text('page.matrix_house', base=title)}", "",
                f"| {t.text('page.matrix_house_rule')} | {t.text('page.matrix_changes')} |",
                "| --- | --- |"]
        for r in house:
            parent = r.base or base.name  # a house rule of a house rule: what it changes there
            changed = [t.text("page.matrix_change", cell=cells[r.name][row],
                              row=t.text("page.matrix." + row, n=MATRIX_PLAYERS))
                       for row in MATRIX_ROWS if cells[r.name][row] != cells[parent][row]]
            what = "<br>".join(changed) or cell(localized(r, t).about)
            of = ("" if parent == base.name else " (" + t.text(
                "page.house_rule_of", base=parent, link=f"variants/{parent}.md") + ")")
            out.append(f"| [{md(localized(r, t).title)}](variants/{r.name}.md){of} | {what} |")
    return "\n".join(out) + "\n"


def cases_pages(cases: list[Case], t: Templates,
                groups: Iterable[PinGroup] = ()) -> dict[str, str]:
    """The conformance cases that pin spec sections: ``reference/cases.md``, how many each
    variant has, with a link to its page, and one page per variant
    (:func:`~boodle.docs.links.cases_page_path`): first the cases of each rule its variant
    page links to (``groups``: one anchored line per group, by section), then every case of
    the variant, each anchored (``#case-ID``).  Site path → Markdown."""
    out = [f"# {t.text('page.cases_title')}", "", t.text("page.cases_intro"), ""]
    if not cases:
        return {"reference/cases.md": "\n".join([*out, t.text("page.cases_none"), ""])}
    by_page: dict[str, list[Case]] = {}
    for c in cases:
        by_page.setdefault(cases_page_path(c.variant), []).append(c)
    listed: dict[str, list[PinGroup]] = {}
    for g in sorted(groups, key=lambda g: (g.variant, _section_key(g.section), g.anchor)):
        listed.setdefault(cases_page_path(g.variant), []).append(g)
    names = {cases_page_path(c.variant): c.variant for c in cases}
    for path, some in listed.items():  # a rule pinned only by cases that name no variant
        names.setdefault(path, some[0].variant)
    out += [f"## {t.text('page.cases_variants')}", "", t.text("page.cases_variants_intro"), ""]
    pages: dict[str, str] = {}
    for path in sorted(names, key=lambda p: (names[p] is None, names[p] or "")):
        name = names[path] or t.text("page.cases_no_variant")
        own = by_page.get(path, [])
        out.append("- " + t.text("page.cases_variant_item", variant=md(name),
                                 link=path.removeprefix("reference/"), n=len(own)))
        pages[path] = _variant_cases(md(name), own, listed.get(path, []), t)
    return {"reference/cases.md": "\n".join(out) + "\n", **pages}


def _variant_cases(name: str, cases: list[Case], groups: list[PinGroup], t: Templates) -> str:
    """The cases page of one variant: its groups of cases by rule, then every case."""
    out = [f"# {t.text('page.cases_variant_title', variant=name)}", "",
           t.text("page.cases_intro"), ""]
    if groups:
        out += [f"## {t.text('page.cases_groups')}", "", t.text("page.cases_groups_intro"), ""]
        for g in groups:
            links = ", ".join(f"[{code(c.id)}]({_case_link(c, g.variant)})" for c in g.cases)
            out.append(f'- <a id="{g.anchor}"></a>**{md(g.variant)}**, {md(g.section)} '
                       f"({t.text('page.rule_cases_n', n=len(g.cases))}): {links}")
        out += ["", f"## {t.text('page.cases_every')}", ""]
    for c in cases:
        where = md(", ".join(c.sections)) or "—"
        desc = f": {md(c.description)}" if c.description else ""
        out.append(f'- <a id="{case_anchor(c.id)}"></a>**{code(c.id)}** '
                   f'({md(c.variant or "—")}; {where}){desc} — {code("conformance/" + c.file)}')
    return "\n".join(out) + "\n"


def _case_link(case: Case, variant: str | None) -> str:
    """A link from the cases page of ``variant`` to ``case`` (on another page if it names
    another variant)."""
    here, there = cases_page_path(variant), cases_page_path(case.variant)
    page = "" if here == there else there.rsplit("/", 1)[-1]
    return f"{page}#{case_anchor(case.id)}"


def _section_key(section: str) -> tuple[int, ...]:
    """``§6.10`` after ``§6.9``: a section's numbers, compared as numbers."""
    return tuple(int(x) for x in section.lstrip("§").split(".") if x.isdigit())
