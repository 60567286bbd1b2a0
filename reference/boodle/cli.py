"""The ``boodle`` command line.

Exit status: 0 success, 1 a rules or input error (reported with its
location), 2 a usage error (argparse).  No user input produces a traceback:
every :class:`~boodle.language.errors.BoodleError` is rendered, and any other
exception is reported as an internal error with a request to file it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from boodle import __version__
from boodle.argtypes import positive_int
from boodle.language.errors import BoodleError

if TYPE_CHECKING:  # what a command needs is imported when it runs: ``boodle --help`` is quick
    from boodle.language.model import Ruleset

EXIT_OK, EXIT_RULES, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``boodle`` command; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(words[0] if words and words[0] in COMMANDS else None)
    if words and not words[0].startswith("-") and words[0] not in _commands(parser):
        return _unknown_command(parser, words[0])
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        status: int = args.func(args)
        return status
    except BoodleError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_RULES
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("boodle: interrupted", file=sys.stderr)
        return 130
    except (OSError, UnicodeError) as exc:  # a path or file the user named
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_RULES
    except Exception as exc:  # a bug of ours, never the user's fault
        print(f"boodle: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in boodle; please report it with the command you ran.",
              file=sys.stderr)
        return 3


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    """The command names of ``parser``, in the order of ``boodle -h``."""
    return [name for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name in action.choices]


def _unknown_command(parser: argparse.ArgumentParser, word: str) -> int:
    """A first word that is no command: a usage error (exit 2) whose hint is the command
    meant (``chek``: check), or, for a variant's name or a rules file given without a
    command (``boodle michigan``, ``boodle michgan``), the commands that take one; else the
    list of commands."""
    import difflib

    from boodle.language.errors import printable
    from boodle.language.variants import builtin_names

    commands = _commands(parser)
    names = builtin_names()
    shown = printable(word)
    # the closest of the commands and the variants' names (a command first on a tie)
    close = difflib.get_close_matches(word.lower(), commands + names, n=1, cutoff=0.5)
    if word in names or word.endswith(".boodle"):
        hint = (f"{shown} is a {'variant' if word in names else 'rules file'}: name a command "
                f"before it, as in boodle play {shown} --players 4, or boodle check {shown}")
    elif close and close[0] in commands:
        hint = f"did you mean {close[0]}? (the commands are {', '.join(commands)})"
    elif close:
        hint = (f"did you mean the variant {close[0]}? Name a command before it, as in "
                f"boodle play {close[0]} --players 4")
    else:
        hint = (f"the commands are {', '.join(commands)} (boodle COMMAND -h says what each "
                "takes); a variant or a rules file goes after one, as in "
                "boodle play michigan --players 4")
    parser.print_usage(sys.stderr)
    print(f"boodle: error: unknown command '{shown}'\n  hint: {hint}", file=sys.stderr)
    return EXIT_USAGE


COMMANDS = ("check", "fmt", "variants", "play", "ledger", "simulate", "conformance", "verify",
            "docs", "lsp")
"""The commands, in the order of ``boodle -h``."""


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``boodle`` command line; with ``only`` (one of :data:`COMMANDS`), that command's
    subparser alone: a command does not build, nor import the modules of, the others."""
    parser = argparse.ArgumentParser(
        prog="boodle",
        description="Rules, reference engine and checks for the Michigan family of stops games.",
    )
    parser.add_argument("--version", action="version", version=f"boodle {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")

    if only in (None, "check"):
        check = sub.add_parser("check",
                               help="parse and validate variants (all built-ins by default)",
                               description="Parse and validate rules files or built-in variants. "
                               "Prints one line per variant; exit 1 if any has an error.")
        check.add_argument("targets", nargs="*", metavar="FILE_OR_VARIANT")
        check.add_argument("--drafts", action="store_true",
                           help="also check the drafts in spec/variants/drafts/")
        check.set_defaults(func=cmd_check)

    if only in (None, "fmt"):
        from boodle.language.fmt_cli import add_parser as add_fmt

        add_fmt(sub)

    if only in (None, "variants"):
        variants = sub.add_parser("variants", help="list the built-in variants",
                                  description="List the built-in variants with a one-line "
                                  "description.")
        variants.set_defaults(func=cmd_variants)

    if only in (None, "play"):
        play = sub.add_parser("play",
                              help="play deals with built-in strategies and print the trace",
                              description="Play a whole session (or --deals K deals) of a variant "
                              "with built-in strategies and print a readable trace.")
        play.add_argument("variant", metavar="VARIANT", nargs="?",
                          help="a built-in variant name or a .boodle file")
        play.add_argument("--players", type=positive_int, metavar="N",
                          help="required unless --resume")
        play.add_argument("--seed", type=int, metavar="S", help="default 0")
        play.add_argument("--deals", type=positive_int, metavar="K",
                          help="play exactly K deals (default: the variant's whole session)")
        play.add_argument("--strategy", metavar="NAME",
                          help="strategy for every seat: random or greedy (default random)")
        play.add_argument("--json", action="store_true",
                          help="print the typed events as JSON lines")
        play.add_argument("--positions", action="store_true",
                          help="print the position (conformance/FORMAT.md notation) after every "
                          "move")
        play.add_argument("--ledger", metavar="FILE.sqlite",
                          help="record every deal in this SQLite ledger (one transaction per "
                          "deal)")
        play.add_argument("--session", metavar="NAME",
                          help="the session's name in the ledger (default: the variant's name)")
        play.add_argument("--resume", metavar="FILE.sqlite",
                          help="continue the ledger's session from its last complete deal")
        play.set_defaults(func=cmd_play, usage_error=play.error)

    if only in (None, "ledger"):
        from boodle.session.ledger_cli import add_parser as add_ledger

        add_ledger(sub)

    if only in (None, "simulate"):
        from boodle.simulate.cli import add_parser as add_simulate

        add_simulate(sub)

    if only in (None, "conformance"):
        from boodle.conformance.cli import add_parser as add_conformance

        add_conformance(sub)

    if only in (None, "verify"):
        from boodle.verify.cli import add_parser as add_verify

        add_verify(sub)

    if only in (None, "docs"):
        docs = sub.add_parser("docs", help="generate the rules site, or one variant's page",
                              description="Generate the rules site from the built-in variants "
                              "(build), or the page of one rules file, your house rule's for "
                              "instance (page).")
        docs_sub = docs.add_subparsers(metavar="ACTION")

        def docs_usage(args: argparse.Namespace) -> int:
            docs.print_help()
            return EXIT_USAGE

        docs.set_defaults(func=docs_usage)
        docs_build = docs_sub.add_parser(
            "build", help="write the Markdown pages (then run: mkdocs build --strict)",
            description="Write every page of the rules site as Markdown into DIR "
            "(default docs/); then 'mkdocs build --strict' builds the site.")
        docs_build.add_argument("--out", default="docs", metavar="DIR",
                                help="folder to write the pages into (default docs/)")
        docs_build.set_defaults(func=cmd_docs_build)
        docs_page = docs_sub.add_parser(
            "page", help="one variant's page, standing alone (your house rule's, say)",
            description="Write the rules page of one variant (a rules file or a built-in name) "
            "as Markdown: its numbered rules, as on the rules site, and the worked example of its "
            "first deal; references are plain text (file:line, spec section).")
        docs_page.add_argument("variant", metavar="FILE|NAME",
                               help="a rules file or a built-in name")
        docs_page.add_argument("--lang", default="en", help="language of the page (default en)")
        docs_page.add_argument("--out", type=Path, metavar="FILE",
                               help="write the page into FILE (default: standard output)")
        docs_page.set_defaults(func=cmd_docs_page)

    if only in (None, "lsp"):
        lsp = sub.add_parser("lsp",
                             help="the language server of .boodle files, for editors (stdio)",
                             description="Run the language server of .boodle rules files on "
                             "standard input and output (the Language Server Protocol): "
                             "diagnostics with their quick fixes, hover, completion, go to "
                             "definition and the outline. An editor starts it; see README.")
        lsp.set_defaults(func=cmd_lsp)
    return parser


