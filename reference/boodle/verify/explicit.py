"""Exhaustive explicit-state model checking on a reduced deck, with the real engine.

For one ruleset (reduced by :mod:`boodle.verify.reduce`), one player count
and dealer seat 0: every deal of the reduced deck (one per orbit of the
suit symmetries, :mod:`boodle.verify.symmetry`) is started with
:func:`boodle.engine.start_deal` and explored breadth-first over every
legal move of every stage (antes with a chosen boodle, the widow sale or
auction, the stops phase; holding and poker phases run inside the engine).
In every state:

- **chip conservation**: seats and sections add up to the chips before the
  ante, and no section is below zero;
- **card conservation**: each card of the deck is in exactly one place and
  the engine's hand counts agree;
- **progress**: a state that is not over has a legal move (the engine
  raising instead of answering is a deadlock too);
- **termination**: the graph of each deal's states has no cycle;
- **well-formedness**: the deal starts (every hand gets a card) and every
  move the engine lists as legal is accepted.

Two states are the same when every card is in the same place (played cards
by the same seat, in any order), with the same run, seat to move, pass
counters, sale and chips.  Every seat starts with ``start`` chips (default:
every deal from each of :func:`starts`: :func:`default_start`, which bounds auction bids,
and under short stacks :func:`short_start`) and every section empty.
The dealer is seat 0: every rule is relative to the dealer (spec §4-§6),
and the z3 proofs cover every dealer.  The shortest violation of each
property is kept, as a :class:`~boodle.verify.cex.Counterexample`.
"""

from __future__ import annotations

import gc
import math
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from itertools import combinations
from operator import itemgetter
from typing import Any

from boodle.engine.api import apply, is_terminal, legal_moves, start_deal
from boodle.engine.events import Event
from boodle.engine.faults import IllegalMove
from boodle.engine.ledger import Ledger, LedgerError
from boodle.engine.stages.antes import PAYERS, ante_targets
from boodle.engine.state import DealState, Move, Place, each_move
from boodle.engine.trace import render_text
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Chips, PokerPhase, Ruleset
from boodle.verify.cex import Counterexample
from boodle.verify.mutation import NO_MUTATION, Mutation
from boodle.verify.own_rules import SHORT_BY_SECTION, TURNED_UP, hand_sizes
from boodle.verify.symmetry import Deal, canonical, suit_symmetries

__all__ = ["FULL_START_MOST", "TICK", "ExplicitResult", "check_deals", "deal_count",
           "default_start", "deals", "short_start", "starts", "state_key"]

TICK = 4096
"""States explored between two calls of a search's ``tick`` (progress) callback."""

_SKIP = {"index", "since_ante", "plays", "moves", "dealt", "before_play"}
"""Fields that are no part of a state's identity: caches, and the history kept for the
position notation (``dealt``, ``before_play``: no rule reads them)."""

Key = tuple[Any, ...]
"""A state's identity (:func:`state_key`)."""

Observer = Callable[[DealState, list[tuple[Move, DealState, list[Event]]]], "str | None"]
"""What :func:`check_deals` calls with each state not over and every legal move's successor
(:meth:`boodle.verify.engine_model.Comparer.observe`): a disagreement as text, or ``None``."""

StartObserver = Callable[[Ledger, list[Event], DealState], str | None]
"""Checks a deal's start: (ledger before the antes, the start's events, its first state) →
a disagreement as text, or ``None``."""


_KEYED = tuple(f.name for f in fields(DealState) if f.name not in _SKIP | {"cards", "places"})
_keyed = itemgetter(*_KEYED)
"""The fields of :data:`_KEYED`, read from a state's instance dictionary (every field of a
``DealState`` is there; a lookup in it is cheaper than ``getattr``)."""


def state_key(state: DealState, deck: tuple[Card, ...] | None = None) -> Key:
    """What makes two states the same (see the module docstring): every field of the state
    but those of :data:`_SKIP` (``index``, ``since_ante``, ``plays``, ``moves``, the
    history), with each card's place reduced to its kind and seat (played cards by the same
    seat, in any order).

    ``deck``: the cards every state of the deal shares.  A state whose ``cards`` equal it
    has ``0`` in their stead (one comparison, usually by identity, instead of hashing every
    card each time the key is hashed); two keys are still equal exactly when the states'
    cards are.  The key is a flat tuple of hashable values.
    """
    return _key(state, deck, tuple([(p.kind, p.seat) for p in state.places]))


