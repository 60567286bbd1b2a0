"""Attack the files boodle writes: hostile rules text in the docs, links and tampered manifests
in the folders ``docs build`` and ``conformance export`` write (issue 20, items 8 and 9).

    python bench/fuzz_files.py                      # 2,000 hostile rules files, 200 folders
    python bench/fuzz_files.py --texts 100 --folders 10 --seed 3

Hostile text: a built-in variant's rules file with every display string (title, about,
source, section and phase labels) replaced by random text built from markup fragments
(``<script>``, ``](javascript:…)``, ``{: onclick=… }``, ``<img onerror>``, entities, table
bars, backticks, headings, list marks).  Each file must build or be refused with a located
error; a built one's rules page, in every language, rendered as the site renders it, must
hold no live markup (:mod:`hostile_text`).

Folders: an output folder in which random paths boodle writes (``index.md``, ``sources/``,
``variants/…``, the manifest, ``cases/``, ``README.md``) are links to files and folders
outside it, FIFOs, or a manifest naming files outside; ``docs build`` (of one variant) and
``conformance export`` run on it.  Each must succeed or refuse with an error (never a
traceback), and nothing outside the folder may change (names, contents and modes of a
sentinel tree, compared before and after).

Exit status 1 on a crash, live markup, or a change outside the folder.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import re
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "reference"), str(ROOT / "tests" / "helpers")]

from boodle.cli import main as boodle  # noqa: E402
from boodle.docs import site  # noqa: E402
from boodle.docs.links import RuleRefs  # noqa: E402
from boodle.docs.templates import languages, load  # noqa: E402
from boodle.docs.variant_page import VariantPage  # noqa: E402
from boodle.language.build import load_text  # noqa: E402
from boodle.language.errors import BoodleError  # noqa: E402
from boodle.language.variants import builtin_names, builtin_path  # noqa: E402
from boodle.language.variants import load as load_variant  # noqa: E402
from hostile_text import live_markup  # noqa: E402

FRAGMENTS = [
    "<script>alert(1)</script>", "<script", "</script>", "](javascript:alert(2))",
    "[x](javascript:x)", "[y]: javascript:y", "<img src=x onerror=alert(3)>", "<b onclick=z>",
    "{: onclick=alert(4) }", "{: #id .c onmouseover=w }", "<iframe src=//e>", "<object>",
    "&lt;", "&amp;", "&#60;script&#62;", "|", "||", "`", "``", "*", "**", "_", "#", "# h",
    "1. ", "- ", "> ", "\\", "<!--", "-->", "<div markdown=1>", "</div>", "<", ">", "![i](j)",
    "<https://e.example>", "javascript:alert(5)", "JaVaScRiPt:", "&#x6A;avascript:", ":", ";",
]
"""Pieces of markup a rules author could write inside a display string."""

STRING = re.compile(r'"[^"\n]*"')
"""A display string of a rules file (a STRING holds no '"' and no line break)."""


def hostile_string(rng: random.Random) -> str:
    """Random text of 1 to 5 fragments with plain words between them."""
    parts = [rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 5))]
    words = ["Pot", "Chien", "a", "King", "x", " "]
    return "".join(p + rng.choice(words) for p in parts).replace('"', "'").replace("\n", " ")


def hostile_rules(name: str, rng: random.Random) -> str:
    """The rules file of built-in ``name`` with every display string made hostile."""
    text = builtin_path(name).read_text(encoding="utf-8")
    return STRING.sub(lambda _: f'"{hostile_string(rng)}"', text)


def fuzz_texts(texts: int, seed: int, log: Callable[[str], None]) -> dict[str, Any]:
    """``texts`` hostile rules files: counts of built and refused, crashes, live pages."""
    rng = random.Random(seed)
    names = builtin_names()
    templates = {lang: load(lang) for lang in languages()}
    seen: Counter[str] = Counter()
    crashes: list[str] = []
    live: list[str] = []
    for k in range(texts):
        name = rng.choice(names)
        text = hostile_rules(name, rng)
        try:
            rules = load_text(text, f"hostile-{k}.boodle")
        except BoodleError as err:
            seen["refused"] += 1
            if err.span is None:
                crashes.append(f"{name} #{k}: refused with no location: {err.message}")
            continue
        except Exception:  # a crash is the finding
            crashes.append(f"{name} #{k}: {traceback.format_exc(limit=3)}")
            continue
        seen["built"] += 1
        for lang, t in templates.items():
            try:
                page = VariantPage(rules, t, RuleRefs(t, rules.name, [])).markdown()
            except Exception:
                crashes.append(f"{name} #{k} ({lang}): {traceback.format_exc(limit=3)}")
                continue
            found = live_markup(page)
            if found:
                live.append(f"{name} #{k} ({lang}): {found[:3]}")
        if (k + 1) % 200 == 0:
            log(f"texts: {k + 1}/{texts} ({dict(seen)}), {len(crashes)} crashes, "
                f"{len(live)} live")
    return {"texts": texts, "seen": dict(seen), "crashes": crashes, "live": live}


# ---------------------------------------------------------------- folders

DOCS_PATHS = ["index.md", "sources", "variants", "variants/michigan.md", "sources/michigan.md",
              "examples", "spec", site.MANIFEST]
EXPORT_PATHS = ["README.md", "cases", "PROTOCOL.md", "schema", "variants", ".boodle-export.json"]


def _snapshot(root: Path) -> dict[str, tuple[int, str]]:
    """Every entry under ``root`` (links not followed): its mode and a digest of its bytes."""
    seen: dict[str, tuple[int, str]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        digest = ""
        if path.is_file() and not path.is_symlink():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        seen[str(path.relative_to(root))] = (st.st_mode, digest)
    return seen


def _outside(root: Path) -> Path:
    """A sentinel tree outside the output folder: files, a folder, a file boodle would write."""
    out = root / "outside"
    (out / "dir").mkdir(parents=True)
    for rel in ("a.md", "michigan.md", "dir/b.md", "README.md", "index.md"):
        (out / rel).write_text("not boodle's", "utf-8")
    (out / "ro.md").write_text("read only", "utf-8")
    (out / "ro.md").chmod(0o444)
    return out


def _plant(folder: Path, outside: Path, paths: list[str], rng: random.Random) -> list[str]:
    """Replace random ``paths`` of ``folder`` by links out, FIFOs or a hostile manifest."""
    done: list[str] = []
    for rel in rng.sample(paths, rng.randint(1, min(3, len(paths)))):
        target = folder / rel
        if any(p.is_symlink() or (p.exists() and not p.is_dir())
               for p in (folder / rel).parents if folder in p.parents):
            continue  # its folder is already a link, a FIFO or a file planted before
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.is_dir():
            continue
        kind = rng.choice(["link-file", "link-dir", "fifo", "manifest", "link-dangling"])
        if rel.endswith(".json") or kind == "manifest":
            names = ["../outside/a.md", str(outside / "michigan.md"), "../../etc/hostname",
                     "dir/../../outside/dir/b.md", "/etc/passwd", str(outside / "dir")]
            manifest = folder / (rel if rel.endswith(".json") else paths[-1])
            manifest.write_text(json.dumps({"files": rng.sample(names, 3)}), "utf-8")
            done.append(f"manifest {manifest.name}")
        elif kind == "link-file":
            target.symlink_to(outside / rng.choice(["a.md", "michigan.md", "ro.md"]))
            done.append(f"{rel} -> file outside")
        elif kind == "link-dir":
            target.symlink_to(outside / "dir", target_is_directory=True)
            done.append(f"{rel} -> folder outside")
        elif kind == "fifo":
            os.mkfifo(target)
            done.append(f"{rel} fifo")
        else:
            target.symlink_to(outside / "nowhere" / "x.md")
            done.append(f"{rel} -> dangling")
    return done


def _quiet(call: Callable[[], object]) -> tuple[object, str]:
    """``call()`` with its console output kept; a BoodleError is an answer, not a crash."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        try:
            return call(), sink.getvalue()
        except BoodleError as err:
            return f"refused: {err.message}", sink.getvalue()


