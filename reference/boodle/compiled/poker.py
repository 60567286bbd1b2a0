"""A poker phase on compiled tables (spec §8.2, §8.3): the betting round, then the showdown.

:func:`play_poker` plays one :class:`~.tables.CompiledPoker` phase in the plain lists of
:mod:`.deal` (hands as bitmasks, chips in the caller's ``seats`` and ``sections``): the
blinds, the betting round from the opener clockwise (check, bet, call, raise, fold; the raise
cap; all in when a seat has no whole chip left), and the showdown, which pays the pot in
layers (side pots) to the best hand among the seats still in that put in that much.  It is
the reference engine's :mod:`boodle.engine.stages.poker` on lists: the same seats act in the
same order, with the same legal amounts, and the trace tuples are those
:func:`~.agree.reference_trace` makes of its ``bet``, ``showdown`` and ``claim`` events.  The
rows it shares with the reference are read from it: the bet sizes of each limit
(``BET_SIZES``), the side pots (:func:`~boodle.engine.stages.poker.layers`) and the split of
a pot among tied hands (:func:`~boodle.engine.holders.award`, spec §9).

Hands are ranked by :func:`hand_strength`, a direct evaluator over the hand's bitmask (no
five-card combination is tried): it gives the strength
:class:`~boodle.engine.poker_hands.PokerHand` gives (category, then the tie-break values),
which ``tests/unit/test_compiled_poker.py`` checks against pokerkit on every category and on
random hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from boodle.compiled.tables import CompiledPoker, CompiledRules
from boodle.engine.holders import award, in_split_order
from boodle.engine.poker_hands import best_hand
from boodle.engine.stages.poker import layers
from boodle.language.errors import BoodleError
from boodle.language.model import Chips

__all__ = ["PASS", "BetAsk", "Bettor", "hand_strength", "play_poker"]

TraceItem = tuple[object, ...]

PASS = -1
"""A bettor's answer for the pass: a check when nothing is owed, else a fold (spec §8.3)."""


@dataclass(frozen=True, slots=True)
class BetAsk:
    """What the seat to act in a betting round may do (spec §8.3), and what it may read.

    ``seat``; ``hand``: its cards (bitmask of card indices); ``owed``: chips it must put in
    to stay in (0: it may check); ``low``, ``high``, ``step``: the bids (chips put in now)
    ``low``, ``low + step`` … ``<= high``, or ``low == -1``: no bid (only the pass);
    ``rules``, ``phase``: the compiled ruleset and the phase.  The legal entries are the
    reference engine's: the pass first, then the bids, so ``size + 1`` concrete moves.
    """

    rules: CompiledRules
    phase: CompiledPoker
    seat: int
    hand: int
    owed: int
    low: int
    high: int
    step: int

    @property
    def size(self) -> int:
        """How many bids there are (0: only the pass)."""
        return 0 if self.low < 0 else (self.high - self.low) // self.step + 1

    def amount(self, i: int) -> int:
        """The ``i``-th bid (0-based, increasing), in chips."""
        return self.low + i * self.step


Bettor = Callable[[BetAsk], int]
"""A player in a betting round: the chips it puts in (one of the ask's bids) or :data:`PASS`."""


