#!/usr/bin/env python3
"""Michigan (rules version 1) as a program that plays its own choices: a referee-mode example.

Written from conformance/PROTOCOL.md ("Referee mode"), spec/rules.md and spec/michigan.md
alone; it imports nothing of boodle.  Like many real programs it has no notion of an
illegal move: every seat plays the one card it may (the next card of a run), and where
the rules leave a choice (which suit to lead) it chooses for itself, the lowest card of
its longest suit.  So it takes only `referee` cases, of a deal or of a whole session: it
declares the kinds ["referee"] and the features "referee" and "session", and the runner
skips every other case, saying why once.

    boodle conformance run --impl "python3 auto_player.py" --variant michigan \\
        --referee-deals 50 --referee-sessions 5 --seed 1

Standard library only; Python 3.10 or later.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

SUITS = ["♣", "♦", "♥", "♠"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
BOODLES = ["A♥", "K♣", "Q♦", "J♠"]  # spec/michigan.md M6, in board order
BOARD = [*BOODLES, "kitty"]  # M7: the kitty is the fifth section
BOODLE_ANTE, KITTY_ANTE = 1, 2  # M8, M9

Card = tuple[int, int]  # (suit index, rank index)
Event = dict[str, Any]
Chips = int | Fraction  # whole during a deal (M3); the leftover's split is exact (M24)


def parse(text: str) -> Card:
    """A card's canonical text ("10♥") as (suit, rank)."""
    return SUITS.index(text[-1]), RANKS.index(text[:-1])


def name(card: Card) -> str:
    return RANKS[card[1]] + SUITS[card[0]]


