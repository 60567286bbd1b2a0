"""The validity checks of a ruleset, stated once: one list, read by the builder and the engine.

:func:`problems` finds the problems of a built :class:`~boodle.language.model.Ruleset` from
the model alone, each located by the span of the line that states it
(:meth:`boodle.language.origin.Origin.span`; ``None`` for a ruleset made in Python, which
has no origin).  The builder (:mod:`boodle.language.build`) refuses a phase with the first
problem :func:`phase_problems` finds in it, as a :class:`BoodleError` at that span, so
``boodle check`` and the language server's diagnostics (which both report the builder's
errors) read this list; the reference engine (:func:`boodle.engine.support.check_playable`)
reads it for rulesets made in Python (issue 19, step 2).

The checks here are the deal's trumps and widow sets (spec §5.2: what the deal must deal for
a trump section, a turn-up, ``blocks sets``) and the exits of a stops phase (spec §6.5: what
the restarter does when the lead rule allows no card, and what ends a round where every
player passes), ``claims: none`` (§6.6), the hands (§1), what a stops phase names that is
not there (§6.1, §6.5, §6.7, §6.8, §7: read by ``check_playable``) and the cards, ranks and
antes named (§3, §4: read by :func:`boodle.verify.wellformed.well_formed`).  The other
checks still live where they are made (see :data:`ProblemKey`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from boodle.language import model as m
from boodle.language.cards import Card
from boodle.language.errors import BoodleError, Span
from boodle.language.kind_facts import (
    ALL_PASS_FACTS,
    CLAIM_FACTS,
    FALLBACK_FACTS,
    PAID_TO_FACTS,
    SCOPE_FACTS,
    TURN_UP_FACTS,
    WHO_FACTS,
    WIDOW_SETS_FACTS,
)
from boodle.language.origin import owner_of

__all__ = ["MAX_ANTE", "At", "Problem", "ProblemKey", "Where", "deck_problems",
           "first_lead_problems", "hand_problems", "part_problems", "phase_problems", "problems",
           "trump_problems", "unclaimed_problems", "widow_sets_problems"]

ProblemKey = Literal[
    "trump section without trumps",
    "trumps without a widow",
    "turn-up without trumps",
    "widow sets without a widow",
    "widow sets without a same-suit set",
    "first lead by a player of a run",
    "first lead of a stopped suit",
    "lead can fail without if none",
    "passes without an all-pass exit",
    "flip colour without a colour restart",
    "if none can fail",
    "if none can fail the first lead",
    "claims none leaves a section unpaid",
    "a hand without a card",
    "if none lead without a lead rule",
    "a pass fee to a section not on the board",
    "a one-card lead without a card",
    "going out to a section not on the board",
    "going out into a kitty not on the board",
    "a penalty to a section not on the board",
    "a stop bonus from a section not on the board",
    "a card not in the deck",
    "a card paying two boodles",
    "a section naming a card or rank twice",
    "a rank not in the deck",
    "an ante out of range",
]
"""Every problem :func:`problems` may find, in the order it looks for them (the builder's
order): the deal's (:func:`trump_problems`, :func:`widow_sets_problems`), each stops
phase's (:func:`first_lead_problems`, :func:`phase_problems`), the sections ``claims: none``
leaves unpaid (:func:`unclaimed_problems`), a player count the deck cannot deal
(:func:`hand_problems`), then what a stops phase made in Python may lack that the grammar
always gives (:func:`part_problems`: a lead rule, a card, a section or a kitty it names),
then the cards, ranks and chips the ruleset names (:func:`deck_problems`: a card or rank
the deck lacks, a card named twice, an ante out of range), which the builder refuses while
it reads the clause too and :mod:`boodle.verify.wellformed` reads from here, with the
hands the deck cannot deal, as its well-formedness.

