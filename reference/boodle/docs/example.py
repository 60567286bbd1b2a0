"""A worked example: one deal played by the reference interpreter, as a readable page.

The deal is :func:`boodle.session.run.play_session` with ``deals=1`` from a fixed
seed (random legal players, seeded per seat), so the page changes only when
the rules or the interpreter do.  The ledger is rebuilt by replaying every
event's transfers (:func:`boodle.engine.events.transfers_in`) and printed after each
claim and at the end; cards print as symbols, red suits in red.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boodle.docs.escape import md
from boodle.docs.templates import Templates
from boodle.engine.events import (
    Ante,
    CarryOver,
    Claim,
    Cut,
    DealCards,
    DealEnd,
    DealStart,
    Event,
    FlipColour,
    GoOut,
    Lead,
    Pass,
    Payment,
    Penalty,
    Play,
    Stop,
    StopPaid,
    transfers_in,
)
from boodle.engine.ledger import Account, Ledger, SeatAccount
from boodle.engine.trace import render_text, seat_name
from boodle.language.cards import SUIT_COLOUR, Card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.session.run import play_session

SEED = 1
"""The fixed seed of every worked example."""


def example_players(ruleset: Ruleset) -> int:
    """Four players where the variant allows them, else its minimum."""
    return 4 if 4 in ruleset.players else ruleset.players.low


def card_html(card: Card) -> str:
    """A card as its symbol text, red suits wrapped in ``<span class="card-red">``."""
    return f'<span class="card-red">{card}</span>' if SUIT_COLOUR[card.suit] == "red" \
        else str(card)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_html(c) for c in cards) or "—"


class _Page:
    def __init__(self, ruleset: Ruleset, t: Templates, players: int) -> None:
        self.r, self.t = ruleset, t
        self.ledger = Ledger.open(players, tuple(s.name for s in ruleset.board),
                                  ruleset.session.start_chips)
        self.lines: list[str] = []
        self.antes: list[Ante] = []
        self.run = False  # a run is going: stops and claims nest under its plays

    def who(self, account: Account) -> str:
        if isinstance(account, SeatAccount):
            return seat_name(account.seat)
        return self.section(account.name)

    def section(self, name: str) -> str:
        """A section's label as Markdown text (the rules file's words, escaped)."""
        return md(next((s.label for s in self.r.board if s.name == name), name))

    def ledger_line(self) -> str:
        seats = ", ".join(f"{seat_name(i)} {v}" for i, v in enumerate(self.ledger.seats))
        board = ", ".join(f"{self.section(n)} {v}" for n, v in self.ledger.sections)
        return self.t.text("page.example_ledger", seats=seats, board=board)

    def say(self, key: str, indent: int = 1, **kw: Any) -> None:
        self.item(self.t.text(key, **kw), indent)

    def item(self, text: str, indent: int = 1) -> None:
        """A list item; ``indent`` 1 nests it under the run's plays when a run is going."""
        self.lines.append("    " * (indent if self.run else 0) + "- " + text)

    def flush_antes(self) -> None:
        if not self.antes:
            return
        paid: dict[str, int] = {}
        put: dict[str, int] = {}
        for a in self.antes:
            src, dst = self.who(a.transfer.src), self.who(a.transfer.dst)
            paid[src] = paid.get(src, 0) + int(a.transfer.amount)
            put[dst] = put.get(dst, 0) + int(a.transfer.amount)
        self.lines.append(self.t.text(
            "page.example_antes", who=", ".join(f"{k} {v}" for k, v in paid.items()),
            where=", ".join(f"{k} {v}" for k, v in put.items())))
        self.lines.append("")
        self.antes = []

    def event(self, e: Event) -> None:
        for transfer in transfers_in(e):
            self.ledger, _ = self.ledger.transfer(transfer.src, transfer.dst, transfer.amount,
                                                  transfer.reason)
        if isinstance(e, Ante):
            self.antes.append(e)
            return
        self.flush_antes()
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)
        elif type(e) not in _SILENT:  # an event without a template: the trace's own words
            text = "; ".join(render_text([e]).split("\n")).strip("; ").replace(":;", ":")
            if text:
                self.item(md(" ".join(text.split())))


