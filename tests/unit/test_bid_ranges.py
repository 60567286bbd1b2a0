"""Bids as one move shape with an amount in a range (issue 20 item 7, spec §5.4).

A widow auction's legal moves are a pass and one :class:`BidRange` (lowest bid allowed to the
bidder's balance), so their cost does not grow with the balance: a seat with 10^8 chips is
listed, chosen for, served and simulated in bounded memory.  Before, the engine listed one
``BidMove`` per chip (10^8 moves: out of memory).  Memory is measured with ``tracemalloc``
(allocations, not time: no speed target here, see bench/).

Expected values: the range runs from the lowest bid allowed, 1 (spec §5.4: "at least 1") or
one more than the highest bid so far, to the bidder's balance when the auction asks it (after
the antes and the holding phase, which come first: the ghost auction is `when: before phase
play`), read from the state's ledger.
"""

from __future__ import annotations

import functools
import json
import random
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from io import StringIO
from typing import Any

import pytest

from boodle.conformance.serve import serve
from boodle.conformance.wire import MAX_V1_BIDS, legal_keys, legal_to_json
from boodle.engine import apply, legal_moves, start_deal
from boodle.engine.ledger import Ledger
from boodle.engine.state import (
    BidMove,
    BidRange,
    PassMove,
    allows,
    each_move,
    move_count,
    nth_move,
    only_move,
)
from boodle.engine.strategies import greedy, random_legal
from boodle.language.variants import load

BIG = 10**8
"""The balance that made the engine list 10^8 bids (issue 20 item 7)."""

LIMIT = 20 * 1024 * 1024
"""Peak bytes allocated that a bounded step stays under (a list of 10^8 moves is ~10 GB)."""


def peak(work: Callable[[], Any]) -> tuple[Any, int]:
    """``work()``'s value and the peak bytes it allocated."""
    tracemalloc.start()
    try:
        value = work()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@functools.cache
def auction_state(chips: int = BIG) -> Any:
    """Tripoli's ghost auction, 4 players, seat 3 deals, every seat with ``chips``: the auction
    begins with seat 0 (the dealer's left, spec §5.4)."""
    rules = load("tripoli-ghost-auction")
    names = tuple(s.name for s in rules.board)
    state, _ = start_deal(rules, 4, 3, Ledger.open(4, names, chips),
                          random.Random(7).sample(list(rules.deck.cards()), 52))
    return rules, state


def test_the_range_shape_reads_as_the_bids_it_stands_for() -> None:
    legal = (PassMove(1), BidRange(1, 3, 7))
    assert move_count(legal) == 6
    assert [nth_move(legal, i) for i in range(6)] == [PassMove(1), *(BidMove(1, a)
                                                                     for a in range(3, 8))]
    assert list(each_move(legal)) == [nth_move(legal, i) for i in range(6)]
    assert allows(legal, BidMove(1, 7)) and not allows(legal, BidMove(1, 8))
    assert not allows(legal, BidMove(1, 2)) and not allows(legal, BidMove(0, 5))
    assert only_move(legal) is None and only_move((BidRange(0, 4, 4),)) == BidMove(0, 4)
    stepped = BidRange(0, 5, 20, step=5)
    assert stepped.size == 4 and list(stepped.amounts()) == [5, 10, 15, 20]
    with pytest.raises(IndexError):
        nth_move(legal, 6)
    with pytest.raises(ValueError):
        BidRange(0, 5, 4)


def test_an_auction_with_ten_to_the_eight_chips_lists_one_range() -> None:
    rules, state = auction_state()
    legal, used = peak(lambda: legal_moves(rules, state))
    assert state.to_move == 0 and state.ledger.seat(0) > BIG - 16  # antes of 8 sections
    assert legal == (PassMove(0), BidRange(0, 1, state.ledger.seat(0)))
    assert used < LIMIT


def test_a_balance_below_the_lowest_bid_lists_no_range() -> None:
    rules, _ = auction_state()
    names = tuple(s.name for s in rules.board)
    ledger = Ledger((BIG, 40, BIG, BIG), tuple((n, 0) for n in names))
    state, _ = start_deal(rules, 4, 3, ledger,
                          random.Random(7).sample(list(rules.deck.cards()), 52))
    # seat 0 (10^8 chips) bids exactly seat 1's balance (40 less its antes, plus what the
    # holding phase paid it): seat 1 must bid one more than it has, so it may only pass
    # (spec §5.4: a bid is higher than the highest so far, and the bidder pays it)
    state, _ = apply(rules, state, BidMove(0, state.ledger.seat(1)))
    assert state.to_move == 1 and legal_moves(rules, state) == (PassMove(1),)


