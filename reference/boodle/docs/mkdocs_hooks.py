"""mkdocs hooks of the rules site (``hooks:`` in ``mkdocs.yml``).

mkdocs-material fetches ``sitemap.xml`` under every ``<link rel="alternate"
hreflang>`` of a page's head, expecting each to be a language's root;
mkdocs-static-i18n points them at the page itself in each language, and it
builds the other languages into ``site/LANG/`` without a sitemap.  Both give
404s, which are console errors.  :func:`on_post_page` points the head links
at the language roots (the visible language switcher still goes to the same
page), and :func:`on_post_build` gives every language folder the sitemap.
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
