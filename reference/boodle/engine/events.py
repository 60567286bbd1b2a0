"""Typed event records: what happened in a deal or a session, in order.

Every event is a frozen dataclass with a class-level ``kind`` string and
``to_json()`` (cards as canonical text like ``"10♥"``, chip amounts as ints or
``"a/b"`` strings, accounts tagged ``{"seat": n}`` / ``{"section": name}``).

Every chip movement is carried by exactly one event holding the
:class:`~boodle.engine.ledger.Transfer` (``transfer`` field); :func:`transfers_in`
returns it, so a replay of the events' transfers rebuilds the ledger.
Seats are 0-based and clockwise; the widow is ``None`` in a deal order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from boodle.engine.ledger import Account, Ledger, Transfer, chips_json
from boodle.engine.poker_hands import PokerHand
from boodle.language.cards import Card
from boodle.language.model import Chips, Discard

StopReason = Literal["top rank", "widow", "played", "not in deck", "out of play"]
How = Literal["buy", "bid", "swap"]
"""How a seat took the widow (spec §5.4)."""


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True)
class Cut:
    """A round of the high cut for the first dealer (001 §03).

    ``draws``: (seat, card) per drawing seat; ``dealer``: the winner, or
    ``None`` when the highest rank tied and the tied seats draw again.
    """

    kind: ClassVar[str] = "cut"
    draws: tuple[tuple[int, Card], ...]
    dealer: int | None

    def to_json(self) -> dict[str, object]:
        draws = [{"seat": s, "card": str(c)} for s, c in self.draws]
        return {"kind": self.kind, "draws": draws, "dealer": self.dealer}


@dataclass(frozen=True)
class FirstDealt:
    """The first dealer by a deal face up (spec §5.1, ``first dealer: first RANK dealt``).

    ``dealt``: (seat, card) in the order dealt, clockwise from seat 0, up to
    and including the first card of ``rank``; ``dealer``: who received it.
    """

    kind: ClassVar[str] = "first-dealt"
    dealt: tuple[tuple[int, Card], ...]
    rank: str
    dealer: int

    def to_json(self) -> dict[str, object]:
        dealt = [{"seat": s, "card": str(c)} for s, c in self.dealt]
        return {"kind": self.kind, "dealt": dealt, "rank": self.rank, "dealer": self.dealer}


@dataclass(frozen=True)
class TurnUp:
    """The widow's last-dealt card is turned up: its suit is trumps for the deal (spec §5.2)."""

    kind: ClassVar[str] = "turn-up"
    card: Card
    trump: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "card": str(self.card), "trump": self.trump}


@dataclass(frozen=True)
class Showdown:
    """A poker phase's showdown (spec §8.2): each player's best hand and the best seats.

    ``hands``: (seat, best hand) clockwise from the dealer's left;
    ``winners``: the seats with the best hand, clockwise from the dealer's
    left (several: a tie, and they split the pot).
    """

    kind: ClassVar[str] = "showdown"
    phase: str
    hands: tuple[tuple[int, PokerHand], ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        hands = [{"seat": s, "category": h.category, "cards": _cards(h.cards)}
                 for s, h in self.hands]
        return {"kind": self.kind, "phase": self.phase, "hands": hands,
                "winners": list(self.winners)}


@dataclass(frozen=True)
class BoodlesDrawn:
    """The session's boodle cards drawn from a second pack (spec §3; 000 "Variantes").

    ``draws``: (section name, card) in board order; each section is paid by
    its card for the whole session.
    """

    kind: ClassVar[str] = "boodles-drawn"
    draws: tuple[tuple[str, Card], ...]

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind,
                "draws": [{"section": n, "card": str(c)} for n, c in self.draws]}


@dataclass(frozen=True)
class Seating:
    """The seats drawn again before deal ``number`` (spec §10, ``seating: redrawn each
    deal``): ``players`` holds, seat by seat from seat 0, the player who sits there for
    that deal, each player named by the seat they held at the session's start.

    Inside the deal that follows, every seat of an event is a seat at the table as drawn;
    outside a deal (``eliminated``, ``split``, ``session-end``) a seat names a player by
    their starting seat, as with fixed seating, where the two are the same.
    """

    kind: ClassVar[str] = "seating"
    number: int
    players: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "number": self.number, "players": list(self.players)}


@dataclass(frozen=True)
class DealStart:
    """A deal begins: ``number`` (1-based in a session, ``None`` alone) and its dealer.

    ``players``: the seats at the table; ``still_in``: how many of them play, the players
    eliminated (spec §10) sitting out, ``None`` when not known.  ``still_in`` is for the
    play-by-play only, no field of the JSON event (boodle-protocol/2 compares its fields)."""

    kind: ClassVar[str] = "deal-start"
    dealer: int
    players: int
    number: int | None = None
    still_in: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "number": self.number,
            "dealer": self.dealer,
            "players": self.players,
        }


