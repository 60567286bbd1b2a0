"""What this engine can play: pending features, and the checks made before a deal starts.

:func:`pending_features` lists what the engine refuses (``NotSupported``);
:func:`boodle.engine.machine.skipped_phases` lists the phases it plays as nothing
(pending phase kinds, said in the trace).  ``boodle check`` prints both.
"""

from __future__ import annotations

from collections.abc import Sequence

from boodle.engine.faults import NotSupported
from boodle.language.errors import BoodleError
from boodle.language.features import Feature, FeatureKey, Refusal, refused
from boodle.language.kind_facts import (
    FALLBACK_FACTS,
    PAID_TO_FACTS,
)
from boodle.language.model import Ruleset, StopsPhase, derived
from boodle.language.problems import first_lead_problems, phase_problems

__all__ = ["SUPPORT", "check_playable", "pending_features", "stops_phase"]


def _in_phase(words: str) -> Refusal:
    def said(ruleset: Ruleset, found: Sequence[Feature]) -> list[str]:
        return [f"phase {f.phase}: {words}" for f in found]
    return said


SUPPORT: dict[FeatureKey, Refusal | None] = {
    "several stops phases": lambda rs, found: ["several stops phases"],
    "going out without ending the deal": _in_phase("going out without ending the deal"),
    # runs every other feature; a phase of a kind no stage plays is skipped, not refused
    # (boodle.engine.machine.skipped_phases), and a ruleset with no stops phase plays none
    "no stops phase": None,
    "other phases": None,
    "widow sale": None,
    "trump sections without trumps": None,
    "trump turn-up": None,
    "drawn boodles": None,
    "chosen antes": None,
    "elimination": None,
    "few players still in": None,
    "widow sets": None,
    "short stack": None,
    "claims": None,
    "lead by a phase winner": None,
    "first lead after a run": None,  # refused by check_playable, as by the builder
    "lead fallback without a rule": None,  # idem
    "passes without an all-pass rule": None,  # idem
    "penalty other than cannot lead": None,
}
"""What the reference engine says of each feature (:mod:`boodle.language.features`): ``None``,
it runs it."""


def pending_features(ruleset: Ruleset) -> list[str]:
    """Every feature of ``ruleset`` this engine refuses to play yet (empty: playable), as
    :data:`SUPPORT` says.

    Phases of a kind no stage plays are not listed here: a deal skips them
    (:func:`boodle.engine.machine.skipped_phases`).
    """
    return refused(SUPPORT, ruleset)


def stops_phase(ruleset: Ruleset) -> StopsPhase:
    """The stops phase the engine plays; raises :class:`NotSupported` for a pending feature."""
    pending = pending_features(ruleset)
    if pending:
        raise NotSupported(
            f"variant {ruleset.name} needs features this engine does not execute yet: "
            + "; ".join(pending)
        )
    stops = [p for p in ruleset.phases if isinstance(p, StopsPhase)]
    if not stops:
        raise NotSupported(f"variant {ruleset.name} has no stops phase to play")
    return stops[0]


def check_playable(ruleset: Ruleset) -> StopsPhase:
    """:func:`stops_phase`, and a :class:`BoodleError` for a phase that could not end.

    Every deal starts with this check (:func:`boodle.engine.start_deal`), and its answer
    depends on the (immutable) ruleset alone: a ruleset found playable is kept so, as
    :func:`~boodle.language.model.derived` keeps a value, and checked once (a refusal is
    not kept: it is made again, with its error, each time).

    The builder refuses these rulesets already; rulesets made in Python
    (tests, other tools) are checked here.  A pass with no all-pass exit, a colour flip
    with no colour restart and a first lead by a player of a run are problems of the
    builder's list (:func:`boodle.language.problems.phase_problems`,
    :func:`~boodle.language.problems.first_lead_problems`), said here in the engine's
    words; the other problems of that list are not refused here (a ruleset made in Python
    may lack an 'if none' line and still play its default).
    """
    return derived(ruleset, "_playable", lambda: _check_playable(ruleset))


def _check_playable(ruleset: Ruleset) -> StopsPhase:
    from boodle.session.second_pack import unbound_sections  # the engine's events: not for check

    p = stops_phase(ruleset)
    unbound = unbound_sections(ruleset)
    if unbound:
        raise BoodleError(
            f"sections {', '.join(unbound)} are paid by cards drawn once per session, "
            "and none is drawn yet",
            hint="draw them first: boodle.session.second_pack.draw_boodles (play_session does)",
        )
    names = {s.name for s in ruleset.board}

    def need(name: str | None, what: str) -> None:
        if name not in names:
            raise BoodleError(f"{what} names section {name!r}, which is not on the board")

    fb = p.fallback
    found = {q.key for q in (*first_lead_problems(p.first_lead, p.name),
                             *phase_problems(p, lambda name: None))}
    if FALLBACK_FACTS[fb.kind].leads and fb.rule is None:
        raise BoodleError(f"phase {p.name}: the 'if none: lead' fallback has no lead rule")
    if "passes without an all-pass exit" in found:
        raise BoodleError(
            f"phase {p.name}: the lead may pass left but no 'all pass' rule says what "
            "happens when every player passes (the deal could go round forever)",
            hint="add 'all pass: deal ends without winner' or 'all pass: flip colour'",
        )
    if FALLBACK_FACTS[fb.kind].passes and fb.amount > 0:
        need(fb.to, f"phase {p.name}: the pass fallback")
    if "flip colour without a colour restart" in found:
        raise BoodleError(
            f"phase {p.name}: 'all pass: flip colour' needs a colour restart rule"
        )
    if "first lead by a player of a run" in found:
        raise BoodleError(f"phase {p.name}: the first lead cannot go to the {p.first_lead.who}")
    for rule in (p.first_lead, p.restart, *([fb.rule] if fb.rule else [])):
        if rule.choice == "card" and rule.card is None:
            raise BoodleError(f"phase {p.name}: a lead rule of one card names no card")
    for name in (*p.going_out.takes, *([p.going_out.into] if p.going_out.into else [])):
        need(name, f"phase {p.name}: going out")
    if PAID_TO_FACTS[p.going_out.to].needs_kitty and ruleset.kitty() is None:
        raise BoodleError(f"phase {p.name}: going out pays into the kitty, but the board has none")
    for pen in p.penalties:
        if pen.to != "each opponent":
            need(pen.to, f"phase {p.name}: the penalty for '{pen.fault}'")
    if p.stop_bonus is not None and p.stop_bonus.source != "each opponent":
        need(p.stop_bonus.source, f"phase {p.name}: the stop bonus")
    return p
