"""The protocol fuzzer, bounded (issue 20): the runner against a hostile implementation for a
few hundred answers, ``serve`` against a hundred mutated messages.

``bench/fuzz_protocol.py`` runs 10,000 answers and more.  What must hold comes from the
protocol (conformance/PROTOCOL.md, Transport and Session mode): whatever the implementation
sends, the runner does not crash, every case gets exactly one outcome and every report is
written; nothing the implementation started is left; ``serve`` answers each line with one
message and does not exit.
"""

from __future__ import annotations

from types import ModuleType

from bench_modules import load_bench


def _bench() -> ModuleType:
    return load_bench("fuzz_protocol")


def test_the_runner_survives_a_hostile_implementation() -> None:
    result = _bench().fuzz_runner(answers=300, seed=20, timeout=0.3, per_round=60,
                                  log=lambda _: None)
    assert result["crashes"] == []
    assert result["problems"] == []
    assert result["left"] == 0
    assert result["answers"] >= 300
    assert result["outcomes"]["error"] > 0  # the hostile answers were refused, not passed


def test_serve_answers_every_mutated_message() -> None:
    result = _bench().fuzz_serve(messages=100, seed=20, log=lambda _: None)
    assert result["crashes"] == []
    assert result["answered"] + result["skipped"] == 100
