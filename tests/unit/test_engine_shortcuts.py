"""The engine's shortcuts give what the step-by-step engine gives: the follows of a run played
at once for a perft count (spec §6.2), and the antes' outcome kept for deals from the same
inputs (spec §4).  Each is held to the general path on the states of random deals of every
built-in variant, and the count to the suite's hand-worked count cases."""

from __future__ import annotations

import dataclasses
import glob
import json
import random
from pathlib import Path
from typing import Any

import pytest

from boodle.conformance import counting
from boodle.conformance.engines import REFERENCE, Engine
from boodle.conformance.play_case import ruleset_of, setup
from boodle.engine import apply, legal_moves, start_deal
from boodle.engine.events import Ante, Event
from boodle.engine.ledger import Ledger
from boodle.engine.stages import antes, stops
from boodle.engine.state import DealState, PlayMove, each_move, only_move
from boodle.language.model import Ruleset
from boodle.language.variants import builtin_names, load
from boodle.session.second_pack import draw_boodles
from deal_helpers import random_states

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"


def _follows_one_by_one(ruleset: Ruleset, state: DealState) -> tuple[DealState, int]:
    """The oracle of :func:`stops.run_on`: while the only move is a follow (spec §6.2) that
    leaves the run going (the next state is again a follow by someone, not a claim: the
    ledger unchanged), play it through :func:`apply`."""
    played = 0
    while state.step == "follow":
        move = only_move(legal_moves(ruleset, state))
        assert isinstance(move, PlayMove)
        after, events = apply(ruleset, state, move)
        if after.step != "follow" or after.ledger != state.ledger or len(events) != 1:
            break
        state, played = after, played + 1
    return state, played


@pytest.mark.parametrize("name", builtin_names())
def test_the_follows_played_at_once_are_the_follows_played_one_by_one(name: str) -> None:
    checked = ran = 0
    for seed in range(4):
        for ruleset, state in random_states(load(name), seed):
            if state.step != "follow":
                continue
            for hands_known in (False, True):
                if hands_known:
                    assert state.hands  # computed and kept: run_on carries it on
                fast, n = stops.run_on(ruleset, state)
                slow, m = _follows_one_by_one(ruleset, state)
                assert n <= m  # a card that may claim ends the run early: apply plays it
                slow, m = _follows_one_by_one_upto(ruleset, state, n)
                assert (fast, n) == (slow, m)
                assert fast.hands == slow.hands and fast.moves == slow.moves
                assert fast.plays == slow.plays and fast.played() == slow.played()
                checked += 1
                ran += n > 0
    assert checked > ran > 0


def _follows_one_by_one_upto(ruleset: Ruleset, state: DealState, n: int
                             ) -> tuple[DealState, int]:
    for _ in range(n):
        move = only_move(legal_moves(ruleset, state))
        assert isinstance(move, PlayMove)
        state, _ = apply(ruleset, state, move)
    return state, n


def test_no_follow_is_played_at_once_outside_a_follow() -> None:
    ruleset = load("michigan")
    ledger = Ledger.open(4, tuple(s.name for s in ruleset.board), 10)
    state, _ = start_deal(ruleset, 4, 0, ledger, deck_order=ruleset.deck.cards())
    assert state.step == "lead"
    assert stops.run_on(ruleset, state) == (state, 0)


class _Plain(Engine):
    """The reference engine under another class: the walk steps through every follow."""


def _count_cases() -> list[dict[str, Any]]:
    found = []
    for path in sorted(glob.glob(str(CASES / "*" / "*.json"))):
        case = json.loads(Path(path).read_text(encoding="utf-8"))
        if case.get("kind") == "count":
            found.append(case)
    return found


def test_a_count_with_the_follows_at_once_is_the_hand_worked_count() -> None:
    cases = _count_cases()
    rng = random.Random(23)
    checked = 0
    for case in rng.sample(cases, 40) + [c for c in cases if "gen-count" not in str(c["id"])]:
        ruleset = ruleset_of(case)
        state, _ = setup(ruleset, case["setup"])
        fast = counting.count(ruleset, state, REFERENCE)
        slow = counting.count(ruleset, state, _Plain())
        assert fast == slow
        expect = case["expect"]["count"]
        assert (fast.sequences, fast.ledgers) == (expect["sequences"], expect["ledgers"])
        checked += 1
    assert checked >= 40


def test_the_budget_counts_the_follows_played_at_once() -> None:
    case = max(_count_cases(), key=lambda c: c["expect"]["count"]["sequences"])
    ruleset = ruleset_of(case)
    state, _ = setup(ruleset, case["setup"])
    walked = counting._Walker(ruleset, _Plain(), 10**9)
    for move in each_move(legal_moves(ruleset, state)):
        after, _ = apply(ruleset, state, move)
        walked.walk(after, set())
    fast = counting._Walker(ruleset, REFERENCE, 10**9)
    for move in each_move(legal_moves(ruleset, state)):
        after, _ = apply(ruleset, state, move)
        fast.walk(after, set())
    assert fast.visited == walked.visited > 1
    with pytest.raises(counting.CountTooBig):
        counting.count(ruleset, state, REFERENCE, budget=walked.visited - 1)
    counting.count(ruleset, state, REFERENCE, budget=walked.visited)


@pytest.mark.parametrize("name", builtin_names())
def test_the_antes_kept_are_the_antes_paid_afresh(name: str, monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    """Deals from the same inputs get the same antes, and deals from other inputs (another
    dealer, other balances: a short stack or a cap) their own; every start is compared with
    one made with nothing kept."""
    monkeypatch.setattr(antes, "_KEPT", {})
    monkeypatch.setattr(antes, "ANTES_KEPT", 1000)  # nothing dropped during the test
    rng = random.Random(name)
    ruleset, _ = draw_boodles(load(name), rng)  # cards drawn per session bound (spec §3)
    names = tuple(s.name for s in ruleset.board)
    starts = []
    for players in ruleset.players.counts():
        for chips in (50, 3, 1):
            ledger = Ledger(tuple(chips + rng.randrange(2) for _ in range(players)),
                            tuple((n, 0) for n in names))
            starts.append((players, rng.randrange(players), ledger))
    deck = ruleset.deck.cards()
    first: list[list[Event]] = []
    for again in (False, True):  # each start twice: the second time, the antes are kept
        for k, (players, dealer, ledger) in enumerate(starts):
            kept = start_deal(ruleset, players, dealer, ledger, deck_order=deck)
            fresh_rules = dataclasses.replace(ruleset)  # the same rules, nothing kept for them
            fresh = start_deal(fresh_rules, players, dealer, ledger, deck_order=deck)
            assert kept[0] == fresh[0] and kept[1] == fresh[1]
            assert kept[0].hands == fresh[0].hands and kept[0].since_ante == fresh[0].since_ante
            antes_paid = [e for e in kept[1] if isinstance(e, Ante)]
            if again:  # the very events of the first time
                assert all(a is b for a, b in zip(antes_paid, first[k], strict=True))
            else:
                first.append(antes_paid)
    assert any(first)
