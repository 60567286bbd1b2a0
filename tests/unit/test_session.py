"""Sessions (001 §03, §06; spec §10): the cut, the rotation, the end, the split, the standings."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from boodle.engine.events import Cut, DealEnd, DealStart, SessionEnd, Split
from boodle.engine.ledger import Ledger, seat, section
from boodle.engine.strategies import greedy
from boodle.engine.trace import render_jsonl
from boodle.session.run import best_seats, first_dealer, play_session, split_leftover
from rules_by_hand import fresh_ledger, michigan

MICHIGAN = michigan()


def of_kind(events: tuple, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def test_the_same_seed_gives_the_same_session() -> None:
    one = play_session(MICHIGAN, 4, seed=7)
    two = play_session(MICHIGAN, 4, seed=7)
    assert render_jsonl(one.events) == render_jsonl(two.events)
    assert render_jsonl(play_session(MICHIGAN, 4, seed=8).events) != render_jsonl(one.events)


def test_one_rotation_is_one_deal_per_player_dealt_in_turn_to_the_left() -> None:
    result = play_session(MICHIGAN, 4, seed=3)
    starts = of_kind(result.events, DealStart)
    assert [s.number for s in starts] == [1, 2, 3, 4] and result.deals == 4
    first = of_kind(result.events, Cut)[-1].dealer
    assert [s.dealer for s in starts] == [(first + k) % 4 for k in range(4)]
    assert len(of_kind(result.events, DealEnd)) == 4


def test_rotation_right_passes_the_deal_the_other_way() -> None:
    rules = replace(MICHIGAN, deal=replace(MICHIGAN.deal, rotation="right"))
    result = play_session(rules, 5, seed=3)
    first = of_kind(result.events, Cut)[-1].dealer
    assert [s.dealer for s in of_kind(result.events, DealStart)] == [
        (first - k) % 5 for k in range(5)
    ]


def test_the_session_end_empties_the_board_exactly_and_names_the_best() -> None:
    result = play_session(MICHIGAN, 3, seed=11)
    end = result.events[-1]
    assert isinstance(end, SessionEnd)
    assert all(amount == 0 for _, amount in result.ledger.sections)
    assert result.ledger.total() == 150  # 3 players × 50, nothing created or lost
    assert end.winners == result.winners == best_seats(result.ledger)
    assert max(result.standings) == result.standings[result.winners[0]]


def test_a_fixed_number_of_deals_has_no_session_end() -> None:
    result = play_session(MICHIGAN, 6, seed=1, deals=2)
    assert result.deals == 2 and len(of_kind(result.events, DealStart)) == 2
    assert not of_kind(result.events, SessionEnd) and not of_kind(result.events, Split)
    assert result.winners == ()


def test_the_cut_gives_the_deal_to_the_highest_rank_and_ties_draw_again() -> None:
    import random

    rank = MICHIGAN.deck.rank_index
    ties = 0
    for seed in range(200):
        dealer, events = first_dealer(MICHIGAN, 4, random.Random(seed))
        cuts = [e for e in events if isinstance(e, Cut)]
        for before, after in zip(cuts, cuts[1:], strict=False):
            top = max(rank(c) for _, c in before.draws)
            tied = [s for s, c in before.draws if rank(c) == top]
            assert before.dealer is None and len(tied) > 1
            assert [s for s, _ in after.draws] == tied  # only the tied draw again
        last = cuts[-1]
        assert last.dealer == dealer
        best = max(rank(c) for _, c in last.draws)
        assert [s for s, c in last.draws if rank(c) == best] == [dealer]
        ties += len(cuts) > 1
    assert ties > 0  # the tie path was exercised


def test_leftover_split_keeps_exact_fractions() -> None:
    # 3 players at 50; A pays 4 onto A♥, B 1 onto the kitty: A 46, B 49, C 50.
    # Each gets 4/3 of A♥ and 1/3 of the kitty, 5/3 in all: 143/3, 152/3, 155/3.
    ledger = fresh_ledger(MICHIGAN, 3)
    ledger, _ = ledger.transfer(seat(0), section("A♥"), 4, "test")
    ledger, _ = ledger.transfer(seat(1), section("kitty"), 1, "test")
    ledger, events = split_leftover(MICHIGAN, ledger)
    assert [e.transfer.amount for e in events] == [Fraction(4, 3)] * 3 + [Fraction(1, 3)] * 3
    assert ledger.seats == (Fraction(143, 3), Fraction(152, 3), Fraction(155, 3))
    assert ledger.total() == 150 and all(a == 0 for _, a in ledger.sections)
    assert events[0].to_json()["amount"] == "4/3"


def test_leftover_stays_moves_nothing() -> None:
    rules = replace(MICHIGAN, session=replace(MICHIGAN.session, leftover="stays"))
    ledger, _ = fresh_ledger(rules, 3).transfer(seat(0), section("A♥"), 4, "test")
    assert split_leftover(rules, ledger) == (ledger, [])


def test_ties_share_the_win() -> None:
    ledger = Ledger((Fraction(7, 2), 2, Fraction(7, 2)), ())
    assert best_seats(ledger) == (0, 2)


def test_a_tie_plays_exactly_one_more_deal() -> None:
    rules = replace(MICHIGAN, session=replace(MICHIGAN.session, ties="one more deal"))
    tied = play_session(MICHIGAN, 3, seed=2)
    assert len(tied.winners) > 1  # seed 2 ends the 3 normal deals in a tie
    result = play_session(rules, 3, seed=2)
    assert result.deals == 4
    splits = [i for i, e in enumerate(result.events) if isinstance(e, Split)]
    fourth = [i for i, e in enumerate(result.events) if isinstance(e, DealStart)][-1]
    assert splits[0] < fourth < splits[-1]  # split, one more deal, split again
    assert isinstance(result.events[-1], SessionEnd)


def test_the_session_ends_after_a_deal_that_leaves_a_player_without_chips() -> None:
    rules = replace(MICHIGAN, session=replace(MICHIGAN.session, start_chips=8,
                                              end_when_broke=True, rotations=5))
    result = play_session(rules, 4, seed=5)
    ends = of_kind(result.events, DealEnd)
    assert all(min(e.ledger.seats) > 0 for e in ends[:-1])
    assert min(ends[-1].ledger.seats) <= 0
    assert result.deals == len(ends) < 20


def test_strategies_by_name_or_callable() -> None:
    named = play_session(MICHIGAN, 4, seed=9, strategies=["greedy"] * 4, deals=1)
    called = play_session(MICHIGAN, 4, seed=9, strategies=[greedy] * 4, deals=1)
    assert render_jsonl(named.events) == render_jsonl(called.events)


def test_replaying_every_transfer_of_a_session_gives_its_final_ledger() -> None:
    from boodle.engine.events import transfers_in

    result = play_session(MICHIGAN, 5, seed=21)
    ledger = fresh_ledger(MICHIGAN, 5)
    for event in result.events:
        for t in transfers_in(event):
            ledger, _ = ledger.transfer(t.src, t.dst, t.amount, t.reason)
    assert ledger == result.ledger and ledger.total() == 250


def _first_antes(events: tuple) -> dict[int, int]:
    """Chips each seat put in before the first deal's cards (spec §4), by seat."""
    from boodle.engine.events import Ante, DealCards

    paid: dict[int, int] = {}
    for e in events[:next(i for i, e in enumerate(events) if isinstance(e, DealCards))]:
        if isinstance(e, Ante):
            src = e.transfer.src
            paid[src.seat] = paid.get(src.seat, 0) + int(e.transfer.amount)
    return paid


