"""The position notation (conformance/FORMAT.md): reading, writing and the validator.

Positions are worked out by hand from 001's worked example (001 §07): A holds
9♦ J♦ 5♠ 6♥, B Q♦ 3♣, C 10♦ 2♥ 7♠ 4♣, D 8♣, the other 41 cards are the
widow; D deals, so A leads; after the ante everyone has 44 and the board holds
4 on each boodle and 8 on the kitty.
"""

from __future__ import annotations

import pytest

from boodle.cli import main
from boodle.conformance.paths import load_variant
from boodle.conformance.position import (
    PositionError,
    current_run,
    describe,
    format_position,
    parse,
    to_state,
)
from boodle.language.cards import parse_card

P0 = "44,44,44,44 A♥=4,K♣=4,Q♦=4,J♠=4,kitty=8"
START = f"4 D 9♦J♦5♠6♥/Q♦3♣/10♦2♥7♠4♣/8♣ * - - A {P0}"
RUN = f"4 D 5♠6♥/Q♦3♣/2♥7♠4♣/8♣ * A9♦C10♦AJ♦ 9♦10♦J♦ B {P0}"
OVER = ("4 D 5♠6♥/-/2♥7♠4♣/8♣ * A9♦C10♦AJ♦BQ♦B3♣ - - "
        "42,62,41,43 A♥=4,K♣=4,Q♦=0,J♠=4,kitty=0")


@pytest.fixture(scope="module")
def michigan():  # type: ignore[no-untyped-def]
    return load_variant("michigan")


def cards(text: str) -> tuple:
    return tuple(parse_card(t) for t in text.split())


def test_the_fields_of_a_position() -> None:
    pos = parse(RUN)
    assert (pos.players, pos.dealer, pos.to_move, pos.passes) == (4, 3, 1, 0)
    assert pos.hands[1] == cards("Q♦ 3♣") and pos.widow is None
    assert pos.played == ((0, parse_card("9♦")), (2, parse_card("10♦")), (0, parse_card("J♦")))
    assert pos.run == cards("9♦ 10♦ J♦")
    assert pos.seats == (44, 44, 44, 44) and dict(pos.board)["kitty"] == 8


def test_letters_and_tens_read_like_the_rules_language() -> None:
    assert parse(START.replace("10♦", "TD").replace("9♦", "9D")) == parse(START)


def test_the_worked_example_start(michigan) -> None:  # type: ignore[no-untyped-def]
    state = to_state(michigan, START)
    assert state.to_move == 0 and state.step == "lead" and len(state.widow()) == 41
    assert state.ledger.seats == (44, 44, 44, 44)


def test_mid_run_the_owner_of_the_next_card_moves(michigan) -> None:  # type: ignore[no-untyped-def]
    state = to_state(michigan, RUN)
    assert state.step == "follow" and state.to_move == 1  # B holds Q♦
    assert current_run(michigan, state) == cards("9♦ 10♦ J♦")


def test_writing_back_gives_the_canonical_text(michigan) -> None:  # type: ignore[no-untyped-def]
    written = describe(michigan, to_state(michigan, RUN))
    # hands in deck order (♣ ♦ ♥ ♠), the widow written out: 52 - 11 = 41 cards
    fields = written.split(" ")
    assert fields[2] == "6♥5♠/3♣Q♦/4♣2♥7♠/8♣" and len(parse(written).widow or ()) == 41
    assert fields[4:] == ["A9♦C10♦AJ♦", "9♦10♦J♦", "B", "44,44,44,44",
                          "A♥=4,K♣=4,Q♦=4,J♠=4,kitty=8"]
    assert format_position(parse(written)) == written


def test_a_finished_deal(michigan) -> None:  # type: ignore[no-untyped-def]
    state = to_state(michigan, OVER)
    assert state.step == "over" and state.ledger.seat(1) == 62


