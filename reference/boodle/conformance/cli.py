"""``boodle conformance …``: run, serve, list, show, export, generate, coverage.

Registered on the main parser by :func:`add_parser`.  Exit status: 0
success; 1 a failed run (a fail, an error or an unexpected pass), an input
error or a selection that matches no case; 2 a usage error (an empty or
unsplittable ``--impl``, a ``--cases`` folder that does not exist, a report
file that could not be written), found before any case is run.
"""

from __future__ import annotations

import argparse
import difflib
import filecmp
import json
import shlex
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from boodle.argtypes import non_negative_int, positive_int, positive_seconds
from boodle.conformance import CASE_FORMAT, MAX_SAME_FAILURES, RULES_SUITE_SIZE, START_TIMEOUT
from boodle.conformance.cases import (
    Case,
    CaseFileError,
    case_files,
    load_case,
    load_cases,
    read_case_text,
    select,
)
from boodle.conformance.paths import (
    cases_dir,
    given_rules,
    load_variant,
    suite_dir,
    variant_paths,
)
from boodle.language.errors import BoodleError
from boodle.resources import spec_prose

if TYPE_CHECKING:  # the wire imports the engine: `boodle --help` does not need it
    from boodle.conformance.wire import Json

EXIT_OK, EXIT_FAILED = 0, 1

SHIPPED = ("PROTOCOL.md", "FORMAT.md", "README.md", "COVERAGE.md", "spec-rules.json")
"""Documents copied by ``export`` beside the cases and schemas."""

