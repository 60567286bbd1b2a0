"""One running implementation under test: a child process spoken to in JSON Lines.

The child runs in its own process group (a new session), and killing it kills
its whole process tree (:mod:`.process_tree`): the group, and what it started in
a session of its own or as a daemon.  Its stdout is read by a thread into a
queue of lines, at most :data:`MAX_LINE` bytes each, so a child that floods its
output or never ends a line cannot block or exhaust the runner; its stderr is
drained into a short tail kept for error messages.  Every wait has a timeout.

Each child has its own queue, and its reader threads own their pipes' file
descriptors (duplicates, closed by the thread when it ends): a descriptor
number freed by one child and reused by the next is never read by the old
child's thread, so a restarted implementation's first line always reaches its
own queue.
"""

from __future__ import annotations

import contextlib
import os
import queue
import selectors
import shlex
import subprocess
import threading
import time
import uuid
from collections import deque
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import IO

from boodle.conformance.process_tree import TOKEN_VARIABLE, kill_tree

MAX_LINE = 8 * 1024 * 1024
"""The longest line (bytes) an implementation may write; longer is a protocol error."""

STDERR_TAIL = 2000
"""Characters of the child's stderr kept for error messages (the end of it)."""

READER_JOIN = 1.0
"""Seconds :meth:`Child.kill` waits for the reader threads to read what the dead tree left
in its pipes (its stderr's last lines, for the error message)."""

POLL = 0.1
"""Seconds between a reader thread's checks that its child was killed."""

EXIT_GRACE = 1.0
"""Seconds :meth:`Child.read_line` still waits for lines after the child has exited."""

EXIT_POLL = 0.25
"""Seconds between :meth:`Child.read_line`'s checks that the child has exited."""

STDERR_HEAD = 1000
"""Characters of the start of the child's stderr also kept: Node.js and the JVM print the
error's message before its stack, which can push the message out of the tail."""


@dataclass(frozen=True)
class Line:
    """What reading a line gave: ``kind`` is ``line`` (``text`` set), ``eof``,
    ``timeout`` or ``overflow``."""

    kind: str
    text: str = ""


def excerpt(head: str, tail: str, written: int, limit: int = 400) -> str:
    """Whole lines of a stream of which ``head`` is the start and ``tail`` the end
    (``written`` characters in all), at most about ``limit`` characters: all of it when it
    fits, else its first lines, ``…``, its last lines.  A line longer than the room left
    is cut with ``…``.  Blank lines are left out."""
    if not (head.strip() or tail.strip()):
        return ""
    whole = head if written <= len(head) else (tail if written <= len(tail) else "")
    if whole and len(whole.strip()) <= limit:
        return "\n".join(line for line in whole.strip().splitlines() if line.strip())
    first = [ln for ln in head.splitlines()[:-1] if ln.strip()]  # the last may be cut
    last = [ln for ln in tail.splitlines()[1:] if ln.strip()]  # the first may be cut
    if not first and head.strip():
        first = [head.strip()]
    if not last and tail.strip():
        last = [tail.strip()]
    room = limit // 2
    kept_first: list[str] = []
    for line in first[:6]:
        if len(line) >= room:
            if not kept_first:
                kept_first.append(line[:room] + "…")
            break
        kept_first.append(line)
        room -= len(line) + 1
    room = limit - sum(len(ln) + 1 for ln in kept_first)
    kept_last: list[str] = []
    for line in reversed(last):
        if len(line) >= room:
            if not kept_last:
                kept_last.append("…" + line[-room:])
            break
        kept_last.insert(0, line)
        room -= len(line) + 1
    return "\n".join([*kept_first, "…", *kept_last])


def _own(stream: IO[bytes] | None) -> int:
    """A descriptor of its own for a pipe of the child (a duplicate); the stream is closed."""
    assert stream is not None
    fd = os.dup(stream.fileno())
    stream.close()
    return fd


