"""The rules engine: a static :class:`~boodle.language.model.Ruleset` plus an explicit
:class:`DealState`.

OpenSpiel style: :func:`start_deal` starts a deal; then :func:`to_move`,
:func:`legal_moves`, :func:`apply` and :func:`is_terminal` play it out.
Every function is pure: states and ledgers are immutable, and each step
returns the events it caused.  This module is the public API; it stays
stable while the stages behind it grow.

A deal is a sequence of **stages** (:mod:`boodle.engine.machine`, where the module
docstring says how to add one): antes → deal → [widow sale] → the phases as
written (stops last).  Each stage is a small module: :mod:`boodle.engine.stages.antes`,
:mod:`boodle.engine.stages.dealing`, :mod:`boodle.engine.stages.stops` (with
:mod:`boodle.engine.leads` and
:mod:`boodle.engine.claims`).  The moves are those of :mod:`boodle.engine.state`; every
refused move carries a rule id of :data:`RULE_IDS` (spec §12).

Everything is read from the ruleset, never from a variant's name.  Features
the engine does not execute yet are listed by :func:`pending_features` and
refused by :func:`start_deal` (:class:`NotSupported`); phases of a kind no
stage plays yet are skipped with a ``PhaseSkipped`` event
(:func:`skipped_phases`).  Sources: 001 §02-§06 for the home profile of
Michigan; spec §4 (antes), §5 (deal), §6 (stops), §7 (going out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from boodle.engine.claims import claims_of
from boodle.engine.events import DealStart, Event, Misdeal
from boodle.engine.faults import RULE_IDS, IllegalMove, NotSupported
from boodle.engine.ledger import Ledger
from boodle.engine.machine import apply_move, enter, skipped_phases
from boodle.engine.machine import legal_moves as _stage_legal_moves
from boodle.engine.stages.dealing import (
    deal_hands,
    deal_order,
    eliminated,
    new_deal,
    shuffled_deck,
)
from boodle.engine.state import DealState, Legal, Move
from boodle.engine.support import check_playable, pending_features, stops_phase
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import MisdealRule, Ruleset

__all__ = [
    "IllegalMove",
    "NotSupported",
    "RULE_IDS",
    "apply",
    "claims_of",
    "deal_hands",
    "deal_order",
    "is_terminal",
    "legal_moves",
    "misdeal",
    "pending_features",
    "shuffled_deck",
    "skipped_phases",
    "start_deal",
    "stops_phase",
    "to_move",
]


def start_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    ledger: Ledger,
    deck_order: Sequence[Card] | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    widow: Sequence[Card] | None = None,
    *,
    number: int | None = None,
) -> tuple[DealState, list[Event]]:
    """Post the antes, deal, and run the deal up to the first move (001 §02-§04).

    Deal from ``deck_order``, or take ``hands`` (by seat) and ``widow`` as
    given; with ``hands`` and no ``widow``, every undealt card is the widow.
    Returns the state (a seat to move) and the events: ``DealStart``, the
    antes, the deal, and whatever the stages before the first move caused.
    Raises :class:`NotSupported` for a pending feature, :class:`BoodleError`
    for a bad player count, dealer, ledger or deal.
    """
    check_playable(ruleset)
    if players not in ruleset.players:
        raise BoodleError(f"{ruleset.name} is for {ruleset.players.low} to "
                          f"{ruleset.players.high} players, not {players}")
    if not 0 <= dealer < players:
        raise BoodleError(f"no seat {dealer} among {players} players")
    if ledger.players != players or ledger.section_names() != tuple(s.name for s in ruleset.board):
        raise BoodleError("the ledger does not match the players and the board")
    state = new_deal(ruleset, players, dealer, ledger, deck_order, hands, widow)
    state, events = enter(ruleset, state, "antes")
    still_in = players - len(eliminated(ruleset, ledger))  # spec §10
    return state, [DealStart(dealer, players, number, still_in), *events]


MISDEAL_AFTER_A_MOVE: dict[MisdealRule, bool] = {
    "same dealer, no new ante": True,
    "reshuffle and redeal": False,
}
"""Whether a misdeal may still be declared once a move has been made (spec §5.3), one row
per member of :data:`MisdealRule`."""


def misdeal(
    ruleset: Ruleset,
    state: DealState,
    deck_order: Sequence[Card] | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    widow: Sequence[Card] | None = None,
) -> tuple[DealState, list[Event]]:
    """A declared misdeal (spec §5.3; 001 §06): undo every transfer since the ante, deal again.

    The same dealer deals from ``deck_order`` (or ``hands``/``widow``) with
    no new ante, and the deal runs again from its deal stage.  Raises
    :class:`BoodleError` once the deal is over, or under ``reshuffle and
    redeal`` once a move has been made.
    """
    if state.step == "over":
        raise BoodleError("the deal is over: a misdeal can no longer be declared")
    if not MISDEAL_AFTER_A_MOVE[ruleset.deal.misdeal] and state.moves > 0:
        raise BoodleError("under 'misdeal: reshuffle and redeal' a misdeal is declared only "
                          "while the cards are dealt, before the first move")
    ledger = state.ledger
    undone = []
    for t in reversed(state.since_ante):
        ledger, u = ledger.transfer(t.dst, t.src, t.amount, "misdeal")
        undone.append(u)
    new = new_deal(ruleset, state.players, state.dealer, ledger, deck_order, hands, widow,
                   out=state.out)  # who is out was decided before this deal's ante
    # the ante stands (spec §5.3), and with it who was short and what they anted (spec §4)
    new, events = enter(ruleset, replace(new, stage="antes", short=state.short), "deal")
    return new, [Misdeal(state.dealer, tuple(undone)), *events]


def is_terminal(state: DealState) -> bool:
    """Whether the deal is over."""
    return state.step == "over"


def to_move(state: DealState) -> int | None:
    """The seat to move, or ``None`` once the deal is over."""
    return None if state.step == "over" else state.to_move


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
    """Every legal move of the seat to move (empty once the deal is over).

    In the stops phase: the one follow due, or every lead the rule allows
    in deck order of the cards, or a pass.  In a widow auction: a pass and one
    :class:`~boodle.engine.state.BidRange` for every bid (spec §5.4), whatever the
    balance; :func:`~boodle.engine.state.nth_move`, :func:`~boodle.engine.state.allows`
    and :func:`~boodle.engine.state.move_count` read the entries as concrete moves.
    """
    return _stage_legal_moves(ruleset, state)


def apply(ruleset: Ruleset, state: DealState, move: Move) -> tuple[DealState, list[Event]]:
    """Play ``move``: the new state and the events it caused.

    Raises :class:`IllegalMove` (with a rule id of :data:`RULE_IDS`) if the
    rules forbid it; the state is unchanged.
    """
    return apply_move(ruleset, state, move)
