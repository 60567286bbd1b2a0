"""Well-formedness and session end, checked on the ruleset itself (no play needed).

Each check enumerates a finite set (sections, cards, player counts, ante
lines), so a pass is a proof for that ruleset:

- every card a section, a lead rule or an excused clause names is a card of
  the deck (not removed), boodle cards are distinct, a set names no card or
  rank twice, every rank named is a rank of the deck (spec §3);
- the most players allowed gives every hand, the widow's included, at
  least one card, and so does every count below (spec §1, §5.2);
- every ante is a whole number from 0 to 1,000,000 (spec §4).

:func:`session_end` says whether the session's end rules end every session,
and after how many deals at most (spec §10).  Builders refuse most faults
at load time already; these checks hold rulesets made in Python to the
same standard and name the fault as a verifier property.  The checks are the builder's
list (:mod:`boodle.language.problems`, :data:`WELL_FORMED`): the builder, ``boodle check``,
the language server and this read one statement of them.
"""

from __future__ import annotations

from collections.abc import Callable

from boodle.language.model import EndRule, EndTie, Ruleset, SessionSpec
from boodle.language.problems import ProblemKey, problems

__all__ = ["END_TIE_WORDS", "END_WORDS", "WELL_FORMED", "session_end", "well_formed"]


WELL_FORMED: tuple[ProblemKey, ...] = (
    "a card not in the deck",
    "a card paying two boodles",
    "a section naming a card or rank twice",
    "a rank not in the deck",
    "a hand without a card",
    "an ante out of range",
)
"""The problems of :func:`boodle.language.problems.problems` that are this check's
well-formedness (the builder's list: the same checks, the same words)."""


def well_formed(ruleset: Ruleset) -> list[str]:
    """Every well-formedness fault of ``ruleset``, as sentences (empty: well-formed): the
    messages of the problems of :data:`WELL_FORMED` that
    :func:`boodle.language.problems.problems` finds, in its order."""
    return [p.said() for p in problems(ruleset) if p.key in WELL_FORMED]


END_WORDS: dict[EndRule, Callable[[SessionSpec], str | None]] = {
    "rotations": lambda s: None,  # the bound itself, not a sooner end
    "no chips": lambda s: "a player has no chips",
    "last with chips": lambda s: "one player is left with chips",
    "target": lambda s: f"a player has {s.end_target} chips",
    "never": lambda s: None,  # no end at all: said before any bound
}
"""What ends a session sooner than its bound, in words (spec §10), one row per member of
:data:`EndRule` (``None``: not a sooner end)."""


END_TIE_WORDS: dict[EndTie, str] = {
    "share": "",
    "one more deal": " + 1 tie-break deal (played once, spec §10)",
}
"""What a tie for best adds to a session's bound, in words (spec §10), one row per member of
:data:`EndTie`."""


def session_end(ruleset: Ruleset) -> tuple[str, str]:
    """Whether every session ends (spec §10), and why: the most deals it can last, for each
    allowed player count n (``rotations × n``, plus the tie-break deal if there is one).

    Returns (status, why): ``checked`` (every session ends within that bound), ``no end``
    (``end: never``: by its rules the session has no end), or ``unknown`` (it ends only
    when a player reaches a target, which no rule guarantees).
    """
    s = ruleset.session
    if s.end_never:
        return "no end", ("'end: never': by its rules the session has no end (the ledger runs "
                          "on; a number of deals is played)")
    targets = [words for end in s.ends() if (words := END_WORDS[end](s)) is not None]
    if s.rotations is None:
        return "unknown", ("no bound on the deals: the session ends only when "
                           + " or ".join(targets) + ", which no rule guarantees")
    extra = END_TIE_WORDS[s.ties]
    rotations = f"{s.rotations} rotation{'' if s.rotations == 1 else 's'}"
    most = ("n" if s.rotations == 1 else f"{s.rotations}n") + (" + 1" if extra else "")
    low, high = ruleset.players.low, ruleset.players.high
    counts = f"n = {low}" if low == high else f"n from {low} to {high}"
    why = (f"with n players at most {rotations} × n players{extra} = {most} deals "
           f"({counts}), each of which ends")
    if targets:
        why += "; it may end sooner, after a deal at whose end " + " or ".join(targets)
    ok = "checked" if s.rotations >= 1 else "counterexample"
    return ok, why + "; declared misdeals are outside the rules and not counted"
