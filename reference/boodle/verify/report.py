"""The report of ``boodle verify``: a table per variant (property × player count), notes, the
counterexamples' traces, and the JSON form.

A cell combines the methods that ran for that player count: ``proven`` (z3,
full deck; ``proven (stops phase)`` where the deal has stages z3 does not model, which it
starts play after, from any state they can leave: those stages are checked by the engine
search alone, as the ``not modelled by z3`` line says), ``N states`` (exhaustive on a
reduced deck), ``proven, N states`` (both), ``COUNTEREXAMPLE``, ``unknown`` (a z3 query ran out of
time: not proven), ``incomplete: N states`` (the exhaustive search reached
its bound, ``--max-states``, before it finished: not checked), ``not
covered``.  The header says which methods ran, with which bounds.
"""

from __future__ import annotations

import json
import re
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


PARTLY = "proven (stops phase)"
"""A z3 proof of a deal whose other stages z3 does not model step by step."""

PARTLY_LEGEND = ("  proven (stops phase): z3 proves the stops phase from every state the "
                 "stages it does not model can leave; those stages are checked by the engine "
                 "search alone (below)")


def _cell(results: list[Result], partly: bool = False) -> str:
    if any(r.status == "counterexample" for r in results):
        return "COUNTEREXAMPLE"
    parts = []
    for r in results:
        if r.status == "proven":
            parts.append(PARTLY if partly and r.method == "z3" else "proven")
        elif r.status == "checked" and r.method == "exhaustive":
            parts.append(f"{r.states:,} states")
        elif r.status == "checked" and r.method == "engine":
            parts.append(f"{r.states:,} random states")
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
    times = [_method_time(results, method) for method in ("z3", "exhaustive", "engine")
             if any(r.method == method for r in results)]
    lines = [f"{name} — {', '.join(times) or 'static checks only'}"]
    partly = any(r.prop == "not modelled" and r.data.get("stages of the deal")
                 for r in results)
    head = ["property", *[f"{n} players" for n in counts]]
    rows = [head]
    for prop in PROPERTIES:
        mine = [r for r in results if r.prop == prop]
        if not mine:
            continue
        static = [r for r in mine if r.players == 0]
        row = [prop]
        for n in counts:
            row.append(_cell([*static, *[r for r in mine if r.players == n]],
                             partly and prop in _PER_COUNT))
        rows.append(row)
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    for row in rows:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    if partly and any(PARTLY in cell for row in rows for cell in row):
        lines.append(PARTLY_LEGEND)
    lines += [f"  not modelled by z3: {r.detail}" for r in results if r.prop == "not modelled"]
    lines += _notes(results)
    return lines


def _method_time(results: list[Result], method: str) -> str:
    """``z3 12.0 s``: the seconds of ``method``'s runs; with several runs (one per player
    count, run side by side under ``--jobs``) ``z3 50.5 s summed over 3 runs``, for their
    sum may exceed the header's wall time."""
    runs = len({r.players for r in results if r.method == method})
    summed = f" summed over {runs} runs" if runs > 1 else ""
    return f"{method} {_run_seconds(results, method):.1f} s{summed}"


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


@dataclass
class _Note:
    """One line of the notes while they are grouped: ``head`` (a method, ``z3 unknown``, a
    property), ``suffix`` (``, deck 2x3``), ``detail`` (its ``; ``-separated clauses),
    the properties and the player counts it belongs to (none: every count)."""

    head: str
    suffix: str
    detail: str
    props: list[str]
    counts: list[int]
    own: bool = False
    """Whether ``detail`` is what is left once the clauses a wider note says are dropped:
    the label then names the properties (``z3 termination``)."""


def _grouped_notes(results: list[Result]) -> list[_Note]:
    """One :class:`_Note` per distinct (head, suffix, detail), in the results' order."""
    grouped: dict[tuple[str, str, str], _Note] = {}
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
        elif r.method == "exhaustive" and r.prop == "engine = model":
            head, suffix = "engine = model, exhaustive", f", deck {r.deck}" if r.deck else ""
        elif r.method == "exhaustive":
            suffix, detail = (f", deck {r.deck}" if r.deck else ""), _exhaustive_detail(r)
        elif r.method == "engine":
            head = "engine = model, random deals"
        note = grouped.setdefault((head, suffix, detail), _Note(head, suffix, detail, [], []))
        if r.prop not in note.props:
            note.props.append(r.prop)
        if r.players and r.players not in note.counts:
            note.counts.append(r.players)
    return list(grouped.values())


