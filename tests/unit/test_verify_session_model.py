"""Session end as a proof (issue 16): the z3 model of the session (spec §10) and its ranking
function, and the report's rows for it and for what z3 does not model.

Expected values come from spec §10's words: a session with a rotations line ends after at
most rotations × n deals plus the one tie deal; one ended only by targets has no bound
("chips can go round for ever"); a deal that may not end is a session that may not end.
"""

from __future__ import annotations

from boodle.language.build import load_text
from boodle.language.variants import load
from boodle.verify.reduce import reduce
from boodle.verify.session_model import prove_session_end
from boodle.verify.verifier import NOT_MODELLED, Options, Subject, verify
from mutants import MUTANTS


def _session(lines: str, base: str = "michigan") -> str:
    return f"variant probe extends {base} {{\n  session {{\n{lines}  }}\n}}\n"


def test_a_rotations_limit_is_a_ranking_function_of_the_session() -> None:
    ok, why = prove_session_end(load("michigan"))
    assert ok and "2·(n − deals played)" in why
    tie = load_text(_session("    end: after 3 rotations\n    ties: one more deal\n"), "p.boodle")
    ok, why = prove_session_end(tie)
    assert ok and "3 × n + 1" in why  # the tie deal, played at most once


def test_targets_alone_bound_no_session() -> None:
    target = load_text(_session("    end: a player reaches 90 chips\n"), "p.boodle")
    ok, why = prove_session_end(target)
    assert not ok and "no ranking function" in why
    last = load_text(_session("    end: last player with chips\n    balance: eliminated at "
                              "zero\n"), "p.boodle")
    assert not prove_session_end(last)[0]


def _row(results: list, prop: str):  # type: ignore[no-untyped-def]
    return next(r for r in results if r.prop == prop and r.method == "static")


def test_session_end_is_proven_only_when_every_deal_is_proven_to_end() -> None:
    # michigan at every count with z3: each deal's termination proven, so the session's
    results = verify([Subject("michigan", load("michigan"))],
                     Options(exhaustive=False, engine=False))
    row = _row(results, "session end")
    assert row.status == "proven", row.detail
    assert "termination proven with 3, 4, 5, 6, 7 and 8 players" in row.detail
    # z3 off: termination is only searched on a reduced deck, so not proven of the session
    results = verify([Subject("michigan", load("michigan"))],
                     Options(players=(3,), z3=False, engine=False))
    row = _row(results, "session end")
    assert row.status == "unknown" and "z3 is off" in row.detail


def test_a_run_of_some_counts_answers_for_the_sessions_of_those_counts() -> None:
    # spec §10: a session keeps its players, so `--players 4` with termination proven at 4
    # proves the end of a 4-player session (a new user saw "unknown": "not every count was
    # run"); under elimination too: seats leave, but a deal with a seat out is still a deal
    # of 4 seats, which the z3 model at 4 covers (its eliminated-seat ghosts)
    results = verify([Subject("michigan", load("michigan"))],
                     Options(players=(4,), exhaustive=False, engine=False))
    row = _row(results, "session end")
    assert row.status == "proven", row.detail
    assert row.detail.startswith("for sessions of 4 players (the counts run)")
    assert "termination proven with 4 players" in row.detail
    broke = load_text(_session("    end: after 1 rotation\n    balance: eliminated at zero\n"),
                      "p.boodle")
    results = verify([Subject("probe", broke)], Options(players=(4,), exhaustive=False,
                                                        engine=False))
    row = _row(results, "session end")
    assert row.status == "proven", row.detail
    assert row.detail.startswith("for sessions of 4 players (the counts run)")


def test_a_deal_that_loops_is_a_session_that_may_not_end() -> None:
    mutant = MUTANTS["termination"]()
    small = Subject(mutant.name, reduce(mutant.ruleset, 1, 5).ruleset, mutant.mutation)
    results = verify([small], Options(players=(3,), exhaustive=False, engine=False,
                                      decks=((1, 5),), bmc_depth=8, bmc_seconds=60))
    assert any(r.prop == "termination" and r.status == "counterexample" for r in results)
    row = _row(results, "session end")
    assert row.status == "unknown"
    assert "a deal may not end with 3 players" in row.detail


def test_the_not_modelled_row_names_each_stage_and_what_checked_it() -> None:
    options = Options(players=(3,), z3=False)
    tripoli = _row(verify([Subject("tripoli", load("tripoli"))], options), NOT_MODELLED)
    assert "phase hearts (holding)" in tripoli.detail
    assert "(poker showdown)" in tripoli.detail
    assert "checked only by the engine search" in tripoli.detail
    # eliminated seats are modelled by z3 (a ghost per seat, spec/verification.md), and so
    # are the deals of 2 players still in that 'end: last player with chips' plays
    assert "eliminated" not in tripoli.detail and "still in" not in tripoli.detail
    sale = _row(verify([Subject("michigan-widow-sale", load("michigan-widow-sale"))], options),
                NOT_MODELLED)
    assert sale.detail.startswith("the widow sale")
    off = _row(verify([Subject("michigan", load("michigan"))],
                      Options(players=(3,), z3=False, exhaustive=False, engine=False)),
               NOT_MODELLED)
    assert off.detail.startswith("the session's chips across deals")
    assert "not checked by any method that ran" in off.detail
