"""What a new user writing house rules meets: errors, hints and `boodle check`'s report.

Each test reproduces one report of a fresh user (rules language and `boodle check`) and
asserts the value worked out by hand from spec/rules.md.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.build import load_file, load_text
from boodle.language.errors import BoodleError

Write = Callable[[str, str], Path]


def _error(text: str, file: str = "<string>") -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, file)
    return info.value


# ---------------------------------------------------------------- 1: ante targets (spec §4)


def test_ante_line_naming_a_boodle_twice_is_rejected_at_the_second_target() -> None:
    # michigan's boodles are A♥ K♣ Q♦ J♠: 'each boodle' already names A♥
    text = "variant ov extends michigan {\n  ante { each player 1 on each boodle, A♥ }\n}\n"
    exc = _error(text, "ov.boodle")
    assert exc.message == "this ante line names section 'A♥' twice"
    assert exc.span is not None
    assert (exc.span.file, exc.span.line, exc.span.column) == ("ov.boodle", 2, 40)
    assert exc.notes == ("'A♥' is already named at ov.boodle:2:27",)
    assert exc.hint is not None and "second line" in exc.hint


@pytest.mark.parametrize("targets", ["kitty, kitty", "every section, kitty", "A♥, each boodle"])
def test_ante_line_naming_any_section_twice_is_rejected(targets: str) -> None:
    text = f"variant ov extends michigan {{\n  ante {{ each player 1 on {targets} }}\n}}\n"
    assert "twice" in _error(text).message


def test_ante_with_distinct_targets_still_pays_each_once() -> None:
    text = "variant ok extends michigan {\n  ante { each player 1 on A♥, K♣, kitty }\n}\n"
    (line,) = load_text(text, "<string>").antes
    assert line.targets == ("A♥", "K♣", "kitty")


def test_ante_amount_zero_is_accepted_as_documented() -> None:
    # spec §4: an amount of 0 is accepted and moves no chip
    text = ("variant z extends michigan {\n"
            "  ante { each player 1 on each boodle  each player 0 on kitty }\n}\n")
    antes = load_text(text, "<string>").antes
    assert [(a.amount, a.targets) for a in antes] == [
        (1, ("A♥", "K♣", "Q♦", "J♠")), (0, ("kitty",))]


def test_check_lists_an_ante_line_added_twice_twice(
        write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    # lines add up (spec §4): two more 'dealer 2 on kitty' lines are two additions
    path = write("dd.boodle", "variant dd extends michigan {\n  ante {\n"
                 "    each player 1 on each boodle\n    each player 2 on kitty\n"
                 "    dealer 2 on kitty\n    dealer 2 on kitty\n  }\n}\n")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:4] == ["    changes from michigan:", "      ante: + dealer 2 on kitty",
                        "      ante: + dealer 2 on kitty"]


# ---------------------------------------------------------------- 5: title and about (spec §11.2)


def test_check_lists_a_title_only_change(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("tt.boodle", 'variant tt extends michigan {\n  title "Our Tuesday game"\n}\n')
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["    changes from michigan:", '      title: "Our Tuesday game"']
    assert "nothing" not in "\n".join(out)


def test_check_lists_an_about_only_change(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("ta.boodle", 'variant ta extends michigan {\n  about "Tuesdays"\n}\n')
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["    changes from michigan:", '      about: "Tuesdays"']


def test_check_of_an_unchanged_copy_still_says_nothing(
        write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    # the base's title is michigan's own; 'variant michigan extends michigan' changes nothing
    path = write("michigan.boodle", "variant michigan extends michigan {\n}\n")
    assert main(["check", str(path)]) == 0
    assert "      nothing" in capsys.readouterr().out.splitlines()


def test_load_file_reports_the_users_file(write: Write) -> None:
    path = write("ok.boodle", "variant ok extends michigan {\n  players 3 to 5\n}\n")
    assert load_file(path).players.high == 5


# ---------------------------------------------------------------- 2: errors caused by a replacement


def test_a_replaced_deck_is_blamed_not_the_base_file(write: Write) -> None:
    path = write("t19.boodle", "variant t19 extends michigan {\n  deck { ranks 2 3 4 5 }\n}\n")
    with pytest.raises(BoodleError) as info:
        load_file(path)
    exc = info.value
    assert exc.span is not None
    assert (exc.span.file, exc.span.line, exc.span.column) == (str(path), 2, 3)
    assert exc.message.startswith("boodle card A♥ is not in the deck")
    (note,) = exc.notes
    assert note.startswith("the deck is replaced here; the base's rule at ")
    assert "michigan.boodle:25:12 (boodle A♥)" in note  # michigan's board line 'boodle A♥'


def test_a_board_without_the_kitty_is_blamed(write: Write) -> None:
    path = write("t20.boodle", 'variant t20 extends michigan {\n  title "x"\n'
                 "  board { boodle A♥  boodle K♣  boodle Q♦  boodle J♠ }\n}\n")
    with pytest.raises(BoodleError) as info:
        load_file(path)
    exc = info.value
    assert exc.span is not None and (exc.span.file, exc.span.line) == (str(path), 3)
    assert exc.message.startswith("no section 'kitty' on the board")
    assert exc.notes[0].startswith("the board is replaced here")


def test_of_several_changes_the_one_that_breaks_the_base_is_blamed(write: Write) -> None:
    # players 3 to 4 breaks nothing; the board without the kitty breaks michigan's going
    # out (issue 21: the error was left in the base with a note for each change)
    path = write("t21.boodle", "variant t21 extends michigan {\n  players 3 to 4\n"
                 "  board { boodle A♥  boodle K♣  boodle Q♦  boodle J♠ }\n}\n")
    with pytest.raises(BoodleError) as info:
        load_file(path)
    exc = info.value
    assert exc.span is not None and (exc.span.file, exc.span.line) == (str(path), 3)
    assert exc.notes[0].startswith("the board is replaced here")


# ---------------------------------------------------------------- 3: emoji-style suits (spec §11.1)

VS16 = "\ufe0f"


def test_emoji_style_suit_after_a_card_is_the_plain_suit() -> None:
    text = ("variant em extends michigan {\n"
            f"  deck {{ suits ♣ ♦ ♥{VS16} ♠  ranks 2 3 4 5 6 7 8 9 10 J Q K A }}\n"
            f"  ante {{ each player 1 on A♥{VS16}, K♣  each player 2 on kitty }}\n}}\n")
    ruleset = load_text(text, "<string>")
    assert ruleset.deck.suits == ("♣", "♦", "♥", "♠")
    assert [line.targets for line in ruleset.antes] == [("A♥", "K♣"), ("kitty",)]


def test_emoji_style_keeps_later_columns_counted_by_code_point() -> None:
    # 'A♥️' is 3 code points; 'kity' starts 3 + 2 (", ") columns after 'A♥️' starts at 27
    text = f"variant em extends michigan {{\n  ante {{ each player 1 on A♥{VS16}, kity }}\n}}\n"
    exc = _error(text)
    assert exc.message == "no section 'kity' on the board"
    assert exc.span is not None and exc.span.column == 32


def test_emoji_style_elsewhere_is_named_by_its_code_point() -> None:
    exc = _error(f'variant em extends michigan {{\n  title{VS16} "x"\n}}\n')
    assert exc.message.startswith("unexpected character U+FE0F (VARIATION SELECTOR-16)")
    assert exc.span is not None and (exc.span.line, exc.span.column) == (2, 8)
    assert exc.hint is not None and "only right after a suit symbol" in exc.hint


# ---------------------------------------------------------------- 4: 'without phase' hint


def test_misspelt_phase_hint_uses_the_languages_own_words() -> None:
    # tripoli's phases, in file order: hearts, poker, play
    exc = _error("variant x extends tripoli {\n  without phase pokr\n}\n")
    assert exc.message == "'without phase pokr': the base has no such phase"
    assert exc.hint == "did you mean poker? (the base's phases: hearts, poker, play)"


# ---------------------------------------------------------------- 7: paths given for variants


@pytest.mark.parametrize(("given", "message"), [
    ("-", "error: reading rules from standard input is not supported"),
    ("../nowhere/rules.txt", "error: no such file: ../nowhere/rules.txt"),
])
def test_check_says_what_is_wrong_with_a_path(
        given: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", given]) == 1
    assert f"    {message}" in capsys.readouterr().out.splitlines()


def test_check_of_a_directory_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path)]) == 1
    assert f"    error: {tmp_path} is a directory, not a rules file" in capsys.readouterr().out


def test_a_local_file_is_suggested_for_a_bare_name(
        write: Write, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = write("mine.boodle", "variant mine extends michigan {\n  players 3 to 5\n}\n")
    monkeypatch.chdir(path.parent)
    assert main(["play", "mine", "--players", "3"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["error: no built-in variant 'mine'", "  hint: did you mean ./mine.boodle?"]


# ---------------------------------------------------------------- 8: cycles name their files


def test_cycle_through_a_local_file_named_like_a_built_in(
        write: Write, monkeypatch: pytest.MonkeyPatch) -> None:
    write("michigan.boodle", "variant c extends michigan {\n  players 3 to 5\n}\n")
    path = write("d.boodle", "variant d extends michigan {\n  players 3 to 4\n}\n")
    monkeypatch.chdir(path.parent)
    with pytest.raises(BoodleError) as info:
        load_file("d.boodle")
    exc = info.value
    assert exc.message == ("'extends michigan' makes a cycle: d → "
                           "c (./michigan.boodle) → c (./michigan.boodle)")
    assert exc.notes[0] == ("'extends michigan' in ./d.boodle found ./michigan.boodle, "
                            "which is the variant 'c'")
    assert exc.hint is not None and "found before the built-in" in exc.hint


# ---------------------------------------------------------------- 10: no drafts


def test_check_drafts_says_when_there_are_none(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import boodle.language.variants

    monkeypatch.setattr(boodle.language.variants, "draft_paths", list)
    assert main(["check", "--drafts", "michigan"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["no drafts: the drafts folder (spec/variants/drafts/) has no .boodle file",
                        "1 of 1 OK"]


# ---------------------------------------------------------------- 6: hints for habits


CARDS_HINT = ("a card is its rank then its suit, in upper case "
              "(ranks 2-10, J, Q, K, A; suits ♣ ♦ ♥ ♠ or C D H S)")


@pytest.mark.parametrize(("body", "hint"), [
    ("  ante { each player 1 on Kc }", "write K♣ (or KC): " + CARDS_HINT),
    ("  ante { each player 1 on K♡ }",
     "write K♥: ♡ is the outline heart; the suits are the filled ♣ ♦ ♥ ♠ (or the letters "
     "C D H S)"),
    ("  ante { each player 1 on 10h }", "write 10♥ (or 10H): " + CARDS_HINT),
    ('  board { boodle kc kitty "Kitty" }', "'kc' is read as a name: write K♣ (or KC): "
     + CARDS_HINT),
    ("  title “Ours”", 'labels use straight double quotes: "Kitty" (not curly quotes “…”)'),
    ("  // our rules", "comments start with '#' and run to the end of the line"),
    ("  players 3", "players is a range: write players 3 to 3 (or players 3 to 8, say)"),
])
def test_habitual_spellings_get_a_hint(body: str, hint: str) -> None:
    assert _error(f"variant h extends michigan {{\n{body}\n}}\n").hint == hint


def test_a_name_outside_ascii_is_explained() -> None:
    exc = _error("variant café extends michigan {\n}\n")
    assert exc.message == "unexpected 'café'"
    assert exc.hint == "names are ASCII: lower case letters a-z, digits, '-' and '_'"


def test_the_caret_stays_under_the_fault_on_a_line_indented_with_tabs() -> None:
    # the source line is printed with its tabs, so the caret line keeps them too (found by
    # a fresh user: the caret landed three columns left of the word on a terminal)
    from boodle.language.errors import BoodleError, Span

    text = "variant x extends michigan {\n\tante {\teach player 1 on kity }\n}\n"
    column = text.splitlines()[1].index("kity") + 1
    err = BoodleError("no section 'kity' on the board",
                      Span("x.boodle", 2, column, 2, column + 4, text))
    source, caret = err.render().splitlines()[1:3]
    assert source.endswith("\tante {\teach player 1 on kity }")
    assert caret == "       | \t      \t" + " " * len("each player 1 on ") + "^^^^"


def test_an_unknown_section_on_an_empty_board_gets_a_hint_that_says_so(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the hint read "sections are: " with nothing after it (found by a fresh user)
    from boodle.language.build import load_file
    from boodle.language.errors import BoodleError

    path = tmp_path / "x.boodle"
    path.write_text("variant x extends michigan {\n  board { }\n}\n", "utf-8")
    with pytest.raises(BoodleError) as err:
        load_file(path)
    assert "hint: the board has no section yet: declare one in 'board { … }'" \
        in err.value.render()


def test_a_path_that_exists_but_is_not_a_file_is_not_called_missing(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # "no such file: /dev/null" and "no ledger file /tmp" (found by a fresh user)
    assert main(["check", "/dev/null"]) == 1
    assert "/dev/null is not a regular file" in capsys.readouterr().out
    assert main(["play", "--resume", str(tmp_path)]) == 1
    assert f"{tmp_path} is a folder, not a ledger file" in capsys.readouterr().err


def test_a_holder_leading_another_card_is_refused_where_it_is_written() -> None:
    # 'first lead: holder of 7♦, 8♦' built as "holder of 8♦" (the lead's card overwrote the
    # holder's); spec §6.1: the holder of a card leads that card ('holder of 2♣, 2♣')
    text = ("variant odd extends michigan {\n  phase play \"Stops\" is stops {\n"
            "    first lead: holder of 7♦, 8♦\n  }\n}\n")
    err = _error(text, "odd.boodle")
    assert err.span is not None and err.span.line == 3
    assert err.message == "'holder of 7♦, 8♦': the holder of 7♦ leads, but the lead names " \
        "another card, 8♦"
    assert err.hint == "write 'holder of 7♦, 7♦' (the holder of a card leads it), or " \
        "'holder of 8♦, 8♦'"
    assert load_text(text.replace("7♦, 8♦", "7♦, 7♦"), "odd.boodle").phases[0].first_lead \
        .card is not None
