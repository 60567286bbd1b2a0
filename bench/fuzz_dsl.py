"""Fuzz the rules-file parser and builder: many hostile inputs, every outcome checked.

    python bench/fuzz_dsl.py                     # 100,000 inputs of every family
    python bench/fuzz_dsl.py --inputs 5000 --family mutated --seed 3

Inputs come from the Hypothesis strategies of ``tests/helpers/dsl_fuzz.py`` (random Unicode,
token soups, random sentences of the grammar, mutated built-in variants and drafts).  Each
input must give a ruleset or a located ``BoodleError`` within the time limit
(``check_outcome``).  Unlike the bounded CI test, a failure does not stop the run: each
failing input is written to ``--out`` (default ``bench/fuzz-crashes/``) as ``crash-N.txt``
(the text, as JSON to keep any code point) with its traceback, to become a regression
test.  Exit status 1 if any input failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tests" / "helpers")]

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

import dsl_fuzz  # noqa: E402

FAMILIES = {
    "all": dsl_fuzz.any_input,
    "random": lambda: dsl_fuzz.random_texts().map(lambda t: ("<fuzz>", t)),
    "soup": lambda: dsl_fuzz.token_soups().map(lambda t: ("<fuzz>", t)),
    "grammar": lambda: dsl_fuzz.grammar_texts().map(lambda t: ("<fuzz>", t)),
    "mutated": dsl_fuzz.mutated_texts,
}


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer; print counts, outcomes, the slowest input and the failures."""
    args = _args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()
    messages: Counter[str] = Counter()
    slowest = (0.0, "")
    failures: list[Path] = []
    start = time.perf_counter()

    @seed(args.seed)
    @settings(max_examples=args.inputs, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(FAMILIES[args.family]())
    def one(case: tuple[str, str]) -> None:
        nonlocal slowest
        file, text = case
        t0 = time.process_time()
        try:
            outcome = dsl_fuzz.check_outcome(text, file)
        except (Exception, dsl_fuzz.Hang) as exc:  # record and go on: this is the search
            counts["failed"] += 1
            failures.append(_save(args.out, len(failures), file, text, exc))
        else:
            counts[outcome.kind] += 1
            messages[_shape(outcome.message) if outcome.kind == "error" else "ruleset"] += 1
        took = time.process_time() - t0
        if took > slowest[0]:
            slowest = (took, text[:80])
        done = sum(counts.values())
        if done % args.every == 0:
            rate = done / (time.perf_counter() - start)
            print(f"  {done:>8} inputs  {rate:6.0f}/s  {dict(counts)}", flush=True)

    one()
    total = sum(counts.values())
    elapsed = time.perf_counter() - start
    print(f"inputs fuzzed: {total} in {elapsed:.0f} s ({total / elapsed:.0f}/s), "
          f"family {args.family}, seed {args.seed}")
    print(f"outcomes: {counts['ruleset']} rulesets, {counts['error']} located errors, "
          f"{counts['failed']} failures")
    print(f"slowest input: {slowest[0] * 1000:.1f} ms of CPU ({slowest[1]!r})")
    print("most frequent errors:")
    for shape, n in messages.most_common(args.top):
        print(f"  {n:>7}  {shape}")
    for path in failures:
        print(f"FAILED: {path}")
    return 1 if failures else 0


def _shape(message: str) -> str:
    """An error message with its particulars blanked, to count kinds of error."""
    import re

    return re.sub(r"'[^']*'|U\+[0-9A-F]+|\d+", "…", message)[:70]


def _save(out: Path, n: int, file: str, text: str, exc: BaseException) -> Path:
    path = out / f"crash-{n}.txt"
    trace = "".join(traceback.format_exception(exc))
    record = {"file": file, "text": text, "error": f"{type(exc).__name__}: {exc}"}
    path.write_text(json.dumps(record, ensure_ascii=True) + "\n" + trace, encoding="utf-8")
    return path


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs to try (100000)")
    parser.add_argument("--family", choices=sorted(FAMILIES), default="all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=5000, help="progress line every N inputs")
    parser.add_argument("--top", type=int, default=15, help="kinds of error listed (15)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "fuzz-crashes")
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(main())
