"""A fresh user's findings on a session with eliminations (spec §10 Balances): ``boodle
play`` says why the session ended when too few players remain, and each deal's header says
how many players are still in; the JSON events keep the fields of boodle-protocol/2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boodle.cli import main

THIN = """\
variant michigan-thin extends michigan {
  session {
    start: 10 chips
    end: after 3 rotations
    balance: eliminated at zero
  }
}
"""
"""Michigan (``players 3 to 8``, michigan.boodle) with few chips and elimination."""


def _play(tmp_path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> str:
    path = tmp_path / "michigan-thin.boodle"
    path.write_text(THIN, encoding="utf-8")
    assert main(["play", str(path), "--players", "4", "--seed", "4", *more]) == 0
    return capsys.readouterr().out


def test_a_session_ended_by_too_few_players_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _play(tmp_path, capsys)
    out_players = len(re.findall(r"has no chips left: eliminated", out))
    deals = len(re.findall(r"^Deal \d+:", out, re.M))
    still_in = 4 - out_players
    assert still_in < 3  # michigan's minimum: the session ends early (spec §10)
    assert deals < 3 * 4  # before its 3 rotations of 4 deals
    assert f"Session end: only {still_in} players still in, fewer than michigan-thin's " \
           "minimum of 3 players" in out.splitlines()


def test_the_session_end_event_keeps_the_protocol_fields(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PROTOCOL.md compares events field by field: session-end has standings, winners,
    ledger; deal-start number, dealer, players."""
    events = [json.loads(line) for line in _play(tmp_path, capsys, "--json").splitlines()]
    assert set(events[-1]) == {"kind", "standings", "winners", "ledger"}
    assert all(set(e) == {"kind", "number", "dealer", "players"}
               for e in events if e["kind"] == "deal-start")


def test_a_deal_header_after_an_elimination_says_how_many_are_still_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _play(tmp_path, capsys).splitlines()
    out = 0
    for line in lines:
        if line.startswith("Deal "):
            want = "4 players" if out == 0 else f"4 players, {4 - out} still in"
            assert line.endswith(f"deals, {want}"), line
        out += line.endswith("has no chips left: eliminated")
    assert out >= 1 and any(line.endswith("still in") for line in lines if line[:5] == "Deal ")


@pytest.mark.parametrize(("lang", "minimum", "rotation"), [
    ("en", "If fewer players remain than the variant's minimum, the session ends after that "
     "deal.", "so that every player deals equally often until one is eliminated"),
    ("fr", "S'il reste moins de joueurs que le minimum de la variante, la partie s'arrête "
     "après cette donne.", "pour que chacun donne autant de fois jusqu'à ce qu'un joueur soit "
     "éliminé"),
    ("it", "Se restano meno giocatori del minimo della variante, la sessione finisce dopo "
     "quella mano.", "così che ognuno distribuisca lo stesso numero di volte finché nessuno "
     "è eliminato"),
    ("pt", "Se restarem menos jogadores que o mínimo da variante, a sessão termina depois "
     "dessa mão.", "para que todos distribuam o mesmo número de vezes até que alguém seja "
     "eliminado"),
])
def test_the_rules_page_says_the_session_ends_below_the_minimum_and_rotations_after_an_exit(
        lang: str, minimum: str, rotation: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Spec §10 Balances: "If fewer players remain than the variant's minimum (§1), the
    session ends after that deal, except under `end: last player with chips`"; `end: after
    N rotations` counts N × n deals, n the players at the start, and an eliminated seat never
    deals, so "every player deals equally often" holds only until someone is out."""
    path = tmp_path / "michigan-thin.boodle"
    path.write_text(THIN, encoding="utf-8")
    assert main(["docs", "page", str(path), "--lang", lang]) == 0
    page = capsys.readouterr().out
    assert minimum in page and rotation in page
    # tripoli ends with the last player with chips: the players still in play on, however few
    assert main(["docs", "page", "tripoli", "--lang", lang]) == 0
    page = capsys.readouterr().out
    assert minimum not in page and rotation in page
