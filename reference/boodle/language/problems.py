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
not there (§6.1, §6.5, §6.7, §6.8, §7: read by ``check_playable``), the cards, ranks and
antes named (§3, §4: read by :func:`boodle.verify.wellformed.well_formed`) and the sections
named elsewhere (§3, §4, §8).  The builder refuses a section, card, rank or ante at fault
while it reads the clause, through the one-item check of this module that finds it
(:func:`section_missing` …), at the word's own span.  The other checks still live where
they are made (see :data:`ProblemKey`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from boodle.language import model as m
from boodle.language.cards import Card
from boodle.language.errors import BoodleError, Span, did_you_mean
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

__all__ = ["MAX_ANTE", "At", "Problem", "ProblemKey", "Where", "ante_out_of_range",
           "card_missing", "deck_problems", "first_lead_problems", "hand_problems",
           "kitty_missing", "missing_from_deck", "named_twice", "paid_twice", "part_problems",
           "phase_problems", "problems", "rank_missing", "section_missing",
           "section_problems", "trump_problems", "unclaimed_problems", "widow_sets_problems"]

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
    "a section not on the board",
]
"""Every problem :func:`problems` may find, in the order it looks for them (the builder's
order): the deal's (:func:`trump_problems`, :func:`widow_sets_problems`), each stops
phase's (:func:`first_lead_problems`, :func:`phase_problems`), the sections ``claims: none``
leaves unpaid (:func:`unclaimed_problems`), a player count the deck cannot deal
(:func:`hand_problems`), then what a stops phase names that is not there
(:func:`part_problems`: a lead rule, a card, a section or a kitty), then the cards, ranks
and chips the ruleset names (:func:`deck_problems`: a card or rank the deck lacks, a card
paying two boodles, a section naming one twice, an ante out of range), which
:mod:`boodle.verify.wellformed` reads from here, with the hands the deck cannot deal, as
its well-formedness; last, a section an ante line, an all-pass charge, a holding or a poker
phase names that the board lacks (:func:`section_problems`).

The builder never finds the last three groups in a ruleset it built: it refuses each while
it reads the clause, through the same one-item checks (:func:`section_missing`,
:func:`kitty_missing`, :func:`card_missing`, :func:`rank_missing`, :func:`named_twice`,
:func:`paid_twice`, :func:`ante_out_of_range`), given the span of the word at fault (the
name, the card: a did-you-mean hint then carries its edit); on a model they are located at
the part's span.  The grammar cannot write an ``if none: lead`` without a rule nor a
one-card lead without its card.  :func:`boodle.engine.support.check_playable` refuses the
stops phase's in a ruleset made in Python, ``boodle verify`` the deck's.

Still checked elsewhere, not yet here: the other checks the builder makes while it reads
a clause (a number out of range other than an ante's, a section of the wrong kind, a run
that cannot stop on an unheld card: the model cannot say some of these);
:func:`boodle.verify.wellformed.session_end` is a report, not a fault.
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
    ``message`` and ``hint``, the builder's words (the hint may be a
    :class:`~boodle.language.errors.Hint` carrying its edit); ``span``, the line (or the
    word) it is found at; ``part``, what names the thing at fault when the message does not
    say it (``going out``, ``section run``), which the caret shows in the builder's error and
    :meth:`said` adds where there is no caret."""

    key: ProblemKey
    phase: str | None
    message: str
    span: Span | None
    hint: str | None = None
    part: str | None = None

    def said(self) -> str:
        """The message after the part that names the thing at fault (``going out: no
        section 'pot' on the board``), for a report without a caret."""
        return f"{self.part}: {self.message}" if self.part else self.message

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
    out += section_problems(ruleset)
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


def section_missing(key: ProblemKey, name: str | None, board: tuple[m.Section, ...],
                    span: Span | None, part: str | None = None, phase: str | None = None
                    ) -> Problem | None:
    """A section named that is not on ``board`` (spec §3), or ``None``: ``no section 'kity'
    on the board``, at ``span`` (the name's own, in the builder), with a did-you-mean hint
    whose edit writes the closest name there, else the board's sections."""
    names = [s.name for s in board]
    if name in names:
        return None
    shown = name or ""
    hint = did_you_mean(shown, names, span) or (
        "sections are: " + ", ".join(names) if names
        else "the board has no section yet: declare one in 'board { … }'")
    return Problem(key, phase, f"no section '{shown}' on the board", span, hint, part)


def kitty_missing(to: m.PaidTo, board: tuple[m.Section, ...], span: Span | None,
                  phase: str | None = None) -> Problem | None:
    """Spec §7: going out's ``N per card to kitty`` pays into the kitty first, so the board
    has one; ``None`` when it does (or the payments go elsewhere)."""
    if not PAID_TO_FACTS[to].needs_kitty or any(s.kind == "kitty" for s in board):
        return None
    return Problem("going out into a kitty not on the board", phase,
                   "payments go into the kitty, but the board has none", span,
                   "add a kitty to the board, or pay the winner: 1 per card to winner",
                   "going out")


