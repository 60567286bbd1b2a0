"""Deliberately broken implementations for the runner's robustness tests (spec: issue 9).

Run as ``python conformance_adapters.py MODE MARKER``.  The adapter answers
like the reference (``boodle conformance serve``) except that, in each
process, its second ``run`` goes wrong the way MODE says:

- ``ok``: nothing goes wrong;
- ``hang``: starts a grandchild that sleeps, then never answers;
- ``crash``: exits with status 3 without answering;
- ``garbage``: answers a line that is not JSON;
- ``wrong-id``: answers for another case id;
- ``flood``: writes without end and never ends the line;
- ``exit-at-start``: exits before reading anything;
- ``ignore-stop``: answers every case, then ignores ``stop`` and SIGTERM;
- ``deep``: answers a result nested 1,000 levels deep (about 3 KB);
- ``surrogate``: answers an error whose message holds a lone surrogate (``\\ud800``);
- ``flood-lines``: answers the first run ``skipped``, then writes short lines of garbage
  without end (the next run reads garbage; the reader thread is busy when it is killed);
- ``setsid``: starts a grandchild in a session of its own (``setsid``), answers garbage and
  sleeps (it is killed while it runs);
- ``daemon``: starts a daemon (fork, ``setsid``, fork, the middle one exits), then crashes;
- ``close-stdout``: closes its stdout without exiting, and sleeps;
- ``silent``: never answers any run (every case times out).

``one-shot-setsid MARKER`` is a one-shot adapter (one ``run`` on stdin, its ``result`` on
stdout, exit 0/1) that leaves a grandchild in a session of its own behind.

MARKER is an argument of this process and of every process it starts, so a
test can look for leftovers in ``/proc``.  ``BOODLE_TEST_STARTED`` (JSON), when
set, is the ``started`` answer, to spare each process the reference's start-up.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any


def answer(message: Any) -> Any:
    """The reference's answer (imported here: the modes that need no answer start fast)."""
    from boodle.conformance.engines import REFERENCE
    from boodle.conformance.serve import answer as reference_answer

    return reference_answer(message, REFERENCE)


def _sleep_forever(marker: str) -> None:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", marker])
    while True:
        time.sleep(1000)


def _sleeper(marker: str, new_session: bool) -> None:
    """A grandchild that sleeps with ``marker`` in its command line, in a session of its own
    when ``new_session`` (out of reach of a kill of the adapter's process group)."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", marker],
                     start_new_session=new_session, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _daemon(marker: str) -> None:
    """A classic daemon: fork, ``setsid``, fork again; the middle process exits at once, so
    the sleeper is nobody's child (it belongs to init, or to a subreaper)."""
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)",
                                      marker])
        os._exit(0)
    os.waitpid(pid, 0)


def _deep(case_id: str) -> str:
    """A ``result`` whose ``events`` is a list nested 1,000 levels deep (about 3 KB)."""
    head = json.dumps({"type": "result", "id": case_id, "status": "done"})[:-1]
    return head + ', "events": ' + "[" * 1000 + "]" * 1000 + "}"


def one_shot_setsid(marker: str) -> int:
    """One-shot mode: answer the one ``run`` as the reference does, leaving a sleeper behind
    in a session of its own; exit 0 (ran) or 1 (rejected)."""
    message = json.loads(sys.stdin.read())
    _sleeper(marker, new_session=True)
    reply = answer(message)
    assert reply is not None
    print(json.dumps(reply, ensure_ascii=False), flush=True)
    return 1 if reply["status"] == "rejected" else 0


def main(mode: str, marker: str) -> int:
    if mode == "one-shot-setsid":
        return one_shot_setsid(marker)
    if mode == "exit-at-start":
        return 0
    if mode == "ignore-stop":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode not in ("silent", "flood-lines"):
        answer({"type": "hello"})  # load the reference before 'start', not during case 1
    runs = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "stop":
            if mode == "ignore-stop":
                _sleep_forever(marker)
            return 0
        if message.get("type") == "run":
            runs += 1
        known = os.environ.get("BOODLE_TEST_STARTED")
        if message.get("type") == "start" and known:
            print(known, flush=True)
            continue
        if mode == "silent" and message.get("type") == "run":
            continue
        if mode == "flood-lines" and runs == 1:
            print(json.dumps({"type": "result", "id": message.get("id"), "status": "skipped",
                              "reason": "then a flood"}), flush=True)
            while True:
                sys.stdout.write("garbage\n" * 64)
                sys.stdout.flush()
        reply = answer(message)
        if runs == 2 and message.get("type") == "run":
            case_id = str(message.get("id"))
            if mode == "deep":
                print(_deep(case_id), flush=True)
                continue
            if mode == "surrogate":  # json.dumps writes the lone surrogate as \ud800
                print(json.dumps({"type": "result", "id": case_id, "status": "error",
                                  "message": "boom \ud800"}), flush=True)
                continue
            if mode == "setsid":  # killed while it runs: the sleeper is still its child
                _sleeper(marker, new_session=True)
                print("not JSON", flush=True)
                while True:
                    time.sleep(1000)
            if mode == "daemon":
                _daemon(marker)
                return 3
            if mode == "close-stdout":
                sys.stdout.close()
                os.close(1)
                while True:
                    time.sleep(1000)
            if mode == "hang":
                _sleep_forever(marker)
            if mode == "crash":
                return 3
            if mode == "garbage":
                print("this is not JSON", flush=True)
                continue
            if mode == "wrong-id" and reply is not None:
                reply["id"] = "michigan.some-other-case.000000000000"
            if mode == "flood":
                chunk = "x" * 65536
                while True:
                    sys.stdout.write(chunk)
        print(json.dumps(reply, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
