"""Broken rulesets, built directly as ``Ruleset`` objects, that the verifier must catch.

The builder refuses most of these faults when they are written in a rules
file (build.py ``check_exits``), so a file could not show that the
*verifier* finds them: each mutant here starts from the Michigan home
profile as the builder makes it and breaks one rule behind the builder's
back (or, for a fault no ruleset can express, through a
:class:`~boodle.verify.mutation.Mutation` of the model and of the engine's
transfers).  Issue 5, point 5.
"""

from __future__ import annotations

from dataclasses import replace

from boodle.language.cards import parse_card
from boodle.language.model import Deck, Fallback, LeadRule, Ruleset, StopsPhase
from boodle.language.variants import load
from boodle.verify.mutation import Mutation
from boodle.verify.verifier import Subject


def _michigan() -> Ruleset:
    return load("michigan")


def _phase(rs: Ruleset, **changes: object) -> Ruleset:
    phase = rs.phases[0]
    assert isinstance(phase, StopsPhase)
    return replace(rs, phases=(replace(phase, **changes),))  # type: ignore[arg-type]


def no_same_suit_fallback() -> Subject:
    """001 §05's 'if none: lead lowest of same suit' dropped: the restarter holding only the
    stopped suit has nothing to lead (the fallback repeats the restart rule)."""
    rs = _phase(_michigan(), fallback=Fallback("lead", LeadRule("last player", "lowest",
                                                                "other suit")))
    return Subject("mutant-no-fallback", replace(rs, name="mutant-no-fallback"))


def credit_without_debit() -> Subject:
    """Going-out payments credit the winner without debiting the opponents."""
    rs = replace(_michigan(), name="mutant-credit-only")
    return Subject(rs.name, rs, Mutation("credit only", "going-out payments are not debited",
                                         frozenset({"going out"})))


def pass_without_exit() -> Subject:
    """'if none: pass left' with no 'all pass' rule: when every player passes, nothing ends
    the round (the engine, told nothing, flips a colour no rule reads)."""
    rs = _phase(_michigan(), fallback=Fallback("pass"), all_pass="none")
    rs = replace(rs, name="mutant-pass-forever")

    def start_as(ruleset: Ruleset) -> Ruleset:
        # start_deal refuses a pass without exit; deals are started under the exit the
        # builder would ask for, and every move is then played under the mutant itself
        return _phase(ruleset, all_pass="end without winner")

    return Subject(rs.name, rs, Mutation("no all-pass exit", "passes go round for ever",
                                         start_as=start_as))


def boodle_card_stripped() -> Subject:
    """A stripped deck that removes a boodle card (A♥): its section can never be claimed."""
    rs = _michigan()
    deck = Deck(rs.deck.suits, rs.deck.ranks, frozenset({parse_card("A♥")}))
    return Subject("mutant-stripped-boodle", replace(rs, name="mutant-stripped-boodle",
                                                     deck=deck))


MUTANTS = {
    "progress": no_same_suit_fallback,
    "chip conservation": credit_without_debit,
    "termination": pass_without_exit,
    "well-formedness": boodle_card_stripped,
}
"""Each mutant by the property it must break."""
