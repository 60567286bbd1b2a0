"""The report of ``boodle verify``: a table per variant (property × player count), notes, the
counterexamples' traces, and the JSON form.

A cell combines the methods that ran for that player count: ``proven`` (z3,
full deck), ``N states`` (exhaustive on a reduced deck), ``proven, N
states`` (both), ``COUNTEREXAMPLE``, ``unknown`` (a z3 query ran out of
time: not proven), ``incomplete: N states`` (the exhaustive search reached
its bound, ``--max-states``, before it finished: not checked), ``not
covered``.  The header says which methods ran, with which bounds.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boodle.verify.verifier import PROPERTIES, Options, Result

__all__ = ["Gap", "exit_status", "methods", "render_json", "render_text", "save_counterexamples",
           "unverified"]

_PER_COUNT = PROPERTIES[:5]
"""The properties z3 and the exhaustive search verify per player count."""


@dataclass(frozen=True)
class Gap:
    """A property of ``variant`` with ``players`` that no method that ran proved or checked:
    every answer was ``not covered`` or ``unknown`` (``why``: their reasons)."""

    variant: str
    players: int
    prop: str
    why: str

    def to_json(self) -> dict[str, Any]:
        """For ``boodle verify --json``."""
        return {"variant": self.variant, "players": self.players, "property": self.prop,
                "why": self.why}


def unverified(results: list[Result]) -> list[Gap]:
    """Each (variant, player count, property) that z3 and the exhaustive search were asked
    about, that has no counterexample, and that neither proved nor checked (the static
    checks cover only part of well-formedness and do not count here).  A variant that no
    per-count method looked at has all five properties unverified."""
    by_variant: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_variant[r.variant].append(r)
    out = []
    for name, mine in by_variant.items():
        counted = [r for r in mine if r.method in ("z3", "exhaustive", "none")]
        if not counted:
            out += [Gap(name, 0, prop, "no method ran (z3 and the exhaustive search were off)")
                    for prop in _PER_COUNT]
            continue
        for n in sorted({r.players for r in counted}):
            for prop in _PER_COUNT:
                cell = [r for r in counted if r.players == n and r.prop == prop]
                if any(r.status in ("proven", "checked", "counterexample") for r in cell):
                    continue
                why = "; ".join(dict.fromkeys(
                    r.detail if r.method == "none" else f"{r.method} {r.status}: {r.detail}"
                    for r in cell)) or "no method answered"
                out.append(Gap(name, n, prop, why))
    return out


def _cell(results: list[Result]) -> str:
    if any(r.status == "counterexample" for r in results):
        return "COUNTEREXAMPLE"
    parts = []
    for r in results:
        if r.status == "proven":
            parts.append("proven")
        elif r.status == "checked" and r.method == "exhaustive":
            parts.append(f"{r.states:,} states")
        elif r.status == "checked":
            parts.append("checked")
        elif r.status == "unknown":
            parts.append("unknown")
        elif r.status == "no end":
            parts.append("no end")
        elif r.status == "incomplete":
            parts.append(f"incomplete: {r.states:,} states" if r.states
                         else "incomplete: not searched")
    return ", ".join(parts) or "not covered"


def _exhaustive_detail(r: Result) -> str:
    """The exhaustive search's summary with the state count written as in the table
    (``1,512 states``) and ``1 move`` in the singular."""
    detail = r.detail
    if detail.startswith(f"{r.states} states"):
        detail = f"{r.states:,}" + detail[len(str(r.states)):]
    return detail.replace("longest deal 1 moves", "longest deal 1 move")


def _variant_block(name: str, results: list[Result]) -> list[str]:
    counts = sorted({r.players for r in results if r.players})
    times = [f"{method} {_run_seconds(results, method):.1f} s"
             for method in ("z3", "exhaustive") if any(r.method == method for r in results)]
    lines = [f"{name} — {', '.join(times) or 'static checks only'}"]
    head = ["property", *[f"{n} players" for n in counts]]
    rows = [head]
    for prop in PROPERTIES:
        mine = [r for r in results if r.prop == prop]
        if not mine:
            continue
        static = [r for r in mine if r.players == 0]
        row = [prop]
        for n in counts:
            row.append(_cell([*static, *[r for r in mine if r.players == n]]))
        rows.append(row)
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    for row in rows:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    lines += _notes(results)
    return lines


def _run_seconds(results: list[Result], method: str) -> float:
    """The time of ``method``'s runs: each run (one player count) once, though each of its
    results carries it (:attr:`Result.seconds`)."""
    runs = {r.players: r.seconds for r in results if r.method == method}
    return sum(runs.values())


def _counts(counts: list[int]) -> str:
    """``"3 players"``, ``"3 and 4 players"``, ``"3, 4 and 5 players"``."""
    words = [str(n) for n in sorted(counts)]
    joined = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"{joined} player{'' if words == ['1'] else 's'}"


def _notes(results: list[Result]) -> list[str]:
    """One line per distinct note, naming the player counts it belongs to (a static check,
    players 0, belongs to every count); counterexamples follow with their traces."""
    notes: list[str] = []
    grouped: dict[tuple[str, str, str], tuple[list[str], list[int]]] = {}
    for r in results:
        if r.status not in ("proven", "not covered", "unknown", "checked", "incomplete",
                            "no end") \
                or not r.detail:
            continue
        head, suffix, detail = r.method, "", r.detail
        if r.method == "static":
            head = r.prop
        elif r.method == "none":
            head = "not covered"
        elif r.status in ("not covered", "unknown", "incomplete"):
            head = f"{r.method} {r.status}"
            suffix = f", deck {r.deck}" if r.status == "incomplete" and r.deck else ""
        elif r.method == "exhaustive":
            suffix, detail = (f", deck {r.deck}" if r.deck else ""), _exhaustive_detail(r)
        props, counts = grouped.setdefault((head, suffix, detail), ([], []))
        if r.prop not in props:
            props.append(r.prop)
        if r.players and r.players not in counts:
            counts.append(r.players)
    for (head, suffix, detail), (props, counts) in grouped.items():
        where = f", {_counts(counts)}" if counts else ""
        if head.endswith(("not covered", "unknown", "incomplete")):
            label = f"{head} ({', '.join(props)}{where.replace(', ', '; ', 1)}){suffix}"
        else:
            label = head + where + suffix
        notes.append(f"  · {label}: {detail}")
    for r in results:
        if r.status == "counterexample":
            notes.append(f"  ✗ {r.prop}, {r.players or 'any'} players, {r.method}"
                         + (f" (deck {r.deck})" if r.deck else "") + f": {r.detail}")
            if r.trace:
                notes += ["      " + line for line in r.trace.splitlines()]
    return notes


def methods(options: Options) -> str:
    """What runs under ``options``, for the report's header: ``z3: unbounded, full deck;
    exhaustive: every deal of a reduced deck (2x3, else 2x4, else 3x4), dealer seat 0, at
    most 2,000,000 states per player count``, or ``z3 off`` / ``exhaustive search off``."""
    parts = ["z3: unbounded, full deck" if options.z3 else "z3 off"]
    if options.exhaustive:
        decks = ", else ".join(f"{s}x{r}" for s, r in options.decks)
        bound = (f", at most {options.max_states:,} states per player count"
                 if options.max_states is not None else "")
        parts.append(f"exhaustive: every deal of a reduced deck ({decks}), dealer seat 0{bound}")
    else:
        parts.append("exhaustive search off")
    return "; ".join(parts)


def render_text(results: list[Result], seconds: float, options: Options | None = None,
                cpu: float | None = None) -> str:
    """The whole report as text.  ``seconds``: the run's wall time; ``cpu``: its CPU time,
    if measured; ``options``: what ran (the header says it; default :class:`Options`)."""
    by_variant: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_variant[r.variant].append(r)
    variants = len(by_variant)
    took = f"{seconds:.1f} s wall" + (f", {cpu:.1f} s CPU" if cpu is not None else "")
    lines = [f"boodle verify: {variants} variant{'' if variants == 1 else 's'} in {took} "
             f"({methods(options or Options())}; spec/verification.md says what each means)",
             ""]
    for name, mine in by_variant.items():
        lines += [*_variant_block(name, mine), ""]
    bad = sum(r.status == "counterexample" for r in results)
    found = f"{bad} counterexample{'' if bad == 1 else 's'}"
    gaps = unverified(results)
    if not gaps:
        lines.append(found if bad else "no counterexample")
        return "\n".join(lines)
    lines.append((found if bad else "no counterexample found")
                 + f"; NOT VERIFIED: {len(gaps)} propert{'y' if len(gaps) == 1 else 'ies'} "
                 "neither proven nor checked by any method that ran:")
    by_cell: dict[tuple[str, int, str], list[str]] = defaultdict(list)
    for g in gaps:
        by_cell[(g.variant, g.players, g.why)].append(g.prop)
    for (variant, n, why), props in by_cell.items():
        count = f", {n} players" if n else ""
        lines.append(f"  ✗ {variant}{count}: {', '.join(props)} — {why}")
    return "\n".join(lines)


def render_json(results: list[Result], seconds: float, options: Options | None = None,
                cpu: float | None = None) -> str:
    """The whole report as one JSON document: ``seconds`` (wall) and ``cpu_seconds`` of the
    whole run, ``methods`` (what ran, as in the text header), and per result its
    ``run_seconds``: the time of the run (variant, player count, method) that checked it,
    shared by the properties that run checked together (:attr:`Result.seconds`)."""
    doc: dict[str, Any] = {"kind": "verify-report", "seconds": round(seconds, 3),
                           **({"cpu_seconds": round(cpu, 3)} if cpu is not None else {}),
                           "methods": methods(options or Options()),
                           "counterexamples": sum(r.status == "counterexample" for r in results),
                           "unverified": [g.to_json() for g in unverified(results)],
                           "results": [r.to_json() for r in results]}
    return json.dumps(doc, ensure_ascii=False, indent=1)


def exit_status(results: list[Result]) -> int:
    """1 if any property has a counterexample, or if some property was neither proven nor
    checked by any method that ran (:func:`unverified`); else 0."""
    if any(r.status == "counterexample" for r in results) or unverified(results):
        return 1
    return 0


def save_counterexamples(results: list[Result], folder: Path) -> list[Path]:
    """Write each counterexample as JSON in ``folder`` (created if needed); the paths."""
    out = []
    for r in results:
        if r.status != "counterexample":
            continue
        folder.mkdir(parents=True, exist_ok=True)
        slug = "-".join([r.variant, f"{r.players}p", r.prop.replace(" ", "-"), r.method])
        path = folder / f"{slug}.json"
        path.write_text(json.dumps(r.to_json(), ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
        out.append(path)
    return out
