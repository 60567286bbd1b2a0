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
from boodle.docs.rules_text import card_html
from boodle.docs.templates import Templates
from boodle.docs.translate import localized, with_terms
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
    transfers_in,
)
from boodle.engine.ledger import Account, Ledger, SeatAccount
from boodle.engine.trace import said_before, seat_name
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.session.run import play_session

SEED = 1
"""The fixed seed of every worked example."""


def example_players(ruleset: Ruleset) -> int:
    """Four players where the variant allows them, else its minimum."""
    return 4 if 4 in ruleset.players else ruleset.players.low


def _cards(cards: tuple[Card, ...], t: Templates) -> str:
    return " ".join(card_html(c, t) for c in cards) or "—"


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

    def phase(self, name: str) -> str:
        """A phase's label as Markdown text (the rules file's words, escaped)."""
        return md(next((p.label for p in self.r.phases if p.name == name), name))

    def ledger_line(self) -> str:
        seats = ", ".join(f"{seat_name(i)} {v}" for i, v in enumerate(self.ledger.seats))
        board = ", ".join(f"{self.section(n)} {v}" for n, v in self.ledger.sections)
        return self.t.text("page.example_ledger", seats=seats, board=board)

    def card(self, card: Card | None) -> str:
        return card_html(card, self.t) if card is not None else ""

    def cards(self, cards: tuple[Card, ...]) -> str:
        return _cards(cards, self.t)

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
        elif type(e) not in _SILENT:
            raise BoodleError(f"docs: the worked example has no text for the event "
                              f"'{e.kind}'", hint="add a handler and its page.example_* "
                              "templates in boodle/docs/example.py")


def _deal_start(p: _Page, e: DealStart) -> None:
    p.lines += [p.t.text("page.example_deal", number=e.number or 1,
                         dealer=seat_name(e.dealer)), ""]


def _dealt(p: _Page, e: DealCards) -> None:
    p.lines += [f"**{p.t.text('page.example_hands')}**", ""]
    p.lines += [f"- {p.t.text('page.example_hand', seat=seat_name(s), cards=p.cards(h))}"
                for s, h in enumerate(e.hands)]
    p.lines += [f"- {p.t.text('page.example_widow', cards=p.cards(e.widow))}", "",
                f"**{p.t.text('page.example_play')}**", ""]


def _lead(p: _Page, e: Lead) -> None:
    p.run = True
    key = "page.example_restart" if e.restart else "page.example_lead"
    p.lines.append("- " + p.t.text(key, seat=seat_name(e.seat), card=p.card(e.card)))


def _stop(p: _Page, e: Stop) -> None:
    key = "page.example_stop_" + e.reason.replace(" ", "_")
    p.say(key, card=p.card(e.card), next=p.card(e.next_card))


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


def _drawn(p: _Page, e: BoodlesDrawn) -> None:
    p.say("page.example_drawn", draws=", ".join(f"{p.section(n)} {p.card(c)}" for n, c in e.draws))


def _first_dealt(p: _Page, e: FirstDealt) -> None:
    p.say("page.example_first_dealt", rank=p.t.rank(e.rank), dealer=seat_name(e.dealer),
          dealt=", ".join(f"{seat_name(s)} {p.card(c)}" for s, c in e.dealt))


def _showdown(p: _Page, e: Showdown) -> None:
    if not e.hands:  # every other player folded (spec §8.3): nobody shows
        best = ", ".join(seat_name(s) for s in e.winners) or p.t.text("page.example_nobody")
        p.say("page.example_uncontested", phase=p.phase(e.phase), best=best)
        return
    hands = p.t.text("page.example_list_sep").join(
        p.t.text("page.example_shows", seat=seat_name(s), cards=p.cards(h.cards),
                 hand=p.t.text(f"page.poker.{h.category}")) for s, h in e.hands)
    best = ", ".join(seat_name(s) for s in e.winners) or p.t.text("page.example_nobody")
    p.say("page.example_showdown", phase=p.phase(e.phase), hands=hands, best=best)


def _shown(p: _Page, e: WidowShown) -> None:
    who = p.t.text("page.example_every_player") if len(e.seats) > 1 else seat_name(e.seats[0])
    p.say("page.example_widow_shown", who=who, cards=p.cards(e.cards))


