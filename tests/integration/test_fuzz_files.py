"""The file attacks, bounded (issue 20, items 8 and 9): a few dozen hostile rules files and a
few attacked output folders; ``bench/fuzz_files.py`` runs thousands.

What must hold: every display string of a rules file reaches its rules page as text, in every
language (no live script, handler or ``javascript:`` link once rendered as the site renders
it); ``docs build`` and ``conformance export`` into a folder with links out of it, FIFOs or a
manifest naming files outside either write or refuse with an error, and change nothing outside.
"""

from __future__ import annotations

import random
from types import ModuleType

from bench_modules import load_bench
from hostile_text import live_markup


def _bench() -> ModuleType:
    return load_bench("fuzz_files")


def test_the_detector_sees_the_fragments_raw() -> None:
    bench = _bench()
    raw = [f for f in bench.FRAGMENTS if live_markup(f"# t\n\n{f}x\n")]
    assert {"<script>alert(1)</script>", "[x](javascript:x)", "<img src=x onerror=alert(3)>",
            "<b onclick=z>", "<iframe src=//e>"} <= set(raw)
    rng = random.Random(1)
    assert bench.hostile_rules("tripoli", rng).count('"') >= 16  # every display string replaced


def test_hostile_rules_text_stays_text_in_every_language() -> None:
    result = _bench().fuzz_texts(texts=24, seed=20, log=lambda _: None)
    assert result["crashes"] == []
    assert result["live"] == []
    assert sum(result["seen"].values()) == 24


def test_attacked_folders_change_nothing_outside() -> None:
    result = _bench().fuzz_folders(folders=6, seed=20, log=lambda _: None)
    assert result["crashes"] == []
    assert result["changed"] == []
    assert result["seen"].get("refused", 0) > 0  # the links were refused, not written through
