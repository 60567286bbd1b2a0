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

from boodle.docs import constructs
from boodle.docs.dsl_reference import reference_markdown
from boodle.docs.links import RuleRefs
from boodle.docs.site import all_templates
from boodle.docs.specref import find_cases
from boodle.docs.templates import MissingText, Templates, load
from boodle.docs.variant_page import VariantPage
from boodle.language.build import load_text
from boodle.language.model import Ruleset
from boodle.language.variants import builtin_names
from docs_helpers import built_site


def page(ruleset: Ruleset, lang: str = "en", refs: RuleRefs | None = None) -> str:
    t = load(lang)
    return VariantPage(ruleset, t, refs or RuleRefs(t, ruleset.name, [])).markdown()


def test_every_construct_has_text_in_every_language() -> None:
    assert {t.lang for t in all_templates()} >= {"en", "fr"}


def test_a_missing_template_fails_naming_the_key_and_the_file() -> None:
    fr = load("fr")
    broken = Templates("fr", {k: v for k, v in fr.table.items() if k != "StopsPhase.restart"})
    with pytest.raises(MissingText) as err:
        constructs.check([load("en"), broken])
    assert err.value.keys == [("fr", "StopsPhase.restart")]
    assert "fr: StopsPhase.restart" in err.value.render()
    assert "templates/fr.toml" in err.value.render()


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
    assert "Each player, the dealer included, puts 2 chips on each of: Kitty." in text
    assert ("They take Kitty. Each opponent pays them 1 chip per card left in hand.") in text
    # each numbered rule links to the line that states it: restart is line 48 of michigan.boodle
    source = Path(michigan.span.file).read_text(encoding="utf-8").splitlines()  # type: ignore[union-attr]
    line = next(i for i, s in enumerate(source, 1) if s.strip().startswith("restart:"))
    assert f"[michigan.boodle:{line}](../sources/michigan.md#__codelineno-0-{line})" in text
    assert "spec [§6.4](../spec/rules.md#64-restart)" in text


def test_michigan_rules_in_french(michigan: Ruleset) -> None:
    text = page(michigan, "fr")
    assert "Première entame : le joueur à la gauche du donneur entame la plus petite carte " \
           "qu'il tient d'une couleur de son choix." in text
    assert "## Fin de la partie" in text


def test_a_house_rule_page_shows_only_what_it_changes() -> None:
    house = load_text("variant house extends michigan {\n  ante { each player 1 on each boodle\n"
                      "         each player 2 on kitty\n         dealer 2 on kitty }\n}\n",
                      "house.boodle")
    text = page(house)
    assert "[Michigan (home profile)](michigan.md)" in text
    assert "## Antes" in text and "The dealer puts 2 chips on each of: Kitty." in text
    for unchanged in ("## The deal", "## Phases", "## The board", "## Session end"):
        assert unchanged not in text
    # with 4 players the dealer pays 1·4 + 2 + 2 = 8, the others 6 (001 §02 plus the house line)
    assert "| 4 | 11 · 11 · 10 · 10 | 10 | 4 | 4 | 4 | 4 | 10 | 8 | 6 |" in text


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
    assert "pinned by [restart-other-suit-1a2b](../reference/cases.md#case-restart-other-suit-" \
           "1a2b)" in text
    assert "tripoli-restart" not in text
    # a case pinning the rule itself (§6.4/last-player, as conformance/spec-rules.json names
    # rules) is preferred to one pinning only its section
    (tmp_path / "c.json").write_text(json.dumps(
        {"id": "restart-by-last-player", "variant": {"name": "michigan"},
         "pins": ["§6.4/last-player", "§6.1/left-of-dealer"]}))
    text = page(michigan, refs=RuleRefs(load("en"), "michigan", find_cases(tmp_path)))
    restart = next(line for line in text.splitlines() if "After a stop" in line)
    assert "restart-by-last-player" in restart and "restart-other-suit-1a2b" not in restart


def test_the_site_builds_strictly_with_every_page() -> None:
    docs, site = built_site()
    for name in builtin_names():
        for rel in (f"variants/{name}", f"examples/{name}", f"fr/variants/{name}",
                    f"fr/examples/{name}", f"sources/{name}"):
            assert (site / rel / "index.html").is_file(), rel
    for rel in ("matrix", "fr/matrix", "reference/language", "reference/protocol",
                "reference/verification", "reference/cases", "spec/rules"):
        assert (site / rel / "index.html").is_file(), rel


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
