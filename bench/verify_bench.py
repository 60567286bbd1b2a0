"""Benchmark: how long ``boodle verify`` takes, variant by variant (issue 5; target < 60 s on one
core for all built-in variants).

Run from the repository root (``PYTHONPATH=reference`` or an installed boodle)::

    python bench/verify_bench.py                   # every built-in variant, default bounds
    python bench/verify_bench.py michigan rummoli  # some variants
    python bench/verify_bench.py --json bench-verify.json
    python bench/verify_bench.py --only exhaustive  # one method (the other's columns read 0)
    python bench/verify_bench.py --targets          # issue 23's figures, each with its target
    python bench/verify_bench.py --targets --against /path/to/old/reference  # and a ratio

``--targets`` times the ``boodle verify`` command itself, each run a fresh process (CPU of
it and its workers, and wall, with the machine's load before and after each run): a first
run with an empty proof cache and ``--jobs 1`` (target: every built-in within
:data:`TARGET` CPU seconds), a second run of the same rules reading the cache back
(:data:`SECOND_TARGET`), and a run with ``--no-cache --jobs 2`` (wall at most
:data:`JOBS_TARGET` × the first run's, when two cores are free: the load says whether they
were).  ``--against DIR`` also makes the first run with the boodle of the ``reference/``
folder ``DIR`` (an older checkout), in the same sitting, and prints the CPU ratio.

The engine = model check (issue 16) is measured as what it adds to the exhaustive search
(the search with the check, less the search without it: its comparisons on the searched
states, and its random deals at every count).

It runs the same checks as ``boodle verify`` in one process (one core) and
prints, per variant: CPU and wall seconds of the z3 proofs and of the
exhaustive search, the states searched and the states per second, then the
totals against the target and how many z3 proofs were made (of the chip
conjuncts: one per board, payments and player count; of everything else: one
per way cards move and player count; see spec/verification.md).  CPU time is
the honest measure on a shared machine; wall time is printed too.  Not a unit
test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reference"))

from boodle.language.variants import builtin_names, load  # noqa: E402
from boodle.verify.verifier import Options, Subject, verify  # noqa: E402

TARGET = 60.0
"""Seconds for every built-in variant on one core (issue 5)."""

SECOND_TARGET = 2.0
"""CPU seconds of a second ``boodle verify`` of unchanged rules (the proof cache, issue 23)."""

JOBS_TARGET = 0.6
"""Most wall time of ``--jobs 2`` against ``--jobs 1`` when two cores are free (issue 23)."""


def _measure(subject: Subject, options: Options, cache: dict[Any, list[Any]],
             only: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {"variant": subject.name, "states": 0, "decks": [], "not proven": []}
    for method, opts in (("z3", Options(z3=True, exhaustive=False, engine=False,
                                        players=options.players)),
                         ("exhaustive", Options(z3=False, exhaustive=True, engine=False,
                                                players=options.players)),
                         ("engine", Options(z3=False, exhaustive=True, engine=True,
                                            players=options.players))):
        if only is not None and method != only:
            row.update({f"{method} cpu": 0.0, f"{method} wall": 0.0,
                        f"{method} counterexamples": 0})
            continue
        cpu, wall = time.process_time(), time.perf_counter()
        results = verify([subject], opts, cache)
        row[f"{method} cpu"] = round(time.process_time() - cpu, 2)
        row[f"{method} wall"] = round(time.perf_counter() - wall, 2)
        row[f"{method} counterexamples"] = sum(r.status == "counterexample" for r in results)
        if method == "engine":
            continue
        if method == "exhaustive":
            runs = {(r.players, r.deck): r.states for r in results if r.method == "exhaustive"}
            row["states"] = sum(runs.values())
            row["decks"] = sorted({deck for _, deck in runs})
        else:
            row["not proven"] = sorted({f"{r.players}p {r.prop}" for r in results
                                        if r.method == "z3" and r.status != "proven"})
    # the engine = model check's own cost: the exhaustive search with it, less without it
    row["engine cpu"] = round(max(0.0, row["engine cpu"] - row["exhaustive cpu"]), 2)
    row["engine wall"] = round(max(0.0, row["engine wall"] - row["exhaustive wall"]), 2)
    row["cpu"] = round(row["z3 cpu"] + row["exhaustive cpu"] + row["engine cpu"], 2)
    row["states/cpu s"] = (round(row["states"] / row["exhaustive cpu"])
                           if row["exhaustive cpu"] else 0)
    row["states/wall s"] = (round(row["states"] / row["exhaustive wall"])
                            if row["exhaustive wall"] else 0)
    return row


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _timed(args: list[str], reference: Path | None = None) -> dict[str, Any]:
    """``boodle verify ARGS`` in a fresh process (``reference``: the ``reference/`` folder
    whose boodle runs, default this checkout's): exit status, CPU seconds of it and its
    workers, wall seconds, the load before and after."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(reference or Path(__file__).resolve().parents[1] / "reference")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load, wall = _load(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "boodle.cli", "verify", *args],
                          capture_output=True, text=True, env=env)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"exit": done.returncode, "cpu": round(cpu, 2), "wall": round(wall, 2),
            "load before": load, "load after": _load(),
            "from cache": done.stderr.count("from the proof cache")}


def _figure(name: str, row: dict[str, Any], target: str, met: bool) -> str:
    return (f"{name}: {row['cpu']:.1f} s CPU, {row['wall']:.1f} s wall (target {target}): "
            f"{'met' if met else 'missed'}; exit {row['exit']}; load {row['load before']} "
            f"before, {row['load after']} after")


