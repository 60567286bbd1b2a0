"""How the case generator decides (boodle.conformance.generate): by tables and by the
rulesets, never by a variant's name.

- The pins of a trace's events come from a table with a row per event kind: a new kind of
  event without a row fails here, instead of pinning nothing by default.
- Which variants get session cases only, and which variant stands for a kind of session,
  follow from the rulesets: the expected answers are read from the variants' own files
  (their comments say what each changes).
"""

from __future__ import annotations

import ast
import inspect
from typing import get_args

from boodle.conformance import generate
from boodle.conformance.engines import session_playable
from boodle.conformance.generate import EVENT_PINS, _event_pins, session_only, session_variants
from boodle.conformance.paths import load_variant, variant_paths
from boodle.engine.events import Event


def test_the_event_pin_table_has_a_row_for_every_event_kind_and_no_other() -> None:
    kinds = {cls.kind for cls in get_args(Event)}
    assert len(kinds) == len(get_args(Event)) == 34  # boodle/engine/events.py: one kind a class
    assert set(EVENT_PINS) == kinds


def test_a_claim_on_the_holding_keeps_the_seat_that_played_last() -> None:
    # michigan (spec/variants/michigan.boodle): claims on play, a stops phase, no sets.
    # From a mid-deal position: C (seat 2) plays, a claim is made before any lead in the
    # events (read as one on the holding, §6.6), and C plays again: several in a row
    # (§6.2), the claim being no move in between; a lead resets nothing it did not set.
    ruleset = load_variant("michigan")
    claim = {"kind": "claim", "seat": 2, "section": "A♥", "amount": 4}
    pins = _event_pins(ruleset, [{"kind": "play", "seat": 2}, claim,
                                 {"kind": "play", "seat": 2}])
    assert {"§6.6/on-holding", "§6.2/several-in-a-row", "§6.2/owner", "§6/runs"} <= pins
    pins = _event_pins(ruleset, [{"kind": "play", "seat": 2}, {"kind": "deal", "seat": 2},
                                 {"kind": "play", "seat": 2}])
    assert "§6.2/several-in-a-row" not in pins  # another event came between the plays


def test_session_only_variants_follow_from_their_rules() -> None:
    # conformance/variants/probe-session.boodle: "Michigan with every session rule that no
    # shipped variant changes changed at once" (rotation right, start, end, leftover, ties)
    assert session_only(load_variant("probe-session"))
    # probe-elimination.boodle: "a player whose balance is zero is out: not dealt, no ante,
    # skipped in the deal": a session rule that changes deals
    assert not session_only(load_variant("probe-elimination"))
    assert not session_only(load_variant("michigan"))  # it extends no variant
    # michigan-random-boodles draws its boodles from a second pack: its deals differ
    assert not session_only(load_variant("michigan-random-boodles"))


def test_the_session_of_michigan_and_its_house_rules_is_played_in_michigan() -> None:
    # the rule: of the variants sharing a session, the one the most of them extend
    michigan = generate._session_key(load_variant("michigan"))
    alike = {n for n in variant_paths() if session_playable(load_variant(n))
             and generate._session_key(load_variant(n)) == michigan}
    assert {"boodle", "michigan-widow-sale", "probe-sets"} <= alike  # all extend michigan
    assert alike & set(session_variants()) == {"michigan"}


def test_the_generator_branches_on_no_variant_name() -> None:
    tree = ast.parse(inspect.getsource(generate))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    literals = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                and isinstance(node.value, str) and id(node) not in docstrings}
    assert not literals & set(variant_paths())
