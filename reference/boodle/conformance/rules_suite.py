"""A whole suite for a user's rules files: ``boodle conformance generate --rules FILE``.

For each variant given, :func:`rules_cases` generates, with the seeded generators of
:mod:`boodle.conformance.generate`, ``size`` cases of every kind the reference can make
for it (whole deals, deals from a mid-deal position, illegal moves after the deal and at
random points, perft counts, and whole sessions) for every player count the rules allow.
Each case carries the :func:`~boodle.conformance.rules_files.rules_hash` of the rules it
was made from.  :func:`write_rules_suite` writes the cases, the rules files beside them
(``variants/``) and a manifest (``suite.json``), so that the folder is self-contained;
:func:`cached_suite` keeps one such folder per rules hash in the user's cache.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from boodle import __version__
from boodle.conformance import CASE_FORMAT, RULES_SUITE_SIZE
from boodle.conformance.cases import canonical_json, case_id, dump_case, slug_of
from boodle.conformance.engines import playable, session_playable
from boodle.conformance.generate import GENERATOR, GENERATORS, Catalogue, gen_session
from boodle.conformance.paths import given_rules
from boodle.conformance.rules_files import RulesFile, export_rules, use
from boodle.conformance.wire import Json
from boodle.engine import pending_features, skipped_phases
from boodle.language.errors import BoodleError

SUITE_FORMAT = "boodle-rules-suite/1"
"""The ``format`` of a rules suite's manifest, ``suite.json``."""

DEFAULT_SIZE = RULES_SUITE_SIZE
"""Cases per player count and case kind when ``--size`` is not given."""

KINDS = ("deal", "position", "reject", "reject-deal", "count", "session")
"""The generated kinds, in the order a suite holds them (``session``: whole sessions)."""


def player_counts(rules: RulesFile) -> range:
    """Every player count the rules allow (``players LOW to HIGH``)."""
    return range(rules.ruleset.players.low, rules.ruleset.players.high + 1)


def why_unplayable(rules: RulesFile) -> str:
    """Why the reference cannot make cases for ``rules``: the features it does not play yet."""
    ruleset = rules.ruleset
    pending = [*pending_features(ruleset), *(f"phase {p}" for p in skipped_phases(ruleset))]
    what = ", ".join(str(p) for p in pending) or "a deal cannot start from an explicit setup"
    return f"the reference engine cannot play {rules.path} (variant {rules.name}) yet: {what}"


def rules_cases(rules: RulesFile, size: int,
                progress: Callable[[str, int], None] | None = None) -> list[Json]:
    """Every generated case of the variant of ``rules``: ``size`` per player count and kind.

    Deterministic: the ``k``-th case of a kind is seeded by text
    (``boodle-gen/1:VARIANT:KIND:K``).  A seed that gives no case of its kind (no illegal
    move of the kind tried, no position within the count budget) is skipped.  Raises
    :class:`BoodleError` when the reference cannot play the rules at all.
    ``progress(kind, cases)`` is called after each kind.
    """
    ruleset = rules.ruleset
    deals, sessions = playable(ruleset), session_playable(ruleset)
    if not deals and not sessions:
        raise BoodleError(why_unplayable(rules))
    if given_rules().get(rules.name, (None,))[0] is not ruleset:
        use([rules])  # the reference finds a case's variant by name
    catalogue = Catalogue.load()
    out: list[Json] = []
    for kind in KINDS:
        if kind == "session" and not sessions or kind != "session" and not deals:
            continue
        k, made = 0, 0
        for players in player_counts(rules):
            for _ in range(size):
                case = (gen_session(ruleset, k, catalogue, players) if kind == "session"
                        else GENERATORS[kind](ruleset, k, catalogue, players))
                k += 1
                if case is not None:
                    out.append(_with_hash(case, rules.hash))
                    made += 1
        if progress is not None:
            progress(kind, made)
    return out


def _with_hash(case: Json, digest: str) -> Json:
    """``case`` carrying ``rules_hash``, its id made again (the hash is part of its meaning)."""
    case = {**case, "rules_hash": digest}
    case["id"] = case_id(case, slug_of(case["id"]))
    return case


