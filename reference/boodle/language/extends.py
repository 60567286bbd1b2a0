"""Finding, reading and merging rules files: ``extends`` resolution (spec §11.1, §11.2).

:func:`resolve` merges a parsed variant (:class:`~boodle.language.syntax.VariantDecl`) with the
chain of variants it ``extends``, keyed clause by clause, into a :class:`Resolved`, which
:func:`boodle.language.build.build` turns into the model.  A base is found by a
:data:`Resolver` (:func:`default_resolver`: the extending file's folder, then the built-ins) and
read by :func:`read_rules_file`.  :func:`dropped_lines` tells a house rule which of its base's
lines a block written in part puts back to their defaults.  Every failure is a located
:class:`~boodle.language.errors.BoodleError`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from boodle.language.errors import BoodleError, Hint, Replacement, Span, did_you_mean
from boodle.language.grammar import MAX_SOURCE_BYTES
from boodle.language.syntax import Clause, PhaseDecl, VariantDecl, parse
from boodle.resources import builtin_names, builtin_path, variants_dir

if TYPE_CHECKING:
    from boodle.language.model import Ruleset

MAX_EXTENDS = 16
"""Variants in one ``extends`` chain, the extending file included (spec §11.3)."""

_NAME = re.compile(r"[a-z][a-z0-9_]*(-[a-z0-9_]+)*")

Resolver = Callable[[str, Path | None], tuple[str, str]]
"""Finds a base variant: ``(name, dir of the extending file) -> (text, file name)``;
raises ``KeyError`` when there is none."""


# ---------------------------------------------------------------- files


def read_rules_file(path: Path) -> str:
    """The text of a rules file, read as UTF-8 without reading more than the size limit.

    Raises :class:`BoodleError` (no location) for a file that cannot be read,
    is over :data:`~boodle.language.grammar.MAX_SOURCE_BYTES` (no location) or is not UTF-8
    (at the line and column of the first byte that is not; spec §11.1, §11.3).
    """
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise BoodleError(f"cannot read rules file {path}: {exc.strerror or exc}",
                          hint="check the file's name and that it may be read") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise BoodleError(f"rules file {path} is larger than {MAX_SOURCE_BYTES // 1024} KiB",
                          hint="a variant is a few hundred lines at most")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, data, exc.start) from None


def _not_utf8(path: Path, data: bytes, at: int) -> BoodleError:
    """The error for a rules file whose byte ``at`` is not UTF-8: at its line and column
    (the line shown with U+FFFD for what does not decode), naming the byte and, when it
    is a letter in Latin-1 (Windows-1252), that letter: the file was saved in Latin-1."""
    line = data.count(b"\n", 0, at) + 1
    line_start = data.rfind(b"\n", 0, at) + 1
    column = len(data[line_start:at].decode("utf-8", errors="replace")) + 1
    text = data.decode("utf-8", errors="replace")
    byte = data[at]
    latin = bytes([byte]).decode("cp1252", errors="replace")
    hint = "save the file as UTF-8"
    if latin.isprintable() and latin != "\ufffd":
        hint = (f"byte 0x{byte:02X} is '{latin}' in Latin-1: the file looks saved in Latin-1 "
                "(Windows-1252); save it as UTF-8 (in most editors: Save with encoding, UTF-8)")
    return BoodleError(f"rules file {path} is not UTF-8 text: line {line}, column {column} "
                       f"holds byte 0x{byte:02X}",
                       Span(str(path), line, column, line, column + 1, text), hint=hint)


def default_resolver(name: str, here: Path | None) -> tuple[str, str]:
    """A base variant from the extending file's folder, else a built-in one.

    Names resolve only to ``NAME.boodle`` files directly in the extending
    file's folder or to built-ins (no paths: spec §11.1).  A candidate that
    is a link to a file in another folder is refused (:class:`BoodleError`,
    no location; :func:`resolve` adds it), as is one that cannot be read;
    raises ``KeyError`` when there is no candidate.
    """
    if not _NAME.fullmatch(name):
        raise KeyError(name)
    candidates = [(here, here / f"{name}.boodle")] if here is not None else []
    candidates.append((variants_dir(), builtin_path(name)))
    for folder, candidate in candidates:
        if candidate.is_file():
            target = candidate.resolve()
            if target.parent != folder.resolve():
                raise BoodleError(
                    f"'extends {name}': {candidate.name} is a link to {target}, "
                    "outside the extending file's folder",
                    hint="a base variant must be a file in the same folder, or a built-in",
                )
            return read_rules_file(candidate), str(candidate)
    raise KeyError(name)


# ---------------------------------------------------------------- extends


@dataclass(frozen=True)
class Resolved:
    """A variant with its base chain merged: clauses keyed as in spec §11.2."""

    name: str
    base: str | None
    items: tuple[Clause, ...]
    span: Span
    own: tuple[Clause, ...] = ()
    """The extending file's own top-level items (what it replaces, merges or removes)."""
    base_items: tuple[Clause, ...] = ()
    """The base chain merged without the extending file (to tell whose fault an error is)."""
    parent: Resolved | None = None
    """The base variant resolved alone, as :func:`resolve` of its own file gives it (``None``
    for a variant that extends nothing): its ruleset is what the extending file changes
    (``boodle check``), built without reading the base's file again."""


