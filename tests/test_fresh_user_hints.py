"""Hints a fresh user found pointing the wrong way, and counts printed as '1 problems'.

Each test failed before its fix; the expected words are worked out by hand from the
rules files and the grammar (grammar/boodle.lark), not copied from a run.
"""

from __future__ import annotations

import pytest

from boodle.build import load_text
from boodle.errors import BoodleError

HOUSE = "variant house extends michigan {{\n  {}\n}}\n"


def _error(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, "<test>")
    return info.value


# ---------------------------------------------------------------- a card outside the deck


def test_a_deck_without_the_suit_of_a_board_card_names_the_suit() -> None:
    # michigan's board is A♥ K♣ Q♦ J♠ (spec/variants/michigan.boodle): A♥ comes first, and
    # its rank A is in the deck while its suit ♥ is not
    err = _error(HOUSE.format("deck { suits ♣ ♦  ranks 2 3 4 5 6 7 8 9 10 J Q K A }"))
    assert err.message.startswith("boodle card A♥ is not in the deck")
    assert err.hint == ("the deck has no suit ♥: its suits are ♣ ♦ "
                        "(add ♥ to 'suits', or name a card of those suits)")


def test_a_deck_without_the_rank_of_a_board_card_names_the_rank() -> None:
    # without J, the first board card the deck lacks is J♠ (A♥ K♣ Q♦ are there)
    err = _error(HOUSE.format("deck { ranks 2 3 4 5 6 7 8 9 10 Q K A }"))
    assert err.message.startswith("boodle card J♠ is not in the deck")
    assert err.hint == ("the deck has no rank J: its ranks are 2 3 4 5 6 7 8 9 10 Q K A "
                        "(add J to 'ranks', or name a card of those ranks)")


def test_a_deck_without_either_names_both() -> None:
    # suits ♣ ♦ and ranks 2 to 10: A♥ lacks both its suit and its rank
    err = _error(HOUSE.format("deck { suits ♣ ♦  ranks 2 3 4 5 6 7 8 9 10 }"))
    assert err.message.startswith("boodle card A♥ is not in the deck")
    assert err.hint == ("the deck has neither the suit ♥ nor the rank A: its suits are ♣ ♦ "
                        "and its ranks 2 3 4 5 6 7 8 9 10")


def test_a_removed_board_card_still_says_so() -> None:
    err = _error(HOUSE.format("deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A  remove K♣ }"))
    assert err.message.startswith("boodle card K♣ is not in the deck")
    assert err.hint == "the deck says 'remove K♣'"
