"""Built-in players over the compiled state, and their twins for the reference engine.

A player is asked at a lead with a choice (:data:`~.deal.Chooser`) and at each of its
actions in a poker phase's betting round (:data:`~.poker.Bettor`, :func:`make_bettor`).
Three are built in (:data:`PLAYERS`):

- ``random``: a uniformly random allowed card, from the seat's own generator;
- ``greedy``: the same choices as :func:`boodle.engine.strategies.greedy` (go out,
  else claim a non-empty section, else lead from the longest suit held);
- ``tips``: the strategy tips of the seeds ("Conseils et stratégies" of
  000_1cd38874b08dd73a.txt, likewise 002/003): go out first when a lead lets
  the seat play out its hand; take boodle sections its own cards reach; hold
  a boodle card's suit back until the run can reach it; lead short suits
  first; count the widow's likely cards, preferring a run that ends on a sure
  stop (the next card played, or shown by an earlier stop to be in the
  widow) so the lead comes back.  It uses only what the seat may know: its
  hand, the played cards and the stops seen.

In a betting round (spec §8.3) they bet as :mod:`boodle.engine.strategies` does, draw for
draw: ``random`` picks uniformly among the legal entries (the pass, the bids), then among the
bids' amounts (:func:`random_bettor`); ``greedy`` by the category of its best poker hand
(:func:`greedy_bettor`); ``tips`` bets as ``greedy`` (the seeds' tips say nothing of
betting).

:func:`reference_strategy` gives the same players as
:data:`boodle.engine.strategies.Strategy` callables for the reference engine (used
when the compiled engine does not run a ruleset); they choose exactly as
their compiled twins do, which the agreement test checks.
"""

from __future__ import annotations

import random

from boodle.compiled.deal import Chooser, DealView
from boodle.compiled.poker import PASS, BetAsk, Bettor, hand_strength
from boodle.compiled.tables import BACK_TO_STOPPER, WIDOW, CompiledRules
from boodle.compiled.widow import SaleAsk, Seller
from boodle.engine.poker_hands import CATEGORIES
from boodle.engine.state import DealState, LeadMove, Legal, Move, PlayMove, move_count, nth_move
from boodle.engine.strategies import Strategy, greedy, random_legal
from boodle.language.model import Chips, Ruleset

PLAYERS = ("random", "greedy", "tips")
"""The built-in players' names."""


def random_chooser(rng: random.Random) -> Chooser:
    """A player picking uniformly among the allowed leads with ``rng``."""
    draw = rng.random

    def choose(view: DealView, seat: int, options: list[int]) -> int:
        return options[int(draw() * len(options))]

    return choose


def greedy_chooser(view: DealView, seat: int, options: list[int]) -> int:
    """Go out, else claim a non-empty section, else lead from the longest suit held."""
    t, own, sections = view.rules, view.own, view.sections
    mine = -2 - seat
    for c in options:
        if view.held[seat] == 1:
            return c
        for k, needs in view.claims.claims[c]:
            if sections[k] > 0 and all(own[x] == mine for x in needs):
                return c
    hand, masks, suit_of = view.hands[seat], t.suit_masks, t.suit_of
    return max(options, key=lambda c: (hand & masks[suit_of[c]]).bit_count())


