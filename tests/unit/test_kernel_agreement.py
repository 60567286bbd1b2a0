"""The kernel (:mod:`boodle.compiled.kernel`) plays the compiled engine's deals, deal by deal.

For every ruleset the compiled engine is checked on (the playable built-ins and the
rulesets built by hand to reach every rule kind), and each built-in player (random,
greedy, tips), a run of deals from a carried-over board is played twice: in one call of
the kernel, and deal by deal on :func:`boodle.compiled.deal.play_deal` with the players of
:mod:`boodle.compiled.players`, each seat with its own ``random.Random`` of the same seed.
The traces (leads, plays, stops, claims, passes, penalties, bonuses, payments, the deal's
end) must be equal deal by deal, and so must the chips and the players' random states
afterwards.  The compiled engine is itself held to the reference engine by
``test_compiled_agreement.py``.

The rulesets with a poker betting round (spec §8.3) are held to the same, the players
betting with the same draws (``BETTING``).

The kernel runs here as plain Python (numba's compiled kernel takes seconds to build:
that run is the ``slow`` test below, and ``bench/run.py`` checks it on thousands of deals
before timing it).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boodle.compiled import compile_ruleset
from boodle.compiled.deal import TraceItem, play_deal
from boodle.compiled.kernel import kernel_tables, kernel_unsupported, run_deals
from boodle.compiled.players import PLAYERS, make_bettor, make_chooser
from boodle.language.model import Ruleset
from compiled_rulesets import MICHIGAN, RULESETS, betting, variant

RUN = [r for r in RULESETS if not kernel_unsupported(compile_ruleset(r))]
BETTING = [r for r in betting() if not kernel_unsupported(compile_ruleset(r))]
"""The rulesets with a betting round (spec §8.3) the kernel runs: all but exact chips."""


def test_the_kernel_runs_every_ruleset_the_compiled_engine_is_checked_on() -> None:
    """All but those with elimination (spec §9, §10), a widow sale (spec §5.4), short stacks
    paid section by section (spec §4) or a widow that blocks sets (spec §5.2): the compiled
    engine alone plays them, and the kernel refuses them by name."""
    left = {r.name: kernel_unsupported(compile_ruleset(r)) for r in RULESETS if r not in RUN}
    assert set(left) == {r.name for r in RULESETS
                         if r.session.negative == "eliminate" or r.widow_sale is not None}
    assert all(gaps and all(g.startswith(("elimination at zero balance", "widow sale",
                                          "widow auction", "short stack: section by section",
                                          "widow: blocks sets")) for g in gaps)
               for gaps in left.values())


def _both(rules: Ruleset, players: int, player: str, deals: int, seed: int,
          jit: bool) -> None:
    t = compile_ruleset(rules)
    kt = kernel_tables(t, players)
    rng = random.Random(seed)
    perms, dealers = [], []
    for k in range(deals):
        perm = list(range(t.n_cards))
        rng.shuffle(perm)
        perms.append(perm)
        dealers.append(k % players)
    start = [(8 + rng.randrange(23)) if t.pokers else 50 + rng.randrange(5)
             for _ in range(players)]  # with a betting round, short seats go all in
    board = [rng.randrange(6) for _ in t.section_names]
    seats, sections = list(start), list(board)
    rngs = [random.Random(seed * 100 + s) for s in range(players)]
    choosers = [make_chooser(player, r) for r in rngs]
    bettors = [make_bettor(player, r) for r in rngs]
    traces: list[list[TraceItem]] = []
    winners = []
    for perm, dealer in zip(perms, dealers, strict=True):
        trace: list[TraceItem] = []
        winners.append(play_deal(t, players, dealer, perm, seats, sections, choosers,
                                 trace, bettors).winner)
        traces.append(trace)
    k_seats, k_sections = list(start), list(board)
    k_rngs = [random.Random(seed * 100 + s) for s in range(players)]
    run = run_deals(kt, perms, dealers, [player] * players, k_rngs, k_seats, k_sections,
                    trace=True, jit=jit)
    assert run.trace is not None
    for k, (mine, theirs) in enumerate(zip(run.trace, traces, strict=True)):
        assert mine == theirs, f"{rules.name}, {players} players, {player}: deal {k}"
    assert run.winners == winners
    assert (k_seats, k_sections) == (seats, sections)
    assert [r.getstate() for r in k_rngs] == [r.getstate() for r in rngs]


@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("rules", RUN, ids=lambda r: r.name + f"-{id(r) % 997}")
def test_kernel_and_compiled_engine_play_the_same_deals(rules: Ruleset, player: str) -> None:
    counts = rules.players.counts()
    for i, players in enumerate((counts[0], counts[-1], counts[len(counts) // 2])):
        _both(rules, players, player, 6, i + len(rules.name), jit=False)


def test_the_kernel_runs_the_betting_rulesets_but_exact_chips() -> None:
    assert len(BETTING) == len(betting()) - 1
    assert [g for r in betting() for g in kernel_unsupported(compile_ruleset(r))] == [
        "exact chips with a holding or poker phase (the kernel's chips are whole)"]


@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("rules", BETTING, ids=lambda r: f"{r.name}-{id(r) % 997}")
def test_kernel_and_compiled_engine_play_the_same_betting_rounds(rules: Ruleset,
                                                                 player: str) -> None:
    """Bets, blinds, folds, all-ins, side pots and tied showdowns (spec §8.2, §8.3), each
    player betting with its own draws."""
    for i, players in enumerate((2, 4, 7)):
        _both(rules, players, player, 12, i + 3, jit=False)


def test_the_kernel_ranks_hands_as_the_compiled_engine() -> None:
    """The kernel's packed strengths, unpacked, are the compiled evaluator's (pokerkit's, by
    test_compiled_poker.py) on random hands of 1 to 17 cards, for every ``best: N cards``."""
    import numpy as np

    from boodle.compiled.kernel import _hand_value, _strength
    from boodle.compiled.poker import hand_strength

    rules = betting()[0]
    t = compile_ruleset(rules)
    poker = kernel_tables(t, 4).poker.copy()
    counts, by_suit = np.zeros(15, dtype=np.int64), np.zeros(4, dtype=np.int64)
    suit_of = np.array(t.suit_of, dtype=np.int64)
    rng = random.Random(8)
    from boodle.compiled.kernel import P_ACE_LOW, P_BEST
    for k in range(1500):
        size, ace_low = 1 + k % 5, k % 3 > 0
        poker[P_BEST], poker[P_ACE_LOW] = size, int(ace_low)
        hand = sum(1 << c for c in rng.sample(range(t.n_cards), rng.randrange(1, 18)))
        value, length = _hand_value(hand, poker, suit_of, counts, by_suit)
        assert _strength(value, length) == hand_strength(t, hand, size, ace_low), (hand, size)


def test_the_random_player_draws_as_random_random() -> None:
    """The kernel's Mersenne Twister gives :meth:`random.Random.random`'s floats, past a
    reload of its 624 words, and leaves the generator's state where Python's would be."""
    from boodle.compiled.kernel import _random, mt_state, set_mt_state

    for seed in (0, 1, 12345):
        ours, theirs = random.Random(seed), random.Random(seed)
        mts = mt_state(ours).reshape(1, -1)
        assert [_random(mts, 0) for _ in range(700)] == [theirs.random() for _ in range(700)]
        set_mt_state(ours, mts[0])
        assert ours.random() == theirs.random()


@pytest.mark.slow
@pytest.mark.parametrize("player", PLAYERS)
def test_the_compiled_kernel_plays_the_same_deals(player: str) -> None:
    """numba's kernel (compiled, or read from its cache) on more deals; where numba is
    absent, the same deals on the kernel as Python."""
    for rules in (MICHIGAN, variant("pope-joan"), variant("tripoli-lowest-club"),
                  variant("tripoley"),  # a holding phase and a showdown (spec §8.1, §8.2)
                  BETTING[1]):  # probe-blinds: blinds, bets, side pots (spec §8.3)
        for players in (3, 4, 5):
            _both(rules, players, player, 300, players, jit=True)


def test_numba_caches_the_kernel_in_the_user_cache_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled kernel is cached under ``$XDG_CACHE_HOME/boodle/numba`` (an installed
    boodle's own folder may be read-only), or where ``NUMBA_CACHE_DIR`` says; no cache
    folder to write is no cache."""
    from boodle.compiled.kernel import cache_folder

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder() == tmp_path / "boodle" / "numba"
    assert (tmp_path / "boodle" / "numba").is_dir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert cache_folder() == tmp_path / "elsewhere"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert cache_folder() is None
