"""Boodle cards drawn from a second pack for the session (spec §3; 000 "Variantes").

The draw binds for the session: a drawn section is then paid exactly like a
``boodle CARD`` section by its drawn card.  Michigan with 4 players: each
player antes 1 on each of the four drawn sections and 2 on the kitty (each
holds 44), D deals and A leads.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from boodle.engine import apply, start_deal
from boodle.engine.events import BoodlesDrawn, Claim, Cut, Lead, Play
from boodle.engine.state import LeadMove
from boodle.language.errors import BoodleError
from boodle.language.model import AnteLine, Ruleset, Section
from boodle.session.run import play_session
from boodle.session.second_pack import bind_boodles, draw_boodles, unbound_sections
from rules_by_hand import card, cards, fresh_ledger, michigan

A, B, C, D = 0, 1, 2, 3


def drawn_michigan() -> Ruleset:
    """Michigan whose four boodle sections are drawn (michigan-random-boodles.boodle)."""
    rules = michigan()
    names = ("first", "second", "third", "fourth")
    board = tuple(Section(n, n, "boodle", suit_rule="drawn") for n in names)
    antes = (AnteLine("each player", 1, names), AnteLine("each player", 2, ("kitty",)))
    return replace(rules, board=(*board, rules.board[-1]), antes=antes)


def test_a_bound_drawn_card_pays_its_section_when_played() -> None:
    rules = bind_boodles(drawn_michigan(), {"first": card("2♣"), "second": card("7♥"),
                                            "third": card("Q♦"), "fourth": card("J♠")})
    assert unbound_sections(rules) == []
    hands = (cards("2♣ 9♠"), cards("9♦"), cards("9♥"), cards("8♠"))
    state, _ = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=hands)
    state, events = apply(rules, state, LeadMove(A, card("2♣")))
    claims = [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]
    assert claims == [(A, "first", 4)]  # 4 players × 1 chip on the section
    assert state.ledger.seat(A) == 44 + 4


def test_the_draw_is_reproducible_from_the_seed_and_without_replacement() -> None:
    rules = drawn_michigan()
    one, events = draw_boodles(rules, random.Random("7:draw"))
    two, _ = draw_boodles(rules, random.Random("7:draw"))
    assert one == two
    drawn = [s.cards[0] for s in one.board if s.suit_rule == "drawn"]
    assert len(set(drawn)) == 4 and all(c in rules.deck.cards() for c in drawn)
    assert events == [BoodlesDrawn(tuple(zip(("first", "second", "third", "fourth"), drawn,
                                             strict=True)))]
    # nothing to draw: the ruleset is unchanged and no event is recorded
    assert draw_boodles(michigan(), random.Random(1)) == (michigan(), [])


def test_binding_refuses_a_repeated_or_missing_card() -> None:
    rules = drawn_michigan()
    with pytest.raises(BoodleError, match="without replacement"):
        bind_boodles(rules, dict.fromkeys(("first", "second", "third", "fourth"), card("2♣")))
    with pytest.raises(BoodleError, match="drawn sections"):
        bind_boodles(rules, {"first": card("2♣")})


def test_a_session_draws_once_before_the_cut_and_every_deal_pays_the_drawn_cards() -> None:
    result = play_session(drawn_michigan(), 4, seed=5)
    draws = [e for e in result.events if isinstance(e, BoodlesDrawn)]
    assert len(draws) == 1 and isinstance(result.events[0], BoodlesDrawn)
    assert isinstance(result.events[1], Cut)
    paid_by = dict(draws[0].draws)
    # every claim of a drawn section is made by playing its drawn card, in every deal
    claims = 0
    last = None
    for event in result.events:
        if isinstance(event, Lead | Play):
            last = event.card
        if isinstance(event, Claim) and event.section in paid_by:
            assert last == paid_by[event.section]
            claims += 1
    assert claims > 0
    assert play_session(drawn_michigan(), 4, seed=5).events == result.events


def test_a_deal_refuses_drawn_sections_that_were_never_drawn() -> None:
    hands = (cards("2♣ 9♠"), cards("9♦"), cards("9♥"), cards("8♠"))
    with pytest.raises(BoodleError, match="drawn once per session"):
        start_deal(drawn_michigan(), 4, D, fresh_ledger(drawn_michigan(), 4), hands=hands)
