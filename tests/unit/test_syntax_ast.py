"""The AST holds no parser token (issue 19 step 4): suits and ranks are ``WordLit``s, names
``NameLit``s, cards ``CardLit``s, each with where it was written; the rest plain values."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from lark import Token

from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.syntax import WordLit, parse
from boodle.resources import variants_dir
from ruleset_texts import ruleset_texts


def _tokens(value: object, path: str = "") -> list[str]:
    if isinstance(value, Token):
        return [f"{path}: {value!r}"]
    if isinstance(value, tuple | list):
        return [t for i, v in enumerate(value) for t in _tokens(v, f"{path}[{i}]")]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value)
                for t in _tokens(getattr(value, f.name), f"{path}.{f.name}")]
    return []


@pytest.mark.parametrize("path", sorted(variants_dir().rglob("*.boodle")), ids=lambda p: p.stem)
def test_no_token_in_the_ast_of_a_built_in(path: Path) -> None:
    assert _tokens(parse(path.read_text(encoding="utf-8"), str(path))) == []


@settings(max_examples=40, deadline=None)
@given(ruleset_texts())
def test_no_token_in_the_ast_of_a_generated_file(text: str) -> None:
    assert _tokens(parse(text, "<generated>")) == []


def test_a_suit_or_rank_keeps_where_and_how_it_was_written() -> None:
    decl = parse("variant v {\n  deck { suits H ♠\n  ranks T J }\n}\n", "v.boodle")
    (deck,) = decl.items
    suits, ranks = deck.value
    assert suits.value == (WordLit("H", suits.span), WordLit("♠", suits.span))
    assert [(w.text, w.span.line, w.span.column, w.span.end_column) for w in ranks.value] == [
        ("T", 3, 9, 10), ("J", 3, 11, 12)]


def test_a_rank_written_twice_is_pointed_at_as_before() -> None:
    # the second 'J' of 'ranks 10 J Q J' (line 3, column 23), as the builder always said
    text = ("variant v {\n  players 3 to 4\n  deck { ranks 10 J Q J }\n  board { kitty }\n"
            "  ante {}\n  deal {}\n  session {}\n}\n")
    with pytest.raises(BoodleError) as caught:
        load_text(text, "v.boodle")
    err = caught.value
    assert err.message == "rank J appears twice"
    assert err.span is not None
    assert (err.span.line, err.span.column, err.span.end_column) == (3, 23, 24)
