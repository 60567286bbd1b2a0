"""The first hour of a rules author (issue 21, "Rules authors"): hints that led to a wrong
edit, and every independent error of a file in one run.

Each test failed before its fix; the expected words come from the rules files
(spec/variants/*.boodle), the grammar (grammar/boodle.lark) and spec/rules.md, not from a run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.build import load_file, load_text
from boodle.language.errors import BoodleError

ROOT = Path(__file__).parents[2]


def _error(text: str, file: str = "<test>") -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, file)
    return info.value


# ---------------------------------------------------------------- names are not paths


@pytest.mark.parametrize("target", ["michigan.boodle", "./michigan.boodle",
                                    "spec/variants/michigan.boodle", "../michigan"])
def test_extends_a_file_name_says_names_are_not_paths(target: str) -> None:
    # spec §11.1: a base is a variant's name, resolved to NAME.boodle beside the file or a
    # built-in; never a path
    err = _error(f"variant mine extends {target} {{\n  title \"Mine\"\n}}\n")
    assert err.hint is not None
    assert err.hint.startswith("names are not paths: write extends michigan")


def test_the_dot_deleted_from_a_file_name_still_says_write_the_name() -> None:
    err = _error("variant mine extends michiganboodle {\n  title \"Mine\"\n}\n")
    assert err.hint == "names are not paths: write extends michigan"


# ---------------------------------------------------------------- a partial deck block


def test_a_partial_deck_block_offers_the_bases_own_rank_order() -> None:
    # spec §11.2: an item written replaces the base's item whole; Newmarket is ace low, so
    # the hint must offer its own ranks line, not the ace-high default
    newmarket = (ROOT / "spec" / "variants" / "newmarket.boodle").read_text(encoding="utf-8")
    deck = re.search(r"deck \{(.*?)\}", newmarket, re.S)
    assert deck is not None
    ranks = re.search(r"^\s*(ranks [^#\n]*?)\s*(#|$)", deck.group(1), re.M)
    assert ranks is not None and ranks.group(1).startswith("ranks A 2")
    err = _error("variant nm extends newmarket {\n  deck { remove 2♣ }\n}\n")
    assert err.message == "the deck has no rank order"
    assert err.hint is not None
    assert "replaces the whole deck block of newmarket" in err.hint
    assert ranks.group(1) in err.hint
    assert "ranks 2 3 4 5 6 7 8 9 10 J Q K A" not in err.hint
    fixed = load_text("variant nm extends newmarket {\n  deck { " + ranks.group(1)
                      + "  remove 2♣ }\n}\n", "<test>")
    assert fixed.deck.ranks[0] == "A"  # the edit the hint offers keeps the game ace low


def test_a_new_variant_without_ranks_keeps_the_plain_hint() -> None:
    text = (ROOT / "spec" / "variants" / "michigan.boodle").read_text(encoding="utf-8")
    text = re.sub(r"\bvariant michigan\b", "variant fresh", text, count=1)
    text = re.sub(r"deck \{.*?\}", "deck { suits ♣ ♦ ♥ ♠ }", text, count=1, flags=re.S)
    err = _error(text)
    assert err.hint == "add a line like: ranks 2 3 4 5 6 7 8 9 10 J Q K A  (low to high)"


# ---------------------------------------------------------------- a file not in UTF-8


def test_a_latin1_file_names_the_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "cafe.boodle"
    path.write_bytes('variant cafe extends michigan {\n  title "Café"\n}\n'.encode("latin-1"))
    with pytest.raises(BoodleError) as info:
        load_file(path)
    err = info.value
    assert err.span is not None
    # line 2 is '  title "Café"': two spaces, 'title', a space, '"', 'Caf', then the é: 13th
    assert (err.span.line, err.span.column) == (2, 13)
    assert err.hint is not None and "'é' in Latin-1" in err.hint and "UTF-8" in err.hint
    assert f"{path}:2:13: error:" in err.render() and "line 2, column 13" in err.message


# ---------------------------------------------------------------- every error in one run

NEW = """variant fresh {
  title "Fresh"
  players 3 to 6
  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }
  board { boodle A♥  kitty "Kitty" }
  ante { each player 1 on each boodle }
  phase play "Stops" is stops {
    first lead: left of dealer, lowest of chosen suit
    follow: owner of next card
    stop: top rank, next card held by nobody
    restart: last player, lowest of other suit
    claims: on play
    going out: ends deal, takes kitty, 1 per card to winner
  }
}
"""
"""A new variant without 'deal', 'session' and 'if none' (the lead can leave a player with
no legal card: spec §6): three independent errors."""


def test_every_independent_error_is_found_in_one_run() -> None:
    err = _error(NEW, "fresh.boodle")
    assert err.message == "variant fresh has no 'deal' block or line"
    found = [err.message, *(e.message for e in err.more)]
    assert len(found) == 3
    assert "variant fresh has no 'session' block or line" in found
    assert any("'if none'" in m for m in found)
    assert all(e.more == () for e in err.more)


def test_boodle_check_prints_the_first_in_full_and_lists_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fresh.boodle"
    path.write_text(NEW, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("error:") == 3
    assert "2 more errors:" in out
    first, rest = out.split("2 more errors:")
    assert "no 'deal' block" in first and "^" in first  # in full: the line and its caret
    assert "no 'session' block" in rest and "'if none'" in rest and "^" not in rest


def test_an_error_that_depends_on_another_is_not_listed() -> None:
    # without a deck the board's cards cannot be checked: one error, not a cascade
    text = NEW.replace("  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }\n", "")
    err = _error(text)
    assert err.message == "variant fresh has no 'deck' block or line"
    assert not any("not in the deck" in e.message for e in err.more)


# ---------------------------------------------------------------- everyday words


@pytest.mark.parametrize(("said", "meant"), [("clockwise", "left"), ("anticlockwise", "right"),
                                             ("counter-clockwise", "right")])
def test_a_direction_in_everyday_words_gets_the_languages_word(said: str, meant: str) -> None:
    # spec/rules.md, Seats: "The player on a player's left is the next seat clockwise"
    err = _error(f"variant mine extends michigan {{\n  deal {{ rotation: {said} }}\n}}\n")
    assert err.hint is not None and err.hint.startswith(f"write '{meant}' instead of '{said}'")


def test_every_boodle_is_each_boodle_not_every_section() -> None:
    # grammar/boodle.lark: an ante target is 'each boodle' or 'every section'; every section
    # is the kitty too (spec §4), so the nearest keyword would change what is paid
    err = _error("variant mine extends michigan {\n  ante { each player 1 on every boodle }\n}\n")
    assert err.hint is not None and err.hint.startswith("write 'each boodle'")
    assert "write it each player 1 on every section" not in err.hint


def test_a_fallback_in_other_words_lists_the_fallbacks() -> None:
    # grammar/boodle.lark: fallback is 'lead' card_choice, 'pass left' or a payment
    err = _error("variant mine extends michigan {\n  phase play is stops {\n"
                 "    if none: pass to the left\n  }\n}\n")
    assert err.hint is not None and err.hint.startswith("write it if none: pass left")
    assert "lead lowest of same suit" in err.hint


def test_each_error_in_the_base_is_blamed_on_the_change_that_causes_it() -> None:
    # michigan's going out and ante name the kitty (spec/variants/michigan.boodle); a board
    # without it breaks both base lines: one error at the board, not two, and the session's
    # own error (chip amounts are at most 1,000,000: spec §11.3) listed after it
    err = _error("variant bl extends michigan {\n  board { boodle A♥  boodle K♣ }\n"
                 "  session { start: 5000000 chips }\n}\n", "bl.boodle")
    assert err.span is not None and (err.span.file, err.span.line) == ("bl.boodle", 2)
    assert err.message.startswith("no section 'kitty' on the board")
    assert [(e.span.line if e.span else 0, e.message) for e in err.more] == [
        (3, "5000000 start chips is too many")]


def test_a_keyword_with_an_s_is_not_told_to_write_itself() -> None:
    # 'suits' is a keyword of the deck block; after 'lowest of chosen' the grammar takes
    # 'suit' (grammar/boodle.lark suit_scope): the hint said "did you mean suits?"
    err = _error("variant mine extends michigan {\n  phase play is stops {\n"
                 "    first lead: left of dealer, lowest of chosen suits\n  }\n}\n")
    assert err.hint == "did you mean suit?"


# ---------------------------------------------------------------- a partial block


def test_check_names_the_base_lines_a_partial_block_puts_back_to_defaults(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # spec §11.2: a block replaces the base's whole; tripoli's session eliminates a player at
    # zero (spec/variants/tripoli.boodle), a session block without that line does not
    tripoli = (ROOT / "spec" / "variants" / "tripoli.boodle").read_text(encoding="utf-8")
    assert re.search(r"balance: eliminated at zero", tripoli)
    path = tmp_path / "short.boodle"
    path.write_text("variant short extends tripoli {\n  session { start: 30 chips }\n"
                    "  deal { rotation: left }\n}\n", encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    notes = [line.strip() for line in out.splitlines() if line.strip().startswith("note:")]
    assert len(notes) == 2 and notes[0].startswith(
        "note: the session block replaces tripoli's whole block: its lines")
    # tripoli deals the widow first in each round; the default is last (spec §5.2)
    assert notes[1] == ("note: the deal block replaces tripoli's whole block: its line "
                        "'widow: first in each round, hidden' is not written here, so it takes "
                        "its default (copy it to keep it)")
    assert "'balance: eliminated at zero'" in notes[0]
    assert "'start:" not in notes[0]  # written here
    assert "'ties: share'" not in notes[0]  # the default is the same: nothing lost


def test_a_block_written_whole_gets_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    # michigan-dealer-double writes the whole ante block (its file), which has no defaults
    assert main(["check", str(ROOT / "spec" / "variants" / "michigan-dealer-double.boodle")]) == 0
    assert "note:" not in capsys.readouterr().out
