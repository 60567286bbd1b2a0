"""The rules engine: a static :class:`~boodle.model.Ruleset` plus an explicit :class:`DealState`.

OpenSpiel style: :func:`start_deal` posts the antes and deals; then
:func:`to_move`, :func:`legal_moves`, :func:`apply` and :func:`is_terminal`
play the deal out.  Every function is pure: states and ledgers are
immutable, and each step returns the events it caused.

Everything is read from the ruleset, never from a variant's name.  The
engine executes one stops phase (spec §6); features it does not execute
yet are listed by :func:`pending_features`, and :func:`start_deal` raises
:class:`NotSupported` rather than ignore one.  Sources: 001 §02-§06 for the
home profile of Michigan; spec §4 (antes), §5 (deal), §6 (stops), §7
(going out).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from .cards import SUIT_COLOUR, Card
from .errors import BoodleError
from .events import (
    Ante,
    CarryOver,
    Claim,
    DealCards,
    DealEnd,
    DealStart,
    Event,
    FlipColour,
    GoOut,
    Lead,
    Misdeal,
    Pass,
    Payment,
    Penalty,
    Play,
    Stop,
    StopPaid,
    StopReason,
)
from .ledger import Account, Ledger, seat, section
from .model import (
    SUIT_SCOPES,
    HoldingPhase,
    LeadRule,
    PokerPhase,
    Ruleset,
    Section,
    StopsPhase,
)
from .state import DealState, LeadMove, Move, PassMove, PlayMove

__all__ = [
    "IllegalMove",
    "NotSupported",
    "RULE_IDS",
    "apply",
    "claims_of",
    "deal_hands",
    "deal_order",
    "is_terminal",
    "legal_moves",
    "misdeal",
    "pending_features",
    "shuffled_deck",
    "start_deal",
    "stops_phase",
    "to_move",
]

RULE_IDS = {
    "turn": "it is not this seat's move",
    "deal.over": "the deal is over",
    "move.kind": "a lead is due, not a follow",
    "lead.not-held": "a player leads only a card they hold",
    "lead.lowest": "never lead a higher card while holding a lower one of that suit (001 §04)",
    "lead.suit": "the lead's suit is not one the lead rule allows (001 §05)",
    "lead.card": "the lead rule names the one card to lead",
    "follow.next-card": "in a run the only play is the next card, by its owner (001 §04)",
    "pass.not-allowed": "a player who can lead or follow may not pass",
}
"""Every rule id an :class:`IllegalMove` may carry, with what it means."""


class NotSupported(BoodleError):
    """The ruleset needs a feature the engine does not execute yet (:func:`pending_features`)."""


class IllegalMove(BoodleError):
    """A move the rules forbid; ``rule`` is one of :data:`RULE_IDS`."""


# ---------------------------------------------------------------- features


def pending_features(ruleset: Ruleset) -> list[str]:
    """Every feature of ``ruleset`` this engine does not execute yet (empty: fully playable)."""
    out: list[str] = []
    stops = [p for p in ruleset.phases if isinstance(p, StopsPhase)]
    for p in ruleset.phases:
        if isinstance(p, HoldingPhase):
            out.append(f"phase {p.name} (holding)")
        elif isinstance(p, PokerPhase):
            out.append(f"phase {p.name} (poker)")
    if len(stops) > 1:
        out.append("several stops phases")
    for p in stops:
        out.extend(f"phase {p.name}: {what}" for what in _stops_pending(p))
    if ruleset.widow_sale is not None:
        out.append(f"widow {ruleset.widow_sale.mode}")
    trumps = [s.name for s in ruleset.board if s.suit_rule == "trumps"]
    if ruleset.deal.trumps != "none" or trumps:
        out.append("trumps" + (f" (sections {', '.join(trumps)})" if trumps else ""))
    drawn = [s.name for s in ruleset.board if s.suit_rule == "drawn"]
    if drawn:
        out.append(f"boodle cards drawn from a second pack (sections {', '.join(drawn)})")
    if any(line.chosen for line in ruleset.antes):
        out.append("chosen-boodle antes")
    if ruleset.session.negative == "eliminate":  # payments capped at the balance (spec §9)
        out.append("elimination at zero balance")
    return out


def _stops_pending(p: StopsPhase) -> list[str]:
    out: list[str] = []
    if p.claims == "on holding":
        out.append("claims on holding")
    if not p.going_out.ends_deal:
        out.append("going out without ending the deal")
    rules = [p.first_lead, p.restart, *([p.fallback.rule] if p.fallback.rule else [])]
    if any(r.who == "phase winner" for r in rules):
        out.append("lead by a phase winner")
    if any(pen.fault == "lead not lowest" for pen in p.penalties):
        out.append("penalty: lead not lowest")
    if any(pen.forfeit_boodles for pen in p.penalties):
        out.append("penalty: forfeit boodles")
    return out


def stops_phase(ruleset: Ruleset) -> StopsPhase:
    """The stops phase the engine plays; raises :class:`NotSupported` for any other shape."""
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


def _phase(ruleset: Ruleset) -> StopsPhase:
    """The stops phase, found quickly (:func:`start_deal` has checked the ruleset)."""
    for p in ruleset.phases:
        if isinstance(p, StopsPhase):
            return p
    return stops_phase(ruleset)


def _check_phase(ruleset: Ruleset, p: StopsPhase) -> None:
    """Raise :class:`BoodleError` for a stops phase the engine could not run to an end."""
    names = {s.name for s in ruleset.board}

    def need(name: str | None, what: str) -> None:
        if name not in names:
            raise BoodleError(f"{what} names section {name!r}, which is not on the board")

    fb = p.fallback
    if fb.kind == "lead" and fb.rule is None:
        raise BoodleError(f"phase {p.name}: the 'if none: lead' fallback has no lead rule")
    if fb.kind == "pass":
        if p.all_pass == "none":
            raise BoodleError(
                f"phase {p.name}: the lead may pass left but no 'all pass' rule says what "
                "happens when every player passes (the deal could go round forever)",
                hint="add 'all pass: deal ends without winner' or 'all pass: flip colour'",
            )
        if fb.amount > 0:
            need(fb.to, f"phase {p.name}: the pass fallback")
    if p.all_pass == "flip colour" and p.restart.scope not in ("opposite colour", "black", "red"):
        raise BoodleError(
            f"phase {p.name}: 'all pass: flip colour' needs a colour restart rule, "
            f"not {_describe(p.restart)}"
        )
    if p.first_lead.who in ("last player", "next player"):
        raise BoodleError(f"phase {p.name}: the first lead cannot go to the {p.first_lead.who}")
    for rule in (p.first_lead, p.restart, *([fb.rule] if fb.rule else [])):
        if rule.choice == "card" and rule.card is None:
            raise BoodleError(f"phase {p.name}: a lead rule of one card names no card")
    for name in p.going_out.takes:
        need(name, f"phase {p.name}: going out")
    if p.going_out.to == "kitty" and ruleset.kitty() is None:
        raise BoodleError(f"phase {p.name}: going out pays into the kitty, but the board has none")
    for pen in p.penalties:
        if pen.to != "each opponent":
            need(pen.to, f"phase {p.name}: the penalty for '{pen.fault}'")
    if p.stop_bonus is not None and p.stop_bonus.source != "each opponent":
        need(p.stop_bonus.source, f"phase {p.name}: the stop bonus")


# ---------------------------------------------------------------- dealing


def deal_order(ruleset: Ruleset, players: int, dealer: int) -> tuple[int | None, ...]:
    """Who gets each card of a round, clockwise from the dealer's left (``None`` = widow).

    001 §03: the widow is dealt last in each round (``last``); 004: it sits
    at the dealer's left and is dealt first (``first``); ``none``: no widow.
    """
    seats = tuple((dealer + 1 + i) % players for i in range(players))
    position = ruleset.deal.widow_position
    if position == "last":
        return (*seats, None)
    if position == "first":
        return (None, *seats)
    return seats


def deal_hands(
    ruleset: Ruleset, players: int, dealer: int, deck_order: Sequence[Card]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal the whole pack one card at a time (001 §03): (hands by seat, widow), in dealt order.

    Raises :class:`BoodleError` unless ``deck_order`` is a permutation of the deck.
    """
    if Counter(deck_order) != Counter(ruleset.deck.cards()):
        raise BoodleError("the deck order must hold every card of the deck exactly once")
    order = deal_order(ruleset, players, dealer)
    hands: list[list[Card]] = [[] for _ in range(players)]
    widow: list[Card] = []
    for i, card in enumerate(deck_order):
        who = order[i % len(order)]
        (widow if who is None else hands[who]).append(card)
    return tuple(tuple(h) for h in hands), tuple(widow)


