"""``boodle lsp`` driven as an editor drives it: a real LSP client over stdio (pytest-lsp).

Every expectation is worked out from the rules files by hand: the line and column of the
word at fault counted in the text below, the sentences of the rules page from
``reference/boodle/docs/templates/en.toml`` and ``fr.toml``, the spec sections from the
headings of ``spec/rules.md``, the board of ``spec/variants/michigan.boodle`` (boodles A♥
K♣ Q♦ J♠ and a kitty labelled "Kitty" on line 29, one stops phase ``play`` labelled
"Stops" with ``claims: on play``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient

import boodle
from boodle.resources import variants_dir

_HERE = str(Path(boodle.__file__).resolve().parent.parent)
_SERVE = (f"import sys; sys.path.insert(0, {_HERE!r}); from boodle.cli import main; "
          "sys.exit(main(['lsp']))")


# One server per client for the whole module (starting one costs seconds of CPU: pygls'
# protocol types); each test opens documents of its own, in a folder of its own.


async def _start(client: LanguageClient, locale: str | None,
                 options: dict[str, object] | None = None) -> None:
    await client.initialize_session(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), locale=locale, initialization_options=options))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", _SERVE]),
                    scope="module", loop_scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await _start(lsp_client, "en-GB")
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", _SERVE]),
                    scope="module", loop_scope="module")
async def french(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await _start(lsp_client, "fr")
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", _SERVE]),
                    scope="module", loop_scope="module")
async def verifying(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await _start(lsp_client, "en", {"verifyOnSave": True})
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", _SERVE]),
                    scope="module", loop_scope="module")
async def hurried(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await _start(lsp_client, "en", {"verifyOnSave": True, "verifyTimeout": 1})
    yield
    await lsp_client.shutdown_session()


FRIDAY = """\
variant friday extends michigan {
  title "Friday night"
  ante { each player 2 on each boodle
         each player 2 on kity }
  deal { rotation: right }
}
"""
"""A house rule with one error: line 4 (0-based 3), 'kity' at column 26 (9 spaces and
'each player 2 on ' before it)."""


def _open(client: LanguageClient, folder: Path, name: str, text: str) -> str:
    path = folder / name
    with contextlib.suppress(UnicodeEncodeError):  # a lone surrogate: in the editor only
        path.write_text(text, encoding="utf-8")
    uri = from_fs_path(str(path))
    assert uri is not None
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="boodle", version=1,
                                           text=text)))
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    """The diagnostics of the next publication for ``uri`` (one for another document, such
    as the empty list a closed one gets, is passed over)."""
    while True:
        params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri:
            return client.diagnostics[uri]


def _span(d: lsp.Diagnostic | lsp.Location | lsp.Range) -> tuple[int, int, int, int]:
    r = d if isinstance(d, lsp.Range) else d.range
    return (r.start.line, r.start.character, r.end.line, r.end.character)


@pytest.mark.asyncio(loop_scope="module")
async def test_an_error_has_its_range_hint_and_quick_fix(client: LanguageClient,
                                                         tmp_path: Path) -> None:
    uri = _open(client, tmp_path, "friday.boodle", FRIDAY)
    (diag,) = await _diagnostics(client, uri)
    assert _span(diag) == (3, 26, 3, 30)
    assert diag.severity == lsp.DiagnosticSeverity.Error
    assert diag.message == "no section 'kity' on the board\nhint: did you mean kitty?"
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=lsp.CodeActionContext(diagnostics=[diag])))
    assert actions is not None and len(actions) == 1
    action = actions[0]
    assert isinstance(action, lsp.CodeAction) and action.kind == lsp.CodeActionKind.QuickFix
    assert action.title == "did you mean kitty?"
    assert action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[uri]
    assert (_span(edit.range), edit.new_text) == ((3, 26, 3, 30), "kitty")


@pytest.mark.asyncio(loop_scope="module")
async def test_every_independent_error_at_once(client: LanguageClient, tmp_path: Path) -> None:
    # a misspelt keyword on line 2 and a missing ':' on line 4 (0-based 1 and 3): the
    # parser stops at the first; the second is found once the first is repaired
    text = ("variant two extends michigan {\n"
            "  titel \"Two slips\"\n"
            "  deal {\n"
            "    rotation left\n"
            "  }\n"
            "}\n")
    uri = _open(client, tmp_path, "two.boodle", text)
    first, second = await _diagnostics(client, uri)
    assert _span(first) == (1, 2, 1, 7)
    assert first.message.endswith("hint: did you mean title?")
    assert _span(second) == (3, 13, 3, 17)
    assert second.message.startswith("unexpected 'left'; expected \":\"")
    assert "add ':' after 'rotation'" in second.message
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=second.range,
        context=lsp.CodeActionContext(diagnostics=[second])))
    assert actions is not None
    (action,) = [a for a in actions if isinstance(a, lsp.CodeAction)
                 and a.title.startswith("add ':'")]
    assert action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[uri]
    assert (_span(edit.range), edit.new_text) == ((3, 12, 3, 12), ":")


@pytest.mark.asyncio(loop_scope="module")
async def test_missing_blocks_are_all_listed(client: LanguageClient, tmp_path: Path) -> None:
    # a variant of its own with neither deal nor session nor ante (README, "fresh.boodle")
    text = ("variant fresh {\n"
            "  players 3 to 6\n"
            "  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }\n"
            "  board { boodle A♥  kitty }\n"
            "}\n")
    uri = _open(client, tmp_path, "fresh.boodle", text)
    found = await _diagnostics(client, uri)
    messages = [d.message.split("\n")[0] for d in found]
    for block in ("deal", "ante", "session"):
        assert f"variant fresh has no '{block}' block or line" in messages
    assert all(_span(d)[:2] == (0, 0) for d in found)


@pytest.mark.asyncio(loop_scope="module")
async def test_edits_are_debounced_to_the_last_version(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    uri = _open(client, tmp_path, "friday.boodle", FRIDAY)
    assert len(await _diagnostics(client, uri)) == 1
    # three quick edits of 'kity': 'kit', 'kitt', then 'kitty' (no error left); one
    # incremental change (the word's range), the others the whole text
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=3, character=26),
                            end=lsp.Position(line=3, character=30)), text="kit")]))
    for version, word in ((3, "kitt"), (4, "kitty")):
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(
                text=FRIDAY.replace("kity", word))]))
    # the next publication is of version 4 ('kitty': no error); versions 2 and 3, each an
    # error, were never analysed (each change within DEBOUNCE_S of the one before)
    params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert params.uri == uri and params.version == 4
    assert list(params.diagnostics) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_rule_line_a_card_and_extends(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    uri = _open(client, tmp_path, "friday.boodle", FRIDAY.replace("kity", "kitty"))
    await _diagnostics(client, uri)

    async def hover(line: int, character: int) -> str:
        found = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=line, character=character)))
        assert found is not None and isinstance(found.contents, lsp.MarkupContent)
        return found.contents.value

    # 'deal { rotation: right }': en.toml DealSpec "rotation.right", spec §5.1's heading
    rotation = await hover(4, 12)
    assert "After each deal the deal passes to the dealer's right." in rotation
    assert "§5.1 First dealer and rotation" in rotation
    # 'extends michigan': what the file changes (michigan antes 1 on each boodle; its deal
    # block, written in part, puts back the defaults but for rotation: spec §11.2)
    changes = await hover(0, 20)
    assert "Michigan (home profile)" in changes
    assert "deal: rotation: left → right" in changes
    assert 'title: "Friday night"' in changes
    assert "ante: + each player 2 on each boodle" in changes


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_card_says_what_it_pays(client: LanguageClient,
                                                 tmp_path: Path) -> None:
    text = ("variant pays extends michigan {\n"
            "  ante { each player 1 on A♥, K♣\n"
            "         each player 2 on kitty }\n"
            "}\n")
    uri = _open(client, tmp_path, "pays.boodle", text)
    await _diagnostics(client, uri)
    found = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=1, character=26)))  # on 'A♥'
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    # en.toml page.claim_line and page.claim_play, michigan's boodle A♥ and phase "Stops"
    assert "**A♥**: by playing A♥ in the Stops phase." in found.contents.value
    assert _span(found.range) == (1, 26, 1, 28) if found.range else False
    # on the section 'kitty' (line 3, after 9 spaces and 'each player 2 on '): how it is
    # won, en.toml page.claim_out ('going out: ends deal, takes kitty' in the phase Stops)
    found = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=2, character=28)))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    assert "**Kitty**: by going out in the Stops phase." in found.contents.value
    assert found.range is not None and _span(found.range) == (2, 26, 2, 31)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_in_the_editors_language(french: LanguageClient, tmp_path: Path) -> None:
    uri = _open(french, tmp_path, "friday.boodle", FRIDAY.replace("kity", "kitty"))
    await _diagnostics(french, uri)
    found = await french.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=4, character=12)))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    french_text = _template("fr", "DealSpec", "rotation.right")
    assert french_text in found.contents.value
    assert "§5.1" in found.contents.value  # its spec section, as in English


def _template(lang: str, table: str, key: str) -> str:
    import tomllib

    path = Path(_HERE) / "boodle" / "docs" / "templates" / f"{lang}.toml"
    with path.open("rb") as handle:
        return str(tomllib.load(handle)[table][key])


async def _labels(client: LanguageClient, uri: str, line: int, character: int) -> list[str]:
    found = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=line, character=character)))
    assert found is not None
    items = found.items if isinstance(found, lsp.CompletionList) else found
    return [item.label for item in items]


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_at_several_positions(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "club.boodle").write_text("variant club extends michigan {\n}\n",
                                          encoding="utf-8")

    async def offered(name: str, text: str, line: int, character: int) -> list[str]:
        # the text as it is while being typed: the line at the cursor is not finished
        uri = _open(client, tmp_path, name, text)
        await _diagnostics(client, uri)
        return await _labels(client, uri, line, character)

    head = "variant mine extends michigan {\n"
    # after 'rotation:' (grammar: DIRECTION is left or right)
    rotation = await offered("a.boodle", head + "  deal { rotation:  }\n}\n", 1, 19)
    assert sorted(rotation) == ["left", "right"]
    # after 'on' in an ante line: michigan's five sections, and the ante targets' keywords
    on = await offered("b.boodle", head + "  ante { each player 2 on  }\n}\n", 1, 27)
    assert {"A♥", "K♣", "Q♦", "J♠", "kitty"} <= set(on)
    assert {"each", "every"} <= set(on)
    # a new line of the variant block: its line keywords, not those of a deal block
    line = await offered("c.boodle", head + "  \n}\n", 1, 2)
    assert {"players", "deck", "board", "ante", "deal", "session", "phase", "carry"} <= set(line)
    assert "rotation" not in line
    # after 'restart: last player, ' (grammar: lead_rule is who "," card_choice): the
    # phrases that end the line, and 'lowest', the keyword they start with
    restart = await offered("d.boodle", head + "  phase play is stops {\n"
                            "    restart: last player, \n  }\n}\n", 2, 27)
    assert {"lowest card", "lowest of other suit", "lowest of same suit"} <= set(restart)
    assert "lowest" in restart
    # after 'extends': the built-ins and the file beside this one, not this one
    base = await offered("mine.boodle", "variant mine extends \n}\n", 0, 21)
    assert {"michigan", "tripoli", "club"} <= set(base)
    assert "mine" not in base


@pytest.mark.asyncio(loop_scope="module")
async def test_go_to_definition(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path, "friday.boodle", FRIDAY.replace("kity", "kitty"))
    await _diagnostics(client, uri)

    async def where(line: int, character: int) -> lsp.Location:
        found = await client.text_document_definition_async(lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=line, character=character)))
        assert isinstance(found, lsp.Location)
        return found

    michigan = from_fs_path(str((variants_dir() / "michigan.boodle").resolve()))
    base = await where(0, 26)  # on 'michigan'
    assert base.uri == michigan and _span(base) == (0, 0, 0, 0)
    kitty = await where(3, 27)  # on 'kitty': michigan.boodle line 29, 'kitty "Kitty"'
    assert kitty.uri == michigan
    assert _span(kitty) == (28, 4, 28, 17)


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols(client: LanguageClient, tmp_path: Path) -> None:
    uri = _open(client, tmp_path, "friday.boodle", FRIDAY.replace("kity", "kitty"))
    await _diagnostics(client, uri)
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert found is not None
    (variant,) = found
    assert isinstance(variant, lsp.DocumentSymbol)
    assert variant.name == "variant friday" and variant.detail == "extends michigan"
    assert [c.name for c in variant.children or []] == ["title", "ante", "deal"]
    ante = (variant.children or [])[1]
    assert [c.name for c in ante.children or []] == ["ante line", "ante line"]
    assert _span(ante.children[1].range) == (3, 9, 3, 31)  # type: ignore[index]


@pytest.mark.asyncio(loop_scope="module")
async def test_warnings_where_legal_rules_are_suspect(client: LanguageClient,
                                                      tmp_path: Path) -> None:
    # 'carry: unclaimed' is michigan's own line (spec/variants/michigan.boodle): it changes
    # nothing, and the house rule as a whole changes nothing
    text = ("variant same extends michigan {\n"
            "  carry: unclaimed\n"
            "}\n")
    uri = _open(client, tmp_path, "same.boodle", text)
    found = await _diagnostics(client, uri)
    assert {(_span(d)[:2], d.severity) for d in found} == {
        ((1, 2), lsp.DiagnosticSeverity.Warning), ((0, 21), lsp.DiagnosticSeverity.Warning)}
    assert any("changes nothing from michigan" in d.message for d in found)


FUZZ = Path(__file__).resolve().parent.parent / "fuzz_regressions"


@pytest.mark.asyncio(loop_scope="module")
async def test_never_a_crash_on_the_fuzzers_inputs(client: LanguageClient,
                                                   tmp_path: Path) -> None:
    """Each input the rules-file fuzzer once broke gets diagnostics, and the server still
    answers afterwards (a hover, a completion, the outline)."""
    files = sorted(FUZZ.glob("*.json"))
    assert files
    for i, case in enumerate(files):
        text = json.loads(case.read_text(encoding="utf-8"))["text"]
        uri = _open(client, tmp_path, f"fuzz{i}.boodle", text)
        found = await asyncio.wait_for(_diagnostics(client, uri), 30)
        assert found, case.name  # every one of them is an error
        assert all(d.severity == lsp.DiagnosticSeverity.Error for d in found)
        assert not any(d.code == "internal" for d in found), (case.name, found)
        await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=0, character=1)))
        await _labels(client, uri, 0, 0)
        await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri)))


@pytest.mark.asyncio(loop_scope="module")
async def test_verify_on_save(verifying: LanguageClient, tmp_path: Path) -> None:
    """With verifyOnSave, a save runs boodle verify in the background and its report joins
    the diagnostics: michigan at 3 players only (its stops phase ends: every card played
    leaves a hand, spec §6.3), termination proven by z3 (spec/verification.md)."""
    text = "variant three extends michigan {\n  players 3 to 3\n}\n"
    uri = _open(verifying, tmp_path, "three.boodle", text)
    assert list(await _diagnostics(verifying, uri)) == []
    verifying.text_document_did_save(lsp.DidSaveTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    found: list[lsp.Diagnostic] = []
    for _ in range(4):  # the save's own publication, then the report's
        await asyncio.wait_for(_diagnostics(verifying, uri), 180)
        found = list(verifying.diagnostics[uri])
        if found:
            break
    messages = [d.message for d in found]
    assert "boodle verify: termination: proven (z3, 3 players)" in messages, messages
    assert all(d.severity != lsp.DiagnosticSeverity.Error for d in found), messages
    assert all(_span(d) == (0, 0, 0, 7) for d in found)


@pytest.mark.asyncio(loop_scope="module")
async def test_columns_are_counted_in_utf16(client: LanguageClient, tmp_path: Path) -> None:
    """LSP columns are UTF-16 units: the joker 🃏 (U+1F0CF, outside the BMP) is one code
    point but two units, so 'palyers' after '  title "🃏" ' starts at unit 13 (12 code
    points), and so does its quick fix."""
    text = 'variant wide extends michigan {\n  title "🃏" palyers 3 to 6\n}\n'
    uri = _open(client, tmp_path, "wide.boodle", text)
    (diag,) = await _diagnostics(client, uri)
    assert _span(diag) == (1, 13, 1, 20)
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=lsp.CodeActionContext(diagnostics=[diag])))
    assert actions is not None
    (action,) = actions
    assert isinstance(action, lsp.CodeAction) and action.edit is not None
    assert action.edit.changes is not None
    (edit,) = action.edit.changes[uri]
    assert (_span(edit.range), edit.new_text) == ((1, 13, 1, 20), "players")


@pytest.mark.asyncio(loop_scope="module")
async def test_an_error_in_the_base_points_at_its_line(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    """A deck without aces breaks michigan's 'boodle A♥' (spec/variants/michigan.boodle line
    25, A♥ at column 12): the error is on this file's deck line, and the base's line is its
    related information."""
    text = "variant small extends michigan {\n  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K }\n}\n"
    uri = _open(client, tmp_path, "small.boodle", text)
    found = await _diagnostics(client, uri)
    first = found[0]
    assert first.message.startswith("boodle card A♥ is not in the deck")
    assert _span(first)[:2] == (1, 2)
    assert first.related_information is not None
    (base,) = first.related_information
    michigan = from_fs_path(str((variants_dir() / "michigan.boodle").resolve()))
    assert base.location.uri == michigan and _span(base.location)[:2] == (24, 11)


UGLY = "variant   friday   extends michigan{\ntitle \"Friday night\"   # shown\n" \
       "      # the deal\ndeal{rotation : right}\n}\n"
"""FRIDAY laid out badly: the canonical form (``boodle fmt``'s rules, tests/unit/test_fmt.py)
indents each line of a block by two spaces, puts one space before '{', none before ':',
two before a trailing comment; a comment on a line of its own goes with the line after it,
at its indentation."""


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_gives_the_canonical_layout(client: LanguageClient,
                                                     tmp_path: Path) -> None:
    uri = _open(client, tmp_path, "ugly.boodle", UGLY)
    await _diagnostics(client, uri)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None and len(edits) == 1
    assert _span(edits[0].range) == (0, 0, 5, 0)  # the whole text: 5 lines and an empty one
    assert edits[0].new_text == ('variant friday extends michigan {\n'
                                 '  title "Friday night"  # shown\n'
                                 '  # the deal\n'
                                 '  deal {\n'
                                 '    rotation: right\n'
                                 '  }\n'
                                 '}\n')
    # a text with an error is not formatted (its diagnostics say why)
    broken = _open(client, tmp_path, "broken.boodle", UGLY.replace("right", "rigth"))
    await _diagnostics(client, broken)
    assert not await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=broken),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))


MANY = ("variant many extends michigan {\n"
        "  ante { each player 2 on kity }\n"
        "  phase extra is holding { pays: A♥, K♠ }\n"
        "}\n")
"""Two independent rules errors (michigan's board: boodles A♥ K♣ Q♦ J♠, a kitty): 'kity'
on line 2 after '  ante { each player 2 on ' (26 characters), 'K♠' on line 3 after
'  phase extra is holding { pays: A♥, ' (37 characters)."""


@pytest.mark.asyncio(loop_scope="module")
async def test_the_same_errors_and_ranges_as_boodle_check(client: LanguageClient,
                                                          tmp_path: Path) -> None:
    import io

    from boodle.cli import main

    uri = _open(client, tmp_path, "many.boodle", MANY)
    found = await _diagnostics(client, uri)
    shown = sorted((_span(d), d.message) for d in found)
    assert shown == [((1, 26, 1, 30), "no section 'kity' on the board\nhint: did you mean kitty?"),
                     ((2, 37, 2, 39), "no section 'K♠' on the board\nhint: did you mean K♣?")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert main(["check", str(tmp_path / "many.boodle")]) == 1
    # boodle check's places are 1-based: the same lines and columns, the same messages
    said = sorted((int(line) - 1, int(column) - 1, message) for line, column, message in
                  re.findall(r"many\.boodle:(\d+):(\d+): error: (.*)", out.getvalue()))
    assert said == [(start[0], start[1], message.split("\n")[0])
                    for start, message in shown]


@pytest.mark.asyncio(loop_scope="module")
async def test_the_outline_has_the_phases_and_their_rules(client: LanguageClient,
                                                          tmp_path: Path) -> None:
    text = ("variant fresh {\n  players 3 to 6\n  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }\n"
            "  board { boodle A♥  kitty }\n  ante { each player 1 on every section }\n"
            "  deal { widow: last in each round }\n"
            "  phase play is stops {\n    first lead: left of dealer, lowest of chosen suit\n"
            "    restart: last player, lowest of other suit\n"
            "    if none: lead lowest of same suit\n"
            "    stop: top rank, next card held by nobody\n"
            "  }\n  session { start: 50 chips  end: after 1 rotation }\n}\n")
    uri = _open(client, tmp_path, "fresh.boodle", text)
    # it builds (its kitty, which no going out takes, is a warning)
    assert all(d.severity == lsp.DiagnosticSeverity.Warning
               for d in await _diagnostics(client, uri))
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert found is not None
    (variant,) = found
    assert isinstance(variant, lsp.DocumentSymbol) and variant.name == "variant fresh"
    children = variant.children or []
    assert [c.name for c in children] == ["players", "deck", "board", "ante", "deal",
                                          "phase play", "session"]
    phase = children[5]
    assert phase.kind == lsp.SymbolKind.Function and phase.detail == "stops"
    assert _span(phase.range) == (6, 2, 11, 3)  # 'phase play …' to its '}' on line 12
    assert [c.name for c in phase.children or []] == ["first lead", "restart", "if none",
                                                      "stop"]


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_offers_the_cards_of_this_deck(client: LanguageClient,
                                                        tmp_path: Path) -> None:
    # a deck of the ranks 7 to A (spec §2: the deck is its ranks times its suits): 32 cards,
    # no 2♣; michigan's boodles A♥ K♣ Q♦ J♠ are in it, so the house rule builds
    text = ("variant short extends michigan {\n"
            "  deck { ranks 7 8 9 10 J Q K A }\n"
            "  ante { each player 1 on  }\n"
            "}\n")
    uri = _open(client, tmp_path, "short.boodle", text)
    await _diagnostics(client, uri)
    labels = set(await _labels(client, uri, 2, 26))  # after 'on '
    deck = {rank + suit for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")
            for suit in "♣♦♥♠"}
    assert deck <= labels
    assert not {"2♣", "6♥"} & labels
    assert "kitty" in labels


@pytest.mark.asyncio(loop_scope="module")
async def test_a_section_nothing_claims_is_a_warning(client: LanguageClient,
                                                     tmp_path: Path) -> None:
    # a pot on michigan's board: no card wins it (it is no boodle), no phase pays it (the
    # one phase, play, pays the boodles and the kitty: spec §6.6), going out takes the kitty
    text = ("variant potted extends michigan {\n"
            '  board { boodle A♥  boodle K♣  boodle Q♦  boodle J♠  kitty "Kitty"  pot }\n'
            "}\n")
    uri = _open(client, tmp_path, "potted.boodle", text)
    (warning,) = await _diagnostics(client, uri)
    assert warning.severity == lsp.DiagnosticSeverity.Warning
    # 'pot' after '  board { ' (10), four 'boodle X  ' (11 each) and 'kitty "Kitty"  ' (15)
    assert _span(warning)[:2] == (1, 69)
    assert "section 'pot'" in warning.message


def test_a_counterexamples_trace_is_related_information() -> None:
    """A counterexample cannot come from a rules file (the engines have no known bug), so
    the conversion is driven directly: each line of the trace is one related information
    at the variant line, the note itself an error."""
    from boodle.lsp.server import verify_diagnostics
    from boodle.lsp.verify_on_save import VerifyNote

    where = lsp.Range(start=lsp.Position(line=0, character=0),
                      end=lsp.Position(line=0, character=7))
    (diag,) = verify_diagnostics("file:///v.boodle", where, [VerifyNote(
        "error", "boodle verify: termination: counterexample", ("deal 1: 3♣ played",
                                                                "deal 1: no move"))])
    assert diag.severity == lsp.DiagnosticSeverity.Error
    assert [r.message for r in diag.related_information or []] == ["deal 1: 3♣ played",
                                                                   "deal 1: no move"]
    assert all(r.location.uri == "file:///v.boodle" and r.location.range == where
               for r in diag.related_information or [])


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux: /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                out.add(int(stat.parent.name))
    return out


async def _until(check: Callable[[], bool], seconds: float) -> None:
    for _ in range(int(seconds / 0.1)):
        if check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("timed out")


@pytest.mark.asyncio(loop_scope="module")
async def test_verify_on_save_is_stopped_by_the_next_save_and_by_closing(
        verifying: LanguageClient, tmp_path: Path) -> None:
    """Michigan at 3 to 8 players takes boodle verify far longer than this test: a save
    starts one child process, a second save replaces it by another, closing the file kills
    it (the server then has no child left)."""
    server = verifying._server  # the server process pytest-lsp started
    assert server is not None
    uri = _open(verifying, tmp_path, "long.boodle", "variant long extends michigan {\n}\n")
    await _diagnostics(verifying, uri)
    save = lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    verifying.text_document_did_save(save)
    await _until(lambda: _children(server.pid), 30)
    (first,) = _children(server.pid)
    verifying.text_document_did_save(save)
    await _until(lambda: _children(server.pid) and first not in _children(server.pid), 30)
    verifying.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    await _until(lambda: not _children(server.pid), 30)


@pytest.mark.asyncio(loop_scope="module")
async def test_verify_on_save_says_what_nothing_verified(verifying: LanguageClient,
                                                         tmp_path: Path) -> None:
    """Michigan whose going out does not end the deal (spec §7): the builder takes it, but
    the z3 model and the engine do not have it, so no property is proven or checked at 3
    players: each is a warning (verify_on_save: "a property that no method proved or
    checked"), none an error, none said proven."""
    text = (variants_dir() / "michigan.boodle").read_text(encoding="utf-8")
    assert "going out: ends deal, takes kitty" in text and "  players 3 to 8" in text
    text = (text.replace("going out: ends deal, takes kitty", "going out: takes kitty")
            .replace("variant michigan {", "variant endless {")
            .replace("  players 3 to 8", "  players 3 to 3"))
    uri = _open(verifying, tmp_path, "endless.boodle", text)
    await _diagnostics(verifying, uri)
    verifying.text_document_did_save(lsp.DidSaveTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    found: list[lsp.Diagnostic] = []
    for _ in range(4):  # the save's own publication, then the report's
        await asyncio.wait_for(_diagnostics(verifying, uri), 180)
        found = [d for d in verifying.diagnostics[uri] if d.source == "boodle verify"]
        if found:
            break
    for prop in ("chip conservation", "card conservation", "termination", "progress",
                 "well-formedness"):
        assert any(d.message.startswith(f"boodle verify: {prop} not verified (3 players)")
                   and d.severity == lsp.DiagnosticSeverity.Warning for d in found), prop
    assert not any(re.match(r"boodle verify: [^:]+: proven", d.message)
                   or d.severity == lsp.DiagnosticSeverity.Error for d in found)
    # the session's end is a row of no player count: said without an empty '()'
    assert any(d.message.startswith("boodle verify: session end not verified: ")
               for d in found)


@pytest.mark.asyncio(loop_scope="module")
async def test_the_read_only_folder_is_the_installed_packages_only(
        client: LanguageClient) -> None:
    """Run from a checkout the built-ins are spec/variants, the project's own files to edit:
    boodle/readOnlyFolder names no folder.  Installed (as CI installs it: ``pip install .``),
    they are package data in boodle/data/variants (boodle.resources), and that folder is the
    answer."""
    installed = Path(_HERE) / "boodle" / "data" / "variants"
    answer = await client.protocol.send_request_async("boodle/readOnlyFolder", None)
    assert answer == (str(installed.resolve()) if installed.exists() else None)


def test_the_read_only_folder_of_an_installed_package(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed, the built-ins are package data beside the code (boodle/data/variants):
    that folder is the one the editor is told to keep read-only."""
    import boodle.resources
    from boodle.lsp import server

    installed = Path(server.__file__).resolve().parent.parent / "data" / "variants"
    monkeypatch.setattr(boodle.resources, "variants_dir", lambda: installed)
    assert server.read_only_folder() == str(installed)
    monkeypatch.setattr(boodle.resources, "variants_dir", lambda: tmp_path)
    assert server.read_only_folder() is None


@pytest.mark.asyncio(loop_scope="module")
async def test_verify_on_save_is_bounded(hurried: LanguageClient, tmp_path: Path) -> None:
    """With verifyTimeout 1, a verification of michigan at 3 to 8 players (far longer than a
    second) is stopped: one warning says so on the variant line, and no child is left."""
    server = hurried._server
    assert server is not None
    uri = _open(hurried, tmp_path, "long.boodle", "variant long extends michigan {\n}\n")
    await _diagnostics(hurried, uri)
    hurried.text_document_did_save(lsp.DidSaveTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    found: list[lsp.Diagnostic] = []
    for _ in range(4):  # the save's own publication, then the report's
        await asyncio.wait_for(_diagnostics(hurried, uri), 60)
        found = [d for d in hurried.diagnostics[uri] if d.source == "boodle verify"]
        if found:
            break
    (stopped,) = found
    assert stopped.message == "boodle verify stopped after 1 s: nothing proven yet"
    assert stopped.severity == lsp.DiagnosticSeverity.Warning
    assert _span(stopped) == (0, 0, 0, 7)
    await _until(lambda: not _children(server.pid), 30)
