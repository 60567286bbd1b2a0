"""The z3 side of the verifier on the Michigan home profile (full 52-card deck).

Expected values are worked out from the rules: 001 §03's deal (4 hands of 13
with 3 players), the going-out rule (001 §06), and what a weak invariant
must look like.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pytest
import z3

from boodle.language.variants import load
from boodle.verify.agreement import stops_states
from boodle.verify.bmc import bmc
from boodle.verify.concrete import ModelOracle
from boodle.verify.induction import Prover, System, check_progress, prove
from boodle.verify.invariants import Conjunct
from boodle.verify.reduce import reduce
from boodle.verify.verifier import _bound


@pytest.fixture(scope="module")
def michigan3() -> System:
    return System(load("michigan"), 3)


def test_every_property_of_michigan_is_proven_for_three_players(michigan3: System) -> None:
    findings = prove(michigan3)
    assert {f.prop for f in findings} == {"card conservation", "chip conservation",
                                          "well-formedness", "progress", "termination"}
    assert all(f.status == "proven" for f in findings), [
        (f.check, f.prop, f.detail) for f in findings if f.status != "proven"]
    assert michigan3.exact  # Michigan goes from the deal straight to play
    assert len(michigan3.actions) == 52  # one per card: 001's rules have no pass


def test_the_ranking_function_bounds_a_deal_by_hand(michigan3: System) -> None:
    # 52 cards to 3 players and the widow: 13 each, so 39 start in players' hands; the deal
    # ends when one player is out and the two others still hold a card: at most 37 plays.
    assert "at most 37 moves per deal" in _bound(michigan3)
    assert "at most 39 moves per deal" in _bound(System(load("michigan"), 4))  # 52 - 10 - 3


def test_the_evaluator_reads_the_terms_as_z3_does(michigan3: System) -> None:
    oracle = ModelOracle(michigan3)
    variables = [*michigan3.state.flat(), *michigan3.state.ghosts.variables()]
    states = stops_states(michigan3.ruleset, 3, seed=5)
    for _ in range(15):
        values = oracle.encode(next(states))
        pairs = [(v, _literal(v, x)) for v, x in zip(variables, values, strict=True)]
        env = oracle.evaluator.env(values)
        for action, guard, _ in oracle.compiled[::7]:
            term = z3.substitute(action.guard, *pairs)
            assert z3.is_true(z3.simplify(term)) == guard(env), action.name


def _literal(v: z3.ExprRef, x: object) -> z3.ExprRef:
    if z3.is_bool(v):
        return z3.BoolVal(bool(x))
    if z3.is_real(v):
        return z3.RealVal(str(x))
    return z3.IntVal(int(x))  # type: ignore[call-overload]


@dataclass
class _Weakened(System):
    """The invariant without "players hold cards": too weak to prove progress."""

    @cached_property
    def conjuncts(self) -> list[Conjunct]:
        return [c for c in super().conjuncts if c.name != "players hold cards"]


def test_a_weak_invariant_gives_an_unreachable_counterexample() -> None:
    # Without "every player holds a card while the deal goes on", the seat to lead may hold
    # nothing: z3 finds that state, but no deal reaches it (the first out ends the deal),
    # which bounded model checking from the start of play confirms.
    small = reduce(load("michigan"), 2, 3).ruleset
    weak = _Weakened(small, 3)
    f = check_progress(weak, Prover(weak))
    assert f.status == "counterexample"
    assert f.model is not None
    to_lead = f.model["tomove"]
    assert all(code != to_lead for code in f.model["loc"])  # the leader holds no card
    found = bmc(weak, "deadlock", depth=4, budget=30)
    assert not found.found and found.depth == 4


def test_a_rule_the_model_lacks_is_not_covered_never_proven() -> None:
    from dataclasses import replace

    from boodle.language.model import GoingOut
    from boodle.verify.verifier import Options, Subject, verify

    rs = load("michigan")
    phase = rs.phases[0]
    # going out without ending the deal: no source describes it; neither model nor engine
    # plays it (spec §7)
    on = replace(rs, name="on", phases=(replace(  # type: ignore[arg-type]
        phase, going_out=GoingOut(ends_deal=False, takes=("kitty",))),))
    results = verify([Subject("on", on)], Options(players=(3,)))
    symbolic = [r for r in results if r.method == "z3"]
    assert symbolic and all(r.status == "not covered" for r in symbolic)
    assert "going out without ending the deal" in symbolic[0].detail
    assert all(r.status == "not covered" for r in results if r.method == "exhaustive")


def test_fined_leads_are_modelled_and_proven() -> None:
    # spec §6.8: a lead that is not the lowest is accepted with a fine, and the leader
    # forfeits further boodles; the model has both, and the invariant still holds
    from dataclasses import replace

    from boodle.language.model import Penalty

    rs = load("michigan")
    fined = replace(rs, phases=(replace(  # type: ignore[arg-type]
        rs.phases[0], penalties=(Penalty("lead not lowest", 1, "each opponent", True),)),))
    system = System(fined, 3)
    assert all(f.status == "proven" for f in prove(system))


def test_rulesets_whose_cards_move_alike_share_all_but_the_chip_proofs() -> None:
    from typing import Any

    from boodle.verify.verifier import Options, Subject, verify

    # michigan-paid-stops differs from michigan only by a stop bonus (chips), so its cards
    # move alike; michigan-classic passes instead of leading another suit, so they do not
    cache: dict[Any, Any] = {}
    names = ("michigan", "michigan-paid-stops", "michigan-classic")
    results = verify([Subject(name, load(name)) for name in names],
                     Options(players=(3,), exhaustive=False), cache)
    assert sorted(kind for kind, *_ in cache) == ["card dynamics", "card dynamics",
                                                  "chips", "chips", "chips"]
    z3_results = [r for r in results if r.method == "z3"]
    assert len(z3_results) == 3 * 5 and all(r.status == "proven" for r in z3_results)


def test_ranks_are_shared_by_position_not_by_name() -> None:
    # Newmarket (ace low: A 2 … K) and michigan-classic (ace high: 2 … K A) differ in
    # their cards' names only as the model sees them: 4 suits of 13 ranks, the same lead,
    # restart and all-pass rules.  A rule naming a card is compared by the card's position,
    # so "the holder of 2♣ leads 2♣" is a different rule in the two decks (2♣ is the lowest
    # club ace high, the second ace low).
    from dataclasses import replace

    from boodle.language.cards import Card
    from boodle.language.model import LeadRule
    from boodle.verify.verifier import Subject, _dynamics_key

    classic, newmarket = load("michigan-classic"), load("newmarket")
    assert classic.deck.ranks != newmarket.deck.ranks
    assert _dynamics_key(Subject("a", classic), 4) == _dynamics_key(Subject("b", newmarket), 4)

    def named(rs):  # type: ignore[no-untyped-def]
        rule = LeadRule("holder", "card", card=Card("2", "♣"))
        return replace(rs, phases=tuple(replace(p, first_lead=rule) if hasattr(p, "first_lead")
                                        else p for p in rs.phases))

    assert _dynamics_key(Subject("a", named(classic)), 4) \
        != _dynamics_key(Subject("b", named(newmarket)), 4)


def test_a_chip_fault_is_found_when_the_card_moves_are_shared(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The fault only drops the debit of going-out payments: the cards move as in Michigan.
    # Even with the card-dynamics proofs taken from Michigan's (the key is made to ignore
    # the fault here), the chip proofs are the mutant's own and find it.
    from boodle.verify import verifier as run
    from boodle.verify.verifier import Options, Subject, verify
    from mutants import credit_without_debit

    keyed = run._dynamics_key
    monkeypatch.setattr(run, "_dynamics_key",
                        lambda s, n: keyed(Subject(s.name, s.ruleset), n))
    mutant = credit_without_debit()
    small = reduce(mutant.ruleset, 2, 3).ruleset
    subjects = [Subject("clean", small), Subject(mutant.name, small, mutant.mutation)]
    results = verify(subjects, Options(players=(3,), exhaustive=False, decks=((2, 3),),
                                       bmc_depth=4, bmc_seconds=30))
    clean = [r for r in results if r.variant == "clean" and r.method == "z3"]
    assert clean and all(r.status == "proven" for r in clean)
    bad = [r for r in results
           if r.variant == mutant.name and r.method == "z3" and r.status == "counterexample"]
    assert [r.prop for r in bad] == ["chip conservation"]
    assert "breaks 'chips add up'" in bad[0].detail


def test_an_actions_free_constants_are_those_its_definitions_define(michigan3: System) -> None:
    # _shape_holds renames them to canonical constants: they must be exactly the left-hand
    # sides of the flags' and amounts' definitions, in order
    pope = System(load("pope-joan"), 4)
    for a in (*michigan3.actions, *pope.actions):
        assert [x.get_id() for x in a.free] == [d.arg(0).get_id() for d in a.definitions]
        assert len(a.free) == len(a.definitions) > 0 or a.kind == "pass"


def test_the_c_api_term_builders_make_the_terms_z3s_operators_make() -> None:
    """verify/terms.py and Layout.eq/eqs/eq_codes/num stand in for z3's If, ==, !=, <, >=,
    Implies … on the hot paths; the proofs are the same only if the terms are the very same
    (hash-consed: equal ids), ToReal included where an integer meets a real."""
    from boodle.verify.layout import Layout, sum_of
    from boodle.verify.terms import (
        INT0,
        REAL0,
        TRUE,
        add,
        eq,
        eq_real,
        ge,
        gt,
        implies,
        is_real,
        ite_arith,
        ite_bool,
        ite_int,
        le,
        lt,
        ne,
        neg,
        not_,
        real_const,
        sub,
        to_real,
    )

    x, y = z3.Ints("tx ty")
    r, q = z3.Reals("tr tq")
    b, c = z3.Bools("tb tc")
    same = [
        (ite_int(b, x, y), z3.If(b, x, y)),
        (ite_int(b, x, x), z3.If(b, x, x)),  # no shortcut: z3's If keeps both branches
        (ite_bool(b, c, z3.BoolVal(False)), z3.If(b, c, False)),
        (eq_real(r, x + 1), r == x + 1),
        (eq_real(r, q), r == q),
        (to_real(x), z3.ToReal(x)),
        (lt(to_real(x), r), x < r),
        (gt(r, REAL0), r > 0),
        (ge(x, INT0), x >= 0),
        (le(x, y), x <= y),
        (ne(x, y), x != y),
        (not_(b), z3.Not(b)),
        (implies(b, c), z3.Implies(b, c)),
        (add(r, neg(q)), r + -q),
        (sub(x, y), x - y),
        (add(sub(x, y), x), x - y + x),
        (eq(b, c), b == c),
        (eq(x, y), x == y),
        (ite_arith(TRUE, r, REAL0), z3.If(True, r, 0)),
        (ite_arith(b, r, r), z3.If(b, r, r)),
        (real_const("tr"), r),
        (eq(sum_of([r, q, r]), q), z3.Sum(r, q, r) == q),
    ]
    for ours, theirs in same:
        assert ours.get_id() == theirs.get_id(), (ours, theirs)
    assert is_real(r) and not is_real(x)
    layout = Layout(load("michigan"), 3)
    assert layout.num(-1).get_id() == z3.IntVal(-1).get_id()
    assert [a.get_id() for a in layout.eq_codes(x, [0, 5, -1])] == \
        [(x == k).get_id() for k in (0, 5, -1)]
    z = z3.Int("tz")
    assert [a.get_id() for a in layout.eqs([x, y], z)] == [(v == z).get_id() for v in (x, y)]
    assert layout.played(z).get_id() == (3 + 1 + z).get_id() and layout.played(2) == 6
    assert [a.get_id() for a in layout.eqs([x, r], z)] == [(v == z).get_id() for v in (x, r)]
    base = ([x, y], layout.eqs([x, y], 2))
    assert [a.get_id() for a in layout.eqs([x, q], 2, base)] == [(x == 2).get_id(),
                                                                 (q == 2).get_id()]


def test_ctrl_c_during_a_query_stops_the_run_instead_of_reading_as_a_hard_query() -> None:
    # z3 catches SIGINT while it searches and answers "unknown"; the prover must turn that
    # into KeyboardInterrupt (a first try's "unknown" is otherwise asked again in full, and
    # a user's Ctrl-C was lost: found by a fresh user)
    import os
    import signal
    import threading

    from boodle.verify.induction import interrupted

    holes = 11  # pigeonhole: 12 pigeons, 11 holes, unsat and slow to refute
    x = [[z3.Bool(f"ph{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    solver = z3.Solver()
    solver.set("timeout", 60_000)
    solver.add(*[z3.Or(*row) for row in x])
    solver.add(*[z3.Or(z3.Not(x[i][j]), z3.Not(x[k][j])) for j in range(holes)
                 for i in range(holes + 1) for k in range(i + 1, holes + 1)])
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            assert solver.check() == z3.unknown
            interrupted(solver)
    finally:
        timer.cancel()
    solver.set("timeout", 50)
    assert solver.check() == z3.unknown
    interrupted(solver)  # a time-out is not an interrupt


def test_init_states_the_antes_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 16, "an independent model": the antes of z3's Init (spec §4: which sections
    # 'each boodle' names) are the verifier's own statement, not the engine's code, so a bug
    # there is not on both sides.  An engine whose expansion is broken does not change Init:
    # michigan at 3 players, exact start, each player 1 on each of the four boodles and 2 on
    # the kitty: every section gets 3 chips on the pre-ante ledger's, the kitty 6
    from boodle.engine.stages import antes
    from boodle.verify.invariants import initial

    def broken(ruleset: object, targets: object) -> list[str]:
        raise AssertionError("the model asked the engine's ante_targets")

    monkeypatch.setattr(antes, "ante_targets", broken)
    system = System(reduce(load("michigan"), 2, 3).ruleset, 3)
    init, pre = initial(system.layout, system.state, True)
    solver = z3.Solver()
    solver.add(init)
    got = dict(zip([x.name for x in system.layout.board], system.state.sec, strict=True))
    before = {str(p).rsplit(".", 1)[-1]: p for p in pre if ".section." in str(p)}
    solver.add(z3.Or(got["kitty"] != before["kitty"] + 6, got["A♥"] != before["A♥"] + 3))
    assert solver.check() == z3.unsat
