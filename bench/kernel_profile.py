"""Where the numba kernel's time goes per deal (issue 23): line profilers do not see inside
numba, so the kernel is timed whole and in variants, each with one part of the deal cut out.

Run from the repository root (numba installed, ``PYTHONPATH=reference``)::

    python bench/kernel_profile.py              # every variant, each built-in player
    python bench/kernel_profile.py full setup   # some of them

Each variant is :mod:`boodle.compiled.kernel`'s source with one text edit (the edit must
still apply: the script stops when the kernel's text has changed under it), compiled by
numba into a scratch folder, and timed on 20,000 Michigan deals of 4 players (CPU time of
this process, best of 5 calls, the kernel function called directly: without
``run_deals``' conversions).  A variant's deals are not the real game's (a cut-out part
changes the plays), so read the differences as costs, roughly: ``full`` - ``setup`` is
the play, ``full`` - ``first option`` the choice, ``full`` - ``lowest card`` the lead
options and the choice together.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from boodle.compiled import compile_ruleset
from boodle.language.variants import load

KERNEL = Path(__file__).resolve().parents[1] / "reference" / "boodle" / "compiled" / "kernel.py"

VARIANTS: dict[str, list[tuple[str, str]]] = {
    "full": [],
    # the deal, the antes and the turn-up only: no lead, no play
    "setup": [("        while True:\n            # ---- who leads",
               "        while False:\n            # ---- who leads")],
    # every seat takes the first of its options: no random draw, no greedy or tips score
    "first option": [("            if k_opts == 1:\n                c = opts[0]",
                      "            if True:\n                c = opts[0]")],
    # the lead is the lowest card held: no lead-rule options and no choice
    "lowest card": [("                kind = spec_kind[use]\n", "                kind = -1\n"),
                    ("                else:\n                    most = 0\n",
                     "                elif kind == -1:\n"
                     "                    k_opts = 1 if hand else 0\n"
                     "                    opts[0] = _ctz(hand) if hand else 0\n"
                     "                else:\n                    most = 0\n")],
}
"""Each variant: the edits (old text, new text) made to the kernel's source."""


def variant(name: str, folder: Path) -> ModuleType:
    """The kernel module with ``VARIANTS[name]``'s edits, loaded from ``folder``."""
    src = KERNEL.read_text()
    for old, new in VARIANTS[name]:
        if old not in src:
            raise SystemExit(f"variant {name!r}: the kernel no longer has the text it edits")
        src = src.replace(old, new)
    path = folder / f"kernel_{name.replace(' ', '_')}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def per_deal(m: Any, player: str, perms: np.ndarray, dealers: np.ndarray,
             rounds: int = 5) -> tuple[float, np.ndarray]:
    """(µs of CPU per deal, best of ``rounds`` calls; the counts of the last call)."""
    kt = m.kernel_tables(compile_ruleset(load("michigan")), 4)
    fn = m.jitted()
    if fn is None:
        raise SystemExit("numba is not installed (pip install 'boodle[kernel]')")
    k = len(perms)
    rngs = [random.Random(s) for s in range(4)]
    codes = np.array([m.PLAYER_CODES[player]] * 4, dtype=np.int64)
    best, counts = float("inf"), np.zeros((k, 3), dtype=np.int64)
    for _ in range(rounds):
        mts = np.array([m.mt_state(r) for r in rngs], dtype=np.int64)
        counts = np.zeros((k, 3), dtype=np.int64)
        start = time.process_time()
        fn(*kt.arrays(), perms, dealers, codes, mts, np.full(4, 50, dtype=np.int64),
           np.zeros(5, dtype=np.int64), np.zeros(k, dtype=np.int64), counts,
           np.zeros((0, 5), dtype=np.int64), np.zeros(k, dtype=np.int64),
           np.zeros((0, 0), dtype=np.int64), np.zeros(5, dtype=np.int64),
           np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0), dtype=np.int64),
           np.zeros(1, dtype=np.int64))
        best = min(best, time.process_time() - start)
    return best / k * 1e6, counts


def main() -> int:
    parser = argparse.ArgumentParser(description="Time the numba kernel in variants.")
    parser.add_argument("variants", nargs="*", metavar="VARIANT",
                        help="some of: " + ", ".join(VARIANTS) + " (default: all)")
    parser.add_argument("--deals", type=int, default=20000)
    args = parser.parse_args()
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; the variants: " + ", ".join(VARIANTS))
    args.variants = args.variants or list(VARIANTS)
    rng = random.Random(11)
    perms = np.array([rng.sample(range(52), 52) for _ in range(args.deals)], dtype=np.int64)
    dealers = np.arange(args.deals, dtype=np.int64) % 4
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["NUMBA_CACHE_DIR"] = tmp  # read when numba is first imported (jitted)
        for name in args.variants:
            m = variant(name, Path(tmp))
            for player in ("random", "greedy", "tips"):
                us, counts = per_deal(m, player, perms, dealers)
                print(f"{name:13s} {player:7s} {us:6.3f} µs CPU/deal  plays "
                      f"{counts[:, 0].mean():.1f}, leads {counts[:, 1].mean():.1f}",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
