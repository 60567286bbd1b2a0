"""``boodle verify`` of a saved rules file, its report as diagnostics (opt-in, on save).

The server runs ``boodle verify FILE --json`` in a child process (:func:`command`), bounded
(one job, :data:`MAX_STATES` states per exhaustive search, :data:`TIMEOUT_S` seconds in
all) and cancellable (a new save, or closing the file, kills it); :func:`diagnostics` reads
its JSON report (``verify/report.py``'s ``render_json``) into diagnostics on the
``variant`` line:

- a counterexample is an error, its trace the diagnostic's related information, one line
  each;
- a property that no method proved or checked at some player count (``unknown``, ``not
  covered``, ``incomplete``) is a warning;
- what is proven or checked is one information line per property, status and method
  ("termination: proven (z3, 3 to 8 players)").

Verification runs on the file as saved, so its diagnostics are shown only while the
document's text is the saved one.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from boodle.lsp.analysis import Range

TIMEOUT_S = 120.0
"""Seconds a verification may run before it is stopped."""
MAX_STATES = 200_000
"""States of each exhaustive search (``--max-states``): a few seconds, not minutes."""


@dataclass(frozen=True)
class VerifyNote:
    """One diagnostic from the report: its severity, message and trace lines."""

    severity: str
    message: str
    trace: tuple[str, ...] = ()


def command(path: str, cex_dir: str) -> list[str]:
    """The child process's command line: this Python running ``boodle verify`` on ``path``
    (counterexample files into ``cex_dir``, never into the editor's folder)."""
    return [sys.executable, "-c",
            "import sys; from boodle.cli import main; sys.exit(main(sys.argv[1:]))",
            "verify", path, "--json", "--jobs", "1", "--max-states", str(MAX_STATES),
            "--cex-dir", cex_dir]


def _players(counts: list[int]) -> str:
    if not counts or counts == [0]:
        return ""
    low, high = min(counts), max(counts)
    return f"{low} players" if low == high else f"{low} to {high} players"


def notes(report: dict[str, Any]) -> list[VerifyNote]:
    """The report's results as notes (see the module's docstring): per property and
    player count, a counterexample is an error; a property no method proved or checked (z3
    out of time and no exhaustive search, a search stopped by its bound) a warning; what
    is proven or checked, and a session with no end by its rules (``end: never``), one
    information line per property, method and status; the ``not modelled`` row (what z3
    has no step-by-step model of, and what checked it) one information line."""
    out: list[VerifyNote] = []
    cells: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for result in report.get("results", []):
        cells[(str(result.get("property")), int(result.get("players") or 0))].append(result)
    settled: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for (prop, players), results in cells.items():
        if prop == "not modelled":  # what z3 has no model of, and what checked it: a fact
            out += [VerifyNote("information", f"boodle verify: not modelled by z3: "
                               f"{r.get('detail')}") for r in results]
            continue
        where = f"{players} players, " if players else ""
        for r in results:
            if r.get("status") == "counterexample":
                trace = tuple(line for line in str(r.get("trace") or "").splitlines()
                              if line.strip())
                out.append(VerifyNote("error", f"boodle verify: {prop}: counterexample "
                                      f"({where}{r.get('method')}): {r.get('detail')}", trace))
        good = [r for r in results if r.get("status") in ("proven", "checked", "no end")]
        for r in good:
            settled[(prop, str(r.get("status")), str(r.get("method")))].append(players)
        if not good and not any(r.get("status") == "counterexample" for r in results):
            said = "; ".join(f"{r.get('method')} {r.get('status')}: {r.get('detail')}"
                             for r in results)
            shown = f" ({where.rstrip(', ')})" if where else ""  # none: the session's row
            out.append(VerifyNote("warning", f"boodle verify: {prop} not verified{shown}: "
                                  f"{said}"))
    for (prop, status, method), counts in settled.items():
        shown = _players(sorted(set(counts)))
        out.append(VerifyNote("information", f"boodle verify: {prop}: {status} ({method}"
                              + (f", {shown})" if shown else ")")))
    return out


def parse_report(stdout: bytes) -> list[VerifyNote]:
    """The notes of ``boodle verify --json``'s output; one warning if it is not a report
    (the file did not load: its errors are the analysis's already)."""
    try:
        report = json.loads(stdout.decode("utf-8", errors="replace"))
    except ValueError:
        return [VerifyNote("warning", "boodle verify gave no report (does the file build?)")]
    if not isinstance(report, dict) or report.get("kind") != "verify-report":
        return [VerifyNote("warning", "boodle verify gave no report")]
    return notes(report)


def where(variant_line: int) -> Range:
    """Where the notes are shown: the ``variant`` keyword's line."""
    return Range(variant_line, 0, variant_line, 7)