def shuffled_deck(ruleset: Ruleset, rng: random.Random) -> tuple[Card, ...]:
    """The deck's cards in a random order drawn from ``rng``."""
    cards = list(ruleset.deck.cards())
    rng.shuffle(cards)
    return tuple(cards)


def _ante_targets(ruleset: Ruleset, targets: tuple[str, ...]) -> list[str]:
    names: list[str] = []
    for t in targets:
        if t == "each boodle":
            names.extend(s.name for s in ruleset.board if s.kind == "boodle")
        elif t == "every section":
            names.extend(s.name for s in ruleset.board)
        elif any(s.name == t for s in ruleset.board):
            names.append(t)
        else:
            raise BoodleError(f"the ante names section {t!r}, which is not on the board")
    return names


def _post_antes(
    ruleset: Ruleset, players: int, dealer: int, ledger: Ledger
) -> tuple[Ledger, list[Event]]:
    """Spec §4: each ante line, payer by payer (from the dealer's left), target by target."""
    events: list[Event] = []
    everyone = tuple((dealer + 1 + i) % players for i in range(players))
    for line in ruleset.antes:
        payers = {
            "each player": everyone,
            "dealer": (dealer,),
            "each other player": everyone[:-1],
            "widow": (dealer,),
        }[line.payer]
        reason = "ante (widow's share)" if line.payer == "widow" else "ante"
        for payer in payers:
            for name in _ante_targets(ruleset, line.targets):
                ledger, t = ledger.transfer(seat(payer), section(name), line.amount, reason)
                events.append(Ante(t))
    return ledger, events


