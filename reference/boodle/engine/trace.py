"""Events → text: a readable play-by-play, and JSON lines.

Seats are shown as letters (seat 0 = A, clockwise), as in 001 §07's example.
:func:`render_text` prints the cut, each deal per hand (cards in deck order:
suit, then rank), every lead and play, each stop and why, each claim, the
going-out payments, and after each deal the board and the ledger.  A
transfer of 0 chips (an empty section claimed, a payment by a player with
nothing left) stays an event but is left out of the text: it moves nothing
(spec §9); an excused payment is shown, as an excuse.
:func:`render_jsonl` prints one JSON object per event per line, all of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from boodle.engine.events import (
    Ante,
    Bet,
    BoodlesDrawn,
    CarryOver,
    Claim,
    Cut,
    DealCards,
    DealEnd,
    DealStart,
    Eliminated,
    Event,
    FirstDealt,
    FlipColour,
    GoOut,
    Lead,
    Misdeal,
    Pass,
    Payment,
    Penalty,
    PhaseSkipped,
    Play,
    Seating,
    SessionEnd,
    Showdown,
    Split,
    Stop,
    StopPaid,
    TurnUp,
    WidowBid,
    WidowExchange,
    WidowOffered,
    WidowPass,
    WidowShown,
    WidowUnsold,
    WidowWithdrawn,
)
from boodle.engine.ledger import Account, Ledger, SeatAccount, chips_json
from boodle.language.cards import Card
from boodle.language.model import Chips, Discard


def seat_name(seat: int) -> str:
    """``A`` for seat 0, ``B`` for seat 1 … (``P26`` beyond the alphabet)."""
    return chr(ord("A") + seat) if 0 <= seat < 26 else f"P{seat}"


def _chips(amount: Chips) -> str:
    return str(chips_json(amount))


def _account(account: Account) -> str:
    return seat_name(account.seat) if isinstance(account, SeatAccount) else account.name


def _hand(cards: Sequence[Card]) -> str:
    """Cards grouped by suit (two spaces between suits), in the order given."""
    groups: list[list[str]] = []
    for i, card in enumerate(cards):
        if i == 0 or cards[i - 1].suit != card.suit:
            groups.append([])
        groups[-1].append(str(card))
    return "  ".join(" ".join(g) for g in groups) or "-"


_STOP_WHY = {
    "top rank": "{card} is the top rank",
    "widow": "{next} is in the widow",
    "played": "{next} was already played",
    "not in deck": "{next} is not in the deck",
    "out of play": "{next} is out of play",
}


def _ledger_lines(ledger: Ledger) -> list[str]:
    board = ", ".join(f"{name} {_chips(a)}" for name, a in ledger.sections)
    seats = ", ".join(f"{seat_name(s)} {_chips(a)}" for s, a in enumerate(ledger.seats))
    return [f"  board:  {board}", f"  ledger: {seats}"]


def _antes(antes: list[Ante]) -> str:
    paid: dict[str, Chips] = {}
    put: dict[str, Chips] = {}
    for a in antes:
        src, dst = _account(a.transfer.src), _account(a.transfer.dst)
        paid[src] = paid.get(src, 0) + a.transfer.amount
        put[dst] = put.get(dst, 0) + a.transfer.amount
    who = ", ".join(f"{k} {_chips(v)}" for k, v in paid.items())
    where = ", ".join(f"{k} +{_chips(v)}" for k, v in put.items())
    return f"  antes: {who} -> {where}"


def _line(event: Event) -> list[str]:
    """The text lines for one event (antes are summarised elsewhere)."""
    return _RENDER[type(event)](event)


def _cut(e: Cut) -> list[str]:
    draws = ", ".join(f"{seat_name(s)} draws {c}" for s, c in e.draws)
    end = f"{seat_name(e.dealer)} deals first" if e.dealer is not None else "tie: draw again"
    return [f"cut: {draws} -> {end}"]


def _deal_start(e: DealStart) -> list[str]:
    number = f" {e.number}" if e.number is not None else ""
    return ["", f"Deal{number}: {seat_name(e.dealer)} deals, {_table(e)}"]


def _table(e: DealStart) -> str:
    """``5 players``, or after an elimination (spec §10) ``5 players, 4 still in``."""
    out = "" if e.still_in is None or e.still_in == e.players else f", {e.still_in} still in"
    return f"{e.players} players{out}"


def _deal(e: DealCards) -> list[str]:
    out = [f"  {seat_name(s)}: {_hand(h)}" for s, h in enumerate(e.hands)]
    return [*out, f"  widow: {_hand(e.widow)}"]


def _drawn(e: BoodlesDrawn) -> list[str]:
    draws = ", ".join(f"{name} {card}" for name, card in e.draws)
    return [f"boodle cards drawn from a second pack for the session: {draws}"]


def _seating(e: Seating) -> list[str]:
    seats = ", ".join(f"{seat_name(p)} sits in seat {seat_name(k)}"
                      for k, p in enumerate(e.players))
    return ["", f"seats drawn for deal {e.number} (players by their starting seat): {seats}"]


def _shown(e: WidowShown) -> list[str]:
    who = "every player" if len(e.seats) > 1 else seat_name(e.seats[0])
    return [f"  the widow is shown to {who}: {_hand(e.cards)}"]


_DECLINE = {"offer": "passes", "dealer first": "keeps their hand (dealer, first)",
            "dealer": "keeps their hand (dealer)",
            "dealer offers": "withholds the widow (dealer): nobody takes it; it stays a blocker",
            "high bidder": "lets their bid stand (highest bidder)"}
"""How a pass reads, by the sale's step (spec §5.4).  A withhold says the sale's end itself:
the ``WidowUnsold`` right after it is not said again (:func:`said_before`)."""


def said_before(event: Event, before: Event | None) -> bool:
    """Whether ``event`` was already said by the line of the event ``before`` it: the
    widow left unsold after the dealer withheld it (spec §5.4 ``dealer: may withhold``)."""
    return (isinstance(event, WidowUnsold) and isinstance(before, WidowPass)
            and before.step == "dealer offers")


DISCARD_WORDS: dict[Discard, str] = {
    "becomes widow": "become the widow",
    "out of play": "go out of play",
}
"""What becomes of a widow taker's former cards, in the play-by-play's words (spec §5.4), one
row per member of :data:`Discard`."""


def _exchange(e: WidowExchange) -> list[str]:
    paid = (f", pays {_chips(e.transfer.amount)} to {_account(e.transfer.dst)}"
            if e.transfer is not None else "")
    where = DISCARD_WORDS[e.discard]
    return [f"  {seat_name(e.seat)} takes the widow ({e.how}{paid}): {_hand(e.taken)}",
            f"    {seat_name(e.seat)}'s former cards {where}: {_hand(e.discarded)}"]


def _stop(e: Stop) -> list[str]:
    why = _STOP_WHY[e.reason].format(card=e.card, next=e.next_card)
    return [f"    stop: {why}"]


def _claim(e: Claim) -> list[str]:
    pot = "" if e.layer is None else f" ({'main pot' if e.layer == 0 else f'side pot {e.layer}'})"
    return [f"    {seat_name(e.seat)} takes {e.section}{pot}: {_chips(e.amount)}"]


def _payment(e: Payment) -> list[str]:
    cards = f"{e.cards_left} card{'s' if e.cards_left != 1 else ''} left"
    if e.excused and e.transfer.amount == 0:
        return [f"    {seat_name(e.payer)} is excused from paying {_account(e.payee)} ({cards})"]
    excused = ", excused" if e.excused else ""
    return [f"    {seat_name(e.payer)} pays {_account(e.payee)} "
            f"{_chips(e.transfer.amount)} ({cards}{excused})"]


def _deal_end(e: DealEnd) -> list[str]:
    head = (f"  {seat_name(e.winner)} wins the deal" if e.winner is not None
            else "  every player passed: no winner")
    return [head, *_ledger_lines(e.ledger)]


def _drawn_deal(event: DealStart | DealEnd, drawn: Seating) -> list[str]:
    """A deal's header and end after :class:`Seating` (spec §10 ``seating: redrawn each
    deal``): inside the deal letters name seats, outside it (leftover, session end,
    ``boodle ledger``) players, so the header says so, the dealer and the winner name their
    player too, and the deal's ledger is given by seat and by player."""
    def player(seat: int) -> str:
        return seat_name(drawn.players[seat])

    if isinstance(event, DealStart):
        number = f" {event.number}" if event.number is not None else ""
        return ["", f"Deal{number}: {seat_name(event.dealer)} deals (player "
                f"{player(event.dealer)}), {_table(event)}; letters name seats "
                "as drawn"]
    head = (f"  {seat_name(event.winner)} wins the deal (player {player(event.winner)})"
            if event.winner is not None else "  every player passed: no winner")
    board, by_seat = _ledger_lines(event.ledger)
    players: list[Chips] = list(event.ledger.seats)
    for k, p in enumerate(drawn.players):
        players[p] = event.ledger.seats[k]
    by_player = ", ".join(f"{seat_name(p)} {_chips(a)}" for p, a in enumerate(players))
    return [head, board, by_seat.replace("ledger:", "ledger by seat:", 1),
            f"  ledger by player: {by_player}"]


