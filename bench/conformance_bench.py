"""Conformance throughput: cases per second against the reference, in session mode.

    python bench/conformance_bench.py                  # every case once
    python bench/conformance_bench.py --repeat 3       # every case three times
    python bench/conformance_bench.py --one-core       # runner and reference pinned to CPU 0
    python bench/conformance_bench.py --kind script    # only one kind of case

Reports the wall-clock rate of ``boodle conformance run`` (protocol, schema
checks and comparison included) against ``boodle conformance serve``, the CPU
seconds each side spent, and the rate of the reference alone in-process (no
protocol), per kind of case.  The target of issue 6 is 2,000 cases/s on one
core; the numbers printed are what this machine does.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections import Counter

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.execute import execute
from boodle.conformance.runner import run_suite


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def in_process(cases: list[Case]) -> dict[str, float]:
    """Cases per second of the reference alone, per kind."""
    rates: dict[str, float] = {}
    for kind in sorted({c.kind for c in cases}):
        chosen = [c for c in cases if c.kind == kind]
        t0 = time.perf_counter()
        for case in chosen:
            execute(case.request())
        rates[kind] = len(chosen) / (time.perf_counter() - t0)
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--one-core", action="store_true", help="pin everything to CPU 0")
    parser.add_argument("--kind", choices=("script", "reject", "count"))
    args = parser.parse_args()
    if args.one_core:
        os.sched_setaffinity(0, {0})
    t0 = time.perf_counter()
    cases = [c for c in load_cases() if args.kind is None or c.kind == args.kind]
    loading = time.perf_counter() - t0
    runs = cases * args.repeat
    command = f"{sys.executable} -m boodle.cli conformance serve"
    self0, children0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    report = run_suite(runs, command, timeout=60)
    runner_cpu = _cpu(resource.RUSAGE_SELF) - self0
    serve_cpu = _cpu(resource.RUSAGE_CHILDREN) - children0
    counts = report.counts()
    kinds = Counter(c.kind for c in runs)
    print(f"cases: {len(runs)} ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}); "
          f"outcomes: {dict(counts)}")
    print(f"loading and checking the case files: {loading:.2f} s")
    print(f"session mode: {report.seconds:.2f} s wall, {len(runs) / report.seconds:.0f} cases/s"
          f"{' (one core)' if args.one_core else ''}")
    print(f"  cpu: runner {runner_cpu:.2f} s, reference (serve, incl. start-up) {serve_cpu:.2f} s"
          f" -> {len(runs) / max(serve_cpu, 1e-9):.0f} cases per reference cpu-second")
    per_kind = {k: sum(o.seconds for o in report.outcomes if o.kind == k) for k in kinds}
    print("  per kind (wall): " + ", ".join(
        f"{k} {kinds[k] / max(s, 1e-9):.0f}/s" for k, s in sorted(per_kind.items())))
    rates = in_process(cases)
    print("reference alone, in-process: " + ", ".join(
        f"{k} {r:.0f}/s" for k, r in sorted(rates.items())))
    return 0 if report.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())
