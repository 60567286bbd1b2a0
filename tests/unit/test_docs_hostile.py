"""Hostile rules text in the docs (issue 20, item 8): a rules file's words are text, never markup.

A title, about, source, section label or phase label holding ``<script>``, a
``](javascript:…)`` link, an ``<img onerror>`` or an ``attr_list`` ``{: onclick=… }`` must
reach the reader as the characters written, in every page the docs make of a ruleset
(``boodle docs page``, the site's variant, example, index and matrix pages, the cases page).
Each page is rendered by Python-Markdown with the site's extensions (mkdocs.yml) and the
HTML is searched for live scripts, event handlers and ``javascript:`` links.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.docs.escape import code, md
from boodle.docs.links import RuleRefs
from boodle.docs.pages import cases_pages, index_page, matrix_page
from boodle.docs.site import pages
from boodle.docs.specref import Case
from boodle.docs.templates import languages, load
from boodle.docs.variant_page import VariantPage
from boodle.language.build import load_text
from boodle.language.model import Ruleset
from hostile_text import live_markup, render

ROOT = Path(__file__).resolve().parents[2]

EVIL = {
    "title": "T<script>alert(1)</script>](javascript:alert(2)) {: onclick=alert(3) }",
    "about": "- <img src=x onerror=alert(4)> [a](javascript:alert(5)) &amp; *b* <b>c</b>",
    "source": "x`<script>s</script>`y](javascript:z)",
    "pot": "P<script>ot</script>](javascript:x)",
    "chien": "C<b onclick=alert(6)>hien</b>|x|",
    "king-queen": "K[q](javascript:k) {: onclick=alert(7) }",
    "hearts": "H<script>e</script>",
    "poker": "[P](javascript:p)",
    "stops": "S`<script>`*s*",
}
"""Hostile text for every display string of a rules file (no ``"``: a STRING cannot hold one)."""


def _hostile_rules() -> str:
    """Tripoli's rules file (holding, poker and stops phases; boodles, sets and a pot) with
    every display string replaced by hostile text."""
    text = (ROOT / "spec" / "variants" / "tripoli.boodle").read_text(encoding="utf-8")
    e = EVIL
    for old, new in (('"Tripoli"', f'"{e["title"]}"'),
                     ('"Hearts boodles paid', f'"{e["about"]} Hearts boodles paid'),
                     ('"004_55272b78a005a92e.txt"', f'"{e["source"]}"'),
                     ('"Pot"', f'"{e["pot"]}"'), ('"Chien"', f'"{e["chien"]}"'),
                     ('"King-Queen"', f'"{e["king-queen"]}"'),
                     ('"Hearts" is', f'"{e["hearts"]}" is'), ('"Poker" is', f'"{e["poker"]}" is'),
                     ('"Stops" is', f'"{e["stops"]}" is')):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text.replace("variant tripoli", "variant hostile")


@pytest.fixture(scope="module")
def hostile() -> Ruleset:
    return load_text(_hostile_rules(), "hostile.boodle")


def _assert_inert(page: str, title: str | None = None) -> None:
    assert live_markup(page) == []
    _, rendered = render(page)
    if title is not None:  # the title reads as written (escaping shows, it does not hide)
        assert "".join(rendered.heading).replace("¶", "").strip().endswith(title)


@pytest.mark.parametrize("lang", languages())
def test_docs_page_of_a_hostile_rules_file_has_no_live_markup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    path = tmp_path / "hostile.boodle"
    path.write_text(_hostile_rules(), encoding="utf-8")
    assert main(["docs", "page", str(path), "--lang", lang]) == 0
    page = capsys.readouterr().out
    markdown_lines = "\n".join(line for line in page.splitlines()  # the SVG escapes its own
                               if not line.startswith('<div class="boodle-board-frame">'))
    for key, text in EVIL.items():  # no field reached the Markdown as written
        assert text not in markdown_lines or key == "source", key
    _assert_inert(page, EVIL["title"])
    assert code(EVIL["source"]) in page  # the source in a code span that its backticks can't end


@pytest.mark.parametrize("lang", languages())
def test_site_pages_of_a_hostile_ruleset_have_no_live_markup(hostile: Ruleset, lang: str) -> None:
    t = load(lang)
    site = pages(t, [hostile], [])
    assert set(site) >= {f"variants/hostile{'' if lang == 'en' else '.' + lang}.md"}
    for name, page in site.items():
        _assert_inert(page, EVIL["title"] if "/" in name else None)
    # the rules page shows every label, escaped (a table cell keeps its bars as text)
    variant = next(p for n, p in site.items() if n.startswith("variants/"))
    for key in ("pot", "chien", "king-queen", "hearts", "poker", "stops"):
        assert md(EVIL[key]) in variant
    assert md(EVIL["about"] + " Hearts boodles paid") in variant


def test_index_matrix_and_cases_pages_escape_rules_text(hostile: Ruleset) -> None:
    t = load("en")
    _assert_inert(index_page([hostile], t))
    matrix = matrix_page([hostile], t)
    _assert_inert(matrix)
    # the matrix row of the board is one cell per variant: the label's bars do not add cells
    board_row = next(line for line in matrix.splitlines() if line.startswith("| **board"))
    assert board_row.replace("\\|", "").count("|") == 3
    case = Case(id="evil`<script>x", file="x`<img src=x onerror=alert(1)>.json",
                variant="<b>hostile</b>", sections=("§3 <script>",),
                description="<script>alert(1)</script> [c](javascript:c)")
    for text in cases_pages([case], t).values():
        _assert_inert(text)


def test_escaping_leaves_plain_words_alone() -> None:
    for plain in ("Michigan (home profile)", "King-Queen", "Hearts boodles paid by holding.",
                  "Tripoli — 8 9 10", "Chien"):
        assert md(plain) == plain
    assert code("michigan.boodle:12") == "`michigan.boodle:12`"
    assert md("# not a heading") == "\\# not a heading"
    assert md("1. not a list") == "1\\. not a list"


def test_a_markdown_link_in_the_boards_svg_stays_text() -> None:
    # found by bench/fuzz_files.py (kept in tests/fixtures): the board's SVG is
    # inline HTML in the page, and Markdown read a '[x](javascript:x)' in its <title> (the
    # variant's title) as a live link
    found = json.loads((ROOT / "tests" / "fixtures" / "svg-markdown-link.json")
                       .read_text(encoding="utf-8"))
    rules = load_text(found["text"], "hostile.boodle")
    for lang in languages():
        t = load(lang)
        standalone = VariantPage(rules, t, RuleRefs(t, rules.name, [])).markdown()
        assert live_markup(standalone) == [], lang  # boodle docs page
        for name, page in pages(t, [rules], []).items():
            assert live_markup(page) == [], (lang, name)
