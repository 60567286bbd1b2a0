"""Card text forms (spec §2.1)."""

from __future__ import annotations

import pytest

from boodle.language.cards import Card, full_pack, parse_card


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("K♣", Card("K", "♣")),
        ("KC", Card("K", "♣")),
        ("10♥", Card("10", "♥")),
        ("TH", Card("10", "♥")),
        ("10H", Card("10", "♥")),
        ("2♦", Card("2", "♦")),
        ("AS", Card("A", "♠")),
    ],
)
def test_every_text_form_names_the_same_card(text: str, card: Card) -> None:
    assert parse_card(text) == card


def test_canonical_form_is_rank_then_symbol_with_ten_as_10() -> None:
    assert str(parse_card("TH")) == "10♥"
    assert str(parse_card("QD")) == "Q♦"


@pytest.mark.parametrize("text", ["1♣", "11H", "KX", "♣K", "", "KCC"])
def test_non_cards_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_full_pack_has_52_distinct_cards() -> None:
    pack = full_pack()
    assert len(pack) == 52
    assert len(set(pack)) == 52


def test_a_card_parsed_again_is_equal_and_errors_are_raised_every_time() -> None:
    assert parse_card("TH") == parse_card("10♥") == Card("10", "♥")
    assert parse_card("TH") is parse_card("TH")
    for _ in range(2):
        with pytest.raises(ValueError, match="not a card"):
            parse_card("1X")


def test_cards_of_a_rank_and_suit_are_one_object_equal_to_a_new_card() -> None:
    from boodle.language.cards import card_of
    from boodle.language.model import Deck

    assert card_of("Q", "♦") == Card("Q", "♦") and card_of("Q", "♦") is card_of("Q", "♦")
    assert parse_card("QD") is card_of("Q", "♦")
    small, large = Deck(("♦",), ("Q", "K")), Deck(("♣", "♦"), ("J", "Q", "K", "A"))
    assert small.cards()[0] is large.cards()[5] is parse_card("Q♦")  # decks share cards


def test_card_equality_is_by_rank_and_suit_whatever_the_object() -> None:
    a, b = Card("10", "♥"), Card("10", "♥")
    assert a is not b and a == b and (a != b) is False and hash(a) == hash(b)
    assert a != Card("10", "♦") and a != Card("J", "♥")
    assert a != "10♥" and a != ("10", "♥")  # not a card: never equal
    assert {a: 1}[b] == 1
