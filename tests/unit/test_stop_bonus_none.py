"""``stop bonus: none`` (spec §6.7): a house rule removes its base phase's stop bonus, which
``stop bonus: 0 from …`` could only do by a bonus of nothing (found by a new user)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.model import StopsPhase
from boodle.language.variants import load

NO_BONUS = """\
variant nobonus extends michigan-paid-stops {
  phase play is stops {
    stop bonus: none
  }
}
"""


def _stops(path: Path) -> StopsPhase:
    phase = next(p for p in load(str(path)).phases if isinstance(p, StopsPhase))
    return phase


def test_none_removes_the_bases_bonus_and_keeps_every_other_rule(tmp_path: Path) -> None:
    path = tmp_path / "nobonus.boodle"
    path.write_text(NO_BONUS, encoding="utf-8")
    paid = next(p for p in load("michigan-paid-stops").phases if isinstance(p, StopsPhase))
    assert paid.stop_bonus is not None and paid.stop_bonus.amount == 1  # 1 from kitty
    mine = _stops(path)
    assert mine.stop_bonus is None
    # rule by rule (spec §11.2): the phase is michigan-paid-stops's but for the bonus,
    # which is michigan's own phase (michigan-paid-stops adds only the bonus to it)
    michigan = next(p for p in load("michigan").phases if isinstance(p, StopsPhase))
    assert mine == michigan


def test_check_lists_the_change_and_a_zero_bonus_is_warned(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nobonus.boodle"
    path.write_text(NO_BONUS, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "phase play: stop bonus: 1 from kitty → none" in out and "warning" not in out
    zero = tmp_path / "zero.boodle"
    zero.write_text(NO_BONUS.replace("variant nobonus", "variant zero").replace(
        "stop bonus: none", "stop bonus: 0 from kitty"), encoding="utf-8")
    assert main(["check", str(zero)]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"{zero}:3:5: warning: a stop bonus of 0 chips pays nothing" in lines
    assert "hint: write 'stop bonus: none'" in lines
