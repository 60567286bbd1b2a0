"""Play one deal on both engines with the same choices, and compare what they did.

:func:`reference_trace` turns the reference engine's events into the trace
tuples :func:`~.deal.play_deal` records; :func:`both_engines` plays a deal
from the same card order on both, driven by one source of choices, and
returns both traces and final chips.  The agreement test runs it over many
seeded deals; the benchmark runs it once as a sanity check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boodle.compiled.deal import Chooser, DealView, TraceItem, play_deal
from boodle.compiled.poker import PASS, BetAsk, Bettor
from boodle.compiled.tables import CompiledRules
from boodle.compiled.widow import SaleAsk, Seller
from boodle.engine.events import (
    Bet,
    Claim,
    DealEnd,
    Event,
    FlipColour,
    GoOut,
    Lead,
    Pass,
    Payment,
    Penalty,
    Play,
    Showdown,
    Stop,
    StopPaid,
    TurnUp,
    WidowBid,
    WidowExchange,
    WidowOffered,
    WidowPass,
    WidowUnsold,
    WidowWithdrawn,
)
from boodle.engine.ledger import Ledger, SeatAccount
from boodle.engine.state import DealState, Legal, Move, move_count, nth_move
from boodle.engine.strategies import Strategy
from boodle.language.model import Chips, Ruleset
from boodle.session.run import play_deal as reference_play_deal


def reference_trace(events: Sequence[Event]) -> list[TraceItem]:
    """The trace tuples of the reference events (plays, stops, claims, passes, payments; a
    betting round's bets, spec §8.3: seat, action, chips put in, level, all in; a showdown's
    hands as their strengths, spec §8.2; the widow sale's offers, passes, bids, withdrawals and
    exchange, spec §5.4)."""
    out: list[TraceItem] = []
    for e in events:
        if isinstance(e, Lead):
            out.append(("lead", e.seat, str(e.card), e.restart))
        elif isinstance(e, Play):
            out.append(("play", e.seat, str(e.card)))
        elif isinstance(e, Stop):
            nxt = None if e.next_card is None else str(e.next_card)
            out.append(("stop", e.seat, str(e.card), e.reason, nxt))
        elif isinstance(e, Claim):
            out.append(("claim", e.seat, e.section, e.amount))
        elif isinstance(e, Pass):
            out.append(("pass", e.seat))
        elif isinstance(e, FlipColour):
            out.append(("flip", e.flipped))
        elif isinstance(e, Penalty):
            dst = e.transfer.dst
            out.append(("penalty", e.seat, e.transfer.amount,
                        dst.seat if isinstance(dst, SeatAccount) else dst.name))
        elif isinstance(e, StopPaid):
            out.append(("bonus", e.seat, e.transfer.amount))
        elif isinstance(e, GoOut):
            out.append(("out", e.seat))
        elif isinstance(e, Payment):
            out.append(("pay", e.payer, e.amount))
        elif isinstance(e, TurnUp):
            out.append(("turn-up", str(e.card), e.trump))
        elif isinstance(e, DealEnd):
            out.append(("end", e.winner))
        elif isinstance(e, Bet):
            amount = 0 if e.transfer is None else e.transfer.amount
            out.append(("bet", e.seat, e.action, amount, e.level, e.all_in))
        elif isinstance(e, WidowOffered):
            out.append(("widow offered", e.seat))
        elif isinstance(e, WidowPass):
            out.append(("widow pass", e.seat, e.step))
        elif isinstance(e, WidowBid):
            out.append(("bid", e.seat, e.amount))
        elif isinstance(e, WidowWithdrawn):
            out.append(("withdrawn", e.seat, e.amount))
        elif isinstance(e, WidowExchange):
            out.append(("exchange", e.seat, e.how, 0 if e.transfer is None else e.transfer.amount,
                        tuple(sorted(map(str, e.taken))), tuple(sorted(map(str, e.discarded)))))
        elif isinstance(e, WidowUnsold):
            out.append(("unsold",))
        elif isinstance(e, Showdown):
            out.append(("showdown", e.phase, tuple((s, h.strength) for s, h in e.hands),
                        e.winners))
    return out


@dataclass(frozen=True)
class BothEngines:
    """One deal played on both engines: traces and chips after the deal (seats, sections)."""

    reference: list[TraceItem]
    compiled: list[TraceItem]
    reference_chips: tuple[tuple[Chips, ...], tuple[Chips, ...]]
    compiled_chips: tuple[tuple[Chips, ...], tuple[Chips, ...]]


def both_engines(
    tables: CompiledRules,
    players: int,
    dealer: int,
    ledger: Ledger,
    perm: Sequence[int],
    pick: Callable[[], Callable[[int], int]],
) -> BothEngines:
    """Play the deal dealt in order ``perm`` (card indices) from ``ledger`` on both engines.

    ``pick()`` makes a fresh source of choices: a function from the number of
    allowed leads (> 1), or of the concrete moves of a betting round (> 1: the pass, then
    each bid by increasing amount, spec §8.3), to the index chosen; each engine gets its own
    copy, so both see the same choices in the same order.
    """
    ruleset: Ruleset = tables.ruleset
    ref_pick, fast_pick = pick(), pick()

    def ref_player(r: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
        total = move_count(legal)
        return nth_move(legal, 0 if total == 1 else ref_pick(total))

    def fast_player(view: DealView, seat: int, options: list[int]) -> int:
        return options[fast_pick(len(options))]

    def fast_seller(ask: SaleAsk) -> int:
        return fast_pick(ask.size)

    def fast_bettor(ask: BetAsk) -> int:
        total = ask.size + 1
        k = 0 if total == 1 else fast_pick(total)
        return PASS if k == 0 else ask.amount(k - 1)

    strategies: list[Strategy] = [ref_player] * players
    deck = [tables.cards[c] for c in perm]
    state, events = reference_play_deal(ruleset, players, dealer, ledger, deck, strategies)
    seats: list[Chips] = list(ledger.seats)
    sections: list[Chips] = [amount for _, amount in ledger.sections]
    trace: list[TraceItem] = []
    choosers: list[Chooser] = [fast_player] * players
    bettors: list[Bettor] = [fast_bettor] * players
    sellers: list[Seller] = [fast_seller] * players
    play_deal(tables, players, dealer, perm, seats, sections, choosers, trace, bettors, sellers)
    return BothEngines(
        reference_trace(events), trace,
        (state.ledger.seats, tuple(a for _, a in state.ledger.sections)),
        (tuple(seats), tuple(sections)),
    )


def seeded_picks(seed: int | str) -> Callable[[], Callable[[int], int]]:
    """A maker of identical choice sources drawn from ``random.Random(seed)``."""
    def make() -> Callable[[int], int]:
        rng = random.Random(seed)
        return lambda k: rng.randrange(k)
    return make