def resolve(decl: VariantDecl, resolver: Resolver, here: Path | None) -> Resolved:
    """Merge ``decl`` over the variants it extends, nearest last.

    A variant that extends its own name (``variant michigan extends
    michigan``, a house rule keeping the name it changes) extends the
    built-in of that name: its base is looked up among the built-ins only
    (``here`` is ``None`` for that step), never in its own folder (spec §11.1).
    A cycle is a file reached twice.  Raises BoodleError for an ``extends``
    that does not resolve or cycles.
    """
    chain = [decl]
    files = [_file_key(decl.span.file)]
    current = decl
    while current.base is not None:
        base = current.base
        if len(chain) >= MAX_EXTENDS:
            raise BoodleError(
                f"'extends {base.name}': a chain of more than {MAX_EXTENDS} variants",
                base.span, hint="extend a variant nearer the root",
            )
        own_name = base.name == current.name
        try:
            text, file = resolver(base.name, None if own_name else here)
        except BoodleError as exc:
            # shown at the name here: an edit its hint names is of the file read, not this one
            raise BoodleError(exc.message, base.span, exc.hint, edits=()) from None
        except KeyError:
            raise BoodleError(
                f"'extends {base.name}': no " + ("built-in " if own_name else "")
                + "variant of that name",
                base.span,
                hint=("a variant that extends its own name extends the built-in of that name"
                      if own_name else None) or _file_name_hint(base.name, builtin_names())
                or did_you_mean(base.name, builtin_names(), base.span)
                or "name a built-in variant or a .boodle file in the same folder",
            ) from None
        if _file_key(file) in files:
            at = files.index(_file_key(file))
            # a file is shown where it is not NAME.boodle for its variant's NAME
            steps = [d.name if Path(d.span.file).stem == d.name
                     else f"{d.name} ({_shown_file(d.span.file)})" for d in chain]
            cycle = " → ".join([*steps, steps[at]])
            notes = tuple(
                f"'extends {d.base.name}' in {_shown_file(d.span.file)} found "
                f"{_shown_file(nxt.span.file)}, which is the variant '{nxt.name}'"
                for d, nxt in zip(chain, [*chain[1:], chain[at]], strict=True)
                if d.base is not None and d.base.name != nxt.name)
            raise BoodleError(
                f"'extends {base.name}' makes a cycle: {cycle}",
                base.span,
                hint="a variant may not extend itself, directly or through others"
                + ("; a BASE.boodle in the folder is found before the built-in of that name: "
                   "rename that file, or name its variant like the file (a variant that "
                   "extends its own name extends the built-in)" if notes else ""),
                notes=notes,
            )
        files.append(_file_key(file))
        try:
            current = parse(text, file)
        except BoodleError as exc:
            raise exc.with_note(f"while loading base variant {base.name}") from None
        here = Path(file).parent
        chain.append(current)
    merged: dict[str, Clause] = {}
    found: Resolved | None = None
    for layer in reversed(chain):  # the root first: each layer resolved over the ones below
        below = tuple(merged.values())
        _merge_layer(merged, layer)
        found = Resolved(layer.name, layer.base.name if layer.base else None,
                         tuple(merged.values()), layer.span,
                         layer.items if layer.base else (), below, found)
    assert found is not None
    return found


def _file_name_hint(name: str, builtins: Iterable[str]) -> str | None:
    """``names are not paths: write extends michigan`` for a base named like its file with
    the dot left out (``michiganboodle``, ``michigan-boodle``, the ``.`` deleted)."""
    stem = re.sub(r"[-_]?boodle$", "", name)
    if stem != name and stem in set(builtins):
        return f"names are not paths: write extends {stem}"
    return None


