"""Referee mode (issue 15 part 2): the implementation plays its own choices, the reference judges.

The second example implementation (conformance/examples/michigan-python/auto_player.py) was
written from the documents alone and imports nothing of boodle; it takes referee cases only
(of a deal, or of a whole session).
It must pass them, and the runner must say once per reason why it skips the other michigan
cases.  A wrong implementation is stood in for by mutants of the reference (each breaks one
rule) and by answers altered by hand: the judge must name the move and the rule.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from boodle.conformance.cases import Case, load_cases
from boodle.conformance.mutants import mutant
from boodle.conformance.referee import Declared, judge, play_own, referee_cases
from boodle.conformance.report import console_text, skip_reasons, write_json, write_markdown
from boodle.conformance.run_suite import run_suite, unsupported

PY = sys.executable
EXAMPLE = Path(__file__).parents[2] / "conformance" / "examples" / "michigan-python" \
    / "auto_player.py"
MICHIGAN = [Declared("michigan", 1)]


def _example_answer(case: Case) -> dict[str, Any]:
    """The example program's result for one case, run as a one-message session."""
    message = json.dumps({"type": "run", **case.request()}, ensure_ascii=False)
    out = subprocess.run([PY, str(EXAMPLE)], input=message + "\n", capture_output=True,
                         text=True, timeout=60, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_python_example_passes_referee_deals_and_its_skips_are_said_once(
        tmp_path: Path) -> None:
    suite = [c for c in load_cases(check=False) if c.variant == "michigan"]

    def extra(started: dict[str, Any]) -> tuple[list[Case], list[str]]:
        assert started["kinds"] == ["referee"] and "referee" in started["features"]
        return referee_cases([Declared.of(v) for v in started["variants"]], 12, "ci",
                             sessions=3)

    report = run_suite(suite, f"{PY} {EXAMPLE}", timeout=30, extra=extra)
    refereed = [o for o in report.outcomes if o.kind == "referee"]
    assert len(refereed) == 15 and sum(".referee-session-" in o.id for o in refereed) == 3
    assert [o for o in refereed if o.outcome != "pass"] == []
    assert report.ok() and report.implementation["name"] == "python-michigan-auto"
    # every case of the suite is skipped, not sent, with one line per reason
    skipped = [o for o in report.outcomes if o.kind != "referee"]
    assert {o.outcome for o in skipped} == {"skip"} and len(skipped) == len(suite)
    lines = skip_reasons(report)
    kinds = {c.kind for c in suite}
    assert len(lines) == len({o.summary for o in skipped}) <= len(kinds) + 1
    assert any("takes no reject cases" in line for line in lines)
    assert sum(int(line.split()[1]) for line in lines) == len(suite)
    assert "referee: 15 of 15 runs passed (100.0%)" in console_text(report)
    write_json(report, tmp_path / "r.json")
    write_markdown(report, tmp_path / "r.md")
    data = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert data["referee"] == {"runs": 15, "ran": 15, "passed": 15}
    assert sum(data["skipped"].values()) == len(suite) and len(data["skipped"]) == len(lines)
    assert "- referee: 15 of 15 runs passed (100.0%)" in (tmp_path / "r.md").read_text("utf-8")


def test_the_cli_runs_referee_deals_alone_with_a_seed() -> None:
    out = subprocess.run([PY, "-m", "boodle.cli", "conformance", "run", "--impl",
                          f"{PY} {EXAMPLE}", "--referee-only", "--referee-deals", "5",
                          "--seed", "7"], capture_output=True, text=True, timeout=300,
                         check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "referee: 5 of 5 runs passed (100.0%)" in out.stdout
    again = subprocess.run([PY, "-m", "boodle.cli", "conformance", "run", "--impl", "x",
                            "--seed", "7"], capture_output=True, text=True, timeout=60,
                           check=False)
    assert again.returncode == 2 and "--referee-deals" in again.stderr


def test_an_illegal_lead_is_named_with_its_rule() -> None:
    (case,), _ = referee_cases(MICHIGAN, 1, "hand")
    result = _example_answer(case)
    assert judge(case, result).outcome == "pass"
    # by hand: the first lead becomes the highest card of its suit in the leader's hand;
    # "never lead a higher card while holding a lower one of that suit" (001 §04)
    events = copy.deepcopy(result["events"])
    deal = next(e for e in events if e["kind"] == "deal")
    lead = next(i for i, e in enumerate(events) if e["kind"] == "lead")
    seat, card = events[lead]["seat"], events[lead]["card"]
    suit = card[-1]
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    highest = max((c for c in deal["hands"][seat] if c[-1] == suit),
                  key=lambda c: order.index(c[:-1]))
    assert highest != card, "the leader holds more than one card of the suit led"
    events[lead] = {**events[lead], "card": highest}
    v = judge(case, {**result, "events": events[:lead + 1]})
    assert v.outcome == "fail" and v.rule == "§12/lead.lowest"
    assert f"point 0, event {lead}: the move lead {seat} {highest} is illegal" in v.summary


def test_a_wrong_payment_and_a_missing_end_are_named() -> None:
    (case,), _ = referee_cases(MICHIGAN, 1, "hand")
    result = _example_answer(case)
    events = copy.deepcopy(result["events"])
    pay = next(i for i, e in enumerate(events) if e["kind"] == "payment")
    events[pay]["amount"] += 1  # one chip per card left (rules §7), not one more
    v = judge(case, {**result, "events": events})
    assert v.outcome == "fail" and v.rule == "§7/per-card-winner"
    assert v.summary.startswith(f"event {pay}, after the move ")
    cut = judge(case, {**result, "events": result["events"][:pay - 3]})
    assert cut.outcome == "fail"
    wrong_final = copy.deepcopy(result)
    wrong_final["final"]["ledger"]["seats"][0] += 1
    assert judge(case, wrong_final).summary.startswith("final ledger:")


def test_mutants_of_the_reference_fail_with_the_rule_they_break() -> None:
    cases, _ = referee_cases(MICHIGAN, 6, "mutants")
    sessions, _ = referee_cases(MICHIGAN, 0, "mutants", sessions=1)
    for case in [*cases, *sessions]:
        assert judge(case, play_own(case.request())).outcome == "pass", case.id
    expect = {"restart-same-suit": "§12/lead.suit", "payments-from-dealer":
              "§7/per-card-winner", "skip-widow-stop": "§6.3/widow",
              "ante-dealer-exempt": "§4/order"}
    for name, rule in expect.items():
        rules = {judge(c, play_own(c.request(), mutant(name))).rule for c in cases}
        assert rule in rules, (name, rules)
    (session,) = sessions
    v = judge(session, play_own(session.request(), mutant("rotation-reversed")))
    assert v.outcome == "fail" and v.rule == "§5.1/rotation"


def test_started_declares_kinds_and_player_counts() -> None:
    (case,), _ = referee_cases([Declared("michigan", 1, 5, 5)], 1, "x")
    assert case.data["setup"]["players"] == 5
    started = {"variants": [{"name": "michigan", "version": 1, "players": {"min": 3,
                                                                            "max": 4}}],
               "features": ["referee"], "kinds": ["referee"]}
    assert unsupported(started, case) == \
        "the implementation plays michigan with 3 to 4 players, not 5"
    started["variants"][0]["players"] = {"min": 3, "max": 8}
    assert unsupported(started, case) is None
    started["kinds"] = ["script"]
    assert unsupported(started, case) == ("the implementation takes no referee cases (its "
                                          "'started' names the kinds script)")
    assert unsupported({**started, "kinds": None, "features": []}, case) == \
        "the implementation lacks referee"


def test_a_broken_program_gets_its_pass_rate_and_first_failures(tmp_path: Path) -> None:
    # the example with one bug: it leads the highest card of its longest suit, not the
    # lowest ("never lead a higher card while holding a lower one of that suit", 001 §04)
    broken = tmp_path / "broken.py"
    broken.write_text(
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('auto_player', {str(EXAMPLE)!r})\n"
        "m = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(m)\n"
        "lowest = m.Deal.choose_lead\n"
        "def highest(self, seat, stopped):\n"
        "    suit = lowest(self, seat, stopped)[0]\n"
        "    return max(c for c in self.hands[seat] if c[0] == suit)\n"
        "m.Deal.choose_lead = highest\n"
        "sys.exit(m.main())\n", encoding="utf-8")
    out = subprocess.run([PY, "-m", "boodle.cli", "conformance", "run", "--impl",
                          f"{PY} {broken}", "--referee-only", "--referee-deals", "4",
                          "--seed", "2", "--details", "1"], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "referee: 0 of 4 runs passed (0.0%)" in out.stdout
    assert "§12/lead.lowest:" in out.stdout  # the failures grouped under the rule broken
    assert "is illegal in the reference: lead.lowest" in out.stdout


def test_the_judge_never_crashes_on_an_altered_answer() -> None:
    # any answer the schema lets through gets a verdict, never a traceback: events dropped,
    # repeated, swapped, or given another seat, card or amount
    import random

    cases, _ = referee_cases(MICHIGAN, 2, "fuzz")
    rng = random.Random(0)
    for case in cases:
        result = play_own(case.request())
        for _ in range(60):
            events = copy.deepcopy(result["events"])
            i, j = rng.randrange(len(events)), rng.randrange(len(events))
            change = rng.randrange(4)
            if change == 0:
                del events[i]
            elif change == 1:
                events.insert(i, copy.deepcopy(events[j]))
            elif change == 2:
                events[i], events[j] = events[j], events[i]
            else:
                key = rng.choice([k for k in events[i] if k != "kind"] or ["kind"])
                events[i][key] = rng.choice([0, 7, 19, "2♣", "A♠", None, [], {"seat": 1}])
            v = judge(case, {**result, "events": events})
            assert v.outcome in ("pass", "fail", "error"), v
            assert v.outcome == "pass" or v.summary


def test_a_one_shot_referee_run_takes_its_variant_from_the_rules_file(tmp_path: Path) -> None:
    # a one-shot command answers no 'started', so it declares no variant: the rules file
    # given with --rules says which to play (no --variant needed), and the reference judges
    # by that file (a mutant that exempts the dealer from the ante fails it, spec §4)
    rules = tmp_path / "house.boodle"
    rules.write_text('variant my-house extends michigan {\n  title "A house rule"\n}\n',
                     encoding="utf-8")

    def run(serve: str) -> subprocess.CompletedProcess[str]:
        impl = f"{PY} -m boodle.cli conformance serve --one-shot --rules {rules}{serve}"
        return subprocess.run([PY, "-m", "boodle.cli", "conformance", "run", "--mode",
                               "one-shot", "--impl", impl, "--rules", str(rules),
                               "--referee-only", "--referee-deals", "1", "--seed", "3"],
                              capture_output=True, text=True, timeout=300, check=False)

    out = run("")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "referee: 1 of 1 run passed (100.0%)" in out.stdout
    assert "no variant to play" not in out.stdout + out.stderr
    broken = run(" --mutant ante-dealer-exempt")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "referee: 0 of 1 run passed (0.0%)" in broken.stdout
    assert "my-house.referee-1." in broken.stdout and "§4/order" in broken.stdout


def test_a_wrong_event_is_named_with_its_rule_when_an_earlier_one_showed_it_too() -> None:
    # found by a new user: a stop bonus missing after an earlier one was paid, or a wrong
    # second payment, was grouped under "(no rule)": only rules new to the trace were named
    (case,), _ = referee_cases(MICHIGAN, 1, "hand")
    result = _example_answer(case)
    events = copy.deepcopy(result["events"])
    pays = [i for i, e in enumerate(events) if e["kind"] == "payment"]
    assert len(pays) >= 2, "a deal of 3 or more players has two opponents to pay"
    events[pays[-1]]["amount"] += 1  # one chip per card left (rules §7), not one more
    v = judge(case, {**result, "events": events})
    assert v.outcome == "fail" and v.rule == "§7/per-card-winner", v.summary
    assert v.summary.startswith(f"event {pays[-1]}, after the move ")


def test_referee_cases_need_version_2_and_the_example_speaks_it() -> None:
    # PROTOCOL.md, "Referee mode": "Version 2; sent only to an implementation whose
    # `started` lists the feature `referee`"; found by a new user: the example announced
    # boodle-protocol/1 and was sent referee cases all the same
    from boodle.conformance.run_suite import protocol_gap

    (case,), _ = referee_cases(MICHIGAN, 1, "v")
    assert case.needs_protocol()[0] == 2
    gap = protocol_gap(case, 1)
    assert gap is not None and gap.startswith("needs a newer protocol: ")
    assert protocol_gap(case, 2) is None
    out = subprocess.run([PY, str(EXAMPLE)], input='{"type": "start"}\n', capture_output=True,
                         text=True, timeout=60, check=True)
    assert json.loads(out.stdout)["protocol"] == "boodle-protocol/2"


def test_one_broken_rule_is_one_group_under_the_rule_its_first_difference_shows() -> None:
    # found by a new user: 'serve --mutant payments-from-dealer' against a house rule's suite
    # was six groups, under §1/players, §10/negative, §10/end-rotations, §6.2/several-in-a-row
    # (the pins that happened to fail most often), none of them the rule broken.  The mutant
    # pays the going-out payments from the dealer's left, not the winner's (spec §7: "each
    # opponent, clockwise from the winner's left"), so every case fails first at a payment
    from boodle.conformance.report import failure_groups

    cases = [c for c in load_cases(check=False) if c.variant == "michigan"
             and (".gen-deal-" in c.id or ".gen-session-" in c.id)]
    command = f"{PY} -m boodle.cli conformance serve --mutant payments-from-dealer"
    report = run_suite(cases, command, timeout=60)
    failed = [o for o in report.outcomes if o.outcome == "fail"]
    assert failed and all('"kind": "payment"' in o.summary for o in failed)
    groups = failure_groups(report)
    assert [(g.rule, len(g.failing)) for g in groups] == [("§7/per-card-winner", len(failed))]