class Deal:
    """One deal of Michigan from its setup to its end, recording the events."""

    def __init__(self, players: int, dealer: int, seats: list[Chips],
                 sections: dict[str, Chips], cards: dict[str, Any],
                 number: int | None = None) -> None:
        self.n, self.dealer, self.number = players, dealer, number
        self.seats = list(seats)
        self.sections = {b: sections.get(b, 0) for b in BOARD}
        self.events: list[Event] = []
        self.hands: list[set[Card]] = [set() for _ in range(self.n)]
        self.widow: set[Card] = set()
        self.played: set[Card] = set()
        self.led = False
        self._ante_and_deal(cards)

    # -------------------------------------------------------------- the start (rules §4, §5)

    def _from_left(self) -> list[int]:
        """The seats from the dealer's left, the dealer last."""
        return [(self.dealer + k) % self.n for k in range(1, self.n + 1)]

    def _move_chips(self, payer: int, section: str, amount: Chips) -> None:
        self.seats[payer] -= amount
        self.sections[section] += amount

    def _ante_and_deal(self, deal: dict[str, Any]) -> None:
        self.events.append({"kind": "deal-start", "number": self.number,
                            "dealer": self.dealer, "players": self.n})
        # the ante lines in the order written, payer by payer from the dealer's left
        for payer in self._from_left():
            for boodle in BOODLES:
                self._ante(payer, boodle, BOODLE_ANTE)
        for payer in self._from_left():
            self._ante(payer, "kitty", KITTY_ANTE)
        order: list[Any] = [*self._from_left(), "widow"]  # the widow is dealt last (M11)
        if "deck" in deal:
            for i, text in enumerate(deal["deck"]):
                who = order[i % len(order)]
                (self.widow if who == "widow" else self.hands[who]).add(parse(text))
        else:
            for seat, hand in enumerate(deal["hands"]):
                self.hands[seat] = {parse(c) for c in hand}
            self.widow = {parse(c) for c in deal["widow"]}
        self.events.append({"kind": "deal", "dealer": self.dealer,
                            "hands": [[name(c) for c in sorted(h)] for h in self.hands],
                            "widow": [name(c) for c in sorted(self.widow)], "order": order})

    def _ante(self, payer: int, section: str, amount: int) -> None:
        self.events.append({"kind": "ante", "from": {"seat": payer}, "to": {"section": section},
                            "amount": amount, "reason": "ante"})
        self._move_chips(payer, section, amount)

    # -------------------------------------------------------------- play (rules §6, §7)

    def owner(self, card: Card) -> int | None:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None

    def choose_lead(self, seat: int, stopped_suit: int | None) -> Card:
        """Our own choice: the lowest card of the longest suit we may lead (a lead is
        always a suit's lowest card; after a stop, another suit than the stopped one if we
        hold one)."""
        hand = self.hands[seat]
        suits = {c[0] for c in hand}
        if stopped_suit is not None and suits - {stopped_suit}:
            suits -= {stopped_suit}
        suit = max(sorted(suits), key=lambda s: sum(c[0] == s for c in hand))
        return min(c for c in hand if c[0] == suit)

    def play(self) -> None:
        """Play the deal to its end: the seat on the dealer's left leads (M13)."""
        seat, stopped = (self.dealer + 1) % self.n, None
        while True:
            card = self.choose_lead(seat, stopped)
            self.events.append({"kind": "lead", "seat": seat, "card": name(card),
                                "restart": self.led})
            self.led = True
            while True:
                if self._put(seat, card):
                    return  # went out: the deal is over
                following = (card[0], card[1] + 1)
                holder = self.owner(following) if card[1] < len(RANKS) - 1 else None
                if holder is None:
                    break
                seat, card = holder, following
                self.events.append({"kind": "play", "seat": seat, "card": name(card)})
            if card[1] == len(RANKS) - 1:
                reason, following_name = "top rank", None
            else:
                following_name = name((card[0], card[1] + 1))
                reason = "widow" if (card[0], card[1] + 1) in self.widow else "played"
            self.events.append({"kind": "stop", "seat": seat, "card": name(card),
                                "reason": reason, "next_card": following_name})
            stopped = card[0]  # the one who stopped leads again, another suit (M14)

    def _put(self, seat: int, card: Card) -> bool:
        """The card leaves the hand; a boodle card takes its section; True if it was the
        seat's last card (it goes out)."""
        self.hands[seat].discard(card)
        self.played.add(card)
        if name(card) in BOODLES:
            self._claim(seat, name(card))
        if self.hands[seat]:
            return False
        self._go_out(seat)
        return True

    def _claim(self, seat: int, section: str) -> None:
        amount = self.sections[section]
        self.events.append({"kind": "claim", "seat": seat, "section": section,
                            "amount": amount})
        self.sections[section] = 0
        self.seats[seat] += amount

    def _go_out(self, winner: int) -> None:
        """The winner takes the kitty, each opponent pays a chip per card left, from the
        winner's left (rules §7); unclaimed boodles carry over (rules §3)."""
        self.events.append({"kind": "go-out", "seat": winner})
        self._claim(winner, "kitty")
        for k in range(1, self.n):
            payer = (winner + k) % self.n
            left = len(self.hands[payer])
            self.events.append({"kind": "payment", "payer": payer, "payee": {"seat": winner},
                                "amount": left, "cards_left": left, "excused": False})
            self.seats[payer] -= left
            self.seats[winner] += left
        for section in BOARD:
            if self.sections[section]:
                self.events.append({"kind": "carry-over", "section": section,
                                    "amount": self.sections[section]})
        self.events.append({"kind": "deal-end", "winner": winner, "reason": "went out",
                            "ledger": self.ledger()})

    def ledger(self) -> dict[str, Any]:
        return ledger_json(self.seats, self.sections)


def chips(value: Any) -> Chips:
    """An amount of the protocol (an integer, or "a/b") as a number."""
    return Fraction(value) if isinstance(value, str) else int(value)