def _deal_start(p: _Page, e: DealStart) -> None:
    p.lines += [p.t.text("page.example_deal", number=e.number or 1,
                         dealer=seat_name(e.dealer)), ""]


def _dealt(p: _Page, e: DealCards) -> None:
    p.lines += [f"**{p.t.text('page.example_hands')}**", ""]
    p.lines += [f"- {p.t.text('page.example_hand', seat=seat_name(s), cards=_cards(h))}"
                for s, h in enumerate(e.hands)]
    p.lines += [f"- {p.t.text('page.example_widow', cards=_cards(e.widow))}", "",
                f"**{p.t.text('page.example_play')}**", ""]


def _lead(p: _Page, e: Lead) -> None:
    p.run = True
    key = "page.example_restart" if e.restart else "page.example_lead"
    p.lines.append("- " + p.t.text(key, seat=seat_name(e.seat), card=card_html(e.card)))


def _stop(p: _Page, e: Stop) -> None:
    key = "page.example_stop_" + e.reason.replace(" ", "_")
    nxt = card_html(e.next_card) if e.next_card else ""
    p.say(key, card=card_html(e.card), next=nxt)


def _claim(p: _Page, e: Claim) -> None:
    text = p.t.text("page.example_claim", seat=seat_name(e.seat), section=p.section(e.section),
                    amount=int(e.amount))
    p.item(f"{text}<br><small>{p.ledger_line()}</small>")


def _payment(p: _Page, e: Payment) -> None:
    key = "page.example_excused" if e.excused else "page.example_payment"
    p.say(key, payer=seat_name(e.payer), payee=p.who(e.payee), amount=int(e.amount),
          cards=e.cards_left)


def _end(p: _Page, e: DealEnd) -> None:
    p.run = False
    key = "page.example_end_win" if e.winner is not None else "page.example_end_none"
    p.lines += ["", p.t.text(key, seat=seat_name(e.winner) if e.winner is not None else ""),
                "", p.ledger_line()]


_HANDLERS: dict[type, Callable[[_Page, Any], None]] = {
    DealStart: _deal_start,
    DealCards: _dealt,
    Lead: _lead,
    Play: lambda p, e: p.say("page.example_follow", 0, seat=seat_name(e.seat),
                             card=card_html(e.card)),
    Stop: _stop,
    Claim: _claim,
    Pass: lambda p, e: p.say("page.example_pass", 0, seat=seat_name(e.seat)),
    FlipColour: lambda p, e: p.say("page.example_flip"),
    Penalty: lambda p, e: p.say("page.example_penalty", seat=seat_name(e.seat),
                                amount=int(e.transfer.amount), to=p.who(e.transfer.dst),
                                fault=md(e.fault)),
    StopPaid: lambda p, e: p.say("page.example_bonus", seat=seat_name(e.seat),
                                 amount=int(e.transfer.amount), source=p.who(e.transfer.src)),
    GoOut: lambda p, e: p.say("page.example_out", seat=seat_name(e.seat)),
    Payment: _payment,
    DealEnd: _end,
}


_SILENT: tuple[type, ...] = (Cut, CarryOver)
"""Events the page leaves out: the first dealer's cut, carry-over (the ledger shows it)."""


def example_markdown(ruleset: Ruleset, t: Templates) -> str:
    """The body of the worked-example page (Markdown), or a plain note if it cannot be played."""
    players = example_players(ruleset)
    intro = t.text("page.example_intro", players=players, seed=SEED)
    try:
        result = play_session(ruleset, players, SEED, deals=1)
    except BoodleError as exc:
        return t.text("page.example_unavailable", why=md(exc.message)) + "\n"
    page = _Page(ruleset, t, players)
    for event in result.events:
        page.event(event)
    page.flush_antes()
    return intro + "\n\n" + "\n".join(page.lines).strip() + "\n"
