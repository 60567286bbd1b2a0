"""The trumps stage (spec §5.2): the widow's last-dealt card is turned up for trumps.

``trumps: last card of widow`` turns it face up: its suit is the trump suit of
the deal, which pays the ``RANK of trumps`` sections (spec §3).  With ``turn
up: dealer takes its boodle`` the dealer takes the boodle section the turned
card pays, this deal's ante included (Pope Joan: "should the turn-up be Pope
(nine of diamonds), or an ace, king, queen or knave, the dealer is entitled to
all the counters in the corresponding compartment", Hoyle's Games
Modernized).  The card stays in the widow.  :func:`boodle.engine.stages.dealing.new_deal`
records which card it is (``DealState.turn_up``); this stage shows it.
"""

from __future__ import annotations

from boodle.engine.claims import take
from boodle.engine.events import Event, TurnUp
from boodle.engine.holders import SECTION_KINDS, paying_cards
from boodle.engine.stage import Result, Stage, no_legal_moves, no_moves
from boodle.engine.state import DealState
from boodle.language.model import Ruleset, TurnUpRule

__all__ = ["DEALER_TAKES", "STAGE", "enter", "paid_by_turn_up"]

DEALER_TAKES: dict[TurnUpRule, bool] = {
    "nothing": False,
    "dealer takes boodle": True,
}
"""Whether the dealer takes the boodle section the turned-up card pays (spec §5.2), one row
per member of :data:`TurnUpRule`.  The compiled engine reads these rows."""


def paid_by_turn_up(ruleset: Ruleset, state: DealState) -> tuple[str, ...]:
    """The boodle sections the turned-up card pays, in board order (none without one)."""
    card = state.turn_up
    if card is None:
        return ()
    return tuple(s.name for s in ruleset.board
                 if SECTION_KINDS[s.kind].per_card and card in (paying_cards(s, card.suit) or ()))


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Show the turned-up card (a ``TurnUp`` event); pay the dealer its boodle if the rule says."""
    card = state.turn_up
    events: list[Event] = []
    if card is not None:
        events.append(TurnUp(card, card.suit))
        if DEALER_TAKES[ruleset.deal.turn_up]:
            for name in paid_by_turn_up(ruleset, state):
                if state.may_take(state.dealer, name):  # spec §4: a short dealer, unanted
                    state = take(state, state.dealer, name, events)
    return state.evolve(to_move=None), events


STAGE = Stage("trumps", enter, no_legal_moves, no_moves)
"""The trumps stage: no moves."""
