"""``boodle simulate`` bounded by the work in flight, and a Dask scheduler that is not one
(issue 20, items 10 and 13).

``--deals 1000000000000`` built every chunk before playing one (13.8 GB after 60 s); a
``--scheduler`` that answers HTTP hung past ``--connect-timeout``, and one that answered at
once (a proxy) was a MemoryError, exit 3.  Servers here listen on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from boodle.language.variants import load
from boodle.simulate.runner import chunks, make_spec, run, run_dask

HUGE = 10**9
"""Deals: 2.5·10⁸ sessions of Michigan for 4, 5·10⁵ chunks of 2,000 deals; enough that a
list of every chunk shows in the memory, small enough that building it would not hurt."""


class _Enough(Exception):
    """Raised by the progress callback to stop a run after its first chunks."""


def _stop_after(n: int) -> tuple[list[int], object]:
    seen: list[int] = []

    def progress(deals: int) -> None:
        seen.append(deals)
        if len(seen) >= n:
            raise _Enough

    return seen, progress


def _peak_bytes(workers: int) -> int:
    spec = make_spec(load("michigan"), 4, HUGE, 1, ["random"], "compiled")
    seen, progress = _stop_after(2)
    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            run(spec, workers=workers, progress=progress)  # type: ignore[arg-type]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        assert seen == [2000, 2000]  # two chunks of 500 whole sessions of 4 deals


def test_chunks_are_made_as_they_are_asked_for() -> None:
    spec = make_spec(load("michigan"), 4, HUGE, 1, ["random"], "compiled")
    parts = chunks(spec)
    assert next(parts) == (0, 500) and next(parts) == (500, 1000)  # at once, not 5·10⁵ first


@pytest.mark.parametrize("workers", [1, 2])
def test_memory_is_bounded_by_the_chunks_in_flight(workers: int) -> None:
    # a list of 5·10⁵ chunks alone is about 60 MB; the chunks in flight are a few kB
    assert _peak_bytes(workers) < 8 * 2**20


def test_dask_submits_chunks_as_others_finish() -> None:
    from dask.distributed import Client, LocalCluster

    spec = make_spec(load("michigan"), 4, 400, 1, ["random"], "compiled")  # 25 chunks of 16
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        submitted: list[int] = []
        real = client.submit

        def counting(*args: object, **kw: object) -> object:
            submitted.append(1)
            return real(*args, **kw)

        client.submit = counting  # type: ignore[method-assign]
        in_flight_when_done: list[int] = []
        done: list[int] = []

        def progress(deals: int) -> None:
            done.append(deals)
            in_flight_when_done.append(len(submitted) - len(done))

        stats = run_dask(spec, client, progress, chunk_deals=16, in_flight=3)
    assert sum(done) == 400 and len(submitted) == 25
    assert max(in_flight_when_done) <= 3  # never the 25 at once
    assert stats == run(spec, chunk_deals=16)


# ---------------------------------------------------------------- a scheduler that is not one


@pytest.fixture
def http_server() -> Iterator[str]:
    """An HTTP server on 127.0.0.1 that waits for a request (as any web server does)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def answering_server() -> Iterator[str]:
    """A server on 127.0.0.1 that answers HTTP as soon as one connects (a proxy does)."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                time.sleep(0.2)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    listener.close()


def _simulate(address: str) -> subprocess.CompletedProcess[str]:
    """``boodle simulate … --scheduler ADDRESS --connect-timeout 1`` in a process of its own,
    killed after 90 s (before the fix it hung for good)."""
    code = "import sys; from boodle.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, "simulate", "michigan", "--players", "4", "--deals", "5",
         "--backend", "dask", "--scheduler", address, "--connect-timeout", "1"],
        capture_output=True, text=True, timeout=90, check=False)


def test_a_scheduler_address_where_http_waits_is_refused_in_time(http_server: str) -> None:
    done = _simulate(http_server)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"error: --scheduler {http_server}: cannot connect to a "
                                  "Dask scheduler: no answer within 1 s")
    assert "internal error" not in done.stderr


def test_a_scheduler_address_that_answers_http_is_refused(answering_server: str) -> None:
    done = _simulate(answering_server)
    assert done.returncode == 1, done.stderr
    assert "which is not Dask's protocol" in done.stderr and "HTTP/1.1" in done.stderr
    assert "MemoryError" not in done.stderr and "internal error" not in done.stderr


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (proc / "stat").read_text()
                if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                    found.append(int(proc.name))
    return found


def _alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return (Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]) != "Z"
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_simulate_alone_stops_it_and_its_workers_at_once(sig: int) -> None:
    """A SIGINT or SIGTERM sent to ``simulate --workers 2`` alone (not to its process
    group, as ``timeout``, ``kill`` or a supervisor do): before, SIGINT waited for the four
    chunks in flight (minutes with the reference engine) and SIGTERM left both workers
    playing on.  Now the workers are ended and the run stops within seconds."""
    code = "import sys; from boodle.cli import main; sys.exit(main(sys.argv[1:]))"
    child = subprocess.Popen(
        [sys.executable, "-c", code, "simulate", "michigan", "--players", "4", "--deals",
         str(10**12), "--workers", "2", "--engine", "reference", "--no-progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(_children(child.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = _children(child.pid)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(2)  # the first chunks are being played (2,000 deals each: many seconds)
        child.send_signal(sig)
        asked = time.monotonic()
        child.wait(60)
        waited = time.monotonic() - asked
        while any(_alive(w) for w in workers) and time.monotonic() < asked + 60:
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
        assert left == [], f"workers left playing after the run ended: {left}"
        assert waited < 15, f"{waited:.0f} s from the signal to the end"
        err = child.stderr.read().decode() if child.stderr else ""
        assert "internal error" not in err and "Traceback" not in err, err
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
