"""The proof cache of ``boodle verify`` (:mod:`boodle.verify.proof_cache`, issue 23).

A second run on unchanged rules reads every run back and reports exactly what the first
reported; a change of the rules, of the run's options or of the verifier's version is a
miss; the cache writes in its folder only, and a broken or unwritable cache is no cache.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import boodle.verify.proof_cache as proof_cache
from boodle.cli import main
from boodle.language.build import load_text
from boodle.language.variants import builtin_path, load
from boodle.verify.mutation import NO_MUTATION
from boodle.verify.proof_cache import ProofCache, ruleset_digest, run_key
from boodle.verify.verifier import Options, Subject, verify

ARGS = ["verify", "michigan-classic", "--players", "3", "--no-z3", "--deck", "2x3", "--json"]


def _report(out: str) -> list[dict[str, object]]:
    """The report's rows, less their run times (a cached row keeps the first run's)."""
    rows = json.loads(out)["results"]
    return sorted((json.dumps({k: v for k, v in r.items() if k != "run_seconds"},
                              sort_keys=True) for r in rows), key=str)  # type: ignore[return-value]


def test_a_second_run_reads_every_run_back_and_reports_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "proofs"
    assert main([*ARGS, "--cache", str(folder)]) == 0
    first = capsys.readouterr()
    assert "from the proof cache" not in first.err
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 2  # the exhaustive search and the engine = model run, 3 players
    assert main([*ARGS, "--cache", str(folder)]) == 0
    second = capsys.readouterr()
    assert _report(second.out) == _report(first.out)
    assert second.err.count("from the proof cache") == 2
    assert sorted(p.name for p in folder.iterdir()) == files  # nothing new written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proofs"]  # nor anywhere else


def test_no_cache_makes_every_run_and_keeps_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "proofs"
    assert main([*ARGS, "--cache", str(folder)]) == 0
    capsys.readouterr()
    for name in list(folder.iterdir()):
        name.unlink()
    assert main([*ARGS, "--no-cache"]) == 0
    assert "from the proof cache" not in capsys.readouterr().err
    assert list(folder.iterdir()) == []
    with pytest.raises(SystemExit) as stop:
        main([*ARGS, "--no-cache", "--cache", str(folder)])
    assert stop.value.code == 2


def test_the_key_follows_the_rules_the_options_and_the_version(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load("michigan")
    text = builtin_path("michigan").read_text(encoding="utf-8")
    subject = Subject("michigan", rules)
    options = Options(z3=False, decks=((2, 3),))
    key = run_key(subject, options, "exhaustive", 3)
    # the same file read again: the same key (a model carries its text, for its errors'
    # carets: any edit of the file, a comment too, is another key)
    again = load_text(text, str(builtin_path("michigan")))
    assert again is not rules and ruleset_digest(again) == ruleset_digest(rules)
    assert run_key(Subject("michigan", again), options, "exhaustive", 3) == key
    # another rule, another name, method, count, bound, deck: another key each
    changed = load_text(text.replace("2 on kitty", "3 on kitty", 1), "michigan.boodle")
    assert changed != rules
    others = {run_key(Subject("michigan", changed), options, "exhaustive", 3),
              run_key(Subject("m", rules), options, "exhaustive", 3),
              run_key(subject, options, "engine", 3),
              run_key(subject, options, "exhaustive", 4),
              run_key(subject, replace(options, max_states=10), "exhaustive", 3),
              run_key(subject, replace(options, decks=((2, 4),)), "exhaustive", 3)}
    assert key not in others and len(others) == 6
    # the player selection of the whole run is not part of a run's key
    assert run_key(subject, replace(options, players=(3,)), "exhaustive", 3) == key
    monkeypatch.setattr(proof_cache, "verifier_version", lambda: "another boodle")
    assert run_key(subject, options, "exhaustive", 3) != key


def test_a_broken_file_is_a_miss_and_is_rewritten(tmp_path: Path) -> None:
    subject = Subject("michigan", load("michigan"))
    options = Options(z3=False, engine=False, decks=((2, 3),), players=(3,))
    store = ProofCache(tmp_path)
    first = verify([subject], options, proofs=store)
    (file,) = tmp_path.iterdir()
    assert (store.hits, store.misses) == (0, 1)
    file.write_text("{not json", encoding="utf-8")
    again = ProofCache(tmp_path)
    assert [r.status for r in verify([subject], options, proofs=again)] == \
        [r.status for r in first]
    assert (again.hits, again.misses) == (0, 1)
    assert json.loads(file.read_text(encoding="utf-8"))["variant"] == "michigan"
    third = ProofCache(tmp_path)
    assert [(r.prop, r.status, r.states) for r in verify([subject], options, proofs=third)] \
        == [(r.prop, r.status, r.states) for r in first]
    assert (third.hits, third.misses) == (1, 0)


def test_an_unwritable_folder_is_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    store = ProofCache(blocker / "proofs")
    options = Options(z3=False, engine=False, decks=((2, 3),), players=(3,))
    results = verify([Subject("michigan", load("michigan"))], options, proofs=store)
    assert results and all(r.status != "counterexample" for r in results)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_subject_with_a_fault_is_never_cached(tmp_path: Path) -> None:
    from boodle.verify.mutation import Mutation

    fault = Mutation("claim credit", credit_only=frozenset({"claim"}))
    faulty = Subject("michigan", load("michigan"), fault)
    assert faulty.mutation != NO_MUTATION
    store = ProofCache(tmp_path)
    verify([faulty], Options(z3=False, engine=False, decks=((2, 3),), players=(3,)),
           proofs=store)
    assert list(tmp_path.iterdir()) == []


def test_the_digest_is_the_same_in_every_process() -> None:
    """Sets in the model (removed cards …) are sorted: string hashing differs from one
    process to the next (``PYTHONHASHSEED``), the digest does not."""
    import os
    import subprocess
    import sys

    code = ("from boodle.language.variants import load\n"
            "from boodle.verify.proof_cache import ruleset_digest\n"
            "print(ruleset_digest(load('tripoli-lowest-club')), ruleset_digest(load('rummoli')))")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}
                              ).stdout for seed in ("1", "2", "3")}
    assert len(digests) == 1