def start_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    ledger: Ledger,
    deck_order: Sequence[Card] | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    widow: Sequence[Card] | None = None,
    *,
    number: int | None = None,
) -> tuple[DealState, list[Event]]:
    """Post the antes, deal, and give the move to the first leader (001 §02-§04).

    Deal from ``deck_order``, or take ``hands`` (by seat) and ``widow`` as
    given; with ``hands`` and no ``widow``, every undealt card is the widow.
    Raises :class:`NotSupported` for a pending feature, :class:`BoodleError`
    for a bad player count, dealer, ledger or deal.
    """
    phase = stops_phase(ruleset)
    _check_phase(ruleset, phase)
    if players not in ruleset.players:
        raise BoodleError(f"{ruleset.name} is for {ruleset.players.low} to "
                          f"{ruleset.players.high} players, not {players}")
    if not 0 <= dealer < players:
        raise BoodleError(f"no seat {dealer} among {players} players")
    if ledger.players != players or ledger.section_names() != tuple(s.name for s in ruleset.board):
        raise BoodleError("the ledger does not match the players and the board")
    events: list[Event] = [DealStart(dealer, players, number)]
    ledger, antes = _post_antes(ruleset, players, dealer, ledger)
    events.extend(antes)
    state, dealt = _deal(ruleset, phase, players, dealer, ledger, deck_order, hands, widow)
    return state, [*events, dealt]