def _key(state: DealState, deck: tuple[Card, ...] | None, places: tuple[Any, ...]) -> Key:
    """:func:`state_key`, given the places reduced to (kind, seat)."""
    cards: Any = state.cards
    if deck is not None and (cards is deck or cards == deck):
        cards = 0
    return (cards, places, *_keyed(state.__dict__))


def default_start(ruleset: Ruleset, players: int) -> tuple[int, ...]:
    """Each seat's chips at the start of a checked deal (dealer seat 0): what it antes, plus
    one chip more than the widow's price (2 chips without a widow sale).

    Small balances keep auction bids (at most the bidder's balance, spec
    §5.4) to two amounts, let every seat afford the widow, and reach the
    "pays at most their balance" cap of spec §9.
    """
    paid = [0] * players
    for line in ruleset.antes:
        targets = 1 if line.chosen else len(ante_targets(ruleset, line.targets))
        for s in PAYERS[line.payer](0, (*range(1, players), 0)):  # dealer 0, clockwise
            paid[s] += line.amount * targets
    return tuple(p + _extra(ruleset) for p in paid)


def _extra(ruleset: Ruleset) -> int:
    """The chips a seat of :func:`default_start` has after its ante: one more than the widow's
    price (2 without a widow sale)."""
    sale = ruleset.widow_sale
    return max(sale.price, 1) + 1 if sale is not None else 2


FULL_START_MOST = 3
"""The most seats at which a ruleset with ``short stack: section by section`` and a betting
round is also searched from :func:`default_start` (every seat with its whole ante and more).
Measured on tripoley-as-sold (2x3, the default deck): 3 players from the default start,
215,025 states; 4 players, about 11,000 states a deal (each seat comes to the betting round
with 6 chips or more, bets of 1 to 5 and 3 raises), some 4 million for the 360 deals, past the
default bound of 2,000,000; from :func:`short_start`, about 700 a deal."""


def short_start(ruleset: Ruleset, players: int) -> tuple[int, ...]:
    """A start with short stacks (spec §4, ``short stack: section by section``): the dealer
    (seat 0) and the seat on its left start as in :func:`default_start`; every other seat
    starts with the chips :func:`default_start` leaves a seat after its ante (2 without a
    widow sale, one more than the widow's price with one), so it antes the board's first
    sections only, in board order, and takes no other section this deal.  With 2 players the
    seat on the dealer's left is the short one.

    The dealer and its left are the seats that move first in every stage before play (the
    dealer swaps or offers the widow, its left bids first, the dealer or its left opens the
    betting): from full balances they still reach every bid and bet size the rules allow, up
    to the raise cap, while the short seats, all in or nearly, keep the betting round small.
    Tripoley-as-sold at 4 players: (11, 11, 2, 2).
    """
    full = default_start(ruleset, players)
    rich = 2 if players > 2 else 1
    return tuple(c if s < rich else _extra(ruleset) for s, c in enumerate(full))


def starts(ruleset: Ruleset, players: int) -> tuple[tuple[int, ...], ...]:
    """The starts every deal is searched from (each seat's chips before the ante, dealer
    seat 0): :func:`default_start`; under ``short stack: section by section``, also
    :func:`short_start` (the short stacks are reached: from the default start
    no seat is ever short); and with a betting round as well, at more than
    :data:`FULL_START_MOST` players, :func:`short_start` alone (the report says so: each
    result lists the starts searched).

    Michigan at 3 players: ((8, 8, 8),); tripoley-as-sold at 3: ((11, 11, 11), (11, 11, 2)),
    at 4: ((11, 11, 2, 2),).
    """
    full = default_start(ruleset, players)
    if not SHORT_BY_SECTION[ruleset.short_stack]:
        return (full,)
    betting = any(isinstance(p, PokerPhase) and p.betting for p in ruleset.phases)
    short = short_start(ruleset, players)
    if betting and players > FULL_START_MOST:
        return (short,)
    return (full, short)


