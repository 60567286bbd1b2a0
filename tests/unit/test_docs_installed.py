"""``boodle docs build`` from an installed package, without the project's checkout (issue 21).

The wheel ships the grammar, the built-in variants, ``spec/rules.md``, ``spec/michigan.md``
and the whole ``conformance/`` folder under ``boodle/data/`` (``pyproject.toml``'s
force-include); the test lays a package folder out that way (links to this checkout's
files), points the package's resource lookups at it, runs from an empty folder, and
checks that the pages made from those files are whole: the cases page lists the suite's
cases, the rules link to them, the spec and the protocol are there.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from boodle import resources
from boodle.conformance import paths
from boodle.docs import site, specref
from boodle.docs.links import PinGroup
from boodle.docs.templates import load
from boodle.language.variants import load as load_variant
from docs_helpers import ROOT


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "site-packages" / "boodle"
    data = package / "data"
    (data / "grammar").mkdir(parents=True)
    (data / "spec").mkdir()
    (data / "grammar" / "boodle.lark").symlink_to(ROOT / "grammar" / "boodle.lark")
    (data / "variants").symlink_to(ROOT / "spec" / "variants")
    for name in ("rules.md", "michigan.md"):
        (data / "spec" / name).symlink_to(ROOT / "spec" / name)
    (data / "conformance").symlink_to(ROOT / "conformance")
    nowhere = tmp_path / "no-checkout"
    for module in (resources, paths):
        monkeypatch.setattr(module, "_PACKAGE", package)
        monkeypatch.setattr(module, "_CHECKOUT", nowhere)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    specref.spec_anchors.cache_clear()
    yield package
    specref.spec_anchors.cache_clear()


def test_docs_build_from_an_installed_package_lists_the_shipped_cases(installed: Path) -> None:
    assert specref.checkout_root() is None and resources.variants_dir() == \
        installed / "data" / "variants"
    cases = site.conformance_cases()
    assert len(cases) > 1000  # the suite as shipped (2,000 cases and more)
    t = load("en")
    groups: dict[str, PinGroup] = {}
    michigan = site.pages(t, [load_variant("michigan")], cases, groups)
    english = site.english_pages(t, site.rulesets(), cases, groups)
    page = michigan["variants/michigan.md"]
    assert "· pinned by [" in page and "](../reference/cases/michigan.md#pins-michigan-" in page
    assert "spec [§6.1](../spec/rules.md#61-first-lead)" in page  # the shipped spec's anchors
    assert t.text("page.cases_none") not in english["reference/cases.md"]
    listing = english["reference/cases/michigan.md"]
    assert '<a id="case-michigan-deal-from-the-pack-3-players-' in listing
    for group in groups:
        assert f'<a id="{group}"></a>' in listing
    missing = t.text("page.included_missing", path="")
    for name in ("spec/rules.md", "spec/michigan.md", "reference/protocol.md"):
        assert missing.split("`")[0] not in english[name], name
    assert english["spec/rules.md"].startswith("# ")
    assert "spec/index.md" not in english  # made from the checkout's spec/README.md only
    notes = site.skipped_outside_checkout()
    assert any("spec/index.md is skipped" in n for n in notes)
    assert not any("lists no conformance case" in n for n in notes)
