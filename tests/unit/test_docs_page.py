"""``boodle docs page FILE``: a house rule's page, standing alone (a fresh user could check,
play and verify their house rule but not document it: ``docs build`` writes the built-ins only).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boodle.cli import main

FRIDAY = ('variant friday extends michigan {\n  title "Friday night"\n'
          '  session { start: 30 chips }\n}\n')


def _friday(tmp_path: Path) -> Path:
    path = tmp_path / "friday.boodle"
    path.write_text(FRIDAY, encoding="utf-8")
    return path


def test_a_house_rules_page_shows_its_changes_with_plain_references(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["docs", "page", str(_friday(tmp_path))]) == 0
    page = capsys.readouterr().out
    assert page.startswith("# Friday night\n")
    assert ("This house rule is Michigan (home profile), the built-in variant `michigan`, with "
            "the changes below") in page
    # the one change, line 3 of the file, spec §10 (session); written as plain text
    assert ("1. Each player starts with 30 chips. <small>(`friday.boodle:3` · spec §10)</small>"
            in page)
    # only what differs from michigan: no board, antes or stops phase of its own
    assert "## Session end" in page and "## Board" not in page
    assert "## Worked example: Friday night" in page and "Deal 1: A deals." in page
    assert "](" not in page  # no link to a site page that is not there


def test_the_page_in_french_and_into_a_file(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "friday.fr.md"
    assert main(["docs", "page", str(_friday(tmp_path)), "--lang", "fr", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote the page of {tmp_path / 'friday.boodle'} into {out}\n"
    page = out.read_text(encoding="utf-8")
    assert "1. Chaque joueur commence avec 30 jetons." in page
    assert "## Exemple commenté\u00a0: Friday night" in page  # a non-breaking space before ':'


def test_the_page_in_italian_and_in_portuguese(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    for lang, start, example in (("it", "Ogni giocatore comincia con 30 fiches.",
                                  "## Esempio commentato: Friday night"),
                                 ("pt", "Cada jogador começa com 30 fichas.",
                                  "## Exemplo comentado: Friday night")):
        out = tmp_path / f"friday.{lang}.md"
        assert main(["docs", "page", str(_friday(tmp_path)), "--lang", lang, "--out",
                     str(out)]) == 0
        page = out.read_text(encoding="utf-8")
        assert f"1. {start}" in page and example in page, lang
        # a house rule of a built-in variant: the base's title in the page's language
        assert "Michigan (profilo di casa)" in page or "Michigan (perfil caseiro)" in page


def test_a_rules_file_with_an_error_gets_its_caret_and_no_page(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.boodle"
    bad.write_text("variant bad extends michigan {\n  session { start: 30 }\n}\n", "utf-8")
    assert main(["docs", "page", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "bad.boodle:2:23: error: unexpected '}'" in captured.err
    assert "hint: add 'chips' after '30'" in captured.err


RED = re.compile(r'<span class="card-red" style="color:#c62828">([^<]+)</span>')


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pt"])
def test_a_page_read_outside_the_site_shows_red_cards_red_and_no_doubled_parentheses(
        tmp_path: Path, capsys, lang: str) -> None:  # type: ignore[no-untyped-def]
    # issue 21: outside mkdocs there is no stylesheet, so the colour is an inline style
    for source in (str(_friday(tmp_path)), "pope-joan"):
        assert main(["docs", "page", source, "--lang", lang]) == 0
        page = capsys.readouterr().out
        reds = RED.findall(page)
        assert reds and all(card[-1] in "♥♦" for card in reds), (source, reds[:5])
        # the cards of the hands and the cards that pay a section are all wrapped (a
        # section's label, such as 'A♥ 4' on the ledger, is the rules file's text, not a card)
        hands = [line for line in page.splitlines() if re.match(r"- [A-H]\u00a0?: ", line)]
        paid = [line for line in page.splitlines() if re.match(r"(\d+\.|-) \*\*", line)]
        assert hands and (paid or source != "pope-joan")
        for line in hands + [line.split("**", 2)[2] for line in paid]:
            bare = re.findall(r"(?<![\w>])(?:10|[2-9JQKAVDRF])[♥♦]", RED.sub("", line))
            assert not bare, (source, lang, line)
        shown = re.sub(r"\]\([^)]*\)", "]", re.sub(r"<[^>]+>", "", page))
        assert "((" not in shown and "))" not in shown and ") (" not in shown, (source, lang)


@pytest.mark.parametrize("lang", ["fr", "it", "pt"])
def test_a_house_rule_keeping_its_bases_description_shows_it_in_the_pages_language(
        tmp_path: Path, capsys, lang: str) -> None:  # type: ignore[no-untyped-def]
    """Tried as a new user: friday.boodle (a title, no `about`) in French opened with
    Michigan's description in English, "Four boodle sections and a kitty; …", under a
    French page; the description kept from michigan is michigan's, translated."""
    from boodle.docs.templates import load as load_t
    from boodle.language.variants import load

    assert main(["docs", "page", str(_friday(tmp_path)), "--lang", lang]) == 0
    page = capsys.readouterr().out
    english = load("michigan").about
    assert english.startswith("Four boodle sections and a kitty")  # michigan.boodle's about
    assert english not in page
    assert load_t(lang).text("variants.michigan.about") in page.split("\n## ")[0]
    assert page.startswith("# Friday night\n")  # its own title stays as written
    # a house rule of that house rule (a file extending a file): the same words
    (tmp_path / "f2.boodle").write_text('variant f2 extends friday {\n  title "F2"\n}\n',
                                        encoding="utf-8")
    assert main(["docs", "page", str(tmp_path / "f2.boodle"), "--lang", lang]) == 0
    page = capsys.readouterr().out
    assert english not in page
    assert load_t(lang).text("variants.michigan.about") in page.split("\n## ")[0]


