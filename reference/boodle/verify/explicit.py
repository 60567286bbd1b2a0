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
its largest ante + 3, which bounds auction bids) and every section empty.
The dealer is seat 0: every rule is relative to the dealer (spec §4-§6),
and the z3 proofs cover every dealer.  The shortest violation of each
property is kept, as a :class:`~boodle.verify.cex.Counterexample`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any

from ..antes import ante_targets
from ..cards import Card
from ..dealing import deal_order
from ..engine import apply, is_terminal, legal_moves, start_deal
from ..errors import BoodleError
from ..events import Event
from ..faults import IllegalMove
from ..ledger import Ledger, LedgerError
from ..model import Chips, Ruleset
from ..state import DealState, Move
from ..trace import render_text
from .cex import Counterexample
from .mutation import NO_MUTATION, Mutation
from .symmetry import Deal, canonical, suit_symmetries

__all__ = ["ExplicitResult", "check_deals", "default_start", "deals", "state_key"]

_SKIP = {"index", "since_ante", "plays", "moves"}

Key = tuple[Any, ...]
"""A state's identity (:func:`state_key`)."""


def state_key(state: DealState) -> Key:
    """What makes two states the same (see the module docstring)."""
    out: list[Any] = []
    for f in fields(state):
        if f.name in _SKIP:
            continue
        value = getattr(state, f.name)
        if f.name == "places":
            value = tuple((p.kind, p.seat) for p in value)
        out.append(value)
    return tuple(out)


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
        payers = {"each player": range(players), "dealer": [0], "widow": [0],
                  "each other player": range(1, players)}
        for s in payers[line.payer]:
            paid[s] += line.amount * targets
    sale = ruleset.widow_sale
    extra = max(sale.price, 1) + 1 if sale is not None else 2
    return tuple(p + extra for p in paid)


def deals(ruleset: Ruleset, players: int) -> Iterator[Deal]:
    """Every deal of the deck to ``players`` seats and the widow, dealer seat 0: the hands by
    seat, the widow, and (with trumps) the widow's turned-up card as a last part."""
    order = deal_order(ruleset, players, 0)
    cards = ruleset.deck.cards()
    q, r = divmod(len(cards), len(order))
    size = {who: q + (1 if k < r else 0) for k, who in enumerate(order)}
    slots: list[int | None] = [*range(players), *([None] if None in size else [])]
    trumps = ruleset.deal.trumps != "none"
    for parts in _split(cards, [size[s] for s in slots]):
        if trumps and parts[-1]:
            for turned in parts[-1]:
                yield (*parts, (turned,))
        else:
            yield parts


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
    """What one exhaustive run saw: deal counts (``raw`` and one per orbit), distinct
    ``states``, ``transitions``, the longest deal (``depth`` moves), the time, and the
    shortest ``violations`` by property."""

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
    start_chips: tuple[int, ...] = ()
    violations: dict[str, Counterexample] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """States per second."""
        return self.states / self.seconds if self.seconds else 0.0


@dataclass
class _Ctx:
    ruleset: Ruleset
    start_ruleset: Ruleset
    mutation: Mutation
    players: int
    deck: str
    start: tuple[int, ...]
    result: ExplicitResult


def check_deals(ruleset: Ruleset, players: int, deck: str,
                start: tuple[int, ...] | None = None,
                mutation: Mutation = NO_MUTATION) -> ExplicitResult:
    """Explore every deal of ``ruleset`` (already reduced; ``deck`` names it, ``"2x3"``).

    ``start``: each seat's chips before the ante (default :func:`default_start`).
    """
    t0 = time.perf_counter()
    group = suit_symmetries(ruleset)
    chips = default_start(ruleset, players) if start is None else start
    result = ExplicitResult(ruleset.name, deck, players, len(group), start_chips=chips)
    ctx = _Ctx(ruleset, mutation.start_ruleset(ruleset), mutation, players, deck, chips, result)
    order = {c: k for k, c in enumerate(ruleset.deck.cards())}
    for deal in deals(ruleset, players):
        result.deals_raw += 1
        if len(group) > 1 and canonical(deal, group, order) != _sorted(deal, order):
            continue
        result.deals_checked += 1
        _explore(ctx, deal)
    result.seconds = time.perf_counter() - t0
    return result


def _sorted(deal: Deal, order: dict[Card, int]) -> Deal:
    return tuple(tuple(sorted(part, key=order.__getitem__)) for part in deal)