def _first_dealt(e: FirstDealt) -> list[str]:
    dealt = ", ".join(f"{seat_name(s)} {c}" for s, c in e.dealt)
    return [f"dealt face up: {dealt} -> the first {e.rank}: {seat_name(e.dealer)} deals first"]


def _bet(e: Bet) -> list[str]:
    """A move of a betting round (spec §8.3): ``B bets 1``, ``C raises to 2 (puts in 2)``."""
    put = 0 if e.transfer is None else e.transfer.amount
    words = {"check": "checks", "fold": "folds", "bet": f"bets {_chips(put)}",
             "call": f"calls {_chips(put)}",
             "raise": f"raises to {e.level} (puts in {_chips(put)})",
             "blind": f"posts a blind of {_chips(put)}"}[e.action]
    return [f"  {seat_name(e.seat)} {words}" + (" (all in)" if e.all_in else "")]


def _showdown(e: Showdown) -> list[str]:
    best = ", ".join(seat_name(s) for s in e.winners) or "nobody"
    return [f"  phase {e.phase} (poker):",
            *(f"    {seat_name(s)} shows {h}" for s, h in e.hands),
            f"    best hand: {best}"]


def _session_end(e: SessionEnd) -> list[str]:
    winners = ", ".join(seat_name(s) for s in e.winners)
    head = f"Session end: {e.reason}" if e.reason else "Session end"
    return ["", head, *_ledger_lines(e.ledger), f"  best: {winners}"]


