"""The rules site: templates cover every construct, pages say the rules, mkdocs builds strictly.

Expected sentences are the templates' wording applied by hand to Michigan's
rules file (001 §02-§06); the structural checks read the built HTML.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Literal

import pytest

from boodle.docs import constructs, translate
from boodle.docs import site as docs_site
from boodle.docs.dsl_reference import reference_markdown
from boodle.docs.links import RuleRefs
from boodle.docs.pages import cases_pages
from boodle.docs.site import all_templates
from boodle.docs.specref import find_cases
from boodle.docs.templates import MissingText, Templates, languages, load
from boodle.docs.variant_page import VariantPage
from boodle.language.build import load_text
from boodle.language.model import Ruleset
from boodle.language.variants import builtin_names
from boodle.language.variants import load as load_variant
from docs_helpers import BUILD_LOG, ROOT, built_site, english_fragments, page_text


def page(ruleset: Ruleset, lang: str = "en", refs: RuleRefs | None = None) -> str:
    t = load(lang)
    return VariantPage(ruleset, t, refs or RuleRefs(t, ruleset.name, [])).markdown()


LANGUAGES = ["en", "fr", "it", "pt"]
"""The site's languages: English, and the languages of the seeds (000/001/004 French, 002
Italian, 003 Portuguese)."""
OTHERS = LANGUAGES[1:]


def test_every_construct_has_text_in_every_language() -> None:
    assert [t.lang for t in all_templates()] == LANGUAGES
    assert languages() == LANGUAGES


@pytest.mark.parametrize("lang", OTHERS)
def test_a_missing_template_fails_naming_the_key_and_the_file(lang: str) -> None:
    # the check derives the keys from the model (constructs.model_keys) and from the English
    # file (every key but the DSL reference's): each other language must have them all
    english = load("en")
    for key in ("StopsPhase.restart", "page.example_restart", "rank.K", "page.claim_sep"):
        assert english.has(key) and load(lang).has(key), key
        table = {k: v for k, v in load(lang).table.items() if k != key}
        shared = [k for k in english.table if not k.startswith(("dsl.", "dsl_example."))]
        with pytest.raises(MissingText) as err:
            constructs.check([english, Templates(lang, table)], {"*": shared})
        assert err.value.keys == [(lang, key)]
        assert f"{lang}: {key}" in err.value.render()
        assert f"templates/{lang}.toml" in err.value.render()


@pytest.mark.parametrize("lang", OTHERS)
def test_every_builtin_variant_and_label_is_translated(lang: str) -> None:
    t = load(lang)
    for name in builtin_names():
        r = load_variant(name)
        assert t.has(f"variants.{name}.title") and t.has(f"variants.{name}.about"), name
        for label in translate.labels_of(r):
            assert t.has(f"label.{label}"), (name, label)
    assert set(translate.needed_keys(docs_site.rulesets())) <= set(t.table)


def test_a_missing_translation_stops_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    it = load("it")
    broken = Templates("it", {k: v for k, v in it.table.items()
                              if k not in ("label.Kitty", "variants.tripoli.about")})
    monkeypatch.setattr(docs_site, "load_templates",
                        lambda lang: broken if lang == "it" else load(lang))
    with pytest.raises(MissingText) as err:
        docs_site.all_templates()
    assert set(err.value.keys) == {("it", "variants.tripoli.about"), ("it", "label.Kitty")}


def test_a_label_of_ranks_and_suits_is_written_not_translated() -> None:
    # the French write V D R for the valet, dame, roi (004 "le Roi, la Dame, le Valet");
    # the Italian seed writes J♠ Q♦ K♣ (002), the Portuguese Valete, Dama, Rei (003)
    fr, it, pt = load("fr"), load("it"), load("pt")
    assert [translate.label(x, fr) for x in ("K-Q", "A-K♦", "10♥ (8)", "J♠")] == \
        ["R-D", "A-R♦", "10♥ (8)", "V♠"]
    assert translate.label("K-Q", it) == "K-Q" and translate.label("K-Q", pt) == "R-D"
    assert translate.label("Kitty", it) == "Piatto"  # 002: "un piatto centrale chiamato Piatto"


@dataclasses.dataclass(frozen=True)
class Dealing:
    """A model class someone might add: its constructs need text before the docs build."""

    colour: Literal["red", "black"] = "red"
    bonus: int = 0


def test_a_new_model_construct_without_text_is_a_build_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = constructs.model_classes()
    monkeypatch.setattr(constructs, "model_classes", lambda: [*real, Dealing])
    with pytest.raises(MissingText) as err:
        constructs.check([load("en")])
    assert set(err.value.keys) == {("en", "Dealing"), ("en", "Dealing.colour.red"),
                                   ("en", "Dealing.colour.black"), ("en", "Dealing.bonus")}


def test_every_grammar_construct_is_in_the_dsl_reference() -> None:
    text = reference_markdown(load("en"))
    for name in constructs.grammar_constructs():
        assert f"**`{name}`**" in text, name


def test_michigan_rules_in_plain_english(michigan: Ruleset) -> None:
    text = page(michigan)
    assert "1. First lead: the player on the dealer's left leads the lowest card they hold of " \
           "a suit they choose." in text
    assert ("After a stop, the player who played the last card of the stopped run leads the "
            "lowest card they hold of a suit other than the one that stopped.") in text
    assert "Each player, the dealer included, puts 2 chips on the Kitty." in text
    assert "puts 1 chip on each of: A♥, K♣, Q♦, J♠." in text
    assert ("They take the Kitty. Each opponent pays them 1 chip per card left in hand.") in text
    # each numbered rule links to the line that states it: restart is line 49 of michigan.boodle
    source = Path(michigan.span.file).read_text(encoding="utf-8").splitlines()  # type: ignore[union-attr]
    line = next(i for i, s in enumerate(source, 1) if s.strip().startswith("restart:"))
    assert f"[michigan.boodle:{line}](../sources/michigan.md#__codelineno-0-{line})" in text
    assert "spec [§6.4](../spec/rules.md#64-restart)" in text


# issue 21: the sentences a player says, not the rules file's structure ("puts 2 chips on each
# of: Kitty", "They take Chien", "the best hand takes Pot", "each playing for themself")
NATURAL = {
    "en": ("michigan", ["each playing for themselves.", "puts 2 chips on the Kitty.",
                        "They take the Kitty.", "by playing K♣ in the Stops phase"]),
    "fr": ("michigan", ["chacun pour soi.", "met 2 jetons sur la case Kitty.",
                        "Il prend la case Kitty.", "met 1 jeton sur chacune des cases\u00a0: A♥"]),
    "it": ("michigan", ["pone 2 fiches sulla casella Piatto.", "Incassa la casella Piatto.",
                        "pone 1 fiche su ciascuna delle caselle: A♥"]),
    "pt": ("michigan", ["coloca 2 fichas no compartimento", "Ele recolhe o compartimento",
                        "coloca 1 ficha em cada um dos compartimentos: A♥"]),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_read_as_a_player_says_them(lang: str) -> None:
    name, sentences = NATURAL[lang]
    text = page(load_variant(name), lang)
    for sentence in sentences:
        assert sentence in text, (lang, sentence)
    for wrong in ("on each of: Kitty", "They take Kitty", "themself", "sur chacune de\u00a0: Kitty",
                  "su la ", "em o ", "su ciascuna di: Piatto", "em cada um de: Kitty"):
        assert wrong not in text, (lang, wrong)
    tripoli = page(load_variant("tripoli"), lang)
    pot = {"en": "the best hand takes the Pot.", "fr": "la meilleure main prend la case Pot.",
           "it": "la migliore mano prende la casella Pot.",
           "pt": "a melhor mão recolhe o compartimento Pote."}[lang]
    assert pot in tripoli, (lang, pot)
    chien = {"en": "They take the Chien.", "fr": "Il prend la case Chien.",
             "it": "Incassa la casella Chien.", "pt": "Ele recolhe o compartimento Chien."}[lang]
    assert chien in tripoli, (lang, chien)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phase_heading_says_its_kind_once(lang: str) -> None:
    # "Phase 3: Stops (stops)": the label is the kind's own word; "Hearts (holding)" stays
    headings = [line for line in page(load_variant("tripoli"), lang).splitlines()
                if line.startswith("### ") and "(" not in line[:4]][:3]
    kinds = [h.rsplit("(", 1)[-1].rstrip(")").casefold() for h in headings if h.endswith(")")]
    assert len(headings) == 3 and len(kinds) == 1, headings
    for h in headings:
        words = re.findall(r"\w+", h.split(":", 1)[-1].casefold())
        assert len(words) == len(set(words)), (lang, h)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_translated_title_keeps_english_words(lang: str) -> None:
    # the Italian page of michigan-pay-the-widow was titled "Michigan, pay-the-widow"
    english = {"pay", "the", "paid", "dealer", "drawn", "until", "with", "without", "board",
               "once", "equal", "stakes", "seeds", "cloth", "home", "profile"}
    for name in builtin_names():
        title = load(lang).table[f"variants.{name}.title"]
        words = set(re.findall(r"\w+", title.replace(name, "").lower()))
        assert not words & english, (lang, name, title)


def test_counts_take_the_singular_as_each_language_does() -> None:
    # French counts zero in the singular ("0 jeton"), English, Italian, Portuguese do not
    assert [load(lang).count(0, "chip") for lang in LANGUAGES] == \
        ["0 chips", "0 jeton", "0 fiches", "0 fichas"]
    assert [load(lang).count(1, "card") for lang in LANGUAGES] == \
        ["1 card", "1 carte", "1 carta", "1 carta"]


def test_michigan_rules_in_french(michigan: Ruleset) -> None:
    text = page(michigan, "fr").replace("\u00a0", " ")
    assert "Première entame : le joueur à la gauche du donneur entame la plus petite carte " \
           "qu'il tient d'une couleur de son choix." in text
    assert "## Fin de la partie" in text
    assert "Rangs de chaque couleur, du plus bas au plus haut : 2 3 4 5 6 7 8 9 10 V D R A." \
        in text
    assert "Jouer légalement une carte" in text and "régulièrement" not in text
    assert "**R♣** : une case payée par R♣" in text


def test_french_typography_has_a_non_breaking_space_before_colons_and_semicolons() -> None:
    docs, _ = built_site()
    for path in docs.rglob("*.fr.md"):
        text = page_text(path.read_text(encoding="utf-8"))
        bad = re.findall(r".{0,30}(?:(?<!\u00a0)[:;](?=\s)| [:;]).{0,10}", text)
        bad = [b for b in bad if not re.search(r"\bhttps?:|^\s*[:;]", b)]
        assert not bad, (path.name, bad[:5])


def test_tripoli_in_the_seeds_words() -> None:
    # 004 (French): "Phase 1 : Boodle de Cœurs", "la paire Roi-Dame", "la main fantôme"
    fr = page(load_variant("tripoli"), "fr").replace("\u00a0", " ")
    assert "### Phase 1 : Boodle de Cœurs (détention)" in fr
    assert "**Roi-Dame** : une combinaison, payée par R D d'une même couleur" in fr
    assert "main fantôme" in page(load_variant("tripoli-ghost-auction"), "fr")
    # its widow is the "main fantôme" (004), Michigan's the "veuve" (000, 001)
    assert "La main fantôme, une main supplémentaire qui n'appartient à personne" in fr
    assert "veuve" not in fr.lower() and "veuve" in page(load_variant("michigan"), "fr")
    assert "## Vente de la main fantôme" in page(load_variant("tripoli-ghost-auction"), "fr")
    # 002 (Italian): the Piatto, the caselle boodle, the widow; 003 (Portuguese): the Kitty,
    # the compartimentos boodle, the mão extra
    it = page(load_variant("michigan"), "it")
    assert "**Piatto**: il Piatto, che va a chi esce" in it and "casella boodle" in it
    assert "La widow, una mano in più" in it
    pt = page(load_variant("michigan"), "pt")
    assert "**Kitty**: o Kitty, que fica com quem sai" in pt and "compartimento boodle" in pt
    assert "A mão extra, uma mão a mais" in pt
    assert "2 3 4 5 6 7 8 9 10 V D R A" in pt and "2 3 4 5 6 7 8 9 10 J Q K A" in it


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_wording_on_a_page_in_another_language(lang: str) -> None:
    docs, _ = built_site()
    fragments = english_fragments(lang)
    assert len(fragments) > 100  # the check has something to find
    pages = sorted(docs.rglob(f"*.{lang}.md"))
    assert len(pages) == 2 + 3 * len(builtin_names())  # index, matrix; variant, example, source
    for path in pages:
        text = page_text(path.read_text(encoding="utf-8"))
        found = sorted(f for f in fragments if f in text)
        assert not found, (path.relative_to(docs).as_posix(), found[:5])


def test_the_english_wording_check_finds_english() -> None:
    english = page_text(page(load_variant("tripoli")))
    assert {"the player on the dealer's left", "Hearts boodles paid by holding"} & {
        f for f in english_fragments("fr") if f in english}


def test_mkdocs_has_every_language_with_its_site_name() -> None:
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    found = {lang["locale"]: lang for lang in i18n["languages"]}
    assert list(found) == LANGUAGES
    for lang in OTHERS:
        assert found[lang]["site_name"] == load(lang).text("page.site_name")
        assert found[lang]["name"] == load(lang).text("page.language")


def test_the_build_reports_no_missing_anchor() -> None:
    built_site()
    assert not [m for m in BUILD_LOG if "anchor" in m], [m for m in BUILD_LOG if "anchor" in m][:3]


def test_a_house_rule_page_shows_only_what_it_changes() -> None:
    house = load_text("variant house extends michigan {\n  ante { each player 1 on each boodle\n"
                      "         each player 2 on kitty\n         dealer 2 on kitty }\n}\n",
                      "house.boodle")
    text = page(house)
    assert "[Michigan (home profile)](michigan.md)" in text
    assert "## Antes" in text and "The dealer puts 2 chips on the Kitty." in text
    for unchanged in ("## The deal", "## Phases", "## The board", "## Session end"):
        assert unchanged not in text
    # with 4 players the dealer pays 1·4 + 2 + 2 = 8, the others 6 (001 §02 plus the house line)
    assert "| 4 | 11 · 11 · 10 · 10 | 10 | 4 | 10 | 8 | 6 |" in text  # 4 on each boodle


def test_conformance_case_links_are_generic(tmp_path: Path, michigan: Ruleset) -> None:
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "case.schema.json").write_text('{"id": "not-a-case"}')
    (tmp_path / "restart").mkdir()
    (tmp_path / "restart" / "a.json").write_text(json.dumps(
        {"id": "restart-other-suit-1a2b", "variant": "michigan", "rules": ["spec §6.4"],
         "description": "the stopper leads another suit"}))
    (tmp_path / "b.json").write_text(json.dumps(
        [{"id": "tripoli-restart", "variant": "tripoli", "spec": "§6.4"}, {"no": "id"}]))
    cases = find_cases(tmp_path)
    assert [c.id for c in cases] == ["restart-other-suit-1a2b", "tripoli-restart"]
    text = page(michigan, refs=RuleRefs(load("en"), "michigan", cases))
    assert "pinned by [restart-other-suit-1a2b](../reference/cases/michigan.md#case-restart-" \
           "other-suit-1a2b)" in text
    assert "tripoli-restart" not in text
    # a case pinning the rule itself (§6.4/last-player, as conformance/spec-rules.json names
    # rules) is preferred to one pinning only its section
    (tmp_path / "c.json").write_text(json.dumps(
        {"id": "restart-by-last-player", "variant": {"name": "michigan"},
         "pins": ["§6.4/last-player", "§6.1/left-of-dealer"]}))
    text = page(michigan, refs=RuleRefs(load("en"), "michigan", find_cases(tmp_path)))
    restart = next(line for line in text.splitlines() if "After a stop" in line)
    assert "restart-by-last-player" in restart and "restart-other-suit-1a2b" not in restart


def test_the_cases_pinning_a_rule_fold_into_one_link_to_their_list(tmp_path: Path,
                                                                   michigan: Ruleset) -> None:
    # issue 21: five case ids and "(+22)" after every rule; now one link per rule
    for i in range(7):
        (tmp_path / f"c{i}.json").write_text(json.dumps(
            {"id": f"restart-case-{i}", "variant": "michigan", "rules": ["spec §6.4"]}))
    cases = find_cases(tmp_path)
    refs = RuleRefs(load("en"), "michigan", cases)
    text = page(michigan, refs=refs)
    restart = next(line for line in text.splitlines() if "After a stop" in line)
    [group] = refs.groups.values()
    assert restart.endswith(
        f"· pinned by [7 cases](../reference/cases/michigan.md#{group.anchor}))</small>")
    assert "restart-case-" not in restart and "(+" not in restart
    assert [c.id for c in group.cases] == [f"restart-case-{i}" for i in range(7)]
    listing = cases_pages(cases, load("en"), refs.groups.values())["reference/cases/michigan.md"]
    [line] = [x for x in listing.splitlines() if group.anchor in x]
    assert line.startswith(f'- <a id="{group.anchor}"></a>**michigan**, §6.4 (7 cases): ')
    assert line.count("](#case-restart-case-") == 7
    fr = RuleRefs(load("fr"), "michigan", cases)
    assert "vérifiée par [7 cas](" in page(michigan, "fr", fr) or \
        "vérifiée par [7 cas](" in page(michigan, "fr", fr)


def test_a_default_rule_says_so_without_doubled_parentheses(michigan: Ruleset) -> None:
    for lang in LANGUAGES:
        text = page_text(page(michigan, lang))
        assert "((" not in text and "))" not in text, lang
    assert "<small>(default, not written · spec [§2]" in page(michigan)


def test_the_site_builds_strictly_with_every_page() -> None:
    docs, site = built_site()
    for lang in LANGUAGES:
        root = "" if lang == "en" else f"{lang}/"
        for name in builtin_names():
            for rel in (f"variants/{name}", f"examples/{name}", f"sources/{name}"):
                assert (site / f"{root}{rel}" / "index.html").is_file(), root + rel
        for rel in ("matrix", "reference/language", "reference/protocol",
                    "reference/verification", "reference/cases", "spec/rules"):
            assert (site / f"{root}{rel}" / "index.html").is_file(), root + rel


def test_the_sidebar_starts_with_the_variants_the_home_profile_first() -> None:
    # issue 21: mkdocs sorted by file name (the examples first, michigan-cadaco before michigan)
    _, site = built_site()
    for lang in LANGUAGES:
        root = "" if lang == "en" else f"{lang}/"
        html = (site / root / "matrix" / "index.html").read_text(encoding="utf-8")
        start = html.index("md-nav--primary")
        nav = html[start:html.index('class="md-content"', start)]
        links = re.findall(r'href="(?:\.\./)+(?:(?:fr|it|pt)/)?([a-z]+)/([a-z0-9-]+)/"', nav)
        folders = list(dict.fromkeys(folder for folder, _ in links))
        assert folders[:3] == ["variants", "examples", "sources"], (lang, folders)
        variants = [name for folder, name in links if folder == "variants"]
        assert variants[:2] == ["michigan", "boodle"], (lang, variants)
        # Michigan's house rules next, then the other Michigans, then each family with its own
        assert variants.index("michigan-widow-sale") < variants.index("michigan-cadaco")
        at = variants.index("tripoli")  # then its house rules, by name
        assert variants[at + 1:at + 3] == ["tripoli-boodle-cards", "tripoli-chien-once"]
        assert variants.index("newmarket") < variants.index("pope-joan")
        assert [n for f, n in links if f == "examples"] == variants
        # issue 21: each example's entry is its variant's title, not "Worked example: …"
        # again and again; the 60 and more pages of cases per variant are not in it
        titles = re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', nav, re.S)
        prefix = load(lang).text("page.example_title", title="").rstrip(" :\u00a0")
        assert not any(x.startswith(prefix) for x in titles), (lang, prefix)
        assert "/cases/" not in nav.replace("reference/cases/\"", ""), lang


def test_the_index_lists_the_home_profile_first() -> None:
    from boodle.docs.pages import index_page, site_order

    rules = docs_site.rulesets()
    order = site_order({r.name: r.base for r in rules})
    assert order[0] == "michigan" and order[1] == "boodle" and len(order) == len(rules)
    for lang in LANGUAGES:
        text = index_page(rules, load(lang))
        items = re.findall(r"^- \[[^]]+\]\(variants/([a-z0-9-]+)\.md\)", text, re.M)
        assert items == order, lang


def test_rule_links_land_on_highlighted_lines() -> None:
    _, site = built_site()
    for name in builtin_names():
        html = (site / "variants" / name / "index.html").read_text(encoding="utf-8")
        targets = set(re.findall(r'href="\.\./\.\./sources/([a-z0-9-]+)/#(__codelineno-0-\d+)"',
                                 html))
        assert targets, f"{name}: no rule links to its rules file"
        for source, anchor in targets:
            text = (site / "sources" / source / "index.html").read_text(encoding="utf-8")
            assert f'id="{anchor}"' in text, (name, source, anchor)
    source = (site / "sources" / "michigan" / "index.html").read_text(encoding="utf-8")
    assert '<span class="kd">variant</span>' in source  # the boodle lexer highlighted it
    assert '<span class="k">lowest</span>' in source


def test_the_worked_example_deals_every_card_and_keeps_every_chip(michigan: Ruleset) -> None:
    from boodle.docs.example import example_markdown

    text = re.sub(r"<[^>]+>", "", example_markdown(michigan, load("en")))
    dealt = [card for line in text.splitlines() if re.match(r"^- ([A-D]|Widow): ", line)
             for card in line.split(": ", 1)[1].split()]
    assert len(dealt) == 52 and len(set(dealt)) == 52  # 4 hands and the widow (001 §03)
    ledgers = re.findall(r"Ledger: (.*) · board: (.*)", text)
    assert ledgers, "no ledger after a claim or at the end"
    for seats, board in ledgers:  # 4 players × 50 chips, wherever they are (spec §9)
        amounts = [int(x.rsplit(" ", 1)[1]) for x in (seats + ", " + board).split(", ")]
        assert sum(amounts) == 200


def test_the_boodle_lexer_is_registered_and_knows_the_grammar_words() -> None:
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    from pygments.token import Comment, Keyword, Name, Number

    from boodle.docs.lexer import BoodleLexer

    assert isinstance(get_lexer_by_name("boodle"), BoodleLexer)  # the package's entry point
    assert isinstance(get_lexer_for_filename("house.boodle"), BoodleLexer)
    tokens = [(kind, text) for kind, text in BoodleLexer().get_tokens(
        "  restart: last player, lowest of other suit  # 001 §05\n  boodle 10♥\n")
        if text.strip()]
    assert (Keyword, "restart") in tokens and (Keyword, "lowest") in tokens
    assert (Name.Constant, "10♥") in tokens
    assert (Comment.Single, "# 001 §05") in tokens
    assert all(kind is not Number.Integer for kind, text in tokens if text == "10♥")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sidebar_entries_of_examples_and_sources_are_distinct(lang: str) -> None:
    """issue 21: every entry under "Examples" read "Worked example: …" (and under "Sources"
    "Rules file: …"): the sidebar repeated the section's name; now the front matter's
    title names the variant alone."""
    import yaml

    from boodle.docs.site import pages, rulesets
    from boodle.docs.templates import load as load_t

    t = load_t(lang)
    out = pages(t, rulesets(), [])
    prefix = t.text("page.example_title", title="").rstrip(" :\u00a0")
    for folder in ("examples", "sources"):
        titles = []
        for path, text in out.items():
            if path.startswith(folder + "/"):
                assert text.startswith("---\n"), path
                titles.append(yaml.safe_load(text.split("---\n")[1])["title"])
        assert len(titles) == len(builtin_names()) or folder == "sources"
        assert len(set(titles)) == len(titles), (folder, titles)
        assert not any(x.startswith(prefix) for x in titles), titles
    home = yaml.safe_load(out[f"examples/michigan{'' if lang == 'en' else '.' + lang}.md"]
                          .split("---\n")[1])["title"]
    assert home == {"en": "Michigan (home profile)", "fr": "Michigan (profil familial)"}.get(
        lang, home)  # michigan.boodle's title; fr.toml's [variants.michigan]


def test_the_cases_pages_are_of_a_reasonable_size_and_every_case_is_reachable() -> None:
    """issue 21: reference/cases.md listed every case of the suite on one page of 1.4 MB
    (the site's page 1.1 MB). Now a summary with one page per variant, none over 200 KB of
    Markdown; every case is still listed, once, and every link of the rules' "pinned by"
    and of the summary finds its page and anchor."""
    from boodle.docs.links import PinGroup
    from boodle.docs.site import conformance_cases, english_pages, pages, rulesets

    t = load("en")
    cases, groups = conformance_cases(), {}  # type: ignore[var-annotated]
    rules = rulesets()
    variant_pages = pages(t, rules, cases, groups)
    english = english_pages(t, rules, cases, groups)
    listing = {k: v for k, v in english.items() if k.startswith("reference/cases")}
    assert all(len(v.encode()) < 200_000 for v in listing.values()), \
        sorted((len(v), k) for k, v in listing.items())[-1]
    anchors = {k: set(re.findall(r'<a id="([^"]+)"></a>', v)) for k, v in listing.items()}
    every = [a for k, found in anchors.items() for a in found if a.startswith("case-")]
    assert len(every) == len(set(every)) == len({c.id for c in cases})
    group: PinGroup
    for group in groups.values():
        assert any(group.anchor in found for found in anchors.values())
    for path, text in variant_pages.items():
        for page, anchor in re.findall(r"\]\(\.\./(reference/cases[^)#]*)#([^)]+)\)", text):
            assert anchor in anchors[page], (path, page, anchor)
    for link in re.findall(r"\]\((cases/[^)]+\.md)\)", listing["reference/cases.md"]):
        assert f"reference/{link}" in listing, link
    assert len(listing) > 20  # a page per variant, the probes' too
