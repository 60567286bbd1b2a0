"""The language server's analysis in process: each kind of hint's quick fix, the warnings,
and no crash on the fuzzer's inputs (``boodle.lsp.analysis`` and ``boodle.lsp.features``).

The server itself, over stdio, is ``tests/integration/test_lsp.py``.  Every fix below is the
edit its hint says, worked out by hand from the line: the column of the word at fault
counted in the text, the text that goes in read from the hint.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dsl_fuzz
from boodle.lsp.analysis import Edit, Range, analyse, apply_edits, fixes
from boodle.lsp.features import Symbol, completions, definition, hover, symbols
from boodle.resources import variants_dir

HERE = str(Path(__file__).resolve().parent / "house.boodle")  # a file name; never written


def _house(*lines: str) -> str:
    return "variant house extends michigan {\n" + "".join(f"  {x}\n" for x in lines) + "}\n"


CASES = [
    # a misspelt keyword (syntax_repairs.misspelt_keyword): replace the word
    (_house("palyers 3 to 6"), Edit(Range(1, 2, 1, 9), "players")),
    # a missing ':' (missing_mark): inserted after 'rotation'
    (_house("deal { rotation left }"), Edit(Range(1, 17, 1, 17), ":")),
    # a ':' where there is none (extra_colon_or_comma): the ':' alone goes
    (_house('title: "Mine"'), Edit(Range(1, 7, 1, 8), "")),
    # a misspelt word before the error, read as a name (misspelt_word_before)
    (_house("ante { each player 1 on aech boodle }"), Edit(Range(1, 26, 1, 30), "each")),
    # a word where ',' goes (mark_for_word): ', ' in place of ' and '
    (_house("ante { each player 1 on A♥ and kitty }"), Edit(Range(1, 28, 1, 32), ",")),
    # a label without its quotes (unquoted_label)
    (_house("title Mine"), Edit(Range(1, 8, 1, 12), '"Mine"')),
    # a stray mark at the end of a line (stray_mark): it goes, with the space before it
    (_house("players 3 to 6 ;"), Edit(Range(1, 16, 1, 18), "")),
    # a card written from habit (syntax_errors._card_fix): 'Ah' is A♥
    (_house("ante { each player 1 on Ah }"), Edit(Range(1, 26, 1, 28), "A♥")),
    # a section misspelt (the builder's did_you_mean)
    (_house("ante { each player 2 on kity }"), Edit(Range(1, 26, 1, 30), "kitty")),
    # players without 'to' (syntax_errors._spelling_hint): the line as the hint writes it
    (_house("players 3 6"), Edit(Range(1, 2, 1, 13), "players 3 to 6")),
    # a rank that does not exist, the number the jack stands for (_no_such_rank)
    (_house("ante { each player 1 on 11♠ }"), Edit(Range(1, 26, 1, 29), "J♠")),
    # a label not closed: its '"' at the end of the line
    (_house('title "Mine'), Edit(Range(1, 13, 1, 13), '"')),
    # 'every boodle' is 'each boodle' (syntax_errors._meant_word)
    (_house("ante { each player 1 on every boodle }"), Edit(Range(1, 26, 1, 38), "each boodle")),
    # the variant not closed (unclosed_at_end): a '}' at the end of the file
    ("variant house extends michigan {\n  players 3 to 6\n", Edit(Range(2, 0, 2, 0), "}\n")),
    # two blocks not closed: two '}' at the end, innermost first
    ("variant house extends michigan {\n  deal {\n    rotation: left\n",
     Edit(Range(3, 0, 3, 0), "}\n}\n")),
    # a line of the variant block inside an unclosed deal block: '} ' before it
    (_house("deal {", "  rotation: left", "players 3 to 6"), Edit(Range(3, 2, 3, 2), "} ")),
    # 'clockwise' is 'left' (the player on a player's left is the next seat clockwise)
    (_house("deal { rotation: clockwise }"), Edit(Range(1, 19, 1, 28), "left")),
    # a range with a hyphen: 'to'
    (_house("players 3-6"), Edit(Range(1, 10, 1, 13), "3 to 6")),
    # rank and suit apart: 'A ♥' is A♥ (michigan's boodle)
    (_house("ante { each player 1 on A ♥ }"), Edit(Range(1, 26, 1, 29), "A♥")),
    # a no-break space: a plain one
    (_house('title\u00a0"Mine"'), Edit(Range(1, 7, 1, 8), " ")),
    # curly quotes: straight ones around the same words
    (_house("title \u201cMine\u201d"), Edit(Range(1, 8, 1, 14), '"Mine"')),
    # a base misspelt (extends' did_you_mean over the built-ins)
    ("variant house extends michgan {\n}\n", Edit(Range(0, 22, 0, 29), "michigan")),
    # a file name after extends: the variant's name
    ("variant house extends michigan.boodle {\n}\n", Edit(Range(0, 22, 0, 37), "michigan")),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_each_hint_is_its_edit(text: str, expected: Edit) -> None:
    found = analyse(text, HERE)
    first = found.diagnostics[0]
    (fix,) = fixes(found, first)
    assert fix.title == first.hint
    assert fix.edits == (expected,)
    assert all(d.kind == "warning" for d in analyse(apply_edits(text, [expected]),
                                                     HERE).diagnostics)


FRESH = ("variant fresh {\n  players 3 to 6\n  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }\n"
         "  board { boodle A♥  kitty }\n  ante { each player 1 on every section }\n"
         "  deal { widow: last in each round }\n"
         "  phase play is stops {\n    first lead: left of dealer, lowest of chosen suit\n"
         "    restart: last player, lowest of other suit\n"
         "    if none: lead lowest of same suit\n    stop: top rank, next card held by nobody\n"
         "  }\n  session { start: 50 chips  end: after 1 rotation }\n}\n")
"""A variant of its own that builds (README's fresh.boodle, completed); 14 lines."""


def test_a_missing_block_is_added_before_the_closing_brace() -> None:
    text = FRESH.replace("  deal { widow: last in each round }\n", "")
    found = analyse(text, HERE)
    (missing,) = found.diagnostics
    assert missing.message == "variant fresh has no 'deal' block or line"
    assert missing.range == Range(0, 0, 0, 7)  # on 'variant', not the whole file
    (fix,) = fixes(found, missing)
    # the hint: "add one, for example: deal { widow: last in each round }"; '}' on line 13
    assert fix.edits == (Edit(Range(12, 0, 12, 0), "  deal { widow: last in each round }\n"),)
    assert analyse(apply_edits(text, list(fix.edits)), HERE).ruleset is not None


def test_a_line_a_block_lacks_goes_before_its_brace() -> None:
    assert analyse(FRESH, HERE).ruleset is not None
    text = FRESH.replace("    stop: top rank, next card held by nobody\n", "")
    found = analyse(text, HERE)
    (first,) = found.diagnostics
    assert first.hint == "write: stop: top rank, next card held by nobody"
    (fix,) = fixes(found, first)
    # the phase's '}' is line 11 (0-based 10); its first line is indented 2, its rules 4
    assert fix.edits == (Edit(Range(10, 0, 10, 0),
                              "    stop: top rank, next card held by nobody\n"),)


def test_the_fix_is_the_errors_edit_not_read_from_the_hint() -> None:
    # the same error without the edit its hint's producer stated: no fix, though the
    # sentence "did you mean kitty?" says one (the quick fix never parses the sentence)
    found = analyse(_house("ante { each player 2 on kity }"), HERE)
    (first,) = found.diagnostics
    assert first.hint == "did you mean kitty?" and first.edits
    assert fixes(found, dataclasses.replace(first, edits=())) == []


def test_no_fix_where_the_hint_names_no_edit() -> None:
    # a line in the wrong block: the hint says to move it, an edit of several lines
    text = _house("session {", "  rotation: left", "}")
    found = analyse(text, HERE)
    assert "starts a line of a deal" in (found.diagnostics[0].hint or "")
    assert fixes(found, found.diagnostics[0]) == []


def test_the_second_syntax_error_and_its_fix() -> None:
    text = _house('titel "Two"', "deal { rotation left }")
    found = analyse(text, HERE)
    first, second = found.diagnostics
    assert (first.range, first.hint) == (Range(1, 2, 1, 7), "did you mean title?")
    assert second.range == Range(2, 18, 2, 22)  # 'left' on line 3
    (fix,) = fixes(found, second)
    assert fix.edits == (Edit(Range(2, 17, 2, 17), ":"),)


def test_warnings() -> None:
    # michigan's own carry line: restated; a pot that no phase of michigan pays
    text = _house("carry: unclaimed",
                  'board { boodle A♥  boodle K♣  boodle Q♦  boodle J♠  kitty "Kitty"  pot }')
    found = analyse(text, HERE)
    assert found.ruleset is not None
    shown = sorted((d.range.line, d.message) for d in found.diagnostics)
    assert shown == [
        (1, "this line says what the base already says: it changes nothing"),
        (2, "no card, phase or going out ever claims section 'pot': its chips only carry "
            "over")]
    assert all(d.severity == "warning" for d in found.diagnostics)
    restated = next(d for d in found.diagnostics if d.range.line == 1)
    (fix,) = fixes(found, restated)  # "delete it": the whole line 2 goes
    assert fix.edits == (Edit(Range(1, 0, 2, 0), ""),)


def test_a_byte_order_mark_moves_line_one_by_one_column() -> None:
    found = analyse("\ufeffvariant house extends michigan {\n  palyers 3 to 6\n}\n", HERE)
    assert found.diagnostics[0].range == Range(1, 2, 1, 9)
    lone = analyse("\ufeffvariant House {}\n", HERE)
    assert lone.diagnostics[0].range.line == 0 and lone.diagnostics[0].range.column == 9


def test_michigans_outline() -> None:
    # spec/variants/michigan.boodle's lines inside its variant block, in order, each by the
    # word it starts with (its sources line starts with 'source')
    path = variants_dir() / "michigan.boodle"
    found = analyse(path.read_text(encoding="utf-8"), str(path))
    (variant,) = symbols(found)
    assert variant.name == "variant michigan"
    assert [c.name for c in variant.children] == [
        "title", "about", "source", "version", "players", "chips", "deck", "board", "ante",
        "deal", "phase play", "carry", "session"]
    board = variant.children[7]
    assert [c.name for c in board.children] == ["boodle"] * 4 + ["kitty"]


@settings(database=None, deadline=None, derandomize=True, max_examples=120,
          suppress_health_check=list(HealthCheck))
@given(dsl_fuzz.any_input(), st.integers(0, 200), st.integers(0, 80))
def test_never_a_crash(case: tuple[str, str], line: int, column: int) -> None:
    """The fuzzer's inputs (random text, word soups, grammar sentences, mutated variants):
    diagnostics inside the text, none internal, and every feature answers."""
    file, text = case
    found = analyse(text, file)
    lines = text.split("\n")
    for diag in found.diagnostics:
        assert diag.kind != "internal", diag.message
        assert 0 <= diag.range.line < len(lines)
        for fix in fixes(found, diag):
            apply_edits(text, list(fix.edits))
    line = min(line, len(lines) - 1)
    column = min(column, len(lines[line]))
    hover(found, line, column)
    completions(text, file, line, column, found)
    definition(found, line, column)
    symbols(found)


def test_every_shipped_variant_is_clean() -> None:
    """The built-in variants build (boodle check) and none restates its base or has a
    section nothing claims: no diagnostic at all."""
    for path in sorted(variants_dir().rglob("*.boodle")):
        found = analyse(path.read_text(encoding="utf-8"), str(path))
        assert found.diagnostics == (), (path.name, found.diagnostics)


def test_the_choices_of_a_rule_line() -> None:
    # grammar/boodle.lark: lead_rule is who "," card_choice, and card_choice is "lowest"
    # "of" suit_scope, "lowest" colour_scope? "card", "lowest" SUIT, ...
    text = _house("phase play is stops {", "  restart: last player, ", "}")
    labels = {c.label: c.kind for c in completions(text, HERE, 2, 25)}
    for phrase in ("lowest card", "lowest of other suit", "lowest of same suit",
                   "lowest of opposite colour"):
        assert labels.get(phrase) == "phrase", phrase
    assert labels.get("lowest") == "keyword"


def test_a_name_goes_to_its_phase_or_its_section() -> None:
    # spec/variants/rummoli.boodle: 'pot poker "Poker"' on line 97, 'phase poker "Poker" is
    # poker {' on lines 120-125, 'pot: poker' on line 121, 'first lead: winner of poker'
    # on line 128: the same name, a section and a phase (ranges count lines from 0)
    path = variants_dir() / "rummoli.boodle"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[96].strip() == 'pot poker "Poker"' and lines[120].strip() == "pot: poker"
    found = analyse(text, str(path))
    phase = definition(found, 127, 27)
    assert phase is not None and phase.range == Range(119, 2, 124, 3)
    section = definition(found, 120, 10)
    assert section is not None and section.range == Range(96, 4, 96, 21)


def test_a_verify_report_as_notes() -> None:
    """verify/report.py's JSON results (fields as render_json writes them), by hand:
    termination proven by z3 at 3 and 4 players; progress unknown to z3 at 3 players but
    checked by the exhaustive search (settled); chip conservation unknown at 4 players
    with nothing else (a warning); a counterexample with a two-line trace (an error)."""
    from boodle.lsp.verify_on_save import VerifyNote, notes

    def result(prop: str, players: int, method: str, status: str, detail: str = "d",
               trace: str = "") -> dict[str, object]:
        return {"variant": "v", "players": players, "property": prop, "method": method,
                "status": status, "detail": detail, "trace": trace}

    report = {"kind": "verify-report", "results": [
        result("termination", 3, "z3", "proven"), result("termination", 4, "z3", "proven"),
        result("progress", 3, "z3", "unknown", "ran out of time"),
        result("progress", 3, "exhaustive", "checked"),
        result("chip conservation", 4, "z3", "unknown", "ran out of time"),
        result("card conservation", 3, "exhaustive", "counterexample", "a card lost",
               "1. deal\n2. A♥ played twice\n"),
        result("not modelled", 0, "static", "not modelled", "phase hearts (holding) — checked "
               "only by the engine search")]}
    assert sorted(notes(report), key=lambda n: n.message) == sorted([
        VerifyNote("information", "boodle verify: termination: proven (z3, 3 to 4 players)"),
        VerifyNote("information", "boodle verify: progress: checked (exhaustive, 3 players)"),
        VerifyNote("warning", "boodle verify: chip conservation not verified (4 players): "
                              "z3 unknown: ran out of time"),
        VerifyNote("error", "boodle verify: card conservation: counterexample (3 players, "
                            "exhaustive): a card lost", ("1. deal", "2. A♥ played twice")),
        VerifyNote("information", "boodle verify: not modelled by z3: phase hearts (holding) "
                                  "— checked only by the engine search"),
    ], key=lambda n: n.message)


def test_hover_on_a_block_line_and_a_rule_line_in_french() -> None:
    # fr.toml: [Ruleset] deal = "La donne"; [DealSpec] "rotation.right"; spec §5 and §5.1
    text = _house("deal {", "  rotation: right", "}")
    found = analyse(text, HERE)
    block = hover(found, 1, 3, "fr")
    assert block is not None and block.markdown.startswith("**La donne**")
    assert "§5 " in block.markdown
    rule = hover(found, 2, 6, "fr")
    assert rule is not None
    assert rule.markdown.startswith("Après chaque donne") and "§5.1" in rule.markdown


def test_no_completion_in_a_label_or_a_comment() -> None:
    text = _house('title "Mine', "players 3 to 6  # my ")
    assert completions(text, HERE, 1, 13) == []  # inside '"Mine'
    assert completions(text, HERE, 2, 22) == []  # after '# my '
    assert {c.label for c in completions(text, HERE, 2, 2)} >= {"players", "deck"}


def test_the_base_is_built_from_what_extends_found_and_kept_while_its_text_is_unchanged(
    tmp_path: Path,
) -> None:
    # a house rule of a copy of michigan.boodle ('home', players 3 to 8) that restates its
    # players line changes nothing (spec §11.2); once the base says 'players 3 to 6', the same
    # house rule changes the players: the base is read again only through 'extends'
    michigan = (variants_dir() / "michigan.boodle").read_text(encoding="utf-8")
    home = tmp_path / "home.boodle"
    home.write_text(michigan.replace("variant michigan {", "variant home {"), encoding="utf-8")
    house = tmp_path / "house.boodle"
    text = "variant house extends home {\n  players 3 to 8\n}\n"
    first, again = analyse(text, str(house)), analyse(text, str(house))
    assert first.base is not None and first.base.name == "home"
    assert again.base is first.base  # not built again for a keystroke
    nothing = "this house rule changes nothing from home"
    assert nothing in [d.message for d in first.diagnostics]
    home.write_text(michigan.replace("variant michigan {", "variant home {")
                    .replace("players 3 to 8", "players 3 to 6"), encoding="utf-8")
    changed = analyse(text, str(house))
    assert changed.base is not None and changed.base.players.high == 6
    assert nothing not in [d.message for d in changed.diagnostics]


def test_the_outline_names_each_line_by_its_own_words() -> None:
    """Each entry of the outline of every shipped variant is named by the words its line
    starts with ('if none: lead lowest …' is 'if none', 'source "…"' is 'source'), but the
    variant ('variant NAME') and an ante line, whose first words vary ('ante line')."""
    import re

    def walk(entries: tuple[Symbol, ...] | list[Symbol], lines: list[str]) -> list[str]:
        wrong = []
        for entry in entries:
            line = lines[entry.range.line][entry.range.column:]
            words = " ".join(re.findall(r"[a-z]+", re.split(r"[:{\"]", line)[0]))
            if entry.kind != "variant" and entry.name != "ante line" \
                    and not (words + " ").startswith(entry.name + " "):
                wrong.append(f"{entry.name!r} for {line.strip()[:40]!r}")
            wrong += walk(entry.children, lines)
        return wrong

    wrong = []
    for path in sorted(variants_dir().glob("*.boodle")):
        text = path.read_text(encoding="utf-8")
        wrong += walk(symbols(analyse(text, str(path))), text.split("\n"))
    assert wrong == []


def test_an_error_of_the_base_shown_here_carries_no_edit_of_the_base() -> None:
    # the kitty renamed 'kity' breaks michigan's 'each player 2 on kitty' (its ante line):
    # the error is shown on this file's board line, with the base's hint "did you mean
    # kity?"; the edit that hint names is of michigan.boodle's text, so none is offered here
    text = _house('board { boodle A♥  boodle K♣  boodle Q♦  boodle J♠  kitty kity "Kitty" }')
    found = analyse(text, HERE)
    (first,) = found.diagnostics
    assert first.message.startswith("no section 'kitty' on the board (in the base")
    assert (first.range.line, first.hint, first.edits) == (1, "did you mean kity?", ())
    assert fixes(found, first) == []
