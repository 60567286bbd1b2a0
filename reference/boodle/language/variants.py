"""The built-in variants: ``*.boodle`` files shipped with the package (spec/variants/).

Drafts (``drafts/``) are sketches of variants the engine does not run yet;
they are checked (``boodle check --drafts``) but not listed as playable.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import NoReturn

from boodle.language.errors import BoodleError, did_you_mean
from boodle.language.model import Ruleset
from boodle.resources import builtin_names, builtin_path, variants_dir

__all__ = ["builtin_names", "builtin_path", "draft_paths", "is_path", "load"]


def draft_paths() -> list[Path]:
    """The draft files, sorted by name."""
    return sorted((variants_dir() / "drafts").glob("*.boodle"))


def load(name_or_path: str) -> Ruleset:
    """A built-in variant by name, or a rules file by path.

    Raises :class:`BoodleError` for an unknown name (with a hint) or any
    fault in the file.
    """
    from boodle.language.build import load_file

    if name_or_path == "-":
        raise BoodleError("reading rules from standard input is not supported",
                          hint="save the rules as a .boodle file and give its path")
    if is_path(name_or_path):
        path = Path(name_or_path)
        if path.is_dir():
            raise BoodleError(f"{name_or_path} is a directory, not a rules file",
                              hint="give a .boodle file, or a built-in variant's name")
        if path.is_file():
            return load_file(path)
        if path.is_symlink():  # exists() follows it: a dangling link, or a loop of links
            raise BoodleError(
                f"{name_or_path} is a symbolic link to {os.readlink(path)}, which leads to "
                "no file (it is missing, or the links go round in a loop)",
                hint="point the link at the rules file, or give the file's own path")
        if not path.exists() and path.suffix == ".boodle":
            _no_rules_file(name_or_path, path)
        raise BoodleError(
            f"{name_or_path} is not a regular file" if path.exists()
            else f"no such file: {name_or_path}",
            hint="a rules file is a path to a .boodle file; a built-in variant is a name "
            "(built-in variants: " + ", ".join(builtin_names()) + ")",
        )
    if not _NAME.fullmatch(name_or_path):
        raise BoodleError(
            f"no built-in variant '{name_or_path}'",
            hint=did_you_mean(name_or_path.lower(), builtin_names())
            or "variant names are ASCII lower case letters, digits and '-'; the built-in "
            "variants: " + ", ".join(builtin_names()),
        )
    if not builtin_path(name_or_path).is_file():
        raise BoodleError(
            f"no built-in variant '{name_or_path}'",
            hint=_local_file(name_or_path)
            or did_you_mean(name_or_path, builtin_names())
            or "built-in variants: " + ", ".join(builtin_names()),
        )
    return load_file(builtin_path(name_or_path))


def is_path(argument: str) -> bool:
    """Whether a variant argument names a file: it ends in ``.boodle`` or holds a ``/``
    (or the platform's separator).  Anything else is a built-in variant's name, whatever
    files or folders the current folder holds, so that a folder named like a built-in
    (``boodle check boodle`` beside a clone) cannot hide it (spec §11.1)."""
    return argument.endswith(".boodle") or "/" in argument or os.sep in argument


def _no_rules_file(name: str, path: Path) -> NoReturn:
    """Raise the error of a ``.boodle`` path that leads to nothing, with the hint that fixes
    it: a file in the way of the path (``friday.boodle/x.boodle``), a folder that is not
    there, or the close name of a rules file beside it."""
    blocker = next((p for p in path.parents if p.is_file()), None)
    if blocker is not None:
        raise BoodleError(f"no such rules file: {name} ({blocker} is a file, not a folder)",
                          hint=f"give the rules file's own path, as in {blocker}")
    folder = path.parent
    if not folder.is_dir():
        raise BoodleError(f"no such rules file: {name}",
                          hint=f"no folder {folder}: check the path")
    try:
        here = sorted(p.name for p in folder.glob("*.boodle") if p.is_file())
    except OSError:
        here = []
    close = difflib.get_close_matches(path.name, here, n=1, cutoff=0.5)
    shown = (str(folder / close[0]) if name != path.name else close[0]) if close else ""
    raise BoodleError(f"no such rules file: {name}",
                      hint=f"did you mean {shown}?" if close else
                      f"the folder {folder} holds no rules file of a close name")


def _local_file(name: str) -> str | None:
    """The hint for a name that is no built-in but a file here: write it as a path."""
    for candidate in (Path(f"{name}.boodle"), Path(name)):
        if candidate.is_file():
            return f"did you mean ./{candidate}?"
    return None


_NAME = re.compile(r"[a-z][a-z0-9_]*(-[a-z0-9_]+)*")
"""A variant name (spec §11.1); anything else given for one is a path."""
