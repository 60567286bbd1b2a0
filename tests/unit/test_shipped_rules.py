"""Each shipped variant's own rules on a constructed deal, with the ledger worked by hand.

Seats A=0, B=1, C=2, D=3; D deals, so A sits on the dealer's left.  Unless
said otherwise players start with 50 chips.  Hands are given; every card not
in a hand is the widow.  The variant files are the ones in spec/variants/.
"""

from __future__ import annotations

import pytest

from boodle.engine import IllegalMove, apply, legal_moves, start_deal, to_move
from boodle.engine import machine as stages
from boodle.engine.events import Claim, DealEnd, FlipColour, Pass, Payment, Penalty, StopPaid
from boodle.engine.stages import stops
from boodle.engine.state import DealState, LeadMove, Move, PassMove, PlayMove
from boodle.language.model import LeadRule, Ruleset, StopsPhase
from boodle.language.variants import load
from rules_by_hand import card, cards, fresh_ledger, michigan, with_phase

A, B, C, D = 0, 1, 2, 3


def deal(rules: Ruleset, hands: tuple, chips: int = 50) -> tuple[DealState, list]:
    return start_deal(rules, len(hands), D, fresh_ledger(rules, len(hands), chips), hands=hands)


def run(rules: Ruleset, state: DealState, *moves: Move) -> tuple[DealState, list]:
    events: list = []
    for move in moves:
        assert move in legal_moves(rules, state), f"{move}: legal {legal_moves(rules, state)}"
        state, more = apply(rules, state, move)
        events.extend(more)
    return state, events


