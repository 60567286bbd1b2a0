"""The size, scheduler and ledger attacks of issue 20 in full (items 10-15).

    python bench/fuzz_bounds.py                         # every attack, 200 tampered ledgers
    python bench/fuzz_bounds.py --ledgers 40 --seconds 20 --seed 3

Each attack is run as a user runs it, and measured (CPU s of the commands, wall s, peak
resident memory of the process tree):

- **hint** (item 11): ``boodle check`` of a 256 KiB rules file (Michigan with thousands of
  board lines) with a syntax error at its end: the error keeps its location and the plain
  hint, within the reparse budget (before: 45 s of CPU);
- **zeros** (item 12): numbers written with 5,000 and 100,000 leading zeros (a start, an
  ante over its limit): read by value or refused where written, never an internal error;
- **deals** (item 10): ``boodle simulate --deals 10**12`` with 1 and 2 workers for
  ``--seconds``: the tree's resident memory sampled, its peak in the first and the second half
  (flat: before, 13.8 GB after 60 s), then SIGINT to the process group (Ctrl-C), or SIGINT or
  SIGTERM to the parent alone (``timeout``, ``kill``): the seconds until every process of
  the tree is gone (at most 60);
- **scheduler** (item 13): ``--scheduler`` on 127.0.0.1 pointing at a server that waits
  for HTTP, one that answers HTTP, one that sends random bytes and one that accepts and
  says nothing: each refused with a readable error within ``--connect-timeout 1`` plus the
  start-up;
- **ledgers** (items 14, 15): the ledgers of an unfinished and of a complete Michigan
  session, ``--ledgers`` times tampered (bytes of the file flipped, a stored value replaced
  by one of the wrong type or shape): ``boodle ledger`` and ``boodle play --resume`` on each
  copy must answer without an internal error, and resume must refuse every ledger ``boodle
  ledger`` calls damaged or inconsistent; a resumed one must still check consistent.  Then
  the intact ledger, read-only in a read-only folder (read as ``nobody`` when run as root),
  must be read.

Exit status 1 on any internal error, unbounded figure or resumed damaged ledger.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tests" / "helpers")]

from boodle.cli import main as boodle_main  # noqa: E402
from boodle.language.grammar import MAX_SOURCE_BYTES  # noqa: E402
from boodle.language.variants import load  # noqa: E402
from boodle.session.store import record_new  # noqa: E402
from store_helpers import info_for  # noqa: E402

PY = sys.executable
BAD_END = "  phase x is holding { pays: A♥ K♥ Q♥ J♥\n  }\n}\n"
"""A holding phase whose list lacks its commas, at the end of the file (as in
tests/unit/test_hint_budget.py, the bounded version)."""


def _env() -> dict[str, str]:
    path = os.pathsep.join([str(ROOT / "reference"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path.rstrip(os.pathsep), "PYTHONIOENCODING": "utf-8"}


def _command(argv: list[str], timeout: float = 600) -> dict[str, Any]:
    """``boodle ARGV`` in a process of its own: status, output, wall s and CPU s."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([PY, "-m", "boodle.cli", *argv], capture_output=True, text=True,
                          timeout=timeout, env=_env(), check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"status": done.returncode, "out": done.stdout, "err": done.stderr,
            "wall": round(time.perf_counter() - t0, 2),
            "cpu": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)}


def _internal(text: str) -> bool:
    return "internal error" in text or "Traceback" in text


# ---------------------------------------------------------------- item 11: the hint search


def big_rules() -> str:
    """Michigan's rules file grown to just under 256 KiB with board lines, ``BAD_END`` last."""
    text = (ROOT / "spec" / "variants" / "michigan.boodle").read_text(encoding="utf-8")
    board = re.search(r"board \{[^\n]*\n", text)
    assert board is not None
    line = '    set s{} "S" K Q same suit\n'
    head, tail = text[:board.end()], text[board.end():].rstrip()[:-1] + BAD_END
    room = MAX_SOURCE_BYTES - len((head + tail).encode("utf-8"))
    more, k = [], 0
    while room > len(line.format(k)) + 1:
        more.append(line.format(k))
        room -= len(line.format(k))
        k += 1
    return head + "".join(more) + tail


