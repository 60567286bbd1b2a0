"""A hostile implementation for fuzzing the conformance runner (``bench/fuzz_protocol.py``).

Run as ``python hostile_impl.py SEED MARKER``, in session mode.  It answers ``start`` with
``BOODLE_FUZZ_STARTED`` (JSON: the reference's ``started``, so that no case is skipped), and
each ``run`` with one behaviour drawn from :data:`BEHAVIOURS` by a generator seeded with
SEED and the case's id: random bytes, JSON nested thousands deep, lone surrogates, huge
lines, another case's id, answers too slow or none, children in sessions of their own and
daemons, crashes, lines without their end, closed output, two answers for one case, results
of the right shape with wrong contents.  It imports nothing of boodle, so a restart is
quick.  MARKER is in the command line of every process it starts (to find leftovers).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

Out = Callable[[bytes], None]


def _write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _line(value: object) -> bytes:
    return json.dumps(value).encode() + b"\n"


def _sleeper(marker: str, new_session: bool) -> None:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", marker],
                     start_new_session=new_session, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _daemon(marker: str) -> None:
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)",
                                      marker])
        os._exit(0)
    os.waitpid(pid, 0)


def _random_json(rng: random.Random, depth: int = 0) -> object:
    pick = rng.randrange(9 if depth < 4 else 5)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, -1, 10**400, 2**63, rng.randrange(-10**6, 10**6)])
    if pick == 2:
        return rng.choice([1.5, -0.0, 1e308])
    if pick == 3:
        return rng.choice(["", "10♥", "x" * rng.randrange(1000), "\ud800", "a\udfffb",
                           "\U0001f600", "\x00"])
    if pick == 4:
        return rng.choice(["lead", "turn", "9♦", "kitty", "done"])
    if pick in (5, 6):
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["kind", "seat", "card", "x", "\ud800", "ledger"]):
            _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def _result(case_id: str, rng: random.Random) -> dict[str, object]:
    """A result of the right shape whose contents are drawn at random."""
    status = rng.choice(["done", "rejected", "accepted", "counted", "skipped", "error"])
    out: dict[str, object] = {"type": "result", "id": case_id, "status": status}
    for key in rng.sample(["events", "final", "legal", "rule", "at", "message", "reason",
                           "count"], rng.randrange(5)):
        out[key] = _random_json(rng)
    if rng.random() < 0.3:
        out["events"] = [{"kind": rng.choice(["lead", "play", "claim", "stop", "zzz"]),
                          "seat": _random_json(rng), "card": _random_json(rng)}
                         for _ in range(rng.randrange(20))]
    return out


def behave(kind: str, case_id: str, rng: random.Random, marker: str, timeout: float) -> None:
    """Answer (or not) one ``run`` the way ``kind`` says."""
    if kind == "fair":
        _write(_line({"type": "result", "id": case_id, "status": "skipped", "reason": "fuzz"}))
    elif kind == "random-bytes":
        _write(os.urandom(rng.randrange(1, 2000)).replace(b"\n", b" ") + b"\n")
    elif kind == "deep":
        depth = rng.choice([65, 200, 1000, 5000, 100_000])
        _write(b'{"type": "result", "id": ' + json.dumps(case_id).encode()
               + b', "status": "done", "events": ' + b"[" * depth + b"]" * depth + b"}\n")
    elif kind == "surrogate":
        where = rng.choice(["message", "id", "key", "event"])
        value: dict[str, object] = {"type": "result", "id": case_id, "status": "error",
                                    "message": "boom \ud800"}
        if where == "id":
            value["id"] = case_id + "\udc00"
        elif where == "key":
            value["\ud83d"] = 1
        elif where == "event":
            value = {"type": "result", "id": case_id, "status": "done",
                     "events": [{"kind": "lead", "seat": 0, "card": "9\udfff"}]}
        _write(_line(value))
    elif kind == "huge":
        size = rng.choice([1 << 20, 9 << 20])
        _write(b'{"type": "result", "id": "' + b"x" * size + b'"}\n')
    elif kind == "wrong-id":
        _write(_line({"type": "result", "id": "michigan.other.000000000000",
                      "status": "skipped", "reason": "fuzz"}))
    elif kind == "slow":
        time.sleep(timeout * 1.5)
        _write(_line({"type": "result", "id": case_id, "status": "skipped", "reason": "late"}))
    elif kind == "silent":
        time.sleep(1000)
    elif kind == "setsid-child":
        _sleeper(marker, new_session=True)
        _write(_line({"type": "result", "id": case_id, "status": "skipped", "reason": "fuzz"}))
    elif kind == "daemon-crash":
        _daemon(marker)
        os._exit(rng.choice([0, 3, 77]))
    elif kind == "crash":
        sys.stderr.write("Error: fuzz crash\n" * rng.randrange(100))
        sys.stderr.flush()
        os._exit(rng.choice([0, 1, 2, 3, 139]))
    elif kind == "no-line-end":
        _write(_line({"type": "result", "id": case_id, "status": "skipped"})[:-1])
        time.sleep(1000)
    elif kind == "random-json":
        _write(_line(_random_json(rng)))
    elif kind == "mutated-result":
        _write(_line(_result(case_id, rng)))
    elif kind == "closed-stdout":
        os.close(1)
        time.sleep(1000)
    elif kind == "twice":
        answer = _line({"type": "result", "id": case_id, "status": "skipped", "reason": "x"})
        _write(answer + answer)
    elif kind == "stderr-flood":
        sys.stderr.write("e" * rng.randrange(1 << 20))
        sys.stderr.flush()
        _write(_line({"type": "result", "id": case_id, "status": "skipped", "reason": "fuzz"}))


BEHAVIOURS = {
    "fair": 22, "random-bytes": 8, "deep": 8, "surrogate": 8, "huge": 1, "wrong-id": 6,
    "slow": 1, "silent": 1, "setsid-child": 4, "daemon-crash": 3, "crash": 5,
    "no-line-end": 1, "random-json": 6, "mutated-result": 20, "closed-stdout": 1,
    "twice": 3, "stderr-flood": 2,
}
"""Each behaviour and its weight."""


def main(seed: str, marker: str) -> int:
    started = os.environ.get("BOODLE_FUZZ_STARTED", "{}")
    timeout = float(os.environ.get("BOODLE_FUZZ_TIMEOUT", "1"))
    kinds, weights = list(BEHAVIOURS), list(BEHAVIOURS.values())
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if message.get("type") == "start":
            _write(started.encode() + b"\n")
        elif message.get("type") == "stop":
            return 0
        elif message.get("type") == "run":
            case_id = str(message.get("id"))
            rng = random.Random(f"{seed}:{case_id}")
            kind = rng.choices(kinds, weights)[0]
            print(f"{case_id} {kind}", file=sys.stderr, flush=True)
            behave(kind, case_id, rng, marker, timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
