"""Where the grammar and the built-in variants live, installed or in a checkout.

A wheel ships them as package data under ``boodle/data/`` (see
``pyproject.toml``); in a source checkout (editable install, or running from
the tree) they are read from ``grammar/``, ``spec/variants/`` and ``spec/`` at the root.
"""

from __future__ import annotations

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


def spec_prose(name: str) -> Path:
    """A normative prose file of ``spec/`` (``rules.md``, ``michigan.md``): what
    ``boodle conformance export`` copies for implementers without a checkout."""
    return _first_existing(_PACKAGE / "data" / "spec" / name, _CHECKOUT / "spec" / name)
