"""The reference interpreter speaking the protocol (``boodle conformance serve``).

Session mode (default): read JSON Lines from stdin, answer ``start`` with
``started``, each ``run`` with a ``result``, and exit 0 on ``stop`` or at the
end of input.  The version spoken is the one ``start`` names when it is one of
:data:`boodle.conformance.PROTOCOLS` (``boodle-protocol/1`` is still served: its legal
bids written out one by one), else the newest; a one-shot ``run`` names its version in a
``protocol`` field (version 2), or is of version 1.
One-shot mode (``--one-shot``): read one ``run`` message, write its ``result``, exit 0
when the case ran (accepted), 1 when a move was rejected, 2 on an error.
``--mutant NAME`` serves a built-in mutant instead (:mod:`boodle.conformance.mutants`).

Whatever arrives, each line gets one answer and the server goes on: a line that is not
UTF-8, longer than 8 MiB, not JSON, nested too deep or holding a lone surrogate
(:func:`.wire.decode_message`) is answered with an ``error`` result, and so is a message
the reference fails on in a way it did not foresee (``internal error``, with the
exception's name): the runner then reports the case as an error instead of losing the
server.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from boodle import __version__
from boodle.conformance import PROTOCOL, PROTOCOL_V1, PROTOCOLS
from boodle.conformance.engines import REFERENCE, Engine, playable, session_playable
from boodle.conformance.impl_process import MAX_LINE
from boodle.conformance.paths import given_rules, load_variant, variant_paths
from boodle.conformance.play_case import execute
from boodle.conformance.validation import check
from boodle.conformance.wire import Json, MessageError, decode_message
from boodle.language.errors import BoodleError

FEATURES = ["position", "count", "legal", "session", "referee", "misdeal"]


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


def spoken(asked: object) -> str:
    """The version answered to a ``start`` naming ``asked``: that one if we speak it, else
    the newest (the runner then decides whether it can speak it)."""
    return asked if isinstance(asked, str) and asked in PROTOCOLS else PROTOCOL


def started(engine: Engine, protocol: str = PROTOCOL) -> Json:
    """The ``started`` answer in ``protocol``: who we are, the variants and the features."""
    name = "boodle-reference" + ("" if engine is REFERENCE else f"+mutant:{engine.name}")
    return {"type": "started", "protocol": protocol,
            "implementation": {"name": name, "version": __version__, "language": "Python"},
            "variants": playable_variants(), "features": FEATURES}


def answer(message: Any, engine: Engine, protocol: str = PROTOCOL) -> Json | None:
    """The answer to one message (``None`` for ``stop``) in ``protocol``, the version of the
    session (a ``start`` is answered in the version it names, :func:`spoken`)."""
    if not isinstance(message, dict):
        return {"type": "result", "id": "", "status": "error", "message": "not a JSON object"}
    kind = message.get("type")
    if kind == "start":
        return started(engine, spoken(message.get("protocol")))
    if kind == "stop":
        return None
    case_id = str(message.get("id", ""))
    if kind != "run":
        return {"type": "result", "id": case_id, "status": "error",
                "message": f"unknown message type {kind!r}"}
    wrong = check(message, "protocol.schema.json", "run") or _floats(message)
    if wrong:  # the schema says where, in words (not a Python exception's name)
        return {"type": "result", "id": case_id, "status": "error",
                "message": "malformed run message: " + "; ".join(wrong[:3])}
    try:
        return {"type": "result", "id": case_id,
                **execute(message, engine, PROTOCOLS[protocol])}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return {"type": "result", "id": case_id, "status": "error",
                "message": f"malformed run message: {exc}"}


def _floats(value: Any, where: str = "(top)") -> list[str]:
    """Where a run message holds a JSON number with a decimal point or an exponent
    (``"dealer": 2.0``), in words (``setup: 'dealer' must be an integer, not 2.0 …``); empty
    when there is none.  JSON Schema counts ``2.0`` as an integer, but no field of the
    protocol is a float: seats, counts and chips are JSON integers or ``"a/b"`` fractions
    (spec §9: no floating point; FORMAT.md)."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return []
    found: list[str] = []
    for key, item in items:
        if isinstance(item, float):
            found.append(f"{where}: {key!r} must be an integer, not {item!r} (a JSON number "
                         "without a decimal point: seats, counts and chips are integers, or "
                         "\"a/b\" fractions)")
        else:
            found += _floats(item, f"{where}/{key}" if where != "(top)" else str(key))
    return found