def _exchange(p: _Page, e: WidowExchange) -> None:
    paid = "" if e.transfer is None else p.t.text(
        "page.example_exchange_paid", amount=int(e.transfer.amount), to=p.who(e.transfer.dst))
    p.say("page.example_exchange", seat=seat_name(e.seat),
          how=p.t.text(f"page.example_exchange_how.{e.how}"), paid=paid, taken=p.cards(e.taken),
          discard=p.t.text(f"page.example_exchange_discard.{e.discard}"),
          discarded=p.cards(e.discarded))


_HANDLERS: dict[type, Callable[[_Page, Any], None]] = {
    BoodlesDrawn: _drawn,
    FirstDealt: _first_dealt,
    TurnUp: lambda p, e: p.say("page.example_turn_up", card=p.card(e.card), trumps=e.trump),
    Showdown: _showdown,
    WidowShown: _shown,
    WidowOffered: lambda p, e: p.say("page.example_widow_offered", seat=seat_name(e.seat)),
    WidowPass: lambda p, e: p.say(f"page.example_widow_pass.{e.step}", seat=seat_name(e.seat)),
    WidowBid: lambda p, e: p.say("page.example_widow_bid", seat=seat_name(e.seat),
                                 amount=e.amount),
    WidowWithdrawn: lambda p, e: p.say("page.example_widow_withdrawn", seat=seat_name(e.seat),
                                       amount=e.amount),
    WidowExchange: _exchange,
    WidowUnsold: lambda p, e: p.say("page.example_widow_unsold"),
    Bet: lambda p, e: p.say(f"page.example_bet.{e.action}", seat=seat_name(e.seat),
                            amount=0 if e.transfer is None else int(e.transfer.amount),
                            level=e.level),
    Misdeal: lambda p, e: p.say("page.example_misdeal", n=len(e.transfers),
                                dealer=seat_name(e.dealer)),
    PhaseSkipped: lambda p, e: p.say("page.example_phase_skipped", phase=p.phase(e.phase)),
    Eliminated: lambda p, e: p.say("page.example_eliminated", seat=seat_name(e.seat)),
    Split: lambda p, e: p.say("page.example_split", seat=seat_name(e.seat),
                              amount=int(e.transfer.amount), section=p.section(e.section)),
    DealStart: _deal_start,
    DealCards: _dealt,
    Lead: _lead,
    Play: lambda p, e: p.say("page.example_follow", 0, seat=seat_name(e.seat),
                             card=p.card(e.card)),
    Stop: _stop,
    Claim: _claim,
    Pass: lambda p, e: p.say("page.example_pass", 0, seat=seat_name(e.seat)),
    FlipColour: lambda p, e: p.say("page.example_flip"),
    Penalty: lambda p, e: p.say("page.example_penalty", seat=seat_name(e.seat),
                                amount=int(e.transfer.amount), to=p.who(e.transfer.dst),
                                fault=p.t.text(f"page.example_fault.{e.fault}")),
    StopPaid: lambda p, e: p.say("page.example_bonus", seat=seat_name(e.seat),
                                 amount=int(e.transfer.amount), source=p.who(e.transfer.src)),
    GoOut: lambda p, e: p.say("page.example_out", seat=seat_name(e.seat)),
    Payment: _payment,
    DealEnd: _end,
}


_SILENT: tuple[type, ...] = (Cut, CarryOver, SessionEnd)
"""Events the page leaves out: the first dealer's cut, carry-over (the ledger shows it), the
session's end (the page shows one deal, and its ledger)."""


def example_markdown(ruleset: Ruleset, t: Templates) -> str:
    """The body of the worked-example page (Markdown), or a plain note if it cannot be played."""
    players = example_players(ruleset)
    intro = t.text("page.example_intro", players=players, seed=SEED)
    try:
        result = play_session(ruleset, players, SEED, deals=1)
    except BoodleError as exc:
        return t.text("page.example_unavailable", why=md(exc.message)) + "\n"
    page = _Page(localized(ruleset, t), t, players)
    before: Event | None = None
    for event in result.events:
        if not said_before(event, before):  # the trace's rule: a happening said once
            page.event(event)
        before = event
    page.flush_antes()
    return with_terms(intro + "\n\n" + "\n".join(page.lines).strip() + "\n", ruleset, t)
