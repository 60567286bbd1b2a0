"""Reports of a run: console text, JSON, JUnit XML and Markdown.

Every report lists every case exactly once with its outcome; failures carry
the one-line summary and the detailed diff of :mod:`boodle.conformance.compare`.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from boodle.conformance.run_suite import Report

ORDER = ("pass", "fail", "error", "skip", "xfail", "xpass")
BAD = ("fail", "error", "xpass")
NOT_RUN = "not run: "
"""How the summary of a case starts when the run stopped before it (:mod:`.runner`)."""


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


def console_text(report: Report, details: int = 10) -> str:
    """The text printed after a run: each bad case (``details`` of them in full), then totals."""
    lines: list[str] = []
    impl = report.implementation
    if impl:
        lines.append(f"implementation: {impl.get('name')} {impl.get('version', '')}".rstrip())
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
    data = {"format": "boodle-report/1", "command": report.command, "mode": report.mode,
            "implementation": report.implementation, "seconds": report.seconds,
            "startup_seconds": round(report.startup_seconds, 4),
            "counts": {k: report.counts()[k] for k in ORDER}, "ok": report.ok(),
            "warnings": report.warnings, "cases": [o.to_json() for o in report.outcomes]}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def write_junit(report: Report, path: Path) -> None:
    """JUnit XML: one ``testcase`` per case; xfail and skip as skipped, xpass as a failure."""
    counts = report.counts()
    suite = ET.Element("testsuite", name="boodle-conformance", tests=str(len(report.outcomes)),
                       failures=str(counts["fail"] + counts["xpass"]), errors=str(counts["error"]),
                       skipped=str(counts["skip"] + counts["xfail"]), time=f"{report.seconds:.3f}")
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
             f"- {summary_line(report)}", ""]
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
            lines += [f"### {o.outcome}: `{o.id}`", "", o.summary, "", "```text",
                      o.detail or o.summary, "```", ""]
    if report.warnings:
        lines += ["", "## Warnings", "", *(f"- {w}" for w in report.warnings)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
