"""The AST holds no parser token (issue 19 step 4): suits and ranks are ``WordLit``s, names
``NameLit``s, cards ``CardLit``s, each with where it was written; a clause of several parts a
typed dataclass (``LeadDecl`` …), no tuple whose layout the parser and the builder agree on;
the rest plain values."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from lark import Token

from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.syntax import (
    BoodleDecl,
    CardLit,
    ChoiceDecl,
    Clause,
    LeadDecl,
    NameLit,
    TiesDecl,
    WhoDecl,
    WordLit,
    parse,
)
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


_LITERALS = (CardLit, NameLit, WordLit, Clause)


def _shapes(value: object, path: str = "") -> list[str]:
    """Every tuple of the AST that is a record of parts rather than a list: one holding
    ``None``, a number, a flag or a tuple, or words mixed with literals."""
    if isinstance(value, tuple | list):
        record = any(v is None or isinstance(v, int | tuple) for v in value) or not (
            all(isinstance(v, str) for v in value) or all(isinstance(v, _LITERALS)
                                                          for v in value))
        found = [f"{path}: {value!r}"[:120]] if record else []
        return found + [t for i, v in enumerate(value) for t in _shapes(v, f"{path}[{i}]")]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value)
                for t in _shapes(getattr(value, f.name), f"{path}.{f.name}")]
    return []


@pytest.mark.parametrize("path", sorted(variants_dir().rglob("*.boodle")), ids=lambda p: p.stem)
def test_no_token_in_the_ast_of_a_built_in(path: Path) -> None:
    assert _tokens(parse(path.read_text(encoding="utf-8"), str(path))) == []


@pytest.mark.parametrize("path", sorted(variants_dir().rglob("*.boodle")), ids=lambda p: p.stem)
def test_no_tuple_shape_in_the_ast_of_a_built_in(path: Path) -> None:
    assert _shapes(parse(path.read_text(encoding="utf-8"), str(path))) == []


def test_a_clause_of_several_parts_is_a_typed_value() -> None:
    # by hand, from the words of the file: who, what and the ties of a lead rule; a boodle
    # named by its card has no name of its own
    decl = parse("variant v {\n  board { boodle A♥ }\n  phase play is stops {\n"
                 "    first lead: holder of lowest ♣ else ♦, lowest ♣\n"
                 "    restart: last player, lowest card, ties by suit order ♣ ♦ ♥ ♠\n  }\n}\n",
                 "v.boodle")
    board, phase = decl.items
    (boodle,) = board.value
    assert isinstance(boodle.value, BoodleDecl)
    assert (boodle.value.name, boodle.value.rule, str(boodle.value.item.card)) == (
        None, "fixed", "A♥")
    first, restart = (rule.value.value for rule in phase.value.rules)  # a lead_rule clause
    assert first == LeadDecl(WhoDecl("holder of lowest", ("♣", "♦")),
                             ChoiceDecl("lowest", "suit", "♣"))
    assert restart == LeadDecl(WhoDecl("last player"), ChoiceDecl("lowest", "all"),
                               TiesDecl("suit order", ("♣", "♦", "♥", "♠")))


@settings(max_examples=40, deadline=None)
@given(ruleset_texts())
def test_no_token_in_the_ast_of_a_generated_file(text: str) -> None:
    decl = parse(text, "<generated>")
    assert _tokens(decl) == []
    assert _shapes(decl) == []


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