def chips_json(value: Chips) -> Any:
    """An amount as the protocol writes it: an integer when whole, else "a/b"."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def ledger_json(seats: list[Chips], sections: dict[str, Chips]) -> dict[str, Any]:
    return {"seats": [chips_json(a) for a in seats],
            "sections": {b: chips_json(sections[b]) for b in BOARD}}


START_CHIPS = 50  # M22: start: 50 chips
ROTATIONS = 1  # M23: end: after 1 rotation


def play_session(setup: dict[str, Any]) -> tuple[list[Event], dict[str, Any]]:
    """A whole session from its chance outcomes (rules §10): the high cut, one rotation of
    deals passing to the left, the leftover split equally, ties sharing the win."""
    n = setup["players"]
    given = setup.get("ledger")
    seats: list[Chips] = ([chips(a) for a in given["seats"]] if given else [START_CHIPS] * n)
    sections: dict[str, Chips] = ({b: chips(given["sections"][b]) for b in BOARD} if given
                                  else dict.fromkeys(BOARD, 0))
    events: list[Event] = []
    drawing, dealer = list(range(n)), None
    for cards in setup.get("cut", []):  # the highest rank deals; the tied seats cut again
        ranks = [parse(c)[1] for c in cards]
        top = [s for s, r in zip(drawing, ranks, strict=True) if r == max(ranks)]
        dealer = top[0] if len(top) == 1 else None
        events.append({"kind": "cut", "draws": [{"seat": s, "card": c}
                                                for s, c in zip(drawing, cards, strict=True)],
                       "dealer": dealer})
        if dealer is not None:
            break
        drawing = top
    if dealer is None:
        raise ValueError("the cut given names no dealer")
    dealers: list[int] = []
    over = True
    for k in range(ROTATIONS * n):
        if k >= len(setup["deals"]):  # the deals given run out: the session stops here
            over = False
            break
        deal = Deal(n, dealer, seats, sections, setup["deals"][k], number=k + 1)
        deal.play()
        events.extend(deal.events)
        seats, sections = deal.seats, deal.sections
        dealers.append(dealer)
        dealer = (dealer + 1) % n
    winners: list[int] = []
    if over:
        for b in BOARD:  # M24: each section shared equally, exactly, board order
            if sections[b]:
                share = Fraction(sections[b]) / n
                for seat in range(n):
                    events.append({"kind": "split", "section": b, "seat": seat,
                                   "amount": chips_json(share)})
                    seats[seat] += share
                sections[b] = 0
        best = max(seats)
        winners = [s for s in range(n) if seats[s] == best]  # M25: ties share
        events.append({"kind": "session-end", "standings": [chips_json(a) for a in seats],
                       "winners": winners, "ledger": ledger_json(seats, sections)})
    final = {"ledger": ledger_json(seats, sections), "over": over, "to_move": None,
             "unused": 0, "deals": len(dealers), "dealers": dealers,
             "standings": [chips_json(a) for a in seats], "winners": winners,
             "eliminated": []}
    return events, final


STARTED = {"type": "started", "protocol": "boodle-protocol/2",  # referee: version 2
           "implementation": {"name": "python-michigan-auto", "version": "0.1.0",
                              "language": "Python"},
           "variants": [{"name": "michigan", "version": 1, "players": {"min": 3, "max": 8}}],
           "kinds": ["referee"], "features": ["referee", "session"]}


def answer(message: dict[str, Any]) -> dict[str, Any]:
    """The result of one run message: a referee deal or session, played to its end."""
    out: dict[str, Any] = {"type": "result", "id": message.get("id", "")}
    if message.get("kind") != "referee":
        return {**out, "status": "skipped", "reason": "this program plays referee cases only"}
    setup = message["setup"]
    try:
        if "deals" in setup:
            events, final = play_session(setup)
            return {**out, "status": "done", "events": events, "final": final}
        ledger = setup["ledger"]
        deal = Deal(setup["players"], setup["dealer"], [chips(a) for a in ledger["seats"]],
                    {b: chips(a) for b, a in ledger["sections"].items()}, setup["deal"])
        deal.play()
    except (KeyError, ValueError, TypeError) as exc:
        return {**out, "status": "error", "message": f"cannot play this setup: {exc!r}"}
    return {**out, "status": "done", "events": deal.events,
            "final": {"ledger": deal.ledger(), "over": True, "to_move": None, "unused": 0}}


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "stop":
            return 0
        reply = STARTED if message.get("type") == "start" else answer(message)
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