def part_problems(p: m.StopsPhase, board: tuple[m.Section, ...]) -> list[Problem]:
    """What the stops phase ``p`` names that is not there (spec §6.1, §6.5, §6.7, §6.8, §7):
    an ``if none: lead`` without its lead rule, a one-card lead rule without its card, a
    section the pass fee, going out, a penalty or the stop bonus names that is not on
    ``board`` (:func:`section_missing`), going out's payments into a kitty the board lacks
    (:func:`kitty_missing`).  Each located at the span of the part that names it (the
    model's own ``span``: ``None`` for a part made in Python), in :data:`ProblemKey`'s
    order, a key's problems in the phase's order; the part that names it is the problem's
    ``part``."""
    fb, out_, phase = p.fallback, p.going_out, p.name
    out: list[Problem] = []

    def add(found: Problem | None) -> None:
        if found is not None:
            out.append(found)

    if FALLBACK_FACTS[fb.kind].leads and fb.rule is None:
        out.append(Problem("if none lead without a lead rule", phase,
                           "the 'if none: lead' fallback has no lead rule", fb.span,
                           "write, for example: if none: lead lowest of same suit"))
    if FALLBACK_FACTS[fb.kind].passes and fb.amount > 0:
        add(section_missing("a pass fee to a section not on the board", fb.to, board,
                            fb.span, "the pass fallback", phase))
    out += [Problem("a one-card lead without a card", phase,
                    "a lead rule of one card names no card", rule.span,
                    "name the card, for example: holder of 2♣, 2♣")
            for rule in (p.first_lead, p.restart, *([fb.rule] if fb.rule else []))
            if rule.choice == "card" and rule.card is None]
    for name in (*out_.takes, *([out_.into] if out_.into else [])):
        add(section_missing("going out to a section not on the board", name, board,
                            out_.span, "going out", phase))
    add(kitty_missing(out_.to, board, out_.span, phase))
    for pen in p.penalties:
        if pen.to != "each opponent":
            add(section_missing("a penalty to a section not on the board", pen.to, board,
                                pen.span, f"the penalty for '{pen.fault}'", phase))
    bonus = p.stop_bonus
    if bonus is not None and bonus.source != "each opponent":
        add(section_missing("a stop bonus from a section not on the board", bonus.source,
                            board, bonus.span, "the stop bonus", phase))
    return out


def section_problems(ruleset: m.Ruleset) -> list[Problem]:
    """The sections the rest of the ruleset names that the board lacks (spec §3, §4, §6.5,
    §8.1, §8.2): an ante line's targets, a stops phase's all-pass charge, a holding
    phase's sections, a poker phase's pot (:func:`section_missing`), each at the span of the
    line or phase that names it, in that order."""
    board = ruleset.board
    key: ProblemKey = "a section not on the board"
    found = [section_missing(key, name, board, a.span, "an ante line")
             for a in ruleset.antes for name in a.targets]
    for p in ruleset.phases:
        if isinstance(p, m.StopsPhase) and p.all_pass_to is not None:
            found.append(section_missing(key, p.all_pass_to, board, p.span,
                                         "the all-pass charge", p.name))
        elif isinstance(p, m.HoldingPhase):
            found += [section_missing(key, name, board, p.span, f"holding phase {p.name}",
                                      p.name) for name in p.sections]
        elif isinstance(p, m.PokerPhase):
            found.append(section_missing(key, p.pot, board, p.span,
                                         f"poker phase {p.name}", p.name))
    return [f for f in found if f is not None]


MAX_ANTE = 1_000_000
"""The most chips an ante line pays (spec §4; the builder's ``MAX_AMOUNT``)."""


def missing_from_deck(card: Card, suits: tuple[str, ...], ranks: tuple[str, ...]) -> str:
    """The hint for a card whose suit or rank the deck lacks (spec §3): it names what is
    missing, the suit, the rank or both, and the deck's line to change."""
    no_suit, no_rank = card.suit not in suits, card.rank not in ranks
    if no_suit and no_rank:
        return (f"the deck has neither the suit {card.suit} nor the rank {card.rank}: its suits "
                f"are {' '.join(suits)} and its ranks {' '.join(ranks)}")
    if no_suit:
        return (f"the deck has no suit {card.suit}: its suits are {' '.join(suits)} "
                f"(add {card.suit} to 'suits', or name a card of those suits)")
    return (f"the deck has no rank {card.rank}: its ranks are {' '.join(ranks)} "
            f"(add {card.rank} to 'ranks', or name a card of those ranks)")


