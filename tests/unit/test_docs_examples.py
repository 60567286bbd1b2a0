"""The rules-language examples in README.md must be valid, so the README cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

from boodle.language.build import load_text

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_readme_variant_example_loads() -> None:
    blocks = re.findall(r"```text\n(variant .*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    loaded = [load_text(block, "README.md") for block in blocks]
    assert loaded[0].name == "michigan"
    assert loaded[1].base == "michigan"
    assert loaded[1].antes[-1].payer == "dealer"