@pytest.mark.parametrize(("lang", "heading", "withhold"), [
    ("en", "## Widow sale", "The dealer decides first"),
    ("fr", "## Vente de la veuve", "Le donneur décide d'abord"),
    ("it", "## Vendita della widow", "Il mazziere decide prima"),
    ("pt", "## Venda da mão extra", "O distribuidor decide primeiro"),
])
def test_the_dealers_withhold_comes_first_in_the_widow_sale_as_it_happens(
        lang: str, heading: str, withhold: str) -> None:
    """Spec §5.4: `dealer: may withhold` is decided "before anything else of the sale", so
    its rule is the sale's first, before the offer (not after the other lines)."""
    from boodle.docs.links import RuleRefs
    from boodle.docs.templates import load
    from boodle.docs.variant_page import VariantPage
    from boodle.language.variants import load as load_variant

    t = load(lang)
    name = "michigan-widow-sale-optional"
    page = VariantPage(load_variant(name), t, RuleRefs(t, name, [])).markdown()
    section = page.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    items = [line for line in section.splitlines() if re.match(r"\d+\. ", line)]
    assert items[0].startswith(f"1. {withhold}"), items[0]
    assert sum(withhold in line for line in items) == 1


@pytest.mark.parametrize(("lang", "withheld", "unsold"), [
    ("en", "- A withholds the widow (dealer): nobody takes it; it stays a blocker",
     "nobody takes the widow"),
    ("fr", "- A ne propose pas la veuve (le donneur)\u00a0: personne ne la prend\u00a0; elle "
     "reste un bloqueur", "personne ne prend la veuve"),
    ("it", "- A non offre la widow (il mazziere): nessuno la prende; resta una fermata",
     "nessuno prende la widow"),
    ("pt", "- A não oferece a mão extra (o distribuidor): ninguém fica com ela; continua um "
     "bloqueador", "ninguém fica com a mão extra"),
])
def test_the_worked_example_says_a_withheld_widow_once(lang: str, withheld: str,
                                                       unsold: str) -> None:
    """Spec §5.4 `dealer: may withhold`: withheld, nobody buys and the widow stays a blocker;
    the seeded example's dealer A withholds it, and its page says so in one line."""
    from boodle.docs.example import example_markdown
    from boodle.docs.templates import load
    from boodle.language.variants import load as load_variant

    text = example_markdown(load_variant("michigan-widow-sale-optional"), load(lang))
    assert withheld in text.splitlines()
    assert unsold not in text


