"""Hover, completion, go to definition and the outline of a rules file.

Each is a plain function of an :class:`~boodle.lsp.analysis.Analysis` (the last one of the
document; a file being typed often has a syntax error, so completion also takes the last
analysis that parsed) and a 0-based position in code points:

- :func:`hover`: on a rule line, its sentence of the rules page in the editor's language
  (:class:`boodle.docs.rules_text.Speaker`, the docs templates) and its spec section; on
  a card or a section's name, the sections it pays and how (the page's "Claims and
  payments"); on ``extends``, what the house rule changes from its base
  (:func:`boodle.language.ruleset_diff.diff`, as ``boodle check`` prints it).
- :func:`completions`: the keywords the parser can take at the cursor (its interactive
  parser on the text before the cursor, as the syntax hints compute), the phrases that
  end a rule line after its ``:`` or ``,``, the deck's cards, the board's section names,
  the phases' names, and after ``extends`` the built-in variants and the files beside.
- :func:`definition`: ``extends NAME`` → the base file (a built-in from the installed
  package); a section's or a phase's name → where it is declared.
- :func:`symbols`: the variant, its blocks and lines, its phases and their rules.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from boodle.docs.templates import Templates
from boodle.language import model as m
from boodle.language.cards import Card
from boodle.language.errors import Span
from boodle.language.syntax import (
    BoodleDecl,
    CardLit,
    Clause,
    NameLit,
    PhaseDecl,
    PoolDecl,
    SetDecl,
    VariantDecl,
    WordLit,
)
from boodle.lsp.analysis import Analysis, Range, span_range

# ---------------------------------------------------------------- what is under the cursor


def literals(value: Any) -> Iterator[CardLit | NameLit]:
    """Every card and name written in ``value`` (a clause, a tuple, a phase, a variant)."""
    if isinstance(value, CardLit | NameLit):
        yield value
    elif isinstance(value, Clause):
        yield from literals(value.value)
    elif isinstance(value, PhaseDecl):
        yield from literals(value.rules)
    elif isinstance(value, VariantDecl):
        if value.base is not None:
            yield value.base
        yield from literals(value.items)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from literals(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type | WordLit):
        for f in dataclasses.fields(value):  # a typed clause value (LeadDecl …), in its order
            yield from literals(getattr(value, f.name))


def literal_at(analysis: Analysis, line: int, column: int) -> CardLit | NameLit | None:
    """The card or name written at the position, if any."""
    if analysis.decl is None:
        return None
    for lit in literals(analysis.decl):
        if lit.span.file == analysis.path and \
                span_range(lit.span, analysis.bom).contains(line, column):
            return lit
    return None


def _phases(analysis: Analysis) -> dict[str, Span]:
    """Where each phase is declared (in this file or in a base): the model's spans, or the
    clauses' while the file does not build."""
    if analysis.ruleset is not None:
        return {p.name: p.span for p in analysis.ruleset.phases if p.span is not None}
    items = analysis.resolved.items if analysis.resolved is not None else (
        analysis.decl.items if analysis.decl is not None else ())
    return {item.value.name: item.span for item in items if isinstance(item.value, PhaseDecl)}


def _sections(analysis: Analysis) -> dict[str, Span]:
    """Where each section of the board is declared (in this file or in a base): the model's
    spans, or the clauses' while the file does not build."""
    if analysis.ruleset is not None:
        return {s.name: s.span for s in analysis.ruleset.board if s.span is not None}
    items = analysis.resolved.items if analysis.resolved is not None else (
        analysis.decl.items if analysis.decl is not None else ())
    out: dict[str, Span] = {}
    for item in items:
        if item.key == "board":
            for entry in item.value:
                name = _section_name(entry)
                if name is not None:
                    out.setdefault(name, entry.span)
    return out


def _section_name(entry: Any) -> str | None:
    """The name a board entry gives its section (as :mod:`boodle.language.build` does: a
    boodle without a name is its card, a kitty without one ``kitty``, a pot ``pot``)."""
    if not isinstance(entry, Clause):
        return None
    value = entry.value
    if isinstance(value, BoodleDecl | SetDecl) and value.name is not None:
        return value.name.name
    if isinstance(value, BoodleDecl):
        return str(value.item.card) if isinstance(value.item, CardLit) else None
    if isinstance(value, PoolDecl):
        return value.name.name if value.name is not None else entry.key
    return None


# ---------------------------------------------------------------- hover


@dataclass(frozen=True)
class Hover:
    """Markdown text and the range it is about."""

    markdown: str
    range: Range


