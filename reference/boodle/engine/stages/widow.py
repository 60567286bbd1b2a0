"""The widow sale or auction (spec §5.4): a stage of choice moves before play.

- ``sale``: offered once round the table, from the dealer's left to the
  dealer's right; the first to buy (:class:`~boodle.engine.state.BuyMove`) pays the
  price and exchanges (000/002/003 step 6).
- ``auction``: bidders in turn clockwise from the dealer's left, again and
  again, bid (:class:`~boodle.engine.state.BidMove`) or pass; a pass leaves the
  auction; the turn skips the highest bidder; it ends when every bidder has
  passed or all but the highest bidder have (004 "Variantes";
  rodsgamesite.blogspot.com/p/rummoli-rules.html).
- ``high bidder: may withdraw``: once all but the highest bidder have passed, the highest
  bidder has one more move (step ``high bidder``): a pass lets the bid stand (they pay and
  exchange), a :class:`~boodle.engine.state.WithdrawMove` voids it and nobody takes the
  widow from the auction (:data:`CLOSES`; Alysoun/tripoley's "passes and withdraws").
- ``dealer: may swap`` / ``may look and swap``: if nobody bought, the
  dealer may exchange (:class:`~boodle.engine.state.SwapMove`); with ``first`` the
  dealer's chance comes before the offer and a swap ends the sale
  (rodsgamesite).  A :class:`~boodle.engine.state.PassMove` declines.
- ``dealer: may withhold``: before anything else the dealer decides whether the
  widow is offered in this deal (000 step 6: "le donneur peut proposer la
  veuve"): an :class:`~boodle.engine.state.OfferMove` opens the sale as above,
  a :class:`~boodle.engine.state.PassMove` withholds it (it stays a blocker).

An exchange moves the widow's cards to the buyer's hand and the buyer's
former hand to the widow or out of play, one card at a time
(:meth:`~boodle.engine.state.DealState.move`); the price travels in the
:class:`~boodle.engine.events.WidowExchange` event.  Illegal moves carry the rule
ids ``move.kind`` (a withdrawal included, at any time but the highest bidder's last
move), ``widow.barred``, ``widow.funds``, ``widow.bid-low`` (spec §12).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from boodle.engine.events import (
    Event,
    How,
    WidowBid,
    WidowExchange,
    WidowOffered,
    WidowPass,
    WidowShown,
    WidowUnsold,
    WidowWithdrawn,
)
from boodle.engine.faults import IllegalMove
from boodle.engine.holders import SECTION_KINDS, paying_cards
from boodle.engine.ledger import Account, seat, section
from boodle.engine.stage import Result, Stage
from boodle.engine.state import (
    OUT,
    WIDOW,
    BidMove,
    BidRange,
    BuyMove,
    DealState,
    Legal,
    Move,
    OfferMove,
    PassMove,
    Place,
    SaleState,
    SwapMove,
    WithdrawMove,
    in_hand,
)
from boodle.language.model import Discard, HighBid, Ruleset, SaleMode, WidowSale, derived

__all__ = ["CLOSES", "DISCARDS", "MODES", "STAGE", "ModeRow", "apply", "barred", "enter",
           "legal_moves"]


DISCARDS: dict[Discard, Place] = {
    "becomes widow": WIDOW,
    "out of play": OUT,
}
"""Where a widow taker's former hand goes (spec §5.4), one row per member of
:data:`Discard`."""


def _rules(ruleset: Ruleset) -> WidowSale:
    assert ruleset.widow_sale is not None
    return ruleset.widow_sale


def _sale(state: DealState) -> SaleState:
    assert state.sale is not None
    return state.sale


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Start the sale: under ``dealer: may withhold`` the dealer's choice to offer it; else
    :func:`_open`."""
    if _rules(ruleset).dealer_may_withhold:
        return state.evolve(sale=SaleState("dealer offers"), to_move=state.dealer), []
    return _open(ruleset, state, [])


def _open(ruleset: Ruleset, state: DealState, events: list[Event]) -> Result:
    """The widow is offered: show a ``seen`` widow to all, then the dealer's first chance or
    the offer (spec §5.4)."""
    rules = _rules(ruleset)
    if rules.seen:
        events.append(WidowShown(tuple(sorted(state.clockwise(state.dealer))), state.widow()))
    if rules.dealer_swap and rules.dealer_first:
        return _dealer_chance(rules, state, "dealer first", events)
    return _next(ruleset, state, state.dealer, events, SaleState("offer"))