@dataclass
class _Node:
    parent: Key | None
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
    """Breadth-first search of one deal, checking every state and transition."""
    total = sum(ctx.start)
    try:
        state, events = _start(ctx, deal)
    except BoodleError as e:
        _violate(ctx, deal, "well-formedness", f"the deal cannot start: {e.message}", [], [], {})
        return
    root = state_key(state)
    nodes: dict[Key, _Node] = {root: _Node(None, None, events, 0)}
    unplaced = _unplaced(ctx.ruleset, state)
    if unplaced:
        _report(ctx, deal, nodes, root, "well-formedness", unplaced, state)
    edges: dict[Key, list[tuple[Key, Move]]] = {}
    _check_state(ctx, deal, state, total, nodes, root)
    queue: deque[tuple[DealState, Key]] = deque([(state, root)])
    while queue:
        state, key = queue.popleft()
        ctx.result.states += 1
        depth = nodes[key].depth
        ctx.result.depth = max(ctx.result.depth, depth)
        if is_terminal(state):
            continue
        moves = _legal(ctx, deal, state, nodes, key)
        out = edges.setdefault(key, [])
        for move in moves:
            nxt = _step(ctx, deal, state, move, nodes, key)
            if nxt is None:
                continue
            new, more = nxt
            ctx.result.transitions += 1
            k = state_key(new)
            out.append((k, move))
            if k not in nodes:
                nodes[k] = _Node(key, move, more, depth + 1)
                _check_state(ctx, deal, new, total, nodes, k)
                queue.append((new, k))
    _check_cycles(ctx, deal, nodes, edges)


def _legal(ctx: _Ctx, deal: Deal, state: DealState, nodes: dict[Key, _Node],
           key: Key) -> tuple[Move, ...]:
    try:
        moves = legal_moves(ctx.ruleset, state)
    except BoodleError as e:
        _report(ctx, deal, nodes, key, "progress", f"no move can be made: {e.message}", state)
        return ()
    if not moves:
        _report(ctx, deal, nodes, key, "progress", "the deal is not over and no move is legal",
                state)
    return moves


def _step(ctx: _Ctx, deal: Deal, state: DealState, move: Move,
          nodes: dict[Key, _Node], key: Key
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
                 nodes: dict[Key, _Node], key: Key) -> None:
    ledger = state.ledger
    if ledger.total() != total:
        _report(ctx, deal, nodes, key, "chip conservation",
                f"seats and sections hold {ledger.total()} chips, not {total}", state)
    low = [name for name, amount in ledger.sections if amount < 0]
    if low:
        _report(ctx, deal, nodes, key, "chip conservation",
                f"section {', '.join(low)} below zero", state)
    why = _cards_wrong(ctx.ruleset, state)
    if why:
        _report(ctx, deal, nodes, key, "card conservation", why, state)


def _unplaced(ruleset: Ruleset, state: DealState) -> str | None:
    """Spec §3: a card a section names must be dealt; one that is nowhere can never pay."""
    missing = [f"{s.name} is paid by {c}" for s in ruleset.board for c in s.cards
               if state.place(c) is None]
    if not missing:
        return None
    return "; ".join(missing) + ", which is nowhere in the deal (not a card of the deck)"


def _cards_wrong(ruleset: Ruleset, state: DealState) -> str | None:
    """Why the cards are not each in exactly one place, or ``None``.

    ``places`` is aligned with ``cards``, so each card of the state has one
    place by construction; what can go wrong is the deck (a card missing or
    doubled), a place that is no place (a seat that does not exist), or the
    engine's hand counts disagreeing with the places.
    """
    if state.cards != ruleset.deck.cards() or len(state.places) != len(state.cards):
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


def _path(nodes: dict[Key, _Node], key: Key
          ) -> tuple[list[Move], list[Event]]:
    chain = []
    k: Key | None = key
    while k is not None:
        chain.append(nodes[k])
        k = nodes[k].parent
    chain.reverse()
    moves = [n.move for n in chain if n.move is not None]
    events = [e for n in chain for e in n.events]
    return moves, events


def _report(ctx: _Ctx, deal: Deal, nodes: dict[Key, _Node], key: Key,
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


def _check_cycles(ctx: _Ctx, deal: Deal, nodes: dict[Key, _Node],
                  edges: dict[Key, list[tuple[Key, Move]]]) -> None:
    """Kahn's algorithm removes every state no cycle leads to; if some remain, walk back
    along their edges (each has a remaining predecessor) until a state repeats: a cycle."""
    indegree = {k: 0 for k in nodes}
    preds: dict[Key, list[tuple[Key, Move]]] = {}
    for src, targets in edges.items():
        for t, move in targets:
            indegree[t] += 1
            preds.setdefault(t, []).append((src, move))
    queue = deque(k for k, d in indegree.items() if d == 0)
    while queue:
        k = queue.popleft()
        for t, _ in edges.get(k, []):
            indegree[t] -= 1
            if indegree[t] == 0:
                queue.append(t)
    stuck = {k for k, d in indegree.items() if d > 0}
    if not stuck:
        return
    walk: list[tuple[Key, Move | None]] = [(min(stuck, key=lambda k: nodes[k].depth), None)]
    seen: dict[Key, int] = {}
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
