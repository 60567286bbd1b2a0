"""Issue 18 items 1, 2, 3 and 7: rules of real programs the language states (spec §6.1, §6.5, §7).

Each construct is checked where it is built (a located error with its hint), played by the
reference engine on hand-made positions with values worked out by hand, played alike by the
compiled engine, and modelled alike by z3 (state by state against the engine).  The
conformance cases of ``conformance/src/hand/payment-destinations.json`` pin the same rules
over the protocol.
"""

from __future__ import annotations

import json
import random
from itertools import islice

import pytest

from boodle.compiled import compile_ruleset
from boodle.compiled.agree import both_engines, seeded_picks
from boodle.conformance.paths import load_variant
from boodle.engine.ledger import Ledger, seat, section
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.verify.agreement import disagreements, stops_states
from boodle.verify.concrete import ModelOracle
from boodle.verify.induction import System

HOUSE = """variant house extends michigan {{
  phase play is stops {{
{lines}
  }}
}}
"""


def house(lines: str) -> Ruleset:
    """Michigan with the stops lines ``lines`` written over its own."""
    return load_text(HOUSE.format(lines=lines), "house.boodle")


def build_error(lines: str) -> BoodleError:
    with pytest.raises(BoodleError) as caught:
        house(lines)
    return caught.value


def low_ledger(rules: Ruleset, players: int, rng: random.Random) -> Ledger:
    """0 to 2 chips a seat, so that 'if able' and per-card charges meet empty stacks."""
    ledger = Ledger.open(players, tuple(s.name for s in rules.board), 2)
    for k in range(players):
        ledger, _ = ledger.transfer(seat(k), section(rules.board[0].name), rng.randrange(3),
                                    "carry")
    return ledger


def engines_agree(rules: Ruleset, deals: int = 40) -> None:
    """The compiled engine plays ``deals`` seeded deals as the reference does."""
    tables = compile_ruleset(rules)
    rng = random.Random(rules.name)
    for k in range(deals):
        players = (3, 4, 5)[k % 3]
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = low_ledger(rules, players, rng)
        both = both_engines(tables, players, k % players, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}"
        assert both.compiled_chips == both.reference_chips, f"deal {k}"


def model_agrees(rules: Ruleset, players: int = 4, count: int = 150) -> None:
    """The z3 model and the engine agree on ``count`` sampled stops states."""
    oracle = ModelOracle(System(rules, players))
    for n, state in enumerate(islice(stops_states(rules, players, 7), count)):
        assert disagreements(oracle, rules, state) == [], n


# ---- item 7: a pass fee only for a player with chips (spec §6.5 'if able')

def test_a_fee_if_able_is_read_and_a_zero_fee_is_refused_where_written() -> None:
    rules = house("    if none: pay 1 to kitty if able, pass left\n"
                  "    all pass: deal ends without winner")
    [stops] = rules.phases
    assert (stops.fallback.amount, stops.fallback.to, stops.fallback.if_able) == (1, "kitty", True)
    err = build_error("    if none: pay 0 to kitty if able, pass left\n"
                      "    all pass: deal ends without winner")
    assert err.span is not None and (err.span.line, err.span.column) == (3, 5)
    assert err.hint is not None and "if none: pass left" in err.hint


def test_the_compiled_engine_charges_the_fee_as_the_reference_does() -> None:
    engines_agree(load_variant("probe-fee-if-able"))


def test_the_z3_model_charges_the_fee_as_the_engine_does() -> None:
    model_agrees(load_variant("probe-fee-if-able"))


# ---- item 2: a round of passes that charges every hand (spec §6.5)

