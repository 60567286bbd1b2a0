"""Newmarket's stakes on a boodle of the player's choice (spec §4 ``chosen boodle``), by hand.

Newmarket (games-of-playing-cards.pokerwiner.com "New Market"): each player
stakes on the centre and on a boodle card of their choice.  The draft's ante:
``each player 1 on kitty`` then ``each player 1 on chosen boodle``.  Three
players, the dealer in seat 2: payers go clockwise from the dealer's left,
seats 0, 1, then 2.
"""

from __future__ import annotations

import pytest

from boodle.engine import IllegalMove, apply, legal_moves, start_deal, to_move
from boodle.engine.events import Ante
from boodle.engine.state import LeadMove, StakeMove
from boodle.language.variants import load
from rules_by_hand import card, cards, fresh_ledger

RULES = load("newmarket")
HANDS = (cards("2♣ 3♣"), cards("4♣ 5♣"), cards("6♣ 7♣"))


def test_each_payer_chooses_a_boodle_in_payment_order() -> None:
    state, events = start_deal(RULES, 3, 2, fresh_ledger(RULES, 3), hands=HANDS)
    # the kitty line is paid at once: 1 from each seat; then seat 0 must choose
    assert dict(state.ledger.sections)["kitty"] == 3
    assert to_move(state) == 0
    assert legal_moves(RULES, state) == tuple(
        StakeMove(0, name) for name in ("A♥", "K♣", "Q♦", "J♠"))
    state, _ = apply(RULES, state, StakeMove(0, "Q♦"))
    assert to_move(state) == 1
    state, _ = apply(RULES, state, StakeMove(1, "Q♦"))
    state, more = apply(RULES, state, StakeMove(2, "J♠"))
    # seat 2 staked last; the stops phase begins: seat 0 (left of the dealer) leads
    assert [(e.transfer.src.seat, e.transfer.dst.name) for e in more if isinstance(e, Ante)] \
        == [(2, "J♠")]  # type: ignore[union-attr]
    assert dict(state.ledger.sections) == {"A♥": 0, "K♣": 0, "Q♦": 2, "J♠": 1, "kitty": 3}
    assert state.ledger.seats == (48, 48, 48)
    assert to_move(state) == 0
    assert LeadMove(0, card("2♣")) in legal_moves(RULES, state)


def test_stakes_are_checked() -> None:
    state, _ = start_deal(RULES, 3, 2, fresh_ledger(RULES, 3), hands=HANDS)
    for move, rule in ((StakeMove(0, "kitty"), "ante.stake"), (StakeMove(1, "Q♦"), "turn"),
                       (LeadMove(0, card("2♣")), "move.kind")):
        with pytest.raises(IllegalMove) as info:
            apply(RULES, state, move)
        assert info.value.rule == rule