def manifest(files: Sequence[RulesFile], size: int) -> Json:
    """What a rules suite was made from: the generator, boodle's version, the size and each
    variant's rules file and hash (written as ``suite.json``)."""
    return {"format": SUITE_FORMAT, "generator": GENERATOR, "boodle": __version__,
            "size": size, "case_format": CASE_FORMAT,
            "rules": [{"variant": f.name, "file": f"variants/{f.path.name}", "hash": f.hash}
                      for f in files]}


def write_rules_suite(files: Sequence[RulesFile], out: Path, size: int = DEFAULT_SIZE,
                      progress: Callable[[str, str, int], None] | None = None) -> Counter[str]:
    """Write the suite of ``files`` into ``out``: ``cases/VARIANT/ID.json``, the rules files
    and the bases they extend in ``variants/``, and ``suite.json``.  ``out/cases`` and
    ``out/variants`` are emptied first.  Returns the number of cases per variant.

    ``progress(variant, kind, cases)`` is called after each kind.  Raises
    :class:`BoodleError` for rules the reference cannot play, or a generated case that
    breaks the case schema (a bug in boodle).
    """
    from boodle.conformance.validation import check

    made: Counter[str] = Counter()
    cases: list[Json] = []
    use(files)
    for f in files:
        def report(kind: str, n: int, name: str = f.name) -> None:
            if progress is not None:
                progress(name, kind, n)
        cases.extend(rules_cases(f, size, report))
    for case in cases:
        errors = check(case, "case.schema.json")
        if errors:
            raise BoodleError(f"generated case {case['id']} breaks the case schema: "
                              + "; ".join(errors[:3]))
    for sub in ("cases", "variants"):
        if (out / sub).exists():
            shutil.rmtree(out / sub)
    for case in cases:
        path = out / "cases" / case["variant"]["name"] / f"{case['id']}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_case(case), encoding="utf-8")
        made[case["variant"]["name"]] += 1
    export_rules(files, out / "variants")
    (out / "suite.json").write_text(json.dumps(manifest(files, size), ensure_ascii=False,
                                               indent=1) + "\n", encoding="utf-8")
    return made


def cache_root() -> Path:
    """The user's cache folder for boodle: ``$XDG_CACHE_HOME/boodle``, else
    ``~/.cache/boodle``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boodle"


def suite_key(files: Sequence[RulesFile], size: int) -> str:
    """The cache key of a suite: 16 hex digits of the SHA-256 of what it is made from (the
    rules' hashes, the size, the generator and boodle's version), so that changed rules or
    a new boodle never reuse old cases."""
    import hashlib

    made_of = {"generator": GENERATOR, "boodle": __version__, "size": size,
               "rules": sorted((f.name, f.hash) for f in files)}
    return hashlib.sha256(canonical_json(made_of).encode("utf-8")).hexdigest()[:16]


def cached_suite(files: Sequence[RulesFile], size: int, cache: Path | None = None,
                 say: Callable[[str], None] | None = None) -> Path:
    """The folder of the suite of ``files`` in the cache (``cache``, default
    :func:`cache_root`), generated there first if it is not there yet.

    The suite is written into a temporary folder beside it and renamed into place, so
    an interrupted generation never leaves a partial suite to be reused, and two runs
    generating the same suite at once both end with the one renamed first.  ``say`` gets
    one line: reused, or generated.
    """
    root = (cache or cache_root()) / "conformance"
    folder = root / f"{'-'.join(sorted(f.name for f in files))[:60]}-{suite_key(files, size)}"
    if (folder / "suite.json").is_file():
        if say is not None:
            say(f"reusing the cases for {_names(files)} in {folder}")
        return folder
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=root))
    try:
        write_rules_suite(files, tmp, size)
        if not (folder / "suite.json").is_file():  # else another run made it meanwhile
            if folder.exists():  # not a suite (no suite.json): made by hand, say
                shutil.rmtree(folder)
            tmp.rename(folder)
    except OSError:
        if not (folder / "suite.json").is_file():  # not a rename lost to another run
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if say is not None:
        n = sum(1 for _ in (folder / "cases").rglob("*.json"))
        say(f"generated {n} cases for {_names(files)} into {folder}")
    return folder


def _names(files: Sequence[RulesFile]) -> str:
    """``friday (friday.boodle, rules hash fdf25da79957…)``: the same hash ``conformance
    generate`` prints, since the cache folder's name is a different key (:func:`suite_key`)."""
    return ", ".join(f"{f.name} ({f.path}, rules hash {f.hash[:12]}…)" for f in files)
