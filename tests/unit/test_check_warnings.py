"""``boodle check`` prints the warnings the language server gives (legal but suspect rules:
a restated line, a house rule that changes nothing, a section never claimed, a file named
for another variant), each as
``FILE:LINE:COL: warning: …`` with its hint, and still exits 0: one module finds them
(boodle.language.warnings), both print them."""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.cli import main
from boodle.lsp.analysis import analyse

HOUSE = """\
variant house extends michigan {
  carry: unclaimed
  board { boodle A♥  boodle K♣  boodle Q♦  boodle J♠  kitty "Kitty"  pot }
}
"""
"""michigan's own carry line (restated), and a pot no phase of michigan pays (never won)."""


def test_check_prints_each_warning_with_its_place_and_hint_and_exits_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.boodle"
    path.write_text(HOUSE, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"{path}:2:3: warning: this line says what the base already says: it changes " \
           "nothing" in out
    pot = HOUSE.splitlines()[2].index("pot }") + 1  # its column, 1-based
    assert f"{path}:3:{pot}: warning: no card, phase or going out ever claims section 'pot': " \
           "its chips only carry over" in out
    assert out.count("hint: delete it, or change it") == 1
    assert "hint: name it in a phase that pays it, or delete it" in out
    assert out[-1] == "1 of 1 OK"


def test_check_says_a_house_rule_that_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "michigan.boodle"
    path.write_text("variant michigan extends michigan {\n}\n", encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"{path}:1:26: warning: this house rule changes nothing from michigan" in out
    assert "hint: write the lines it changes inside the variant's braces" in out


def test_check_and_the_language_server_give_the_same_warnings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.boodle"
    path.write_text(HOUSE, encoding="utf-8")
    main(["check", str(path)])
    printed = [line.strip().split(": warning: ", 1) for line in
               capsys.readouterr().out.splitlines() if ": warning: " in line]
    served = analyse(HOUSE, str(path)).diagnostics
    assert [(f"{path}:{d.range.line + 1}:{d.range.column + 1}", d.message) for d in served] \
        == [(where, message) for where, message in printed]


def test_a_file_without_warnings_prints_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.boodle"
    path.write_text("variant ok extends michigan {\n  players 3 to 5\n}\n", encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "warning" not in capsys.readouterr().out


def test_the_readme_warning_example_is_what_boodle_check_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("$ boodle check house.boodle")
    shown = readme[start:readme.index("```", start)].rstrip("\n").splitlines()
    monkeypatch.chdir(tmp_path)
    Path("house.boodle").write_text(
        "variant house extends michigan {\n  carry: unclaimed\n  players 3 to 6\n}\n",
        encoding="utf-8")
    assert main(["check", "house.boodle"]) == 0
    assert capsys.readouterr().out.splitlines() == shown[1:]


BLINDS = """\
variant big extends tripoley {
  phase poker is poker {
    bets: up to 5 chips
    blinds: 1000, 2000 chips
  }
}
"""
"""Found by a new user: blinds far above tripoley's start of 50 chips checked OK, and in play
every blind was then posted all in (spec §8.3)."""


def test_a_blind_above_the_start_chips_is_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.boodle"
    path.write_text(BLINDS, encoding="utf-8")
    assert main(["check", str(path)]) == 0  # legal: a warning, not an error
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    # tripoley.boodle's session starts each player at 50 chips; the big blind is 2,000
    assert f"{path}:4:5: warning: a blind of 2,000 chips is more than the 50 chips each " \
           "player starts with: at the first deal it is posted all in" in out
    assert "hint: write blinds of at most 50 chips, or a larger 'start:' in the session " \
           "block" in out
    # at or under the start: no warning
    path.write_text(BLINDS.replace("1000, 2000", "25, 50"), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "warning" not in capsys.readouterr().out
    # the language server shows the same warning at the same line
    diags = analyse(BLINDS, str(path)).diagnostics
    assert [(d.range.line, d.message.split(":")[0]) for d in diags if d.kind == "warning"] \
        == [(3, "a blind of 2,000 chips is more than the 50 chips each player starts with")]


def test_a_file_named_for_another_variant_is_warned_on_its_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by a new user: ``b4.boodle`` holding ``variant house`` (spec §11.1: a file
    SHOULD be named NAME.boodle), which a file writing ``extends house`` cannot find."""
    path = tmp_path / "b4.boodle"
    path.write_text(HOUSE, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"{path}:1:9: warning: the file b4.boodle holds the variant 'house': a file that " \
           "writes 'extends house' looks for house.boodle and will not find it" in out
    assert "hint: rename the file house.boodle, or the variant 'b4'" in out
    (tmp_path / "house.boodle").write_text(HOUSE, encoding="utf-8")
    assert main(["check", str(tmp_path / "house.boodle")]) == 0
    assert "holds the variant" not in capsys.readouterr().out


def test_an_ante_block_of_only_short_stack_is_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by a new user: an ``ante`` block replaces the base's whole (spec §11.2), so a
    block that says only ``short stack:`` drops every ante line of tripoley."""
    text = ("variant tripoley-short extends tripoley {\n"
            "  session { balance: eliminated at zero }\n"
            "  ante { short stack: section by section }\n}\n")
    path = tmp_path / "tripoley-short.boodle"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"{path}:3:3: warning: this ante block holds only 'short stack:': it replaces " \
           "the base's whole ante block, so nobody pays an ante" in out
    assert "hint: write the ante lines in this block too" in out
    # with tripoley's ante line written too: no such warning
    path.write_text(text.replace("{ short", "{ each player 1 on every section\n    short"),
                    encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "ante block holds only" not in capsys.readouterr().out