def hover(analysis: Analysis, line: int, column: int, lang: str = "en") -> Hover | None:
    """What the position means (see the module's docstring), in ``lang`` when the rules
    site has it (else English); ``None`` where there is nothing to say."""
    from boodle.docs.templates import languages, load

    t = load(lang if lang in languages() else "en")
    lit = literal_at(analysis, line, column)
    decl = analysis.decl
    found: Hover | None = None
    if lit is None and decl is not None and decl.base is not None \
            and _on_extends(analysis, decl.base, line, column):
        lit = decl.base
    if lit is not None and decl is not None and lit is decl.base:
        found = Hover(_extends_text(analysis), span_range(lit.span, analysis.bom))
    elif lit is not None and analysis.ruleset is not None:
        text = _pays_text(analysis.ruleset, t, lit)
        if text:
            found = Hover(text, span_range(lit.span, analysis.bom))
    if found is None and analysis.ruleset is not None:
        found = _rule_hover(analysis, t, line)
    if found is None:
        return None
    # the page's HTML (a red suit's <span>) is not for an editor's hover
    return Hover(re.sub(r"<[^>]+>", "", found.markdown), found.range)


def _on_extends(analysis: Analysis, base: NameLit, line: int, column: int) -> bool:
    """Whether the position is on the keyword ``extends`` before the base's name."""
    where = span_range(base.span, analysis.bom)
    if line != where.line:
        return False
    text = analysis.text.split("\n")[line]
    keyword = text.rfind("extends", 0, where.column)
    return keyword >= 0 and keyword <= column <= where.column


def _extends_text(analysis: Analysis) -> str:
    """What a house rule changes from its base, as ``boodle check`` lists it."""
    from boodle.docs.escape import md
    from boodle.language.ruleset_diff import diff

    decl, base, ruleset = analysis.decl, analysis.base, analysis.ruleset
    assert decl is not None and decl.base is not None
    if base is None:
        return f"`extends {decl.base.name}`: the base does not load"
    head = f"**{md(base.title)}** (`{base.name}`)"
    if ruleset is None:
        return head + "\n\nFix the file's errors to see what it changes from its base."
    changes = diff(base, ruleset)
    if not changes:
        return head + "\n\nThis house rule changes nothing from its base."
    lines = "\n".join(f"- `{change}`" for change in changes)
    return f"{head}\n\nChanges from {base.name}:\n\n{lines}"


def _pays_text(ruleset: m.Ruleset, t: Templates, lit: CardLit | NameLit) -> str | None:
    """For a card: the sections it pays and how; for a section's name: how it is won."""
    from boodle.docs.escape import md
    from boodle.docs.variant_page import section_ways

    sections: list[m.Section]
    if isinstance(lit, CardLit):
        card = lit.card
        sections = [s for s in ruleset.board if _pays(s, card)]
        if not sections:
            named = next((s for s in ruleset.board if s.name == str(card)), None)
            if named is None:
                return f"{t.card(card)}: no section of the board is paid by this card"
            sections = [named]
        head = f"{t.card(card)}"
    else:
        sections = [s for s in ruleset.board if s.name == lit.name]
        if not sections:
            return None
        head = f"`{lit.name}`"
    lines = []
    for section in sections:
        ways = section_ways(ruleset, t, section) or [t.text("page.claim_none")]
        lines.append("- " + t.text("page.claim_line", label=md(section.label),
                                   ways=t.text("page.claim_sep").join(ways)))
    return f"{head} — {t.text('page.claims_heading')}:\n\n" + "\n".join(lines)


def _pays(section: m.Section, card: Card) -> bool:
    """Whether ``card`` is one of those that win ``section`` (spec §3: a boodle's card, a
    set's cards, a rank of a set of one suit or of trumps)."""
    if section.suit_rule == "fixed":
        return card in section.cards
    return card.rank in section.ranks


def _rule_hover(analysis: Analysis, t: Templates, line: int) -> Hover | None:
    """The sentences of the rules written on ``line`` (the narrowest statement that
    covers it) and their spec sections."""
    from boodle.docs.specref import spec_section

    found = [rule for rule in page_rules(analysis, t)
             if rule.span is not None and rule.span.file == analysis.path
             and rule.span.line - 1 <= line <= rule.span.end_line - 1]
    if not found:
        return _block_hover(analysis, t, line)
    narrowest = min(found, key=lambda r: _extent(r.span))
    chosen = [r for r in found if _extent(r.span) == _extent(narrowest.span)]
    parts = []
    for rule in chosen:
        section = spec_section(rule.key)
        title = spec_title(section) if section else None
        where = f"\n\n*spec {section}{' ' + title if title else ''}*" if section else ""
        parts.append(rule.text + where)
    assert narrowest.span is not None
    return Hover("\n\n---\n\n".join(dict.fromkeys(parts)), span_range(narrowest.span,
                                                                      analysis.bom))


