"""The widow sale or auction (spec §5.4) on compiled tables, move for move as
:mod:`boodle.engine.stages.widow` plays it.

Every choice is put to the seat's :data:`Seller` as a :class:`SaleAsk`: the concrete moves of
the reference engine's legal entries, in its order (the pass first, then the offer, the
withdrawal, the buy, the swap, or the bids from the lowest allowed up to the seat's balance in
whole chips), so a player drawing an index over them draws as the reference strategies do.
A sale barred to boodle holders (:attr:`~.tables.CompiledRules.barring`), prices paid to the
dealer and the dealer's swap before the offer are played as the reference engine plays them;
a hand put out of play is refused (:data:`~.tables.SALE_REFUSED`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from boodle.compiled.tables import WIDOW, CompiledRules
from boodle.language.model import Chips, HighBid, SaleMode

SOLD_ONCE_ROUND: dict[SaleMode, bool] = {"sale": True, "auction": False}
"""Whether the widow is offered once round at its price, the dealer not buying (a sale), or
bid for in rounds (an auction) (spec §5.4), one row per member of :data:`SaleMode`."""

KNOCKED_DOWN: dict[HighBid, bool] = {"binds": True, "may be withdrawn": False}
"""Whether the highest bidder left alone takes the widow at once (spec §5.4), rather than
having a last word, one row per member of :data:`HighBid`."""


@dataclass(frozen=True, slots=True)
class SaleAsk:
    """A choice of the widow sale (spec §5.4) put to ``seat``.

    ``step``: the reference engine's sale step (``dealer offers``, ``offer``, ``high
    bidder``, ``dealer``); ``take``: the one move besides the pass (``offer``, ``withdraw``,
    ``buy``, ``swap``, ``bid``, or ``""``: only the pass); ``low``, ``high``: the bids in
    chips under ``bid``; ``hand``, ``widow``: the seat's and the widow's cards (bitmasks).
    """

    rules: CompiledRules
    seat: int
    step: str
    take: str
    low: int
    high: int
    hand: int
    widow: int

    @property
    def size(self) -> int:
        """The concrete moves: the pass, then the take (a bid range counts each bid)."""
        if not self.take:
            return 1
        return 1 + (self.high - self.low + 1 if self.take == "bid" else 1)


Seller = Callable[[SaleAsk], int]
"""A player in the widow sale: the index of its move among the ask's ``size`` (0: pass)."""


def _names(t: CompiledRules, mask: int) -> tuple[str, ...]:
    """The cards of ``mask``, as sorted strings (the trace's form)."""
    return tuple(sorted(str(t.cards[c]) for c in range(t.n_cards) if mask >> c & 1))


def _whole(chips: Chips) -> int:
    return chips if type(chips) is int else int(Fraction(chips) // 1)


def play_sale(t: CompiledRules, n: int, dealer: int, own: list[int], hands: list[int],
              held: list[int], seats: list[Chips], sections: list[Chips],
              sellers: Sequence[Seller], trace: list[tuple[object, ...]] | None) -> None:
    """Spec §5.4: the dealer's offer (``dealer: may withhold``), the sale round from the
    dealer's left (or the auction, clockwise again and again, skipping the highest bidder),
    the highest bidder's last word (``high bidder: may withdraw``), the dealer's swap when
    nobody bought (or, with ``first``, before the offer: a swap ends the sale); the taker pays
    the price into its section (or to the dealer, ``price to: dealer``, the dealer paying
    nothing) and swaps hands with the widow (``own``, ``hands``, ``held`` updated; chips in
    ``seats``, ``sections``).  A seat holding a boodle card under ``barred: holding a boodle
    card`` may only pass (but the dealer's offer and the highest bidder's last word)."""
    r = t.ruleset.widow_sale
    assert r is not None

    def widow() -> int:
        return sum(t.bit[c] for c in range(t.n_cards) if own[c] == WIDOW)

    def ask(who: int, step: str, take: str, low: int = 0, high: int = 0) -> int:
        a = SaleAsk(t, who, step, take, low, high, hands[who], widow())
        return 0 if a.size == 1 else sellers[who](a)

    def note(*item: object) -> None:
        if trace is not None:
            trace.append(item)

    def barred(who: int) -> bool:
        return bool(hands[who] & t.barring)

    def price_of(who: int, amount: int) -> int:
        return 0 if r.to_dealer and who == dealer else amount

    def exchange(who: int, how: str, amount: int) -> None:
        paid: Chips = 0
        price = price_of(who, amount)
        if price > 0:
            paid = min(price, max(seats[who], 0)) if t.capped else price
            seats[who] -= paid
            if r.to_dealer:
                seats[dealer] += paid
            else:
                sections[t.section_names.index(r.price_to)] += paid
        taken, mine = widow(), hands[who]
        for c in range(t.n_cards):
            if taken >> c & 1:
                own[c] = who
            elif mine >> c & 1:
                own[c] = WIDOW
        hands[who], held[who] = taken, taken.bit_count()
        note("exchange", who, how, paid, _names(t, taken), _names(t, mine))

    def dealer_swaps(step: str) -> bool:
        price = price_of(dealer, r.price)
        take = "swap" if not barred(dealer) and (
            price == 0 or price <= _whole(seats[dealer])) else ""
        if ask(dealer, step, take) == 1:
            exchange(dealer, "swap", r.price)
            return True
        note("widow pass", dealer, step)
        return False

    def offer_over() -> None:
        if r.dealer_swap and not r.dealer_first and dealer_swaps("dealer"):
            return
        note("unsold")

    if r.dealer_may_withhold:
        if ask(dealer, "dealer offers", "offer") == 0:
            note("widow pass", dealer, "dealer offers")
            note("unsold")
            return
        note("widow offered", dealer)
    if r.dealer_swap and r.dealer_first and dealer_swaps("dealer first"):
        return
    everyone = [(dealer + 1 + i) % n for i in range(n)]
    buyers = everyone[:-1] if SOLD_ONCE_ROUND[r.mode] or r.dealer_swap else everyone
    if SOLD_ONCE_ROUND[r.mode]:
        for b in buyers:
            buys = not barred(b) and r.price <= _whole(seats[b])
            if ask(b, "offer", "buy" if buys else "") == 1:
                exchange(b, "buy", r.price)
                return
            note("widow pass", b, "offer")
        offer_over()
        return
    out: set[int] = set()
    bid, bidder, after = 0, -1, dealer
    while True:
        active = [b for b in buyers if b not in out]
        if bidder >= 0 and active == [bidder]:
            if KNOCKED_DOWN[r.high_bid]:
                exchange(bidder, "bid", bid)
                return
            if ask(bidder, "high bidder", "withdraw") == 1:
                note("withdrawn", bidder, bid)
                offer_over()
                return
            note("widow pass", bidder, "high bidder")
            exchange(bidder, "bid", bid)
            return
        if not active:
            offer_over()
            return
        who = next(c for c in ((after + i) % n for i in range(1, n + 1))
                   if c in active and c != bidder)
        low, high = max(r.price, 1, bid + 1), _whole(seats[who])
        k = ask(who, "offer", "bid" if low <= high and not barred(who) else "", low, high)
        if k == 0:
            note("widow pass", who, "offer")
            out.add(who)
        else:
            bid, bidder = low + k - 1, who
            note("bid", who, bid)
        after = who
