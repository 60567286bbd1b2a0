"""``boodle conformance export DIR`` writes only inside DIR, never through a link (issue 20,
item 9): before, a linked ``README.md`` or ``cases/`` in DIR had the suite written over the
file or folder it points to, outside DIR, and ``--force`` removed the user's own ``cases/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main


def test_export_refuses_links_in_the_folder_and_writes_nothing_outside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("not boodle's", "utf-8")
    out = tmp_path / "suite"
    out.mkdir()
    (out / "README.md").symlink_to(outside / "precious.txt")
    assert main(["conformance", "export", str(out), "--force"]) == 1
    assert f"{out / 'README.md'}: is a symbolic link; nothing was written" \
        in capsys.readouterr().err
    assert (outside / "precious.txt").read_text("utf-8") == "not boodle's"
    assert sorted(p.name for p in out.iterdir()) == ["README.md"]  # nothing else written
    (out / "README.md").unlink()
    (out / "cases").symlink_to(outside, target_is_directory=True)
    assert main(["conformance", "export", str(out), "--force"]) == 1
    assert f"{out / 'cases'}: is a symbolic link" in capsys.readouterr().err
    assert sorted(p.name for p in outside.iterdir()) == ["precious.txt"]


def test_export_over_a_users_folder_keeps_their_files_and_removes_only_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "project"
    (out / "cases").mkdir(parents=True)
    (out / "cases" / "mine.json").write_text("{}", "utf-8")
    assert main(["conformance", "export", str(out), "--force"]) == 0
    assert (out / "cases" / "mine.json").read_text("utf-8") == "{}"  # not removed
    assert (out / "PROTOCOL.md").is_file() and (out / ".boodle-export.json").is_file()
    adapter = next((out / "examples").rglob("adapter.js"))
    assert adapter.is_file()
    # a file export wrote last time and no longer ships is removed on the next export
    manifest = (out / ".boodle-export.json").read_text("utf-8")
    (out / "schema" / "retired.schema.json").write_text("{}", "utf-8")
    (out / ".boodle-export.json").write_text(
        manifest.replace('"files": [', '"files": [\n  "schema/retired.schema.json",'), "utf-8")
    assert main(["conformance", "export", str(out)]) == 0
    assert not (out / "schema" / "retired.schema.json").exists()
    assert (out / "cases" / "mine.json").is_file()
    capsys.readouterr()