@pytest.mark.parametrize(("text", "field", "says"), [
    (START.replace("8♣ *", "8♣9♦ *"), "hands", "9♦ is in two places"),
    (f"4 D 5♠6♥/Q♦3♣/2♥7♠4♣/8♣ * A9♦C10♦AJ♦ 9♦J♦ B {P0}", "run", "the last cards played"),
    (f"4 D 5♠6♥/Q♦3♣/2♥7♠4♣/8♣ * A9♦C10♦ 9♦10♦J♦ B {P0}", "run", "J♦ is in the run but has not"),
    (f"4 D 5♠6♥/Q♦3♣/2♥7♠4♣/8♣ * A9♦C10♦AJ♦ - B {P0}", "run", "the run going on is 9♦10♦J♦"),
    (START.replace(" A 44", " B 44"), "to move", "A is to move, not B"),
    (f"4 D 5♠6♥/3♣/2♥7♠4♣/8♣ * AJ♦C10♦ - B {P0}", "played", "it was A's lead"),
    (f"4 D 9♦5♠6♥/Q♦3♣/10♦2♥7♠4♣/8♣ * AJ♦ - A {P0}", "played", "not a legal move"),
    (OVER.replace(" - - 42", " - A 42"), "to move", "the deal is over"),
    (START.replace(",kitty=8", ""), "board", "the board is A♥, K♣, Q♦, J♠, kitty"),
    (START.replace("=8", "=-1"), "board", "negative"),
    (START.replace("/8♣ ", "/8♣/2♣ "), "hands", "5 hands for 4 players"),
    (START.replace(" * ", " 2♣5♣ "), "widow", "cards in no place"),
    (START.replace(" A 44", " E 44"), "to move", "no seat 'E'"),
    (START.replace(" A 44", " A+1 44"), "to move", "not a legal move"),
    (START.rsplit(" ", 1)[0], "board", "9 fields"),
])
def test_impossible_positions_are_refused(michigan, text: str, field: str, says: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PositionError) as info:
        to_state(michigan, text)
    assert info.value.message.startswith(field) and says in info.value.message
    assert info.value.span is not None and info.value.span.file == "<position>"


def test_a_removed_card_is_in_no_deck() -> None:
    removed = load_variant("probe-removed-card")  # Michigan without 8♦
    with pytest.raises(PositionError, match="8♦ is not a card of the probe-removed-card deck"):
        to_state(removed, START.replace("8♣ *", "8♣8♦ *"))


def test_passes_in_a_position() -> None:
    # classic Michigan: A led 2♣ (3♣ in the widow) and, holding only clubs, must pass; so must B
    classic = load_variant("michigan-classic")
    text = "4 D 9♣/5♣/6♦7♣/8♣ * A2♣ - C+2 46,46,46,42 A♥=5,K♣=5,Q♦=5,J♠=5"
    state = to_state(classic, text)
    assert (state.to_move, state.passes) == (2, 2)
    with pytest.raises(PositionError, match="pass 3 is not a legal move there.*may lead 6♦"):
        to_state(classic, text.replace("C+2", "D+3"))  # C holds 6♦, so C cannot pass


def test_play_prints_the_position_after_every_move(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "michigan", "--players", "4", "--seed", "1", "--deals", "1",
                 "--positions"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("    @ ")]
    michigan = load_variant("michigan")
    first, last = parse(lines[0][6:]), parse(lines[-1][6:])
    assert first.played == () and first.to_move is not None
    assert last.to_move is None and any(not hand for hand in last.hands)  # someone went out
    for line in lines[::7]:
        to_state(michigan, line[6:])  # every printed position can happen


SHORT = ("3 A K♥/Q♥3♣/J♥4♣5♣ * - - A 0,13,13 A♥=3,K♥=2,Q♥=0,J♥=0,10♥=2,king-queen=2,"
         "eight-nine-ten=2,kitty=2,pot=2")


def test_a_short_seat_is_read_and_written_back() -> None:
    # spec §4 'short stack: section by section': A anted A♥ alone and may take nothing else
    ruleset = load_variant("probe-short-stacks")
    state = to_state(ruleset, SHORT + " short:A=AH")
    assert state.short == ((0, frozenset({"A♥"})),)
    assert describe(ruleset, state).endswith(" short:A=A♥")
    assert parse(SHORT + " short:C=-,A=A♥+K♥").short == ((0, ("A♥", "K♥")), (2, ()))


@pytest.mark.parametrize(("short", "says"), [
    ("A=K♥", "cannot have anted K♥"),            # the first due in board order is A♥'s
    ("A=-", "no chip before the ante"),          # 1 due on A♥: anting none means 0 chips
    ("A=A♥+K♥+Q♥+J♥+10♥+king-queen+eight-nine-ten+kitty+pot", "not short"),
    ("A=A♥+chien", "no section 'chien'"),
    ("A=A♥,A=A♥", "written twice"),
    ("A=A♥+A♥", "written twice"),
    ("A:A♥", "not a short seat"),
])
def test_impossible_short_seats_are_refused(short: str, says: str) -> None:
    ruleset = load_variant("probe-short-stacks")
    with pytest.raises(PositionError) as err:
        to_state(ruleset, f"{SHORT} short:{short}")
    assert says in err.value.message and err.value.message.startswith("short:")


def test_a_short_seat_needs_the_section_by_section_rule() -> None:
    with pytest.raises(PositionError) as err:
        to_state(load_variant("tripoley"), SHORT + " short:A=A♥")
    assert "short stack: section by section" in err.value.message
