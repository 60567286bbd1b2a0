"""Mutation testing of the engine with the conformance suite as the test command.

    python bench/conformance_mutation.py run --minutes 30     # mutmut in a copy of the tree
    python bench/conformance_mutation.py run --files stops.py --out a.json   # a part of it
    python bench/conformance_mutation.py report a.json b.json \
        --explain why.txt --write-score conformance/mutation-score.json
    python bench/conformance_mutation.py selftest             # the test command mutmut runs
    python bench/conformance_mutation.py selftest --all       # every case, not a sample

``run`` copies the tree to a temporary folder (mutmut edits the files it
mutates, and others work in this tree), runs mutmut 2 (``pip install
'.[mutation]'``) on the engine's rule modules there with ``selftest`` as the
runner, stops after ``--minutes``, writes every mutant's status (and the diff
of each one not killed) to ``--out`` and prints the report.  Two ``run``\\ s on
disjoint ``--files`` can share the work; ``report`` merges their files.
``selftest`` runs cases in-process against the reference, hand-written ones
first, then a sample of the generated ones (every 4th), and exits 1 at the
first case that does not pass.

The report gives two scores.  The **raw score** is killed / tested, where a
mutant is killed when the suite fails, crashes or times out on it (mutmut's
``killed``, ``suspicious`` (killed, slowly) and ``timeout``: a runner's
per-case timeout fails a case that never ends).  The **score with
equivalents excepted** leaves out the surviving mutants that
:func:`classify` proves change nothing the protocol carries, by looking at
the mutant alone, mechanically (the AST of the mutated module differs from
the original only in a string constant, in one of these places):

- ``message``: the text of an exception raised (never its ``rule=`` id) or
  of an assert: FORMAT.md, "message texts are informative only";
- ``pass reason``: the reason text of a ``Pass`` event, which the runner
  never compares (``boodle.conformance.wire.INFORMATIVE``);
- ``message builder``: a string of :data:`MESSAGE_BUILDERS`, functions whose
  text only ends up in messages and pass reasons (not a comparison, a
  dictionary key or a returned rule id);
- ``transfer reason``: the ``reason`` of a transfer whose event's JSON has
  no reason field (:data:`UNSEEN_REASONS`, checked against
  :mod:`boodle.engine.events` when the report is made);
- ``stage label``: the name given to ``Stage(...)``, which nothing reads.

Every such mutant is listed; nothing is hidden with ``# pragma: no mutate``.
Other survivors are listed with their diff, to be explained by hand in the
``--explain`` file (``stops.py#12 equivalent: why``; kinds ``equivalent``,
``unreachable``, ``gap``); the report counts the first two apart and marks
any survivor left unexplained.  ``--write-score`` writes the summary that
``boodle conformance generate`` quotes in COVERAGE.md.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = ("stops.py", "leads.py", "claims.py", "antes.py", "dealing.py")
"""The modules holding the rules of a deal (reference/boodle/)."""

COPIED = ("reference", "grammar", "spec", "conformance", "tests", "bench", "pyproject.toml")

CPU_LIMIT = 15
"""CPU seconds a ``selftest`` may use (see :func:`selftest`)."""

KILLED = ("ok_killed", "ok_suspicious", "bad_timeout")
"""mutmut statuses counted as killed (see the module docstring)."""

MESSAGE_BUILDERS = {
    "describe": "leads.describe: a lead rule as text, for messages, pass reasons and "
                "`boodle diff` (outside the protocol)",
    "lead_fault": "leads.lead_fault: its second result is only the text of the IllegalMove "
                  "stops._check raises; the rule id (the first) is not a message",
}
"""Functions whose string constants only make message text (see :func:`classify`)."""

UNSEEN_REASONS = {"claim": "Claim", "going out": "Payment"}
"""Transfer reasons → the event class carrying that transfer, whose JSON omits the reason."""


# ---------------------------------------------------------------- the test command


def selftest(every: bool) -> int:
    """Run the cases in-process; 1 at the first one that does not pass.

    The process may use :data:`CPU_LIMIT` seconds of CPU (a pass takes about 3 here): a mutant
    that makes a deal never end exits 1 on SIGXCPU, failed as a runner's per-case
    timeout fails it, instead of waiting for mutmut's timeout of 10 baseline runs.
    """
    import resource
    import signal

    from boodle.conformance import counting

    # mutmut counts only exit status 1 as a kill (a signal's death would "survive")
    signal.signal(signal.SIGXCPU, lambda *_: os._exit(1))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 60))
    from boodle.conformance.cases import case_files, load_case
    from boodle.conformance.compare import verdict
    from boodle.conformance.play_case import execute

    counting.DEFAULT_BUDGET = 50_000  # a mutant that makes a count explode fails fast

    files = sorted(case_files(), key=lambda p: p.name)  # the file name is the case id
    hand = [p for p in files if ".gen-" not in p.name]
    generated = [p for p in files if ".gen-" in p.name]
    chosen = hand + (generated if every else generated[::4])
    for path in chosen:
        case = load_case(path, check=False)
        try:
            outcome = verdict(case, execute(case.request())).outcome
        except Exception as exc:  # a mutant may crash the engine: that kills it
            print(f"{case.id}: {type(exc).__name__}: {exc}")
            return 1
        if outcome != "pass":
            print(f"{case.id}: {outcome}")
            return 1
    print(f"{len(chosen)} cases pass")
    return 0


# ---------------------------------------------------------------- running mutmut


def run(minutes: float, files: list[str], out: Path | None) -> int:
    """mutmut in a copy of the tree, time-boxed; writes ``out`` and prints the report."""
    work = Path(tempfile.mkdtemp(prefix="boodle-mutmut-"))
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, work / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", ".mutmut-cache"))
        else:
            shutil.copy2(source, work / name)
    env = {**os.environ, "PYTHONPATH": str(work / "reference")}
    paths = ",".join(f"reference/boodle/{f}" for f in files)
    runner = f"{sys.executable} bench/conformance_mutation.py selftest"
    began = time.monotonic()
    try:
        subprocess.run(["mutmut", "run", "--paths-to-mutate", paths, "--runner", runner,
                        "--tests-dir", "tests", "--simple-output", "--no-progress"],
                       cwd=work, env=env, timeout=minutes * 60, check=False)
    except subprocess.TimeoutExpired:
        print(f"time box of {minutes:g} minutes reached; results so far:")
        for backup in (work / "reference" / "boodle").glob("*.py.bak"):  # the mutant on disk
            backup.replace(backup.with_suffix(""))
    print(f"mutmut ran {time.monotonic() - began:.0f} s in {work}")
    results = collect(work, env)
    target = out or work / "mutation-results.json"
    target.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"results in {target}")
    print(report([results]))
    return 0


def collect(work: Path, env: dict[str, str]) -> dict[str, Any]:
    """Every mutant of mutmut's cache in ``work``: id, file, line, status; the diff and the
    original module's text for each one not killed."""
    db = sqlite3.connect(work / ".mutmut-cache")
    rows = db.execute(
        "select Mutant.id, SourceFile.filename, Line.line_number, Mutant.status from Mutant "
        "join Line on Mutant.line = Line.id join SourceFile on Line.sourcefile = SourceFile.id "
        "order by Mutant.id").fetchall()
    mutants: list[dict[str, Any]] = []
    sources: dict[str, str] = {}
    for mutant_id, filename, line, status in rows:
        entry: dict[str, Any] = {"id": mutant_id, "file": filename, "line": line + 1,
                                 "status": status}
        if status not in KILLED and status != "untested":
            shown = subprocess.run(["mutmut", "show", str(mutant_id)], cwd=work, env=env,
                                   capture_output=True, text=True, check=False)
            entry["diff"] = shown.stdout
            sources.setdefault(filename, (work / filename).read_text(encoding="utf-8"))
        mutants.append(entry)
    return {"work": str(work), "mutants": mutants, "sources": sources}


