"""``boodle verify`` on decks it cannot finish: the bound (``--max-states``), the progress it
shows, and a header and JSON that say what ran (found by a fresh user: ``--deck 4x13
--no-z3`` ran with no end in sight and no progress, the header said "z3: unbounded" with z3
off, and each JSON row's ``seconds`` was the run's time split evenly over five properties).
"""

from __future__ import annotations

import io
import json
import re
import time

from boodle.cli import main
from boodle.language.variants import load
from boodle.verify.cli import DEFAULT_MAX_STATES, LOG_EVERY, Progress
from boodle.verify.explicit import TICK, check_deals, deal_count
from boodle.verify.reduce import reduce
from boodle.verify.verifier import PROPERTIES, Options, Subject, verify

_FIVE = set(PROPERTIES[:5])


# ---------------------------------------------------------------- counting deals


def test_deal_counts_are_the_multinomials_of_the_parts() -> None:
    michigan = load("michigan")
    # 2x3, 3 players: 6 cards in 3 hands and a widow, parts 2, 2, 1, 1: 6!/(2!2!) = 180
    assert deal_count(reduce(michigan, 2, 3).ruleset, 3) == 180
    # 2x4, 3 players: 8 cards in parts of 2: 8!/2!^4 = 40320/16 = 2520
    assert deal_count(reduce(michigan, 2, 4).ruleset, 3) == 2520
    # 4x13, 3 players: 52 cards in 4 parts of 13, the number of bridge deals
    assert deal_count(reduce(michigan, 4, 13).ruleset, 3) == 53_644_737_765_488_792_839_237_440_000


def test_the_counted_deals_are_the_deals_searched() -> None:
    small = reduce(load("michigan"), 2, 3).ruleset
    res = check_deals(small, 3, "2x3")
    assert res.complete and res.deals_raw == res.deals_total == 180


# ---------------------------------------------------------------- the bound


def test_a_search_cut_by_its_bound_is_incomplete_and_one_state_more_completes_it() -> None:
    small = reduce(load("michigan"), 2, 3).ruleset
    full = check_deals(small, 3, "2x3")
    assert full.complete
    exact = check_deals(small, 3, "2x3", max_states=full.states)
    assert exact.complete and exact.states == full.states  # the bound met, not passed
    cut = check_deals(small, 3, "2x3", max_states=full.states - 1)
    assert not cut.complete and cut.states == full.states - 1


def test_a_deck_with_more_deals_than_the_bound_is_not_searched() -> None:
    small = reduce(load("michigan"), 2, 4).ruleset  # 2,520 deals, Michigan has no symmetry
    start = time.perf_counter()
    res = check_deals(small, 3, "2x4", max_states=2519)
    assert not res.complete and res.states == 0 and res.deals_raw == 0
    assert time.perf_counter() - start < 1.0
    # as many states as deals may still be enough: the search is begun
    begun = check_deals(small, 3, "2x4", max_states=2520)
    assert begun.states == 2520 and not begun.complete


def test_verify_reports_an_unfinished_search_as_incomplete_never_checked(capsys) -> None:  # type: ignore[no-untyped-def]
    # Michigan on 2x3 with 3 players: 180 deals (so 500 states may do) and 840 states in
    # all (tests/integration/test_verify_cli.py): a bound of 500 lets the search begin and cuts it
    status = main(["verify", "michigan", "--players", "3", "--no-z3", "--deck", "2x3",
                   "--max-states", "500", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 1
    every = [r for r in doc["results"] if r["method"] == "exhaustive"]
    assert {r["property"] for r in every} == _FIVE | {"engine = model"}
    rows = [r for r in every if r["property"] in _FIVE]
    assert all(r["status"] == "incomplete" and r["states"] == 500 for r in rows)
    # the states it compared with the model are not "checked" either (issue 16)
    assert [r["status"] for r in every if r["property"] == "engine = model"] == ["incomplete"]
    assert "bound reached: 500 states explored (--max-states 500)" in rows[0]["detail"]
    assert {g["property"] for g in doc["unverified"]} == _FIVE


def test_the_text_report_says_incomplete_and_not_verified(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3", "--no-z3", "--deck", "2x3",
                 "--max-states", "500"]) == 1
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("termination"))
    assert "incomplete: 500 states" in row and "checked" not in row
    assert "NOT VERIFIED: 5 properties" in out
    assert "no counterexample\n" not in out + "\n"


def test_a_full_deck_is_refused_at_once_and_names_decks_that_finish(capsys) -> None:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    assert main(["verify", "michigan", "--players", "3", "--no-z3", "--deck", "4x13"]) == 1
    assert time.perf_counter() - start < 30
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("progress"))
    assert "incomplete: not searched" in row
    # 52!/(13!^4) = 5.36e28 deals, Michigan's only suit symmetry being the identity
    assert "not searched: about 5.4e+28 deals of the 4x13 deck with 3 players" in out
    assert f"--max-states {DEFAULT_MAX_STATES:,}" in out
    assert "measured on Michigan: 2x5 ends within the default bound" in out