The builder never finds the last two groups in a ruleset it built: it refuses each while
it reads the clause, at the name's own span and in its own words (``no section 'x' on the
board``, with a did-you-mean hint; ``payments go into the kitty, but the board has none``;
``rank 8 is not in the deck``), and the grammar cannot write an ``if none: lead`` without a
rule nor a one-card lead without its card.  :func:`boodle.engine.support.check_playable`
refuses the stops phase's in a ruleset made in Python, ``boodle verify`` the deck's.

Still checked elsewhere, not yet here: the other checks the builder makes while it reads
a clause (a number out of range other than an ante's, a run that cannot stop on an unheld
card: the model cannot say these); :func:`boodle.verify.wellformed.session_end` is a
report, not a fault.
"""

Where = Callable[[str], Span | None]
"""Where a field of a stops phase is written: the span of the line that states the field
named, or ``None`` (a default, or a ruleset made in Python)."""

At = Callable[[str, str], Span | None]
"""Where a field of the ruleset or of one of its blocks is written: ``(owner, field)`` →
the span of the line that states it (owners as :func:`boodle.language.origin.owner_of`
names them: ``Ruleset``, ``DealSpec``), or ``None``."""


@dataclass(frozen=True)
class Problem:
    """One problem of a ruleset: its ``key``; ``phase``, the stops phase it is in;
    ``message`` and ``hint``, the builder's words; ``span``, the line it is found at."""

    key: ProblemKey
    phase: str | None
    message: str
    span: Span | None
    hint: str | None = None

    def error(self, fallback_span: Span | None = None) -> BoodleError:
        """This problem as the builder raises it (at ``fallback_span`` when it has no span
        of its own)."""
        return BoodleError(self.message, self.span or fallback_span, hint=self.hint)


def problems(ruleset: m.Ruleset) -> list[Problem]:
    """Every problem of ``ruleset`` (empty: none of these), phase by phase, each located by
    ``ruleset.origin`` (spans ``None`` without one)."""
    origin = ruleset.origin

    def at(owner: str, name: str) -> Span | None:
        return origin.spans.get((owner, name)) if origin is not None else None

    out = trump_problems(ruleset.deal, ruleset.board, at)
    out += widow_sets_problems(ruleset.deal, ruleset.board, at)
    for p in ruleset.phases:
        if isinstance(p, m.StopsPhase):
            out += first_lead_problems(p.first_lead, p.name)
            out += phase_problems(p, _where(ruleset, p))
    out += unclaimed_problems(ruleset.phases, ruleset.board, ruleset.deal, at)
    out += hand_problems(ruleset.players, ruleset.deck, ruleset.deal, at)
    for p in ruleset.phases:
        if isinstance(p, m.StopsPhase):
            out += part_problems(p, ruleset.board)
    out += deck_problems(ruleset)
    return out


def trump_problems(deal: m.DealSpec, board: tuple[m.Section, ...], at: At) -> list[Problem]:
    """What the trumps of ``deal`` leave unpaid or undealt (spec §5.2): a section paid by a
    trump with no trumps (at the section), trumps turned from no widow, a turn-up with no
    trumps (at the deal block); ``at`` locates the lines."""
    out = [Problem("trump section without trumps", None,
                   f"section '{s.name}' is paid by a trump but the deal sets no trumps",
                   s.span, "add 'trumps: last card of widow' to the deal block")
           for s in board if s.suit_rule == "trumps" and deal.trumps == "none"]
    if deal.trumps != "none" and deal.widow_position == "none":
        out.append(Problem("trumps without a widow", None,
                           "trumps are turned from the widow, but there is no widow",
                           at("Ruleset", "deal"),
                           "give the deal a widow: widow: last in each round"))
    if TURN_UP_FACTS[deal.turn_up].dealer_takes and deal.trumps == "none":
        out.append(Problem("turn-up without trumps", None,
                           "'turn up: dealer takes its boodle' but no card is turned up",
                           at("Ruleset", "deal"),
                           "add 'trumps: last card of widow' to the deal block"))
    return out