def cmd_lsp(args: argparse.Namespace) -> int:
    """``boodle lsp``: the language server on stdio until the editor shuts it down."""
    from boodle.lsp.server import main as serve

    return serve(args)


# ---------------------------------------------------------------- check


def cmd_check(args: argparse.Namespace) -> int:
    """``boodle check``: one line per variant, errors in full; exit 1 on any error."""
    from boodle.language.variants import builtin_names, builtin_path, draft_paths

    targets: list[str] = list(args.targets) or [str(builtin_path(n)) for n in builtin_names()]
    drafts = draft_paths() if args.drafts else []
    targets += [str(p) for p in drafts]
    failures = 0
    for target in targets:
        failures += _check_one(target)
    if args.drafts and not drafts:
        print("no drafts: the drafts folder (spec/variants/drafts/) has no .boodle file")
    total = len(targets)
    print(f"{total - failures} of {total} OK")
    return EXIT_RULES if failures else EXIT_OK


def _check_one(target: str) -> int:
    from boodle.language.variants import load

    label = Path(target).stem if target.endswith(".boodle") else target
    try:
        ruleset = load(target)
    except BoodleError as exc:
        print(f"{label:<28} ERROR")
        print(_indent(exc.render()))
        return 1
    print(f"{ruleset.name:<28} {_summary(ruleset)}  OK{_pending_note(ruleset)}")
    failed = _print_changes(ruleset, target)
    if target.endswith(".boodle"):
        _print_warnings(target)
    return failed