SPEC_PROSE = ("rules.md", "michigan.md")
"""The spec's prose copied by ``export`` into ``spec/`` (the documents cite spec/rules.md)."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``conformance`` and its subcommands to the ``boodle`` parser."""
    top = sub.add_parser("conformance",
                         help="the conformance suite: run, serve, list, show, export",
                         description="Language-agnostic conformance cases, the protocol "
                         "(conformance/PROTOCOL.md) and a runner.")
    cmds = top.add_subparsers(metavar="COMMAND")

    def usage(args: argparse.Namespace) -> int:
        top.print_help()
        return 2

    top.set_defaults(func=usage)

    run = cmds.add_parser("run", help="run the suite against an implementation",
                          description="Run the cases against an implementation speaking the "
                          "protocol. Exit 1 on any fail, error or unexpected pass.")
    run.add_argument("--impl", required=True, metavar="CMD", type=command_line,
                     help="the implementation's command line (split like a shell, no shell)")
    run.add_argument("--variant", metavar="V", help="only the cases of variant V")
    run.add_argument("--case", action="append", default=[], metavar="GLOB",
                     help="only cases whose id matches GLOB (repeatable)")
    run.add_argument("--expected-failures", type=Path, metavar="FILE",
                     help="the implementation's expected failures (case id and reason per line)")
    run.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="S",
                     help="seconds allowed per case (default 10)")
    run.add_argument("--start-timeout", type=positive_seconds, default=START_TIMEOUT,
                     metavar="S", help="seconds the implementation has to answer 'start' "
                     f"(default {START_TIMEOUT:g}); one that never answers stops the run "
                     "after its first attempt")
    run.add_argument("--max-same-failures", type=non_negative_int, default=MAX_SAME_FAILURES,
                     metavar="N", help="after N cases in a row end in the same fault of the "
                     "implementation's process (a timeout each, say), report the rest as not "
                     f"run (default {MAX_SAME_FAILURES}; 0: no limit)")
    run.add_argument("--junit", type=Path, metavar="F", help="write a JUnit XML report")
    run.add_argument("--json", type=Path, metavar="F", help="write a JSON report")
    run.add_argument("--markdown", type=Path, metavar="F", help="write a Markdown report")
    run.add_argument("--mode", choices=("session", "one-shot"), default="session",
                     help="session (default): one process for the run; one-shot: one per case")
    run.add_argument("--protocol", choices=("1", "2"), default="2",
                     help="the protocol version offered in 'start' (session mode: the "
                     "implementation answers in the version it speaks, 1 or 2) or spoken "
                     "(one-shot mode); default 2, the newest")
    run.add_argument("--write-expected-failures", type=Path, metavar="F",
                     help="write the cases that failed as an expected-failures file")
    run.add_argument("--cases", type=Path, metavar="DIR",
                     help="read the cases from DIR: a folder written by 'export', a "
                     "checkout's conformance/ (its cases/ is read), or any folder of case "
                     "files (default: the suite's own)")
    run.add_argument("--details", type=non_negative_int, default=10, metavar="N",
                     help="print the full diff of the first N failures (default 10)")
    run.add_argument("--rules", action="append", default=[], type=Path, metavar="FILE",
                     help="run the suite of your own rules file (repeatable): generated "
                     "for it, or reused from the cache when its rules have not changed; "
                     "with --cases, the cases there are checked against these rules")
    run.add_argument("--size", type=positive_int, metavar="N",
                     help="with --rules: cases per player count and case kind (default "
                     f"{RULES_SUITE_SIZE})")
    run.add_argument("--cache", type=Path, metavar="DIR",
                     help="with --rules: the cache folder (default ~/.cache/boodle, or "
                     "$XDG_CACHE_HOME/boodle)")
    run.add_argument("--referee-deals", type=non_negative_int, default=0, metavar="N",
                     help="also play N referee deals per variant: of --variant V, else of the "
                     "--rules files, else of those the implementation declares: it is given "
                     "the setup alone, plays with its own choices and reports its events, and "
                     "the reference judges every move and consequence (feature 'referee', "
                     "PROTOCOL.md); prints the pass rate")
    run.add_argument("--referee-sessions", type=non_negative_int, default=0, metavar="N",
                     help="also play N referee sessions per variant (every chance outcome "
                     "of a whole session given)")
    run.add_argument("--seed", metavar="S",
                     help="the seed of the referee deals and sessions (default 0): the same "
                     "seed gives the same setups")
    run.add_argument("--referee-only", action="store_true",
                     help="run the referee deals and sessions alone, not the suite's cases")
    run.set_defaults(func=cmd_run, usage_error=run.error)

    serve = cmds.add_parser("serve", help="the reference interpreter speaking the protocol",
                            description="Answer the protocol on stdin/stdout with the reference "
                            "engine (or a built-in mutant of it).")
    serve.add_argument("--mutant", metavar="NAME", help="serve a built-in mutant instead")
    serve.add_argument("--one-shot", action="store_true",
                       help="read one run message, answer it, exit 0/1/2")
    serve.add_argument("--list-mutants", action="store_true", help="list the mutants and exit")
    serve.add_argument("--rules", action="append", default=[], type=Path, metavar="FILE",
                       help="also play the variant of this rules file (repeatable); it "
                       "replaces a built-in of the same name")
    serve.set_defaults(func=cmd_serve)

    lst = cmds.add_parser("list", help="list the cases (id, kind, description)")
    lst.add_argument("--variant", metavar="V")
    lst.add_argument("--case", action="append", default=[], metavar="GLOB")
    lst.add_argument("--cases", type=Path, metavar="DIR",
                     help="the cases of DIR (a folder written by 'generate --rules' or "
                     "'export') instead of the suite's own")
    lst.set_defaults(func=cmd_list)

    show = cmds.add_parser("show", help="print one case")
    show.add_argument("id", metavar="ID")
    show.add_argument("--cases", type=Path, metavar="DIR",
                      help="look in DIR instead of the suite's own cases")
    show.set_defaults(func=cmd_show)

    export = cmds.add_parser("export", help="copy the cases, schemas, documents and variants",
                             description="Copy everything an implementation in another language "
                             "needs into DIR: cases, schemas, PROTOCOL.md, FORMAT.md and the "
                             "variants' rules files.")
    export.add_argument("dir", type=_folder, metavar="DIR")
    export.add_argument("--force", action="store_true",
                        help="write into a folder that is not empty and was not written by "
                        "export (files of the same names are replaced)")
    export.set_defaults(func=cmd_export)

    gen = cmds.add_parser("generate", help="generate the cases of your rules file (--rules), "
                          "or regenerate the suite's own",
                          description="With --rules FILE: a complete suite for your own rules "
                          "file (every case kind the rules allow, every player count), the "
                          "rules files beside it. Without: expand the hand-written cases and "
                          "generate the seeded ones of the suite (maintainers). Deterministic, "
                          "so the files only change when a rule does.")
    gen.add_argument("--rules", action="append", default=[], type=Path, metavar="FILE",
                     help="generate the suite of this rules file (repeatable; needs --out)")
    gen.add_argument("--size", type=positive_int, metavar="N",
                     help="with --rules: cases per player count and case kind (default "
                     f"{RULES_SUITE_SIZE})")
    gen.add_argument("--out", type=Path, metavar="DIR",
                     help="write into DIR instead of the suite's folder (required with "
                     "--rules, and outside a source checkout: an installed suite is never "
                     "rewritten)")
    gen.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 if regenerating would change any file")
    gen.set_defaults(func=cmd_generate, usage_error=gen.error)

    cov = cmds.add_parser("coverage", help="print the spec rules → cases coverage report")
    cov.set_defaults(func=cmd_coverage)