def tips_chooser(view: DealView, seat: int, options: list[int]) -> int:
    """The seeds' tips (000 "Conseils et stratégies"), scored per allowed lead.

    Score = chips of the sections the seat's own run takes, less the chips on
    boodle sections whose card it holds above that run in the suit (hold the
    suit back), plus 2 × the chance that the run ends on a stop when the
    restart goes to the last player (the widow's share of the unseen cards),
    plus half the cards the run sheds, less a quarter of the suit's length
    (short suits first).  A lead that plays out the whole hand wins at once.
    Ties: the lowest card index.
    """
    t = view.rules
    hand, own, sections, bit, nxt = view.hands[seat], view.own, view.sections, t.bit, t.nxt
    boodle_of = view.claims.boodle_of
    played = 0
    for c, w in enumerate(own):
        if w < WIDOW:
            played |= bit[c]
    dead = played | view.revealed
    unseen = (t.all_mask & ~hand & ~dead).bit_count()
    hidden = view.widow_size - view.revealed.bit_count()
    p_widow = hidden / unseen if unseen else 0.0
    comes_back = BACK_TO_STOPPER[t.restart.who]
    best, best_score = options[0], float("-inf")
    for c in options:
        x, chain = c, bit[c]
        gain = sum(sections[k] for k in boodle_of[c])
        while (nx := nxt[x]) >= 0 and hand >> nx & 1:
            x, chain = nx, chain | bit[nx]
            gain += sum(sections[k] for k in boodle_of[nx])
        length = chain.bit_count()
        if length == view.held[seat]:
            return c
        suit = hand & t.suit_masks[t.suit_of[c]]
        waiting: Chips = 0
        rest = suit & ~chain & view.claims.boodle_mask
        while rest:
            low = rest & -rest
            waiting += sum(sections[k] for k in boodle_of[low.bit_length() - 1])
            rest ^= low
        p_stop = 1.0 if nx < 0 or dead >> nx & 1 else p_widow
        score = (gain - waiting + (2.0 * p_stop if comes_back else 0.0)
                 + 0.5 * length - 0.25 * suit.bit_count())
        if score > best_score:
            best, best_score = c, score
    return best


def make_chooser(name: str, rng: random.Random) -> Chooser:
    """The compiled player ``name`` (:data:`PLAYERS`) for a seat with ``rng``.

    Raises ``KeyError`` for an unknown name.
    """
    if name == "random":
        return random_chooser(rng)
    return {"greedy": greedy_chooser, "tips": tips_chooser}[name]


# ---------------------------------------------------------------- betting


def random_bettor(rng: random.Random) -> Bettor:
    """Bet as :func:`boodle.engine.strategies.random_legal` does in a betting round (spec
    §8.3), draw for draw with ``rng``: one ``randrange`` over the legal entries (the pass, and
    the bids when there are any), then one over the bids' amounts when a bid is drawn."""
    randrange = rng.randrange

    def bet(ask: BetAsk) -> int:
        if randrange(1 if ask.low < 0 else 2) == 0:
            return PASS
        return ask.amount(randrange(ask.size))

    return bet


_TWO_PAIR = CATEGORIES.index("two pair")
_ONE_PAIR = CATEGORIES.index("one pair")


def greedy_bettor(ask: BetAsk) -> int:
    """Bet as :func:`boodle.engine.strategies.greedy` does (spec §8.3), by the category of the
    best poker hand of ``ask.hand``: two pair or better puts in the most the bids allow; one
    pair calls (the lowest bid) when chips are owed, else checks; anything less checks or
    folds (the pass).  Draws nothing."""
    if ask.low < 0:
        return PASS
    strength = hand_strength(ask.rules, ask.hand, ask.phase.best_of, ask.phase.ace_low)[0]
    if strength >= _TWO_PAIR:
        return ask.amount(ask.size - 1)
    if strength == _ONE_PAIR and ask.owed > 0:
        return ask.low
    return PASS


def make_bettor(name: str, rng: random.Random) -> Bettor:
    """The compiled player ``name``'s bets (:data:`PLAYERS`) for a seat with ``rng`` (the
    same generator as its :func:`make_chooser`); raises ``KeyError`` for an unknown name."""
    if name == "random":
        return random_bettor(rng)
    return {"greedy": greedy_bettor, "tips": greedy_bettor}[name]


# ---------------------------------------------------------------- reference twins


