"""A variant argument is a file when it ends in ``.boodle`` or holds a ``/``, else a built-in's
name (spec §11.1; issue 19, step 8): a folder or file of the current folder named like a
built-in cannot hide it."""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.errors import BoodleError
from boodle.language.variants import is_path, load

MICHIGAN_LIKE = 'variant mine extends michigan {\n  title "Mine"\n}\n'


@pytest.mark.parametrize(("argument", "path"), [
    ("michigan", False), ("tripoli-no-poker", False), ("rules", False),
    ("mine.boodle", True), ("./mine", True), ("house/mine", True), ("/tmp/x", True),
])
def test_what_is_a_path(argument: str, path: bool) -> None:
    assert is_path(argument) is path


def test_a_folder_named_like_a_built_in_does_not_hide_it(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "boodle").mkdir()     # right after 'git clone', beside the clone
    (tmp_path / "tripoli").mkdir()    # mkdir tripoli; boodle simulate tripoli
    assert load("boodle").name == "boodle"
    assert load("tripoli").name == "tripoli"
    assert main(["check", "boodle"]) == 0


def test_a_file_named_like_a_built_in_does_not_hide_it(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "michigan").write_text("not rules at all", encoding="utf-8")
    assert load("michigan").name == "michigan"


def test_a_bare_name_that_is_only_a_file_here_is_told_to_write_a_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.boodle").write_text(MICHIGAN_LIKE, encoding="utf-8")
    with pytest.raises(BoodleError) as caught:
        load("mine")
    assert caught.value.message == "no built-in variant 'mine'"
    assert caught.value.hint is not None and "./mine.boodle" in caught.value.hint
    assert load("./mine.boodle").name == "mine" == load("mine.boodle").name


def test_a_path_to_a_folder_or_nothing_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "dir.boodle").mkdir()
    with pytest.raises(BoodleError, match="is a directory"):
        load(str(tmp_path / "dir.boodle"))
    with pytest.raises(BoodleError, match="no such rules file"):
        load(str(tmp_path / "absent.boodle"))


def test_a_link_that_leads_nowhere_says_so(tmp_path: Path) -> None:
    """Tried as a new user: a link to a moved file, or a loop of links, was "no such rules
    file: loop.boodle", though `ls` shows the file there."""
    loop = tmp_path / "loop.boodle"
    loop.symlink_to(loop.name)
    gone = tmp_path / "moved.boodle"
    gone.symlink_to(tmp_path / "old" / "house.boodle")
    for link, target in ((loop, "loop.boodle"), (gone, str(tmp_path / "old" / "house.boodle"))):
        with pytest.raises(BoodleError) as caught:
            load(str(link))
        assert str(caught.value).startswith(
            f"error: {link} is a symbolic link to {target}, which leads to no file"), caught.value
        assert caught.value.hint == "point the link at the rules file, or give the file's own path"


def test_a_missing_rules_file_gets_a_hint(tmp_path: Path) -> None:
    """Tried as a new user: `boodle check friday.boodle/x.boodle` (a path under a file) and a
    misspelt file name were "no such rules file: …" with no hint, where `fmt` and `docs`
    say what is in the way."""
    (tmp_path / "friday.boodle").write_text(MICHIGAN_LIKE, encoding="utf-8")
    under = tmp_path / "friday.boodle" / "x.boodle"
    with pytest.raises(BoodleError) as caught:
        load(str(under))
    friday = tmp_path / "friday.boodle"
    assert caught.value.message == f"no such rules file: {under} ({friday} is a file, not a folder)"
    assert caught.value.hint == f"give the rules file's own path, as in {friday}"
    with pytest.raises(BoodleError) as caught:
        load(str(tmp_path / "fridy.boodle"))
    assert caught.value.message == f"no such rules file: {tmp_path / 'fridy.boodle'}"
    assert caught.value.hint == f"did you mean {tmp_path / 'friday.boodle'}?"
    with pytest.raises(BoodleError) as caught:
        load(str(tmp_path / "zzz" / "absent.boodle"))
    assert caught.value.hint == f"no folder {tmp_path / 'zzz'}: check the path"