def _bounded(timeout: float) -> float:
    """``timeout`` within what a wait accepts (0 to ``threading.TIMEOUT_MAX``)."""
    return min(max(timeout, 0.0), threading.TIMEOUT_MAX)


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line split as a POSIX shell would (``shlex``), or the list as given."""
    return shlex.split(command) if isinstance(command, str) else list(command)


class Child:
    """A child process with line-oriented stdin/stdout and a bounded stderr tail."""

    def __init__(self, command: str | Sequence[str], stdin_text: str | None = None) -> None:
        argv = split_command(command)
        self.argv = argv
        self.token = uuid.uuid4().hex
        self.proc = subprocess.Popen(  # noqa: S603 - the implementation under test is a command
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env={**os.environ, TOKEN_VARIABLE: self.token},
        )
        self._stopped = threading.Event()
        out_fd, err_fd = _own(self.proc.stdout), _own(self.proc.stderr)
        self.proc.stdout = self.proc.stderr = None
        self._lines: queue.Queue[Line] = queue.Queue()
        self._tail: deque[str] = deque(maxlen=64)
        self._head = ""
        self._written = 0
        self._pending = 0
        self._pending_start = b""
        self._readers = [
            threading.Thread(target=self._read_stdout, args=(out_fd,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(err_fd,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        if stdin_text is not None:
            self.send_text(stdin_text)
            self.close_stdin()

    # ---------------------------------------------------------------- reading

    def _chunks(self, fd: int) -> Generator[bytes, None, None]:
        """What the child writes on ``fd``, chunk by chunk, until end of file or until the
        child is killed; ``fd`` is this thread's own and is closed at the end."""
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(fd, selectors.EVENT_READ)
                while not self._stopped.is_set():
                    if not selector.select(POLL):
                        continue
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        return
                    yield chunk
        except (OSError, ValueError):
            return
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)

    def _read_stdout(self, fd: int) -> None:
        buffer = b""
        chunks = self._chunks(fd)
        try:
            for chunk in chunks:
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if len(line) > MAX_LINE:
                        self._lines.put(Line("overflow"))
                        return
                    self._lines.put(Line("line", line.decode("utf-8", errors="replace")))
                self._pending, self._pending_start = len(buffer), buffer[:80]
                if len(buffer) > MAX_LINE:
                    self._lines.put(Line("overflow"))
                    return
        finally:
            chunks.close()
        if buffer.strip():
            self._lines.put(Line("line", buffer.decode("utf-8", errors="replace")))
        self._lines.put(Line("eof"))

    def _read_stderr(self, fd: int) -> None:
        for chunk in self._chunks(fd):
            text = chunk.decode("utf-8", errors="replace")
            if len(self._head) < STDERR_HEAD:
                self._head += text[: STDERR_HEAD - len(self._head)]
            self._written += len(text)
            self._tail.append(text)

    def read_line(self, timeout: float) -> Line:
        """The next line of stdout, or ``eof`` / ``overflow`` / ``timeout``.

        Once the child has exited, what it wrote arrives within :data:`EXIT_GRACE` seconds,
        and after that the answer is ``eof``: a daemon it left holding its stdout (so the pipe
        never ends) does not make the runner wait out ``timeout``."""
        deadline = time.monotonic() + _bounded(timeout)
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            if exited_at is None and self.proc.poll() is not None:
                exited_at = now
            end = deadline if exited_at is None else min(deadline, exited_at + EXIT_GRACE)
            try:
                return self._lines.get(timeout=max(0.0, min(end - now, EXIT_POLL)))
            except queue.Empty:
                if time.monotonic() >= end:
                    return Line("timeout" if exited_at is None or end == deadline
                                else "eof")

    def unfinished_line(self) -> str | None:
        """What the child wrote to stdout after its last line end, when it wrote something:
        ``"37 bytes without a line end: '{"type":"result"…'"``; ``None`` otherwise.  An
        answer missing its ``\\n`` is never read as a line, so the runner says this instead
        of a bare timeout."""
        if not self._pending:
            return None
        start = self._pending_start.decode("utf-8", errors="replace")
        more = "…" if self._pending > len(self._pending_start) else ""
        return f"{self._pending} bytes without a line end: {start!r}{more}"

    def exit_status(self) -> int | None:
        """The child's exit status once it has exited (negative: killed by that signal)."""
        return self.proc.poll()

    def stderr_tail(self) -> str:
        """The last :data:`STDERR_TAIL` characters the child wrote to stderr."""
        return "".join(self._tail)[-STDERR_TAIL:]

    def stderr_excerpt(self, limit: int = 400) -> str:
        """What the child wrote to stderr, for an error message: whole lines, at most about
        ``limit`` characters, the first lines and the last ones with ``…`` between when it
        is longer (an exception's message is the first line of a Node.js or Java stack and
        the last line of a Python traceback).  ``""`` when it wrote nothing."""
        return excerpt(self._head, "".join(self._tail), self._written, limit)

    # ---------------------------------------------------------------- writing

    def send_text(self, text: str) -> bool:
        """Write ``text`` to the child's stdin; ``False`` if the child no longer reads."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode("utf-8"))
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def close_stdin(self) -> None:
        """Close the child's stdin (end of input)."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                self.proc.stdin.close()

    # ---------------------------------------------------------------- ending

    def exit_code(self) -> int | None:
        """The exit status, or ``None`` while the child runs."""
        return self.proc.poll()

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the child to exit; its status or ``None``."""
        try:
            return self.proc.wait(timeout=_bounded(timeout))
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the child and its whole process tree (:func:`.process_tree.kill_tree`),
        reap it, and let the reader threads read what is left in the pipes (at most
        :data:`READER_JOIN` seconds) before they stop."""
        # once reaped, the child's pid may be another process's: only its tree is killed
        kill_tree(self.proc.pid, self.token, root_alive=self.proc.poll() is None)
        self.close_stdin()
        self.wait(5.0)
        deadline = time.monotonic() + READER_JOIN
        for reader in self._readers:
            reader.join(max(0.0, deadline - time.monotonic()))
        self._stopped.set()

    def finish(self, grace: float) -> bool:
        """After ``stop``: wait ``grace`` seconds for a clean exit, then kill.

        Returns ``True`` if the child exited by itself.  The process group is
        killed either way, so nothing the child started outlives it.
        """
        deadline = time.monotonic() + grace
        self.close_stdin()
        clean = self.wait(deadline - time.monotonic()) is not None
        self.kill()
        return clean
