"""Rules text into Markdown as text, never as markup.

A rules file's display strings (title, about, sources, section and phase labels), a case's
description and an error message reach the pages inside Markdown that mkdocs renders with
raw HTML, ``attr_list`` and links enabled; written raw, ``<script>``, ``](javascript:…)`` or
``{: onclick=…}`` in a label would be live on the site.  Every such piece goes through
:func:`md` (running text, headings, list items), :func:`cell` (a table cell) or
:func:`code` (a code span); the templates themselves are trusted and never escaped.

Text without any of the escaped characters comes back unchanged, so the pages of the
built-in variants (plain words) are byte-identical with or without escaping.
"""

from __future__ import annotations

import re

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
"""Characters that would start raw HTML or an entity, as entities."""

_PUNCT = "\\`*_[]{}|"
"""Markdown punctuation that would start a code span, emphasis, a link or image
(``[``/``]``), an attribute list (``{``/``}``) or a table column (``|``), escaped with a
backslash (Python-Markdown's escapable characters, ``|`` with the tables extension)."""

_MD = re.compile("[" + re.escape("".join(_HTML) + _PUNCT) + "]")
_BLOCK_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")
"""What at the start of a line would make a heading, quote, list or rule of text."""


def md(text: str) -> str:
    """``text`` (rules text, one line or more) as literal Markdown inline text.

    ``&<>`` become entities, ``\\`*_[]{}|`` get a backslash, and a line starting like a
    block (``# ``, ``- ``, ``> ``, ``1. ``) gets its first character escaped, so what a reader
    sees is exactly ``text``.
    """
    out = _MD.sub(lambda m: _HTML.get(m.group(), "\\" + m.group()), text)
    return "\n".join(_BLOCK_START.sub(_escape_block, line) for line in out.split("\n"))


def _escape_block(m: re.Match[str]) -> str:
    mark = m.group(2)
    return m.group(1) + ("\\" + mark if not mark[0].isdigit() else mark[:-1] + "\\" + mark[-1])


def cell(text: str) -> str:
    """``text`` as one Markdown table cell: :func:`md` on one line (a line break would end
    the row); a non-breaking space stays (French typography, before ``:``)."""
    return md(re.sub(r"[ \t\r\n]+", " ", text).strip())


def code(text: str) -> str:
    """``text`` as an inline code span: fenced by more backticks than it holds in a row
    (padded with spaces where it starts or ends with one), on one line.  Inside a code
    span nothing is markup, so no other escape is needed."""
    text = " ".join(text.split("\n"))
    run = max((len(r) for r in re.findall("`+", text)), default=0)
    fence = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
