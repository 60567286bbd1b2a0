"""DealState.evolve: the engine's fast copy-on-write step is exactly ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from boodle.cards import parse_card
from boodle.ledger import Ledger
from boodle.state import _DERIVED, WIDOW, DealState, Place, SaleState, in_hand


def small_deal() -> DealState:
    """Two seats, a widow, six cards: seat 0 holds 2♣ 3♣, seat 1 holds 4♣ 2♦, widow 3♦ 4♦."""
    cards = tuple(parse_card(t) for t in ("2C", "3C", "4C", "2D", "3D", "4D"))
    c = dict(zip(("2C", "3C", "4C", "2D", "3D", "4D"), cards, strict=True))
    state = DealState.new(2, 0, cards, ((c["2C"], c["3C"]), (c["4C"], c["2D"])),
                          (c["3D"], c["4D"]), Ledger.open(2, ("kitty",), 5))
    return state.deal_out()


def as_fields(state: DealState) -> dict[str, object]:
    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}


def test_evolve_gives_what_dataclasses_replace_gives() -> None:
    state = small_deal()
    for changes in ({"to_move": 1}, {"step": "follow", "current": parse_card("2C")},
                    {"sale": SaleState("offer", asked=1)}, {"passes": 2, "flipped": True},
                    {"out": frozenset({1}), "capped": True}, {}):
        fast = state.evolve(**changes)
        slow = dataclasses.replace(state, **changes)  # type: ignore[arg-type]
        assert type(fast) is DealState
        assert as_fields(fast) == as_fields(slow)
        assert fast == slow
        assert fast is not state


def test_the_old_state_is_unchanged() -> None:
    state = small_deal()
    state.evolve(to_move=1, passes=3)
    assert (state.to_move, state.passes) == (None, 0)


def test_an_unknown_field_is_refused_like_replace_refuses_it() -> None:
    state = small_deal()
    with pytest.raises(TypeError, match="no field hands"):
        state.evolve(hands=())
    with pytest.raises(TypeError, match="no field colour"):
        state.evolve(colour="red")


def test_cached_hands_are_recomputed_after_a_card_moves_and_kept_otherwise() -> None:
    state = small_deal()
    two_c, three_c, four_c, two_d = (parse_card(t) for t in ("2C", "3C", "4C", "2D"))
    assert state.hands == ((two_c, three_c), (four_c, two_d))
    # seat 0 plays 2♣: its hand is 3♣ alone, seat 1's is unchanged
    played = state.play(0, two_c)
    assert played.hands == ((three_c,), (four_c, two_d))
    assert played.held == (1, 2)
    # a change that moves no card keeps the cached value (the same tuple object)
    turned = played.evolve(to_move=1)
    assert turned.__dict__.get("hands") is played.__dict__["hands"]
    # 3♣ goes to the widow by a new places tuple: the cache must not survive
    places = list(played.places)
    places[1] = WIDOW
    moved = played.evolve(places=tuple(places))
    assert "hands" not in moved.__dict__
    assert moved.hands == ((), (four_c, two_d))
    # seat 1 takes 2♣ back into hand from the played pile
    places[0] = in_hand(1)
    back = moved.evolve(places=tuple(places))
    assert back.hands == ((), (two_c, four_c, two_d))
    assert isinstance(back.places[0], Place)


def test_every_cached_property_is_declared_with_its_sources() -> None:
    cached = {name for name, v in vars(DealState).items() if isinstance(v, cached_property)}
    assert cached == set(_DERIVED)
    names = {f.name for f in dataclasses.fields(DealState)}
    for sources in _DERIVED.values():
        assert sources <= names
