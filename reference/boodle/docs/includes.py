"""Pages made from the project's own Markdown: the spec, the protocol, the verification notes.

A page is the source file as it is, with its relative links rewritten: a
link to another file that is a page of the site points at that page; a
link to anything else (a Python module, a folder) becomes the path in code
text, so the site has no broken link.  A missing source file gives a page
that says so (the conformance protocol and the verification notes are
written by other parts of the project and may not exist yet).
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path

from boodle.conformance.paths import suite_dir
from boodle.docs.specref import checkout_root
from boodle.docs.templates import Templates
from boodle.language.variants import builtin_names
from boodle.resources import spec_prose

_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
_SCHEMA = re.compile(r"<!-- schema: (\w+) -->\n```json\n(.*?)\n```", re.S)


def site_map(root: Path) -> dict[str, str]:
    """Repository path → site page path, for every file the site shows."""
    pages = {f"spec/{p.name}": f"spec/{'index' if p.stem == 'README' else p.stem}.md"
             for p in sorted((root / "spec").glob("*.md")) if p.name != "verification.md"}
    pages["spec/verification.md"] = "reference/verification.md"
    pages["conformance/PROTOCOL.md"] = "reference/protocol.md"
    pages["grammar/boodle.lark"] = "reference/language.md"
    for name in builtin_names():
        pages[f"spec/variants/{name}.boodle"] = f"sources/{name}.md"
    return pages


def rewrite_links(text: str, source: str, page: str, pages: dict[str, str]) -> str:
    """Rewrite the relative links of ``text`` (from repo file ``source``) for site ``page``."""

    def one(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2)
        if re.match(r"^[a-z]+:|^#|^/", target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        if repo in pages:
            rel = posixpath.relpath(pages[repo], posixpath.dirname(page) or ".")
            return f"[{label}]({rel}{'#' + anchor if anchor else ''})"
        return label if label.strip("`") == repo else f"{label} (`{repo}`)"

    return _LINK.sub(one, text)


def fold_schemas(text: str, t: Templates) -> str:
    """``text`` (conformance/PROTOCOL.md) with each message's JSON Schema block (a ``json``
    fence after ``<!-- schema: NAME -->``, the schema file's ``$defs[NAME]``) folded in a
    closed ``<details>`` as plain preformatted text.  Highlighted, with the anchor and span
    of every line that the site's code blocks get, the 34 blocks were three quarters of the
    page's 394 KB of HTML, and a reader scrolled through them to find the prose."""

    def one(match: re.Match[str]) -> str:
        summary = t.text("page.protocol_schema", name=match.group(1))
        body = html.escape(match.group(2), quote=False)
        return (f'<details class="schema">\n<summary>{summary}</summary>\n'
                f"<pre><code>{body}</code></pre>\n</details>")

    return _SCHEMA.sub(one, text)


def shipped(source: str) -> Path | None:
    """Where an installed package keeps the copy of repo file ``source`` it ships (the
    spec's prose and the conformance suite's documents: ``pyproject.toml``'s
    force-include), or ``None``."""
    try:
        if source.startswith("spec/") and source.count("/") == 1:
            return spec_prose(source.removeprefix("spec/"))
        if source.startswith("conformance/"):
            return suite_dir() / source.removeprefix("conformance/")
    except FileNotFoundError:
        return None
    return None


def included_page(source: str, page: str, title: str, t: Templates) -> str:
    """The page made from repo file ``source`` of the checkout, else of the copy an
    installed package ships (:func:`shipped`), or a note that it does not exist."""
    root = checkout_root()
    path = root / source if root else shipped(source)
    if path is None or not path.is_file():
        return f"# {title}\n\n{t.text('page.included_missing', path=source)}\n"
    text = path.read_text(encoding="utf-8")
    return rewrite_links(text, source, page, site_map(root) if root else shipped_map())


def shipped_map() -> dict[str, str]:
    """:func:`site_map` without a checkout: the pages an installed package can make."""
    pages = {"spec/rules.md": "spec/rules.md", "spec/michigan.md": "spec/michigan.md",
             "conformance/PROTOCOL.md": "reference/protocol.md",
             "grammar/boodle.lark": "reference/language.md"}
    for name in builtin_names():
        pages[f"spec/variants/{name}.boodle"] = f"sources/{name}.md"
    return pages