_BLOCK_FIELDS = {"deck": "deck", "board": "board", "ante": "antes", "deal": "deal",
                 "widow_sale": "widow_sale", "session": "session"}
"""A block's clause key → the ruleset field it states (the rules page's heading)."""


def _block_hover(analysis: Analysis, t: Templates, line: int) -> Hover | None:
    """On a block's first line (``deal {``): the rules page's heading of the block and its
    spec section."""
    from boodle.docs.specref import spec_section

    decl = analysis.decl
    for item in decl.items if decl is not None else ():
        name = _BLOCK_FIELDS.get(item.key)
        if name is None or item.span.line - 1 != line:
            continue
        heading = t.text(f"Ruleset.{name}")
        section = spec_section(f"Ruleset.{name}")
        title = spec_title(section) if section else None
        where = f"\n\n*spec {section}{' ' + title if title else ''}*" if section else ""
        first = span_range(item.span, analysis.bom)
        return Hover(f"**{heading}**{where}", Range(first.line, first.column, first.line,
                                                   first.column + len(item.key)))
    return None


def _extent(span: Span | None) -> tuple[int, int]:
    assert span is not None
    return (span.end_line - span.line, span.end_column - span.column)


def page_rules(analysis: Analysis, t: Templates) -> list[Any]:
    """Every numbered rule of the variant's page (:class:`boodle.docs.rules_text.Rule`),
    with the span of the line that states it, in the language of ``t``."""
    from boodle.docs.constructs import constructs
    from boodle.docs.rules_text import Rule, Speaker
    from boodle.docs.spans import SpanIndex
    from boodle.docs.translate import localized

    assert analysis.ruleset is not None
    r = localized(analysis.ruleset, t)
    say = Speaker(r, t)
    where = SpanIndex(analysis.ruleset.origin)
    out: list[Rule] = []
    for name in constructs(m.Ruleset):
        value = getattr(r, name)
        try:
            if name == "phases":
                for phase in value:
                    out.append(Rule(type(phase).__name__, say.phrase(phase), phase.span))
                    out += say.rules(phase, where)
            elif name == "players":
                out.append(Rule("Ruleset.players", say.phrase(value), where(r, name, value)))
            elif dataclasses.is_dataclass(value) and constructs(type(value)):
                out += say.rules(value, where)
            elif isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
                out += [Rule(f"Ruleset.{name}", say.phrase(v), v.span) for v in value]
            else:
                out.append(Rule(f"Ruleset.{name}", say.field(r, name), where(r, name, value)))
        except Exception:  # a missing template is the docs build's error, not the editor's
            continue
    return [rule for rule in out if rule.text.strip()]


def spec_title(section: str) -> str | None:
    """The heading of spec section ``§6.4`` in ``spec/rules.md`` ("Restart"), if found."""
    for number, title in _spec_headings():
        if number == section:
            return title
    return None


def _spec_headings() -> list[tuple[str, str]]:
    from boodle.resources import spec_prose

    global _HEADINGS
    if _HEADINGS is None:
        try:
            text = spec_prose("rules.md").read_text(encoding="utf-8")
        except OSError:
            text = ""
        _HEADINGS = [(found.group(1), found.group(2).strip()) for found in
                     re.finditer(r"^#{2,4}\s+(§\d+(?:\.\d+)*)\s+(.*)$", text, re.MULTILINE)]
    return _HEADINGS


_HEADINGS: list[tuple[str, str]] | None = None


# ---------------------------------------------------------------- completion


CompletionKind = Literal["keyword", "phrase", "card", "section", "phase", "variant"]


@dataclass(frozen=True)
class Completion:
    """One completion: the text inserted, what it is, a word on it."""

    label: str
    kind: CompletionKind
    detail: str = ""


