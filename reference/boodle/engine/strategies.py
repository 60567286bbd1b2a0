"""Built-in players: callables ``(ruleset, state, legal_moves) -> Move``.

- :func:`random_legal`: a uniformly random legal move from its own ``rng``: uniform over
  the concrete moves, so each amount of a bid range is as likely as a pass (its cost does
  not grow with the range: one draw, one step per entry); in a poker phase's betting round
  (spec §8.3) uniform over the actions first (the pass, the bid range), then over the
  range's amounts.
- :func:`greedy`: a move that goes out or claims a non-empty section if there
  is one, else a lead from the suit it holds most of, else the first legal move;
  in a widow sale it takes the widow only when the widow is the shorter hand (in an
  auction with the lowest bid allowed); in a poker phase's betting round it bets by the
  strength of its best hand (spec §8.3).

:data:`STRATEGIES` maps a name to a factory taking the seat's
``random.Random`` (the greedy player ignores it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from boodle.engine.api import claims_of
from boodle.engine.poker_hands import CATEGORIES, best_hand
from boodle.engine.stages.stops import CLAIMS, phase_of
from boodle.engine.state import (
    BidRange,
    BuyMove,
    DealState,
    LeadMove,
    Legal,
    Move,
    OfferMove,
    PlayMove,
    SwapMove,
    WithdrawMove,
    move_count,
    nth_move,
)
from boodle.language.model import PokerPhase, Ruleset

Strategy = Callable[[Ruleset, DealState, tuple[Legal, ...]], Move]
"""A player: picks one of the moves the legal entries stand for (never called with none); a
:class:`~boodle.engine.state.BidRange` entry is answered with one of its bids."""


def random_legal(rng: random.Random) -> Strategy:
    """A player choosing uniformly among the concrete legal moves with ``rng`` (one
    ``randrange`` over :func:`~boodle.engine.state.move_count`: the same draws, and so the
    same games, as when every bid was listed).

    In a poker phase's betting round (``state.bets`` set, spec §8.3) it picks uniformly
    among the legal entries (check/fold is the pass; bet/call/raise is the one
    :class:`~boodle.engine.state.BidRange`), then, for the range, uniformly among its
    amounts ``low``, ``low + step`` … ``<= high`` chips: two draws, so a wide range does not
    drown the pass. Deterministic for ``rng``'s seed.  The highest bidder's last move under
    ``high bidder: may withdraw`` (spec §5.4) is one of two, the pass (the bid stands) and the
    withdrawal, each drawn half the time.
    """

    def choose(ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
        if state.bets is not None:
            return _random_bet(rng, legal)
        return nth_move(legal, rng.randrange(move_count(legal)))

    return choose


def _random_bet(rng: random.Random, legal: tuple[Legal, ...]) -> Move:
    """One of ``legal``'s entries uniformly, then one amount (chips) of a bid range
    uniformly (spec §8.3)."""
    entry = legal[rng.randrange(len(legal))]
    if isinstance(entry, BidRange):
        return entry.bid(entry.amounts()[rng.randrange(entry.size)])
    return entry


def greedy(ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
    """Go out or claim chips when possible; else lead from the longest suit held; else first.

    In a widow sale: take the widow (the lowest bid) when it holds fewer
    cards than the hand, else pass; as the highest bidder allowed to withdraw (spec §5.4),
    let the bid stand (a pass) by the same test, and withdraw otherwise.

    In a poker phase's betting round (spec §8.3), by the category of its best poker hand
    (:func:`~boodle.engine.poker_hands.best_hand` of its hand, the phase's ``best of`` and
    ace-low rule): **two pair or better** bets or raises the most chips the bid range allows;
    **one pair** calls (the range's lowest amount: what is owed, or all in) when chips are
    owed and checks when nothing is; **high card** checks when nothing is owed and folds
    otherwise (the pass is both). Deterministic: it draws nothing.
    """
    plays = [m for m in legal if isinstance(m, LeadMove | PlayMove)]
    if not plays and state.bets is not None:
        return _bet_choice(ruleset, state, legal)
    if not plays:
        return _widow_choice(state, legal)
    claiming = CLAIMS[phase_of(ruleset, state).claims].on_play  # else a play claims nothing (§6.6)
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
    return nth_move(legal, 0)


def _bet_choice(ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
    """A bet by the strength of the best hand (spec §8.3): two pair or better raises (or
    bets) as much as the range allows, one pair calls (or checks), anything less checks
    when nothing is owed and folds otherwise (the pass is both)."""
    phase = next(p for p in ruleset.phases if f"phase:{p.name}" == state.stage)
    assert isinstance(phase, PokerPhase)
    bids = [m for m in legal if isinstance(m, BidRange)]
    pass_move = nth_move(legal, 0)
    strength = CATEGORIES.index(best_hand(state.hand(pass_move.seat), phase.best_of,
                                          phase.ace_low_straight).category)
    owed = state.bets.owed(pass_move.seat) if state.bets is not None else 0
    if bids and strength >= CATEGORIES.index("two pair"):
        return bids[0].bid(bids[0].amounts()[-1])
    if bids and strength == CATEGORIES.index("one pair") and owed > 0:
        return bids[0].bid(bids[0].low)
    return pass_move


def _widow_choice(state: DealState, legal: tuple[Legal, ...]) -> Move:
    """The dealer's offer (``dealer: may withhold``: the sale takes place); a buy, swap or
    lowest bid if the widow is the shorter hand; else the first move (a pass).  The highest
    bidder's last move (``high bidder: may withdraw``): the pass, letting the bid stand, if the
    widow is the shorter hand, else the withdrawal."""
    offer = [m for m in legal if isinstance(m, OfferMove)]
    if offer:
        return offer[0]
    withdraw = [m for m in legal if isinstance(m, WithdrawMove)]
    if withdraw:  # the bid stands (the pass) if the widow is still the shorter hand
        shorter = len(state.widow()) < len(state.hand(withdraw[0].seat))
        return nth_move(legal, 0) if shorter else withdraw[0]
    takes = [m for m in legal if isinstance(m, BuyMove | SwapMove | BidRange)]
    if takes and len(state.widow()) < len(state.hand(takes[0].seat)):
        return nth_move(takes, 0)
    return nth_move(legal, 0)


STRATEGIES: dict[str, Callable[[random.Random], Strategy]] = {
    "random": random_legal,
    "greedy": lambda rng: greedy,
}
"""Built-in strategies by name: a factory from the seat's random generator."""


def make(name: str, rng: random.Random) -> Strategy:
    """The strategy called ``name`` for a seat with ``rng``; raises ``KeyError`` if unknown."""
    return STRATEGIES[name](rng)