def widow_sets_problems(deal: m.DealSpec, board: tuple[m.Section, ...], at: At
                        ) -> list[Problem]:
    """Spec §5.2 ``blocks sets``: it needs a widow, and a ``same suit`` set for it to change
    anything (a set of fixed cards, or of trumps, complete in the widow is held by nobody
    anyway).  Located at the deal's widow line (else the deal block)."""
    facts = WIDOW_SETS_FACTS[deal.widow_sets]
    where = at("DealSpec", "widow_position") or at("Ruleset", "deal")
    out: list[Problem] = []
    if facts.needs_widow and deal.widow_position == "none":
        out.append(Problem("widow sets without a widow", None,
                           f"widow: '{deal.widow_sets}' but the deal has no widow", where,
                           "remove 'blocks sets', or deal a widow: "
                           "widow: last in each round, blocks sets"))
    if facts.needs_same_suit_set and not any(
            s.kind == "set" and s.suit_rule == "same suit" for s in board):
        out.append(Problem(
            "widow sets without a same-suit set", None,
            f"widow: '{deal.widow_sets}' changes nothing: the board has no 'same suit' set "
            "(a set of named cards that lies in the widow is held by nobody anyway)", where,
            "remove 'blocks sets', or make a set one of any suit: "
            "set run \"8-9-10\" 8 9 10 same suit"))
    return out


def unclaimed_problems(phases: tuple[m.Phase, ...], board: tuple[m.Section, ...],
                       deal: m.DealSpec, at: At) -> list[Problem]:
    """Spec §6.6: under ``claims: none`` every boodle and set section must be paid by some
    other rule (a holding phase's ``pays``, the stops phase's going out, or for a boodle of
    trumps the dealer's turn-up, §5.2), or its chips could never leave it before the
    session's end.  Located at the stops phase's ``claims`` line."""
    out: list[Problem] = []
    for p in phases:
        if not isinstance(p, m.StopsPhase) or CLAIM_FACTS[p.claims].on_play \
                or CLAIM_FACTS[p.claims].at_start:
            continue
        paid = {name for q in phases if isinstance(q, m.HoldingPhase) for name in q.sections}
        paid |= {name for q in phases if isinstance(q, m.StopsPhase)
                 for name in q.going_out.takes}
        unpaid = [s.name for s in board if s.kind in ("boodle", "set")
                  and s.name not in paid
                  and not (s.kind == "boodle" and s.suit_rule == "trumps"
                           and TURN_UP_FACTS[deal.turn_up].dealer_takes)]
        if unpaid:
            names = ", ".join(unpaid)
            one = len(unpaid) == 1
            out.append(Problem(
                "claims none leaves a section unpaid", p.name,
                f"'claims: none': nothing takes {'section' if one else 'sections'} "
                f"{names}: no holding phase pays {'it' if one else 'them'} and "
                "going out does not take " + ("it" if one else "them"),
                at(owner_of(p), "claims"),
                f"pay {names} in a holding phase ('pays: {names}'), or write "
                "'claims: on play' (spec §6.6)"))
    return out


def hand_problems(players: m.PlayerRange, deck: m.Deck, deal: m.DealSpec, at: At
                  ) -> list[Problem]:
    """Spec §1, §5.2: with the most players allowed, every hand (the widow's too) gets at
    least one card of the deck.  Located at the ``players`` line.  (Checked at the most
    players only: fewer players need fewer cards.)"""
    cards = len(deck.cards())
    hands = players.high + (0 if deal.widow_position == "none" else 1)
    if cards >= hands:
        return []
    return [Problem("a hand without a card", None,
                    f"with {players.high} players the deck of {cards} cards "
                    "cannot give every hand a card", at("Ruleset", "players"),
                    f"allow at most {cards - (hands - players.high)} players")]