def command_line(text: str) -> str:
    """An argparse ``type=`` for ``--impl``: the text, if it splits (``shlex``) into a
    non-empty command; ``ArgumentTypeError`` (a usage error, exit 2) otherwise."""
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"cannot split {text!r} into a command line: {exc}") from None
    if not argv:
        raise argparse.ArgumentTypeError("is empty: give the implementation's command line")
    return text


def user_cases(folder: Path) -> list[Case]:
    """The cases of ``--cases DIR``, sorted by id.

    ``DIR/cases`` when it exists (a folder written by ``export``, a checkout's
    ``conformance/``): every file there must be a valid case.  Otherwise every
    ``*.json`` under ``DIR`` whose ``format`` is ``boodle-case/1`` (other JSON,
    such as schemas, is skipped).  Raises :class:`BoodleError` for a folder
    that does not exist or holds no case, :class:`CaseError` for a bad case.
    """
    if not folder.is_dir():
        raise BoodleError(f"--cases {folder}: " + ("not a folder" if folder.exists()
                                                   else "no such folder"))
    if (folder / "cases").is_dir():
        cases = load_cases(folder / "cases")
    else:
        cases = [load_case(path) for path in case_files(folder) if _is_case_file(path)]
        cases.sort(key=lambda c: c.id)
        counts = Counter(c.id for c in cases)
        twice = sorted(i for i, n in counts.items() if n > 1)
        if twice:
            raise BoodleError(f"--cases {folder}: case id {twice[0]} is used twice")
    if not cases:
        raise BoodleError(f"--cases {folder}: no {CASE_FORMAT} case file in it",
                          hint="give a folder written by 'boodle conformance export', "
                          "or its cases/")
    return cases


def _is_case_file(path: Path) -> bool:
    """Whether ``path`` holds a JSON object whose ``format`` is the case format; a file that
    cannot be read as JSON is skipped with a warning on stderr (a case cut short or
    garbled must not vanish from a run unnoticed), and so is one that is no regular file
    or too big (:func:`.cases.read_case_text`: never read)."""
    try:
        data = json.loads(read_case_text(path))
    except CaseFileError as e:
        return _unreadable(path, e.reason)
    except json.JSONDecodeError as e:
        return _unreadable(path, f"not JSON (line {e.lineno}, column {e.colno}: {e.msg})")
    except RecursionError:
        return _unreadable(path, "not JSON (nested too deep)")
    return isinstance(data, dict) and data.get("format") == CASE_FORMAT


def _unreadable(path: Path, why: str) -> bool:
    print(f"warning: {path}: {why}; skipped", file=sys.stderr)
    return False


def check_writable(option: str, path: Path) -> str | None:
    """Why a report file could not be written after the run, or ``None`` if it can
    (:func:`boodle.out_paths.file_problem`: found before any case runs)."""
    from boodle.out_paths import file_problem

    return file_problem(option, path)


def _builtin_names() -> list[str]:
    from boodle.language.variants import builtin_names

    return builtin_names()