def misdeal(
    ruleset: Ruleset,
    state: DealState,
    deck_order: Sequence[Card] | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    widow: Sequence[Card] | None = None,
) -> tuple[DealState, list[Event]]:
    """A declared misdeal (spec §5.3; 001 §06): undo every transfer since the ante, deal again.

    The same dealer deals from ``deck_order`` (or ``hands``/``widow``) with
    no new ante.  Raises :class:`BoodleError` once the deal is over, or under
    ``reshuffle and redeal`` once a move has been made.
    """
    if state.step == "over":
        raise BoodleError("the deal is over: a misdeal can no longer be declared")
    started = state.plays > 0 or state.passes > 0 or state.flipped
    if ruleset.deal.misdeal == "reshuffle and redeal" and started:
        raise BoodleError("under 'misdeal: reshuffle and redeal' a misdeal is declared only "
                          "while the cards are dealt, before the first move")
    ledger = state.ledger
    undone = []
    for t in reversed(state.since_ante):
        ledger, u = ledger.transfer(t.dst, t.src, t.amount, "misdeal")
        undone.append(u)
    phase = stops_phase(ruleset)
    new, dealt = _deal(ruleset, phase, state.players, state.dealer, ledger, deck_order, hands,
                       widow)
    return new, [Misdeal(state.dealer, tuple(undone)), dealt]


def _deal(
    ruleset: Ruleset,
    phase: StopsPhase,
    players: int,
    dealer: int,
    ledger: Ledger,
    deck_order: Sequence[Card] | None,
    hands: Sequence[Sequence[Card]] | None,
    widow: Sequence[Card] | None,
) -> tuple[DealState, DealCards]:
    """Deal the cards onto a fresh state and give the move to the first leader."""
    dealt, rest = _the_deal(ruleset, players, dealer, deck_order, hands, widow)
    try:
        state = DealState.new(players, dealer, ruleset.deck.cards(), dealt, rest, ledger)
    except ValueError as e:
        raise BoodleError(f"bad deal: {e}") from None
    order = deal_order(ruleset, players, dealer)
    event = DealCards(dealer, state.hands, state.widow(), order)
    leader = _leader(ruleset, state, phase.first_lead, None)
    return replace(state, to_move=leader), event