_LINE_BLOCKS = {"deal": "deal", "session": "session", "widow_sale": "widow sale"}
"""The blocks whose lines have defaults: a house rule's block without one of the base's lines
gets the default, not the base's line (spec §11.2: a block replaces the base's whole)."""


def dropped_lines(ruleset: Ruleset, changes: list[str]) -> list[str]:
    """For a ruleset whose file ``extends``: one note per ``deal``, ``session`` or ``widow
    sale`` block it writes without some of its base's lines, quoting those lines, which the
    block's replacing the base's whole (spec §11.2) puts back to their defaults.  Only lines
    whose loss changes the rules count: those ``changes`` (``boodle check``'s lines, ``BLOCK:
    KEY: BEFORE → AFTER``) show as a before that the after no longer has.  Read from the
    clauses the builder kept (``ruleset.origin``; no file is read again).  Empty for a
    ruleset that extends nothing or was not built from text."""
    if ruleset.origin is None or ruleset.origin.resolved.base is None:
        return []
    resolved = ruleset.origin.resolved
    base = {c.key: c for c in resolved.base_items}
    notes = []
    for own in resolved.own:
        if own.key not in _LINE_BLOCKS or own.key not in base:
            continue
        written = {line.key for line in own.value}
        lost = [text for text in (_clause_text(line) for line in base[own.key].value
                                  if line.key not in written)
                if _changed(text, _LINE_BLOCKS[own.key], changes)]
        if lost:
            shown = [repr(x) for x in lost]
            quoted = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
            what = (f"its lines {quoted} are not written here, so they take their defaults"
                    if len(lost) > 1 else
                    f"its line {quoted} is not written here, so it takes its default")
            notes.append(f"the {_LINE_BLOCKS[own.key]} block replaces {resolved.base}'s whole "
                         f"block: {what} (copy {'them' if len(lost) > 1 else 'it'} to keep "
                         f"{'them' if len(lost) > 1 else 'it'})")
    return notes


def _changed(line: str, block: str, changes: list[str]) -> bool:
    """Whether base line ``line`` (``KEY: VALUE``) of ``block`` is a before that a change
    line (``BLOCK: KEY: BEFORE → AFTER``) no longer has after it."""
    key, _, value = line.partition(":")
    for change in changes:
        before, arrow, after = change.removeprefix(f"{block}: ").partition(" → ")
        if arrow and before.startswith(f"{key}:") and value.strip() in before \
                and value.strip() not in after:
            return True
    return False


def _clause_text(clause: Clause) -> str:
    """A clause as written in its file (one line; comments and extra spaces dropped)."""
    span = clause.span
    line = span.source_line()
    end = span.end_column - 1 if span.end_line == span.line else len(line)
    return " ".join(re.sub(r"#.*", "", line[span.column - 1:end]).split())


def _shown_file(file: str) -> str:
    """A rules file as a cycle message shows it: relative to the working folder if inside it."""
    if not file or file.startswith("<"):
        return file
    try:
        return "./" + str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except (OSError, RuntimeError, ValueError):
        return file


def _file_key(file: str) -> str:
    """What identifies a rules file in an ``extends`` chain: its resolved path, or the
    name as given for a text that is not a file (``<string>``)."""
    if not file or file.startswith("<"):
        return file
    try:
        return str(Path(file).resolve())
    except (OSError, RuntimeError):  # a link loop: the name as given
        return file


def _line_deleted(span: Span) -> tuple[Replacement, ...]:
    """The edit that deletes the lines ``span`` covers, line break included, when nothing
    but spaces and a comment shares them (a line of a block written on several lines);
    else no edit."""
    lines = span.text.split("\n")
    if not 0 < span.line <= span.end_line < len(lines):
        return ()
    before = lines[span.line - 1][:span.column - 1]
    after = lines[span.end_line - 1][span.end_column - 1:]
    if before.strip(" \t") or after.split("#", 1)[0].strip(" \t\r"):
        return ()
    return (Replacement(span.line, 1, span.end_line + 1, 1, ""),)


