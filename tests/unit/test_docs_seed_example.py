"""The seed's worked example (001 §07) on Michigan's worked-example page, beside the generated
deal (issue 21).

Expected text is 001 §07 itself: "A entame 9♦, C détient et joue 10♦, A détient J♦ et
rejoue, B joue Q♦ et prend case de 4. Personne n'a K♦ : dans veuve, Q♦ stoppe. Seule
restante de B, 3♣ : entame et finit aussitôt. Adversaires ont 2, 3 et 1, Kitty 8. B reçoit
8 + 2 + 3 + 1 = 14 à la fin plus 4 avant = 18 bruts, avant déduction de ses contributions."
With the ante of 001 §02 (6 each from 50), B ends on 50 − 6 + 18 = 62, A on 44 − 2 = 42,
C on 44 − 3 = 41, D on 44 − 1 = 43.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.docs import seed_example
from boodle.docs.seed_example import SEED_EXAMPLES, seed_example_markdown
from boodle.docs.site import pages
from boodle.docs.templates import load
from boodle.language.errors import BoodleError
from boodle.language.variants import load as load_variant

RED = '<span class="card-red" style="color:#c62828">{}</span>'


def test_the_seed_example_plays_as_001_says() -> None:
    text = seed_example_markdown(load_variant("michigan"), load("en"))
    plays = [line for line in text.splitlines() if line.startswith("- ") and " plays " in line
             or " leads " in line or " restarts " in line]
    assert plays == ["- A leads " + RED.format("9♦"), "- C plays " + RED.format("10♦"),
                     "- A plays " + RED.format("J♦"), "- B plays " + RED.format("Q♦"),
                     "- B restarts with 3♣"]
    assert "    - B takes the Q♦: 4 chips<br>" in text
    assert "    - stop: " + RED.format("K♦") + " is in the widow" in text
    assert "Ledger: A 42, B 62, C 41, D 43 · board: A♥ 4, K♣ 4, Q♦ 0, J♠ 4, Kitty 0" in text
    assert ("B took 4 chips during play, then 8 + 2 + 3 + 1 = 14 chips on going out: 18 chips "
            "gross, before deducting their own ante.") in text
    assert "- Widow: the other 41 cards of the pack" in text  # 52 − 11 cards named


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pt"])
def test_the_michigan_example_page_shows_the_seed_then_the_generated_deal(lang: str) -> None:
    t = load(lang)
    page = pages(t, [load_variant("michigan")], [])
    example = page["examples/michigan.md" if lang == "en" else f"examples/michigan.{lang}.md"]
    source = "001\\_a6108fd72e47ea5f.txt §07"  # the file name as Markdown text
    seed = example.index(t.text("page.example_seed_heading", source=source))
    generated = example.index("## " + t.text("page.example_deal_heading"))
    assert seed < generated < example.index(t.text("page.example_intro", players=4, seed=1))
    assert "8 + 2 + 3 + 1 = 14" in example
    # the section with its article, as the seed says it ("prend case de 4")
    claim = {"en": "B takes the Q♦: 4 chips", "fr": "B prend la case D♦\u00a0: 4 jetons",
             "it": "B conquista la casella Q♦: 4 fiches",
             "pt": "B recolhe o compartimento D♦: 4 fichas"}[lang]
    assert f"    - {claim}<br>" in example, lang
    other = pages(t, [load_variant("tripoli")], [])
    assert "## " + t.text("page.example_deal_heading") not in "".join(other.values())


def test_a_seed_example_the_rules_refuse_stops_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = replace(SEED_EXAMPLES["michigan"], played=("9♦", "J♦"))  # skips C's 10♦
    monkeypatch.setitem(seed_example.SEED_EXAMPLES, "michigan", wrong)
    with pytest.raises(BoodleError, match="plays J♦, which is not a legal move"):
        seed_example_markdown(load_variant("michigan"), load("en"))