@dataclass(frozen=True)
class Ante:
    """One ante payment (spec §4): a seat puts chips on a section."""

    kind: ClassVar[str] = "ante"
    transfer: Transfer

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, **_transfer_fields(self.transfer)}


@dataclass(frozen=True)
class Misdeal:
    """A declared misdeal (spec §5.3): every transfer since the ante is undone, in reverse.

    ``transfers``: the undoing transfers (each the reverse of one made since
    the ante).  The same dealer deals again, with no new ante.
    """

    kind: ClassVar[str] = "misdeal"
    dealer: int
    transfers: tuple[Transfer, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "dealer": self.dealer,
            "undone": [_transfer_fields(t) for t in self.transfers],
        }


@dataclass(frozen=True)
class DealCards:
    """The deal (001 §03): hands in seat order, the widow, and the order of one round.

    ``hands`` and ``widow`` list cards in deck order (suit, then rank).
    ``order``: who receives the 1st, 2nd … card of each round (``None`` = widow).
    """

    kind: ClassVar[str] = "deal"
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    widow: tuple[Card, ...]
    order: tuple[int | None, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "dealer": self.dealer,
            "hands": [_cards(h) for h in self.hands],
            "widow": _cards(self.widow),
            "order": ["widow" if p is None else p for p in self.order],
        }


@dataclass(frozen=True)
class WidowShown:
    """The widow is shown to ``seats`` (spec §5.4): to all for a ``seen`` sale, to the dealer
    alone under ``dealer: may look and swap``."""

    kind: ClassVar[str] = "widow-shown"
    seats: tuple[int, ...]
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seats": list(self.seats), "cards": _cards(self.cards)}


@dataclass(frozen=True)
class WidowOffered:
    """The dealer ``seat`` offers the widow in this deal (spec §5.4, ``dealer: may withhold``;
    000 step 6 "le donneur peut proposer la veuve"); a withheld widow is a ``widow-pass`` of
    step ``dealer offers``."""

    kind: ClassVar[str] = "widow-offered"
    seat: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True)
class WidowPass:
    """``seat`` declines the widow: does not buy, leaves the auction, or keeps their hand
    (``step`` is the sale's step: ``offer``, ``dealer first`` or ``dealer``; spec §5.4), or,
    at step ``dealer offers``, the dealer withholds the widow (``dealer: may withhold``), or,
    at step ``high bidder``, the highest bidder lets their bid stand (``high bidder: may
    withdraw``; the exchange follows)."""

    kind: ClassVar[str] = "widow-pass"
    seat: int
    step: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "step": self.step}


@dataclass(frozen=True)
class WidowBid:
    """``seat`` bids ``amount`` chips for the widow (spec §5.4); no chip moves until it is won."""

    kind: ClassVar[str] = "widow-bid"
    seat: int
    amount: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True)
class WidowWithdrawn:
    """The highest bidder ``seat`` withdraws their bid of ``amount`` chips once every other
    bidder has passed (spec §5.4, ``high bidder: may withdraw``; Alysoun/tripoley's "passes and
    withdraws N chip bid"): no chip moves, nobody takes the widow from the auction."""

    kind: ClassVar[str] = "widow-withdrawn"
    seat: int
    amount: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "amount": self.amount}


BetAction = Literal["check", "bet", "call", "raise", "fold", "blind"]
"""What a move of a poker phase's betting round did (spec §8.3); ``blind``: the chips a seat
puts in before anyone acts (``blinds:``), no move."""


@dataclass(frozen=True)
class Bet:
    """``seat`` acts in a poker phase's betting round (spec §8.3): ``action``, the chips it
    put into the pot (``transfer``; ``None`` for a check or a fold), ``level`` the highest
    bet after it, ``all_in`` when the seat has no whole chip left."""

    kind: ClassVar[str] = "bet"
    seat: int
    action: BetAction
    transfer: Transfer | None
    level: int
    all_in: bool = False

    def to_json(self) -> dict[str, object]:
        amount = 0 if self.transfer is None else chips_json(self.transfer.amount)
        return {"kind": self.kind, "seat": self.seat, "action": self.action,
                "amount": amount, "level": self.level, "all_in": self.all_in}


