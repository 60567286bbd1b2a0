"""Every back end keeps a row for every member of every rule kind (issue 19, step 1)."""

from __future__ import annotations

import pytest

from boodle.compiled.tables import compile_ruleset, unsupported_features
from boodle.engine.leads import SCOPES
from boodle.language.kind_facts import SCOPE_FACTS
from boodle.language.model import SUIT_SCOPES, StopsPhase
from boodle.language.variants import load
from boodle.rule_kinds import KINDS, missing_rows


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_table_has_a_row_for_every_member(kind: str) -> None:
    assert missing_rows(kind) == {}


def test_a_new_lead_scope_fails_naming_each_back_end_until_every_table_has_its_row() -> None:
    members = (*KINDS["lead scope"].members(), "lowest of a colour")
    faults = missing_rows("lead scope", members)
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "builder", "conformance mutants", "conformance pins", "printer",
        "reference engine", "reference engine", "z3 model", "z3 model"]
    assert all(said == "no row for 'lowest of a colour'" for said in faults.values())


def test_a_row_for_no_member_is_a_fault_too() -> None:
    members = [m for m in KINDS["lead scope"].members() if m != "all"]
    faults = missing_rows("lead scope", members)
    assert len(faults) == 9
    assert all(said == "a row for 'all', no such member" for said in faults.values())


def test_the_per_suit_scopes_are_the_ones_whose_lowest_is_per_suit() -> None:
    # The model's fact and the engine's row agree (spec §6.4: 'lowest of chosen suit' is the
    # lowest of each suit; 'lowest black' the lowest of all black cards held).
    assert set(SUIT_SCOPES) == {"chosen suit", "longest suit", "other suit", "same suit",
                                "opposite colour"}
    assert {s for s, row in SCOPES.items() if row.lowest != "whole set"} == set(SUIT_SCOPES)
    assert {s for s, f in SCOPE_FACTS.items() if f.after_stop} == {
        "other suit", "same suit", "opposite colour", "opposite colour card"}
    assert {s for s, f in SCOPE_FACTS.items() if f.colour} == {
        "opposite colour", "opposite colour card", "black", "red"}


def test_only_the_named_suit_scope_walks_with_the_holder() -> None:
    # Spec §6.1: under 'holder of lowest SUIT', 'lowest of SUIT' follows the walk to the next
    # suit; no other scope names a suit to carry.  The engine and the z3 model state it apart.
    from boodle.engine.leads import WALKS_THE_SUIT
    from boodle.verify.lead_terms import SUIT_WALKS

    assert {s for s, walks in WALKS_THE_SUIT.items() if walks} == {"suit"}
    assert {s for s, walks in SUIT_WALKS.items() if walks} == {"suit"}


def test_the_compiled_engine_reads_the_reference_rows() -> None:
    # One statement on the engine side: the compiled tables call boodle.engine.leads'.
    import boodle.compiled.tables as tables

    assert not hasattr(tables, "_suit_allowed")
    assert compile_ruleset(load("michigan")) is not None


def test_a_new_who_fails_naming_each_back_end() -> None:
    members = (*KINDS["who leads"].members(), "player with most chips")
    faults = missing_rows("who leads", members)
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "Hypothesis oracle", "builder", "compiled engine",
        "compiled engine", "compiled engine", "conformance mutants", "conformance mutants",
        "conformance pins", "printer", "reference engine", "reference engine", "verifier",
        "z3 model"]


def test_what_the_compiled_engine_is_excused_from_it_refuses() -> None:
    # Rummoli's stops phase is led by the winner of its poker phase (its rules file): the
    # compiled engine has no row for 'phase winner', so it must say it does not run Rummoli.
    from boodle.compiled.tables import unsupported_features

    [excused] = [t.excused for t in KINDS["who leads"].tables if t.backend == "compiled engine"]
    assert excused == {"phase winner"}
    assert any("lead by a phase winner" in f for f in unsupported_features(load("rummoli")))


@pytest.mark.parametrize(("kind", "rules_with"), [
    ("widow sets", "probe-widow-blocks-sets"),
    ("short stack", "probe-short-stacks"),
])
def test_the_members_once_excused_are_run_by_the_compiled_engine(kind: str,
                                                                 rules_with: str) -> None:
    # spec §5.2 'blocks sets' and §4 'short stack: section by section': the compiled engine
    # has a row for every member now (issue 23) and runs the suite's probe of each; z3 models
    # both (verify/eligibility.py): what it excuses it must say it does not model.
    from boodle.compiled.tables import supports
    from boodle.conformance.paths import suite_dir
    from boodle.language.build import load_file
    from boodle.verify.verifier import unmodelled

    rules = load_file(suite_dir() / "variants" / f"{rules_with}.boodle")
    tables = {t.backend: t.excused for t in KINDS[kind].tables}
    assert tables["compiled engine"] == frozenset()
    assert supports(rules), unsupported_features(rules)
    for member in tables["z3 model"]:
        assert any(member in u for u in unmodelled(rules))