@pytest.fixture()
def stops_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that plays no holding or poker phase: they are skipped (spec §8)."""
    monkeypatch.setattr(stages, "PHASE_STAGES", {StopsPhase: stops.STAGE})


# ---------------------------------------------------------------- antes of each board


@pytest.mark.parametrize(("name", "seats", "sections"), [
    # pagat/Bicycle: the dealer 2 on each of the 4 boodles (8), the others 1 (4); no kitty
    ("michigan-classic", (46, 46, 46, 42), {"A♥": 5, "K♣": 5, "Q♦": 5, "J♠": 5}),
    # 000 step 2: each 1 on each boodle and 2 on the kitty, the dealer 2 more: 6, 6, 6, 8
    ("michigan-dealer-double", (44, 44, 44, 42),
     {"A♥": 4, "K♣": 4, "Q♦": 4, "J♠": 4, "kitty": 10}),
    # the seeds' alternate board (000): the home antes, 1 on each boodle and 2 on the kitty
    ("michigan-alternate-board", (44, 44, 44, 44),
     {"A♥": 4, "K♠": 4, "Q♦": 4, "J♣": 4, "kitty": 8}),
    # pay the widow: the dealer also pays the widow's share, 1 on each boodle and 2: 6 + 6
    ("michigan-pay-the-widow", (44, 44, 44, 38),
     {"A♥": 5, "K♣": 5, "Q♦": 5, "J♠": 5, "kitty": 10}),
    # Tripoley: every player 1 chip on each of the nine sections
    ("tripoley", (41, 41, 41, 41),
     {"A♥": 4, "K♥": 4, "Q♥": 4, "J♥": 4, "10♥": 4, "king-queen": 4, "eight-nine-ten": 4,
      "kitty": 4, "pot": 4}),
])
def test_each_board_is_dressed_as_its_file_says(
    name: str, seats: tuple, sections: dict, stops_only: None
) -> None:
    rules = load(name)
    state, _ = deal(rules, (cards("2♣"), cards("3♣"), cards("4♣"), cards("5♣")))
    assert state.ledger.seats == seats and dict(state.ledger.sections) == sections


def test_cadaco_dealer_dresses_8_2_10_5_10_and_the_kitty_takes_2_each() -> None:
    rules = load("michigan-cadaco")
    state, _ = deal(rules, (cards("10♥ 2♣"), cards("3♣"), cards("4♣"), cards("5♣")), chips=100)
    # the dealer pays 8 + 2 + 10 + 5 + 10 = 35 and 2 on the kitty: 100 - 37 = 63
    assert state.ledger.seats == (98, 98, 98, 63)
    assert dict(state.ledger.sections) == {"10♥": 8, "J♠": 2, "Q♦": 10, "K♣": 5, "A♥": 10,
                                           "kitty": 8}
    state, events = run(rules, state, LeadMove(A, card("10♥")))
    assert [(e.section, e.amount) for e in events if isinstance(e, Claim)] == [("10♥", 8)]


# ---------------------------------------------------------------- michigan-classic


def test_classic_restarter_without_another_suit_passes_left() -> None:
    # A leads 2♣; 3♣ is in the widow: stop.  A holds only clubs: passes.  B leads 5♥.
    rules = load("michigan-classic")
    state, _ = deal(rules, (cards("2♣ 4♣"), cards("5♥ 9♣"), cards("7♣"), cards("J♣")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")), PassMove(A))
    assert legal_moves(rules, state) == (LeadMove(B, card("5♥")),)  # not 9♣: clubs stopped


def test_classic_all_pass_ends_the_deal_without_a_winner_and_everything_carries() -> None:
    rules = load("michigan-classic")
    state, _ = deal(rules, (cards("2♣ 4♣"), cards("5♣ 9♣"), cards("7♣"), cards("J♣")))
    state, events = run(rules, state, LeadMove(A, card("2♣")),
                        PassMove(A), PassMove(B), PassMove(C), PassMove(D))
    assert [type(e) for e in events if isinstance(e, Pass)] == [Pass] * 4
    end = events[-1]
    assert isinstance(end, DealEnd) and end.winner is None and end.reason == "all passed"
    # nobody pays for cards: the antes stay, every boodle carries its 5
    assert state.ledger.seats == (46, 46, 46, 42)
    assert not any(isinstance(e, Payment) for e in events)


def test_classic_going_out_is_paid_1_per_card_by_each_opponent_and_there_is_no_kitty() -> None:
    rules = load("michigan-classic")
    state, _ = deal(rules, (cards("2♣"), cards("5♥ 9♣"), cards("7♣ 8♣ 3♦"), cards("J♣")))
    state, events = run(rules, state, LeadMove(A, card("2♣")))
    # A is out at once: B 2 + C 3 + D 1 = 6 chips; 46 + 6 = 52
    assert [(e.payer, e.amount) for e in events if isinstance(e, Payment)] == [
        (B, 2), (C, 3), (D, 1)]
    assert state.ledger.seats == (52, 44, 43, 41)


# ---------------------------------------------------------------- paid stops


def test_paid_stops_pay_1_from_the_kitty_to_the_player_of_the_stop_card() -> None:
    rules = load("michigan-paid-stops")
    state, _ = deal(rules, (cards("2♣ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    state, events = run(rules, state, LeadMove(A, card("2♣")))  # 3♣ is in the widow
    paid = [e.transfer.amount for e in events if isinstance(e, StopPaid)]
    assert paid == [1] and state.ledger.seat(A) == 45 and state.ledger.section("kitty") == 7


# ---------------------------------------------------------------- tripoley


def test_tripoley_dealer_leads_the_lowest_card_and_chooses_between_equal_ranks(
    stops_only: None,
) -> None:
    rules = load("tripoley")
    state, _ = deal(rules, (cards("9♣"), cards("8♥"), cards("7♠"), cards("2♣ 2♦ 5♠")))
    assert to_move(state) == D  # Cadaco: "the Dealer starts"
    assert legal_moves(rules, state) == (LeadMove(D, card("2♣")), LeadMove(D, card("2♦")))
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, LeadMove(D, card("5♠")))
    assert info.value.rule == "lead.lowest"


# ---------------------------------------------------------------- rummoli


def test_rummoli_fines_a_restarter_without_the_opposite_colour_1_into_the_centre(
    stops_only: None,
) -> None:
    rules = load("rummoli")
    state, events = deal(rules, (cards("2♣ 9♠"), cards("5♥ 9♣"), cards("9♥"), cards("8♦")))
    # the widow first: the dealer declines, then A, B, C pass the auction
    assert legal_moves(rules, state)[0] == PassMove(D)
    state, _ = run(rules, state, PassMove(D), PassMove(A), PassMove(B), PassMove(C))
    # the poker phase is skipped: no winner, so A (the dealer's left) leads the lowest card
    assert to_move(state) == A and legal_moves(rules, state) == (LeadMove(A, card("2♣")),)
    state, _ = run(rules, state, LeadMove(A, card("2♣")))  # 3♣ is in the widow: stop
    # restart by the opposite colour: A holds only black (9♠), pays 1 to the centre, passes
    state, events = run(rules, state, PassMove(A))
    assert [type(e) for e in events] == [Penalty, Pass]
    assert state.ledger.seat(A) == 50 - 9 - 1 and state.ledger.section("rummoli") == 4 + 1
    assert legal_moves(rules, state) == (LeadMove(B, card("5♥")),)


def test_rummoli_going_out_pays_per_card_into_the_centre_which_the_winner_takes(
    stops_only: None,
) -> None:
    rules = load("rummoli")
    state, _ = deal(rules, (cards("2♣"), cards("5♥ 9♣"), cards("9♥ 7♥ 3♦"), cards("8♦")))
    state, _ = run(rules, state, PassMove(D), PassMove(A), PassMove(B), PassMove(C))
    state, events = run(rules, state, LeadMove(A, card("2♣")))
    # B 2, C 3, D 1 chips into the centre (4 + 6 = 10), then A takes it: 41 + 10 = 51
    assert [(e.payer, e.amount) for e in events if isinstance(e, Payment)] == [
        (B, 2), (C, 3), (D, 1)]
    assert [(e.section, e.amount) for e in events if isinstance(e, Claim)] == [("rummoli", 10)]
    assert state.ledger.seats == (51, 39, 38, 40)


def test_rummoli_after_a_full_round_of_passes_the_colour_flips(stops_only: None) -> None:
    rules = load("rummoli")
    state, _ = deal(rules, (cards("2♣ 9♠"), cards("5♠ 9♣"), cards("J♣"), cards("8♠")))
    state, _ = run(rules, state, PassMove(D), PassMove(A), PassMove(B), PassMove(C),
                   LeadMove(A, card("2♣")))
    state, events = run(rules, state, PassMove(A), PassMove(B), PassMove(C), PassMove(D))
    assert events[-1] == FlipColour(True)
    # each passer paid 1: the centre holds 4 + 4; back to A, who may now lead black
    assert state.ledger.section("rummoli") == 8
    assert legal_moves(rules, state) == (LeadMove(A, card("9♠")),)


# ---------------------------------------------------------------- lead and restart rules


def test_lowest_black_card_ties_are_the_leaders_choice() -> None:
    # ehow: the lowest black card leads; 3♣ and 3♠ are equally low: either is a legal move
    rules = with_phase(michigan(), first_lead=LeadRule("left of dealer", "lowest", "black"))
    state, _ = deal(rules, (cards("3♣ 3♠ 2♥ 9♣"), cards("9♦"), cards("9♥"), cards("8♦")))
    assert legal_moves(rules, state) == (LeadMove(A, card("3♣")), LeadMove(A, card("3♠")))
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, LeadMove(A, card("2♥")))
    assert info.value.rule == "lead.suit"


def test_restart_in_any_suit_may_take_up_the_stopped_suit_again() -> None:
    # 004 phase 3 / pagat's Epsom: the last player leads the lowest card of a suit they choose
    rules = with_phase(michigan(), restart=LeadRule("last player", "lowest", "chosen suit"))
    state, _ = deal(rules, (cards("2♣ 4♣ 9♥"), cards("5♣ 9♠"), cards("9♦"), cards("8♦")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")))  # 3♣ in the widow: stop
    assert legal_moves(rules, state) == (LeadMove(A, card("4♣")), LeadMove(A, card("9♥")))
    state, _ = run(rules, state, LeadMove(A, card("4♣")), PlayMove(B, card("5♣")))
    assert to_move(state) == B  # 6♣ is in the widow: B made the stop and restarts
    assert legal_moves(rules, state) == (LeadMove(B, card("9♠")),)


def test_the_dealer_leads_first_under_a_dealer_rule() -> None:
    rules = with_phase(michigan(), first_lead=LeadRule("dealer", "lowest", "chosen suit"))
    state, _ = deal(rules, (cards("9♣"), cards("9♦"), cards("9♥"), cards("8♦ 5♠")))
    assert to_move(state) == D
    assert set(legal_moves(rules, state)) == {LeadMove(D, card("8♦")), LeadMove(D, card("5♠"))}