def deals(ruleset: Ruleset, players: int) -> Iterator[Deal]:
    """Every deal of the deck to ``players`` seats and the widow, dealer seat 0: the hands by
    seat, the widow, and (with trumps) the widow's turned-up card as a last part."""
    cards = ruleset.deck.cards()
    size = hand_sizes(ruleset, players, 0, len(cards))
    slots: list[int | None] = [*range(players), *([None] if None in size else [])]
    trumps = TURNED_UP[ruleset.deal.trumps]
    for parts in _split(cards, [size[s] for s in slots]):
        if trumps and parts[-1]:
            for turned in parts[-1]:
                yield (*parts, (turned,))
        else:
            yield parts


def deal_count(ruleset: Ruleset, players: int) -> int:
    """How many deals :func:`deals` yields (before suit symmetry): the ways to split the
    deck into the hands and the widow, times the widow's size when a widow card is turned
    up for trumps.  Michigan on 2x3 with 3 players: 6 cards in parts of 2, 2, 1 and 1,
    6!/(2!·2!·1!·1!) = 180."""
    n = len(ruleset.deck.cards())
    size = hand_sizes(ruleset, players, 0, n)
    slots: list[int | None] = [*range(players), *([None] if None in size else [])]
    sizes = [size[s] for s in slots]
    count = math.factorial(n)
    for k in sizes:
        count //= math.factorial(k)
    if TURNED_UP[ruleset.deal.trumps] and sizes and sizes[-1]:
        count *= sizes[-1]
    return count


def _split(cards: tuple[Card, ...], sizes: list[int]) -> Iterator[Deal]:
    if not sizes:
        yield ()
        return
    first, rest = sizes[0], sizes[1:]
    for hand in combinations(cards, first):
        left = tuple(c for c in cards if c not in hand)
        for tail in _split(left, rest):
            yield (hand, *tail)


@dataclass
class ExplicitResult:
    """What one exhaustive run saw: deal counts (``raw`` and one per orbit, out of
    ``deals_total`` before suit symmetry), distinct ``states``, ``transitions``, the longest
    deal (``depth`` moves), the time, and the shortest ``violations`` by property.

    ``starts``: the seats' chips before the ante of each start searched.
    ``complete`` is false when the search stopped at its bound (``max_states``) before
    every deal was explored: no property is then checked, whatever held in the states
    seen (a violation found is still real).  ``seconds`` is the wall time of the search,
    ``cpu_seconds`` the CPU time of the process that ran it; while the search runs, the
    times so far.
    """

    variant: str
    deck: str
    players: int
    symmetries: int
    deals_raw: int = 0
    deals_checked: int = 0
    states: int = 0
    transitions: int = 0
    depth: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    start_chips: tuple[int, ...] = ()
    violations: dict[str, Counterexample] = field(default_factory=dict)
    deals_total: int = 0
    max_states: int | None = None
    complete: bool = True
    starts: tuple[tuple[int, ...], ...] = ()
    """Every start each deal was searched from (each seat's chips before the ante, seat 0
    first; ``start_chips`` is the first)."""

    @property
    def rate(self) -> float:
        """States per wall second (what a user waits; it moves with the machine's load)."""
        return self.states / self.seconds if self.seconds else 0.0

    @property
    def cpu_rate(self) -> float:
        """States per CPU second of the process that searched (the work itself)."""
        return self.states / self.cpu_seconds if self.cpu_seconds else 0.0


@dataclass
class _Ctx:
    ruleset: Ruleset
    start_ruleset: Ruleset
    mutation: Mutation
    players: int
    deck: str
    start: tuple[int, ...]
    result: ExplicitResult
    cards: tuple[Card, ...] = ()
    tick: Callable[[ExplicitResult], None] | None = None
    """Called every :data:`TICK` states with the result so far (progress)."""
    observe: Observer | None = None
    """Called with every state that is not over and its successors (move, state, events);
    a text it returns is an ``engine = model`` violation in that state."""
    observe_start: StartObserver | None = None
    """Called with each deal's ledger before the antes, the events of its start and the
    state it starts in; a text it returns is an ``engine = model`` violation there."""
    started: float = 0.0
    """The reduced deck's cards (``ruleset.deck.cards()``, computed once)."""
    started_cpu: float = 0.0
    """The process's CPU time when the search began (``time.process_time``)."""
    placed: dict[int, tuple[tuple[Place, ...], tuple[Any, ...], tuple[Any, ...] | None]] = field(
        default_factory=dict)
    """Within one deal, by ``id`` of a ``places`` tuple met (kept, so the id stays its own):
    the tuple, its places reduced to (kind, seat), and the hand counts and player count it
    was found right with (``None``: not checked yet).  Moves that move no card keep the
    tuple, so a state reached by a bid or a pass reuses both."""
    chips_right: dict[int, Ledger] = field(default_factory=dict)
    """Within one deal, by ``id``, the ledgers whose chips were found right (kept, so the id
    stays their own).  Moves that move no chip keep the ledger."""