# ---------------------------------------------------------------- classification


def mutated(source: str, diff: str) -> str | None:
    """``source`` with the one-hunk unified ``diff`` of ``mutmut show`` applied (None if it
    does not apply)."""
    lines = diff.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("@@")]
    if len(starts) != 1:
        return None
    head = re.match(r"@@ -(\d+)", lines[starts[0]])
    if head is None:
        return None
    old: list[str] = []
    new: list[str] = []
    for line in lines[starts[0] + 1:]:
        tag, text = line[:1], line[1:]
        if tag in (" ", ""):
            old.append(text)
            new.append(text)
        elif tag == "-":
            old.append(text)
        elif tag == "+":
            new.append(text)
    while old and new and old[-1] == "" and new[-1] == "":  # trailing blank context
        old.pop()
        new.pop()
    body = source.splitlines()
    at = int(head.group(1)) - 1
    if body[at:at + len(old)] != old:
        return None
    return "\n".join(body[:at] + new + body[at + len(old):]) + "\n"


def _string_changes(a: ast.AST, b: ast.AST, path: list[ast.AST],
                    found: list[list[ast.AST]]) -> bool:
    """Walk two trees together; collect the paths to string constants that differ.
    False if they differ in anything else."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
        if a.value == b.value and type(a.value) is type(b.value):
            return True
        if isinstance(a.value, str) and isinstance(b.value, str):
            found.append([*path, a])
            return True
        return False
    if isinstance(a, ast.JoinedStr) and isinstance(b, ast.JoinedStr):
        # an f-string: its literal parts may be split differently; its fields must match
        xs = [v for v in a.values if not isinstance(v, ast.Constant)]
        ys = [v for v in b.values if not isinstance(v, ast.Constant)]
        if len(xs) != len(ys):
            return False
        inner: list[list[ast.AST]] = []
        for u, v in zip(xs, ys, strict=True):
            if not _string_changes(u, v, [*path, a], inner):
                return False
        found.extend(inner)
        if ast.dump(a) != ast.dump(b) and not inner:
            found.append([*path, a])
        return True
    for field in a._fields:
        x, y = getattr(a, field, None), getattr(b, field, None)
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            for u, v in zip(x, y, strict=True):
                if isinstance(u, ast.AST) and isinstance(v, ast.AST):
                    if not _string_changes(u, v, [*path, a], found):
                        return False
                elif u != v:
                    return False
        elif isinstance(x, ast.AST) and isinstance(y, ast.AST):
            if not _string_changes(x, y, [*path, a], found):
                return False
        elif x != y:
            return False
    return True


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


def _inside(parent: ast.AST, child: ast.AST, field: str, index: int | None = None) -> bool:
    value = getattr(parent, field, None)
    if index is not None:
        return isinstance(value, list) and len(value) > index and value[index] is child
    return value is child


def _where(path: list[ast.AST]) -> tuple[str, str] | None:
    """Why a changed string constant at the end of ``path`` is unobservable, or None."""
    const = path[-1]
    for depth in range(len(path) - 2, -1, -1):
        node, below = path[depth], path[depth + 1]
        if isinstance(node, ast.keyword) and node.arg == "rule":
            return None  # a rule id is what a reject case compares
        if isinstance(node, ast.Raise) and _inside(node, below, "exc"):
            return "message", "the text of an exception (message texts are informative only)"
        if isinstance(node, ast.Assert) and _inside(node, below, "msg"):
            return "message", "the text of an assert"
        name = _call_name(node)
        if name == "Pass" and _inside(node, below, "args", 1):
            return "pass reason", "a pass's reason text is never compared (wire.INFORMATIVE)"
        if name == "pay" and _inside(node, below, "args", 3) and isinstance(const, ast.Constant):
            reason = str(const.value)
            event = UNSEEN_REASONS.get(reason)
            if event is not None and _reason_unseen(event):
                return "transfer reason", (f"the '{reason}' transfer travels in a "
                                           f"{event} event, whose JSON has no reason")
            return None
        if name == "Stage" and _inside(node, below, "args", 0):
            return "stage label", "Stage.name is read nowhere (stages are keyed in stages.py)"
        if isinstance(node, ast.Compare | ast.Subscript) or (
                isinstance(node, ast.Dict) and any(k is below for k in node.keys)):
            return None
        if isinstance(node, ast.FunctionDef) and node.name in MESSAGE_BUILDERS:
            if node.name == "lead_fault" and _rule_id_of(node, path[depth + 1:]):
                return None
            return "message builder", MESSAGE_BUILDERS[node.name]
        if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Module):
            return None
    return None


def _rule_id_of(func: ast.FunctionDef, path: list[ast.AST]) -> bool:
    """Whether the constant is the first element of a tuple ``func`` returns (a rule id)."""
    for node, below in zip(path, path[1:], strict=False):
        if isinstance(node, ast.Tuple) and node.elts and node.elts[0] is below:
            return True
    return False


def _reason_unseen(event_name: str) -> bool:
    """Whether ``event_name``'s JSON leaves out its transfer's reason (built and checked)."""
    from boodle.engine import events
    from boodle.engine.ledger import Transfer, seat, section

    src = section("s") if event_name == "Claim" else seat(1)
    t = Transfer(src, seat(0), 0, "REASON-PROBE")
    built: Any
    if event_name == "Claim":
        built = events.Claim(0, "s", t)
    else:
        built = events.Payment(1, seat(0), 0, False, t)
    return "REASON-PROBE" not in json.dumps(built.to_json())


def classify(source: str, diff: str) -> tuple[str, str] | None:
    """(kind, why) if the mutant ``diff`` of ``source`` is equivalent by the rules of the
    module docstring; None if it may change what the protocol carries."""
    changed = mutated(source, diff)
    if changed is None:
        return None
    try:
        a, b = ast.parse(source), ast.parse(changed)
    except SyntaxError:
        return None
    found: list[list[ast.AST]] = []
    if not _string_changes(a, b, [], found) or not found:
        return None
    kinds = [_where(path) for path in found]
    if any(k is None for k in kinds):
        return None
    first = kinds[0]
    assert first is not None
    return first


# ---------------------------------------------------------------- the report


def _change(diff: str) -> str:
    minus = [ln[1:].strip() for ln in diff.splitlines()
             if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln[1:].strip() for ln in diff.splitlines()
            if ln.startswith("+") and not ln.startswith("+++")]
    return f"`{' / '.join(minus)}` → `{' / '.join(plus)}`"


def read_explanations(path: Path | None) -> dict[str, tuple[str, str]]:
    """Hand explanations of survivors: lines ``FILE#ID KIND: text`` (``stops.py#4``),
    KIND one of :data:`HAND_KINDS`; blank lines and ``#`` comments are skipped."""
    out: dict[str, tuple[str, str]] = {}
    if path is None:
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        kind, _, text = rest.partition(":")
        if kind not in HAND_KINDS:
            raise SystemExit(f"{path}: unknown kind {kind!r} in {line!r}")
        out[key] = (kind, text.strip())
    return out


