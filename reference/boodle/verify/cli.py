"""The ``boodle verify`` command: argument parsing and output (the glue of this package).

``boodle verify [VARIANT…] [--players N] [--json]`` verifies the built-in
variants (or the named ones, or ``.boodle`` files) and prints the table of
:mod:`boodle.verify.report`; exit status 1 on any counterexample.  Each
counterexample is also stored as JSON (``--cex-dir``).  Exit status 1 also
when some property was neither proven nor checked by any method that ran
(:func:`boodle.verify.report.unverified`), which includes an exhaustive search
stopped by ``--max-states`` before it finished ("incomplete": never
"checked").  Progress goes to stderr: a line per variant, player count and
method, and, while an exhaustive search runs, its states, states per wall second and per
CPU second, and deals done (one status line rewritten in place on a terminal, a line every
:data:`LOG_EVERY` seconds otherwise, as TLC prints to a log).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from boodle.verify.proof_cache import ProofCache
    from boodle.verify.verifier import Subject

from boodle.argtypes import positive_int

__all__ = ["DEFAULT_MAX_STATES", "LOG_EVERY", "WORKER_EVERY", "Progress", "add_parser",
           "cmd_verify", "default_jobs", "parse_deck", "worker_status"]

DEFAULT_MAX_STATES = 2_000_000
"""The exhaustive search's bound per variant and player count: about a minute and a half at
the 20,000-25,000 states a second the search runs at, and twenty times the largest default
run (tripoli-ghost-auction, 112,296 states).  A search that reaches it ends "incomplete",
never "checked" (spec/verification.md, "Bounds and reductions")."""

LOG_EVERY = 30.0
"""Seconds between two status lines of a running search when stderr is not a terminal."""


def parse_deck(text: str) -> tuple[int, int]:
    """``"2x3"`` → (2 suits, 3 ranks); raises ``argparse.ArgumentTypeError``."""
    try:
        suits, ranks = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deck is SUITSxRANKS, like 2x3, not {text!r}") \
            from None
    if not (1 <= suits <= 4 and 2 <= ranks <= 13):
        raise argparse.ArgumentTypeError("a reduced deck has 1-4 suits and 2-13 ranks")
    return suits, ranks


CEX_DIR = Path("boodle-counterexamples")
"""Where ``boodle verify`` stores counterexamples without ``--cex-dir``: in the working
folder."""


def add_parser(sub: Any) -> None:
    """Register ``verify`` on the ``boodle`` command's subparsers."""
    p = sub.add_parser(
        "verify", help="prove or exhaustively check the rules' invariants (z3, small decks)",
        description="Prove with z3 (full deck, every allowed player count) and check "
        "exhaustively on reduced decks that chips and cards are conserved, every deal ends, "
        "no player is ever stuck and the ruleset is well formed.  Progress goes to stderr, one "
        "line per variant, player count and method, and a running exhaustive search's states, "
        "states per wall and per CPU second, and deals done.  Exit 1 on a counterexample, and "
        "also when some property of a variant at some player count was neither proven nor "
        "checked by any method that ran (a rule neither z3 nor the engine covers, a z3 query "
        "out of time with no exhaustive check, an exhaustive search stopped by --max-states): the "
        "summary names each.")
    p.add_argument("variants", nargs="*", metavar="VARIANT",
                   help="built-in variant names or .boodle files (default: every built-in)")
    p.add_argument("--players", type=positive_int, action="append", metavar="N",
                   help="only this player count (repeatable; default: every allowed count)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--deck", type=parse_deck, action="append", metavar="SxR",
                   help="reduced deck for the exhaustive check, tried in order "
                   "(default: 2x3, else 2x4, else 3x4)")
    p.add_argument("--max-states", type=positive_int, metavar="N", default=DEFAULT_MAX_STATES,
                   help="stop each exhaustive search (one variant, one player count) after N "
                   "states; its properties are then reported 'incomplete', not checked "
                   f"(default {DEFAULT_MAX_STATES:,}: a minute or two)")
    p.add_argument("--no-z3", action="store_true", help="skip the z3 proofs")
    p.add_argument("--no-exhaustive", action="store_true", help="skip the exhaustive search")
    p.add_argument("--no-engine", action="store_true",
                   help="skip the engine = model check (the engine compared with the z3 "
                   "model move by move on the exhaustive search's states and on random deals)")
    p.add_argument("--jobs", type=positive_int, metavar="N", default=None,
                   help="share the runs (a variant's method at a player count) out over N "
                   "processes (default: the number of cores, "
                   f"{default_jobs()} here); the report is the same as with --jobs 1, the "
                   "progress lines come as runs finish")
    p.add_argument("--cache", type=Path, metavar="DIR",
                   help="the proof cache: a run (a variant's method at a player count) made "
                   "before on the same rules by the same boodle is read back from DIR, not "
                   "made again (default: proofs in the user's cache folder, "
                   "~/.cache/boodle/proofs)")
    p.add_argument("--no-cache", action="store_true",
                   help="make every run, and keep none (no proof cache)")
    p.add_argument("--cex-dir", type=Path, metavar="DIR",
                   help=f"where counterexamples are stored as JSON (default ./{CEX_DIR})")
    p.set_defaults(func=cmd_verify, usage_error=p.error)