def test_a_new_tie_rule_fails_naming_each_back_end() -> None:
    # Issue 18 item 1: the tie rules of a lowest lead are a kind with a row per back end; the
    # compiled engine reads the reference engine's rows (compiled.tables._tie_broken).
    members = (*KINDS["tie break"].members(), "by seat")
    faults = missing_rows("tie break", members)
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "builder", "compiled engine", "conformance pins",
        "reference engine", "verifier", "z3 model"]
    # spec §6.1: only 'chosen' leaves every tied card to the leader; the others order suits
    from boodle.compiled.tables import TIE_ORDERED
    from boodle.verify.symmetry import SUITS_ORDERED

    assert {t for t, ordered in TIE_ORDERED.items() if not ordered} == {"chosen"}
    assert SUITS_ORDERED == TIE_ORDERED


@pytest.mark.parametrize(("kind", "new_member", "pins"), [
    ("all pass", "deal passes to the left", []),
    ("claims", "on going out", ["conformance pins"]),
    ("going-out payments", "each opponent", ["conformance pins"]),
    ("fallback", "pay and lead", ["Hypothesis oracle", "compiled engine"]),
])
def test_a_new_member_of_the_phase_kinds_fails_naming_every_back_end(
        kind: str, new_member: str, pins: list[str]) -> None:
    # Issue 19 step 1: what a round of passes does (spec §6.5), how a stops phase claims
    # (§6.6) and where going out's payments go (§7) have a table in each of the six.
    members = (*KINDS[kind].members(), new_member)
    faults = missing_rows(kind, members)
    assert sorted(b.split(" (")[0] for b in faults) == sorted([
        "Hypothesis oracle", "builder", "compiled engine", "printer", "reference engine",
        "z3 model", *pins])
    assert all(said == f"no row for {new_member!r}" for said in faults.values())


