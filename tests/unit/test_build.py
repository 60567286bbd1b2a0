"""Parsing and validation: every error has a file, line, column, caret and hint (spec §11).

Each case below writes a small rules file with one fault and checks where the
error points (line and column counted by hand in the text) and what it says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boodle.language.build import load_file, load_text
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from tiny_rules import BASE


def error_of(text: str, file: str = "t.boodle") -> BoodleError:
    with pytest.raises(BoodleError) as info:
        load_text(text, file)
    return info.value


def test_the_base_text_is_valid() -> None:
    ruleset = load_text(BASE, "t.boodle")
    assert [s.name for s in ruleset.board] == ["A♥", "K♣", "kitty"]
    assert ruleset.antes[0].targets == ("A♥", "K♣")


def test_kc_and_k_clubs_are_the_same_card_in_the_dsl() -> None:
    ruleset = load_text(BASE.replace("boodle K♣", "boodle KC"), "t.boodle")
    assert ruleset.section("K♣").cards == (Card("K", "♣"),)


def test_misspelt_keyword_points_at_it_with_a_hint() -> None:
    err = error_of(BASE.replace("  players 3 to 8", "  playrs 3 to 8"))
    assert (err.span.line, err.span.column) == (2, 3)
    assert "unexpected 'playrs'" in err.message
    assert err.hint == "did you mean players?"
    rendered = err.render()
    assert rendered.splitlines()[0].startswith("t.boodle:2:3: error:")
    assert "playrs 3 to 8" in rendered
    assert "  ^^^^^^" in rendered


def test_keyword_glued_to_more_letters_is_not_split() -> None:
    err = error_of(BASE.replace("each player 2 on kitty", "each player 2 onn kitty"))
    assert (err.span.line, err.span.column) == (11, 19)
    assert err.message == "unexpected 'onn'"
    assert err.hint == "did you mean on?"


def test_badly_written_card_gets_the_card_hint() -> None:
    err = error_of(BASE.replace("boodle K♣", "boodle KX"))
    assert (err.span.line, err.span.column) == (6, 12)
    assert "expected a card" in err.message
    assert err.hint is not None and "K♣, KC, 10♥ or TH" in err.hint


def test_unclosed_block_points_at_the_end() -> None:
    err = error_of(BASE.rstrip().removesuffix("}"))
    assert "end of file" in err.message
    # the variant block opens on line 1 and its '}' (the last line) is gone
    assert err.hint == ("the variant block, opened at line 1, is not closed: add '}' at the "
                        "end of the file")


def test_ante_to_unknown_section() -> None:
    err = error_of(BASE.replace("each player 2 on kitty", "each player 2 on kity"))
    assert (err.span.line, err.span.column) == (11, 22)
    assert err.message == "no section 'kity' on the board"
    assert err.hint == "did you mean kitty?"


def test_ante_to_a_card_that_has_no_section() -> None:
    err = error_of(BASE.replace("each player 2 on kitty", "each player 2 on Q♦"))
    assert (err.span.line, err.span.column) == (11, 22)
    assert err.message == "no section 'Q♦' on the board"


def test_duplicate_section() -> None:
    err = error_of(BASE.replace("    boodle K♣\n", "    boodle K♣\n    boodle KC\n"))
    assert (err.span.line, err.span.column) == (7, 5)
    assert err.message == "section 'K♣' is on the board twice"
    assert err.notes and "t.boodle:6:5" in err.notes[0]


def test_same_card_paying_two_sections() -> None:
    err = error_of(BASE.replace("    boodle K♣\n", '    boodle K♣\n    boodle king "King" K♣\n'))
    assert (err.span.line, err.span.column) == (7, 5)
    assert err.message == "K♣ already pays section 'K♣'"


def test_boodle_card_not_in_the_deck() -> None:
    text = BASE.replace("deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }",
                        "deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A  remove A♥ }")
    err = error_of(text)
    assert (err.span.line, err.span.column) == (5, 12)
    assert err.message == "boodle card A♥ is not in the deck (it is removed)"
    assert err.hint == "the deck says 'remove A♥'"


def test_boodle_rank_not_in_a_stripped_rank_order() -> None:
    err = error_of(BASE.replace("ranks 2 3 4 5 6 7 8 9 10 J Q K A", "ranks 7 8 9 10 J Q K"))
    assert (err.span.line, err.span.column) == (5, 12)
    assert err.message == "boodle card A♥ is not in the deck"
    assert err.hint == ("the deck has no rank A: its ranks are 7 8 9 10 J Q K "
                        "(add A to 'ranks', or name a card of those ranks)")


def test_empty_player_range() -> None:
    err = error_of(BASE.replace("players 3 to 8", "players 8 to 3"))
    assert (err.span.line, err.span.column) == (2, 3)
    assert err.message == "players 8 to 3: the range is empty"
    assert err.hint == "did you mean players 3 to 8?"


def test_too_few_players() -> None:
    err = error_of(BASE.replace("players 3 to 8", "players 1 to 8"))
    assert err.message == "players 1 to 8: a stops game needs at least 2 players"


def test_more_hands_than_cards() -> None:
    err = error_of(BASE.replace("players 3 to 8", "players 3 to 20")
                   .replace("ranks 2 3 4 5 6 7 8 9 10 J Q K A", "ranks 10 J Q K A"))
    assert (err.span.line, err.span.column) == (2, 3)
    assert err.message == "with 20 players the deck of 20 cards cannot give every hand a card"


def test_duplicate_rank() -> None:
    err = error_of(BASE.replace("ranks 2 3 4 5", "ranks 2 3 3 5"))
    assert (err.span.line, err.span.column) == (3, 20)
    assert err.message == "rank 3 appears twice"


def test_run_that_never_stops_on_an_unheld_card_is_refused() -> None:
    err = error_of(BASE.replace("stop: top rank, next card held by nobody", "stop: top rank"))
    assert (err.span.line, err.span.column) == (17, 5)
    assert err.message == "a run must stop when nobody holds the next card, or play blocks"


def test_restart_without_fallback_is_refused() -> None:
    err = error_of(BASE.replace("    if none: lead lowest of same suit\n", ""))
    assert (err.span.line, err.span.column) == (18, 5)
    assert "no 'if none' rule" in err.message


def test_pass_without_all_pass_exit_is_refused() -> None:
    err = error_of(BASE.replace("if none: lead lowest of same suit", "if none: pass left"))
    assert (err.span.line, err.span.column) == (19, 5)
    assert err.message == ("players may pass, but nothing ends a round where every player "
                           "passes")


def test_missing_block_is_named_with_an_example() -> None:
    err = error_of(BASE.replace("  session { start: 50 chips }\n", ""))
    assert (err.span.line, err.span.column) == (1, 1)
    assert err.message == "variant tiny has no 'session' block or line"
    assert err.hint is not None and "session {" in err.hint


def test_extends_unknown_base(write) -> None:  # type: ignore[no-untyped-def]
    path = write("h.boodle", "variant h extends michigna {\n}\n")
    with pytest.raises(BoodleError) as info:
        load_file(path)
    err = info.value
    assert (err.span.line, err.span.column) == (1, 19)
    assert err.message == "'extends michigna': no variant of that name"
    assert err.hint == "did you mean michigan?"


def test_extends_cycle(write) -> None:  # type: ignore[no-untyped-def]
    write("a.boodle", "variant a extends b {\n}\n")
    path = write("b.boodle", "variant b extends a {\n}\n")
    with pytest.raises(BoodleError) as info:
        load_file(path)
    err = info.value
    assert err.message == "'extends b' makes a cycle: b → a → b"
    assert err.span.file.endswith("a.boodle")
    assert (err.span.line, err.span.column) == (1, 19)


def test_house_rule_overrides_only_what_it_names(write, michigan) -> None:  # type: ignore[no-untyped-def]
    path = write("dd.boodle", """\