def fuzz_folders(folders: int, seed: int, log: Callable[[str], None]) -> dict[str, Any]:
    """``folders`` attacked output folders for ``docs build`` and ``conformance export``."""
    rng = random.Random(seed)
    crashes: list[str] = []
    changed: list[str] = []
    seen: Counter[str] = Counter()
    one = [load_variant("michigan")]
    original = site.rulesets
    site.rulesets = lambda: one  # a one-variant site: the attack is on the folder
    try:
        for k in range(folders):
            with tempfile.TemporaryDirectory(prefix="boodle-fuzz-files-") as tmp:
                root = Path(tmp)
                outside = _outside(root)
                before = _snapshot(outside)
                docs = rng.random() < 0.5
                folder = root / ("docs" if docs else "suite")
                folder.mkdir()
                planted = _plant(folder, outside, DOCS_PATHS if docs else EXPORT_PATHS, rng)
                try:
                    if docs:
                        result, _ = _quiet(lambda f=folder: site.build_docs(f))
                    else:
                        result, _ = _quiet(lambda f=folder: boodle(["conformance", "export",
                                                                     str(f), "--force"]))
                    seen["refused" if isinstance(result, str) or result == 1 else "written"] += 1
                except Exception:
                    crashes.append(f"#{k} {planted}: {traceback.format_exc(limit=4)}")
                after = _snapshot(outside)
                if after != before:
                    diff = sorted(set(before.items()) ^ set(after.items()))
                    changed.append(f"#{k} {'docs' if docs else 'export'} {planted}: {diff[:3]}")
            if (k + 1) % 20 == 0:
                log(f"folders: {k + 1}/{folders} ({dict(seen)}), {len(crashes)} crashes, "
                    f"{len(changed)} changed outside")
    finally:
        site.rulesets = original
    return {"folders": folders, "seen": dict(seen), "crashes": crashes, "changed": changed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=2000, help="hostile rules files")
    parser.add_argument("--folders", type=int, default=200, help="attacked output folders")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    texts = fuzz_texts(args.texts, args.seed, print)
    folders = fuzz_folders(args.folders, args.seed, print)
    for title, found in (("crashes (texts)", texts["crashes"]), ("live markup", texts["live"]),
                         ("crashes (folders)", folders["crashes"]),
                         ("changed outside the folder", folders["changed"])):
        print(f"{title}: {len(found)}")
        for line in found[:10]:
            print("  " + line.replace("\n", "\n  "))
    print(f"texts: {texts['seen']}; folders: {folders['seen']}")
    bad = texts["crashes"] or texts["live"] or folders["crashes"] or folders["changed"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
