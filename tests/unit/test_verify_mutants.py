"""The verifier catches broken rules (issue 5, point 5): each mutant of tests/helpers/mutants.py is
reported with the property it breaks and a concrete, shortest trace.

CI runs the exhaustive search on the full pipeline (``verify``) and z3 on a
reduced deck of each mutant (the same encoder; small enough to be quick);
``-m slow`` runs z3 on the full 52-card deck.  The shortest lengths are
worked out by hand in each test.
"""

from __future__ import annotations

import json

import pytest

from boodle.verify.reduce import reduce
from boodle.verify.report import exit_status, render_text, save_counterexamples
from boodle.verify.verifier import Options, Result, Subject, verify
from mutants import MUTANTS


def _exhaustive(prop: str, deck: tuple[int, int]) -> list[Result]:
    return verify([MUTANTS[prop]()], Options(players=(3,), z3=False, decks=(deck,)))


def _failing(results: list[Result], method: str) -> list[Result]:
    return [r for r in results if r.status == "counterexample" and r.method == method]


def test_dropping_the_same_suit_fallback_deadlocks_after_one_move() -> None:
    # 2x3 deck, 3 players: seat 1 leads, the run stops at once (the next card is in the
    # widow or with nobody), and seat 1 holds only that suit: stuck.  The first lead (any
    # suit) always has a card, so one move is the fewest.
    results = _exhaustive("progress", (2, 3))
    [bad] = _failing(results, "exhaustive")
    assert bad.prop == "progress" and bad.data["moves"] and len(bad.data["moves"]) == 1
    assert "nor its fallback" in bad.detail
    assert "stop:" in bad.trace and "leads" in bad.trace
    assert exit_status(results) == 1


def test_a_credit_without_debit_breaks_chip_conservation_at_the_first_going_out() -> None:
    # 2x3, 3 players: seat 1 leads with 2 cards; the first to go out does so on the 2nd move
    # at the earliest (seat 0's single card follows the lead, or seat 1 follows itself).
    # The opponents' payments are credited without being debited: chips appear.
    results = _exhaustive("chip conservation", (2, 3))
    [bad] = _failing(results, "exhaustive")
    assert bad.prop == "chip conservation" and len(bad.data["moves"]) == 2
    assert "not 24" in bad.detail  # 3 seats × (6 ante + 2) = 24 chips in play
    assert "goes out" in bad.trace


def test_passes_without_an_all_pass_exit_go_round_for_ever() -> None:
    # 1 suit × 5 ranks, 3 players: seat 1 (2 cards) leads, the next card is in the widow,
    # and nobody holds another suit: all pass, the engine flips a colour no rule reads, all
    # pass again — back where they were.  1 lead, then a loop of 6 passes.
    results = _exhaustive("termination", (1, 5))
    [bad] = _failing(results, "exhaustive")
    assert bad.prop == "termination"
    assert len(bad.data["moves"]) == 1 and len(bad.data["loop"]) == 6
    assert all("passes" in m for m in bad.data["loop"])


def test_a_boodle_card_stripped_from_the_deck_is_ill_formed_from_the_deal() -> None:
    results = _exhaustive("well-formedness", (2, 3))
    static = [r for r in results if r.method == "static" and r.prop == "well-formedness"]
    assert static[0].status == "counterexample"
    assert "section A♥: boodle card A♥ is not in the deck (it is removed)" in static[0].detail
    [bad] = _failing(results, "exhaustive")
    assert bad.prop == "well-formedness" and bad.data["moves"] == []  # the deal itself
    # on the reduced deck A♥ is mapped to A♣ (♥ is suit 2, 2 mod 2 → ♣), removed likewise
    assert "A♥ is paid by A♣, which is nowhere in the deal" in bad.detail


