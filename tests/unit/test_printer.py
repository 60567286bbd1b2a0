"""The model → DSL printer (issue 19 step 4): every field and member has a row, and loading a
printed ruleset gives it back, for every built-in variant and for generated rulesets."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings

from boodle.language import model as m
from boodle.language import printer
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.formatter import format_text
from boodle.language.printer import FIELDS, LITERALS, SET, print_ruleset, rules
from boodle.language.variants import builtin_names, draft_paths, load
from boodle.rule_kinds import missing_rows
from ruleset_texts import ruleset_texts

MODEL_CLASSES = sorted(
    (cls for _, cls in inspect.getmembers(m, inspect.isclass)
     if dataclasses.is_dataclass(cls) and cls.__module__ == m.__name__),
    key=lambda cls: cls.__name__)


def test_every_dataclass_of_the_model_has_a_table() -> None:
    assert set(FIELDS) == set(MODEL_CLASSES)


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda cls: cls.__name__)
def test_every_field_has_a_row(cls: type) -> None:
    # A field added to the model fails here until the printer writes it (or says why not).
    assert set(FIELDS[cls]) == {f.name for f in dataclasses.fields(cls)}
    for name, row in FIELDS[cls].items():
        if isinstance(row, printer.With):
            assert callable(FIELDS[cls][row.field]) or isinstance(
                FIELDS[cls][row.field], printer.Elsewhere), (name, row)


def _literal_fields() -> list[tuple[str, tuple[str, ...]]]:
    found = []
    for cls in MODEL_CLASSES:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if typing.get_origin(hints[f.name]) is typing.Literal:
                found.append((f"{cls.__name__}.{f.name}", typing.get_args(hints[f.name])))
    return found


@pytest.mark.parametrize(("field", "members"), _literal_fields(), ids=lambda x: str(x))
def test_every_member_of_every_literal_has_words(field: str, members: tuple[str, ...]) -> None:
    # A member added to a Literal of the model (a new claims rule, a new scope) fails here.
    assert field in LITERALS
    assert set(LITERALS[field]) == set(members)


def test_the_set_table_has_every_suit_rule_too() -> None:
    assert set(SET) == set(typing.get_args(m.SuitRule))


def test_the_lead_rule_kinds_have_printer_rows() -> None:
    for kind in ("lead scope", "who leads"):
        assert missing_rows(kind) == {}
    faults = missing_rows("lead scope", (*typing.get_args(m.Scope), "lowest of a colour"))
    assert "printer (boodle.language.printer.SCOPE_WORDS)" in faults


def test_a_small_ruleset_prints_as_worked_out_by_hand() -> None:
    # Written by hand from the grammar: the defaults the language has lines for are written
    # out (rotation, follow, claims, the session's), those it writes by omission are not (no
    # trumps, no stop bonus); labels only where they are not the default (spec §3).
    text = (
        "variant tiny {\n"
        "  players 3 to 5\n"
        "  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A  remove 2C }\n"
        '  board { boodle AH boodle kq "King and queen" KS  kitty "Pool" }\n'
        "  ante { each player 1 on each boodle  dealer 2 on kitty }\n"
        "  deal { widow: first in each round }\n"
        "  phase play is stops {\n"
        "    first lead: holder of lowest ♦, lowest ♦\n"
        "    stop: next card held by nobody\n"
        "    restart: last player, lowest of other suit\n"
        "    if none: pay 1 to kitty, pass left\n"
        "    all pass: deal ends without winner\n"
        "    going out: takes kitty, 2 per card to kitty\n"
        "  }\n"
        "  session { end: a player reaches 100 chips }\n"
        "}\n")
    assert print_ruleset(load_text(text, "<tiny>")) == (
        "variant tiny {\n"
        '  title "tiny"\n'
        "  version 1\n"
        "\n"
        "  players 3 to 5\n"
        "  chips whole\n"
        "  carry: unclaimed\n"
        "\n"
        "  deck {\n"
        "    suits ♣ ♦ ♥ ♠\n"
        "    ranks 2 3 4 5 6 7 8 9 10 J Q K A\n"
        "    remove 2♣\n"
        "  }\n"
        "\n"
        "  board {\n"
        "    boodle A♥\n"
        '    boodle kq "King and queen" K♠\n'
        '    kitty "Pool"\n'
        "  }\n"
        "\n"
        "  ante {\n"
        "    each player 1 on each boodle\n"
        "    dealer 2 on kitty\n"
        "  }\n"
        "\n"
        "  deal {\n"
        "    first dealer: high cut\n"
        "    rotation: left\n"
        "    widow: first in each round, hidden\n"
        "    misdeal: same dealer, no new ante\n"
        "  }\n"
        "\n"
        "  phase play is stops {\n"
        "    first lead: holder of lowest ♦, lowest ♦\n"
        "    follow: owner of next card\n"
        "    stop: next card held by nobody\n"
        "    restart: last player, lowest of other suit\n"
        "    if none: pay 1 to kitty, pass left\n"
        "    all pass: deal ends without winner\n"
        "    claims: on play\n"
        "    going out: takes kitty, 2 per card to kitty\n"
        "  }\n"
        "\n"
        "  session {\n"
        "    start: 50 chips\n"
        "    end: a player reaches 100 chips\n"
        "    leftover: split equally\n"
        "    ties: share\n"
        "    balance: may go negative\n"
        "  }\n"
        "}\n")


def test_rules_are_keyed_by_block_and_say_the_defaults_left_out() -> None:
    said = rules(load("michigan"))
    assert said["deal: widow"] == "last in each round, hidden"
    assert said["deal: trumps"] == "none"  # no line: the language writes it by omission
    assert said["phase play: first lead"] == "left of dealer, lowest of chosen suit"
    assert said["phase play: stop bonus"] == "none"
    assert said["board: A♥"] == "boodle A♥"


def _round_trip(r: m.Ruleset) -> None:
    text = print_ruleset(r)
    assert load_text(text, "<printed>") == replace(r, base=None)
    assert format_text(text) == text  # the printer writes what fmt would


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_variant_prints_and_loads_back(name: str) -> None:
    _round_trip(load(name))


def test_every_draft_prints_and_loads_back() -> None:
    for path in draft_paths():
        try:
            r = load(str(path))
        except BoodleError:
            continue  # a draft may not load yet
        _round_trip(r)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset_texts())
def test_generated_rulesets_print_and_load_back(text: str) -> None:
    try:
        r = load_text(text, "<generated>")
    except BoodleError:
        assume(False)
        raise
    _round_trip(r)


def test_a_ruleset_the_language_cannot_write_is_a_value_error() -> None:
    r = load("michigan")
    odd = replace(r, board=(replace(r.board[0], suit_rule="same suit", ranks=("A",)),
                            *r.board[1:]))
    with pytest.raises(ValueError, match="cannot be written"):
        print_ruleset(odd)


def test_the_diff_reads_michigans_rules_in_the_words_of_its_file() -> None:
    # From spec/variants/michigan.boodle, by hand: each rule of play as its file says it,
    # the rules it leaves out as their defaults (no trumps, no stop bonus, all pass none).
    from boodle.language.ruleset_diff import rule_lines

    assert rule_lines(load("michigan")) == {
        "players": "3 to 8",
        "chips": "whole",
        "deck: suits": "♣ ♦ ♥ ♠",
        "deck: ranks": "2 3 4 5 6 7 8 9 10 J Q K A",
        "deck: remove": "none",
        "board: A♥": "boodle A♥",
        "board: K♣": "boodle K♣",
        "board: Q♦": "boodle Q♦",
        "board: J♠": "boodle J♠",
        "board: kitty": "kitty",
        "ante: short stack": "as balance",
        "deal: first dealer": "high cut",
        "deal: rotation": "left",
        "deal: cut": "player right of dealer",
        "deal: widow": "last in each round, hidden",
        "deal: trumps": "none",
        "deal: turn up": "nothing",
        "deal: misdeal": "same dealer, no new ante",
        "phase play: kind": "stops",
        "phase play: label": "Stops",
        "phase play: first lead": "left of dealer, lowest of chosen suit",
        "phase play: follow": "owner of next card",
        "phase play: stop": "top rank, next card held by nobody",
        "phase play: restart": "last player, lowest of other suit",
        "phase play: if none": "lead lowest of same suit",
        "phase play: all pass": "none",
        "phase play: claims": "on play",
        "phase play: going out": "ends deal, takes kitty, 1 per card to winner",
        "phase play: stop bonus": "none",
        "session: start": "50 chips",
        "session: end": "after 1 rotation",
        "session: leftover": "split equally",
        "session: ties": "share",
        "session: balance": "may go negative",
        "session: seating": "fixed",
    }