variant dd extends michigan {
  ante {
    each player 1 on each boodle
    each player 2 on kitty
    dealer 2 on kitty
  }
  phase play is stops {
    restart: last player, lowest of chosen suit
  }
}
""")
    house = load_file(path)
    assert house.base == "michigan"
    assert [(a.payer, a.amount, a.targets) for a in house.antes][-1] == ("dealer", 2, ("kitty",))
    stops, base_stops = house.phases[0], michigan.phases[0]
    assert stops.restart.scope == "chosen suit"
    assert stops.first_lead == base_stops.first_lead  # inherited
    assert stops.going_out == base_stops.going_out
    assert house.board == michigan.board
    assert house.session == michigan.session


def test_error_in_base_file_names_the_base(write) -> None:  # type: ignore[no-untyped-def]
    write("base.boodle", "variant base {\n  players 3 to\n}\n")
    path = write("h.boodle", "variant h extends base {\n}\n")
    with pytest.raises(BoodleError) as info:
        load_file(path)
    assert info.value.span.file.endswith("base.boodle")
    assert info.value.notes == ("while loading base variant base",)


def test_unreadable_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(BoodleError, match="cannot read rules file"):
        load_file(tmp_path / "missing.boodle")


def test_oversized_file_is_refused() -> None:
    err = error_of(BASE + "#" * (300 * 1024))
    assert "larger than 256 KiB" in err.message


def test_a_line_written_twice_is_refused() -> None:
    err = error_of(BASE.replace("  players 3 to 8\n", "  players 3 to 8\n  players 4 to 6\n"))
    assert (err.span.line, err.span.column) == (3, 3)
    assert err.message == "'players' is written twice in variant tiny"
    assert err.notes == ("first written at t.boodle:2:3",)


def test_a_phase_rule_written_twice_is_refused() -> None:
    err = error_of(BASE.replace("    follow: owner of next card\n",
                                "    follow: owner of next card\n    follow: next in turn\n"))
    assert (err.span.line, err.span.column) == (17, 5)
    assert err.message == "'follow' is written twice in phase play"


def test_chosen_boodle_must_stand_alone() -> None:
    err = error_of(BASE.replace("each player 1 on each boodle",
                                "each player 1 on chosen boodle, kitty"))
    assert (err.span.line, err.span.column) == (10, 5)
    assert err.message == "'chosen boodle' must be the only target of its ante line"


def test_widow_ante_without_a_widow() -> None:
    err = error_of(BASE.replace("widow: last in each round, hidden", "widow: none")
                   .replace("each player 2 on kitty", "widow 2 on kitty"))
    assert (err.span.line, err.span.column) == (11, 5)
    assert err.message == "an ante for the widow, but the deal has no widow"


def test_first_lead_by_last_player_is_refused() -> None:
    err = error_of(BASE.replace("first lead: left of dealer", "first lead: last player"))
    assert (err.span.line, err.span.column) == (15, 17)
    assert err.message == "the first lead cannot be by the 'last player': no run has been played"


def test_a_fallback_that_can_fail_is_refused() -> None:
    err = error_of(BASE.replace("lowest of other suit", "lowest of opposite colour"))
    assert (err.span.line, err.span.column) == (19, 5)
    assert err.message == "the 'if none' lead can itself find no card for some hands"


def test_winner_of_a_holding_phase_is_refused() -> None:
    text = BASE.replace("  phase play is stops {", "  phase hearts is holding { pays: A♥ }\n"
                        "  phase play is stops {").replace(
        "first lead: left of dealer", "first lead: winner of hearts")
    err = error_of(text)
    assert (err.span.line, err.span.column) == (16, 27)
    assert err.message == "'winner of hearts': no earlier poker phase of that name"


def test_phase_after_the_stops_phase_is_refused() -> None:
    err = error_of(BASE.replace("  session {", "  phase late is holding { pays: A♥ }\n  session {"))
    assert (err.span.line, err.span.column) == (22, 3)
    assert err.message == "phase late comes after the stops phase, which ends the deal"


def test_sale_without_price_is_refused() -> None:
    err = error_of(BASE.replace("  session {", "  widow sale { offer: sale unseen }\n  session {"))
    assert (err.span.line, err.span.column) == (22, 16)
    assert err.message == "a widow sale needs a price"


def test_a_written_going_out_line_pays_per_card_only_when_it_says_so() -> None:
    # spec §7: the payment per card comes from the 'N per card' clause; a line without it
    # pays nothing per card (the default 1 per card applies only when no line is written).
    without = load_text(BASE.replace(", 1 per card to winner", ""), "t.boodle")
    assert without.phases[0].going_out.per_card == 0
    assert without.phases[0].going_out.takes == ("kitty",)
    with_clause = load_text(BASE, "t.boodle")
    assert with_clause.phases[0].going_out.per_card == 1


def test_forfeit_boodles_is_read() -> None:
    # spec §6.8: 'forfeit boodles' must reach the model (Lark drops anonymous keywords)
    rule = "    penalty: lead not lowest, pay 1 to each opponent{}\n"
    text = BASE.replace("    if none:", rule.format(", forfeit boodles") + "    if none:")
    assert load_text(text, "t.boodle").phases[0].penalties[0].forfeit_boodles is True
    text = BASE.replace("    if none:", rule.format("") + "    if none:")
    assert load_text(text, "t.boodle").phases[0].penalties[0].forfeit_boodles is False


@pytest.mark.parametrize("first", ["left of dealer, lowest red card", "left of dealer, 2♣"])
def test_a_first_lead_whose_fallback_finds_nothing_is_refused(first: str) -> None:
    # spec §6.5: before any stop 'same suit' allows nothing, so a first leader holding no red
    # card (or no 2♣) would have no legal lead and no pass: the deal would block.
    text = BASE.replace("first lead: left of dealer, lowest of chosen suit",
                        f"first lead: {first}")
    err = error_of(text)
    assert (err.span.line, err.span.column) == (19, 5)
    assert err.message == ("the 'if none' lead can find no card for the first lead: before any "
                           "run has stopped, 'same suit' allows nothing")
    fixed = text.replace("if none: lead lowest of same suit", "if none: lead lowest of chosen suit")
    assert load_text(fixed, "t.boodle").phases[0].fallback.rule is not None


def test_a_holder_leading_their_card_needs_no_total_fallback() -> None:
    # spec §6.1: the holder of 7♦ holds it (unheld, the lead goes up the suit or to the dealer's
    # left with their lowest card), so 'if none: lead lowest of same suit' may stay.
    text = BASE.replace("first lead: left of dealer, lowest of chosen suit",
                        "first lead: holder of 7♦, 7♦")
    assert load_text(text, "t.boodle").phases[0].first_lead.card == Card("7", "♦")
