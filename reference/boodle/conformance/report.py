"""Reports of a run: console text, JSON, JUnit XML and Markdown.

Every report starts with the failures grouped by the spec rule they pin
(:func:`failure_groups`: most failing first, one readable example each), then
lists every case exactly once with its outcome; failures carry the one-line
summary and the detailed diff of :mod:`boodle.conformance.compare`.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from boodle.conformance.run_suite import Outcome, Report

ORDER = ("pass", "fail", "error", "skip", "xfail", "xpass")
BAD = ("fail", "error", "xpass")
NOT_RUN = "not run: "
"""How the summary of a case starts when the run stopped before it (:mod:`.runner`)."""


REPORTED_ERROR = "the implementation reported an error"
"""How the summary of an ``error`` starts when the implementation answered the case with
``status: error`` (:mod:`.compare`), as opposed to a crash, a hang or garbage."""


def _failed(o: Outcome) -> bool:
    """Whether ``o`` is grouped by rule: a wrong answer (``fail``), or an error the
    implementation reported for the case (it could not play it).  A crash, a hang, garbage
    or a case not run says nothing about a rule: those are listed below the groups."""
    return o.outcome == "fail" or o.outcome == "error" and o.summary.startswith(REPORTED_ERROR)

KIND_ORDER = {"script": 0, "session": 1, "reject": 2, "count": 3}
"""Which kind of case makes the more readable example: a script (events to compare one by
one) before a session, a reject, and a count (numbers only)."""

EXAMPLE_LINES = 12
"""Lines of an example's diff shown under its rule (the whole diff is in the case list)."""


@dataclass(frozen=True)
class Group:
    """The failing cases put under one spec rule: ``rule`` (an id of spec-rules.json, or
    ``(no rule)``), its ``text``, the ``failing`` outcomes (the example first) and how many
    cases that were run pin it (``pinned``)."""

    rule: str
    text: str
    failing: tuple[Outcome, ...]
    pinned: int

    @property
    def example(self) -> Outcome:
        return self.failing[0]

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "text": self.text, "failing": len(self.failing),
                "pinned": self.pinned, "example": self.example.id,
                "cases": [o.id for o in self.failing]}