def _no_duplicates(clauses: Iterable[Clause], where: str) -> None:
    """Refuse a key written twice in one block: the second would silently win.  The hint
    deletes the second (a block of an extending file is one file's: the base's line is
    changed by writing it once in the extending file, never twice)."""
    first: dict[str, Clause] = {}
    for clause in clauses:
        if clause.key in first:
            shown = clause.key.replace("_", " ").replace(":", " ")
            raise BoodleError(
                f"'{shown}' is written twice {where}",
                clause.span,
                hint=Hint("the line is written twice: delete one of the two",
                          _line_deleted(clause.span)),
                notes=(f"first written at {first[clause.key].span}",),
            )
        first[clause.key] = clause


def _misspelt_phase(merged: dict[str, Clause], item: Clause) -> None:
    """Refuse a phase an extending file adds (``merged``: the base's phases, before the
    file's own) whose name is a misspelling of one of the
    base's phases of the same kind (``phase pokr is poker`` over tripoley-as-sold's
    ``poker``): read as a new phase, it would be refused for lacking what the base's phase
    states (its pot), and the hint to add that leads to another error.  A name that holds
    the base's (``poker2``, ``late-poker``) is a phase of its own, not a misspelling."""
    decl = cast(PhaseDecl, item.value)
    same_kind = [cast(PhaseDecl, c.value).name for key, c in merged.items()
                 if key.startswith("phase:") and cast(PhaseDecl, c.value).kind == decl.kind]
    close = difflib.get_close_matches(decl.name, same_kind, n=1, cutoff=0.75)
    if not close or close[0] in decl.name or decl.name in close[0]:
        return
    name_span = _phase_name_span(decl)
    edits = (Replacement(name_span.line, name_span.column, name_span.end_line,
                         name_span.end_column, close[0]),) if name_span else ()
    raise BoodleError(
        f"the base has no phase {decl.name}: did you mean {close[0]}?", name_span or decl.span,
        hint=Hint(f"did you mean {close[0]}? (to "
                  f"add a {decl.kind} phase of its own, give it a name unlike {close[0]})",
                  edits))


def _phase_name_span(decl: PhaseDecl) -> Span | None:
    """Where the name of ``decl`` is written (after ``phase`` on its first line)."""
    span = decl.span
    lines = span.text.split("\n")
    if not 0 < span.line <= len(lines):
        return None
    found = re.match(r"phase\s+(\S+)", lines[span.line - 1][span.column - 1:])
    if found is None or found.group(1) != decl.name:
        return None
    column = span.column + found.start(1)
    return Span(span.file, span.line, column, span.line, column + len(decl.name), span.text)


def _merge_layer(merged: dict[str, Clause], layer: VariantDecl) -> None:
    _no_duplicates(layer.items, f"in variant {layer.name}")
    base_phases = {key: c for key, c in merged.items() if key.startswith("phase:")}
    for item in layer.items:
        if item.key.startswith("phase:"):
            _no_duplicates(item.value.rules, f"in phase {item.value.name}")
            if item.key not in base_phases:  # new here: not a misspelling of the base's?
                _misspelt_phase(base_phases, item)
        if item.key.startswith("without:"):
            phase_key = "phase:" + item.key.split(":", 1)[1]
            if phase_key not in merged:
                phases = [key.split(":", 1)[1] for key in merged if key.startswith("phase:")]
                listed = "the base's phases: " + (", ".join(phases) or "none")
                close = did_you_mean(item.value.name, phases)
                raise BoodleError(
                    f"'without phase {item.value.name}': the base has no such phase",
                    item.span,
                    hint=f"{close} ({listed})" if close else listed,
                )
            del merged[phase_key]
        elif item.key == "sources" and "sources" in merged:
            both = tuple(dict.fromkeys((*merged["sources"].value, *item.value)))
            merged["sources"] = Clause("sources", both, item.span)
        elif item.key.startswith("phase:") and item.key in merged:
            merged[item.key] = _merge_phase(merged[item.key], item)
        else:
            merged[item.key] = item


def _merge_phase(base: Clause, over: Clause) -> Clause:
    old, new = cast(PhaseDecl, base.value), cast(PhaseDecl, over.value)
    if old.kind != new.kind:
        raise BoodleError(
            f"phase {new.name} is '{new.kind}' here but '{old.kind}' in the base",
            over.span,
            hint="use another phase name, or 'without phase' and a new one",
        )
    rules = {rule.key: rule for rule in old.rules}
    rules.update({rule.key: rule for rule in new.rules})
    label = new.label if new.label is not None else old.label
    decl = PhaseDecl(new.name, label, new.kind, tuple(rules.values()), new.span)
    return Clause(over.key, decl, over.span)
