"""The cost of an auction's bids as the balance grows (issue 20 item 7).

    python bench/bid_ranges.py                 # balances 10^2 … 10^9
    python bench/bid_ranges.py --deals 20      # more simulated deals per balance

For each starting balance, in tripoli-ghost-auction with 4 players: the time and peak memory
(tracemalloc) of the legal moves at the auction's first point, of 1,000 random choices there,
of ``serve`` answering one script case with ``legal_at`` at the auction (protocol 2), and of
``simulate`` (reference engine, random players) playing a few deals.  A widow auction lists a
pass and one bid range, so every figure stays flat: before, the engine listed one move per chip
(10^8 chips: out of memory; ``simulate`` with 10^6 starting chips reached 7.9 GB).
tests/unit/test_bid_ranges.py holds the bounded version of this (10^8 chips, memory only).
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from io import StringIO
from typing import Any

from boodle.conformance.serve import serve
from boodle.engine import legal_moves, start_deal
from boodle.engine.ledger import Ledger
from boodle.engine.strategies import random_legal
from boodle.language.variants import load
from boodle.simulate.runner import make_spec, run_chunk

VARIANT = "tripoli-ghost-auction"


def measure(work: Callable[[], Any]) -> tuple[float, int]:
    """Seconds and peak bytes of ``work()``."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        work()
        return time.perf_counter() - t0, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def row(rules: Any, deck: list[Any], chips: int, deals: int) -> list[tuple[float, int]]:
    """The four measures at one starting balance of ``chips``."""
    names = tuple(s.name for s in rules.board)
    state, _ = start_deal(rules, 4, 3, Ledger.open(4, names, chips), deck)
    choose = random_legal(random.Random(0))
    run = {"type": "run", "id": f"{VARIANT}.bench.0123456789ab",
           "protocol": "boodle-protocol/2", "kind": "script",
           "variant": {"name": rules.name, "version": rules.version},
           "setup": {"players": 4, "dealer": 3,
                     "ledger": {"seats": [chips] * 4, "sections": dict.fromkeys(names, 0)},
                     "deal": {"deck": [str(c) for c in deck]}},
           "script": [], "legal_at": [0]}
    line = json.dumps(run, ensure_ascii=False) + "\n"
    spec = make_spec(replace(rules, session=replace(rules.session, start_chips=chips)), 4,
                     deals, 0, ["random"], "reference")
    return [measure(lambda: legal_moves(rules, state)),
            measure(lambda: [choose(rules, state, legal_moves(rules, state))
                             for _ in range(1000)]),
            measure(lambda: serve(inp=StringIO(line), out=StringIO())),
            measure(lambda: run_chunk(spec, 0, spec.sessions))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4, help="simulated deals per balance")
    args = parser.parse_args()
    rules = load(VARIANT)
    deck = random.Random(7).sample(list(rules.deck.cards()), 52)
    serve(inp=StringIO('{"type": "start", "protocol": "boodle-protocol/2"}\n'), out=StringIO())
    print(f"{'chips':>12}" + "".join(f"{h:>22}" for h in
                                     ("legal moves", "1000 random choices", "serve one case",
                                      f"simulate {args.deals} deals")))
    for k in range(2, 10):
        cells = row(rules, deck, 10**k, args.deals)
        print(f"{10**k:>12}" + "".join(f"{s * 1000:>10.1f} ms {m // 1024:>5} KB"
                                        for s, m in cells))


if __name__ == "__main__":
    main()