def attack_hint(folder: Path) -> dict[str, Any]:
    path = folder / "big.boodle"
    path.write_text(big_rules(), encoding="utf-8")
    got = _command(["check", str(path)])
    where = re.search(r"big\.boodle:(\d+):(\d+): error", got["out"] + got["err"])
    return {"bytes": path.stat().st_size, "status": got["status"], "cpu": got["cpu"],
            "wall": got["wall"], "located": where is not None,
            "ok": got["status"] == 1 and where is not None and not _internal(got["err"])}


# ---------------------------------------------------------------- item 12: leading zeros


def attack_zeros(folder: Path) -> dict[str, Any]:
    text = (ROOT / "spec" / "variants" / "michigan.boodle").read_text(encoding="utf-8")
    rows = []
    for zeros in (5_000, 100_000):
        for what, old, new, status in (
                ("start", "start: 50 chips", "start: {}30 chips", 0),
                ("start over the limit", "start: 50 chips", "start: {}1000001 chips", 1)):
            assert old in text
            path = folder / f"zeros-{zeros}.boodle"
            path.write_text(text.replace(old, new.format("0" * zeros)), encoding="utf-8")
            got = _command(["check", str(path)])
            rows.append({"zeros": zeros, "what": what, "status": got["status"],
                         "cpu": got["cpu"], "ok": got["status"] == status
                         and not _internal(got["out"] + got["err"])})
    return {"rows": rows, "ok": all(r["ok"] for r in rows)}


# ---------------------------------------------------------------- item 10: 10^12 deals


