"""Short stacks (spec §4 ``short stack: section by section``), worked by hand.

Tripoley (its rules file) with physical chips (``balance: eliminated at zero``), 4 players,
B (seat 1) deals, so the payers come C, D, A, B.  Every player owes 1 on each of the nine
sections, in board order A♥ K♥ Q♥ J♥ 10♥ K-Q 8-9-10 kitty pot.  Source:
github.com/Alysoun/tripoley, antes.ts ``distributePlayerAnte`` ("Place antes in board order
until the player runs out of chips") and ``playerEligibleForSection``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.compiled.tables import unsupported_features
from boodle.engine import apply, legal_moves, misdeal, start_deal
from boodle.engine.events import Ante, Claim
from boodle.engine.ledger import Ledger, seat
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import AnteLine, PokerPhase, Ruleset, ShortStack
from boodle.language.variants import load
from boodle.verify.verifier import symbolic_gaps, unmodelled
from rules_by_hand import cards

A, B, C, D = 0, 1, 2, 3
HEARTS = ["A♥", "K♥", "Q♥", "J♥", "10♥"]
BOARD = [*HEARTS, "king-queen", "eight-nine-ten", "kitty", "pot"]


def tripoley(rule: ShortStack, *, poker: bool = False) -> Ruleset:
    rs = load("tripoley")
    return replace(rs, short_stack=rule,
                   session=replace(rs.session, negative="eliminate"),
                   phases=tuple(p for p in rs.phases if poker or not isinstance(p, PokerPhase)))


def ledger(rules: Ruleset, a_chips: int) -> Ledger:
    """50 chips each, but A has ``a_chips``: the rest moved to B (the total is kept)."""
    led = Ledger.open(4, tuple(s.name for s in rules.board), 50)
    return led.transfer(seat(A), seat(B), 50 - a_chips, "setup")[0]


def antes(events: list) -> list[tuple[int, str, object]]:  # type: ignore[type-arg]
    return [(e.transfer.src.seat, e.transfer.dst.name, e.transfer.amount)  # type: ignore[union-attr]
            for e in events if isinstance(e, Ante)]


def claims(events: list) -> list[tuple[int, str, object]]:  # type: ignore[type-arg]
    return [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]


HANDS = (cards("8♣ 9♣ 10♣ A♥ 3♦"), cards("2♣ 2♦ 5♦"), cards("8♠ 9♠ 10♠ 3♥"), cards("4♣ 6♦"))


def test_a_short_player_antes_in_board_order_and_takes_only_what_they_anted() -> None:
    rules = tripoley("section by section")
    # A has 5 chips (B 95: the 45 moved to B keep the total), the others 50 or more
    state, events = start_deal(rules, 4, B, ledger(rules, 5), hands=HANDS)
    paid = antes(events)
    assert [p for p in paid if p[0] == A] == [(A, name, 1) for name in HEARTS]
    assert [p[0] for p in paid] == [C] * 9 + [D] * 9 + [A] * 5 + [B] * 9  # at A's place
    assert dict(state.short) == {A: frozenset(HEARTS)}
    # A takes A♥ (anted, 4 chips); the 8-9-10 (3: A did not ante it) goes to C alone
    assert claims(events) == [(A, "A♥", 4), (C, "eight-nine-ten", 3)]
    assert state.ledger.seat(A) == 4
    assert state.ledger.section("kitty") == 3 and state.ledger.section("pot") == 3


def test_as_balance_pays_what_is_left_line_by_line_and_shares() -> None:
    rules = tripoley("as balance")
    state, events = start_deal(rules, 4, B, ledger(rules, 5), hands=HANDS)
    mine = [p for p in antes(events) if p[0] == A]
    assert mine == [(A, n, 1) for n in HEARTS] + [(A, n, 0) for n in BOARD[5:]]
    assert state.short == ()
    # A shares the 8-9-10 (3 chips) with C: 1 each from the dealer's left (C first), 1 stays
    assert claims(events) == [(A, "A♥", 4), (C, "eight-nine-ten", 1), (A, "eight-nine-ten", 1)]


def test_a_due_not_paid_in_full_stops_the_ante_there() -> None:
    # The dealer also pays 2 more on the kitty: B's dues are 1 × 8 and 3 on the kitty.
    rules = tripoley("section by section")
    rules = replace(rules, antes=(*rules.antes, AnteLine("dealer", 2, ("kitty",))))
    led = Ledger.open(4, tuple(s.name for s in rules.board), 50)
    led = led.transfer(seat(B), seat(C), 41, "setup")[0]  # B has 9: short of 11
    state, events = start_deal(rules, 4, B, led, hands=HANDS)
    mine = [p for p in antes(events) if p[0] == B]
    # 1 on each of the seven sections before the kitty (7), then the kitty's 3 > 2 left: stop
    assert mine == [(B, n, 1) for n in BOARD[:7]]
    assert state.ledger.seat(B) == 2 and dict(state.short)[B] == frozenset(BOARD[:7])


def test_a_short_winner_leaves_the_kitty() -> None:
    rules = tripoley("section by section")
    hands = (cards("4♣"), cards("3♣ K♦"), cards("5♦ 6♦"), cards("7♦"))
    state, events = start_deal(rules, 4, B, ledger(rules, 5), hands=hands)
    seen = claims(events)
    while legal_moves(rules, state):
        [move] = legal_moves(rules, state)  # B leads 3♣, A plays 4♣ and is out
        state, events = apply(rules, state, move)
        seen += claims(events)
    assert seen == [] and state.winner == A
    assert state.ledger.section("kitty") == 3
    assert state.ledger.seat(A) == 4  # 0 after the ante, 1 per card from B, C (2) and D


def test_a_short_best_hand_leaves_the_pot() -> None:
    rules = tripoley("section by section", poker=True)
    # A holds three aces, the best hand, but did not ante the pot: it stays
    hands = (cards("A♣ A♦ A♠ 2♣ 3♦"), cards("2♦ 4♣ 6♠ 8♦ 10♠"), cards("3♣ 5♦ 7♠ 9♦ J♠"),
             cards("4♦ 6♣ 8♠ Q♦ K♠"))
    state, events = start_deal(rules, 4, B, ledger(rules, 5), hands=hands)
    assert [c for c in claims(events) if c[1] == "pot"] == []
    assert state.ledger.section("pot") == 3
    assert dict(state.phase_winners)["poker"] == (A,)


def test_a_misdeal_keeps_who_anted_what() -> None:
    rules = tripoley("section by section")
    state, _ = start_deal(rules, 4, B, ledger(rules, 5), hands=HANDS)
    again, _ = misdeal(rules, state, hands=HANDS, widow=state.widow())
    assert again.short == state.short


def test_the_compiled_engine_runs_it_and_z3_models_it() -> None:
    rules = tripoley("section by section")
    assert not any("short stack" in u for u in unsupported_features(rules))
    # z3 states who may take a section (verify/eligibility.py); the antes themselves are a
    # stage it starts play after, from any eligibility they can leave
    assert not any("short stack" in u for u in unmodelled(rules))
    assert any("section by section" in g for g in symbolic_gaps(rules))
    assert not any("section by section" in g for g in symbolic_gaps(tripoley("as balance")))


BASE = """variant x extends tripoley {
  ante {
    each player 1 on every section
    short stack: section by section
  }
  session {
    balance: BALANCE
  }
}
"""


def test_the_builder_locates_what_cannot_be_played() -> None:
    ok = load_text(BASE.replace("BALANCE", "eliminated at zero"), "x.boodle")
    assert ok.short_stack == "section by section"
    with pytest.raises(BoodleError, match="may go negative") as err:
        load_text(BASE.replace("BALANCE", "may go negative"), "x.boodle")
    assert err.value.span is not None and (err.value.span.line, err.value.span.column) == (4, 5)
    assert "balance: eliminated at zero" in (err.value.hint or "")
    chosen = BASE.replace("BALANCE", "eliminated at zero").replace(
        "each player 1 on every section", "each player 1 on chosen boodle")
    with pytest.raises(BoodleError, match="chosen boodle") as err:
        load_text(chosen, "x.boodle")
    assert err.value.span is not None and err.value.span.line == 4
    twice = BASE.replace("BALANCE", "eliminated at zero").replace(
        "    short stack: section by section\n",
        "    short stack: section by section\n    short stack: as balance\n")
    with pytest.raises(BoodleError, match="two 'short stack' lines") as err:
        load_text(twice, "x.boodle")
    assert err.value.span is not None and err.value.span.line == 5


def test_the_oracle_reads_the_dues_afresh() -> None:
    from boodle.testing import _check_antes, _check_eligible, expected_short

    rules = tripoley("section by section")
    led = ledger(rules, 5)
    assert expected_short(rules, 4, B, led) == {A: HEARTS}
    assert expected_short(tripoley("as balance"), 4, B, led) == {}
    state, events = start_deal(rules, 4, B, led, hands=HANDS)
    _check_antes({A: HEARTS}, events)
    _check_eligible({A: HEARTS}, events)
    _, shared = start_deal(tripoley("as balance"), 4, B, led, hands=HANDS)
    with pytest.raises(AssertionError, match="spec §4"):
        _check_antes({A: HEARTS}, shared)  # A paid 0 on the last four sections too
    with pytest.raises(AssertionError, match="did not ante eight-nine-ten"):
        _check_eligible({A: HEARTS}, shared)  # and shared the 8-9-10


def test_whole_sessions_of_short_stacks_keep_every_chip() -> None:
    # 5 players from 12 chips: nine sections a deal, so players are soon short; every short
    # ante is a prefix of the board order (spec §4), and the total never changes (spec §9).
    from boodle.session.run import play_session

    rs = tripoley("section by section")
    rs = replace(rs, session=replace(rs.session, start_chips=12, rotations=3,
                                     end_last_with_chips=True))
    board = [s.name for s in rs.board]
    short = 0
    for seed in range(3):
        result = play_session(rs, 5, seed)
        assert sum(result.ledger.seats) + sum(a for _, a in result.ledger.sections) == 60
        paid: dict[int, list[str]] = {}
        for e in result.events:
            if e.kind == "deal-start":
                paid = {}
            elif isinstance(e, Ante):
                paid.setdefault(e.transfer.src.seat, []).append(  # type: ignore[union-attr]
                    e.transfer.dst.name)  # type: ignore[union-attr]
            elif e.kind == "deal":
                for names in paid.values():
                    assert names == board[:len(names)]
                    short += len(names) < len(board)
    assert short > 0  # the sessions did meet short stacks