_RENDER: dict[type, Callable[..., list[str]]] = {
    BoodlesDrawn: _drawn,
    Cut: _cut,
    FirstDealt: _first_dealt,
    Seating: _seating,
    TurnUp: lambda e: [f"  turned up: {e.card}, trumps {e.trump}"],
    Showdown: _showdown,
    WidowShown: _shown,
    WidowOffered: lambda e: [f"  {seat_name(e.seat)} offers the widow"],
    WidowPass: lambda e: [f"  {seat_name(e.seat)} {_DECLINE[e.step]}"],
    WidowBid: lambda e: [f"  {seat_name(e.seat)} bids {e.amount} for the widow"],
    WidowWithdrawn: lambda e: [f"  {seat_name(e.seat)} withdraws their bid of {e.amount}: "
                               "nobody pays it"],
    Bet: _bet,
    WidowExchange: _exchange,
    WidowUnsold: lambda e: ["  nobody takes the widow"],
    DealStart: _deal_start,
    DealCards: _deal,
    Misdeal: lambda e: [f"  misdeal: {len(e.transfers)} transfers undone; "
                        f"{seat_name(e.dealer)} deals again, no new ante"],
    Lead: lambda e: [f"  {seat_name(e.seat)} leads {e.card}" + (" (restart)" * e.restart)],
    Play: lambda e: [f"  {seat_name(e.seat)} plays {e.card}"],
    Stop: _stop,
    Claim: _claim,
    Pass: lambda e: [f"  {seat_name(e.seat)} passes: {e.reason}"],
    FlipColour: lambda e: ["    a full round passed: the required colour flips"],
    Penalty: lambda e: [f"    {seat_name(e.seat)} pays {_chips(e.transfer.amount)} to "
                        f"{_account(e.transfer.dst)} ({e.fault})"],
    StopPaid: lambda e: [f"    {seat_name(e.seat)} gets {_chips(e.transfer.amount)} from "
                         f"{_account(e.transfer.src)} for the stop"],
    GoOut: lambda e: [f"    {seat_name(e.seat)} goes out"],
    Payment: _payment,
    CarryOver: lambda e: [f"    {e.section} carries over {_chips(e.amount)}"],
    DealEnd: _deal_end,
    PhaseSkipped: lambda e: [f"  phase {e.phase} ({e.phase_kind}) skipped: {e.reason}"],
    Eliminated: lambda e: [f"  {seat_name(e.seat)} has no chips left: eliminated"],
    Split: lambda e: [f"  leftover: {seat_name(e.seat)} gets {_chips(e.transfer.amount)} "
                      f"of {e.section}"],
    SessionEnd: _session_end,
}


