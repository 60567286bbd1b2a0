"""Output paths the user names, checked before a run: a report file (``--json F``,
``--csv F``, ``--junit F``) or a folder (``--out DIR``, ``--cex-dir DIR``) that could not be
written after a long run is refused at once, with the reason, instead of an OS error
(``[Errno 20] Not a directory``) when the run is over.

Each function returns the problem as text (``--out a/b: a is a file, not a folder``) or
``None``; the command says it as a usage or input error with its own hint.
"""

from __future__ import annotations

import os
from pathlib import Path


def file_problem(option: str, path: Path) -> str | None:
    """Why the file ``path`` (given as ``option``) could not be written, or ``None``.

    The file is opened for appending (and removed again if it did not exist), so a missing
    folder, a folder given as the file or a read-only place is found before the run."""
    if path.is_dir():
        return f"{option} {path}: is a folder, not a file"
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return f"{option} {path}: cannot write there: {exc.strerror or exc}"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def folder_problem(option: str, path: Path) -> str | None:
    """Why the folder ``path`` (given as ``option``) could not be made or written into, or
    ``None``.  Nothing is created: the folder is made when something is written in it.

    A problem is a file at ``path`` or at one of its parents, or a nearest existing folder
    this process may not write into (a missing folder is made there)."""
    if path.exists() and not path.is_dir():
        return f"{option} {path}: is a file, not a folder"
    blocker = file_in_the_way(path)
    if blocker is not None:
        return f"{option} {path}: {blocker} is a file, not a folder"
    here = next(p for p in (path.absolute(), *path.absolute().parents) if p.exists())
    if not os.access(here, os.W_OK | os.X_OK):
        return f"{option} {path}: cannot write there: {here} may not be written"
    return None


def file_in_the_way(folder: Path) -> Path | None:
    """The file that keeps ``folder`` from ever being a folder: ``folder`` itself or the
    nearest of its parents that exists, when that is no folder (``friday.boodle`` of
    ``friday.boodle/sub``); ``None`` when ``folder`` is or can be made a folder."""
    here = next(p for p in (folder.absolute(), *folder.absolute().parents) if p.exists())
    if here.is_dir():
        return None
    return folder if here == folder.absolute() else here