def test_an_all_pass_charge_names_its_section_and_a_wrong_one_is_located() -> None:
    rules = house("    if none: pass left\n"
                  "    all pass: deal ends without winner, 2 per card to kitty")
    [stops] = rules.phases
    assert (stops.all_pass, stops.all_pass_charge, stops.all_pass_to) == (
        "end without winner", 2, "kitty")
    err = build_error("    if none: pass left\n"
                      "    all pass: deal ends without winner, 1 per card to kity")
    assert err.span is not None and err.span.line == 4 and err.hint == "did you mean kitty?"
    zero = build_error("    if none: pass left\n"
                       "    all pass: deal ends without winner, 0 per card to kitty")
    assert zero.span is not None and zero.span.line == 4
    assert zero.hint == "write: all pass: deal ends without winner"


def test_the_compiled_engine_charges_a_round_of_passes_as_the_reference_does() -> None:
    engines_agree(load_variant("probe-all-pass-charge"))


def test_the_z3_model_charges_a_round_of_passes_as_the_engine_does() -> None:
    model_agrees(load_variant("probe-all-pass-charge"))


# ---- item 3: a first lead that walks on to the next suit (spec §6.1)

WALK = "    first lead: holder of lowest ♣ else ♦ else ♠ else ♥, {choice}"


def test_a_walk_is_read_in_its_order_and_its_faults_are_located() -> None:
    [stops] = house(WALK.format(choice="lowest ♣")).phases
    assert (stops.first_lead.holder_suit, stops.first_lead.holder_walk) == ("♣", ("♦", "♠", "♥"))
    wrong = build_error(WALK.format(choice="lowest ♦"))
    assert wrong.span is not None and (wrong.span.line, wrong.span.column) == (3, 17)
    assert wrong.hint is not None and wrong.hint.startswith("write 'lowest ♣'")
    twice = build_error("    first lead: holder of lowest ♣ else ♦ else ♣, lowest ♣")
    assert twice.hint == "drop 'else ♣'"


def test_the_walk_s_candidates_are_each_suit_low_to_high_in_the_order_written() -> None:
    from boodle.engine.leads import holder_candidates

    rules = house(WALK.format(choice="lowest ♣"))
    [stops] = rules.phases
    cands = holder_candidates(rules, stops.first_lead)
    assert [str(c) for c, _ in cands[12:15]] == ["A♣", "2♦", "3♦"]
    assert [r.suit for _, r in cands[::13]] == ["♣", "♦", "♠", "♥"]


def test_the_compiled_engine_walks_as_the_reference_does() -> None:
    engines_agree(load_variant("probe-first-lead-walk"))


def test_the_z3_model_walks_as_the_engine_does() -> None:
    model_agrees(load_variant("probe-first-lead-walk"))


# ---- item 1: the lowest-ranked card of a colour, ties by a stated rule (spec §6.1)

def test_a_lowest_card_of_the_other_colour_and_its_tie_rule_are_read() -> None:
    [stops] = house("    restart: last player, lowest opposite colour card, "
                    "ties by suit order ♥ ♦ ♠ ♣\n    if none: pass left\n"
                    "    all pass: deal ends without winner").phases
    assert (stops.restart.scope, stops.restart.ties, stops.restart.tie_suits) == (
        "opposite colour card", "suit order", ("♥", "♦", "♠", "♣"))
    [stops] = house("    first lead: left of dealer, lowest card, ties by hand order").phases
    assert (stops.first_lead.scope, stops.first_lead.ties) == ("all", "hand order")


def test_a_tie_rule_where_nothing_ties_is_refused_where_written() -> None:
    err = build_error("    restart: last player, lowest of other suit, ties by hand order")
    assert err.span is not None and (err.span.line, err.span.column) == (3, 14)
    assert err.hint is not None and "lowest opposite colour card" in err.hint
    short = build_error("    first lead: left of dealer, lowest card, ties by suit order ♥ ♦ ♠")
    assert "♣ is missing" in short.message
    assert short.hint == "write: ties by suit order ♥ ♦ ♠ ♣"
    first = build_error("    first lead: left of dealer, lowest opposite colour card")
    assert "no run has stopped yet" in first.message


