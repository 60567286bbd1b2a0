"""Mutation testing of the engine with the conformance suite as the test command.

    python bench/conformance_mutation.py run --minutes 30     # mutmut in a copy of the tree
    python bench/conformance_mutation.py selftest             # the test command mutmut runs
    python bench/conformance_mutation.py selftest --all       # every case, not a sample

``run`` copies the tree to a temporary folder (mutmut edits the files it
mutates, and others work in this tree), runs mutmut 2 (``pip install
'.[mutation]'``) on the engine's rule modules there with ``selftest`` as the
runner, stops after ``--minutes``, and prints the score and every surviving
mutant's diff.  ``selftest`` runs cases in-process against the reference,
hand-written ones first, then a sample of the generated ones (every 4th),
and exits 1 at the first case that does not pass.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = ("stops.py", "leads.py", "claims.py", "antes.py", "dealing.py")
"""The modules holding the rules of a deal (reference/boodle/)."""

COPIED = ("reference", "grammar", "spec", "conformance", "tests", "bench", "pyproject.toml")


def selftest(every: bool) -> int:
    """Run the cases in-process; 1 at the first one that does not pass."""
    from boodle.conformance import counting
    from boodle.conformance.cases import load_cases
    from boodle.conformance.compare import verdict
    from boodle.conformance.execute import execute

    counting.DEFAULT_BUDGET = 50_000  # a mutant that makes a count explode fails fast

    cases = load_cases(check=False)
    hand = [c for c in cases if c.data["source"]["kind"] != "generated"]
    generated = [c for c in cases if c.data["source"]["kind"] == "generated"]
    chosen = hand + (generated if every else generated[::4])
    for case in chosen:
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


def run(minutes: float, files: list[str]) -> int:
    """mutmut in a copy of the tree, time-boxed; prints the score and the survivors."""
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
    print(f"mutmut ran {time.monotonic() - began:.0f} s in {work}")
    results = subprocess.run(["mutmut", "results"], cwd=work, env=env, capture_output=True,
                             text=True, check=False)
    print(results.stdout)
    for mutant_id in survivors(results.stdout):
        shown = subprocess.run(["mutmut", "show", str(mutant_id)], cwd=work, env=env,
                               capture_output=True, text=True, check=False)
        print(f"--- survivor {mutant_id}\n{shown.stdout}")
    return 0


def survivors(results: str) -> list[int]:
    """The ids listed under the "Survived" heading of ``mutmut results``."""
    ids: list[int] = []
    inside = False
    for line in results.splitlines():
        heading = line.split(" ")[0]
        if heading in ("Survived", "Killed", "Timed", "Suspicious", "Untested", "Skipped"):
            inside = heading == "Survived"
            continue
        if not inside or line.startswith("----"):
            continue
        for part in line.replace(",", " ").split():
            low, _, high = part.partition("-")
            if low.isdigit() and (not high or high.isdigit()):
                ids.extend(range(int(low), int(high or low) + 1))
    return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    test = sub.add_parser("selftest")
    test.add_argument("--all", action="store_true")
    go = sub.add_parser("run")
    go.add_argument("--minutes", type=float, default=30)
    go.add_argument("--files", nargs="*", default=list(ENGINE_FILES))
    args = parser.parse_args()
    if args.command == "selftest":
        return selftest(args.all)
    return run(args.minutes, args.files)


if __name__ == "__main__":
    raise SystemExit(main())