@pytest.mark.parametrize(("prop", "deck", "target"), [
    ("progress", (2, 3), "no move is legal"),
    ("chip conservation", (2, 3), "breaks 'chips add up'"),
    ("termination", (1, 5), "breaks 'after a flip nobody passes'"),
])
def test_z3_finds_each_fault_and_bmc_shows_it_is_real(prop: str, deck: tuple[int, int],
                                                     target: str) -> None:
    mutant = MUTANTS[prop]()
    small = Subject(mutant.name, reduce(mutant.ruleset, *deck).ruleset, mutant.mutation)
    results = verify([small], Options(players=(3,), exhaustive=False, decks=(deck,),
                                      bmc_depth=8, bmc_seconds=60))
    [bad] = _failing(results, "z3")
    assert bad.prop == prop and target in bad.detail
    assert "reached from the start of play" in bad.detail
    assert bad.data["bmc"]["found"] and bad.data["bmc"]["steps"]
    assert "the state, as cards and chips:" in bad.trace
    # a counterexample only because the engine, given the trace's deal, plays it (issue 16)
    assert "real: the engine plays the trace" in bad.detail
    assert bad.data["replay"]["followed"] and bad.data["replay"]["broken"]
    assert len(bad.data["replay"]["moves"]) == len(bad.data["bmc"]["steps"])
    assert "replayed on the engine: it plays every move of the trace" in bad.trace


def test_a_z3_trace_the_engine_does_not_play_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    # the model credits going-out payments without the debit, the engine plays the rules as
    # written: z3's trace breaks "chips add up" in the model only, so replayed on the engine
    # it parts from the model at the first going out, and the finding is "unknown" (a
    # trace the engine does not play is never a COUNTEREXAMPLE)
    from boodle.verify import verifier
    from boodle.verify.mutation import NO_MUTATION

    original = verifier.replay
    monkeypatch.setattr(verifier, "replay", lambda rs, n, found, target, mutation:
                        original(rs, n, found, target, NO_MUTATION))
    mutant = MUTANTS["chip conservation"]()
    small = Subject(mutant.name, reduce(mutant.ruleset, 2, 3).ruleset, mutant.mutation)
    results = verify([small], Options(players=(3,), exhaustive=False, engine=False,
                                      decks=((2, 3),), bmc_depth=8, bmc_seconds=60))
    [bad] = [r for r in results if r.method == "z3" and r.prop == "chip conservation"]
    assert bad.status == "unknown", bad.detail
    assert bad.data["bmc"]["found"] and not bad.data["replay"]["followed"]
    assert "the engine does not play that trace" in bad.detail
    assert "not reachable on the engine" in bad.detail


def test_counterexamples_are_printed_and_stored_as_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    results = _exhaustive("progress", (2, 3))
    text = render_text(results, 1.0)
    assert "COUNTEREXAMPLE" in text and "\n1 counterexample\n" in text + "\n"
    [path] = save_counterexamples(results, tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["property"] == "progress" and doc["counterexample"]["kind"] == "counterexample"
    assert doc["counterexample"]["deal"]["widow"]


def test_a_z3_lasso_replayed_on_the_engine_goes_round_for_ever() -> None:
    # 'if none: pass left' with no all-pass exit (1 suit × 5 ranks): bounded model checking
    # finds a lasso (spec/verification.md's mutant table: 1 lead, then a loop of 6 passes,
    # twice round 3 players, back to the state after the lead); the engine, given the
    # trace's deal, plays it and comes back to that very state
    from boodle.verify.bmc import bmc
    from boodle.verify.induction import System
    from boodle.verify.replay import replay

    mutant = MUTANTS["termination"]()
    small = reduce(mutant.ruleset, 1, 5).ruleset
    found = bmc(System(small, 3, mutant.mutation), "lasso", 12, 60)
    assert found.found and found.exact and found.loop_to is not None
    again = replay(small, 3, found, "lasso", mutant.mutation)
    assert again.followed and again.broken, again.detail
    assert "the deal can go round for ever" in again.detail
    assert len(again.moves) == found.depth