def test_a_start_of_0_chips_is_a_register_counted_from_zero() -> None:
    """Spec §10 `start:` (001 §02 "un registre de points"): from 0 under `balance: may go
    negative`, every player still pays Michigan's whole ante, 1 on each of the 4 boodles and
    2 on the kitty (001 §02): 6 each, so every balance is -6 before a card is played."""
    rules = replace(MICHIGAN, session=replace(MICHIGAN.session, start_chips=0))
    result = play_session(rules, 4, seed=1, deals=1)
    assert _first_antes(result.events) == {0: 6, 1: 6, 2: 6, 3: 6}
    end = of_kind(result.events, DealEnd)[0]
    # conservation (§9): the balances add up to 0 less the chips left on the board
    assert sum(end.ledger.seats) == -sum(a for _, a in end.ledger.sections)
    assert min(end.ledger.seats) < 0


def test_a_start_below_the_ante_under_elimination_pays_what_it_has() -> None:
    """Spec §10 `start:` and Balances: from 2 chips under `balance: eliminated at zero`, each
    player pays 2 of Michigan's ante of 6 (all they have, §9) and none goes below zero."""
    rules = replace(MICHIGAN, session=replace(MICHIGAN.session, start_chips=2,
                                              negative="eliminate"))
    result = play_session(rules, 4, seed=1)
    assert _first_antes(result.events) == {0: 2, 1: 2, 2: 2, 3: 2}
    assert all(min(e.ledger.seats) >= 0 for e in of_kind(result.events, DealEnd))