@cache
def _rule_texts() -> dict[str, str]:
    from boodle.conformance.paths import suite_dir

    try:
        data = json.loads((suite_dir() / "spec-rules.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {r["id"]: r.get("text", "") for r in data.get("rules", [])}


def _readability(o: Outcome) -> tuple[int, int, int, str]:
    """Sort key of the example of a group: a fail before an error, a script before a count
    case, then the shortest diff."""
    return (o.outcome != "fail", KIND_ORDER.get(o.kind, 4), len(o.detail or o.summary), o.id)


def failure_groups(report: Report) -> list[Group]:
    """The failing cases (:func:`_failed`) grouped by the spec rule they pin, most failing
    first.

    Each failing case goes under one rule: the rule its first difference shows, when it
    pins that rule (:attr:`.Outcome.rule`: a payment's, a stop's); else, of the rules it
    pins, the one whose cases fail most often in this run (failing / run), then the one
    fewest cases pin (the most particular), then by id.  A broken rule thus collects the
    cases it breaks, rather than a rule nearly every case pins.  Each group's failing
    cases are sorted by readability (:func:`_readability`: its example first).  A case
    that pins nothing goes under ``(no rule)``.
    """
    ran = [o for o in report.outcomes if o.outcome not in ("skip",)]
    pinned: Counter[str] = Counter(p for o in ran for p in set(o.pins))
    failing_by: Counter[str] = Counter(p for o in ran if _failed(o) for p in set(o.pins))
    groups: dict[str, list[Outcome]] = {}
    for o in ran:
        if not _failed(o):
            continue
        rule = o.rule if o.rule in o.pins else \
            min(o.pins, key=lambda p: (-failing_by[p] / pinned[p], pinned[p], p),
                default="(no rule)")
        groups.setdefault(rule, []).append(o)
    texts = _rule_texts()
    out = [Group(rule, texts.get(rule, ""), tuple(sorted(members, key=_readability)),
                 pinned.get(rule, len(members)))
           for rule, members in groups.items()]
    return sorted(out, key=lambda g: (-len(g.failing), g.rule))


def group_lines(groups: list[Group], most: int = 10, diffs: bool = True) -> list[str]:
    """The head of the console report: each group's rule, its count and its example
    (summary and, if ``diffs``, the first lines of its diff); ``most`` groups in full,
    then one line for the rest."""
    if not groups:
        return []
    total = sum(len(g.failing) for g in groups)
    lines = [f"failures by the rule they pin ({_count(total, 'case')} under "
             f"{_count(len(groups), 'rule')}, most first):"]
    for g in groups[:most]:
        text = f" {g.text}" if g.text else ""
        lines.append(f"  {g.rule}:{text} {len(g.failing)} failing (of {g.pinned} that pin it)")
        lines.append(f"    example: {g.example.id} ({g.example.kind})"
                     + (f": {g.example.description}" if g.example.description else ""))
        lines.append(f"      {g.example.outcome}: {g.example.summary}")
        detail = (g.example.detail or "").splitlines()
        if detail and detail[0] == g.example.summary:
            detail = detail[1:]
        if not diffs:
            continue
        lines.extend(f"      {d}" for d in detail[:EXAMPLE_LINES])
        if len(detail) > EXAMPLE_LINES:
            lines.append(f"      … ({len(detail) - EXAMPLE_LINES} more lines in its entry "
                         "below)")
    rest = groups[most:]
    if rest:
        lines.append(f"  and {_count(sum(len(g.failing) for g in rest), 'case')} under "
                     f"{_count(len(rest), 'other rule')}: "
                     + ", ".join(f"{g.rule} ({len(g.failing)})" for g in rest[:12])
                     + (" …" if len(rest) > 12 else ""))
    return lines


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_line(report: Report) -> str:
    """``412 cases: 400 pass, 2 fail, … in 1.2 s (0.85 s of it starting the implementation)``
    (``1 case: …`` for one; the start-up part only when there was one)."""
    counts = report.counts()
    parts = ", ".join(f"{counts[k]} {k}" for k in ORDER if counts[k])
    n = len(report.outcomes)
    line = f"{n} case{'' if n == 1 else 's'}: {parts or 'none'} in {report.seconds:g} s"
    if report.startup_seconds >= 0.005:
        line += f" ({report.startup_seconds:.2f} s of it starting the implementation)"
    return line


def referee_rate(report: Report) -> dict[str, int] | None:
    """The referee runs of a report (``--referee-deals``, ``--referee-sessions``): how many
    were run (sent, not skipped) and how many passed; ``None`` when there were none."""
    runs = [o for o in report.outcomes if o.kind == "referee"]
    if not runs:
        return None
    ran = [o for o in runs if o.outcome != "skip"]
    return {"runs": len(runs), "ran": len(ran),
            "passed": sum(o.outcome in ("pass", "xpass") for o in ran)}


def referee_line(report: Report) -> list[str]:
    """``referee: 18 of 20 runs passed (90.0%)`` when the run had referee runs."""
    rate = referee_rate(report)
    if rate is None:
        return []
    if not rate["ran"]:
        return [f"referee: none of {_count(rate['runs'], 'run')} was run (skipped)"]
    share = 100 * rate["passed"] / rate["ran"]
    return [f"referee: {rate['passed']} of {_count(rate['ran'], 'run')} passed ({share:.1f}%)"]


def console_text(report: Report, details: int = 10) -> str:
    """The text printed after a run: each bad case (``details`` of them in full), then totals."""
    lines: list[str] = []
    impl = report.implementation
    if impl:
        lines.append(f"implementation: {impl.get('name')} {impl.get('version', '')}".rstrip())
    groups = group_lines(failure_groups(report), diffs=details > 0)
    if groups:
        lines += [*groups, "", "every failing case:"]
    bad = [o for o in report.outcomes if o.outcome in BAD]
    shown = hidden = 0
    not_run = [o for o in bad if o.summary.startswith(NOT_RUN)]
    collapsed = not_run[0] if len(not_run) > 1 else None
    if collapsed is not None:  # after the run stopped: one line for them all, not one each
        later = {id(o) for o in not_run[1:]}
        bad = [o for o in bad if id(o) not in later]
    for o in bad:
        if o is collapsed:
            more = len(not_run) - 1
            lines.append(f"{o.outcome.upper():5} {o.id} and {more} more case{'s' * (more > 1)}: "
                         f"{o.summary}")
            continue
        lines.append(f"{o.outcome.upper():5} {o.id}: {o.summary}")
        detail = o.detail.splitlines()
        if detail and detail[0] == o.summary:  # said on the line above
            detail = detail[1:]
        if detail:
            if shown < details:
                lines.extend("      " + d for d in detail)
                shown += 1
            else:
                hidden += 1
    if hidden:
        which = ("1 failure above is shown without its diff" if hidden == 1
                 else f"{hidden} failures above are shown without their diffs")
        lines.append(f"({which}: --details N shows more; --json and --markdown have them all)")
    lines += skip_reasons(report)
    lines.extend(f"warning: {w}" for w in report.warnings)
    lines += referee_line(report)
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def skip_reasons(report: Report, most: int = 5) -> list[str]:
    """``skipped: N cases: REASON`` for the ``most`` commonest reasons cases were skipped
    (a variant or version the implementation does not announce, a feature it lacks), so a run
    that skips everything says why on the terminal, not only in ``--json``."""
    reasons = Counter(o.summary for o in report.outcomes if o.outcome == "skip")
    lines = [f"skipped: {n} case{'s' * (n > 1)}: {why}" for why, n in reasons.most_common(most)]
    if len(reasons) > most:
        rest = sum(n for _, n in reasons.most_common()[most:])
        lines.append(f"skipped: {rest} more case{'s' * (rest > 1)} for "
                     f"{len(reasons) - most} other reasons (--json lists each)")
    return lines


def write_json(report: Report, path: Path) -> None:
    """The whole report as JSON (``boodle-report/1``)."""
    data = {"format": "boodle-report/1",
            "failures_by_rule": [g.to_json() for g in failure_groups(report)],
            "command": report.command, "mode": report.mode,
            "implementation": report.implementation, "seconds": report.seconds,
            "startup_seconds": round(report.startup_seconds, 4),
            "counts": {k: report.counts()[k] for k in ORDER}, "ok": report.ok(),
            **({"referee": rate} if (rate := referee_rate(report)) is not None else {}),
            "skipped": dict(Counter(o.summary for o in report.outcomes
                                    if o.outcome == "skip").most_common()),
            "warnings": report.warnings, "cases": [o.to_json() for o in report.outcomes]}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def write_junit(report: Report, path: Path) -> None:
    """JUnit XML: one ``testcase`` per case; xfail and skip as skipped, xpass as a failure."""
    counts = report.counts()
    suite = ET.Element("testsuite", name="boodle-conformance", tests=str(len(report.outcomes)),
                       failures=str(counts["fail"] + counts["xpass"]), errors=str(counts["error"]),
                       skipped=str(counts["skip"] + counts["xfail"]), time=f"{report.seconds:.3f}")
    groups = failure_groups(report)
    if groups:  # first: the rules that fail, most first, each with its example
        props = ET.SubElement(suite, "properties")
        for n, g in enumerate(groups, 1):
            ET.SubElement(props, "property", name=f"failing rule {n}: {g.rule}",
                          value=f"{len(g.failing)} failing of {g.pinned} that pin it; "
                          f"example {g.example.id}: {g.example.summary}")
        ET.SubElement(suite, "system-out").text = "\n".join(group_lines(groups, len(groups)))
    for o in report.outcomes:
        case = ET.SubElement(suite, "testcase", classname=f"{o.variant}.{o.kind}", name=o.id,
                             time=f"{o.seconds:.4f}")
        if o.outcome in ("fail", "xpass"):
            ET.SubElement(case, "failure", message=o.summary).text = o.detail or o.summary
        elif o.outcome == "error":
            ET.SubElement(case, "error", message=o.summary).text = o.detail or o.summary
        elif o.outcome == "skip":
            ET.SubElement(case, "skipped", message=o.summary)
        elif o.outcome == "xfail":
            ET.SubElement(case, "skipped", message=f"expected failure: {o.reason}")
    for warning in report.warnings:
        ET.SubElement(suite, "system-err").text = warning
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def write_markdown(report: Report, path: Path) -> None:
    """A Markdown summary: totals, per variant, then every bad case with its diff."""
    impl = report.implementation
    lines = ["# Conformance run", "",
             f"- implementation: {impl.get('name', '?')} {impl.get('version', '')}".rstrip(),
             f"- command: `{report.command}` ({report.mode} mode)",
             f"- {summary_line(report)}", *(f"- {line}" for line in referee_line(report)),
             *(f"- {line}" for line in skip_reasons(report)), ""]
    groups = failure_groups(report)
    if groups:
        lines += ["## Failures by the rule they pin", "",
                  "Each failing case is counted under one rule it pins: the one whose cases "
                  "fail most often in this run. Most failing first.", "",
                  "| rule | failing | of those pinning it | example |",
                  "| --- | ---: | ---: | --- |"]
        lines += [f"| {g.rule} {_cell(g.text)} | {len(g.failing)} | {g.pinned} | "
                  f"[`{g.example.id}`](#{_anchor(g.example)}) |" for g in groups]
        for g in groups:
            e = g.example
            lines += ["", f"### {g.rule}: {len(g.failing)} failing", ""]
            if g.text:
                lines += [g.text, ""]
            lines += [f"Example: `{e.id}` ({e.kind}). {e.description}".rstrip(), "",
                      "```text", e.detail or e.summary, "```"]
        lines.append("")
    variants = sorted({o.variant for o in report.outcomes})
    lines += ["| variant | " + " | ".join(ORDER) + " |", "| --- |" + " ---: |" * len(ORDER)]
    for v in variants:
        counts = [sum(1 for o in report.outcomes if o.variant == v and o.outcome == k)
                  for k in ORDER]
        lines.append(f"| {v} | " + " | ".join(map(str, counts)) + " |")
    bad = [o for o in report.outcomes if o.outcome in BAD]
    if bad:
        lines += ["", "## Failures", ""]
        for o in bad:
            lines += [f'<a id="{_anchor(o)}"></a>', "", f"### {o.outcome}: `{o.id}`", "",
                      o.summary, "", "```text", o.detail or o.summary, "```", ""]
    if report.warnings:
        lines += ["", "## Warnings", "", *(f"- {w}" for w in report.warnings)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _cell(text: str) -> str:
    """``text`` fit for a Markdown table cell (in parentheses, pipes escaped)."""
    escaped = text.replace("|", "\\|")
    return f"({escaped})" if text else ""


def _anchor(o: Outcome) -> str:
    """The anchor of a case's entry in the Markdown report's list of failures."""
    return "case-" + "".join(c if c.isalnum() or c == "-" else "-" for c in o.id)
