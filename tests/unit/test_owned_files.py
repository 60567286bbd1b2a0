"""Files written into a folder the user names (issue 20, item 9): only inside it, never through
a link, atomically, and only files boodle wrote are ever removed.

``boodle docs build --out DIR`` deleted files in DIR it had not written and followed a linked
``sources/`` out of DIR (deleting a file there); ``conformance export DIR`` wrote through links.
The attacks here: a linked folder, a linked file, a link to a file outside, a user's own file
beside boodle's, a path that changes from run to run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boodle.docs import site
from boodle.docs.templates import languages
from boodle.language.errors import BoodleError
from boodle.language.variants import load
from boodle.owned_files import write_owned

M = ".manifest.json"


def _outside(tmp_path: Path) -> Path:
    """A folder outside the output, with a file that must survive every test."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "michigan.md").write_text("not boodle's", "utf-8")
    (outside / "a.md").write_text("not boodle's", "utf-8")
    return outside


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["a.md", "michigan.md"]
    assert all(p.read_text("utf-8") == "not boodle's" for p in outside.iterdir())


def test_a_linked_folder_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(outside, target_is_directory=True)
    with pytest.raises(BoodleError) as err:
        write_owned(out, {"index.md": "x", "sub/a.md": "new"}, M)
    assert f"{out / 'sub'}: is a symbolic link; nothing was written" in err.value.message
    assert sorted(p.name for p in out.iterdir()) == ["sub"]  # not even index.md
    _untouched(outside)


def test_a_linked_file_is_refused_not_written_through(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.md").symlink_to(outside / "a.md")
    with pytest.raises(BoodleError, match="a.md: is a symbolic link"):
        write_owned(out, {"a.md": "new"}, M)
    _untouched(outside)
    (out / M).symlink_to(outside / "michigan.md")  # the manifest itself may not be a link
    (out / "a.md").unlink()
    with pytest.raises(BoodleError, match="manifest.json: is a symbolic link"):
        write_owned(out, {"a.md": "new"}, M)
    _untouched(outside)


def test_only_files_of_the_last_manifest_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.md").write_text("the user's", "utf-8")
    write_owned(out, {"v/old.md": "1", "v/kept.md": "2"}, M)
    (out / "v" / "theirs.md").write_text("the user's too", "utf-8")
    written = write_owned(out, {"v/kept.md": "2", "v/new.md": "3"}, M)
    assert written == [out / "v" / "kept.md", out / "v" / "new.md"]
    assert sorted(p.name for p in (out / "v").iterdir()) == ["kept.md", "new.md", "theirs.md"]
    assert (out / "mine.md").read_text("utf-8") == "the user's"
    assert not [p for p in out.rglob("*.tmp")]  # no temporary file left


def test_a_manifest_naming_a_file_outside_removes_nothing_outside(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "v").symlink_to(outside, target_is_directory=True)
    (out / M).write_text('{"files": ["../outside/a.md", "v/michigan.md", "/etc/hostname"]}',
                         "utf-8")
    write_owned(out, {"index.md": "x"}, M)
    _untouched(outside)
    assert (out / "v").is_symlink()  # a link that is in no file's way stays


def test_a_rewrite_is_atomic_and_keeps_an_unchanged_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_owned(out, {"a.md": "one"}, M)
    before = os.stat(out / "a.md")
    write_owned(out, {"a.md": "one"}, M)
    assert os.stat(out / "a.md").st_ino == before.st_ino  # unchanged: not rewritten
    write_owned(out, {"a.md": "two"}, M)
    assert (out / "a.md").read_text("utf-8") == "two"
    assert os.stat(out / "a.md").st_ino != before.st_ino  # a new file renamed over the old


def test_a_copied_file_keeps_its_permissions(tmp_path: Path) -> None:
    tool = tmp_path / "adapter.js"
    tool.write_text("#!/usr/bin/env node\n", "utf-8")
    tool.chmod(0o755)
    write_owned(tmp_path / "out", {"examples/adapter.js": tool}, M)
    assert (tmp_path / "out" / "examples" / "adapter.js").stat().st_mode & 0o777 == 0o755


def test_docs_build_refuses_a_linked_sources_folder_and_keeps_the_users_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the reproduction of the issue: DIR/sources linked out of DIR, a file of the same name
    # as a stale page there, and a page of the user's own in DIR/variants
    outside = _outside(tmp_path)
    out = tmp_path / "docs"
    (out / "variants").mkdir(parents=True)
    (out / "variants" / "notes.md").write_text("the user's", "utf-8")
    (out / "sources").symlink_to(outside, target_is_directory=True)
    monkeypatch.setattr(site, "rulesets", lambda: [load("michigan")])
    with pytest.raises(BoodleError, match="sources: is a symbolic link"):
        site.build_docs(out)
    _untouched(outside)
    (out / "sources").unlink()
    site.build_docs(out)
    assert (out / "sources" / "michigan.md").is_file()
    assert (out / "variants" / "notes.md").read_text("utf-8") == "the user's"
    # a variant that is gone: its pages go (they are in the manifest), the user's stay
    monkeypatch.setattr(site, "rulesets", lambda: [load("tripoli")])
    site.build_docs(out)
    pages = {"tripoli.md", *(f"tripoli.{lang}.md" for lang in languages() if lang != "en")}
    assert {p.name for p in (out / "variants").iterdir()} == {"notes.md", *pages}
    assert not (out / "sources" / "michigan.md").exists()
    _untouched(outside)


def test_a_file_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_owned(out, {"a.md": "one"}, M)
    real = os.open

    def refusing(path: str, flags: int, *args: object, **kw: object) -> int:
        if str(path).startswith(".a.md."):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kw)  # type: ignore[arg-type]

    import boodle.owned_files as owned

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(owned.os, "open", refusing)
        with pytest.raises(BoodleError, match=f"cannot write into {out}: Permission denied"):
            write_owned(out, {"a.md": "two"}, M)
    assert (out / "a.md").read_text("utf-8") == "one"
