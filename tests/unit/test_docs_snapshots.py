"""Snapshot tests of the generated variant pages: unintended changes to the rules text show.

One golden file per built-in variant and language in ``tests/golden/docs/``
(``NAME.md``, ``NAME.fr.md``, ``NAME.it.md``, ``NAME.pt.md``).  After an intended change,
regenerate them all
with ``BOODLE_UPDATE_GOLDEN=1 python -m pytest -q tests/unit/test_docs_snapshots.py``
and review the diff.  Conformance-case links are left out of the snapshots
(the suite grows on its own); everything else on the page is compared.
"""

from __future__ import annotations

import os

import pytest

from boodle.docs.links import RuleRefs
from boodle.docs.templates import languages, load
from boodle.docs.variant_page import VariantPage
from boodle.language.variants import builtin_names
from boodle.language.variants import load as load_variant
from docs_helpers import GOLDEN, UPDATE_COMMAND, UPDATE_ENV


def _page(name: str, lang: str) -> str:
    t = load(lang)
    return VariantPage(load_variant(name), t, RuleRefs(t, name, [])).markdown()


def _golden(name: str, lang: str) -> str:
    return f"{name}.md" if lang == "en" else f"{name}.{lang}.md"


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("name", builtin_names())
def test_variant_page_matches_its_golden(name: str, lang: str) -> None:
    path = GOLDEN / _golden(name, lang)
    text = _page(name, lang)
    if os.environ.get(UPDATE_ENV):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden for {name} ({lang}); create it with: {UPDATE_COMMAND}"
    assert text == path.read_text(encoding="utf-8"), (
        f"the {lang} page of {name} changed; if intended, run: {UPDATE_COMMAND}")


def test_every_builtin_variant_has_a_golden_and_no_golden_is_stale() -> None:
    expected = {_golden(n, lang) for n in builtin_names() for lang in languages()}
    present = {p.name for p in GOLDEN.glob("*.md")}
    assert not expected - present, (
        f"variants without a golden page: {sorted(expected - present)}; run: {UPDATE_COMMAND}")
    assert not present - expected, (
        f"goldens of variants that are no longer built in: {sorted(present - expected)}; "
        "delete them")
