"""Shared fixtures: the Michigan ruleset and a helper to write rules files."""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.language.model import Ruleset
from boodle.language.variants import load


@pytest.fixture(scope="session")
def michigan() -> Ruleset:
    """The built-in Michigan home profile (spec/variants/michigan.boodle)."""
    return load("michigan")


@pytest.fixture()
def write(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write ``text`` to ``tmp_path/name`` and return the path."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


@pytest.fixture(autouse=True)
def _no_proof_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """``boodle verify`` in a test keeps no proof cache unless the test names one
    (``--cache DIR``): a test's runs are made, never read back from the user's cache
    folder or from another test."""
    import boodle.verify.proof_cache as proof_cache

    monkeypatch.setattr(proof_cache, "default_folder", lambda: None)
