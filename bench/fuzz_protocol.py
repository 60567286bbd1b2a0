"""Fuzz the conformance runner with a hostile implementation, and ``serve`` with mutated messages.

    python bench/fuzz_protocol.py                          # 10,000 answers, 2,000 messages
    python bench/fuzz_protocol.py --answers 300 --messages 100 --seed 3

The runner: rounds of ``run_suite`` over the suite's cases against
``tests/helpers/hostile_impl.py`` (random bytes, JSON nested thousands deep, lone
surrogates, huge lines, wrong ids, slow and silent answers, children in sessions of their
own, daemons, crashes, wrong contents), a new seed each round, until ``--answers`` cases
have been sent.  After each round: the run raised nothing (else a **crash**), every case
has exactly one outcome in order, the console text and the JSON, JUnit and Markdown
reports are written and read back, and no process of the implementation is left.

``serve``: one ``boodle conformance serve`` gets ``--messages`` mutated messages (bytes
flipped, spans cut or doubled, values replaced by deep, huge, surrogate or odd JSON,
invalid UTF-8, lines over 8 MiB); each must get exactly one answer line of JSON, and the
server must not exit (else a crash; it is started again).  Answers naming an internal
error are listed (findings, not crashes).

Exit status 1 if anything crashed, a case was reported other than once, or a process was
left.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tests" / "helpers")]

from boodle.conformance.cases import Case, load_cases  # noqa: E402
from boodle.conformance.engines import REFERENCE  # noqa: E402
from boodle.conformance.impl_process import Child  # noqa: E402
from boodle.conformance.report import (  # noqa: E402
    NOT_RUN,
    console_text,
    write_json,
    write_junit,
    write_markdown,
)
from boodle.conformance.run_suite import Report, run_suite  # noqa: E402
from boodle.conformance.serve import started  # noqa: E402

HOSTILE = ROOT / "tests" / "helpers" / "hostile_impl.py"


def leftovers(marker: str) -> list[int]:
    """Live processes (not zombies) whose command line holds ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(proc.name))
    return found