def targets(names: list[str], against: Path | None) -> dict[str, Any]:
    """Issue 23's figures of ``boodle verify`` (see the module docstring), printed each with
    its target; returned as a dictionary."""
    what = "every built-in" if not names else ", ".join(names)
    print(f"boodle verify of {what}; {os.cpu_count()} cores; load {_load()}", flush=True)
    out: dict[str, Any] = {"variants": names or "every built-in"}
    with tempfile.TemporaryDirectory() as tmp:
        cached = [*names, "--cache", tmp, "--jobs", "1"]
        first = out["first"] = _timed(cached)
        line = _figure("first run (--jobs 1, empty proof cache)", first,
                       f"<= {TARGET:g} s CPU for every built-in", first["cpu"] <= TARGET)
        if names:  # the target is for every built-in: a subset says nothing of it
            line = line.replace(": met;", ": not judged (a subset);").replace(
                ": missed;", ": not judged (a subset);")
        print(line, flush=True)
        second = out["second"] = _timed(cached)
        print(_figure(f"second run, unchanged rules ({second['from cache']} runs from the "
                      "proof cache)", second, f"<= {SECOND_TARGET:g} s CPU",
                      second["cpu"] <= SECOND_TARGET), flush=True)
    jobs = out["jobs 2"] = _timed([*names, "--no-cache", "--jobs", "2"])
    ratio = out["jobs 2 / jobs 1 wall"] = round(jobs["wall"] / first["wall"], 3)
    print(_figure(f"--jobs 2, no cache: wall {ratio:.2f} x the first run's", jobs,
                  f"wall <= {JOBS_TARGET:g} x --jobs 1 with two cores free",
                  ratio <= JOBS_TARGET), flush=True)
    if against is not None:
        old = out["against"] = _timed([*names, "--no-cache", "--jobs", "1"], against)
        cpu_ratio = out["cpu ratio to against"] = round(first["cpu"] / old["cpu"], 3)
        print(_figure(f"the same first run with {against}", old, "none: the baseline",
                      True), flush=True)
        print(f"CPU of this checkout / {against}: {cpu_ratio:.3f}; wall "
              f"{first['wall'] / old['wall']:.3f}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    # the docstring's first paragraph, a whole sentence over two lines, as plain text
    summary = " ".join((__doc__ or "").split("\n\n")[0].split()).replace("``", "'")
    parser = argparse.ArgumentParser(description=summary)
    parser.add_argument("variants", nargs="*", help="default: every built-in variant")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--only", choices=("z3", "exhaustive", "engine"),
                        help="measure one method only (engine: with the exhaustive search)")
    parser.add_argument("--targets", action="store_true",
                        help="time the boodle verify command: a first run, a second run from "
                        "the proof cache, --jobs 2; each figure with its target")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="with --targets: also time the first run with the boodle of this "
                        "reference/ folder, for a before/after ratio in one sitting")
    args = parser.parse_args(argv)
    if args.targets:
        got = targets(args.variants, args.against)
        if args.json:
            args.json.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
        return 0
    names = args.variants or builtin_names()
    options = Options(players=tuple(args.players) if args.players else None)
    cache: dict[Any, list[Any]] = {}
    rows = []
    print(f"{'variant':<28} {'z3 cpu':>8} {'exh cpu':>8} {'eng cpu':>8} {'states':>9} "
          f"{'states/cpu s':>12} {'states/wall s':>13}  wall")
    for name in names:
        row = _measure(Subject(name, load(name)), options, cache, args.only)
        rows.append(row)
        wall = row["z3 wall"] + row["exhaustive wall"] + row["engine wall"]
        print(f"{name:<28} {row['z3 cpu']:>8.1f} {row['exhaustive cpu']:>8.1f} "
              f"{row['engine cpu']:>8.1f} "
              f"{row['states']:>9,} {row['states/cpu s']:>12,} {row['states/wall s']:>13,}  "
              f"{wall:.1f}"
              + (f"  not proven: {row['not proven']}" if row["not proven"] else ""), flush=True)
    z3_cpu = sum(r["z3 cpu"] for r in rows)
    ex_cpu = sum(r["exhaustive cpu"] for r in rows)
    eng_cpu = sum(r["engine cpu"] for r in rows)
    total = z3_cpu + ex_cpu + eng_cpu
    print(f"{'total':<28} {z3_cpu:>8.1f} {ex_cpu:>8.1f} {eng_cpu:>8.1f} "
          f"{sum(r['states'] for r in rows):>9,}")
    print(f"CPU {total:.1f} s for {len(rows)} variants"
          + (f", {args.only} only" if args.only else "") + f" (target {TARGET:.0f} s): "
          + ("met" if total <= TARGET else f"missed by {total - TARGET:.0f} s")
          + f"; z3 proofs: {sum(k[0] == 'chips' for k in cache)} of chip conjuncts, "
          f"{sum(k[0] == 'card dynamics' for k in cache)} of card dynamics")
    if args.json:
        doc = {"machine": platform.platform(), "python": platform.python_version(),
               "target seconds": TARGET, "cpu seconds": round(total, 2),
               "z3 cpu seconds": round(z3_cpu, 2), "exhaustive cpu seconds": round(ex_cpu, 2),
               "engine = model cpu seconds": round(eng_cpu, 2),
               "z3 proofs": {kind: sum(k[0] == kind for k in cache)
                             for kind in ("chips", "card dynamics")},
               "rows": rows}
        args.json.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
