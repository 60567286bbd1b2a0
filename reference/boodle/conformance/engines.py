"""The engine behind a conformance adapter: the reference, or a mutant of it.

An :class:`Engine` is the three entry points of :mod:`boodle.engine`
(``start_deal``, ``legal_moves``, ``apply``) plus a hook that may change the
ruleset the engine plays.  :data:`REFERENCE` passes everything through;
:mod:`boodle.conformance.mutants` subclasses it to break one rule at a time,
without touching the engine's code.
"""

from __future__ import annotations

from collections.abc import Sequence

from boodle import engine as reference
from boodle.engine.events import Event
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Legal, Move
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.session.run import DealCards
from boodle.session.second_pack import bind_drawn, unbound_sections


class Engine:
    """The reference engine; subclasses override one method to break one rule.

    ``name`` is what the adapter reports in ``started``; ``rules`` (a
    one-line description) is shown by ``boodle conformance serve --list-mutants``.
    """

    name = "reference"
    rules = "the reference engine, unchanged"

    def ruleset(self, ruleset: Ruleset) -> Ruleset:
        """The ruleset this engine plays instead of ``ruleset`` (unchanged here)."""
        return ruleset

    def start(
        self,
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
        """Antes, deal, first lead: :func:`boodle.engine.start_deal` on :meth:`ruleset`
        (``number``: the deal's number in a session, 1-based)."""
        return reference.start_deal(self.ruleset(ruleset), players, dealer, ledger,
                                    deck_order=deck_order, hands=hands, widow=widow,
                                    number=number)

    def legal(self, ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
        """The legal moves: :func:`boodle.engine.legal_moves` (a bid range for an auction's
        bids)."""
        return reference.legal_moves(self.ruleset(ruleset), state)

    def apply(self, ruleset: Ruleset, state: DealState, move: Move
              ) -> tuple[DealState, list[Event]]:
        """Play a move: :func:`boodle.engine.apply` (raises ``IllegalMove`` with a rule id)."""
        return reference.apply(self.ruleset(ruleset), state, move)


    def misdeal(self, ruleset: Ruleset, state: DealState, cards: DealCards
                ) -> tuple[DealState, list[Event]]:
        """A declared misdeal, the same dealer dealing ``cards`` again with no new ante:
        :func:`boodle.engine.misdeal` (spec §5.3; raises ``BoodleError`` where the rules
        allow none)."""
        return reference.misdeal(self.ruleset(ruleset), state, deck_order=cards.deck,
                                 hands=cards.hands, widow=cards.widow)


REFERENCE = Engine()
"""The reference engine itself."""


def session_playable(ruleset: Ruleset) -> bool:
    """Whether a case of kind ``session`` can be played in ``ruleset``: as :func:`playable`,
    once the boodle cards drawn from a second pack (spec §3) are bound (to the deck's
    first cards, for the check)."""
    names = unbound_sections(ruleset)
    if names:
        ruleset = bind_drawn(ruleset, ruleset.deck.cards()[:len(names)])[0]
    return playable(ruleset)


def playable(ruleset: Ruleset) -> bool:
    """Whether a case of ``ruleset`` can be played: no pending feature, no skipped phase,
    and a deal starts from an explicit setup alone (nothing drawn once per session)."""
    if reference.pending_features(ruleset) or reference.skipped_phases(ruleset):
        return False
    players = ruleset.players.low
    names = tuple(s.name for s in ruleset.board)
    ledger = Ledger.open(players, names, ruleset.session.start_chips)
    try:
        reference.start_deal(ruleset, players, 0, ledger, deck_order=ruleset.deck.cards())
    except BoodleError:
        return False
    return True