def test_a_new_ante_payer_fails_naming_each_back_end() -> None:
    # Spec §4: who pays an ante line is stated by the engine (read by the compiled engine and
    # the explicit-state checker, which keep no copy), the z3 model and the oracle.
    from pathlib import Path

    import boodle.compiled.tables as tables

    faults = missing_rows("ante payers", (*KINDS["ante payers"].members(), "winner"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "Hypothesis oracle", "builder", "conformance mutants",
        "conformance pins", "printer", "reference engine", "reference engine", "z3 model"]
    assert "each other player" not in Path(tables.__file__).read_text(encoding="utf-8")


def test_the_compiled_engine_refuses_claims_on_holding_by_its_row() -> None:
    # michigan-claims-on-holding's rules file: 'claims: on holding' (spec §6.6); the
    # compiled engine keeps a row for it (its claim tables serve the players' views) that
    # says it does not run it, so it says so by name and simulate falls back.
    from boodle.compiled.tables import CLAIMS

    assert {c for c, row in CLAIMS.items() if not row.runs} == {"on holding"}
    assert "phase play: claims on holding" in unsupported_features(
        load("michigan-claims-on-holding"))
    assert not any("claims" in f for f in unsupported_features(load("michigan")))


def test_the_facts_of_the_phase_kinds() -> None:
    # spec §6.5: only 'none' leaves a pass fallback without an exit, only 'flip colour'
    # needs a colour restart; §6.6: 'none' claims neither on play nor at the start; §7:
    # only 'to kitty' needs a kitty on the board.
    from boodle.language.kind_facts import ALL_PASS_FACTS, CLAIM_FACTS, PAID_TO_FACTS

    assert {a for a, f in ALL_PASS_FACTS.items() if not f.exits} == {"none"}
    assert {a for a, f in ALL_PASS_FACTS.items() if f.needs_colour} == {"flip colour"}
    assert {a for a, f in ALL_PASS_FACTS.items() if f.ends_deal} == {"end without winner"}
    assert {c for c, f in CLAIM_FACTS.items() if not (f.on_play or f.at_start)} == {"none"}
    assert {p for p, f in PAID_TO_FACTS.items() if f.needs_kitty} == {"kitty"}


def test_the_oracle_catches_going_out_paid_to_the_wrong_account() -> None:
    # Michigan (its rules file: '1 per card to winner', spec §7): a payment per card into
    # the kitty when seat 1 goes out is a fault the oracle names; paid to seat 1 it is not.
    from types import SimpleNamespace

    from boodle.engine.ledger import SeatAccount, SectionAccount
    from boodle.testing import _check_going_out

    rules = load("michigan")
    stage = f"phase:{next(p.name for p in rules.phases)}"
    out = SimpleNamespace(kind="go-out", seat=1)
    right = SimpleNamespace(kind="payment", payee=SeatAccount(1))
    wrong = SimpleNamespace(kind="payment", payee=SectionAccount("kitty"))
    _check_going_out(rules, stage, [out, right])
    with pytest.raises(AssertionError, match="going out pays seat 1"):
        _check_going_out(rules, stage, [out, wrong])


def test_the_oracle_catches_a_round_of_passes_that_does_the_wrong_thing() -> None:
    # Newmarket's rules file: 'all pass: deal ends without winner' (spec §6.5): the third
    # pass of three players ends the deal; a flip of colour instead is a fault, and so is
    # an end after the second pass.
    from types import SimpleNamespace

    from boodle.engine.state import PassMove
    from boodle.testing import _check_all_pass

    rules = load("newmarket")
    [phase] = [p for p in rules.phases if isinstance(p, StopsPhase)]
    assert phase.all_pass == "end without winner"

    def before(passes: int) -> SimpleNamespace:
        return SimpleNamespace(step="lead", stage=f"phase:{phase.name}", passes=passes,
                               clockwise=lambda who: (1, 2, 0))

    end, flip = SimpleNamespace(kind="deal-end"), SimpleNamespace(kind="flip-colour")
    _check_all_pass(rules, before(2), PassMove(0), [end])
    _check_all_pass(rules, before(1), PassMove(0), [])
    with pytest.raises(AssertionError, match="says deal-end"):
        _check_all_pass(rules, before(2), PassMove(0), [flip])
    with pytest.raises(AssertionError, match="before every player passed"):
        _check_all_pass(rules, before(1), PassMove(0), [end])


def test_a_new_end_rule_fails_naming_each_back_end() -> None:
    # Spec §10: the end rules of a session are stated by the builder's facts, the session
    # (read by the simulator, which keeps no copy) and the verifier's session-end check.
    from pathlib import Path

    import boodle.simulate.runner as runner

    faults = missing_rows("session end", (*KINDS["session end"].members(), "first to 100"))
    assert sorted(b.split(" (")[0] for b in faults) == ["builder", "reference engine",
                                                        "verifier"]
    assert "end_when_broke" not in Path(runner.__file__).read_text(encoding="utf-8")


@pytest.mark.parametrize(("variant", "ends"), [
    ("michigan", ("rotations",)),  # 'end: after 1 rotation'
    ("michigan-until-broke", ("rotations", "no chips")),  # 'after 10 rotations', 'no chips'
    ("tripoli", ("rotations", "last with chips")),  # 'after 1 rotation', 'last player …'
    ("tripoli-lowest-club", ("never",)),  # 'end: never'
])
def test_a_sessions_end_rules_are_its_end_lines(variant: str, ends: tuple[str, ...]) -> None:
    # each built-in's rules file, its 'end:' lines (spec §10)
    assert load(variant).session.ends() == ends


def test_a_new_feature_fails_naming_each_engine() -> None:
    # Issue 19 step 2: one list of features (boodle.language.features), each engine saying
    # of every one whether it runs it, instead of three hand-kept lists.
    members = (*KINDS["engine feature"].members(), "a second pack per deal")
    faults = missing_rows("engine feature", members)
    assert sorted(b.split(" (")[0] for b in faults) == [
        "compiled engine", "reference engine", "z3 model", "z3 model"]


def test_the_features_of_a_ruleset_are_read_from_its_rules() -> None:
    # rummoli's rules file: a poker phase, and a stops phase led by its winner; the widow
    # sale of michigan-widow-sale ('widow sale: sale'); the engines' lists are read from them.
    from boodle.language.features import Feature, features

    rummoli = features(load("rummoli"))
    assert Feature("other phases", detail="poker") in rummoli
    assert any(f.key == "lead by a phase winner" for f in rummoli)
    assert any("lead by a phase winner" in u for u in unsupported_features(load("rummoli")))
    sale = features(load("michigan-widow-sale"))
    assert Feature("widow sale", detail="sale") in sale
    assert unsupported_features(load("michigan-widow-sale")) == []  # compiled/widow.py
    assert "a widow taker's hand out of play" in unsupported_features(load("rummoli"))
    assert not any(f.key == "widow sale" for f in features(load("michigan")))


def test_a_new_suit_rule_fails_naming_each_back_end() -> None:
    # Spec §3: which cards pay a boodle or set section ('fixed', 'same suit', 'trumps',
    # 'drawn') is stated by the engine, the compiled engine's claim tables, the z3 claim
    # terms and its test of a set lying in the widow (spec §5.2 'blocks sets'), the oracle's
    # holding test and the printer's boodle and set words.
    faults = missing_rows("suit rule", (*KINDS["suit rule"].members(), "any red"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "Hypothesis oracle", "compiled engine", "conformance pins",
        "printer", "printer", "reference engine", "reference engine", "verifier", "verifier",
        "z3 model", "z3 model"]


def test_a_new_penalty_fault_fails_naming_each_back_end() -> None:
    # Spec §6.8: what a penalty is charged for is read by a table in each back end that
    # charges it, not by comparing with 'cannot lead' (a new fault read as no penalty at all).
    members = (*KINDS["penalty fault"].members(), "lead out of turn")
    faults = missing_rows("penalty fault", members)
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "builder", "compiled engine", "conformance pins", "printer",
        "reference engine", "z3 model"]
    assert all(said == "no row for 'lead out of turn'" for said in faults.values())


def test_each_penalty_fault_is_charged_at_one_moment_alike_in_each_back_end() -> None:
    # Spec §6.8: 'cannot lead' at each pass under a pass fallback; 'lead not lowest' at a lead
    # it makes legal.  The z3 model states it apart; the compiled engine charges at a pass only.
    from boodle.compiled.tables import PASS_DUES
    from boodle.engine.leads import FAULTS
    from boodle.verify.lead_terms import FAULT_TERMS

    assert {f: (r.at_pass, r.not_lowest) for f, r in FAULTS.items()} == {
        "cannot lead": (True, False), "lead not lowest": (False, True)}
    assert {f: (r.at_pass, r.not_lowest) for f, r in FAULT_TERMS.items()} == {
        f: (r.at_pass, r.not_lowest) for f, r in FAULTS.items()}
    assert {f: r.at_pass for f, r in FAULTS.items()} == PASS_DUES


def test_a_new_widow_position_fails_naming_each_back_end() -> None:
    members = (*KINDS["widow position"].members(), "after the dealer's left")
    faults = missing_rows("widow position", members)
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "compiled engine", "conformance mutants", "printer",
        "reference engine", "verifier", "verifier"]


