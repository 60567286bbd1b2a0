"""What a browser would run or follow in a page made from hostile rules text (issue 20, item 8).

Used by ``tests/unit/test_docs_hostile.py`` and ``bench/fuzz_files.py``: a page is rendered
by Python-Markdown with the extensions of the site's ``mkdocs.yml`` and the HTML searched for
live scripts, elements a rules file cannot mean (``<img>``, ``<b>``, ``<iframe>``,
``<object>``), event handlers and ``javascript:`` links.
"""

from __future__ import annotations

from html.parser import HTMLParser

import markdown

EXTENSIONS = ["tables", "attr_list", "md_in_html", "toc"]
"""The Markdown extensions of the site (mkdocs.yml) that can turn text into markup."""


class Live(HTMLParser):
    """Collects what would run or navigate in a browser, and the text of the first heading."""

    def __init__(self) -> None:
        super().__init__()
        self.live: list[str] = []
        self.heading: list[str] = []
        self._in_h1 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "img", "b", "iframe", "object"):
            self.live.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.live.append(f"{tag} {name}={value}")
            if name in ("href", "src") and (value or "").strip().lower().startswith("javascript"):
                self.live.append(f"{tag} {name}={value}")
        self._in_h1 = tag == "h1"

    def handle_endtag(self, tag: str) -> None:
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._in_h1:
            self.heading.append(data)


def render(page: str) -> tuple[str, Live]:
    """``page`` (Markdown) as the site renders it: its HTML, and what is live in it.  Its
    front matter is read as mkdocs reads it, and its ``title`` put in the HTML as it is (the
    sidebar and the browser's tab show it so)."""
    from mkdocs.utils.meta import get_data

    body, meta = get_data(page)
    html = f"<span>{meta.get('title', '')}</span>" + markdown.markdown(body, extensions=EXTENSIONS)
    parser = Live()
    parser.feed(html)
    return html, parser


def live_markup(page: str) -> list[str]:
    """What would run or navigate in ``page``: ``[]`` for an inert page.  A ``<script`` in
    the HTML counts even where the parser sees none (as text it is ``&lt;script``)."""
    html, parser = render(page)
    return parser.live + (["<script (raw)"] if "<script" in html else [])
