"""The features a ruleset uses that not every engine runs: one list, read by every engine.

:func:`features` finds them in a :class:`~boodle.language.model.Ruleset` (nothing but the
model is read).  Each engine declares, in a table keyed by :data:`FeatureKey`, whether it runs
each feature (``None``) or how it says it does not (a function from the ruleset and the
ruleset's features of that key to its sentences): the reference engine
(:data:`boodle.engine.support.SUPPORT`), the compiled engine
(:data:`boodle.compiled.tables.SUPPORT`) and the z3 model, which starts play from any state
the stages it does not model leave (:data:`boodle.verify.verifier.SYMBOLIC`) and reports a
variant with a rule it does not have "not covered" (:data:`boodle.verify.verifier.MODELLED`).
:func:`refused` reads such a table.  :mod:`boodle.rule_kinds` checks that every table has a
row for every feature, so a new feature fails, naming each engine, until each says whether it
runs it (issue 19, step 2).

Members of a tabled rule kind (the widow's sets, short stacks, the claims of a stops phase)
are features too, with the member as ``detail``: whether an engine runs a member is its
rule-kind table's to say (a row, an excused member, a row that does not run).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from boodle.language.kind_facts import (
    ALL_PASS_FACTS,
    BALANCE_FACTS,
    FALLBACK_FACTS,
    FAULT_FACTS,
    HIGH_BID_FACTS,
    WHO_FACTS,
)
from boodle.language.model import Ruleset, StopsPhase

__all__ = ["Feature", "FeatureKey", "Refusal", "features", "refused"]

FeatureKey = Literal[
    "no stops phase",
    "several stops phases",
    "other phases",
    "widow sale",
    "trump sections without trumps",
    "trump turn-up",
    "drawn boodles",
    "chosen antes",
    "elimination",
    "few players still in",
    "seats redrawn",
    "widow sets",
    "short stack",
    "claims",
    "going out without ending the deal",
    "lead by a phase winner",
    "first lead after a run",
    "lead fallback without a rule",
    "passes without an all-pass rule",
    "penalty other than cannot lead",
]
"""Every feature :func:`features` may find (spec sections in :func:`features`)."""


@dataclass(frozen=True)
class Feature:
    """One feature of a ruleset: its ``key``; ``phase``, the stops phase it is in (``None``:
    the ruleset's); ``detail``, what the key leaves open (a widow sale's mode, the member of
    a rule kind, a phase's name, a ``who``)."""

    key: FeatureKey
    phase: str | None = None
    detail: str = ""


Refusal = Callable[[Ruleset, Sequence[Feature]], list[str]]
"""How an engine says it does not run the features of one key: sentences (none: it runs
these after all, for example a member its rule-kind table has a row for)."""


def features(ruleset: Ruleset) -> tuple[Feature, ...]:
    """Every feature of ``ruleset`` some engine may not run, the ruleset's first (phases
    other than stops, spec §8; the widow sale, §5.4; trumps, §5.2; drawn boodles, §3;
    chosen-boodle antes and short stacks, §4; elimination, §9, §10; seats drawn again before
    each deal, §10; the widow's sets, §5.2),
    then each stops phase's (claims, §6.6; going out, §7; leads, §6.1; the ``if none`` rule
    and all-pass exits, §6.5; penalties, §6.8)."""
    out: list[Feature] = []
    stops = [p for p in ruleset.phases if isinstance(p, StopsPhase)]
    if not stops:
        out.append(Feature("no stops phase"))
    if len(stops) > 1:
        out.append(Feature("several stops phases", detail=str(len(stops))))
    out += [Feature("other phases", detail=p.name) for p in ruleset.phases
            if not isinstance(p, StopsPhase)]
    if ruleset.widow_sale is not None:
        sale = ruleset.widow_sale  # its mode, and a highest bid that may be withdrawn
        out.append(Feature("widow sale", detail=sale.mode + HIGH_BID_FACTS[sale.high_bid].feature))
    if ruleset.deal.trumps == "none" and any(s.suit_rule == "trumps" for s in ruleset.board):
        out.append(Feature("trump sections without trumps"))
    if ruleset.deal.trumps != "none":
        out.append(Feature("trump turn-up"))
    if any(s.suit_rule == "drawn" for s in ruleset.board):
        out.append(Feature("drawn boodles"))
    if any(line.chosen for line in ruleset.antes):
        out.append(Feature("chosen antes"))
    if BALANCE_FACTS[ruleset.session.negative].eliminates:
        out.append(Feature("elimination"))
        if ruleset.session.end_last_with_chips and ruleset.players.low > 2:
            out.append(Feature("few players still in"))
    if ruleset.session.seating == "redrawn each deal":
        out.append(Feature("seats redrawn"))
    out.append(Feature("widow sets", detail=ruleset.deal.widow_sets))
    out.append(Feature("short stack", detail=ruleset.short_stack))
    for p in stops:
        out += _phase_features(p)
    return tuple(out)


def _phase_features(p: StopsPhase) -> list[Feature]:
    out = [Feature("claims", p.name, p.claims)]
    if not p.going_out.ends_deal:
        out.append(Feature("going out without ending the deal", p.name))
    rules = [p.first_lead, p.restart, *([p.fallback.rule] if p.fallback.rule else [])]
    if any(r.who == "phase winner" for r in rules):
        out.append(Feature("lead by a phase winner", p.name))
    if WHO_FACTS[p.first_lead.who].after_run:
        out.append(Feature("first lead after a run", p.name, p.first_lead.who))
    if FALLBACK_FACTS[p.fallback.kind].leads and p.fallback.rule is None:
        out.append(Feature("lead fallback without a rule", p.name))
    if FALLBACK_FACTS[p.fallback.kind].passes and not ALL_PASS_FACTS[p.all_pass].exits:
        out.append(Feature("passes without an all-pass rule", p.name))
    if any(not FAULT_FACTS[pen.fault].at_pass or pen.forfeit_boodles for pen in p.penalties):
        out.append(Feature("penalty other than cannot lead", p.name))
    return out


def refused(table: Mapping[FeatureKey, Refusal | None], ruleset: Ruleset) -> list[str]:
    """What an engine whose support table is ``table`` says it does not run of ``ruleset``,
    in the table's order (empty: it runs the ruleset)."""
    found = features(ruleset)
    out: list[str] = []
    for key, refusal in table.items():
        of_key = [f for f in found if f.key == key]
        if refusal is not None and of_key:
            out += refusal(ruleset, of_key)
    return out
