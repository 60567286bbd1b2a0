"""Compare an implementation's result with a case's expectations.

:func:`verdict` returns the outcome (``pass``, ``fail``, ``skip``,
``error``), a one-line summary and, on a failure, a detailed diff: for
scripts the first diverging event with the events before it and the state
there (as the reference sees it: position notation and hands); for rejects
the rule ids; for counts the per-first-move breakdown side by side.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boodle.conformance.cases import Case
from boodle.conformance.engines import REFERENCE
from boodle.conformance.play_case import is_misdeal, ruleset_of, script_points
from boodle.conformance.position import describe, seat_letter
from boodle.conformance.wire import Json, legal_keys, move_key, move_to_json, normalize_events
from boodle.engine.state import move_count, nth_move
from boodle.language.errors import BoodleError

CONTEXT = 3
"""Events shown before the first difference."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of one case, a one-line summary and a detailed explanation."""

    outcome: str
    summary: str = ""
    detail: str = ""
    fault: str = ""
    """For an error of the implementation's process (a timeout, an exit, a line that is no
    valid message, another case's id), what went wrong with the case's id taken out: two
    faults are the same when their ``fault`` is (:data:`boodle.conformance.MAX_SAME_FAILURES`)."""
    rule: str = ""
    """The spec rule the failure breaks: for a referee case (which pins no rule), the rule
    of the disagreement; for a script or session case, the rule the first differing
    expected event shows, when the case pins it (:func:`_shown_rule`); else empty."""


