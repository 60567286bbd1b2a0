"""Leads (spec §6.1, §6.4, §6.5): who leads, which cards they may lead, and why a lead is refused.

Used by the stops phase (:mod:`boodle.engine.stages.stops`).  "Lowest" always follows the
deck's rank order (spec §2.2); never leading a higher card while holding a
lower one of the same suit is 001 §04's rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, cast

from boodle.engine.faults import NotSupported
from boodle.engine.state import DealState
from boodle.language.cards import SUIT_COLOUR, Card
from boodle.language.model import (
    SUIT_SCOPES,
    Choice,
    FallbackKind,
    Fault,
    LeadRule,
    Ruleset,
    Scope,
    StopsPhase,
    TieBreak,
    Who,
    derived,
)

__all__ = [
    "CHOICES",
    "ChoiceRow",
    "FALLBACKS",
    "FAULTS",
    "Fining",
    "LEADERS",
    "SCOPES",
    "TIES",
    "WALKS_THE_SUIT",
    "ScopeRow",
    "describe",
    "holder_candidates",
    "penalised_leads",
    "penalises_lead_not_lowest",
    "lead_fault",
    "lead_options",
    "leader",
    "options",
    "rule_now",
    "suit_allowed",
]

LEFT_LOWEST = LeadRule("left of dealer", "lowest", "all")
"""Spec §6.1: when no player holds the named card or any above it, the dealer's left leads
their lowest card."""


def leader(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    """Who leads under ``rule`` (spec §6.1); ``last``: who played the stopped run's last card.

    ``winner of PHASE`` with no recorded winner (the phase was skipped as
    pending, spec §8.3) falls back to the player on the dealer's left.
    Raises :class:`NotSupported` for a ``last``/``next player`` rule with no run played.
    """
    return LEADERS[rule.who](ruleset, state, rule, last)


def _left_of_dealer(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    return state.left_of(state.dealer)


def _dealer(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    return state.dealer


def _last_player(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    if last is None:
        raise NotSupported(f"no leader for '{rule.who}' here: no run has been played")
    return last


def _next_player(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    return state.left_of(_last_player(ruleset, state, rule, last))


def _holder(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    return resolve_holder(ruleset, state, rule)[0]


def _phase_winner(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    winners = dict(state.phase_winners).get(rule.phase or "", ())
    return winners[0] if winners else state.left_of(state.dealer)


LEADERS: dict[Who, Callable[[Ruleset, DealState, LeadRule, int | None], int]] = {
    "left of dealer": _left_of_dealer,
    "dealer": _dealer,
    "holder": _holder,
    "last player": _last_player,
    "next player": _next_player,
    "phase winner": _phase_winner,
}
"""The engine's reading of every ``who`` of a lead rule (spec §6.1), one row per member of
:data:`~boodle.language.model.Who`."""

HELD_LEADS: dict[Who, bool] = {
    "left of dealer": False,
    "dealer": False,
    "holder": True,
    "last player": False,
    "next player": False,
    "phase winner": False,
}
"""Whether a lead under each ``who`` goes to the holder of a card (spec §6.1 ``holder of
7♦``), so that the rule in force is the one of the card found (:func:`resolve_holder`)."""


def resolve_holder(ruleset: Ruleset, state: DealState, rule: LeadRule) -> tuple[int, LeadRule]:
    """A ``holder`` rule's leader and the rule in force (spec §6.1).

    ``holder of CARD`` with CARD unheld (in the widow) goes to the holder of
    the lowest card of its suit above it that a player holds, and that card
    replaces CARD (as the card to lead, if the choice is CARD).  ``holder of
    lowest SUIT`` goes to the holder of the lowest held card of SUIT.  With
    no such card, the player on the dealer's left leads their lowest card.
    """
    for c, in_force in holder_candidates(ruleset, rule):
        holder = state.holder(c)
        if holder is not None:
            return holder, in_force
    return state.left_of(state.dealer), LEFT_LOWEST


def holder_candidates(ruleset: Ruleset, rule: LeadRule) -> list[tuple[Card, LeadRule]]:
    """A ``holder`` rule's candidate cards in the order tried, each with the rule in force
    when its holder leads (spec §6.1): CARD and the cards above it in its suit; or the cards
    of ``holder_suit`` low to high, then of each suit of ``holder_walk`` in turn, where a
    choice ``lowest`` of ``holder_suit`` becomes ``lowest`` of the suit reached."""
    rank = ruleset.deck.rank_index
    cards = ruleset.deck.cards()
    if rule.holder_suit is None:  # a holder rule names a card or a suit; the build makes sure
        assert rule.card is not None
        above = sorted((c for c in cards if c.suit == rule.card.suit
                        and rank(c) >= rank(rule.card)), key=rank)
        return [(c, rule if c == rule.card else replace(rule, card=c)) for c in above]
    out: list[tuple[Card, LeadRule]] = []
    for suit in (rule.holder_suit, *rule.holder_walk):
        in_force = replace(rule, suit=suit) if WALKS_THE_SUIT[rule.scope] \
            and rule.suit == rule.holder_suit and suit != rule.holder_suit else rule
        out += [(c, in_force) for c in sorted((c for c in cards if c.suit == suit), key=rank)]
    return out


def rule_now(phase: StopsPhase, ruleset: Ruleset, state: DealState) -> LeadRule:
    """The lead rule for the lead due: ``first lead`` or ``restart``, holders resolved."""
    rule = phase.restart if state.restart else phase.first_lead
    return resolve_holder(ruleset, state, rule)[1] if HELD_LEADS[rule.who] else rule


Selection = Literal["each suit", "longest suits", "whole set"]
"""What ``lowest`` picks among the cards a scope allows: the lowest of each allowed suit, of
each longest allowed suit, or the lowest rank of them all (spec §6.4)."""


@dataclass(frozen=True)
class ScopeRow:
    """How the engine reads one lead scope: which suits it allows (``suits(rule, suit,
    stopped, flipped)``; ``stopped`` is ``None`` before a stop, ``flipped`` after an all-pass
    colour flip, spec §6.5) and what ``lowest`` picks among their cards."""

    suits: Callable[[LeadRule, str, str | None, bool], bool]
    lowest: Selection


def _any_suit(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """Every suit (001 §04: the player chooses the suit)."""
    return True


def _other_suit(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """Any suit but the stopped one (before a stop: any)."""
    return stopped is None or suit != stopped


def _same_suit(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """The stopped suit only (001 §05's fallback)."""
    return suit == stopped


def _opposite_colour(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """A suit of the other colour than the stopped one; after a flip, of the same colour."""
    if stopped is None:
        return True
    return (SUIT_COLOUR[suit] != SUIT_COLOUR[stopped]) != flipped


def _named_suit(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """The suit the rule names (``lowest ♣``)."""
    return suit == rule.suit


def _colour(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """A suit of the colour the rule names (``black``, ``red``); after a flip, of the other."""
    return (SUIT_COLOUR[suit] == rule.scope) != flipped


WALKS_THE_SUIT: dict[Scope, bool] = {
    "chosen suit": False,
    "longest suit": False,
    "other suit": False,
    "same suit": False,
    "opposite colour": False,
    "opposite colour card": False,
    "suit": True,
    "black": False,
    "red": False,
    "all": False,
}
"""Per scope: does a ``holder of lowest SUIT`` walk carry the scope's named suit along, so
that ``lowest`` of the holder's suit becomes ``lowest`` of the suit reached (spec §6.1)."""


SCOPES: dict[Scope, ScopeRow] = {
    "chosen suit": ScopeRow(_any_suit, "each suit"),
    "longest suit": ScopeRow(_any_suit, "longest suits"),
    "other suit": ScopeRow(_other_suit, "each suit"),
    "same suit": ScopeRow(_same_suit, "each suit"),
    "opposite colour": ScopeRow(_opposite_colour, "each suit"),
    "opposite colour card": ScopeRow(_opposite_colour, "whole set"),
    "suit": ScopeRow(_named_suit, "whole set"),
    "black": ScopeRow(_colour, "whole set"),
    "red": ScopeRow(_colour, "whole set"),
    "all": ScopeRow(_any_suit, "whole set"),
}
"""The engine's reading of every lead scope (one row per member of
:data:`~boodle.language.model.Scope`; the compiled engine reads the same rows)."""


def suit_allowed(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """Whether a lead in ``suit`` fits ``rule``'s scope; ``flipped`` inverts a colour scope."""
    return SCOPES[rule.scope].suits(rule, suit, stopped, flipped)


def options(
    ruleset: Ruleset, hand: tuple[Card, ...], rule: LeadRule, stopped: str | None, flipped: bool
) -> tuple[Card, ...]:
    """The cards ``rule`` lets a player holding ``hand`` lead (spec §6.4), in deck order."""
    return CHOICES[rule.choice].options(ruleset, hand, rule, stopped, flipped)


def _the_card(ruleset: Ruleset, hand: tuple[Card, ...], rule: LeadRule, stopped: str | None,
              flipped: bool) -> tuple[Card, ...]:
    """Spec §6.1 an exact card (``holder of 2♣``): that card, if held."""
    return (rule.card,) if rule.card in hand and rule.card is not None else ()


def _any_allowed(ruleset: Ruleset, hand: tuple[Card, ...], rule: LeadRule, stopped: str | None,
                 flipped: bool) -> tuple[Card, ...]:
    """Spec §6.4 ``any …``: every held card in a suit the scope allows."""
    return tuple(c for c in hand if suit_allowed(rule, c.suit, stopped, flipped))


def _lowest_allowed(ruleset: Ruleset, hand: tuple[Card, ...], rule: LeadRule,
                    stopped: str | None, flipped: bool) -> tuple[Card, ...]:
    """Spec §6.4 ``lowest …``: the lowest allowed card, of each suit for a per-suit scope
    (of each longest suit for ``longest suit``), its ties settled by the rule's tie row."""
    scoped = [c for c in hand if suit_allowed(rule, c.suit, stopped, flipped)]
    if not scoped:
        return ()
    rank = ruleset.deck.rank_index
    lowest = SCOPES[rule.scope].lowest
    if lowest != "whole set":
        by_suit: dict[str, list[Card]] = {}
        for c in scoped:
            by_suit.setdefault(c.suit, []).append(c)
        if lowest == "longest suits":
            most = max(len(cards) for cards in by_suit.values())
            by_suit = {s: cards for s, cards in by_suit.items() if len(cards) == most}
        return tuple(min(cards, key=rank) for cards in by_suit.values())
    low = min(rank(c) for c in scoped)
    return TIES[rule.ties](ruleset, rule, tuple(c for c in scoped if rank(c) == low))


@dataclass(frozen=True)
class ChoiceRow:
    """The engine's reading of a lead rule's choice (spec §6.1, §6.4): ``options``, the cards
    it allows a hand (:func:`options`); ``exact``, it names one card, which is the whole of
    the rule (its refusal is ``lead.card``, its text the card); ``ranked``, it allows only
    the lowest, so a lead that is not may be refused as ``lead.lowest`` or fined under
    ``penalty: lead not lowest`` (spec §6.8)."""

    options: Callable[[Ruleset, tuple[Card, ...], LeadRule, str | None, bool],
                      tuple[Card, ...]]
    exact: bool
    ranked: bool


CHOICES: dict[Choice, ChoiceRow] = {
    "lowest": ChoiceRow(_lowest_allowed, exact=False, ranked=True),
    "any": ChoiceRow(_any_allowed, exact=False, ranked=False),
    "card": ChoiceRow(_the_card, exact=True, ranked=False),
}
"""The engine's reading of every lead choice, one row per member of
:data:`~boodle.language.model.Choice`."""


def _leader_chooses(ruleset: Ruleset, rule: LeadRule, tied: tuple[Card, ...]
                    ) -> tuple[Card, ...]:
    """Every card of the lowest rank may be led: the leader chooses (spec §6.1)."""
    return tied


def _first_in(order: tuple[str, ...], tied: tuple[Card, ...]) -> tuple[Card, ...]:
    return (min(tied, key=lambda c: order.index(c.suit)),)


def _by_suit_order(ruleset: Ruleset, rule: LeadRule, tied: tuple[Card, ...]
                   ) -> tuple[Card, ...]:
    """Only the first in the rule's suit order (``ties by suit order ♣ ♦ ♠ ♥``)."""
    return _first_in(rule.tie_suits, tied)


def _by_hand_order(ruleset: Ruleset, rule: LeadRule, tied: tuple[Card, ...]
                   ) -> tuple[Card, ...]:
    """Only the first in the hand as kept, in deck order (the deck's ``suits`` line)."""
    return _first_in(ruleset.deck.suits, tied)


TIES: dict[TieBreak, Callable[[Ruleset, LeadRule, tuple[Card, ...]], tuple[Card, ...]]] = {
    "chosen": _leader_chooses,
    "suit order": _by_suit_order,
    "hand order": _by_hand_order,
}
"""The engine's reading of every tie rule of a ``lowest`` lead (spec §6.1), one row per
member of :data:`~boodle.language.model.TieBreak`; the compiled engine reads the same rows."""


def lead_options(
    ruleset: Ruleset, phase: StopsPhase, state: DealState
) -> tuple[LeadRule, tuple[Card, ...]]:
    """The rule in force for the lead due and the cards it allows (empty: the seat passes).

    The first lead follows ``first lead``, a restart ``restart``; holding no
    card either allows, a ``lead`` fallback applies its own rule (001 §05).
    Raises :class:`NotSupported` if even the fallback allows nothing.

    The answer is kept with the (immutable) state for this ruleset and phase:
    the moves are listed, then each is checked again when played.
    :meth:`~boodle.engine.state.DealState.evolve` drops it from a changed state.
    """
    memo = state.__dict__.get("_lead_options")
    if memo is not None and memo[0] is ruleset and memo[1] is phase:
        return cast(tuple[LeadRule, tuple[Card, ...]], memo[2])
    found = _lead_options(ruleset, phase, state)
    state.__dict__["_lead_options"] = (ruleset, phase, found)
    return found


def _lead_options(
    ruleset: Ruleset, phase: StopsPhase, state: DealState
) -> tuple[LeadRule, tuple[Card, ...]]:
    assert state.to_move is not None
    hand = state.hand(state.to_move)
    rule = rule_now(phase, ruleset, state)
    stopped = state.stopped if state.restart else None
    found = options(ruleset, hand, rule, stopped, state.flipped)
    if found:
        return rule, found
    return FALLBACKS[phase.fallback.kind](ruleset, phase, state, rule)


def _lead_instead(ruleset: Ruleset, phase: StopsPhase, state: DealState, rule: LeadRule
                  ) -> tuple[LeadRule, tuple[Card, ...]]:
    """Spec §6.5 ``if none: lead …``: the options of the fallback's lead rule."""
    assert state.to_move is not None
    fallback = phase.fallback.rule
    assert fallback is not None
    stopped = state.stopped if state.restart else None
    found = options(ruleset, state.hand(state.to_move), fallback, stopped, state.flipped)
    if not found:
        raise NotSupported(
            f"seat {state.to_move} may lead no card under '{describe(rule)}' nor its "
            f"fallback '{describe(fallback)}'; the ruleset does not say what happens"
        )
    return fallback, found


def _pass_instead(ruleset: Ruleset, phase: StopsPhase, state: DealState, rule: LeadRule
                  ) -> tuple[LeadRule, tuple[Card, ...]]:
    """Spec §6.5 ``if none: pass left``: no card, so the seat's one move is a pass."""
    return rule, ()


FALLBACKS: dict[FallbackKind, Callable[[Ruleset, StopsPhase, DealState, LeadRule],
                                       tuple[LeadRule, tuple[Card, ...]]]] = {
    "lead": _lead_instead,
    "pass": _pass_instead,
}
"""What a seat that may lead no card under the rule in force does (spec §6.5), one row per
member of :data:`FallbackKind`: the rule it leads by and its cards (none: it passes)."""


@dataclass(frozen=True)
class Fining:
    """When a penalty for a fault is charged (spec §6.8): ``at_pass``, to a player who passes
    under a pass fallback, after its fee; ``not_lowest``, to a player who leads a card the
    rule allows in every way but being the lowest, which the penalty makes a legal lead
    (:func:`penalised_leads`)."""

    at_pass: bool
    not_lowest: bool


FAULTS: dict[Fault, Fining] = {
    "cannot lead": Fining(at_pass=True, not_lowest=False),
    "lead not lowest": Fining(at_pass=False, not_lowest=True),
}
"""When each fault's penalty is charged (spec §6.8), one row per member of :data:`Fault`."""


def penalised_leads(
    ruleset: Ruleset, phase: StopsPhase, state: DealState, rule: LeadRule, found: tuple[Card, ...]
) -> tuple[Card, ...]:
    """Leads accepted with a penalty under ``penalty: lead not lowest`` (spec §6.8).

    A held card that ``rule`` allows in every way except that it is not the
    lowest: in an allowed suit (for ``longest suit``, one of the longest),
    not among ``found``.  Empty without that penalty, or for an exact-card
    or ``any card`` rule, which have no "lowest".
    """
    if not CHOICES[rule.choice].ranked or not penalises_lead_not_lowest(phase):
        return ()
    assert state.to_move is not None
    stopped = state.stopped if state.restart else None
    suits = {c.suit for c in found}
    return tuple(
        c for c in state.hand(state.to_move)
        if c not in found and suit_allowed(rule, c.suit, stopped, state.flipped)
        and (SCOPES[rule.scope].lowest != "longest suits" or c.suit in suits)
    )


def penalises_lead_not_lowest(phase: StopsPhase) -> bool:
    """Whether ``phase`` has a ``penalty: lead not lowest`` (spec §6.8), which accepts a lead
    that is not the lowest at a price; asked at every lead, answered once per phase."""
    return derived(phase, "_lead_not_lowest", lambda: any(
        FAULTS[p.fault].not_lowest for p in phase.penalties))


def describe(rule: LeadRule) -> str:
    """The choice part of a lead rule as DSL-like text (``lowest of other suit``)."""
    if CHOICES[rule.choice].exact:
        return str(rule.card)
    what = {"suit": f"{rule.suit}", "black": "black card", "red": "red card", "all": "card",
            "opposite colour card": "opposite colour card"}
    scope = f"of {rule.scope}" if rule.scope in SUIT_SCOPES else what[rule.scope]
    ties = {"chosen": "", "suit order": ", ties by suit order " + " ".join(rule.tie_suits),
            "hand order": ", ties by hand order"}[rule.ties]
    return f"{rule.choice} {scope}{ties}"


def lead_fault(
    ruleset: Ruleset,
    rule: LeadRule,
    hand: tuple[Card, ...],
    card: Card,
    stopped: str | None,
    flipped: bool,
) -> tuple[str, str]:
    """Which rule id a lead of held ``card`` outside ``rule``'s options breaks, and why."""
    said = f"the lead rule is '{describe(rule)}'"
    if CHOICES[rule.choice].exact:
        return "lead.card", f"{said}: lead {rule.card}"
    allowed = options(ruleset, hand, rule, stopped, flipped)
    may = " ".join(map(str, allowed)) or "nothing: the lead passes"
    if not suit_allowed(rule, card.suit, stopped, flipped):
        after = f" after a stop in {stopped}" if stopped else ""
        return "lead.suit", f"{said}{after}; {card.suit} is not allowed (may lead: {may})"
    lowest = SCOPES[rule.scope].lowest
    if lowest == "longest suits" and all(c.suit != card.suit for c in allowed):
        return "lead.suit", f"{said}; {card.suit} is not a longest suit (may lead: {may})"
    lower = min((c for c in hand if c.suit == card.suit), key=ruleset.deck.rank_index)
    if lowest != "whole set":
        why = f"the seat holds {lower}, lower than {card} (001 §04)"
    else:
        tied = allowed and ruleset.deck.rank_index(allowed[0]) == ruleset.deck.rank_index(card)
        why = (f"{card} ties in rank with {may}, and ties go by {rule.ties}" if tied else
               f"{card} is not the lowest card allowed (may lead: {may})")
    return "lead.lowest", f"{said}: {why}"
