"""The ledger attack of ``bench/fuzz_bounds.py``, bounded (issue 20, items 14 and 15): a few
dozen tampered ledgers, read by ``boodle ledger`` and resumed; the bench runs hundreds, and
the size and scheduler attacks whose bounded versions are ``tests/unit/test_hint_budget.py``,
``tests/unit/test_hostile_rules.py`` and ``tests/integration/test_simulate_bounds.py``.

What must hold: no internal error whatever the file holds; ``--resume`` refuses every ledger
``boodle ledger`` calls damaged or inconsistent, and one it resumes still checks consistent;
a read-only ledger in a read-only folder is read.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from bench_modules import load_bench


def test_tampered_ledgers_are_refused_never_an_internal_error() -> None:
    # a folder 'nobody' can reach (the read-only reader, when run as root): pytest's own
    # folders are the owner's only
    folder = Path(tempfile.mkdtemp(prefix="boodle-bounds-"))
    folder.chmod(0o755)
    try:
        result = load_bench("fuzz_bounds").attack_ledgers(40, seed=20, folder=folder,
                                                          memory=None)
    finally:
        for path in folder.rglob("*"):
            path.chmod(0o755)
        shutil.rmtree(folder)
    assert result["findings"] == []
    tally = result["tally"]
    assert sum(v for k, v in tally.items() if k.startswith("ledger says")) == 40
    assert tally.get("ledger says damaged", 0) >= 10  # the attack does damage
    assert tally.get("resume refused", 0) >= tally.get("ledger says damaged", 0)
    assert result["read_only"].startswith("read: in progress"), result["read_only"]