def _drop_said_clauses(notes: list[_Note]) -> None:
    """Drop from each note the clauses a wider note of the same head already says for its
    player counts (z3's termination note repeats the stops-phase clauses of the note of
    every property, then adds its ranking): only its own clauses are left."""
    for note in notes:
        clauses = note.detail.split("; ")
        for wider in notes:
            if wider is note or (wider.head, wider.suffix) != (note.head, note.suffix):
                continue
            said = wider.detail.split("; ")
            covers = not wider.counts or set(note.counts) <= set(wider.counts)
            if covers and len(said) < len(clauses) and clauses[:len(said)] == said:
                note.detail, note.own = "; ".join(clauses[len(said):]), True
                break


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _merge_counts(notes: list[_Note]) -> list[_Note]:
    """Notes of one player count each that differ only in their numbers, as one note per
    shape: a number the same for every count written once, others as ``37 / 39`` in the
    order of the counts (``3 / 4 players``)."""
    shapes: dict[tuple[str, str, str, bool, tuple[str, ...]], list[_Note]] = {}
    out: list[_Note | list[_Note]] = []
    for note in notes:
        if len(note.counts) != 1:
            out.append(note)
            continue
        key = (note.head, _NUMBER.sub("#", note.suffix), _NUMBER.sub("#", note.detail),
               note.own, tuple(note.props))
        if key not in shapes:
            shapes[key] = []
            out.append(shapes[key])
        shapes[key].append(note)
    merged: list[_Note] = []
    for item in out:
        if isinstance(item, _Note):
            merged.append(item)
            continue
        group = sorted(item, key=lambda n: n.counts[0])
        first = group[0]
        merged.append(_Note(first.head, _merge_numbers([n.suffix for n in group]),
                            _merge_numbers([n.detail for n in group]), first.props,
                            [n.counts[0] for n in group], first.own))
    return merged


def _merge_numbers(texts: list[str]) -> str:
    """``texts`` (of one shape: the same words, other numbers) as one text: each number that
    differs written ``a / b / c``, in the order of ``texts``."""
    words = _NUMBER.split(texts[0])
    numbers = [_NUMBER.findall(text) for text in texts]
    out = [words[0]]
    for k, after in enumerate(words[1:]):
        values = list(dict.fromkeys(n[k] for n in numbers))
        out.append(values[0] if len(values) == 1 else " / ".join(n[k] for n in numbers))
        out.append(after)
    return "".join(out)


def _counts_label(note: _Note) -> str:
    """``3 and 4 players``; ``3 / 4 players`` when the note's numbers are given per count."""
    if " / " in note.detail + note.suffix:
        return " / ".join(str(n) for n in note.counts) + " players"
    return _counts(note.counts)


def _notes(results: list[Result]) -> list[str]:
    """One line per distinct note, naming the player counts it belongs to (a static check,
    players 0, belongs to every count); a note that repeats a wider one's clauses keeps
    only its own, and notes of several counts that differ only in numbers are one line
    (``at most 37 / 39 plays``, ``3 / 4 players``).  Counterexamples follow with their
    traces."""
    grouped = _grouped_notes(results)
    _drop_said_clauses(grouped)
    notes: list[str] = []
    for note in _merge_counts(grouped):
        head = f"{note.head} {', '.join(note.props)}" if note.own else note.head
        where = f", {_counts_label(note)}" if note.counts else ""
        if head.endswith(("not covered", "unknown", "incomplete")):
            label = f"{head} ({', '.join(note.props)}{where.replace(', ', '; ', 1)}){note.suffix}"
        else:
            label = head + where + note.suffix
        notes.append(f"  · {label}: {note.detail}")
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
    deals = f"{options.engine_deals} random deal{'' if options.engine_deals == 1 else 's'}"
    parts.append(f"engine = model: the searched states and {deals} of the full deck at every "
                 "count, small decks for coverage" if options.engine else "engine = model off")
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
