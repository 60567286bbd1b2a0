"""The z3 model's statement of who may take a section (spec §4 ``short stack: section by
section``) and of the sets a widow blocks (§5.2 ``widow: blocks sets``), held to hand
calculations from the spec's words and examples, not to the engine's output.

Tripoley's board, in board order (tripoley.boodle, Cadaco's nine sections): A♥, K♥, Q♥, J♥,
10♥, K-Q, 8-9-10, the Kitty, the Pot; tripoley-as-sold antes 1 chip on each (9 chips in all)
and pays its short stacks section by section.
"""

from __future__ import annotations

from typing import Any

import z3

from boodle.engine.api import start_deal
from boodle.engine.ledger import Ledger
from boodle.language.cards import Card
from boodle.language.variants import load
from boodle.verify.concrete import encode
from boodle.verify.induction import System
from boodle.verify.layout import LEAD
from boodle.verify.own_rules import blocked_sets, short_antes

BOARD = ("A♥", "K♥", "Q♥", "J♥", "10♥", "king-queen", "eight-nine-ten", "kitty", "pot")


def test_a_seat_with_3_chips_antes_the_first_three_sections_in_board_order() -> None:
    # by hand: 9 dues of 1 chip; 3 chips pay A♥ (2 left), K♥ (1 left), Q♥ (0 left), and J♥'s
    # due of 1 is more than the 0 left: J♥ and every later section get nothing
    rs = load("tripoley-as-sold")
    assert short_antes(rs, 1, (3, 50, 50, 50)) == {0: {"A♥": 1, "K♥": 1, "Q♥": 1}}
    # spec §4's example: A (seat 0) has 5 chips, B deals: the five heart sections
    assert short_antes(rs, 1, (5, 50, 50, 50)) == {0: dict.fromkeys(BOARD[:5], 1)}
    # exactly 9 chips is not short: the seat pays as written and may take every section
    assert short_antes(rs, 1, (9, 50, 50, 50)) == {}


def test_the_engine_s_short_record_reads_as_the_model_s_eligibility() -> None:
    # the engine antes seat 0's 3 chips on A♥, K♥, Q♥; the model's ghosts of that deal say
    # seat 0 may take those three sections and no other, every other seat all nine
    rs = load("tripoley-as-sold")
    ledger = Ledger.open(4, BOARD, 50)
    ledger = Ledger((3, 50, 50, 50), ledger.sections)
    state, _ = start_deal(rs, 4, 1, ledger, rs.deck.cards())
    assert state.ledger.seat(0) == 0
    assert [name for name, chips in state.ledger.sections if chips == 4] == list(BOARD[:3])
    system = System(rs, 4)
    values = encode(system.layout, state.evolve(stage="phase:michigan", step="lead"),
                    system.state)
    ghosts = system.state.ghosts
    got = dict(zip([str(v) for v in ghosts.variables()], values[len(system.state.flat()):],
                   strict=True))
    assert [got[f"g.eligible.0.{name}"] for name in BOARD] == [True] * 3 + [False] * 6
    assert all(got[f"g.eligible.{k}.{name}"] for k in (1, 2, 3) for name in BOARD)


def _sat(system: System, *extra: Any) -> bool:
    solver = z3.Solver()
    solver.add(system.axioms, *extra)
    return bool(solver.check() == z3.sat)


def test_the_model_s_eligibility_is_a_board_order_prefix_or_everything() -> None:
    system = System(load("tripoley-as-sold"), 4)
    row = system.state.ghosts.eligible[0]

    def exactly(*names: str) -> list[Any]:
        return [e if name in names else z3.Not(e) for e, name in zip(row, BOARD, strict=True)]

    assert _sat(system, *exactly("A♥", "K♥", "Q♥"))  # 3 chips: the first three
    assert _sat(system, *exactly(*BOARD))  # not short
    assert _sat(system, *exactly())  # short with nothing paid in full
    # never a section without every one before it (section by section, in board order)
    assert not _sat(system, *exactly("A♥", "Q♥"))
    assert not _sat(system, *exactly("K♥"))
    assert not _sat(system, *exactly(*BOARD[:-1], "pot"), row[1] == False)  # noqa: E712