def reference_strategy(name: str, rng: random.Random, tables: CompiledRules) -> Strategy:
    """The player ``name`` for the reference engine, choosing as its compiled twin does.

    It is consulted only when there is a choice (a lead with several allowed
    cards), like the compiled players, and at every action of a betting round (spec §8.3),
    where it is the reference strategy itself (``random``: :func:`random_legal` with
    ``rng``; ``greedy`` and ``tips``: :func:`greedy`), as the compiled bettors are;
    ``tables`` are the ruleset's compiled card tables (:func:`~.tables.compile_ruleset`
    with ``strict=False``).  Raises ``KeyError`` for an unknown name.
    """
    if name not in PLAYERS:
        raise KeyError(name)
    draw = rng.random
    bet = random_legal(rng) if name == "random" else greedy

    def choose(ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
        if state.bets is not None:  # a betting round: every action asks (spec §8.3)
            return bet(ruleset, state, legal)
        total = move_count(legal)  # a bid range counts its bids (uniform over amounts)
        if total == 1:
            return nth_move(legal, 0)
        if name == "random":
            return nth_move(legal, int(draw() * total))
        if name == "greedy":
            return greedy(ruleset, state, legal)
        seat = legal[0].seat
        plays = [m for m in legal if isinstance(m, LeadMove | PlayMove)]
        if not plays:  # a widow-sale choice: the tips do not cover it; the first move passes
            return nth_move(legal, 0)
        cards = [tables.index[m.card] for m in plays]
        pick = tips_chooser(view_of(tables, state), seat, cards)
        return plays[cards.index(pick)]

    return choose


def view_of(t: CompiledRules, state: DealState) -> DealView:
    """A compiled :class:`DealView` of a reference :class:`DealState` (for the twins)."""
    own = [WIDOW] * t.n_cards
    hands = [0] * state.players
    for card, place in zip(state.cards, state.places, strict=True):
        i = t.index[card]
        if place.kind == "hand" and place.seat is not None:
            own[i] = place.seat
            hands[place.seat] |= t.bit[i]
        elif place.kind == "played" and place.seat is not None:
            own[i] = -2 - place.seat
    sections = [state.ledger.section(name) for name in t.section_names]
    trump = getattr(state, "trump", None)
    claims = t.claim_tables[t.ruleset.deck.suits.index(trump) if t.trumps and trump else 0]
    view = DealView(t, claims, state.players, state.dealer, own, hands, list(state.held),
                    list(state.ledger.seats), sections,
                    len(state.widow()))
    view.revealed = _revealed(t, state)
    view.restart = state.restart
    view.stopped = -1 if state.stopped is None else t.ruleset.deck.suits.index(state.stopped)
    return view


def _revealed(t: CompiledRules, state: DealState) -> int:
    """Widow cards shown by stops: the next card of each stop card, found in the widow.

    In the played order a stop follows card ``a`` exactly when the card after
    ``a`` is not ``a``'s next card (a follow is always the next card), or when
    ``a`` is the last card played and a restart is due.
    """
    order = [t.index[c] for _, c in state.played()]
    stops = [a for a, b in zip(order, order[1:], strict=False) if t.nxt[a] != b]
    if order and state.restart and state.step == "lead":
        stops.append(order[-1])
    shown = 0
    for a in stops:
        nx = t.nxt[a]
        if nx >= 0 and _in_widow(state, t, nx):
            shown |= t.bit[nx]
    return shown


def _in_widow(state: DealState, t: CompiledRules, c: int) -> bool:
    place = state.place(t.cards[c])
    return place is not None and place.kind == "widow"


# ---------------------------------------------------------------- the widow sale


def random_seller(rng: random.Random) -> Seller:
    """Choose in the widow sale (spec §5.4) as the random reference twin does, draw for draw
    with ``rng``: one ``rng.random()`` scaled over the concrete moves (asked only with two or
    more)."""
    draw = rng.random
    return lambda ask: int(draw() * ask.size)


def greedy_seller(ask: SaleAsk) -> int:
    """Choose as :func:`boodle.engine.strategies.greedy` does in the widow sale (spec §5.4):
    offer the widow; take it (buy, swap, the lowest bid) when it is the shorter hand; as the
    highest bidder let the bid stand (the pass) by the same test, else withdraw."""
    if ask.take == "offer":
        return 1
    shorter = ask.widow.bit_count() < ask.hand.bit_count()
    if ask.take == "withdraw":
        return 0 if shorter else 1
    return 1 if ask.take and shorter else 0


def make_seller(name: str, rng: random.Random) -> Seller:
    """The compiled player ``name``'s widow-sale choices (:data:`PLAYERS`) for a seat with
    ``rng`` (the same generator as its :func:`make_chooser`; ``tips`` passes, as its
    reference twin takes the first move); raises ``KeyError`` for an unknown name."""
    if name == "random":
        return random_seller(rng)
    return {"greedy": greedy_seller, "tips": lambda ask: 0}[name]
