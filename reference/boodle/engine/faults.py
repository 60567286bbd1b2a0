"""What the engine refuses: illegal moves (by rule id) and features it does not execute.

Every refused move is an :class:`IllegalMove` carrying one rule id of
:data:`RULE_IDS` (spec §12 gives their order of checking); a ruleset needing a
feature the engine does not execute yet raises :class:`NotSupported`.
:mod:`boodle.engine` re-exports all three.
"""

from __future__ import annotations

from boodle.language.errors import BoodleError

__all__ = ["RULE_IDS", "IllegalMove", "NotSupported"]

RULE_IDS = {
    "turn": "it is not this seat's move",
    "deal.over": "the deal is over",
    "move.kind": "a move of a form the deal does not take now (a follow when a lead is due, "
    "a lead during the widow sale, a bid in a fixed-price sale …)",
    "lead.not-held": "a player leads only a card they hold",
    "lead.lowest": "never lead a higher card while holding a lower one of that suit (001 §04)",
    "lead.suit": "the lead's suit is not one the lead rule allows (001 §05)",
    "lead.card": "the lead rule names the one card to lead",
    "follow.next-card": "in a run the only play is the next card, by its owner (001 §04)",
    "pass.not-allowed": "a player who can lead or follow may not pass",
    "widow.barred": "a player holding a boodle card may not buy, bid for or swap the widow "
    "(spec §5.4)",
    "widow.funds": "a price or bid above the player's balance (spec §5.4)",
    "widow.bid-low": "a bid not above every earlier bid, or below the opening price (spec §5.4)",
    "ante.stake": "a chosen-boodle stake on a section that is not a boodle (spec §4)",
    "bet.funds": "a bet, call or raise above the player's balance in whole chips (spec §8.3)",
    "bet.amount": "a bet or raise of a size the betting round does not allow, a call of less "
    "than is owed by a player who can pay it, or a raise past the cap (spec §8.3)",
}
"""Every rule id an :class:`IllegalMove` may carry, with what it means (spec §12)."""


class NotSupported(BoodleError):
    """The ruleset needs a feature the engine does not execute yet (``pending_features``)."""


class IllegalMove(BoodleError):
    """A move the rules forbid; ``rule`` is one of :data:`RULE_IDS`."""
