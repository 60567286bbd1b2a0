"""A Hypothesis state machine that plays sessions and checks the rules' invariants after every step.

:func:`machine` builds a :class:`hypothesis.stateful.RuleBasedStateMachine`
for an **implementation** of the engine API (:class:`Implementation`: the
four functions of :mod:`boodle.engine`); :class:`ReferenceMachine` is the
one for this package's engine.  Another Python implementation runs the same
machine against itself::

    from boodle.testing import machine
    TestMine = machine(my_engine).TestCase   # collected by pytest or unittest

Each example draws a built-in variant, a house rule (a few rules changed
with :func:`dataclasses.replace`: paid stops, double payments, a restart in
any suit, the dealer paying double, a fine for a lead that is not the lowest, a stops phase
that claims nothing, holding and poker ties paid to the lowest-numbered seat, a widow that
blocks the sets complete in it, short stacks anted section by section, an auction whose
highest bidder may withdraw, a betting round in
every poker phase, fixed, capped, pot-limit or no-limit, or fixed after blinds, spec §8.3),
a player count and a seed, then plays deal after deal of one session (the deal passes left,
chips carry over).
Rules play a drawn legal move, or make every **illegal probe** of the state, each
with the rule id (spec §12) worked out here from the rules text, independently of the
engine (all of them, so which one fails first does not depend on earlier draws):
``deal.over``, ``turn``, ``move.kind``, ``pass.not-allowed``,
``follow.next-card``, ``lead.not-held``, ``lead.suit``, ``lead.lowest``, and in a betting
round ``bet.funds`` and ``bet.amount``; a withdrawal (``move.kind`` but at an auction's last
word, where a bid is the ``move.kind`` probe).
Under ``claims: none`` every move is also checked to claim nothing but what
going out takes (spec §6.6, §7); the claims a deal's holding phases make at its start are
the ones :func:`expected_holding_claims` works out from the hands and the split rule's row of
:data:`SPLIT_TAKERS` (spec §8.1), and no move claims a section the widow blocks
(:data:`WIDOW_SET_BLOCKS`, spec §5.2); going out's payments go where :data:`GOING_OUT_PAYEES`
says (spec §7), and the pass that completes a round of passes ends the deal or flips the colour
as :data:`ALL_PASS_ENDS` says, no other pass doing either (spec §6.5); a short player's antes
are the sections :func:`expected_short` works out and no claim takes another (spec §4); the
pass that leaves only the highest bidder in an auction is followed as :data:`HIGH_BID_CLOSES`
says, and a withdrawal moves no chip and gives the widow to nobody (spec §5.4).
Invariants after every step: the chips of seats and sections add up to the session's total
and no section is negative (spec §9), and every card of the deck is in exactly one place
with the hand counts right (spec §2).  Those invariants pass an engine whose bug conserves chips (a
wrong payer, a run past the widow): so every move is also checked against an **oracle**
(:func:`machine`'s ``oracle``): the reference engine by default for another
implementation (the same state after each deal's start, antes and deal included, the same
legal moves, the same state after each move: cards, run, seat to move, chips), or the z3
model of :mod:`boodle.verify` in the stops phase.

Needs Hypothesis (``pip install 'boodle[testing]'``; the ``test`` extra has it too).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal, Protocol

try:
    from hypothesis import settings
    from hypothesis import strategies as st
    from hypothesis.stateful import (
        RuleBasedStateMachine,
        initialize,
        invariant,
        precondition,
        rule,
    )
except ModuleNotFoundError as exc:  # hypothesis not installed (tests hide it)
    if exc.name is None or exc.name.split(".")[0] != "hypothesis":
        raise
    raise ImportError(
        "boodle.testing needs Hypothesis: pip install 'boodle[testing]' "
        "(from a checkout of boodle: pip install '.[testing]')", name=__name__) from exc

from boodle import engine as reference_engine
from boodle.engine.events import Event
from boodle.engine.faults import IllegalMove
from boodle.engine.ledger import Ledger
from boodle.engine.state import (
    BidMove,
    BidRange,
    DealState,
    LeadMove,
    Legal,
    Move,
    PassMove,
    PlayMove,
    WithdrawMove,
    each_move,
)
from boodle.language.cards import SUIT_COLOUR, Card
from boodle.language.model import (
    AllPass,
    AnteLine,
    Balance,
    BetLimit,
    Choice,
    ClaimRule,
    Fallback,
    FallbackKind,
    Fault,
    Follow,
    GoingOut,
    HighBid,
    HoldingPhase,
    LeadRule,
    PaidTo,
    Payer,
    Penalty,
    PokerPhase,
    Ruleset,
    SaleMode,
    Scope,
    Section,
    SectionKind,
    ShortStack,
    Split,
    StopBonus,
    StopsPhase,
    SuitRule,
    TieBreak,
    TurnUpRule,
    Who,
    WidowPosition,
    WidowSets,
)
from boodle.session.second_pack import draw_boodles

__all__ = ["HOUSE_RULES", "Implementation", "Oracle", "ReferenceMachine", "blocked_now",
           "expected_holding_claims", "expected_lead_fault", "last_word", "machine",
           "playable_variants"]


class Implementation(Protocol):
    """The engine API the machine drives (:mod:`boodle.engine` has it)."""

    def start_deal(self, ruleset: Ruleset, players: int, dealer: int, ledger: Ledger,
                   deck_order: Sequence[Card] | None = ...) -> tuple[DealState, list[Event]]:
        """Post the antes, deal and run to the first move."""

    def legal_moves(self, ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
        """The legal moves of the seat to move (a :class:`~boodle.engine.state.BidRange` for
        an auction's bids)."""

    def apply(self, ruleset: Ruleset, state: DealState,
              move: Move) -> tuple[DealState, list[Event]]:
        """Play a move, or raise ``IllegalMove`` with its rule id."""

    def is_terminal(self, state: DealState) -> bool:
        """Whether the deal is over."""


def _phase(ruleset: Ruleset) -> StopsPhase:
    return next(p for p in ruleset.phases if isinstance(p, StopsPhase))


def _with_phase(ruleset: Ruleset, **changes: Any) -> Ruleset:
    phases = tuple(replace(p, **changes) if isinstance(p, StopsPhase) else p
                   for p in ruleset.phases)
    return replace(ruleset, phases=phases)


def _paid_stops(rs: Ruleset) -> Ruleset:
    return _with_phase(rs, stop_bonus=StopBonus(1, "each opponent"))


def _double_payments(rs: Ruleset) -> Ruleset:
    out: GoingOut = _phase(rs).going_out
    return _with_phase(rs, going_out=replace(out, per_card=2 * out.per_card))


def _restart_any_suit(rs: Ruleset) -> Ruleset:
    p = _phase(rs)
    if PASSES_INSTEAD[p.fallback.kind] or not AFTER_THE_RUN[p.restart.who]:
        return rs  # a pass rule keeps its own restart (its all-pass exit may need its colour)
    return _with_phase(rs, restart=LeadRule(p.restart.who, "lowest", "chosen suit"))


FINED_AT_LEAD: dict[Fault, bool] = {
    "cannot lead": False,  # charged at a pass
    "lead not lowest": True,
}
"""Spec §6.8 read afresh for the oracle's house rules: whether a penalty for this fault is
charged at a lead the rule makes legal (a lead that is not the lowest), one row per member of
:data:`Fault`."""


def _fined_leads(rs: Ruleset) -> Ruleset:
    """A fine for a lead that is not the lowest (spec §6.8), unless the phase has one."""
    p = _phase(rs)
    if any(FINED_AT_LEAD[pen.fault] for pen in p.penalties):
        return rs
    fine = Penalty("lead not lowest", 1, "each opponent", forfeit_boodles=True)
    return _with_phase(rs, penalties=(*p.penalties, fine))


def _claims_nothing(rs: Ruleset) -> Ruleset:
    return _with_phase(rs, claims="none")


def _ties_by_seat(rs: Ruleset) -> Ruleset:
    """Every holding and poker phase pays a tie to the lowest-numbered seat (spec §8.1)."""
    phases = tuple(replace(p, split="lowest seat") if isinstance(p, HoldingPhase | PokerPhase)
                   else p for p in rs.phases)
    return replace(rs, phases=phases)


def _widow_blocks_sets(rs: Ruleset) -> Ruleset:
    """A set complete in the widow blocks its section (spec §5.2), where that is allowed."""
    if not WIDOW_DEALT[rs.deal.widow_position] or not any(
            SECTION_PAID_BY[s.kind] == "all its cards" and ONE_SUIT_SETS[s.suit_rule]
            for s in rs.board):
        return rs
    return replace(rs, deal=replace(rs.deal, widow_sets="blocks sets"))


def _short_stacks(rs: Ruleset) -> Ruleset:
    """A short player antes section by section and takes only what they anted (spec §4),
    where the rules allow it (physical chips, dues fixed before the ante)."""
    registers = STILL_IN[rs.session.negative](0)  # a player at zero plays on: no elimination
    if registers or any(a.chosen or FOR_THE_WIDOW[a.payer] for a in rs.antes):
        return rs
    return replace(rs, short_stack="section by section")


def _withdrawable_bids(rs: Ruleset) -> Ruleset:
    """An auction's highest bidder may withdraw once every other bidder has passed (spec
    §5.4 ``high bidder: may withdraw``), where the variant auctions its widow."""
    sale = rs.widow_sale
    if sale is None or not BID_IN_ROUNDS[sale.mode]:
        return rs
    return replace(rs, widow_sale=replace(sale, high_bid="may be withdrawn"))


def _betting(bets: Any, bet: int, raises: int | None, opener: Any,
             blinds: tuple[int, ...] = ()) -> Any:
    """A betting round in every poker phase (spec §8.3), where the variant has one."""
    def change(rs: Ruleset) -> Ruleset:
        phases = tuple(replace(p, bets=bets, bet=bet, raises=raises, opener=opener,
                               blinds=blinds)
                       if isinstance(p, PokerPhase) else p for p in rs.phases)
        return replace(rs, phases=phases)
    return change


def _dealer_double(rs: Ruleset) -> Ruleset:
    return replace(rs, antes=(*rs.antes, AnteLine("dealer", 1, ("every section",))))


HOUSE_RULES = {
    "as written": lambda rs: rs,
    "paid stops": _paid_stops,
    "double payments": _double_payments,
    "restart in any suit": _restart_any_suit,
    "dealer pays double": _dealer_double,
    "fined leads": _fined_leads,
    "claims nothing": _claims_nothing,
    "ties by seat": _ties_by_seat,
    "widow blocks sets": _widow_blocks_sets,
    "short stacks": _short_stacks,
    "withdrawable bids": _withdrawable_bids,
    "fixed bets": _betting("fixed", 2, 2, "left of dealer"),
    "capped bets": _betting("up to", 3, None, "dealer"),
    "pot-limit bets": _betting("pot limit", 0, 2, "left of dealer"),
    "no-limit bets": _betting("no limit", 0, None, "dealer"),
    "blinds": _betting("fixed", 2, 3, "left of dealer", (1, 2)),
}
"""House rules the machine may apply to a variant (each keeps the ruleset playable)."""


def playable_variants() -> list[str]:
    """The built-in variants the reference engine plays (a stops phase, nothing pending)."""
    from boodle.engine.support import pending_features
    from boodle.language.variants import builtin_names, load

    out = []
    for name in builtin_names():
        rs = load(name)
        if any(isinstance(p, StopsPhase) for p in rs.phases) and not pending_features(rs):
            out.append(name)
    return out


def _every(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    return True


def _not_the_stopped(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    return stopped is None or suit != stopped


def _the_stopped(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    return suit == stopped


def _colour_against_stopped(rule: LeadRule, suit: str, stopped: str | None,
                            flipped: bool) -> bool:
    if stopped is None:
        return True
    differs = SUIT_COLOUR[suit] != SUIT_COLOUR[stopped]
    return not differs if flipped else differs


def _the_suit(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    return suit == rule.suit


def _the_colour(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    return (SUIT_COLOUR[suit] == rule.scope) != flipped


Lowest = Literal["of its suit", "of a longest suit", "of them all"]

SCOPE_PREDICATES: dict[Scope, tuple[Callable[[LeadRule, str, str | None, bool], bool], Lowest]] = {
    "chosen suit": (_every, "of its suit"),
    "longest suit": (_every, "of a longest suit"),
    "other suit": (_not_the_stopped, "of its suit"),
    "same suit": (_the_stopped, "of its suit"),
    "opposite colour": (_colour_against_stopped, "of its suit"),
    "opposite colour card": (_colour_against_stopped, "of them all"),
    "suit": (_the_suit, "of them all"),
    "black": (_the_colour, "of them all"),
    "red": (_the_colour, "of them all"),
    "all": (_every, "of them all"),
}
"""Spec §6.1, §6.4 and §6.5, read afresh for the oracle: for each lead scope, may a lead be
in ``suit`` (with the stopped suit, ``None`` before a stop, and the colour flip), and does
``lowest`` mean the lowest of its own suit, of its suit when that is a longest one, or of the
whole allowed set."""


TIE_ORDERS: dict[TieBreak, Callable[[Ruleset, LeadRule], tuple[str, ...] | None]] = {
    "chosen": lambda ruleset, rule: None,
    "suit order": lambda ruleset, rule: rule.tie_suits,
    "hand order": lambda ruleset, rule: ruleset.deck.suits,
}
"""Spec §6.1, read afresh for the oracle: the suit order that settles a ``lowest`` lead's
cards of equal rank, or ``None`` when the leader chooses among them (every one is legal)."""


CHOSEN_BY_RANK: dict[Choice, bool | None] = {
    "lowest": True,
    "any": False,
    "card": None,
}
"""Spec §6.1 and §6.4, read afresh for the oracle: whether a lead rule's choice allows only
the lowest of the cards its scope allows (``True``) or any of them (``False``); ``None`` for
an exact card, whose lead the oracle leaves to the engine (the rules text names the card)."""


def _suit_allowed(rule: LeadRule, suit: str, stopped: str | None, flipped: bool) -> bool:
    """Spec §6.1 and §6.5, read afresh: may a lead be in ``suit`` under ``rule``?"""
    return SCOPE_PREDICATES[rule.scope][0](rule, suit, stopped, flipped)


def expected_lead_fault(phase: StopsPhase, state: DealState, card: Card,
                        legal: Sequence[Card], ruleset: Ruleset | None = None) -> str | None:
    """The rule id (spec §12) a lead of held ``card`` outside ``legal`` breaks, or ``None``
    when the rules text alone does not settle it here (a holder or exact-card rule)."""
    rule = phase.restart if state.restart else phase.first_lead
    stopped = state.stopped if state.restart else None
    if BY_HOLDER[rule.who] or CHOSEN_BY_RANK[rule.choice] is None:
        return None
    if legal and not all(_suit_allowed(rule, c.suit, stopped, state.flipped) for c in legal):
        instead = FALLBACK_RULES[phase.fallback.kind](phase.fallback)
        if instead is None:
            return None
        rule = instead  # spec §6.5: the fallback is in force
        if CHOSEN_BY_RANK[rule.choice] is None:
            return None
    if not _suit_allowed(rule, card.suit, stopped, state.flipped):
        return "lead.suit"
    lowest = SCOPE_PREDICATES[rule.scope][1]
    if lowest == "of a longest suit" and all(c.suit != card.suit for c in legal):
        return "lead.suit"
    if lowest == "of them all" and CHOSEN_BY_RANK[rule.choice] and legal and ruleset is not None \
            and TIE_ORDERS[rule.ties](ruleset, rule) is None \
            and ruleset.deck.rank_index(card) == ruleset.deck.rank_index(legal[0]):
        return None  # spec §6.1: the leader chooses among equal ranks; this one is legal
    if lowest != "of them all" or CHOSEN_BY_RANK[rule.choice]:
        return "lead.lowest"
    return None


FALLBACK_RULES: dict[FallbackKind, Callable[[Fallback], LeadRule | None]] = {
    "lead": lambda fb: fb.rule,
    "pass": lambda fb: None,
}
"""The lead rule in force when the rule of the moment allows no card held (spec §6.5), one
row per member of :data:`FallbackKind`: the fallback's own, or ``None``: the seat passes."""


def _clockwise_order(winners: Sequence[int]) -> tuple[int, ...]:
    return tuple(winners)


def _first_clockwise(winners: Sequence[int]) -> tuple[int, ...]:
    return tuple(winners[:1])


def _lowest_numbered(winners: Sequence[int]) -> tuple[int, ...]:
    return (min(winners),) if winners else ()


SPLIT_TAKERS: dict[Split, Callable[[Sequence[int]], tuple[int, ...]]] = {
    "share": _clockwise_order,
    "first seat": _first_clockwise,
    "lowest seat": _lowest_numbered,
}
"""Spec §8.1 and §8.2, read afresh for the oracle: given the winners of a section clockwise
from the dealer's left, the seats that receive a claim of it, in the order they are paid
(``share``: every winner; ``first seat``: the first; ``lowest seat``: the lowest-numbered)."""


BET_CEILINGS: dict[BetLimit, Callable[[PokerPhase, int, int], int | None]] = {
    "none": lambda p, pot, owed: 0,
    "fixed": lambda p, pot, owed: p.bet,
    "up to": lambda p, pot, owed: p.bet,
    "pot limit": lambda p, pot, owed: max(pot + owed, 1),
    "no limit": lambda p, pot, owed: None,
}
"""Spec §8.3 read afresh for the oracle: the most chips one bet or raise may add on top of
what is owed, from the phase, the pot's whole chips and the chips owed (``None``: no bound
but the balance): ``bets: N chips`` and ``up to N chips`` N; ``pot limit`` the pot after the
call (what is on it plus what is owed, at least 1); ``no limit`` none."""


def _holds(section: Section, hand: Sequence[Card], suits: Sequence[str], trump: str | None
           ) -> bool:
    """Spec §8.1 read afresh: does ``hand`` hold every card of ``section`` (a ``same suit`` set:
    its ranks in one suit; of trumps: its ranks in ``trump``)?"""
    held = {(c.rank, c.suit) for c in hand}
    return HOLDS[section.suit_rule](section, held, suits, trump)


def _holds_its_cards(section: Section, held: set[tuple[str, str]], suits: Sequence[str],
                     trump: str | None) -> bool:
    return bool(section.cards) and all((c.rank, c.suit) in held for c in section.cards)


HOLDS: dict[SuitRule, Callable[[Section, set[tuple[str, str]], Sequence[str], str | None],
                               bool]] = {
    "fixed": _holds_its_cards,
    "same suit": lambda section, held, suits, trump: any(
        all((r, s) in held for r in section.ranks) for s in suits),
    "trumps": lambda section, held, suits, trump: trump is not None and all(
        (r, trump) in held for r in section.ranks),
    "drawn": _holds_its_cards,  # the card drawn for the session, bound to the section
}
"""Whether a hand (its (rank, suit) pairs) holds every card of a section (spec §3, §8.1), one
row per member of :data:`SuitRule`, given the deck's suits and the deal's trump suit."""

SECTION_PAID_BY: dict[SectionKind, str] = {
    "boodle": "one card",
    "set": "all its cards",
    "kitty": "",
    "pot": "",
}
"""Spec §3 read afresh for the oracle: what of a hand's cards claims a section, by its kind
(a boodle: any one of its paying cards; a set: all of them; a kitty or a pot: none, ``""``)."""

ONE_SUIT_SETS: dict[SuitRule, bool] = {"fixed": False, "same suit": True, "trumps": False,
                                       "drawn": False}
"""Whether a set under each suit rule is its ranks in any one suit (spec §3), so that a widow
may hold it in one suit while a hand holds it in another (spec §5.2 ``blocks sets``)."""


def _no_block(section: Section, widow: Sequence[Card], suits: Sequence[str],
              trump: str | None) -> bool:
    return False


def _set_in_widow(section: Section, widow: Sequence[Card], suits: Sequence[str],
                  trump: str | None) -> bool:
    return SECTION_PAID_BY[section.kind] == "all its cards" and _holds(section, widow, suits,
                                                                      trump)


WIDOW_SET_BLOCKS: dict[WidowSets, Callable[[Section, Sequence[Card], Sequence[str], str | None],
                                           bool]] = {
    "qualifies nobody": _no_block,
    "blocks sets": _set_in_widow,
}
"""Spec §5.2 read afresh for the oracle: is ``section`` blocked for the deal by the widow's
cards (``blocks sets``: a set whose cards, or ranks in one suit, all lie there)?"""


def blocked_now(ruleset: Ruleset, state: DealState) -> set[str]:
    """The sections the widow of ``state`` blocks (spec §5.2), by :data:`WIDOW_SET_BLOCKS`."""
    test = WIDOW_SET_BLOCKS[ruleset.deal.widow_sets]
    widow = state.widow()
    return {s.name for s in ruleset.board if test(s, widow, ruleset.deck.suits, state.trump)}


def _as_written(dues: Sequence[tuple[str, Any]], balance: Any) -> list[str] | None:
    return None


def _in_board_order(dues: Sequence[tuple[str, Any]], balance: Any) -> list[str] | None:
    if balance >= sum(amount for _, amount in dues):
        return None
    paid = []
    for name, amount in dues:
        if amount > balance:
            break
        paid.append(name)
        balance -= amount
    return paid


SHORT_STACK_DUES: dict[ShortStack, Callable[[Sequence[tuple[str, Any]], Any], list[str] | None]] = {
    "as balance": _as_written,
    "section by section": _in_board_order,
}
"""Spec §4 read afresh for the oracle: given a payer's dues per section in board order and
their balance before the ante, the sections they ante when short (``None``: they are not
short, or the rule has them pay as written)."""


def _hand_holding(state: DealState, card: Card) -> int | None:
    """The seat whose hand holds ``card``, or ``None``."""
    return next((seat for seat in range(state.players) if card in state.hand(seat)), None)


FOLLOWERS: dict[Follow, Callable[[DealState, Card], int | None]] = {
    "owner": _hand_holding,
    "turn": _hand_holding,  # the turn goes round to the card's one holder
}
"""Spec §6.2 read afresh for the oracle: who must play the next card of a run, given the
state and that card, one row per member of :data:`Follow`; a follow due to anyone else is a
fault of the implementation."""


STILL_IN: dict[Balance, Callable[[Any], bool]] = {
    "allowed": lambda balance: True,
    "eliminate": lambda balance: balance > 0,
}
"""Spec §10 read afresh for the oracle: whether a player with this balance (chips) is still
in, dealt the next deal, one row per member of :data:`Balance`."""


ANTE_PAYERS: dict[Payer, Callable[[int, Sequence[int]], list[int]]] = {
    "each player": lambda dealer, live: list(live),
    "each other player": lambda dealer, live: [s for s in live if s != dealer],
    "dealer": lambda dealer, live: [dealer],
    "widow": lambda dealer, live: [dealer],  # the widow's share, paid by the dealer
}
"""Who pays an ante line (spec §4), one row per member of :data:`Payer`, given the dealer and
the seats still in."""

PASSES_INSTEAD: dict[FallbackKind, bool] = {"lead": False, "pass": True}
"""Spec §6.5 read afresh for the oracle: whether a seat that may lead no card passes."""

AFTER_THE_RUN: dict[Who, bool] = {
    "left of dealer": False,
    "dealer": False,
    "holder": False,
    "last player": True,
    "next player": True,
    "phase winner": False,
}
"""Spec §6.4 read afresh for the oracle: whether a restart under each ``who`` goes to a
player of the stopped run (the stopper, or the player after them)."""

BY_HOLDER: dict[Who, bool] = {
    "left of dealer": False,
    "dealer": False,
    "holder": True,
    "last player": False,
    "next player": False,
    "phase winner": False,
}
"""Spec §6.1: whether a lead under each ``who`` goes to the holder of a card, whose rule in
force the oracle leaves to the engine."""

FOR_THE_WIDOW: dict[Payer, bool] = {
    "each player": False,
    "each other player": False,
    "dealer": False,
    "widow": True,
}
"""Whether an ante line is paid on the widow's behalf (spec §4 'widow antes': the dealer pays
the widow's share), one row per member of :data:`Payer`."""

WIDOW_DEALT: dict[WidowPosition, bool] = {
    "last": True,
    "first": True,
    "none": False,
}
"""Whether a widow is dealt (spec §5.2: ``widow: none`` deals none), one row per member of
:data:`WidowPosition`."""


def expected_short(ruleset: Ruleset, players: int, dealer: int, ledger: Ledger
                   ) -> dict[int, list[str]]:
    """The seats that are short at this deal's ante, each with the sections it antes in board
    order (spec §4), from the ante lines and the balances before the ante alone."""
    still_in = STILL_IN[ruleset.session.negative]
    live = [s for s in range(players) if still_in(ledger.seat(s))]
    payers = {payer: row(dealer, live) for payer, row in ANTE_PAYERS.items()}
    order = {s.name: i for i, s in enumerate(ruleset.board)}
    out: dict[int, list[str]] = {}
    for who in live:
        dues: dict[str, Any] = {}
        for line in ruleset.antes:
            if who in payers[line.payer] and not line.chosen:
                for name in _expanded(ruleset, line.targets):
                    dues[name] = dues.get(name, 0) + line.amount
        anted = SHORT_STACK_DUES[ruleset.short_stack](
            sorted(dues.items(), key=lambda d: order[d[0]]), ledger.seat(who))
        if anted is not None:
            out[who] = anted
    return out


def _expanded(ruleset: Ruleset, targets: Sequence[str]) -> list[str]:
    """Spec §4: ``every section`` is the whole board, ``each boodle`` its boodles, in order."""
    out: list[str] = []
    for t in targets:
        if t == "every section":
            out += [s.name for s in ruleset.board]
        elif t == "each boodle":
            out += [s.name for s in ruleset.board if SECTION_PAID_BY[s.kind] == "one card"]
        else:
            out.append(t)
    return out


def _check_antes(short: dict[int, list[str]], events: Sequence[Any]) -> None:
    """A short seat's ante events are its sections in board order (spec §4)."""
    for who, anted in short.items():
        paid = [e.transfer.dst.name for e in events if e.kind == "ante"
                and getattr(e.transfer.src, "seat", None) == who]
        assert paid == anted, f"seat {who} short: antes {paid}; spec §4 says {anted}"


def _check_eligible(short: dict[int, list[str]], events: Sequence[Any]) -> None:
    """A short seat claims only the sections it anted (spec §4)."""
    for e in events:
        if e.kind == "claim" and e.seat in short:
            assert e.section in short[e.seat], \
                f"{e}: seat {e.seat} did not ante {e.section} (spec §4), yet takes it"


def expected_holding_claims(ruleset: Ruleset, state: DealState) -> list[tuple[int, str]]:
    """The (seat, section) claims the holding phases played before the first move pay, in
    order (spec §8.1; §6.6 ``claims: on holding``, paid as ``share`` in board order), from the
    hands of ``state``: holding moves no card.  Seats still in are those dealt a card.  A
    section the widow blocks (spec §5.2) is paid to nobody."""
    n = len(state.hands)
    order = [(state.dealer + k) % n for k in range(1, n + 1)]
    live = [s for s in order if state.hand(s)]
    out: list[tuple[int, str]] = []
    for phase in ruleset.phases:
        if isinstance(phase, HoldingPhase):
            names, split = list(phase.sections), phase.split
        elif isinstance(phase, StopsPhase):
            if CLAIM_RULES[phase.claims].at_start:
                names = [s.name for s in ruleset.board if SECTION_PAID_BY[s.kind]]
                out += _takers(ruleset, state, live, names, "share")
            break  # a stops phase has moves: what follows is not paid at the start
        else:
            continue
        out += _takers(ruleset, state, live, names, split)
    return out


def _takers(ruleset: Ruleset, state: DealState, live: Sequence[int], names: Sequence[str],
            split: Split) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    shut = blocked_now(ruleset, state)
    for name in names:
        if name in shut:
            continue
        section = ruleset.section(name)
        winners = [s for s in live
                   if _holds(section, state.hand(s), ruleset.deck.suits, state.trump)]
        out += [(s, name) for s in SPLIT_TAKERS[split](winners)]
    return out


TURN_UP_PAYS: dict[TurnUpRule, bool] = {
    "nothing": False,
    "dealer takes boodle": True,
}
"""Spec §5.2 read afresh for the oracle: whether the turned-up card pays the dealer a boodle
at the deal's start, one row per member of :data:`TurnUpRule` (the oracle does not read such
a start alone)."""


def _check_holding(ruleset: Ruleset, state: DealState, events: Sequence[Any]) -> None:
    """The holding claims a deal's start made are those :func:`expected_holding_claims` says
    (variants whose start the oracle reads alone: no widow sale, no turn-up payment)."""
    if ruleset.widow_sale is not None or TURN_UP_PAYS[ruleset.deal.turn_up]:
        return
    paid = {n for p in ruleset.phases if isinstance(p, HoldingPhase) for n in p.sections}
    if any(isinstance(p, StopsPhase) and CLAIM_RULES[p.claims].at_start for p in ruleset.phases):
        paid |= {s.name for s in ruleset.board if SECTION_PAID_BY[s.kind]}
    made = [(e.seat, e.section) for e in events if e.kind == "claim" and e.section in paid]
    want = expected_holding_claims(ruleset, state)
    assert made == want, f"holding claims {made}; spec §8.1 pays {want}"


@dataclass
class _Table:
    """The session being played: rules, seats, the deal in progress and the chips in play."""

    ruleset: Ruleset
    players: int
    rng: random.Random
    state: DealState
    total: Any
    dealer: int
    deals: int = 1
    short: dict[int, list[str]] = field(default_factory=dict)


Oracle = Literal["auto", "reference", "model", "none"]
"""What the machine checks every step against: the reference engine, the z3 model, or nothing
(only the invariants and the rule ids of probes)."""


def machine(impl: Any = reference_engine, variants: Sequence[str] | None = None,
            step_count: int = 300, oracle: Oracle = "auto",
            house_rules: Sequence[str] | None = None) -> type[RuleBasedStateMachine]:
    """A state machine class driving ``impl`` (see the module docstring).

    ``variants``: built-in names to draw from (default: :func:`playable_variants`);
    ``house_rules``: names of :data:`HOUSE_RULES` to draw from (default: all of them; an
    unknown name raises ``KeyError``);
    ``step_count``: steps per example (a whole deal takes up to ~45 moves).
    ``oracle``: every step is checked move by move against it: ``reference``, this
    package's engine (``impl``'s state after each deal's start must be the reference's of
    the same ledger, dealer and pack, its legal moves the reference's, each move's state
    after it the reference's: every card's place, the run, the seat to move, passes, the
    colour flip, the winner, every chip; a probe the reference refuses must be refused);
    ``model``, the z3 model of :mod:`boodle.verify` in the stops phase (its enabled moves and
    successors, every seat in; needs z3; a model is compiled per ruleset and player count,
    so it is slow); ``auto`` (default): ``reference`` for another implementation, ``none``
    for the reference engine itself; ``none``: no oracle.
    """
    if oracle == "auto":  # the reference engine is its own reference: nothing to compare
        oracle = "none" if impl is reference_engine else "reference"
    step_oracle = _StepOracle(oracle)
    names = st.sampled_from(list(variants)) if variants is not None else \
        st.deferred(lambda: st.sampled_from(playable_variants()))
    houses = sorted(HOUSE_RULES) if house_rules is None else [
        name for name in house_rules if HOUSE_RULES[name] is not None]

    class BoodleMachine(RuleBasedStateMachine):
        """Plays sessions of random variants and house rules; checks every step."""

        table: _Table | None = None

        @initialize(name=names, house=st.sampled_from(houses),
                    seed=st.integers(0, 2**32 - 1), data=st.data())
        def start(self, name: str, house: str, seed: int, data: st.DataObject) -> None:
            """Draw a variant, a house rule, a player count and a seed; deal the first deal."""
            from boodle.language.variants import load

            rs = HOUSE_RULES[house](load(name))
            rs, _ = draw_boodles(rs, random.Random(seed))
            players = data.draw(st.integers(rs.players.low, min(rs.players.high, 8)),
                                label="players")
            rng = random.Random(seed)
            dealer = rng.randrange(players)
            ledger = Ledger.open(players, tuple(s.name for s in rs.board), 50)
            pack = tuple(_shuffled(rs, rng))  # the oracle deals the same pack again
            state, events = impl.start_deal(rs, players, dealer, ledger, list(pack))
            step_oracle.check_start(rs, players, dealer, ledger, pack, state)
            short = expected_short(rs, players, dealer, ledger)
            _check_antes(short, events)
            _check_eligible(short, events)
            if not short:
                _check_holding(rs, state, events)
            self.table = _Table(rs, players, rng, state, ledger.total(), dealer, short=short)

        @precondition(lambda self: self.table is not None)
        @rule(pick=st.integers(0, 10**6), data=st.data())
        def play_legal(self, pick: int, data: st.DataObject) -> None:
            """Play a legal move (or deal the next deal once this one is over); of a bid
            range, an amount drawn anywhere in it (shrinking to the lowest bid)."""
            t = self.table
            assert t is not None
            if impl.is_terminal(t.state):
                self._next_deal(t)
                return
            legal = impl.legal_moves(t.ruleset, t.state)
            assert legal, "a deal that is not over has a legal move"
            stage = t.state.stage
            before = t.state
            entry = legal[pick % len(legal)]
            move = entry if not isinstance(entry, BidRange) else entry.bid(
                entry.low + entry.step * data.draw(st.integers(0, entry.size - 1), label="bid"))
            shut = blocked_now(t.ruleset, t.state)
            t.state, events = impl.apply(t.ruleset, t.state, move)
            step_oracle.check(t.ruleset, t.players, before, legal, move, t.state)
            _check_auction(impl, t.ruleset, before, move, events, t.state)
            _check_claims(t.ruleset, stage, events)
            _check_going_out(t.ruleset, stage, events)
            _check_all_pass(t.ruleset, before, move, events)
            taken = [e.section for e in events if e.kind == "claim" and e.section in shut]
            assert not taken, f"{taken}: blocked by the widow (spec §5.2), yet claimed"
            _check_eligible(t.short, events)

        @precondition(lambda self: self.table is not None)
        @rule()
        def probe_illegal(self) -> None:
            """Make every illegal probe of the state (:func:`_probes`, in order); each must be
            refused with the rule id of spec §12.  All of them, not one drawn: which probe
            fails first does not depend on what Hypothesis drew before."""
            t = self.table
            assert t is not None
            before = t.state
            for move, rule_id in _probes(t, impl):
                try:
                    impl.apply(t.ruleset, t.state, move)
                except IllegalMove as e:
                    assert e.rule == rule_id, \
                        f"{move}: refused with {e.rule}, spec §12 says {rule_id}"
                else:
                    raise AssertionError(f"{move} was accepted; spec §12 refuses it ({rule_id})")
                assert t.state is before

        def _next_deal(self, t: _Table) -> None:
            ledger = t.state.ledger
            n = t.players
            order = [(t.dealer + k) % n for k in range(1, n + 1)]
            live = [s for s in order if STILL_IN[t.ruleset.session.negative](ledger.seat(s))]
            if len(live) < t.ruleset.players.low:
                return  # the session is over (spec §10); the machine stops dealing
            t.dealer = live[0]
            pack = tuple(_shuffled(t.ruleset, t.rng))
            t.state, events = impl.start_deal(t.ruleset, n, t.dealer, ledger, list(pack))
            step_oracle.check_start(t.ruleset, n, t.dealer, ledger, pack, t.state)
            t.short = expected_short(t.ruleset, n, t.dealer, ledger)
            _check_antes(t.short, events)
            _check_eligible(t.short, events)
            if not t.short:
                _check_holding(t.ruleset, t.state, events)
            t.deals += 1

        @invariant()
        def chips_conserved(self) -> None:
            """Spec §9: seats and sections hold the session's chips; no section below zero."""
            t = self.table
            if t is None:
                return
            have = t.state.ledger.total()
            assert have == t.total, f"chips not conserved: {have} in play, {t.total} expected"
            low = [name for name, amount in t.state.ledger.sections if amount < 0]
            assert not low, f"sections below zero: {low}"

        @invariant()
        def cards_in_one_place(self) -> None:
            """Spec §2: every card of the deck is in exactly one place; hand counts agree."""
            t = self.table
            if t is None:
                return
            s = t.state
            assert s.cards == t.ruleset.deck.cards() and len(s.places) == len(s.cards)
            everywhere = [*[c for h in s.hands for c in h], *s.widow(), *s.out_of_play(),
                          *[c for _, c in s.played()],
                          *[c for c, p in zip(s.cards, s.places, strict=True) if p.kind == "pack"]]
            assert sorted(map(str, everywhere)) == sorted(map(str, s.cards)), \
                "a card is in two places or in none"
            if s.held:
                assert s.held == tuple(len(h) for h in s.hands), "hand counts disagree"

    BoodleMachine.TestCase.settings = settings(
        max_examples=20, stateful_step_count=step_count, deadline=None)
    return BoodleMachine


@dataclass
class _StepOracle:
    """Checks one step of the machine against the reference engine or the z3 model (see
    :func:`machine`'s ``oracle``)."""

    kind: Oracle
    models: dict[tuple[int, int], Any] | None = None

    def check(self, ruleset: Ruleset, players: int, before: DealState,
              legal: Sequence[Legal], move: Move, after: DealState) -> None:
        """``before``, its ``legal`` moves and ``after`` (``move`` played) as the oracle has
        them; an ``AssertionError`` naming the first difference."""
        if self.kind == "reference":
            want_legal = reference_engine.legal_moves(ruleset, before)
            assert set(legal) == set(want_legal), \
                f"legal moves {sorted(map(str, legal))}, the reference engine has " \
                f"{sorted(map(str, want_legal))}"
            want, _ = reference_engine.apply(ruleset, before, move)
            diff = _state_difference(after, want)
            assert diff is None, f"after {move}: {diff} (the reference engine's in brackets)"
        elif self.kind == "model":
            self._model(ruleset, players, before, legal, move, after)

    def check_start(self, ruleset: Ruleset, players: int, dealer: int, ledger: Ledger,
                    pack: Sequence[Card], state: DealState) -> None:
        """A deal's start (spec §4 the antes, §5 the deal and what follows it before the first
        move) as the oracle has it: under ``reference`` the reference engine's
        ``start_deal`` of the same ledger, dealer and pack must leave the same state (every
        card's place, the seat to move, every chip); an ``AssertionError`` naming the first
        difference.  The z3 model has no step-by-step antes or deal (its Init is any deal):
        ``model`` checks nothing here."""
        if self.kind != "reference":
            return
        want, _ = reference_engine.start_deal(ruleset, players, dealer, ledger, list(pack))
        diff = _state_difference(state, want)
        assert diff is None, \
            f"the deal's start (dealer seat {dealer}): {diff} (the reference engine's in brackets)"

    def _model(self, ruleset: Ruleset, players: int, before: DealState,
               legal: Sequence[Legal], move: Move, after: DealState) -> None:
        name = before.stage.removeprefix("phase:")
        if before.out or not any(isinstance(p, StopsPhase) and p.name == name
                                 for p in ruleset.phases):
            return  # the model has the stops phase, every seat in
        from boodle.verify.concrete import ModelOracle, action_name
        from boodle.verify.induction import System

        if self.models is None:
            self.models = {}
        key = (id(ruleset), players)
        got = self.models.get(key)
        if got is None or got[0] is not ruleset:
            got = self.models[key] = (ruleset, ModelOracle(System(ruleset, players)))
        oracle = got[1]
        layout = oracle.system.layout
        enabled = oracle.enabled(oracle.encode(before))
        names = {action_name(layout, m) for m in each_move(legal)}  # no bid in the stops phase
        assert names == set(enabled), \
            f"legal moves {sorted(names)}, the z3 model enables {sorted(enabled)}"
        width = len(oracle.system.state.flat())
        if after.out:
            return
        assert enabled[action_name(layout, move)] == oracle.encode(after)[:width], \
            f"after {move}: the state is not the z3 model's successor"


_COMPARED = ("stage", "places", "step", "to_move", "current", "restart", "stopped",
             "last_player", "passes", "flipped", "winner", "ledger", "forfeited", "out", "bets")


def _state_difference(got: DealState, want: DealState) -> str | None:
    """The first field of :data:`_COMPARED` where ``got`` differs from ``want``, as text."""
    for name in _COMPARED:
        a, b = getattr(got, name), getattr(want, name)
        if a != b:
            if name == "places":
                cards = [f"{c}: {p} [{q}]" for c, p, q in
                         zip(want.cards, a, b, strict=False) if p != q]
                return "cards moved differently: " + ", ".join(cards[:4])
            return f"{name} {a} [{b}]"
    return None


@dataclass(frozen=True)
class _ClaimRule:
    """What the oracle reads of a claims rule (spec §6.6): ``at_start``, the holders of the
    boodle and set sections are paid as the phase starts (ties shared); ``in_play``, a
    play may claim.  With neither, a move claims nothing but what going out takes."""

    at_start: bool
    in_play: bool


CLAIM_RULES: dict[ClaimRule, _ClaimRule] = {
    "on play": _ClaimRule(at_start=False, in_play=True),
    "on holding": _ClaimRule(at_start=True, in_play=False),
    "none": _ClaimRule(at_start=False, in_play=False),
}
"""The oracle's claims rules, one row per member of :data:`ClaimRule`."""


def _winner_paid(ruleset: Ruleset, out: GoingOut, who: int) -> tuple[Any, str | None]:
    return ("seat", who), None


def _kitty_paid(ruleset: Ruleset, out: GoingOut, who: int) -> tuple[Any, str | None]:
    kitty = ruleset.kitty()
    name = None if kitty is None else kitty.name
    return ("section", name), name  # the winner then takes the kitty (spec §7)


def _section_paid(ruleset: Ruleset, out: GoingOut, who: int) -> tuple[Any, str | None]:
    return ("section", out.into), None  # nobody takes it unless 'takes' names it


GOING_OUT_PAYEES: dict[PaidTo, Callable[[Ruleset, GoingOut, int], tuple[Any, str | None]]] = {
    "winner": _winner_paid,
    "kitty": _kitty_paid,
    "section": _section_paid,
}
"""Who receives going out's payments per card (spec §7), one row per member of
:data:`PaidTo`, for the seat ``who`` that went out: (``("seat", n)`` or ``("section",
name)``, the section the winner takes besides ``takes``, or ``None``)."""


ALL_PASS_ENDS: dict[AllPass, str | None] = {
    "none": None,  # no round of passes may be played: the builder refuses a pass without exit
    "end without winner": "deal-end",
    "flip colour": "flip-colour",
}
"""The event a round of passes ends with (spec §6.5), one row per member of
:data:`AllPass`: the deal's end (nobody went out) or the colour's flip."""


def _payee(account: Any) -> tuple[str, Any]:
    seat = getattr(account, "seat", None)
    return ("seat", seat) if seat is not None else ("section", getattr(account, "name", None))


def _check_going_out(ruleset: Ruleset, stage: str, events: Sequence[Any]) -> None:
    """Spec §7: every payment per card of a move that goes out goes where the rule says
    (:data:`GOING_OUT_PAYEES`)."""
    phase = next((p for p in ruleset.phases if isinstance(p, StopsPhase)
                  and stage == f"phase:{p.name}"), None)
    out = next((e.seat for e in events if e.kind == "go-out"), None)
    if phase is None or out is None:
        return
    want, _ = GOING_OUT_PAYEES[phase.going_out.to](ruleset, phase.going_out, out)
    for e in events:
        if e.kind == "payment":
            assert _payee(e.payee) == want, \
                f"{e}: going out pays {want[0]} {want[1]} (spec §7: '{phase.going_out.to}')"


def _check_all_pass(ruleset: Ruleset, before: DealState, move: Move,
                    events: Sequence[Any]) -> None:
    """Spec §6.5: the pass that completes a round of passes (every player still in passed)
    ends the deal or flips the colour as the all-pass rule says (:data:`ALL_PASS_ENDS`);
    any other pass does neither."""
    if not isinstance(move, PassMove) or before.step == "over":
        return
    phase = next((p for p in ruleset.phases if isinstance(p, StopsPhase)
                  and before.stage == f"phase:{p.name}"), None)
    if phase is None:
        return
    kinds = {e.kind for e in events} & {"deal-end", "flip-colour"}
    if before.passes + 1 < len(before.clockwise(move.seat)):
        assert not kinds, f"{move}: {sorted(kinds)} before every player passed (spec §6.5)"
        return
    want = ALL_PASS_ENDS[phase.all_pass]
    assert want is not None, f"{move}: a round of passes under 'all pass: none' (spec §6.5)"
    assert kinds == {want}, \
        f"{move} ends a round of passes with {sorted(kinds)}; 'all pass: {phase.all_pass}' " \
        f"says {want} (spec §6.5)"


def _check_claims(ruleset: Ruleset, stage: str, events: Sequence[Any]) -> None:
    """Spec §6.6 ``claims: none``: a move of such a stops phase claims nothing; the only
    sections taken are those going out takes (§7: its ``takes`` and, ``to kitty``, the
    kitty), by the player who went out, after going out."""
    phase = next((p for p in ruleset.phases if isinstance(p, StopsPhase)
                  and stage == f"phase:{p.name}"), None)
    if phase is None or CLAIM_RULES[phase.claims].at_start \
            or CLAIM_RULES[phase.claims].in_play:
        return
    _, also = GOING_OUT_PAYEES[phase.going_out.to](ruleset, phase.going_out, -1)
    takes = set(phase.going_out.takes) | ({also} if also is not None else set())
    out = None
    for e in events:
        if e.kind == "go-out":
            out = e.seat
        if e.kind == "claim":
            assert out is not None, f"{e}: a claim under 'claims: none' before going out"
            assert e.seat == out and e.section in takes, \
                f"{e}: going out takes only {sorted(takes)} for the player who went out"


def _bidders(ruleset: Ruleset, state: DealState) -> set[int]:
    """Who takes part in a widow auction (spec §5.4): every player still in, the dealer
    included unless a ``dealer:`` swap line gives the dealer a chance of their own."""
    sale = ruleset.widow_sale
    assert sale is not None
    live = set(state.clockwise(state.dealer))
    return live - {state.dealer} if sale.dealer_swap else live


LAST_WORD: dict[HighBid, bool] = {
    "binds": False,
    "may be withdrawn": True,
}
"""Spec §5.4 read afresh for the oracle: whether the highest bidder left alone in an auction
has a last word (to let the bid stand or withdraw it), one row per member of :data:`HighBid`."""


def last_word(ruleset: Ruleset, state: DealState) -> bool:
    """Whether ``state`` is an auction's last word (spec §5.4 ``high bidder: may withdraw``):
    there is a highest bidder, and every other bidder has passed."""
    sale, rules = state.sale, ruleset.widow_sale
    if state.stage != "widow" or sale is None or rules is None \
            or not BID_IN_ROUNDS[rules.mode] or sale.bidder is None \
            or not LAST_WORD[rules.high_bid]:
        return False
    return _bidders(ruleset, state) - set(sale.out) == {sale.bidder}


@dataclass(frozen=True)
class _Close:
    """The pass that left ``bidder``, the highest bidder at ``bid`` chips, alone in an auction
    (spec §5.4): the move's ``events``, the state ``after`` it and its legal moves."""

    bidder: int
    bid: int
    events: Sequence[Any]
    after: DealState
    legal: Sequence[Legal]


def _closes_at_once(c: _Close) -> None:
    took = [(e.seat, e.how) for e in c.events if e.kind == "widow-exchange"]
    assert took == [(c.bidder, "bid")], \
        f"the highest bid binds: seat {c.bidder} takes the widow at once, not {took} (spec §5.4)"


def _gives_a_last_word(c: _Close) -> None:
    took = [e.seat for e in c.events if e.kind == "widow-exchange"]
    assert not took, f"seat {took} took the widow before the highest bidder's last word"
    assert c.after.to_move == c.bidder and set(c.legal) == {
        PassMove(c.bidder), WithdrawMove(c.bidder)}, \
        f"the highest bidder {c.bidder} may let the bid stand or withdraw it, not " \
        f"{sorted(map(str, c.legal))} with {c.after.to_move} to move (spec §5.4)"


BID_IN_ROUNDS: dict[SaleMode, bool] = {
    "sale": False,
    "auction": True,
}
"""Spec §5.4 read afresh for the oracle: whether the widow is bid for in rounds, so that a
highest bidder can be left alone once the others have passed (an auction), or offered once
round at a price (a sale), one row per member of :data:`SaleMode`."""


HIGH_BID_CLOSES: dict[HighBid, Callable[[_Close], None]] = {
    "binds": _closes_at_once,
    "may be withdrawn": _gives_a_last_word,
}
"""Spec §5.4 read afresh for the oracle: what follows the pass that leaves only the highest
bidder in an auction, one row per member of :data:`HighBid` (an assertion on the move)."""


def _check_auction(impl: Any, ruleset: Ruleset, before: DealState, move: Move,
                   events: Sequence[Any], after: DealState) -> None:
    """Spec §5.4: the pass that leaves only the highest bidder in an auction is followed as
    :data:`HIGH_BID_CLOSES` says; at the last word a withdrawal moves no chip and gives the
    widow to nobody, and a pass gives it to the bidder at the bid."""
    sale, rules = before.sale, ruleset.widow_sale
    if before.stage != "widow" or sale is None or rules is None \
            or not BID_IN_ROUNDS[rules.mode]:
        return
    if last_word(ruleset, before):
        took = [(e.seat, e.how) for e in events if e.kind == "widow-exchange"]
        if isinstance(move, WithdrawMove):
            assert after.ledger == before.ledger, "a withdrawal moved chips (spec §5.4)"
            assert all(seat != move.seat for seat, _ in took), \
                "a withdrawn bid took the widow (spec §5.4)"
        else:
            assert took == [(move.seat, "bid")], f"{move}: the bid stands, yet {took}"
        return
    if not isinstance(move, PassMove) or sale.bidder is None or sale.step != "offer":
        return
    if _bidders(ruleset, before) - set(sale.out) - {move.seat} != {sale.bidder}:
        return
    legal = impl.legal_moves(ruleset, after) if not impl.is_terminal(after) else ()
    HIGH_BID_CLOSES[rules.high_bid](_Close(sale.bidder, sale.bid, events, after, legal))


def _shuffled(ruleset: Ruleset, rng: random.Random) -> list[Card]:
    cards = list(ruleset.deck.cards())
    rng.shuffle(cards)
    return cards


def _bid_probes(t: _Table, legal: Sequence[Legal]) -> list[tuple[Move, str]]:
    """Bids just outside a bid range (spec §5.4, §12 order): below its lowest, ``widow.bid-low``;
    above the bidder's balance (its highest), ``widow.funds``, whoever the bid would go to."""
    out: list[tuple[Move, str]] = []
    for entry in legal:
        if not isinstance(entry, BidRange):
            continue
        if entry.low > 1:
            out.append((BidMove(entry.seat, entry.low - 1), "widow.bid-low"))
        out.append((BidMove(entry.seat, entry.high + 1), "widow.funds"))
    return out


def _bet_probes(t: _Table, legal: Sequence[Legal]) -> list[tuple[Move, str]]:
    """Bids a betting round refuses (spec §8.3, §12 order), read afresh from the rules: more
    than the balance in whole chips, ``bet.funds``; just below or above the bid range, or
    between a fixed bet's call and raise, ``bet.amount``; one chip more than the limit's
    largest raise (:data:`BET_CEILINGS`) when the balance holds it, ``bet.amount``."""
    who = t.state.to_move
    assert who is not None
    chips = t.state.ledger.seat(who)
    balance = max(int(Fraction(chips) // 1), 0)
    out: list[tuple[Move, str]] = [(BidMove(who, balance + 1), "bet.funds")]
    phase = next(p for p in t.ruleset.phases if f"phase:{p.name}" == t.state.stage)
    assert isinstance(phase, PokerPhase) and t.state.bets is not None
    pot = max(int(Fraction(t.state.ledger.section(phase.pot)) // 1), 0)
    owed = t.state.bets.owed(who)
    ceiling = BET_CEILINGS[phase.bets](phase, pot, owed)
    if ceiling is not None and owed + ceiling + 1 <= balance:
        out.append((BidMove(who, owed + ceiling + 1), "bet.amount"))
    for entry in legal:
        if not isinstance(entry, BidRange):
            continue
        if entry.low >= 1:
            out.append((BidMove(who, entry.low - 1), "bet.amount"))
        if entry.high < balance:
            out.append((BidMove(who, entry.high + 1), "bet.amount"))
        if entry.step > 1:
            out.append((BidMove(who, entry.low + 1), "bet.amount"))
    return out


def _probes(t: _Table, impl: Any) -> list[tuple[Move, str]]:
    """Illegal moves of the current state, each with the rule id it must be refused with."""
    s = t.state
    n = t.players
    any_card = t.ruleset.deck.cards()[0]
    if impl.is_terminal(s):
        return [(PassMove(0), "deal.over"), (LeadMove(0, any_card), "deal.over")]
    if s.to_move is None:
        return []
    who = s.to_move
    out: list[tuple[Move, str]] = [(PassMove(other), "turn") for other in range(n)
                                   if other != who]
    name = s.stage.removeprefix("phase:")
    in_stops = any(isinstance(p, StopsPhase) and p.name == name for p in t.ruleset.phases)
    if not in_stops:
        legal_now = impl.legal_moves(t.ruleset, s)
        betting = s.bets is not None  # a poker phase's betting round (spec §8.3)
        last = last_word(t.ruleset, s)  # spec §5.4: only the highest bidder's withdrawal
        return [*out, (LeadMove(who, any_card), "move.kind"), (PlayMove(who, any_card),
                                                              "move.kind"),
                (BidMove(who, s.sale.bid + 1) if last and s.sale is not None
                 else WithdrawMove(who), "move.kind"),
                *(_bet_probes(t, legal_now) if betting else _bid_probes(t, legal_now))]
    phase = _phase(t.ruleset)
    hand = s.hand(who)
    out.append((WithdrawMove(who), "move.kind"))  # a move of the widow sale, in play
    if s.step == "follow":
        assert s.current is not None
        nxt = t.ruleset.deck.next_card(s.current)
        assert nxt is not None and who == FOLLOWERS[phase.follow](s, nxt), \
            f"seat {who} is to follow {s.current}, but spec §6.2 has the holder of {nxt} play"
        out.append((PassMove(who), "pass.not-allowed"))
        out += [(LeadMove(who, c), "follow.next-card") for c in hand[:3]]
        out += [(PlayMove(who, c), "follow.next-card") for c in hand[:3] if c != nxt]
        return out
    legal = impl.legal_moves(t.ruleset, s)
    leads = [m.card for m in legal if isinstance(m, LeadMove)]
    out += [(PlayMove(who, c), "move.kind") for c in hand[:2]]
    out += [(LeadMove(who, c), "lead.not-held") for c in t.ruleset.deck.cards()
            if c not in hand][:3]
    if leads:
        out.append((PassMove(who), "pass.not-allowed"))
    for c in hand:
        if c not in leads:
            why = expected_lead_fault(phase, s, c, leads, t.ruleset)
            if why is not None:
                out.append((LeadMove(who, c), why))
    return out


ReferenceMachine = machine()
"""The machine for this package's engine; ``ReferenceMachine.TestCase`` runs it."""
