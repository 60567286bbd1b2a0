"""Many sessions of a ``boodle simulate`` run in one call of the kernel, their statistics
added as arrays.

:func:`play_sessions` plays a chunk's sessions (spec §10) as
:func:`~boodle.simulate.runner.play_session` plays them on the kernel, with the same
numbers: the kernel (:func:`boodle.compiled.kernel.run_sessions`) seeds each session's
``random.Random("{seed}:{j}")`` itself, draws the high cut and plays its deals, so that
what is left to Python per session is its end (:func:`~.runner._final`, one
:meth:`~.stats.RunStats.add_session`) and per call the deals' statistics, summed with
numpy (:func:`add_deals`: exact integer sums, as :meth:`~.stats.RunStats.add_deal` adds
them one deal at a time).  A session the kernel hands back before its last deal (a seat
at or below 0, or at the target: the end rules decide) and one whose end is a tie broken
by one more deal are played again from their start by
:func:`~boodle.simulate.runner.play_session` (the same cards and choices), their deals
left out of the arrays.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from boodle.compiled import CompiledRules
from boodle.language.kind_facts import BALANCE_FACTS
from boodle.language.model import FirstDealer
from boodle.session.run import LEFTOVER_SPLITS, ROTATION_STEPS, TIE_DEALS
from boodle.simulate.stats import Moments, RunStats

if TYPE_CHECKING:
    from boodle.compiled.kernel import KernelTables
    from boodle.simulate.runner import RunSpec

SESSIONS_DEALS = 8192
"""At most about this many deals one call of the kernel plays (its arrays' rows)."""


KERNEL_DRAWS: dict[FirstDealer, bool] = {
    "high cut": True,  # the kernel draws the cut itself
    "first dealt": False,  # a deal face up before the first: played by play_session
}
"""Whether the kernel draws the first dealer of a session itself (spec §5.1), one row per
member of :data:`~boodle.language.model.FirstDealer`."""


def batched(spec: RunSpec) -> bool:
    """Whether ``spec``'s sessions can be played many a call: a first dealer by the high cut
    (the one draw the kernel makes before the first deal), whole starting chips, and
    sessions short enough to fit the arrays of one call."""
    from boodle.simulate.runner import KERNEL_DEALS

    rules = spec.ruleset
    return (KERNEL_DRAWS[rules.deal.first_dealer]
            and isinstance(rules.session.start_chips, int)
            and spec.session_length <= KERNEL_DEALS)


def play_sessions(spec: RunSpec, first: int, last: int, stats: RunStats,
                  tables: CompiledRules, kt: KernelTables) -> None:
    """Play sessions ``first`` .. ``last`` - 1 of ``spec`` into ``stats``, many a kernel
    call (see the module docstring).  Raises :class:`~boodle.language.errors.BoodleError`
    as :func:`~boodle.simulate.runner.play_session` does (a deal where no card may be
    led)."""
    per = max(1, SESSIONS_DEALS // spec.session_length)
    for a in range(first, last, per):
        _call(spec, a, min(last, a + per), stats, tables, kt)


def _call(spec: RunSpec, first: int, last: int, stats: RunStats, tables: CompiledRules,
          kt: KernelTables) -> None:
    from boodle.compiled.kernel import run_sessions
    from boodle.simulate.runner import _best, _ended, _final, kernel_stops, play_session

    rules, n = spec.ruleset, spec.players
    start = rules.session.start_chips
    low_end, target = kernel_stops(spec)
    step = ROTATION_STEPS[rules.deal.rotation]
    caps = [spec.cap(j) for j in range(first, last)]
    got = run_sessions(kt, spec.strategies, [f"{spec.seed}:{j}" for j in range(first, last)],
                       start, caps, step, low_end, target, jit=spec.jit)
    session, m = rules.session, len(caps)
    back = got.played != got.caps  # handed back before the session's last deal
    ending = np.zeros(m, dtype=bool) if session.end_never else ~back
    for i in np.flatnonzero(ending & (got.caps < spec.session_length)).tolist():
        # the run's last session, cut short: it ends only if the end rules say so
        ending[i] = _ended(rules, got.final_seats[i].tolist())
    one_more = TIE_DEALS[session.ties] > 0
    if not BALANCE_FACTS[session.negative].eliminates:
        # every seat shares the leftover: n × chips + the board's chips, whole (_final)
        left = (got.final_sections.sum(axis=1) if LEFTOVER_SPLITS[session.leftover]
                else np.zeros(m, dtype=np.int64))
        finals = n * got.final_seats + left[:, None]
        if one_more:  # a tie: one more deal, played again below
            tie = ending & ((finals == finals.max(axis=1)[:, None]).sum(axis=1) > 1)
            back |= tie
            ending &= ~tie
        add_sessions(stats, n * start, finals[ending])
    else:
        for i in np.flatnonzero(ending).tolist():
            final = _final(rules, got.final_seats[i].tolist(), got.final_sections[i].tolist())
            best = _best(final)
            if one_more and len(best) > 1:
                back[i] = True
                continue
            stats.add_session(n * start, final, best)
    keep = np.repeat(~back, got.caps)
    add_deals(stats, _firsts(got.starts, keep), start, kt.put, got.dealers[keep],
              got.winners[keep], got.counts[keep], got.taken[keep], got.seats_after[keep],
              got.sections_after[keep])
    for i in np.flatnonzero(back).tolist():
        play_session(spec, first + i, stats, tables, kt)


def add_sessions(stats: RunStats, start: int, finals: np.ndarray) -> None:
    """:meth:`~.stats.RunStats.add_session` of each row of ``finals`` (whole chips, n ×
    the balance as :func:`~boodle.simulate.runner._final` gives it; ``start``: n × the
    starting chips): the same exact sums, a tie sharing one win."""
    if len(finals) == 0:
        return
    stats.sessions += len(finals)
    for s in range(finals.shape[1]):
        _add(stats.session_net[s], finals[:, s] - start)
    top = finals == finals.max(axis=1)[:, None]
    many = top.sum(axis=1)
    for k in np.unique(many).tolist():
        won = top[many == k].sum(axis=0).tolist()
        for s, w in enumerate(won):
            if w:
                stats.wins[s] += w if k == 1 else Fraction(w, k)


def _firsts(starts: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Whether each kept deal row is its session's first (a mask over the kept rows)."""
    first = np.zeros(len(keep), dtype=bool)
    first[starts] = True
    kept: np.ndarray = first[keep]
    return kept


def add_deals(stats: RunStats, first: np.ndarray, start: int, put: np.ndarray,
              dealers: np.ndarray, winners: np.ndarray, counts: np.ndarray,
              taken: np.ndarray, seats_after: np.ndarray, sections_after: np.ndarray) -> None:
    """Add deals to ``stats`` as :meth:`~.stats.RunStats.add_deal` adds each (the same
    exact sums), from arrays with a row a deal, the deals of a session in order:
    ``first`` (the session's first deal: every seat had ``start`` chips, the board 0),
    ``put`` (the antes per dealer and section, ``KernelTables.put``), ``dealers``,
    ``winners`` (-1: none), ``counts`` (plays, leads, passes), ``taken`` (-1: not
    taken), ``seats_after``, ``sections_after`` (chips after the deal)."""
    d, n = seats_after.shape
    if d == 0:
        return
    before = np.empty_like(seats_after)
    before[1:] = seats_after[:-1]
    before[first] = start
    board = np.empty_like(sections_after)
    board[1:] = sections_after[:-1]
    board[first] = 0
    net = seats_after - before
    stats.deals += d
    rows = np.arange(d)
    for s in range(n):
        _add(stats.seat_net[s], net[:, s])
        _add(stats.position_net[s], net[rows, (s + dealers + 1) % n])
    for name, m in stats.strategy_net.items():
        mine = [s for s in range(n) if stats.strategies[s] == name]
        _add(m, net[:, mine].sum(axis=1))
    out = winners >= 0
    stats.no_winner += int(d - out.sum())
    by_seat = np.bincount(winners[out], minlength=n).tolist()
    by_position = np.bincount((winners[out] - dealers[out] - 1) % n, minlength=n).tolist()
    for s in range(n):
        stats.seat_out[s] += by_seat[s]
        stats.position_out[s] += by_position[s]
    _add(stats.plays, counts[:, 0])
    _add(stats.leads, counts[:, 1])
    _add(stats.passes, counts[:, 2])
    after_ante = board + put[dealers]
    for k in range(len(stats.sections)):
        hit = taken[:, k] >= 0
        stats.claimed[k] += int(hit.sum())
        _add(stats.taken[k], taken[hit, k])
        _add(stats.after_ante[k], after_ante[:, k])
        _add(stats.carry[k], sections_after[:, k])


def _add(m: Moments, x: np.ndarray) -> None:
    """``m.add`` of each of ``x`` (integers), as exact sums."""
    m.n += len(x)
    m.s1 += int(x.sum())
    m.s2 += int((x * x).sum())
