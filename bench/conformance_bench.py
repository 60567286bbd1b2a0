"""Conformance throughput: cases per second against the reference, in session mode.

    python bench/conformance_bench.py                  # every case once
    python bench/conformance_bench.py --repeat 3       # every case three times
    python bench/conformance_bench.py --one-core       # runner and reference pinned to CPU 0
    python bench/conformance_bench.py --kind script    # only one kind of case

Reports the wall-clock rate of ``boodle conformance run`` (protocol, schema
checks and comparison included) against ``boodle conformance serve``, the CPU
seconds each side spent, and the rate of the reference alone in-process (no
protocol, CPU time), per kind of case.  The reference's start-up (answering
``start``: reading every variant and trying a deal of each) is measured in a
session of its own and reported apart, since it is paid once per session.
CPU figures are the ones to compare on a shared machine: wall time there
depends on what else runs.  "Both sides' CPU" is what one core would need for
the run, so ``cases / (runner + reference CPU)`` is the one-core rate.

The target of issue 6 is 2,000 cases/s on one core; the numbers printed are
what this machine does.  Measured 2026-11-30, 1,617 cases, ``--one-core``, in
one run each: before the runner's fast paths the runner spent 3.21 s of CPU
(1.99 ms a case) and the reference 8.01 s, 144 cases per CPU-second for both
sides; after them the runner spends 0.50 s (0.31 ms a case) and the reference
7.98 s (1.21 s of it start-up, then 4.18 ms a case), 191 cases per
CPU-second, 223 with start-up apart.  Later the same day, 1,758 cases: runner
0.35 ms a case, reference 3.19 ms a case and 1.25 s of start-up, 235 cases per
CPU-second for both sides (282 with start-up apart); in-process, count 67/s,
reject 737/s, script 449/s.  What is left is the reference engine itself
(about 20 us a move; counting visits some 600 states a case) and pokerkit's
showdowns (every five-card combination of a hand, the evaluator the project
uses by rule: our own evaluator, tried, made reject cases three times faster
and was taken out again), about an eighth of the target.  Later again (pokerkit
asked once per rank multiset and suitedness instead of once per combination):
both sides' CPU 355-362 cases/s, 430-441 with start-up apart; in-process count
78-80/s, reject 1909-2196/s, script 954-1011/s.  With the 21 session cases and
2 more reject cases (1,781 cases), on a machine shared with other work: both
sides' CPU 340-351 cases/s, 428-449 with start-up apart; session cases 333-364/s
in-process.  2026-12-02 (issue 23: one state copy a move, the playable check once per
ruleset, fewer look-ups a move), before and after in one run each, 2,940 cases, on a
machine at load 9-13: both sides' CPU 298 -> 340 cases/s (reference 2.57 -> 2.18 ms a
case, start-up apart), in-process count 66 -> 82/s; what is left is spread over the
engine's calls (about 125 a move of a count case: the card move, the stage and claim
look-ups, the events, the ledger), no single one above a tenth.

The last line is the **protocol ceiling**: the same run against
``bench/replay_adapter.py``, which answers each case from the reference's
answers recorded beforehand and plays nothing.  It was 2,758-2,866 cases per
CPU-second for both sides (runner 0.18 ms, adapter 0.17 ms a case): to reach
2,000 cases/s an adapter may spend about 0.15 ms a case on the rules, where the
reference spends about 2 ms (count cases 12.5 ms each, script cases 1 ms,
reject cases 0.5 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections import Counter

from boodle.conformance import PROTOCOL
from boodle.conformance.cases import Case, load_cases
from boodle.conformance.engines import REFERENCE
from boodle.conformance.impl_process import Child
from boodle.conformance.paths import load_variant
from boodle.conformance.play_case import execute
from boodle.conformance.run_suite import run_suite
from boodle.conformance.serve import started

TARGET_CASES_PER_CPU_SECOND = 2000
"""Issue 23: conformance cases per CPU-second, runner and reference together."""


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def in_process(cases: list[Case]) -> dict[str, float]:
    """Cases per CPU-second of the reference alone (no protocol), per kind.

    Every variant is loaded before the clock starts, as a session's start-up does.
    """
    for variant in {c.variant for c in cases}:
        load_variant(variant)
    rates: dict[str, float] = {}
    for kind in sorted({c.kind for c in cases}):
        chosen = [c for c in cases if c.kind == kind]
        t0 = time.process_time()
        for case in chosen:
            execute(case.request())
        rates[kind] = len(chosen) / max(time.process_time() - t0, 1e-9)
    return rates


def start_up(command: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a session that only says ``start`` and ``stop``."""
    children0 = _cpu(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    child = Child(command)
    try:
        child.send_text(json.dumps({"type": "start", "protocol": PROTOCOL}) + "\n")
        line = child.read_line(120.0)
        if line.kind != "line" or json.loads(line.text).get("type") != "started":
            raise SystemExit(f"the reference did not start: {line}")
        wall = time.perf_counter() - t0
        child.send_text(json.dumps({"type": "stop"}) + "\n")
        child.finish(5.0)
    finally:
        child.kill()
    return wall, _cpu(resource.RUSAGE_CHILDREN) - children0


def ceiling(cases: list[Case], repeat: int) -> tuple[float, float, float]:
    """The protocol path alone: the suite against ``bench/replay_adapter.py``.

    The reference's answers are recorded first (not timed); the adapter then
    answers each case by looking its id up.  Returns (wall seconds, runner CPU
    seconds, adapter CPU seconds) for the run, the adapter's start-up (reading
    the recorded answers) included in its CPU.
    """
    results = {}
    for case in cases:
        for v in {case.variant}:
            load_variant(v)
        results[case.id] = execute(case.request())
    adapter = os.path.join(os.path.dirname(os.path.abspath(__file__)), "replay_adapter.py")
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8",
                                     delete=False) as f:
        json.dump({"started": started(REFERENCE), "results": results}, f, ensure_ascii=False)
    try:
        self0, children0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        report = run_suite(cases * repeat, f"{sys.executable} {adapter} {f.name}", timeout=60)
        runner = _cpu(resource.RUSAGE_SELF) - self0
        replay = _cpu(resource.RUSAGE_CHILDREN) - children0
    finally:
        os.unlink(f.name)
    if not report.ok():
        raise SystemExit(f"the replay adapter did not pass: {dict(report.counts())}")
    return report.seconds, runner, replay


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--one-core", action="store_true", help="pin everything to CPU 0")
    parser.add_argument("--kind", choices=("script", "reject", "count", "session"))
    args = parser.parse_args()
    if args.one_core:
        os.sched_setaffinity(0, {0})
    t0 = time.perf_counter()
    cases = [c for c in load_cases() if args.kind is None or c.kind == args.kind]
    loading = time.perf_counter() - t0
    runs = cases * args.repeat
    command = f"{sys.executable} -m boodle.cli conformance serve"
    startup_wall, startup_cpu = start_up(command)
    self0, children0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    report = run_suite(runs, command, timeout=60)
    runner_cpu = _cpu(resource.RUSAGE_SELF) - self0
    serve_cpu = _cpu(resource.RUSAGE_CHILDREN) - children0
    counts = report.counts()
    kinds = Counter(c.kind for c in runs)
    print(f"cases: {len(runs)} ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}); "
          f"outcomes: {dict(counts)}")
    print(f"loading and checking the case files: {loading:.2f} s")
    print("machine load (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
          + f" on {os.cpu_count()} cores (wall figures move with it, cpu figures much less)")
    print(f"session mode: {report.seconds:.2f} s wall, {len(runs) / report.seconds:.0f} cases "
          "per wall second"
          f"{' (one core)' if args.one_core else ''}")
    print(f"  cpu: runner {runner_cpu:.2f} s, reference (serve, incl. start-up) {serve_cpu:.2f} s"
          f" -> {len(runs) / max(serve_cpu, 1e-9):.0f} cases per reference cpu-second")
    n = len(runs)
    steady = max(serve_cpu - startup_cpu, 1e-9)
    print(f"  reference start-up alone (start -> started, own session): {startup_cpu:.2f} s cpu, "
          f"{startup_wall:.2f} s wall")
    print(f"  per case: runner {1000 * runner_cpu / n:.2f} ms cpu, reference "
          f"{1000 * steady / n:.2f} ms cpu (start-up apart)")
    print(f"  both sides' cpu: {n / max(runner_cpu + serve_cpu, 1e-9):.0f} cases per cpu-second; "
          f"start-up apart: {n / max(runner_cpu + steady, 1e-9):.0f} cases per cpu-second")
    both = n / max(runner_cpu + serve_cpu, 1e-9)
    print(f"  target (issue 23): >= {TARGET_CASES_PER_CPU_SECOND} cases per cpu-second, "
          f"both sides; measured {both:.0f}")
    per_kind = {k: sum(o.seconds for o in report.outcomes if o.kind == k) for k in kinds}
    print("  per kind (cases per wall second): " + ", ".join(
        f"{k} {kinds[k] / max(s, 1e-9):.0f}/s" for k, s in sorted(per_kind.items())))
    rates = in_process(cases)
    print("reference alone, in-process (cases per cpu-second): " + ", ".join(
        f"{k} {r:.0f}/s" for k, r in sorted(rates.items())))
    wall, runner, replay = ceiling(cases, args.repeat)
    print(f"protocol ceiling (bench/replay_adapter.py answers from recorded results, no engine): "
          f"{n / wall:.0f} cases/s wall; cpu: runner {1000 * runner / n:.2f} ms, adapter "
          f"{1000 * replay / n:.2f} ms a case -> {n / max(runner + replay, 1e-9):.0f} cases "
          f"per cpu-second for both sides")
    return 0 if report.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())
