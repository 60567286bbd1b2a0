"""The Hypothesis state machine shipped as ``boodle.testing`` (issue 5, point 4).

It runs against the reference engine (bounded for CI: a few examples of a
few hundred steps, enough for whole deals and the next ones of a session),
and it must fail against an engine that breaks a rule: one that accepts a
follow out of turn, one whose going-out payments create chips, and one that
claims on play where the stops phase claims nothing.
"""

from __future__ import annotations

import random
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import rule, run_state_machine_as_test

from boodle import engine
from boodle.engine.ledger import Ledger
from boodle.engine.state import LeadMove
from boodle.language.cards import parse_card
from boodle.language.model import StopsPhase
from boodle.language.variants import load
from boodle.testing import (
    Oracle,
    ReferenceMachine,
    expected_lead_fault,
    machine,
    playable_variants,
)

FAST = settings(max_examples=6, stateful_step_count=220, deadline=None,
                suppress_health_check=list(HealthCheck), derandomize=True)
FIND = settings(FAST, max_examples=30, phases=[Phase.generate])  # a failure, unshrunk


def test_the_reference_engine_passes_the_machine() -> None:
    run_state_machine_as_test(ReferenceMachine, settings=FAST)


def test_the_machine_plays_whole_deals_and_the_next_ones() -> None:
    deals: list[int] = []

    class Counting(machine(variants=["michigan"])):  # type: ignore[misc, valid-type]
        def teardown(self) -> None:
            if self.table is not None:
                deals.append(self.table.deals)

    run_state_machine_as_test(Counting, settings=FAST)
    # a Michigan deal of 3-8 players lasts at most 37 moves (52 cards, 13 to the widow with
    # 3 players, 2 others still holding a card): 220 steps, about half of them moves, cross
    # into a second deal in some example
    assert max(deals) >= 2


def _refusing_nothing() -> Any:
    """An engine that plays any follow, even by the wrong seat (a broken ``turn`` rule)."""
    def apply(ruleset: Any, state: Any, move: Any) -> Any:
        if state.step == "follow" and move.seat != state.to_move:
            move = replace(move, seat=state.to_move)
            return engine.apply(ruleset, state, move)
        return engine.apply(ruleset, state, move)

    return SimpleNamespace(start_deal=engine.start_deal, legal_moves=engine.legal_moves,
                           apply=apply, is_terminal=engine.is_terminal)


def _creating_chips() -> Any:
    """An engine whose going-out payments credit the winner without debiting the payers."""
    def apply(ruleset: Any, state: Any, move: Any) -> Any:
        new, events = engine.apply(ruleset, state, move)
        if new.step == "over" and new.winner is not None:
            seats = list(new.ledger.seats)
            seats[new.winner] += 1
            new = replace(new, ledger=Ledger(tuple(seats), new.ledger.sections))
        return new, events

    return SimpleNamespace(start_deal=engine.start_deal, legal_moves=engine.legal_moves,
                           apply=apply, is_terminal=engine.is_terminal)


def _claiming_on_play() -> Any:
    """An engine that ignores ``claims: none`` and claims on play (Tripoli's old error,
    issue 17 error 1: its sets paid a second time in the stops phase)."""
    def on_play(ruleset: Any) -> Any:
        return replace(ruleset, phases=tuple(
            replace(p, claims="on play") if isinstance(p, StopsPhase) and p.claims == "none"
            else p for p in ruleset.phases))

    def apply(ruleset: Any, state: Any, move: Any) -> Any:
        return engine.apply(on_play(ruleset), state, move)

    return SimpleNamespace(start_deal=engine.start_deal, legal_moves=engine.legal_moves,
                           apply=apply, is_terminal=engine.is_terminal)


def _wrong_payer() -> Any:
    """An engine whose going-out payments are made by the wrong opponent: each debit is
    moved to the next seat (chips are conserved, so the invariants alone pass it)."""
    def apply(ruleset: Any, state: Any, move: Any) -> Any:
        new, events = engine.apply(ruleset, state, move)
        if new.step == "over" and new.winner is not None and state.step != "over":
            n = new.players
            paid = [new.ledger.seats[s] - state.ledger.seats[s] for s in range(n)]
            seats = list(state.ledger.seats)
            for s in range(n):
                to = s if s == new.winner or paid[s] >= 0 else (s + 1) % n
                seats[to] += paid[s]
            new = replace(new, ledger=Ledger(tuple(seats), new.ledger.sections))
        return new, events

    return SimpleNamespace(start_deal=engine.start_deal, legal_moves=engine.legal_moves,
                           apply=apply, is_terminal=engine.is_terminal)