def test_a_tied_card_that_loses_is_refused_saying_how_ties_go() -> None:
    from boodle.engine.leads import lead_fault
    from boodle.language.cards import parse_card

    rules = load_variant("probe-opposite-card")
    [stops] = rules.phases
    hand = tuple(parse_card(c) for c in ("7♦", "7♥", "9♠"))
    rule_id, why = lead_fault(rules, stops.restart, hand, parse_card("7♦"), "♣", False)
    assert rule_id == "lead.lowest"
    assert "ties in rank with 7♥, and ties go by suit order" in why


@pytest.mark.parametrize("name", ["probe-opposite-card", "probe-ties-hand-order"])
def test_the_compiled_engine_settles_ties_as_the_reference_does(name: str) -> None:
    engines_agree(load_variant(name))


@pytest.mark.parametrize("name", ["probe-opposite-card", "probe-ties-hand-order"])
def test_the_z3_model_settles_ties_as_the_engine_does(name: str) -> None:
    model_agrees(load_variant(name))


# ---- the real-world variant: Tripoli as github.com/dkmccandless/tripoli plays it

def test_the_lowest_club_tripoli_states_each_rule_of_its_program() -> None:
    from boodle.language.variants import load

    rules = load("tripoli-lowest-club")
    [stops] = rules.phases
    assert (stops.first_lead.holder_suit, stops.first_lead.holder_walk) == ("♣", ("♦", "♠", "♥"))
    assert (stops.restart.who, stops.restart.scope, stops.restart.ties) == (
        "last player", "opposite colour card", "chosen")
    assert (stops.fallback.amount, stops.fallback.to, stops.fallback.if_able) == (
        1, "kitty", False)
    assert (stops.all_pass, stops.all_pass_charge, stops.all_pass_to) == (
        "end without winner", 1, "kitty")
    assert (stops.going_out.per_card, stops.going_out.to) == (1, "kitty")
    assert not rules.session.has_end() and rules.session.start_chips == 0


def test_the_lowest_club_tripoli_plays_sessions_that_run_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    from boodle.cli import main

    assert main(["play", "tripoli-lowest-club", "--players", "5", "--seed", "3",
                 "--deals", "12", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ends = [e for e in events if e["kind"] == "deal-end"]
    assert len(ends) == 12  # no end of its own: as many deals as asked, then it stops
    for end in ends:  # balances start at 0 and run below it; chips stay conserved
        assert sum(end["ledger"]["seats"]) + sum(end["ledger"]["sections"].values()) == 0


def test_the_compiled_engine_plays_the_lowest_club_tripoli_as_the_reference() -> None:
    from boodle.language.variants import load

    engines_agree(load("tripoli-lowest-club"))


def test_the_hypothesis_machine_plays_the_lowest_club_tripoli() -> None:
    # The oracle's own tables (boodle.testing.TIE_ORDERS, SCOPE_PREDICATES) judge every lead
    # probe, with conservation after every step, over whole deals and the next ones.
    from hypothesis import HealthCheck, settings
    from hypothesis.stateful import run_state_machine_as_test

    from boodle.testing import machine, playable_variants

    assert "tripoli-lowest-club" in playable_variants()
    run_state_machine_as_test(
        machine(variants=["tripoli-lowest-club"]),
        settings=settings(max_examples=6, stateful_step_count=220, deadline=None,
                          suppress_health_check=list(HealthCheck), derandomize=True))


# ---- item 2 (continued): going out pays into a named section (spec §7)

def test_going_out_into_a_section_is_read_and_an_unknown_section_is_located() -> None:
    [stops] = house("    going out: ends deal, takes kitty, 1 per card into A♥").phases
    out = stops.going_out
    assert (out.per_card, out.to, out.into, out.takes) == (1, "section", "A♥", ("kitty",))
    err = build_error("    going out: ends deal, 1 per card into pott")
    assert err.span is not None and err.span.line == 3
    assert "no section 'pott'" in err.message


def test_the_compiled_engine_and_z3_pay_into_a_section_as_the_reference_does() -> None:
    rules = load_variant("probe-per-card-into")
    engines_agree(rules)
    model_agrees(rules)