@dataclass(frozen=True)
class WidowExchange:
    """``seat`` takes the widow as their hand and discards their own (spec §5.4).

    ``how``: ``buy``, ``bid`` or ``swap``; ``transfer``: the price or bid paid
    (``None`` when nothing is paid: a price the dealer would pay to themself);
    ``taken``: the widow's cards, now the seat's hand; ``discarded``: the
    former hand, now the widow or out of play (``discard``).
    """

    kind: ClassVar[str] = "widow-exchange"
    seat: int
    how: How
    transfer: Transfer | None
    taken: tuple[Card, ...]
    discarded: tuple[Card, ...]
    discard: Discard

    def to_json(self) -> dict[str, object]:
        paid = None if self.transfer is None else _transfer_fields(self.transfer)
        return {"kind": self.kind, "seat": self.seat, "how": self.how, "paid": paid,
                "taken": _cards(self.taken), "discarded": _cards(self.discarded),
                "discard": self.discard}


@dataclass(frozen=True)
class WidowUnsold:
    """The sale ended with no exchange: the widow stays as dealt (spec §5.4)."""

    kind: ClassVar[str] = "widow-unsold"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Lead:
    """A card that opens a run: the first lead, or a restart after a stop (001 §04-05)."""

    kind: ClassVar[str] = "lead"
    seat: int
    card: Card
    restart: bool

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "card": str(self.card),
            "restart": self.restart,
        }


@dataclass(frozen=True)
class Play:
    """A follow in a run: the owner of the next card plays it (001 §04)."""

    kind: ClassVar[str] = "play"
    seat: int
    card: Card

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "card": str(self.card)}


@dataclass(frozen=True)
class Stop:
    """A run stops after ``card``, played by ``seat`` (001 §04).

    ``reason``: ``top rank`` (no higher card exists, or the phase stops at the
    top rank), ``widow`` / ``played`` / ``not in deck`` / ``out of play``
    (where ``next_card`` is).
    """

    kind: ClassVar[str] = "stop"
    seat: int
    card: Card
    reason: StopReason
    next_card: Card | None

    def to_json(self) -> dict[str, object]:
        nxt = None if self.next_card is None else str(self.next_card)
        return {
            "kind": self.kind,
            "seat": self.seat,
            "card": str(self.card),
            "reason": self.reason,
            "next_card": nxt,
        }


@dataclass(frozen=True)
class Claim:
    """A seat takes a section's whole balance (001 §05; going out, 001 §06).

    A claim of an empty section is recorded with amount 0.  ``layer``: at a showdown with
    side pots (spec §8.3), which pot of the section this is, 0 the main pot, k side pot k;
    ``None`` otherwise.  For the play-by-play only, no field of the JSON event
    (boodle-protocol/2 compares a claim's fields).
    """

    kind: ClassVar[str] = "claim"
    seat: int
    section: str
    transfer: Transfer
    layer: int | None = field(default=None, compare=False)

    @property
    def amount(self) -> Chips:
        return self.transfer.amount

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "section": self.section,
            "amount": chips_json(self.amount),
        }


@dataclass(frozen=True)
class Pass:
    """A seat that may lead no card passes the lead to its left (spec §6.5)."""

    kind: ClassVar[str] = "pass"
    seat: int
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "reason": self.reason}


@dataclass(frozen=True)
class FlipColour:
    """After a full round of passes the required colour flips (spec §6.5)."""

    kind: ClassVar[str] = "flip-colour"
    flipped: bool

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "flipped": self.flipped}


@dataclass(frozen=True)
class Penalty:
    """A chip penalty (spec §6.8), e.g. paying to pass when one cannot lead."""

    kind: ClassVar[str] = "penalty"
    seat: int
    fault: str
    transfer: Transfer

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "fault": self.fault,
                **_transfer_fields(self.transfer)}


@dataclass(frozen=True)
class StopPaid:
    """A paid stop (spec §6.7): the seat that made a stop receives chips."""

    kind: ClassVar[str] = "stop-bonus"
    seat: int
    transfer: Transfer

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, **_transfer_fields(self.transfer)}


@dataclass(frozen=True)
class GoOut:
    """``seat`` played its last card: the deal ends at once (001 §06)."""

    kind: ClassVar[str] = "go-out"
    seat: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True)
class Payment:
    """An opponent pays for the cards left in hand (001 §06).

    ``payee``: the winner's seat, or the kitty when going out pays into it.
    ``excused``: the payer holds an excused card and pays nothing.
    """

    kind: ClassVar[str] = "payment"
    payer: int
    payee: Account
    cards_left: int
    excused: bool
    transfer: Transfer

    @property
    def amount(self) -> Chips:
        return self.transfer.amount

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "payer": self.payer,
            "payee": self.payee.to_json(),
            "amount": chips_json(self.amount),
            "cards_left": self.cards_left,
            "excused": self.excused,
        }


