"""The ``boodle verify`` command: argument parsing and output (the glue of this package).

``boodle verify [VARIANT…] [--players N] [--json]`` verifies the built-in
variants (or the named ones, or ``.boodle`` files) and prints the table of
:mod:`boodle.verify.report`; exit status 1 on any counterexample.  Each
counterexample is also stored as JSON (``--cex-dir``).  Exit status 1 also
when some property was neither proven nor checked by any method that ran
(:func:`boodle.verify.report.unverified`).  Progress lines go to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .run import Subject

from ..argtypes import positive_int

__all__ = ["add_parser", "cmd_verify", "parse_deck"]


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


def add_parser(sub: Any) -> None:
    """Register ``verify`` on the ``boodle`` command's subparsers."""
    p = sub.add_parser(
        "verify", help="prove or exhaustively check the rules' invariants (z3, small decks)",
        description="Prove with z3 (full deck, every allowed player count) and check "
        "exhaustively on reduced decks that chips and cards are conserved, every deal ends, "
        "no player is ever stuck and the ruleset is well formed.  Progress goes to stderr, one "
        "line per variant, player count and method.  Exit 1 on a counterexample, and also when "
        "some property of a variant at some player count was neither proven nor checked by "
        "any method that ran (a rule neither z3 nor the engine covers, a z3 query out of "
        "time with no exhaustive check): the summary names each.")
    p.add_argument("variants", nargs="*", metavar="VARIANT",
                   help="built-in variant names or .boodle files (default: every built-in)")
    p.add_argument("--players", type=positive_int, action="append", metavar="N",
                   help="only this player count (repeatable; default: every allowed count)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--deck", type=parse_deck, action="append", metavar="SxR",
                   help="reduced deck for the exhaustive check, tried in order "
                   "(default: 2x3, else 2x4, else 3x4)")
    p.add_argument("--no-z3", action="store_true", help="skip the z3 proofs")
    p.add_argument("--no-exhaustive", action="store_true", help="skip the exhaustive search")
    p.add_argument("--cex-dir", type=Path, default=Path("boodle-counterexamples"), metavar="DIR",
                   help="where counterexamples are stored as JSON (default ./%(default)s)")
    p.set_defaults(func=cmd_verify, usage_error=p.error)


def cmd_verify(args: argparse.Namespace) -> int:
    """Run the checks and print the report; 1 on any counterexample or unverified property."""
    from ..errors import BoodleError
    from ..variants import builtin_names, load
    from .report import exit_status, render_json, render_text, save_counterexamples
    from .run import Options, Subject, verify

    if args.no_z3 and args.no_exhaustive:
        # the static checks alone cover none of the per-count properties: nothing to verify
        args.usage_error("--no-z3 and --no-exhaustive together leave no method that verifies "
                         "a property at a player count; drop one of them "
                         "('boodle check' validates the rules files)")
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
    )
    if args.deck:
        options = replace(options, decks=tuple(args.deck))
    start = time.perf_counter()
    results = verify(subjects, options, progress=_progress())
    seconds = time.perf_counter() - start
    out = render_json(results, seconds) if args.json else render_text(results, seconds)
    sys.stdout.write(out + "\n")
    for path in save_counterexamples(results, args.cex_dir):
        print(f"counterexample stored: {path}", file=sys.stderr)
    return exit_status(results)


def _progress() -> Callable[[str], None]:
    """Where progress goes: one line per variant, player count and method on stderr (never
    stdout, which holds the report or its JSON)."""
    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)
    return say


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
