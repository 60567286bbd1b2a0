"""Fast checks of messages and cases against the schemas of ``conformance/schema/``.

The schemas are the normative description; this module evaluates them
quickly.  Each definition is used with every ``$ref`` inlined (the schemas
are acyclic), since resolving references costs more than the checks
themselves; and an event is checked against the definition of its kind
(``event-KIND``), which is what the ``event`` definition's ``if``/``then``
chain selects, with each distinct valid event remembered.  Events, moves and
ledgers are checked one by one and each distinct valid one is remembered, so
a long run checks each only once.  The result is the same as validating
against the schema as written (a test checks it).

Every message and case first goes through a compiled Rust validator of the
same inlined definition (``jsonschema-rs``, Draft 2020-12 like ``jsonschema``),
about ten times faster on a whole result than the checks above.  Only what it
refuses is checked again by ``jsonschema`` as above, which gives the error
messages and has the last word: where the two could differ (Python's ``$``
also matches before a final newline, a number too big for Rust), the answer
is ``jsonschema``'s, so the result stays exactly what it was.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator

from boodle.conformance.paths import schema_path
from boodle.conformance.wire import Json

_EVENT_KIND = {"type": "object", "required": ["kind"],
               "properties": {"kind": {"type": "string", "pattern": "^[a-z][a-z-]*$"}}}

MEMO_SIZE = 200_000
"""Distinct valid events remembered (a bound on memory)."""


@cache
def _documents() -> dict[str, Json]:
    out = {}
    for name in ("protocol.schema.json", "case.schema.json"):
        doc = json.loads(schema_path(name).read_text(encoding="utf-8"))
        out[doc["$id"]] = doc
        out[name] = doc
    return out


def _inline(node: Any, base: Json, documents: Mapping[str, Json]) -> Any:
    """``node`` with every ``$ref`` replaced by what it points to (recursively)."""
    if isinstance(node, dict):
        if "$ref" in node:
            uri, _, fragment = node["$ref"].partition("#")
            doc = documents[uri] if uri else base
            target: Any = doc
            for part in fragment.strip("/").split("/"):
                if part:
                    target = target[part]
            rest = {k: v for k, v in node.items() if k != "$ref"}
            resolved = _inline(target, doc, documents)
            return {"allOf": [resolved, _inline(rest, base, documents)]} if rest else resolved
        return {k: _inline(v, base, documents) for k, v in node.items()
                if k not in ("$defs", "$id", "$schema")}
    if isinstance(node, list):
        return [_inline(v, base, documents) for v in node]
    return node


@cache
def compiled(file: str, definition: str | None = None, light_events: bool = False
             ) -> Draft202012Validator:
    """A validator for a whole schema file or one ``$defs`` entry, references inlined.

    ``light_events``: events are checked only for a ``kind`` (:func:`check` then
    checks each one against its kind's definition).
    """
    documents = dict(_documents())
    if light_events:
        light = json.loads(json.dumps(documents["protocol.schema.json"]))
        light["$defs"]["events"]["items"] = {}
        light["$defs"]["move"] = light["$defs"]["ledger"] = {"type": "object"}
        documents[light["$id"]] = documents["protocol.schema.json"] = light
    doc = documents[file]
    node = doc if definition is None else doc["$defs"][definition]
    return Draft202012Validator(_inline(node, doc, documents))


@cache
def _event_validator(kind: str) -> Draft202012Validator:
    """The definition a kind of event must meet: ``event-KIND`` and a ``kind``, or for a
    kind this version does not know, just a well-formed ``kind``."""
    protocol = _documents()["protocol.schema.json"]
    if f"event-{kind}" not in protocol["$defs"]:
        return Draft202012Validator(_EVENT_KIND)
    body = _inline(protocol["$defs"][f"event-{kind}"], protocol, _documents())
    return Draft202012Validator({"allOf": [_EVENT_KIND, body]})


_valid: set[str] = set()


def _memo_errors(definition: str, value: Any, where: str) -> list[str]:
    """How ``value`` breaks ``definition`` of the protocol schema; valid values are remembered."""
    key = definition + json.dumps(value, sort_keys=True, ensure_ascii=False)
    if key in _valid:
        return []
    if definition == "event":
        kind = value.get("kind") if isinstance(value, dict) else None
        check_it = _event_validator(str(kind))
    else:
        check_it = compiled("protocol.schema.json", definition)
    if not check_it.is_valid(value):
        return [f"{where}{'/' if e.absolute_path else ''}{'/'.join(map(str, e.absolute_path))}: "
                f"{e.message}" for e in check_it.iter_errors(value)]
    if len(_valid) < MEMO_SIZE:
        _valid.add(key)
    return []


def event_errors(event: Mapping[str, Any], where: str) -> list[str]:
    """How one event (an object with a ``kind``) breaks the definition of its kind."""
    return _memo_errors("event", event, where)


def _parts(instance: Any) -> list[tuple[str, str, Any]]:
    """The events, moves and ledgers inside a message or a case: (definition, path, value)."""
    if not isinstance(instance, dict):
        return []
    out: list[tuple[str, str, Any]] = []

    def add(definition: str, path: str, value: Any) -> None:
        out.append((definition, path, value))

    def moves(path: str, value: Any, definition: str = "move") -> None:
        if isinstance(value, list):
            for i, m in enumerate(value):
                add(definition, f"{path}/{i}", m)

    def body(prefix: str, holder: Any) -> None:
        if not isinstance(holder, dict):
            return
        if isinstance(holder.get("events"), list):
            for i, e in enumerate(holder["events"]):
                add("event", f"{prefix}events/{i}", e)
        if isinstance(holder.get("legal"), dict):
            for point, ms in holder["legal"].items():
                moves(f"{prefix}legal/{point}", ms, "legalMove")  # a bid range too
        final = holder.get("final")
        if isinstance(final, dict) and "ledger" in final:
            add("ledger", f"{prefix}final/ledger", final["ledger"])
        count = holder.get("count")
        if isinstance(count, dict) and isinstance(count.get("by_first_move"), list):
            for i, row in enumerate(count["by_first_move"]):
                if isinstance(row, dict) and "move" in row:
                    add("legalMove", f"{prefix}count/by_first_move/{i}/move", row["move"])

    body("", instance)
    body("expect/", instance.get("expect"))
    moves("script", instance.get("script"), "scriptEntry")
    if "move" in instance:
        add("move", "move", instance["move"])
    setup = instance.get("setup")
    if isinstance(setup, dict) and "ledger" in setup:
        add("ledger", "setup/ledger", setup["ledger"])
    return out


@cache
def _fast(file: str, definition: str | None = None) -> jsonschema_rs.Draft202012Validator:
    """The Rust validator of a whole schema file or one ``$defs`` entry, references inlined."""
    documents = _documents()
    doc = documents[file]
    node = doc if definition is None else doc["$defs"][definition]
    return jsonschema_rs.Draft202012Validator(_inline(node, doc, documents))


def _surely_valid(instance: Any, file: str, definition: str | None) -> bool:
    """Whether the fast validator accepts ``instance`` (``False``: ask ``jsonschema``)."""
    try:
        return _fast(file, definition).is_valid(instance)
    except (ValueError, TypeError, OverflowError):  # a value Rust cannot take (a huge integer)
        return False


def check(instance: Any, file: str, definition: str | None = None) -> list[str]:
    """Every way ``instance`` breaks the schema (``path: message``); empty when valid.

    At most ten messages.  Accepted by the fast validator at once; anything
    it refuses is judged by ``jsonschema`` (see the module docstring).
    """
    if _surely_valid(instance, file, definition):
        return []
    validator = compiled(file, definition, light_events=True)
    if not validator.is_valid(instance):
        return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
                for e in validator.iter_errors(instance)][:10]
    errors: list[str] = []
    for part, path, value in _parts(instance):
        errors.extend(_memo_errors(part, value, path))
        if len(errors) >= 10:
            break
    return errors
