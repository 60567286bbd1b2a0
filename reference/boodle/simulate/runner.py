"""Play K deals as sessions, in chunks, serially, in processes or on a Dask cluster.

A run of K deals is ⌈K / L⌉ sessions, L = rotations × players deals each
(spec §10; the last session is cut short, with no session end, when K is
not a multiple of L).  Session ``j`` draws everything from generators
derived from the seed — ``random.Random("{seed}:{j}")`` draws the session's
boodles (if drawn), its high cut, each deal's shuffle and the random
players' choices, in the order play asks for them — so any session can be
played anywhere, in any order, with the same result.  A chunk is a range of sessions; its
statistics are exact sums (:mod:`.stats`), so merging chunks gives the
serial run's numbers exactly, whatever the chunking or the backend.

Engines: ``kernel`` (:mod:`boodle.compiled.kernel`: the compiled tables played many
deals per call, compiled by numba), ``compiled`` (:mod:`boodle.compiled`) or
``reference`` (:mod:`boodle.engine`, for the rulesets the compiled one does not run).
With the same seed all three play the same cards with the same choices, so they
report the same numbers where they run.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import os
import random
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol

from boodle.compiled import CompiledRules, compile_ruleset, play_deal, supports
from boodle.compiled.deal import Chooser, DealResult
from boodle.compiled.players import (
    PLAYERS,
    make_bettor,
    make_chooser,
    make_seller,
    reference_strategy,
)
from boodle.engine.events import (
    Ante,
    Claim,
    DealEnd,
    Event,
    Lead,
    Pass,
    Play,
    StopPaid,
    transfers_in,
)
from boodle.engine.ledger import Ledger, SeatAccount, SectionAccount
from boodle.engine.stages.dealing import BALANCES
from boodle.engine.strategies import Strategy
from boodle.language.errors import BoodleError
from boodle.language.kind_facts import BALANCE_FACTS
from boodle.language.model import Chips, FirstDealer, Ruleset
from boodle.session.run import (
    LEFTOVER_SPLITS,
    REDRAWS,
    ROTATION_STEPS,
    TIE_DEALS,
    ends_after,
    first_dealer,
)
from boodle.session.run import play_deal as reference_play_deal
from boodle.simulate.stats import RunStats

if TYPE_CHECKING:
    from boodle.compiled.kernel import KernelTables

Engine = Literal["kernel", "compiled", "reference"]
CHUNK_DEALS = 2000
"""About how many deals one chunk plays (a unit of parallel work)."""


@dataclass(frozen=True)
class RunSpec:
    """What to simulate: ``deals`` deals of ``ruleset`` for ``players`` seats from ``seed``.

    ``strategies``: one player name per seat (:data:`~boodle.compiled.players.PLAYERS`).
    ``engine``: which engine plays (see :func:`choose_engine`); ``jit``: whether the
    kernel is compiled by numba where numba is installed (``False``: it runs as Python, the
    same deals; for tests).
    """

    ruleset: Ruleset
    players: int
    deals: int
    seed: int
    strategies: tuple[str, ...]
    engine: Engine
    jit: bool = True

    @property
    def session_length(self) -> int:
        """Deals in a whole session: rotations × players (spec §10); without a rotation
        limit, every deal of the run (one session, ended sooner only by its end lines)."""
        rotations = self.ruleset.session.rotations
        return self.deals if rotations is None else rotations * self.players

    @property
    def sessions(self) -> int:
        """Sessions the run plays."""
        return math.ceil(self.deals / self.session_length)

    def cap(self, j: int) -> int:
        """Deals session ``j`` plays at most (fewer only for the last, cut short)."""
        return min(self.session_length, self.deals - j * self.session_length)


KERNEL_FROM = 20_000
"""``auto`` plays runs of at least this many deals on the kernel.  Loading numba and the
kernel from numba's cache costs about 0.5-0.7 s of CPU per process; with simulate on the
kernel about 200,000 Michigan deals per CPU second against the compiled engine's 22,000
(``bench/run.py``'s ``simulate_kernel``, 2 shared cores, many sessions a kernel call:
:mod:`.kernel_sessions`), the kernel is ahead from about 13,000 deals."""


def kernel_importable() -> bool:
    """Whether :mod:`boodle.compiled.kernel` can be imported: it needs numpy (the ``kernel``
    extra; a plain ``pip install boodle`` has no numpy, and simulate then plays on the
    compiled engine)."""
    import importlib.util

    return importlib.util.find_spec("numpy") is not None


def choose_engine(ruleset: Ruleset, wanted: str = "auto", deals: int | None = None) -> Engine:
    """The engine ``wanted`` (``kernel``, ``compiled``, ``reference``), or for ``auto``: the
    kernel where it runs ``ruleset``, numba is installed (without numba the kernel runs as
    Python, about 0.13 × the compiled engine's deals per CPU second) and the run has
    ``deals`` ≥ :data:`KERNEL_FROM` (``None``: a long run), else ``compiled`` where that
    runs it, else ``reference``.  All three play the same deals for a seed.

    Raises :class:`BoodleError` when ``kernel`` or ``compiled`` is asked for a ruleset it
    does not run, and when ``kernel`` is asked for without numpy (:func:`kernel_importable`).
    """
    if wanted == "reference":
        return "reference"
    if supports(ruleset) and not kernel_importable():
        if wanted == "kernel":
            raise BoodleError("the kernel needs numpy, which is not installed",
                              hint="pip install 'boodle[kernel]' (numpy and numba), "
                                   "or use --engine compiled (or auto)")
        return "compiled"
    if supports(ruleset):
        from boodle.compiled.kernel import kernel_unsupported, numba_available

        gaps = kernel_unsupported(_tables(ruleset, True))
        if wanted == "kernel" and gaps:
            raise BoodleError(f"the kernel does not run {ruleset.name}: " + "; ".join(gaps),
                              hint="use --engine compiled (or auto)")
        long_run = deals is None or deals >= KERNEL_FROM
        if wanted == "kernel" or (wanted == "auto" and not gaps and long_run
                                  and numba_available()):
            return "kernel"
        return "compiled"
    if wanted in ("compiled", "kernel"):
        from boodle.compiled import unsupported_features

        raise BoodleError(f"the compiled engine (and so the kernel) does not run "
                          f"{ruleset.name}: "
                          + "; ".join(unsupported_features(ruleset)),
                          hint="use --engine reference (or auto)")
    return "reference"


def make_spec(ruleset: Ruleset, players: int, deals: int, seed: int,
              strategies: Sequence[str], engine: str = "auto") -> RunSpec:
    """A checked :class:`RunSpec`; raises :class:`BoodleError` for bad players, deals or names.

    One strategy name is used for every seat; otherwise give one per seat.
    """
    if players not in ruleset.players:
        raise BoodleError(f"{ruleset.name} is for {ruleset.players.low} to "
                          f"{ruleset.players.high} players, not {players}",
                          hint=f"try --players {ruleset.players.low}")
    if deals < 1:
        raise BoodleError("--deals must be at least 1")
    if REDRAWS[ruleset.session.seating]:  # spec §10; its loops keep the seats
        span = ruleset.origin.span(ruleset.session, "seating") if ruleset.origin else None
        raise BoodleError(f"boodle simulate does not draw the seats again before each deal "
                          f"yet ({ruleset.name}: 'seating: redrawn each deal', spec §10)",
                          span=span, hint="boodle play plays such a session (--seed N); "
                          "or simulate the variant with 'seating: fixed'")
    names = list(strategies) or ["random"]
    for name in names:
        if name not in PLAYERS:
            raise BoodleError(f"unknown strategy '{name}'",
                              hint="strategies: " + ", ".join(PLAYERS))
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise BoodleError(f"{len(names)} strategies for {players} players",
                          hint="give one strategy for every seat, or one for all")
    return RunSpec(ruleset, players, deals, seed, tuple(names),
                   choose_engine(ruleset, engine, deals))


# ---------------------------------------------------------------- engines


class _Table(Protocol):
    def deal(self, dealer: int, perm: list[int], seats: list[Chips],
             sections: list[Chips]) -> DealResult: ...


def engine_label(spec: RunSpec) -> str:
    """The engine that plays ``spec``, as the report names it: ``kernel (numba)``,
    ``kernel (Python, numba absent)`` (or ``kernel (Python)`` when ``spec.jit`` is off),
    ``compiled`` or ``reference``."""
    if spec.engine != "kernel":
        return spec.engine
    from boodle.compiled.kernel import numba_available

    if not numba_available():
        return "kernel (Python, numba absent)"
    return "kernel (numba)" if spec.jit else "kernel (Python)"


@functools.lru_cache(maxsize=8)
def _kernel_tables(ruleset: Ruleset, players: int) -> KernelTables:
    """The kernel's arrays of ``ruleset`` for ``players`` seats, once per process."""
    from boodle.compiled.kernel import kernel_tables

    return kernel_tables(_tables(ruleset, True), players)


@functools.lru_cache(maxsize=8)
def _tables(ruleset: Ruleset, strict: bool) -> CompiledRules:
    """The ruleset compiled once per process."""
    return compile_ruleset(ruleset, strict=strict)


class _CompiledTable:
    """One session's seats on the compiled engine."""

    def __init__(self, spec: RunSpec, rng: random.Random, tables: CompiledRules) -> None:
        self.t = tables
        self.n = spec.players
        self.choosers: list[Chooser] = [make_chooser(name, rng) for name in spec.strategies]
        self.bettors = [make_bettor(name, rng) for name in spec.strategies]
        self.sellers = [make_seller(name, rng) for name in spec.strategies]

    def deal(self, dealer: int, perm: list[int], seats: list[Chips],
             sections: list[Chips]) -> DealResult:
        return play_deal(self.t, self.n, dealer, perm, seats, sections, self.choosers,
                         bettors=self.bettors, sellers=self.sellers)


class _ReferenceTable:
    """One session's seats on the reference engine, with the same players and cards."""

    def __init__(self, spec: RunSpec, rng: random.Random, tables: CompiledRules,
                 ruleset: Ruleset) -> None:
        self.spec = spec
        self.ruleset = ruleset
        self.t = tables
        self.movers: list[Strategy] = [
            reference_strategy(name, rng, tables) for name in spec.strategies]

    def deal(self, dealer: int, perm: list[int], seats: list[Chips],
             sections: list[Chips]) -> DealResult:
        names = self.t.section_names
        ledger = Ledger(tuple(seats), tuple(zip(names, sections, strict=True)))
        deck = [self.t.cards[c] for c in perm]
        state, events = reference_play_deal(self.ruleset, self.spec.players, dealer,
                                            ledger, deck, self.movers)
        seats[:] = state.ledger.seats
        sections[:] = [amount for _, amount in state.ledger.sections]
        return _result(names, ledger, events)


def _result(names: tuple[str, ...], ledger: Ledger, events: Sequence[Event]) -> DealResult:
    """A :class:`DealResult` read from the reference engine's events.

    A section counts as taken by a claim, or by any other chips moved from it
    to a seat (a poker pot, a holding share) except a stop bonus, as in the
    compiled engine.
    """
    put: dict[str, Chips] = dict.fromkeys(names, 0)
    taken: dict[str, Chips] = {}
    winner, plays, leads, passes = -1, 0, 0, 0
    for e in events:
        if isinstance(e, Ante) and isinstance(e.transfer.dst, SectionAccount):
            put[e.transfer.dst.name] += e.transfer.amount
        elif isinstance(e, Claim):
            taken[e.section] = taken.get(e.section, 0) + e.amount
        elif isinstance(e, Lead | Play):
            plays += 1
            leads += isinstance(e, Lead)
        elif isinstance(e, Pass):
            passes += 1
        elif isinstance(e, DealEnd):
            winner = -1 if e.winner is None else e.winner
        elif not isinstance(e, StopPaid):  # a pot won at poker, a share of a holding
            for t in transfers_in(e):
                if isinstance(t.src, SectionAccount) and isinstance(t.dst, SeatAccount):
                    taken[t.src.name] = taken.get(t.src.name, 0) + t.amount
    after_ante = tuple(amount + put[name] for name, amount in ledger.sections)
    return DealResult(winner, plays, leads, passes, after_ante,
                      tuple(taken.get(name, -1) for name in names))


# ---------------------------------------------------------------- sessions and chunks


def play_session(spec: RunSpec, j: int, stats: RunStats, tables: CompiledRules,
                 kernel: KernelTables | None = None) -> None:
    """Play session ``j`` of the run into ``stats`` (spec §10: cut, rotation, end, split).

    ``tables``: the ruleset compiled (``strict=False`` for the reference engine);
    ``kernel``: its kernel arrays (the ``kernel`` engine; default: made here, once per
    process).
    """
    rules, n = spec.ruleset, spec.players
    rng = random.Random(f"{spec.seed}:{j}")
    table: _Table = (_ReferenceTable(spec, rng, tables, _drawn(rules, rng))
                     if spec.engine == "reference" else _CompiledTable(spec, rng, tables))
    dealer = _first_dealer(rules, tables, n, rng)
    start = rules.session.start_chips
    seats: list[Chips] = [start] * n
    sections: list[Chips] = [0] * len(rules.board)
    step = ROTATION_STEPS[rules.deal.rotation]
    pack = range(tables.n_cards)
    draw = rng.random

    def one_deal() -> None:
        nonlocal dealer
        # a uniform shuffle: the cards sorted by independent uniform keys (twice as fast
        # as random.shuffle; equal keys, chance about 2^-42 a deal, keep the pack's order)
        perm = sorted(pack, key=lambda _: draw())
        before = tuple(seats)
        r = table.deal(dealer, perm, seats, sections)
        stats.add_deal(dealer, before, seats, r.winner, r.plays, r.leads, r.passes,
                       r.after_ante, r.taken, sections)
        dealer = _next_dealer(rules, seats, dealer, step)

    cap, played, ended = spec.cap(j), 0, False
    if spec.engine == "kernel":  # the same deals, many a call; an extra deal: as compiled
        kt = kernel or _kernel_tables(rules, n)
        played, ended, dealer = _kernel_deals(spec, kt, rng, stats, dealer, seats, sections,
                                              step, cap)
    while played < cap and not ended:
        one_deal()
        played += 1
        ended = _ended(rules, seats)
    if (played < spec.session_length and not ended) or rules.session.end_never:
        return  # the run's last session, cut short, or a session with no end: no session end
    if TIE_DEALS[rules.session.ties] and len(_best(_final(rules, seats, sections))) > 1:
        _split(rules, seats, sections)
        one_deal()  # spec §10: at most one extra deal, then the leftover is split again
    final = _final(rules, seats, sections)
    stats.add_session(n * start, final, _best(final))


KERNEL_DEALS = 1024
"""At most this many deals one call of the kernel plays (its per-deal arrays' length)."""


def _kernel_deals(spec: RunSpec, kt: KernelTables, rng: random.Random, stats: RunStats, dealer: int,
                  seats: list[Chips], sections: list[Chips], step: int,
                  cap: int) -> tuple[int, bool, int]:
    """Play up to ``cap`` deals of a session on the kernel (:func:`~boodle.compiled.kernel.
    run_session`) into ``stats``, as :func:`play_session`'s loop plays them on the compiled
    engine: (deals played, whether the session ended, the next dealer).

    The kernel stops after a deal that may end the session (a seat at or below 0 when an
    end rule or elimination reads that, a seat at the target); the end and the next
    dealer are then decided here by :func:`_ended` and :func:`_next_dealer` (spec §10).
    """
    from boodle.compiled.kernel import run_session, set_mt_state

    rules, session = spec.ruleset, spec.ruleset.session
    low_end, target = kernel_stops(spec)
    played, ended, words = 0, False, None
    antes: list[list[int]] = kt.put.tolist()
    while played < cap and not ended:
        before: Sequence[Chips] = tuple(seats)
        board: Sequence[Chips] = list(sections)
        ints_seats, ints_sections = [int(x) for x in seats], [int(x) for x in sections]
        try:
            got = run_session(kt, spec.strategies, rng, ints_seats, ints_sections, dealer,
                              step, min(cap - played, KERNEL_DEALS), low_end, target,
                              jit=spec.jit, advance=False, mt=words)
            words = got.mt
        except ValueError as exc:
            raise BoodleError(f"{rules.name}: {exc}") from None
        seats[:], sections[:] = ints_seats, ints_sections
        for d, deal_dealer in enumerate(got.dealers):
            after = got.seats[d]
            plays, leads, passes = got.counts[d]
            ante = antes[deal_dealer]
            stats.add_deal(deal_dealer, before, after, got.winners[d], plays, leads, passes,
                           [a + b for a, b in zip(board, ante, strict=True)], got.taken[d],
                           got.sections[d])
            before, board = after, got.sections[d]
        played += len(got.dealers)
        dealer = _next_dealer(rules, seats, got.dealers[-1], step)
        ended = _ended(rules, seats)
    if words is not None and TIE_DEALS[session.ties]:
        set_mt_state(rng, words)  # what an extra deal (spec §10) draws from, as compiled
    return played, ended, dealer


def kernel_stops(spec: RunSpec) -> tuple[bool, int]:
    """(``low_end``, ``target``): after which deals the kernel hands a session back for
    :func:`_ended` to decide its end (spec §10): a seat at or below 0 chips when an end
    rule or an elimination reads that; a seat at or above ``target`` chips (else 2**62)."""
    session = spec.ruleset.session
    ends = session.ends()
    low_end = (BALANCE_FACTS[session.negative].eliminates or "no chips" in ends
               or "last with chips" in ends)
    target = (int(session.end_target) if "target" in ends and session.end_target is not None
              else 1 << 62)
    return low_end, target


def _ended(rules: Ruleset, seats: Sequence[Chips]) -> bool:
    """Whether the session ends after a deal that left ``seats`` (spec §10, as
    :meth:`boodle.session.run.SessionRun.more_deals`)."""
    session = rules.session
    fewest = 2 if session.end_last_with_chips else rules.players.low
    return ends_after(session, seats) or len(_still_in(rules, seats)) < fewest


def _still_in(rules: Ruleset, seats: Sequence[Chips]) -> list[int]:
    """The seats still in (spec §10): all, or under ``balance: eliminated at zero`` those
    whose balance is above zero (as :func:`boodle.engine.stages.dealing.eliminated` says)."""
    still_in = BALANCES[rules.session.negative].still_in
    return [s for s, x in enumerate(seats) if still_in(x)]


def _next_dealer(rules: Ruleset, seats: Sequence[Chips], dealer: int, step: int) -> int:
    """The deal passes by ``rotation`` to the next player still in (spec §5.1, §10)."""
    n, still_in = len(seats), set(_still_in(rules, seats))
    for _ in range(n):
        dealer = (dealer + step) % n
        if dealer in still_in:
            return dealer
    return dealer


def _drawn(rules: Ruleset, rng: random.Random) -> Ruleset:
    """``rules`` with this session's boodles drawn from a second pack, if it has any (spec §3)."""
    from boodle.session.second_pack import DRAWN, draw_boodles

    if not any(DRAWN[s.suit_rule] for s in rules.board):
        return rules

    return draw_boodles(rules, rng)[0]


def _first_dealer(rules: Ruleset, tables: CompiledRules, n: int, rng: random.Random) -> int:
    """The session's first dealer by the variant's rule (spec §5.1).

    The high cut is drawn here on card indices (:func:`high_cut`); ``first dealt`` is the
    session module's :func:`~boodle.session.run.first_dealer` (:data:`FIRST_DEALERS`).
    """
    return FIRST_DEALERS[rules.deal.first_dealer](rules, tables, n, rng)


FIRST_DEALERS: dict[FirstDealer, Callable[[Ruleset, CompiledRules, int, random.Random], int]] = {
    "high cut": lambda rules, tables, n, rng: high_cut(tables.ranks, n, rng),
    "first dealt": lambda rules, tables, n, rng: first_dealer(rules, n, rng)[0],
}
"""How the simulator draws each first-dealer rule (spec §5.1), one row per member of
:data:`FirstDealer`."""


def high_cut(ranks: Sequence[int], players: int, rng: random.Random) -> int:
    """The first dealer (spec §5.1, 001 §03): each seat draws a card, the highest rank deals.

    ``ranks``: each card's rank index.  Tied seats draw again, in seat order,
    from a fresh pack, until one is highest (the rule of
    :func:`boodle.session.run.first_dealer`, drawing only the cards drawn).
    """
    tied = list(range(players))
    deck = range(len(ranks))
    while len(tied) > 1:
        drawn = [ranks[c] for c in rng.sample(deck, len(tied))]
        best = max(drawn)
        tied = [s for s, r in zip(tied, drawn, strict=False) if r == best]
    return tied[0]


def _final(rules: Ruleset, seats: Sequence[Chips], sections: Sequence[Chips]) -> list[Chips]:
    """Each seat's final balance times n, after the leftover's equal split (001 §06, spec §10).

    Scaled by the number of seats n so that shares of the leftover stay whole
    numbers (exact fractions when players were eliminated: only the players
    still in share); ``leftover: stays`` leaves the board out of the standings.
    """
    n = len(seats)
    sharers = _still_in(rules, seats)
    left = sum(sections) if LEFTOVER_SPLITS[rules.session.leftover] and sharers else 0
    share = Fraction(n * left, len(sharers)) if sharers else Fraction(0)
    whole = share.numerator if share.denominator == 1 else share
    return [n * x + (whole if s in sharers else 0) for s, x in enumerate(seats)]


def _split(rules: Ruleset, seats: list[Chips], sections: list[Chips]) -> None:
    """``leftover: split equally`` before an extra deal: exact shares to those still in."""
    sharers = _still_in(rules, seats)
    if not LEFTOVER_SPLITS[rules.session.leftover] or not sharers:
        return
    for k, amount in enumerate(sections):
        for s in sharers:
            seats[s] += Fraction(amount) / len(sharers)
        sections[k] = 0


def _best(seats: Sequence[Chips]) -> list[int]:
    top = max(seats)
    return [s for s, x in enumerate(seats) if x == top]


def run_chunk(spec: RunSpec, first: int, last: int) -> RunStats:
    """Play sessions ``first`` .. ``last`` - 1 of the run: their statistics."""
    stats = RunStats.empty(spec.players, [s.name for s in spec.ruleset.board], spec.strategies)
    tables = _tables(spec.ruleset, spec.engine != "reference")
    kernel = _kernel_tables(spec.ruleset, spec.players) if spec.engine == "kernel" else None
    if kernel is not None:
        from boodle.simulate.kernel_sessions import batched, play_sessions

        if batched(spec):  # many sessions a kernel call
            play_sessions(spec, first, last, stats, tables, kernel)
            return stats
    for j in range(first, last):
        play_session(spec, j, stats, tables, kernel)
    return stats


def chunks(spec: RunSpec, chunk_deals: int = CHUNK_DEALS) -> Iterator[tuple[int, int]]:
    """The run's sessions cut into (first, last) ranges of about ``chunk_deals`` deals, made
    as they are asked for: ``--deals 10**12`` is 5·10⁸ chunks, never a list of them."""
    per = max(1, chunk_deals // spec.session_length)
    return ((a, min(a + per, spec.sessions)) for a in range(0, spec.sessions, per))


def _deals_in(spec: RunSpec, first: int, last: int) -> int:
    """Deals of sessions ``first`` .. ``last`` - 1: whole sessions, the run's last cut short."""
    whole = max(0, min(last, spec.deals // spec.session_length) - first)
    return whole * spec.session_length + sum(spec.cap(j) for j in range(first + whole, last))


Progress = Callable[[int], None]
"""Called with the number of deals just finished (for a progress bar)."""


def run(spec: RunSpec, workers: int = 1, progress: Progress | None = None,
        chunk_deals: int = CHUNK_DEALS) -> RunStats:
    """The run's statistics, serially (``workers=1``) or in ``workers`` processes.

    The numbers do not depend on ``workers`` or ``chunk_deals``.  Memory is bounded by the
    chunks in flight (``2 × workers``), whatever ``spec.deals`` is.
    """
    total = RunStats.empty(spec.players, [s.name for s in spec.ruleset.board], spec.strategies)
    parts = chunks(spec, chunk_deals)
    if workers <= 1:
        for a, b in parts:
            total.merge(run_chunk(spec, a, b))
            if progress:
                progress(_deals_in(spec, a, b))
        return total
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        with _terminated_as_interrupted():
            for (a, b), stats in _bounded(pool, spec, parts, 2 * workers):
                total.merge(stats)
                if progress:
                    progress(_deals_in(spec, a, b))
    except BaseException:
        _end_now(pool)
        raise
    pool.shutdown()
    return total


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """While the workers play, SIGTERM interrupts the run as SIGINT does (so the workers are
    ended with it, not left playing); only in the main thread, where handlers may be set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _end_now(pool: ProcessPoolExecutor) -> None:
    """End an interrupted run's workers at once: the chunks waiting are cancelled and those
    being played are not waited for (a chunk of the reference engine takes many seconds)."""
    processes = list(getattr(pool, "_processes", None) or {})  # pids; no public API in 3.11
    pool.shutdown(wait=False, cancel_futures=True)
    for pid in processes:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _bounded(pool: ProcessPoolExecutor, spec: RunSpec, parts: Iterator[tuple[int, int]],
             limit: int) -> Iterator[tuple[tuple[int, int], RunStats]]:
    """Results as chunks finish, with at most ``limit`` chunks in flight (memory stays flat)."""
    todo = iter(parts)
    running: dict[Future[RunStats], tuple[int, int]] = {}
    for part in todo:
        running[pool.submit(run_chunk, spec, *part)] = part
        if len(running) >= limit:
            break
    while running:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            part = running.pop(future)
            yield part, future.result()
            nxt = next(todo, None)
            if nxt is not None:
                running[pool.submit(run_chunk, spec, *nxt)] = nxt


def run_dask(spec: RunSpec, scheduler: Any, progress: Progress | None = None,
             chunk_deals: int = CHUNK_DEALS, in_flight: int | None = None) -> RunStats:
    """The same chunks on a Dask cluster (``scheduler``: an address or a ``Client``).

    Chunks are submitted as others finish, at most ``in_flight`` at a time (default: two
    per worker thread of the cluster, at least 4), so the client's memory and the
    scheduler's queue stay bounded whatever ``spec.deals`` is.  Needs the ``dask`` extra
    (``pip install 'boodle[dask]'``); raises :class:`BoodleError` without it.  The numbers
    equal :func:`run`'s.
    """
    dd = dask_distributed()
    client = scheduler if isinstance(scheduler, dd.Client) else dd.Client(scheduler)
    total = RunStats.empty(spec.players, [s.name for s in spec.ruleset.board], spec.strategies)
    parts = chunks(spec, chunk_deals)
    try:
        if in_flight is None:
            threads = sum(client.nthreads().values()) if hasattr(client, "nthreads") else 0
            in_flight = max(4, 2 * threads)
        futures: dict[Any, tuple[int, int]] = {}
        for part in itertools.islice(parts, in_flight):
            futures[client.submit(run_chunk, spec, *part, pure=False)] = part
        done = dd.as_completed(list(futures))
        for future in done:
            part = futures.pop(future)
            total.merge(future.result())
            future.release()
            if progress:
                progress(_deals_in(spec, *part))
            nxt = next(parts, None)
            if nxt is not None:
                new = client.submit(run_chunk, spec, *nxt, pure=False)
                futures[new] = nxt
                done.add(new)
    finally:
        if client is not scheduler:
            client.close()
    return total


def dask_distributed() -> Any:
    """The ``dask.distributed`` module; raises :class:`BoodleError` without the ``dask`` extra."""
    import importlib

    try:
        return importlib.import_module("dask.distributed")
    except ImportError:
        raise BoodleError("--backend dask needs dask.distributed",
                          hint="pip install 'boodle[dask]'") from None
