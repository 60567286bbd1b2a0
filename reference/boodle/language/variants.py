"""The built-in variants: ``*.boodle`` files shipped with the package (spec/variants/).

Drafts (``drafts/``) are sketches of variants the engine does not run yet;
they are checked (``boodle check --drafts``) but not listed as playable.
"""

from __future__ import annotations

import re
from pathlib import Path

from boodle.language.errors import BoodleError, did_you_mean
from boodle.language.model import Ruleset
from boodle.resources import variants_dir


def builtin_path(name: str) -> Path:
    """Where built-in variant ``name`` lives (the file may not exist)."""
    return variants_dir() / f"{name}.boodle"


def builtin_names() -> list[str]:
    """Names of the built-in variants, sorted."""
    return sorted(p.stem for p in variants_dir().glob("*.boodle"))


def draft_paths() -> list[Path]:
    """The draft files, sorted by name."""
    return sorted((variants_dir() / "drafts").glob("*.boodle"))


def load(name_or_path: str) -> Ruleset:
    """A built-in variant by name, or a rules file by path.

    Raises :class:`BoodleError` for an unknown name (with a hint) or any
    fault in the file.
    """
    from boodle.language.build import load_file

    path = Path(name_or_path)
    if name_or_path == "-":
        raise BoodleError("reading rules from standard input is not supported",
                          hint="save the rules as a .boodle file and give its path")
    if path.is_dir():
        raise BoodleError(f"{name_or_path} is a directory, not a rules file",
                          hint="give a .boodle file, or a built-in variant's name")
    if path.suffix == ".boodle" or path.is_file():
        if not path.is_file():
            raise BoodleError(f"no such rules file: {name_or_path}")
        return load_file(path)
    if "/" in name_or_path or path.suffix:  # a path, not a name
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
        local = Path(f"{name_or_path}.boodle")
        raise BoodleError(
            f"no built-in variant '{name_or_path}'",
            hint=(f"did you mean ./{local}?" if local.is_file() else None)
            or did_you_mean(name_or_path, builtin_names())
            or "built-in variants: " + ", ".join(builtin_names()),
        )
    return load_file(builtin_path(name_or_path))


_NAME = re.compile(r"[a-z][a-z0-9_]*(-[a-z0-9_]+)*")
"""A variant name (spec §11.1); anything else given for one is a path."""
