"""The ledger (spec §9): one transfer primitive, exact amounts, sections never below zero."""

from __future__ import annotations

from fractions import Fraction

import pytest

from boodle.engine.ledger import Ledger, LedgerError, Transfer, seat, section


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


def test_transfers_agree_with_balances_kept_by_hand() -> None:
    # an independent model: a dict of balances, moved by +/- amount, sections never below 0
    import random

    rng = random.Random(11)
    names = ("A♥", "K♣", "kitty")
    accounts = [seat(0), seat(1), seat(2), *(section(n) for n in names)]
    for _ in range(300):
        ledger = Ledger.open(3, names, 5)
        model: dict[object, Fraction] = {a: Fraction(5 if a in accounts[:3] else 0)
                                         for a in accounts}
        for _ in range(rng.randint(1, 8)):
            src, dst = rng.sample(accounts, 2)
            amount = rng.choice([0, 1, 3, Fraction(1, 3), Fraction(6, 3)])
            if src.__class__.__name__ == "SectionAccount" and model[src] < amount:
                with pytest.raises(LedgerError, match="cannot pay"):
                    ledger.transfer(src, dst, amount, "x")
                break
            ledger, t = ledger.transfer(src, dst, amount, "x")
            model[src] -= amount
            model[dst] += amount
            assert t.amount == amount and type(t.amount) is (int if amount == int(amount)
                                                                 else Fraction)
        assert ledger.seats == tuple(model[a] for a in accounts[:3])
        assert ledger.sections == tuple((n, model[section(n)]) for n in names)
        assert all(type(v) is int for v in ledger.seats if v == int(v))
        assert [ledger.section(n) for n in names] == [model[section(n)] for n in names]


def test_a_ledger_with_a_section_name_twice_moves_every_section_of_the_name() -> None:
    # built by hand (Ledger.open refuses it): the balance is the first of the name's
    twice = Ledger((3, 0), (("kitty", 2), ("pot", 0), ("kitty", 5)))
    assert twice.section("kitty") == 2
    one, t = twice.transfer(seat(0), section("kitty"), 1, "ante")
    assert one == Ledger((2, 0), (("kitty", 3), ("pot", 0), ("kitty", 6)))
    assert t == Transfer(seat(0), section("kitty"), 1, "ante")
    both, done = twice.transfer_all([(seat(0), section("kitty"), 1, "ante"),
                                     (section("kitty"), seat(1), 3, "claim")])
    assert both == Ledger((2, 3), (("kitty", 0), ("pot", 0), ("kitty", 3)))
    assert [d.amount for d in done] == [1, 3]
    with pytest.raises(LedgerError, match="section kitty holds 2, cannot pay 3"):
        twice.transfer(section("kitty"), seat(1), 3, "claim")


def test_the_section_index_kept_with_a_ledger_is_not_part_of_it() -> None:
    fresh = board()
    moved, _ = fresh.transfer(seat(0), section("kitty"), 1, "ante")
    back, _ = moved.transfer(section("kitty"), seat(0), 1, "claim")
    assert back == fresh and hash(back) == hash(fresh) and repr(back) == repr(fresh)
    assert board().section("kitty") == 0  # a ledger without the index yet
    with pytest.raises(LedgerError, match="no section pot on the board"):
        moved.section("pot")


def test_accounts_are_handed_out_again_and_equal_to_new_ones() -> None:
    from boodle.engine.ledger import SeatAccount, SectionAccount

    assert seat(2) == SeatAccount(2) and seat(2) is seat(2)
    assert section("kitty") == SectionAccount("kitty") and section("kitty") is section("kitty")


def test_capped_transfers_cut_what_a_seat_pays_to_its_running_balance() -> None:
    # worked out by hand: seat 0 has 3; it pays 2 (has 1 left), then 4 cut to 1 (0 left),
    # then 5 cut to 0; seat 1 (3) pays 1 to the kitty, which then holds 4 and pays them back
    moves = [(seat(0), section("kitty"), 2, "ante"), (seat(0), section("kitty"), 4, "ante"),
             (seat(0), seat(1), 5, "payment"), (seat(1), section("kitty"), 1, "ante"),
             (section("kitty"), seat(0), 4, "claim")]
    ledger, done = Ledger.open(2, ("kitty",), 3).transfer_all(moves, capped=True)  # type: ignore[arg-type]
    assert [t.amount for t in done] == [2, 1, 0, 1, 4]
    assert ledger.seats == (4, 2) and ledger.section("kitty") == 0
    # a seat in debt pays nothing; a section is never capped (it cannot be overdrawn)
    owing = Ledger((-2, 5), (("kitty", 0),))
    _, done = owing.transfer_all([(seat(0), seat(1), 3, "payment")], capped=True)
    assert done[0].amount == 0
    with pytest.raises(LedgerError, match="section kitty holds 0, cannot pay 1"):
        owing.transfer_all([(section("kitty"), seat(1), 1, "claim")], capped=True)
    with pytest.raises(LedgerError, match="no seat 4 in a ledger of 2 seats"):
        owing.transfer_all([(seat(4), seat(1), -1, "payment")], capped=True)
    # the same on a ledger whose sections repeat a name (the by-name path)
    twice = Ledger((1, 0), (("kitty", 0), ("kitty", 0)))
    cut, done = twice.transfer_all([(seat(0), section("kitty"), 3, "ante")], capped=True)
    assert done[0].amount == 1 and cut.sections == (("kitty", 1), ("kitty", 1))
