"""What a fresh user found in ``verify``'s report, ``simulate``, ``ledger``, ``docs`` and
the exit statuses (README: 1 a rules or input error, 2 a usage error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.variants import load
from boodle.verify.report import render_text
from boodle.verify.verifier import Result
from boodle.verify.wellformed import session_end
from cli_helpers import usage_status

# ---------------------------------------------------------------- verify


def test_session_end_is_stated_per_player_count_not_for_the_largest() -> None:
    # michigan: 3 to 8 players, 1 rotation, no tie-break deal: n deals with n players
    ends, why = session_end(load("michigan"))
    assert ends
    assert "= n deals (n from 3 to 8)" in why and "8 players" not in why


def test_the_z3_bound_of_each_player_count_names_its_count() -> None:
    results = [Result("v", 3, "termination", "z3", "proven", "ranking: at most 34 moves per deal"),
               Result("v", 4, "termination", "z3", "proven", "ranking: at most 31 moves per deal"),
               Result("v", 3, "progress", "z3", "proven", "same note"),
               Result("v", 4, "progress", "z3", "proven", "same note")]
    out = render_text(results, 1.0)
    # one line, the numbers in the order of the counts it names (issue 21: grouped)
    assert "  · z3, 3 / 4 players: ranking: at most 34 / 31 moves per deal" in out
    assert "  · z3, 3 and 4 players: same note" in out


_SHARED = ("stops phase, full deck, every dealer; from any start of play the stages before it "
           "can leave (chosen-boodle antes not modelled step by step)")


def _newmarket_like() -> list[Result]:
    """z3's results as Newmarket's report had them (issue 21): for each of 6 player counts,
    four properties with the shared note and termination with the shared note and its own
    bound (numbers made up for the test: 30 + n plays, n passes, 10 n moves)."""
    results = []
    for n in range(3, 9):
        for prop in ("chip conservation", "card conservation", "progress", "well-formedness"):
            results.append(Result("v", n, prop, "z3", "proven", _SHARED))
        results.append(Result("v", n, "termination", "z3", "proven", _SHARED + "; ranking: "
                              f"(cards in hands, pass measure); at most {30 + n} plays and {n} "
                              f"passes before each lead or the end: at most {10 * n} moves "
                              "per deal"))
    return results


def test_near_identical_notes_are_grouped_and_shortened() -> None:
    notes = [line for line in render_text(_newmarket_like(), 1.0).splitlines()
             if line.startswith("  · ")]
    assert notes == [
        f"  · z3, 3, 4, 5, 6, 7 and 8 players: {_SHARED}",
        "  · z3 termination, 3 / 4 / 5 / 6 / 7 / 8 players: ranking: (cards in hands, pass "
        "measure); at most 33 / 34 / 35 / 36 / 37 / 38 plays and 3 / 4 / 5 / 6 / 7 / 8 passes "
        "before each lead or the end: at most 30 / 40 / 50 / 60 / 70 / 80 moves per deal",
    ]


def test_a_note_repeats_no_clause_of_another() -> None:
    out = render_text(_newmarket_like()[:10], 1.0)  # 3 and 4 players
    assert out.count("stops phase, full deck, every dealer") == 1
    assert "  · z3 termination, 3 / 4 players: ranking:" in out


def test_exhaustive_note_writes_states_as_the_table_and_one_variant_in_the_singular() -> None:
    r = Result("v", 4, "progress", "exhaustive", "checked",
               "1512 states, 1152 moves, 360 deals, longest deal 1 moves", 0.5, 1512, "2x3")
    out = render_text([r], 1.0)
    assert out.startswith("boodle verify: 1 variant in 1.0 s")
    assert "1,512 states" in out.split("\n  · ")[0]  # the table
    assert "  · exhaustive, 4 players, deck 2x3: 1,512 states, 1152 moves, 360 deals, " \
           "longest deal 1 move\n" in out + "\n"
    # z3 did not run: the header gives no z3 time
    assert "v — exhaustive 0.5 s" in out and "z3 0.0" not in out


def test_verify_with_every_method_off_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert usage_status(["verify", "michigan", "--no-z3", "--no-exhaustive"]) == 2
    assert "--no-z3 and --no-exhaustive" in capsys.readouterr().err


def test_verify_players_zero_is_a_usage_error_like_play() -> None:
    assert usage_status(["verify", "michigan", "--players", "0"]) == 2
    assert usage_status(["play", "michigan", "--players", "0"]) == 2


# ---------------------------------------------------------------- strategies, workers


@pytest.mark.parametrize("name", ["foo", "GREEDY", "tips"])
def test_play_with_an_unknown_strategy_is_a_usage_error(name: str, capsys) -> None:  # type: ignore[no-untyped-def]
    # play has random and greedy only (strategies.STRATEGIES); tips needs the compiled tables
    assert usage_status(["play", "michigan", "--players", "3", "--strategy", name]) == 2
    assert "play has greedy, random" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["foo", "GREEDY"])
def test_simulate_with_an_unknown_strategy_is_a_usage_error(name: str, capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["simulate", "michigan", "--players", "3", "--deals", "2", "--strategy", name]
    assert usage_status(argv) == 2
    assert "the strategies are random, greedy, tips" in capsys.readouterr().err


def test_more_workers_than_cpus_warns(capsys) -> None:  # type: ignore[no-untyped-def]
    from boodle.simulate.cli import _warn_workers

    _warn_workers(64, 2)
    assert "--workers 64 but this machine has 2 CPUs" in capsys.readouterr().err
    _warn_workers(2, 2)
    _warn_workers(3, None)
    assert capsys.readouterr().err == ""


def test_simulate_help_shows_95_percent_once(capsys) -> None:  # type: ignore[no-untyped-def]
    assert usage_status(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


# ---------------------------------------------------------------- simulate report


def _report(**over: object) -> dict[str, object]:
    zero = {"mean": 0.0, "low": -1.0, "high": 1.0, "n": 5}
    # 0 of 5: Wilson 95 % interval [0, z²/(n+z²)] = [0, 3.8415/8.8415] = [0, 43.45 %]
    none = {"mean": 0.0, "low": 0.0, "high": 0.434482, "n": 5}
    report: dict[str, object] = {
        "variant": "v", "deals": 5, "players": 3, "seed": 0, "sessions_completed": 1,
        "session_length": 3, "engine": "compiled", "backend": "local", "workers": 1,
        "wall_seconds": 0.1, "cpu_seconds": 0.2, "deals_per_wall_second": 50.0,
        "deals_per_cpu_second": 25.0, "deals_asked": 5,
        "seats": [{"seat": 0, "strategy": "random", "net_per_deal": zero,
                   "going_out_rate": none, "net_per_session": zero, "session_wins": 0.5}],
        "definitions": {"net_per_deal": "a", "net_per_session": "b"},
        "strategies": [], "positions": [],
        "sections": [{"section": "game", "claim_rate": none, "chips_after_ante": zero,
                      "chips_when_taken": zero, "carry_over": zero}],
        "plays_per_deal": zero, "leads_per_deal": zero, "passes_per_deal": zero,
        "no_winner_rate": none,
        "kitty": {"section": "game", "label": "Game", "claim_rate": none,
                  "chips_after_ante": zero, "chips_when_taken": zero, "carry_over": zero}}
    report.update(over)
    return report


def test_rates_print_their_wilson_bounds_and_means_a_symmetric_half_width() -> None:
    from boodle.simulate.report import render_text

    text = render_text(_report())
    assert "0.00% [0.00, 43.45]" in text and "0.00% ±" not in text
    assert "0.00 ± 1.00" in text  # a mean: -1 to 1 is 0 ± 1
    assert "(1 whole session of up to 3 deals; compiled engine, local, 1 worker," in text
    assert "wins: whole sessions the seat ended with the most chips; a tie shares one win" \
           in text


def test_the_rates_say_which_clock_they_count() -> None:
    """5 deals in 0.1 s of wall time and 0.2 s of CPU time (two workers): 50 deals per wall
    second, 25 per CPU second; a remote cluster's CPU unknown, the wall rate alone."""
    from boodle.simulate.report import render_text

    first = render_text(_report()).splitlines()[0]
    assert first.endswith("0.1 s wall, 0.2 s CPU; 50 deals per wall second, "
                          "25 deals per CPU second)")
    first = render_text(_report(cpu_seconds=None, deals_per_cpu_second=None)).splitlines()[0]
    assert first.endswith("0.1 s wall; 50 deals per wall second)")