def card_missing(card: Card, deck: m.Deck, what: str, span: Span | None,
                 part: str | None = None) -> Problem | None:
    """A card named (``what``: ``boodle card``, ``lead card`` …) that the deck does not have,
    or removes (spec §2, §3), or ``None``; the hint names the deck's line to change."""
    removed = ""
    if card.suit not in deck.suits or card.rank not in deck.ranks:
        hint = missing_from_deck(card, deck.suits, deck.ranks)
    elif card in deck.removed:
        hint, removed = f"the deck says 'remove {card}'", " (it is removed)"
    else:
        return None
    return Problem("a card not in the deck", None,
                   f"{what} {card} is not in the deck{removed}", span, hint, part)


def rank_missing(rank: str, deck: m.Deck, span: Span | None, part: str | None = None
                 ) -> Problem | None:
    """A rank a section names that is not a rank of the deck (spec §2, §3), or ``None``."""
    if rank in deck.ranks:
        return None
    return Problem("a rank not in the deck", None, f"rank {rank} is not in the deck", span,
                   "the deck's ranks are " + " ".join(deck.ranks), part)


def named_twice(section: m.Section) -> Problem | None:
    """A section that names one of its cards or ranks twice (spec §3), or ``None``; at the
    section's span."""
    for what, named in (("card", section.cards), ("rank", section.ranks)):
        if len(set(named)) != len(named):
            return Problem("a section naming a card or rank twice", None,
                           f"a {section.kind} names the same {what} twice", section.span,
                           f"list each {what} of a {section.kind} once",
                           f"section {section.name}")
    return None


def paid_twice(section: m.Section, earlier: Iterable[m.Section]) -> Problem | None:
    """A boodle section whose card already pays one of the ``earlier`` sections of the
    board (spec §3: one card pays one boodle), or ``None``; at the later section's span."""
    if section.kind != "boodle" or not section.cards:
        return None
    card = section.cards[0]
    first = next((s for s in earlier if s.kind == "boodle" and s.cards[:1] == (card,)), None)
    if first is None:
        return None
    return Problem("a card paying two boodles", None,
                   f"{card} already pays section '{first.name}'", section.span,
                   "each boodle card pays one section")


def ante_out_of_range(amount: int, span: Span | None) -> Problem | None:
    """An ante line's amount outside 0 to :data:`MAX_ANTE` chips (spec §4, §11.3), or
    ``None``."""
    if 0 <= amount <= MAX_ANTE:
        return None
    if amount > MAX_ANTE:
        return Problem("an ante out of range", None, f"an ante of {amount} chips is too large",
                       span, f"antes are at most {MAX_ANTE} chips")
    return Problem("an ante out of range", None, f"an ante of {amount} chips is negative", span,
                   f"antes are from 0 to {MAX_ANTE:,} chips")


def _named_cards(ruleset: m.Ruleset) -> list[tuple[str, str, Card, Span | None]]:
    """Every card the ruleset names, with the words for what names it, for the card, and the
    span: a section's cards, a stops phase's lead rules' and going out's excused cards."""
    out = [(f"section {s.name}", f"{s.kind} card", c, s.span)
           for s in ruleset.board for c in s.cards]
    for p in ruleset.phases:
        if isinstance(p, m.StopsPhase):
            rules = [("first lead", p.first_lead), ("restart", p.restart)]
            if p.fallback.rule is not None:
                rules.append(("if none", p.fallback.rule))
            out += [(f"phase {p.name}: {what}", "lead card", r.card, r.span)
                    for what, r in rules if r.card is not None]
            out += [(f"phase {p.name}: going out", "excused card", c, p.going_out.span)
                    for c in p.going_out.excused]
    return out


def deck_problems(ruleset: m.Ruleset) -> list[Problem]:
    """What the ruleset names that the deck cannot give, or names twice, and the antes'
    range (spec §3, §4): a card a section, a lead rule or going out's excused clause names
    that is not in the deck (or is removed from it, :func:`card_missing`); a card that pays
    two boodle sections (:func:`paid_twice`); a section that names a card or rank twice
    (:func:`named_twice`); a rank of a section the deck lacks (:func:`rank_missing`); an
    ante line outside 0 to :data:`MAX_ANTE` chips (:func:`ante_out_of_range`).  In that
    order (a section's twice, then its ranks), each at the span of the section, rule,
    clause or ante line that names it; :func:`boodle.verify.wellformed.well_formed` says
    them as :meth:`Problem.said` does."""
    deck, board = ruleset.deck, ruleset.board
    found = [card_missing(c, deck, what, span, part)
             for part, what, c, span in _named_cards(ruleset)]
    found += [paid_twice(s, board[:k]) for k, s in enumerate(board)]
    for s in board:
        found.append(named_twice(s))
        found += [rank_missing(r, deck, s.span, f"section {s.name}") for r in s.ranks]
    found += [ante_out_of_range(a.amount, a.span) for a in ruleset.antes]
    return [f for f in found if f is not None]


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
