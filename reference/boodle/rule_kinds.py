"""Rule kinds, and the table each back end keeps for each of them.

A *rule kind* is a ``Literal`` of the model (:mod:`boodle.language.model`) whose members
are rules a variant may choose: the lead scopes (``lowest of other suit``, ``lowest black``,
…).  Every back end that states the rules keeps, for each kind, one table keyed by the
literal — the builder's facts (:mod:`boodle.language.kind_facts`), the reference engine, the
z3 model of :mod:`boodle.verify`, the Hypothesis oracle of :mod:`boodle.testing` and the
printer of :mod:`boodle.language.printer` (the words that write it back); the
compiled engine reads the reference engine's rows — so that there is no ``if``/``elif``
chain with a default that would read a new member as some old one.  The z3 model and the oracle keep
tables of their own rather than calls into the engine's: they are independent statements
of the rules, and the verifier's worth is in comparing them.

:func:`missing_rows` names, per back end, the members its table lacks (and rows for members
that do not exist); ``tests/unit/test_rule_kinds.py`` requires none, so adding a member to a
kind fails, naming every back end, until each table has its row.  How to add a rule kind,
step by step, is in ``ARCHITECTURE.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import get_args

from boodle.language.features import FeatureKey
from boodle.language.model import (
    AllPass,
    Balance,
    BetLimit,
    ChipMode,
    Choice,
    ClaimRule,
    Cut,
    Discard,
    EndRule,
    EndTie,
    FallbackKind,
    Fault,
    FirstDealer,
    Follow,
    HighBid,
    Leftover,
    MisdealRule,
    Opener,
    PaidTo,
    Payer,
    Rotation,
    SaleMode,
    Scope,
    SeatingRule,
    SectionKind,
    ShortStack,
    Split,
    SuitRule,
    TieBreak,
    Trumps,
    TurnUpRule,
    Who,
    WidowPosition,
    WidowSets,
    WidowVisibility,
)


@dataclass(frozen=True)
class Table:
    """Where one back end keeps its rows for a kind: ``module.name``, a dict keyed by member."""

    backend: str
    module: str
    name: str
    excused: frozenset[str] = frozenset()
    """Members this back end does not run, each refused where it says what it supports."""

    def keys(self) -> set[str]:
        """The members this table has a row for, or excuses (imports the back end's module)."""
        table = getattr(importlib.import_module(self.module), self.name)
        return set(table) | self.excused


@dataclass(frozen=True)
class Kind:
    """A rule kind: its ``Literal`` and the tables that must cover it."""

    literal: object
    tables: tuple[Table, ...]

    def members(self) -> tuple[str, ...]:
        """The kind's members, in the order the model writes them."""
        return tuple(get_args(self.literal))


KINDS: dict[str, Kind] = {
    "lead scope": Kind(Scope, (
        Table("builder", "boodle.language.kind_facts", "SCOPE_FACTS"),
        Table("reference engine", "boodle.engine.leads", "SCOPES"),
        Table("reference engine (holder walk)", "boodle.engine.leads", "WALKS_THE_SUIT"),
        Table("z3 model", "boodle.verify.lead_terms", "SCOPE_TERMS"),
        Table("z3 model (holder walk)", "boodle.verify.lead_terms", "SUIT_WALKS"),
        Table("Hypothesis oracle", "boodle.testing", "SCOPE_PREDICATES"),
        Table("printer", "boodle.language.printer", "SCOPE_WORDS"),
        Table("conformance pins", "boodle.conformance.generate", "SCOPE_PINS"),
        Table("conformance mutants", "boodle.conformance.mutants", "RESTART_SCOPES"),
    )),
    "who leads": Kind(Who, (
        Table("builder", "boodle.language.kind_facts", "WHO_FACTS"),
        Table("reference engine", "boodle.engine.leads", "LEADERS"),
        Table("compiled engine", "boodle.compiled.deal", "LEADERS",
              excused=frozenset({"phase winner"})),  # compiled.tables.unsupported_features
        Table("reference engine (holder)", "boodle.engine.leads", "HELD_LEADS"),
        Table("compiled engine (holder)", "boodle.compiled.tables", "HELD_BY"),
        Table("compiled engine (restart)", "boodle.compiled.tables", "BACK_TO_STOPPER"),
        Table("verifier (phase winner)", "boodle.verify.own_rules", "PHASE_WON"),
        Table("Hypothesis oracle (restart)", "boodle.testing", "AFTER_THE_RUN"),
        Table("Hypothesis oracle (holder)", "boodle.testing", "BY_HOLDER"),
        Table("z3 model", "boodle.verify.lead_terms", "LEADER_BRANCHES"),
        Table("printer", "boodle.language.printer", "WHO_WORDS"),
        Table("conformance pins", "boodle.conformance.generate", "WHO_PINS"),
        Table("conformance mutants", "boodle.conformance.mutants", "FIRST_LEADERS"),
        Table("conformance mutants (restart)", "boodle.conformance.mutants", "RESTARTERS"),
    )),
    "split": Kind(Split, (  # the z3 model has no holding or poker phase (spec/verification.md)
        Table("builder", "boodle.language.kind_facts", "SPLIT_FACTS"),
        Table("reference engine", "boodle.engine.holders", "SPLITS"),
        Table("verifier", "boodle.verify.own_rules", "SHARED"),
        Table("Hypothesis oracle", "boodle.testing", "SPLIT_TAKERS"),
        Table("conformance mutants", "boodle.conformance.mutants", "SPLITS"),
    )),
    "widow sets": Kind(WidowSets, (
        Table("builder", "boodle.language.kind_facts", "WIDOW_SETS_FACTS"),
        Table("reference engine", "boodle.engine.holders", "WIDOW_SETS"),
        Table("reference engine (claims)", "boodle.engine.holders", "WIDOW_BLOCKS"),
        Table("compiled engine", "boodle.compiled.tables", "WIDOW_SETS"),
        Table("z3 model", "boodle.verify.eligibility", "WIDOW_SET_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "WIDOW_SET_BLOCKS"),
    )),
    "short stack": Kind(ShortStack, (
        Table("builder", "boodle.language.kind_facts", "SHORT_STACK_FACTS"),
        Table("reference engine", "boodle.engine.stages.antes", "SHORT_STACKS"),
        Table("compiled engine", "boodle.compiled.tables", "SHORT_STACKS"),
        Table("z3 model", "boodle.verify.eligibility", "SHORT_STACK_TERMS"),
        Table("verifier", "boodle.verify.own_rules", "SHORT_BY_SECTION"),
        Table("Hypothesis oracle", "boodle.testing", "SHORT_STACK_DUES"),
    )),
    # the z3 model does not model a widow sale step by step: the feature 'widow sale' names
    # the rule where it leaves it out
    "widow sale mode": Kind(SaleMode, (
        Table("reference engine", "boodle.engine.stages.widow", "MODES"),
        Table("compiled engine", "boodle.compiled.widow", "SOLD_ONCE_ROUND"),
        Table("Hypothesis oracle", "boodle.testing", "BID_IN_ROUNDS"),
        Table("printer", "boodle.language.printer", "OFFER"),
    )),
    "high bid": Kind(HighBid, (
        Table("builder", "boodle.language.kind_facts", "HIGH_BID_FACTS"),
        Table("reference engine", "boodle.engine.stages.widow", "CLOSES"),
        Table("compiled engine", "boodle.compiled.widow", "KNOCKED_DOWN"),
        Table("Hypothesis oracle", "boodle.testing", "HIGH_BID_CLOSES"),
        Table("Hypothesis oracle (last word)", "boodle.testing", "LAST_WORD"),
        Table("printer", "boodle.language.printer", "HIGH_BID"),
    )),
    "tie break": Kind(TieBreak, (
        Table("builder", "boodle.language.kind_facts", "TIE_FACTS"),
        Table("reference engine", "boodle.engine.leads", "TIES"),
        Table("compiled engine", "boodle.compiled.tables", "TIE_ORDERED"),
        Table("verifier (symmetry)", "boodle.verify.symmetry", "SUITS_ORDERED"),
        Table("z3 model", "boodle.verify.lead_terms", "TIE_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "TIE_ORDERS"),
        Table("conformance pins", "boodle.conformance.generate", "TIE_PINS"),
    )),
    "all pass": Kind(AllPass, (
        Table("builder", "boodle.language.kind_facts", "ALL_PASS_FACTS"),
        Table("reference engine", "boodle.engine.stages.stops", "ALL_PASSES"),
        Table("compiled engine", "boodle.compiled.tables", "ALL_PASSES"),
        Table("z3 model", "boodle.verify.actions", "ALL_PASS_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "ALL_PASS_ENDS"),
        Table("printer", "boodle.language.printer", "ALL_PASS"),
    )),
    "claims": Kind(ClaimRule, (
        Table("builder", "boodle.language.kind_facts", "CLAIM_FACTS"),
        Table("reference engine", "boodle.engine.stages.stops", "CLAIMS"),
        Table("compiled engine", "boodle.compiled.tables", "CLAIMS"),
        Table("z3 model", "boodle.verify.actions", "CLAIM_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "CLAIM_RULES"),
        Table("printer", "boodle.language.printer", "CLAIMS"),
        Table("conformance pins", "boodle.conformance.generate", "CLAIM_PINS"),
    )),
    "fallback": Kind(FallbackKind, (
        Table("builder", "boodle.language.kind_facts", "FALLBACK_FACTS"),
        Table("reference engine", "boodle.engine.leads", "FALLBACKS"),
        Table("compiled engine", "boodle.compiled.tables", "FALLBACKS"),
        Table("compiled engine (kernel)", "boodle.compiled.tables", "LEADS_INSTEAD"),
        Table("z3 model", "boodle.verify.lead_terms", "FALLBACK_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "FALLBACK_RULES"),
        Table("Hypothesis oracle (passes)", "boodle.testing", "PASSES_INSTEAD"),
        Table("printer", "boodle.language.printer", "FALLBACK"),
    )),
    "ante payers": Kind(Payer, (  # the compiled engine and verify.explicit read the engine's
        Table("builder", "boodle.language.kind_facts", "PAYER_FACTS"),
        Table("reference engine", "boodle.engine.stages.antes", "PAYERS"),
        Table("reference engine (reasons)", "boodle.engine.stages.antes", "ANTE_REASONS"),
        Table("z3 model", "boodle.verify.invariants", "PAYER_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "ANTE_PAYERS"),
        Table("Hypothesis oracle (widow's share)", "boodle.testing", "FOR_THE_WIDOW"),
        Table("printer", "boodle.language.printer", "PAYER"),
        Table("conformance pins", "boodle.conformance.generate", "PAYER_PINS"),
        Table("conformance mutants", "boodle.conformance.mutants", "PAYERS"),
    )),
    "session end": Kind(EndRule, (  # the simulator reads the session's rows; z3 has no session
        Table("builder", "boodle.language.kind_facts", "END_FACTS"),
        Table("reference engine", "boodle.session.run", "ENDS_AFTER_DEAL"),
        Table("verifier", "boodle.verify.wellformed", "END_WORDS"),
    )),
    "engine feature": Kind(FeatureKey, (  # boodle.language.features (issue 19, step 2)
        Table("reference engine", "boodle.engine.support", "SUPPORT"),
        Table("compiled engine", "boodle.compiled.tables", "SUPPORT"),
        Table("z3 model (stages)", "boodle.verify.verifier", "SYMBOLIC"),
        Table("z3 model (rules)", "boodle.verify.verifier", "MODELLED"),
    )),
    "suit rule": Kind(SuitRule, (  # which cards pay a boodle or set section (spec §3)
        Table("reference engine", "boodle.engine.holders", "PAYING_CARDS"),
        Table("compiled engine", "boodle.compiled.tables", "CLAIMED_BY"),
        Table("z3 model", "boodle.verify.actions", "SECTION_CLAIMS"),
        Table("z3 model (widow)", "boodle.verify.eligibility", "WIDOW_HOLDS"),
        Table("Hypothesis oracle", "boodle.testing", "HOLDS"),
        Table("printer (boodles)", "boodle.language.printer", "BOODLE"),
        Table("printer (sets)", "boodle.language.printer", "SET"),
        Table("conformance pins", "boodle.conformance.generate", "TRUMP_SECTION_PINS"),
        Table("reference engine (second pack)", "boodle.session.second_pack", "DRAWN"),
        Table("verifier (second pack)", "boodle.verify.own_rules", "DRAWN"),
        Table("verifier (one-suit sets)", "boodle.verify.own_rules", "ONE_SUIT_SETS"),
        Table("Hypothesis oracle (one-suit sets)", "boodle.testing", "ONE_SUIT_SETS"),
    )),
    "poker opener": Kind(Opener, (  # spec §8.3; the z3 model and the oracle bet nothing
        Table("reference engine", "boodle.engine.stages.poker", "OPENERS"),
        Table("compiled engine", "boodle.compiled.tables", "OPENERS"),
        Table("compiled kernel", "boodle.compiled.kernel", "OPENER_CODES"),
        Table("printer", "boodle.language.printer", "OPENER"),
    )),
    "bet limit": Kind(BetLimit, (  # spec §8.3; the compiled engine reads the engine's rows
        Table("builder", "boodle.language.kind_facts", "BET_LIMIT_FACTS"),
        Table("reference engine", "boodle.engine.stages.poker", "BET_SIZES"),
        Table("Hypothesis oracle", "boodle.testing", "BET_CEILINGS"),
        Table("printer", "boodle.language.printer", "BET_LIMIT"),
    )),
    "going-out payments": Kind(PaidTo, (
        Table("builder", "boodle.language.kind_facts", "PAID_TO_FACTS"),
        Table("reference engine", "boodle.engine.stages.stops", "PAID_TO"),
        Table("compiled engine", "boodle.compiled.tables", "PAID_TO"),
        Table("z3 model", "boodle.verify.actions", "PAID_TO_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "GOING_OUT_PAYEES"),
        Table("printer", "boodle.language.printer", "OUT_TO"),
        Table("conformance pins", "boodle.conformance.generate", "PER_CARD_PINS"),
    )),
    "widow position": Kind(WidowPosition, (  # spec §5.2; the oracle deals nothing itself,
        # but asks whether a widow is dealt
        Table("reference engine", "boodle.engine.stages.dealing", "WIDOW_PLACES"),
        Table("compiled engine", "boodle.compiled.tables", "WIDOW_RECEIVERS"),
        Table("verifier", "boodle.verify.own_rules", "WIDOW_TURNS"),
        Table("verifier (dealt)", "boodle.verify.own_rules", "WIDOW_DEALT"),
        Table("Hypothesis oracle", "boodle.testing", "WIDOW_DEALT"),
        Table("printer", "boodle.language.printer", "WIDOW_POSITION"),
        Table("conformance mutants", "boodle.conformance.mutants", "WIDOW_POSITIONS"),
    )),
    "rotation": Kind(Rotation, (  # spec §5.1; the simulator reads the session's rows
        Table("reference engine", "boodle.session.run", "ROTATION_STEPS"),
        Table("printer", "boodle.language.printer", "ROTATION"),
        Table("conformance mutants", "boodle.conformance.mutants", "ROTATIONS"),
    )),
    "widow discard": Kind(Discard, (  # spec §5.4
        Table("reference engine", "boodle.engine.stages.widow", "DISCARDS"),
        Table("compiled engine", "boodle.compiled.tables", "HAND_TO_WIDOW"),  # SALE_REFUSED
        Table("play-by-play", "boodle.engine.trace", "DISCARD_WORDS"),
        Table("printer", "boodle.language.printer", "DISCARD"),
    )),
    "first dealer": Kind(FirstDealer, (  # spec §5.1
        Table("reference engine", "boodle.session.run", "FIRST_DEALERS"),
        Table("simulator", "boodle.simulate.runner", "FIRST_DEALERS"),
        Table("simulator kernel", "boodle.simulate.kernel_sessions", "KERNEL_DRAWS"),
        Table("printer", "boodle.language.printer", "FIRST_DEALER"),
        Table("conformance pins", "boodle.conformance.generate", "FIRST_DEALER_PINS"),
    )),
    "trumps": Kind(Trumps, (  # spec §5.2
        Table("reference engine", "boodle.engine.stages.dealing", "TURN_UPS"),
        Table("compiled engine", "boodle.compiled.tables", "TRUMPS_TURNED"),
        Table("verifier", "boodle.verify.own_rules", "TURNED_UP"),
        Table("printer", "boodle.language.printer", "TRUMPS"),
    )),
    "turn-up": Kind(TurnUpRule, (  # spec §5.2; the compiled engine reads the engine's rows
        Table("builder", "boodle.language.kind_facts", "TURN_UP_FACTS"),
        Table("reference engine", "boodle.engine.stages.turn_up", "DEALER_TAKES"),
        Table("printer", "boodle.language.printer", "TURN_UP"),
        Table("Hypothesis oracle", "boodle.testing", "TURN_UP_PAYS"),
    )),
    "lead choice": Kind(Choice, (  # spec §6.1, §6.4
        Table("reference engine", "boodle.engine.leads", "CHOICES"),
        Table("compiled engine", "boodle.compiled.tables", "CHOICE_OPTIONS"),
        Table("compiled kernel", "boodle.compiled.kernel", "CHOICE_KINDS"),
        Table("z3 model", "boodle.verify.lead_terms", "CHOICE_TERMS"),
        Table("Hypothesis oracle", "boodle.testing", "CHOSEN_BY_RANK"),
        Table("printer", "boodle.language.printer", "CHOICE"),
        Table("conformance pins", "boodle.conformance.generate", "CHOICE_PINS"),
        Table("conformance mutants", "boodle.conformance.mutants", "LOOSE_CHOICES"),
    )),
    "chips": Kind(ChipMode, (  # spec §9: how a shared section's chips are split
        Table("reference engine", "boodle.engine.shares", "CHIP_SPLITS"),
        Table("compiled kernel", "boodle.compiled.kernel", "WHOLE_CHIPS"),
        Table("verifier", "boodle.verify.own_rules", "CHIP_SHARES"),
        Table("verifier (remainder)", "boodle.verify.own_rules", "REMAINDER_STAYS"),
        Table("printer", "boodle.language.printer", "CHIPS"),
    )),
    "seating": Kind(SeatingRule, (  # spec §10; the simulator and the referee read the session's
        Table("reference engine", "boodle.session.run", "REDRAWS"),
        Table("verifier", "boodle.verify.verifier", "SEATING_GAPS"),
        Table("printer", "boodle.language.printer", "SEATING"),
    )),
    "section kind": Kind(SectionKind, (  # spec §3: what pays a section, and how
        Table("reference engine", "boodle.engine.holders", "SECTION_KINDS"),
        Table("verifier (card by card)", "boodle.verify.own_rules", "PER_CARD"),
        Table("verifier (whole sets)", "boodle.verify.own_rules", "WHOLE_SET"),
        Table("Hypothesis oracle", "boodle.testing", "SECTION_PAID_BY"),
    )),
    "misdeal": Kind(MisdealRule, (  # spec §5.3
        Table("reference engine", "boodle.engine.api", "MISDEAL_AFTER_A_MOVE"),
        Table("printer", "boodle.language.printer", "MISDEAL"),
    )),
    "leftover": Kind(Leftover, (  # spec §10; the simulator reads the session's rows
        Table("reference engine", "boodle.session.run", "LEFTOVER_SPLITS"),
        Table("printer", "boodle.language.printer", "LEFTOVER"),
        Table("conformance pins", "boodle.conformance.generate", "LEFTOVER_PINS"),
        Table("conformance mutants", "boodle.conformance.mutants", "LEFTOVERS"),
    )),
    "session tie": Kind(EndTie, (  # spec §10; the simulator and boodle ledger read the session's
        Table("reference engine", "boodle.session.run", "TIE_DEALS"),
        Table("z3 model", "boodle.verify.session_model", "TIE_DEAL_TERMS"),
        Table("verifier", "boodle.verify.wellformed", "END_TIE_WORDS"),
        Table("simulator report", "boodle.simulate.report", "TIE_WORDS"),
        Table("docs matrix", "boodle.docs.pages", "TIE_CELL"),
        Table("printer", "boodle.language.printer", "TIES"),
        Table("conformance pins", "boodle.conformance.generate", "END_TIE_PINS"),
    )),
    "balance": Kind(Balance, (  # spec §9, §10: the players still in, payments capped or not
        Table("builder", "boodle.language.kind_facts", "BALANCE_FACTS"),
        Table("reference engine", "boodle.engine.stages.dealing", "BALANCES"),
        Table("verifier", "boodle.verify.own_rules", "ELIMINATES"),
        Table("Hypothesis oracle", "boodle.testing", "STILL_IN"),
        Table("printer", "boodle.language.printer", "BALANCE"),
    )),
    "follow": Kind(Follow, (  # spec §6.2; the compiled run loop has the owner play (a hot loop)
        Table("reference engine", "boodle.engine.stages.stops", "FOLLOWERS"),
        Table("reference engine (chains of follows)", "boodle.engine.stages.stops", "RUN_ON"),
        Table("z3 model", "boodle.verify.actions", "FOLLOW_SEATS"),
        Table("Hypothesis oracle", "boodle.testing", "FOLLOWERS"),
        Table("printer", "boodle.language.printer", "FOLLOW"),
        Table("conformance pins", "boodle.conformance.generate", "FOLLOW_PINS"),
    )),
    "widow visibility": Kind(WidowVisibility, (  # spec §5.2; no engine reads it
        Table("printer", "boodle.language.printer", "WIDOW_VISIBILITY"),
        Table("docs matrix", "boodle.docs.pages", "WIDOW_FACE_CELL"),
    )),
    "cut": Kind(Cut, (  # spec §5.1; a shuffle makes it immaterial to play: the rules text only
        Table("printer", "boodle.language.printer", "CUT"),
    )),
    "penalty fault": Kind(Fault, (  # the oracle's house rule fines a lead; §6.8
        Table("reference engine", "boodle.engine.leads", "FAULTS"),
        Table("compiled engine", "boodle.compiled.tables", "PASS_DUES"),
        Table("z3 model", "boodle.verify.lead_terms", "FAULT_TERMS"),
        Table("printer", "boodle.language.printer", "FAULT"),
        Table("builder", "boodle.language.kind_facts", "FAULT_FACTS"),
        Table("Hypothesis oracle", "boodle.testing", "FINED_AT_LEAD"),
        Table("conformance pins", "boodle.conformance.generate", "PASS_FAULT_PINS"),
    )),
}
"""Every rule kind that has tables, by name (spec §6.1, §6.4, §6.5 for the lead scopes; §6.1
for the tie rules of a lowest lead, whose compiled rendering reads the engine's rows; §8.1,
§8.2 for the split rules, which the compiled engine does not run: it refuses holding and poker
phases, :func:`boodle.compiled.tables.unsupported_features`; §5.2 for the widow's sets; §4 for
short stacks; §6.5 for what a round of passes does; §6.6 for the claims of a stops phase,
whose ``on holding`` the compiled engine refuses by its row's ``runs``; §6.5 for the ``if
none`` rule; §7 for where going out's payments go; §4 for who pays an ante line, whose
compiled rendering reads the engine's rows; §6.8 for what a penalty is charged for, whose
``lead not lowest`` the compiled engine refuses, ``unsupported_features``; §8.3 for the bet
limits of a betting round)."""


def missing_rows(kind: str, members: Iterable[str] | None = None) -> dict[str, str]:
    """What each back end's table for ``kind`` lacks, or has too many, against ``members``
    (default: the kind's ``Literal``): ``{backend: "no row for 'x'; a row for 'y', no such
    member"}``, only for back ends with a fault.  Raises :class:`KeyError` for an unknown
    kind.  Importing :mod:`boodle.testing` needs Hypothesis and :mod:`boodle.verify` z3."""
    spec = KINDS[kind]
    wanted = set(spec.members() if members is None else members)
    faults: dict[str, str] = {}
    for table in spec.tables:
        have = table.keys()
        said = [f"no row for {m!r}" for m in sorted(wanted - have)]
        said += [f"a row for {m!r}, no such member" for m in sorted(have - wanted)]
        if said:
            faults[f"{table.backend} ({table.module}.{table.name})"] = "; ".join(said)
    return faults