def _select(every: list[Case], variant: str | None, globs: list[str],
            folder: Path | None = None) -> list[Case]:
    """``select``, or :class:`BoodleError` for an unknown variant (with a did-you-mean) or
    a selection that matches no case (its hint lists the cases of ``folder``, a folder of
    cases such as ``--cases DIR`` or a rules suite of the cache, else the suite's own)."""
    names = sorted({c.variant for c in every})
    if variant is not None and variant not in names:
        if variant in _builtin_names() or variant in given_rules():
            raise BoodleError(f"variant {variant!r} has no case",
                              hint="variants with cases: " + ", ".join(names))
        close = difflib.get_close_matches(variant, names, n=3)
        raise BoodleError(f"no case of variant {variant!r}",
                          hint=f"did you mean {' or '.join(repr(n) for n in close)}?" if close
                          else "variants with cases: " + ", ".join(names))
    chosen = select(every, variant, globs)
    if not chosen:
        listing = "boodle conformance list" + (f" --cases {folder}" if folder else "")
        raise BoodleError("no case matches the selection",
                          hint=f"see '{listing}' for the ids")
    return chosen


def _plural(n: int, word: str) -> str:
    """``1 case``, ``2 cases``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def cmd_run(args: argparse.Namespace) -> int:
    """``boodle conformance run``."""
    from boodle.conformance.expected import read_expected, write_expected
    from boodle.conformance.report import console_text, write_json, write_junit, write_markdown
    from boodle.conformance.run_suite import run_suite

    outputs = (("--json", args.json), ("--junit", args.junit), ("--markdown", args.markdown),
               ("--write-expected-failures", args.write_expected_failures))
    for option, path in outputs:
        problem = check_writable(option, path) if path is not None else None
        if problem is not None:
            args.usage_error(problem + " (checked before the run: no case was run)")
    if args.cases is not None and not args.cases.is_dir():
        args.usage_error(f"--cases {args.cases}: " + ("not a folder" if args.cases.exists()
                                                      else "no such folder"))
    if not args.rules and (args.size is not None or args.cache is not None):
        args.usage_error("--size and --cache go with --rules FILE")
    refereed = bool(args.referee_deals or args.referee_sessions)
    if not refereed and (args.seed is not None or args.referee_only):
        args.usage_error("--seed and --referee-only go with --referee-deals N or "
                         "--referee-sessions N")
    if args.referee_only:
        every, chosen = _referee_only(args), []
    else:
        every, folder = _run_cases(args)
        chosen = _select(every, args.variant, args.case, folder)
    expected = read_expected(args.expected_failures) if args.expected_failures else {}
    report = run_suite(chosen, args.impl, args.timeout, args.mode, expected,
                       known_ids={c.id for c in every}, start_timeout=args.start_timeout,
                       max_same_failures=args.max_same_failures,
                       extra=_referee_extra(args) if refereed else None,
                       protocol=f"boodle-protocol/{args.protocol}")
    sys.stdout.write(console_text(report, args.details))
    if args.referee_only and not report.outcomes:  # nothing to referee: said in a warning
        return EXIT_FAILED
    counts = report.counts()
    if report.outcomes and not counts["pass"] and report.ok():
        # green by the rules (nothing failed), but nothing was shown to conform either: an
        # implementation that skips everything must not pass a CI check unnoticed (said on
        # stderr, and among the warnings of the --json, --junit and --markdown reports)
        nothing = (f"no case passed ({_plural(counts['skip'], 'case')} skipped, "
                   f"{counts['xfail']} expected failures): nothing was shown to conform")
        print(f"warning: {nothing}", file=sys.stderr)
        report.warnings.append(nothing)
    for path, writer in ((args.json, write_json), (args.junit, write_junit),
                         (args.markdown, write_markdown)):
        if path is not None:
            writer(report, path)
    if args.write_expected_failures is not None:
        n = write_expected(args.write_expected_failures, report)
        print(f"wrote {_plural(n, 'expected failure')} to {args.write_expected_failures}")
    return EXIT_OK if report.ok() else EXIT_FAILED


def _referee_only(args: argparse.Namespace) -> list[Case]:
    """``--referee-only``: no case of the suite; the rules files of ``--rules`` are read (the
    referee judges in them) and ``--variant`` must be a variant the reference knows."""
    from boodle.conformance.rules_files import load_rules, use

    if args.rules:
        use(load_rules(args.rules))
    if args.variant is not None:
        load_variant(args.variant)  # an unknown variant is an error before the run
    return []


def _referee_extra(args: argparse.Namespace) -> Callable[[Json], tuple[list[Case], list[str]]]:
    """The referee runs of ``--referee-deals`` and ``--referee-sessions``, made once the
    implementation has said what it plays (:func:`.referee.referee_cases`): of ``--variant V``;
    else of the variants the ``--rules`` files declare; else of the variants its ``started``
    declares.  A variant named by ``--variant`` or ``--rules`` is played whether the
    implementation declares it or not: in one-shot mode nothing is declared (no ``started``),
    and in session mode the runner skips what the implementation does not declare, saying
    why, once."""
    from boodle.conformance.referee import Declared, referee_cases

    def extra(started: Json) -> tuple[list[Case], list[str]]:
        declared = [Declared.of(v) for v in started.get("variants", [])]
        warnings: list[str] = []
        if args.variant is not None:
            wanted: list[str] | None = [args.variant]
        elif args.rules:  # the names their 'variant NAME' lines declare, in the order given
            wanted = list(given_rules())  # read (and checked) before the run
        else:
            wanted = None
        names = {d.name for d in declared}
        for name in wanted or ():
            if name not in names:
                declared.append(Declared(name, load_variant(name).version))
                names.add(name)
        if not declared:
            warnings.append("referee runs: no variant to play (the implementation declared "
                            "none; in one-shot mode, give --variant V or --rules FILE)")
        cases: list[Case] = []
        only_ones: list[str | None] = [*wanted] if wanted is not None else [None]
        for only in only_ones:
            made, more = referee_cases(declared, args.referee_deals, args.seed or "0",
                                       only, args.referee_sessions)
            cases.extend(made)
            warnings.extend(more)
        return cases, warnings
    return extra


def _run_cases(args: argparse.Namespace) -> tuple[list[Case], Path | None]:
    """The cases ``run`` runs, every one checked against the rules it was made from, and
    the folder they were read from (``None``: the suite's own).

    With ``--rules``: those of ``--cases DIR``, else the suite of the rules files,
    generated into (or reused from) the cache.  Else those of ``--cases DIR`` (a folder
    of a rules suite judged by the rules files in its ``variants/``) or the suite's own.
    Raises :class:`BoodleError` for a rules file with a fault, rules the reference cannot
    play, or a case made from rules of another hash.
    """
    from boodle.conformance.rules_files import check_hashes, load_rules, rules_beside, use
    from boodle.conformance.rules_suite import DEFAULT_SIZE, cached_suite

    folder: Path | None = args.cases
    if args.rules:
        files = load_rules(args.rules)
        use(files)
        if args.cases is not None:
            every = user_cases(args.cases)
        else:
            folder = cached_suite(files, args.size or DEFAULT_SIZE, args.cache,
                                  lambda line: print(line, file=sys.stderr))
            every = user_cases(folder)
    elif args.cases is not None:
        every = user_cases(args.cases)
        # the rules beside the cases judge them: those they were made from, and any variant
        # boodle does not know (so that a failure shows the state there, in those rules)
        known = variant_paths()
        beside = {c.variant for c in every if "rules_hash" in c.data or c.variant not in known}
        if beside:
            use(rules_beside(args.cases, beside))
    else:
        every = load_cases()
    check_hashes(every)
    return every, folder


def cmd_serve(args: argparse.Namespace) -> int:
    """``boodle conformance serve``."""
    from boodle.conformance.engines import REFERENCE
    from boodle.conformance.mutants import MUTANTS, mutant
    from boodle.conformance.rules_files import load_rules, use
    from boodle.conformance.serve import one_shot, serve

    if args.rules:
        use(load_rules(args.rules))
    if args.list_mutants:
        for name, m in sorted(MUTANTS.items()):
            print(f"{name:<24} {m.rules}")
        return EXIT_OK
    engine = mutant(args.mutant) if args.mutant else REFERENCE
    return one_shot(engine) if args.one_shot else serve(engine, freeze=True)


def cmd_list(args: argparse.Namespace) -> int:
    """``boodle conformance list [--cases DIR]``."""
    every = user_cases(args.cases) if args.cases is not None else load_cases(check=False)
    for case in _select(every, args.variant, args.case, args.cases):
        text = case.data["description"]
        print(f"{case.id:<60} {case.kind:<6} {text[:70] + ('…' if len(text) > 70 else '')}")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    """``boodle conformance show ID [--cases DIR]``."""
    from boodle.conformance.cases import dump_case

    every = user_cases(args.cases) if args.cases is not None else load_cases(check=False)
    for case in every:
        if case.id == args.id:
            sys.stdout.write(dump_case(case.data))
            return EXIT_OK
    matches = [c.id for c in every if args.id in c.id]
    raise BoodleError(f"no case {args.id!r}",
                      hint=("cases containing it: " + ", ".join(matches[:5])) if matches
                      else "see 'boodle conformance list"
                      + (f" --cases {args.cases}'" if args.cases is not None else "'"))


def _folder(text: str) -> Path:
    """An argparse ``type=``: a folder path, not the empty string (which would mean the
    current folder without saying so)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; give a folder ('.' for this one)")
    return Path(text)


def _an_export(folder: Path) -> bool:
    """Whether ``folder`` looks written by ``export`` (its cases, schemas and protocol)."""
    return (folder / "cases").is_dir() and (folder / "schema").is_dir() \
        and (folder / "PROTOCOL.md").is_file()


def cmd_export(args: argparse.Namespace) -> int:
    """``boodle conformance export DIR [--force]``: cases, schemas, documents, the example
    adapter, the spec's prose (``spec/rules.md``, ``spec/michigan.md``), variants.

    Files are written atomically and never through a symbolic link; files the previous
    export wrote (its manifest ``.boodle-export.json`` in DIR) that are no longer part of
    the suite are removed, and no other file (:func:`boodle.owned_files.write_owned`).
    Raises :class:`BoodleError` for a DIR that is a file, a link or non-file in the way of a
    file of the suite, or a folder that is not empty and was not written by ``export``
    (unless ``--force``): its files of the same names (README.md, cases/ …) would be
    replaced without a word."""
    from boodle.owned_files import Content, check_folder, write_owned

    out: Path = args.dir
    check_folder(out)
    if out.is_dir() and any(out.iterdir()) and not _an_export(out) and not args.force:
        raise BoodleError(f"{out} is not empty and was not written by 'boodle conformance "
                          "export'", hint="give a new or empty folder, or add --force to "
                          "write into it (files of the same names are replaced)")
    cases = load_cases()
    files: dict[str, Content] = {}

    def tree(source: Path, into: str) -> None:
        for path in sorted(source.rglob("*")):
            if path.is_file() and not path.is_symlink():
                files[f"{into}/{path.relative_to(source).as_posix()}"] = path

    tree(cases_dir(), "cases")
    tree(suite_dir() / "schema", "schema")
    for name in SHIPPED:
        if (suite_dir() / name).is_file():
            files[name] = suite_dir() / name
    if (suite_dir() / "examples").is_dir():
        tree(suite_dir() / "examples", "examples")
    for prose in SPEC_PROSE:  # the rules the cases pin, rule ids of §12 included
        files[f"spec/{prose}"] = spec_prose(prose)
    paths = variant_paths()
    for name in sorted({c.variant for c in cases}):
        files[f"variants/{name}.boodle"] = paths[name]
        base = load_variant(name).base
        while base is not None:
            files[f"variants/{base}.boodle"] = paths[base]
            base = load_variant(base).base
    write_owned(out, files, ".boodle-export.json")
    print(f"exported {_plural(len(cases), 'case')} to {out}")
    return EXIT_OK


def cmd_generate(args: argparse.Namespace) -> int:
    """``boodle conformance generate [--rules FILE … --out DIR [--size N]] [--out DIR]
    [--check]``."""
    from boodle.conformance.generate import write

    if args.out is not None:
        _check_out_folder(args.out)
    if args.rules:
        return _generate_rules(args)
    if args.size is not None:
        args.usage_error("--size goes with --rules FILE (the suite's own cases have fixed "
                         "numbers)")
    if not args.check:
        out = args.out or _checkout_suite()
        n = write(out)
        print(f"wrote {_plural(n, 'case')} and COVERAGE.md to {out}")
        return EXIT_OK
    with tempfile.TemporaryDirectory() as tmp:
        n = write(Path(tmp))
        changed = _tree_differences(Path(tmp), suite_dir())
    for line in changed[:20]:
        print(line)
    print(f"{_plural(n, 'case')} regenerated: " + (
        f"{_plural(len(changed), 'file')} differ" + ("s" if len(changed) == 1 else "")
        if changed else "byte-identical"))
    return EXIT_FAILED if changed else EXIT_OK


def _generate_rules(args: argparse.Namespace) -> int:
    """``generate --rules FILE … --out DIR [--size N]``: the suite of the rules files."""
    from boodle.conformance.rules_files import load_rules
    from boodle.conformance.rules_suite import DEFAULT_SIZE, write_rules_suite

    if args.out is None:
        args.usage_error("--rules needs --out DIR: the folder to write the cases into")
    if args.check:
        args.usage_error("--check compares the suite's own cases; with --rules, generate "
                         "into --out DIR (the same rules give the same files)")
    out: Path = args.out  # checked by cmd_generate
    if out.is_dir() and any(out.iterdir()) and not (out / "suite.json").is_file():
        raise BoodleError(f"--out {out} is not empty and holds no suite written by "
                          "'generate --rules'", hint="give a new or empty folder")
    files = load_rules(args.rules)

    def progress(variant: str, kind: str, n: int) -> None:
        print(f"{variant}: {_plural(n, kind + ' case')}", file=sys.stderr)

    made = write_rules_suite(files, out, args.size or DEFAULT_SIZE, progress)
    for f in files:
        print(f"wrote {_plural(made[f.name], 'case')} of {f.name} (rules hash "
              f"{f.hash[:12]}…) to {out / 'cases' / f.name}")
    print(f"rules files in {out / 'variants'}; run them with: boodle conformance run "
          f"--impl CMD --cases {out}")
    return EXIT_OK


def _check_out_folder(out: Path) -> None:
    """Refuse, before any case is made, an ``--out`` folder that cannot be written
    (:func:`boodle.out_paths.folder_problem`); raises :class:`BoodleError`."""
    from boodle.out_paths import folder_problem

    problem = folder_problem("--out", out)
    if problem is not None:
        raise BoodleError(problem, hint="give a folder that is new, or empty, in a folder "
                          "that may be written (checked before the run: no case was made)")


def _checkout_suite() -> Path:
    """The suite's folder when it is a source checkout's ``conformance/``, where
    ``generate`` may rewrite it; raises :class:`BoodleError` for an installed suite
    (package data in site-packages), which only ``--out DIR`` may be written instead of."""
    suite = suite_dir()
    root = suite.parent
    if suite.name == "conformance" and (root / "pyproject.toml").is_file() \
            and (root / "reference" / "boodle").is_dir():
        return suite
    raise BoodleError(
        f"the conformance suite at {suite} is installed package data, not a source checkout: "
        "'generate' does not rewrite it",
        hint="give --out DIR to write the cases into a folder of your own, or run it in a "
        "checkout of the sources (pip install -e .); --check writes nothing")


def _tree_differences(new: Path, old: Path) -> list[str]:
    """Files that differ between the regenerated tree and the suite (cases and COVERAGE.md)."""
    out: list[str] = []
    for rel in ("COVERAGE.md",):
        if not (old / rel).exists() or not filecmp.cmp(new / rel, old / rel, shallow=False):
            out.append(f"changed: {rel}")
    new_files = {p.relative_to(new) for p in (new / "cases").rglob("*.json")}
    old_files = {p.relative_to(old) for p in (old / "cases").rglob("*.json")} \
        if (old / "cases").exists() else set()
    out += [f"new: {p}" for p in sorted(new_files - old_files)]
    out += [f"gone: {p}" for p in sorted(old_files - new_files)]
    out += [f"changed: {p}" for p in sorted(new_files & old_files)
            if not filecmp.cmp(new / p, old / p, shallow=False)]
    return out


def cmd_coverage(args: argparse.Namespace) -> int:
    """``boodle conformance coverage``: the report, from the cases as they are."""
    from boodle.conformance.coverage import coverage_markdown

    rules = json.loads((suite_dir() / "spec-rules.json").read_text(encoding="utf-8"))["rules"]
    sys.stdout.write(coverage_markdown([c.data for c in load_cases(check=False)], rules))
    return EXIT_OK