def part_problems(p: m.StopsPhase, board: tuple[m.Section, ...]) -> list[Problem]:
    """What the stops phase ``p`` names that is not there (spec §6.1, §6.5, §6.7, §6.8, §7):
    an ``if none: lead`` without its lead rule, a one-card lead rule without its card, a
    section the pass fee, going out, a penalty or the stop bonus names that is not on
    ``board``, going out's payments into a kitty the board lacks.  Each located at the
    span of the part that names it (the model's own ``span``: ``None`` for a part made in
    Python), in :data:`ProblemKey`'s order, a key's problems in the phase's order.
    Messages name the part, not the phase (``Problem.phase`` does)."""
    names = {s.name for s in board}
    sections = (", ".join(s.name for s in board) or "none")
    fb, out_, phase = p.fallback, p.going_out, p.name
    out: list[Problem] = []

    def missing(key: ProblemKey, what: str, name: str | None, span: Span | None) -> None:
        if name not in names:
            out.append(Problem(key, phase, f"{what} names section {name!r}, which is not on "
                               "the board", span, f"sections are: {sections}"))

    if FALLBACK_FACTS[fb.kind].leads and fb.rule is None:
        out.append(Problem("if none lead without a lead rule", phase,
                           "the 'if none: lead' fallback has no lead rule", fb.span,
                           "write, for example: if none: lead lowest of same suit"))
    if FALLBACK_FACTS[fb.kind].passes and fb.amount > 0:
        missing("a pass fee to a section not on the board", "the pass fallback", fb.to,
                fb.span)
    out += [Problem("a one-card lead without a card", phase,
                    "a lead rule of one card names no card", rule.span,
                    "name the card, for example: holder of 2♣, 2♣")
            for rule in (p.first_lead, p.restart, *([fb.rule] if fb.rule else []))
            if rule.choice == "card" and rule.card is None]
    for name in (*out_.takes, *([out_.into] if out_.into else [])):
        missing("going out to a section not on the board", "going out", name, out_.span)
    if PAID_TO_FACTS[out_.to].needs_kitty and not any(s.kind == "kitty" for s in board):
        out.append(Problem("going out into a kitty not on the board", phase,
                           "going out pays into the kitty, but the board has none",
                           out_.span, "add a kitty to the board, or pay the winner: "
                           "1 per card to winner"))
    for pen in p.penalties:
        if pen.to != "each opponent":
            missing("a penalty to a section not on the board",
                    f"the penalty for '{pen.fault}'", pen.to, pen.span)
    bonus = p.stop_bonus
    if bonus is not None and bonus.source != "each opponent":
        missing("a stop bonus from a section not on the board", "the stop bonus",
                bonus.source, bonus.span)
    return out


MAX_ANTE = 1_000_000
"""The most chips an ante line pays (spec §4; the builder's ``MAX_AMOUNT``)."""


def _named_cards(ruleset: m.Ruleset) -> list[tuple[str, Card, Span | None]]:
    """Every card the ruleset names, with the words for where and its span: a section's
    cards, a stops phase's lead rules' and going out's excused cards."""
    out = [(f"section {s.name}", c, s.span) for s in ruleset.board for c in s.cards]
    for p in ruleset.phases:
        if isinstance(p, m.StopsPhase):
            rules = [("first lead", p.first_lead), ("restart", p.restart)]
            if p.fallback.rule is not None:
                rules.append(("if none", p.fallback.rule))
            out += [(f"phase {p.name}: {what}", r.card, r.span) for what, r in rules
                    if r.card is not None]
            out += [(f"phase {p.name}: going out excuses", c, p.going_out.span)
                    for c in p.going_out.excused]
    return out


