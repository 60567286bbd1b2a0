"""DealState.evolve: the engine's fast copy-on-write step is exactly ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from boodle.engine.ledger import Ledger
from boodle.engine.state import _DERIVED, WIDOW, DealState, Place, SaleState, in_hand
from boodle.language.cards import parse_card


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
    assert cached == set(_DERIVED) - {"_lead_options"}
    names = {f.name for f in dataclasses.fields(DealState)}
    for sources in _DERIVED.values():
        assert sources <= names


def test_hands_kept_through_moves_equal_hands_computed_afresh() -> None:
    """Random card moves on a state whose hands are cached: the hands derived move by move
    are the hands read off the places (seat by seat, deck order), every time."""
    import random

    from boodle.engine.state import OUT

    rng = random.Random(5)
    state = small_deal()
    fresh = DealState.hands.func  # the computation from places, without the cache
    for step in range(300):
        state.hands  # noqa: B018 - compute, so that move derives the next hands
        card = rng.choice(state.cards)
        place = rng.choice([in_hand(0), in_hand(1), WIDOW, OUT, Place("played", 1, step)])
        state = state.move(card, place)
        assert "hands" in state.__dict__
        assert state.hands == fresh(state)
        assert state.held == tuple(len(h) for h in fresh(state))


def test_lead_options_kept_with_a_state_are_dropped_when_it_changes() -> None:
    from boodle.engine import legal_moves, start_deal
    from boodle.engine.leads import lead_options
    from boodle.engine.stages.stops import phase_of
    from boodle.language.variants import load

    rules = load("michigan")
    cards = {t: parse_card(t) for t in ("2C", "3C", "2D", "3D", "4C", "5C")}
    # first lead: left of dealer, lowest of chosen suit.  Seat 1 (the dealer's left) holds
    # 2♣ 3♣; seat 0 holds 2♦ 3♦ 4♣; seat 2 holds 5♣; the rest of the pack is the widow.
    ledger = Ledger.open(3, tuple(s.name for s in rules.board), 20)
    state, _ = start_deal(rules, 3, 0, ledger,
                          hands=[[cards["2D"], cards["3D"], cards["4C"]],
                                 [cards["2C"], cards["3C"]], [cards["5C"]]])
    phase = phase_of(rules, state)
    first = lead_options(rules, phase, state)
    assert lead_options(rules, phase, state) is first  # kept
    assert state.to_move == 1 and [str(c) for c in first[1]] == ["2♣"]
    other = state.evolve(to_move=0)
    assert "_lead_options" not in other.__dict__
    # seat 0's lowest card of each suit it holds: 4♣, 2♦ (deck order: clubs first)
    assert [str(c) for c in lead_options(rules, phase, other)[1]] == ["4♣", "2♦"]
    assert [str(m) for m in legal_moves(rules, other)] == ["seat 0 leads 4♣", "seat 0 leads 2♦"]


def test_pay_all_is_one_pay_after_another_even_when_capped() -> None:
    from boodle.engine.ledger import seat, section

    # seats start with 5 chips; under 'capped' a seat pays at most its balance (spec §9)
    state = small_deal().evolve(capped=True)
    payments = [(seat(0), section("kitty"), 3, "ante"), (seat(0), seat(1), 4, "going out"),
                (seat(1), section("kitty"), 2, "penalty")]
    one_by_one, expected = state, []
    for src, dst, amount, reason in payments:
        one_by_one, t = one_by_one.pay(src, dst, amount, reason)
        expected.append(t)
    together, done = state.pay_all(payments)  # type: ignore[arg-type]
    assert done == expected
    assert together == one_by_one
    # by hand: seat 0 pays 3, then only the 2 it has left; seat 1 has 5 + 2 and pays 2
    assert [t.amount for t in done] == [3, 2, 2]
    assert together.ledger.seats == (0, 5) and together.ledger.section("kitty") == 5
    assert together.since_ante == tuple(done)


def test_move_all_is_one_move_after_another() -> None:
    import random

    from boodle.engine.state import OUT

    rng = random.Random(11)
    state = small_deal()
    for _ in range(100):
        moves = [(rng.choice(state.cards), rng.choice([in_hand(0), in_hand(1), WIDOW, OUT]))
                 for _ in range(rng.randint(0, 5))]
        one_by_one = state
        for card, place in moves:
            one_by_one = one_by_one.move(card, place)
        together = state.move_all(moves)
        assert together == one_by_one
        assert together.hands == one_by_one.hands == DealState.hands.func(together)
        state = together
    # by hand: seat 0 (2♣ 3♣) swaps its hand for the widow (3♦ 4♦), its cards go out
    two_c, three_c, three_d, four_d = (parse_card(t) for t in ("2C", "3C", "3D", "4D"))
    swapped = small_deal().move_all([(two_c, OUT), (three_c, OUT),
                                     (three_d, in_hand(0)), (four_d, in_hand(0))])
    assert swapped.hands[0] == (three_d, four_d)
    assert swapped.held == (2, 2) and swapped.widow() == ()
    assert swapped.out_of_play() == (two_c, three_c)


def test_places_handed_out_again_equal_new_ones() -> None:
    from boodle.engine.state import played_by

    assert in_hand(2) == Place("hand", 2) and in_hand(2) is in_hand(2)
    assert played_by(1, 4) == Place("played", 1, 4) and played_by(1, 4) is played_by(1, 4)
    state = small_deal().play(0, parse_card("2C"))
    assert state.place(parse_card("2C")) == Place("played", 0, 0)


def test_evolve_without_changes_keeps_what_was_derived() -> None:
    state = small_deal()
    hands = state.hands
    same = state.evolve()
    assert same == state and same.__dict__.get("hands") is hands


def test_a_move_with_other_changes_is_the_move_then_evolve() -> None:
    state = small_deal()
    state.hands  # noqa: B018  (computed, so the move derives the new hands from them)
    two_c = parse_card("2C")
    together = state.play(0, two_c, step="follow", to_move=1, current=two_c)
    apart = state.play(0, two_c).evolve(step="follow", to_move=1, current=two_c)
    assert together == apart and together.hands == apart.hands
    assert (together.step, together.to_move, together.plays) == ("follow", 1, 1)
    assert together.hands[0] == (parse_card("3C"),)  # 2♣ left seat 0's hand


def test_evolved_in_place_is_evolve_on_the_same_object() -> None:
    """The machine counts a move on the state its stage just made: the fields are those
    ``evolve`` gives, derived values are dropped as ``evolve`` drops them, and no copy is
    made (the object is the same)."""
    for changes in ({"moves": 3}, {"to_move": 1, "passes": 1},
                    {"places": small_deal().to_deal}, {}):
        state = small_deal()
        assert state.hands == ((parse_card("2C"), parse_card("3C")),
                               (parse_card("4C"), parse_card("2D")))  # cached now
        state.__dict__["_lead_options"] = ("kept", "for", "one state")
        expected = state.evolve(**changes)
        same = state.evolved_in_place(**changes)
        assert same is state
        assert as_fields(same) == as_fields(expected)
        assert ("_lead_options" in same.__dict__) == ("_lead_options" in expected.__dict__)
        assert ("hands" in same.__dict__) == ("hands" in expected.__dict__)
    with pytest.raises(TypeError, match="no field colour"):
        small_deal().evolved_in_place(colour="red")


def test_a_move_is_counted_without_a_second_copy_and_the_old_state_stands() -> None:
    from boodle.engine import apply, legal_moves, start_deal
    from boodle.language.variants import load

    rules = load("michigan")
    ledger = Ledger.open(3, tuple(s.name for s in rules.board), 20)
    state, _ = start_deal(rules, 3, 0, ledger, deck_order=rules.deck.cards())
    before = as_fields(state)
    move = legal_moves(rules, state)[0]
    after, _ = apply(rules, state, move)
    assert after.moves == state.moves + 1 == 1
    assert as_fields(state) == before  # the state moved from is unchanged
    assert after is not state


def test_a_playable_ruleset_is_checked_once_and_a_refusal_every_time() -> None:
    from boodle.engine.support import check_playable
    from boodle.language.errors import BoodleError
    from boodle.language.variants import load

    rules = load("michigan")
    phase = check_playable(rules)
    assert "_playable" in rules.__dict__ and check_playable(rules) is phase
    taken = set(phase.going_out.takes)  # the sections going out takes (the kitty): gone
    broken = dataclasses.replace(rules, board=tuple(s for s in rules.board
                                                    if s.name not in taken))
    for _ in range(2):
        with pytest.raises(BoodleError):
            check_playable(broken)
    assert "_playable" not in broken.__dict__


def test_a_move_refuses_to_set_what_it_sets_itself() -> None:
    state = small_deal()
    for name in ("places", "held", "colour"):  # ``plays`` is a parameter of its own
        with pytest.raises(TypeError, match=name):
            state.move(parse_card("2C"), WIDOW, **{name: 1})
