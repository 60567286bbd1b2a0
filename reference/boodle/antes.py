"""The antes stage (spec §4): every ante line paid before the cards are dealt.

Lines are paid in the order written; within a line payer by payer,
clockwise from the dealer's left (the dealer last), and target by target in
the order the targets expand.  Each payment is one transfer and one
:class:`~boodle.events.Ante` event.  Source: 001 §02 (each player 1 on each
boodle and 2 on the kitty); 000 step 2 (the dealer may pay double: lines add
up).
"""

from __future__ import annotations

from dataclasses import replace

from .errors import BoodleError
from .events import Ante, Event
from .ledger import seat, section
from .model import Ruleset
from .stage import Stage, no_legal_moves, no_moves
from .state import DealState

__all__ = ["STAGE", "ante_targets", "enter"]


def ante_targets(ruleset: Ruleset, targets: tuple[str, ...]) -> list[str]:
    """The section names an ante line's targets expand to, in order (spec §4).

    ``each boodle``: every boodle section in board order; ``every section``:
    every section.  Raises :class:`BoodleError` for a name not on the board.
    """
    names: list[str] = []
    for t in targets:
        if t == "each boodle":
            names.extend(s.name for s in ruleset.board if s.kind == "boodle")
        elif t == "every section":
            names.extend(s.name for s in ruleset.board)
        elif any(s.name == t for s in ruleset.board):
            names.append(t)
        else:
            raise BoodleError(f"the ante names section {t!r}, which is not on the board")
    return names


def enter(ruleset: Ruleset, state: DealState) -> tuple[DealState, list[Event]]:
    """Pay every ante line (spec §4).  The antes are not in ``since_ante``: a misdeal keeps them."""
    events: list[Event] = []
    players, dealer = state.players, state.dealer
    everyone = tuple((dealer + 1 + i) % players for i in range(players))
    ledger = state.ledger
    for line in ruleset.antes:
        payers = {
            "each player": everyone,
            "dealer": (dealer,),
            "each other player": everyone[:-1],
            "widow": (dealer,),
        }[line.payer]
        reason = "ante (widow's share)" if line.payer == "widow" else "ante"
        for payer in payers:
            for name in ante_targets(ruleset, line.targets):
                ledger, t = ledger.transfer(seat(payer), section(name), line.amount, reason)
                events.append(Ante(t))
    return replace(state, ledger=ledger, to_move=None), events


STAGE = Stage("antes", enter, no_legal_moves, no_moves)
"""The antes stage: no moves yet (chosen-boodle antes will be its moves)."""
