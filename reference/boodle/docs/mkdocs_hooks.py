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

Without a ``nav:`` mkdocs sorts the sidebar by file name (the examples
first, ``michigan-cadaco`` before ``michigan``); :func:`on_nav` puts the
variants first, in the site's order (:func:`boodle.docs.pages.site_order`:
the home profile first), then the comparison, the worked examples, the rules
files, the reference and the spec.

The pages that exist in English only (the spec, the DSL reference, the
conformance pages) fall back to English in the other languages' builds;
:func:`on_page_markdown` gives such a page its title in the reader's
language (which the navigation shows) and a first line that says the page
is in English.
"""

from __future__ import annotations

import functools
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

ENGLISH_ONLY_TITLES = {
    "reference/language.md": "page.dsl_title",
    "reference/cases.md": "page.cases_title",
    "reference/protocol.md": "page.protocol_title",
    "reference/verification.md": "page.verification_title",
    "spec/rules.md": "page.spec_rules_title",
    "spec/index.md": "page.spec_index_title",
    "spec/michigan.md": "page.spec_michigan_title",
}
"""English-only page → the template of its title in the other languages."""


def on_page_markdown(markdown: str, page: Any, config: Any, **kwargs: Any) -> str:
    """In another language's build, an English page's title in that language and a note."""
    lang = getattr(config["plugins"].get("i18n"), "current_language", None)
    if not lang or lang == DEFAULT_LANGUAGE or getattr(page.file, "locale", lang) == lang:
        return markdown
    from boodle.docs.templates import load

    t = load(lang)
    key = ENGLISH_ONLY_TITLES.get(page.file.src_uri)
    lines = markdown.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    note = ["", f"*{t.text('page.english_only_note')}*", ""]
    if at is None:
        return "\n".join(note + lines)
    if key is None and page.file.src_uri.startswith("reference/cases/"):  # a variant's cases
        title = t.text("page.cases_variant_title", variant=lines[at][2:].split(": ", 1)[-1])
        page.meta["title"] = title.replace("`", "")
        lines[at] = f"# {title}"
    elif key is not None:
        title = t.text(key)
        page.meta["title"] = title.replace("`", "")  # the navigation shows it as plain text
        lines[at] = f"# {title}"
    return "\n".join(lines[:at + 1] + note + lines[at + 1:])


_ID = re.compile(r'\bid="([^"]+)"')


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    """Add the ids of the page's HTML to the anchors mkdocs validates links against."""
    present = getattr(page, "present_anchor_ids", None)
    if isinstance(present, set):
        present.update(_ID.findall(html))
    return html


_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="([a-z]+)">')


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    """Point the head's language alternates at each language's root folder."""
    up = "../" * str(page.url).count("/") or "./"

    def root(match: re.Match[str]) -> str:
        lang = match.group(1)
        href = up + ("" if lang == DEFAULT_LANGUAGE else f"{lang}/")
        return f'<link rel="alternate" href="{href}" hreflang="{lang}">'

    return _ALTERNATE.sub(root, output)


SECTION_ORDER = ("index", "variants", "matrix", "examples", "sources", "reference", "spec")
"""The sidebar's order, by the folder (or page) of the site each entry holds."""


def _where(item: Any) -> str:
    """The site folder of a navigation entry (``variants``) or its page's name (``matrix``)."""
    file = getattr(item, "file", None)
    if file is not None:
        return str(file.src_uri).split("/")[0].split(".")[0]
    children = getattr(item, "children", None) or []
    return _where(children[0]) if children else ""


def _stem(item: Any) -> str:
    """A page's name without folder, language or ``.md``: ``variants/michigan.fr.md`` →
    ``michigan``."""
    file = getattr(item, "file", None)
    return str(file.src_uri).rsplit("/", 1)[-1].split(".")[0] if file is not None else ""


@functools.cache
def _variant_rank() -> dict[str, int]:
    from boodle.docs.pages import site_order
    from boodle.language.variants import builtin_names, load

    return {n: i for i, n in enumerate(site_order({n: load(n).base for n in builtin_names()}))}


NOT_IN_NAV = "reference/cases/"
"""The pages left out of the sidebar: the conformance cases of each variant (one entry per
variant, 60 and more), reached from the cases page and the rules' "pinned by" links.
(mkdocs.yml's ``not_in_nav`` says so too, but the i18n plugin builds its own sidebar.)"""


def _in_nav(item: Any) -> bool:
    file = getattr(item, "file", None)
    if file is not None:
        return not str(file.src_uri).startswith(NOT_IN_NAV)
    children = getattr(item, "children", None)
    if children:
        children[:] = [c for c in children if _in_nav(c)]
        return bool(children)
    return True


def on_nav(nav: Any, config: Any, files: Any, **kwargs: Any) -> Any:
    """The variants first (the home profile at their head), then the other sections; the
    pages of :data:`NOT_IN_NAV` left out."""
    rank = {name: i for i, name in enumerate(SECTION_ORDER)}
    nav.items[:] = [item for item in nav.items if _in_nav(item)]
    nav.items.sort(key=lambda item: rank.get(_where(item), len(rank)))
    variants = _variant_rank()
    for item in nav.items:
        children = getattr(item, "children", None)
        if children and _where(item) in ("variants", "examples", "sources"):
            children.sort(key=lambda c: (variants.get(_stem(c), len(variants)), _stem(c)))
    return nav
