"""``claims: on holding`` (spec §6.6) and holding splits (spec §8.1, §9), worked by hand.

Michigan with 4 players, 50 chips each; each player antes 1 on each boodle
and 2 on the kitty (44 left each; boodles 4, kitty 8).  D (seat 3) deals.
Under ``claims: on holding`` every boodle and set section is paid, in board
order, to its holders before the first lead; playing a card claims nothing.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from boodle.engine import apply, start_deal, to_move
from boodle.engine.claims import pay_holders
from boodle.engine.events import Claim
from boodle.engine.state import LeadMove
from boodle.language.model import AnteLine, Ruleset, Section
from boodle.language.variants import load
from rules_by_hand import card, cards, fresh_ledger, michigan, with_phase

A, B, C, D = 0, 1, 2, 3


def claims(events: list) -> list[tuple[int, str, object]]:  # type: ignore[type-arg]
    return [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]


def test_holders_are_paid_before_the_first_lead_and_playing_claims_nothing() -> None:
    rules = load("michigan-claims-on-holding")
    hands = (cards("A♥ K♣ 2♠"), cards("Q♦ 9♦"), cards("9♥"), cards("8♠"))  # J♠: the widow's
    state, events = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=hands)
    # A holds A♥ and K♣: 4 + 4; B holds Q♦: 4; J♠ is in the widow: its 4 carry over
    assert claims(events) == [(A, "A♥", 4), (A, "K♣", 4), (B, "Q♦", 4)]
    assert state.ledger.seats == (52, 48, 44, 44)
    assert state.ledger.section("J♠") == 4 and to_move(state) == A
    # A leads A♥ later: it is the top rank and stops, but claims nothing
    state, events = apply(rules, state, LeadMove(A, card("A♥")))
    assert claims(events) == [] and state.ledger.seat(A) == 52


def ten_nine_eight(chips: str = "whole") -> Ruleset:
    """Michigan plus an 8-9-10-of-one-suit set dressed as in 004 (dealer 2, others 1: 5 chips)."""
    rules = michigan()
    board = (*rules.board, Section("ent", "8-9-10", "set", (), ("8", "9", "10"), "same suit"))
    antes = (*rules.antes, AnteLine("dealer", 2, ("ent",)),
             AnteLine("each other player", 1, ("ent",)))
    rules = replace(rules, board=board, antes=antes, chips=chips)  # type: ignore[arg-type]
    return with_phase(rules, claims="on holding")


def test_two_8_9_10_holders_split_5_chips_and_1_stays() -> None:
    rules = ten_nine_eight()
    hands = (cards("8♣ 9♣ 10♣ 2♦"), cards("3♦"), cards("8♥ 9♥ 10♥ 4♦"), cards("5♦"))
    state, events = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=hands)
    # 5 chips, 2 holders (A first, clockwise from the dealer's left): 2 each, 1 stays
    assert [c for c in claims(events) if c[1] == "ent"] == [(A, "ent", 2), (C, "ent", 2)]
    assert state.ledger.section("ent") == 1
    # D paid 6 + 2 = 8, the others 6 + 1 = 7: A 43 + 2 = 45, C 43 + 2 = 45
    assert state.ledger.seats == (45, 43, 45, 42)


def test_under_exact_chips_the_two_holders_get_5_halves_each() -> None:
    rules = ten_nine_eight("exact")
    hands = (cards("8♣ 9♣ 10♣ 2♦"), cards("3♦"), cards("8♥ 9♥ 10♥ 4♦"), cards("5♦"))
    state, events = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=hands)
    assert [c for c in claims(events) if c[1] == "ent"] == [
        (A, "ent", Fraction(5, 2)), (C, "ent", Fraction(5, 2))]
    assert state.ledger.section("ent") == 0


def test_first_seat_split_gives_it_all_to_the_first_holder_from_the_dealers_left() -> None:
    rules = with_phase(ten_nine_eight(), claims="on play")  # nothing paid at the phase start
    hands = (cards("2♦"), cards("8♥ 9♥ 10♥ 3♦"), cards("8♣ 9♣ 10♣ 4♦"), cards("5♦"))
    state, _ = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=hands)
    events: list = []
    state = pay_holders(rules, state, ("ent",), "first seat", events)
    # B (seat 1) is the first holder clockwise from the dealer's left (A holds none): all 5
    assert claims(events) == [(B, "ent", 5)]
    assert state.ledger.seat(B) == 43 + 5 and state.ledger.section("ent") == 0


def test_one_card_pays_a_boodle_and_a_set() -> None:
    # Cadaco's Tripoley board: K♥ is a boodle and half of the K-Q♥ set (spec §3)
    rules = michigan()
    board = (Section("K♥", "K♥", "boodle", (card("K♥"),)),
             Section("kq", "K-Q", "set", cards("K♥ Q♥")), rules.board[-1])
    antes = (AnteLine("each player", 1, ("K♥", "kq")), AnteLine("each player", 2, ("kitty",)))
    rules = with_phase(replace(rules, board=board, antes=antes), claims="on holding")
    hands = (cards("K♥ Q♥ 2♣"), cards("3♣"), cards("4♣"), cards("5♣"))
    state, events = start_deal(rules, 4, D, fresh_ledger(rules, 4), hands=hands)
    assert claims(events) == [(A, "K♥", 4), (A, "kq", 4)]
    assert state.ledger.seat(A) == 50 - 4 + 8  # paid 1 + 1 + 2, took 4 + 4
    assert to_move(state) == A