def _print_warnings(target: str) -> None:
    """The warnings of the rules file ``target`` (legal but suspect rules: the language
    server's, :func:`boodle.language.warnings.rules_warnings`), each as ``FILE:LINE:COL:
    warning: …`` and its hint; a warning does not change the exit status."""
    from boodle.language.warnings import file_warnings

    for found in file_warnings(target):
        print(_indent(found.render()))


def _print_changes(ruleset: Ruleset, target: str) -> int:
    """For a file with ``extends``: what it changes from its base, one line each (spec §11.2)."""
    if ruleset.base is None:  # extends nothing: the diff and its printer are not imported
        return 0
    from boodle.language.ruleset_diff import base_of, diff

    try:
        base = base_of(ruleset)
    except BoodleError as exc:
        print(_indent(f"cannot load its base {ruleset.base}: {exc}"))
        return 1
    if base is not None:
        from boodle.language.build import dropped_lines

        changes = diff(base, ruleset) or ["nothing"]
        print(_indent(f"changes from {base.name}:\n" + "\n".join("  " + c for c in changes)))
        if target.endswith(".boodle"):
            for note in dropped_lines(ruleset, changes):
                print(_indent(f"note: {note}"))
    return 0


def _nearest(players: int, ruleset: Ruleset) -> int:
    """The allowed player count nearest to ``players``."""
    return min(max(players, ruleset.players.low), ruleset.players.high)


def _summary(ruleset: Ruleset) -> str:
    players = f"players {ruleset.players.low}-{ruleset.players.high}"
    return f"{players:<14} sections {len(ruleset.board):<3} phases {len(ruleset.phases)}"


def _pending_note(ruleset: Ruleset) -> str:
    from boodle.engine.support import pending_features
    from boodle.language.model import StopsPhase

    pending = pending_features(ruleset)
    notes = [f"not yet playable: {', '.join(pending)}"] if pending else []
    # a stops phase always has its stage: the stage machine (the whole engine) is imported
    # only for a ruleset with a phase of another kind
    if not all(isinstance(p, StopsPhase) for p in ruleset.phases):
        from boodle.engine.machine import skipped_phases

        skipped = skipped_phases(ruleset)
        if skipped:
            notes.append(f"phases pending, skipped in play: {', '.join(skipped)}")
    return f" ({'; '.join(notes)})" if notes else ""


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


# ---------------------------------------------------------------- variants


def cmd_variants(args: argparse.Namespace) -> int:
    """``boodle variants``: name, players and the one-line description of each built-in."""
    from boodle.language.variants import builtin_names, load

    for name in builtin_names():
        try:
            ruleset = load(name)
        except BoodleError:
            print(f"{name:<28} (does not check: run 'boodle check {name}')")
            continue
        print(f"{name:<28} {ruleset.players.low}-{ruleset.players.high} players  {ruleset.about}")
    return EXIT_OK


# ---------------------------------------------------------------- play


def cmd_play(args: argparse.Namespace) -> int:
    """``boodle play``: play deals and print the trace (text or JSON lines)."""
    from boodle.engine.trace import render_jsonl, render_text
    from boodle.language.model import StopsPhase
    from boodle.language.variants import load
    from boodle.session.run import play_session

    _check_play_usage(args)
    if args.resume is not None:
        from boodle.session.ledger_cli import cmd_play_recorded

        return cmd_play_recorded(args, None)
    args.seed = 0 if args.seed is None else args.seed
    args.strategy = args.strategy or "random"
    ruleset = load(args.variant)
    if args.players not in ruleset.players:
        raise BoodleError(
            f"{ruleset.name} is for {ruleset.players.low} to {ruleset.players.high} players, "
            f"not {args.players}",
            hint=f"try --players {_nearest(args.players, ruleset)}",
        )
    if not any(isinstance(p, StopsPhase) for p in ruleset.phases):
        raise BoodleError(f"{ruleset.name} has no stops phase to play")
    if ruleset.session.end_never and args.deals is None:  # spec §10: the ledger runs on
        args.usage_error(f"{ruleset.name} has no session end ('end: never'): give --deals K")
    if args.ledger is not None:
        from boodle.session.ledger_cli import cmd_play_recorded

        return cmd_play_recorded(args, ruleset)
    result = play_session(ruleset, args.players, args.seed,
                          strategies=[args.strategy] * args.players, deals=args.deals)
    out = render_jsonl(result.events) if args.json else render_text(result.events)
    if args.positions:
        from boodle.conformance.trace_positions import render_with_positions

        out = render_with_positions(ruleset, result.events, args.json)
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return EXIT_OK


