"""Built-in players: callables ``(ruleset, state, legal_moves) -> Move``.

- :func:`random_legal`: a uniformly random legal move from its own ``rng``.
- :func:`greedy`: a move that goes out or claims a non-empty section if there
  is one, else a lead from the suit it holds most of, else the first legal move;
  in a widow sale it takes the widow only when the widow is the shorter hand.

:data:`STRATEGIES` maps a name to a factory taking the seat's
``random.Random`` (the greedy player ignores it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from boodle.engine.api import claims_of
from boodle.engine.stages.stops import phase_of
from boodle.engine.state import BidMove, BuyMove, DealState, LeadMove, Move, PlayMove, SwapMove
from boodle.language.model import Ruleset

Strategy = Callable[[Ruleset, DealState, tuple[Move, ...]], Move]
"""A player: picks one of the legal moves (never called with none)."""


def random_legal(rng: random.Random) -> Strategy:
    """A player choosing uniformly among the legal moves with ``rng``."""

    def choose(ruleset: Ruleset, state: DealState, legal: tuple[Move, ...]) -> Move:
        return legal[rng.randrange(len(legal))]

    return choose


def greedy(ruleset: Ruleset, state: DealState, legal: tuple[Move, ...]) -> Move:
    """Go out or claim chips when possible; else lead from the longest suit held; else first.

    In a widow sale: take the widow (the lowest bid) when it holds fewer
    cards than the hand, else pass.
    """
    plays = [m for m in legal if isinstance(m, LeadMove | PlayMove)]
    if not plays:
        return _widow_choice(state, legal)
    claiming = phase_of(ruleset, state).claims == "on play"  # else a play claims nothing (§6.6)
    for move in plays:
        if len(state.hand(move.seat)) == 1:
            return move
        if claiming and any(state.ledger.section(name) > 0
                            for name in claims_of(ruleset, state, move.seat, move.card)):
            return move
    leads = [m for m in legal if isinstance(m, LeadMove)]
    if leads:
        hand = state.hand(leads[0].seat)
        return max(leads, key=lambda m: sum(c.suit == m.card.suit for c in hand))
    return legal[0]


def _widow_choice(state: DealState, legal: tuple[Move, ...]) -> Move:
    """A buy, swap or lowest bid if the widow is the shorter hand; else the first move (a pass)."""
    takes = [m for m in legal if isinstance(m, BuyMove | SwapMove | BidMove)]
    if takes and len(state.widow()) < len(state.hand(takes[0].seat)):
        return takes[0]
    return legal[0]


STRATEGIES: dict[str, Callable[[random.Random], Strategy]] = {
    "random": random_legal,
    "greedy": lambda rng: greedy,
}
"""Built-in strategies by name: a factory from the seat's random generator."""


def make(name: str, rng: random.Random) -> Strategy:
    """The strategy called ``name`` for a seat with ``rng``; raises ``KeyError`` if unknown."""
    return STRATEGIES[name](rng)