def _write(out: IO[str], message: Json) -> None:
    out.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
    out.flush()


def _refusal(why: str) -> Json:
    return {"type": "result", "id": "", "status": "error", "message": why}


def _lines(inp: IO[str] | IO[bytes]) -> Iterator[str | Json]:
    """Each line of ``inp`` as text, or the refusal to answer for a line that is not UTF-8
    or is longer than :data:`.impl_process.MAX_LINE` bytes (the rest of it is skipped)."""
    while True:
        raw: str | bytes = inp.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE:
            while raw and not (raw.endswith("\n") if isinstance(raw, str)
                               else raw.endswith(b"\n")):
                raw = inp.readline(MAX_LINE + 1)
            yield _refusal(f"a line longer than {MAX_LINE // (1024 * 1024)} MiB")
            continue
        if isinstance(raw, str):
            yield raw
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield _refusal(f"not UTF-8 text (byte {exc.start + 1} of the line)")


def _decoded(text: str) -> tuple[Any, Json | None]:
    """The message on a line, or the refusal to answer it."""
    try:
        return decode_message(text), None
    except MessageError as exc:
        return None, _refusal(str(exc))


def _answer_safely(message: Any, engine: Engine, protocol: str = PROTOCOL) -> Json | None:
    """:func:`answer`, or for a failure it did not foresee an ``error`` result naming it."""
    try:
        return answer(message, engine, protocol)
    except Exception as exc:  # noqa: BLE001 - one bad message must not end the server
        case_id = message.get("id") if isinstance(message, dict) else ""
        return {"type": "result", "id": case_id if isinstance(case_id, str) else "",
                "status": "error",
                "message": f"internal error of the reference: {type(exc).__name__}: {exc}"}


def serve(engine: Engine = REFERENCE, inp: IO[str] | IO[bytes] | None = None,
          out: IO[str] | None = None, freeze: bool = False) -> int:
    """Session mode: answer messages until ``stop`` or end of input; returns 0.

    ``inp``: text or bytes (default: stdin's bytes, so that a line that is not UTF-8 is
    answered, not fatal).  ``freeze`` (the ``serve`` command, a process of its own): once
    ``start`` is answered, every object made so far (the modules, the variants loaded for
    the answer) is kept out of the cyclic garbage collector's sight (``gc.freeze``): they
    live as long as the process, and the collections the engine's many short-lived states
    set off would otherwise walk them again and again (5% of a suite's time)."""
    source: IO[str] | IO[bytes] = inp if inp is not None else sys.stdin.buffer
    out = out or sys.stdout
    protocol = PROTOCOL
    for line in _lines(source):
        if isinstance(line, dict):
            _write(out, line)
            continue
        if not line.strip():
            continue
        message, refusal = _decoded(line)
        if refusal is not None:
            _write(out, refusal)
            continue
        if isinstance(message, dict) and message.get("type") == "start":
            protocol = spoken(message.get("protocol"))
        reply = _answer_safely(message, engine, protocol)
        if reply is None:
            return 0
        _write(out, reply)
        if freeze and reply.get("type") == "started":
            gc.freeze()
    return 0


def one_shot(engine: Engine = REFERENCE, inp: IO[str] | IO[bytes] | None = None,
             out: IO[str] | None = None) -> int:
    """One-shot mode: one ``run`` in, one ``result`` out; exit 0 accepted, 1 rejected, 2 error."""
    source: IO[str] | IO[bytes] = inp if inp is not None else sys.stdin.buffer
    out = out or sys.stdout
    raw: str | bytes = source.read(MAX_LINE + 1)
    message: Any = None
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        message = decode_message(text)
    except UnicodeDecodeError:
        print("not UTF-8 text", file=sys.stderr)
    except MessageError as exc:
        print(exc, file=sys.stderr)
    asked = message.get("protocol") if isinstance(message, dict) else None
    reply = _answer_safely(message, engine, spoken(asked) if asked is not None else
                           PROTOCOL_V1)
    if reply is None or reply.get("type") != "result":
        kind = message.get("type") if isinstance(message, dict) else None
        print(f"one-shot mode takes one 'run' message, not {kind!r}"
              " (start and stop belong to session mode)", file=sys.stderr)
        return 2
    _write(out, reply)
    return {"rejected": 1, "error": 2}.get(str(reply["status"]), 0)
