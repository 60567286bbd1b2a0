"""The built-in variants: ``*.boodle`` files shipped with the package (spec/variants/).

Drafts (``drafts/``) are sketches of variants the engine does not run yet;
they are checked (``boodle check --drafts``) but not listed as playable.
"""

from __future__ import annotations

from pathlib import Path

from .errors import BoodleError, did_you_mean
from .model import Ruleset
from .resources import variants_dir


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
    from .build import load_file

    path = Path(name_or_path)
    if path.suffix == ".boodle" or path.is_file():
        if not path.is_file():
            raise BoodleError(f"no such rules file: {name_or_path}")
        return load_file(path)
    if not builtin_path(name_or_path).is_file():
        raise BoodleError(
            f"no built-in variant '{name_or_path}'",
            hint=did_you_mean(name_or_path, builtin_names())
            or "built-in variants: " + ", ".join(builtin_names()),
        )
    return load_file(builtin_path(name_or_path))