def test_each_back_end_puts_the_widow_where_spec_5_2_says() -> None:
    # Three players, dealer 0: the seats in turn from the dealer's left are 1, 2, 0; the
    # widow's card comes after the dealer's ('last'), before seat 1's ('first'), or never.
    from boodle.compiled.tables import WIDOW, WIDOW_RECEIVERS
    from boodle.engine.stages.dealing import WIDOW_PLACES
    from boodle.verify.own_rules import WIDOW_TURNS

    by_hand = {"last": (1, 2, 0, None), "first": (None, 1, 2, 0), "none": (1, 2, 0)}
    assert {k: row((1, 2, 0)) for k, row in WIDOW_PLACES.items()} == by_hand
    assert {k: tuple(None if w == WIDOW else w for w in row([1, 2, 0]))
            for k, row in WIDOW_RECEIVERS.items()} == by_hand
    turns = {}
    for k, row in WIDOW_TURNS.items():
        seats: list[int | None] = [1, 2, 0]
        row(seats)
        turns[k] = tuple(seats)
    assert turns == by_hand
    from boodle.testing import WIDOW_DEALT as ORACLE_DEALT
    from boodle.verify.own_rules import WIDOW_DEALT

    assert {k: None in seats for k, seats in by_hand.items()} == WIDOW_DEALT == ORACLE_DEALT


