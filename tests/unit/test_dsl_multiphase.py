"""The DSL lines added for multi-phase and ancestral games (spec §5.1, §5.2, §5.4, §7).

Each case writes a small variant and checks the model it builds, or where the
error points (line and column counted by hand) and what it says.
"""

from __future__ import annotations

import pytest

from boodle.language.build import load_text
from boodle.language.errors import BoodleError

BASE = """\
variant mini {
  players 3 to 6
  deck { ranks A 2 3 4 5 6 7 8 9 10 J Q K
         remove 8♦ }
  board {
    boodle pope "Pope" 9♦
    boodle knave "Knave" J of trumps
    set chien "Chien" 8 9 10 same suit
    pot
    kitty game "Game"
  }
  ante { dealer 1 on every section }
  deal {
    widow: last in each round
    trumps: last card of widow
  }
  phase hearts is holding { pays: chien }
  phase poker is poker { pot: pot }
  phase play is stops {
    first lead: left of dealer, any card
    stop: top rank, next card held by nobody
    restart: last player, any card
    going out: ends deal, takes game, 1 per card to winner
  }
  session { start: 20 chips }
}
"""


def error_of(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, "t.boodle")
    return info.value


def with_deal(extra: str) -> str:
    return BASE.replace("    trumps: last card of widow\n",
                        "    trumps: last card of widow\n" + extra)


def test_first_dealer_by_the_first_rank_dealt() -> None:
    deal = load_text(with_deal("    first dealer: first J dealt\n"), "t.boodle").deal
    assert (deal.first_dealer, deal.first_dealer_rank) == ("first dealt", "J")
    assert load_text(with_deal("    first dealer: first T dealt\n"), "t").deal.first_dealer_rank \
        == "10"
    default = load_text(BASE, "t.boodle").deal
    assert default.first_dealer == "high cut"


def test_first_dealer_rank_must_have_a_card_in_the_deck() -> None:
    text = with_deal("    first dealer: first J dealt\n").replace(
        "remove 8♦", "remove 8♦, J♣, J♦, J♥, J♠")
    err = error_of(text)
    assert "the deck has no J" in str(err)
    assert err.span is not None and (err.span.line, err.span.column) == (16, 5)


def test_turn_up_pays_the_dealer_only_with_a_turned_card() -> None:
    deal = load_text(with_deal("    turn up: dealer takes its boodle\n"), "t.boodle").deal
    assert deal.turn_up == "dealer takes boodle"
    assert load_text(BASE, "t.boodle").deal.turn_up == "nothing"
    text = BASE.replace("    trumps: last card of widow\n",
                        "    turn up: dealer takes its boodle\n")
    text = text.replace("    boodle knave \"Knave\" J of trumps\n", "")
    err = error_of(text)
    assert "no card is turned up" in str(err)
    assert err.hint is not None and "trumps: last card of widow" in err.hint


def test_widow_sale_before_a_named_phase() -> None:
    sale = "  widow sale {\n    offer: auction unseen\n    price to: chien\n" \
           "    when: before phase play\n  }\n"
    ruleset = load_text(BASE.replace("  phase hearts", sale + "  phase hearts"), "t.boodle")
    assert ruleset.widow_sale is not None and ruleset.widow_sale.before == "play"
    no_when = sale.replace("    when: before phase play\n", "")
    ruleset = load_text(BASE.replace("  phase hearts", no_when + "  phase hearts"), "t.boodle")
    assert ruleset.widow_sale is not None and ruleset.widow_sale.before is None
    err = error_of(BASE.replace("  phase hearts", sale.replace("phase play", "phase plya")
                                + "  phase hearts"))
    assert "no phase of that name" in str(err)
    assert err.hint == "did you mean play?"
    assert err.span is not None and (err.span.line, err.span.column) == (20, 24)


def test_going_out_takes_a_section_unless_an_earlier_phase_took_it() -> None:
    text = BASE.replace("takes game,", "takes game, takes chien unless taken in hearts,")
    out = load_text(text, "t.boodle").phases[-1].going_out  # type: ignore[union-attr]
    assert out.takes == ("game", "chien")
    assert out.unless_taken == (("chien", "hearts"),)
    (unless,) = out.unless_taken  # a named pair: the section, then the phase
    assert (unless.section, unless.phase) == ("chien", "hearts")
    err = error_of(BASE.replace("takes game,", "takes game, takes chien unless taken in play,"))
    assert "no earlier phase of that name" in str(err)
    err = error_of(BASE.replace("takes game,", "takes game, takes chein unless taken in hearts,"))
    assert "no section 'chein'" in str(err)