def test_the_going_out_prize_is_named_by_its_label_not_kitty() -> None:
    from boodle.simulate.report import render_text

    text = render_text(_report())
    assert "\nGame (section game, the going-out prize): 0.00 ± 1.00 chips after the ante" in text
    assert "\nkitty:" not in text


def test_pope_joans_report_labels_its_game_section(capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    assert main(["simulate", "pope-joan", "--players", "3", "--deals", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kitty"]["section"] == "game" and doc["kitty"]["label"] == "Game"


# ---------------------------------------------------------------- ledger


def test_an_unfinished_session_says_how_many_of_its_deals_and_how_to_resume(
        tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    path = tmp_path / "k.sqlite"
    assert main(["play", "michigan", "--players", "3", "--ledger", str(path)]) == 0
    conn = sqlite3.connect(path)  # as if killed after deal 1: no later deal, no ending
    with conn:
        conn.execute("DELETE FROM ending")
        conn.execute("DELETE FROM deal WHERE number > 1")
    conn.close()
    capsys.readouterr()
    assert main(["ledger", str(path)]) == 0
    # michigan: 1 rotation of 3 players = 3 deals, ties shared, no end when broke (spec §10)
    assert capsys.readouterr().out.splitlines()[1] == (
        f"  in progress, not finished: 1 of the whole session's 3 deals recorded; "
        f"resume with boodle play --resume {path}")


# ---------------------------------------------------------------- docs


def test_docs_alone_prints_the_docs_help(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["docs"]) == 2
    assert capsys.readouterr().out.startswith("usage: boodle docs ")


def test_the_next_step_after_docs_build_depends_on_a_mkdocs_yml_beside_the_pages(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    from boodle.docs.site import next_step

    assert next_step(tmp_path / "docs").startswith("no mkdocs.yml beside ")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\ndocs_dir: pages\n", encoding="utf-8")
    assert next_step(tmp_path / "pages") == (
        f"now run in {tmp_path.resolve()}: mkdocs build --strict")
    assert "'docs_dir: docs'" in next_step(tmp_path / "docs")  # that mkdocs.yml reads pages/


def test_outside_a_checkout_docs_build_names_what_it_skips(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from boodle.docs import site

    monkeypatch.setattr(site, "checkout_root", lambda: None)
    notes = site.skipped_outside_checkout()
    assert any("spec/index.md is skipped" in n for n in notes)
    monkeypatch.setattr(site, "checkout_root", lambda: Path("."))
    assert site.skipped_outside_checkout() == []


# ---------------------------------------------------------------- boodle.testing


def test_boodle_testing_without_hypothesis_says_what_to_install() -> None:
    import subprocess
    import sys

    code = ("import sys\nsys.modules['hypothesis'] = None  # as if not installed\n"
            "try:\n    import boodle.testing\nexcept ImportError as exc:\n"
            "    print(type(exc).__name__, exc)\n")
    import os

    import boodle

    env = {**os.environ, "PYTHONPATH": str(Path(boodle.__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60, env=env).stdout
    assert out.startswith("ImportError boodle.testing needs Hypothesis: "
                          "pip install 'boodle[testing]'")
    assert "pip install '.[testing]'" in out


# ---------------------------------------------------------------- play --positions


def test_positions_add_lines_and_drop_none(capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["play", "michigan", "--players", "3", "--deals", "2"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--positions"]) == 0
    with_positions = capsys.readouterr().out
    assert "\n\nDeal 1: " in with_positions  # the blank line before each deal is kept
    kept = [line for line in with_positions.splitlines() if not line.startswith("    @ ")]
    assert kept == plain.splitlines()


def test_the_site_builds_from_the_generated_folder_alone_without_the_checkout(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    """issue 21: mkdocs.yml's hooks named reference/boodle/docs/mkdocs_hooks.py, a file of
    the checkout: beside the pages of an installed package, mkdocs refused the config. Now
    the hooks file is one of the pages `boodle docs build` writes, loading the installed
    package's hooks; the project's mkdocs.yml, copied beside them, loads as it is."""
    import shutil

    from mkdocs.config import load_config

    from boodle.docs.site import HOOKS, build_docs, next_step
    from boodle.resources import mkdocs_config

    shutil.copyfile(mkdocs_config(), tmp_path / "mkdocs.yml")
    build_docs(tmp_path / "docs")
    config = load_config(str(tmp_path / "mkdocs.yml"))  # raised: hook file not found
    hooks = config["plugins"]
    names = [name for name in hooks if name.endswith(HOOKS)]
    assert names == [f"docs/{HOOKS}"]
    module = hooks[names[0]]
    assert Path(module.__file__).resolve() == (tmp_path / "docs" / HOOKS).resolve()
    for event in ("on_nav", "on_page_markdown", "on_page_content", "on_post_page",
                  "on_post_build"):
        assert callable(getattr(module, event)), event
    assert next_step(tmp_path / "docs") == f"now run in {tmp_path.resolve()}: mkdocs build --strict"
    advice = next_step(tmp_path / "pages")  # another folder: which two lines to change
    assert "'docs_dir: pages'" in advice and f"'- pages/{HOOKS}'" in advice


def test_the_wheel_ships_the_sites_mkdocs_yml() -> None:
    """Without a checkout, the advice names the copy the wheel ships (resources.mkdocs_config
    looks for it at boodle/data/mkdocs.yml first)."""
    import tomllib

    root = Path(__file__).resolve().parents[2]
    wheel = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = wheel["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert shipped["mkdocs.yml"] == "boodle/data/mkdocs.yml"


def test_a_proof_of_the_stops_phase_alone_says_so_in_its_cell() -> None:
    """Found by a new user: a house rule with a widow auction and a betting round read
    "proven" at 5 to 9 players, though z3 models the stops phase alone (the auction and the
    betting were checked on the engine only, in a few hundred random states)."""
    def results(stages: int) -> list[Result]:
        return [Result("v", 5, "chip conservation", "z3", "proven", "note"),
                Result("v", 5, "session end", "static", "proven", "ends"),
                Result("v", 0, "not modelled", "static", "not modelled", "the widow auction — …",
                       data={"stages of the deal": stages})]
    rows = {line.split("  ")[1]: line for line in render_text(results(1), 1.0).splitlines()
            if line.startswith("  ") and not line.startswith("  ·")}
    assert rows["chip conservation"].rstrip().endswith("proven (stops phase)")
    assert rows["session end"].rstrip().endswith("  proven")  # not a z3 proof of a deal
    assert any(line.startswith("  proven (stops phase): z3 proves the stops phase from every "
                               "state") for line in render_text(results(1), 1.0).splitlines())
    plain = render_text(results(0), 1.0)  # every stage of the deal modelled
    assert "(stops phase)" not in plain


def test_a_variant_line_of_several_runs_says_their_seconds_are_summed() -> None:
    """Found by a new user: the per-variant time adds up the runs (one per player count,
    side by side under --jobs), so it can exceed the header's wall time: it says so."""
    rows = [Result("v", n, "progress", "z3", "checked", "no counterexample", s, 0, "")
            for n, s in ((3, 30.0), (4, 20.5))]
    out = render_text(rows, 35.0)
    assert "v — z3 50.5 s summed over 2 runs" in out  # 30.0 + 20.5, more than the 35.0 s wall
    one = render_text(rows[:1], 35.0)
    assert "v — z3 30.0 s" in one.splitlines()  # one run: nothing summed
