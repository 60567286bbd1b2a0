"""Session ends by target (spec §10; issue 18 item 8, issue 17 error 2): 'end: last player
with chips', 'end: a player reaches N chips', 'end: never'; their build errors, the run, the
command line and what verify says of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.engine.events import DealStart, Eliminated, SessionEnd
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import SessionSpec
from boodle.language.variants import load
from boodle.session.run import play_session
from boodle.verify.wellformed import session_end


def session(lines: str, base: str = "michigan") -> str:
    return f"variant probe extends {base} {{\n  session {{\n{lines}  }}\n}}\n"


def spec(lines: str) -> SessionSpec:
    return load_text(session(lines), "probe.boodle").session


def test_without_an_end_line_the_session_lasts_one_rotation_and_targets_alone_have_none(
) -> None:
    assert spec("    start: 50 chips\n").rotations == 1
    last = spec("    end: last player with chips\n    balance: eliminated at zero\n")
    assert last.rotations is None and last.end_last_with_chips
    both = spec("    end: after 3 rotations\n    end: a player reaches 80 chips\n")
    assert (both.rotations, both.end_target) == (3, 80)
    assert spec("    end: never\n").end_never


def test_end_never_with_another_end_line_is_refused_at_the_later_line() -> None:
    with pytest.raises(BoodleError) as err:
        spec("    end: never\n    end: after 2 rotations\n")
    e = err.value
    assert "'end: never'" in e.message and e.span is not None and e.span.line == 4
    assert e.hint is not None and "keep 'end: never'" in e.hint


def test_a_target_the_players_start_with_is_refused() -> None:
    with pytest.raises(BoodleError) as err:
        spec("    start: 50 chips\n    end: a player reaches 50 chips\n")
    e = err.value
    assert "every player starts with 50" in e.message and e.span is not None
    assert (e.span.line, e.span.column) == (4, 5)
    assert e.hint is not None and "end: a player reaches 100 chips" in e.hint


def test_a_session_with_no_end_needs_a_number_of_deals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "probe.boodle"
    path.write_text(session("    end: never\n"), encoding="utf-8")
    rules = load_text(path.read_text(encoding="utf-8"), str(path))
    with pytest.raises(ValueError, match="no session end"):
        play_session(rules, 3, 1)
    result = play_session(rules, 3, 1, deals=5)  # more than the one rotation of 3 deals
    assert len([e for e in result.events if isinstance(e, DealStart)]) == 5
    assert not [e for e in result.events if isinstance(e, SessionEnd)] and result.winners == ()
    with pytest.raises(SystemExit) as stop:
        main(["play", str(path), "--players", "3"])
    assert stop.value.code == 2
    assert "has no session end ('end: never'): give --deals K" in capsys.readouterr().err
    assert main(["play", str(path), "--players", "3", "--deals", "4"]) == 0


def test_verify_says_a_session_with_no_end_has_none_and_a_target_alone_is_not_bounded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    never = load_text(session("    end: never\n"), "probe.boodle")
    target = load_text(session("    end: a player reaches 90 chips\n"), "probe.boodle")
    assert session_end(never)[0] == "no end" and "no end" in session_end(never)[1]
    assert session_end(target)[0] == "unknown" and "90 chips" in session_end(target)[1]
    assert session_end(load("tripoli"))[0] == "checked"
    path = tmp_path / "probe.boodle"
    path.write_text(session("    end: never\n"), encoding="utf-8")
    assert main(["verify", str(path), "--players", "3", "--no-z3", "--deck", "2x3",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    row = next(r for r in rows if r["property"] == "session end")
    assert row["status"] == "no end"


def test_tripoli_plays_on_after_an_elimination_until_one_player_has_chips() -> None:
    """004 "Victoire": an eliminated player drops out and "la partie continue jusqu'à ce
    qu'un gagnant émerge". With 12 chips each and 10 rotations allowed, some seeds eliminate
    two of four players: the two left (fewer than Tripoli's 3) play on, and a session that
    ends before its 40 deals ends with one player alone holding chips."""
    text = ("variant probe extends tripoli {\n  session {\n    start: 12 chips\n"
            "    end: after 10 rotations\n    end: last player with chips\n"
            "    balance: eliminated at zero\n  }\n}\n")
    rules = load_text(text, "probe.boodle")
    below_minimum = 0
    for seed in range(6):
        result = play_session(rules, 4, seed)
        events = list(result.events)
        out: set[int] = set()
        for e in events:
            if isinstance(e, Eliminated):
                out.add(e.seat)
            if isinstance(e, DealStart):
                assert e.dealer not in out  # an eliminated seat never deals (spec §10)
                below_minimum += len(out) >= 2
        if result.deals < 40:
            assert sum(b > 0 for b in result.standings) == 1
    assert below_minimum > 0


def test_the_page_of_a_session_with_no_end_states_no_split_and_no_winner() -> None:
    from boodle.docs.templates import load as templates
    from boodle.docs.variant_page import standalone_markdown

    page = standalone_markdown(load_text(session("    end: never\n"), "probe.boodle"),
                               templates("en"))
    end = page[page.index("## Session end"):]
    end = end[:end.index("\n## ")] if "\n## " in end else end
    assert "The session has no end" in end
    assert "split" not in end and "wins" not in end
