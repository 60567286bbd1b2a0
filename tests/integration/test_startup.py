"""Start-up: a command imports what it needs when it runs, and the parser's tables are cached.

Speed itself is measured in ``bench/run.py`` (``startup``), never here: these tests pin what
makes start-up quick, which a change can break without anyone timing it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

import boodle
from boodle.language.grammar import CURRENT_TEXT, GluedKeyword, build_parser
from boodle.resources import cache_dir, variants_dir

HEAVY = ("pokerkit", "z3", "matplotlib", "dask", "jsonschema", "pygls", "lsprotocol")
"""Packages no listing or checking command needs: poker hands, proofs, plots, a cluster,
schemas, the language server (pokerkit alone cost 0.26 s of CPU at every start, issue 23;
lsprotocol's types 1.5 s)."""

_IMPORTED = """
import contextlib, io, json, sys
from boodle.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        status = main(sys.argv[1:])
    except SystemExit as exc:
        status = exc.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def _env(cache: Path) -> dict[str, str]:
    """This checkout's boodle first on the path, and the cache in ``cache``."""
    here = str(Path(boodle.__file__).resolve().parent.parent)
    path = os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, "PYTHONPATH": path, "XDG_CACHE_HOME": str(cache)}


def _imported(args: list[str], cache: Path, cwd: Path | None = None) -> tuple[object, set[str]]:
    done = subprocess.run([sys.executable, "-c", _IMPORTED, *args], capture_output=True,
                          text=True, env=_env(cache), cwd=cwd, check=True)
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return data["status"], {m.split(".")[0] for m in data["modules"]}


@pytest.mark.parametrize("args", [["--help"], ["check", "michigan"], ["variants"]])
def test_listing_and_checking_import_no_heavy_package(args: list[str], tmp_path: Path) -> None:
    status, top = _imported(args, tmp_path / "cache")
    assert status == 0
    assert sorted(top & set(HEAVY)) == []


def test_help_does_not_load_the_grammar(tmp_path: Path) -> None:
    _, top = _imported(["--help"], tmp_path / "cache")
    assert "lark" not in top


def test_check_writes_its_cache_in_the_cache_folder_only(tmp_path: Path) -> None:
    """The parse tables go to ``$XDG_CACHE_HOME/boodle``: nothing in the current folder
    (nor in the package, which may be read-only site-packages); a second run reads them."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    package = Path(boodle.__file__).resolve().parent
    before = sorted(p.name for p in package.rglob("*.lark"))
    assert _imported(["check", "michigan"], cache, cwd=work)[0] == 0
    assert list(work.iterdir()) == []
    written = sorted(p.name for p in (cache / "boodle").iterdir())
    assert len(written) == 1 and written[0].startswith("grammar-start-")
    assert written[0].endswith(".lark")
    stamp = (cache / "boodle" / written[0]).stat().st_mtime_ns
    assert _imported(["check", "michigan"], cache, cwd=work)[0] == 0
    assert (cache / "boodle" / written[0]).stat().st_mtime_ns == stamp  # read, not rewritten
    assert sorted(p.name for p in package.rglob("*.lark")) == before


def test_no_cache_folder_to_write_is_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    """``XDG_CACHE_HOME`` naming a file: no cache folder, and ``check`` works all the same."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert cache_dir() is None
    work = tmp_path / "work"
    work.mkdir()
    assert _imported(["check", "michigan"], blocker, cwd=work)[0] == 0
    assert list(work.iterdir()) == []


def test_a_relative_cache_home_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """The XDG base directory specification: a relative path is invalid, so the default
    ``~/.cache`` is used, never a folder under the current one."""
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert cache_dir() == tmp_path / ".cache" / "boodle"


def _parse(parser: Lark, text: str) -> list[tuple[object, ...]]:
    """Every subtree of the parse of ``text`` with where it was written (a tree's equality
    leaves its positions out, and the errors' carets need them)."""
    token = CURRENT_TEXT.set(text)
    try:
        tree = parser.parse(text)
    finally:
        CURRENT_TEXT.reset(token)
    return [(t.data, t.children, t.meta.line, t.meta.column, t.meta.end_line,
             t.meta.end_column) for t in tree.iter_subtrees()]


