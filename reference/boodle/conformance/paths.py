"""Where the suite's files are, installed or in a checkout, and variants by name.

A wheel ships ``conformance/`` as package data under ``boodle/data/conformance``;
in a source checkout it is read from ``conformance/`` at the root.  A case names
its variant; :func:`load_variant` finds it among the rules files a command was
given (``--rules FILE``, :func:`use_rules`), then the built-in variants
(``spec/variants/``), the drafts (``spec/variants/drafts/``) and the suite's
probe variants (``conformance/variants/``), in that order.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from boodle.language.errors import BoodleError
from boodle.resources import variants_dir

if TYPE_CHECKING:
    from boodle.language.model import Ruleset

_PACKAGE = Path(__file__).resolve().parent.parent
_CHECKOUT = _PACKAGE.parent.parent


def suite_dir() -> Path:
    """The ``conformance/`` folder (cases, schemas, probe variants, documents)."""
    for candidate in (_PACKAGE / "data" / "conformance", _CHECKOUT / "conformance"):
        if (candidate / "schema").is_dir():
            return candidate
    raise FileNotFoundError("boodle data missing: no conformance/ folder with a schema/")


def cases_dir() -> Path:
    """The folder of case files (``cases/<variant>/<id>.json``)."""
    return suite_dir() / "cases"


def schema_path(name: str) -> Path:
    """A schema file of ``conformance/schema/`` (``case.schema.json`` …)."""
    return suite_dir() / "schema" / name


def variant_paths() -> dict[str, Path]:
    """Every variant the suite knows, by name: built-ins, then drafts, then probes.

    A name found twice keeps its first place (a draft promoted to a built-in
    is read as the built-in).
    """
    found: dict[str, Path] = {}
    folders = (variants_dir(), variants_dir() / "drafts", suite_dir() / "variants")
    for folder in folders:
        for path in sorted(folder.glob("*.boodle")):
            found.setdefault(path.stem, path)
    return found


_GIVEN: dict[str, tuple[Ruleset, Path]] = {}
"""The variants of the rules files given to this process (``--rules``), by name."""


def use_rules(rulesets: dict[str, tuple[Ruleset, Path]]) -> None:
    """Make ``rulesets`` (variant name → the ruleset and the file it was read from) the
    rules files given to this process: :func:`load_variant` finds them before any
    built-in, draft or probe of the same name.  Replaces what an earlier call gave."""
    _GIVEN.clear()
    _GIVEN.update(rulesets)


def given_rules() -> dict[str, tuple[Ruleset, Path]]:
    """The rules files given by :func:`use_rules` (a copy), by variant name."""
    return dict(_GIVEN)


def load_variant(name: str) -> Ruleset:
    """The ruleset called ``name``: a rules file given (:func:`use_rules`), else the
    built-in, draft or probe of that name; raises :class:`BoodleError` if none has it."""
    given = _GIVEN.get(name)
    if given is not None:
        return given[0]
    return _known_variant(name)


@cache
def _known_variant(name: str) -> Ruleset:
    from boodle.language.build import load_file

    path = variant_paths().get(name)
    if path is None:
        files = ", ".join(str(path) for _, path in _GIVEN.values())
        raise BoodleError(f"no variant '{name}' among the built-ins, drafts and probes"
                          + (f", nor in the rules files given ({files})" if files else ""),
                          hint="give the rules file that defines it with --rules FILE")
    return load_file(path)
