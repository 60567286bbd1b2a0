"""ARCHITECTURE.md matches the code (issue 19): every module it names exists, every module of
the package is named in it, every table it names as ``module.NAME`` is there, and every rule
kind of :data:`boodle.rule_kinds.KINDS` is named by its ``Literal``."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import boodle
from boodle.language import model
from boodle.rule_kinds import KINDS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
PACKAGE = Path(boodle.__file__).resolve().parent
MODULES = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
                 if p.name != "__init__.py" and (p.parent / "__init__.py").is_file())
"""The package's modules: not the data an installed package carries (``pip install .`` puts
the conformance suite's example adapters under ``boodle/data/``, in no package)."""
FOLDERS = ("", "language/", "engine/", "engine/stages/", "session/", "compiled/", "verify/",
           "conformance/", "docs/", "simulate/", "lsp/")
"""Where a module named by its file name alone may be (the doc names most in their folder's
table or list)."""


def test_every_module_it_names_exists() -> None:
    named = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+\.py)`", DOC))
    assert named, "the doc names no module"
    # a path from the checkout's root (the bench, the tests), from the package's, or a module
    # named inside the table or list of its folder
    missing = [n for n in sorted(named) if not (ROOT / n).exists()
               and not (PACKAGE / n).exists() and not any(f"{d}{n}" in MODULES for d in FOLDERS)]
    assert missing == []


def test_every_module_of_the_package_is_named() -> None:
    unnamed = [m for m in MODULES if Path(m).name not in DOC]
    assert unnamed == []


def test_every_table_it_names_is_there() -> None:
    refs = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+)\.([A-Z][A-Z_]+)`", DOC))
    assert refs, "the doc names no table"
    absent = []
    for module, name in sorted(refs):
        dotted = module.replace("/", ".")
        found = False
        for folder in FOLDERS:
            try:
                mod = importlib.import_module(f"boodle.{folder.replace('/', '.')}{dotted}")
            except ModuleNotFoundError:
                continue
            found = found or hasattr(mod, name)
        if not found:
            absent.append(f"{module}.{name}")
    assert absent == []


def test_every_rule_kind_is_named_by_its_literal() -> None:
    names = {id(v): n for n, v in vars(model).items() if not n.startswith("_")}
    literals = {kind: names.get(id(spec.literal)) for kind, spec in KINDS.items()}
    # every kind is a Literal of the model, but the engines' features (language/features)
    assert [k for k, n in literals.items() if n is None] == ["engine feature"]
    unnamed = [n for n in literals.values() if n is not None and f"`{n}`" not in DOC]
    assert unnamed == []
