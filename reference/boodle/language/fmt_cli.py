"""``boodle fmt FILE... [--check] [--diff]``: rules files in their canonical layout.

The layout and how comments attach are :mod:`boodle.language.formatter`'s.  Only the files
named are written, each atomically (the new text goes to a temporary file in the same folder,
which then replaces the file: a reader or a kill sees the old text or the new); a file that
is a link has the file it points to rewritten, the link kept.  A file that does not load is
reported with the located errors ``boodle check`` gives and never rewritten.

Exit status: 0 when every file loads (and, with ``--check``, is formatted already); 1 when
a file has an error, or with ``--check`` would change.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from boodle.language.errors import BoodleError

EXIT_OK, EXIT_RULES = 0, 1


def add_parser(sub: Any) -> None:
    """The ``fmt`` command on the ``boodle`` subparsers ``sub``."""
    fmt = sub.add_parser(
        "fmt", help="lay out rules files canonically (comments kept)",
        description="Rewrite rules files in their canonical layout: one rule a line, two "
        "spaces a level, one space between words, comments kept (a comment on a line of its "
        "own goes with the line after it). Only the space between words changes. A file with "
        "errors is reported as 'boodle check' reports it and left as it is.")
    fmt.add_argument("files", nargs="+", metavar="FILE", help="rules files (.boodle)")
    fmt.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 if a file would change")
    fmt.add_argument("--diff", action="store_true",
                     help="write nothing; print what would change as a unified diff")
    fmt.set_defaults(func=cmd_fmt)


def cmd_fmt(args: argparse.Namespace) -> int:
    """``boodle fmt``: format each file named; see the module's docstring for the status."""
    from boodle.language.formatter import format_file

    errors = changed = 0
    for name in args.files:
        try:
            _refuse_builtin_name(name)
            text, formatted = format_file(name)
        except BoodleError as exc:
            print(exc.render(), file=sys.stderr)
            errors += 1
            continue
        if formatted == text:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(keepends=True), formatted.splitlines(keepends=True),
                f"{name} (as written)", f"{name} (formatted)"))
        if args.check:
            print(f"would reformat {name}")
        elif not args.diff:
            try:
                write_atomically(Path(name), formatted)
            except OSError as exc:
                print(f"error: cannot write {name}: {exc.strerror or exc}", file=sys.stderr)
                errors += 1
                continue
            print(f"reformatted {name}")
    kept = len(args.files) - changed - errors
    verb = "would be reformatted" if args.check or args.diff else "reformatted"
    print(f"{changed} file{'s' * (changed != 1)} {verb}, {kept} unchanged"
          + (f", {errors} with errors" if errors else ""), file=sys.stderr)
    return EXIT_RULES if errors or (args.check and changed) else EXIT_OK


def _refuse_builtin_name(name: str) -> None:
    """A name without ``.boodle`` or ``/`` names a built-in variant (spec §11.1), which
    ``fmt`` never rewrites: raises :class:`BoodleError` saying so."""
    from boodle.language.variants import builtin_names, is_path

    if is_path(name):
        return
    what = "is a built-in variant" if name in builtin_names() else "names no rules file"
    raise BoodleError(
        f"'{name}' {what}: fmt rewrites rules files only (a name without .boodle or / is a "
        "built-in variant's, spec §11.1)",
        hint=f"name the file by its path, as in ./{name}" if Path(name).is_file()
        else "name a rules file, as in boodle fmt house.boodle")


def write_atomically(path: Path, text: str) -> None:
    """Replace the file ``path`` (the file a link points to, for a link) with ``text`` in
    UTF-8: written to a temporary file in its folder, flushed to disk, given the old file's
    permissions, then renamed over it.  Raises ``OSError`` (nothing changed) when it cannot."""
    target = path.resolve()
    mode = target.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