def test_docs_build_counts_pages_as_pages_and_names_the_other_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``boodle docs build`` writes Markdown pages, the style sheet and the mkdocs hooks file:
    its line counts the pages (3 here) and names the 2 other files, not "wrote 5 pages"."""
    import boodle.docs.site as site

    out = tmp_path / "docs"
    written = [out / "index.md", out / "variants/michigan.md", out / "index.fr.md",
               out / "assets/boodle.css", out / site.HOOKS]
    monkeypatch.setattr(site, "build_docs", lambda _out: written)
    assert main(["docs", "build", "--out", str(out)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (f"wrote 3 pages into {out}/, and 2 other files: assets/boodle.css "
                     f"(the site's style sheet), {site.HOOKS} (mkdocs' hooks)")


def test_the_protocol_page_folds_each_schema_block_and_keeps_it_whole() -> None:
    """The site's protocol page (from conformance/PROTOCOL.md) shows each message's JSON
    Schema folded in a <details> as plain text (no highlighting and line anchors, which made
    the page's HTML 394 KB): still the schema file's definition, named in its summary."""
    import html
    import json

    from boodle.docs.site import protocol_page
    from boodle.docs.templates import load

    root = Path(__file__).resolve().parents[2]
    schema = json.loads((root / "conformance/schema/protocol.schema.json").read_text("utf-8"))
    names = re.findall(r"<!-- schema: (\w+) -->\n```json\n",
                       (root / "conformance/PROTOCOL.md").read_text("utf-8"))
    text = protocol_page(load("en"))
    folded = re.findall(r'<details class="schema">\n<summary>JSON Schema of <code>(\w+)</code>'
                        r'</summary>\n<pre><code>(.*?)</code></pre>\n</details>', text, re.S)
    assert len(names) >= 5 and [name for name, _ in folded] == names
    for name, body in folded:
        assert json.loads(html.unescape(body)) == schema["$defs"][name], name
    assert "<!-- schema:" not in text and "```json" not in text
    assert text.startswith("# ")  # the document's own heading stays the page's


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "- phase Poker (poker): every other player folded, nobody shows; D takes the pot "
     "uncontested"),
    ("fr", "- phase Poker (poker)\u00a0: tous les autres se sont couchés, personne ne montre sa "
     "main\u00a0; D prend le pot sans adversaire"),
    ("it", "- fase Poker (poker): tutti gli altri hanno lasciato, nessuno mostra la mano; D "
     "prende il piatto senza avversari"),
    ("pt", "- fase Poker (pôquer): todos os outros desistiram, ninguém mostra a mão; D leva o "
     "pote sem disputa"),
])
def test_a_showdown_everyone_folded_to_says_nobody_shows(lang: str, line: str) -> None:
    """Spec §8.3: when every other player folds, the last one takes the pot without showing:
    the worked example's line said 'phase Poker (poker): ; best hand: D' (an empty list)."""
    from boodle.docs.example import _Page, _showdown
    from boodle.docs.templates import load
    from boodle.engine.events import Showdown
    from boodle.language.variants import load as load_variant

    page = _Page(load_variant("tripoley-as-sold"), load(lang), 4)
    _showdown(page, Showdown("poker", (), (3,)))
    assert page.lines == [line]


def test_a_house_rule_without_a_source_line_does_not_claim_its_bases_sources(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by a new user: the page said "Sources: 001…, 000…" of a file citing nothing.
    michigan.boodle's own source lines are 001 and 000 (spec/variants/michigan.boodle)."""
    assert main(["docs", "page", str(_friday(tmp_path))]) == 0
    page = capsys.readouterr().out
    assert ("No sources of its own; those of Michigan (home profile): "
            "`001_a6108fd72e47ea5f.txt`, `000_1cd38874b08dd73a.txt`.") in page
    assert "\nSources: " not in page
    cited = tmp_path / "cited.boodle"
    cited.write_text(FRIDAY.replace("variant friday", "variant cited").replace(
        '"Friday night"\n', '"Friday night"\n  source "https://example.org/friday"\n'),
        encoding="utf-8")
    assert main(["docs", "page", str(cited)]) == 0
    page = capsys.readouterr().out  # a source line adds to the base's (spec §11.1)
    assert ("Sources: `001_a6108fd72e47ea5f.txt`, `000_1cd38874b08dd73a.txt`, "
            "`https://example.org/friday`.") in page
    assert "No sources of its own" not in page


_WITHDRAW = ('variant friday-tripoley extends tripoley-as-sold {{\n'
             '  widow sale {{\n    offer: auction unseen at 2\n    price to: dealer\n'
             '    dealer: {dealer}\n    high bidder: may withdraw\n  }}\n}}\n')


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The highest bidder pays the bid to the dealer and exchanges"),
    ("fr", "Le plus offrant paie son enchère au donneur et échange"),
    ("it", "Chi offre di più paga l'offerta al mazziere e scambia"),
    ("pt", "Quem der o maior lance paga-o ao distribuidor e troca"),
])
def test_a_bid_paid_to_the_dealer_contracts_the_article(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, said: str) -> None:
    """Found by a new user: 'paie son enchère à le donneur', 'a il mazziere', 'a o
    distribuidor' (à + le is au, a + il is al, a + o is ao: French, Italian and Portuguese
    grammar); spec §5.4 'price to: dealer'."""
    path = tmp_path / "friday-tripoley.boodle"
    path.write_text(_WITHDRAW.format(dealer="may swap first"), encoding="utf-8")
    assert main(["docs", "page", str(path), "--lang", lang]) == 0
    page = capsys.readouterr().out
    assert said in page
    assert not re.search(r"\b(à le|a il|a o) ", page)


@pytest.mark.parametrize(("dealer", "follows"), [("may swap first", False), ("may swap", True)])
def test_a_withdrawn_bid_names_the_dealers_swap_only_when_it_follows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], dealer: str, follows: bool) -> None:
    """Found by a new user: under 'dealer: may swap first' the page said the dealer's chance
    follows a withdrawn bid, but the dealer's chance came before the offer (spec §5.4: "the
    dealer's chance under `dealer: may swap` without `first`, else the widow stays")."""
    path = tmp_path / "friday-tripoley.boodle"
    path.write_text(_WITHDRAW.format(dealer=dealer), encoding="utf-8")
    assert main(["docs", "page", str(path)]) == 0
    rule = next(line for line in capsys.readouterr().out.splitlines()
                if "may still withdraw the bid" in line)
    assert ("then the dealer may swap" in rule) is follows
    assert ("the widow stays face down" in rule) is not follows
    assert "if the dealer may swap" not in rule
