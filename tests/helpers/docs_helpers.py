"""Helpers shared by the docs tests: build the whole site once per test run.

The site is generated (``boodle docs build``) and built by mkdocs with
``--strict`` into a temporary folder, once, however many test modules ask.
"""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "docs"
UPDATE_ENV = "BOODLE_UPDATE_GOLDEN"
UPDATE_COMMAND = f"{UPDATE_ENV}=1 python -m pytest -q tests/unit/test_docs_snapshots.py"


@cache
def built_site() -> tuple[Path, Path]:
    """``(docs, site)``: the generated Markdown and the strictly built HTML site."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from boodle.docs.site import build_docs

    tmp = Path(tempfile.mkdtemp(prefix="boodle-site-"))
    docs, site = tmp / "docs", tmp / "site"
    build_docs(docs)
    config = load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(site),
                         strict=True)
    build(config)  # raises mkdocs.exceptions.Abort on any warning (strict)
    return docs, site
