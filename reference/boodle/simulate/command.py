"""``boodle simulate``: the arguments, the run with a progress bar, and the outputs.

``boodle simulate VARIANT --players N --deals K [--seed S] [--strategy NAME…]
[--workers W] [--backend local|dask [--scheduler ADDRESS]] [--engine
auto|compiled|reference] [--json [F]] [--csv F] [--plot F.png]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BoodleError

if TYPE_CHECKING:
    from .runner import RunSpec
    from .stats import RunStats

PROGRESS_FROM = 2000
"""Runs of at least this many deals show a progress bar (on a terminal)."""


def add_parser(sub: Any) -> None:
    """Add the ``simulate`` subcommand to the ``boodle`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "simulate", help="play many deals and report statistics with confidence intervals",
        description="Play K deals (whole sessions, the dealer rotating) with the chosen players "
        "and report net chips per seat, strategy and position, going-out rates, each section's "
        "claim rate and carry-over, kitty size and plays per deal, with 95%% intervals. "
        "The same seed gives the same numbers serially, in processes or on Dask.")
    p.add_argument("variant", metavar="VARIANT", help="a built-in variant name or a .boodle file")
    p.add_argument("--players", type=int, required=True, metavar="N")
    p.add_argument("--deals", type=int, required=True, metavar="K")
    p.add_argument("--seed", type=int, default=0, metavar="S")
    p.add_argument("--strategy", nargs="+", default=["random"], metavar="NAME",
                   help="random, greedy or tips: one for every seat, or one per seat")
    p.add_argument("--workers", type=int, default=1, metavar="W",
                   help="parallel processes (default 1: serial)")
    p.add_argument("--backend", choices=["local", "dask"], default="local",
                   help="local processes (default) or a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler's address (default: a local cluster of W workers)")
    p.add_argument("--engine", choices=["auto", "compiled", "reference"], default="auto",
                   help="auto (default): the compiled engine where it runs the variant")
    p.add_argument("--json", nargs="?", const="-", metavar="F",
                   help="write the report as JSON to F (default: standard output)")
    p.add_argument("--csv", metavar="F", help="write the estimates as CSV rows to F ('-': stdout)")
    p.add_argument("--plot", metavar="F.png", help="draw the report into a .png or .svg file")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run the simulation and write the report(s); returns the exit status (0)."""
    from ..variants import load
    from .plot import save_plot
    from .report import render_csv, render_text, summary
    from .runner import make_spec

    if args.workers < 1:
        raise BoodleError("--workers must be at least 1")
    if args.scheduler and args.backend != "dask":
        raise BoodleError("--scheduler is for --backend dask")
    spec = make_spec(load(args.variant), args.players, args.deals, args.seed, args.strategy,
                     args.engine)
    if spec.engine == "reference" and args.engine == "auto":
        print(f"note: the compiled engine does not run {spec.ruleset.name}; "
              "using the reference engine (slower)", file=sys.stderr)
    started = time.perf_counter()
    stats = _run(spec, args)
    seconds = time.perf_counter() - started
    report = summary(spec, stats, workers=args.workers, backend=args.backend, seconds=seconds)
    if args.json != "-" and args.csv != "-":
        sys.stdout.write(render_text(report))
    if args.json is not None:
        _write(args.json, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if args.csv is not None:
        _write(args.csv, render_csv(report))
    if args.plot:
        save_plot(report, args.plot)
    return 0


def _run(spec: RunSpec, args: argparse.Namespace) -> RunStats:
    from .runner import run, run_dask

    bar = _progress_bar(spec.deals, args.no_progress)
    tick = None if bar is None else bar.update
    try:
        if args.backend == "dask":
            client = None if args.scheduler else _local_cluster(args.workers)
            try:
                return run_dask(spec, args.scheduler or client, tick)
            finally:
                if client is not None:
                    client.close()
                    client.cluster.close()
        return run(spec, args.workers, tick)
    finally:
        if bar is not None:
            bar.close()


def _progress_bar(deals: int, off: bool) -> Any:
    if off or deals < PROGRESS_FROM:
        return None
    from tqdm import tqdm

    return tqdm(total=deals, unit=" deals", unit_scale=True, file=sys.stderr, disable=None)


def _local_cluster(workers: int) -> Any:
    from .runner import dask_distributed

    dd = dask_distributed()
    return dd.Client(dd.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True))


def _write(target: str, text: str) -> None:
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BoodleError(f"cannot write {target}: {exc.strerror}") from None
