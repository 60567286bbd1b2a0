"""Every syntax error of a rules file carries a hint (found by a fresh user: Lark's errors
often came with none), and an empty file gets a located error with a caret.

Each case breaks one line of a small variant the way a person does (a missing ':', brace or
comma, a misspelt keyword, a card written 10h, a tab, a stray ';') and asserts the place,
message and hint worked out by hand from the text and the grammar (grammar/boodle.lark).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.errors import BoodleError
from boodle.language.syntax import parse
from boodle.language.syntax_errors import RULES_FILE_START

BASE = """\
variant tiny extends michigan {
  players 3 to 8
  deal {
    rotation: left
    widow: last in each round, hidden
  }
  phase play is stops {
    stop: top rank, next card held by nobody
  }
  session {
    start: 50 chips
  }
}
"""
"""Lines 1-14: the variant opens on line 1, deal on 3, the phase on 7, session on 10."""


def _error(text: str) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        parse(text, "t.boodle")
    return info.value


def _where(err: BoodleError) -> tuple[int, int]:
    assert err.span is not None
    return err.span.line, err.span.column


def _broken(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new, 1)


def test_the_base_text_parses() -> None:
    assert parse(BASE, "t.boodle").name == "tiny"


# ---------------------------------------------------------------- empty files


def test_an_empty_file_is_located_at_line_1_column_1_with_a_caret() -> None:
    err = _error("")
    assert err.message == "the rules file is empty: it has no variant"
    assert _where(err) == (1, 1)
    assert err.hint == RULES_FILE_START
    assert err.render().splitlines() == [
        "t.boodle:1:1: error: the rules file is empty: it has no variant",
        "     1 | ",
        "       | ^",
        f"  hint: {RULES_FILE_START}",
    ]


def test_a_file_of_comments_and_blank_lines_says_so_at_line_1() -> None:
    err = _error("# our house rules\n\n   \n# to be written\n")
    assert err.message == ("the rules file holds only comments and blank lines: "
                           "it has no variant")
    assert _where(err) == (1, 1)
    assert err.render().splitlines()[1:3] == ["     1 | # our house rules", "       | ^"]


def test_a_blank_first_line_still_gets_its_caret() -> None:
    lines = _error("\n\n").render().splitlines()
    assert lines[1:3] == ["     1 | ", "       | ^"]


def test_the_hint_says_what_a_rules_file_starts_with() -> None:
    assert "'variant NAME {'" in RULES_FILE_START
    assert "'variant NAME extends michigan {'" in RULES_FILE_START


def test_boodle_check_of_an_empty_file_prints_the_caret(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.boodle"
    path.write_text("", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert f"{path}:1:1: error: the rules file is empty" in text
    assert "| ^" in text
    assert "hint: a rules file starts with 'variant NAME {'" in text


def test_a_file_whose_variant_line_is_gone_gets_the_same_hint() -> None:
    err = _error(BASE.replace("variant tiny extends michigan {\n", ""))
    assert _where(err) == (1, 3)  # '  players' is now line 1
    assert err.message == "unexpected 'players'; expected \"variant\""
    assert err.hint == RULES_FILE_START


# ---------------------------------------------------------------- punctuation


def test_a_missing_colon_is_named_with_the_line_written_right() -> None:
    err = _error(_broken("rotation: left", "rotation left"))
    assert _where(err) == (4, 14)  # 'left' on '    rotation left'
    assert err.message == "unexpected 'left'; expected \":\""
    assert err.hint == "add ':' after 'rotation' (write it rotation: left)"


def test_a_missing_colon_before_a_choice_of_words() -> None:
    err = _error(_broken("stop: top rank", "stop top rank"))
    assert _where(err) == (8, 10)
    assert err.message == "unexpected 'top'; expected \":\" or \"bonus\""
    assert err.hint == ("add ':' after 'stop' (write it stop: top rank, next card held by "
                        "nobody)")


def test_a_missing_comma_between_items() -> None:
    err = _error(_broken("top rank, next card", "top rank next card"))
    assert _where(err) == (8, 20)
    assert err.hint == ("separate the items with ',': add one before 'next' (write it stop: "
                        "top rank, next card held by nobody)")


def test_a_missing_opening_brace() -> None:
    err = _error(_broken("  deal {\n", "  deal\n"))
    assert _where(err) == (4, 5)  # 'rotation', the first word after 'deal'
    assert err.message == "unexpected 'rotation'; expected \"{\""
    assert err.hint == "put '{' after 'deal' to open its block"


def test_a_colon_too_many_is_to_be_deleted() -> None:
    err = _error(_broken("players 3 to 8", "players: 3 to 8"))
    assert _where(err) == (2, 10)
    assert err.message == "unexpected ':'; expected a number"
    assert err.hint == "delete ':': there is none here (write it players 3 to 8)"


def test_a_stray_semicolon_is_to_be_deleted() -> None:
    err = _error(_broken("players 3 to 8", "players 3 to 8;"))
    assert _where(err) == (2, 17)
    assert err.hint == "delete ';': it has no meaning in a rules file"


def test_an_equals_sign_for_a_colon() -> None:
    err = _error(_broken("rotation: left", "rotation = left"))
    assert _where(err) == (4, 14)
    assert err.hint == "write ':' instead of '='"


# ---------------------------------------------------------------- braces


def test_an_inner_block_not_closed_before_the_next_block() -> None:
    # the deal block's '}' (line 6) is gone: 'phase' on line 6 cannot be a deal line
    err = _error(_broken("    widow: last in each round, hidden\n  }\n",
                         "    widow: last in each round, hidden\n"))
    assert _where(err) == (6, 3)
    assert err.message == "unexpected 'phase'; expected \",\", a line of the deal block or \"}\""
    assert err.hint == "the deal block, opened at line 3, is not closed: add '}' before 'phase'"


def test_the_last_brace_missing() -> None:
    err = _error(BASE.removesuffix("}\n"))
    assert "end of file" in err.message
    assert err.hint == ("the variant block, opened at line 1, is not closed: add '}' at the "
                        "end of the file")


def test_a_missing_brace_found_by_its_indentation() -> None:
    # the session block's '}' (line 12) is gone: the variant's '}' (now line 12, column 1)
    # closes the session block, and the file ends inside the variant block
    err = _error(_broken("    start: 50 chips\n  }\n", "    start: 50 chips\n"))
    assert err.hint == ("the session block, opened at line 10, is not closed: the '}' on line "
                        "12 lines up with an outer block; add its own '}' before line 12")


def test_a_brace_too_many() -> None:
    err = _error(_broken("    widow: last in each round, hidden\n  }\n",
                         "    widow: last in each round, hidden\n  }}\n"))
    # '}}' on line 6 closes deal, then the variant: 'phase' on line 7 comes after the end
    assert _where(err) == (7, 3)
    assert err.message == "unexpected 'phase'; expected the end of the file"
    assert err.hint == ("the variant is already closed by the '}' on line 6: delete what "
                        "follows it, or that '}' if it is one too many")


def test_a_line_whose_block_opener_is_gone() -> None:
    err = _error(_broken("  deal {\n", ""))
    assert _where(err) == (3, 5)  # 'rotation' is now at the variant's level
    assert err.message == "unexpected 'rotation'; expected a line of the variant block or \"}\""
    # one '}' more than '{': the line that opens the block is missing
    assert err.hint == ("'rotation' starts a line of a deal { … } block, not of the variant "
                        "block: is the line that opens that block missing above?")


def test_a_line_moved_into_the_wrong_block() -> None:
    # the braces balance: the players line, moved into the session block, is misplaced
    text = _broken("  players 3 to 8\n", "").replace(
        "    start: 50 chips\n", "    start: 50 chips\n    players 3 to 8\n")
    err = _error(text)
    assert _where(err) == (11, 5)
    assert err.message == ("unexpected 'players'; expected a line of the session block or "
                           "\"}\"")
    assert err.hint == ("'players' starts a line of the variant block (outside the other "
                        "blocks), not of the session block: move this line there")


def test_an_ante_block_not_closed_before_a_line_it_could_start() -> None:
    # 'widow' starts an ante line too: the error is at 'sale', and the fix is a '}' before
    # the line
    text = ("variant w extends michigan {\n  ante {\n    each player 1 on each boodle\n"
            "  widow sale {\n    offer: sale unseen at 2\n  }\n}\n")
    err = _error(text)
    assert _where(err) == (4, 9)
    assert err.message == "unexpected 'sale'; expected a number"
    assert err.hint == "the ante block, opened at line 2, is not closed: add '}' before this line"


# ---------------------------------------------------------------- words


def test_a_misspelt_keyword_at_the_start_of_a_line() -> None:
    err = _error(_broken("rotation: left", "rotaton: left"))
    assert _where(err) == (4, 5)
    assert err.message == "unexpected 'rotaton'; expected a line of the deal block or \"}\""
    assert err.hint == "did you mean rotation?"


def test_a_misspelt_choice_word() -> None:
    # DIRECTION is a named terminal (left or right): it had no hint
    err = _error(_broken("rotation: left", "rotation: lfet"))
    assert err.message == "unexpected 'lfet'; expected \"right\" or \"left\""
    assert err.hint == "did you mean left?"


def test_a_misspelt_word_read_as_a_section_name() -> None:
    # 'aech' is a name (a section), so the parser stops at 'boodle'
    text = "variant a extends michigan {\n  ante {\n    dealer 1 on aech boodle\n  }\n}\n"
    err = _error(text)
    assert _where(err) == (3, 22)
    assert err.hint == "did you mean each (not aech)?"


def test_the_expected_words_are_those_of_this_block_only() -> None:
    # after a card, Lark's own set lists words of every block a card ends a line in
    text = ("variant a extends michigan {\n  ante {\n    dealer 8 on A♥\n"
            "    dealre 2 on K♣\n  }\n}\n")
    err = _error(text)
    assert _where(err) == (4, 5)
    assert err.message == "unexpected 'dealre'; expected \",\", a line of the ante block or \"}\""
    assert err.hint == "did you mean dealer?"


def test_a_missing_keyword_chips() -> None:
    err = _error(_broken("start: 50 chips", "start: 50"))
    assert _where(err) == (11, 14)  # the end of the line, not the '}' after it
    assert err.message == "the line ends too early; expected \"chips\""
    assert err.hint == "write it start: 50 chips"


def test_a_missing_extends() -> None:
    err = _error(_broken("variant tiny extends michigan", "variant tiny michigan"))
    assert _where(err) == (1, 14)
    assert err.message == "unexpected 'michigan'; expected \"extends\" or \"{\""
    assert err.hint == "add 'extends' after 'tiny' (write it variant tiny extends michigan {)"


def test_two_keywords_written_as_one() -> None:
    text = "variant s extends michigan {\n  board { set pair 8 9 samesuit }\n}\n"
    assert _error(text).hint == "write 'same suit' as two words"


def test_an_upper_case_variant_name() -> None:
    err = _error("variant Tiny {\n}\n")
    assert err.message == ("unexpected 'Tiny'; expected the variant's name (lower case, "
                           "such as my-house-rules)")
    assert err.hint == "names are lower case letters, digits, '_' and single hyphens: write tiny"


def test_a_word_for_a_number() -> None:
    err = _error(_broken("players 3 to 8", "players three to 8"))
    assert err.message == "unexpected 'three'; expected a number"
    assert err.hint == "write a number here, such as 2"


def test_a_word_too_many_is_to_be_deleted() -> None:
    text = "variant w extends michigan {\n  ante { each player 2 chips on kitty }\n}\n"
    err = _error(text)
    assert _where(err) == (2, 24)
    assert err.message == "unexpected 'chips'; expected \"on\""
    assert err.hint == ("delete 'chips': it has no place here (write it ante { each player 2 "
                        "on kitty })")


def test_a_word_deleted_must_leave_a_whole_line() -> None:
    # without 'KX', 'boodle' would run on into the next line: no 'delete' hint
    text = "variant w extends michigan {\n  board { boodle KX\n    kitty }\n}\n"
    assert _error(text).hint == "cards are written rank then suit: K♣, KC, 10♥ or TH"


def test_an_article_before_a_section_name() -> None:
    # 'the' is read as a section's name, so the parser stops at 'kitty'
    text = "variant w extends michigan {\n  ante { each player 3 on the kitty }\n}\n"
    err = _error(text)
    assert _where(err) == (2, 31)  # 'kitty': after 2 spaces, 'ante { each player 3 on the '
    assert err.hint == ("delete 'the': it has no place here (write it ante { each player 3 on "
                        "kitty })")


def test_a_label_word_without_quotes() -> None:
    err = _error("variant w extends michigan {\n  board { boodle K♠ Queen }\n}\n")
    assert err.hint == 'a label is written in double quotes: "Queen"'


@pytest.mark.parametrize(("old", "new", "hint"), [
    ("widow: last in each round, hidden", "widow: last in every round, hidden",
     "write 'each' instead of 'every' (write it widow: last in each round, hidden)"),
    ("start: 50 chips", "start: 50 points",
     "write 'chips' instead of 'points' (write it start: 50 chips)"),
])
def test_a_word_for_the_one_expected(old: str, new: str, hint: str) -> None:
    assert _error(_broken(old, new)).hint == hint


def test_two_items_after_a_word_that_takes_one() -> None:
    err = _error("variant w extends michigan {\n  board { boodle A♥, K♥ }\n}\n")
    assert _where(err) == (2, 20)
    assert err.hint == ("one item per 'boodle': write 'boodle' again (write it board { boodle "
                        "A♥ boodle K♥ })")


def test_two_keywords_are_suggested_only_where_they_fit() -> None:
    # 'every' and 'one' are keywords, but 'every one' starts no ante line
    text = "variant w extends michigan {\n  ante { everyone 1 on each boodle }\n}\n"
    assert _error(text).hint == ("a line of the ante block starts with one of: dealer, each, "
                                 "short, widow; or close it with '}'")


def test_and_for_a_comma() -> None:
    text = "variant w extends michigan {\n  ante { each player 1 on A♥ and kitty }\n}\n"
    assert _error(text).hint == "write ',' instead of 'and'"


def test_a_range_written_with_a_hyphen() -> None:
    assert _error(_broken("players 3 to 8", "players 3-8")).hint == \
        "write a range with 'to': 3 to 8"


def test_a_label_without_quotes() -> None:
    err = _error(_broken("players 3 to 8", 'title Our game   # Tuesdays'))
    assert err.message == "unexpected 'Our'; expected a quoted label such as \"Kitty\""
    assert err.hint == 'a label is written in double quotes: "Our game"'


@pytest.mark.parametrize("comment", ["// house rules", "/* house rules */"])
def test_a_comment_in_another_language(comment: str) -> None:
    err = _error(_broken("players 3 to 8", comment))
    assert err.hint == "comments start with '#' and run to the end of the line"


# ---------------------------------------------------------------- cards, labels, tabs

_BOARD = "variant c extends michigan {\n  board { boodle %s }\n}\n"


@pytest.mark.parametrize(("card", "hint"), [
    ("10h", "write 10♥ (or 10H): a card is its rank then its suit, in upper case"),
    ("1♥", "there is no rank 1: the ranks are 2 to 10, J, Q, K and A; for the ace write A♥"),
    ("11♣", "there is no rank 11: the ranks are 2 to 10, J, Q, K and A; for the jack write J♣"),
    ("0♠", "there is no rank 0: the ranks are 2 to 10, J, Q, K and A"),
    ("Q♤", "write Q♠: ♤ is the outline spade; the suits are the filled ♣ ♦ ♥ ♠"),
    ("Kh", "write K♥ (or KH): a card is its rank then its suit"),
    ("A ♥", "write the card without a space between rank and suit: A♥"),
    ("A\t♥", "write the card without a space between rank and suit: A♥"),
])
def test_a_card_written_wrong(card: str, hint: str) -> None:
    err = _error(_BOARD % card)
    assert _where(err) == (2, 18)
    assert err.hint is not None and err.hint.startswith(hint)


def test_a_ten_written_t_is_a_card() -> None:
    # T is the ten's other spelling (spec §11.1): T♥ is 10♥, no error
    decl = parse(_BOARD % "T♥", "c.boodle")
    assert decl.name == "c"


def test_a_label_in_single_quotes() -> None:
    err = _error(_BOARD % "10♥ 'Ten'")
    assert err.hint == "labels use double quotes: \"Kitty\", not 'Kitty'"


def test_a_label_not_closed() -> None:
    err = _error(_BOARD % '10♥ "Ten')
    assert err.hint == "this label is not closed: a label ends with '\"' on the same line"


def test_an_error_on_a_tab_indented_line_keeps_the_tabs_under_the_caret() -> None:
    text = "variant t extends michigan {\n\tdeal {\n\t\trotation\tleft\n\t}\n}\n"
    err = _error(text)
    assert _where(err) == (3, 12)  # two tabs, 'rotation', a tab: 'left' is character 12
    assert err.hint == "add ':' after 'rotation' (write it rotation: left)"
    lines = err.render().splitlines()
    assert lines[1] == "     3 | \t\trotation\tleft"
    assert lines[2] == "       | \t\t        \t^^^^"


# ---------------------------------------------------------------- every error has a hint


def _variants() -> list[Path]:
    return sorted((Path(__file__).parents[2] / "spec" / "variants").glob("*.boodle"))


def _broken_texts(text: str) -> list[str]:
    """One break at a time: each line not a comment deleted, each brace, colon and comma
    outside comments and labels deleted."""
    lines = text.split("\n")
    out = ["\n".join(lines[:k] + lines[k + 1:]) for k, line in enumerate(lines)
           if line.strip() and not line.strip().startswith("#")]
    for m in re.finditer(r"[{}:,]", text):
        before = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if "#" not in before and before.count('"') % 2 == 0:
            out.append(text[:m.start()] + text[m.end():])
    return out


@pytest.mark.parametrize("path", _variants(), ids=lambda p: p.stem)
def test_every_syntax_error_of_a_broken_shipped_variant_has_a_hint(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for broken in _broken_texts(text):
        try:
            parse(broken, path.name)
        except BoodleError as err:
            assert err.hint, err.render()
            assert err.span is not None and "^" in err.render(), err.render()


# ---------------------------------------------------------------- the builder's errors too

_M = "variant h extends michigan {{\n{}\n}}\n"


@pytest.mark.parametrize(("body", "message", "hint"), [
    ("  players 3 to 99", "players 3 to 99: at most 20 players are supported",
     "write players 3 to 20 at most"),
    ("  deck { ranks 2 3 4 5 6 7 8 9 9 J Q K A }", "rank 9 appears twice",
     "list each rank once: delete this 9"),
    ("  deck { ranks A }", "a deck needs at least two ranks",
     "list the ranks low to high: ranks 2 3 4 5 6 7 8 9 10 J Q K A"),
    ("  deck { suits ♣ ♦ ranks 2 3 4 5 6 7 8 9 10 J Q K A remove 2♥ }",
     "cannot remove 2♥: it is not in the deck",
     "the deck has no suit ♥: its suits are ♣ ♦ (add ♥ to 'suits', or name a card of those suits)"),
    ("  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A remove 2♥, 2♥ }", "2♥ is removed twice",
     "name 2♥ once: delete this one"),
    ("  board { boodle A♥ kitty \"Kitty\" kitty second }", "the board has more than one kitty",
     "keep one kitty; another section can be a pot, a boodle or a set"),
    ("  board { set pair 8♥ 8♥ }", "a set names the same card twice",
     "list each card of a set once"),
    ("  deal { widow: none }\n  ante { widow 1 on kitty }",
     "an ante for the widow, but the deal has no widow",
     "give the deal a widow (widow: last in each round) or delete this line"),
    ("  deal { widow: exposed, hidden }", "widow: 'hidden' contradicts 'exposed'",
     "keep one of 'exposed' and 'hidden'"),
    ("  session { start: 2000000 chips }", "2000000 start chips is too many",
     "chip amounts are at most 1,000,000"),
    ("  session { end: after 0 rotations }", "a session lasts 1 to 1000 rotations",
     "write, for example: end: after 1 rotation"),
])
def test_a_builder_error_has_a_hint(body: str, message: str, hint: str) -> None:
    from boodle.language.build import load_text

    with pytest.raises(BoodleError) as info:
        load_text(_M.format(body), "h.boodle")
    assert info.value.message == message
    assert info.value.hint == hint


def test_the_readme_syntax_error_example_is_what_boodle_check_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("$ boodle check bad.boodle", readme.index("A syntax error says"))
    shown = readme[start:readme.index("```", start)].rstrip("\n").splitlines()
    assert "rotation left" in shown[3]
    monkeypatch.chdir(tmp_path)
    Path("bad.boodle").write_text(
        "variant bad extends michigan {\n  deal {\n    rotation left\n  }\n}\n", encoding="utf-8")
    assert main(["check", "bad.boodle"]) == 1
    printed = capsys.readouterr()
    assert (printed.out + printed.err).splitlines()[:len(shown) - 1] == shown[1:]
