"""Helpers for deals in tests: play listed moves, read claims, walk a random deal."""

from __future__ import annotations

import random
from collections.abc import Iterator

from boodle.engine import apply, is_terminal, legal_moves, start_deal
from boodle.engine.events import Claim, Event
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Move, move_count, nth_move
from boodle.language.model import Ruleset
from boodle.session.second_pack import draw_boodles


def play_out(
    rules: Ruleset, state: DealState, moves: tuple[Move, ...]
) -> tuple[Ledger, list[Event]]:
    """Play ``moves`` in order, each checked legal; the deal must end with the last.

    Returns the final ledger and the events the moves caused.
    """
    events: list[Event] = []
    for move in moves:
        assert move in legal_moves(rules, state), f"{move}: legal {legal_moves(rules, state)}"
        state, more = apply(rules, state, move)
        events.extend(more)
    assert is_terminal(state)
    return state.ledger, events


def claims(events: list[Event]) -> list[tuple[int, str, object]]:
    """(seat, section, amount) of every claim, in order."""
    return [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]


def random_states(ruleset: Ruleset, seed: int) -> Iterator[tuple[Ruleset, DealState]]:
    """Every state of one random deal of ``ruleset`` (random legal moves), seat 0 dealing,
    with the ruleset played (the cards drawn per session bound, spec §3)."""
    rng = random.Random(seed)
    ruleset, _ = draw_boodles(ruleset, rng)
    players = rng.randint(ruleset.players.low, min(ruleset.players.high, 5))
    deck = list(ruleset.deck.cards())
    rng.shuffle(deck)
    ledger = Ledger.open(players, tuple(s.name for s in ruleset.board), 50)
    state, _ = start_deal(ruleset, players, 0, ledger, deck_order=deck)
    yield ruleset, state
    while not is_terminal(state):
        legal = legal_moves(ruleset, state)  # a bid range counts its bids, as rng.choice did
        state, _ = apply(ruleset, state, nth_move(legal, rng.randrange(move_count(legal))))
        yield ruleset, state