def deck_problems(ruleset: m.Ruleset) -> list[Problem]:
    """What the ruleset names that the deck cannot give, or names twice, and the antes'
    range (spec §3, §4): a card a section, a lead rule or going out's excused clause names
    that is not in the deck (or is removed from it); a card that pays two boodle sections;
    a section that names a card or rank twice; a rank of a section the deck lacks; an ante
    line outside 0 to :data:`MAX_ANTE` chips.  In that order (a section's twice, then its
    ranks), each at the span of the section, rule, clause or ante line that names it; the
    words are the verifier's (:func:`boodle.verify.wellformed.well_formed`)."""
    deck = set(ruleset.deck.cards())
    removed = ruleset.deck.removed
    out = [Problem("a card not in the deck", None,
                   f"{where} names {c}, which is not in the deck"
                   + (" (it is removed)" if c in removed else ""), span,
                   f"the deck says 'remove {c}'" if c in removed
                   else "name a card of the deck's suits and ranks")
           for where, c, span in _named_cards(ruleset) if c not in deck]
    boodles = [(c, s.span) for s in ruleset.board if s.kind == "boodle" for c in s.cards]
    fixed = Counter(c for c, _ in boodles)
    seen: set[Card] = set()
    again: dict[Card, Span | None] = {}  # the span of the first section that repeats a card
    for c, span in boodles:
        if c in seen:
            again.setdefault(c, span)
        seen.add(c)
    out += [Problem("a card paying two boodles", None, f"{c} pays {k} boodle sections",
                    again[c], f"keep one boodle section of {c}")
            for c, k in fixed.items() if k > 1]
    for s in ruleset.board:
        if len(set(s.cards)) != len(s.cards) or len(set(s.ranks)) != len(s.ranks):
            out.append(Problem("a section naming a card or rank twice", None,
                               f"section {s.name} names a card or rank twice", s.span,
                               "name each card or rank of a section once"))
        out += [Problem("a rank not in the deck", None,
                        f"section {s.name} names rank {r}, which the deck does not have",
                        s.span, "ranks are: " + " ".join(ruleset.deck.ranks))
                for r in s.ranks if r not in ruleset.deck.ranks]
    out += [Problem("an ante out of range", None, f"an ante line pays {a.amount} chips",
                    a.span, f"antes are from 0 to {MAX_ANTE:,} chips")
            for a in ruleset.antes if not 0 <= a.amount <= MAX_ANTE]
    return out


def _where(ruleset: m.Ruleset, phase: m.StopsPhase) -> Where:
    origin = ruleset.origin
    return lambda name: origin.span(phase, name) if origin is not None else None


def first_lead_problems(rule: m.LeadRule, phase: str) -> list[Problem]:
    """Spec §6.1: the first lead of a deal comes before any run, so it cannot go to a player
    a run names (the last player, the stopper) nor use a suit a stop names.  Located at the
    rule's own span (the text after ``first lead:``)."""
    out: list[Problem] = []
    if rule.who in WHO_FACTS and WHO_FACTS[rule.who].after_run:
        out.append(Problem("first lead by a player of a run", phase,
                           f"the first lead cannot be by the '{rule.who}': no run has been "
                           "played", rule.span,
                           "write, for example: first lead: left of dealer, …"))
    if SCOPE_FACTS[rule.scope].after_stop:
        out.append(Problem("first lead of a stopped suit", phase,
                           f"the first lead cannot use '{rule.scope}': no run has stopped yet",
                           rule.span, "use lowest of chosen suit, or of longest suit"))
    return out


