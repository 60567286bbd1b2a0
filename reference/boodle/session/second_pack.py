"""Boodle cards drawn from a second pack for the session (spec §3, "Drawn boodles").

000 "Variantes" (and 002/003): "the players may draw four cards at random
from a second pack at the start of each session to define that session's
boodle cards".  At the start of the session, before the first dealer is
cut, one card is drawn for each ``drawn from second pack`` section, in board
order, without replacement, from a pack of the same composition as the
deck.  The draw **binds** for the session: :func:`bind_boodles` returns the
ruleset with each drawn card in its section's ``cards``, and every deal of
the session is played with that bound ruleset, where a drawn section pays
exactly like a ``boodle CARD`` section (claims, holding, the widow bar).
The draw is a chance event, recorded as :class:`~boodle.engine.events.BoodlesDrawn`;
drawn from a generator seeded by the session's seed, it is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from boodle.engine.events import BoodlesDrawn
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset, SuitRule

__all__ = ["DRAWN", "bind_boodles", "bind_drawn", "draw_boodles", "unbound_sections"]

DRAWN: dict[SuitRule, bool] = {
    "fixed": False,
    "same suit": False,
    "trumps": False,
    "drawn": True,
}
"""Whether a section's card is drawn from a second pack for the session (spec §3), one row
per member of :data:`~boodle.language.model.SuitRule`.  The simulator and the conformance
positions read these rows."""


def unbound_sections(ruleset: Ruleset) -> list[str]:
    """The ``drawn from second pack`` sections that have no card bound yet, in board order."""
    return [s.name for s in ruleset.board if DRAWN[s.suit_rule] and not s.cards]


def draw_boodles(ruleset: Ruleset, rng: random.Random) -> tuple[Ruleset, list[BoodlesDrawn]]:
    """Draw a card for each unbound drawn section and bind them (spec §3).

    Returns the bound ruleset and the draw's event (none when the board
    draws nothing).  The cards come from ``rng`` alone.
    """
    names = unbound_sections(ruleset)
    if not names:
        return ruleset, []
    return bind_drawn(ruleset, rng.sample(list(ruleset.deck.cards()), len(names)))


def bind_drawn(ruleset: Ruleset, cards: Sequence[Card]) -> tuple[Ruleset, list[BoodlesDrawn]]:
    """Bind ``cards``, the second pack's cards in the order drawn, to the unbound drawn
    sections in board order (spec §3); the bound ruleset and the draw's event.

    Raises :class:`BoodleError` unless there is one card per unbound section, each a
    card of the deck and none twice (:func:`bind_boodles`).
    """
    names = unbound_sections(ruleset)
    if len(cards) != len(names):
        raise BoodleError(f"{len(names)} boodle cards are drawn from the second pack, "
                          f"not {len(cards)}")
    draws = tuple(zip(names, cards, strict=True))
    return bind_boodles(ruleset, dict(draws)), [BoodlesDrawn(draws)]


def bind_boodles(ruleset: Ruleset, cards: Mapping[str, Card]) -> Ruleset:
    """``ruleset`` with each drawn section paid by ``cards[name]`` for the session.

    Raises :class:`BoodleError` if a drawn section gets no card, a card is
    not in the deck, two sections get the same card, or a name is not a
    drawn section.
    """
    drawn = {s.name for s in ruleset.board if DRAWN[s.suit_rule]}
    if set(cards) != drawn:
        raise BoodleError(f"the drawn sections are {sorted(drawn)}, not {sorted(cards)}")
    deck = set(ruleset.deck.cards())
    if any(c not in deck for c in cards.values()):
        raise BoodleError("a drawn boodle card must be a card of the deck")
    if len(set(cards.values())) != len(cards):
        raise BoodleError("the second pack is drawn without replacement: no card twice")
    board = tuple(
        replace(s, cards=(cards[s.name],)) if s.name in drawn else s for s in ruleset.board
    )
    return replace(ruleset, board=board)
