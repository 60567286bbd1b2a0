"""Who cuts the pack (spec §5.1, ``cut: player right of dealer``): stated for the rules text.

000 "Mise en place" step 3: "On bat le jeu ; le joueur à la droite du donneur coupe le jeu"
(shuffle; the player on the dealer's right cuts); 001 §03: "Mélangez, droite coupe". A cut of
a shuffled pack changes no probability, so the engine plays the same with or without it.
"""

from __future__ import annotations

import pytest

from boodle.docs.links import RuleRefs
from boodle.docs.templates import load as templates
from boodle.docs.variant_page import VariantPage
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.language.variants import load


def page(ruleset: Ruleset, lang: str = "en") -> str:
    """The rules page of ``ruleset`` in language ``lang``, as ``boodle docs page`` writes it."""
    t = templates(lang)
    return VariantPage(ruleset, t, RuleRefs(t, ruleset.name, [])).markdown()


HOUSE = """variant my-cut extends michigan {
  deal {
    first dealer: high cut
    rotation: left
    cut: player %s of dealer
    widow: last in each round, hidden
  }
}
"""


def test_michigan_states_the_right_hand_cut_as_its_sources_do() -> None:
    assert load("michigan").deal.cut == "player right of dealer"
    assert load("michigan-until-broke").deal.cut == "player right of dealer"


def test_a_variant_that_says_nothing_states_no_cut() -> None:
    assert load("tripoli").deal.cut == "not stated"  # 004 says nothing of a cut
    assert "cuts" not in page(load("tripoli"))


@pytest.mark.parametrize("side", ["left", "right"])
def test_the_cut_line_reads_either_side(side: str) -> None:
    assert load_text(HOUSE % side, "my-cut.boodle").deal.cut == f"player {side} of dealer"


def test_the_rules_page_says_who_cuts_in_each_language() -> None:
    rules = load("michigan")
    assert "the player on the dealer's right cuts it before each deal" in page(rules)
    assert "le joueur à la droite du donneur le coupe" in page(rules, lang="fr")
    assert "il giocatore alla destra del mazziere taglia" in page(rules, lang="it")
    assert "o jogador à direita do distribuidor corta" in page(rules, lang="pt")


def test_a_cut_by_the_dealer_is_refused_where_it_is_written() -> None:
    with pytest.raises(BoodleError) as err:
        load_text(HOUSE.replace("player %s of dealer", "dealer"), "my-cut.boodle")
    assert err.value.span is not None
    assert (err.value.span.line, err.value.span.column) == (5, 10)  # at 'dealer'
