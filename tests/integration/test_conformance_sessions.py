"""Session cases of the conformance suite (kind ``session``, feature ``session``).

A session case gives every chance outcome (the draw, the cut, each deal's cards) and the
decisions of all deals; the reference plays it through :class:`boodle.session.run.SessionRun`.
Values are worked out by hand from the rules (each test says how).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from boodle.conformance.cases import Case, load_cases, schema_errors
from boodle.conformance.compare import verdict
from boodle.conformance.engines import REFERENCE, session_playable
from boodle.conformance.generate import Catalogue, gen_session, session_variants
from boodle.conformance.mutants import MUTANTS
from boodle.conformance.paths import load_variant
from boodle.conformance.play_case import execute
from boodle.conformance.run_suite import run_suite
from boodle.conformance.serve import answer

ADAPTER = Path(__file__).parents[1] / "helpers" / "conformance_adapters.py"

@pytest.fixture(scope="module")
def sessions() -> list[Case]:
    return [c for c in load_cases() if c.kind == "session"]


def _request(setup: dict, script: list | None = None, variant: str = "michigan") -> dict:
    return {"kind": "session", "variant": {"name": variant, "version": 1}, "setup": setup,
            "script": script or []}


def _hands(*seats: str) -> dict:
    held = [h.split() for h in seats]
    deck = [str(c) for c in load_variant("michigan").deck.cards()]
    return {"hands": held, "widow": [c for c in deck if not any(c in h for h in held)]}


def test_every_session_case_passes_on_the_reference(sessions: list[Case]) -> None:
    assert len(sessions) >= 20
    hand = [c for c in sessions if c.data["source"]["kind"] != "generated"]
    assert len(hand) >= 7
    for case in sessions:
        assert verdict(case, execute(case.request())).outcome == "pass", case.id


def test_session_cases_and_their_results_meet_the_schemas_as_written(
        sessions: list[Case]) -> None:
    for case in sessions[:: max(1, len(sessions) // 6)]:
        assert schema_errors(case.data, "case.schema.json") == []
        result = answer(case.request(), REFERENCE)
        assert result is not None and result["status"] == "done"
        assert schema_errors(result, "protocol.schema.json", "result") == []
    wrong = {**sessions[0].data, "legal_at": [0]}
    assert schema_errors(wrong, "case.schema.json")


def test_the_session_rules_are_pinned_by_hand_written_cases(sessions: list[Case]) -> None:
    pinned = {p for c in sessions if c.data["source"]["kind"] != "generated"
              for p in c.data["pins"]}
    assert {"§3/drawn", "§5.1/first-dealer", "§5.1/first-dealt", "§5.1/rotation", "§10/start",
            "§10/end-rotations", "§10/end-no-chips", "§10/leftover-split",
            "§10/leftover-stays", "§10/ties-share", "§10/ties-one-more-deal", "§10/negative",
            "§10/elimination", "M10", "M11", "M22", "M23", "M24", "M25"} <= pinned


def test_one_session_per_distinct_session_block_drawn_boodles_included() -> None:
    names = session_variants()
    assert {"michigan", "michigan-random-boodles", "pope-joan", "probe-session"} <= set(names)
    assert all(session_playable(load_variant(n)) for n in names)
    catalogue = Catalogue.load()
    ruleset = load_variant("pope-joan")
    assert gen_session(ruleset, 0, catalogue) == gen_session(ruleset, 0, catalogue)


def test_a_script_that_runs_out_mid_deal_ends_the_run_there() -> None:
    # B deals (cut Q♦ over 3♣ 2♥); C, left of B, holds 2♣ 3♦: two suits, a choice point,
    # and no decision: the run ends at once, after the antes (6 each: 44 each)
    setup = {"players": 3, "cut": [["3♣", "Q♦", "2♥"]],
             "deals": [_hands("5♠", "6♠", "2♣ 3♦")]}
    result = execute(_request(setup))
    assert result["status"] == "done"
    final = result["final"]
    assert final["over"] is False and final["to_move"] == 2 and final["deals"] == 1
    assert final["dealers"] == [1] and final["standings"] == [44, 44, 44]
    assert final["winners"] == [] and result["events"][-1]["kind"] == "deal"
    # with the decision "lead C 2♣": the 3♣ is in the widow, a stop; C restarts with the
    # other suit, 3♦ (forced), and goes out: the kitty 6 and 1 from A and from B:
    # C 44 + 6 + 2 = 52, A and B 43.  One deal given: the session stops before deal 2
    done = execute(_request(setup, [{"move": "lead", "seat": 2, "card": "2♣"}]))
    assert done["final"]["deals"] == 1 and done["final"]["over"] is False
    assert done["final"]["standings"] == [43, 43, 52] and done["final"]["unused"] == 0


def test_an_illegal_decision_is_rejected_with_its_rule() -> None:
    setup = {"players": 3, "cut": [["3♣", "Q♦", "2♥"]],
             "deals": [_hands("5♠", "6♠", "2♣ 3♦")]}
    # at the first choice point C is to lead: A leading breaks 'turn' (spec §12), point 0
    result = execute(_request(setup, [{"move": "lead", "seat": 0, "card": "5♠"}]))
    assert result["status"] == "rejected" and result["rule"] == "turn" and result["at"] == 0


def test_a_setup_that_cannot_be_played_is_an_error_not_a_crash() -> None:
    one_round_too_many = {"players": 3, "cut": [["A♣", "2♦", "3♥"], ["2♣", "3♣"]],
                          "deals": []}
    result = execute(_request(one_round_too_many))
    assert result["status"] == "error" and "known after 1" in result["message"]
    bad_players = {"players": 2, "cut": [["A♣", "2♦"]], "deals": []}
    assert execute(_request(bad_players))["status"] == "error"


def test_a_failure_names_the_deal_where_the_events_diverge(sessions: list[Case]) -> None:
    case = next(c for c in sessions if c.id.startswith("michigan.gen-session-p3-"))
    mutant = MUTANTS["leftover-kept"]
    v = verdict(case, execute(case.request(), mutant))
    assert v.outcome == "fail"
    assert "at the session's end, after deal 3 (dealer" in v.summary
    # the deal passed the wrong way: a later decision is refused, and the cause is shown
    # first: deal 2's dealer (the seat left of deal 1's, spec §5.1) is not the expected one
    v = verdict(case, execute(case.request(), MUTANTS["rotation-reversed"]))
    assert v.outcome == "fail" and v.summary.startswith("event ")
    assert ", deal 2 (dealer " in v.summary and '"kind": "deal-start"' in v.summary
    assert "then rejected a scripted move" in v.summary
    hand = next(c for c in sessions if ".session-cut-rotation-split." in c.id)
    v = verdict(hand, execute(hand.request(), MUTANTS["rotation-reversed"]))
    assert v.outcome == "fail" and "final" in v.summary


def test_an_implementation_without_the_session_feature_gets_skip(
        sessions: list[Case], monkeypatch: pytest.MonkeyPatch) -> None:
    started = answer({"type": "start", "protocol": "boodle-protocol/1"}, REFERENCE)
    assert started is not None and "session" in started["features"]
    without = {**started, "features": [f for f in started["features"] if f != "session"]}
    monkeypatch.setenv("BOODLE_TEST_STARTED", json.dumps(without, ensure_ascii=False))
    # a case this implementation (of version 1, without 'session') is sent: no misdeal step
    other = next(c for c in load_cases() if c.kind == "script" and c.variant == "michigan"
                 and c.needs() <= set(without["features"]) - {"misdeal"})
    report = run_suite([sessions[0], other],
                       f"{sys.executable} {ADAPTER} ok session-skip-test", timeout=60)
    outcomes = {o.id: o for o in report.outcomes}
    assert outcomes[sessions[0].id].outcome == "skip"
    assert "lacks session" in outcomes[sessions[0].id].summary
    assert outcomes[other.id].outcome == "pass"
    assert os.environ["BOODLE_TEST_STARTED"]