PLAY_DEALS_MAX = 10_000
"""The most deals ``boodle play`` takes without ``--ledger``: it builds the whole trace in
memory before printing it (Michigan, 4 players: 1.5 MB of text and about 15 MB of memory per
1,000 deals), so a bound on the input
bounds its memory; a ledger records deal by deal."""

LEDGER_DEALS_MAX = 2**63 - 1
"""The most deals ``boodle play --ledger`` takes: the ledger stores the count planned as a
SQLite INTEGER (8 bytes, signed), so a larger one is refused before the file is made."""


def _check_play_usage(args: argparse.Namespace) -> None:
    """Options of ``play`` that do not go together, or an unknown strategy: a usage error
    (argparse, exit 2)."""
    from boodle.engine.strategies import STRATEGIES

    problem = None
    if args.session is not None and not args.session.strip():
        problem = ("--session needs a name, not an empty one: give --session NAME (as in "
                   "--session friday), or leave --session out for the variant's name")
    elif args.resume is not None:
        given = [o for o, v in (("VARIANT", args.variant), ("--players", args.players),
                                ("--seed", args.seed), ("--deals", args.deals),
                                ("--strategy", args.strategy), ("--ledger", args.ledger))
                 if v is not None]
        if given:
            problem = f"--resume continues the stored session; do not give {', '.join(given)}"
    elif args.variant is None and args.players is None:
        problem = "give a VARIANT and --players N (or --resume FILE.sqlite)"
    elif args.players is None:
        problem = f"give --players N: how many play {args.variant}"
    elif args.variant is None:
        problem = ("give the VARIANT to play: a built-in variant's name (boodle variants "
                   "lists them) or a .boodle file")
    elif args.session is not None and args.ledger is None:
        problem = "--session names a session in a ledger: add --ledger FILE.sqlite"
    elif args.deals is not None and args.deals > PLAY_DEALS_MAX and args.ledger is None:
        problem = (f"--deals {args.deals}: play prints a whole trace and keeps it until the "
                   f"end, so it takes at most {PLAY_DEALS_MAX:,} deals; for more, record them "
                   "with --ledger FILE.sqlite, or use boodle simulate")
    elif args.deals is not None and args.deals > LEDGER_DEALS_MAX:
        problem = (f"--deals {args.deals}: a ledger stores the count of deals as a SQLite "
                   f"integer, so play --ledger takes at most {LEDGER_DEALS_MAX:,} deals")
    elif args.strategy is not None and args.strategy not in STRATEGIES:
        problem = (f"unknown strategy '{args.strategy}': play has "
                   + ", ".join(sorted(STRATEGIES))
                   + (" ('tips' is a player of boodle simulate only)"
                      if args.strategy == "tips" else ""))
    if problem:
        args.usage_error(problem)


# ---------------------------------------------------------------- docs


def cmd_docs_build(args: argparse.Namespace) -> int:
    """``boodle docs build``: write the site's Markdown pages; exit 1 on a missing template."""
    from boodle.docs import site
    from boodle.owned_files import check_folder

    check_folder(Path(args.out))  # before the site is built
    written = site.build_docs(Path(args.out))
    print(site.written_summary(Path(args.out), written))
    for note in site.skipped_outside_checkout():
        print(f"note: not in the project's checkout: {note}", file=sys.stderr)
    print(site.next_step(Path(args.out)))
    return EXIT_OK


def cmd_docs_page(args: argparse.Namespace) -> int:
    """``boodle docs page FILE|NAME [--lang L] [--out FILE]``: one variant's page alone.

    Raises :class:`BoodleError` for a rules file with an error (rendered with its caret and
    hint, exit 1 as for ``check``) or an unknown language."""
    from boodle.docs.templates import load as load_templates
    from boodle.docs.variant_page import standalone_markdown
    from boodle.language.variants import load

    text = standalone_markdown(load(args.variant), load_templates(args.lang))
    if args.out is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BoodleError(f"cannot write {args.out}: {exc.strerror or exc}",
                          hint="give a file in a folder that exists and may be written") from None
    print(f"wrote the page of {args.variant} into {args.out}")
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
