"""``boodle verify``: the table, the JSON form, exit statuses (issue 5, "boodle verify")."""

from __future__ import annotations

import json

import pytest

from boodle.cli import main


def test_verify_michigan_for_three_players_proves_and_checks_everything(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "michigan — z3" in out and "no counterexample" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("chip conservation"))
    # z3 proved it on the full deck and the 180 deals of the 2x3 deck reached 840 states
    assert "proven" in row and "states" in row
    assert "at most 37 moves per deal" in out  # 52 - 13 (widow) - 2 (opponents keep a card)
    assert "180 deals" in out


def test_verify_json_without_z3(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan-classic", "--players", "4", "--no-z3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "verify-report" and doc["counterexamples"] == 0
    exhaustive = [r for r in doc["results"] if r["method"] == "exhaustive"]
    assert {r["property"] for r in exhaustive} == {"chip conservation", "card conservation",
                                                   "termination", "progress", "well-formedness"}
    assert all(r["players"] == 4 and r["deck"] == "2x3" and r["status"] == "checked"
               for r in exhaustive)
    assert not any(r["method"] == "z3" for r in doc["results"])


def test_a_bad_deck_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["verify", "michigan", "--deck", "9x9"])
    assert exc.value.code == 2
    assert "1-4 suits" in capsys.readouterr().err


def test_an_unknown_variant_is_a_rules_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michgan"]) == 1
    assert "did you mean michigan" in capsys.readouterr().err