def _tree(root: int) -> list[int]:
    """``root`` and every process below it (by the parents /proc names)."""
    parents: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (proc / "stat").read_text()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            parents.setdefault(ppid, []).append(int(proc.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(parents.get(pid, ()))
    return out


def _rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def _running(pid: int) -> bool:
    """``pid`` is a live process, not a zombie."""
    with contextlib.suppress(OSError, IndexError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


def attack_deals(seconds: float) -> dict[str, Any]:
    rows = []
    for workers, sig, whom in ((1, signal.SIGINT, "group"), (2, signal.SIGINT, "group"),
                               (2, signal.SIGINT, "parent"), (2, signal.SIGTERM, "parent")):
        child = subprocess.Popen(
            [PY, "-m", "boodle.cli", "simulate", "michigan", "--players", "4", "--deals",
             str(10**12), "--workers", str(workers), "--no-progress"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(),
            start_new_session=True)
        samples: list[tuple[float, int]] = []
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds and child.poll() is None:
            samples.append((time.monotonic() - t0, _rss_kib(_tree(child.pid))))
            time.sleep(0.5)
        still = child.poll() is None
        tree = _tree(child.pid)
        asked = time.monotonic()
        if whom == "group":
            os.killpg(child.pid, sig)  # what Ctrl-C in a terminal sends
        else:
            child.send_signal(sig)  # what timeout, kill or a supervisor sends
        while any(_running(p) for p in tree) and time.monotonic() < asked + 120:
            time.sleep(0.1)
        stopped = round(time.monotonic() - asked, 1)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        err = child.stderr.read().decode(errors="replace") if child.stderr else ""
        first = max((k for t, k in samples if t < seconds / 2), default=0)
        second = max((k for t, k in samples if t >= seconds / 2), default=0)
        rows.append({"workers": workers, "signal": f"{signal.Signals(sig).name} to the {whom}",
                     "peak_mib_first_half": round(first / 1024),
                     "peak_mib_second_half": round(second / 1024), "stop_s": stopped,
                     "ok": still and second < 1.5 * first + 64 * 1024 and stopped < 60
                     and not _internal(err)})
    return {"seconds": seconds, "rows": rows, "ok": all(r["ok"] for r in rows)}


# ---------------------------------------------------------------- item 13: the scheduler


@contextlib.contextmanager
def _server(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """A TCP server on 127.0.0.1 that calls ``answer`` with each connection."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn, contextlib.suppress(OSError):
                answer(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        listener.close()


def _wait_for_request(conn: socket.socket) -> None:
    conn.settimeout(30)
    conn.recv(65536)  # an HTTP server waits for the request, then answers it
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _answer_http(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    time.sleep(0.5)


def _random_bytes(conn: socket.socket) -> None:
    conn.sendall(random.Random(0).randbytes(4096))
    time.sleep(0.5)


def _silent(conn: socket.socket) -> None:
    time.sleep(30)


def attack_scheduler() -> dict[str, Any]:
    rows = []
    for name, answer in (("http waits", _wait_for_request), ("http answers", _answer_http),
                         ("random bytes", _random_bytes), ("silent", _silent)):
        with _server(answer) as address:
            got = _command(["simulate", "michigan", "--players", "4", "--deals", "5",
                            "--backend", "dask", "--scheduler", address,
                            "--connect-timeout", "1"], timeout=120)
        rows.append({"server": name, "status": got["status"], "wall": got["wall"],
                     "said": got["err"].strip().splitlines()[0][:100] if got["err"] else "",
                     "ok": got["status"] == 1 and got["err"].startswith("error: --scheduler")
                     and not _internal(got["err"])})
    return {"rows": rows, "ok": all(r["ok"] for r in rows)}


# ---------------------------------------------------------------- items 14, 15: ledgers


class _Killed(Exception):
    """Stands for the process dying after a deal was committed."""


def unfinished_ledger(path: Path, units: int = 3) -> None:
    """A session of Michigan for 4 killed after ``units`` committed units (opening, deals)."""
    seen = [0]

    def emit(events: object) -> None:
        seen[0] += 1
        if seen[0] >= units:
            raise _Killed

    with contextlib.suppress(_Killed):
        record_new(path, info_for(), load("michigan"), emit)


def _cli(argv: list[str]) -> tuple[int, str]:
    """``boodle ARGV`` in this process (no start-up per ledger): status and all output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = boodle_main(argv)
    return status, out.getvalue()


JUNK: list[Any] = ["", "x", "four", "1/0", "-1", "[1]", "{}", "null", '"a"', "[[1]]",
                   '{"seats": []}', "1e999", -1, 0, 2**63 - 1, 1.5, b"\x07\xff", None]
"""Values a tampering puts in a column: text, JSON of the wrong shape, numbers, a blob."""


def tamper(path: Path, rng: random.Random) -> str:
    """Damage the ledger at ``path`` one random way; what was done."""
    if rng.random() < 0.5:
        data = bytearray(path.read_bytes())
        spots = [rng.randrange(len(data)) for _ in range(rng.choice((1, 1, 2, 8)))]
        for spot in spots:
            data[spot] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        return f"flipped bits at {spots[:3]}"
    conn = sqlite3.connect(path)
    try:
        table = rng.choice(("session", "deal", "deal", "deal", "ending"))
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        column = rng.choice(columns)
        rows = [r[0] for r in conn.execute(f"SELECT rowid FROM {table}")]
        if not rows:
            return f"nothing in {table}"
        row = rng.choice(rows)
        value: Any = rng.choice(JUNK)
        if column in ("events", "transfers", "ledger", "board", "progress") and rng.random() < .5:
            old = conn.execute(f"SELECT {column} FROM {table} WHERE rowid = ?",  # noqa: S608
                               (row,)).fetchone()[0]
            text = str(old)
            digits = [m.start() for m in re.finditer(r"\d", text)]
            if digits:
                at = rng.choice(digits)
                text = text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1:]
            value = text
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?",  # noqa: S608
                     (value, row))
        conn.commit()
        return f"{table}.{column} of row {row} = {str(value)[:40]!r}"
    except sqlite3.Error as exc:
        return f"sqlite refused: {exc}"
    finally:
        conn.close()


LEDGER_MEMORY = 4 << 30
"""The address space the ledger attack runs in (bytes): a tampered player count once took
21 GB before a MemoryError; on a shared machine the limit keeps that from the others."""


def attack_ledgers(count: int, seed: int, folder: Path,
                   memory: int | None = LEDGER_MEMORY) -> dict[str, Any]:
    """``count`` tampered ledgers read and resumed, in an address space of ``memory`` bytes
    (``None``: as it is; else the limit stays for this process: the last attack)."""
    if memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, resource.getrlimit(
            resource.RLIMIT_AS)[1]))
    rng = random.Random(seed)
    good, whole = folder / "good.sqlite", folder / "whole.sqlite"
    unfinished_ledger(good)
    unfinished_ledger(whole, units=10**6)  # never killed: a complete session, its ending row
    tally: Counter[str] = Counter()
    findings = []
    t0 = time.process_time()
    for n in range(count):
        copy = folder / f"t{n}.sqlite"
        shutil.copy(good if n % 2 == 0 else whole, copy)
        how = tamper(copy, rng)
        status, said = _cli(["ledger", str(copy)])
        damaged = status != 0 or "INCONSISTENT" in said or "damaged" in said
        tally["ledger says damaged" if damaged else "ledger says consistent"] += 1
        resumed, more = _cli(["play", "--resume", str(copy)])
        tally["resume refused" if resumed else "resumed"] += 1
        if _internal(said + more):
            findings.append(f"{how}: internal error: {(said + more)[-300:]!r}")
        if damaged and resumed == 0:
            findings.append(f"{how}: resumed a ledger 'boodle ledger' calls damaged")
        if resumed == 0:
            after, text = _cli(["ledger", str(copy)])
            if after != 0 or ": consistent" not in text:
                findings.append(f"{how}: resumed, then not consistent: {text[-200:]!r}")
        copy.unlink()
    cpu = round(time.process_time() - t0, 1)
    return {"ledgers": count, "cpu": cpu, "tally": dict(tally), "findings": findings,
            "read_only": (ro := read_only(good, folder)),
            "ok": not findings and not ro.startswith("PROBLEM")}


def read_only(good: Path, folder: Path) -> str:
    """``boodle ledger`` on a read-only copy of ``good`` in a read-only folder, by a reader
    who may not write either (``nobody`` when run as root): its first lines, or a problem."""
    where = Path(tempfile.mkdtemp(prefix="boodle-ro-", dir=folder))
    where.chmod(0o755)
    db = where / "ro" / "ledger.sqlite"
    db.parent.mkdir()
    shutil.copy(good, db)
    db.chmod(0o444)
    db.parent.chmod(0o555)
    _cli(["ledger", str(good)])  # every module the command needs, loaded before the fork
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drops to nobody when run as root (root may write anything)
        status = 99
        try:
            os.close(read)
            os.dup2(write, 1)
            os.dup2(write, 2)
            sys.stdout = sys.stderr = open(1, "w", closefd=False)  # noqa: SIM115
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            status = boodle_main(["ledger", str(db)])
            sys.stdout.flush()
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as f:
        out = f.read()
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    written = sorted(p.name for p in db.parent.iterdir())
    db.parent.chmod(0o755)
    if status != 0 or written != ["ledger.sqlite"]:
        return f"PROBLEM: status {status}, folder {written}: {out[-200:]}"
    return "read: " + out.splitlines()[1].strip()


def main(argv: list[str] | None = None) -> int:
    """Run every attack; print its figures; exit 1 if any is not bounded or not handled."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ledgers", type=int, default=200, help="tampered ledgers (200)")
    parser.add_argument("--seconds", type=float, default=60,
                        help="seconds each --deals 10**12 run is watched (60)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=None,
                        choices=["hint", "zeros", "deals", "scheduler", "ledgers"])
    args = parser.parse_args(argv)
    only = set(args.only or ["hint", "zeros", "deals", "scheduler", "ledgers"])
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="boodle-bounds-") as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        if "hint" in only:
            results["hint"] = attack_hint(folder)
        if "zeros" in only:
            results["zeros"] = attack_zeros(folder)
        if "deals" in only:
            results["deals"] = attack_deals(args.seconds)
        if "scheduler" in only:
            results["scheduler"] = attack_scheduler()
        if "ledgers" in only:
            results["ledgers"] = attack_ledgers(args.ledgers, args.seed, folder)
    for name, result in results.items():
        print(f"{name}: {'ok' if result['ok'] else 'PROBLEM'} "
              f"{json.dumps({k: v for k, v in result.items() if k != 'ok'}, ensure_ascii=False)}")
    return 0 if all(r["ok"] for r in results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
