"""Engine rules beyond the home profile, each from a constructed deal with numbers by hand.

Rulesets are Michigan (tests/helpers/rules_by_hand.py) with one phase or deal rule
changed.  Seats: A=0, B=1, C=2, D=3; D deals, so A leads first.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.engine import (
    IllegalMove,
    NotSupported,
    apply,
    claims_of,
    deal_hands,
    legal_moves,
    misdeal,
    pending_features,
    skipped_phases,
    start_deal,
    to_move,
)
from boodle.engine.events import (
    Claim,
    DealEnd,
    FlipColour,
    Misdeal,
    Pass,
    Payment,
    Penalty,
    Stop,
    StopPaid,
)
from boodle.engine.state import DealState, LeadMove, PassMove, PlayMove
from boodle.language.errors import BoodleError
from boodle.language.model import (
    AnteLine,
    Deck,
    Fallback,
    GoingOut,
    HoldingPhase,
    LeadRule,
    Ruleset,
    Section,
    StopBonus,
    WidowSale,
)
from boodle.language.model import Penalty as PenaltyRule
from boodle.language.variants import load
from rules_by_hand import card, cards, fresh_ledger, michigan, with_phase

A, B, C, D = 0, 1, 2, 3
MICHIGAN = michigan()


def test_hand_built_michigan_mirrors_the_rules_file() -> None:
    assert load("michigan") == MICHIGAN


def run(rules: Ruleset, state: DealState, *moves: LeadMove | PlayMove | PassMove) -> tuple:
    events: list = []
    for move in moves:
        assert move in legal_moves(rules, state), f"{move}: legal {legal_moves(rules, state)}"
        state, more = apply(rules, state, move)
        events.extend(more)
    return state, events


def deal(rules: Ruleset, hands: tuple, dealer: int = D) -> DealState:
    return start_deal(rules, len(hands), dealer, fresh_ledger(rules, len(hands)), hands=hands)[0]


# ---------------------------------------------------------------- dealing


def test_four_players_get_11_11_10_10_and_the_widow_10() -> None:
    hands, widow = deal_hands(MICHIGAN, 4, D, MICHIGAN.deck.cards())
    assert [len(h) for h in hands] == [11, 11, 10, 10]
    assert len(widow) == 10
    # one at a time from the dealer's left: A gets the 1st card, B the 2nd, ..., widow the 5th
    deck = MICHIGAN.deck.cards()
    assert hands[A][:2] == (deck[0], deck[5]) and widow[0] == deck[4]


@pytest.mark.parametrize("players", range(3, 9))
def test_deal_sizes_follow_52_equals_q_times_n_plus_1_plus_r(players: int) -> None:
    q, r = divmod(52, players + 1)
    for dealer in range(players):
        hands, widow = deal_hands(MICHIGAN, players, dealer, MICHIGAN.deck.cards())
        # deal order: dealer's left first, ..., the dealer, then the widow
        order = [(dealer + 1 + i) % players for i in range(players)]
        sizes = [len(hands[s]) for s in order] + [len(widow)]
        assert sizes == [q + 1] * r + [q] * (players + 1 - r)
        assert sum(sizes) == 52


def test_widow_first_in_each_round_gets_the_first_extra_card() -> None:
    rules = replace(MICHIGAN, deal=replace(MICHIGAN.deal, widow_position="first"))
    hands, widow = deal_hands(rules, 4, D, rules.deck.cards())
    # 52 = 10 × 5 + 2: the widow (first) and A (left of the dealer) get 11
    assert (len(widow), [len(h) for h in hands]) == (11, [11, 10, 10, 10])
    rules = replace(MICHIGAN, deal=replace(MICHIGAN.deal, widow_position="none"))
    hands, widow = deal_hands(rules, 3, 2, rules.deck.cards())
    assert (len(widow), [len(h) for h in hands]) == (0, [18, 17, 17])


def test_a_deck_order_must_be_the_whole_deck() -> None:
    with pytest.raises(BoodleError):
        deal_hands(MICHIGAN, 4, D, MICHIGAN.deck.cards()[1:])


def test_dealt_cards_must_not_repeat() -> None:
    with pytest.raises(BoodleError, match="twice"):
        deal(MICHIGAN, (cards("2♣"), cards("2♣"), cards("3♣"), cards("4♣")))


# ---------------------------------------------------------------- antes


def test_dealer_and_widow_ante_lines_add_up() -> None:
    # each player 1 on each boodle, 2 on kitty; dealer 2 more on kitty; widow 1 on kitty
    antes = (*MICHIGAN.antes, AnteLine("dealer", 2, ("kitty",)), AnteLine("widow", 1, ("kitty",)))
    rules = replace(MICHIGAN, antes=antes)
    state = deal(rules, (cards("2♣"), cards("3♣"), cards("4♣"), cards("5♣")))
    # D (dealer) pays 6 + 2 + 1 = 9; the others 6; kitty 4 × 2 + 2 + 1 = 11
    assert state.ledger.seats == (44, 44, 44, 41)
    assert state.ledger.section("kitty") == 11


def test_each_other_player_skips_the_dealer() -> None:
    rules = replace(MICHIGAN, antes=(AnteLine("each other player", 3, ("kitty",)),))
    state = deal(rules, (cards("2♣"), cards("3♣"), cards("4♣"), cards("5♣")))
    assert state.ledger.seats == (47, 47, 47, 50) and state.ledger.section("kitty") == 9


# ---------------------------------------------------------------- lead rules


def test_longest_suit_lead_allows_the_lowest_of_each_longest_suit() -> None:
    rules = with_phase(MICHIGAN, first_lead=LeadRule("left of dealer", "lowest", "longest suit"))
    state = deal(rules, (cards("3♣ 9♣ 5♦ 6♦ 2♥"), cards("9♠"), cards("9♥"), cards("8♦")))
    assert set(legal_moves(rules, state)) == {LeadMove(A, card("3♣")), LeadMove(A, card("5♦"))}
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, LeadMove(A, card("2♥")))
    assert info.value.rule == "lead.suit"


def test_lowest_card_overall_ties_across_suits_are_all_legal() -> None:
    rules = with_phase(MICHIGAN, first_lead=LeadRule("left of dealer", "lowest", "all"))
    state = deal(rules, (cards("3♣ 9♣ 3♦ 6♦ 4♥"), cards("9♠"), cards("9♥"), cards("8♦")))
    assert set(legal_moves(rules, state)) == {LeadMove(A, card("3♣")), LeadMove(A, card("3♦"))}
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, LeadMove(A, card("4♥")))
    assert info.value.rule == "lead.lowest"


def test_holder_of_a_card_leads_it() -> None:
    rule = LeadRule("holder", "card", card=card("2♣"))
    rules = with_phase(MICHIGAN, first_lead=rule)
    state = deal(rules, (cards("9♠"), cards("9♥"), cards("2♣ 5♣"), cards("8♦")))
    assert to_move(state) == C
    assert legal_moves(rules, state) == (LeadMove(C, card("2♣")),)
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, LeadMove(C, card("5♣")))
    assert info.value.rule == "lead.card"


def test_holder_of_the_lowest_card_of_a_suit_leads() -> None:
    rule = LeadRule("holder", "lowest", "suit", suit="♣", holder_suit="♣")
    rules = with_phase(MICHIGAN, first_lead=rule)
    state = deal(rules, (cards("9♣"), cards("4♣ 7♣"), cards("5♣"), cards("8♦")))
    assert to_move(state) == B  # 2♣ and 3♣ are in the widow; B holds 4♣
    assert legal_moves(rules, state) == (LeadMove(B, card("4♣")),)


def test_restart_by_the_next_player() -> None:
    rules = with_phase(MICHIGAN, restart=LeadRule("next player", "lowest", "other suit"))
    state = deal(rules, (cards("2♣ 9♠"), cards("5♥ 6♥"), cards("9♥"), cards("8♦")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")))  # 3♣ in the widow: stop
    assert legal_moves(rules, state) == (LeadMove(B, card("5♥")),)


# ---------------------------------------------------------------- passes


def colour_rules(all_pass: str, fee: int = 0) -> Ruleset:
    fallback = Fallback("pass", amount=fee, to="kitty" if fee else None)
    return with_phase(
        MICHIGAN,
        restart=LeadRule("last player", "lowest", "opposite colour"),
        fallback=fallback,
        all_pass=all_pass,
    )


def test_a_restarter_without_the_colour_pays_and_passes_left() -> None:
    rules = colour_rules("end without winner", fee=1)
    # A leads 2♣ (3♣ in the widow: stop in black); A holds only black: pays 1 to the kitty
    # and passes; B holds 5♥ and leads it.
    state = deal(rules, (cards("2♣ 9♠"), cards("5♥ 9♣"), cards("9♥"), cards("8♦")))
    state, events = run(rules, state, LeadMove(A, card("2♣")))
    assert legal_moves(rules, state) == (PassMove(A),)
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, LeadMove(A, card("9♠")))
    assert info.value.rule == "lead.suit"
    state, events = run(rules, state, PassMove(A))
    assert [type(e) for e in events] == [Penalty, Pass]
    assert state.ledger.seat(A) == 43 and state.ledger.section("kitty") == 9
    assert legal_moves(rules, state) == (LeadMove(B, card("5♥")),)
    with pytest.raises(IllegalMove) as info:
        apply(rules, state, PassMove(B))
    assert info.value.rule == "pass.not-allowed"


def test_when_every_player_passes_the_deal_ends_without_winner() -> None:
    rules = colour_rules("end without winner")
    state = deal(rules, (cards("2♣ 9♠"), cards("5♠ 9♣"), cards("J♣"), cards("8♠")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")))
    state, events = run(rules, state, PassMove(A), PassMove(B), PassMove(C), PassMove(D))
    assert state.step == "over" and state.winner is None
    end = events[-1]
    assert isinstance(end, DealEnd) and end.reason == "all passed"
    # nothing paid out: every section carries over, the kitty keeps its 8
    assert dict(state.ledger.sections) == {"A♥": 4, "K♣": 4, "Q♦": 4, "J♠": 4, "kitty": 8}


def test_flip_colour_after_a_full_round_of_passes() -> None:
    rules = colour_rules("flip colour")
    state = deal(rules, (cards("2♣ 9♠"), cards("5♠ 9♣"), cards("J♣"), cards("8♠")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")))
    state, events = run(rules, state, PassMove(A), PassMove(B), PassMove(C), PassMove(D))
    assert events[-1] == FlipColour(True)
    # back to A, who may now lead black: the lowest of each black suit held (only 9♠ left)
    assert legal_moves(rules, state) == (LeadMove(A, card("9♠")),)


def test_pass_fallback_without_an_all_pass_rule_is_refused() -> None:
    rules = colour_rules("none")
    with pytest.raises(BoodleError, match="every player passes"):
        deal(rules, (cards("2♣"), cards("3♣"), cards("4♣"), cards("5♣")))


def test_cannot_lead_penalty_to_each_opponent() -> None:
    rules = colour_rules("end without winner")
    rules = with_phase(rules, penalties=(PenaltyRule("cannot lead", 1, "each opponent"),))
    state = deal(rules, (cards("2♣ 9♠"), cards("5♥ 9♣"), cards("9♥"), cards("8♦")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")), PassMove(A))
    # A pays 1 to each of B, C, D: 44 - 3 = 41
    assert state.ledger.seats == (41, 45, 45, 45)


# ---------------------------------------------------------------- stops, bonuses, going out


def test_a_removed_card_stops_the_run() -> None:
    rules = replace(MICHIGAN, deck=replace(MICHIGAN.deck, removed=frozenset({card("8♦")})))
    state = deal(rules, (cards("7♦ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    state, events = run(rules, state, LeadMove(A, card("7♦")))
    assert events[-1] == Stop(A, card("7♦"), "not in deck", card("8♦"))
    assert card("8♦") not in state.cards


def test_stop_bonus_from_a_section_is_capped_at_its_balance() -> None:
    rules = with_phase(MICHIGAN, stop_bonus=StopBonus(10, "kitty"))
    state = deal(rules, (cards("2♣ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    state, events = run(rules, state, LeadMove(A, card("2♣")))
    bonus = [e for e in events if isinstance(e, StopPaid)]
    assert len(bonus) == 1 and bonus[0].transfer.amount == 8  # the kitty held 8
    assert state.ledger.seat(A) == 52 and state.ledger.section("kitty") == 0


def test_stop_bonus_from_each_opponent() -> None:
    rules = with_phase(MICHIGAN, stop_bonus=StopBonus(1, "each opponent"))
    state = deal(rules, (cards("2♣ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    state, _ = run(rules, state, LeadMove(A, card("2♣")))
    assert state.ledger.seats == (47, 43, 43, 43)


def test_going_out_into_the_kitty_then_the_winner_takes_it() -> None:
    out = GoingOut(takes=("kitty",), per_card=2, to="kitty", excused=(card("9♥"),))
    rules = with_phase(MICHIGAN, going_out=out)
    state = deal(rules, (cards("2♣"), cards("9♦ 10♦"), cards("9♥ 5♥"), cards("8♠ 8♣ 8♦")))
    state, events = run(rules, state, LeadMove(A, card("2♣")))
    pays = [(e.payer, e.amount, e.excused) for e in events if isinstance(e, Payment)]
    # from A's left: B 2 cards × 2 = 4; C holds 9♥ (excused) 0; D 3 × 2 = 6; into the kitty
    assert pays == [(B, 4, False), (C, 0, True), (D, 6, False)]
    kitty = [e for e in events if isinstance(e, Claim)]
    assert [(e.section, e.amount) for e in kitty] == [("kitty", 18)]  # 8 + 4 + 6
    assert state.ledger.seats == (62, 40, 44, 38)


def test_a_fixed_set_is_claimed_when_one_player_has_played_all_its_cards() -> None:
    board = (*MICHIGAN.board, Section("ak", "A-K♦", "set", cards("K♦ A♦")))
    antes = (*MICHIGAN.antes, AnteLine("each player", 1, ("ak",)))
    rules = replace(MICHIGAN, board=board, antes=antes)
    state = deal(rules, (cards("Q♦ K♦ A♦ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    assert claims_of(rules, state, A, card("K♦")) == ()
    state, events = run(rules, state, LeadMove(A, card("Q♦")), PlayMove(A, card("K♦")),
                        PlayMove(A, card("A♦")))
    claims = [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]
    assert claims == [(A, "Q♦", 4), (A, "ak", 4)]


def test_a_claim_of_an_empty_section_is_recorded_with_amount_0() -> None:
    rules = replace(MICHIGAN, antes=(AnteLine("each player", 2, ("kitty",)),))
    state = deal(rules, (cards("Q♦ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    state, events = run(rules, state, LeadMove(A, card("Q♦")))
    claim = next(e for e in events if isinstance(e, Claim))
    assert (claim.section, claim.amount) == ("Q♦", 0)


# ---------------------------------------------------------------- pending features


def test_michigan_has_no_pending_feature() -> None:
    assert pending_features(MICHIGAN) == []


def test_pending_features_are_listed_and_refused_at_the_deal() -> None:
    sale = WidowSale("sale", 2, False, "kitty", True, False, False, "becomes widow")
    holding = HoldingPhase("boodle", "Boodle", ("A♥",))
    rules = with_phase(MICHIGAN, going_out=GoingOut(ends_deal=False, takes=("kitty",)))
    rules = replace(rules, widow_sale=sale, phases=(holding, *rules.phases),
                    antes=(AnteLine("each player", 1, ("A♥",), chosen=True),))
    # widow sales, holding phases and chosen-boodle antes are played (spec §5.4, §8.1, §4)
    assert pending_features(rules) == ["phase play: going out without ending the deal"]
    assert skipped_phases(rules) == []
    with pytest.raises(NotSupported, match="going out without ending the deal"):
        deal(rules, (cards("2♣"), cards("3♣"), cards("4♣"), cards("5♣")))


def test_lead_not_lowest_penalty_is_played() -> None:
    rules = with_phase(MICHIGAN, penalties=(PenaltyRule("lead not lowest", 1, "kitty"),))
    assert pending_features(rules) == []  # played: tests/unit/test_penalties.py


def test_an_ace_low_deck_stops_at_the_king() -> None:
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    rules = replace(MICHIGAN, deck=Deck(MICHIGAN.deck.suits, ranks))
    state = deal(rules, (cards("Q♠ 2♣"), cards("K♠ 3♦"), cards("9♥"), cards("8♦")))
    state, events = run(rules, state, LeadMove(A, card("Q♠")), PlayMove(B, card("K♠")))
    assert events[-1] == Stop(B, card("K♠"), "top rank", None)



# ---------------------------------------------------------------- holders and misdeals


def test_holder_of_an_unheld_card_passes_to_the_next_card_up_that_is_held() -> None:
    # spec §6.1: 2♣ and 3♣ are in the widow; C holds 4♣, so C leads 4♣ instead of 2♣
    rules = with_phase(MICHIGAN, first_lead=LeadRule("holder", "card", card=card("2♣")))
    state = deal(rules, (cards("9♠"), cards("9♥ 5♣"), cards("4♣ 6♣"), cards("8♦")))
    assert to_move(state) == C
    assert legal_moves(rules, state) == (LeadMove(C, card("4♣")),)


def test_holder_with_no_card_of_the_suit_held_falls_back_to_the_dealers_left() -> None:
    rules = with_phase(MICHIGAN, first_lead=LeadRule("holder", "card", card=card("2♣")))
    state = deal(rules, (cards("9♠ 3♦"), cards("9♥"), cards("4♥"), cards("8♦")))
    assert to_move(state) == A  # left of dealer D, lowest card: 3♦
    assert legal_moves(rules, state) == (LeadMove(A, card("3♦")),)


def test_a_declared_misdeal_undoes_the_play_but_keeps_the_ante() -> None:
    # 001 §06: same dealer deals again after the register is restored, no new ante.
    hands = (cards("9♦ J♦ 5♠ 6♥"), cards("Q♦ 3♣"), cards("10♦ 2♥ 7♠ 4♣"), cards("8♣"))
    state = deal(MICHIGAN, hands)
    state, _ = run(MICHIGAN, state, LeadMove(A, card("9♦")), PlayMove(C, card("10♦")),
                   PlayMove(A, card("J♦")), PlayMove(B, card("Q♦")))
    assert state.ledger.seat(B) == 48  # took Q♦'s 4
    state, events = misdeal(MICHIGAN, state, deck_order=MICHIGAN.deck.cards())
    undo = events[0]
    assert isinstance(undo, Misdeal) and [t.amount for t in undo.transfers] == [4]
    assert state.ledger.seats == (44, 44, 44, 44)
    assert dict(state.ledger.sections) == {"A♥": 4, "K♣": 4, "Q♦": 4, "J♠": 4, "kitty": 8}
    assert [len(h) for h in state.hands] == [11, 11, 10, 10] and to_move(state) == A
    assert state.plays == 0 and state.since_ante == ()


def test_reshuffle_and_redeal_allows_a_misdeal_only_before_the_first_move() -> None:
    rules = replace(MICHIGAN, deal=replace(MICHIGAN.deal, misdeal="reshuffle and redeal"))
    state = deal(rules, (cards("2♣ 9♠"), cards("9♦"), cards("9♥"), cards("8♠")))
    again, _ = misdeal(rules, state, deck_order=rules.deck.cards())
    assert again.ledger == state.ledger
    state, _ = run(rules, state, LeadMove(A, card("2♣")))
    with pytest.raises(BoodleError, match="before the first move"):
        misdeal(rules, state, deck_order=rules.deck.cards())


def test_trump_boodles_are_played_and_drawn_ones_must_be_drawn_first() -> None:
    board = (Section("king", "King", "boodle", (), ("K",), "trumps"),
             Section("first", "First", "boodle", (), (), "drawn"), *MICHIGAN.board[4:])
    rules = replace(MICHIGAN, board=board, antes=(AnteLine("each player", 1, ("kitty",)),),
                    deal=replace(MICHIGAN.deal, trumps="last widow card"))
    assert pending_features(rules) == []  # trumps: the trumps stage (spec §5.2)
    drawn_only = replace(rules, board=board[1:], deal=MICHIGAN.deal)
    assert pending_features(drawn_only) == []
    with pytest.raises(BoodleError, match="drawn once per session"):
        deal(drawn_only, (cards("2♣"), cards("3♣"), cards("4♣"), cards("5♣")))
