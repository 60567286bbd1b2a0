"""The board as a picture: an inline SVG drawn from the ruleset's sections and antes.

Boodles and sets sit in rows of at most :data:`PER_ROW`, kitties and pots in
a last row.  Each section shows its label, what pays it (a card in its
colour, a combination) and its ante per payer (``each player 1``), taken from
the ante lines that name it.  Text is escaped; the SVG has a ``<title>`` and
``role="img"`` for screen readers.
"""

from __future__ import annotations

from boodle.docs.templates import Templates
from boodle.language.cards import SUIT_COLOUR
from boodle.language.model import Ruleset, Section

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;",
                         **{c: f"&#{ord(c)};" for c in "[]`*_\\!{}|~"}})
"""The SVG's text as character references: what HTML reads as markup, and what Markdown reads
as markup even inside the SVG's inline HTML (a ``[x](javascript:…)`` in a label became a live
link: bench/fuzz_files.py). Parentheses and ``#`` stay: without ``[`` no link or image can
start, and a reference's ``;`` would read as a semicolon in French typography's checks."""


def escape(text: str) -> str:
    """``text`` safe in the SVG both as HTML and as Markdown (the SVG sits inside a Markdown
    page; a rules file's words are text, never markup: issue 20, item 8)."""
    return text.translate(_ESCAPES)


PER_ROW = 5
W, H, GAP = 150, 120, 16
"""Box width and height and the gap between boxes, in SVG user units."""

RED, BLACK = "#c62828", "#212121"


def _paid_by(section: Section, t: Templates) -> tuple[str, str]:
    """The big text of a box and its colour."""
    if section.kind in ("kitty", "pot"):
        return section.label, BLACK
    if section.suit_rule == "fixed" and section.cards:
        colours = {SUIT_COLOUR[c.suit] for c in section.cards}
        return " ".join(map(t.card, section.cards)), RED if colours == {"red"} else BLACK
    if section.suit_rule == "drawn":
        return "?", BLACK
    key = "page.claim_trump" if section.suit_rule == "trumps" else "page.claim_same_suit"
    return t.text(key, ranks=" ".join(map(t.rank, section.ranks))), BLACK


def _antes(ruleset: Ruleset, section: Section, t: Templates) -> list[str]:
    lines: list[str] = []
    for line in ruleset.antes:
        if section.name in line.targets:
            who = t.text(f"svg.{line.payer}")
            lines.append(f"{who} {line.amount}" + (f" ({t.text('svg.chosen')})"
                                                   if line.chosen else ""))
    return lines or [t.text("svg.no_ante")]


def _box(ruleset: Ruleset, section: Section, x: int, y: int, t: Templates) -> str:
    big, colour = _paid_by(section, t)
    size = 30 if len(big) <= 4 else 16 if len(big) <= 14 else 12
    antes = _antes(ruleset, section, t)
    texts = [f'<text x="{x + W // 2}" y="{y + 22}" font-size="14" font-weight="bold">'
             f"{escape(section.label)}</text>",
             f'<text x="{x + W // 2}" y="{y + 62}" font-size="{size}" fill="{colour}">'
             f"{escape(big)}</text>"]
    for i, line in enumerate(antes[:2]):
        texts.append(f'<text x="{x + W // 2}" y="{y + 90 + 14 * i}" font-size="11">'
                     f"{escape(line)}</text>")
    fill = "#fff8e1" if section.kind in ("kitty", "pot") else "#e8f5e9"
    return (f'<g class="section" data-section="{escape(section.name)}">'
            f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="12" fill="{fill}" '
            f'stroke="#2e7d32" stroke-width="2"/>' + "".join(texts) + "</g>")


def board_svg(ruleset: Ruleset, t: Templates) -> str:
    """The board of ``ruleset`` as one line of SVG markup (no blank lines: safe in Markdown)."""
    cards = [s for s in ruleset.board if s.kind in ("boodle", "set")]
    prizes = [s for s in ruleset.board if s.kind not in ("boodle", "set")]
    rows = [cards[i:i + PER_ROW] for i in range(0, len(cards), PER_ROW)]
    rows += [prizes[i:i + PER_ROW] for i in range(0, len(prizes), PER_ROW)]
    width = max((len(r) for r in rows), default=1) * (W + GAP) + GAP
    height = max(len(rows), 1) * (H + GAP) + GAP
    boxes: list[str] = []
    for r, row in enumerate(rows):
        offset = (width - len(row) * (W + GAP) - GAP) // 2
        for c, section in enumerate(row):
            boxes.append(_box(ruleset, section, offset + GAP + c * (W + GAP),
                              GAP + r * (H + GAP), t))
    title = escape(t.text("page.board_caption", title=ruleset.title))
    return (f'<svg class="boodle-board" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'style="max-width:100%;height:auto" text-anchor="middle" '
            f'font-family="sans-serif"><title>{title}</title>'
            f'<rect width="{width}" height="{height}" rx="16" fill="#1b5e20"/>'
            + "".join(boxes) + "</svg>")
