"""``boodle simulate`` on the kernel gives the compiled engine's report, seed for seed.

The kernel (:func:`boodle.compiled.kernel.run_session`) shuffles, plays and chooses from the
session's one random generator exactly as :func:`boodle.simulate.runner.play_session` does
on the compiled engine, so a seed gives the same deals, winners, chips and so the same
report on both.  Run here as Python (``jit=False``: no numba needed; the kernel compiled
by numba is the same function).  The session below ends early when a seat runs out of
chips and breaks a tie with one more deal (spec §10), the paths where the kernel hands
back to Python mid-session.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.variants import load
from boodle.simulate import runner
from boodle.simulate.report import summary
from boodle.simulate.runner import RunSpec, choose_engine, engine_label, make_spec, run

SHORT_OF_CHIPS = """
variant short-of-chips extends michigan {
  session {
    start: 40 chips
    end: when a player has no chips
    end: after 3 rotations
    leftover: split equally
    ties: one more deal
  }
}
"""
"""Michigan's deals with few chips: sessions end when a seat has none, ties play once more."""


def _report(spec: RunSpec) -> dict[str, Any]:
    report = summary(spec, run(spec), workers=1, backend="local", seconds=1.0,
                     cpu_seconds=1.0)
    report.pop("engine")
    return report


@pytest.mark.parametrize(("variant", "players", "strategies", "deals"), [
    ("michigan", 4, ["random"], 40),
    ("michigan", 3, ["tips", "greedy", "random"], 30),
    ("pope-joan", 5, ["random", "tips"] * 2 + ["greedy"], 25),
    ("short", 4, ["random"], 60),
])
def test_the_kernel_reports_the_compiled_engines_numbers(variant: str, players: int,
                                                         strategies: list[str],
                                                         deals: int) -> None:
    rules = (load(variant) if variant != "short"
             else load_text(SHORT_OF_CHIPS, "short-of-chips.boodle"))
    compiled = make_spec(rules, players, deals, 5, strategies, "compiled")
    kernel = dataclasses.replace(compiled, engine="kernel", jit=False)
    assert compiled.engine == "compiled"
    assert engine_label(kernel).startswith("kernel (Python")
    assert _report(kernel) == _report(compiled)


@pytest.mark.parametrize(("probe", "strategies"), [
    ("probe-blinds", ["random"]),
    ("probe-no-limit", ["greedy", "random", "tips"]),
    ("tripoley", ["tips", "random", "greedy"]),  # a holding phase and a showdown (§8.1, §8.2)
])
def test_poker_and_holding_give_the_same_report_on_all_three_engines(
        probe: str, strategies: list[str]) -> None:
    """A poker phase's betting round (spec §8.3), or Tripoley's holding phase and showdown:
    the reference engine, the compiled engine and the kernel report the same numbers for a
    seed (the players bet with the same draws)."""
    from boodle.conformance.paths import load_variant

    compiled = make_spec(load_variant(probe), 3, 36, 2, strategies, "compiled")
    kernel = dataclasses.replace(compiled, engine="kernel", jit=False)
    reference = dataclasses.replace(compiled, engine="reference")
    assert compiled.engine == "compiled"
    assert _report(kernel) == _report(compiled) == _report(reference)


