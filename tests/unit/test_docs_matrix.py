"""The comparison matrix shows what differs (issue 21).

Before, the michigan, dealer-double and paid-stops columns looked identical (no row for the
antes, the stop bonus or the penalties), 19 columns did not fit a laptop screen, a default
was a 40-word sentence in a cell, and Boodle's board showed words where the others showed
cards.  Expected values come from the rules files and their seeds by hand: 001 §02
(Michigan, 4 players: 1 chip on each of 4 boodles and 2 on the kitty, so 6 each), the
dealer-double house rule (the dealer puts 2 more on the kitty: 8), paid stops (1 chip from
the kitty per stop), Pope Joan's 51 cards without the 8♦.
"""

from __future__ import annotations

import re

import pytest

from boodle.docs.pages import matrix_page
from boodle.docs.site import rulesets
from boodle.docs.templates import load
from docs_helpers import page_text

LANGUAGES = ["en", "fr", "it", "pt"]


def _rows(table: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in table:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        out[cells[0].strip("*")] = cells[1:]
    return out


@pytest.fixture(scope="module")
def english() -> str:
    return matrix_page(rulesets(), load("en"))


def test_the_variants_that_stand_alone_fit_one_table(english: str) -> None:
    lines = english.splitlines()
    start = lines.index("## The variants side by side")
    table = [x for x in lines[start + 2:lines.index("", start + 2)]]
    head = re.findall(r"\[([a-z0-9-]+)\]\(variants/", table[0])
    assert head == ["michigan", "michigan-cadaco", "michigan-classic", "newmarket", "pope-joan",
                    "rummoli", "tripoley", "tripoli", "tripoli-lowest-club"]  # the home
    # profile first; no house rule (tripoli-lowest-club is a whole file of its own)
    rows = _rows(table[2:])
    for row in ("antes, 4 players", "pack", "board", "widow", "stop bonus", "penalties",
                "session"):
        assert row in rows, row
    assert rows["antes, 4 players"][0] == "dealer 6, others 6"  # 001 §02: 4 + 2 each
    assert rows["pack"][4] == '51 cards (no <span class="card-red" style="color:#c62828">8♦</span>)'
    assert rows["board"][0].startswith('<span class="card-red" style="color:#c62828">A♥</span>, K♣')
    for row, cells in rows.items():  # a few words a cell, never a rule's whole sentence
        for c in cells if row != "board" else ():  # the board: one item per section
            assert len(page_text(c).split()) <= 15, (row, c)


def test_each_house_rule_shows_what_it_changes(english: str) -> None:
    house = {m.group(1): m.group(2) for m in re.finditer(
        r"^\| \[[^]]+\]\(variants/([a-z0-9-]+)\.md\) \| (.*) \|$", english, re.M)}
    assert house["michigan-dealer-double"] == "**antes, 4 players**: dealer 8, others 6"
    assert house["michigan-paid-stops"] == "**stop bonus**: 1 chip from Kitty"
    assert house["michigan-claims-on-holding"] == "**claims**: by holding"
    assert "**widow**: dealt last, sold unseen for 2 chips" in house["michigan-widow-sale"]
    # Boodle is Michigan with other labels: the same cards, so its description
    assert house["boodle"].startswith("Michigan's home profile under its British name")
    assert "**phases**: Hearts · Stops" in house["tripoli-no-poker"]
    assert len(set(house.values())) == len(house)  # no two house rules look identical
    assert "If the player due to lead holds no card" not in english


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_matrix_in_every_language(lang: str) -> None:
    text = matrix_page(rulesets(), load(lang))
    words = {"en": "dealer 6, others 6", "fr": "donneur 6, autres 6",
             "it": "mazziere 6, altri 6", "pt": "distribuidor 6, outros 6"}[lang]
    assert f"| **{load(lang).text('page.matrix.antes', n=4)}** | {words} |" in text
    assert text.count("\n## ") == 6  # the variants side by side, 5 families of house rules
    change = load(lang).text("page.matrix_change", row="x", cell="y")
    assert change == ("**x**\u00a0: y" if lang == "fr" else "**x**: y")
    assert change.replace("x", load(lang).text("page.matrix.claims")).replace(
        "y", load(lang).text("page.matrix.claims_on_holding")) in text