def test_cached_and_fresh_parsers_read_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """A parser built, one read back from its cache file, one built without a cache and one
    built over a garbled cache file give the same tree, positions included, and all refuse
    a keyword glued to more letters (``onn``: the boundary check is in place however the
    parser was made)."""
    text = (variants_dir() / "michigan.boodle").read_text(encoding="utf-8")
    glued = text.replace("on kitty", "onn kitty", 1)
    assert glued != text
    built = build_parser("start", tmp_path)
    (file,) = tmp_path.iterdir()
    loads: list[object] = []
    load = Lark.load

    def counted(f: object) -> Lark:
        loads.append(f)
        return load(f)

    monkeypatch.setattr(Lark, "load", counted)
    cached = build_parser("start", tmp_path)
    assert len(loads) == 1
    monkeypatch.setattr(Lark, "load", load)
    fresh = build_parser("start", None)
    file.write_bytes(b"garbage")
    over_garbage = build_parser("start", tmp_path)
    with file.open("rb") as f:
        assert isinstance(Lark.load(f), Lark)  # rewritten whole
    for parser in (built, cached, fresh, over_garbage):
        assert _parse(parser, text) == _parse(built, text)
        with pytest.raises(GluedKeyword):
            _parse(parser, glued)


def _help(parser: object, words: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    import argparse

    assert isinstance(parser, argparse.ArgumentParser)
    with pytest.raises(SystemExit):
        parser.parse_args(words)
    return capsys.readouterr().out


def test_a_command_builds_its_own_parser_alone_and_the_same(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``boodle check …`` builds the parser of ``check`` alone (the others' modules are not
    imported): the list of commands is the full parser's, and each command's help, and so
    its options, is the same either way."""
    from boodle.cli import COMMANDS, _commands, _parser

    assert list(COMMANDS) == _commands(_parser())
    for name in COMMANDS:
        assert _commands(_parser(name)) == [name]
        assert _help(_parser(name), [name, "--help"], capsys) == \
            _help(_parser(), [name, "--help"], capsys)


@pytest.mark.parametrize("args", [["--help"], ["check", "michigan"]])
def test_help_and_check_import_no_engine_stage(args: list[str], tmp_path: Path) -> None:
    """``check`` asks the engine what it cannot play yet (``boodle.engine.support``) and
    nothing more: the stage machine, the events and the deal state are not imported; nor
    is the printer the diff of a file with ``extends`` uses (michigan extends nothing)."""
    done = subprocess.run([sys.executable, "-c", _IMPORTED, *args], capture_output=True,
                          text=True, env=_env(tmp_path / "cache"), check=True)
    modules = set(json.loads(done.stdout.strip().splitlines()[-1])["modules"])
    heavy = {"boodle.engine.machine", "boodle.engine.events", "boodle.engine.state",
             "boodle.engine.api", "boodle.language.printer", "boodle.conformance.wire"}
    assert sorted(modules & heavy) == []


def _lark_own(parser: Lark) -> Lark:
    """``parser`` with Lark's own scanners back (the instance's builder removed)."""
    lexer = parser.parser.lexer
    for basic in [*lexer.lexers.values(), lexer.root_lexer]:
        basic.__dict__.pop("_build_scanner", None)
        basic._scanner = None
    return parser


def test_terminal_scanners_read_as_lark_scanners(tmp_path: Path) -> None:
    """:class:`~boodle.language.grammar.TerminalScanner` gives Lark's matches: every
    built-in variant parses to the same tree, positions included, as with Lark's own
    scanners; and for every lexer state of the grammar, both scanners find the same token
    (or none) at every token start of michigan's text and at every character of a
    line of garbled text, keywords glued to words included."""
    from lark.lexer import Scanner, TextSlice

    from boodle.language.grammar import TerminalScanner
    from boodle.language.variants import builtin_names, builtin_path

    ours = build_parser("start", None)
    theirs = _lark_own(build_parser("start", None))
    for name in builtin_names():
        text = builtin_path(name).read_text(encoding="utf-8")
        assert _parse(ours, text) == _parse(theirs, text), name
    michigan = (variants_dir() / "michigan.boodle").read_text(encoding="utf-8")
    starts = sorted({t.start_pos for t in theirs.lex(michigan) if t.start_pos is not None})
    garbled = "phase stopsx { lead: 10h ♥️ onn kitty, 2 chips 1000000000000 \"x\" }\t# c\n"
    texts = [(michigan, starts), (garbled, list(range(len(garbled))))]
    lexers = {id(b): b for b in theirs.parser.lexer.lexers.values()}.values()
    compared = 0
    for basic in lexers:
        terminals = basic.terminals
        lark_scanner = Scanner(terminals, basic.g_regex_flags, basic.re, False)
        our_scanner = TerminalScanner(terminals, basic.g_regex_flags, basic.re, False)
        assert our_scanner.allowed_types == lark_scanner.allowed_types
        for text, positions in texts:
            whole = TextSlice.cast_from(text)
            for pos in positions:
                assert our_scanner.match(whole, pos) == lark_scanner.match(whole, pos)
                compared += 1
    assert compared > 10_000
