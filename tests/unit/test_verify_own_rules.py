"""The verifier's own statement of the deck's order and the deal (issue 16, "an independent
model"), held to the spec's words: the expected values are the worked examples of spec §2.2
and §5.2 (001 §03's "11, 11, 10, 10, 10"), not the engine's output."""

from __future__ import annotations

import pytest

from boodle.engine.stages.dealing import deal_order as engine_deal_order
from boodle.language.cards import Card
from boodle.language.variants import builtin_names, load
from boodle.verify.own_rules import (
    antes,
    deal,
    deal_order,
    hand_sizes,
    next_card,
    rank_position,
)


def test_next_card_follows_the_deck_s_own_rank_order() -> None:
    ace_high, ace_low = load("michigan").deck, load("newmarket").deck
    assert next_card(ace_high, Card("10", "♠")) == Card("J", "♠")
    assert next_card(ace_high, Card("K", "♥")) == Card("A", "♥")
    assert next_card(ace_high, Card("A", "♥")) is None  # the top rank: nothing follows
    assert next_card(ace_low, Card("K", "♦")) is None  # ace low: the king is the top
    assert next_card(ace_low, Card("A", "♦")) == Card("2", "♦")
    assert rank_position(ace_low, Card("A", "♣")) == 0
    with pytest.raises(ValueError, match="not of a rank"):
        rank_position(ace_high, Card("1", "♣"))


def test_hand_sizes_are_the_spec_s_worked_examples() -> None:
    # §5.2: Michigan, 4 players, widow last: the dealer's left and the next get 11, the third
    # player, the dealer and the widow 10 (dealer seat 0: seats 1, 2 get 11)
    assert hand_sizes(load("michigan"), 4, 0, 52) == {1: 11, 2: 11, 3: 10, 0: 10, None: 10}
    # Tripoli, 4 players, widow first: the widow and the dealer's left get 11
    assert hand_sizes(load("tripoli"), 4, 2, 52) == {None: 11, 3: 11, 0: 10, 1: 10, 2: 10}
    # 5 players: 52 = 8·6 + 4, widow 8
    assert hand_sizes(load("michigan"), 5, 4, 52)[None] == 8


def test_a_deal_goes_round_from_the_dealer_s_left_skipping_eliminated_seats() -> None:
    rs = load("michigan")
    assert deal_order(rs, 4, 3) == (0, 1, 2, 3, None)
    assert deal_order(rs, 4, 1, frozenset({2})) == (3, 0, 1, None)  # §10: dealt nothing
    pack = load("michigan").deck.cards()[:7]  # 2♣ … 8♣, top card first
    hands, widow = deal(rs, 3, 0, pack)
    assert [[str(c) for c in h] for h in hands] == [["4♣", "8♣"], ["2♣", "6♣"], ["3♣", "7♣"]]
    assert [str(c) for c in widow] == ["5♣"]


@pytest.mark.parametrize("name", builtin_names())
def test_the_engine_deals_in_the_same_order(name: str) -> None:
    # agreement on every built-in (the verify run checks the engine's deals themselves)
    rs = load(name)
    for n in sorted({rs.players.low, rs.players.high}):
        for dealer in range(n):
            assert engine_deal_order(rs, n, dealer) == deal_order(rs, n, dealer)


def test_a_share_is_spec_9_s_whole_chips_or_the_exact_fraction() -> None:
    from fractions import Fraction

    from boodle.verify.own_rules import share

    assert share(5, 2, "whole") == 2  # spec §9: ⌊S/k⌋, the remainder 1 stays on the section
    assert share(5, 2, "exact") == Fraction(5, 2)
    assert share(2, 3, "whole") == 0
    assert share(Fraction(7, 2), 1, "exact") == Fraction(7, 2)


def test_the_antes_are_spec_4_s_lines_paid_by_their_payers() -> None:
    # michigan-dealer-double's ante block: each player 1 on each boodle (A♥ K♣ Q♦ J♠) and 2
    # on the kitty, the dealer 2 more on the kitty; 3 players, seat 1 deals, 20 chips each
    boodles = ("A♥", "K♣", "Q♦", "J♠")
    want = {(s, b): 1 for s in range(3) for b in boodles}
    want |= {(0, "kitty"): 2, (1, "kitty"): 4, (2, "kitty"): 2}
    assert antes(load("michigan-dealer-double"), 1, (20, 20, 20)) == want


def test_antes_under_elimination_are_capped_at_the_balance() -> None:
    # michigan-until-broke (spec §9, §10: eliminated at zero, each payment at most what is
    # left), Michigan's antes: a seat with 3 chips pays 1 on A♥, K♣ and Q♦ and nothing more
    # (lines in order, each line's sections in board order); a seat at zero is out
    rs = load("michigan-until-broke")
    got = antes(rs, 0, (3, 10, 0), out=(2,))
    assert {name: a for (s, name), a in got.items() if s == 0} == {"A♥": 1, "K♣": 1, "Q♦": 1}
    assert {name: a for (s, name), a in got.items() if s == 1} == {
        "A♥": 1, "K♣": 1, "Q♦": 1, "J♠": 1, "kitty": 2}
    assert not any(s == 2 for s, _ in got)
