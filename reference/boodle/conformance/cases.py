"""Cases: identity, schema checks, loading, and the request an implementation receives.

A case is a JSON object of format ``boodle-case/1`` (``conformance/FORMAT.md``).
Its id is ``VARIANT.SLUG.HASH``: a readable slug and the first 12 hex digits
of the SHA-256 of its *meaning* (:data:`MEANING`: kind, variant, rules_hash if any, setup,
script, legal_at, move, expect, as canonical JSON), so a change of meaning
is a new id while a better description is not.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boodle.conformance import CASE_FORMAT
from boodle.conformance.paths import cases_dir, schema_path
from boodle.language.errors import BoodleError

if TYPE_CHECKING:  # imported where a schema is used: loading cases does not need them
    from jsonschema import Draft202012Validator
    from referencing import Registry

    from boodle.conformance.wire import Json

MEANING = ("kind", "variant", "rules_hash", "setup", "script", "legal_at", "move", "expect")
"""The fields whose content is the meaning of a case (and so its hash); ``rules_hash`` is
written only in cases made from a user's rules file (``generate --rules``), so the ids of
the shipped cases, which have none, do not depend on it."""

REQUEST_FIELDS = ("kind", "variant", "setup", "script", "legal_at", "move")

MAX_CASE_BYTES = 8 * 1024 * 1024
"""The largest case file read (8 MiB): a case is sent as one line, and a line of the protocol
is at most 8 MiB (PROTOCOL.md, Transport).  The suite's largest is under 40 KB."""
"""The fields of a case sent to an implementation in a ``run`` message."""


class CaseError(BoodleError):
    """A case file that is malformed: a bug in the suite, not in an implementation."""


def canonical_json(value: object) -> str:
    """JSON with sorted keys, no spaces, UTF-8 text: the form that is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def case_hash(case: Mapping[str, Any]) -> str:
    """The 12 hex digits of the SHA-256 of the case's meaning."""
    meaning = {k: case[k] for k in MEANING if k in case}
    return hashlib.sha256(canonical_json(meaning).encode("utf-8")).hexdigest()[:12]


def case_id(case: Mapping[str, Any], slug: str) -> str:
    """``variant.slug.hash`` for ``case``."""
    return f"{case['variant']['name']}.{slug}.{case_hash(case)}"