def cmd_verify(args: argparse.Namespace) -> int:
    """Run the checks and print the report; 1 on any counterexample or unverified property."""
    from boodle.clocks import cpu_seconds
    from boodle.language.errors import BoodleError
    from boodle.language.variants import builtin_names, load
    from boodle.verify.report import exit_status, render_json, render_text, save_counterexamples
    from boodle.verify.verifier import Options, Subject, verify

    if args.no_z3 and args.no_exhaustive:
        # the static checks alone cover none of the per-count properties: nothing to verify
        args.usage_error("--no-z3 and --no-exhaustive together leave no method that verifies "
                         "a property at a player count; drop one of them "
                         "('boodle check' validates the rules files)")
    args.cex_dir = _check_cex_dir(args.cex_dir)
    names = list(args.variants) or builtin_names()
    subjects = [Subject(_label(name), load(name)) for name in names]
    for count in args.players or ():
        # an impossible count would verify nothing and still say "no counterexample"
        if not any(count in subject.ruleset.players for subject in subjects):
            allowed = ", ".join(f"{s.name} {s.ruleset.players.low}-{s.ruleset.players.high}"
                                for s in subjects)
            raise BoodleError(f"--players {count} is allowed by none of the variants",
                              hint=f"allowed counts: {allowed}")
    if args.players:  # a variant that plays none of the counts asked is left out, said so
        subjects = [s for s in subjects if _plays_any(s, args.players)]
    options = Options(
        players=tuple(args.players) if args.players else None,
        z3=not args.no_z3,
        exhaustive=not args.no_exhaustive,
        max_states=args.max_states,
        engine=not args.no_engine,
    )
    if args.deck:
        options = replace(options, decks=tuple(args.deck))
    jobs = default_jobs() if args.jobs is None else args.jobs
    proofs = _proof_cache(args)
    start, cpu = time.perf_counter(), cpu_seconds()
    shown = Progress(sys.stderr)
    try:
        results = verify(subjects, options, progress=shown.say, live=shown.live, jobs=jobs,
                         worker_live=worker_status, proofs=proofs)
    finally:
        shown.clear()
    seconds, cpu_end = time.perf_counter() - start, cpu_seconds()
    cpu = None if cpu is None or cpu_end is None else cpu_end - cpu  # the workers' included
    out = (render_json(results, seconds, options, cpu) if args.json
           else render_text(results, seconds, options, cpu))
    sys.stdout.write(out + "\n")
    for path in save_counterexamples(results, args.cex_dir):
        print(f"counterexample stored: {path}", file=sys.stderr)
    return exit_status(results)


def _check_cex_dir(folder: Path | None) -> Path:
    """The folder counterexamples go into; refuses, before the run, a ``--cex-dir`` that none
    could be stored in (:func:`boodle.out_paths.folder_problem`), and a default folder under
    a file (an unwritable working folder matters only if a counterexample is found).
    Raises :class:`BoodleError`."""
    from boodle.language.errors import BoodleError
    from boodle.out_paths import file_in_the_way, folder_problem

    if folder is None:
        problem = (None if file_in_the_way(CEX_DIR) is None
                   else f"./{CEX_DIR} (where counterexamples go): is a file, not a folder")
    else:
        problem = folder_problem("--cex-dir", folder)
    if problem is not None:
        raise BoodleError(problem, hint="give --cex-dir DIR: a folder that exists or can be "
                          "made, in a folder that may be written (checked before the run: "
                          "nothing was verified)")
    return CEX_DIR if folder is None else folder