def test_a_new_rotation_fails_naming_each_back_end() -> None:
    faults = missing_rows("rotation", (*KINDS["rotation"].members(), "to the winner"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "conformance mutants", "printer", "reference engine"]


def test_the_deal_passes_left_to_the_next_seat_clockwise() -> None:
    # Spec §5.1: with 4 players and dealer 3, 'left' passes the deal to seat 0, 'right' to 2.
    from boodle.session.run import ROTATION_STEPS

    assert {k: (3 + step) % 4 for k, step in ROTATION_STEPS.items()} == {"left": 0, "right": 2}


def test_a_new_widow_discard_fails_naming_each_back_end() -> None:
    faults = missing_rows("widow discard", (*KINDS["widow discard"].members(), "to the dealer"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "compiled engine", "play-by-play", "printer", "reference engine"]


def test_a_widow_takers_hand_goes_where_spec_5_4_says() -> None:
    from boodle.engine.stages.widow import DISCARDS
    from boodle.engine.state import OUT, WIDOW

    assert DISCARDS == {"becomes widow": WIDOW, "out of play": OUT}


def test_a_new_session_tie_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("session tie", (*KINDS["session tie"].members(), "highest card"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "conformance pins", "docs matrix", "printer", "reference engine", "simulator report",
        "verifier", "z3 model"]


def test_a_tie_for_best_plays_one_more_deal_alike_in_session_and_model() -> None:
    # Spec §10: 'ties: one more deal' plays one extra deal, once; 'share' none.
    from boodle.session.run import TIE_DEALS
    from boodle.verify.session_model import TIE_DEAL_TERMS

    assert TIE_DEALS == {"share": 0, "one more deal": 1}
    assert TIE_DEALS == TIE_DEAL_TERMS


def test_a_new_leftover_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("leftover", (*KINDS["leftover"].members(), "to the winner"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "conformance mutants", "conformance pins", "printer", "reference engine"]


def test_a_new_first_dealer_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("first dealer", (*KINDS["first dealer"].members(), "youngest"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "conformance pins", "printer", "reference engine", "simulator", "simulator kernel"]


def test_a_new_misdeal_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("misdeal", (*KINDS["misdeal"].members(), "new dealer"))
    assert sorted(b.split(" (")[0] for b in faults) == ["printer", "reference engine"]


def test_a_new_trumps_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("trumps", (*KINDS["trumps"].members(), "first widow card"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "compiled engine", "printer", "reference engine", "verifier"]


def test_the_widows_last_card_is_turned_up_alike_in_each_back_end() -> None:
    # Spec §5.2: 'trumps: last card of widow': of a widow dealt 3♣ then 9♥, 9♥ is turned up.
    from boodle.compiled.tables import TRUMPS_TURNED
    from boodle.engine.stages.dealing import TURN_UPS
    from boodle.language.cards import parse_card
    from boodle.verify.own_rules import TURNED_UP

    widow = (parse_card("3♣"), parse_card("9♥"))
    turned = {k: None if row is None else row(widow) for k, row in TURN_UPS.items()}
    assert turned == {"none": None, "last widow card": parse_card("9♥")}
    assert {k: card is not None for k, card in turned.items()} == TRUMPS_TURNED == TURNED_UP


def test_a_new_turn_up_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("turn-up", (*KINDS["turn-up"].members(), "dealer takes the widow"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "builder", "printer", "reference engine"]


def test_a_new_balance_rule_fails_naming_each_back_end() -> None:
    # Spec §9, §10: who is still in, and whether a payment is capped, is read by a table in
    # each back end, not by comparing with 'eliminate' (a new rule read as a register).
    faults = missing_rows("balance", (*KINDS["balance"].members(), "eliminated below zero"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "builder", "printer", "reference engine", "verifier"]
    assert all(said == "no row for 'eliminated below zero'" for said in faults.values())


def test_the_players_still_in_are_those_spec_10_keeps_alike_in_each_back_end() -> None:
    # Spec §10: under 'balance: eliminated at zero' a player at 0 or less is out, and every
    # payment is capped at the payer's balance; a register keeps everyone in, uncapped.
    from boodle.engine.stages.dealing import BALANCES
    from boodle.language.kind_facts import BALANCE_FACTS
    from boodle.testing import STILL_IN
    from boodle.verify.own_rules import ELIMINATES

    balances = (-3, 0, 1, 40)
    by_hand = {"allowed": (True, True, True, True), "eliminate": (False, False, True, True)}
    assert {k: tuple(map(r.still_in, balances)) for k, r in BALANCES.items()} == by_hand
    assert {k: tuple(map(row, balances)) for k, row in STILL_IN.items()} == by_hand
    eliminates = {"allowed": False, "eliminate": True}
    assert {k: r.capped for k, r in BALANCES.items()} == eliminates
    assert dict(ELIMINATES) == eliminates
    assert {k: f.eliminates for k, f in BALANCE_FACTS.items()} == eliminates


def test_a_new_follow_rule_fails_naming_each_back_end() -> None:
    faults = missing_rows("follow", (*KINDS["follow"].members(), "any holder"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "conformance pins", "printer", "reference engine",
        "reference engine", "z3 model"]


def test_the_holder_of_the_next_card_follows_alike_in_each_back_end() -> None:
    # Spec §6.2: with one holder per card, 'owner' and 'turn' both have the holder of the next
    # card play it.  Michigan, 3 players, dealer 0, seats dealt in turn from seat 1: the first
    # card of the pack (2♣, ranks low to high) goes to seat 1, the second (3♣) to seat 2.
    import z3

    from boodle.engine import start_deal
    from boodle.engine.ledger import Ledger
    from boodle.engine.stages.stops import FOLLOWERS
    from boodle.language.cards import Card
    from boodle.testing import FOLLOWERS as ORACLE_FOLLOWERS
    from boodle.verify.actions import FOLLOW_SEATS

    rules = load("michigan")
    pack = list(rules.deck.cards())
    ledger = Ledger.open(3, tuple(s.name for s in rules.board), 50)
    state = start_deal(rules, 3, 0, ledger, pack)[0]
    two, three = Card("2", "♣"), Card("3", "♣")
    assert state.hand(1)[:1] == (two,) and three in state.hand(2)
    for table in (FOLLOWERS, ORACLE_FOLLOWERS):
        assert {k: row(state, three) for k, row in table.items()} == {"owner": 2, "turn": 2}
    loc = [z3.IntVal(s) for s in (1, 2, 0)]
    assert {k: z3.simplify(row(loc, 1)).as_long() for k, row in FOLLOW_SEATS.items()} == {
        "owner": 2, "turn": 2}


def test_a_new_widow_visibility_or_cut_fails_naming_each_back_end() -> None:
    faults = missing_rows("widow visibility", (*KINDS["widow visibility"].members(), "peeked"))
    assert sorted(b.split(" (")[0] for b in faults) == ["docs matrix", "printer"]
    faults = missing_rows("cut", (*KINDS["cut"].members(), "dealer"))
    assert sorted(b.split(" (")[0] for b in faults) == ["printer"]


def test_a_new_lead_choice_or_split_fails_naming_each_back_end() -> None:
    faults = missing_rows("lead choice", (*KINDS["lead choice"].members(), "highest"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "compiled engine", "compiled kernel", "conformance mutants",
        "conformance pins", "printer", "reference engine", "z3 model"]
    faults = missing_rows("split", (*KINDS["split"].members(), "dealer"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "builder", "conformance mutants", "reference engine", "verifier"]


def test_each_mutant_puts_in_the_member_its_rule_names() -> None:
    # The conformance mutants' tables, by hand from their rules: the dealer and the player on
    # their left swap the first lead (spec §6.1); the restart goes to the stopper's left, and to
    # the stopper under 'next player' (§6.4); a rule barring the stopped suit restarts in any
    # suit, the others in the stopped one (§6.4).
    from boodle.conformance.mutants import FIRST_LEADERS, RESTART_SCOPES, RESTARTERS

    assert {k: v for k, v in FIRST_LEADERS.items() if k != v} == {
        "dealer": "left of dealer", "left of dealer": "dealer"}
    assert {k for k, v in RESTARTERS.items() if v == "last player"} == {"next player"}
    assert {k for k, v in RESTART_SCOPES.items() if v == "chosen suit"} == {
        "other suit", "opposite colour"}


def test_a_penalty_is_charged_at_a_pass_or_at_a_lead_alike_in_facts_oracle_and_pins() -> None:
    # Spec §6.8: 'cannot lead' at a pass, 'lead not lowest' at a lead.
    from boodle.conformance.generate import PASS_FAULT_PINS
    from boodle.language.kind_facts import FAULT_FACTS
    from boodle.testing import FINED_AT_LEAD

    assert {f: r.at_pass for f, r in FAULT_FACTS.items()} == {
        "cannot lead": True, "lead not lowest": False}
    assert {f: not at_lead for f, at_lead in FINED_AT_LEAD.items()} == {
        f: r.at_pass for f, r in FAULT_FACTS.items()}
    assert {f for f, pin in PASS_FAULT_PINS.items() if pin} == {"cannot lead"}


def test_only_a_lowest_lead_ranks_and_only_an_exact_card_is_the_whole_rule_in_each_back_end(
        ) -> None:
    # Spec §6.1, §6.4, §6.8: 'lowest …' allows only the lowest allowed card (so a lead that is
    # not may be fined under 'penalty: lead not lowest'); 'any …' every allowed card; a card
    # ('holder of 7♦') names the one lead.  The oracle leaves an exact card to the engine.
    from boodle.engine.leads import CHOICES
    from boodle.testing import CHOSEN_BY_RANK
    from boodle.verify.lead_terms import CHOICE_TERMS

    ranked = {"lowest": True, "any": False, "card": False}
    assert {c: r.ranked for c, r in CHOICES.items()} == ranked
    assert {c: r.ranked for c, r in CHOICE_TERMS.items()} == ranked
    assert {c: r.exact for c, r in CHOICES.items()} == {"lowest": False, "any": False,
                                                       "card": True}
    assert CHOSEN_BY_RANK == {"lowest": True, "any": False, "card": None}


def test_each_lead_choice_allows_the_cards_spec_6_4_says() -> None:
    # Michigan's deck (2 low … A high): a hand of 5♣ 9♣ 3♦ under scope 'all' allows 3♦ alone
    # for 'lowest', all three for 'any', and for the card 9♣ just that card (none if unheld).
    from boodle.engine.leads import CHOICES
    from boodle.language.cards import parse_card
    from boodle.language.model import LeadRule

    rules = load("michigan")
    hand = tuple(c for c in rules.deck.cards() if str(c) in {"5♣", "9♣", "3♦"})
    led = {c: row.options(rules, hand, LeadRule("left of dealer", c, "all",
                                                 card=parse_card("9♣")), None, False)
           for c, row in CHOICES.items()}
    assert {c: set(map(str, cards)) for c, cards in led.items()} == {
        "lowest": {"3♦"}, "any": {"5♣", "9♣", "3♦"}, "card": {"9♣"}}


def test_a_new_widow_sale_mode_fails_naming_each_back_end() -> None:
    # Spec §5.4: how the widow is sold is a table in the engine, the compiled engine, the
    # oracle and the printer (the z3 model leaves it out: feature 'widow sale'), not a
    # comparison with 'sale' that reads a new mode as an auction.
    faults = missing_rows("widow sale mode", (*KINDS["widow sale mode"].members(), "lottery"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "compiled engine", "printer", "reference engine"]


def test_the_compiled_widow_sale_reads_the_rules_of_spec_5_4_from_its_tables() -> None:
    # Spec §5.4: a sale goes once round (the dealer does not buy); an auction is bid for in
    # rounds; 'high bidder: binds' knocks the widow down at once, 'may withdraw' does not.
    from boodle.compiled.widow import KNOCKED_DOWN, SOLD_ONCE_ROUND

    assert SOLD_ONCE_ROUND == {"sale": True, "auction": False}
    assert KNOCKED_DOWN == {"binds": True, "may be withdrawn": False}


def test_a_sale_is_bought_and_goes_once_round_an_auction_is_bid_for_in_rounds() -> None:
    # Spec §5.4: a sale is offered from the dealer's left to the dealer's right and taken by
    # a buy; a pass hands it on.  An auction includes the dealer (no 'dealer:' chance of
    # their own), is taken by a bid, and a pass leaves it.
    from boodle.engine.stages.widow import MODES
    from boodle.engine.state import BidMove, BuyMove, SaleState
    from boodle.testing import BID_IN_ROUNDS

    assert {m: r.move for m, r in MODES.items()} == {"sale": BuyMove, "auction": BidMove}
    assert {m: r.dealer_bids for m, r in MODES.items()} == BID_IN_ROUNDS == {
        "sale": False, "auction": True}
    offer = SaleState("offer")
    assert MODES["sale"].passed(offer, 2) == SaleState("offer", 1)
    assert MODES["auction"].passed(offer, 2) == SaleState("offer", 0, frozenset({2}))


def test_a_new_poker_opener_fails_naming_each_back_end() -> None:
    faults = missing_rows("poker opener", (*KINDS["poker opener"].members(), "high hand"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "compiled engine", "compiled kernel", "printer", "reference engine"]


def test_the_betting_opens_where_spec_8_3_says_alike_in_each_engine() -> None:
    # Spec §8.3: four players, dealer 3: 'opener: dealer' opens at seat 3, the default (left
    # of dealer) at seat 0.
    from bet_probe import bet_probe
    from boodle.compiled.kernel import OPENER_CODES
    from boodle.compiled.tables import OPENERS as COMPILED
    from boodle.engine import start_deal
    from boodle.engine.ledger import Ledger
    from boodle.engine.stages.poker import OPENERS

    rules = bet_probe("bets: 1 chip")
    state, _ = start_deal(rules, 4, 3, Ledger((20,) * 4, (("kitty", 0), ("pot", 0))),
                          deck_order=rules.deck.cards())
    by_hand = {"dealer": 3, "left of dealer": 0}
    assert {k: row(state) for k, row in OPENERS.items()} == by_hand
    assert {k: row(3, 4) for k, row in COMPILED.items()} == by_hand
    assert {k: (3 + code) % 4 for k, code in OPENER_CODES.items()} == by_hand


def test_only_the_widows_share_is_an_ante_of_its_own_reason() -> None:
    # Spec §4 'widow antes': the dealer pays the widow's share, marked as such in the ledger.
    from boodle.engine.stages.antes import ANTE_REASONS

    assert {p for p, why in ANTE_REASONS.items() if why != "ante"} == {"widow"}
    assert ANTE_REASONS["widow"] == "ante (widow's share)"


def test_a_new_chip_mode_fails_naming_each_back_end() -> None:
    faults = missing_rows("chips", (*KINDS["chips"].members(), "rounded"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "compiled kernel", "printer", "reference engine", "verifier", "verifier"]


def test_a_shared_section_splits_as_spec_9_says_alike_in_engine_and_verifier() -> None:
    # Spec §9: 5 chips shared 2 ways: 'chips whole' gives 2 each and leaves 1 on the section;
    # 'chips exact' gives 5/2 each and leaves nothing.
    from fractions import Fraction

    from boodle.compiled.kernel import WHOLE_CHIPS
    from boodle.engine.shares import CHIP_SPLITS
    from boodle.verify.own_rules import CHIP_SHARES, REMAINDER_STAYS

    by_hand = {"whole": (2, 1), "exact": (Fraction(5, 2), 0)}
    assert {k: row(5, 2) for k, row in CHIP_SPLITS.items()} == by_hand
    assert {k: row(Fraction(5, 2)) for k, row in CHIP_SHARES.items()} == {
        k: share for k, (share, _) in by_hand.items()}
    assert REMAINDER_STAYS == WHOLE_CHIPS == {"whole": True, "exact": False}


def test_a_new_seating_fails_naming_each_back_end() -> None:
    faults = missing_rows("seating", (*KINDS["seating"].members(), "by cut"))
    assert sorted(b.split(" (")[0] for b in faults) == ["printer", "reference engine",
                                                        "verifier"]


def test_only_a_redrawn_seating_draws_the_seats_again_alike_in_session_and_verifier() -> None:
    # Spec §10: 'seating: redrawn each deal' draws the seats before every deal but the
    # first; 'fixed' keeps them, and the verifier names the redraw only for the former.
    from boodle.session.run import REDRAWS
    from boodle.verify.verifier import SEATING_GAPS

    assert REDRAWS == {"fixed": False, "redrawn each deal": True}
    assert {k: bool(words) for k, words in SEATING_GAPS.items()} == REDRAWS


def test_only_a_drawn_section_is_drawn_and_only_a_same_suit_set_is_of_any_one_suit() -> None:
    # Spec §3: 'drawn from second pack' binds a card at the session's start; a 'same suit'
    # set is its ranks in any one suit (so the widow may hold it, spec §5.2 'blocks sets').
    from boodle.session.second_pack import DRAWN
    from boodle.testing import ONE_SUIT_SETS
    from boodle.verify import own_rules

    assert {k for k, drawn in DRAWN.items() if drawn} == {"drawn"}
    assert own_rules.DRAWN == DRAWN
    assert {k for k, one in ONE_SUIT_SETS.items() if one} == {"same suit"}
    assert own_rules.ONE_SUIT_SETS == ONE_SUIT_SETS


def test_the_oracles_widow_share_and_last_word_are_the_rules_of_spec_4_and_5_4() -> None:
    # Spec §4 'widow antes': only a 'widow' line is paid on the widow's behalf; spec §5.4:
    # only 'high bidder: may withdraw' gives the highest bidder a last word.
    from boodle.testing import FOR_THE_WIDOW, LAST_WORD

    assert {p for p, widow in FOR_THE_WIDOW.items() if widow} == {"widow"}
    assert LAST_WORD == {"binds": False, "may be withdrawn": True}


def test_a_boodle_is_claimed_card_by_card_a_set_whole_a_kitty_or_pot_by_no_card() -> None:
    # Spec §3: a boodle's card alone claims it; a set needs all its cards; a kitty and a pot
    # are paid by no card, and going out pays into the kitty (spec §7).
    from boodle.engine.holders import SECTION_KINDS

    assert {k: (r.claimed, r.per_card, r.whole_set, r.kitty)
            for k, r in SECTION_KINDS.items()} == {
        "boodle": (True, True, False, False), "set": (True, False, True, False),
        "kitty": (False, False, False, True), "pot": (False, False, False, False)}
    from boodle.verify.own_rules import PER_CARD, WHOLE_SET

    assert {k: r.per_card for k, r in SECTION_KINDS.items()} == PER_CARD
    assert {k: r.whole_set for k, r in SECTION_KINDS.items()} == WHOLE_SET
    from boodle.testing import SECTION_PAID_BY

    assert SECTION_PAID_BY == {"boodle": "one card", "set": "all its cards", "kitty": "",
                               "pot": ""}


def test_a_new_section_kind_fails_naming_each_back_end() -> None:
    faults = missing_rows("section kind", (*KINDS["section kind"].members(), "jackpot"))
    assert sorted(b.split(" (")[0] for b in faults) == [
        "Hypothesis oracle", "reference engine", "verifier", "verifier"]


def test_who_leads_by_holder_after_the_run_or_by_phase_alike_in_each_back_end() -> None:
    # Spec §6.1: 'holder of 7♦' leads by the card's holder; §6.4: 'last player' goes back to
    # the stopper, 'next player' to the player after them; §6.1: 'winner of phase P'.
    from boodle.compiled.tables import BACK_TO_STOPPER, HELD_BY
    from boodle.engine.leads import HELD_LEADS
    from boodle.testing import AFTER_THE_RUN, BY_HOLDER
    from boodle.verify.own_rules import PHASE_WON

    def only(*who: str) -> set[str]:
        return set(who)

    assert {w for w, r in HELD_LEADS.items() if r} == only("holder")
    assert {w for w, r in HELD_BY.items() if r} == only("holder")
    assert {w for w, r in BY_HOLDER.items() if r} == only("holder")
    assert {w for w, r in BACK_TO_STOPPER.items() if r} == only("last player")
    assert {w for w, r in AFTER_THE_RUN.items() if r} == only("last player", "next player")
    assert {w for w, r in PHASE_WON.items() if r} == only("phase winner")


def test_only_share_splits_a_tie_and_only_becomes_widow_is_played_compiled() -> None:
    # Spec §8.1: 'split: share' shares a tied section, the others give it to one seat; spec
    # §5.4: the compiled engine plays a taker's hand becoming the widow, and refuses the other.
    from boodle.compiled.tables import HAND_TO_WIDOW
    from boodle.verify.own_rules import SHARED

    assert {k for k, shared in SHARED.items() if shared} == {"share"}
    assert HAND_TO_WIDOW == {"becomes widow": True, "out of play": False}