def slug_of(case_id_text: str) -> str:
    """The slug part of an id."""
    return case_id_text.split(".")[1]


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def dump_case(case: Mapping[str, Any]) -> str:
    """The file text of a case: one field per line, lists of moves and events one item per
    line, keys in a fixed order, a final newline (small files, readable diffs)."""
    order = ("format", "id", "kind", "description", "variant", "rules_hash", "pins", "source",
             "setup",
             "script", "legal_at", "move", "expect")
    lines = ["{"]
    items = [(k, case[k]) for k in order if k in case]
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "script" and value:
            lines.append(f' "{key}": [')
            lines.extend(f"  {_compact(m)}{',' if j < len(value) - 1 else ''}"
                         for j, m in enumerate(value))
            lines.append(f" ]{comma}")
        elif key == "expect":
            lines.append(' "expect": {')
            sub = list(value.items())
            for j, (k, v) in enumerate(sub):
                c = "," if j < len(sub) - 1 else ""
                if k == "events" and v:
                    lines.append('  "events": [')
                    lines.extend(f"   {_compact(e)}{',' if n < len(v) - 1 else ''}"
                                 for n, e in enumerate(v))
                    lines.append(f"  ]{c}")
                else:
                    lines.append(f"  {_compact(k)}: {_compact(v)}{c}")
            lines.append(f" }}{comma}")
        else:
            lines.append(f" {_compact(key)}: {_compact(value)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == {k: v for k, v in items}
    return text


# ---------------------------------------------------------------- schemas


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    resources = []
    for name in ("protocol.schema.json", "case.schema.json"):
        contents = json.loads(schema_path(name).read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def validator(name: str, definition: str | None = None) -> Draft202012Validator:
    """A validator for a schema file, or for one of its ``$defs`` (``definition``)."""
    from jsonschema import Draft202012Validator

    contents = json.loads(schema_path(name).read_text(encoding="utf-8"))
    schema: Json = contents
    if definition is not None:
        schema = {"$ref": f"{contents['$id']}#/$defs/{definition}"}
    return Draft202012Validator(schema, registry=_registry())


def schema_errors(instance: object, name: str, definition: str | None = None) -> list[str]:
    """Every way ``instance`` breaks the schema, as ``path: message`` lines (empty: valid).

    The schema exactly as written, references resolved through a registry:
    slow, and the yardstick :mod:`boodle.conformance.validation` is tested
    against.
    """
    out = []
    for error in validator(name, definition).iter_errors(instance):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        out.append(f"{where}: {error.message}")
    return out


# ---------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """A loaded case and the file it came from."""

    data: Json
    path: Path | None

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def kind(self) -> str:
        return str(self.data["kind"])

    @property
    def variant(self) -> str:
        return str(self.data["variant"]["name"])

    def request(self, protocol: int = 2) -> Json:
        """The ``run`` message for this case (its meaning without the expectations) in
        protocol version ``protocol``: from version 2 it names the version (``protocol``) and
        carries the case's ``rules_hash`` when it has one (PROTOCOL.md, "Running a case")."""
        body = {k: self.data[k] for k in REQUEST_FIELDS if k in self.data}
        if protocol < 2:
            return {"type": "run", "id": self.id, **body}
        from boodle.conformance import PROTOCOL

        extra = {"rules_hash": self.data["rules_hash"]} if "rules_hash" in self.data else {}
        return {"type": "run", "id": self.id, "protocol": PROTOCOL, **body, **extra}

    def needs_protocol(self) -> tuple[int, str]:
        """The oldest protocol version that can run the case, and why (empty for 1): a count
        whose breakdown has a bid range (version 1 counts each amount apart), or legal moves
        holding a range of more bids than version 1 writes out
        (:data:`~boodle.conformance.wire.MAX_V1_BIDS`); a misdeal in the script, or a
        referee case (PROTOCOL.md, "Referee mode": a version 2 kind)."""
        from boodle.conformance.wire import MAX_V1_BIDS

        if self.kind == "referee":
            return 2, "a referee case (the implementation plays its own choices)"
        if any(isinstance(e, dict) and "misdeal" in e for e in self.data.get("script", ())):
            return 2, "a misdeal declared in the script"
        expect = self.data.get("expect", {})
        rows = expect.get("count", {}).get("by_first_move", []) if self.kind == "count" else []
        if any("min" in r.get("move", {}) for r in rows):
            return 2, "a count by first move with a bid range (one row for all its amounts)"
        for moves in expect.get("legal", {}).values():
            for m in moves:
                if "min" in m and (m["max"] - m["min"]) // m.get("step", 1) + 1 > MAX_V1_BIDS:
                    return 2, f"legal moves with a range of more than {MAX_V1_BIDS} bids"
        return 1, ""

    def needs(self) -> set[str]:
        """Optional protocol features the case needs (``position``, ``count``, ``legal``,
        ``session``, ``referee``, ``misdeal``)."""
        out = set()
        if self.kind == "referee":  # of a whole session, or of one deal
            return {"referee", "session"} if "deals" in self.data["setup"] else {"referee"}
        if self.kind == "session":
            out.add("session")
        if "position" in self.data["setup"]:
            out.add("position")
        if self.kind == "count":
            out.add("count")
        if self.data.get("legal_at"):
            out.add("legal")
        if any(isinstance(e, dict) and "misdeal" in e for e in self.data.get("script", ())):
            out.add("misdeal")
        return out


def check_case(data: Json, where: str) -> None:
    """Raise :class:`CaseError` unless ``data`` is a valid case whose id matches its meaning."""
    from boodle.conformance.validation import check

    errors = check(data, "case.schema.json")
    if errors:
        raise CaseError(f"{where}: not a valid {CASE_FORMAT} case: " + "; ".join(errors[:5]))
    expected = case_hash(data)
    if not str(data["id"]).endswith("." + expected):
        raise CaseError(f"{where}: id {data['id']} does not match the case's meaning "
                        f"(hash {expected}): a change of meaning needs a new id",
                        hint="regenerate with 'boodle conformance generate'")
    if not str(data["id"]).startswith(data["variant"]["name"] + "."):
        raise CaseError(f"{where}: id {data['id']} must start with the variant name")


class CaseFileError(CaseError):
    """A case file that cannot be read: not a regular file, too big, not UTF-8, unreadable.
    ``reason`` is what is wrong, without the path."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason


def read_case_text(path: Path) -> str:
    """The text of a case file: a regular file (a link to one is followed) of at most
    :data:`MAX_CASE_BYTES`, in UTF-8.

    Raises :class:`CaseFileError` for anything else, before reading it: a FIFO would block
    the run for ever and a link to ``/dev/zero`` would fill the memory.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise CaseFileError(path, exc.strerror or "cannot be read") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CaseFileError(path, "not a regular file (a FIFO, a device or a socket): "
                                "a case is a JSON file")
        if info.st_size > MAX_CASE_BYTES:
            raise CaseFileError(path, f"larger than {MAX_CASE_BYTES // (1024 * 1024)} MiB, "
                                "the most a case file may hold")
        data = f.read(MAX_CASE_BYTES + 1)
    if len(data) > MAX_CASE_BYTES:  # it grew while being read
        raise CaseFileError(path, f"larger than {MAX_CASE_BYTES // (1024 * 1024)} MiB, the "
                            "most a case file may hold")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CaseFileError(path, "not UTF-8 text") from None


def load_case(path: Path, check: bool = True) -> Case:
    """One case file; raises :class:`CaseError` if it cannot be read (:func:`read_case_text`),
    is not valid JSON or not a valid case."""
    text = read_case_text(path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CaseError(f"{path}: cannot read the case: {exc}") from None
    if check:
        check_case(data, str(path))
    return Case(data, path)


def case_files(root: Path | None = None) -> list[Path]:
    """Every case file under ``root`` (default: the suite's ``cases/``), sorted."""
    return sorted((root or cases_dir()).rglob("*.json"))


def load_cases(root: Path | None = None, check: bool = True) -> list[Case]:
    """Every case, sorted by id; raises :class:`CaseError` on a bad file or a repeated id."""
    cases = [load_case(p, check) for p in case_files(root)]
    seen: dict[str, Path | None] = {}
    for case in cases:
        if case.id in seen:
            raise CaseError(f"case id {case.id} is used twice: {seen[case.id]} and {case.path}")
        seen[case.id] = case.path
    return sorted(cases, key=lambda c: c.id)


def select(cases: Iterable[Case], variant: str | None = None, globs: Iterable[str] = ()
           ) -> list[Case]:
    """The cases of ``variant`` (if given) whose ids match any of ``globs`` (if any)."""
    patterns = list(globs)
    return [c for c in cases
            if (variant is None or c.variant == variant)
            and (not patterns or any(fnmatch.fnmatchcase(c.id, p) for p in patterns))]