def phase_problems(p: m.StopsPhase, where: Where) -> list[Problem]:
    """Every problem of the stops phase ``p`` (spec §6.5), in :data:`ProblemKey`'s order;
    ``where`` locates its lines.  Only ``first_lead``, ``restart``, ``fallback`` and
    ``all_pass`` are read (the builder checks a phase before the rest is built)."""
    out: list[Problem] = []
    first, restart, fallback, all_pass = p.first_lead, p.restart, p.fallback, p.all_pass

    def add(key: ProblemKey, message: str, at: str, hint: str) -> None:
        out.append(Problem(key, p.name, message, where(at), hint))

    can_fail = any(_may_find_nothing(rule) for rule in (first, restart))
    if can_fail and fallback.span is None:  # no 'if none' line: the default fallback
        add("lead can fail without if none",
            "the lead rule can leave a player with no legal card, and no 'if none' rule "
            "says what happens then", "restart",
            "add: if none: lead lowest of same suit  (or: if none: pass left)")
    if FALLBACK_FACTS[fallback.kind].passes and not ALL_PASS_FACTS[all_pass].exits:
        add("passes without an all-pass exit",
            "players may pass, but nothing ends a round where every player passes", "fallback",
            "add: all pass: deal ends without winner  (or: all pass: flip colour)")
    if ALL_PASS_FACTS[all_pass].needs_colour and not SCOPE_FACTS[restart.scope].colour:
        add("flip colour without a colour restart",
            "'all pass: flip colour' needs a restart by colour", "all_pass",
            "restart: last player, lowest of opposite colour")
    leads = FALLBACK_FACTS[fallback.kind].leads
    if leads and can_fail and not _covers(restart, fallback.rule):
        add("if none can fail", "the 'if none' lead can itself find no card for some hands",
            "fallback", "use 'if none: lead lowest of chosen suit', or a pass")
    if leads and fallback.rule is not None and _may_find_nothing(first) \
            and not _covers_first(first, fallback.rule):
        add("if none can fail the first lead",
            "the 'if none' lead can find no card for the first lead: "
            + ("before any run has stopped, 'same suit' allows nothing"
               if fallback.rule.scope == "same suit" else
               f"'{_lead_words(fallback.rule)}' can allow nothing either"), "fallback",
            "use 'if none: lead lowest of chosen suit', or a pass; or a first lead "
            "that always finds a card (left of dealer, lowest of chosen suit)")
    return out


def _covers(rule: m.LeadRule, fallback: m.LeadRule | None) -> bool:
    """Whether ``fallback`` always finds a card when ``rule`` finds none (spec §6.5).

    Total fallbacks (chosen, longest or any suit) always do; ``same suit``
    covers exactly the hands ``other suit`` fails on: only the stopped suit.
    """
    if fallback is None or not _may_find_nothing(fallback):
        return True
    return rule.scope == "other suit" and fallback.scope == "same suit" and rule.choice != "card"


def _covers_first(first: m.LeadRule, fallback: m.LeadRule | None) -> bool:
    """Whether ``fallback`` always finds a card when the first lead ``first`` finds none
    (spec §6.5).  The holder of a card leading it always holds it (§6.1: unheld, the lead
    goes to the next card up, else to the dealer's left with their lowest card); otherwise
    only a total fallback does, since before any stop ``same suit`` allows nothing."""
    if first.who == "holder" and first.choice == "card":
        return True
    if first.who == "holder" and first.choice == "lowest" and first.scope == "suit" \
            and first.suit == first.holder_suit:  # its holder holds that card (a walk's too)
        return True
    return fallback is None or not _may_find_nothing(fallback)


def _lead_words(rule: m.LeadRule) -> str:
    """A lead rule's choice as written (``lowest of same suit``, ``lowest red card``, ``2♣``)."""
    if rule.choice == "card":
        return str(rule.card)
    if SCOPE_FACTS[rule.scope].per_suit:
        return f"{rule.choice} of {rule.scope}"
    if rule.scope == "opposite colour card":
        return f"{rule.choice} opposite colour card"
    return f"{rule.choice} {rule.suit if rule.scope == 'suit' else rule.scope + ' card'}" \
        if rule.scope != "all" else f"{rule.choice} card"


def _may_find_nothing(rule: m.LeadRule) -> bool:
    """Whether a lead rule can allow no card to a player who still holds cards."""
    if rule.choice == "card":
        return True
    return not SCOPE_FACTS[rule.scope].total
