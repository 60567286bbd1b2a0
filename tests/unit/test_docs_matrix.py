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
        r"^\| \[[^]]+\]\(variants/([a-z0-9-]+)\.md\)(?: \([^|]*\))? \| (.*) \|$",
        english, re.M)}
    assert house["michigan-dealer-double"] == "**antes, 4 players**: dealer 8, others 6"
    assert house["michigan-paid-stops"] == "**stop bonus**: 1 chip from Kitty"
    assert house["michigan-claims-on-holding"] == "**claims**: by holding"
    assert "**widow**: dealt last, sold unseen for 2 chips" in house["michigan-widow-sale"]
    # spec §5.4 'dealer: may withhold' (000 « Mise en place » 6: "le donneur peut proposer")
    # a house rule of a house rule is listed in its family, with what it changes from its base
    assert house["michigan-widow-sale-optional"] == \
        "**widow**: dealt last, sold unseen for 2 chips, if the dealer offers it"
    assert ("[Michigan with the widow sale at the dealer's option]"
            "(variants/michigan-widow-sale-optional.md) (a house rule of "
            "[michigan-widow-sale](variants/michigan-widow-sale.md))") in english
    # Boodle is Michigan with other labels: the same cards, so its description
    assert house["boodle"].startswith("Michigan's home profile under its British name")
    assert "**phases**: Hearts · Stops" in house["tripoli-no-poker"]
    # Cadaco's betting round (spec §8.3), in tripoley-as-sold.boodle 'bets: up to 5 chips'
    assert "**phases**: Hearts · Poker (bets up to 5 chips) · Michigan" in house["tripoley-as-sold"]
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


ENGLISH_DSL_WORDS = ("left of dealer", "lowest of", "last player", "per card", "ends deal",
                     "pass left", "else pass", "takes kitty", "any card", "`")
"""The rules files' own (English) words the lead, restart and payments cells showed on every
language's page before (``left of dealer, lowest of chosen suit`` in code)."""


@pytest.mark.parametrize("lang", ["fr", "it", "pt"])
def test_lead_restart_and_payment_cells_are_in_the_pages_language(lang: str) -> None:
    t = load(lang)
    text = matrix_page(rulesets(), t)
    lines = text.splitlines()
    start = lines.index(f"## {t.text('page.matrix_bases')}")
    rows = _rows(lines[start + 4:lines.index("", start + 2)])
    for row in ("lead", "restart", "payments"):
        for c in rows[t.text(f"page.matrix.{row}")]:
            for word in ENGLISH_DSL_WORDS:
                assert word not in c.lower(), (lang, row, c)


def test_michigan_lead_and_restart_in_french_say_the_seeds_rules() -> None:
    """001 §03 "Gauche commence", §04 "Entamez la plus basse détenue de la couleur choisie",
    §05 "Dernier au stop repart avec plus basse d'une autre couleur si possible ; avec
    seulement ancienne, peut la reprendre à sa plus basse restante", §02/§06 the kitty goes
    to the player who goes out, paid 1 chip a card left (the seed's words, in short)."""
    t = load("fr")
    lines = matrix_page(rulesets(), t).splitlines()
    start = lines.index(f"## {t.text('page.matrix_bases')}")
    rows = _rows(lines[start + 4:lines.index("", start + 2)])
    lead, restart, pay = (rows[t.text(f"page.matrix.{r}")][0]
                          for r in ("lead", "restart", "payments"))
    assert lead == "à gauche du donneur\u00a0: la plus petite d'une couleur choisie"
    assert restart == ("dernier joueur\u00a0: la plus petite d'une autre couleur · sinon "
                       "la plus petite de la même couleur")
    assert pay == "prend Kitty, 1 jeton par carte de chaque adversaire"


def test_every_literal_of_a_lead_rule_has_a_short_matrix_phrase() -> None:
    """A new ``who``, scope or tie-break in the model needs its matrix phrase too (the build
    checks the other languages against English)."""
    from typing import get_args, get_type_hints

    from boodle.docs.constructs import DERIVED
    from boodle.language import model as mdl

    t = load("en")
    whos = [*get_args(mdl.Who), *DERIVED[("LeadRule", "who")][1]]
    keys = [f"who.{w}" for w in whos] + [f"scope.{s}" for s in get_args(mdl.Scope)]
    keys += [f"ties.{x}" for x in get_args(mdl.TieBreak) if x != "chosen"]
    kinds = get_args(get_type_hints(mdl.Fallback)["kind"])
    keys += [f"fallback.{k}" for k in (*kinds, *DERIVED[("Fallback", "kind")][1])]
    keys += [f"payments.to.{x}" for x in get_args(get_type_hints(mdl.GoingOut)["to"])]
    assert "fallback.pass" in keys and "payments.to.kitty" in keys
    missing = [k for k in keys if not t.has(f"page.matrix.{k}")]
    assert not missing
