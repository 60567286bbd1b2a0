"""Model → DSL: a :class:`~boodle.language.model.Ruleset` written back as a rules file.

:func:`print_ruleset` writes the canonical text of a ruleset, one rule a line, in the words
of ``grammar/boodle.lark``; loading that text gives the same ruleset back
(``load_text(print_ruleset(r)) == replace(r, base=None)``: the printed text is the resolved
ruleset, every ``extends`` already merged, so it extends nothing).  :func:`rules` gives the
same rules as ``key → words`` (``deal: widow`` → ``last in each round, hidden``), which
:mod:`boodle.language.ruleset_diff` compares for ``boodle check``; :func:`render` lays out
lines the way ``boodle fmt`` does (:mod:`boodle.language.formatter`: two spaces a level, one
rule a line), so a printed ruleset is already formatted.

Table-driven, like the rule kinds' tables (:mod:`boodle.rule_kinds`): each model class has a
table keyed by its field names (:data:`FIELDS`), one printing function per field, or a note
saying which other field's row prints it (:class:`With`) or why it is not a line of its own
(:class:`Elsewhere`); each ``Literal`` field has a table of words keyed by its members
(:data:`LITERALS`; the lead scopes and the ``who`` of a lead rule are also rule kinds of
:mod:`boodle.rule_kinds`).  ``tests/unit/test_printer.py`` requires a row for every field
and every member, so a construct added to the model fails there until it can be printed.

Default values are written out where the language has a line for them (``rotation: left``,
``follow: owner of next card``); a rule the language writes by leaving it out (no trumps, no
stop bonus, no ``all pass`` line) has words (``none``) and no line.  A label is written only
where it is not the builder's default (spec §3: a boodle card's label is the card, any other
section's its name, a kitty's or pot's its name capitalised; a phase's its name capitalised).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from boodle.language import model as m

__all__ = ["FIELDS", "INDENT", "LITERALS", "Block", "Elsewhere", "Line", "Rule", "With",
           "ante_lines", "print_ruleset", "render", "rules"]

INDENT = "  "
"""One level of indentation (two spaces), the printer's and ``boodle fmt``'s."""

T = TypeVar("T")


@dataclass(frozen=True)
class Rule:
    """One rule in the language's words.

    ``key``: its name in its block (``widow``, ``first lead``, a section's name);
    ``words``: its value as the language says it (``last in each round, hidden``), what
    ``boodle check`` compares; ``lines``: the DSL lines that write it (``widow: last in
    each round, hidden``), none for a rule the language writes by leaving it out.
    """

    key: str
    words: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block:
    """A ``HEAD { … }`` block: ``key`` prefixes its rules' keys in :func:`rules`
    (``deal``, ``phase play``); ``head`` is the text before ``{``."""

    key: str
    head: str
    rules: tuple[Rule, ...]


Part = Rule | Block


@dataclass(frozen=True)
class With:
    """A field printed by the row of another field of the same class (``first_dealer_rank``
    with ``first_dealer``: ``first dealer: first J dealt``)."""

    field: str


@dataclass(frozen=True)
class Elsewhere:
    """A field that is no line of its own: ``why`` says where it is written, or why not."""

    why: str


Row = Callable[[T], list[Part]] | With | Elsewhere


@dataclass(frozen=True)
class Line:
    """A laid-out line: ``code`` at ``depth`` levels of :data:`INDENT`, and a trailing
    ``comment`` (``# …``) aligned at ``comment_at`` characters; an empty ``code`` with no
    comment is a blank line."""

    depth: int
    code: str
    comment: str | None = None
    comment_at: int = 0


def render(lines: Iterable[Line]) -> str:
    """The text of laid-out lines, each ending in ``\\n`` (no trailing spaces)."""
    out: list[str] = []
    for line in lines:
        text = INDENT * line.depth + line.code if line.code else ""
        if line.comment is not None:
            text = (text.ljust(line.comment_at) + "  " if text else INDENT * line.depth) \
                + line.comment
        out.append(text.rstrip())
    return "".join(f"{text}\n" for text in out)


# ---------------------------------------------------------------- words of each Literal

FIRST_DEALER: dict[str, Callable[[m.DealSpec], str]] = {
    "high cut": lambda d: "high cut",
    "first dealt": lambda d: f"first {d.first_dealer_rank} dealt",
}
ROTATION = {"left": "left", "right": "right"}
CUT: dict[str, str | None] = {"not stated": None,
                              "player right of dealer": "player right of dealer",
                              "player left of dealer": "player left of dealer"}
WIDOW_POSITION = {"last": "last in each round", "first": "first in each round", "none": "none"}
WIDOW_VISIBILITY = {"hidden": "hidden", "exposed": "exposed"}
TRUMPS: dict[str, str | None] = {"none": None, "last widow card": "last card of widow"}
TURN_UP: dict[str, str | None] = {"nothing": None,
                                  "dealer takes boodle": "dealer takes its boodle"}
MISDEAL = {"same dealer, no new ante": "same dealer, no new ante",
           "reshuffle and redeal": "reshuffle and redeal"}
OFFER = {"sale": "sale", "auction": "auction"}
DISCARD = {"becomes widow": "becomes widow", "out of play": "out of play"}
PAYER = {"each player": "each player", "dealer": "dealer",
         "each other player": "each other player", "widow": "widow"}
FOLLOW = {"owner": "owner of next card", "turn": "next in turn"}
ALL_PASS: dict[str, str | None] = {"none": None, "end without winner": "deal ends without winner",
                                   "flip colour": "flip colour"}
CLAIMS = {"on play": "on play", "on holding": "on holding", "none": "none"}
OUT_TO = {"winner": "winner", "kitty": "kitty", "section": "section"}  # section: 'into NAME'
FAULT = {"cannot lead": "cannot lead", "lead not lowest": "lead not lowest"}
SPLIT = {"share": "share", "first seat": "first seat", "lowest seat": "lowest seat"}
OPENER: dict[str, str | None] = {"left of dealer": None, "dealer": "dealer"}
BET_LIMIT: dict[str, Callable[[m.PokerPhase], str | None]] = {
    "none": lambda p: None,
    "fixed": lambda p: f"{p.bet} chip" + ("" if p.bet == 1 else "s"),
    "up to": lambda p: f"up to {p.bet} chip" + ("" if p.bet == 1 else "s"),
    "pot limit": lambda p: "pot limit",
    "no limit": lambda p: "no limit",
}
"""A betting round's ``bets:`` line by its limit (spec §8.3); ``none``: no line."""
"""Who opens a poker phase's betting (spec §8.3); ``left of dealer`` is the default, not
written."""
WIDOW_SETS: dict[str, str | None] = {"qualifies nobody": None, "blocks sets": "blocks sets"}
SHORT_STACK: dict[str, str | None] = {"as balance": None,
                                      "section by section": "section by section"}
HIGH_BID: dict[str, str | None] = {"binds": None, "may be withdrawn": "may withdraw"}
"""The widow auction's ``high bidder:`` line (spec §5.4); ``binds`` is the default, not
written."""
LEFTOVER = {"split equally": "split equally", "stays": "stays"}
TIES = {"share": "share", "one more deal": "one more deal"}
BALANCE = {"allowed": "may go negative", "eliminate": "eliminated at zero"}
SEATING: dict[str, str | None] = {"fixed": None, "redrawn each deal": "redrawn each deal"}
"""Who sits where from deal to deal (spec §10); ``fixed`` is the default, not written."""
CHIPS = {"whole": "whole", "exact": "exact"}
CARRY = {"unclaimed": "unclaimed"}
FALLBACK: dict[str, Callable[[m.Fallback], str]] = {
    "lead": lambda f: f"lead {_choice(f.rule)}" if f.rule is not None else _unwritable(
        "an 'if none' lead without a lead rule"),
    "pass": lambda f: (f"pay {f.amount} to {f.to}{' if able' if f.if_able else ''}, "
                       if f.to is not None else "") + "pass left",
}

WHO_WORDS: dict[m.Who, Callable[[m.LeadRule], str]] = {
    "left of dealer": lambda r: "left of dealer",
    "dealer": lambda r: "dealer",
    "holder": lambda r: ("holder of lowest " + " else ".join((r.holder_suit, *r.holder_walk))
                         if r.holder_suit is not None else f"holder of {r.card}"),
    "last player": lambda r: "last player",
    "next player": lambda r: "next player",
    "phase winner": lambda r: f"winner of {r.phase}",
}
"""Who leads, as written before the comma of a lead rule (spec §6.1), one row per member
of :data:`~boodle.language.model.Who` (a rule kind: :mod:`boodle.rule_kinds`)."""

SCOPE_WORDS: dict[m.Scope, Callable[[m.LeadRule], str]] = {
    "chosen suit": lambda r: "of chosen suit",
    "longest suit": lambda r: "of longest suit",
    "other suit": lambda r: "of other suit",
    "same suit": lambda r: "of same suit",
    "opposite colour": lambda r: "of opposite colour",
    "suit": lambda r: f"{r.suit}",
    "black": lambda r: "black card",
    "red": lambda r: "red card",
    "all": lambda r: "card",
    "opposite colour card": lambda r: "opposite colour card",
}
"""What follows ``lowest`` in a lead rule (spec §6.4), one row per member of
:data:`~boodle.language.model.Scope` (a rule kind: :mod:`boodle.rule_kinds`)."""

LEAD_TIES: dict[str, Callable[[m.LeadRule], str | None]] = {
    "chosen": lambda r: None,
    "suit order": lambda r: "ties by suit order " + " ".join(r.tie_suits),
    "hand order": lambda r: "ties by hand order",
}
"""The tie rule of a ``lowest`` lead (spec §6.1), one row per member of
:data:`~boodle.language.model.TieBreak`; ``ties by choice`` is the default, not written."""

CHOICE: dict[str, Callable[[m.LeadRule], str]] = {
    "lowest": lambda r: f"lowest {SCOPE_WORDS[r.scope](r)}",
    "any": lambda r: "any card",
    "card": lambda r: f"{r.card}",
}


def _unwritable(what: str) -> str:
    raise ValueError(f"{what} cannot be written in the rules language")


def _pool(s: m.Section) -> str:
    head = s.kind if s.name == s.kind else f"{s.kind} {s.name}"
    return f"{head}{_label(s.label, s.name.capitalize())}"


def _boodle_fixed(s: m.Section) -> str:
    (card,) = s.cards
    label = _label(s.label, str(card))
    return f"boodle {card}{label}" if s.name == str(card) else f"boodle {s.name}{label} {card}"


BOODLE: dict[m.SuitRule, Callable[[m.Section], str]] = {
    "fixed": _boodle_fixed,
    "trumps": lambda s: f"boodle {s.name}{_label(s.label, s.name)} {' '.join(s.ranks)} of trumps",
    "drawn": lambda s: f"boodle {s.name}{_label(s.label, s.name)} drawn from second pack",
    "same suit": lambda s: _unwritable("a boodle paid by ranks of one suit"),
}
"""A boodle section's line by the rule that pays it (spec §3)."""

SET: dict[m.SuitRule, Callable[[m.Section], str]] = {
    "fixed": lambda s: f"set {s.name}{_label(s.label, s.name)} "
                       + " ".join(str(c) for c in s.cards),
    "same suit": lambda s: f"set {s.name}{_label(s.label, s.name)} {' '.join(s.ranks)} same suit",
    "trumps": lambda s: f"set {s.name}{_label(s.label, s.name)} {' '.join(s.ranks)} of trumps",
    "drawn": lambda s: _unwritable("a set drawn from a second pack"),
}
"""A set section's line by the rule that pays it (spec §3)."""

SECTION: dict[m.SectionKind, Callable[[m.Section], str]] = {
    "boodle": lambda s: BOODLE[s.suit_rule](s),
    "set": lambda s: SET[s.suit_rule](s),
    "kitty": _pool,
    "pot": _pool,
}
"""A board section's line by its kind (spec §3)."""


LITERALS: dict[str, Mapping[Any, object]] = {
    "DealSpec.first_dealer": FIRST_DEALER,
    "DealSpec.rotation": ROTATION,
    "DealSpec.cut": CUT,
    "DealSpec.widow_position": WIDOW_POSITION,
    "DealSpec.widow_visibility": WIDOW_VISIBILITY,
    "DealSpec.trumps": TRUMPS,
    "DealSpec.turn_up": TURN_UP,
    "DealSpec.misdeal": MISDEAL,
    "DealSpec.widow_sets": WIDOW_SETS,
    "Ruleset.short_stack": SHORT_STACK,
    "WidowSale.high_bid": HIGH_BID,
    "WidowSale.mode": OFFER,
    "WidowSale.discard": DISCARD,
    "AnteLine.payer": PAYER,
    "Section.kind": SECTION,
    "Section.suit_rule": BOODLE,
    "LeadRule.who": WHO_WORDS,
    "LeadRule.choice": CHOICE,
    "LeadRule.scope": SCOPE_WORDS,
    "LeadRule.ties": LEAD_TIES,
    "Fallback.kind": FALLBACK,
    "GoingOut.to": OUT_TO,
    "Penalty.fault": FAULT,
    "StopsPhase.follow": FOLLOW,
    "StopsPhase.all_pass": ALL_PASS,
    "StopsPhase.claims": CLAIMS,
    "HoldingPhase.split": SPLIT,
    "PokerPhase.split": SPLIT,
    "PokerPhase.opener": OPENER,
    "PokerPhase.bets": BET_LIMIT,
    "SessionSpec.leftover": LEFTOVER,
    "SessionSpec.ties": TIES,
    "SessionSpec.negative": BALANCE,
    "SessionSpec.seating": SEATING,
    "Ruleset.chips": CHIPS,
    "Ruleset.carry": CARRY,
}
"""The words of every ``Literal`` field of the model, keyed ``Class.field``, each a table
keyed by the literal's members (``Section.suit_rule``: the boodle's table; the set's,
:data:`SET`, has the same keys)."""


# ---------------------------------------------------------------- rows


def _label(label: str, default: str) -> str:
    return "" if label == default else f' "{label}"'


def _one(key: str, words: str | None, line: str = "{key}: {words}",
         unwritten: str = "none") -> list[Part]:
    """A rule written on one line (``line`` formatted with ``key`` and ``words``), or, for
    ``words`` ``None``, a rule not written whose words are ``unwritten``."""
    if words is None:
        return [Rule(key, unwritten)]
    return [Rule(key, words, (line.format(key=key, words=words),))]


def _choice(rule: m.LeadRule) -> str:
    return CHOICE[rule.choice](rule)




def _lead(rule: m.LeadRule) -> str:
    ties = LEAD_TIES[rule.ties](rule)
    return f"{WHO_WORDS[rule.who](rule)}, {_choice(rule)}" + (f", {ties}" if ties else "")


def _sorted_removed(d: m.Deck) -> list[str]:
    order = sorted(d.removed, key=lambda c: (d.suits.index(c.suit), d.rank_index(c)))
    return [str(c) for c in order]


DECK: dict[str, Row[m.Deck]] = {
    "suits": lambda d: _one("suits", " ".join(d.suits), "{key} {words}"),
    "ranks": lambda d: _one("ranks", " ".join(d.ranks), "{key} {words}"),
    "removed": lambda d: _one("remove", ", ".join(_sorted_removed(d)) or None, "{key} {words}"),
    "span": Elsewhere("where it was written: not part of the rules"),
}

def _section(s: m.Section) -> list[Part]:
    """A section's line; its words (what ``boodle check`` compares) are the line itself, so a
    label that is not the builder's default shows, whatever its case (``set hearts "Hearts"
    …``; before 2026-12-02 the words left out a label equal to the name capitalised or not,
    and a change of its case alone was hidden)."""
    line = SECTION[s.kind](s)
    return [Rule(s.name, line, (line,))]


SECTION_FIELDS: dict[str, Row[m.Section]] = {
    "name": _section,
    "label": With("name"), "kind": With("name"), "cards": With("name"), "ranks": With("name"),
    "suit_rule": With("name"),
    "span": Elsewhere("where it was written: not part of the rules"),
}


def _ante(line: m.AnteLine, board: tuple[m.Section, ...]) -> str:
    boodles = tuple(s.name for s in board if s.kind == "boodle")
    if line.chosen:
        targets = "chosen boodle"
    elif line.targets == tuple(s.name for s in board):
        targets = "every section"
    elif line.targets == boodles:
        targets = "each boodle"
    else:
        targets = ", ".join(line.targets)
    return f"{PAYER[line.payer]} {line.amount} on {targets}"


ANTE_LINE: dict[str, Row[m.AnteLine]] = {
    "payer": Elsewhere("the ante line, written by the board's row (it needs the board to say "
                       "'each boodle' or 'every section')"),
    "amount": With("payer"), "targets": With("payer"), "chosen": With("payer"),
    "span": Elsewhere("where it was written: not part of the rules"),
}

DEAL: dict[str, Row[m.DealSpec]] = {
    "first_dealer": lambda d: _one("first dealer", FIRST_DEALER[d.first_dealer](d)),
    "first_dealer_rank": With("first_dealer"),
    "rotation": lambda d: _one("rotation", ROTATION[d.rotation]),
    "cut": lambda d: _one("cut", CUT[d.cut], unwritten="not stated"),
    "widow_position": lambda d: _one("widow", f"{WIDOW_POSITION[d.widow_position]}, "
                                     f"{WIDOW_VISIBILITY[d.widow_visibility]}"
                                     + (f", {WIDOW_SETS[d.widow_sets]}"
                                        if WIDOW_SETS[d.widow_sets] else "")),
    "widow_visibility": With("widow_position"),
    "widow_sets": With("widow_position"),
    "trumps": lambda d: _one("trumps", TRUMPS[d.trumps]),
    "turn_up": lambda d: _one("turn up", TURN_UP[d.turn_up], unwritten="nothing"),
    "misdeal": lambda d: _one("misdeal", MISDEAL[d.misdeal]),
    "span": Elsewhere("where it was written: not part of the rules"),
}


def _offer(s: m.WidowSale) -> str:
    return f"{OFFER[s.mode]} {'seen' if s.seen else 'unseen'}" + (
        f" at {s.price}" if s.price else "")


def _dealer_swap(s: m.WidowSale) -> list[Part]:
    if not s.dealer_swap:
        return []
    words = ("may look and swap" if s.dealer_may_look else "may swap") + (
        " first" if s.dealer_first else "")
    return _one("dealer", words)


WIDOW_SALE: dict[str, Row[m.WidowSale]] = {
    "mode": lambda s: _one("offer", _offer(s)),
    "price": With("mode"), "seen": With("mode"),
    "price_to": lambda s: _one("price to", "dealer" if s.to_dealer else s.price_to),
    "to_dealer": With("price_to"),
    "dealer_swap": _dealer_swap,
    "dealer_may_look": With("dealer_swap"), "dealer_first": With("dealer_swap"),
    # its own key: 'dealer' is the swap's (rules() is keyed by it), the line is 'dealer: …'
    "dealer_may_withhold": lambda s: _one("dealer offers", "may withhold", "dealer: {words}")
    if s.dealer_may_withhold else [],
    "barred_by_boodle": lambda s: _one("barred", "holding a boodle card")
    if s.barred_by_boodle else [],
    "discard": lambda s: _one("discard", DISCARD[s.discard]),
    "before": lambda s: _one("when", f"before phase {s.before}") if s.before else [],
    # 'binds', the default, is not written (nor listed: the rules of a sale stay as they were)
    "high_bid": lambda s: [] if HIGH_BID[s.high_bid] is None
    else _one("high bidder", HIGH_BID[s.high_bid]),
    "span": Elsewhere("where it was written: not part of the rules"),
}

LEAD_RULE: dict[str, Row[m.LeadRule]] = {
    "who": Elsewhere("the 'first lead' and 'restart' lines of the stops phase "
                     "(WHO_WORDS and CHOICE)"),
    "choice": With("who"), "scope": With("who"), "suit": With("who"), "card": With("who"),
    "phase": With("who"), "holder_suit": With("who"), "holder_walk": With("who"),
    "ties": With("who"), "tie_suits": With("who"),
    "span": Elsewhere("where it was written: not part of the rules"),
}

FALLBACK_FIELDS: dict[str, Row[m.Fallback]] = {
    "kind": Elsewhere("the 'if none' line of the stops phase (FALLBACK)"),
    "rule": With("kind"), "amount": With("kind"), "to": With("kind"), "if_able": With("kind"),
    "span": Elsewhere("where it was written: not part of the rules"),
}


def _going_out(out: m.GoingOut) -> str:
    parts = ["ends deal"] if out.ends_deal else []
    unless = list(out.unless_taken)
    for name in out.takes:
        if unless and unless[0].section == name:
            parts.append(f"takes {name} unless taken in {unless.pop(0).phase}")
        else:
            parts.append(f"takes {name}")
    parts.append(f"{out.per_card} per card into {out.into}" if out.to == "section"
                 else f"{out.per_card} per card to {OUT_TO[out.to]}")
    parts += [f"holder of {c} excused" for c in out.excused]
    return ", ".join(parts)


GOING_OUT: dict[str, Row[m.GoingOut]] = {
    "ends_deal": Elsewhere("the 'going out' line of the stops phase"),
    "takes": With("ends_deal"), "per_card": With("ends_deal"), "to": With("ends_deal"),
    "excused": With("ends_deal"), "unless_taken": With("ends_deal"), "into": With("ends_deal"),
    "span": Elsewhere("where it was written: not part of the rules"),
}


def _penalty(p: m.Penalty) -> Rule:
    words = f"pay {p.amount} to {p.to}" + (", forfeit boodles" if p.forfeit_boodles else "")
    return Rule(f"penalty: {FAULT[p.fault]}", words, (f"penalty: {FAULT[p.fault]}, {words}",))


PENALTY: dict[str, Row[m.Penalty]] = {
    "fault": Elsewhere("a 'penalty' line of the stops phase"),
    "amount": With("fault"), "to": With("fault"), "forfeit_boodles": With("fault"),
    "span": Elsewhere("where it was written: not part of the rules"),
}

STOP_BONUS: dict[str, Row[m.StopBonus]] = {
    "amount": Elsewhere("the 'stop bonus' line of the stops phase"),
    "source": With("amount"),
    "span": Elsewhere("where it was written: not part of the rules"),
}

_HEAD = Elsewhere("the phase's head: phase NAME \"LABEL\" is KIND {")
_SPAN = Elsewhere("where it was written: not part of the rules")


def _kind(word: str) -> Callable[[object], list[Part]]:
    return lambda p: [Rule("kind", word)]


def _fallback(f: m.Fallback) -> list[Part]:
    """The ``if none`` line; its words are the line's, a fee of 0 chips included (``pay 0 to
    kitty, pass left``: the engine charges nothing, but the rules file says a fee, and
    ``boodle check`` shows a change to or from it; before 2026-12-02 it was hidden)."""
    words = FALLBACK[f.kind](f)
    return [Rule("if none", words, (f"if none: {words}",))]


STOPS: dict[str, Row[m.StopsPhase]] = {
    "name": _kind("stops"),
    "label": _HEAD,
    "first_lead": lambda p: _one("first lead", _lead(p.first_lead)),
    "follow": lambda p: _one("follow", FOLLOW[p.follow]),
    "stop_at_top": lambda p: _one("stop", ("top rank, " if p.stop_at_top else "")
                                  + "next card held by nobody"),
    "restart": lambda p: _one("restart", _lead(p.restart)),
    "fallback": lambda p: _fallback(p.fallback),
    "all_pass": lambda p: _one("all pass", None if ALL_PASS[p.all_pass] is None else
                               f"{ALL_PASS[p.all_pass]}, {p.all_pass_charge} per card to "
                               f"{p.all_pass_to}" if p.all_pass_to is not None
                               else ALL_PASS[p.all_pass]),
    "all_pass_charge": With("all_pass"), "all_pass_to": With("all_pass"),
    "claims": lambda p: _one("claims", CLAIMS[p.claims]),
    "going_out": lambda p: _one("going out", _going_out(p.going_out)),
    "stop_bonus": lambda p: _one("stop bonus", None if p.stop_bonus is None else
                                 f"{p.stop_bonus.amount} from {p.stop_bonus.source}"),
    "penalties": lambda p: [_penalty(pen) for pen in p.penalties],
    "span": _SPAN,
}

HOLDING: dict[str, Row[m.HoldingPhase]] = {
    "name": _kind("holding"),
    "label": _HEAD,
    "sections": lambda p: _one("pays", ", ".join(p.sections)),
    "split": lambda p: _one("split", SPLIT[p.split]),
    "span": _SPAN,
}

POKER: dict[str, Row[m.PokerPhase]] = {
    "name": _kind("poker"),
    "label": _HEAD,
    "pot": lambda p: _one("pot", p.pot),
    "best_of": lambda p: _one("best", f"{p.best_of} cards"),
    "ace_low_straight": lambda p: _one("ace low straight", "yes" if p.ace_low_straight
                                       else "no"),
    "split": lambda p: _one("split", SPLIT[p.split]),
    "bets": lambda p: _one("bets", BET_LIMIT[p.bets](p)),
    "bet": With("bets"),
    "raises": lambda p: _one("raises", None if p.raises is None or not p.betting
                             else str(p.raises), unwritten="no cap"),
    "opener": lambda p: _one("opener", OPENER[p.opener] if p.betting else None,
                             unwritten="left of dealer"),
    "blinds": lambda p: _one("blinds", ", ".join(map(str, p.blinds))
                             + (" chip" if p.blinds == (1,) else " chips")
                             if p.blinds and p.betting else None, unwritten="none"),
    "span": _SPAN,
}


PHASES: dict[type, tuple[str, Mapping[str, Row[Any]]]] = {
    m.StopsPhase: ("stops", STOPS),
    m.HoldingPhase: ("holding", HOLDING),
    m.PokerPhase: ("poker", POKER),
}
"""Each kind of phase: the word of its head and its table (spec §6-8)."""


def _session_end(s: m.SessionSpec) -> list[Part]:
    """The ``end`` lines of a session (spec §10): one rule, as many lines as it has ends."""
    if s.end_never:
        ends = ["never"]
    else:
        ends = [] if s.rotations is None else [
            f"after {s.rotations} rotation{'s' * (s.rotations != 1)}"]
        ends += ["when a player has no chips"] * s.end_when_broke
        ends += ["last player with chips"] * s.end_last_with_chips
        ends += [] if s.end_target is None else [f"a player reaches {s.end_target} chips"]
    return [Rule("end", ", ".join(ends), tuple(f"end: {end}" for end in ends))]


SESSION: dict[str, Row[m.SessionSpec]] = {
    "start_chips": lambda s: _one("start", f"{s.start_chips} chips"),
    "rotations": _session_end,
    "end_when_broke": With("rotations"), "end_last_with_chips": With("rotations"),
    "end_target": With("rotations"), "end_never": With("rotations"),
    "leftover": lambda s: _one("leftover", LEFTOVER[s.leftover]),
    "ties": lambda s: _one("ties", TIES[s.ties]),
    "negative": lambda s: _one("balance", BALANCE[s.negative]),
    "seating": lambda s: _one("seating", SEATING[s.seating], unwritten="fixed"),
    "span": _SPAN,
}


def _block(key: str, head: str, table: Mapping[str, Row[T]], value: T) -> Block:
    found: list[Rule] = []
    for row in table.values():
        if callable(row):
            found += [p for p in row(value) if isinstance(p, Rule)]
    return Block(key, head, tuple(found))


def _phase(p: m.Phase) -> Block:
    word, table = PHASES[type(p)]
    head = f"phase {p.name}{_label(p.label, p.name.capitalize())} is {word}"
    block = _block(f"phase {p.name}", head, table, p)
    return Block(block.key, block.head, (Rule("label", p.label), *block.rules))


def _rows(table: Mapping[str, Row[T]], value: T) -> list[Part]:
    return [part for row in table.values() if callable(row) for part in row(value)]


RULESET: dict[str, Row[m.Ruleset]] = {
    "name": Elsewhere("the head: variant NAME {"),
    "base": Elsewhere("not written: the printed text is the resolved ruleset, every "
                      "'extends' merged, so it extends nothing"),
    "title": lambda r: _one("title", r.title, '{key} "{words}"'),
    "about": lambda r: _one("about", r.about, '{key} "{words}"') if r.about
    else [Rule("about", "")],
    "sources": lambda r: _one("source", ", ".join(f'"{s}"' for s in r.sources), "{key} {words}")
    if r.sources else [Rule("source", "")],
    "version": lambda r: _one("version", str(r.version), "{key} {words}"),
    "players": lambda r: _one("players", f"{r.players.low} to {r.players.high}",
                              "{key} {words}"),
    "chips": lambda r: _one("chips", CHIPS[r.chips], "{key} {words}"),
    "carry": lambda r: _one("carry", CARRY[r.carry]),
    "deck": lambda r: [_block("deck", "deck", DECK, r.deck)],
    "board": lambda r: [Block("board", "board", tuple(
        rule for s in r.board for rule in _rows(SECTION_FIELDS, s) if isinstance(rule, Rule)))],
    "antes": lambda r: [Block("ante", "ante", (
        *(Rule("ante", line, (line,)) for line in ante_lines(r)),
        *(p for p in _one("short stack", SHORT_STACK[r.short_stack], unwritten="as balance")
          if isinstance(p, Rule))))],
    "short_stack": With("antes"),
    "deal": lambda r: [_block("deal", "deal", DEAL, r.deal)],
    "widow_sale": lambda r: [] if r.widow_sale is None else [
        _block("widow sale", "widow sale", WIDOW_SALE, r.widow_sale)],
    "phases": lambda r: [_phase(p) for p in r.phases],
    "session": lambda r: [_block("session", "session", SESSION, r.session)],
    "span": _SPAN,
    "origin": Elsewhere("where each rule was written and the ruleset it extends: not part "
                        "of the rules"),
}
"""The whole ruleset, in the order the printer writes it."""

FIELDS: dict[type, Mapping[str, object]] = {
    m.Ruleset: RULESET, m.PlayerRange: {
        "low": Elsewhere("the ruleset's players row: players LOW to HIGH"), "high": With("low")},
    m.Deck: DECK, m.Section: SECTION_FIELDS, m.AnteLine: ANTE_LINE, m.DealSpec: DEAL,
    m.WidowSale: WIDOW_SALE, m.LeadRule: LEAD_RULE, m.Fallback: FALLBACK_FIELDS,
    m.GoingOut: GOING_OUT, m.Penalty: PENALTY, m.StopBonus: STOP_BONUS, m.StopsPhase: STOPS,
    m.HoldingPhase: HOLDING, m.PokerPhase: POKER, m.SessionSpec: SESSION,
}
"""Every dataclass of the model and its table, keyed by field name (``PlayerRange``'s fields
are written by the ruleset's ``players`` row)."""


# ---------------------------------------------------------------- entry points


def ante_lines(r: m.Ruleset) -> list[str]:
    """The ante lines of ``r`` as written (``each player 1 on each boodle``), in order."""
    return [_ante(line, r.board) for line in r.antes]


def parts(r: m.Ruleset) -> list[Part]:
    """Every rule and block of ``r``, in the order the printer writes them."""
    return _rows(RULESET, r)


def rules(r: m.Ruleset) -> dict[str, str]:
    """Every rule of ``r`` as ``key → words``, in file order: top-level rules by their name
    (``players``), a block's as ``BLOCK: NAME`` (``deal: widow``, ``board: A♥``, ``phase
    play: first lead``; a phase's ``kind`` and ``label`` too).  Ante lines, which add up
    rather than replace one another (spec §4), are not in it: :func:`ante_lines`."""
    out: dict[str, str] = {}
    for part in parts(r):
        if isinstance(part, Rule):
            out[part.key] = part.words
        else:  # ante lines add up: only the ante block's other rules (its short stack)
            out.update({f"{part.key}: {rule.key}": rule.words for rule in part.rules
                        if not (part.key == "ante" and rule.key == "ante")})
    return out


def layout(r: m.Ruleset) -> list[Line]:
    """The lines of the canonical text of ``r``: the head, documentation, the top-level
    rules, then each block, a blank line before each group."""
    lines = [Line(0, f"variant {r.name} {{")]
    previous: str | None = None
    for part in parts(r):
        if isinstance(part, Block):
            lines.append(Line(0, ""))
            if any(rule.lines for rule in part.rules):
                lines.append(Line(1, f"{part.head} {{"))
                lines += [Line(2, text) for rule in part.rules for text in rule.lines]
                lines.append(Line(1, "}"))
            else:
                lines.append(Line(1, f"{part.head} {{}}"))
            previous = "block"
            continue
        group = "documentation" if part.key in _DOCUMENTATION else "rules"
        if previous is not None and group != previous and part.lines:
            lines.append(Line(0, ""))
        lines += [Line(1, text) for text in part.lines]
        previous = group if part.lines else previous
    lines.append(Line(0, "}"))
    return lines


_DOCUMENTATION = frozenset({"title", "about", "source", "version"})


def print_ruleset(r: m.Ruleset) -> str:
    """The canonical rules file of ``r`` (spec §11): every rule on a line of its own, in the
    order deck, board, ante, deal, widow sale, phases, session; laid out as ``boodle fmt``
    lays out a file.  Loading it gives ``r`` back, without its ``base`` (the text extends
    nothing).  Raises ``ValueError`` for a ruleset the builder cannot make (a boodle paid
    by same-suit ranks), which the language cannot write."""
    return render(layout(r))