def completions(text: str, path: str, line: int, column: int,
                known: Analysis | None = None) -> list[Completion]:
    """What may be written at the position (see the module's docstring).  ``known``: the
    last analysis of the document that parsed, for the cards, sections and phases (the
    text being typed may not parse)."""
    from lark.exceptions import UnexpectedInput

    from boodle.language.grammar import BOM, CURRENT_TEXT, GluedKeyword, TooLarge, parser
    from boodle.language.syntax_where import open_blocks, shiftable, words_of
    from boodle.lsp.analysis import line_offsets, offset_at

    starts = line_offsets(text)
    at = min(offset_at(starts, line, column), len(text))
    if _in_string_or_comment(text[starts[min(line, len(starts) - 1)]:at]):
        return []
    partial = re.search(r"[\w♣♦♥♠-]*$", text[:at])
    begin = at - (len(partial.group()) if partial else 0)
    prefix = text[:begin].removeprefix(BOM)
    token = CURRENT_TEXT.set(prefix)
    accepted: set[str]
    try:
        probe = parser().parse_interactive(prefix)
        probe.exhaust_lexer()
        accepted = shiftable(probe)
    except (UnexpectedInput, GluedKeyword, TooLarge):
        from boodle.language.syntax_where import line_starts

        blocks = open_blocks(prefix, len(prefix))
        accepted = set(line_starts(blocks[-1].kind)) | {"RBRACE"} if blocks else set()
    finally:
        CURRENT_TEXT.reset(token)
    out: list[Completion] = []
    for name in sorted(accepted):
        out += [Completion(word, "keyword") for word in words_of(name)]
    code = re.sub(r"#[^\n]*", "", prefix)
    previous = re.search(r"([a-z]+|[:,])[ \t]*$", code)
    before = previous.group(1) if previous else ""
    if before in (":", ","):
        out += [Completion(p, "phrase") for p in _line_phrases(prefix)
                if " " in p]
    source = known if known is not None and known.decl is not None else \
        _without_line(text, path, line)
    wanted = name_kind(code)
    if "NAME" in accepted and wanted == "variant":
        out += _variant_names(path)
    elif "NAME" in accepted and wanted == "phase":
        out += [Completion(n, "phase") for n in _phase_names(source)]
    elif "NAME" in accepted and wanted == "section":
        out += [Completion(n, "section") for n in _section_names(source)]
    if "CARD" in accepted:
        deck = source.ruleset.deck.cards() if source is not None and source.ruleset else None
        cards = deck or _standard_deck()
        out += [Completion(str(card), "card") for card in cards]
    seen: set[str] = set()
    unique = []
    for item in out:
        if item.label not in seen:
            seen.add(item.label)
            unique.append(item)
    return unique


def _in_string_or_comment(line: str) -> bool:
    """Whether the end of ``line`` (a line up to the cursor) is inside a label or a comment
    (read left to right, as the lexer does: a ``#`` in a label is the label's)."""
    for found in re.finditer(r'"[^"]*"?|#', line):
        if found.group() == "#" or not (len(found.group()) > 1 and found.group().endswith('"')):
            return True
    return False


def name_kind(before: str) -> Literal["variant", "phase", "section", "new"]:
    """What a name written after ``before`` (the text before it, comments out) names, by
    the words the grammar puts before a name: ``extends`` a variant; ``without phase``,
    ``before phase``, ``winner of`` and ``taken in`` a phase; ``variant``, ``phase`` and a
    section's declaration (``boodle``, ``set``, ``kitty``, ``pot``) a new name; else a
    section of the board."""
    if re.search(r"\bextends[ \t]*$", before):
        return "variant"
    if re.search(r"\b(?:(?:without|before)[ \t]+phase|of|in)[ \t]*$", before):
        return "phase"
    if re.search(r"\b(?:variant|phase|boodle|set|kitty|pot)[ \t]*$", before):
        return "new"
    return "section"


def _without_line(text: str, path: str, line: int) -> Analysis | None:
    """The analysis of ``text`` with line ``line`` (the one being typed) left out, if that
    parses: where the cards, sections and phases come from before the line is finished."""
    from boodle.lsp.analysis import analyse

    lines = text.split("\n")
    if 0 <= line < len(lines):
        lines[line] = ""
    found = analyse("\n".join(lines), path)
    return found if found.decl is not None else None


def _line_phrases(prefix: str) -> list[str]:
    """The phrases of keywords that end the line being written (the repair search's own:
    :func:`boodle.language.syntax_repairs._phrases`)."""
    from boodle.language.syntax_repairs import _phrases

    return _phrases(prefix, "start")


def _standard_deck() -> tuple[Card, ...]:
    from boodle.language.cards import parse_card

    return tuple(parse_card(rank + suit) for suit in "♣♦♥♠"
                 for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                              "A"))


def _variant_names(path: str) -> list[Completion]:
    from boodle.language.variants import builtin_names

    out = [Completion(n, "variant", "built-in") for n in builtin_names()]
    if path and not path.startswith("<"):
        here = Path(path)
        with contextlib.suppress(OSError):
            out += [Completion(p.stem, "variant", p.name)
                    for p in sorted(here.parent.glob("*.boodle"))
                    if p.resolve() != here.resolve() and re.fullmatch(r"[a-z][\w-]*", p.stem)]
    return out


