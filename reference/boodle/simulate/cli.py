"""``boodle simulate``: the arguments, the run with a progress bar, and the outputs.

``boodle simulate VARIANT --players N --deals K [--seed S] [--strategy NAME…]
[--workers W] [--backend local|dask [--scheduler ADDRESS [--connect-timeout S]]]
[--engine auto|kernel|compiled|reference] [--json [F]] [--csv F] [--plot F.png]``.

Counts out of range and ``--scheduler`` without ``--backend dask`` are usage
errors (argparse, exit 2); output files are checked before the run starts,
and a Dask scheduler that cannot be reached is a :class:`BoodleError` (exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boodle.argtypes import positive_int, positive_seconds
from boodle.language.errors import BoodleError

if TYPE_CHECKING:
    from boodle.simulate.runner import RunSpec
    from boodle.simulate.stats import RunStats

PROGRESS_FROM = 2000
"""Runs of at least this many deals show a progress bar (on a terminal)."""


def add_parser(sub: Any) -> None:
    """Add the ``simulate`` subcommand to the ``boodle`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "simulate", help="play many deals and report statistics with confidence intervals",
        description="Play K deals (whole sessions, the dealer rotating) with the chosen players "
        "and report net chips per seat, strategy and position, going-out rates, each section's "
        "claim rate and carry-over, kitty size and plays per deal, with 95% intervals. "
        "The same seed gives the same numbers serially, in processes or on Dask.")
    p.add_argument("variant", metavar="VARIANT", help="a built-in variant name or a .boodle file")
    p.add_argument("--players", type=positive_int, required=True, metavar="N")
    p.add_argument("--deals", type=positive_int, required=True, metavar="K")
    p.add_argument("--seed", type=int, default=0, metavar="S")
    p.add_argument("--strategy", nargs="+", default=["random"], metavar="NAME",
                   help="random, greedy or tips: one for every seat, or one per seat")
    p.add_argument("--workers", type=positive_int, default=1, metavar="W",
                   help="parallel processes (default 1: serial)")
    p.add_argument("--backend", choices=["local", "dask"], default="local",
                   help="local processes (default) or a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler's address (default: a local cluster of W workers)")
    p.add_argument("--connect-timeout", type=positive_seconds, default=10.0, metavar="S",
                   help="seconds to wait for the Dask scheduler of --scheduler (default 10)")
    p.add_argument("--engine", choices=["auto", "kernel", "compiled", "reference"],
                   default="auto",
                   help="auto (default): the numba kernel for 20,000 deals or more where numba is "
                   "installed and the kernel runs the variant, else the compiled engine where it "
                   "runs it, else the reference; all play the same deals for a seed")
    p.add_argument("--json", nargs="?", const="-", metavar="F",
                   help="write the report as JSON to F (default: standard output)")
    p.add_argument("--csv", metavar="F", help="write the estimates as CSV rows to F ('-': stdout)")
    p.add_argument("--plot", metavar="F.png", help="draw the report into a .png or .svg file")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(func=cmd_simulate, usage_error=p.error)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run the simulation and write the report(s); returns the exit status (0)."""
    from boodle.clocks import cpu_seconds
    from boodle.language.variants import load
    from boodle.simulate.plot import check_plot, save_plot
    from boodle.simulate.report import render_csv, render_text, summary
    from boodle.simulate.runner import make_spec

    if args.scheduler and args.backend != "dask":
        args.usage_error("--scheduler is for --backend dask")
    _check_strategies(args)
    _warn_workers(args.workers, os.cpu_count())
    for option, target in (("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)):
        if target is not None:
            check_writable(option, target)
    if args.plot:
        check_plot(args.plot)
    spec = make_spec(load(args.variant), args.players, args.deals, args.seed, args.strategy,
                     args.engine)
    if spec.engine == "reference" and args.engine == "auto":
        from boodle.compiled import unsupported_features

        gaps = "; ".join(unsupported_features(spec.ruleset))
        print(f"note: the compiled engine does not run {spec.ruleset.name}"
              + (f" ({gaps})" if gaps else "") + "; using the reference engine (slower)",
              file=sys.stderr)
    started, cpu = time.perf_counter(), cpu_seconds()
    stats = _run(spec, args)
    seconds, cpu_end = time.perf_counter() - started, cpu_seconds()
    # a remote Dask cluster's workers spend CPU that this process cannot see
    cpu_used = None if args.scheduler or cpu is None or cpu_end is None else cpu_end - cpu
    report = summary(spec, stats, workers=args.workers, backend=args.backend, seconds=seconds,
                     cpu_seconds=cpu_used)
    if args.json != "-" and args.csv != "-":
        sys.stdout.write(render_text(report))
    if args.json is not None:
        _write(args.json, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if args.csv is not None:
        _write(args.csv, render_csv(report))
    if args.plot:
        save_plot(report, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def _check_strategies(args: argparse.Namespace) -> None:
    """An unknown strategy name is an option error: a usage error (exit 2) listing the
    players (:data:`~boodle.compiled.players.PLAYERS`); names are case-sensitive."""
    from boodle.compiled.players import PLAYERS

    unknown = [name for name in args.strategy if name not in PLAYERS]
    if unknown:
        args.usage_error(f"unknown strategy '{unknown[0]}': the strategies are "
                         + ", ".join(PLAYERS))


def _warn_workers(workers: int, cpus: int | None) -> None:
    """Warn on stderr when more worker processes are asked than the machine has CPUs: they
    share the CPUs and the run is slower, not faster.  ``cpus`` ``None``: unknown, no
    warning."""
    if cpus is not None and workers > cpus:
        print(f"warning: --workers {workers} but this machine has {cpus} "
              f"CPU{'' if cpus == 1 else 's'}: the "
              f"processes share them and the run is slower; --workers {cpus} or fewer is "
              "faster", file=sys.stderr)


def _run(spec: RunSpec, args: argparse.Namespace) -> RunStats:
    from boodle.simulate.runner import run, run_dask

    bar = _progress_bar(spec.deals, args.no_progress)
    tick = None if bar is None else bar.update
    try:
        if args.backend == "dask":
            client = (_connect(args.scheduler, args.connect_timeout) if args.scheduler
                      else _local_cluster(args.workers))
            try:
                return run_dask(spec, client, tick)
            finally:
                client.close()
                if not args.scheduler:
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
    from boodle.simulate.runner import dask_distributed

    dd = dask_distributed()
    return dd.Client(dd.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True))


def _connect(address: str, timeout: float) -> Any:
    """A Dask client of the scheduler at ``address``, waiting at most ``timeout`` seconds.

    A ``tcp://`` address is probed first (:func:`_probe`): what listens there must answer
    as a Dask scheduler within ``timeout``.  Raises :class:`BoodleError` (no traceback) for
    an address that is not one (``missing port number``, an unknown scheme), a scheduler
    not reached in time, or a server that is not a Dask scheduler (an HTTP server, a proxy:
    Dask itself would wait forever, or read "HTTP/1.1" as a message length of 3 EiB).
    """
    from boodle.simulate.runner import dask_distributed

    dd = dask_distributed()
    hint = ("give the address the scheduler prints (tcp://HOST:8786), check that it runs "
            "and is reachable (--connect-timeout S waits longer), or leave out --scheduler "
            "for a local cluster")
    try:
        _probe(address, timeout)
        return dd.Client(address, timeout=timeout)
    except (OSError, ValueError, TimeoutError, MemoryError) as exc:
        raise BoodleError(f"--scheduler {address}: cannot connect to a Dask scheduler: {exc}",
                          hint=hint) from None


DASK_FIRST_MESSAGE_LIMIT = 1 << 24
"""The largest first message (bytes) a Dask scheduler is believed to send: its handshake,
a few hundred bytes; the first 8 bytes of an HTTP answer read as a length are about 3·10¹⁸."""


def _probe(address: str, timeout: float) -> None:
    """Check that a Dask scheduler listens at a ``tcp://`` address (others: not probed).

    A Dask scheduler writes its handshake as soon as a client connects (distributed's
    ``Listener.on_connection``): a frame whose first 8 bytes are its length.  Raises
    TimeoutError if nothing connects or answers within ``timeout`` seconds (an HTTP server
    waits for a request), ValueError for an answer that is not a Dask frame, OSError for an
    unreachable host; a refused connection (nothing listens yet) and an address that does
    not parse are left to Dask, which retries until the timeout or says what is wrong.
    """
    import socket
    import struct

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, where = parse_address(address)
        host, port = parse_host_port(where)
    except ValueError:
        return  # Dask says what is wrong with it
    if scheme != "tcp":
        return
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            head = b""
            while len(head) < 8:
                conn.settimeout(max(0.001, deadline - time.monotonic()))
                more = conn.recv(8 - len(head))
                if not more:
                    raise ValueError("the server closed the connection without a word "
                                     "(not a Dask scheduler)")
                head += more
    except ConnectionRefusedError:
        return  # nothing listens yet: Dask retries until the timeout (a scheduler starting)
    except TimeoutError:
        raise TimeoutError(f"no answer within {timeout:g} s (a Dask scheduler speaks first; "
                           "is this a Dask scheduler's port?)") from None
    (length,) = struct.unpack("Q", head)
    if length > DASK_FIRST_MESSAGE_LIMIT:
        shown = head.decode("ascii", "replace").strip()
        raise ValueError(f"the server answered {shown!r}…, which is not Dask's protocol "
                         "(an HTTP server or a proxy?)")


def check_writable(option: str, target: str) -> None:
    """Refuse, before a run, an output file that could not be written after it.

    ``target`` ``-`` (standard output) is always fine.  The file is opened
    for appending (created and removed again if it did not exist), so a
    missing folder, a folder given as the file or a read-only place is
    found at once.  Raises :class:`BoodleError` naming ``option``.
    """
    from boodle.out_paths import file_problem

    if target == "-":
        return
    problem = file_problem(option, Path(target))
    if problem is not None:
        raise BoodleError(problem, hint=None if problem.endswith("is a folder, not a file")
                          else "checked before the run, so nothing was simulated")


def _write(target: str, text: str) -> None:
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BoodleError(f"cannot write {target}: {exc.strerror}") from None
