"""``boodle fmt`` (issue 19 step 4): the canonical layout of a rules file, comments kept.

The expected texts are written by hand from the layout rules of
``boodle.language.formatter`` (one rule a line, two spaces a level, one space between words,
a comment on a line of its own going with the line after it, one after code staying there).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boodle.cli import main
from boodle.language.build import load_file, load_text
from boodle.language.errors import BoodleError
from boodle.language.formatter import format_text
from boodle.resources import variants_dir
from dsl_fuzz import mutated_texts
from ruleset_texts import ruleset_texts

UGLY = (
    "# A house rule, written in a hurry.\n"
    "variant   ugly   extends michigan{\n"
    'title "Ugly"   # the name shown\n'
    "players 3 to   6 deck{ranks 2 3 4 5 6 7 8 9 10 J Q K A\n"
    "remove 2C , 3C\n"
    "   # end of deck\n"
    "}\n"
    "\n"
    "\n"
    "# the antes\n"
    "ante { each player 1 on each boodle\n"
    "\tdealer 2 on kitty }   # the dealer pays double\n"
    "session {   }\n"
    "phase play is stops{ first lead : left of dealer,lowest of chosen suit\n"
    "going out: ends deal,   # the deal ends at once\n"
    "  takes kitty\n"
    "}\n"
    "\n"
    "}\n"
)

CANONICAL = (
    "# A house rule, written in a hurry.\n"
    "variant ugly extends michigan {\n"
    '  title "Ugly"  # the name shown\n'
    "  players 3 to 6\n"
    "  deck {\n"
    "    ranks 2 3 4 5 6 7 8 9 10 J Q K A\n"
    "    remove 2C, 3C\n"
    "    # end of deck\n"
    "  }\n"
    "\n"
    "  # the antes\n"
    "  ante {\n"
    "    each player 1 on each boodle\n"
    "    dealer 2 on kitty\n"
    "  }  # the dealer pays double\n"
    "  session {}\n"
    "  phase play is stops {\n"
    "    first lead: left of dealer, lowest of chosen suit\n"
    "    going out: ends deal,  # the deal ends at once\n"
    "      takes kitty\n"
    "  }\n"
    "}\n"
)


def test_an_ugly_file_gets_its_canonical_layout() -> None:
    assert format_text(UGLY, "ugly.boodle") == CANONICAL


def test_the_canonical_layout_is_kept_and_means_the_same() -> None:
    assert format_text(CANONICAL, "ugly.boodle") == CANONICAL
    assert load_text(CANONICAL, "ugly.boodle") == load_text(UGLY, "ugly.boodle")


def test_trailing_comments_of_consecutive_lines_are_aligned() -> None:
    text = ("variant a extends michigan {\n"
            "  deal { rotation: right # the other way\n"
            "  widow: last in each round, exposed # shown\n"
            "  misdeal: reshuffle and redeal }\n"
            "}\n")
    assert format_text(text) == (
        "variant a extends michigan {\n"
        "  deal {\n"
        "    rotation: right                     # the other way\n"
        "    widow: last in each round, exposed  # shown\n"
        "    misdeal: reshuffle and redeal\n"
        "  }\n"
        "}\n")


def test_words_are_never_changed() -> None:
    # KC stays KC, 'any suit' stays 'any suit', '007' stays '007': only space changes.
    text = ('variant w extends michigan { ante { dealer 007 on kitty }\n'
            'phase play is stops { restart: last player,  lowest of any suit } }')
    assert format_text(text) == (
        "variant w extends michigan {\n"
        "  ante {\n"
        "    dealer 007 on kitty\n"
        "  }\n"
        "  phase play is stops {\n"
        "    restart: last player, lowest of any suit\n"
        "  }\n"
        "}\n")


def test_a_byte_order_mark_is_dropped() -> None:
    assert format_text("\ufeff" + CANONICAL, "ugly.boodle") == CANONICAL


@pytest.mark.parametrize("path", sorted(variants_dir().glob("*.boodle")), ids=lambda p: p.stem)
def test_every_built_in_variant_formats_to_the_same_rules_and_stays_formatted(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    formatted = format_text(text, str(path))
    assert format_text(formatted, str(path)) == formatted
    assert load_text(formatted, str(path)) == load_file(path)
    # every comment of the file is in the formatted text, in the same order
    comments = [line[line.index("#"):].rstrip() for line in text.splitlines()
                if "#" in line and '"' not in line]
    assert [c for c in comments if c in formatted] == comments


def test_an_error_is_raised_as_check_raises_it() -> None:
    text = "variant bad {\n  players 3 to 9\n  deck { ranks 2 3 4 }\n  oops\n}\n"
    with pytest.raises(BoodleError) as by_load:
        load_text(text, "bad.boodle")
    with pytest.raises(BoodleError) as by_fmt:
        format_text(text, "bad.boodle")
    assert by_fmt.value.render() == by_load.value.render()
    assert by_fmt.value.span is not None and by_fmt.value.span.line == 4


# ---------------------------------------------------------------- the command


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_fmt_rewrites_the_files_named_and_only_those(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ugly = _write(tmp_path, "ugly.boodle", UGLY)
    other = _write(tmp_path, "other.boodle", UGLY)
    ugly.chmod(0o640)
    assert main(["fmt", str(ugly)]) == 0
    assert ugly.read_text(encoding="utf-8") == CANONICAL
    assert ugly.stat().st_mode & 0o777 == 0o640
    assert other.read_text(encoding="utf-8") == UGLY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.boodle", "ugly.boodle"]
    captured = capsys.readouterr()
    assert captured.out == f"reformatted {ugly}\n"
    assert "1 file reformatted, 0 unchanged" in captured.err
    assert main(["fmt", str(ugly)]) == 0  # formatted already: nothing to do
    assert "0 files reformatted, 1 unchanged" in capsys.readouterr().err


def test_check_writes_nothing_and_exits_1_when_a_file_would_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ugly = _write(tmp_path, "ugly.boodle", UGLY)
    tidy = _write(tmp_path, "tidy.boodle", CANONICAL)
    assert main(["fmt", "--check", str(ugly), str(tidy)]) == 1
    assert ugly.read_text(encoding="utf-8") == UGLY
    assert capsys.readouterr().out == f"would reformat {ugly}\n"
    assert main(["fmt", "--check", str(tidy)]) == 0


def test_diff_prints_the_change_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ugly = _write(tmp_path, "ugly.boodle", UGLY)
    assert main(["fmt", "--diff", str(ugly)]) == 0
    out = capsys.readouterr().out
    assert ugly.read_text(encoding="utf-8") == UGLY
    assert f"--- {ugly} (as written)" in out and f"+++ {ugly} (formatted)" in out
    assert "-players 3 to   6 deck{ranks 2 3 4 5 6 7 8 9 10 J Q K A\n" in out
    assert "+  players 3 to 6\n" in out


def test_a_file_with_errors_is_reported_as_check_reports_it_and_never_rewritten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "variant bad extends michigan {\n  deck { ranks 2 3 4 }\n}\n"
    bad = _write(tmp_path, "bad.boodle", text)
    good = _write(tmp_path, "good.boodle", UGLY)
    before = bad.stat().st_mtime_ns
    assert main(["fmt", str(bad), str(good)]) == 1
    err = capsys.readouterr().err
    assert main(["check", str(bad)]) == 1
    checked = capsys.readouterr().out
    # the same rendered error, line for line (check indents it under the variant's line)
    rendered = err.split("1 file reformatted")[0].rstrip("\n").splitlines()
    assert [f"    {line}" if line else "" for line in rendered] == \
        [line.rstrip() for line in checked.splitlines()[1:1 + len(rendered)]]
    assert f"{bad}:2:" in err
    assert bad.read_text(encoding="utf-8") == text and bad.stat().st_mtime_ns == before
    assert good.read_text(encoding="utf-8") == CANONICAL  # the other file is still done


def test_a_link_keeps_being_a_link_to_the_rewritten_file(tmp_path: Path) -> None:
    target = _write(tmp_path, "ugly.boodle", UGLY)
    link = tmp_path / "link.boodle"
    link.symlink_to(target.name)
    assert main(["fmt", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text(encoding="utf-8") == CANONICAL


def test_a_built_in_variants_name_is_never_rewritten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "house", UGLY)  # a file without .boodle: a bare name is a built-in's
    assert main(["fmt", "michigan", "house"]) == 1
    err = capsys.readouterr().err
    assert "'michigan' is a built-in variant: fmt rewrites rules files only" in err
    assert "'house' names no rules file" in err and "hint: name the file by its path, as " \
        "in ./house" in err
    assert (tmp_path / "house").read_text(encoding="utf-8") == UGLY
    assert main(["fmt", "./house"]) == 0
    assert (tmp_path / "house").read_text(encoding="utf-8") == CANONICAL


def test_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", str(tmp_path / "none.boodle")]) == 1
    assert "cannot read rules file" in capsys.readouterr().err


# ---------------------------------------------------------------- generated files

_WORD = re.compile(r'"[^"\n]*"|#[^\n]*|[{}:,]|[^ \t\n{}:,"#]+')


@st.composite
def _respaced(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    """A generated rules file (no blank line, no comment), the same words with other space
    between them and comments of their own put in, and those comments in order."""
    text = draw(ruleset_texts())
    out: list[str] = []
    comments: list[str] = []
    for word in _WORD.findall(text):
        out.append(word)
        if draw(st.integers(0, 9)) == 0:
            comment = f"# note {len(comments)}"
            comments.append(comment)
            out.append(draw(st.sampled_from([" ", "\n", "\t"])) + comment + "\n")
        else:
            out.append(draw(st.sampled_from([" ", "  ", "\n", "\t", " \n   "])))
    return text, "".join(out), comments


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_respaced())
def test_generated_files_respaced_and_commented_format_alike(
        case: tuple[str, str, list[str]]) -> None:
    text, respaced, comments = case
    try:
        ruleset = load_text(text, "<generated>")
    except BoodleError:
        assume(False)
        raise
    formatted = format_text(respaced)
    assert format_text(formatted) == formatted
    assert load_text(formatted, "<formatted>") == ruleset
    assert re.findall(r"# note \d+", formatted) == comments
    if not comments:  # the space between words alone does not change the layout
        assert formatted == format_text(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_texts())
def test_mutated_variants_format_to_the_same_rules_or_fail_as_check_fails(
        case: tuple[str, str]) -> None:
    # The built-ins and their house rules changed by a few edits (dsl_fuzz): their comments,
    # 'extends' and odd spacing.  A text that loads formats to the same ruleset, stably; one
    # that does not is refused with the very error loading it gives.
    file, text = case
    try:
        ruleset = load_text(text, file)
    except BoodleError as exc:
        with pytest.raises(BoodleError) as by_fmt:
            format_text(text, file)
        assert by_fmt.value.render() == exc.render()
        return
    formatted = format_text(text, file)
    assert format_text(formatted, file) == formatted
    assert load_text(formatted, file) == ruleset
