"""The built-in variants and the drafts: all check, and each says what it covers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boodle.cli import main
from boodle.language.build import load_file
from boodle.language.syntax import parse
from boodle.language.variants import builtin_names, builtin_path, draft_paths

DRAFTS = draft_paths()
# Every variant and house rule named in the rules digest is shipped or drafted (issue: foundation).
EXPECTED_DRAFTS = {
    "tripoli", "tripoli-no-poker", "tripoli-ghost-auction", "michigan-widow-sale",
    "michigan-classic", "michigan-cadaco", "boodle", "tripoley", "rummoli", "newmarket",
    "pope-joan", "michigan-dealer-double", "michigan-pay-the-widow", "michigan-random-boodles",
    "michigan-paid-stops", "tripoli-equal-stakes", "michigan-claims-on-holding",
}


# Issue 3: every Michigan-family board and house rule is shipped (spec/variants/).
SHIPPED = {
    "michigan", "michigan-classic", "michigan-widow-sale", "michigan-widow-auction",
    "michigan-widow-sale-optional", "michigan-cadaco", "boodle",
    "tripoley", "rummoli", "michigan-dealer-double", "michigan-pay-the-widow",
    "michigan-random-boodles", "michigan-paid-stops", "tripoli-equal-stakes",
    "michigan-claims-on-holding",
}


def test_every_named_variant_is_shipped_or_has_a_draft() -> None:
    assert {p.stem for p in DRAFTS} | set(builtin_names()) >= EXPECTED_DRAFTS


def test_the_michigan_family_is_shipped_and_no_longer_drafted() -> None:
    assert set(builtin_names()) >= SHIPPED
    assert not {p.stem for p in DRAFTS} & SHIPPED


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_variant_cites_its_sources_in_a_header(name: str) -> None:
    from boodle.language.variants import builtin_path, load

    text = builtin_path(name).read_text(encoding="utf-8")
    header = text[: text.index("variant ")]
    assert "Sources:" in header or "Source:" in header
    assert "Decision" in header or "decided" in header or "as in michigan.boodle" in header \
        or name == "michigan"
    assert load(name).sources


FILES = [*DRAFTS, *(builtin_path(n) for n in builtin_names())]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_variant_file_parses_and_validates(path: Path) -> None:
    decl = parse(path.read_text(encoding="utf-8"), str(path))
    assert decl.name == path.stem
    ruleset = load_file(path)
    assert ruleset.name == path.stem
    assert ruleset.sources, "every variant cites its sources"


def test_builtin_names_match_their_files() -> None:
    assert "michigan" in builtin_names()


def test_check_with_no_argument_checks_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    michigan = next(line for line in out.splitlines() if line.startswith("michigan "))
    assert michigan.endswith("OK")
    assert out.splitlines()[-1] == f"{len(builtin_names())} of {len(builtin_names())} OK"


def test_check_shows_what_a_house_rule_changes_from_its_base(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "michigan-dealer-double", "michigan-claims-on-holding",
                 "tripoli-equal-stakes", "michigan-paid-stops"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index(next(line for line in out if line.startswith("michigan-dealer-double")))
    assert out[at + 1:at + 3] == ["    changes from michigan:", "      ante: + dealer 2 on kitty"]
    assert "      phase play: claims: on play → on holding" in out
    assert "      phase play: stop bonus: none → 1 from kitty" in out
    # Tripoli's equal stakes (004 set-up §2): the dealer's 2 and the others' 1 go, one line
    # for every player comes
    at = out.index(next(line for line in out if line.startswith("tripoli-equal-stakes")))
    antes = [line for line in out[at:] if line.startswith("      ante:")]
    assert antes == ["      ante: - dealer 2 on every section",
                     "      ante: - each other player 1 on every section",
                     "      ante: + each player 1 on every section"]


def test_check_shows_a_changed_turn_up_and_a_changed_phase_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # boodle check hid both before 2026-12-02: a house rule of Pope Joan whose dealer no
    # longer takes the turned-up boodle (its deal block without 'turn up', spec §5.2), and
    # tripoli-boodle-cards, whose first phase is labelled "Boodles" (tripoli's: "Hearts")
    house = tmp_path / "no-turn-up.boodle"
    house.write_text("variant no-turn-up extends pope-joan {\n  deal {\n"
                     "    first dealer: first J dealt\n    trumps: last card of widow\n"
                     "  }\n}\n", encoding="utf-8")
    assert main(["check", str(house), "tripoli-boodle-cards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "      deal: turn up: dealer takes its boodle → nothing" in out
    assert "      phase hearts: label: Hearts → Boodles" in out


def test_check_shows_a_label_changed_in_case_only_and_a_pass_fee_of_0_chips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # boodle check hid both before 2026-12-02 and said "nothing": a house rule of Newmarket
    # (spec/variants/newmarket.boodle: 'kitty "Kitty"', 'if none: pass left') whose kitty is
    # labelled "kitty" (spec §3: a label is the section's own text, case kept) and whose
    # restarter with no card pays a fee of 0 chips to the kitty (spec §6.5).  By hand, in
    # the words of the two files: the kitty's line 'kitty' (its label "Kitty" is the
    # default, not written) becomes 'kitty "kitty"'; 'pass left' becomes 'pay 0 to kitty,
    # pass left'.
    house = tmp_path / "lower-kitty.boodle"
    house.write_text("variant lower-kitty extends newmarket {\n  board {\n"
                     "    boodle A♥\n    boodle K♣\n    boodle Q♦\n    boodle J♠\n"
                     '    kitty "kitty"\n  }\n'
                     "  phase play is stops {\n    if none: pay 0 to kitty, pass left\n  }\n}\n",
                     encoding="utf-8")
    assert main(["check", str(house)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:4] == ["    changes from newmarket:",
                       '      board: kitty: kitty → kitty "kitty"',
                       "      phase play: if none: pass left → pay 0 to kitty, pass left"]


def test_check_shows_the_board_written_in_another_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # boodle check said "nothing" before 2026-12-02: michigan.boodle's board is A♥ K♣ Q♦ J♠
    # and the kitty; this house rule writes the same five sections the other way round, the
    # order a short stack pays them in (spec §4)
    house = tmp_path / "reorder.boodle"
    house.write_text("variant reorder extends michigan {\n  board {\n    kitty \"Kitty\"\n"
                     "    boodle J♠\n    boodle Q♦\n    boodle K♣\n    boodle A♥\n  }\n}\n",
                     encoding="utf-8")
    assert main(["check", str(house)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["    changes from michigan:",
                        "      board: order: A♥, K♣, Q♦, J♠, kitty → kitty, J♠, Q♦, K♣, A♥"]


def test_check_shows_phases_played_in_another_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # tripoley.boodle plays hearts, poker, then michigan; this house rule removes the three
    # and writes them back, as tripoley's file writes them, poker first (spec §8: the order
    # of the phases is the order of play); boodle check said "nothing" before 2026-12-02
    text = builtin_path("tripoley").read_text(encoding="utf-8")
    found = {name: re.search(rf"^  phase {name} .*?^  }}\n", text, re.M | re.S)
             for name in ("hearts", "poker", "michigan")}
    block = {name: match.group(0) for name, match in found.items() if match is not None}
    house = tmp_path / "poker-first.boodle"
    house.write_text("variant poker-first extends tripoley {\n  without phase hearts\n"
                     "  without phase poker\n  without phase michigan\n" + block["poker"]
                     + block["hearts"] + block["michigan"] + "}\n", encoding="utf-8")
    assert main(["check", str(house)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["    changes from tripoley:",
                        "      phases: order: hearts, poker, michigan → poker, hearts, michigan"]


def test_check_says_which_phases_a_deal_skips(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from boodle.engine import machine as stages
    from boodle.engine import skipped_phases
    from boodle.engine.stages import stops
    from boodle.language.model import StopsPhase
    from boodle.language.variants import load

    # an engine that plays only stops phases (as before holding and poker stages exist)
    monkeypatch.setattr(stages, "PHASE_STAGES", {StopsPhase: stops.STAGE})
    assert main(["check", "tripoley"]) == 0
    out = capsys.readouterr().out
    assert "phases pending, skipped in play: hearts (holding), poker (poker)" in out
    assert skipped_phases(load("tripoley")) == ["hearts (holding)", "poker (poker)"]


def test_check_of_a_broken_file_exits_1_with_a_caret(
    write, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    path = write("broken.boodle", "variant broken {\n  players 3 to 8\n  deck { ranks 2 3 }\n"
                 "  board { boodle 4♥ }\n}\n")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "broken.boodle:4:18: error: boodle card 4♥ is not in the deck" in out
    assert "^^" in out
    assert "hint: the deck has no rank 4: its ranks are 2 3 " in out


def test_usage_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "michigan"])
    assert info.value.code == 2


def test_play_rejects_a_player_count_outside_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "michigan", "--players", "9", "--seed", "1"]) == 1
    assert "michigan is for 3 to 8 players, not 9" in capsys.readouterr().err


def test_play_prints_a_whole_session_whose_chips_add_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    assert main(["play", "michigan", "--players", "4", "--seed", "1", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    deals = [e for e in events if e["kind"] == "deal-start"]
    assert len(deals) == 4  # one full rotation of the deal among 4 players
    assert [d["dealer"] for d in deals] == [(deals[0]["dealer"] + i) % 4 for i in range(4)]
    for end in (e for e in events if e["kind"] in ("deal-end", "session-end")):
        ledger = end["ledger"]
        assert sum(ledger["seats"]) + sum(ledger["sections"].values()) == 4 * 50
    assert events[-1]["kind"] == "session-end"
    assert all(v == 0 for v in events[-1]["ledger"]["sections"].values())


def test_play_text_trace_ends_with_the_ledger(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "michigan", "--players", "4", "--seed", "1", "--deals", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-2].strip().startswith("board:")
    assert lines[-1].strip().startswith("ledger:")


def test_check_of_a_house_rule_over_a_stripped_deck_lists_its_changes(
    write, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    # pope-joan removes 8♦: the diff must still print (it once crashed sorting removed cards)
    path = write("pj.boodle", "variant pj extends pope-joan {\n  players 3 to 6\n}\n")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "changes from pope-joan:" in out
    assert "players: 3 to 8 → 3 to 6" in out  # pope-joan.boodle says players 3 to 8


def test_play_hint_names_the_nearest_allowed_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "michigan", "--players", "9", "--seed", "1"]) == 1
    assert "hint: try --players 8" in capsys.readouterr().err


def test_a_bad_output_path_is_an_error_not_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["docs", "build", "--out", "/proc/no-such-dir/x"])
    assert status == 1
    assert "internal error" not in capsys.readouterr().err


def test_verify_refuses_a_player_count_no_variant_allows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # michigan is for 3 to 8 players: verifying 2 would check nothing and claim success
    assert main(["verify", "michigan", "--players", "2"]) == 1
    err = capsys.readouterr().err
    assert "--players 2 is allowed by none of the variants" in err
    assert "michigan 3-8" in err