def _section_names(known: Analysis | None) -> list[str]:
    if known is None:
        return []
    if known.ruleset is not None:
        return [s.name for s in known.ruleset.board]
    return list(_sections(known))


def _phase_names(known: Analysis | None) -> list[str]:
    if known is None:
        return []
    if known.ruleset is not None:
        return [p.name for p in known.ruleset.phases]
    return list(_phases(known))


# ---------------------------------------------------------------- definition


@dataclass(frozen=True)
class Location:
    """A place in a file: its path and range."""

    path: str
    range: Range


def definition(analysis: Analysis, line: int, column: int) -> Location | None:
    """Where the name at the position is defined: the base file of ``extends`` (the
    folder's own, else the built-in shipped in the package), the board line of a section,
    the ``phase`` line of a phase."""
    lit = literal_at(analysis, line, column)
    decl = analysis.decl
    if lit is None or decl is None:
        return None
    if lit is decl.base and analysis.resolved is not None \
            and analysis.resolved.parent is not None:  # the file extends found
        return Location(str(Path(analysis.resolved.parent.span.file).resolve()),
                        Range(0, 0, 0, 0))
    if lit is decl.base:  # extends did not resolve (a cycle): the file its name finds
        from boodle.language.build import default_resolver

        here = Path(analysis.path).parent if not analysis.path.startswith("<") else None
        try:
            _, file = default_resolver(lit.name, None if lit.name == decl.name else here)
        except (KeyError, OSError, Exception):
            return None
        return Location(str(Path(file).resolve()), Range(0, 0, 0, 0))
    name = str(lit.card) if isinstance(lit, CardLit) else lit.name
    where = span_range(lit.span, analysis.bom)
    before = analysis.text.split("\n")[where.line][:where.column]
    if name_kind(before) == "phase":
        span = _phases(analysis).get(name)
    else:
        span = _sections(analysis).get(name)
    if span is None or span == lit.span:
        return None
    bom = analysis.bom if span.file == analysis.path else 0
    return Location(span.file, span_range(span, bom))


# ---------------------------------------------------------------- symbols


SymbolKind = Literal["variant", "block", "phase", "line"]


@dataclass(frozen=True)
class Symbol:
    """One entry of the outline, with those inside it."""

    name: str
    kind: SymbolKind
    range: Range
    children: tuple[Symbol, ...] = ()
    detail: str = ""


_BLOCKS = ("deck", "board", "ante", "deal", "widow_sale", "session")


def symbols(analysis: Analysis) -> list[Symbol]:
    """The outline of the file: the variant, its blocks (their lines inside) and phases
    (their rules inside), and its other lines; empty until the file parses."""
    decl = analysis.decl
    if decl is None:
        return []
    bom = analysis.bom
    children = []
    for item in decl.items:
        where = span_range(item.span, bom)
        if isinstance(item.value, PhaseDecl):
            phase = item.value
            rules = tuple(Symbol(_key_words(r.key), "line", span_range(r.span, bom))
                          for r in phase.rules)
            children.append(Symbol(f"phase {phase.name}", "phase", where, rules,
                                   f"{phase.kind}" + (f' "{phase.label}"' if phase.label
                                                      else "")))
        elif item.key in _BLOCKS:
            lines = tuple(Symbol(_key_words(c.key), "line", span_range(c.span, bom))
                          for c in item.value if isinstance(c, Clause))
            children.append(Symbol(_key_words(item.key), "block", where, lines))
        else:
            children.append(Symbol(_key_words(item.key), "line", where))
    detail = f"extends {decl.base.name}" if decl.base else ""
    return [Symbol(f"variant {decl.name}", "variant", span_range(decl.span, bom),
                   tuple(children), detail)]


def _key_words(key: str) -> str:
    """A clause key as the file's words: ``first_lead`` → ``first lead``, ``fallback`` →
    ``if none``, ``without:pope`` → ``without phase pope`` (an ante line, whose first words
    vary, is ``ante line``)."""
    if key.startswith("without:"):
        return f"without phase {key.split(':', 1)[1]}"
    if key.startswith("penalty:"):
        return "penalty " + key.split(":", 1)[1]
    return {"ante_line": "ante line", "lead_rule": "lead", "end_rotations": "end",
            "end_broke": "end", "end_last": "end", "end_target": "end", "end_never": "end",
            "per_card": "per card", "widow_sale": "widow sale", "fallback": "if none",
            "sources": "source", "dealer_swap": "dealer", "dealer_withhold": "dealer",
            "high_bidder": "high bidder"}.get(key, key.replace("_", " "))
