"""What this engine can play: pending features, and the checks made before a deal starts.

:func:`pending_features` lists what the engine refuses (``NotSupported``);
:func:`boodle.engine.machine.skipped_phases` lists the phases it plays as nothing
(pending phase kinds, said in the trace).  ``boodle check`` prints both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from boodle.engine.faults import NotSupported
from boodle.language.errors import BoodleError
from boodle.language.features import Feature, FeatureKey, Refusal, refused
from boodle.language.model import Ruleset, StopsPhase, derived
from boodle.language.problems import (
    Problem,
    ProblemKey,
    first_lead_problems,
    part_problems,
    phase_problems,
)

__all__ = ["REFUSED", "SUPPORT", "check_playable", "pending_features", "stops_phase"]


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
    "seats redrawn": None,  # boodle.session.run draws them; each deal is played as any
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


Refuse = Callable[[StopsPhase, Problem], BoodleError]
"""How the engine says a problem (:data:`REFUSED`): the phase and the problem found → the
error raised."""


def _said(words: Callable[[StopsPhase], str] | None = None, hint: str | None = None) -> Refuse:
    """The problem in the engine's words (``words`` of the phase; default: the problem's
    message and hint), after ``phase NAME:``, at the problem's span."""
    def refuse(p: StopsPhase, problem: Problem) -> BoodleError:
        if words is None:
            return BoodleError(f"phase {p.name}: {problem.said()}", problem.span,
                               hint=problem.hint)
        return BoodleError(f"phase {p.name}: {words(p)}", problem.span, hint=hint)
    return refuse


REFUSED: dict[ProblemKey, Refuse] = {
    "if none lead without a lead rule": _said(),
    "passes without an all-pass exit": _said(
        lambda p: "the lead may pass left but no 'all pass' rule says what happens when "
        "every player passes (the deal could go round forever)",
        "add 'all pass: deal ends without winner' or 'all pass: flip colour'"),
    "a pass fee to a section not on the board": _said(),
    "flip colour without a colour restart": _said(
        lambda p: "'all pass: flip colour' needs a colour restart rule"),
    "first lead by a player of a run": _said(
        lambda p: f"the first lead cannot go to the {p.first_lead.who}"),
    "a one-card lead without a card": _said(),
    "going out to a section not on the board": _said(),
    "going out into a kitty not on the board": _said(),
    "a penalty to a section not on the board": _said(),
    "a stop bonus from a section not on the board": _said(),
}
"""The problems of :mod:`boodle.language.problems` the engine refuses before a deal
(:func:`check_playable`), in the order it looks for them; the first found is raised.  The
other problems of that list are not refused here (a ruleset made in Python may lack an 'if
none' line and still play its default)."""


def check_playable(ruleset: Ruleset) -> StopsPhase:
    """:func:`stops_phase`, and a :class:`BoodleError` for a phase that could not end or
    names what is not there.

    The builder refuses these rulesets already; rulesets made in Python (tests, other
    tools) are checked here: the first problem of :data:`REFUSED` that the builder's list
    finds in the phase played (:func:`boodle.language.problems.first_lead_problems`,
    :func:`~boodle.language.problems.phase_problems`,
    :func:`~boodle.language.problems.part_problems`), as :data:`REFUSED` says it.  Before
    them, a ruleset whose drawn boodles are not drawn yet is refused: that is not a fault
    of its rules (the builder builds it so, and a session draws them, spec §3), so it is
    not a problem of that list.

    Every deal starts with this check (:func:`boodle.engine.start_deal`), and its answer
    depends on the (immutable) ruleset alone: a ruleset found playable is kept so, as
    :func:`~boodle.language.model.derived` keeps a value, and checked once (a refusal is
    not kept: it is made again, with its error, each time).
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
    found: dict[ProblemKey, Problem] = {}
    for problem in (*first_lead_problems(p.first_lead, p.name),
                    *phase_problems(p, lambda name: None), *part_problems(p, ruleset.board)):
        found.setdefault(problem.key, problem)
    for key, refuse in REFUSED.items():
        if key in found:
            raise refuse(p, found[key])
    return p
