"""The language server's diagnostics after a one-line edit of the largest shipped variant.

Target (issue 22): the server publishes the diagnostics of the largest built-in variant
within 50 ms of CPU after a one-line edit.  Two measures, each the median of ``--rounds``
edits (the edit alternates: a word of a line respelt, then put back, so that every round
is a real change and half the rounds have an error to report):

- ``in process``: :func:`boodle.lsp.analysis.analyse` alone, CPU time of this process;
- ``server``: ``boodle lsp`` started as an editor starts it, driven over stdio by pygls'
  client; the CPU the server process spends from the ``didChange`` to the diagnostics
  it publishes (its user and system time, read from ``/proc``; Linux only), the debounce
  wait excluded since sleeping costs no CPU.  The wall time is printed too: it moves with
  the machine's load and includes the debounce (``DEBOUNCE_S``).

Run from the repository root (``PYTHONPATH=reference`` in a checkout)::

    python bench/lsp_bench.py               # 20 rounds
    python bench/lsp_bench.py --rounds 5

Not part of the unit tests (the tests pin behaviour, not speed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from boodle.lsp.analysis import analyse
from boodle.lsp.server import DEBOUNCE_S
from boodle.resources import variants_dir

TARGET_MS = 50.0


def largest_variant() -> Path:
    """The built-in variant with the most text."""
    return max(variants_dir().glob("*.boodle"), key=lambda p: len(p.read_bytes()))


def largest_house_rule() -> Path:
    """The built-in variant that ``extends`` another with the most text (its base is
    built too: once, then kept while the base file is unchanged)."""
    return max((p for p in variants_dir().glob("*.boodle")
                if " extends " in p.read_text(encoding="utf-8").split("{", 1)[0]),
               key=lambda p: len(p.read_bytes()))


def players_line(text: str) -> int:
    """The 0-based number of the variant's ``players`` line."""
    return next(n for n, x in enumerate(text.split("\n")) if x.lstrip().startswith("players"))


def edited(text: str, round_: int) -> str:
    """``text`` with one line edited: even rounds respell ``players`` on its line (an error
    the server reports with a hint), odd rounds leave the original line."""
    if round_ % 2:
        return text
    lines = text.split("\n")
    at = players_line(text)
    lines[at] = lines[at].replace("players", "palyers", 1)
    return "\n".join(lines)


def in_process(text: str, path: str, rounds: int) -> list[float]:
    """CPU milliseconds of :func:`analyse` for each edited text."""
    analyse(text, path)  # the parser's tables loaded, the templates read
    out = []
    for i in range(rounds):
        changed = edited(text, i)
        start = time.process_time()
        analyse(changed, path)
        out.append((time.process_time() - start) * 1000)
    return out


def _cpu_s(pid: int) -> float:
    """The CPU seconds (user and system) process ``pid`` has used (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return ticks / os.sysconf("SC_CLK_TCK")


async def through_server(text: str, path: Path, rounds: int) -> tuple[list[float], list[float]]:
    """(server CPU ms, wall ms) from each ``didChange`` to its diagnostics."""
    client = LanguageClient("lsp-bench", "1")
    published: asyncio.Queue[lsp.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    await client.start_io(sys.executable, "-c", "import sys; from boodle.cli import main; "
                          "sys.exit(main(['lsp']))")
    server = client._server  # the asyncio subprocess pygls started
    assert server is not None
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = from_fs_path(str(path))
    assert uri is not None
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="boodle", version=1,
                                           text=text)))
    await published.get()
    cpu, wall = [], []
    original, line = text, players_line(text)
    for i in range(rounds):
        lines = text.split("\n")
        new_line = edited(original, i).split("\n")[line]
        before_cpu, before = _cpu_s(server.pid), time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=i + 2),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=0),
                                end=lsp.Position(line=line, character=len(lines[line]))),
                text=new_line)]))
        got = await asyncio.wait_for(published.get(), 30)
        wall.append((time.perf_counter() - before) * 1000)
        cpu.append((_cpu_s(server.pid) - before_cpu) * 1000)
        text = edited(original, i)
        assert bool(got.diagnostics) == (i % 2 == 0), got.diagnostics
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return cpu, wall


def _split(times: list[float]) -> str:
    """The medians of the rounds with an error (even) and without (odd)."""
    return (f"with the error {statistics.median(times[0::2]):.1f}, "
            f"clean {statistics.median(times[1::2]):.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    path = largest_variant()
    text = path.read_text(encoding="utf-8")
    print(f"{path.name}: {len(text.splitlines())} lines, {len(text)} characters; "
          f"target {TARGET_MS:.0f} ms of CPU; load average {os.getloadavg()[0]:.2f}")
    local = in_process(text, str(path), args.rounds)
    print(f"in process: analyse   median {statistics.median(local):6.1f} ms CPU  "
          f"max {max(local):6.1f}; {_split(local)}")
    house = largest_house_rule()
    house_text = house.read_text(encoding="utf-8")
    analyse(house_text, str(house))
    times = []
    for i in range(args.rounds):
        changed = house_text.replace("title", "titel", 1) if i % 2 == 0 else house_text
        start = time.process_time()
        analyse(changed, str(house))
        times.append((time.process_time() - start) * 1000)
    print(f"in process, the largest house rule ({house.name}): median "
          f"{statistics.median(times):6.1f} ms CPU; {_split(times)}")
    if Path("/proc/self/stat").is_file():
        cpu, wall = asyncio.run(through_server(text, path, args.rounds))
        print(f"server: edit → diagnostics median {statistics.median(cpu):6.1f} ms CPU  "
              f"max {max(cpu):6.1f} (clock ticks of 1/{os.sysconf('SC_CLK_TCK')} s); "
              f"{_split(cpu)}; "
              f"wall median {statistics.median(wall):6.1f} ms, debounce "
              f"{DEBOUNCE_S * 1000:.0f} ms included")
        verdict = statistics.median(cpu) <= TARGET_MS
    else:
        verdict = statistics.median(local) <= TARGET_MS
    print("target met" if verdict else "TARGET MISSED")
    return 0 if verdict else 1


if __name__ == "__main__":
    sys.exit(main())