def moves_nothing(event: Event) -> bool:
    """Whether ``event`` is a transfer of 0 chips the play-by-play leaves out (spec §9).

    An empty claim, a bonus, penalty, split or payment of 0; not an excused
    payment (the excuse is news) and not an event that moves no chips by nature.
    """
    if isinstance(event, Claim):
        return event.amount == 0
    if isinstance(event, Payment):
        return event.transfer.amount == 0 and not event.excused
    if isinstance(event, StopPaid | Penalty | Split):
        return event.transfer.amount == 0
    return False


@dataclass
class DrawnSeats:
    """The seats drawn for the deal under way (spec §10 ``seating: redrawn each deal``):
    what :func:`render_text` carries from one piece of a trace to the next."""

    current: Seating | None = None


def render_text(events: Iterable[Event], *, start: bool = True,
                seats: DrawnSeats | None = None) -> str:
    """A readable play-by-play of ``events`` (one line per happening, antes summarised,
    transfers of 0 chips left out: :func:`moves_nothing`, a happening said once:
    :func:`said_before`).  ``start``: the events open the
    trace, so the blank line before a first ``Deal`` header is dropped; ``False`` for a
    later piece of a trace rendered piece by piece (it keeps the blank line).  ``seats``:
    for a trace rendered piece by piece, one :class:`DrawnSeats` given with every piece, so
    that a deal's end after seats drawn in an earlier piece is said as :func:`_drawn_deal`
    says it."""
    lines: list[str] = []
    antes: list[Ante] = []
    before: Event | None = None
    drawn = seats.current if seats is not None else None
    for event in events:
        told, before = said_before(event, before), event
        if moves_nothing(event) or told:
            continue
        if isinstance(event, Ante):
            antes.append(event)
            continue
        if antes:
            lines.append(_antes(antes))
            antes = []
        if drawn is not None and isinstance(event, DealStart | DealEnd):
            lines.extend(_drawn_deal(event, drawn))
            drawn = None if isinstance(event, DealEnd) else drawn
            continue
        drawn = event if isinstance(event, Seating) else drawn
        lines.extend(_line(event))
    if antes:
        lines.append(_antes(antes))
    if seats is not None:
        seats.current = drawn
    text = "\n".join(lines)
    return (text.lstrip("\n") if start else text) + "\n"


def render_jsonl(events: Iterable[Event]) -> str:
    """One JSON object per event per line (UTF-8 text, cards like ``"10♥"``)."""
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in events)
