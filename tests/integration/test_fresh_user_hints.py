"""Hints a fresh user found pointing the wrong way, and counts printed as '1 problems'.

Each test failed before its fix; the expected words are worked out by hand from the
rules files and the grammar (grammar/boodle.lark), not copied from a run.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.build import load_text
from boodle.language.errors import BoodleError

HOUSE = "variant house extends michigan {{\n  {}\n}}\n"


def _error(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, "<test>")
    return info.value


# ---------------------------------------------------------------- a card outside the deck


def test_a_deck_without_the_suit_of_a_board_card_names_the_suit() -> None:
    # michigan's board is A♥ K♣ Q♦ J♠ (spec/variants/michigan.boodle): A♥ comes first, and
    # its rank A is in the deck while its suit ♥ is not
    err = _error(HOUSE.format("deck { suits ♣ ♦  ranks 2 3 4 5 6 7 8 9 10 J Q K A }"))
    assert err.message.startswith("boodle card A♥ is not in the deck")
    assert err.hint == ("the deck has no suit ♥: its suits are ♣ ♦ "
                        "(add ♥ to 'suits', or name a card of those suits)")


def test_a_deck_without_the_rank_of_a_board_card_names_the_rank() -> None:
    # without J, the first board card the deck lacks is J♠ (A♥ K♣ Q♦ are there)
    err = _error(HOUSE.format("deck { ranks 2 3 4 5 6 7 8 9 10 Q K A }"))
    assert err.message.startswith("boodle card J♠ is not in the deck")
    assert err.hint == ("the deck has no rank J: its ranks are 2 3 4 5 6 7 8 9 10 Q K A "
                        "(add J to 'ranks', or name a card of those ranks)")


def test_a_deck_without_either_names_both() -> None:
    # suits ♣ ♦ and ranks 2 to 10: A♥ lacks both its suit and its rank
    err = _error(HOUSE.format("deck { suits ♣ ♦  ranks 2 3 4 5 6 7 8 9 10 }"))
    assert err.message.startswith("boodle card A♥ is not in the deck")
    assert err.hint == ("the deck has neither the suit ♥ nor the rank A: its suits are ♣ ♦ "
                        "and its ranks 2 3 4 5 6 7 8 9 10")


def test_a_removed_board_card_still_says_so() -> None:
    err = _error(HOUSE.format("deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A  remove K♣ }"))
    assert err.message.startswith("boodle card K♣ is not in the deck")
    assert err.hint == "the deck says 'remove K♣'"


# ---------------------------------------------------------------- cards listed without commas


def test_three_cards_without_commas_get_the_comma_hint() -> None:
    # '  deck { remove 2♣ ' is 19 characters: 3♣ is at column 20; the grammar's
    # remove line is "remove" card ("," card)*, so each card after the first wants a comma
    err = _error(HOUSE.format("deck { remove 2♣ 3♣ 4♣ }"))
    assert err.span is not None and (err.span.line, err.span.column) == (2, 20)
    assert err.message.startswith("unexpected '3♣'; expected \",\"")
    assert err.hint == ("separate the items with ',': add one before '3♣' and before each item "
                        "after it (write it deck { remove 2♣, 3♣, 4♣ })")


def test_cards_without_commas_before_another_line_of_the_block() -> None:
    err = _error(HOUSE.format("deck { remove 2♣ 3♣ 4♣ 5♣  ranks 2 3 4 5 6 7 8 9 10 J Q K A }"))
    assert err.hint == ("separate the items with ',': add one before '3♣' and before each item "
                        "after it (write it deck { remove 2♣, 3♣, 4♣, 5♣ ranks 2 3 4 5 6 7 8 9 "
                        "10 J Q K A })")


def test_a_missing_comma_is_said_even_when_the_next_line_has_an_error_too() -> None:
    # line 3's two labels are an error of their own: the comma still repairs line 2
    text = 'variant h extends michigan {\n  deck { remove 2♣ 3♣ }\n  title "x" "y"\n}\n'
    err = _error(text)
    assert err.span is not None and (err.span.line, err.span.column) == (2, 20)
    assert err.hint == ("separate the items with ',': add one before '3♣' "
                        "(write it deck { remove 2♣, 3♣ })")


# ---------------------------------------------------------------- a first word that is no command

COMMANDS = "check, fmt, variants, play, ledger, simulate, conformance, verify, docs, lsp"


@pytest.mark.parametrize(("word", "hint"), [
    # nothing close among the commands or the variants (spec/variants/*.boodle)
    ("ZZ", f"the commands are {COMMANDS} (boodle COMMAND -h says what each takes); a variant "
     "or a rules file goes after one, as in boodle play michigan --players 4"),
    # a command misspelt: 'chek' is 'check' less one letter
    ("chek", f"did you mean check? (the commands are {COMMANDS})"),
    # a variant given without a command, misspelt or not, or a rules file
    ("michgan", "did you mean the variant michigan? Name a command before it, as in "
     "boodle play michigan --players 4"),
    ("michigan", "michigan is a variant: name a command before it, as in boodle play michigan "
     "--players 4, or boodle check michigan"),
    ("house.boodle", "house.boodle is a rules file: name a command before it, as in boodle play "
     "house.boodle --players 4, or boodle check house.boodle"),
])
def test_an_unknown_command_is_a_usage_error_with_a_useful_hint(
        word: str, hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([word]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[1:] == [f"boodle: error: unknown command '{word}'", f"  hint: {hint}"]


def test_an_unknown_command_with_an_escape_does_not_reach_the_terminal(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["\x1b[31mred"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "unknown command '\u241b[31mred'" in err


def test_a_variant_name_in_upper_case_lists_the_built_ins(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 'ZZ' is no name at all (names are lower case) and close to none: the hint lists them
    assert main(["play", "ZZ", "--players", "4"]) == 1
    err = capsys.readouterr().err
    assert "error: no built-in variant 'ZZ'" in err
    assert ("hint: variant names are ASCII lower case letters, digits and '-'; the built-in "
            "variants: boodle, michigan, ") in err


def test_a_variant_name_with_an_escape_is_shown_harmless(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "\x1b[31mx", "--players", "4"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "error: no built-in variant '\u241b[31mx'" in err


# ---------------------------------------------------------------- one of a count is singular


def test_boodle_ledger_says_1_deal_and_1_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    assert main(["play", "michigan", "--players", "4", "--deals", "1", "--ledger", str(db)]) == 0
    capsys.readouterr()
    assert main(["ledger", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  complete: 1 deal recorded (1 deal)"
    # deal 1 loses its deal-end event: its transfers still replay, so that is the one problem
    conn = sqlite3.connect(db)
    (events,) = conn.execute("SELECT events FROM deal WHERE number = 1").fetchone()
    kept = [e for e in json.loads(events) if e.get("kind") != "deal-end"]
    conn.execute("UPDATE deal SET events = ? WHERE number = 1", (json.dumps(kept),))
    conn.commit()
    conn.close()
    assert main(["ledger", str(db)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2].endswith(": INCONSISTENT (1 problem)")
    assert out[-1] == "  problem: deal 1: events hold deal starts [1] and 0 deal ends"


def test_simulate_says_1_deal_played(capsys: pytest.CaptureFixture[str]) -> None:
    # 3 players, 1 rotation: a session is 3 deals, so 1 deal is no whole session
    assert main(["simulate", "michigan", "--players", "3", "--deals", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("michigan: 1 deal played, 3 players, seed 0 "
                            "(0 whole sessions of up to 3 deals;")


def test_simulate_says_1_deal_was_asked() -> None:
    from boodle.simulate.report import _asked

    lines = _asked({"deals": 2, "deals_asked": 1, "ends_early": ["a tie plays one more deal"],
                    "sessions_played": 1, "session_length": 3})
    assert " ".join(lines) == ("1 deal was asked: the run is 1 session of up to 3 deals, and "
                               "a tie plays one more deal (spec §10).")


# ---------------------------------------------------------------- a bench script's help


def test_verify_bench_help_gives_its_whole_description() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "bench" / "verify_bench.py"), "--help"],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    # the docstring's first paragraph, a sentence over two lines: help once cut it at the first
    assert ("Benchmark: how long 'boodle verify' takes, variant by variant (issue 5; target "
            "< 60 s on one core for all built-in variants).") in " ".join(out.split())