def _j(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def verdict(case: Case, result: Mapping[str, Any], protocol: int = 2) -> Verdict:
    """Judge ``result`` (a valid ``result`` message of protocol version ``protocol``) against
    ``case``.  The events of a ``rejected`` answer are compared in every kind: in a script or
    session case the events up to the refusal must be the expected ones (the first that
    differs is shown as the cause); in a reject case (from version 2; version 1 ignores
    them) a refused move has caused nothing, so they must be none."""
    status = result.get("status")
    if status == "skipped":
        return Verdict("skip", f"skipped by the implementation: {result.get('reason', '')}")
    if status == "error":
        return Verdict("error", f"the implementation reported an error: {result.get('message')}")
    if case.kind == "reject":
        return _reject(case, result, protocol)
    if case.kind == "count":
        return _count(case, result)
    if case.kind == "session":
        return _session(case, result)
    if case.kind == "referee":
        from boodle.conformance.referee import judge

        return judge(case, result)
    return _script(case, result)


# ---------------------------------------------------------------- reject


def _said(result: Mapping[str, Any]) -> str:
    """``": MESSAGE"`` when the implementation gave a message, else nothing."""
    return f": {result['message']}" if result.get("message") else ""


def _reject(case: Case, result: Mapping[str, Any], protocol: int = 2) -> Verdict:
    want = case.data["expect"]["rejected"]
    caused = result.get("events") or []
    if result["status"] == "rejected" and result.get("rule") == want:
        if protocol < 2 or not caused:
            return Verdict("pass")
        summary = (f"rejected with rule {want} as expected, but gave {len(caused)} events: a "
                   "refused move causes none (PROTOCOL.md, boodle-protocol/2)")
        events = "".join(f"\n    {_j(e)}" for e in caused[:5])
        return Verdict("fail", summary, f"{summary}\n  events:{events}")
    # Only a failure pays for replaying the setup to show the state.
    move = _j(case.data["move"])
    where = _state_text(case, 0)
    if result["status"] == "rejected":
        summary = f"rejected with rule {result.get('rule')}, expected {want}"
        said = f"\n  message: {result['message']}" if result.get("message") else ""
        return Verdict("fail", summary, f"{summary}\n  move: {move}{said}\n{where}")
    if result["status"] == "accepted":
        summary = f"accepted an illegal move (expected rejection {want})"
        events = "".join(f"\n    {_j(e)}" for e in result.get("events", [])[:5])
        return Verdict("fail", summary, f"{summary}\n  move: {move}\n  events:{events}\n{where}")
    return Verdict("fail", f"answered {result['status']!r} to a reject case")


# ---------------------------------------------------------------- count


def _count(case: Case, result: Mapping[str, Any]) -> Verdict:
    if result["status"] != "counted":
        return Verdict("fail", f"answered {result['status']!r} to a count case")
    want, got = case.data["expect"]["count"], result["count"]
    rows_want = {move_key(r["move"]): r for r in want["by_first_move"]}
    rows_got = {move_key(r["move"]): r for r in got["by_first_move"]}
    same_rows = {k: (r["sequences"], r["ledgers"]) for k, r in rows_want.items()} == \
                {k: (r["sequences"], r["ledgers"]) for k, r in rows_got.items()}
    if want["sequences"] == got["sequences"] and want["ledgers"] == got["ledgers"] and same_rows:
        return Verdict("pass")
    if want["sequences"] == got["sequences"] and want["ledgers"] == got["ledgers"]:
        summary = "count: the totals agree but the per-first-move breakdown differs"
    else:
        summary = (f"count: sequences {got['sequences']} (expected {want['sequences']}), "
                   f"ledgers {got['ledgers']} (expected {want['ledgers']})")
    lines = [summary, "  per first move:       expected seq/ledgers    actual seq/ledgers"]
    for key in sorted(set(rows_want) | set(rows_got)):
        w, g = rows_want.get(key), rows_got.get(key)
        ws = f"{w['sequences']}/{w['ledgers']}" if w else "(not legal)"
        gs = f"{g['sequences']}/{g['ledgers']}" if g else "(not legal)"
        mark = "  " if ws == gs else "✗ "
        lines.append(f"  {mark}{key:<20} {ws:>20}    {gs:>18}")
    lines.append(_state_text(case, 0))
    return Verdict("fail", summary, "\n".join(lines))


# ---------------------------------------------------------------- script


def _script(case: Case, result: Mapping[str, Any]) -> Verdict:
    expect = case.data["expect"]
    if result["status"] == "rejected":
        at = result.get("at")
        summary = (f"rejected a scripted move at point {at} with rule {result.get('rule')}"
                   + _said(result))
        point = at if isinstance(at, int) else 0
        diverged = _session_events(expect, list(result.get("events") or []), rejected=True,
                                   case=case)
        if diverged is not None:  # the cause: where the events went another way before it
            return Verdict("fail", f"{diverged.summary}; then {summary}",
                           f"{diverged.detail}\nthen {summary}", rule=diverged.rule)
        return Verdict("fail", summary, "\n".join(
            [summary, _move_at(case, point), _state_text(case, point)]))
    if result["status"] != "done":
        return Verdict("fail", f"answered {result['status']!r} to a script case")
    for check in (_events, _legal, _final):
        failed = check(case, expect, result)
        if failed is not None:
            return failed
    return Verdict("pass")


def _events(case: Case, expect: Json, result: Mapping[str, Any]) -> Verdict | None:
    if "events" not in expect:
        return None
    if expect["events"] == result.get("events", []):
        return None  # equal as written, so equal once normalised: skip the normalising
    want = normalize_events(expect["events"])
    got = normalize_events(result.get("events", []))
    if want == got:
        return None
    i = next((k for k, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
             min(len(want), len(got)))
    w = _j(want[i]) if i < len(want) else "(no more events)"
    g = _j(got[i]) if i < len(got) else "(no more events)"
    summary = f"event {i}: expected {w}, got {g}"
    lines = [f"first difference at event {i} (expected {len(want)} events, got {len(got)})",
             f"  expected: {w}", f"  actual:   {g}"]
    if i == len(got):  # the implementation's run ended early: say where it thought it stood
        lines.append(f"  the implementation's run ended there, its final: "
                     f"{_j(result.get('final'))} (a run ends at a choice point with no "
                     "decision left: compare its legal moves there with the reference's)")
    if i:
        lines.append(f"  before it (events {max(0, i - CONTEXT)}-{i - 1}):")
        lines.extend(f"    {_j(e)}" for e in want[max(0, i - CONTEXT):i])
    lines.append(_state_at_event(case, i))
    return Verdict("fail", summary, "\n".join(lines), rule=_shown_rule(case, want, i))


def _shown_rule(case: Case, want: Sequence[Json], i: int) -> str:
    """The spec rule the expected event ``i`` of ``want`` (normalised) shows, read as
    referee mode reads it (:func:`.referee._rule_of_event`), if ``case`` pins it; else
    ``""`` (an event past the end, a rule the case does not pin, rules that do not build)."""
    from boodle.conformance.referee import _rule_of_event

    if i >= len(want):
        return ""
    try:
        rule = _rule_of_event(ruleset_of(case.request()), want, i)
    except BoodleError:
        return ""
    return rule if rule in case.data.get("pins", ()) else ""


def _legal(case: Case, expect: Json, result: Mapping[str, Any]) -> Verdict | None:
    got_all = result.get("legal", {})
    for point, moves in sorted(expect.get("legal", {}).items(), key=lambda kv: int(kv[0])):
        want = legal_keys(moves)  # a range and its bids written out compare the same
        got = legal_keys(got_all[point]) if point in got_all else None
        if want != got:
            summary = f"legal moves at point {point}: expected {want}, got {got}"
            return Verdict("fail", summary, summary + "\n" + _state_text(case, int(point)))
    return None


def _final(case: Case, expect: Json, result: Mapping[str, Any]) -> Verdict | None:
    want, got = expect.get("final", {}), result.get("final", {})
    for key, value in want.items():
        if got.get(key) != value:
            summary = f"final {key}: expected {_j(value)}, got {_j(got.get(key))}"
            return Verdict("fail", summary, summary)
    return None


# ---------------------------------------------------------------- session


def _deal_of(events: Sequence[Json], index: int) -> str:
    """Where event ``index`` of a session falls: "deal K (dealer X)" or "before the first
    deal" / "after the last deal" (the draw, the cut, the split, the end)."""
    number, dealer = 0, None
    for e in events[:index + 1]:
        if e.get("kind") == "deal-start":
            number, dealer = number + 1, e.get("dealer")
    if number == 0:
        return "before the first deal"
    where = f"deal {number} (dealer {seat_letter(dealer) if isinstance(dealer, int) else '?'})"
    if events[index].get("kind") in ("split", "session-end"):
        return f"at the session's end, after {where}"
    return where


def _session_events(expect: Json, events: list[Json], rejected: bool,
                    case: Case | None = None) -> Verdict | None:
    """The first event where a session's ``events`` differ from the expected ones, with the
    deal it falls in; ``None`` if they agree (``rejected``: the run stopped early, so only
    the events it reached are compared).  With ``case``, the verdict names the rule the
    expected event shows (:func:`_shown_rule`)."""
    if "events" not in expect or expect["events"] == events:
        return None
    want = normalize_events(expect["events"])
    got = normalize_events(events)
    if want == got or (rejected and want[:len(got)] == got):
        return None
    i = next((k for k, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
             min(len(want), len(got)))
    where = _deal_of(want, min(i, len(want) - 1)) if want else "at the start"
    w = _j(want[i]) if i < len(want) else "(no more events)"
    g = _j(got[i]) if i < len(got) else "(no more events)"
    summary = f"event {i}, {where}: expected {w}, got {g}"
    lines = [f"first difference at event {i}, {where} (expected {len(want)} events, "
             f"got {len(got)})", f"  expected: {w}", f"  actual:   {g}"]
    if i:
        lines.append(f"  before it (events {max(0, i - CONTEXT)}-{i - 1}):")
        lines.extend(f"    {_j(e)}" for e in want[max(0, i - CONTEXT):i])
    rule = _shown_rule(case, want, i) if case is not None else ""
    return Verdict("fail", summary, "\n".join(lines), rule=rule)


def _session(case: Case, result: Mapping[str, Any]) -> Verdict:
    expect = case.data["expect"]
    if result["status"] == "rejected":
        so_far = result.get("events", [])
        where = _deal_of(so_far, len(so_far) - 1) if so_far else "before the first deal"
        summary = (f"rejected a scripted move at point {result.get('at')} of the session, "
                   f"{where}, with rule {result.get('rule')}" + _said(result))
        diverged = _session_events(expect, so_far, rejected=True, case=case)
        if diverged is not None:  # the cause: where the events went another way before it
            return Verdict("fail", f"{diverged.summary}; then {summary}",
                           f"{diverged.detail}\nthen {summary}", rule=diverged.rule)
        return Verdict("fail", summary, summary)
    if result["status"] != "done":
        return Verdict("fail", f"answered {result['status']!r} to a session case")
    diverged = _session_events(expect, result.get("events", []), rejected=False, case=case)
    if diverged is not None:
        return diverged
    return _final(case, expect, result) or Verdict("pass")


# ---------------------------------------------------------------- the state at a point


def _state_at_event(case: Case, index: int) -> str:
    """The reference's state just before the move that produced event ``index``."""
    points = script_points(case.request())
    before = [p for p in points if p[1] <= index]
    if not before:
        return "  state there: the setup (before the first move)\n" + _state_text(case, 0)
    point, _, state = before[-1]
    return _render_state(case, point, state)


def _move_at(case: Case, point: int) -> str:
    """What the reference plays at ``point`` of a script case: the script's decision
    (which one) at a choice point, or the forced move."""
    try:
        ruleset = ruleset_of(case.request())
    except BoodleError as exc:
        return f"  (no move: {exc.message})"
    script = [e for e in case.data.get("script", []) if not is_misdeal(e)]  # decisions only
    used = 0
    for p, _, state in script_points(case.request()):
        moves = () if state.step == "over" else REFERENCE.legal(ruleset, state)
        choice = move_count(moves) > 1
        if p == point:
            if choice and used < len(script):
                return (f"  the reference plays there the script's decision {used + 1} of "
                        f"{len(script)}: {move_key(script[used])}")
            if move_count(moves) == 1:
                forced = move_key(move_to_json(nth_move(moves, 0)))
                return f"  the reference plays there the forced move {forced}"
            return "  the reference makes no move there"
        used += choice
    return f"  the reference never reaches point {point}"


def _state_text(case: Case, point: int) -> str:
    points = script_points(case.request())
    match = [p for p in points if p[0] == point] or points[-1:]
    if not match:
        return f"  (no state to show: {_why_no_state(case)})"
    p, _, state = match[0]
    return _render_state(case, p, state)


def _why_no_state(case: Case) -> str:
    """Why the reference could not replay ``case``'s setup to show a state: the variant it
    could not find (and how to give it), or the fault of the setup, in the engine's words."""
    from boodle.conformance.play_case import setup

    try:
        ruleset = ruleset_of(case.request())
        setup(ruleset, case.data["setup"])
    except BoodleError as exc:
        return exc.message + (f"; {exc.hint}" if exc.hint else "")
    return "the reference's replay of the setup gave no point"


def _render_state(case: Case, point: int, state: Any) -> str:
    try:
        ruleset = ruleset_of(case.request())
        text = describe(ruleset, state)
    except BoodleError as exc:
        return f"  (no state: {exc.message})"
    hands = "\n".join(f"    {seat_letter(s)}: {' '.join(map(str, h)) or '-'}"
                      for s, h in enumerate(state.hands))
    mover = "nobody (the deal is over)" if state.step == "over" else seat_letter(state.to_move)
    return (f"  state at point {point} (reference), {mover} to move:\n"
            f"    position: {text}\n{hands}\n    widow: {' '.join(map(str, state.widow()))}")


def first_lines(text: str, count: int) -> Sequence[str]:
    """The first ``count`` lines of ``text``."""
    return text.splitlines()[:count]
