"""Many sessions a kernel call (:mod:`boodle.simulate.kernel_sessions`): the kernel seeds each
session's generator and draws its high cut as Python's :mod:`random` and
:func:`boodle.simulate.runner.high_cut` do, and ``boodle simulate`` then reports the compiled
engine's numbers (``test_simulate_kernel.py`` compares the reports; here: that the batched
path is the one taken, and its hand-backs).  Run as Python (``jit=False``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
from test_simulate_kernel import SHORT_OF_CHIPS, _report

from boodle.compiled import kernel
from boodle.language.build import load_text
from boodle.language.variants import load
from boodle.simulate import kernel_sessions, runner
from boodle.simulate.runner import high_cut, make_spec, run


def _seeded(text: str) -> np.ndarray:
    words = kernel.seed_words(text)
    mt = np.zeros((1, 625), dtype=np.int64)
    kernel._seed(mt, 0, words, len(words))
    return mt


@pytest.mark.parametrize("text", ["1:0", "1:17", "-5:3", "12345678901234567890:999", "",
                                  "\0x"])
def test_the_kernel_seeds_as_random_does(text: str) -> None:
    assert tuple(_seeded(text)[0].tolist()) == random.Random(text).getstate()[1]


@pytest.mark.parametrize("cards", [52, 32, 20])
def test_the_kernels_high_cut_draws_as_simulate_does(cards: int) -> None:
    """Both of CPython's ``sample`` methods (a pool when the pack is small beside the
    players, else redraws), ties drawn again, and the generator left in the same state."""
    ranks = [c % 13 for c in range(cards)]
    for players in range(2, 9):
        for j in range(40):
            mt = _seeded(f"3:{j}")
            got = kernel._high_cut(mt, 0, np.array(ranks), cards, players,
                                   np.zeros(players, dtype=np.int64),
                                   np.zeros(players, dtype=np.int64),
                                   np.zeros(cards, dtype=np.int64))
            rng = random.Random(f"3:{j}")
            assert got == high_cut(ranks, players, rng), (cards, players, j)
            assert tuple(mt[0].tolist()) == rng.getstate()[1]


def test_simulate_plays_many_sessions_a_call_and_hands_back_the_rest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Michigan's sessions all come from the arrays; the short-of-chips variant's (a seat
    with no chips ends the session, ties play one more deal) partly: the sessions handed
    back are played again by ``play_session``, the report still the compiled engine's."""
    again: list[int] = []
    play_session = runner.play_session

    def counted(spec: Any, j: int, *args: Any) -> None:
        again.append(j)
        play_session(spec, j, *args)

    monkeypatch.setattr(runner, "play_session", counted)
    calls: list[int] = []
    call = kernel_sessions._call

    def counted_call(spec: Any, first: int, last: int, *args: Any) -> None:
        calls.append(last - first)
        call(spec, first, last, *args)

    monkeypatch.setattr(kernel_sessions, "_call", counted_call)
    michigan = make_spec(load("michigan"), 4, 40, 5, ["random"], "kernel")
    assert kernel_sessions.batched(michigan)
    stats = run(dataclasses.replace(michigan, jit=False))
    assert (calls, again, stats.sessions) == ([10], [], 10)
    calls.clear()
    short = make_spec(load_text(SHORT_OF_CHIPS, "short-of-chips.boodle"), 4, 240, 5,
                      ["random"], "compiled")
    mine = _report(dataclasses.replace(short, engine="kernel", jit=False))
    assert calls == [20] and 0 < len(again) < 20
    assert mine == _report(short)


def test_a_first_dealer_by_the_first_jack_is_not_batched() -> None:
    """Pope Joan's first dealer (the first jack dealt) is drawn in Python, a session at a
    time (``test_simulate_kernel.py`` compares its report with the compiled engine's)."""
    spec = make_spec(load("pope-joan"), 4, 40, 5, ["random"], "kernel")
    assert not kernel_sessions.batched(spec)
    assert kernel_sessions.batched(dataclasses.replace(spec, ruleset=load("michigan")))


@pytest.mark.slow
def test_the_compiled_kernel_reports_the_compiled_engines_numbers() -> None:
    """numba's kernel (compiled, or read from its cache; as Python where numba is absent),
    many sessions a call, on Michigan and the short-of-chips variant."""
    for rules, strategies in ((load("michigan"), ["random", "greedy", "tips", "random"]),
                              (load_text(SHORT_OF_CHIPS, "short-of-chips.boodle"),
                               ["random"])):
        compiled = make_spec(rules, 4, 2000, 9, strategies, "compiled")
        assert _report(dataclasses.replace(compiled, engine="kernel")) == _report(compiled)
