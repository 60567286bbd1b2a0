"""The Michigan home profile (001) played move by move from constructed deals.

Every expected number is worked out by hand in the comments from 001 §02-§07:
4 players start with 50 chips; the ante is 1 on each of A♥ K♣ Q♦ J♠ and 2 on
the kitty per player, so each player pays 6 (50 → 44) and each boodle section
holds 4, the kitty 8.  Seats: A=0, B=1, C=2, D=3, clockwise; D deals, so A
(left of the dealer) leads first.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.engine import IllegalMove, apply, is_terminal, legal_moves, start_deal, to_move
from boodle.engine.events import Ante, CarryOver, Claim, DealEnd, GoOut, Lead, Payment, Play, Stop
from boodle.engine.state import DealState, LeadMove, PassMove, PlayMove
from boodle.language.model import Ruleset
from rules_by_hand import card, cards, fresh_ledger, michigan

A, B, C, D = 0, 1, 2, 3
RULES = michigan()

# 001 §07: A leads 9♦ (A holds 9♦ and J♦, no lower diamond), C holds 10♦, B holds Q♦
# and 3♣, K♦ is in the widow; at the end A, C, D hold 2, 3 and 1 cards.
EXAMPLE_HANDS = (
    cards("9♦ J♦ 5♠ 6♥"),  # A: plays 9♦ and J♦, keeps 2
    cards("Q♦ 3♣"),  # B: plays both
    cards("10♦ 2♥ 7♠ 4♣"),  # C: plays 10♦, keeps 3
    cards("8♣"),  # D: plays nothing, keeps 1
)


def example_start(rules: Ruleset = RULES) -> DealState:
    state, _ = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=EXAMPLE_HANDS)
    return state


def play(state: DealState, *moves: LeadMove | PlayMove | PassMove) -> tuple[DealState, list]:
    events: list = []
    for move in moves:
        assert move in legal_moves(RULES, state), f"{move} not legal: {legal_moves(RULES, state)}"
        state, more = apply(RULES, state, move)
        events.extend(more)
    return state, events


def rule_of(state: DealState, move: LeadMove | PlayMove | PassMove) -> str | None:
    with pytest.raises(IllegalMove) as info:
        apply(RULES, state, move)
    return info.value.rule


def test_antes_before_the_deal() -> None:
    state, events = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=EXAMPLE_HANDS)
    antes = [e for e in events if isinstance(e, Ante)]
    assert len(antes) == 4 * 5  # 4 payers × 5 sections
    assert state.ledger.seats == (44, 44, 44, 44)
    assert dict(state.ledger.sections) == {"A♥": 4, "K♣": 4, "Q♦": 4, "J♠": 4, "kitty": 8}
    assert to_move(state) == A
    # undealt cards form the widow: 52 - 11 dealt = 41, K♦ among them
    assert len(state.widow()) == 41 and card("K♦") in state.widow()


def test_worked_example_001_move_by_move() -> None:
    state = example_start()
    # A may lead the lowest card of any suit they hold: 9♦, 6♥ or 5♠
    assert set(legal_moves(RULES, state)) == {
        LeadMove(A, card("9♦")), LeadMove(A, card("6♥")), LeadMove(A, card("5♠"))
    }
    state, events = play(state, LeadMove(A, card("9♦")))
    assert events == [Lead(A, card("9♦"), restart=False)]
    # the owner of 10♦ (C) must play it: the only legal move, not B though B sits next
    assert legal_moves(RULES, state) == (PlayMove(C, card("10♦")),)
    state, events = play(state, PlayMove(C, card("10♦")))
    assert legal_moves(RULES, state) == (PlayMove(A, card("J♦")),)
    state, events = play(state, PlayMove(A, card("J♦")))
    assert legal_moves(RULES, state) == (PlayMove(B, card("Q♦")),)
    state, events = play(state, PlayMove(B, card("Q♦")))
    # B takes the Q♦ section at once (4 = 4 players × 1); K♦ is in the widow: stop
    assert [type(e) for e in events] == [Play, Claim, Stop]
    claim, stop = events[1], events[2]
    assert (claim.seat, claim.section, claim.amount) == (B, "Q♦", 4)
    assert (stop.seat, stop.card, stop.reason, stop.next_card) == (B, card("Q♦"), "widow",
                                                                   card("K♦"))
    assert state.ledger.seat(B) == 48 and state.ledger.section("Q♦") == 0
    # B restarts with the lowest card of another suit: 3♣, B's only card
    assert legal_moves(RULES, state) == (LeadMove(B, card("3♣")),)
    state, events = play(state, LeadMove(B, card("3♣")))
    assert is_terminal(state) and state.winner == B and to_move(state) is None
    kinds = [type(e) for e in events]
    assert kinds == [Lead, GoOut, Claim, Payment, Payment, Payment,
                     CarryOver, CarryOver, CarryOver, DealEnd]
    assert events[0] == Lead(B, card("3♣"), restart=True)
    assert (events[2].section, events[2].amount) == ("kitty", 8)
    # payments from B's left: C 3 cards, D 1 card, A 2 cards; 1 chip per card
    paid = {(e.payer, e.cards_left, e.amount) for e in events if isinstance(e, Payment)}
    assert paid == {(C, 3, 3), (D, 1, 1), (A, 2, 2)}
    # B: 4 (Q♦) + 8 (kitty) + 2 + 3 + 1 = 18 gross over the 44 left after the ante
    assert state.ledger.seat(B) - 44 == 18
    assert state.ledger.seats == (42, 62, 41, 43)
    assert dict(state.ledger.sections) == {"A♥": 4, "K♣": 4, "Q♦": 0, "J♠": 4, "kitty": 0}
    carried = {(e.section, e.amount) for e in events if isinstance(e, CarryOver)}
    assert carried == {("A♥", 4), ("K♣", 4), ("J♠", 4)}
    assert state.ledger.total() == 200


def test_higher_lead_while_holding_a_lower_card_of_that_suit_is_lead_lowest() -> None:
    assert rule_of(example_start(), LeadMove(A, card("J♦"))) == "lead.lowest"


def test_other_move_faults_carry_their_rule_ids() -> None:
    state = example_start()
    assert rule_of(state, LeadMove(B, card("3♣"))) == "turn"
    assert rule_of(state, LeadMove(A, card("K♦"))) == "lead.not-held"
    assert rule_of(state, PlayMove(A, card("9♦"))) == "move.kind"
    assert rule_of(state, PassMove(A)) == "pass.not-allowed"
    state, _ = play(state, LeadMove(A, card("9♦")))
    assert rule_of(state, PlayMove(C, card("2♥"))) == "follow.next-card"
    assert rule_of(state, LeadMove(C, card("2♥"))) == "follow.next-card"
    assert rule_of(state, PassMove(C)) == "pass.not-allowed"
    assert rule_of(state, PlayMove(B, card("Q♦"))) == "turn"
    state, _ = play(state, PlayMove(C, card("10♦")), PlayMove(A, card("J♦")),
                    PlayMove(B, card("Q♦")), LeadMove(B, card("3♣")))
    assert rule_of(state, LeadMove(A, card("5♠"))) == "deal.over"


def test_an_illegal_move_leaves_the_state_unchanged() -> None:
    state = example_start()
    with pytest.raises(IllegalMove) as info:
        apply(RULES, state, LeadMove(A, card("J♦")))
    assert "9♦" in info.value.message  # names the lower card held
    assert legal_moves(RULES, state)[0] == LeadMove(A, card("9♦"))


def test_restart_in_the_stopped_suit_while_holding_another_is_lead_suit() -> None:
    # A leads 2♣; 3♣ is in the widow: stop. A holds 4♣ and 5♥: must restart with 5♥.
    hands = (cards("2♣ 4♣ 5♥"), cards("9♠"), cards("9♥"), cards("9♦"))
    state, _ = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    state, events = play(state, LeadMove(A, card("2♣")))
    assert events[-1] == Stop(A, card("2♣"), "widow", card("3♣"))
    assert legal_moves(RULES, state) == (LeadMove(A, card("5♥")),)
    assert rule_of(state, LeadMove(A, card("4♣"))) == "lead.suit"


def test_fallback_restarts_the_stopped_suit_at_its_lowest_remaining_card() -> None:
    # 001 §05: holding only the stopped suit, restart it at its lowest card.
    hands = (cards("2♣ 4♣ 6♣"), cards("9♠"), cards("9♥"), cards("9♦"))
    state, _ = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    state, _ = play(state, LeadMove(A, card("2♣")))  # 3♣ in the widow: stop
    assert legal_moves(RULES, state) == (LeadMove(A, card("4♣")),)
    assert rule_of(state, LeadMove(A, card("6♣"))) == "lead.lowest"
    state, events = play(state, LeadMove(A, card("4♣")))  # 5♣ in the widow: stop again
    assert events == [Lead(A, card("4♣"), True), Stop(A, card("4♣"), "widow", card("5♣"))]
    state, events = play(state, LeadMove(A, card("6♣")))
    assert state.winner == A
    # A takes the kitty (8) and 1 per card from B, C, D (1 each): 44 + 8 + 3 = 55
    assert state.ledger.seats == (55, 43, 43, 43)


def test_run_stops_when_the_next_card_was_already_played() -> None:
    # A: 5♣ (6♣ widow: stop), then 2♥; B follows 3♥ (4♥ widow: stop), then B leads
    # 4♣ whose next card 5♣ was played in the first run: stop "played".
    hands = (cards("5♣ 2♥ 10♠"), cards("3♥ 4♣ J♠"), cards("8♦"), cards("8♥"))
    state, _ = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    state, events = play(state, LeadMove(A, card("5♣")))
    assert events[-1] == Stop(A, card("5♣"), "widow", card("6♣"))
    state, events = play(state, LeadMove(A, card("2♥")), PlayMove(B, card("3♥")))
    assert events[-1] == Stop(B, card("3♥"), "widow", card("4♥"))
    assert set(legal_moves(RULES, state)) == {LeadMove(B, card("4♣")), LeadMove(B, card("J♠"))}
    state, events = play(state, LeadMove(B, card("4♣")))
    assert events == [Lead(B, card("4♣"), True), Stop(B, card("4♣"), "played", card("5♣"))]
    assert to_move(state) == B


def test_an_ace_stops_the_run_and_its_player_restarts() -> None:
    # A leads K♥ (A's only heart), B plays A♥: takes the A♥ section (4), stop at the top rank.
    hands = (cards("K♥ 2♣"), cards("A♥ 3♦ 4♦"), cards("8♠"), cards("8♥"))
    state, _ = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    state, events = play(state, LeadMove(A, card("K♥")), PlayMove(B, card("A♥")))
    assert events[1:] == [
        Play(B, card("A♥")),
        Claim(B, "A♥", events[2].transfer),
        Stop(B, card("A♥"), "top rank", None),
    ]
    assert events[2].amount == 4
    assert to_move(state) == B
    assert legal_moves(RULES, state) == (LeadMove(B, card("3♦")),)


def test_claimed_section_refills_only_at_the_next_ante_and_unclaimed_ones_carry_over() -> None:
    # Deal 1 is the 001 example: A 42, B 62, C 41, D 43; A♥ 4, K♣ 4, Q♦ 0, J♠ 4, kitty 0.
    state = example_start()
    state, _ = play(state, LeadMove(A, card("9♦")), PlayMove(C, card("10♦")),
                    PlayMove(A, card("J♦")), PlayMove(B, card("Q♦")), LeadMove(B, card("3♣")))
    assert state.ledger.section("Q♦") == 0
    # Deal 2: the deal passes left to A; each pays 6 again: A 36, B 56, C 35, D 37;
    # A♥ 4+4=8, K♣ 8, Q♦ 0+4=4, J♠ 8, kitty 0+8=8.
    hands = (cards("5♥ 6♥"), cards("J♠"), cards("2♣"), cards("3♣ 4♣ 5♣"))
    state, _ = start_deal(RULES, 4, A, state.ledger, hands=hands)
    assert state.ledger.seats == (36, 56, 35, 37)
    assert dict(state.ledger.sections) == {"A♥": 8, "K♣": 8, "Q♦": 4, "J♠": 8, "kitty": 8}
    assert to_move(state) == B  # left of dealer A
    # B leads J♠, its only card: takes J♠ (8), goes out, takes the kitty (8);
    # C pays 1, D 3, A 2: B 56 + 8 + 8 + 6 = 78
    state, events = play(state, LeadMove(B, card("J♠")))
    assert state.ledger.seats == (34, 78, 34, 34)
    assert dict(state.ledger.sections) == {"A♥": 8, "K♣": 8, "Q♦": 4, "J♠": 0, "kitty": 0}
    carried = [(e.section, e.amount) for e in events if isinstance(e, CarryOver)]
    assert carried == [("A♥", 8), ("K♣", 8), ("Q♦", 4)]
    assert state.ledger.total() == 200


def test_follow_next_in_turn_gives_the_same_plays_and_events() -> None:
    # spec §6.2: with one holder per card, "next in turn" plays exactly as "owner of next card"
    phase = RULES.phases[0]
    turn_rules = replace(RULES, phases=(replace(phase, follow="turn"),))
    moves = (LeadMove(A, card("9♦")), PlayMove(C, card("10♦")), PlayMove(A, card("J♦")),
             PlayMove(B, card("Q♦")), LeadMove(B, card("3♣")))
    logs = []
    for rules in (RULES, turn_rules):
        state, events = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=EXAMPLE_HANDS)
        for move in moves:
            assert legal_moves(rules, state) == legal_moves(RULES, state)
            state, more = apply(rules, state, move)
            events.extend(more)
        logs.append(events)
    assert logs[0] == logs[1]
