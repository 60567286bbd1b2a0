"""The z3 model of eliminated seats (issue 16, "model the rest"; spec §10, spec/verification.md).

Under ``balance: eliminated at zero`` a seat whose balance is zero at the start of a deal
takes no further part (spec §10): it is dealt nothing, never leads or plays, is skipped
when the lead or the pass goes left, and is paid nothing "to each opponent".  The model
has a ghost per seat for it (``Ghosts.gone``).  The expected values here are worked out by
hand from those rules on a 4-seat table with seat 2 out, not read from the engine; the
engine is then asked the same and must agree.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import z3

from boodle.engine import apply, legal_moves, start_deal
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, LeadMove, PassMove, PlayMove
from boodle.language.build import load_text
from boodle.language.cards import Card, parse_card
from boodle.language.model import Ruleset
from boodle.language.variants import load
from boodle.verify.concrete import ModelOracle
from boodle.verify.induction import System
from boodle.verify.lead_terms import leader_now
from boodle.verify.mutation import Mutation
from boodle.verify.reduce import reduce
from boodle.verify.report import exit_status
from boodle.verify.verifier import Options, Subject, symbolic_gaps, verify

PROBE = """variant elim-probe extends michigan-classic {
  session {
    end: last player with chips
    balance: eliminated at zero
  }
  phase play is stops {
    penalty: cannot lead, pay 1 to each opponent
  }
}
"""
"""michigan-classic (first lead: left of dealer; a seat with no lead passes left) played
until one player has chips, each seat that cannot lead paying 1 to each opponent."""


def _probe() -> Ruleset:
    return load_text(PROBE, "elim-probe.boodle")


def _cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def _start(rs: Ruleset, chips: tuple[int, ...], hands: list[str] | None = None
           ) -> DealState:
    """A 4-seat deal dealt by seat 1, seat 2 at zero chips (so out, spec §10)."""
    names = tuple(s.name for s in rs.board)
    ledger = Ledger(tuple(Fraction(c) for c in chips), tuple((x, Fraction(0)) for x in names))
    if hands is None:
        state, _ = start_deal(rs, 4, 1, ledger, deck_order=rs.deck.cards())
    else:
        state, _ = start_deal(rs, 4, 1, ledger, hands=[_cards(h) for h in hands])
    return state


def test_left_skips_the_eliminated_seat() -> None:
    # 4 seats, seat 2 out: clockwise the seats still in are 0, 1, 3
    system = System(_probe(), 4)
    layout, g = system.layout, system.state.ghosts
    assert len(g.gone) == 4
    out = [(o, z3.BoolVal(k == 2)) for k, o in enumerate(g.gone)]
    for seat, left in [(0, 1), (1, 3), (3, 0)]:
        term = z3.substitute(layout.left(g.dealer, g.gone), (g.dealer, z3.IntVal(seat)), *out)
        assert z3.simplify(term) == z3.IntVal(left)
    # twice left of seat 1 is seat 0; seats still in: 3
    assert z3.simplify(z3.substitute(layout.lefts(1, 2, g.gone), *out)) == z3.IntVal(0)
    assert z3.simplify(z3.substitute(layout.seats_in(g.gone), *out)) == z3.IntVal(3)
    # rules that eliminate nobody have no such ghosts
    rs = _probe()
    plain = System(replace(rs, session=replace(rs.session, negative="allowed")), 4)
    assert plain.state.ghosts.gone == ()


def test_the_dealers_left_leads_past_the_eliminated_seat() -> None:
    # dealer seat 1, seat 2 out: 'first lead: left of dealer' is seat 3 (spec §6.1, §10);
    # seat 2 is dealt nothing: 52 cards go to seats 3, 0, 1 and the widow, 13 each (§5.2)
    rs = _probe()
    state = _start(rs, (5, 5, 0, 5))
    assert state.out == frozenset({2}) and state.step == "lead"
    assert [len(h) for h in state.hands] == [13, 13, 0, 13]
    assert state.to_move == 3
    oracle = ModelOracle(System(rs, 4))
    values = oracle.encode(state)
    ev = oracle.evaluator
    assert ev.compile(leader_now(oracle.system.layout, oracle.system.state))(ev.env(values)) == 3
    # the model enables exactly the engine's moves: seat 3's lowest card of each suit
    enabled = set(oracle.enabled(values))
    assert enabled == {f"card {m.card}" for m in legal_moves(rs, state)}


def _pass_state(rs: Ruleset, chips: tuple[int, ...]) -> DealState:
    """Seats 0, 1, 3 with ``chips`` (seat 2 at zero: out).  Seat 3 leads 2♠ and follows with
    its 3♠; 4♠ is in the widow: the run stops, and seat 3, holding only 5♠, has no lead of
    another suit (``restart: last player, lowest of other suit``): it must pass."""
    hands = ["2♥ 3♥ 4♥", "2♦ 3♦ 4♦", "", "2♠ 3♠ 5♠"]
    state = _start(rs, (5, 5, 0, 5), hands)
    for move in (LeadMove(3, parse_card("2♠")), PlayMove(3, parse_card("3♠"))):
        state, _ = apply(rs, state, move)
    assert state.step == "lead" and state.to_move == 3
    assert list(legal_moves(rs, state)) == [PassMove(3)]
    # the seats' chips set as the test needs (after the antes, which take their own share)
    ledger = Ledger(tuple(Fraction(c) for c in chips), state.ledger.sections)
    return state.evolve(ledger=ledger)


def test_a_pass_fine_is_paid_to_the_seats_still_in() -> None:
    # seat 3 passes and pays 1 to each opponent still in, clockwise from its left: seats 0
    # and 1, not seat 2; the lead goes left, to seat 0 (spec §6.5, §6.8, §10)
    rs = _probe()
    oracle = ModelOracle(System(rs, 4))
    for chips, after in [((5, 5, 0, 5), (6, 6, 0, 3)),
                         # capped at the balance (§9): 1 chip, paid to seat 3's left first
                         ((5, 5, 0, 1), (6, 5, 0, 0))]:
        before = _pass_state(rs, chips)
        after_engine, _ = apply(rs, before, PassMove(3))
        assert after_engine.ledger.seats == tuple(Fraction(c) for c in after)
        assert after_engine.to_move == 0
        got = oracle.enabled(oracle.encode(before))
        assert list(got) == ["pass"]
        width = len(oracle.system.state.flat())
        assert got["pass"] == oracle.encode(after_engine)[:width]


def _small(rs: Ruleset) -> Ruleset:
    return reduce(rs, 2, 5).ruleset


def test_z3_proves_chips_conserved_with_seats_out() -> None:
    rs = _small(_probe())
    results = verify([Subject("elim-probe", rs)],
                     Options(players=(4,), exhaustive=False, engine=False, decks=((2, 5),)))
    z3rows = {r.prop: r for r in results if r.method == "z3"}
    assert {p: r.status for p, r in z3rows.items()} == {
        p: "proven" for p in ("chip conservation", "card conservation", "termination",
                              "progress", "well-formedness")}, results
    assert not any("eliminated" in g for g in symbolic_gaps(rs))
    assert exit_status(results) == 0


def test_z3_finds_a_penalty_paid_to_an_eliminated_seat() -> None:
    # the fault: the model's (and the engine's) pass fee pays each eliminated seat too, after
    # the seats still in; chips still add up, but a seat out gets a chip it cannot have.
    # Shortest trace, by hand: the first lead stops at once (its next card in the widow) and
    # the leader, holding no other suit, passes and pays: 2 moves
    rs = _small(_probe())
    fault = Mutation("credit gone", "a penalty credits an eliminated seat",
                     credit_gone=frozenset({"penalty"}))
    results = verify([Subject("elim-probe-fault", rs, fault)],
                     Options(players=(4,), exhaustive=False, engine=False, decks=((2, 5),),
                             bmc_depth=8, bmc_seconds=60))
    [bad] = [r for r in results if r.method == "z3" and r.prop == "chip conservation"]
    assert bad.status == "counterexample", bad.detail
    assert "'pass' breaks 'eliminated seats hold no chips'" in bad.detail
    assert "reached from the start of play in 2 moves" in bad.detail
    # a COUNTEREXAMPLE because the engine, given the trace's deal (a seat at zero: out),
    # plays it and ends in the same state
    assert "real: the engine plays the trace" in bad.detail
    assert bad.data["replay"]["followed"] and bad.data["replay"]["broken"]
    assert "eliminated: seat" in bad.trace
    assert exit_status(results) == 1


def test_a_session_of_4_players_needs_only_the_4_seat_proof() -> None:
    # tripoli plays on with seats out ('end: last player with chips'): every deal of a
    # 4-player session has 4 seats, some perhaps out, which the model at 4 covers, so
    # '--players 4' proves the session ends without proofs at 3 or 2 players still in
    results = verify([Subject("tripoli", load("tripoli"))],
                     Options(players=(4,), exhaustive=False, engine=False))
    [row] = [r for r in results if r.prop == "session end" and r.method == "static"]
    assert row.status == "proven", row.detail
    assert "for sessions of 4 players (the counts run)" in row.detail
