"""Holding and poker ties settled by seat (spec §8.1, §8.2 ``split: lowest seat``), by hand.

Tripoley (its rules file), 4 players from 50 chips, B (seat 1) deals, so the seats come
C, D, A, B clockwise from the dealer's left.  Each player antes 1 on each of the nine
sections: 41 each, 4 on every section.  Source of the rule: github.com/Alysoun/tripoley,
payCards.ts ``resolvePayCardClaims`` (the first qualifying player counted from seat 0).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from boodle.engine import start_deal
from boodle.engine.events import Claim
from boodle.engine.holders import award, in_split_order
from boodle.language.build import load_text as build_text
from boodle.language.errors import BoodleError
from boodle.language.model import HoldingPhase, PokerPhase, Ruleset, Split
from boodle.language.variants import load
from rules_by_hand import cards, fresh_ledger

A, B, C, D = 0, 1, 2, 3


def tripoley(split: Split, *, poker: bool = True) -> Ruleset:
    rs = load("tripoley")
    phases = tuple(replace(p, split=split) if isinstance(p, HoldingPhase | PokerPhase) else p
                   for p in rs.phases if poker or not isinstance(p, PokerPhase))
    return replace(rs, phases=phases)


def claims(events: list) -> list[tuple[int, str, object]]:  # type: ignore[type-arg]
    return [(e.seat, e.section, e.amount) for e in events if isinstance(e, Claim)]


# A holds 8-9-10 of clubs, C of spades; every heart honour is in the widow.
EIGHT_NINE_TEN = (cards("8♣ 9♣ 10♣ 3♦"), cards("2♣ 2♦ 5♦"), cards("8♠ 9♠ 10♠ 3♥"),
                  cards("4♣ 6♦"))


@pytest.mark.parametrize(("split", "paid"), [
    ("share", [(C, "eight-nine-ten", 2), (A, "eight-nine-ten", 2)]),  # clockwise: C, then A
    ("first seat", [(C, "eight-nine-ten", 4)]),                        # first from B's left
    ("lowest seat", [(A, "eight-nine-ten", 4)]),                       # seat 0, whoever deals
])
def test_a_set_two_players_hold(split: Split, paid: list[tuple[int, str, int]]) -> None:
    rules = tripoley(split, poker=False)
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=EIGHT_NINE_TEN)
    assert claims(events) == paid
    assert state.ledger.section("eight-nine-ten") == 0  # 4 shared 2 and 2, or taken whole


def test_lowest_seat_does_not_move_with_the_deal() -> None:
    # The same hands with D dealing (A, B, C, D clockwise from D's left): A still takes it;
    # with C dealing (D, A, B, C): A too, where 'first seat' would also give it to A.
    rules = tripoley("lowest seat", poker=False)
    for dealer in (B, C, D):
        _, events = start_deal(rules, 4, dealer, fresh_ledger(rules, 4), hands=EIGHT_NINE_TEN)
        assert claims(events) == [(A, "eight-nine-ten", 4)]


# A and C tie in the poker phase: A K Q J 9 high, no flush, no straight.
TIED = (cards("A♣ K♦ Q♣ J♦ 9♣"), cards("2♣ 3♦ 4♣ 5♦ 7♠"), cards("A♦ K♣ Q♦ J♣ 9♦"),
        cards("2♦ 3♣ 4♦ 5♣ 7♥"))


@pytest.mark.parametrize(("split", "paid", "winners"), [
    ("share", [(C, "pot", 2), (A, "pot", 2)], (C, A)),
    ("first seat", [(C, "pot", 4)], (C, A)),
    ("lowest seat", [(A, "pot", 4)], (A, C)),  # the taker is the phase's winner (spec §8.2)
])
def test_a_poker_tie(split: Split, paid: list[tuple[int, str, int]],
                     winners: tuple[int, ...]) -> None:
    rules = tripoley(split)
    state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=TIED)
    assert claims(events) == paid
    assert dict(state.phase_winners)["poker"] == winners


def test_award_and_order_by_hand() -> None:
    # winners given clockwise from the dealer's left: 2, 3, 0
    assert in_split_order((2, 3, 0), "lowest seat") == (0, 2, 3)
    assert in_split_order((2, 3, 0), "first seat") == (2, 3, 0)
    assert award("chien", (2, 0), 7, "lowest seat", "whole") == award(
        "chien", (0,), 7, "share", "whole")


def test_the_words_build_and_a_misspelling_is_located() -> None:
    text = tripoley_text().replace("split: share\n  }\n\n  phase poker",
                               "split: lowest seat\n  }\n\n  phase poker", 1)
    rs = build_text(text, "t.boodle")
    assert [p.split for p in rs.phases if isinstance(p, HoldingPhase)] == ["lowest seat"]
    with pytest.raises(BoodleError) as err:
        build_text(text.replace("lowest seat", "lowest seats"), "t.boodle")
    assert err.value.span is not None and err.value.span.line == text[
        :text.index("lowest seat")].count("\n") + 1


def tripoley_text() -> str:
    from boodle.resources import variants_dir
    return (variants_dir() / "tripoley.boodle").read_text(encoding="utf-8")


def test_the_oracle_reads_the_split_rule_afresh() -> None:
    # boodle.testing works the holding claims out from the hands alone (its SPLIT_TAKERS)
    from boodle.testing import _check_holding, expected_holding_claims

    for split, want in (("share", [(C, "eight-nine-ten"), (A, "eight-nine-ten")]),
                        ("first seat", [(C, "eight-nine-ten")]),
                        ("lowest seat", [(A, "eight-nine-ten")])):
        rules = tripoley(split, poker=False)  # type: ignore[arg-type]
        state, events = start_deal(rules, 4, B, fresh_ledger(rules, 4), hands=EIGHT_NINE_TEN)
        assert expected_holding_claims(rules, state) == want
        _check_holding(rules, state, events)
    wrong = tripoley("first seat", poker=False)
    state, events = start_deal(tripoley("lowest seat", poker=False), 4, B,
                               fresh_ledger(wrong, 4), hands=EIGHT_NINE_TEN)
    with pytest.raises(AssertionError, match="spec §8.1 pays"):
        _check_holding(wrong, state, events)  # an engine that paid seat 0 under 'first seat'
