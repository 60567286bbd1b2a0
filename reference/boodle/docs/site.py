"""Write the whole Markdown tree of the rules site (``boodle docs build``).

Pages per language (``NAME.md`` for English, ``NAME.fr.md`` … for the
others, as mkdocs-static-i18n's suffix layout expects): the index, one page,
one worked example and the rules file per built-in variant (a seed's own
worked example first where there is one: :mod:`boodle.docs.seed_example`), and
the comparison matrix.  Pages in English only (the other languages fall back to
them, with their title in the reader's language and a note that says so:
:mod:`boodle.docs.mkdocs_hooks`): the DSL reference, the spec, the
conformance protocol, cases and the verification notes; the cases page is
written last, since it lists the groups of cases the rules of every variant
page link to (:class:`boodle.docs.links.PinGroup`).  Before writing
anything the templates of every language are checked against the model and
the grammar (:func:`boodle.docs.constructs.check`), and the other languages
for a translation of every built-in variant's title, description and labels
(:func:`boodle.docs.translate.needed_keys`), so a construct or a variant
without text fails the build with the list of keys to add.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from boodle.conformance.paths import suite_dir
from boodle.docs import constructs, translate
from boodle.docs.dsl_reference import reference_markdown
from boodle.docs.escape import md
from boodle.docs.example import example_markdown
from boodle.docs.includes import fold_schemas, included_page, shipped_map, site_map
from boodle.docs.links import PinGroup, RuleRefs
from boodle.docs.pages import cases_pages, index_page, matrix_page, source_page
from boodle.docs.seed_example import seed_example_markdown
from boodle.docs.specref import Case, checkout_root, find_cases
from boodle.docs.templates import Templates, languages
from boodle.docs.templates import load as load_templates
from boodle.docs.translate import localized
from boodle.docs.variant_page import VariantPage
from boodle.language import model as m
from boodle.language.variants import builtin_names, builtin_path, load
from boodle.owned_files import write_owned
from boodle.resources import mkdocs_config

CSS = """\
.card-red { color: #c62828; }
.boodle-board-frame { overflow-x: auto; margin: 1em 0; }
.boodle-board { display: block; margin: 0 auto; }
.md-typeset table:not([class]) th { min-width: 3rem; }
.md-typeset table:not([class]) th, .md-typeset table:not([class]) td { padding: .9em .8em; }
"""
"""The site's own styles.  The theme gives every table heading at least 5rem and 1.25em of
padding each side, so a table of 7 columns (a variant's antes per player count) was wider
than the text column of a 1,280 px screen; narrower minimums let it fit (issue 21)."""


HOOKS = ".boodle_hooks.py"
"""The file of the output folder that mkdocs.yml's ``hooks:`` names (``docs/.boodle_hooks.py``):
it loads :mod:`boodle.docs.mkdocs_hooks` from the boodle package installed, so the site builds
from a wheel as from a checkout (a path into ``reference/`` exists only in a checkout).  A
dotfile: mkdocs leaves it out of the site."""

HOOKS_TEXT = '''"""Written by `boodle docs build`: the site's hooks, from the installed boodle."""

from boodle.docs.mkdocs_hooks import (  # noqa: F401
    on_nav,
    on_page_content,
    on_page_markdown,
    on_post_build,
    on_post_page,
)
'''
"""The hooks file's text: mkdocs calls the module's ``on_*`` functions."""


def all_templates() -> list[Templates]:
    """Every language's templates, checked: raises MissingText listing every missing key."""
    ts = [load_templates(lang) for lang in languages()]
    english = next(t for t in ts if t.lang == "en")
    shared = [k for k in english.table if not k.startswith(("dsl.", "dsl_example."))]
    words = translate.needed_keys(rulesets())
    constructs.check(ts, {"*": shared, **{t.lang: words for t in ts if t.lang != "en"}})
    return ts


def _suffix(t: Templates) -> str:
    return "" if t.lang == "en" else f".{t.lang}"


def rulesets() -> list[m.Ruleset]:
    """Every built-in variant, built (a variant that does not build fails the docs build)."""
    return [load(name) for name in builtin_names()]


def conformance_cases() -> list[Case]:
    """The conformance cases: the checkout's ``conformance/``, else the suite an installed
    package ships (``boodle/data/conformance``); none if neither is there."""
    root = checkout_root()
    if root is not None:
        return find_cases(root / "conformance")
    try:
        return find_cases(suite_dir())
    except FileNotFoundError:
        return []


def nav_title(text: str) -> str:
    """Front matter that gives a page its sidebar entry: the variant's title alone for its
    worked example (under "Examples"), the file's name for its rules file (under "Sources"),
    where the page's heading ("Worked example: …") made every entry of a section start with
    the same words (issue 21).  HTML-escaped (mkdocs shows a page's ``title`` as it is), in
    a JSON string, which YAML reads as it is."""
    return f"---\ntitle: {json.dumps(html.escape(text, quote=False), ensure_ascii=False)}\n---\n\n"


def pages(t: Templates, rules: list[m.Ruleset], cases: list[Case],
          groups: dict[str, PinGroup] | None = None) -> dict[str, str]:
    """Every page of one language: site path → Markdown.  ``groups`` collects the groups
    of cases the rules link to (the cases page lists them)."""
    sx = _suffix(t)
    groups = {} if groups is None else groups
    out = {f"index{sx}.md": index_page(rules, t), f"matrix{sx}.md": matrix_page(rules, t)}
    for r in rules:
        refs = RuleRefs(t, r.name, cases, groups=groups)
        out[f"variants/{r.name}{sx}.md"] = VariantPage(r, t, refs).markdown()
        seed = seed_example_markdown(r, t)
        out[f"examples/{r.name}{sx}.md"] = (
            nav_title(localized(r, t).title)
            + f"# {t.text('page.example_title', title=md(localized(r, t).title))}\n\n"
            + (f"{seed}\n## {t.text('page.example_deal_heading')}\n\n" if seed else "")
            + example_markdown(r, t))
        if builtin_path(r.name).is_file():  # the site shows the built-in rules files
            out[f"sources/{r.name}{sx}.md"] = nav_title(f"{r.name}.boodle") + source_page(
                localized(r, t), t)
    return out


def protocol_page(t: Templates) -> str:
    """The protocol's page: conformance/PROTOCOL.md, its schema blocks folded
    (:func:`boodle.docs.includes.fold_schemas`)."""
    return fold_schemas(included_page("conformance/PROTOCOL.md", "reference/protocol.md",
                                      t.text("page.protocol_title"), t), t)


def english_pages(t: Templates, rules: list[m.Ruleset], cases: list[Case],
                  groups: dict[str, PinGroup] | None = None) -> dict[str, str]:
    """The pages that exist in English only (``groups``: the groups of cases the variant
    pages link to, listed on the cases page)."""
    out = {"reference/language.md": reference_markdown(t)}
    out.update(cases_pages(cases, t, (groups or {}).values()))
    out["reference/protocol.md"] = protocol_page(t)
    out["reference/verification.md"] = included_page("spec/verification.md",
                                                     "reference/verification.md",
                                                     t.text("page.verification_title"), t)
    root = checkout_root()
    for source, page in (site_map(root) if root else shipped_map()).items():
        if source.startswith("spec/") and source.endswith(".md") and page.startswith("spec/"):
            out[page] = included_page(source, page, source, t)
    out.setdefault("spec/rules.md", included_page("spec/rules.md", "spec/rules.md",
                                                  t.text("page.spec_link"), t))
    return out


def skipped_outside_checkout() -> list[str]:
    """What ``boodle docs build`` cannot write without the project's checkout (spec/,
    conformance/, mkdocs.yml beside grammar/), one sentence each; empty in a checkout."""
    if checkout_root() is not None:
        return []
    return ["spec/index.md is skipped: it is made from the checkout's spec/README.md",
            "reference/verification.md says that its source file is missing (the checkout's "
            "spec/verification.md); spec/rules.md, spec/michigan.md, reference/protocol.md and "
            "reference/cases.md are made from the copies the package ships"]


def next_step(out: Path) -> str:
    """What to run after writing the pages into ``out``: ``mkdocs build --strict`` where a
    mkdocs.yml beside ``out`` names it as its docs_dir (mkdocs' default ``docs``), else how
    to get one (the project's, which an installed package ships: :func:`mkdocs_config`)."""
    config = out.resolve().parent / "mkdocs.yml"
    if config.is_file():
        found = re.search(r"^docs_dir:\s*['\"]?([^'\"\s#]+)", config.read_text(encoding="utf-8"),
                          re.MULTILINE)
        if (out.resolve().parent / (found.group(1) if found else "docs")).resolve() \
                == out.resolve():
            where = "" if config.parent == Path.cwd().resolve() else f" in {config.parent}"
            return f"now run{where}: mkdocs build --strict"
    shipped = mkdocs_config()
    edit = "" if out.name == "docs" and not config.is_file() else f", with 'docs_dir: {out.name}'"
    if out.name != "docs":
        edit += f" and the hooks line '- {out.name}/{HOOKS}'"
    return (f"no mkdocs.yml beside {out} names it as its docs_dir: to build the site, copy "
            f"the project's ({shipped}) beside it{edit}, then run mkdocs build --strict there")


MANIFEST = ".boodle-docs.json"
"""The list of pages the last ``boodle docs build`` wrote, kept in the output folder (a
dotfile: mkdocs leaves it out of the site)."""


OTHER_FILES = {"assets/boodle.css": "the site's style sheet", HOOKS: "mkdocs' hooks"}
"""The files ``boodle docs build`` writes besides the pages, and what each is."""


def written_summary(out: Path, written: list[Path]) -> str:
    """The line that tells what a build wrote into ``out``: the pages (``.md`` files) counted
    as pages, every other file named with what it is (:data:`OTHER_FILES`)."""
    pages = sum(p.suffix == ".md" for p in written)
    others = [p.relative_to(out).as_posix() for p in written if p.suffix != ".md"]
    text = f"wrote {pages} page{'s' if pages != 1 else ''} into {out}/"
    if not others:
        return text
    named = ", ".join(f"{o} ({OTHER_FILES[o]})" if o in OTHER_FILES else o for o in others)
    return f"{text}, and {len(others)} other file{'s' if len(others) != 1 else ''}: {named}"


def build_docs(out: Path) -> list[Path]:
    """Write every page under ``out`` (created if needed); returns the files written.

    Only files of the tree are written, atomically, never through a symbolic link, and a
    page unchanged keeps its file; pages the previous build wrote (its manifest
    :data:`MANIFEST`) that no longer exist, such as a removed variant's, are deleted, and no
    other file (:func:`boodle.owned_files.write_owned`).  Raises
    :class:`~boodle.language.errors.BoodleError` (MissingText, a variant that does not
    build, a link or a non-file in the way) before writing anything.
    """
    ts = all_templates()
    rules = rulesets()
    cases = conformance_cases()
    english = next(t for t in ts if t.lang == "en")
    groups: dict[str, PinGroup] = {}
    everything: dict[str, str] = {}
    for t in ts:
        everything.update(pages(t, rules, cases, groups))
    everything.update(english_pages(english, rules, cases, groups))
    everything["assets/boodle.css"] = CSS
    everything[HOOKS] = HOOKS_TEXT
    return write_owned(out, dict(everything), MANIFEST)