@dataclass(frozen=True)
class CarryOver:
    """A section's balance stays on the board for the next deal (001 §02, §06)."""

    kind: ClassVar[str] = "carry-over"
    section: str
    amount: Chips

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "section": self.section, "amount": chips_json(self.amount)}


@dataclass(frozen=True)
class DealEnd:
    """The deal is over: ``winner`` went out, or ``None`` (every seat passed)."""

    kind: ClassVar[str] = "deal-end"
    winner: int | None
    reason: Literal["went out", "all passed"]
    ledger: Ledger

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "reason": self.reason,
            "ledger": self.ledger.to_json(),
        }


@dataclass(frozen=True)
class PhaseSkipped:
    """A phase the engine does not execute yet was skipped (spec §8.3): no card, no chip moved.

    ``kind``: ``holding`` or ``poker``; ``reason``: what the trace says.
    """

    kind: ClassVar[str] = "phase-skipped"
    phase: str
    phase_kind: str
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "phase": self.phase, "phase_kind": self.phase_kind,
                "reason": self.reason}


@dataclass(frozen=True)
class Eliminated:
    """``seat`` ends a deal with no chips and leaves the session (spec §10,
    ``balance: eliminated at zero``; 004 "Victoire")."""

    kind: ClassVar[str] = "eliminated"
    seat: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True)
class Split:
    """One seat's equal share of a section's leftover at the session's end (001 §06)."""

    kind: ClassVar[str] = "split"
    section: str
    seat: int
    transfer: Transfer

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "section": self.section,
            "seat": self.seat,
            "amount": chips_json(self.transfer.amount),
        }


@dataclass(frozen=True)
class SessionEnd:
    """The session is over: final balances per seat and the best seat(s) (001 §06).

    ``reason``: why it ended, in words for the play-by-play (``"only 2 players still in,
    fewer than tripoley's minimum of 3"``; spec §10), or ``""``.  It is no field of the
    JSON event: boodle-protocol/2 compares a session-end's fields one by one, so a new one
    would fail every other implementation's runs."""

    kind: ClassVar[str] = "session-end"
    standings: tuple[Chips, ...]
    winners: tuple[int, ...]
    ledger: Ledger
    reason: str = field(default="", compare=False)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "standings": [chips_json(a) for a in self.standings],
            "winners": list(self.winners),
            "ledger": self.ledger.to_json(),
        }


Event = (
    BoodlesDrawn
    | Cut
    | FirstDealt
    | Seating
    | TurnUp
    | Showdown
    | DealStart
    | Ante
    | Misdeal
    | DealCards
    | WidowShown
    | WidowOffered
    | WidowPass
    | WidowBid
    | WidowWithdrawn
    | Bet
    | WidowExchange
    | WidowUnsold
    | Lead
    | Play
    | Stop
    | Claim
    | Pass
    | FlipColour
    | Penalty
    | StopPaid
    | GoOut
    | Payment
    | CarryOver
    | DealEnd
    | PhaseSkipped
    | Eliminated
    | Split
    | SessionEnd
)
"""Any event."""

_WITH_TRANSFER = (Ante, Claim, Penalty, StopPaid, Payment, Split)


def transfers_in(event: Event) -> tuple[Transfer, ...]:
    """The chip movements an event carries (empty for events that move no chips)."""
    if isinstance(event, _WITH_TRANSFER):
        return (event.transfer,)
    if isinstance(event, Misdeal):
        return event.transfers
    if isinstance(event, WidowExchange | Bet) and event.transfer is not None:
        return (event.transfer,)
    return ()


def _transfer_fields(t: Transfer) -> dict[str, object]:
    return {
        "from": t.src.to_json(),
        "to": t.dst.to_json(),
        "amount": chips_json(t.amount),
        "reason": t.reason,
    }


__all__ = [
    "Ante",
    "Bet",
    "BetAction",
    "BoodlesDrawn",
    "CarryOver",
    "Claim",
    "Cut",
    "DealCards",
    "DealEnd",
    "DealStart",
    "Eliminated",
    "Event",
    "FirstDealt",
    "FlipColour",
    "GoOut",
    "How",
    "Lead",
    "Misdeal",
    "Pass",
    "Payment",
    "Penalty",
    "PhaseSkipped",
    "Play",
    "Seating",
    "SessionEnd",
    "Showdown",
    "Split",
    "Stop",
    "StopPaid",
    "StopReason",
    "Transfer",
    "TurnUp",
    "WidowBid",
    "WidowExchange",
    "WidowOffered",
    "WidowPass",
    "WidowShown",
    "WidowUnsold",
    "WidowWithdrawn",
    "transfers_in",
]