def _misdealing() -> Any:
    """An engine whose deal gives seat 0's first card to seat 1 and seat 1's to seat 0:
    cards stay in one place each and hand counts are right, so only an oracle of the
    deal's start sees it (the moves after it are played from the engine's own state)."""
    def start_deal(ruleset: Any, players: int, dealer: int, ledger: Any, order: Any,
                   *args: Any, **kw: Any) -> Any:
        state, events = engine.start_deal(ruleset, players, dealer, ledger, order, *args, **kw)
        a, b = state.hand(0)[0], state.hand(1)[0]
        places = list(state.places)
        i, j = state.cards.index(a), state.cards.index(b)
        places[i], places[j] = places[j], places[i]
        return replace(state, places=tuple(places)), events

    return SimpleNamespace(start_deal=start_deal, legal_moves=engine.legal_moves,
                           apply=engine.apply, is_terminal=engine.is_terminal)


@pytest.mark.parametrize(("broken", "why", "variant", "oracle"), [
    (_refusing_nothing, "says turn", "michigan", "none"),
    (_creating_chips, "chips not conserved", "michigan", "none"),
    (_claiming_on_play, "under 'claims: none'", "tripoli", "none"),
    (_creating_chips, "the reference engine", "michigan", "auto"),
    (_wrong_payer, "the reference engine", "michigan", "auto"),
    (_misdealing, "the deal's start", "michigan", "auto"),
])
def test_a_broken_engine_fails_the_machine(broken: Any, why: str, variant: str,
                                           oracle: Oracle) -> None:
    # every probe of a state is made (not one drawn), so which check fails first does not
    # depend on what Hypothesis drew before (nor on the modules imported before this one)
    with pytest.raises(AssertionError, match=why):
        run_state_machine_as_test(machine(broken(), variants=[variant], oracle=oracle),
                                  settings=FIND)


def test_a_misdeal_needs_the_oracle_of_the_start() -> None:
    # without an oracle a deal that swaps two seats' cards passes every invariant
    run_state_machine_as_test(machine(_misdealing(), variants=["michigan"], oracle="none"),
                              settings=FAST)


def test_a_chip_conserving_bug_needs_the_oracle() -> None:
    # without an oracle the invariants (totals, one place per card) pass a wrong payer: the
    # oracle is what checks play move by move
    run_state_machine_as_test(machine(_wrong_payer(), variants=["michigan"], oracle="none"),
                              settings=FAST)


def test_the_model_oracle_checks_the_reference_engine_move_by_move() -> None:
    # the z3 model as the oracle: the reference engine's every stops-phase step agrees with
    # it, and a step that leaves the state as it was (the card not played) is told apart
    from boodle.testing import _StepOracle

    rs = load("michigan")
    oracle = _StepOracle("model")
    state, _ = engine.start_deal(rs, 3, 0, Ledger.open(3, tuple(s.name for s in rs.board), 5),
                                 engine.shuffled_deck(rs, random.Random(1)))
    legal = engine.legal_moves(rs, state)
    with pytest.raises(AssertionError, match="not the z3 model's successor"):
        oracle.check(rs, 3, state, legal, legal[0], state)
    steps = 0
    while not engine.is_terminal(state):
        legal = engine.legal_moves(rs, state)
        after, _ = engine.apply(rs, state, legal[-1])
        oracle.check(rs, 3, state, legal, legal[-1], after)
        state, steps = after, steps + 1
    assert steps > 3


def test_the_lead_fault_oracle_reads_spec_12() -> None:
    # 001 §04-§05: after a stop in ♦ the restart is the lowest card of another suit; holding
    # 3♣ 9♣ 5♦, leading 9♣ breaks lead.lowest (3♣ is lower) and 5♦ breaks lead.suit.
    rs = load("michigan")
    phase = rs.phases[0]
    assert isinstance(phase, StopsPhase)
    state = SimpleNamespace(restart=True, stopped="♦", flipped=False)
    legal = [parse_card("3♣")]
    assert expected_lead_fault(phase, state, parse_card("9♣"), legal) == "lead.lowest"  # type: ignore[arg-type]
    assert expected_lead_fault(phase, state, parse_card("5♦"), legal) == "lead.suit"  # type: ignore[arg-type]
    assert LeadMove(0, parse_card("9♣")).card.suit == "♣"


def test_every_built_in_playable_variant_is_drawn_from() -> None:
    names = playable_variants()
    assert "michigan" in names and len(names) >= 10


def test_the_machine_plays_and_probes_betting_rounds() -> None:
    """Tripoley as sold bets before its showdown (spec §8.3): the machine draws bets, calls,
    raises and folds from the bid ranges, probes bet.funds and bet.amount, and keeps every
    chip through the round and its side pots."""
    bets: list[int] = []

    class Counting(machine(variants=["tripoley-as-sold"])):  # type: ignore[misc, valid-type]
        @rule()
        def count_bets(self) -> None:
            if self.table is not None and self.table.state.bets is not None:
                bets.append(1)

    # its dead-hand auction goes up 1 chip a bid at the lowest draws: more steps to get past it
    run_state_machine_as_test(Counting, settings=settings(FAST, max_examples=3,
                                                          stateful_step_count=700))
    assert bets, "no state of a betting round was reached"
