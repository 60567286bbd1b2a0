"""The rules engine, public API: :func:`start_deal`, :func:`legal_moves`, :func:`apply`, … .

The functions live in :mod:`boodle.engine.api` and are re-exported here, so that
``from boodle.engine import start_deal`` is the stable way in.  Behind them: the deal state
(:mod:`.state`), the ledger (:mod:`.ledger`), the events (:mod:`.events`), the stage machine
(:mod:`.machine`) and one module per stage (:mod:`.stages`), and the pure rules the stages
read (:mod:`.leads`, :mod:`.claims`, :mod:`.holders`, :mod:`.shares`, :mod:`.poker_hands`).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # at run time the names are read from .api when first used (below)
    from boodle.engine.api import (
        RULE_IDS,
        IllegalMove,
        NotSupported,
        apply,
        claims_of,
        deal_hands,
        deal_order,
        is_terminal,
        legal_moves,
        misdeal,
        pending_features,
        shuffled_deck,
        skipped_phases,
        start_deal,
        stops_phase,
        to_move,
    )

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


def __getattr__(name: str) -> Any:
    """``boodle.engine.NAME`` from :mod:`boodle.engine.api`, imported on first use (PEP 562).

    Importing a light module of the package (``boodle.engine.support`` for ``boodle check``,
    ``boodle.engine.faults``) then costs that module alone, not the whole engine.
    The value is then kept in this module's namespace, so later look-ups
    (``reference.apply`` at every step of a count) do not come here again.
    Raises ``AttributeError`` for a name that is not exported.
    """
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from boodle.engine import api

    value = getattr(api, name)
    globals()[name] = value
    return value
