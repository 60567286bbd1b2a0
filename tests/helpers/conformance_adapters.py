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
- ``ignore-stop``: answers every case, then ignores ``stop`` and SIGTERM.

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

from boodle.conformance.engines import REFERENCE
from boodle.conformance.serve import answer


def _sleep_forever(marker: str) -> None:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", marker])
    while True:
        time.sleep(1000)


def main(mode: str, marker: str) -> int:
    if mode == "exit-at-start":
        return 0
    if mode == "ignore-stop":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
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
        reply = answer(message, REFERENCE)
        if runs == 2 and message.get("type") == "run":
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