def _buyers(rules: WidowSale, state: DealState) -> tuple[int, ...]:
    """Who may be offered the widow, clockwise from the dealer's left (spec §5.4).

    A sale goes from the dealer's left to the dealer's right; an auction
    includes the dealer unless a ``dealer:`` line gives the dealer a chance
    of their own.
    """
    everyone = state.clockwise(state.dealer)  # players still in (spec §10)
    if not MODES[rules.mode].dealer_bids or rules.dealer_swap:
        return everyone[:-1]
    return everyone


def _next(ruleset: Ruleset, state: DealState, after: int, events: list[Event],
          sale: SaleState | None = None) -> Result:
    """The next buyer or bidder after seat ``after``, or the end of the offer.

    ``sale``: the sale's progress after the move just made (default: the
    state's); it is stored with the seat to move (an end of the offer
    replaces it).
    """
    rules = _rules(ruleset)
    sale = _sale(state) if sale is None else sale
    return MODES[rules.mode].next(ruleset, state, after, events, sale, _buyers(rules, state))


def _next_buyer(ruleset: Ruleset, state: DealState, after: int, events: list[Event],
                sale: SaleState, buyers: tuple[int, ...]) -> Result:
    """A sale: the next seat not yet asked, once round; then the offer is over."""
    if sale.asked < len(buyers):
        return state.evolve(sale=sale, to_move=buyers[sale.asked]), events
    return _offer_over(_rules(ruleset), state, events)


def _next_bidder(ruleset: Ruleset, state: DealState, after: int, events: list[Event],
                 sale: SaleState, buyers: tuple[int, ...]) -> Result:
    """An auction: the next bidder still in after ``after``, skipping the highest; the close
    once the highest bidder is alone, the end of the offer once every bidder has passed."""
    rules = _rules(ruleset)
    active = [b for b in buyers if b not in sale.out]
    if sale.bidder is not None and active == [sale.bidder]:
        return CLOSES[rules.high_bid](ruleset, state, sale, events)
    if not active:
        return _offer_over(rules, state, events)
    n = state.players
    for i in range(1, n + 1):
        candidate = (after + i) % n
        if candidate in active and candidate != sale.bidder:
            return state.evolve(sale=sale, to_move=candidate), events
    raise AssertionError("an open auction always has a bidder to ask")  # pragma: no cover


def _knock_down(ruleset: Ruleset, state: DealState, sale: SaleState,
                events: list[Event]) -> Result:
    """``high bidder`` binds: the highest bidder pays the bid and exchanges at once."""
    assert sale.bidder is not None
    return _exchange(ruleset, state, sale.bidder, "bid", sale.bid, events)


def _last_word(ruleset: Ruleset, state: DealState, sale: SaleState,
               events: list[Event]) -> Result:
    """``high bidder: may withdraw``: the highest bidder moves once more, to let the bid
    stand (a pass) or withdraw it (spec §5.4)."""
    last = SaleState("high bidder", sale.asked, sale.out, sale.bid, sale.bidder)
    return state.evolve(sale=last, to_move=sale.bidder), events


CLOSES: dict[HighBid, Callable[[Ruleset, DealState, SaleState, list[Event]], Result]] = {
    "binds": _knock_down,
    "may be withdrawn": _last_word,
}
"""What an auction does once all but the highest bidder have passed (spec §5.4), one row per
member of :data:`~boodle.language.model.HighBid`."""


def _offer_over(rules: WidowSale, state: DealState, events: list[Event]) -> Result:
    """Nobody bought: the dealer's chance (unless it came first), else the widow stays."""
    if rules.dealer_swap and not rules.dealer_first:
        return _dealer_chance(rules, state, "dealer", events)
    events.append(WidowUnsold())
    return state.evolve(sale=None, to_move=None), events


def _dealer_chance(
    rules: WidowSale, state: DealState, step: str, events: list[Event]
) -> Result:
    """The dealer may swap; under ``may look and swap`` they see the widow first."""
    if rules.dealer_may_look:
        events.append(WidowShown((state.dealer,), state.widow()))
    sale = SaleState("dealer first" if step == "dealer first" else "dealer")
    return state.evolve(sale=sale, to_move=state.dealer), events


