"""The VS Code extension's TextMate grammar (editors/vscode/syntaxes/boodle.tmLanguage.json).

It is generated from the Lark grammar's words (:mod:`boodle.docs.textmate`), like the
Pygments lexer: the shipped file must be the generated one, and it must highlight every
shipped variant without an unknown token (what it cannot name is ``invalid.illegal``).
The scopes expected below are read off the lines by hand: ``boodle`` and ``kitty`` are
words of grammar/boodle.lark, ``deck`` opens a block, ``A♥`` and ``10H`` are cards.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boodle.docs.textmate import grammar, grammar_json, tokenise
from boodle.resources import variants_dir

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "editors" / "vscode" / "syntaxes" / "boodle.tmLanguage.json"
RULES = grammar()["patterns"]
VARIANTS = sorted(variants_dir().rglob("*.boodle"))


def test_the_shipped_grammar_is_the_generated_one() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == grammar_json(), (
        "regenerate it: python -m boodle.docs.textmate > " + str(SHIPPED.relative_to(ROOT)))
    package = json.loads((SHIPPED.parent.parent / "package.json").read_text(encoding="utf-8"))
    (entry,) = package["contributes"]["grammars"]
    assert entry["scopeName"] == grammar()["scopeName"] == "source.boodle"


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_every_shipped_variant_has_no_unknown_token(path: Path) -> None:
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        for text, scope in tokenise(line, RULES):
            unknown = scope == "invalid.illegal.boodle" or (scope is None and text.strip())
            assert not unknown, f"{path.name}:{number}: {text!r} has no scope"


def _scopes(line: str) -> list[tuple[str, str]]:
    return [(text, scope.removesuffix(".boodle")) for text, scope in tokenise(line, RULES)
            if scope is not None]


def test_a_board_line_by_hand() -> None:
    assert _scopes('  boodle A♥  kitty "Kitty"  # the kitty') == [
        ("boodle", "keyword.other"), ("A♥", "constant.language.card"),
        ("kitty", "keyword.other"), ('"Kitty"', "string.quoted.double"),
        ("# the kitty", "comment.line.number-sign")]
    assert _scopes("deck { remove 10H, 2♣️ }") == [
        ("deck", "keyword.declaration"), ("{", "punctuation.section.block"),
        ("remove", "keyword.other"), ("10H", "constant.language.card"),
        (",", "punctuation.separator"), ("2♣\ufe0f", "constant.language.card"),
        ("}", "punctuation.section.block")]


def test_what_the_parser_refuses_is_marked() -> None:
    assert (";", "invalid.illegal") in _scopes("players 3 to 6 ;")
    # a name with a keyword inside it is one name, not a keyword and a rest
    assert _scopes("on each-boodle") == [("on", "keyword.other"),
                                         ("each-boodle", "variable.other.name")]


def test_the_extension_manifest() -> None:
    """package.json names the files that exist, the '.boodle' extension, '#' comments (the
    grammar's COMMENT) and a client that starts 'boodle lsp'."""
    folder = SHIPPED.parent.parent
    package = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "boodle" and language["extensions"] == [".boodle"]
    configuration = json.loads((folder / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"] == {"lineComment": "#"}
    assert (folder / package["main"]).is_file()
    default = package["contributes"]["configuration"]["properties"]["boodle.server.command"]
    assert default["default"] == ["boodle", "lsp"]
    assert (folder / "package-lock.json").is_file()  # npm ci in CI installs exactly that