def _proof_cache(args: argparse.Namespace) -> ProofCache | None:
    """The proof cache ``--cache``/``--no-cache`` ask for (:mod:`boodle.verify.proof_cache`)."""
    from boodle.verify.proof_cache import ProofCache, default_folder

    if args.no_cache:
        if args.cache is not None:
            args.usage_error("--cache DIR and --no-cache contradict each other: give one")
        return None
    if args.cache is not None:
        from boodle.out_paths import folder_problem

        problem = folder_problem("--cache", args.cache)
        if problem is not None:
            args.usage_error(f"{problem} (proofs could not be kept there): give --cache DIR, "
                             "a folder that exists or can be made, or --no-cache")
    folder = args.cache if args.cache is not None else default_folder()
    return None if folder is None else ProofCache(folder)


def default_jobs() -> int:
    """The processes ``boodle verify`` uses by default: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


WORKER_EVERY = 5.0
"""Seconds between two status lines of a worker's search on a terminal under ``--jobs``: the
workers write whole lines, never rewritten in place (several would overwrite each other)."""

_WORKER_PROGRESS: list[Progress] = []
"""The status display of this process, when it is a worker of ``--jobs`` (made at first use)."""


def worker_status(line: str) -> None:
    """A search's status line, in a worker process of ``--jobs``: written whole to stderr (a
    single write, so that lines of several workers may interleave but never mix), at most
    every :data:`WORKER_EVERY` seconds on a terminal, :data:`LOG_EVERY` elsewhere."""
    if not _WORKER_PROGRESS:
        isatty = getattr(sys.stderr, "isatty", None)
        tty = bool(isatty()) if callable(isatty) else False
        _WORKER_PROGRESS.append(Progress(sys.stderr, every=WORKER_EVERY if tty else LOG_EVERY,
                                         in_place=False))
    _WORKER_PROGRESS[0].live(line)


@dataclass
class Progress:
    """Where progress goes: ``stream`` (stderr; never stdout, which holds the report or its
    JSON).

    :meth:`say` writes a line that stays (a variant, player count and method done);
    :meth:`live` a status of the search running.  On a terminal the status is one line
    rewritten in place at most every ``every`` seconds (default 0.2) and wiped before the
    next line that stays; elsewhere (a log, a pipe), or with ``in_place`` false, it is a line
    of its own at most every ``every`` seconds (default :data:`LOG_EVERY`), so a long search
    still shows it is alive.  Each line is one write, so that the lines of several processes
    writing to one stderr (``--jobs``) may interleave but stay whole.
    """

    stream: TextIO
    every: float | None = None
    clock: Callable[[], float] = time.monotonic
    in_place: bool = True
    tty: bool = field(init=False)
    _last: float | None = field(default=None, init=False)
    _shown: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        isatty = getattr(self.stream, "isatty", None)
        self.tty = self.in_place and (bool(isatty()) if callable(isatty) else False)
        if self.every is None:
            self.every = 0.2 if self.tty else LOG_EVERY

    def say(self, line: str) -> None:
        """A line that stays."""
        self.clear()
        self.stream.write(line + "\n")
        self.stream.flush()

    def live(self, line: str) -> None:
        """The running search's status (dropped if the last one is too recent)."""
        now = self.clock()
        if self._last is None:
            self._last = now  # the first status waits a full interval: short runs stay quiet
            return
        if now - self._last < (self.every or 0.0):
            return
        self._last = now
        if self.tty:
            self.stream.write("\r\x1b[K" + line)
            self._shown = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Wipe the status line from a terminal; the next status waits a full interval."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
        self._last = None


def _plays_any(subject: Subject, counts: list[int]) -> bool:
    """Whether ``subject`` plays one of ``counts``; if not, a note on stderr says it is left
    out (its properties are not "unverified": there is nothing to verify at those counts)."""
    players = subject.ruleset.players
    if any(n in players for n in counts):
        return True
    asked = ", ".join(str(n) for n in counts)
    print(f"{subject.name}: left out, it plays {players.low}-{players.high} players "
          f"(--players {asked})", file=sys.stderr)
    return False


def _label(name: str) -> str:
    return Path(name).stem if name.endswith(".boodle") else name
