"""Running ``boodle`` in process for tests that expect a usage error."""

from __future__ import annotations

import pytest

from boodle.cli import main


def usage_status(argv: list[str]) -> int:
    """The exit status of ``boodle ARGV`` when argparse (or a usage check) stops it with
    ``SystemExit``; the test fails if the command returns instead."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    code = exc.value.code
    assert isinstance(code, int)
    return code