def check_deals(ruleset: Ruleset, players: int, deck: str,
                start: tuple[int, ...] | None = None,
                mutation: Mutation = NO_MUTATION, max_states: int | None = None,
                tick: Callable[[ExplicitResult], None] | None = None,
                observe: Observer | None = None,
                observe_start: StartObserver | None = None) -> ExplicitResult:
    """Explore every deal of ``ruleset`` (already reduced; ``deck`` names it, ``"2x3"``).

    ``start``: each seat's chips before the ante (default: every deal from each of
    :func:`starts`, one search each; ``states`` counts them all).
    ``max_states``: stop once this many states are explored (``None``: no bound); the
    result is then not ``complete``.  A deck with more deals (one per orbit of the suit
    symmetries) than ``max_states`` is not searched at all: every deal is one state at
    least, so the search could not end within the bound (``deals_raw`` is then 0).
    ``tick``: called with the result so far every :data:`TICK` states (``boodle verify``
    shows it as progress).  ``observe``: called with every state that is not over and its
    successors (the engine = model check, :mod:`boodle.verify.engine_model`); a text it
    returns is kept as the ``engine = model`` violation of that state.  ``observe_start``:
    called with each deal's ledger before the antes, its start's events and its first state
    (the payouts of the stages run before the first move, held to the split rules).

    Python's cyclic garbage collector is paused for the search and restored
    after it: the search and the engine make no reference cycles (none were
    ever collected in a run of every variant), so the collector would only
    walk the growing graph of states again and again (15% of the time).
    Memory is still freed by reference counting.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _check_deals(ruleset, players, deck, start, mutation, max_states, tick, observe,
                            observe_start)
    finally:
        if paused:
            gc.enable()


def _check_deals(ruleset: Ruleset, players: int, deck: str, start: tuple[int, ...] | None,
                 mutation: Mutation, max_states: int | None,
                 tick: Callable[[ExplicitResult], None] | None,
                 observe: Observer | None = None,
                 observe_start: StartObserver | None = None) -> ExplicitResult:
    t0, cpu0 = time.perf_counter(), time.process_time()
    group = suit_symmetries(ruleset)
    chosen = starts(ruleset, players) if start is None else (start,)
    chips = chosen[0]
    result = ExplicitResult(ruleset.name, deck, players, len(group), start_chips=chips,
                            deals_total=deal_count(ruleset, players), max_states=max_states,
                            starts=chosen)
    if (max_states is not None
            and -(-result.deals_total // len(group)) * len(chosen) > max_states):
        # each deal explored is one state at least from each start, and at least total /
        # symmetries deals are explored: the bound would stop the search before its end, so
        # it is not begun
        result.complete = False
        result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - cpu0
        return result
    cards = ruleset.deck.cards()
    ctx = _Ctx(ruleset, mutation.start_ruleset(ruleset), mutation, players, deck, chips, result,
               cards, tick, observe, observe_start, t0, cpu0)
    order = {c: k for k, c in enumerate(cards)}
    for deal in deals(ruleset, players):
        if max_states is not None and result.states >= max_states:
            result.complete = False  # a deal is left: the bound ends the search
            break
        result.deals_raw += 1
        if len(group) > 1 and canonical(deal, group, order) != _sorted(deal, order):
            continue
        result.deals_checked += 1
        for chips in chosen:
            ctx.start = chips
            _explore(ctx, deal)
            if not result.complete:
                break
        if not result.complete:
            break
    result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - cpu0
    return result


def _sorted(deal: Deal, order: dict[Card, int]) -> Deal:
    return tuple(tuple(sorted(part, key=order.__getitem__)) for part in deal)


@dataclass
class _Node:
    """A state of the deal being searched, by its number (order of discovery): the state it
    was first reached from, by which move, the events of that move, and its depth."""

    parent: int | None
    move: Move | None
    events: list[Event]
    depth: int


def _start(ctx: _Ctx, deal: Deal) -> tuple[DealState, list[Event]]:
    n = ctx.players
    hands = [list(h) for h in deal[:n]]
    widow = list(deal[n]) if len(deal) > n else []
    if len(deal) > n + 1:  # the turned-up card is dealt last to the widow (spec §5.2)
        turned = deal[n + 1][0]
        widow = [c for c in widow if c != turned] + [turned]
    names = tuple(s.name for s in ctx.ruleset.board)
    ledger = Ledger(tuple(ctx.start), tuple((name, 0) for name in names))
    return start_deal(ctx.start_ruleset, n, 0, ledger, hands=hands, widow=widow)


def _explore(ctx: _Ctx, deal: Deal) -> None:
    """Breadth-first search of one deal, checking every state and transition.

    States are numbered in order of discovery: ``ids`` maps a :func:`state_key` to its
    number (each successor's key is built and hashed once), ``nodes`` and ``edges`` are
    lists by number.
    """
    total = sum(ctx.start)
    try:
        state, events = _start(ctx, deal)
    except BoodleError as e:
        _violate(ctx, deal, "well-formedness", f"the deal cannot start: {e.message}", [], [], {})
        return
    deck = state.cards
    ctx.placed.clear()
    ctx.chips_right.clear()
    ids: dict[Key, int] = {_key(state, deck, _placed(ctx, state.places)[1]): 0}
    nodes: list[_Node] = [_Node(None, None, events, 0)]
    unplaced = _unplaced(ctx.ruleset, state)
    if unplaced:
        _report(ctx, deal, nodes, 0, "well-formedness", unplaced, state)
    edges: list[list[tuple[int, Move]]] = [[]]
    _check_state(ctx, deal, state, total, nodes, 0)
    if ctx.observe_start is not None:
        names = tuple(s.name for s in ctx.ruleset.board)
        why = ctx.observe_start(Ledger(tuple(ctx.start), tuple((x, 0) for x in names)),
                                events, state)
        if why is not None:
            _report(ctx, deal, nodes, 0, "engine = model", why, state)
    queue: deque[tuple[DealState, int]] = deque([(state, 0)])
    result = ctx.result
    bound = result.max_states
    while queue:
        if bound is not None and result.states >= bound:
            result.complete = False  # states of this deal are left unexplored
            break
        state, key = queue.popleft()
        result.states += 1
        if ctx.tick is not None and result.states % TICK == 0:
            result.seconds = time.perf_counter() - ctx.started
            result.cpu_seconds = time.process_time() - ctx.started_cpu
            ctx.tick(result)
        depth = nodes[key].depth
        if depth > result.depth:
            result.depth = depth
        if is_terminal(state):
            continue
        moves = _legal(ctx, deal, state, nodes, key)
        out = edges[key]
        seen: list[tuple[Move, DealState, list[Event]]] | None = \
            None if ctx.observe is None else []
        for move in moves:
            nxt = _step(ctx, deal, state, move, nodes, key)
            if nxt is None:
                continue
            new, more = nxt
            if seen is not None:
                seen.append((move, new, more))
            result.transitions += 1
            fresh = len(nodes)
            k = ids.setdefault(_key(new, deck, _placed(ctx, new.places)[1]), fresh)
            out.append((k, move))
            if k == fresh:
                nodes.append(_Node(key, move, more, depth + 1))
                edges.append([])
                _check_state(ctx, deal, new, total, nodes, k)
                queue.append((new, k))
        if seen is not None and ctx.observe is not None:
            why = ctx.observe(state, seen)
            if why is not None:
                _report(ctx, deal, nodes, key, "engine = model", why, state)
    _check_cycles(ctx, deal, nodes, edges)


def _legal(ctx: _Ctx, deal: Deal, state: DealState, nodes: list[_Node],
           key: int) -> tuple[Move, ...]:
    try:
        moves = tuple(each_move(legal_moves(ctx.ruleset, state)))  # balances are small here
    except BoodleError as e:
        _report(ctx, deal, nodes, key, "progress", f"no move can be made: {e.message}", state)
        return ()
    if not moves:
        _report(ctx, deal, nodes, key, "progress", "the deal is not over and no move is legal",
                state)
    return moves


def _step(ctx: _Ctx, deal: Deal, state: DealState, move: Move,
          nodes: list[_Node], key: int
          ) -> tuple[DealState, list[Event]] | None:
    try:
        new, events = apply(ctx.ruleset, state, move)
    except IllegalMove as e:
        _report(ctx, deal, nodes, key, "well-formedness",
                f"{move} is listed as legal but refused ({e.rule}): {e.message}", state)
        return None
    except LedgerError as e:
        _report(ctx, deal, nodes, key, "chip conservation", f"{move}: {e}", state)
        return None
    return ctx.mutation.after_apply(new, events), events


def _check_state(ctx: _Ctx, deal: Deal, state: DealState, total: Chips,
                 nodes: list[_Node], key: int) -> None:
    ledger = state.ledger
    if ctx.chips_right.get(id(ledger)) is not ledger and _chips_right(
            ctx, deal, ledger, total, nodes, key, state):
        ctx.chips_right[id(ledger)] = ledger  # this very ledger needs no second look
    places, reduced, right = _placed(ctx, state.places)
    if right is not None and right == (state.held, state.players) and state.cards is ctx.cards:
        return  # these very places were found right with these hand counts in this deal
    why = _cards_wrong(ctx.ruleset, state, ctx.cards)
    if why:
        _report(ctx, deal, nodes, key, "card conservation", why, state)
    elif state.cards is ctx.cards:
        ctx.placed[id(places)] = (places, reduced, (state.held, state.players))


def _chips_right(ctx: _Ctx, deal: Deal, ledger: Ledger, total: Chips, nodes: list[_Node],
                 key: int, state: DealState) -> bool:
    """Report what is wrong with the chips of ``ledger`` (in state ``key``); whether nothing
    is: seats and sections add up to ``total``, and no section is below zero."""
    right = True
    if ledger.total() != total:
        _report(ctx, deal, nodes, key, "chip conservation",
                f"seats and sections hold {ledger.total()} chips, not {total}", state)
        right = False
    low = [name for name, amount in ledger.sections if amount < 0]
    if low:
        _report(ctx, deal, nodes, key, "chip conservation",
                f"section {', '.join(low)} below zero", state)
        right = False
    return right


def _placed(ctx: _Ctx, places: tuple[Place, ...]
            ) -> tuple[tuple[Place, ...], tuple[Any, ...], tuple[Any, ...] | None]:
    """``ctx.placed``'s entry for ``places`` (made on first sight)."""
    hit = ctx.placed.get(id(places))
    if hit is None or hit[0] is not places:
        hit = ctx.placed[id(places)] = (places, tuple([(p.kind, p.seat) for p in places]),
                                        None)
    return hit


def _unplaced(ruleset: Ruleset, state: DealState) -> str | None:
    """Spec §3: a card a section names must be dealt; one that is nowhere can never pay."""
    missing = [f"{s.name} is paid by {c}" for s in ruleset.board for c in s.cards
               if state.place(c) is None]
    if not missing:
        return None
    return "; ".join(missing) + ", which is nowhere in the deal (not a card of the deck)"


def _cards_wrong(ruleset: Ruleset, state: DealState,
                 deck: tuple[Card, ...] | None = None) -> str | None:
    """Why the cards are not each in exactly one place, or ``None``.

    ``places`` is aligned with ``cards``, so each card of the state has one
    place by construction; what can go wrong is the deck (a card missing or
    doubled), a place that is no place (a seat that does not exist), or the
    engine's hand counts disagreeing with the places.  ``deck``: the
    ruleset's ``deck.cards()`` if already computed.
    """
    if deck is None:
        deck = ruleset.deck.cards()
    if state.cards != deck or len(state.places) != len(state.cards):
        return "the state's cards are not the deck's, once each"
    held = [0] * state.players
    for place in state.places:
        if place.kind in ("hand", "played") and not (place.seat is not None
                                                     and 0 <= place.seat < state.players):
            return f"a card is in the {place.kind} of seat {place.seat}, which does not exist"
        if place.kind == "hand" and place.seat is not None:
            held[place.seat] += 1
    if state.held and state.held != tuple(held):
        return f"hand counts {state.held} but the hands hold {tuple(held)} cards"
    return None


def _path(nodes: list[_Node], key: int
          ) -> tuple[list[Move], list[Event]]:
    chain = []
    k: int | None = key
    while k is not None:
        chain.append(nodes[k])
        k = nodes[k].parent
    chain.reverse()
    moves = [n.move for n in chain if n.move is not None]
    events = [e for n in chain for e in n.events]
    return moves, events


def _report(ctx: _Ctx, deal: Deal, nodes: list[_Node], key: int,
            prop: str, why: str, state: DealState) -> None:
    best = ctx.result.violations.get(prop)
    if best is not None and best.length <= nodes[key].depth:
        return
    moves, events = _path(nodes, key)
    _violate(ctx, deal, prop, why, moves, events, _describe(state))


def _violate(ctx: _Ctx, deal: Deal, prop: str, why: str, moves: list[Move],
             events: list[Event], state: dict[str, Any], loop: list[str] | None = None) -> None:
    n = ctx.players
    shown = {f"seat {s}": [str(c) for c in deal[s]] for s in range(n)}
    if len(deal) > n:
        shown["widow"] = [str(c) for c in deal[n]]
    shown["chips before the ante"] = [str(c) for c in ctx.start]
    cex = Counterexample(prop, why, ctx.deck, n, shown, [str(m) for m in moves], events, state,
                         loop or [])
    best = ctx.result.violations.get(prop)
    if best is None or cex.length < best.length:
        ctx.result.violations[prop] = cex


def _describe(state: DealState) -> dict[str, Any]:
    return {
        "hands": {f"seat {s}": [str(c) for c in h] for s, h in enumerate(state.hands)},
        "widow": [str(c) for c in state.widow()],
        "played": [f"{s}:{c}" for s, c in state.played()],
        "stage": state.stage,
        "step": state.step,
        "to_move": state.to_move,
        "ledger": state.ledger.to_json(),
    }


def _check_cycles(ctx: _Ctx, deal: Deal, nodes: list[_Node],
                  edges: list[list[tuple[int, Move]]]) -> None:
    """Kahn's algorithm removes every state no cycle leads to; if some remain, walk back
    along their edges (each has a remaining predecessor) until a state repeats: a cycle.

    States are numbers (``nodes[k]``, ``edges[k]``: the moves out of state ``k``); the
    predecessor lists are built only when a cycle is there to be shown.
    """
    indegree = [0] * len(nodes)
    for targets in edges:
        for t, _ in targets:
            indegree[t] += 1
    queue = deque(k for k, d in enumerate(indegree) if d == 0)
    while queue:
        for t, _ in edges[queue.popleft()]:
            indegree[t] -= 1
            if indegree[t] == 0:
                queue.append(t)
    remaining = [k for k, d in enumerate(indegree) if d > 0]
    if not remaining:
        return
    stuck = set(remaining)
    preds: dict[int, list[tuple[int, Move]]] = {}
    for src, targets in enumerate(edges):
        for t, move in targets:
            preds.setdefault(t, []).append((src, move))
    walk: list[tuple[int, Move | None]] = [(min(remaining, key=lambda k: nodes[k].depth), None)]
    seen: dict[int, int] = {}
    while walk[-1][0] not in seen:
        k = walk[-1][0]
        seen[k] = len(walk) - 1
        src, move = next((p, m) for p, m in preds[k] if p in stuck)
        walk[-1] = (k, move)
        walk.append((src, None))
    cycle = walk[seen[walk[-1][0]]:-1]  # k_j <- k_j+1 <- ... : reversed, it is played forward
    cycle.reverse()
    entry = min((k for k, _ in cycle), key=lambda k: nodes[k].depth)
    at = next(i for i, (k, _) in enumerate(cycle) if k == entry)
    ordered = cycle[at:] + cycle[:at]
    loop = [str(m) for _, m in ordered[1:] + ordered[:1] if m is not None]
    moves, events = _path(nodes, entry)
    why = f"the deal can go round for ever: {len(loop)} moves lead back to the same state"
    _violate(ctx, deal, "termination", why, moves, events, {}, loop)


def render(result: ExplicitResult) -> str:
    """A one-line summary and, for each violation, its play-by-play."""
    head = (f"{result.variant} {result.players}p deck {result.deck}: {result.states} states, "
            f"{result.deals_checked}/{result.deals_raw} deals, depth {result.depth}")
    return "\n".join([head, *(render_text(c.events) for c in result.violations.values())])