def test_the_short_session_takes_the_paths_it_is_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variant above, seed 5, as the test above plays it: sessions end early, after
    more than one deal (its 5 sessions of up to 12 deals play fewer than 60 deals, more
    than 5), and a tie is split before one more deal."""
    splits: list[int] = []
    split = runner._split

    def counted(*args: Any) -> None:
        splits.append(1)
        split(*args)

    monkeypatch.setattr(runner, "_split", counted)
    spec = make_spec(load_text(SHORT_OF_CHIPS, "short-of-chips.boodle"), 4, 60, 5,
                     ["random"], "compiled")
    stats = run(dataclasses.replace(spec, engine="kernel", jit=False))
    assert (spec.session_length, stats.sessions) == (12, 5)
    assert 5 < stats.deals < 60
    assert splits


def test_the_engine_is_chosen_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """``auto``: the kernel only with numba and for a long run (numba's load is then paid
    back), the compiled engine otherwise; never for a variant the compiled one cannot run."""
    from boodle.compiled import kernel

    michigan = load("michigan")
    assert choose_engine(michigan, "kernel") == "kernel"
    assert choose_engine(michigan, "compiled") == "compiled"
    assert choose_engine(load("tripoli-chien-once"), "auto") == "reference"
    assert choose_engine(load("tripoli"), "auto") == "compiled"  # elimination: not the kernel
    for numba, long_run, short_run in ((True, "kernel", "compiled"),
                                       (False, "compiled", "compiled")):
        monkeypatch.setattr(kernel, "numba_available", lambda numba=numba: numba)
        assert choose_engine(michigan, "auto", runner.KERNEL_FROM) == long_run
        assert choose_engine(michigan, "auto", runner.KERNEL_FROM - 1) == short_run
        spec = make_spec(michigan, 4, runner.KERNEL_FROM, 1, ["random"], "auto")
        assert engine_label(spec) == ("kernel (numba)" if numba else "compiled")
        assert engine_label(dataclasses.replace(spec, engine="kernel")) == (
            "kernel (numba)" if numba else "kernel (Python, numba absent)")
    assert engine_label(make_spec(michigan, 4, 8, 1, ["random"], "reference")) == "reference"


def test_simulate_runs_without_numpy(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A plain ``pip install boodle`` has no numpy (it comes with the ``kernel`` extra): the
    kernel module cannot be imported, ``auto`` plays on the compiled engine even for a long
    run, and ``--engine kernel`` is refused with the extra to install. (Before, every
    simulate of a compiled variant imported the kernel and died: "No module named
    'numpy'", found by a new user following the README.)"""
    import sys

    from boodle.cli import main
    from boodle.language.errors import BoodleError

    monkeypatch.setattr(runner, "kernel_importable", lambda: False)
    monkeypatch.setitem(sys.modules, "boodle.compiled.kernel", None)  # importing it fails
    michigan = load("michigan")
    assert choose_engine(michigan, "auto", None) == "compiled"
    with pytest.raises(BoodleError) as err:
        choose_engine(michigan, "kernel")
    assert "boodle[kernel]" in (err.value.hint or "")
    assert main(["simulate", "michigan", "--players", "4", "--deals", "30", "--seed", "7"]) == 0
    assert "compiled" in capsys.readouterr().out


TRIPOLI_BROKE = """
variant tripoli-broke extends tripoli {
  session {
    start: 8 chips
    balance: eliminated at zero
    end: after 3 rotations
    end: last player with chips
  }
}
"""
"""Tripoli with few chips: players run short in the ante and the betting, and go out."""


@pytest.mark.parametrize(("variant", "players", "strategies"), [
    ("tripoli-broke", 5, ["random", "tips", "greedy", "random", "tips"]),
    ("michigan-until-broke", 4, ["random"]),
])
def test_elimination_gives_the_same_report_on_the_compiled_and_reference_engines(
        variant: str, players: int, strategies: list[str]) -> None:
    """``balance: eliminated at zero`` (spec §9, §10): payments cut to the balance and the
    seats out left out of later deals, the same sessions on both engines for a seat; the
    kernel refuses it, naming it."""
    rules = (load(variant) if variant != "tripoli-broke"
             else load_text(TRIPOLI_BROKE, "tripoli-broke.boodle"))
    assert rules.session.negative == "eliminate"  # (a session block is replaced whole)
    compiled = make_spec(rules, players, 60, 3, strategies, "auto")
    assert compiled.engine == "compiled"
    reference = dataclasses.replace(compiled, engine="reference")
    assert _report(compiled) == _report(reference)
    with pytest.raises(BoodleError, match="elimination at zero balance"):
        make_spec(rules, players, 60, 3, strategies, "kernel")


@pytest.mark.parametrize(("variant", "strategies"), [
    ("michigan-widow-sale-optional", ["random", "greedy", "tips", "random"]),
    ("tripoli-ghost-auction", ["greedy", "random", "random", "tips"]),
])
def test_a_widow_sale_gives_the_same_report_on_the_compiled_and_reference_engines(
        variant: str, strategies: list[str]) -> None:
    """The widow sale or auction (spec §5.4), the players choosing with the same draws on
    both engines; the kernel refuses it, naming it."""
    compiled = make_spec(load(variant), 4, 40, 4, strategies, "auto")
    assert compiled.engine == "compiled"
    assert _report(compiled) == _report(dataclasses.replace(compiled, engine="reference"))
    with pytest.raises(BoodleError, match="widow (sale|auction)"):
        make_spec(load(variant), 4, 40, 4, strategies, "kernel")