def _whole(chips: Chips) -> int:
    """``chips`` in whole chips, rounded down, never below 0 (what a seat may bet)."""
    whole = chips if type(chips) is int else int(Fraction(chips) // 1)
    return max(whole, 0)


# ---------------------------------------------------------------- hand strength


def _straight(values: int, ace_low: bool) -> int:
    """The top value of the highest straight in ``values`` (bit v: value v held), or 0."""
    if ace_low and values >> 14 & 1:
        values |= 2  # the ace also plays as 1: A-2-3-4-5, whose top card is 5
    for top in range(14, 4, -1):
        if values >> (top - 4) & 0b11111 == 0b11111:
            return top
    return 0


def _top(values: int, k: int) -> list[int]:
    """The ``k`` highest values of ``values`` (bit v: value v), highest first."""
    out: list[int] = []
    v = 14
    while len(out) < k and v >= 2:
        if values >> v & 1:
            out.append(v)
        v -= 1
    return out


def hand_strength(t: CompiledRules, hand: int, size: int = 5,
                  ace_low: bool = True) -> tuple[int, ...]:
    """The strength of the best poker hand of ``size`` cards in ``hand`` (spec §8.2).

    ``hand``: a bitmask of card indices of ``t``.  Returns (category index of
    :data:`~boodle.engine.poker_hands.CATEGORIES`, tie-break values highest first: 2 … 14),
    equal to :func:`~boodle.engine.poker_hands.best_hand`'s ``strength``; hands of fewer than
    five cards and phases of ``best: N cards`` with N < 5 are handed to ``best_hand``.
    Raises ``ValueError`` for an empty hand.
    """
    if size < 5 or hand.bit_count() < 5:
        return best_hand([t.cards[c] for c in range(t.n_cards) if hand >> c & 1], size,
                         ace_low).strength
    value, suit_of = t.poker_value, t.suit_of
    counts = [0] * 15
    by_suit = [0] * len(t.suit_masks)
    x = hand
    while x:
        low = x & -x
        c = low.bit_length() - 1
        v = value[c]
        counts[v] += 1
        by_suit[suit_of[c]] |= 1 << v
        x ^= low
    flushes = [m for m in by_suit if m.bit_count() >= 5]
    best_sf = max((_straight(m, ace_low) for m in flushes), default=0)
    if best_sf:
        return (8, best_sf)
    present = 0
    for v in range(2, 15):
        if counts[v]:
            present |= 1 << v
    quads = [v for v in range(14, 1, -1) if counts[v] >= 4]
    if quads:
        return (7, quads[0], *_top(present & ~(1 << quads[0]), 1))
    trips = [v for v in range(14, 1, -1) if counts[v] >= 3]
    pairs = [v for v in range(14, 1, -1) if counts[v] >= 2]
    if trips:
        with_pair = [v for v in pairs if v != trips[0]]
        if with_pair:
            return (6, trips[0], with_pair[0])
    if flushes:
        return (5, *max(_top(m, 5) for m in flushes))
    top = _straight(present, ace_low)
    if top:
        return (4, top)
    if trips:
        return (3, trips[0], *_top(present & ~(1 << trips[0]), 2))
    if len(pairs) >= 2:
        return (2, pairs[0], pairs[1],
                *_top(present & ~(1 << pairs[0]) & ~(1 << pairs[1]), 1))
    if pairs:
        return (1, pairs[0], *_top(present & ~(1 << pairs[0]), 3))
    return (0, *_top(present, 5))


# ---------------------------------------------------------------- the phase


def play_poker(  # noqa: C901 - the betting round's loop, as the reference's stage
    t: CompiledRules,
    ph: CompiledPoker,
    n: int,
    dealer: int,
    hands: list[int],
    seats: list[Chips],
    sections: list[Chips],
    taken: list[Chips],
    bettors: Sequence[Bettor] | None,
    trace: list[TraceItem] | None,
    allow: Sequence[int] | None = None,
) -> None:
    """Play poker phase ``ph``: its betting round, if any, then its showdown (spec §8.2, §8.3).

    ``seats``, ``sections`` (chips) and ``taken`` (chips taken from each section, -1: none)
    are updated in place; ``bettors[seat]`` answers each :class:`BetAsk`.  Raises
    :class:`BoodleError` when the phase bets and no ``bettors`` are given, or when a bettor
    answers an amount its ask does not allow.  ``allow[seat]``: the sections (bits) a seat may
    take (spec §4: a short seat, those it anted; ``None``: every seat, every section).
    """
    pot = ph.pot
    put = [0] * n
    folded = [False] * n
    order = [(dealer + 1 + i) % n for i in range(n)]
    if ph.betting:
        if bettors is None:
            raise BoodleError(f"phase {ph.name} has a betting round: play_deal needs bettors")
        acted = [False] * n
        level = raises = 0
        opener = ph.opener(dealer, n)
        last = -1
        for i, blind in enumerate(ph.blinds[:n]):  # spec §8.3: the blinds, no move
            who = (opener + i) % n
            last = who
            amount = min(blind, _whole(seats[who]))
            if amount < 1:  # no whole chip: all in from the start, nothing to post
                continue
            seats[who] -= amount
            sections[pot] += amount
            put[who] += amount
            level = max(level, put[who])
            if trace is not None:
                trace.append(("bet", who, "blind", amount, level, seats[who] < 1))
        start, first = (opener, True) if last < 0 else (last, False)
        while True:
            # ---- who is due (the reference's _next): the round may be over.  A seat may
            # bet with a whole chip, that is with a balance of at least 1 (else all in)
            live = able = 0
            lone = -1
            for s in range(n):
                if not folded[s]:
                    live += 1
                    if seats[s] >= 1:
                        able, lone = able + 1, s
            if live == 1 or (able == 1 and level == put[lone]):
                break
            who = -1
            for i in range(0 if first else 1, n + 1):
                c = (start + i) % n
                if not folded[c] and seats[c] >= 1 and (not acted[c] or level > put[c]):
                    who = c
                    break
            if who < 0:  # every seat still in has acted and matched, or is all in
                break
            # ---- the seat's legal bids (the reference's legal_moves)
            balance, owed = _whole(seats[who]), level - put[who]
            least, most, step = ph.sizes(ph.phase, _whole(sections[pot]), owed)
            if owed == 0:
                lo, hi = (least, balance if most is None else min(most, balance)) \
                    if balance >= least else (-1, -1)
            elif (ph.raises < 0 or raises < ph.raises) and balance >= owed + least:
                lo = owed
                hi = owed + (balance - owed if most is None else min(most, balance - owed))
            else:
                lo = hi = min(owed, balance)
            ask = BetAsk(t, ph, who, hands[who], owed, lo, hi, step if hi > lo else 1)
            amount = bettors[who](ask)
            if amount == PASS:
                if owed == 0:
                    acted[who], action = True, "check"
                else:
                    folded[who], action = True, "fold"
                if trace is not None:
                    trace.append(("bet", who, action, 0, level, False))
            else:
                if lo < 0 or not lo <= amount <= hi or (amount - lo) % ask.step:
                    raise BoodleError(f"seat {who} bet {amount} chips; the bids allowed are "
                                      f"{lo} to {hi} in steps of {ask.step} (spec §8.3)")
                seats[who] -= amount
                sections[pot] += amount
                put[who] += amount
                if put[who] > level:
                    action = "bet" if level == 0 else "raise"
                    raises += action == "raise"
                    level = put[who]
                    acted = [False] * n
                else:
                    action = "call"
                acted[who] = True
                if trace is not None:
                    trace.append(("bet", who, action, amount, level, seats[who] < 1))
            start, first = who, False
    _showdown(t, ph, order, folded, put, hands, seats, sections, taken, trace, allow)


def _showdown(t: CompiledRules, ph: CompiledPoker, order: list[int], folded: list[bool],
              put: list[int], hands: list[int], seats: list[Chips], sections: list[Chips],
              taken: list[Chips], trace: list[TraceItem] | None,
              allow: Sequence[int] | None = None) -> None:
    """Show the hands of the seats still in; pay each pot to its best hand(s) (spec §8.2,
    §8.3: the main pot, then each side pot, to the seats that put in that much), those of the
    best that may take the pot (``allow``, spec §4: a short seat that did not ante it does
    not; when none may, the pot stays)."""
    pot = ph.pot
    live = [s for s in order if not folded[s]]
    pot_chips = sections[pot]
    folded_out = ph.betting and len(live) == 1
    shown: dict[int, tuple[int, ...]] = {}
    if folded_out:  # everyone else folded: no hand is shown
        pots: list[tuple[Chips, list[int]]] = [(pot_chips, live)]
        winners: tuple[int, ...] = tuple(live)
    else:
        shown = {s: hand_strength(t, hands[s], ph.best_of, ph.ace_low) for s in live
                 if hands[s]}
        top = max(shown.values(), default=None)
        winners = in_split_order([s for s in order if s in shown and shown[s] == top],
                                 ph.split)
        pots = layers(tuple(put), live, pot_chips - sum(put)) if ph.betting \
            else [(pot_chips, live)]
    if trace is not None:
        trace.append(("showdown", ph.name, tuple((s, shown[s]) for s in order if s in shown),
                      winners))
    for chips, eligible in pots:
        contenders = eligible if folded_out else [s for s in eligible if s in shown]
        if not contenders:
            continue
        best = None if folded_out else max(shown[s] for s in contenders)
        takers = [s for s in contenders if (best is None or shown[s] == best)
                  and (allow is None or allow[s] >> pot & 1)]
        paid = award(ph.pot_name, takers, chips, ph.split, t.ruleset.chips)
        if paid is None:
            continue
        for who in paid.seats:
            share = paid.share
            sections[pot] -= share
            seats[who] += share
            taken[pot] = share if taken[pot] < 0 else taken[pot] + share
            if trace is not None:
                trace.append(("claim", who, ph.pot_name, share))
