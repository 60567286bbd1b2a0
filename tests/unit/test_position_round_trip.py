"""Positions describe every state (issue 15 part 4): print → read gives the same state.

A property over every variant the reference plays: from seeded deals (a random pack, dealer,
player count and choices), at every point the deal reaches, in every stage (a stake awaited,
a widow sale or auction, the stops phase, the end), the position printed reads back to a
state with the same legal moves, and every one of those moves has the same events there.
The cases version 1 could not describe are pinned by name: Pope Joan's turn-up, a seat
eliminated before the deal, Rummoli's hand out of play after a widow exchange, Newmarket's
stakes before the deal, a widow sale in progress; and the seats short at the ante under
`short stack: section by section`, with the sections they anted.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boodle.conformance.engines import REFERENCE, session_playable
from boodle.conformance.paths import load_variant, variant_paths
from boodle.conformance.position import (
    PositionError,
    bound_ruleset,
    describe,
    parse,
    to_state,
)
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Legal, Move, PassMove, move_count, nth_move
from boodle.language.model import Ruleset
from boodle.session.second_pack import bind_drawn, unbound_sections


def _variants() -> list[str]:
    """Every variant the reference plays: the variants whose boodle cards are drawn once per
    session (spec §3) too, which a position names (drawn:…)."""
    return [n for n in sorted(variant_paths()) if session_playable(load_variant(n))]


def _rules(name: str, seed: int) -> Ruleset:
    """The variant ``name``, with its drawn boodle cards (if any) drawn from ``seed``."""
    ruleset = load_variant(name)
    drawn = unbound_sections(ruleset)
    if drawn:
        ruleset = bind_drawn(ruleset, random.Random(seed).sample(ruleset.deck.cards(),
                                                                 len(drawn)))[0]
    return ruleset


VARIANTS = _variants()


MOVES_TRIED = 4
"""Legal moves whose consequences are compared at each state (the first ones and the last)."""


def _pick(legal: Sequence[Legal], rng: random.Random) -> Move:
    """A legal move drawn at random, each amount of a range of bids counted as one move."""
    return nth_move(legal, rng.randrange(move_count(legal)))


def _same_state(ruleset: Ruleset, state: DealState) -> None:
    """The position of ``state`` reads back with the same legal moves and consequences (of
    :data:`MOVES_TRIED` of them, the last included: the walk plays one of them next)."""
    text = describe(ruleset, state)
    base = load_variant(ruleset.name)  # read back as a case would: the variant, by name
    assert bound_ruleset(base, text) == ruleset, text
    again = to_state(base, text)
    assert describe(ruleset, again) == text
    legal = REFERENCE.legal(ruleset, state) if state.step != "over" else ()
    assert (REFERENCE.legal(ruleset, again) if again.step != "over" else ()) == legal, text
    assert again.ledger == state.ledger and again.turn_up == state.turn_up, text
    count = move_count(legal)  # a range of bids stands for one move per amount
    tried = [nth_move(legal, i) for i in sorted({*range(min(count, MOVES_TRIED - 1)), count - 1})
             if i >= 0]
    for move in tried:
        ours = [e.to_json() for e in REFERENCE.apply(ruleset, state, move)[1]]
        theirs = [e.to_json() for e in REFERENCE.apply(ruleset, again, move)[1]]
        assert ours == theirs, (text, str(move))


def _deal(ruleset: Ruleset, seed: int, out: int = 0) -> DealState:
    """A seeded deal's first state; ``out`` seats start at zero (eliminated, where the
    variant eliminates at zero); under ``short stack: section by section`` seat A starts
    with 1 to 12 chips, so that it is often short at the ante."""
    rng = random.Random(seed)
    low, high = ruleset.players.low, min(ruleset.players.high, 6)
    players = rng.randint(max(low, 2 + out), max(high, 2 + out))
    deck = list(ruleset.deck.cards())
    rng.shuffle(deck)
    seats = [ruleset.session.start_chips] * players
    for s in range(1, out + 1):
        seats[s] = 0
    if ruleset.short_stack == "section by section":  # seat A may be short at the ante (§4)
        seats[0] = rng.randint(1, 12)
    ledger = Ledger(tuple(seats), tuple((s.name, 0) for s in ruleset.board))
    dealer = 0
    return REFERENCE.start(ruleset, players, dealer, ledger, deck_order=deck)[0]


def _walk(ruleset: Ruleset, state: DealState, seed: int) -> int:
    """Check every state of a random play from ``state``; the number checked."""
    rng = random.Random(seed)
    checked = 0
    while True:
        _same_state(ruleset, state)
        checked += 1
        if state.step == "over":
            return checked
        legal = REFERENCE.legal(ruleset, state)
        state = REFERENCE.apply(ruleset, state, _pick(legal, rng))[0]


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6))
def test_every_state_of_every_variant_reads_back_as_itself(name: str, seed: int) -> None:
    ruleset = _rules(name, seed)
    assert _walk(ruleset, _deal(ruleset, seed), seed) >= 1


@pytest.mark.parametrize("name", VARIANTS)
def test_a_deal_of_each_variant_round_trips(name: str) -> None:
    ruleset = _rules(name, 15)
    assert _walk(ruleset, _deal(ruleset, 15), 15) >= 1


def test_the_turn_up_is_written_and_read() -> None:
    # Pope Joan: "the last card … is turned up for trumps" (spec §5.2, trumps: last card of
    # widow): the position says which card, so the trumps are the same once read
    ruleset = load_variant("pope-joan")
    state = _deal(ruleset, 3)
    assert state.turn_up is not None
    text = describe(ruleset, state)
    assert f" up:{state.turn_up}" in text
    assert to_state(ruleset, text).trump == state.trump == state.turn_up.suit
    _same_state(ruleset, state)


def test_a_seat_eliminated_before_the_deal() -> None:
    # balance: eliminated at zero (spec §10): seat B starts at 0 and is dealt nothing
    ruleset = load_variant("probe-elimination")
    state = _deal(ruleset, 4, out=1)
    assert state.out == frozenset({1})
    text = describe(ruleset, state)
    assert " elim:B" in text and text.split()[2].split("/")[1] == "-"
    _walk(ruleset, state, 4)


def _until(ruleset: Ruleset, seed: int, stage: str | None, moves: int = 0) -> DealState:
    """The first state of a seeded deal in ``stage`` after at least ``moves`` moves."""
    rng = random.Random(seed)
    state = _deal(ruleset, seed)
    made = 0
    while not ((stage is None or state.stage == stage) and made >= moves):
        assert state.step != "over", "the deal ended first"
        legal = REFERENCE.legal(ruleset, state)
        state = REFERENCE.apply(ruleset, state, _pick(legal, rng))[0]
        made += 1
    return state


def test_stages_before_the_stops_phase() -> None:
    # Newmarket: each player stakes on a boodle of their choice before the deal (spec §4)
    ruleset = load_variant("newmarket")
    state = _until(ruleset, 1, "antes", 1)
    text = describe(ruleset, state)
    assert " dealt:" in text and " pre:" in text and parse(text).before_play
    _same_state(ruleset, state)
    # a widow auction in progress (spec §5.4): the bids so far are the moves before play
    ruleset = load_variant("tripoli-ghost-auction")
    state = _until(ruleset, 2, "widow", 1)
    assert state.sale is not None
    _same_state(ruleset, state)
    assert to_state(ruleset, describe(ruleset, state)).sale == state.sale


def test_cards_out_of_play_after_a_widow_exchange() -> None:
    # Rummoli: a buyer's former hand goes out of play (spec §5.4 'discard'); the position
    # says the hands as dealt, and the cards in no other place are the ones out of play
    ruleset = load_variant("rummoli")
    for seed in range(40):
        state = _until(ruleset, seed, None, 1)
        while state.stage == "widow" and state.step != "over":
            legal = REFERENCE.legal(ruleset, state)  # buy or bid when one may
            concrete = [nth_move(legal, i) for i in range(min(move_count(legal), 8))]
            move = next((m for m in concrete if not isinstance(m, PassMove)), concrete[0])
            state = REFERENCE.apply(ruleset, state, move)[0]
        if state.out_of_play():
            break
    else:
        pytest.fail("no seeded Rummoli deal put a hand out of play")
    again = to_state(ruleset, describe(ruleset, state))
    assert again.out_of_play() == state.out_of_play()
    _walk(ruleset, state, seed)


def test_version_1_positions_still_read() -> None:
    # 001 §07's worked example, as the shipped case writes it (nine fields, version 1)
    text = "4 D 9♦J♦5♠6♥/Q♦3♣/10♦2♥7♠4♣/8♣ * - - A 44,44,44,44 A♥=4,K♣=4,Q♦=4,J♠=4,kitty=8"
    michigan = load_variant("michigan")
    state = to_state(michigan, text)
    again = describe(michigan, state)
    assert len(again.split()) == 9  # nothing of version 2 to say: written as version 1
    assert parse(again).hands[1] == parse(text).hands[1][::-1]  # 3♣Q♦: in deck order
    _same_state(michigan, state)


@pytest.mark.parametrize("name", ["newmarket", "rummoli", "michigan-widow-sale",
                                  "tripoli-ghost-auction", "pope-joan"])
def test_play_positions_read_back(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # 'boodle play --positions' prints a position after every move, in every stage; version 1
    # could not read any of these back (a stake, a sale, an exchange, the turn-up)
    from boodle.cli import main

    assert main(["play", name, "--players", "4", "--seed", "3", "--deals", "1",
                 "--positions"]) == 0
    lines = [ln[6:] for ln in capsys.readouterr().out.splitlines() if ln.startswith("    @ ")]
    assert lines and not any(line.startswith("(") for line in lines)  # no "(no position)"
    ruleset = load_variant(name)
    for line in lines:
        assert describe(ruleset, to_state(ruleset, line)) == line


START = "4 D 9♦J♦5♠6♥/Q♦3♣/10♦2♥7♠4♣/8♣ * - - A 44,44,44,44 A♥=4,K♣=4,Q♦=4,J♠=4,kitty=8"


@pytest.mark.parametrize(("extra", "field", "says", "hint"), [
    ("trump:9♦", "trump", "not a field of a position", "up:…"),
    ("pre:Apass up:2♣", "up", "comes before pre",
     "the order is drawn, up, elim, short, dealt, pre"),
    ("up:2♣ up:5♣", "up", "comes twice", "the order is"),
    ("pre:Afold", "pre", "not a move before play", "bidN"),
    ("elim:Z", "elim", "no seat 'Z'", "seats are A to D"),
    ("dealt:2♣/3♣", "dealt", "2 groups of cards", None),
    ("up:9♦", "up", "the widow as dealt does not hold it", None),
    ("elim:B", "elim", "eliminated at zero", None),
    ("pre:Abuy", "pre", "move 1 before play (Abuy) is not a legal move", None),
])
def test_version_2_fields_are_checked_with_a_caret_and_a_hint(
        extra: str, field: str, says: str, hint: str | None) -> None:
    from boodle.conformance.position import PositionError

    text = f"{START} {extra}"
    with pytest.raises(PositionError) as info:
        to_state(load_variant("michigan"), text)
    error = info.value
    assert error.message.startswith(field) and says in error.message, error.message
    assert hint is None or (error.hint is not None and hint in error.hint), error.hint
    assert error.span is not None and error.span.line == 1
    # the caret is under the field at fault
    at = error.span.column - 1
    assert text[at:].split(" ", 1)[0].startswith(field), (text[at:], field)


def test_a_short_stack_is_written_and_read() -> None:
    # spec §4's example: 'short stack: section by section', 4 players, B deals, A has 5
    # chips: A antes 1 on A♥, K♥, Q♥, J♥ and 10♥ in board order and nothing on K-Q, 8-9-10,
    # the kitty and the pot, which A may then not take. The position says so, and reads
    # back to the same short seat at every point of the deal
    ruleset = load_variant("probe-short-stacks")
    deck = list(ruleset.deck.cards())
    random.Random(5).shuffle(deck)
    ledger = Ledger((5, 50, 50, 50), tuple((s.name, 0) for s in ruleset.board))
    state = REFERENCE.start(ruleset, 4, 1, ledger, deck_order=deck)[0]
    assert dict(state.short) == {0: frozenset({"A♥", "K♥", "Q♥", "J♥", "10♥"})}
    text = describe(ruleset, state)
    assert text.endswith(" short:A=A♥+K♥+Q♥+J♥+10♥"), text
    assert to_state(ruleset, text).short == state.short
    assert _walk(ruleset, state, 5) > 1
    # without the field the same text reads as a deal where A anted everything
    assert to_state(ruleset, text.rsplit(" ", 1)[0]).short == ()


def test_the_boodle_cards_drawn_for_the_session_are_written_and_read() -> None:
    # michigan-random-boodles: four boodles 'drawn from second pack' once per session (spec
    # §3, 000 "Variantes"); a position names the cards, so the variant alone reads it back
    ruleset = _rules("michigan-random-boodles", 8)
    state = _deal(ruleset, 8)
    text = describe(ruleset, state)
    cards = "".join(str(s.cards[0]) for s in ruleset.board if s.suit_rule == "drawn")
    assert text.endswith(f" drawn:{cards}"), text
    base = load_variant("michigan-random-boodles")
    assert bound_ruleset(base, text) == ruleset
    _walk(ruleset, state, 8)
    without = text.rsplit(" ", 1)[0]
    with pytest.raises(PositionError, match="names them"):
        to_state(base, without)
    with pytest.raises(PositionError, match="draws no boodle card"):
        to_state(load_variant("michigan"), text.replace("first=", "A♥=").replace(
            "second=", "K♣=").replace("third=", "Q♦=").replace("fourth=", "J♠="))