def _the_deal(
    ruleset: Ruleset,
    players: int,
    dealer: int,
    deck_order: Sequence[Card] | None,
    hands: Sequence[Sequence[Card]] | None,
    widow: Sequence[Card] | None,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    if hands is None:
        if deck_order is None:
            raise BoodleError("start_deal needs a deck order or the hands")
        return deal_hands(ruleset, players, dealer, deck_order)
    if len(hands) != players:
        raise BoodleError(f"{len(hands)} hands given for {players} players")
    if any(not hand for hand in hands):
        raise BoodleError("every player must be dealt at least one card")
    dealt = tuple(tuple(hand) for hand in hands)
    if widow is None:
        held = {c for hand in dealt for c in hand}
        widow = [c for c in ruleset.deck.cards() if c not in held]
    return dealt, tuple(widow)


# ---------------------------------------------------------------- leads


def _leader(ruleset: Ruleset, state: DealState, rule: LeadRule, last: int | None) -> int:
    """Who leads under ``rule`` (spec §6.1); ``last``: who played the stopped run's last card."""
    n = state.players
    if rule.who == "left of dealer":
        return (state.dealer + 1) % n
    if rule.who == "dealer":
        return state.dealer
    if rule.who in ("last player", "next player") and last is not None:
        return last if rule.who == "last player" else (last + 1) % n
    if rule.who == "holder":
        return _resolve(ruleset, state, rule)[0]
    raise NotSupported(f"no leader for '{rule.who}' here")


_LEFT_LOWEST = LeadRule("left of dealer", "lowest", "all")
"""Spec §6.1: when no player holds the named card or any above it, the dealer's left leads
their lowest card."""


def _resolve(ruleset: Ruleset, state: DealState, rule: LeadRule) -> tuple[int, LeadRule]:
    """A ``holder`` rule's leader and the rule in force (spec §6.1).

    ``holder of CARD`` with CARD unheld (in the widow) goes to the holder of
    the lowest card of its suit above it that a player holds, and that card
    replaces CARD (as the card to lead, if the choice is CARD).  ``holder of
    lowest SUIT`` goes to the holder of the lowest held card of SUIT.  With
    no such card, the player on the dealer's left leads their lowest card.
    """
    rank = ruleset.deck.rank_index
    if rule.holder_suit is not None:
        candidates = [c for c in state.cards if c.suit == rule.holder_suit]
    elif rule.card is not None:
        candidates = [c for c in state.cards if c.suit == rule.card.suit
                      and rank(c) >= rank(rule.card)]
    else:
        candidates = []
    for c in sorted(candidates, key=rank):
        holder = state.holder(c)
        if holder is not None:
            return holder, rule if c == rule.card or rule.card is None else replace(rule, card=c)
    return (state.dealer + 1) % state.players, _LEFT_LOWEST


def _rule_now(ruleset: Ruleset, phase: StopsPhase, state: DealState) -> LeadRule:
    """The lead rule for the lead due: ``first lead`` or ``restart``, holders resolved."""
    rule = phase.restart if state.restart else phase.first_lead
    return _resolve(ruleset, state, rule)[1] if rule.who == "holder" else rule


def _suit_allowed(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """Whether a lead in ``suit`` fits ``rule``'s scope; ``flipped`` inverts a colour scope."""
    if flipped and rule.scope == "opposite colour" and stopped is not None:
        return SUIT_COLOUR[suit] == SUIT_COLOUR[stopped]
    if flipped and rule.scope in ("black", "red"):
        return SUIT_COLOUR[suit] != rule.scope
    return rule.suit_ok(suit, stopped)


def _options(
    ruleset: Ruleset, hand: tuple[Card, ...], rule: LeadRule, stopped: str | None, flipped: bool
) -> tuple[Card, ...]:
    """The cards ``rule`` lets a player holding ``hand`` lead (spec §6.4), in deck order."""
    if rule.choice == "card":
        return (rule.card,) if rule.card in hand and rule.card is not None else ()
    scoped = [c for c in hand if _suit_allowed(rule, c.suit, stopped, flipped)]
    if rule.choice == "any" or not scoped:
        return tuple(scoped)
    rank = ruleset.deck.rank_index
    if rule.scope in SUIT_SCOPES:
        by_suit: dict[str, list[Card]] = {}
        for c in scoped:
            by_suit.setdefault(c.suit, []).append(c)
        if rule.scope == "longest suit":
            most = max(len(cards) for cards in by_suit.values())
            by_suit = {s: cards for s, cards in by_suit.items() if len(cards) == most}
        return tuple(min(cards, key=rank) for cards in by_suit.values())
    low = min(rank(c) for c in scoped)
    return tuple(c for c in scoped if rank(c) == low)


def _lead_options(
    ruleset: Ruleset, phase: StopsPhase, state: DealState
) -> tuple[LeadRule, tuple[Card, ...]]:
    """The rule in force for the lead due and the cards it allows (empty: the seat passes).

    The first lead follows ``first lead``, a restart ``restart``; holding no
    card either allows, a ``lead`` fallback applies its own rule (001 §05).
    Raises :class:`NotSupported` if even the fallback allows nothing.
    """
    assert state.to_move is not None
    hand = state.hand(state.to_move)
    rule = _rule_now(ruleset, phase, state)
    stopped = state.stopped if state.restart else None
    options = _options(ruleset, hand, rule, stopped, state.flipped)
    if options or phase.fallback.kind == "pass":
        return rule, options
    fallback = phase.fallback.rule
    assert fallback is not None
    options = _options(ruleset, hand, fallback, stopped, state.flipped)
    if not options:
        raise NotSupported(
            f"seat {state.to_move} may lead no card under '{_describe(rule)}' nor its "
            f"fallback '{_describe(fallback)}'; the ruleset does not say what happens"
        )
    return fallback, options


def _describe(rule: LeadRule) -> str:
    """The choice part of a lead rule as DSL-like text (``lowest of other suit``)."""
    if rule.choice == "card":
        return str(rule.card)
    what = {"suit": f"{rule.suit}", "black": "black card", "red": "red card", "all": "card"}
    scope = f"of {rule.scope}" if rule.scope in SUIT_SCOPES else what[rule.scope]
    return f"{rule.choice} {scope}"


# ---------------------------------------------------------------- moves


def is_terminal(state: DealState) -> bool:
    """Whether the deal is over."""
    return state.step == "over"


def to_move(state: DealState) -> int | None:
    """The seat to move, or ``None`` once the deal is over."""
    return None if state.step == "over" else state.to_move


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Move, ...]:
    """Every legal move (empty once the deal is over), in deck order of the cards."""
    if state.step == "over" or state.to_move is None:
        return ()
    if state.step == "follow":
        assert state.current is not None
        nxt = ruleset.deck.next_card(state.current)
        assert nxt is not None
        return (PlayMove(state.to_move, nxt),)
    _, options = _lead_options(ruleset, _phase(ruleset), state)
    if not options:
        return (PassMove(state.to_move),)
    return tuple(LeadMove(state.to_move, c) for c in options)


def apply(ruleset: Ruleset, state: DealState, move: Move) -> tuple[DealState, list[Event]]:
    """Play ``move``: the new state and the events it caused.

    Raises :class:`IllegalMove` (with a rule id of :data:`RULE_IDS`) if the
    rules forbid it; the state is unchanged.
    """
    phase = _phase(ruleset)
    _check(ruleset, phase, state, move)
    if isinstance(move, PassMove):
        return _pass(ruleset, phase, state, move.seat)
    events: list[Event] = []
    if isinstance(move, LeadMove):
        events.append(Lead(move.seat, move.card, state.restart))
        if state.passes or state.flipped:  # a lead ends a round of passes
            state = replace(state, passes=0, flipped=False)
    else:
        events.append(Play(move.seat, move.card))
    state = state.play(move.seat, move.card)
    return _after_play(ruleset, phase, state, move.seat, move.card, events)


def _check(ruleset: Ruleset, phase: StopsPhase, state: DealState, move: Move) -> None:
    """Raise :class:`IllegalMove` naming the rule ``move`` breaks, if any."""
    if state.step == "over":
        raise IllegalMove(f"{move}: the deal is over", rule="deal.over")
    if move.seat != state.to_move:
        raise IllegalMove(f"{move}: it is seat {state.to_move}'s move", rule="turn")
    if state.step == "follow":
        assert state.current is not None
        nxt = ruleset.deck.next_card(state.current)
        if isinstance(move, PassMove):
            raise IllegalMove(f"{move}: seat holds {nxt} and must play it", rule="pass.not-allowed")
        if isinstance(move, LeadMove) or move.card != nxt:
            raise IllegalMove(
                f"{move}: the run is at {state.current}; the only play is {nxt} (001 §04)",
                rule="follow.next-card",
            )
        return
    if isinstance(move, PlayMove):
        raise IllegalMove(f"{move}: no run is going; a lead is due", rule="move.kind")
    rule, options = _lead_options(ruleset, phase, state)
    if isinstance(move, PassMove):
        if options:
            raise IllegalMove(
                f"{move}: the seat may lead {' '.join(map(str, options))}",
                rule="pass.not-allowed",
            )
        return
    if move.card in options:
        return
    hand = state.hand(move.seat)
    if move.card not in hand:
        raise IllegalMove(f"{move}: the seat does not hold {move.card}", rule="lead.not-held")
    stopped = state.stopped if state.restart else None
    rule_id, why = _lead_fault(ruleset, rule, hand, move.card, stopped, state.flipped)
    raise IllegalMove(f"{move}: {why}", rule=rule_id)


def _lead_fault(
    ruleset: Ruleset,
    rule: LeadRule,
    hand: tuple[Card, ...],
    card: Card,
    stopped: str | None,
    flipped: bool,
) -> tuple[str, str]:
    """Which rule a lead of held ``card`` outside ``rule``'s options breaks, and why."""
    said = f"the lead rule is '{_describe(rule)}'"
    if rule.choice == "card":
        return "lead.card", f"{said}: lead {rule.card}"
    allowed = _options(ruleset, hand, rule, stopped, flipped)
    may = " ".join(map(str, allowed)) or "nothing: the lead passes"
    if not _suit_allowed(rule, card.suit, stopped, flipped):
        after = f" after a stop in {stopped}" if stopped else ""
        return "lead.suit", f"{said}{after}; {card.suit} is not allowed (may lead: {may})"
    if rule.scope == "longest suit" and all(c.suit != card.suit for c in allowed):
        return "lead.suit", f"{said}; {card.suit} is not a longest suit (may lead: {may})"
    lower = min((c for c in hand if c.suit == card.suit), key=ruleset.deck.rank_index)
    if rule.scope in SUIT_SCOPES:
        why = f"the seat holds {lower}, lower than {card} (001 §04)"
    else:
        why = f"{card} is not the lowest card allowed (may lead: {may})"
    return "lead.lowest", f"{said}: {why}"


def _pass(
    ruleset: Ruleset, phase: StopsPhase, state: DealState, who: int
) -> tuple[DealState, list[Event]]:
    """Spec §6.5: pay any pass fee and penalty, pass the lead left; a full round ends or flips."""
    events: list[Event] = []
    fb = phase.fallback
    dues: list[tuple[int, str]] = []
    if fb.amount > 0 and fb.to is not None:
        dues.append((fb.amount, fb.to))
    dues.extend((p.amount, p.to) for p in phase.penalties if p.fault == "cannot lead")
    for amount, to in dues:
        for dst in _payees(state, who, to):
            state, t = state.pay(seat(who), dst, amount, "penalty")
            events.append(Penalty(who, "cannot lead", t))
    rule = _rule_now(ruleset, phase, state)
    events.append(Pass(who, f"may lead no card under '{_describe(rule)}'"))
    state = replace(state, passes=state.passes + 1, to_move=(who + 1) % state.players)
    if state.passes < state.players:
        return state, events
    if phase.all_pass == "end without winner":
        return _end(state, None, events)
    events.append(FlipColour(not state.flipped))
    return replace(state, passes=0, flipped=not state.flipped), events


def _payees(state: DealState, who: int, to: str) -> list[Account]:
    if to == "each opponent":
        return [seat((who + i) % state.players) for i in range(1, state.players)]
    return [section(to)]


def claims_of(ruleset: Ruleset, state: DealState, who: int, card: Card) -> tuple[str, ...]:
    """Sections that ``who`` playing ``card`` claims (spec §6.6, 001 §05).

    A boodle section is claimed by playing its card; a fixed ``set`` when
    one player has played all its cards; a ``same suit`` set when one
    player has played all its ranks in one suit.  Valid before or after
    ``card`` is played.
    """
    def mine(c: Card) -> bool:
        place = state.place(c)
        return c == card or (place is not None and place.kind == "played" and place.seat == who)

    def completes(s: Section) -> bool:
        if s.kind == "boodle":
            return s.suit_rule == "fixed" and card in s.cards
        if s.kind != "set" or s.suit_rule not in ("fixed", "same suit"):
            return False
        if s.suit_rule == "fixed":
            return card in s.cards and all(mine(c) for c in s.cards)
        return card.rank in s.ranks and all(mine(Card(r, card.suit)) for r in s.ranks)

    return tuple(s.name for s in ruleset.board if completes(s))


def _take(state: DealState, who: int, name: str, events: list[Event]) -> DealState:
    """``who`` takes the whole of section ``name`` (a Claim, amount 0 if it is empty)."""
    state, t = state.pay(section(name), seat(who), state.ledger.section(name), "claim")
    events.append(Claim(who, name, t))
    return state


def _after_play(
    ruleset: Ruleset,
    phase: StopsPhase,
    state: DealState,
    who: int,
    card: Card,
    events: list[Event],
) -> tuple[DealState, list[Event]]:
    """After ``who`` played ``card``: claims, then going out, a stop, or the next follow."""
    for name in claims_of(ruleset, state, who, card):
        state = _take(state, who, name, events)
    if state.held[who] == 0:
        return _go_out(ruleset, phase, state, who, events)
    nxt = ruleset.deck.next_card(card)
    reason: StopReason
    if nxt is None or (phase.stop_at_top and card.rank == ruleset.deck.top_rank):
        reason = "top rank"
    else:
        place = state.place(nxt)
        if place is not None and place.kind == "hand":
            return replace(state, step="follow", to_move=place.seat, current=card), events
        reason = "not in deck" if place is None else "widow" if place.kind == "widow" else "played"
    events.append(Stop(who, card, reason, None if reason == "top rank" else nxt))
    state = _stop_bonus(phase, state, who, events)
    return replace(state, step="lead", restart=True, current=None, stopped=card.suit,
                   last_player=who, passes=0, flipped=False,
                   to_move=_leader(ruleset, state, phase.restart, who)), events


def _stop_bonus(phase: StopsPhase, state: DealState, who: int, events: list[Event]) -> DealState:
    """Spec §6.7: the seat that made the stop gets the bonus (a section pays what it has)."""
    bonus = phase.stop_bonus
    if bonus is None:
        return state
    if bonus.source == "each opponent":
        for i in range(1, state.players):
            payer = seat((who + i) % state.players)
            state, t = state.pay(payer, seat(who), bonus.amount, "stop bonus")
            events.append(StopPaid(who, t))
    else:
        amount = min(bonus.amount, state.ledger.section(bonus.source))
        state, t = state.pay(section(bonus.source), seat(who), amount, "stop bonus")
        events.append(StopPaid(who, t))
    return state


def _go_out(
    ruleset: Ruleset, phase: StopsPhase, state: DealState, who: int, events: list[Event]
) -> tuple[DealState, list[Event]]:
    """001 §06: the winner takes its sections and each opponent pays per card left."""
    events.append(GoOut(who))
    out = phase.going_out
    takes = list(out.takes)
    kitty = ruleset.kitty()
    if out.to == "kitty" and kitty is not None and kitty.name not in takes:
        takes.append(kitty.name)
    if out.to == "kitty" and kitty is not None:
        state = _payments(phase, state, who, section(kitty.name), events)
    for name in takes:
        state = _take(state, who, name, events)
    if out.to == "winner":
        state = _payments(phase, state, who, seat(who), events)
    return _end(state, who, events)


def _payments(
    phase: StopsPhase, state: DealState, who: int, dst: Account, events: list[Event]
) -> DealState:
    """Each opponent, from the winner's left, pays ``per_card`` per card left to ``dst``.

    A holder of an ``excused`` card pays nothing (recorded as a 0 payment).
    """
    out = phase.going_out
    for i in range(1, state.players):
        payer = (who + i) % state.players
        hand = state.hand(payer)
        excused = any(c in hand for c in out.excused)
        amount = 0 if excused else out.per_card * len(hand)
        state, t = state.pay(seat(payer), dst, amount, "going out")
        events.append(Payment(payer, dst, len(hand), excused, t))
    return state


def _end(
    state: DealState, winner: int | None, events: list[Event]
) -> tuple[DealState, list[Event]]:
    """The deal ends: unclaimed sections carry over (001 §06)."""
    for name, amount in state.ledger.sections:
        if amount != 0:
            events.append(CarryOver(name, amount))
    state = replace(state, step="over", to_move=None, current=None, winner=winner)
    events.append(DealEnd(winner, "went out" if winner is not None else "all passed", state.ledger))
    return state, events

