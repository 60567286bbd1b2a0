"""``penalty: lead not lowest`` (spec §6.8; pocketrummy.com via PUBLIC-RULES.md: "pay 1 to
each opponent and lose further boodles that hand"), worked by hand.

Michigan, 4 players, 50 chips; after the ante (1 on each boodle, 2 on the
kitty) each holds 44, each boodle 4, the kitty 8.  D deals; A leads first.
A holds 3♣ 6♣ Q♦ 9♠; 7♣ and K♦ are in the widow.
"""

from __future__ import annotations

import pytest

from boodle.engine import IllegalMove, apply, legal_moves, start_deal
from boodle.engine.events import Claim, GoOut, Lead, Penalty, Stop
from boodle.engine.state import DealState, LeadMove, Move
from boodle.language.model import LeadRule, Ruleset
from boodle.language.model import Penalty as PenaltyRule
from rules_by_hand import card, cards, fresh_ledger, michigan, with_phase

A, B, C, D = 0, 1, 2, 3
HANDS = (cards("3♣ 6♣ Q♦ 9♠"), cards("9♦ 10♦ J♦ 4♣ 5♣"), cards("9♥"), cards("8♠"))


def rules(to: str = "each opponent", forfeit: bool = True) -> Ruleset:
    return with_phase(michigan(), penalties=(PenaltyRule("lead not lowest", 1, to, forfeit),))


def start(r: Ruleset) -> DealState:
    return start_deal(r, 4, D, fresh_ledger(r, 4), hands=HANDS)[0]


def run(r: Ruleset, state: DealState, *moves: Move) -> tuple[DealState, list]:
    events: list = []
    for move in moves:
        assert move in legal_moves(r, state), f"{move}: legal {legal_moves(r, state)}"
        state, more = apply(r, state, move)
        events.extend(more)
    return state, events


def test_without_the_penalty_a_higher_lead_is_refused() -> None:
    r = michigan()
    with pytest.raises(IllegalMove) as info:
        apply(r, start(r), LeadMove(A, card("6♣")))
    assert info.value.rule == "lead.lowest"


def test_a_higher_lead_is_a_legal_move_after_the_lowest_ones() -> None:
    r = rules()
    assert legal_moves(r, start(r)) == (
        LeadMove(A, card("3♣")), LeadMove(A, card("Q♦")), LeadMove(A, card("9♠")),
        LeadMove(A, card("6♣")),
    )


def test_the_faulty_leader_pays_each_opponent_and_forfeits_every_later_boodle() -> None:
    r = rules()
    state, events = run(r, start(r), LeadMove(A, card("6♣")))
    # the card is played, then A pays 1 to each of B, C, D: 44 - 3 = 41, the others 45
    assert [type(e) for e in events[:4]] == [Lead, Penalty, Penalty, Penalty]
    assert events[-1] == Stop(A, card("6♣"), "widow", card("7♣"))
    assert state.ledger.seats == (41, 45, 45, 45)
    # A restarts with Q♦, which pays the Q♦ section, but A has forfeited: the 4 chips stay
    state, events = run(r, state, LeadMove(A, card("Q♦")))
    assert not any(isinstance(e, Claim) for e in events)
    assert state.ledger.section("Q♦") == 4 and state.ledger.seat(A) == 41


def test_without_forfeit_the_faulty_leader_still_claims_and_a_section_can_be_the_payee() -> None:
    r = rules(to="kitty", forfeit=False)
    state, _ = run(r, start(r), LeadMove(A, card("6♣")))
    assert state.ledger.seat(A) == 43 and state.ledger.section("kitty") == 9
    state, events = run(r, state, LeadMove(A, card("Q♦")))
    assert [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)] == [
        (A, "Q♦", 4)]


def test_going_out_still_takes_its_sections_after_a_forfeit() -> None:
    r = rules()
    hands = (cards("3♣ 6♣"), cards("9♦ 4♣ 5♣"), cards("9♥"), cards("8♠"))
    state, _ = start_deal(r, 4, D, fresh_ledger(r, 4), hands=hands)
    # A leads 6♣ (a fault: pays 1 to each opponent, 44 - 3 = 41); 7♣ is in the widow: stop.
    # A holds only 3♣, the stopped suit: the 'if none' rule leads it, and A is out.
    state, _ = run(r, state, LeadMove(A, card("6♣")))
    state, events = run(r, state, LeadMove(A, card("3♣")))
    # 3♣ was A's last card: A goes out and takes the kitty (8) and 1 per card left: 3 + 1 + 1
    assert any(isinstance(e, GoOut) for e in events)
    assert [(e.section, e.amount) for e in events if isinstance(e, Claim)] == [("kitty", 8)]
    assert state.ledger.seat(A) == 41 + 8 + 5


def test_the_longest_suit_rule_accepts_a_higher_card_only_in_a_longest_suit() -> None:
    lead = LeadRule("left of dealer", "lowest", "longest suit")
    r = with_phase(rules(), first_lead=lead)
    state = start_deal(r, 4, D, fresh_ledger(r, 4),
                       hands=(cards("3♣ 6♣ Q♦ K♦ 9♠"), *HANDS[1:]))[0]
    # clubs and diamonds are longest (2 each): 3♣, Q♦ lowest; 6♣, K♦ accepted with the penalty
    assert set(legal_moves(r, state)) == {LeadMove(A, c) for c in cards("3♣ Q♦ 6♣ K♦")}
    with pytest.raises(IllegalMove) as info:
        apply(r, state, LeadMove(A, card("9♠")))
    assert info.value.rule == "lead.suit"
