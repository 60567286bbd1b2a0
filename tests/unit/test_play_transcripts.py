"""A golden play-by-play per built-in variant: ``boodle play V --players P --seed 1 --deals 2``.

Golden files catch changes, not errors (the rules' hand-worked tests do that): any change of
how a variant plays, of the trace's wording or of the seeded deal shows here as a diff to
review.  Regenerate after an intended change and read the diff:
``BOODLE_UPDATE_GOLDEN=1 python -m pytest -q tests/unit/test_play_transcripts.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.variants import builtin_names, load

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "play"
UPDATE = os.environ.get("BOODLE_UPDATE_GOLDEN") == "1"


def _players(name: str) -> int:
    """Four players where the variant allows them (the seeds' usual table), else its fewest."""
    allowed = load(name).players
    return 4 if 4 in allowed else min(allowed)


@pytest.mark.parametrize("name", builtin_names())
def test_the_play_by_play_is_unchanged(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    players = _players(name)
    status = main(["play", name, "--players", str(players), "--seed", "1", "--deals", "2"])
    out = capsys.readouterr().out
    assert status == 0
    path = GOLDEN / f"{name}.txt"
    header = f"$ boodle play {name} --players {players} --seed 1 --deals 2\n"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(header + out, encoding="utf-8")
    assert path.is_file(), ("no golden transcript; create it with BOODLE_UPDATE_GOLDEN=1 "
                            "python -m pytest -q tests/unit/test_play_transcripts.py")
    assert header + out == path.read_text(encoding="utf-8")


def test_every_golden_transcript_is_of_a_built_in_variant() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == builtin_names()
