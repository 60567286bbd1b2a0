"""The reference interpreter speaking the protocol (``boodle conformance serve``).

Session mode (default): read JSON Lines from stdin, answer ``start`` with
``started``, each ``run`` with a ``result``, and exit 0 on ``stop`` or at the
end of input.  One-shot mode (``--one-shot``): read one ``run`` message,
write its ``result``, exit 0 when the case ran (accepted), 1 when a move was
rejected, 2 on an error.  ``--mutant NAME`` serves a built-in mutant instead
(:mod:`boodle.conformance.mutants`).
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from boodle import __version__
from boodle.conformance import PROTOCOL
from boodle.conformance.engines import REFERENCE, Engine, playable, session_playable
from boodle.conformance.paths import given_rules, load_variant, variant_paths
from boodle.conformance.play_case import execute
from boodle.conformance.validation import check
from boodle.conformance.wire import Json
from boodle.language.errors import BoodleError

FEATURES = ["position", "count", "legal", "session"]


def playable_variants() -> list[Json]:
    """Every variant a case can be played in (:func:`.engines.playable`, or for session cases
    alone :func:`.engines.session_playable`), as ``{name, version}``: the built-ins, drafts
    and probes, and the rules files given (``serve --rules``)."""
    out = []
    for name in sorted(set(variant_paths()) | set(given_rules())):
        try:
            ruleset = load_variant(name)
        except BoodleError:
            continue
        if playable(ruleset) or session_playable(ruleset):
            out.append({"name": ruleset.name, "version": ruleset.version})
    return out


def started(engine: Engine) -> Json:
    """The ``started`` answer: who we are, the variants and the features."""
    name = "boodle-reference" + ("" if engine is REFERENCE else f"+mutant:{engine.name}")
    return {"type": "started", "protocol": PROTOCOL,
            "implementation": {"name": name, "version": __version__, "language": "Python"},
            "variants": playable_variants(), "features": FEATURES}


def answer(message: Any, engine: Engine) -> Json | None:
    """The answer to one message (``None`` for ``stop``)."""
    if not isinstance(message, dict):
        return {"type": "result", "id": "", "status": "error", "message": "not a JSON object"}
    kind = message.get("type")
    if kind == "start":
        return started(engine)
    if kind == "stop":
        return None
    case_id = str(message.get("id", ""))
    if kind != "run":
        return {"type": "result", "id": case_id, "status": "error",
                "message": f"unknown message type {kind!r}"}
    wrong = check(message, "protocol.schema.json", "run")
    if wrong:  # the schema says where, in words (not a Python exception's name)
        return {"type": "result", "id": case_id, "status": "error",
                "message": "malformed run message: " + "; ".join(wrong[:3])}
    try:
        return {"type": "result", "id": case_id, **execute(message, engine)}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return {"type": "result", "id": case_id, "status": "error",
                "message": f"malformed run message: {exc}"}


def _write(out: IO[str], message: Json) -> None:
    out.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
    out.flush()


def serve(engine: Engine = REFERENCE, inp: IO[str] | None = None, out: IO[str] | None = None
          ) -> int:
    """Session mode: answer messages until ``stop`` or end of input; returns 0."""
    inp, out = inp or sys.stdin, out or sys.stdout
    for line in inp:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            _write(out, {"type": "result", "id": "", "status": "error",
                         "message": f"not JSON: {exc}"})
            continue
        reply = answer(message, engine)
        if reply is None:
            return 0
        _write(out, reply)
    return 0


def one_shot(engine: Engine = REFERENCE, inp: IO[str] | None = None, out: IO[str] | None = None
             ) -> int:
    """One-shot mode: one ``run`` in, one ``result`` out; exit 0 accepted, 1 rejected, 2 error."""
    inp, out = inp or sys.stdin, out or sys.stdout
    try:
        message = json.loads(inp.read())
    except ValueError as exc:
        message = None
        print(f"not JSON: {exc}", file=sys.stderr)
    reply = answer(message, engine)
    if reply is None or reply.get("type") != "result":
        kind = message.get("type") if isinstance(message, dict) else None
        print(f"one-shot mode takes one 'run' message, not {kind!r}"
              " (start and stop belong to session mode)", file=sys.stderr)
        return 2
    _write(out, reply)
    return {"rejected": 1, "error": 2}.get(str(reply["status"]), 0)
