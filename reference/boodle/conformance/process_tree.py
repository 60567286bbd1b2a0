"""The whole tree of processes an implementation under test starts, and killing all of it.

Killing the implementation's process group misses what it started in a session of its own
(``setsid``) or as a daemon (fork, ``setsid``, fork, the middle process exits): such a
process is in no group of the implementation's, and a daemon is nobody's child.  So on
Linux the runner makes itself a *child subreaper* for the length of a run
(``prctl(PR_SET_CHILD_SUBREAPER)``, :func:`subreaper`): an orphan of the implementation's
tree is then adopted by the runner instead of by init, and stays findable.  Each
implementation process is started with a token in its environment
(:data:`TOKEN_VARIABLE`), which every process it starts inherits; :func:`members` finds,
in ``/proc``, the root's descendants and every process adopted by the runner that carries
the token (with their own descendants).  :func:`kill_tree` stops them all (``SIGSTOP``:
a stopped process cannot fork) until no new one appears, kills them (``SIGKILL``) and
reaps those the runner adopted.

Elsewhere (no ``/proc``), or when ``prctl`` is refused, only the process group and the
descendants still linked to the root are found: the runner does what it can, as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TOKEN_VARIABLE = "BOODLE_CONFORMANCE_TOKEN"
"""The environment variable that marks every process of one implementation's tree."""

PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
"""``prctl`` options (``linux/prctl.h``)."""

REAP_WAIT = 2.0
"""Seconds :func:`kill_tree` waits for the killed processes the runner adopted to be reaped."""

PROC = Path("/proc")


def _prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


@contextlib.contextmanager
def subreaper() -> Iterator[bool]:
    """Make this process a child subreaper for the block (Linux); yields whether it is one.

    The previous setting is restored at the end, so a long-lived process (a test run)
    adopts orphans only while it runs an implementation.
    """
    prctl = _prctl()
    if prctl is None:
        yield False
        return
    before = ctypes.c_int(0)
    if prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) != 0:
        yield False
        return
    if before.value:
        yield True
        return
    ok = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    try:
        yield ok
    finally:
        if ok:
            prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def _parents() -> dict[int, int]:
    """Every live process's parent, from ``/proc/PID/stat`` (empty without ``/proc``)."""
    out: dict[int, int] = {}
    try:
        entries = list(os.scandir(PROC))
    except OSError:
        return out
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            stat = (PROC / entry.name / "stat").read_bytes()
        except OSError:
            continue
        # "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) >= 2 and fields[0] != b"Z":
            out[int(entry.name)] = int(fields[1])
    return out


def _has_token(pid: int, token: str) -> bool:
    try:
        environ = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return False
    return f"{TOKEN_VARIABLE}={token}".encode() in environ.split(b"\0")


def members(root: int, token: str, root_alive: bool = True) -> set[int]:
    """The live processes of the tree of ``root``: ``root`` and its descendants (when
    ``root_alive``: a reaped root's pid may be another process's), and each process this
    one adopted (as a subreaper) that carries ``token``, with its descendants.  Zombies
    are left out (they are dead)."""
    parents = _parents()
    me = os.getpid()
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    tops = {root} if root_alive and root in parents else set()
    tops |= {pid for pid in children.get(me, []) if pid != root and _has_token(pid, token)}
    found: set[int] = set()
    todo = list(tops)
    while todo:
        pid = todo.pop()
        if pid in found:
            continue
        found.add(pid)
        todo.extend(children.get(pid, []))
    return found


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def kill_tree(root: int, token: str, root_alive: bool = True) -> None:
    """Kill ``root``'s process group and every process of its tree (:func:`members`;
    ``root_alive``: ``root`` has not been reaped, its pid is still its own).

    The tree is frozen first (``SIGSTOP`` to each member, again until no new member
    appears), so that nothing forks between finding and killing; then each member and
    the group get ``SIGKILL``.  The killed processes this one adopted are reaped (within
    :data:`REAP_WAIT` seconds); ``root`` itself is left to its ``Popen`` to reap.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGSTOP)
    seen: set[int] = set()
    for _ in range(100):  # a fork bomb outpacing the freeze is still bounded
        new = members(root, token, root_alive) - seen
        if not new:
            break
        for pid in new:
            _signal(pid, signal.SIGSTOP)
        seen |= new
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGKILL)
    for pid in seen:
        _signal(pid, signal.SIGKILL)
    _reap(seen - {root})


def _reap(pids: set[int]) -> None:
    """Wait for each of ``pids`` that this process adopted; forget those that are gone or
    belong to another (a parent that reaps them itself)."""
    deadline = time.monotonic() + REAP_WAIT
    pending = set(pids)
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (yet) ours: gone, or still being reparented
                if not (PROC / str(pid)).exists():
                    pending.discard(pid)
                continue
            if done:
                pending.discard(pid)
        if pending:
            time.sleep(0.005)
