"""Running every check on a variant: the static checks, z3 on the full deck, the exhaustive
search on reduced decks, and bounded model checking to classify a failed induction.

:func:`verify` returns :class:`Result` records, one per (variant, player
count, property, method).  A property is **proven** when z3 proved it for
that player count (unbounded, full deck), **checked** when the exhaustive
search saw every reachable state of the reduced deck, a
**counterexample** when either found one, **unknown** when a z3 query ran
out of time, **incomplete** when the exhaustive search reached its bound
(``Options.max_states``) before it saw every deal (or was not begun, the deck
having more deals than the bound), and **not covered** when a method cannot
model the variant (said with the reason).  The ``engine = model`` row
(:mod:`boodle.verify.engine_model`) compares the engine with the z3 model on the exhaustive
search's states (method ``exhaustive``) and on random deals at every allowed count (method
``engine``); a disagreement is a counterexample, and the z3 "proven" of that count becomes
"unknown" (:func:`_distrust_model`); a failed induction is a counterexample only when bounded
model checking reaches it from the start of play (:func:`_settle`).  Rulesets whose stops
phase, deck and board are the same (names, labels, antes and the stages before play aside)
share their step-by-step proofs of the chip conjuncts (:func:`_key`), and rulesets whose
cards move alike (:func:`_dynamics_key`) share every other step-by-step proof; Init is
checked for each.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, cast

from boodle.engine.support import pending_features
from boodle.language.cards import Card
from boodle.language.features import Feature, FeatureKey, Refusal, refused
from boodle.language.model import (
    ClaimRule,
    Deck,
    HoldingPhase,
    LeadRule,
    PokerPhase,
    Ruleset,
    ShortStack,
    StopsPhase,
)
from boodle.verify.actions import CLAIM_TERMS
from boodle.verify.bmc import BmcResult, bmc
from boodle.verify.cex import (
    Counterexample,
    model_state_json,
    model_state_lines,
    model_steps_lines,
)
from boodle.verify.concrete import ModelOracle
from boodle.verify.eligibility import SHORT_STACK_TERMS, WIDOW_SET_TERMS
from boodle.verify.engine_model import Comparer, check_random, possible_kinds
from boodle.verify.explicit import ExplicitResult, check_deals
from boodle.verify.induction import (
    Finding,
    Prover,
    System,
    check_consecution,
    check_exclusive,
    check_init,
    check_progress,
    check_ranking,
)
from boodle.verify.invariants import exact_start
from boodle.verify.lead_terms import passes
from boodle.verify.mutation import NO_MUTATION, Mutation
from boodle.verify.own_rules import WIDOW_DEALT, seats_may_be_out
from boodle.verify.reduce import ReductionError, reduce
from boodle.verify.replay import replay
from boodle.verify.session_model import TIE_DEAL_TERMS, prove_session_end
from boodle.verify.wellformed import session_end, well_formed

if TYPE_CHECKING:
    from boodle.verify.proof_cache import ProofCache

__all__ = ["MODELLED", "PROPERTIES", "SYMBOLIC", "Options", "Result", "Subject", "symbolic_gaps",
           "unmodelled", "verify"]

PROPERTIES = ("chip conservation", "card conservation", "termination", "progress",
              "well-formedness", "session end", "engine = model")
"""The properties of issue 5, in the order the report prints them, then the check that the
engine that plays is the model z3 proved things about (issue 16): its row says how many
states were compared and which transition kinds were never exercised."""

ENGINE_MODEL = "engine = model"
"""The property of :mod:`boodle.verify.engine_model`."""


@dataclass(frozen=True)
class Subject:
    """What to verify: a ruleset under a ``name``, with an optional fault injected."""

    name: str
    ruleset: Ruleset
    mutation: Mutation = NO_MUTATION


@dataclass(frozen=True)
class Options:
    """Bounds of a run.

    ``players``: player counts to check (default: every allowed count);
    ``decks``: reduced decks (suits, ranks) tried in order until one can
    carry the variant's named cards; ``explicit_players``: player counts
    searched exhaustively; ``bmc_depth`` / ``bmc_seconds``: the bounded
    search after a failed induction, per deck; ``max_states``: the exhaustive
    search's bound per variant and player count (``None``: none; ``boodle verify``
    sets one), past which its properties are "incomplete".  ``engine``: compare the engine
    with the model (:mod:`boodle.verify.engine_model`) on every state of the exhaustive
    search and, at every allowed count, on ``engine_deals`` random deals of the full deck
    and up to ``coverage_deals`` random deals of each small deck chosen to reach the rarer
    transitions (an all-pass, a colour flip …), stopping early once every kind is seen.
    ``engine_states``: in one exhaustive search, every stops-phase state is compared up to
    this many, then only those whose moves make a combination of kinds compared fewer than
    20 times (``None``: every state; the report says how many were left out).
    """

    players: tuple[int, ...] | None = None
    decks: tuple[tuple[int, int], ...] = ((2, 3), (2, 4), (3, 4))
    explicit_players: tuple[int, ...] = (2, 3, 4)
    z3: bool = True
    exhaustive: bool = True
    bmc_depth: int = 8
    bmc_seconds: float = 30.0
    max_states: int | None = None
    engine: bool = True
    engine_deals: int = 1
    coverage_deals: int = 15
    engine_states: int | None = 500


@dataclass
class Result:
    """One cell of the report: ``status`` of ``prop`` for ``variant`` with ``players``
    (0: every count) by ``method`` (``z3``, ``exhaustive``, ``static``).

    ``seconds``: the wall time of the run that produced this result, the same for every
    property that run checked (one exhaustive search checks all five at once; z3 shares its
    proofs between properties and variants): a property's own time is not measured.  In
    ``--json`` it is ``run_seconds``.
    """

    variant: str
    players: int
    prop: str
    method: str
    status: str
    detail: str = ""
    seconds: float = 0.0
    states: int = 0
    deck: str = ""
    trace: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    unexercised: tuple[str, ...] = ()
    """(``engine = model`` rows) the transition kinds the rules can make that no transition
    of that run exercised."""
    engine_alone: dict[str, int] = field(default_factory=dict)
    """(``engine = model`` rows) states checked on the engine alone, by why (no model
    state: a stage z3 does not model, an eliminated seat)."""

    def to_json(self) -> dict[str, Any]:
        """Everything, for ``boodle verify --json``."""
        return {"variant": self.variant, "players": self.players, "property": self.prop,
                "method": self.method, "status": self.status, "detail": self.detail,
                "run_seconds": round(self.seconds, 3), "states": self.states, "deck": self.deck,
                "trace": self.trace, **({"counterexample": self.data} if self.data else {})}


def _other_phases(ruleset: Ruleset, found: Sequence[Feature]) -> list[str]:
    betting = {p.name for p in ruleset.phases if isinstance(p, PokerPhase) and p.betting}
    return [f"phase {f.detail}" + (" with its betting round" if f.detail in betting else "")
            for f in found]


def _claims_at_start(ruleset: Ruleset, found: Sequence[Feature]) -> list[str]:
    first = found[0].detail  # the first stops phase's, the one z3 models
    return [f"claims {first}"] if CLAIM_TERMS[cast(ClaimRule, first)].at_start else []


SYMBOLIC: dict[FeatureKey, Refusal | None] = {
    "chosen antes": lambda rs, found: ["chosen-boodle antes"],
    "trump turn-up": lambda rs, found: ["the trump turn-up"],
    "widow sale": lambda rs, found: [f"the widow {f.detail}" for f in found],
    "other phases": _other_phases,
    "claims": _claims_at_start,
    # stated step by step (or, for the rest, a rule of the stops phase: MODELLED)
    "elimination": None,  # a ghost per seat: out seats hold nothing, are skipped (spec §10)
    "few players still in": None,  # n seats, all but two out: the same ghosts
    "no stops phase": None,
    "several stops phases": None,
    "trump sections without trumps": None,
    "drawn boodles": None,  # bound before play: the drawn cards are the layout's
    "seats redrawn": None,  # between deals: a deal at any seating is a deal z3 models
    "widow sets": None,  # read in the places at each claim (verify.eligibility)
    # the antes are a stage: under 'section by section' z3 starts play from any seats'
    # eligibility they can leave (verify.eligibility.eligible_axioms), not from the ledger
    "short stack": lambda rs, found: [
        f"the antes paid {f.detail} (play starts from any eligibility they can leave)"
        for f in found if SHORT_STACK_TERMS[cast(ShortStack, f.detail)].tracked],
    "going out without ending the deal": None,
    "lead by a phase winner": None,
    "first lead after a run": None,
    "lead fallback without a rule": None,
    "passes without an all-pass rule": None,
    "penalty other than cannot lead": None,
}
"""The stages z3 does not model step by step, by feature (:mod:`boodle.language.features`):
it starts play from any state they leave.  ``None``: modelled, or not a stage."""


def symbolic_gaps(ruleset: Ruleset) -> list[str]:
    """The stages z3 does not model step by step (it starts play from any state they leave),
    as :data:`SYMBOLIC` says."""
    return refused(SYMBOLIC, ruleset)


MODELLED: dict[FeatureKey, Refusal | None] = {
    "several stops phases": lambda rs, found: ["several stops phases"],
    "going out without ending the deal": lambda rs, found: [
        "going out without ending the deal" for _ in found],
    # the rest: modelled, or a stage (SYMBOLIC), or refused before play by every engine
    "no stops phase": None,
    "other phases": None,
    "widow sale": None,
    "trump sections without trumps": None,
    "trump turn-up": None,
    "drawn boodles": None,
    "chosen antes": None,
    "elimination": None,
    "few players still in": None,
    "seats redrawn": None,  # spec §10, between deals: not a rule of the stops phase
    "claims": None,
    "short stack": None,  # who may take a section: verify.eligibility.SHORT_STACK_TERMS
    "widow sets": None,  # a set the widow blocks: verify.eligibility.WIDOW_SET_TERMS
    "lead by a phase winner": None,
    "first lead after a run": None,
    "lead fallback without a rule": None,
    "passes without an all-pass rule": None,
    "penalty other than cannot lead": None,
}
"""The rules of the stops phase the z3 model does not have, by feature
(:mod:`boodle.language.features`): z3 reports the variant "not covered" rather than prove
something about another game.  ``None``: modelled, or not a rule of the stops phase."""


SEATING_GAPS: dict[str, str] = {
    "fixed": "",
    "redrawn each deal": ", the seats drawn again before each deal",
}
"""What each seating adds to the session chips the z3 model leaves out (spec §10): a
redraw of the seats before each deal; fixed seats nothing."""


def unmodelled(ruleset: Ruleset) -> list[str]:
    """Rules of the stops phase the z3 model does not have (the engine may play them), as
    :data:`MODELLED` says."""
    return refused(MODELLED, ruleset)


def _key(subject: Subject, n: int) -> tuple[Any, ...]:
    """Two subjects with equal keys step alike in the stops phase, chips included (names,
    labels, antes and the stages before play aside; who may take a section, spec §4, and the
    sets the widow blocks, §5.2, included): the consecution findings of their
    chip conjuncts are the same (the rest is shared more widely, :func:`_dynamics_key`).
    Init is checked per subject."""
    rs = subject.ruleset
    board = tuple(replace(s, label="") for s in rs.board)
    stops = tuple(replace(p, label="") for p in rs.phases if isinstance(p, StopsPhase))
    return (rs.deck, board, stops, rs.session.negative, rs.deal.trumps, rs.chips,
            rs.short_stack, rs.deal.widow_sets, n, subject.mutation,
            rs.antes if SHORT_STACK_TERMS[rs.short_stack].tracked else ())  # who owes what


def _dynamics_key(subject: Subject, n: int) -> tuple[Any, ...]:
    """Two subjects with equal keys move cards and run the stops phase alike: every finding
    but the chip conjuncts' consecution is the same (spec/verification.md, "Shared proofs").

    Those checks never read a chip: no guard, post-state card place or control
    field depends on a balance, and the chip conjuncts they assume constrain
    only chip variables, which nothing else mentions, and are satisfiable
    alone.  So the key holds what the moves read: the deck, the lead rules
    and fallback, following, stops at the top, the all-pass rule, whether
    going out ends the deal, which penalties fine a lead and forfeit boodles
    (not their amounts), the trump rule (the ghosts' ranges), whether seats may be
    eliminated (the ``gone`` ghosts, spec §10), the player count and the mutation.  Boards,
    antes, payments and bonuses are left out.

    Ranks enter by position in the deck's rank order, not by name
    (:func:`_deck_shape`): the model numbers cards by suit and rank position,
    and no check reads a rank's name, so an ace-low deck and an ace-high one
    give the very same checks (Newmarket and Michigan).
    """
    rs = subject.ruleset
    deck = rs.deck
    stops = [p for p in rs.phases if isinstance(p, StopsPhase)]
    moves = tuple((_rule_shape(p.first_lead, deck), _rule_shape(p.restart, deck),
                   p.fallback.kind, _rule_shape(p.fallback.rule, deck), p.follow,
                   p.stop_at_top, p.all_pass, p.going_out.ends_deal,
                   tuple((pen.fault, pen.forfeit_boodles) for pen in p.penalties))
                  for p in stops)
    return (_deck_shape(deck), moves, rs.deal.trumps, seats_may_be_out(rs), n,
            subject.mutation)


def _card_shape(deck: Deck, card: Card | None) -> tuple[str, int] | None:
    """A card as (suit, position of its rank in the deck's rank order)."""
    return None if card is None else (card.suit, deck.rank_index(card))


def _deck_shape(deck: Deck) -> tuple[Any, ...]:
    """The deck as the model sees it: the suits in order, how many ranks, the cards removed
    (by :func:`_card_shape`)."""
    return (deck.suits, len(deck.ranks),
            frozenset(_card_shape(deck, c) for c in deck.removed))


def _rule_shape(rule: LeadRule | None, deck: Deck) -> tuple[Any, ...] | None:
    """A lead rule's fields (but its source span), its card as :func:`_card_shape` gives it."""
    if rule is None:
        return None
    return tuple(_card_shape(deck, rule.card) if f.name == "card" else getattr(rule, f.name)
                 for f in fields(rule) if f.name != "span")


@dataclass
class _Run:
    options: Options
    cache: dict[tuple[Any, ...], list[Finding]] = field(default_factory=dict)
    live: Callable[[str], None] | None = None
    oracles: dict[tuple[Any, ...], ModelOracle] = field(default_factory=dict)
    """Compiled models by :func:`_oracle_key` (variants whose stops phase, deck and board are
    the same share one)."""


def _oracle_key(ruleset: Ruleset, n: int, mutation: Mutation) -> tuple[Any, ...]:
    """Two rulesets with equal keys have the same model (names and labels aside): the deck,
    the board, the stops phase, the chip rules, the trump rule, who may take a section (spec
    §4) and the sets the widow blocks (§5.2), the player count, the fault."""
    board = tuple(replace(s, label="") for s in ruleset.board)
    stops = tuple(replace(p, label="") for p in ruleset.phases if isinstance(p, StopsPhase))
    return (ruleset.deck, board, stops, ruleset.session.negative, ruleset.deal.trumps,
            ruleset.deal.widow_position, ruleset.chips, ruleset.short_stack,
            ruleset.deal.widow_sets, n, mutation)


def _comparer(run: _Run, ruleset: Ruleset, n: int, mutation: Mutation) -> Comparer:
    """A :class:`Comparer` of ``ruleset`` at ``n`` players, its model compiled once per
    :func:`_oracle_key`."""
    key = _oracle_key(ruleset, n, mutation)
    oracle = run.oracles.get(key)
    if oracle is None:
        oracle = run.oracles[key] = ModelOracle(System(ruleset, n, mutation))
    return Comparer(oracle, ruleset, mutation)


def _model_gap(ruleset: Ruleset) -> str | None:
    """Why the model cannot be compared with the engine for ``ruleset`` (``None``: it can)."""
    if not any(isinstance(p, StopsPhase) for p in ruleset.phases):
        return "no stops phase"
    pending = pending_features(ruleset)
    lacking = [*pending, *[u for u in unmodelled(ruleset) if not any(u in p for p in pending)]]
    if lacking:
        return "the z3 model does not have " + ", ".join(lacking)
    return None


Step = tuple[int, str, int]
"""One run of a method: (index of the subject, ``"z3"`` or ``"exhaustive"``, player count)."""


def verify(subjects: list[Subject], options: Options = Options(),
           cache: dict[tuple[Any, ...], list[Finding]] | None = None,
           progress: Callable[[str], None] | None = None,
           live: Callable[[str], None] | None = None, jobs: int = 1,
           worker_live: Callable[[str], None] | None = None,
           proofs: ProofCache | None = None) -> list[Result]:
    """Every check on every subject; see the module docstring.  ``cache`` keeps the z3
    findings shared by subjects that step alike (:func:`_key`) across calls; ``progress``,
    when given, is called with one line per variant, player count and method as each
    finishes (``boodle verify`` prints them on stderr); ``live``, when given, with a status
    line every few thousand states of an exhaustive search (states, states per wall and per
    CPU second, deals done of all, time), for a progress display.

    ``jobs`` > 1: the runs (a method at a player count) are shared out over that many
    processes (:func:`_parallel`), and the results are the same rows in the same order as
    serially (times aside).  The subjects must then be picklable; ``cache`` is not used,
    ``progress`` is called in this process as runs finish, in the order they finish, and
    ``worker_live`` (picklable: a module-level function), not ``live``, is called in the
    worker processes with their searches' status lines.

    ``proofs``: the proof cache (:mod:`boodle.verify.proof_cache`): the runs it has are
    read back, not made (their progress lines say so), and the runs made are kept in it.
    """
    plan = [_steps(subject, options) for subject in subjects]
    cached = {} if proofs is None else proofs.read(subjects, plan, options)
    for (k, method, n), got in cached.items():
        if progress is not None:
            progress(_progress_line(k, len(subjects), subjects[k], method, n, got)
                     + " from the proof cache")
    todo = [(uncovered, [(m, n) for m, n in steps if (k, m, n) not in cached])
            for k, (uncovered, steps) in enumerate(plan)]
    if jobs > 1 and sum(len(steps) for _, steps in todo) > 1:
        done = _parallel(subjects, todo, options, jobs, progress, worker_live)
        if proofs is not None:
            proofs.write(subjects, done, options)
    else:
        run = _Run(options, {} if cache is None else cache, live)
        done = {}
        for k, (subject, (_, steps)) in enumerate(zip(subjects, todo, strict=True)):
            for method, n in steps:
                done[(k, method, n)] = got = _step(run, subject, method, n)
                if proofs is not None:  # kept at once: an interrupted run keeps what it made
                    proofs.put(subject, options, method, n, got)
                if progress is not None:
                    progress(_progress_line(k, len(subjects), subject, method, n, got))
    done |= cached
    out: list[Result] = []
    for k, (subject, (uncovered, steps)) in enumerate(zip(subjects, plan, strict=True)):
        mine = [*_static(subject), *_uncovered(subject, uncovered, options)]
        for method, n in steps:
            mine += done[(k, method, n)][0]
        out += _not_modelled(subject, _session_proof(subject, _distrust_model(mine), options),
                             options)
    return out


NOT_MODELLED = "not modelled"
"""The static row that names what z3 does not model step by step and what checked it."""


def _not_modelled(subject: Subject, results: list[Result], options: Options) -> list[Result]:
    """The ``not modelled`` row (issue 16, "model the rest"): the stages and rules z3 has no
    step-by-step model of (:func:`symbolic_gaps`; the session's chips across deals: the
    leftover split, the tie deal, the seats drawn again before each deal), and what, of the
    runs made, checked them: the engine alone (chips add up, no section below zero, every
    card in one place, a legal move while the deal goes on, every listed move accepted) in
    the states of those stages the exhaustive search and the random deals reached, counted
    by the engine = model rows.
    Never a gap for the exit status: the properties' own rows say whether they hold."""
    rs = subject.ruleset
    if not any(isinstance(p, StopsPhase) for p in rs.phases):
        return results
    gaps = []
    for g in symbolic_gaps(rs):
        if g.startswith("phase "):
            phase = next((p for p in rs.phases if f"phase {p.name}" == g), None)
            kind = ("holding" if isinstance(phase, HoldingPhase) else
                    "poker showdown" if isinstance(phase, PokerPhase) else "")
            g = f"{g} ({kind})" if kind else g
        gaps.append(g)
    if rs.session.end_never:  # spec §10: no end, so no leftover split; chips still carry
        gaps.append("the session's chips across deals (no end: the ledger runs on)")
    else:
        gaps.append("the session's chips across deals (the leftover split"
                    + (", the tie deal" if TIE_DEAL_TERMS[rs.session.ties] else "")
                    + SEATING_GAPS[rs.session.seating] + ")")
    alone: dict[str, int] = {}
    for r in results:
        for why, count in r.engine_alone.items():
            alone[why] = alone.get(why, 0) + count
    checks = "chips, cards, progress, listed moves accepted"
    if options.engine and any(isinstance(p, HoldingPhase | PokerPhase) for p in rs.phases):
        checks += ("; each award's shares held to the split rules (spec §9) and the chips to "
                   "the events")
        if any(isinstance(p, PokerPhase) and p.betting for p in rs.phases):
            checks += ("; a betting round's pot paid as its side pots (spec §8.3), each an "
                       "award among the seats that matched it")
    if options.engine and rs.widow_sale is not None:
        checks += "; each widow exchange's cards and price held to spec §5.4"
    ran = [m for m, on in (("the exhaustive search", options.exhaustive),
                           ("random deals", options.engine)) if on]
    if not ran:
        how = "not checked by any method that ran (the exhaustive search and the engine " \
              "check are off)"
    elif alone:
        how = ("checked only by the engine search: " + ", ".join(
            f"{count:,} states ({why})" for why, count in sorted(alone.items()))
            + " on the engine alone, in " + " and ".join(ran) + "; " + checks)
    else:
        how = "checked only by the engine search (" + " and ".join(ran) + "; " + checks + ")"
    results.append(Result(subject.name, 0, NOT_MODELLED, "static", NOT_MODELLED,
                          ", ".join(gaps) + " — " + how,
                          data={"stages of the deal": len(symbolic_gaps(rs))}))
    return results


def _session_proof(subject: Subject, results: list[Result], options: Options) -> list[Result]:
    """Session end (spec §10) from the deals' own termination and the session's rules: the
    static row becomes ``proven`` when z3 proves the session model's ranking function
    (:func:`boodle.verify.session_model.prove_session_end`) and every deal ends, i.e. z3
    proved termination at every player count run (and the static bound said the same);
    ``unknown`` (with why) when a count's termination is not proven, or was refuted: a
    deal that may not end is a session that may not end.  ``no end`` and an unbounded
    session (``unknown``) stay as the static check said, the proof's reason added."""
    row = next((r for r in results if r.prop == "session end" and r.method == "static"), None)
    if row is None or row.status == "no end":
        return results
    t = time.perf_counter()
    bounded, why = prove_session_end(subject.ruleset)
    row.seconds += time.perf_counter() - t
    if not bounded:
        row.status = "unknown"
        row.detail = f"{row.detail}; {why}"
        return results
    counts = _session_counts(subject.ruleset, options)
    ending = {n: [r for r in results if r.players == n and r.prop == "termination"]
              for n in counts}
    refuted = [n for n, rs in ending.items() if any(r.status == "counterexample" for r in rs)]
    unproven = [n for n, rs in ending.items()
                if n not in refuted and not any(r.method == "z3" and r.status == "proven"
                                                for r in rs)]
    bound = row.detail.split("; declared misdeals")[0].replace(", each of which ends", "")
    if refuted:
        row.status = "unknown"
        row.detail = (f"a deal may not end with {_players(refuted)} (termination: "
                      f"COUNTEREXAMPLE), so neither may the session; {why}")
    elif unproven:
        row.status = "unknown"
        row.detail = (f"that every deal ends is not proven with {_players(unproven)} "
                      "(termination not proven by z3 on the full deck there"
                      + ("; z3 is off" if not options.z3 else "")
                      + ("; not every count was run" if options.players is not None else "")
                      + f"); {why}; bound: {bound}")
    else:
        row.status = "proven"
        row.detail = (("" if options.players is None else
                       f"for sessions of {_players(counts)} (the counts run): ")
                      + f"{why}; every deal ends (termination proven with {_players(counts)}); "
                      f"so {bound}, each of which ends; declared misdeals are outside the rules "
                      "and not counted")
    return results


def _session_counts(ruleset: Ruleset, options: Options) -> list[int]:
    """The player counts whose deals the sessions verified can have (spec §10): a session
    keeps its seats, so a run of ``--players N`` answers for sessions of N players alone.
    Under elimination too: a deal with seats out is still a deal of N seats, which the
    z3 model at N covers (its eliminated-seat ghosts; before they existed, every smaller
    count had to be proven too).  Every allowed count when no ``--players`` was given."""
    every = list(ruleset.players.counts())
    if options.players is None:
        return every
    return [n for n in every if n in options.players]


def _players(counts: list[int]) -> str:
    words = [str(n) for n in counts]
    joined = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"{joined} players"


def _distrust_model(results: list[Result]) -> list[Result]:
    """A z3 proof is about the model: at a player count where the engine was found to play
    another game (an ``engine = model`` counterexample), every "proven" of that count
    becomes "unknown", and so does the "proven" of a property the engine itself was seen
    to break there (issue 16: "proven" must hold of the engine that plays)."""
    broken = {r.players for r in results if r.prop == ENGINE_MODEL
              and r.status == "counterexample"}
    refuted = {(r.players, r.prop) for r in results if r.method in ("exhaustive", "engine")
               and r.status == "counterexample"}
    for r in results:
        if r.method != "z3" or r.status != "proven":
            continue
        if r.players in broken:
            r.status = "unknown"
            r.detail = ("proven of the z3 model, but the engine does not play that model at "
                        "this count (see the engine = model counterexample)")
        elif (r.players, r.prop) in refuted:
            r.status = "unknown"
            r.detail = ("proven of the z3 model, but the engine breaks it at this count (see "
                        "the counterexample)")
    return results


def _steps(subject: Subject, options: Options) -> tuple[list[int], list[tuple[str, int]]]:
    """The player counts no method covers, and the runs (method, player count) of
    ``subject``, in the report's order: z3 at each count, then the exhaustive search."""
    counts = [n for n in subject.ruleset.players.counts()
              if options.players is None or n in options.players]
    steps: list[tuple[str, int]] = []
    if options.z3:
        steps += [("z3", n) for n in counts]
    if options.exhaustive:
        steps += [("exhaustive", n) for n in counts if n in options.explicit_players]
    covered = {m for _, m in steps}
    if options.engine:
        steps += [("engine", n) for n in counts]
    return [n for n in counts if n not in covered], steps


def _step(run: _Run, subject: Subject, method: str, n: int) -> tuple[list[Result], float]:
    """The results of one run, each carrying its wall time, and its CPU seconds."""
    t = time.process_time()
    wall = time.perf_counter()
    if method == "z3":
        got = _symbolic(run, subject, n)
    elif method == "engine":
        got = _engine(run, subject, n)
    else:
        got = _exhaustive(run, subject, n)
    for r in got:  # the run's own time, shared by the properties it checked
        r.seconds = time.perf_counter() - wall
    return got, time.process_time() - t


def _progress_line(k: int, of: int, subject: Subject, method: str, n: int,
                   got: tuple[list[Result], float]) -> str:
    """``[2/5] michigan, 4 players, z3: 5 proven (1.2 s CPU)``."""
    return (f"[{k + 1}/{of}] {subject.name}, {n} players, {method}: {_tally(got[0])} "
            f"({got[1]:.1f} s CPU)")


def _parallel(subjects: list[Subject], plan: list[tuple[list[int], list[tuple[str, int]]]],
              options: Options, jobs: int, progress: Callable[[str], None] | None,
              worker_live: Callable[[str], None] | None
              ) -> dict[Step, tuple[list[Result], float]]:
    """Every run of ``plan`` in up to ``jobs`` processes: the results of each run.

    The z3 runs that share proofs in a serial run (subjects with equal :func:`_key` or
    :func:`_dynamics_key` at one player count, linked one to the next) go to one task, in
    their serial order, so that each task finds what the serial run finds; every other run
    is a task of its own, the longest first as far as known (exhaustive searches, then z3
    by player count, largest first).
    """
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    tasks = _tasks(subjects, plan)
    done: dict[Step, tuple[list[Result], float]] = {}
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
        running = {pool.submit(_run_task, [(k, subjects[k]) for k, _, _ in task], task[0][1],
                               task[0][2], options, worker_live): task for task in tasks}
        try:
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    running.pop(future)
                    for (k, method, n), got in future.result():
                        done[(k, method, n)] = got
                        if progress is not None:
                            progress(_progress_line(k, len(subjects), subjects[k], method, n,
                                                    got))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return done


def _tasks(subjects: list[Subject], plan: list[tuple[list[int], list[tuple[str, int]]]]
           ) -> list[list[Step]]:
    """The runs of ``plan`` as tasks (see :func:`_parallel`), in the order to start them."""
    exhaustive: list[list[Step]] = []
    z3: list[Step] = []
    for k, (_, steps) in enumerate(plan):
        for method, n in steps:
            if method == "z3":
                z3.append((k, method, n))
            else:
                exhaustive.append([(k, method, n)])
    # subjects sharing a key at a count are linked (union-find); a group is a task
    parent = {step: step for step in z3}

    def root(step: Step) -> Step:
        while parent[step] != step:
            parent[step] = step = parent[parent[step]]
        return step

    first: dict[tuple[Any, ...], Step] = {}
    for step in z3:
        k, _, n = step
        for key in (("chips", *_key(subjects[k], n)),
                    ("card dynamics", *_dynamics_key(subjects[k], n))):
            if key in first:
                parent[root(step)] = root(first[key])
            else:
                first[key] = step
    groups: dict[Step, list[Step]] = {}
    for step in z3:  # in the serial order: a group's runs in the order the serial run has
        groups.setdefault(root(step), []).append(step)
    by_count = sorted(groups.values(), key=lambda task: -task[0][2])
    return exhaustive + by_count


def _run_task(subjects: list[tuple[int, Subject]], method: str, n: int, options: Options,
              live: Callable[[str], None] | None
              ) -> list[tuple[Step, tuple[list[Result], float]]]:
    """One task of :func:`_parallel`, in a worker process: the runs of ``method`` at ``n``
    players of each of ``subjects`` (index, subject), in order, sharing one z3 cache."""
    run = _Run(options, {}, live)
    return [((k, method, n), _step(run, subject, method, n)) for k, subject in subjects]


def _uncovered(subject: Subject, counts: list[int], options: Options) -> list[Result]:
    """A ``not covered`` result (method ``none``) for each per-count property at each of
    ``counts``, the player counts no method was asked about: z3 is off and the exhaustive
    search covers only :attr:`Options.explicit_players` (or is off too).  They make the run
    NOT VERIFIED (:func:`boodle.verify.report.unverified`), never silently left out."""
    if not counts:
        return []
    if not options.exhaustive:
        why = "z3 and the exhaustive search are off"
    else:
        *most, last = map(str, options.explicit_players)
        searched = f"{', '.join(most)} and {last}" if most else last
        why = f"z3 is off, and the exhaustive search covers {searched} players only"
    return [Result(subject.name, n, prop, "none", "not covered", why)
            for n in counts for prop in PROPERTIES[:5]]


def _tally(results: list[Result]) -> str:
    """``"5 proven"``, ``"4 checked, 1 counterexample"`` …: the statuses of ``results``."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    return ", ".join(f"{c} {status}" for status, c in counts.items())


def _static(subject: Subject) -> list[Result]:
    name = subject.ruleset
    t = time.perf_counter()
    faults = well_formed(name)
    ends, why = session_end(name)  # "checked", "no end" (end: never) or "unknown"
    spent = time.perf_counter() - t
    wf = Result(subject.name, 0, "well-formedness", "static",
                "counterexample" if faults else "checked",
                "; ".join(faults) if faults else "named cards in the deck and distinct, every "
                "hand dealt a card at every player count, antes from 0 to 1,000,000", spent)
    if faults:
        wf.trace = "\n".join(f"  {f}" for f in faults)
        wf.data = {"kind": "static", "faults": faults}
    return [wf, Result(subject.name, 0, "session end", "static", ends, why, 0.0)]


# ---------------------------------------------------------------- z3


def _symbolic(run: _Run, subject: Subject, n: int) -> list[Result]:
    rs = subject.ruleset
    if not any(isinstance(p, StopsPhase) for p in rs.phases):
        return [Result(subject.name, n, p, "z3", "not covered", "no stops phase")
                for p in PROPERTIES[:5]]
    pending = pending_features(rs)
    lacking = [*pending, *[u for u in unmodelled(rs) if not any(u in p for p in pending)]]
    if lacking:  # never "proven" about a game other than the engine's
        return [Result(subject.name, n, p, "z3", "not covered",
                       "the z3 model does not have " + ", ".join(lacking))
                for p in PROPERTIES[:5]]
    system = System(rs, n, subject.mutation)
    # the engine = model check of this count, run after it in this process, uses these terms
    run.oracles.setdefault(_oracle_key(rs, n, subject.mutation), ModelOracle(system))
    prover = Prover(system)
    t = time.perf_counter()
    findings = check_init(system, prover)
    chips, moves = ("chips", *_key(subject, n)), ("card dynamics", *_dynamics_key(subject, n))
    shared = run.cache.get(moves)
    if shared is None or any(f.status != "proven" for f in shared):
        # a failure is found again for each subject: its state is printed with that
        # subject's board and chips
        run.cache[moves] = [*check_consecution(system, prover, chips=False),
                            check_progress(system, prover), check_ranking(system, prover),
                            check_exclusive(system, prover)]
    if chips not in run.cache:
        run.cache[chips] = check_consecution(system, prover, chips=True)
    findings += [replace(f) for f in (*run.cache[chips], *run.cache[moves])]
    spent = time.perf_counter() - t
    merged = _merge(findings)
    _distrust(findings, merged)
    gaps = symbolic_gaps(rs)
    note = ("stops phase, full deck, every dealer" +
            ("" if exact_start(system.layout) else "; from any start of play the stages before "
             "it can leave (" + ", ".join(gaps) + " not modelled step by step)"))
    out = []
    for prop in PROPERTIES[:5]:
        f = merged.get(prop)
        if f is None:
            continue
        r = Result(subject.name, n, prop, "z3", f.status,
                   note if f.status == "proven" else f.detail, spent)
        if f.status == "counterexample":
            _explain(run, subject, system, f, r)
            _settle(r)
        out.append(r)
    for r in out:
        if r.prop == "termination" and r.status == "proven":
            r.detail += f"; {_bound(system)}"
    return out


def _merge(findings: list[Finding]) -> dict[str, Finding]:
    """One finding per property: the first counterexample, else unknown, else proven."""
    out: dict[str, Finding] = {}
    for f in findings:
        have = out.get(f.prop)
        if have is None:
            out[f.prop] = replace(f)
            continue
        have.seconds += f.seconds
        have.queries += f.queries
        if have.status == "proven" or (have.status == "unknown" and f.status == "counterexample"):
            have.status, have.detail, have.model = f.status, f.detail, f.model
            have.action, have.conjunct, have.check = f.action, f.conjunct, f.check
    return out


def _distrust(findings: list[Finding], merged: dict[str, Finding]) -> None:
    """A proof that assumed the invariant stands only if the whole invariant is inductive:
    when some conjunct fails at Init or in consecution, every other "proven" becomes
    "unknown"."""
    broken = [f for f in findings if f.check in ("init", "consecution") and f.status != "proven"]
    if not broken:
        return
    why = (f"not proven: it assumes the inductive invariant, and '{broken[0].conjunct}' is not "
           f"inductive ({broken[0].detail})")
    for f in merged.values():
        if f.status == "proven":
            f.status, f.detail = "unknown", why


def _bound(system: System) -> str:
    """The most moves per deal the ranking function allows (spec/verification.md).

    At most N − q cards start in players' hands (a widow, when there is one,
    holds at least q = N // hands cards, before or after any exchange), and
    play ends when one player is out while the n − 1 others still hold a card.
    """
    layout = system.layout
    n, cards = layout.n, len(layout.cards)
    widow = WIDOW_DEALT[layout.ruleset.deal.widow_position]
    plays = cards - (cards // (n + 1) if widow else 0) - (n - 1)
    if not passes(layout):
        return f"ranking: cards in players' hands; at most {plays} moves per deal"
    return (f"ranking: (cards in hands, pass measure); at most {plays} plays and {n} passes "
            f"before each lead or the end: at most {plays + n * (plays + 1)} moves per deal")


def _explain(run: _Run, subject: Subject, system: System, f: Finding, r: Result) -> None:
    """Print the induction counterexample, then search for it from the start of play."""
    layout = system.layout
    lines = [f"  induction fails ({f.check}): {f.detail}"]
    if f.model is not None:
        lines += ["  the state, as cards and chips:"]
        lines += [f"    {x}" for x in model_state_lines(layout, f.model)]
        r.data["induction"] = {"check": f.check, "action": f.action, "conjunct": f.conjunct,
                               "state": model_state_json(layout, f.model)}
    target = _target(f)
    found = bmc(system, target, run.options.bmc_depth, run.options.bmc_seconds)
    where = "the full deck"
    played = subject.ruleset
    if not found.found:
        for suits, ranks in run.options.decks:
            try:
                small = reduce(subject.ruleset, suits, ranks)
            except ReductionError:
                continue
            found = bmc(System(small.ruleset, system.n, subject.mutation), target,
                        run.options.bmc_depth + 4, run.options.bmc_seconds)
            where = f"the reduced deck {small.label}"
            layout = System(small.ruleset, system.n).layout
            played = small.ruleset
            break
    lines += _bmc_lines(found, where, layout)
    r.data["bmc"] = {"found": found.found, "depth": found.depth, "deck": where,
                     "exact start": found.exact, "steps": [s.action for s in found.steps]}
    if found.found:  # a z3 trace is a counterexample only if the engine plays it (issue 16)
        again = replay(played, system.n, found, target, subject.mutation)
        lines += again.lines()
        r.data["replay"] = {"followed": again.followed, "broken": again.broken,
                            "detail": again.detail, "moves": again.moves, "deal": again.deal}
    r.trace = "\n".join(lines)
    r.detail += (f"; reached from the start of play in {found.depth} moves on {where}"
                 if found.found else f"; not reached within {found.depth} moves on {where}: "
                 "the invariant may be too weak, or the fault deeper")


def _settle(r: Result) -> None:
    """No spurious counterexample (issue 16): a failed induction is a COUNTEREXAMPLE only when
    bounded model checking reached the bad state from the very start of play (the antes and
    any deal: :attr:`BmcResult.exact`) and the engine, given that deal, plays the trace
    and breaks the property itself (:func:`boodle.verify.replay.replay`); otherwise it is
    ``unknown``, the induction counterexample kept in the trace, with why (no trace found,
    a trace the engine does not play: unreachable on the engine, or one it plays without
    the property failing)."""
    found = r.data.get("bmc", {})
    again = r.data.get("replay", {})
    if found.get("found") and again.get("followed") and again.get("broken"):
        r.detail += "; real: the engine plays the trace and " + str(again["detail"])
        return
    r.status = "unknown"
    if found.get("found") and not again.get("followed"):
        r.detail = ("not proven: the induction fails and the model reaches it, but the "
                    f"engine does not play that trace ({again.get('detail', 'not replayed')}; "
                    + r.detail + ")")
    elif found.get("found"):
        r.detail = ("not proven: the induction fails and the engine plays the model's trace, "
                    f"but does not break the property there ({again.get('detail')}; "
                    + r.detail + ")")
    else:
        r.detail = ("not proven: the induction fails, but no trace from the start of play "
                    "reaches it (" + r.detail + ")")


def _target(f: Finding) -> str:
    if f.check == "progress":
        return "deadlock"
    if f.check == "ranking":
        return "lasso"
    return f.conjunct or "deadlock"


def _bmc_lines(found: BmcResult, where: str, layout: Any) -> list[str]:
    if not found.found:
        why = " (time budget spent)" if found.timed_out else ""
        return [f"  bounded model checking on {where}: no such state within {found.depth} "
                f"moves{why}"]
    start = "the start of play" if found.exact else "a start of play (any deal, any chips)"
    lines = [f"  bounded model checking on {where}: reached from {start} in {found.depth} "
             "moves:"]
    if found.steps:
        lines += [f"    start: {x}" for x in model_state_lines(layout, found.steps[0].before)]
    lines += ["  " + x for x in model_steps_lines(layout, found.steps)]
    if found.final is not None:
        lines += [f"    then: {x}" for x in model_state_lines(layout, found.final)]
    if found.loop_to is not None:
        lines.append(f"    and this state is the state after move {found.loop_to}: a loop")
    return lines


# ---------------------------------------------------------------- exhaustive


def _exhaustive(run: _Run, subject: Subject, n: int) -> list[Result]:
    rs = subject.ruleset
    pending = pending_features(rs)
    if pending:
        return [Result(subject.name, n, p, "exhaustive", "not covered",
                       "the engine does not play " + ", ".join(pending)) for p in PROPERTIES[:5]]
    why = "no reduced deck can carry the variant's named cards"
    for suits, ranks in run.options.decks:
        try:
            small = reduce(rs, suits, ranks)
        except ReductionError as e:
            why = str(e)
            continue
        if len(small.ruleset.deck.cards()) < n + 1:
            continue
        where = f"{subject.name}, {n} players, exhaustive on {small.label}"
        gap = _model_gap(small.ruleset) if run.options.engine else "off"
        comparer = None if gap is not None else _comparer(run, small.ruleset, n,
                                                          subject.mutation)
        if comparer is not None:
            comparer.budget = run.options.engine_states
        res = check_deals(small.ruleset, n, small.label, mutation=subject.mutation,
                          max_states=run.options.max_states, tick=_ticker(run.live, where),
                          observe=None if comparer is None else comparer.observe,
                          observe_start=None if comparer is None else comparer.observe_start)
        out = _from_explicit(subject, n, res)
        if comparer is not None:
            out.append(_engine_row(subject.name, n, "exhaustive", res.violations.get(
                ENGINE_MODEL), [comparer], res.complete, res.seconds, small.label,
                possible_kinds(small.ruleset)))
        elif gap != "off" and gap is not None:
            out.append(Result(subject.name, n, ENGINE_MODEL, "exhaustive", "not covered", gap))
        return out
    return [Result(subject.name, n, p, "exhaustive", "not covered", why) for p in PROPERTIES[:5]]


LARGEST_DECK = ("measured on Michigan: 2x5 ends within the default bound (611,280 states, 28 s "
                "of CPU with 4 players), 3x4 with 3 players needs 5,051,256 states (181 s; "
                "--max-states 6000000); see spec/verification.md, \"Deck sizes\"")
"""Said when a deck is too large to search (measured: spec/verification.md, "Deck sizes")."""


def _count(n: int) -> str:
    """``2,520``, or ``about 5.4e+28`` past a billion."""
    return f"{n:,}" if n < 10**9 else f"about {n:.1e}"


def _ticker(live: Callable[[str], None] | None, where: str
            ) -> Callable[[ExplicitResult], None] | None:
    """The search's progress callback: ``live`` told ``where`` the search is and how far."""
    if live is None:
        return None
    say = live

    def tick(res: ExplicitResult) -> None:
        say(f"{where}: {_so_far(res)}")
    return tick


def _so_far(res: ExplicitResult) -> str:
    """``1,234,567 states (24,100/s wall, 24,500/s CPU), deal 31,200 of 369,600 (8.4%),
    51 s, about 9 min left``: a search so far, its rates per wall second and per CPU second
    of the process searching; the time left (wall) assumes the deals to come are like those
    seen."""
    share = res.deals_raw / res.deals_total if res.deals_total else 0.0
    left = f", about {_duration(res.seconds * (1 / share - 1))} left" if share > 0 else ""
    return (f"{res.states:,} states ({res.rate:,.0f}/s wall, {res.cpu_rate:,.0f}/s CPU), "
            f"deal {res.deals_raw:,} of {res.deals_total:,} ({share:.1%}), "
            f"{res.seconds:.0f} s{left}")


def _duration(seconds: float) -> str:
    """``40 s``, ``9 min``, ``3.2 h``, ``12 days``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:,.0f} days"


def _starts_text(res: ExplicitResult) -> str:
    """The starts searched, each seat's chips before the ante (``explicit.starts``: the
    default start, a start with short stacks under ``short stack: section by section``, and
    with a betting round at more than ``FULL_START_MOST`` players the short start alone):
    ``; every deal from (11, 11, 2, 2) chips by seat before the ante``."""
    shown = " and ".join("(" + ", ".join(map(str, s)) + ")" for s in res.starts)
    return f"; every deal from {shown} chips by seat before the ante" if shown else ""


def _from_explicit(subject: Subject, n: int, res: ExplicitResult) -> list[Result]:
    out = []
    summary = (f"{res.states:,} states, {res.transitions:,} moves, {res.deals_checked:,} deals"
               f" ({res.deals_raw:,} before suit symmetry, {res.symmetries} symmetr"
               f"{'y' if res.symmetries == 1 else 'ies'}), longest deal {res.depth} moves, "
               f"{res.rate:,.0f} states per wall second, {res.cpu_rate:,.0f} per CPU second"
               f"{_starts_text(res)}")
    if not res.complete and res.deals_raw == 0:
        orbits = -(-res.deals_total // max(res.symmetries, 1))
        summary = (f"not searched: {_count(orbits)} deals of the {res.deck} deck with {n} "
                   f"players (after suit symmetry), each a state at least, are more than "
                   f"--max-states {res.max_states or 0:,}; {LARGEST_DECK}")
    elif not res.complete:
        summary = (f"bound reached: {res.states:,} states explored (--max-states "
                   f"{res.max_states or 0:,}) in {res.deals_raw:,} of {res.deals_total:,} deals; "
                   "the search did not finish, so nothing is verified by it (raise "
                   f"--max-states or choose a smaller --deck){_starts_text(res)}")
    for prop in PROPERTIES[:5]:
        cex = res.violations.get(prop)
        ok = "checked" if res.complete else "incomplete"
        r = Result(subject.name, n, prop, "exhaustive",
                   "counterexample" if cex else ok,
                   cex.why if cex else summary, res.seconds, res.states, res.deck)
        if cex is not None:
            r.trace = cex.text()
            r.data = cex.to_json()
        out.append(r)
    return out


# ---------------------------------------------------------------- engine = model


def coverage_decks(ruleset: Ruleset, n: int) -> list[tuple[int, int]]:
    """Small decks (suits, ranks) whose random deals reach the transitions the full deck
    rarely does at ``n`` players: one suit of ``2n + 2`` ranks (after a stop every card left
    is of the stopped suit: a restart in another suit finds none, so every player passes:
    the all-pass and the colour flip), two suits of ``n + 3`` ranks (runs through the widow,
    stop bonuses, going out with cards left), and 2 × 5; under ``widow: blocks sets``, then
    the whole deck again (its random deals put a set in the widow and the same ranks of
    another suit in a hand one time in two, :func:`~boodle.verify.engine_model.set_in_widow`:
    a small deck's widow and hands are too small to hold a set)."""
    small = [(1, min(13, 2 * n + 2)), (2, min(13, n + 3)), (2, 5)]
    if WIDOW_SET_TERMS[ruleset.deal.widow_sets].blocks:
        small.append((len(ruleset.deck.suits), len(ruleset.deck.ranks)))
    return small


def _engine(run: _Run, subject: Subject, n: int) -> list[Result]:
    """The engine = model check on random deals at ``n`` players (every allowed count): the
    full deck, then the :func:`coverage_decks` until every kind the rules can make is seen;
    engine-alone faults (chips, cards, progress) are counterexamples of their property."""
    from boodle.verify.agreement import playable_ruleset
    from boodle.verify.engine_model import KINDS

    t = time.perf_counter()
    rs = playable_ruleset(subject.ruleset, 16)
    gap = _model_gap(rs)
    if gap is not None:
        return [Result(subject.name, n, ENGINE_MODEL, "engine", "not covered", gap)]
    possible = possible_kinds(rs)
    decks = [("full deck", rs)]
    for suits, ranks in dict.fromkeys(coverage_decks(rs, n)):  # each deck once
        try:
            small = reduce(rs, suits, ranks)
        except ReductionError:
            continue
        if len(small.ruleset.deck.cards()) >= n + 2:  # every hand and the widow a card
            decks.append((small.label, small.ruleset))
    comparers: list[Comparer] = []
    result = None
    for k, (label, deck_rs) in enumerate(decks):
        comparer = _comparer(run, deck_rs, n, subject.mutation)
        comparers.append(comparer)

        def all_seen() -> bool:
            return possible <= set().union(*(c.seen for c in comparers))

        if k > 0 and all_seen():
            break
        deals = run.options.engine_deals if k == 0 else run.options.coverage_deals
        got = check_random([(label, deck_rs, comparer)], n, deals, seed=16 + k,
                           stop_when=None if k == 0 else all_seen)
        if result is None:
            result = got
        else:
            result.decks += got.decks
            result.deals += got.deals
            result.states += got.states
            result.violations.update(
                {p: c for p, c in got.violations.items() if p not in result.violations})
        if result.violations:
            break
    assert result is not None
    spent = time.perf_counter() - t
    out = []
    for prop, cex in result.violations.items():
        if prop == ENGINE_MODEL:
            continue
        r = Result(subject.name, n, prop, "engine", "counterexample", cex.why, spent,
                   result.states, cex.deck)
        r.trace, r.data = cex.text(), cex.to_json()
        out.append(r)
    seen_decks = ", ".join(result.decks)
    row = _engine_row(subject.name, n, "engine", result.violations.get(ENGINE_MODEL),
                      comparers, True, spent, seen_decks, possible)
    row.detail = (f"{result.deals} random deal{'' if result.deals == 1 else 's'} "
                  f"({seen_decks}): " + row.detail)
    out.append(row)
    assert set(KINDS) >= possible
    return out


def _engine_row(name: str, n: int, method: str, cex: Counterexample | None,
                comparers: list[Comparer], complete: bool, seconds: float, deck: str,
                possible: set[str]) -> Result:
    """The ``engine = model`` result of one method at one count: a counterexample, or the
    states compared and the kinds the rules can make that no transition exercised."""
    compared = sum(c.compared for c in comparers)
    seen: set[str] = set().union(*(c.seen for c in comparers))
    missing = [k for k in possible if k not in seen]
    missing.sort()
    alone: dict[str, int] = {}
    for c in comparers:
        for why, count in c.engine_only.items():
            alone[why] = alone.get(why, 0) + count
    skipped = sum(c.skipped for c in comparers)
    left = (f" (of {compared + skipped:,} in the stops phase: every one up to the budget, "
            "then those whose moves make kinds compared fewer than 20 times)" if skipped else "")
    summary = (f"{compared:,} states compared with the model{left}, "
               f"{sum(c.transitions for c in comparers):,} moves, "
               f"{sum(c.refusals for c in comparers):,} refusals; "
               + ("every action kind the rules can make exercised" if not missing else
                  "not exercised: " + ", ".join(missing)))
    if alone:
        summary += "; on the engine alone (no model state): " + ", ".join(
            f"{count:,} states ({why})" for why, count in sorted(alone.items()))
    status = "counterexample" if cex else ("checked" if complete else "incomplete")
    r = Result(name, n, ENGINE_MODEL, method, status, cex.why if cex else summary, seconds,
               compared, deck)
    if cex is not None:
        r.trace, r.data = cex.text(), cex.to_json()
    r.engine_alone, r.unexercised = alone, tuple(missing)
    return r
