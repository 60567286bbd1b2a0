"""Helpers shared by the docs tests: build the whole site once per test run.

The site is generated (``boodle docs build``) and built by mkdocs with
``--strict`` into a temporary folder, once, however many test modules ask.
"""

from __future__ import annotations

import logging
import re
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "docs"
UPDATE_ENV = "BOODLE_UPDATE_GOLDEN"
UPDATE_COMMAND = f"{UPDATE_ENV}=1 python -m pytest -q tests/unit/test_docs_snapshots.py"


BUILD_LOG: list[str] = []
"""Every message mkdocs logged (INFO and above) while :func:`built_site` built the site."""


class _Collect(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        BUILD_LOG.append(record.getMessage())


@cache
def built_site() -> tuple[Path, Path]:
    """``(docs, site)``: the generated Markdown and the strictly built HTML site."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from boodle.docs.site import HOOKS, build_docs

    tmp = Path(tempfile.mkdtemp(prefix="boodle-site-"))
    docs, site = tmp / "docs", tmp / "site"
    build_docs(docs)
    logger, handler = logging.getLogger("mkdocs"), _Collect(logging.INFO)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        config = load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(site),
                             hooks=[str(docs / HOOKS)], strict=True)
        build(config)  # raises mkdocs.exceptions.Abort on any warning (strict)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return docs, site


_PLACEHOLDER = re.compile(r"\{[^}]*\}")


def english_fragments(lang: str, min_words: int = 3) -> set[str]:
    """The English wording a page in ``lang`` must not show: every run of at least
    ``min_words`` words of an English template (between its placeholders and punctuation)
    that ``lang`` words differently, and the built-in variants' English titles, descriptions
    and labels that ``lang`` translates."""
    from boodle.docs.templates import load
    from boodle.docs.translate import labels_of
    from boodle.language.variants import builtin_names
    from boodle.language.variants import load as load_variant

    en, t = load("en"), load(lang)
    texts = [v for k, v in en.table.items()
             if not k.startswith(("dsl.", "dsl_example.")) and t.table.get(k) != v]
    for name in builtin_names():
        r = load_variant(name)
        texts += [x for x, key in ((r.title, f"variants.{name}.title"),
                                   (r.about, f"variants.{name}.about")) if t.table.get(key) != x]
        texts += [x for x in labels_of(r) if t.table.get(f"label.{x}") != x and " " in x]
    found: set[str] = set()
    for text in texts:
        for part in _PLACEHOLDER.split(text):
            for frag in (f.strip() for f in re.split(r"[`*()\[\]:;.,]", part)):
                if len(frag.split()) >= min_words or (frag in texts and " " in frag):
                    found.add(frag)
    return found


def page_text(markdown: str) -> str:
    """What a reader reads of a generated page: no front matter, code, link targets, HTML tags or
    identifiers of conformance cases (their link texts)."""
    text = re.sub(r"\A---\n.*?\n---\n", "", markdown, flags=re.S)  # front matter
    text = re.sub(r"^(`{3,}).*?^\1", "", text, flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"\[[a-z0-9.-]+\]", "", text)  # case ids, rules-file lines
    return re.sub(r"<[^>]+>", " ", text)
