"""Where the grammar and the built-in variants live, installed or in a checkout.

A wheel ships them as package data under ``boodle/data/`` (see
``pyproject.toml``); in a source checkout (editable install, or running from
the tree) they are read from ``grammar/``, ``spec/variants/`` and ``spec/`` at the root.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent.parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise FileNotFoundError(
        "boodle data missing: none of " + ", ".join(str(c) for c in candidates)
    )


def grammar_path() -> Path:
    """The grammar file ``boodle.lark``."""
    return _first_existing(
        _PACKAGE / "data" / "grammar" / "boodle.lark", _CHECKOUT / "grammar" / "boodle.lark"
    )


def variants_dir() -> Path:
    """The folder of built-in variants (``*.boodle``; drafts in ``drafts/``)."""
    return _first_existing(_PACKAGE / "data" / "variants", _CHECKOUT / "spec" / "variants")


def builtin_path(name: str) -> Path:
    """Where built-in variant ``name`` lives (the file may not exist).  Here, not in
    :mod:`boodle.language.variants`, so that ``extends`` (:mod:`boodle.language.extends`)
    finds a built-in without importing the module that loads variants (which imports the
    builder: the two imported each other)."""
    return variants_dir() / f"{name}.boodle"


def builtin_names() -> list[str]:
    """Names of the built-in variants, sorted."""
    return sorted(p.stem for p in variants_dir().glob("*.boodle"))


def spec_prose(name: str) -> Path:
    """A normative prose file of ``spec/`` (``rules.md``, ``michigan.md``): what
    ``boodle conformance export`` copies for implementers without a checkout."""
    return _first_existing(_PACKAGE / "data" / "spec" / name, _CHECKOUT / "spec" / name)


def mkdocs_config() -> Path:
    """The rules site's ``mkdocs.yml`` (the checkout's, else the copy a wheel ships), for a
    reader who builds the site from an installed package."""
    return _first_existing(_PACKAGE / "data" / "mkdocs.yml", _CHECKOUT / "mkdocs.yml")


def cache_dir() -> Path | None:
    """The folder where boodle keeps what it can rebuild (the grammar's parse tables):
    ``$XDG_CACHE_HOME/boodle``, else ``~/.cache/boodle``, created if need be.

    ``None`` when there is no such folder that may be written (no home, a read-only home,
    ``XDG_CACHE_HOME`` naming a file): the caller then works without a cache.  Never the
    package's folder (site-packages may be read-only, and is shared) nor the current one.
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
        folder = root / "boodle"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: no home directory to be found
        return None
    return folder if os.access(folder, os.W_OK | os.X_OK) else None