def test_the_default_bound_leaves_the_default_decks_complete(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3", "--no-z3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert all(r["status"] == "checked" for r in rows if r["method"] == "exhaustive")


# ---------------------------------------------------------------- progress


def test_a_search_reports_its_progress_every_tick() -> None:
    lines: list[str] = []
    options = Options(players=(3,), z3=False, decks=((2, 4),))
    results = verify([Subject("michigan", load("michigan"))], options, live=lines.append)
    states = next(r.states for r in results if r.method == "exhaustive")
    assert states >= TICK  # Michigan on 2x4 with 3 players: 12,672 states
    assert len(lines) == states // TICK
    assert lines[0].startswith(f"michigan, 3 players, exhaustive on 2x4: {TICK:,} states (")
    assert "of 2,520 (" in lines[0] and "/s CPU), deal " in lines[0] and " left" in lines[0]
    assert "/s wall, " in lines[0]


def test_the_time_left_is_the_time_so_far_scaled_by_the_deals_to_come() -> None:
    from boodle.verify.explicit import ExplicitResult
    from boodle.verify.verifier import _so_far

    # a quarter of the deals in 60 s: three quarters to come, about 180 s = 3 min
    # 24,000 states in 60 s of wall time (400 a second) and 48 s of CPU time (500 a second)
    res = ExplicitResult("v", "3x4", 3, 1, deals_raw=100, deals_total=400, states=24_000,
                         seconds=60.0, cpu_seconds=48.0)
    assert _so_far(res) == ("24,000 states (400/s wall, 500/s CPU), deal 100 of 400 (25.0%), "
                            "60 s, about 3 min left")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_on_a_terminal_the_status_is_one_line_rewritten_and_wiped() -> None:
    stream, clock = _Terminal(), _Clock()
    shown = Progress(stream, clock=clock)
    assert shown.tty and shown.every == 0.2
    shown.live("a")  # the first status waits a full interval
    clock.now += 0.1
    shown.live("b")  # too soon
    clock.now += 0.2
    shown.live("c")
    shown.say("done")
    assert stream.getvalue() == "\r\x1b[Kc\r\x1b[Kdone\n"


def test_in_a_log_the_status_is_a_line_every_thirty_seconds() -> None:
    stream, clock = io.StringIO(), _Clock()
    shown = Progress(stream, clock=clock)
    assert not shown.tty and shown.every == LOG_EVERY == 30.0
    shown.live("a")
    clock.now += 29
    shown.live("b")
    clock.now += 2
    shown.live("c")
    shown.say("done")
    shown.live("d")  # a new step: it waits a full interval again
    assert stream.getvalue() == "c\ndone\n"


# ---------------------------------------------------------------- header and JSON


def test_the_header_says_z3_is_off_under_no_z3(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3", "--no-z3"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "z3 off" in head and "unbounded" not in head
    assert ("exhaustive: every deal of a reduced deck (2x3, else 2x4, else 3x4), dealer seat "
            f"0, at most {DEFAULT_MAX_STATES:,} states per player count") in head
    assert re.search(r"in \d+\.\d s wall, \d+\.\d s CPU \(", head)


def test_the_header_says_the_exhaustive_search_is_off(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3", "--no-exhaustive"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "z3: unbounded, full deck; exhaustive search off" in head
    assert "every deal" not in head


def test_json_rows_carry_the_time_of_their_run_not_a_fifth_of_it(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3", "--players", "4", "--no-z3",
                 "--json", "--jobs", "1"]) == 0  # serial: the runs one after the other
    doc = json.loads(capsys.readouterr().out)
    assert doc["methods"].startswith("z3 off; exhaustive: every deal")
    assert doc["cpu_seconds"] >= 0
    rows = [r for r in doc["results"] if r["method"] == "exhaustive"]
    assert all("seconds" not in r and "run_seconds" in r for r in rows)
    for n in (3, 4):  # the five properties of one search share its time
        assert len({r["run_seconds"] for r in rows if r["players"] == n}) == 1
    # the two searches' times add up to no more than the whole run
    per_run = {r["players"]: r["run_seconds"] for r in rows}
    assert sum(per_run.values()) <= doc["seconds"] + 0.01


def test_the_variant_line_counts_each_run_once(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "michigan", "--players", "3", "--no-z3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    run = next(r["run_seconds"] for r in doc["results"] if r["method"] == "exhaustive")
    from boodle.verify.report import render_text
    from boodle.verify.verifier import Result

    results = [Result(r["variant"], r["players"], r["property"], r["method"], r["status"],
                      r["detail"], r["run_seconds"], r["states"], r["deck"])
               for r in doc["results"]]
    assert f"michigan — exhaustive {run:.1f} s" in render_text(results, doc["seconds"])