def _left_behind(marker: str) -> int:
    """How many processes of a round's implementation are still running (a moment is given
    for the last ones to die); they are killed (they are this fuzzer's own)."""
    deadline = time.monotonic() + 3
    while leftovers(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = leftovers(marker)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(left)


def _check_reports(report: Report, cases: list[Case], folder: Path) -> list[str]:
    """What is wrong with a round's report (empty: nothing)."""
    problems = []
    if [o.id for o in report.outcomes] != [c.id for c in cases]:
        problems.append("the cases were not each reported once, in order")
    console_text(report).encode("utf-8")
    write_json(report, folder / "r.json")
    write_junit(report, folder / "r.xml")
    write_markdown(report, folder / "r.md")
    data = json.loads((folder / "r.json").read_text(encoding="utf-8"))
    if [c["id"] for c in data["cases"]] != [c.id for c in cases]:
        problems.append("the JSON report does not list each case once")
    if len(ET.parse(folder / "r.xml").getroot().findall("testcase")) != len(cases):
        problems.append("the JUnit report does not list each case once")
    (folder / "r.md").read_text(encoding="utf-8")
    return problems


def fuzz_runner(answers: int, seed: int, timeout: float, per_round: int,
                log: Callable[[str], None] = print) -> dict[str, Any]:
    """Rounds of ``run_suite`` against the hostile implementation until ``answers`` cases
    were sent; counts of outcomes, crashes, problems and processes left."""
    cases = [c for c in load_cases() if c.kind != "count"]
    os.environ["BOODLE_FUZZ_STARTED"] = json.dumps(started(REFERENCE))
    os.environ["BOODLE_FUZZ_TIMEOUT"] = str(timeout)
    rng = random.Random(seed)
    sent = rounds = 0
    outcomes: Counter[str] = Counter()
    crashes: list[str] = []
    problems: list[str] = []
    left_total = 0
    stops = 0
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        while sent < answers:
            chosen = rng.sample(cases, min(per_round, answers - sent, len(cases)))
            marker = f"boodle-fuzz-{uuid.uuid4().hex}"
            command = f"{sys.executable} {HOSTILE} {seed}-{rounds} {marker}"
            rounds += 1
            try:
                report = run_suite(chosen, command, timeout=timeout, start_timeout=10.0)
                problems += _check_reports(report, chosen, Path(tmp))
            except Exception as exc:  # noqa: BLE001 - a crash of the runner is what we look for
                crashes.append("".join(traceback.format_exception(exc))[-3000:])
                sent += len(chosen)
            else:
                ran = [o for o in report.outcomes if not o.summary.startswith(NOT_RUN)]
                sent += len(ran)
                stops += len(ran) < len(chosen)
                outcomes.update(o.outcome for o in report.outcomes)
            left_total += _left_behind(marker)
            if rounds % 10 == 0:
                rate = sent / (time.perf_counter() - began)
                log(f"  runner: {sent:>6} answers  {rate:5.1f}/s  {dict(outcomes)}")
    return {"answers": sent, "rounds": rounds, "outcomes": dict(outcomes), "crashes": crashes,
            "problems": problems, "left": left_total, "stopped_rounds": stops,
            "seconds": round(time.perf_counter() - began, 1)}


def mutate(base: bytes, rng: random.Random) -> bytes:
    """One mutation of a message's JSON text (no line break inside)."""
    how = rng.randrange(9)
    data = bytearray(base)
    if how == 0:  # flip bytes
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif how == 1:  # cut a span
        i = rng.randrange(len(data))
        del data[i:i + rng.randrange(1, 200)]
    elif how == 2:  # double a span
        i = rng.randrange(len(data))
        data[i:i] = data[i:i + rng.randrange(1, 200)]
    elif how in (3, 4, 5):  # replace a value
        message = json.loads(base)
        hostile = rng.choice([
            "[" * 3000 + "]" * 3000, '"boom \\ud800"', "9" * 5000, "1e400", "NaN",
            '{"kind": "lead"}', "-1", '"' + "x" * 100_000 + '"', "[]", "{}", "null",
            '"\\udfff"', "0.5", "true",
        ])
        keys = _paths(message)
        path = rng.choice(keys)
        marker = "\u0001HOLE\u0001"
        _set(message, path, marker)
        text = json.dumps(message, ensure_ascii=False).replace(json.dumps(marker), hostile)
        data = bytearray(text.encode("utf-8", errors="surrogatepass"))
    elif how == 6:  # a key dropped
        message = json.loads(base)
        if isinstance(message, dict) and message:
            message.pop(rng.choice(list(message)))
        data = bytearray(json.dumps(message).encode())
    elif how == 7:  # wrapped deep
        depth = rng.choice([65, 1000, 50_000])
        data = bytearray(b"[" * depth + bytes(data) + b"]" * depth)
    else:
        surrogate_bytes = b'{"type": "run", "id": "\xed\xa0\x80"}'
        huge = b"x" * (9 << 20) if rng.random() < 0.05 else b"nope"
        data = bytearray(rng.choice([b"\xff\xfe\xfd", b"\xc0\x80", surrogate_bytes, huge]))
    return bytes(data).replace(b"\n", b" ").replace(b"\r", b" ")


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out[1:] or [prefix]


def _set(value: Any, path: tuple[Any, ...], new: object) -> None:
    """Put ``new`` at ``path`` (keys and indices) inside the JSON value ``value``."""
    for step in path[:-1]:
        value = value[step]
    if path:
        value[path[-1]] = new


def fuzz_serve(messages: int, seed: int,
               log: Callable[[str], None] = print) -> dict[str, Any]:
    """Mutated messages to one ``serve``; each must get one JSON answer line."""
    rng = random.Random(seed)
    bases = [json.dumps(c.request(), ensure_ascii=False).encode()
             for c in load_cases() if c.kind in ("reject", "script")]
    bases += [b'{"type": "start", "protocol": "boodle-protocol/1"}', b'{"type": "hello"}']
    command = [sys.executable, "-m", "boodle.cli", "conformance", "serve"]
    crashes: list[str] = []
    internal: Counter[str] = Counter()
    answered = slow = skipped = 0
    child = Child(command)
    began = time.perf_counter()
    try:
        for n in range(messages):
            line = mutate(rng.choice(bases), rng)
            if not line.strip():
                skipped += 1
                continue
            try:
                if json.loads(line).get("type") == "stop":
                    skipped += 1
                    continue
            except (ValueError, AttributeError, RecursionError):
                pass
            assert child.proc.stdin is not None
            try:
                child.proc.stdin.write(line + b"\n")
                child.proc.stdin.flush()
            except OSError:
                pass
            got = child.read_line(60.0)
            problem = None
            if got.kind == "timeout":
                slow += 1
                problem = "no answer within 60 s"
            elif got.kind != "line":
                problem = f"serve ended ({got.kind}), status {child.wait(2.0)}: " \
                          f"{child.stderr_excerpt()}"
            else:
                try:
                    reply = json.loads(got.text)
                    assert reply.get("type") in ("result", "started")
                    answered += 1
                    if "internal error" in str(reply.get("message", "")):
                        internal[str(reply["message"])[:120]] += 1
                except (ValueError, AssertionError, AttributeError):
                    problem = f"an answer that is no message: {got.text[:200]!r}"
            if problem is not None:
                crashes.append(f"message {n}: {line[:300]!r}: {problem}")
                child.kill()
                child = Child(command)
            if (n + 1) % 500 == 0:
                log(f"  serve: {n + 1:>6} messages, {answered} answered, {len(crashes)} crashes")
    finally:
        child.kill()
    return {"messages": messages, "answered": answered, "skipped": skipped, "slow": slow,
            "crashes": crashes, "internal_errors": dict(internal),
            "seconds": round(time.perf_counter() - began, 1)}


def main(argv: list[str] | None = None) -> int:
    """Run both fuzzers; print their counts; exit 1 on any crash, problem or leftover."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=10_000,
                        help="cases sent to the hostile implementation (10000)")
    parser.add_argument("--messages", type=int, default=2_000,
                        help="mutated messages sent to serve (2000; 0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=0.5,
                        help="seconds per case given to the hostile implementation (0.5)")
    parser.add_argument("--per-round", type=int, default=60, help="cases per run (60)")
    args = parser.parse_args(argv)
    runner = fuzz_runner(args.answers, args.seed, args.timeout, args.per_round)
    print(f"runner: {runner['answers']} answers in {runner['rounds']} runs, "
          f"{runner['seconds']} s; outcomes {runner['outcomes']}; "
          f"{len(runner['crashes'])} crashes, {len(runner['problems'])} report problems, "
          f"{runner['left']} processes left; {runner['stopped_rounds']} runs stopped by "
          "the same-failure rule")
    for crash in runner["crashes"][:5]:
        print("CRASH:", crash)
    for problem in runner["problems"][:5]:
        print("PROBLEM:", problem)
    serve = fuzz_serve(args.messages, args.seed) if args.messages else None
    if serve is not None:
        print(f"serve: {serve['messages']} messages, {serve['answered']} answered, "
              f"{serve['skipped']} not sent (blank or stop), {serve['slow']} slow, "
              f"{len(serve['crashes'])} crashes, {serve['seconds']} s")
        for message, n in serve["internal_errors"].items():
            print(f"  internal error x{n}: {message}")
        for crash in serve["crashes"][:5]:
            print("CRASH:", crash)
    bad = runner["crashes"] or runner["problems"] or runner["left"] \
        or (serve is not None and serve["crashes"])
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
