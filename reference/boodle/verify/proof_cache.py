"""The proof cache of ``boodle verify``: a run already made on unchanged rules is read back.

A run is one method (``z3``, ``exhaustive``, ``engine``) at one player count of one
subject (:mod:`boodle.verify.verifier`).  Its results are kept in one JSON file of
the cache folder, named by the hash of everything they depend on (:func:`run_key`):

- the ruleset, as a canonical form of its model (:func:`ruleset_digest`: every field of
  every dataclass, sets sorted, the same in every process); the model carries its source
  text, for the carets of its errors, so any edit of the rules file, a comment too, is a
  new key;
- the subject's name (the results carry it), the method, the player count, and the
  options of the run but its player selection (decks, bounds, the engine check …);
- the verifier's version (:func:`verifier_version`): boodle's version and the hash of
  every Python source file of the installed ``boodle`` package (the verifier, and the
  engine and model it checks), with the versions of Python and z3.  Any change of the
  code is a new version, so a cached result is never one the code would not give now.

Subjects with an injected fault (mutation tests) are never cached.  The folder is
``--cache DIR``, else ``proofs`` in the user's cache folder
(:func:`boodle.resources.cache_dir`: ``$XDG_CACHE_HOME/boodle``, ``~/.cache/boodle``);
nothing is written anywhere else (a file is written under a name of this process's own in
that folder, then renamed into place).  A file that cannot be read, or is not a cache
file of this version, is a miss; a folder that cannot be written is no cache.

:class:`ProofCache` is what :func:`boodle.verify.verifier.verify` is handed (its
``proofs`` argument): ``get`` before a run, ``put`` after it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boodle.verify.verifier import Options, Result, Subject

FORMAT = 1
"""The layout of a cache file (part of the key)."""


def _canonical(value: Any) -> Any:
    """A JSON-able form of a model value, the same in every process (sets sorted)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__,
                {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}]
    if isinstance(value, frozenset | set):
        return ["set", sorted((_canonical(v) for v in value), key=repr)]
    if isinstance(value, dict):
        return ["dict", sorted(([_canonical(k), _canonical(v)] for k, v in value.items()),
                               key=repr)]
    if isinstance(value, tuple | list):
        return [_canonical(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return [type(value).__name__, repr(value)]


def ruleset_digest(ruleset: Any) -> str:
    """The hash of a :class:`~boodle.language.model.Ruleset`'s canonical form (hex)."""
    text = json.dumps(_canonical(ruleset), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def verifier_version() -> str:
    """boodle's version, the hash of its Python sources, and Python's and z3's versions."""
    import boodle

    package = Path(boodle.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
        h.update(path.read_bytes() + b"\0")
    try:
        from importlib.metadata import version

        z3 = version("z3-solver")
    except Exception:  # not installed as a distribution: the sources still key it
        z3 = "unknown"
    return f"{boodle.__version__}+{h.hexdigest()[:32]} python {sys.version.split()[0]} z3 {z3}"


def run_key(subject: Subject, options: Options, method: str, players: int) -> str:
    """The hash naming the cache file of one run (see the module docstring)."""
    from boodle.language.model import derived

    opts = dataclasses.replace(options, players=None)
    digest = derived(subject.ruleset, "_proof_cache_digest",
                     lambda: ruleset_digest(subject.ruleset))  # once per ruleset object
    parts = [FORMAT, verifier_version(), digest, subject.name,
             method, players, _canonical(opts)]
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_folder() -> Path | None:
    """``proofs`` in the user's cache folder, or ``None`` where none can be written."""
    from boodle.resources import cache_dir

    base = cache_dir()
    return None if base is None else base / "proofs"


class ProofCache:
    """The cache files in ``folder`` (made when first written)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0

    def _file(self, key: str) -> Path:
        return self.folder / f"run-{key[:40]}.json"

    def get(self, subject: Subject, options: Options, method: str, players: int
            ) -> tuple[list[Result], float] | None:
        """The results and CPU seconds of the run as cached, or ``None`` (a miss)."""
        from boodle.verify.mutation import NO_MUTATION
        from boodle.verify.verifier import Result

        if subject.mutation != NO_MUTATION:
            return None
        key = run_key(subject, options, method, players)
        try:
            data = json.loads(self._file(key).read_text(encoding="utf-8"))
            if data.get("key") != key:
                raise ValueError("another run's file")
            got = [Result(**row) for row in data["results"]], float(data["cpu_seconds"])
        except (OSError, ValueError, TypeError, KeyError):
            self.misses += 1
            return None
        self.hits += 1
        return got

    def put(self, subject: Subject, options: Options, method: str, players: int,
            got: tuple[list[Result], float]) -> None:
        """Keep the run's results (nothing when the folder cannot be written)."""
        from boodle.verify.mutation import NO_MUTATION

        if subject.mutation != NO_MUTATION:
            return
        key = run_key(subject, options, method, players)
        doc = {"key": key, "version": verifier_version(), "variant": subject.name,
               "method": method, "players": players, "cpu_seconds": got[1],
               "results": [dataclasses.asdict(r) for r in got[0]]}
        file = self._file(key)
        part = file.with_name(f"{file.name}.{os.getpid()}.part")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            part.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            os.replace(part, file)
        except (OSError, TypeError, ValueError):  # unwritable, or a result not JSON-able
            with contextlib.suppress(OSError):
                part.unlink(missing_ok=True)

    def read(self, subjects: list[Subject], plan: list[tuple[list[int], list[tuple[str, int]]]],
             options: Options) -> dict[tuple[int, str, int], tuple[list[Result], float]]:
        """The runs of ``plan`` (per subject: uncovered counts, (method, count) runs) found
        in the cache, by (subject's index, method, count)."""
        found = {}
        for k, (subject, (_, steps)) in enumerate(zip(subjects, plan, strict=True)):
            for method, n in steps:
                got = self.get(subject, options, method, n)
                if got is not None:
                    found[(k, method, n)] = got
        return found

    def write(self, subjects: list[Subject], done: dict[tuple[int, str, int],
                                                      tuple[list[Result], float]],
              options: Options) -> None:
        """Keep every run of ``done`` (by subject's index, method, count)."""
        for (k, method, n), got in done.items():
            self.put(subjects[k], options, method, n, got)
