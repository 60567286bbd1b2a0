"""Each rule of a variant page links to the spec section that defines it.

The sections are read off spec/rules.md's headings by hand: §1 Players, §2 Deck and cards,
§3 Board sections (carry-over is its last paragraph), §4 Antes, §5 Deal, §5.4 Widow sale or
auction, §9 Chips and exact arithmetic, §10 Session.  A field whose value is a construct of its
own takes that construct's section, never its container's: Ruleset's docstring cites §9 (for
its chips), and "The widow is never sold or exchanged." once linked there.
"""

from __future__ import annotations

import pytest

from boodle.docs.links import RuleRefs
from boodle.docs.specref import spec_section
from boodle.docs.templates import load
from boodle.docs.variant_page import VariantPage
from boodle.language.variants import load as load_variant


@pytest.mark.parametrize(("key", "section"), [
    ("Ruleset.players", "§1"),
    ("Ruleset.deck", "§2"),
    ("Ruleset.board", "§3"),
    ("Ruleset.carry", "§3"),
    ("Ruleset.antes", "§4"),
    ("Ruleset.deal", "§5"),
    ("Ruleset.widow_sale", "§5.4"),
    ("Ruleset.chips", "§9"),
    ("Ruleset.session", "§10"),
    # a phase is §6 (stops) or §8 (holding, poker): the list of phases has no one section
    ("Ruleset.phases", None),
    ("WidowSale.mode", "§5.4"),
    ("StopsPhase.going_out", "§7"),
])
def test_a_rule_s_section(key: str, section: str | None) -> None:
    assert spec_section(key) == section


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_widow_never_sold_links_to_the_widow_sale(lang: str) -> None:
    # michigan has no 'widow sale' block: its page states the default, spec §5.4
    t = load(lang)
    page = VariantPage(load_variant("michigan"), t, RuleRefs(t, "michigan", [])).markdown()
    text = {"en": "The widow is never sold or exchanged.",
            "fr": "La veuve n'est jamais vendue ni échangée."}[lang]
    line = next(ln for ln in page.splitlines() if text in ln)
    # the anchor of '### §5.4 Widow sale or auction' as Python-Markdown's toc slugs it
    assert "[§5.4](../spec/rules.md#54-widow-sale-or-auction)" in line
    assert "§9" not in line
