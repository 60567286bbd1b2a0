"""A bench-only adapter that answers every case from answers recorded beforehand.

    python bench/replay_adapter.py ANSWERS.json

``ANSWERS.json`` is ``{"started": STARTED, "results": {case id: RESULT}}``, written by
``bench/conformance_bench.py`` from the reference's own answers.  The adapter
plays nothing: it reads a line, looks the id up and writes the recorded
``result``.  Run against it, ``boodle conformance run`` measures the protocol
path alone (the runner, the pipes, the JSON on both sides), which is the
ceiling of any adapter's throughput on this machine, the reference's
included.  It is not an implementation and is not part of the package.
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        recorded = json.load(f)
    started, results = recorded["started"], recorded["results"]
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "stop":
            return 0
        reply = started if kind == "start" else {"type": "result", "id": message["id"],
                                                  **results[message["id"]]}
        out.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
