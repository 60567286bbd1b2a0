"""Whole sessions of the multi-phase games under exact chips and elimination (spec §9, §10).

The shipped variants' sessions, for every allowed player count, are checked in
test_shipped_sessions.py.  Here two house rules over tripoli stress what those
sessions rarely reach:

- ``chips exact``: shared sections and pots pay fractions; after every event
  the chips replayed from the events' transfers add up exactly to the start;
- ``balance: eliminated at zero`` without ``end: when a player has no chips``:
  players drop out and the session goes on without them, so an eliminated seat
  is dealt nothing, pays nothing and receives nothing for the rest of the
  session, and nobody's balance ever goes below zero.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from boodle.engine.events import (
    Ante,
    DealCards,
    DealEnd,
    DealStart,
    Eliminated,
    Event,
    transfers_in,
)
from boodle.engine.ledger import Ledger, SeatAccount
from boodle.language.build import load_text
from boodle.language.model import Ruleset
from boodle.session.run import play_session

EXACT = load_text("variant tripoli-exact extends tripoli { chips exact }", "<test>")
ELIMINATION = load_text("""\
variant tripoli-knockout extends tripoli {
  session {
    start: 12 chips
    end: after 3 rotations
    leftover: split equally
    ties: share
    balance: eliminated at zero
  }
}
""", "<test>")


def replay(ruleset: Ruleset, players: int, events: tuple[Event, ...]) -> list[Ledger]:
    """Every transfer replayed; the total is exact after each event.  The ledger per deal end."""
    start = ruleset.session.start_chips
    ledger = Ledger.open(players, tuple(s.name for s in ruleset.board), start)
    ends = []
    for event in events:
        for t in transfers_in(event):
            ledger, _ = ledger.transfer(t.src, t.dst, t.amount, t.reason)
        assert ledger.total() == players * start, event
        if isinstance(event, DealEnd):
            assert event.ledger == ledger
            ends.append(ledger)
    return ends


@pytest.mark.parametrize("players", EXACT.players.counts())
def test_exact_chips_conserve_fractions_in_tripoli_sessions(players: int) -> None:
    result = play_session(EXACT, players, seed=5)
    replay(EXACT, players, result.events)
    assert sum(result.standings) == players * 50


def test_exact_chips_do_pay_fractions() -> None:
    # over the sessions above, some split must have given a fraction of a chip (or the
    # exact path would be untested): find one in the first few seeds with 4 players
    fractions = [
        t.amount
        for seed in range(6)
        for e in play_session(EXACT, 4, seed=seed, deals=4).events
        for t in transfers_in(e)
        if isinstance(t.amount, Fraction)
    ]
    assert fractions and all(f.denominator > 1 for f in fractions)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_eliminated_players_leave_and_the_session_goes_on(players: int) -> None:
    result = play_session(ELIMINATION, players, seed=players)
    ends = replay(ELIMINATION, players, result.events)
    assert all(min(ledger.seats) >= 0 for ledger in ends)  # a player pays at most their chips
    out: set[int] = set()
    deals = 0
    for event in result.events:
        if isinstance(event, DealStart):
            deals += 1
            assert event.dealer not in out
        elif isinstance(event, DealCards):
            assert all(not event.hands[s] for s in out) and not out & set(event.order)
        elif isinstance(event, Ante):
            assert event.transfer.src not in {SeatAccount(s) for s in out}
        elif isinstance(event, Eliminated):
            out.add(event.seat)
        else:
            for t in transfers_in(event):
                assert t.dst not in {SeatAccount(s) for s in out} or t.amount == 0
    assert out, "with 12 chips each, someone is eliminated within three rotations"
    assert all(result.standings[s] == 0 for s in out)
    # the session ends after 3 rotations, or once fewer than 3 players are left
    assert deals == 3 * players or players - len(out) < 3
