"""The compiled engine: a :class:`~boodle.language.model.Ruleset` compiled once into plain tables.

The reference engine (:mod:`boodle.engine`) is the readable definition of play;
this package plays the same deals faster, for simulation and benchmarks:

- :mod:`.tables` compiles a ruleset into integer tables and small closures
  (cards as indices 0..N-1, hands as bitmasks, successor and claim tables,
  lead rules as option functions) and says which rulesets it cannot run
  (:func:`unsupported_features`, :func:`supports`);
- :mod:`.deal` plays one deal on those tables, moving chips in plain lists, and
  :mod:`.poker` the poker phases before its stops phase (a betting round, side pots, a
  hand evaluator on bitmasks);
- :mod:`.players` has the built-in players over the compiled state (random,
  greedy, and ``tips``, which follows the seeds' strategy tips).

Trust comes from the agreement test (``tests/unit/test_compiled_agreement.py``):
for many seeded deals, driven by the same choices, both engines produce the
same final ledgers and the same plays, stops and claims.
"""

from __future__ import annotations

from boodle.compiled.deal import DealResult, DealView, play_deal
from boodle.compiled.tables import CompiledRules, compile_ruleset, supports, unsupported_features

__all__ = [
    "CompiledRules",
    "DealResult",
    "DealView",
    "compile_ruleset",
    "play_deal",
    "supports",
    "unsupported_features",
]
