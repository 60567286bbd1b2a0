"""Rules files are untrusted input (issue 9): limits, ``extends`` confinement, no eval.

Every case is refused with a :class:`BoodleError` that points into the text (spec §11.1,
§11.3); line and column are counted by hand in the text written here.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from boodle.language.build import load_file, load_text
from boodle.language.errors import BoodleError

TINY = """\
variant tiny {
  players 3 to 8
  deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }
  board {
    boodle A♥
    kitty "Kitty"
  }
  ante {
    each player 1 on each boodle
  }
  deal { widow: last in each round, hidden }
  phase play is stops {
    first lead: left of dealer, lowest of chosen suit
    stop: top rank, next card held by nobody
    restart: last player, lowest of other suit
    if none: lead lowest of same suit
    going out: ends deal, takes kitty, 1 per card to winner
  }
  session { start: 50 chips }
}
"""

PACKAGE = Path(__file__).resolve().parents[2] / "reference" / "boodle"


def error_of(text: str, file: str = "t.boodle") -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, file)
    return info.value


def file_error(path: Path) -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_file(path)
    return info.value


# ---------------------------------------------------------------- no code from data


def test_no_eval_exec_or_unpickling_anywhere_in_the_package() -> None:
    # nothing in the package turns data into code: no eval/exec/compile/__import__, and no
    # deserializer that can run code (pickle, marshal, shelve)
    forbidden = {"eval", "exec", "compile", "__import__", "breakpoint"}
    modules = {"pickle", "marshal", "shelve"}
    found: list[str] = []
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) >= 20  # the scan really reads the package, subpackages included
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in forbidden:
                found.append(f"{path.name}:{node.lineno} {node.func.id}()")
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                found += [f"{path.name}:{node.lineno} import {n}" for n in names
                          if n.split(".")[0] in modules]
    assert found == []


# ---------------------------------------------------------------- extends confinement


HOUSE = "variant house extends base {\n  version 2\n}\n"
"""'base' starts at line 1, column 23."""


def test_a_base_in_the_same_folder_is_found(tmp_path: Path) -> None:
    (tmp_path / "base.boodle").write_text(TINY.replace("variant tiny", "variant base"), "utf-8")
    (tmp_path / "house.boodle").write_text(HOUSE, "utf-8")
    ruleset = load_file(tmp_path / "house.boodle")
    assert (ruleset.name, ruleset.base, ruleset.version) == ("house", "base", 2)


def test_a_symlink_to_a_file_outside_the_folder_is_refused(tmp_path: Path) -> None:
    outside, house = tmp_path / "outside", tmp_path / "house"
    outside.mkdir()
    house.mkdir()
    (outside / "base.boodle").write_text(TINY.replace("variant tiny", "variant base"), "utf-8")
    os.symlink(outside / "base.boodle", house / "base.boodle")
    (house / "house.boodle").write_text(HOUSE, "utf-8")
    err = file_error(house / "house.boodle")
    assert (err.span.line, err.span.column, err.span.end_column) == (1, 23, 27)
    assert err.span.file == str(house / "house.boodle")
    assert "outside the extending file's folder" in err.message
    assert "base.boodle" in err.message
    assert err.render().splitlines()[2].endswith("^^^^")


def test_a_symlink_to_a_folder_outside_is_not_followed_either(tmp_path: Path) -> None:
    outside, house = tmp_path / "outside", tmp_path / "house"
    (outside / "deep").mkdir(parents=True)
    house.mkdir()
    (outside / "deep" / "base.boodle").write_text(TINY.replace("variant tiny", "variant base"))
    os.symlink(outside / "deep", house / "deep")
    os.symlink(house / "deep" / "base.boodle", house / "base.boodle")
    (house / "house.boodle").write_text(HOUSE, "utf-8")
    assert "outside the extending file's folder" in file_error(house / "house.boodle").message


def test_a_symlink_to_a_sibling_in_the_same_folder_is_allowed(tmp_path: Path) -> None:
    (tmp_path / "real.boodle").write_text(TINY.replace("variant tiny", "variant base"), "utf-8")
    os.symlink(tmp_path / "real.boodle", tmp_path / "base.boodle")
    (tmp_path / "house.boodle").write_text(HOUSE, "utf-8")
    assert load_file(tmp_path / "house.boodle").base == "base"


@pytest.mark.parametrize(("written", "column"), [
    ("../base", 23),       # '.' is not a name character: the name cannot start with it
    ("/etc/passwd", 23),
    ("sub/base", 26),      # 'sub' is a name; the '/' after it is not allowed
    ("BASE", 23),          # names are lower case
])
def test_a_path_is_not_a_variant_name(tmp_path: Path, written: str, column: int) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.boodle").write_text(TINY.replace("variant tiny", "variant base"))
    (tmp_path / "house.boodle").write_text(f"variant house extends {written} {{\n}}\n")
    err = file_error(tmp_path / "house.boodle")
    assert (err.span.line, err.span.column) == (1, column)
    assert err.message.startswith("unexpected")


def test_a_resolver_never_turns_a_path_into_a_file(tmp_path: Path) -> None:
    from boodle.language.build import default_resolver

    (tmp_path / "base.boodle").write_text("x")
    for name in ("../base", str(tmp_path / "base"), "sub/base", ""):
        with pytest.raises(KeyError):
            default_resolver(name, tmp_path / "sub")


def test_a_base_file_that_is_not_utf8_is_an_error_at_the_extends(tmp_path: Path) -> None:
    (tmp_path / "base.boodle").write_bytes(b"variant base {\n  title \"caf\xe9\"\n}\n")
    (tmp_path / "house.boodle").write_text(HOUSE, "utf-8")
    err = file_error(tmp_path / "house.boodle")
    assert (err.span.line, err.span.column) == (1, 23)
    # line 2 is '  title "caf\xe9"': two spaces, 'title', a space, '"', 'caf', then the byte
    assert "is not UTF-8 text: line 2, column 13 holds byte 0xE9" in err.message


def test_an_oversized_base_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    big = tmp_path / "base.boodle"
    with big.open("wb") as handle:  # 64 MiB of comment; only 256 KiB + 1 byte may be read
        handle.write(b"#" * (64 * 1024 * 1024))
    (tmp_path / "house.boodle").write_text(HOUSE, "utf-8")
    err = file_error(tmp_path / "house.boodle")
    assert (err.span.line, err.span.column) == (1, 23)
    assert "larger than 256 KiB" in err.message


def test_an_extends_chain_of_16_builds_and_17_is_refused(tmp_path: Path) -> None:
    (tmp_path / "v0.boodle").write_text(TINY.replace("variant tiny", "variant v0"), "utf-8")
    for k in range(1, 17):
        (tmp_path / f"v{k}.boodle").write_text(f"variant v{k} extends v{k - 1} {{\n}}\n")
    assert load_file(tmp_path / "v15.boodle").name == "v15"  # v15 … v0: 16 variants
    err = file_error(tmp_path / "v16.boodle")  # v16 … v0: 17 variants
    assert "a chain of more than 16 variants" in err.message
    assert err.span.file.endswith("v1.boodle")  # the 16th file's extends is the one refused
    assert (err.span.line, err.span.column) == (1, 20)


# ---------------------------------------------------------------- limits (spec §11.3)


def test_a_number_with_thousands_of_digits_is_refused_where_it_is_written() -> None:
    err = error_of(TINY.replace("each player 1 on", "each player " + "9" * 5000 + " on"))
    assert (err.span.line, err.span.column) == (9, 17)
    assert err.span.end_column == 17 + 5000
    assert err.message == "the number 99999999999999999999999… is too large"
    assert "1,000,000,000" in (err.hint or "")


def test_a_number_just_over_a_billion_is_refused_and_leading_zeros_do_not_count() -> None:
    assert "is too large" in error_of(TINY.replace("version", "").replace(
        "players 3 to 8", "players 3 to 8\n  version 1000000001")).message
    ruleset = load_text(TINY.replace("  players 3 to 8", "  players 3 to 8\n  version "
                                     + "0" * 40 + "7"), "t.boodle")
    assert ruleset.version == 7


def test_thousands_of_leading_zeros_are_read_by_value_not_an_internal_error() -> None:
    # issue 20, item 12: 5,000 zeros passed the limit (the value is small) and then int()
    # refused the 5,000-digit text (Python's 4,300-digit limit): exit 3, no location
    zeros = "0" * 5000
    ruleset = load_text(TINY.replace("start: 50 chips", f"start: {zeros}30 chips")
                        .replace("players 3 to 8", f"players {zeros}3 to {zeros}8"), "t.boodle")
    assert ruleset.session.start_chips == 30
    assert (ruleset.players.low, ruleset.players.high) == (3, 8)
    err = error_of(TINY.replace("each player 1 on", f"each player {zeros}1000001 on"))
    assert (err.span.line, err.span.column) == (9, 5)  # the ante line, as for any ante
    assert err.message == "an ante of 1000001 chips is too large"  # the field's own limit
    err = error_of(TINY.replace("each player 1 on", f"each player {zeros}1000000001 on"))
    assert (err.span.line, err.span.column) == (9, 17)
    assert err.message == "the number 1000000001 is too large"  # not 5,000 zeros shortened


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("each player 1 on", "each player 1000001 on", 9, "an ante of 1000001 chips is too large"),
    ("start: 50 chips", "start: 1000001 chips", 19, "1000001 start chips is too many"),
    ("1 per card", "1000001 per card", 17, "a payment per card of 1000001 chips is too large"),
    ("if none: lead lowest of same suit", "if none: pay 1000001 to kitty, pass left\n"
     "    all pass: deal ends without winner", 16,
     "a payment to pass of 1000001 chips is too large"),
    ("    going out:", "    stop bonus: 1000001 from kitty\n    going out:", 17,
     "a stop bonus of 1000001 chips is too large"),
    ("    going out:", "    penalty: cannot lead, pay 1000001 to kitty\n    going out:", 17,
     "a penalty of 1000001 chips is too large"),
    ("players 3 to 8", "players 3 to 21", 2, "players 3 to 21: at most 20 players are supported"),
    ("start: 50 chips", "end: after 1001 rotations", 19, "a session lasts 1 to 1000 rotations"),
    ("start: 50 chips", "end: after 0 rotations", 19, "a session lasts 1 to 1000 rotations"),
])
def test_amounts_and_counts_over_the_limits(old: str, new: str, line: int, message: str) -> None:
    text = TINY.replace(old, new)
    assert text != TINY
    err = error_of(text)
    assert err.message == message
    assert err.span.line == line


def test_every_chip_amount_at_the_limit_still_builds() -> None:
    text = (TINY.replace("each player 1 on", "each player 1000000 on")
            .replace("start: 50 chips", "start: 1000000 chips")
            .replace("1 per card", "1000000 per card")
            .replace("    going out:", "    stop bonus: 1000000 from kitty\n"
                     "    penalty: cannot lead, pay 1000000 to kitty\n    going out:"))
    ruleset = load_text(text, "t.boodle")
    assert ruleset.antes[0].amount == ruleset.session.start_chips == 1_000_000


def board_with(sections: int) -> str:
    pots = "\n".join(f"    pot p{k}" for k in range(sections - 2))
    return TINY.replace('    kitty "Kitty"\n', f'    kitty "Kitty"\n{pots}\n')


def test_64_sections_build_and_65_are_refused() -> None:
    assert len(load_text(board_with(64), "t.boodle").board) == 64
    err = error_of(board_with(65))
    assert err.message == "65 sections on the board: at most 64 are allowed"
    assert (err.span.line, err.span.column) == (4, 3)


def test_65_ante_lines_are_refused() -> None:
    lines = "    each player 1 on kitty\n" * 64  # 64 + the one already there
    err = error_of(TINY.replace("  ante {\n", "  ante {\n" + lines))
    assert err.message == "65 lines in the ante block: at most 64 are allowed"
    assert (err.span.line, err.span.column) == (8, 3)


def test_17_phases_are_refused_at_the_17th() -> None:
    holding = "".join(f"  phase h{k} is holding {{ pays: A♥ }}\n" for k in range(16))
    text = TINY.replace("  phase play is stops", holding + "  phase play is stops")
    err = error_of(text)
    assert err.message == "17 phases: at most 16 are allowed"
    assert (err.span.line, err.span.column) == (12 + 16, 3)  # the stops phase, 17th
    assert len(load_text(text.replace("  phase h15 is holding { pays: A♥ }\n", ""),
                         "t.boodle").phases) == 16


# ---------------------------------------------------------------- text that is not text


def test_a_lone_surrogate_is_refused_at_its_place() -> None:
    err = error_of(TINY.replace('"Kitty"', '"Ki\ud800tty"'))
    assert (err.span.line, err.span.column) == (6, 14)
    assert err.message == "character U+D800 is not valid text (a lone surrogate)"
    err.render().encode("utf-8")  # printable: the quoted line holds U+FFFD instead


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.boodle"
    text = TINY.replace("A♥", "AH").replace("Kitty", "Chatt\u00e9")
    path.write_bytes(text.encode("latin-1"))  # é is the one byte 0xE9, not UTF-8's two
    err = file_error(path)
    at = text.index("é")
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    assert err.message == (f"rules file {path} is not UTF-8 text: line {line}, column {column} "
                           "holds byte 0xE9")
    assert err.span is not None and (err.span.line, err.span.column) == (line, column)


def test_only_newline_ends_a_line_for_the_error_position() -> None:
    # U+2028 and a lone CR inside comments do not start lines for the lexer (a form feed,
    # a control character, is refused: test_fresh_user.py)
    text = TINY.replace("  players 3 to 8", "  # a\u2028b\rd\n  players 3 to 8 9")
    err = error_of(text)
    assert (err.span.line, err.span.column) == (3, 18)
    assert err.span.source_line() == "  players 3 to 8 9"
    assert "  players 3 to 8 9" in err.render()
