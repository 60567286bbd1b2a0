"""mkdocs hooks of the rules site (``hooks:`` in ``mkdocs.yml``).

mkdocs-material fetches ``sitemap.xml`` under every ``<link rel="alternate"
hreflang>`` of a page's head, expecting each to be a language's root;
mkdocs-static-i18n points them at the page itself in each language, and it
builds the other languages into ``site/LANG/`` without a sitemap.  Both give
404s, which are console errors.  :func:`on_post_page` points the head links
at the language roots (the visible language switcher still goes to the same
page), and :func:`on_post_build` gives every language folder the sitemap.

mkdocs checks the ``#anchor`` of every link against the ids it finds while
converting a page's Markdown, before pymdownx.highlight writes the numbered
lines of a rules file (``__codelineno-0-12``) into the HTML; so every rule's
link to its line looked broken (one INFO line each).
:func:`on_page_content` adds the ids of the finished HTML, so mkdocs finds
those anchors and still reports any anchor that is really missing.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any


def on_post_build(config: Any, **kwargs: Any) -> None:
    """Copy ``sitemap.xml`` (and its ``.gz``) into every language folder that lacks one."""
    site = Path(config["site_dir"])
    for lang in config.get("extra", {}).get("alternate", []) or []:
        folder = site / str(lang.get("link", "")).strip("/").split("/")[-1]
        if folder == site or not folder.is_dir():
            continue
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            if (site / name).is_file() and not (folder / name).is_file():
                shutil.copyfile(site / name, folder / name)


_ID = re.compile(r'\bid="([^"]+)"')


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    """Add the ids of the page's HTML to the anchors mkdocs validates links against."""
    present = getattr(page, "present_anchor_ids", None)
    if isinstance(present, set):
        present.update(_ID.findall(html))
    return html


DEFAULT_LANGUAGE = "en"
_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="([a-z]+)">')


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    """Point the head's language alternates at each language's root folder."""
    up = "../" * str(page.url).count("/") or "./"

    def root(match: re.Match[str]) -> str:
        lang = match.group(1)
        href = up + ("" if lang == DEFAULT_LANGUAGE else f"{lang}/")
        return f'<link rel="alternate" href="{href}" hreflang="{lang}">'

    return _ALTERNATE.sub(root, output)