def barred(ruleset: Ruleset, state: DealState, who: int) -> bool:
    """Whether ``who`` may not buy, bid or swap: ``barred: holding a boodle card`` (spec §5.4).

    A card bars when it pays a boodle section by itself; cards of sets do not.
    """
    if not _rules(ruleset).barred_by_boodle:
        return False
    paying = derived(ruleset, "_barring", lambda: frozenset(
        c for s in ruleset.board if SECTION_KINDS[s.kind].per_card
        for c in paying_cards(s) or ()))
    return any(c in paying for c in state.hand(who))


def _price(rules: WidowSale, state: DealState, who: int, amount: int) -> int:
    """What ``who`` pays: nothing when the price would go from the dealer to the dealer."""
    return 0 if rules.to_dealer and who == state.dealer else amount


def _balance(state: DealState, who: int) -> int:
    """``who``'s balance in whole chips (rounded down)."""
    chips = state.ledger.seat(who)
    return chips if type(chips) is int else int(Fraction(chips) // 1)


def _min_bid(rules: WidowSale, sale: SaleState) -> int:
    return max(rules.price, 1, sale.bid + 1)


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
    """A pass, and the buy, swap or bids the seat may make.

    The bids are one :class:`~boodle.engine.state.BidRange`: from the lowest bid allowed
    (the price, at least 1, and above the highest bid so far) to the seat's balance in
    whole chips, in steps of 1; none when the balance is below the lowest bid.  Cost: the
    same for 10 chips as for 10^8.
    """
    rules, sale, who = _rules(ruleset), _sale(state), state.to_move
    assert who is not None
    out: list[Legal] = [PassMove(who)]
    if sale.step == "dealer offers":  # offering is no purchase: neither barred nor funded
        return (*out, OfferMove(who))
    if sale.step == "high bidder":  # the bid was allowed, and nothing has changed since
        return (*out, WithdrawMove(who))
    if barred(ruleset, state, who):
        return tuple(out)
    if sale.step in ("dealer first", "dealer"):
        price = _price(rules, state, who, rules.price)
        if price == 0 or price <= _balance(state, who):
            out.append(SwapMove(who))
    else:
        out.extend(MODES[rules.mode].offers(rules, state, sale, who))
    return tuple(out)


def _buy(rules: WidowSale, state: DealState, sale: SaleState, who: int) -> tuple[Legal, ...]:
    """A sale: a buy at the price, when the seat's balance covers it."""
    return (BuyMove(who),) if rules.price <= _balance(state, who) else ()


def _bids(rules: WidowSale, state: DealState, sale: SaleState, who: int) -> tuple[Legal, ...]:
    """An auction: every bid from the lowest allowed to the seat's balance, if any."""
    low, high = _min_bid(rules, sale), _balance(state, who)
    return (BidRange(who, low, high),) if low <= high else ()


def _check(ruleset: Ruleset, state: DealState, move: Move) -> None:
    """Raise :class:`IllegalMove` for a move the sale refuses (spec §12 order)."""
    rules, sale = _rules(ruleset), _sale(state)
    wanted: type = (OfferMove if sale.step == "dealer offers"
                    else WithdrawMove if sale.step == "high bidder"
                    else SwapMove if sale.step != "offer"
                    else MODES[rules.mode].move)
    if isinstance(move, PassMove):
        return
    if not isinstance(move, wanted):
        what = {SwapMove: "the dealer's swap", BuyMove: "a buy", BidMove: "a bid",
                OfferMove: "the dealer's offer",
                WithdrawMove: "the highest bidder's withdrawal"}[wanted]
        raise IllegalMove(f"{move}: the widow sale now takes {what} or a pass", rule="move.kind")
    if isinstance(move, OfferMove | WithdrawMove):
        return
    if barred(ruleset, state, move.seat):
        raise IllegalMove(f"{move}: the seat holds a boodle card and is barred (spec §5.4)",
                          rule="widow.barred")
    amount = move.amount if isinstance(move, BidMove) else rules.price
    price = _price(rules, state, move.seat, amount)
    # a bid is at most the bidder's balance even when the dealer would pay it to themself
    # (spec §5.4 "at most the bidder's balance"), as legal_moves lists it
    over = amount if isinstance(move, BidMove) else price
    if over > 0 and over > _balance(state, move.seat):
        raise IllegalMove(f"{move}: the seat has {state.ledger.seat(move.seat)} chips, "
                          f"not {price}", rule="widow.funds")
    if isinstance(move, BidMove) and move.amount < _min_bid(rules, sale):
        raise IllegalMove(f"{move}: the lowest bid allowed is {_min_bid(rules, sale)}",
                          rule="widow.bid-low")


def apply(ruleset: Ruleset, state: DealState, move: Move) -> Result:
    """Play an offer, buy, bid, swap, withdrawal or pass (the driver has checked
    ``deal.over`` and ``turn``)."""
    _check(ruleset, state, move)
    rules, sale, who = _rules(ruleset), _sale(state), move.seat
    events: list[Event] = []
    if isinstance(move, OfferMove):
        return _open(ruleset, state, [WidowOffered(who)])
    if isinstance(move, BuyMove):
        return _exchange(ruleset, state, who, "buy", rules.price, events)
    if isinstance(move, SwapMove):
        return _exchange(ruleset, state, who, "swap", rules.price, events)
    if isinstance(move, WithdrawMove):  # the bid is void; every other bidder has passed
        events.append(WidowWithdrawn(who, sale.bid))
        return _offer_over(rules, state, events)
    if isinstance(move, BidMove):
        events.append(WidowBid(who, move.amount))
        bid = SaleState(sale.step, sale.asked, sale.out, move.amount, who)
        return _next(ruleset, state, who, events, bid)
    events.append(WidowPass(who, sale.step))
    if sale.step == "high bidder":  # the bid stands
        return _knock_down(ruleset, state, sale, events)
    if sale.step == "dealer offers":  # withheld: no sale in this deal, the widow blocks
        events.append(WidowUnsold())
        return state.evolve(sale=None, to_move=None), events
    if sale.step == "dealer first":
        return _next(ruleset, state, state.dealer, events, SaleState("offer"))
    if sale.step == "dealer":
        events.append(WidowUnsold())
        return state.evolve(sale=None, to_move=None), events
    return _next(ruleset, state, who, events, MODES[rules.mode].passed(sale, who))


def _asked(sale: SaleState, who: int) -> SaleState:
    """A sale: a pass declines the offer, which goes to the next seat."""
    return SaleState(sale.step, sale.asked + 1, sale.out, sale.bid, sale.bidder)


def _left(sale: SaleState, who: int) -> SaleState:
    """An auction: a pass leaves the auction."""
    return SaleState(sale.step, sale.asked, sale.out | {who}, sale.bid, sale.bidder)


@dataclass(frozen=True)
class ModeRow:
    """The engine's reading of a way to sell the widow (spec §5.4): ``move``, the kind of
    move that takes it in the offer; ``dealer_bids``, the offer goes round to the dealer too
    (unless a ``dealer:`` line gives the dealer a chance of their own); ``next``, who moves
    after a move of the offer (or how it ends); ``offers``, the seat's moves besides a pass;
    ``passed``, the sale's progress after the seat passes."""

    move: type[Move]
    dealer_bids: bool
    next: Callable[[Ruleset, DealState, int, list[Event], SaleState, tuple[int, ...]], Result]
    offers: Callable[[WidowSale, DealState, SaleState, int], tuple[Legal, ...]]
    passed: Callable[[SaleState, int], SaleState]


MODES: dict[SaleMode, ModeRow] = {
    "sale": ModeRow(BuyMove, dealer_bids=False, next=_next_buyer, offers=_buy, passed=_asked),
    "auction": ModeRow(BidMove, dealer_bids=True, next=_next_bidder, offers=_bids,
                       passed=_left),
}
"""How the widow is sold, one row per member of :data:`~boodle.language.model.SaleMode`."""


def _exchange(
    ruleset: Ruleset, state: DealState, who: int, how: How, amount: int, events: list[Event]
) -> Result:
    """``who`` pays and takes the widow; their former hand is discarded (spec §5.4)."""
    rules = _rules(ruleset)
    price = _price(rules, state, who, amount)
    transfer = None
    if price > 0:
        dst: Account = seat(state.dealer) if rules.to_dealer else section(rules.price_to)
        state, transfer = state.pay(seat(who), dst, price, "widow")
    taken, discarded = state.widow(), state.hand(who)
    place = DISCARDS[rules.discard]
    hand = in_hand(who)
    state = state.move_all([*((card, place) for card in discarded),
                            *((card, hand) for card in taken)])
    events.append(WidowExchange(who, how, transfer, taken, discarded, rules.discard))
    return state.evolve(sale=None, to_move=None), events


STAGE = Stage("widow", enter, legal_moves, apply)
"""The widow sale or auction as a stage of the deal."""