def test_strategies_choose_among_ten_to_the_eight_bids_in_bounded_memory() -> None:
    rules, state = auction_state()
    legal = legal_moves(rules, state)
    rng = random.Random(1)
    picks, used = peak(lambda: [random_legal(rng)(rules, state, legal) for _ in range(200)])
    assert used < LIMIT
    bids = [m.amount for m in picks if isinstance(m, BidMove)]
    # uniform over the 10^8 + 1 concrete moves: a pass is 1 in 10^8, and the bids spread over
    # the whole range (200 draws all below the middle would be a 1 in 2^200 event)
    assert len(bids) == 200 and max(bids) > BIG // 2
    assert all(1 <= b <= state.ledger.seat(0) for b in bids)
    # greedy takes the widow at the lowest bid when the widow is the shorter hand, else passes
    chosen = greedy(rules, state, legal)
    assert chosen in (PassMove(0), BidMove(0, 1))


def _serve(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = StringIO()
    serve(inp=StringIO("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in lines)),
          out=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _run_message(protocol: str) -> dict[str, Any]:
    rules, _ = auction_state()
    names = [s.name for s in rules.board]
    deck = [str(c) for c in random.Random(7).sample(list(rules.deck.cards()), 52)]
    return {"type": "run", "id": "tripoli-ghost-auction.big-bids.0123456789ab", "kind": "script",
            "variant": {"name": rules.name, "version": rules.version},
            "setup": {"players": 4, "dealer": 3,
                      "ledger": {"seats": [BIG] * 4, "sections": dict.fromkeys(names, 0)},
                      "deal": {"deck": deck}},
            "script": [{"move": "bid", "seat": 0, "amount": 1}], "legal_at": [0, 1],
            **({"protocol": protocol} if protocol.endswith("/2") else {})}


def test_serve_answers_a_seat_with_ten_to_the_eight_chips_in_bounded_memory() -> None:
    start = {"type": "start", "protocol": "boodle-protocol/2"}
    _serve([start])  # the variants listed in 'started' are loaded (and cached) first
    answers, used = peak(lambda: _serve([start, _run_message("boodle-protocol/2")]))
    assert used < LIMIT
    started, result = answers
    assert started["protocol"] == "boodle-protocol/2"
    assert result["status"] == "done", result
    # point 0: seat 0 passes or bids 1 … its balance; point 1, after its bid of 1: seat 1
    # passes or outbids it, 2 … its own balance
    _, state = auction_state()
    assert result["legal"]["0"] == [{"move": "pass", "seat": 0},
                                    {"move": "bid", "seat": 0, "min": 1,
                                     "max": state.ledger.seat(0)}]
    assert result["legal"]["1"] == [{"move": "pass", "seat": 1},
                                    {"move": "bid", "seat": 1, "min": 2,
                                     "max": state.ledger.seat(1)}]


def test_protocol_1_writes_every_bid_and_refuses_a_range_it_cannot_write() -> None:
    small = (PassMove(2), BidRange(2, 1, 3))
    assert legal_to_json(small, 1) == [{"move": "pass", "seat": 2},
                                       *({"move": "bid", "seat": 2, "amount": a}
                                         for a in (1, 2, 3))]
    # both forms read the same in the comparison
    assert legal_keys(legal_to_json(small, 1)) == legal_keys(legal_to_json(small, 2)) == \
        ["bid 2 1..3", "pass 2"]
    start = {"type": "start", "protocol": "boodle-protocol/1"}
    (started, result), used = peak(lambda: _serve([start, _run_message("boodle-protocol/1")]))
    assert used < LIMIT and started["protocol"] == "boodle-protocol/1"
    assert result["status"] == "error" and "boodle-protocol/2" in result["message"]
    assert str(MAX_V1_BIDS) in result["message"]


def test_simulate_plays_an_auction_with_ten_to_the_eight_chips_in_bounded_memory() -> None:
    from boodle.simulate.runner import make_spec, run_chunk

    base = load("tripoli-ghost-auction")
    rules = replace(base, session=replace(base.session, start_chips=BIG))
    spec = make_spec(rules, 4, 4, 0, ["random"], "reference")
    stats, used = peak(lambda: run_chunk(spec, 0, spec.sessions))
    assert used < LIMIT
    assert stats is not None


@pytest.mark.parametrize("amount", [1.5, 2.0, True, "3", "3/2", None, [1]])
def test_a_bid_whose_amount_is_no_whole_number_is_an_error_not_a_bid(amount: Any) -> None:
    """A bid is a whole number of chips (spec §5.4; §9, exact numbers: no floating point):
    a script's bid of 1.5 was played, and the next seat was offered bids from 2.5; a
    bid of ``true`` was a bid of 1; a text gave Python's comparison error as the message."""
    message = _run_message("boodle-protocol/2")
    message["script"] = [{"move": "bid", "seat": 0, "amount": amount}]
    start = {"type": "start", "protocol": "boodle-protocol/2"}
    _, result = _serve([start, message])
    assert result["status"] == "error", result
    assert "'amount'" in result["message"] and "an integer" in result["message"], result
    assert "not supported" not in result["message"]
    message["script"] = [{"move": "bid", "seat": 0, "amount": 1}]
    assert _serve([start, message])[1]["status"] == "done"
