"""Streaming statistics of a simulation: exact sums, mergeable, independent of chunking.

Every statistic is kept as exact sums (count, Σx, Σx²) of chips or counts —
``int`` or ``Fraction``, never floats — so memory does not grow with the
number of deals, and merging the sums of chunks gives exactly the sums of
one serial run, in any order.  That is what makes a parallel run (processes
or a Dask cluster) report the same numbers as a serial one for the same seed.

Confidence intervals are 95 % normal intervals of the mean
(mean ± 1.96·s/√n); rates use the Wilson score interval.  Deals are treated
as independent samples; carry-over links the deals of one session, so the
intervals are slightly optimistic (sessions are independent).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from boodle.language.model import Chips

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(slots=True)
class Moments:
    """Count, sum and sum of squares of a sample, exactly (chips or counts)."""

    n: int = 0
    s1: Chips = 0
    s2: Chips = 0

    def add(self, x: Chips) -> None:
        """Add one observation."""
        self.n += 1
        self.s1 += x
        self.s2 += x * x

    def merge(self, other: Moments) -> None:
        """Add another sample's sums to this one."""
        self.n += other.n
        self.s1 += other.s1
        self.s2 += other.s2

    def mean(self) -> float:
        """The sample mean (NaN for an empty sample)."""
        return float(Fraction(self.s1) / self.n) if self.n else math.nan

    def ci95(self, scale: int = 1) -> tuple[float, float, float]:
        """(mean, low, high) of the mean divided by ``scale``; NaN bounds below 2 samples."""
        if self.n < 2:
            return self.mean() / scale, math.nan, math.nan
        mean = Fraction(self.s1) / self.n
        var = (Fraction(self.s2) - Fraction(self.s1) * mean) / (self.n - 1)
        half = Z95 * math.sqrt(max(float(var), 0.0) / self.n)
        m = float(mean)
        return m / scale, (m - half) / scale, (m + half) / scale


def wilson(hits: int, n: int) -> tuple[float, float, float]:
    """(rate, low, high): the Wilson 95 % score interval of ``hits`` out of ``n``."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def _moments(k: int) -> list[Moments]:
    return [Moments() for _ in range(k)]


@dataclass
class RunStats:
    """Every statistic of a run, as exact sums (see the module docstring).

    Per seat (0-based): ``seat_net`` (chips won or lost per deal, ante
    included), ``seat_out`` (deals it went out), ``session_net`` (n × the
    chips at a session's end less the start, after the leftover split) and ``wins``
    (sessions won, a tie sharing one win).  Per position from the dealer's
    left (0 = left of dealer … n-1 = dealer): ``position_net`` and
    ``position_out``.  Per strategy name: ``strategy_net``, per deal the
    total of the seats playing it.  Per section (board order):
    ``claimed`` (deals it was taken), ``taken`` (chips when taken),
    ``after_ante`` (chips once the ante is paid) and ``carry`` (chips left at
    the deal's end).  Per deal: ``plays``, ``leads``, ``passes``;
    ``no_winner``: deals ended by an all-pass.
    """

    players: int
    sections: tuple[str, ...]
    strategies: tuple[str, ...]
    deals: int = 0
    sessions: int = 0
    no_winner: int = 0
    seat_net: list[Moments] = field(default_factory=list)
    seat_out: list[int] = field(default_factory=list)
    position_net: list[Moments] = field(default_factory=list)
    position_out: list[int] = field(default_factory=list)
    strategy_net: dict[str, Moments] = field(default_factory=dict)
    session_net: list[Moments] = field(default_factory=list)
    wins: list[Chips] = field(default_factory=list)
    claimed: list[int] = field(default_factory=list)
    taken: list[Moments] = field(default_factory=list)
    after_ante: list[Moments] = field(default_factory=list)
    carry: list[Moments] = field(default_factory=list)
    plays: Moments = field(default_factory=Moments)
    leads: Moments = field(default_factory=Moments)
    passes: Moments = field(default_factory=Moments)

    @classmethod
    def empty(cls, players: int, sections: Sequence[str], strategies: Sequence[str]) -> RunStats:
        """Zeroed statistics for ``players`` seats playing ``strategies`` on a board."""
        k = len(sections)
        return cls(
            players, tuple(sections), tuple(strategies),
            seat_net=_moments(players), seat_out=[0] * players,
            position_net=_moments(players), position_out=[0] * players,
            strategy_net={s: Moments() for s in dict.fromkeys(strategies)},
            session_net=_moments(players), wins=[0] * players,
            claimed=[0] * k, taken=_moments(k), after_ante=_moments(k), carry=_moments(k),
        )

    def add_deal(self, dealer: int, before: Sequence[Chips], after: Sequence[Chips],
                 winner: int, plays: int, leads: int, passes: int,
                 after_ante: Sequence[Chips], taken: Sequence[Chips],
                 sections: Sequence[Chips]) -> None:
        """Record one deal: balances ``before``/``after`` it, its winner (-1: none) and board."""
        n = self.players
        self.deals += 1
        by_strategy: dict[str, Chips] = dict.fromkeys(self.strategy_net, 0)
        for s in range(n):
            net = after[s] - before[s]
            sq = net * net
            m = self.seat_net[s]
            m.n += 1
            m.s1 += net
            m.s2 += sq
            m = self.position_net[(s - dealer - 1) % n]
            m.n += 1
            m.s1 += net
            m.s2 += sq
            by_strategy[self.strategies[s]] += net
        for name, total in by_strategy.items():
            self.strategy_net[name].add(total)
        if winner >= 0:
            self.seat_out[winner] += 1
            self.position_out[(winner - dealer - 1) % n] += 1
        else:
            self.no_winner += 1
        self.plays.add(plays)
        self.leads.add(leads)
        self.passes.add(passes)
        for k, amount in enumerate(taken):
            if amount >= 0:
                self.claimed[k] += 1
                self.taken[k].add(amount)
            self.after_ante[k].add(after_ante[k])
            self.carry[k].add(sections[k])

    def add_session(self, start: Chips, final: Sequence[Chips], winners: Sequence[int]) -> None:
        """Record a finished session: balances and winner(s), a tie sharing one win.

        ``start`` and ``final`` are scaled by the number of seats n (so that
        equal shares of the leftover stay whole): ``session_net`` holds
        n × the net, and its mean is divided by n when reported.
        """
        self.sessions += 1
        for s in range(self.players):
            self.session_net[s].add(final[s] - start)
        for s in winners:
            self.wins[s] += 1 if len(winners) == 1 else Fraction(1, len(winners))

    def merge(self, other: RunStats) -> None:
        """Add ``other``'s sums (another chunk of the same run) to these."""
        self.deals += other.deals
        self.sessions += other.sessions
        self.no_winner += other.no_winner
        for mine, theirs in ((self.seat_net, other.seat_net),
                             (self.position_net, other.position_net),
                             (self.session_net, other.session_net), (self.taken, other.taken),
                             (self.after_ante, other.after_ante), (self.carry, other.carry)):
            for a, b in zip(mine, theirs, strict=True):
                a.merge(b)
        for counts, more in ((self.seat_out, other.seat_out),
                             (self.position_out, other.position_out),
                             (self.claimed, other.claimed)):
            for i, x in enumerate(more):
                counts[i] += x
        for i, w in enumerate(other.wins):
            self.wins[i] += w
        for name, m in other.strategy_net.items():
            self.strategy_net[name].merge(m)
        self.plays.merge(other.plays)
        self.leads.merge(other.leads)
        self.passes.merge(other.passes)