def _after(system: System, card: str, *given: Any) -> tuple[Any, Any]:
    """The action of ``card`` and a solver holding the invariant, the guard and ``given``."""
    action = next(a for a in system.actions if a.name == f"card {card}")
    solver = z3.Solver()
    solver.add(system.axioms, *system.inv_s, action.guard, *action.definitions, *given)
    return action, solver


def _valid(solver: Any, claim: Any) -> bool:
    solver.push()
    solver.add(z3.Not(claim))
    out = solver.check() == z3.unsat
    solver.pop()
    return bool(out)


def test_a_short_seat_playing_a_boodle_it_did_not_ante_takes_nothing() -> None:
    # spec §4: seat 0 anted A♥, K♥, Q♥ (3 chips); leading J♥ claims nothing, whatever is on
    # the J♥ section (the others' antes, carried over); a seat that anted J♥ takes it all
    system = System(load("tripoley-as-sold"), 4)
    s, j = system.state, BOARD.index("J♥")
    eligible = s.ghosts.eligible
    # seat 0 keeps 2♣: it does not go out (which would pay it per card left, spec §7)
    lead = [s.step == LEAD, s.tomove == 0, s.sec[j] == 3, _card(system, "2♣") == 0]
    action, solver = _after(system, "J♥", *lead, z3.Not(eligible[0][j]))
    assert solver.check() == z3.sat  # the lead can happen
    assert _valid(solver, action.post.sec[j] == 3)
    assert _valid(solver, action.post.bal[0] == s.bal[0])  # nor is seat 0 paid
    action, solver = _after(system, "J♥", *lead, eligible[0][j])
    assert _valid(solver, action.post.sec[j] == 0)


def _card(system: System, card: str) -> Any:
    return system.state.loc[system.layout.index[Card(card[:-1], card[-1])]]


def test_a_set_complete_in_the_widow_blocks_its_section() -> None:
    # spec §5.2's example: the widow holds 8♦ 9♦ 10♦; seat 0 has played 8♣ 9♣ and now plays
    # 10♣: under 'blocks sets' nobody takes the 8-9-10 (its 4 chips stay); with 8♦ in a
    # hand instead, seat 0 takes all 4
    system = System(load("tripoley-as-sold"), 4)
    s, k, n = system.state, BOARD.index("eight-nine-ten"), system.layout.n
    eligible = [row[k] for row in s.ghosts.eligible]
    played = [_card(system, "8♣") == n + 1, _card(system, "9♣") == n + 1,
              s.tomove == 0, s.sec[k] == 4, *eligible]
    dead = [_card(system, c) == n for c in ("8♦", "9♦", "10♦")]
    dead += [_card(system, c) != n for c in ("8♥", "8♠")]  # no other suit's 8-9-10 there
    action, solver = _after(system, "10♣", *played, *dead)
    assert solver.check() == z3.sat
    assert _valid(solver, action.post.sec[k] == 4)
    action, solver = _after(system, "10♣", *played, *dead[1:], _card(system, "8♦") == 1)
    assert solver.check() == z3.sat
    assert _valid(solver, action.post.sec[k] == 0)


def test_the_verifier_s_own_widow_test_is_the_spec_s_example() -> None:
    rs = load("tripoley-as-sold")
    widow = [Card("8", "♦"), Card("9", "♦"), Card("10", "♦"), Card("2", "♠")]
    assert blocked_sets(rs, widow, None) == {"eight-nine-ten"}
    assert blocked_sets(rs, widow[1:], None) == set()  # 8♦ elsewhere: nothing blocked
    # K-Q of hearts are named cards: in the widow they are held by nobody, blocked too
    assert blocked_sets(rs, [Card("K", "♥"), Card("Q", "♥")], None) == {"king-queen"}
    assert blocked_sets(load("tripoley"), widow, None) == set()  # qualifies nobody
