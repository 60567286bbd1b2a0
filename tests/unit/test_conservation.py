"""Chips and cards are conserved over 1,000 seeded random deals for each of 3 to 8 players.

After every event the players' and sections' chips, replayed from the
events' transfers alone, add up to the starting total; after every move the
replay equals the engine's ledger, and every card of the deck is in exactly
one place (a hand, the widow, or played).  Every deal ends, within one move
per card plus the passes its rules allow.
"""

from __future__ import annotations

import random

import pytest

from boodle.engine import apply, is_terminal, legal_moves, shuffled_deck, start_deal
from boodle.engine.events import transfers_in
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, move_count, nth_move
from boodle.language.cards import Card
from boodle.language.model import Fallback, GoingOut, LeadRule, Ruleset, StopBonus
from rules_by_hand import card, fresh_ledger, michigan, with_phase

DEALS = 1000


def replay(ledger: Ledger, events: list, total: object) -> Ledger:
    """Apply the events' transfers to ``ledger``, checking the total after each event."""
    for event in events:
        for t in transfers_in(event):
            ledger, _ = ledger.transfer(t.src, t.dst, t.amount, t.reason)
        assert ledger.total() == total, event
    return ledger


def assert_cards_in_one_place(deck: frozenset[Card], state: DealState) -> None:
    everywhere = [c for hand in state.hands for c in hand]
    everywhere += state.widow()
    everywhere += [c for _, c in state.played()]
    assert len(everywhere) == len(deck) and set(everywhere) == deck  # so none twice
    assert state.held == tuple(len(h) for h in state.hands)


def play_one(rules: Ruleset, players: int, seed: int, passes: int = 0) -> None:
    """One random deal; ``passes``: how many passes each stop may cause at most."""
    rng = random.Random(seed)
    deck = frozenset(rules.deck.cards())
    start = fresh_ledger(rules, players)
    total = start.total()
    dealer = rng.randrange(players)
    state, events = start_deal(rules, players, dealer, start, shuffled_deck(rules, rng))
    shadow = replay(start, events, total)
    assert shadow == state.ledger
    moves = 0
    while not is_terminal(state):
        legal = legal_moves(rules, state)
        assert legal, "a live deal always has a legal move"
        state, events = apply(rules, state, nth_move(legal, rng.randrange(move_count(legal))))
        shadow = replay(shadow, events, total)
        assert shadow == state.ledger
        assert_cards_in_one_place(deck, state)
        moves += 1
        assert moves <= len(deck) * (1 + passes), "each move plays a card, or passes"
    assert legal_moves(rules, state) == ()


@pytest.mark.parametrize("players", range(3, 9))
def test_chips_and_cards_are_conserved(players: int) -> None:
    rules = michigan()
    for seed in range(DEALS):
        play_one(rules, players, seed * 10 + players)


def busy_rules() -> Ruleset:
    """Michigan with every chip path of the engine: pass fees, flips, stop bonus, kitty payouts."""
    return with_phase(
        michigan(),
        restart=LeadRule("last player", "lowest", "opposite colour"),
        fallback=Fallback("pass", amount=1, to="kitty"),
        all_pass="flip colour",
        stop_bonus=StopBonus(1, "each opponent"),
        going_out=GoingOut(takes=("kitty", "A♥"), per_card=1, to="kitty", excused=(card("8♦"),)),
    )


@pytest.mark.parametrize("players", range(3, 9))
def test_chips_and_cards_are_conserved_with_passes_and_bonuses(players: int) -> None:
    rules = busy_rules()
    for seed in range(DEALS // 5):
        play_one(rules, players, seed * 10 + players, passes=2 * players)