HAND_KINDS = ("equivalent", "unreachable", "gap")
"""equivalent: no input can tell it apart through the protocol; unreachable: code no input
reaches (a defensive raise); gap: a case could kill it (the line says which)."""


def report(parts: list[dict[str, Any]], hand: dict[str, tuple[str, str]] | None = None,
           score: Path | None = None) -> str:
    """The scores and every mutant not killed, as Markdown; ``score``: where to write the
    summary that ``boodle conformance generate`` quotes in COVERAGE.md."""
    hand = hand or {}
    mutants = [(part, m) for part in parts for m in part["mutants"]]
    status = Counter(m["status"] for _, m in mutants)
    tested = [(p, m) for p, m in mutants if m["status"] != "untested"]
    killed = [m for _, m in tested if m["status"] in KILLED]
    left = [(p, m) for p, m in tested if m["status"] not in KILLED]
    equivalent: list[tuple[dict[str, Any], tuple[str, str]]] = []
    others: list[tuple[dict[str, Any], tuple[str, str] | None]] = []
    for part, m in left:
        found = classify(part["sources"][m["file"]], m["diff"]) if m.get("diff") else None
        if found is None:
            others.append((m, hand.get(f"{Path(m['file']).name}#{m['id']}")))
        else:
            equivalent.append((m, found))
    n, k, e = len(tested), len(killed), len(equivalent)
    x = sum(1 for _, h in others if h is not None and h[0] != "gap")
    files = sorted({Path(m["file"]).name for _, m in mutants})
    lines = [
        f"mutants: {len(mutants)} ({', '.join(f'{s} {c}' for s, c in sorted(status.items()))})",
        f"raw score: {k}/{n} killed = {100 * k / max(n, 1):.1f}%",
        f"equivalent by classify(): {e}; score with them excepted: {k}/{n - e} = "
        f"{100 * k / max(n - e, 1):.1f}%",
        f"explained by hand as equivalent or unreachable: {x}; score with those excepted too: "
        f"{k}/{n - e - x} = {100 * k / max(n - e - x, 1):.1f}%",
        "",
        f"## Equivalent, mechanically ({e})",
        "",
    ]
    for m, (kind, why) in equivalent:
        lines.append(f"- {Path(m['file']).name}#{m['id']} (line {m['line']}) [{kind}] "
                     f"{_change(m['diff'])}: {why}")
    lines += ["", f"## Other survivors ({len(others)})", ""]
    for m, h in others:
        said = f"**{h[0]}**: {h[1]}" if h else "**unexplained**"
        lines.append(f"- {Path(m['file']).name}#{m['id']} (line {m['line']}, {m['status']}) "
                     f"{_change(m.get('diff', ''))}: {said}")
    if score is not None:
        summary = {"tool": "mutmut 2", "files": files, "date": time.strftime("%Y-%m-%d"),
                   "tested": n, "killed": k, "equivalent": e, "explained": x,
                   "gaps": sum(1 for _, h in others if h is not None and h[0] == "gap"),
                   "unexplained": sum(1 for _, h in others if h is None)}
        score.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    test = sub.add_parser("selftest")
    test.add_argument("--all", action="store_true")
    go = sub.add_parser("run")
    go.add_argument("--minutes", type=float, default=30)
    go.add_argument("--files", nargs="*", default=list(ENGINE_FILES))
    go.add_argument("--out", type=Path, default=None)
    merge = sub.add_parser("report")
    merge.add_argument("results", nargs="+", type=Path)
    merge.add_argument("--explain", type=Path, default=None,
                       help="hand explanations of survivors (lines 'FILE#ID KIND: text')")
    merge.add_argument("--write-score", type=Path, default=None,
                       help="write the summary (conformance/mutation-score.json)")
    args = parser.parse_args()
    if args.command == "selftest":
        return selftest(args.all)
    if args.command == "report":
        parts = [json.loads(p.read_text(encoding="utf-8")) for p in args.results]
        print(report(parts, read_explanations(args.explain), args.write_score))
        return 0
    return run(args.minutes, args.files, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
