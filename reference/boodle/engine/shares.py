"""Splitting a section's chips among several winners (spec §9, "Splits during play").

004 "Égalités": tied poker hands share the Pot and several King-Queen holders
share that section; ourpastimes.com (Tripoley): a shared 8-9-10 is "divided
equally, the remainder left on the layout".  The variant's ``chips`` line
decides how (spec §9):

- ``chips whole`` (physical chips): each winner receives ⌊S/k⌋ whole chips
  and the remainder S − k·⌊S/k⌋ stays on the section, carried over like any
  unclaimed chips (spec §3);
- ``chips exact`` (a register): each winner receives exactly S/k, a
  :class:`fractions.Fraction` where k does not divide S.

Either way k·share + remainder = S exactly, so the ledger total is unchanged
(spec §9, conservation).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from boodle.engine.ledger import normalize
from boodle.language.model import ChipMode, Chips

__all__ = ["CHIP_SPLITS", "ChipMode", "split"]


def _exact_split(amount: Chips, ways: int) -> tuple[Chips, Chips]:
    """``chips exact``: each winner receives exactly ``amount / ways``; nothing remains."""
    return normalize(Fraction(amount) / ways), 0


def _whole_split(amount: Chips, ways: int) -> tuple[Chips, Chips]:
    """``chips whole``: whole chips each, the remainder left on the section."""
    share = int(Fraction(amount) // ways)
    return share, normalize(amount - share * ways)


CHIP_SPLITS: dict[ChipMode, Callable[[Chips, int], tuple[Chips, Chips]]] = {
    "whole": _whole_split,
    "exact": _exact_split,
}
"""The engine's split of every chip mode (spec §9), one row per member of
:data:`~boodle.language.model.ChipMode`: (each share, the remainder)."""


def split(amount: Chips, ways: int, chips: ChipMode) -> tuple[Chips, Chips]:
    """``amount`` chips shared ``ways`` ways: (each share, the remainder left on the section).

    ``chips``: ``whole`` or ``exact`` (spec §9).  Raises ``ValueError`` for
    fewer than one way or a negative amount.  Example: 5 chips, 2 ways,
    ``whole`` → (2, 1); ``exact`` → (5/2, 0).
    """
    if ways < 1:
        raise ValueError(f"a split needs at least one winner, not {ways}")
    if amount < 0:
        raise ValueError(f"cannot split a negative amount ({amount})")
    return CHIP_SPLITS[chips](amount, ways)
