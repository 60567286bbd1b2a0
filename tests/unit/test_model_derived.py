"""Values the engine computes once per immutable model object
(``boodle.language.model.derived``)."""

from __future__ import annotations

import dataclasses

import pytest

from boodle.engine.machine import plan
from boodle.language.cards import parse_card
from boodle.language.model import Deck, derived
from boodle.language.variants import load


def test_deck_cards_are_computed_once_and_do_not_change_equality() -> None:
    deck = Deck(("♣", "♦"), ("Q", "K", "A"), frozenset({parse_card("KD")}))
    fresh = Deck(("♣", "♦"), ("Q", "K", "A"), frozenset({parse_card("KD")}))
    first = deck.cards()
    # suit by suit, low to high, K♦ removed: worked out by hand
    assert [str(c) for c in first] == ["Q♣", "K♣", "A♣", "Q♦", "A♦"]
    assert deck.cards() is first  # kept, not rebuilt
    assert deck == fresh and hash(deck) == hash(fresh)  # the memo is no field
    assert "_cards" not in repr(deck)


def test_a_changed_deck_is_a_new_object_with_its_own_cards() -> None:
    deck = Deck(("♣",), ("K", "A"))
    assert [str(c) for c in deck.cards()] == ["K♣", "A♣"]
    smaller = dataclasses.replace(deck, removed=frozenset({parse_card("AC")}))
    assert [str(c) for c in smaller.cards()] == ["K♣"]
    assert [str(c) for c in deck.cards()] == ["K♣", "A♣"]


def test_rank_positions_and_next_cards_follow_the_rank_order() -> None:
    # ace low, K♦ removed: worked out by hand from the order A 2 3 … Q K
    deck = Deck(("♣", "♦"), ("A", "2", "3", "Q", "K"), frozenset({parse_card("KD")}))
    assert [deck.rank_index(parse_card(t)) for t in ("AC", "2D", "QC", "KD")] == [0, 1, 3, 4]
    assert str(deck.next_card(parse_card("AC"))) == "2♣"
    assert str(deck.next_card(parse_card("QD"))) == "K♦"  # removed, still the next card
    assert deck.next_card(parse_card("KC")) is None  # the top rank
    assert str(deck.next_card(parse_card("2H"))) == "3♥"  # a suit outside the deck
    assert deck.next_card(parse_card("KH")) is None
    with pytest.raises(ValueError):
        deck.rank_index(parse_card("5C"))  # a rank outside the order has no position
    assert deck == Deck(("♣", "♦"), ("A", "2", "3", "Q", "K"), frozenset({parse_card("KD")}))


def test_derived_computes_once_per_key() -> None:
    deck = Deck(("♣",), ("A",))
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return 7

    assert derived(deck, "_x", compute) == 7
    assert derived(deck, "_x", compute) == 7
    assert len(calls) == 1


def test_the_stage_plan_is_the_same_object_each_time_and_per_ruleset() -> None:
    tripoli = load("tripoli")
    # spec §5.2 / §5.4: antes, deal, then each phase in order (tripoli: no trumps, no sale)
    keys = plan(tripoli)
    assert keys[:2] == ("antes", "deal")
    assert keys[2:] == tuple(f"phase:{p.name}" for p in tripoli.phases)
    assert plan(tripoli) is keys
    sale = load("michigan-widow-sale")
    assert plan(sale)[:3] == ("antes", "deal", "widow")


def test_next_cards_are_the_decks_own_card_objects() -> None:
    deck = Deck(("♣", "♦"), ("Q", "K", "A"))
    cards = deck.cards()  # Q♣ K♣ A♣ Q♦ K♦ A♦
    assert deck.next_card(cards[0]) is cards[1] and deck.next_card(cards[4]) is cards[5]
    assert deck.next_card(parse_card("QD")) is cards[4]  # an equal card finds the same
