"""Write a tree of files into a folder the user names, touching only what boodle owns.

Used by ``boodle docs build --out DIR`` and ``boodle conformance export DIR`` (issue 20,
item 9).  The rules:

- **Only inside DIR, never through a link.**  Every folder on the way to a file is opened
  relative to the one before it with ``O_NOFOLLOW`` (``dir_fd``), so a symbolic link
  anywhere under DIR (``DIR/sources -> /elsewhere``, ``DIR/README.md -> ~/.bashrc``) is
  refused with an error naming it, even if it appears while the tree is written.  DIR
  itself may be a link: it is the folder the user gave.
- **Atomically.**  A file is written to a temporary file in its own folder, then renamed
  over the old one (``os.replace``), so a reader or a kill sees the old file or the new one.
- **Only files it wrote.**  DIR keeps a manifest (:data:`MANIFEST` name given by the caller)
  of the files written last time; a file of the old manifest that is not written again is
  removed (if it is still a plain file inside DIR), and nothing else ever is.  A folder
  written before manifests existed keeps its old files.

Every path is checked before anything is written: a refused tree writes nothing.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path, PurePosixPath

from boodle.language.errors import BoodleError

Content = str | bytes | Path
"""A file's content: text (written as UTF-8), bytes, or a file to copy (its permission
bits too, so an executable adapter stays executable)."""

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _parts(rel: str) -> tuple[str, ...]:
    """The components of a relative path of the tree; raises ValueError for ``..``, an
    absolute path or an empty one (a caller's bug, not the user's)."""
    p = PurePosixPath(rel)
    if p.is_absolute() or not p.parts or any(part in ("..", ".", "") for part in p.parts):
        raise ValueError(f"not a relative path inside the folder: {rel!r}")
    return p.parts


def _refuse(out: Path, rel: str, why: str) -> BoodleError:
    return BoodleError(f"{out / rel}: {why}; nothing was written",
                    hint="boodle writes only plain files and folders inside the folder given, "
                    "never through a link: remove or move it, or give another folder")


@contextmanager
def _open_dir(parent: int, name: str, out: Path, rel: str, create: bool) -> Iterator[int]:
    """The folder ``name`` of the folder open as ``parent`` (created if ``create``), opened
    without following a link; raises :class:`BoodleError` if it is a link or a file."""
    try:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        if not create:
            raise
        os.mkdir(name, dir_fd=parent)
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    if stat.S_ISLNK(st.st_mode):
        raise _refuse(out, rel, "is a symbolic link")
    if not stat.S_ISDIR(st.st_mode):
        raise _refuse(out, rel, "is not a folder")
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:  # replaced by a link since the stat (ELOOP) or not a folder
        raise _refuse(out, rel, "is not a plain folder") from exc
    try:
        yield fd
    finally:
        os.close(fd)


@contextmanager
def _folder_of(root: int, parts: tuple[str, ...], out: Path, create: bool) -> Iterator[int]:
    """The folder holding ``parts[-1]``, opened from ``root`` one component at a time."""
    with ExitStack() as stack:
        fd = root
        for i, name in enumerate(parts[:-1]):
            fd = stack.enter_context(_open_dir(fd, name, out, "/".join(parts[:i + 1]), create))
        yield fd


def _check(root: int, parts: tuple[str, ...], out: Path) -> None:
    """Refuse a path with a link or a non-folder on the way, or a final link or folder."""
    rel = "/".join(parts)
    try:
        with _folder_of(root, parts, out, create=False) as fd:
            st = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise _refuse(out, rel, "is a symbolic link")
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(out, rel, "is not a plain file")


def _bytes(content: Content) -> tuple[bytes, int]:
    if isinstance(content, Path):
        return content.read_bytes(), stat.S_IMODE(content.stat().st_mode)
    data = content.encode("utf-8") if isinstance(content, str) else content
    return data, 0o644


def _write(fd: int, name: str, data: bytes, mode: int) -> None:
    """``data`` into ``name`` of the folder ``fd``: a temporary file, then a rename."""
    try:
        old = os.stat(name, dir_fd=fd, follow_symlinks=False)
        if stat.S_ISREG(old.st_mode) and stat.S_IMODE(old.st_mode) == mode:
            same = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0), dir_fd=fd)
            with os.fdopen(same, "rb") as f:
                if f.read(len(data) + 1) == data:
                    return  # unchanged: keep its time (mkdocs serve rebuilds less)
    except FileNotFoundError:
        pass
    tmp = f".{name}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    out_fd = os.open(tmp, flags, mode, dir_fd=fd)
    try:
        with os.fdopen(out_fd, "wb") as f:
            os.fchmod(f.fileno(), mode)  # exactly ``mode``, whatever the umask
            f.write(data)
        os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=fd)
        raise


def _old_manifest(root: int, manifest: str) -> list[str]:
    """The files written last time, or ``[]`` (none, or not a manifest boodle wrote)."""
    try:
        st = os.stat(manifest, dir_fd=root, follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            return []
        fd = os.open(manifest, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0), dir_fd=root)
        with os.fdopen(fd, "rb") as f:
            data = json.loads(f.read(1 << 22))
    except (OSError, ValueError):
        return []
    files = data.get("files") if isinstance(data, dict) else None
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []


def check_folder(out: Path) -> None:
    """Raise :class:`BoodleError` if ``out`` or the nearest of its parents that exists is a
    file (the folder could never be made): said before anything is built or written."""
    from boodle.out_paths import file_in_the_way

    blocker = file_in_the_way(out)
    if blocker is None:
        return
    if blocker == out:
        raise BoodleError(f"{out} is a file, not a folder", hint="name a folder, not a file")
    raise BoodleError(f"{out}: {blocker} is a file, not a folder",
                      hint=f"give a folder that is not inside a file, as in "
                      f"{blocker.parent / out.name}")


def write_owned(out: Path, files: Mapping[str, Content], manifest: str) -> list[Path]:
    """Write ``files`` (relative POSIX path → content) under ``out`` and return their paths.

    ``out`` is created if needed.  Files listed in ``out/manifest`` by the previous run and
    absent from ``files`` are removed; the manifest is rewritten last.  Raises
    :class:`~boodle.language.errors.BoodleError` before writing anything if ``out`` is not a
    folder, or a path of the tree (or a folder on its way) is a symbolic link or not a
    plain file/folder, and for a file that cannot be written (``OSError``: a read-only
    folder, a full disk); ``ValueError`` for a path with ``..`` (a caller's bug).
    """
    tree = {rel: _parts(rel) for rel in files}
    if manifest in tree:
        raise ValueError(f"the manifest {manifest!r} is not a file of the tree")
    check_folder(out)
    try:
        return _write_tree(out, tree, files, manifest)
    except OSError as exc:  # a read-only folder, a full disk, a name taken meanwhile
        raise BoodleError(f"cannot write into {out}: {exc.strerror or exc}"
                          + (f" ({exc.filename})" if exc.filename else "")) from None


def _write_tree(out: Path, tree: dict[str, tuple[str, ...]], files: Mapping[str, Content],
                manifest: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    root = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for parts in [*tree.values(), (manifest,)]:
            _check(root, parts, out)
        stale = [rel for rel in _old_manifest(root, manifest) if rel not in tree]
        written: list[Path] = []
        for rel, parts in sorted(tree.items()):
            data, mode = _bytes(files[rel])
            with _folder_of(root, parts, out, create=True) as fd:
                _write(fd, parts[-1], data, mode)
            written.append(out / rel)
        for rel in stale:
            _remove(root, rel, out)
        listing = json.dumps({"written_by": "boodle", "files": sorted(tree)}, indent=1)
        _write(root, manifest, (listing + "\n").encode("utf-8"), 0o644)
        return written
    finally:
        os.close(root)


def _remove(root: int, rel: str, out: Path) -> None:
    """Remove a file boodle wrote before, if it is still a plain file inside ``out``."""
    try:
        parts = _parts(rel)
        with _folder_of(root, parts, out, create=False) as fd:
            if stat.S_ISREG(os.stat(parts[-1], dir_fd=fd, follow_symlinks=False).st_mode):
                os.unlink(parts[-1], dir_fd=fd)
    except (OSError, ValueError, BoodleError):
        pass  # gone, moved, or now a link or a folder: not ours to remove
