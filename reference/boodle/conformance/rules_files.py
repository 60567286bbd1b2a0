"""A user's rules files in the conformance suite: their hash, loading, and the check that
a case is run against the rules it was made from.

``boodle conformance generate --rules FILE``, ``run --rules FILE`` and ``serve --rules FILE``
read rules files that are not built in (house rules of a built-in through ``extends``
included).  A case generated from one names its variant (``variant.name``) and carries
``rules_hash`` (``conformance/FORMAT.md``): :func:`rules_hash` of the resolved ruleset, so
that reformatting the file keeps the hash while a change of a base it extends changes it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from boodle.conformance.cases import Case
from boodle.conformance.paths import given_rules, load_variant, use_rules
from boodle.language.cards import Card
from boodle.language.errors import BoodleError, Span
from boodle.language.model import Ruleset

HASH_HEX = 64
"""A rules hash is the whole SHA-256, in lower-case hex."""


def canonical_rules(value: object) -> object:
    """The JSON value of a resolved ruleset (or any part of it) that :func:`rules_hash` hashes.

    A dataclass becomes an object of its fields plus ``"type"`` (its class name, so that
    two kinds of phase with the same fields differ); the fields kept out of equality (the
    spans, where in which file a clause was written, and the ruleset's ``origin``) are left
    out, so the value depends on the rules alone, not on their layout.  Tuples become lists,
    sets sorted lists, cards their text (``10♥``).
    """
    if isinstance(value, Card):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, object] = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.compare and f.name != "span" and not isinstance(item, Span):
                out[f.name] = canonical_rules(item)
        return out
    if isinstance(value, (tuple, list)):
        return [canonical_rules(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((canonical_rules(v) for v in value), key=lambda v: json.dumps(v))
    if isinstance(value, dict):
        return {str(k): canonical_rules(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__} in a ruleset")


def rules_hash(ruleset: Ruleset) -> str:
    """The hash of the rules a case was made from: 64 hex digits.

    The SHA-256 of the canonical serialisation of the *resolved* ruleset
    (:func:`canonical_rules`: its dataclass fields as JSON, keys sorted, no spaces,
    spans excluded).  Every ``extends`` is already merged, so a change of a base
    changes the hash, while comments, spacing or the order of keyed clauses do not.
    There is no canonical printer of rules files yet; when there is, this is the one
    function to switch to hashing its text (the hashes of generated suites change
    then, once: they are regenerated).
    """
    text = json.dumps(canonical_rules(ruleset), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RulesFile:
    """A rules file given with ``--rules``: where it is, its ruleset, that ruleset's hash,
    and the files of the variants it extends (as ``extends`` found them, nearest first)."""

    path: Path
    ruleset: Ruleset
    hash: str
    bases: tuple[Path, ...] = ()

    @property
    def name(self) -> str:
        return self.ruleset.name


def load_rules(paths: Sequence[Path]) -> list[RulesFile]:
    """Read the rules files ``paths`` (each a whole variant, ``extends`` resolved).

    Raises :class:`BoodleError` with the file, line and column of any fault in a
    file (or a base it extends), and for two files that define the same variant.
    """
    from boodle.language.build import default_resolver, load_file

    out: list[RulesFile] = []
    for path in paths:
        bases: list[Path] = []

        def recording(name: str, here: Path | None, bases: list[Path] = bases
                      ) -> tuple[str, str]:
            text, file = default_resolver(name, here)
            if here is not None:  # a base of its own name is always the built-in: not copied
                bases.append(Path(file))
            return text, file

        _not_a_builtin_name(path)
        ruleset = load_file(path, recording)
        twice = next((r for r in out if r.name == ruleset.name), None)
        if twice is not None:
            raise BoodleError(f"--rules {path}: variant '{ruleset.name}' is already defined "
                              f"by {twice.path}",
                              hint="give each variant once (a file it extends need not be "
                              "given: it is found beside the file, or among the built-ins)")
        out.append(RulesFile(path, ruleset, rules_hash(ruleset), tuple(bases)))
    return out


def _not_a_builtin_name(path: Path) -> None:
    """Refuse ``--rules NAME`` where NAME is a built-in variant's name and no file: the
    built-ins are served and generated without it, and a folder of that name must not be
    read as one (spec §11.1: a bare name is a built-in's).  Raises :class:`BoodleError`."""
    from boodle.language.variants import is_path
    from boodle.resources import builtin_names

    if not path.is_file() and not is_path(str(path)) and str(path) in builtin_names():
        raise BoodleError(f"--rules {path}: '{path}' is a built-in variant, not a rules file",
                          hint="the built-in variants are played without --rules; --rules "
                          f"takes a file: write ./{path}.boodle or ./{path}/FILE.boodle")


def use(files: Iterable[RulesFile]) -> None:
    """Make ``files`` the variants this process plays and judges by name
    (:func:`boodle.conformance.paths.use_rules`)."""
    use_rules({f.name: (f.ruleset, f.path) for f in files})


def rules_beside(folder: Path, names: set[str]) -> list[RulesFile]:
    """The rules files of a suite folder (``folder/variants/*.boodle``, as ``generate
    --rules --out`` and ``export`` write them) that define the variants ``names``."""
    found: list[RulesFile] = []
    for path in sorted((folder / "variants").glob("*.boodle")):
        rules = load_rules([path])[0]
        if rules.name in names and all(f.name != rules.name for f in found):
            found.append(rules)
    return found


def check_hashes(cases: Iterable[Case]) -> None:
    """Raise :class:`BoodleError` unless every case that carries a ``rules_hash`` is run
    against rules of that hash (the rules given with ``--rules``, or found by name).

    The message names the case, the variant, both hashes and the file the rules came
    from, and the hint says how to get cases for these rules.
    """
    given = given_rules()
    seen: dict[str, str] = {}
    for case in cases:
        want = case.data.get("rules_hash")
        if want is None:
            continue
        name = case.variant
        if name not in seen:
            try:
                seen[name] = rules_hash(load_variant(name))
            except BoodleError as exc:
                raise BoodleError(
                    f"case {case.id} was made from a rules file of variant '{name}' "
                    f"(rules hash {want[:12]}…), and no rules of that name were given: "
                    f"{exc.message}",
                    hint="give the rules file with --rules FILE (a folder written by "
                    "'generate --rules --out' holds it in variants/)") from None
        have = seen[name]
        if have != want:
            where = (f"the rules file {given[name][1]}" if name in given
                     else f"the built-in variant '{name}'")
            raise BoodleError(
                f"case {case.id} was made from rules whose hash is {want[:12]}…, but "
                f"{where} hashes to {have[:12]}…: the rules are not the ones the case was "
                "made from (the file, or a variant it extends, has changed)",
                hint="generate the cases again for these rules ('boodle conformance run "
                "--rules FILE' does it by itself; or 'boodle conformance generate --rules "
                "FILE --out DIR'), or give the rules file the cases were made from")


def export_rules(files: Iterable[RulesFile], folder: Path) -> list[Path]:
    """Copy the rules files and every file they extend into ``folder`` (made if missing),
    so that a suite holds the rules it was made from; returns the files written.

    A base is copied under its own name (``NAME.boodle``), so that ``extends NAME`` in the
    copy finds it beside it; raises :class:`BoodleError` if two different files would
    take the same name there.
    """
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for f in files:
        for source in (f.path, *f.bases):
            target = folder / source.name
            earlier = written.get(source.name)
            if earlier is not None:
                if earlier.resolve() == source.resolve() or \
                        earlier.read_bytes() == source.read_bytes():
                    continue
                raise BoodleError(f"{source} and {earlier} would both be copied to {target}",
                                  hint="give the rules files distinct names")
            target.write_bytes(source.read_bytes())
            written[source.name] = source
    return sorted(folder / name for name in written)
