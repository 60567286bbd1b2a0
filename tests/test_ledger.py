"""The ledger (spec §9): one transfer primitive, exact amounts, sections never below zero."""

from __future__ import annotations

from fractions import Fraction

import pytest

from boodle.ledger import Ledger, LedgerError, Transfer, seat, section


def board() -> Ledger:
    return Ledger.open(3, ("A♥", "kitty"), 10)


def test_a_transfer_returns_the_new_ledger_and_its_record() -> None:
    old = board()
    new, t = old.transfer(seat(0), section("kitty"), 2, "ante")
    assert t == Transfer(seat(0), section("kitty"), 2, "ante")
    assert (new.seat(0), new.section("kitty")) == (8, 2)
    assert (old.seat(0), old.section("kitty")) == (10, 0)  # immutable
    assert new.total() == old.total() == 30


def test_negative_amounts_and_floats_are_refused() -> None:
    with pytest.raises(LedgerError, match="negative"):
        board().transfer(seat(0), seat(1), -1, "x")
    with pytest.raises(LedgerError):
        board().transfer(seat(0), seat(1), 1.5, "x")  # type: ignore[arg-type]


def test_players_may_go_negative_but_sections_may_not() -> None:
    ledger, _ = board().transfer(seat(0), seat(1), 15, "payment")
    assert ledger.seat(0) == -5
    with pytest.raises(LedgerError, match="holds 0"):
        board().transfer(section("A♥"), seat(0), 1, "claim")


def test_unknown_accounts_and_self_transfers_are_refused() -> None:
    with pytest.raises(LedgerError):
        board().transfer(seat(0), section("Q♦"), 1, "x")
    with pytest.raises(LedgerError):
        board().transfer(seat(3), seat(0), 1, "x")
    with pytest.raises(LedgerError):
        board().transfer(seat(1), seat(1), 1, "x")


def test_fractions_are_exact_and_whole_fractions_become_ints() -> None:
    ledger, _ = board().transfer(seat(0), seat(1), Fraction(1, 3), "split")
    ledger, _ = ledger.transfer(seat(0), seat(1), Fraction(2, 3), "split")
    assert ledger.seat(0) == 9 and isinstance(ledger.seat(0), int)
    assert ledger.seat(1) == 11 and isinstance(ledger.seat(1), int)
    ledger, t = ledger.transfer(seat(0), seat(2), Fraction(1, 2), "split")
    assert t.to_json()["amount"] == "1/2"
    assert ledger.to_json()["seats"] == ["17/2", 11, "21/2"]
    assert ledger.total() == 30


def test_transfer_all_is_one_transfer_after_another() -> None:
    import random

    rng = random.Random(3)
    accounts = [seat(0), seat(1), seat(2), section("A♥"), section("kitty")]
    for _ in range(200):
        moves = []
        for _ in range(rng.randint(0, 6)):
            src, dst = rng.sample(accounts, 2)
            moves.append((src, dst, rng.choice([0, 1, 2, Fraction(1, 2), Fraction(4, 2)]), "x"))
        start = board()
        ledger, expected = start, []
        try:
            for move in moves:
                ledger, t = ledger.transfer(*move)
                expected.append(t)
        except LedgerError as e:  # a section overdrawn: the same error, at the same move
            with pytest.raises(LedgerError) as caught:
                start.transfer_all(moves)
            assert str(caught.value) == str(e)
            continue
        got, done = start.transfer_all(moves)
        assert (got, done) == (ledger, expected)
        assert got.total() == start.total() == 30


def test_transfer_all_refuses_what_transfer_refuses_with_the_same_words() -> None:
    # worked out by hand: seat 0 pays 4 to the kitty, which then holds 4 and cannot pay 5
    moves = [(seat(0), section("kitty"), 4, "ante"), (section("kitty"), seat(1), 5, "claim")]
    with pytest.raises(LedgerError, match="section kitty holds 4, cannot pay 5 for claim"):
        board().transfer_all(moves)  # type: ignore[arg-type]
    with pytest.raises(LedgerError, match="no seat 7 in a ledger of 3 seats"):
        board().transfer_all([(seat(7), section("kitty"), 1, "ante")])
    with pytest.raises(LedgerError, match="no section pot on the board"):
        board().transfer_all([(seat(0), section("pot"), 1, "ante")])
    with pytest.raises(LedgerError, match="negative"):
        board().transfer_all([(seat(0), seat(1), -1, "x")])
    with pytest.raises(LedgerError, match="to itself"):
        board().transfer_all([(seat(1), seat(1), 1, "x")])
