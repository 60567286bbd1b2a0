"""The worked examples the seeds give, played by the reference interpreter beside the generated one.

A seed that works a position through (001 §07: "A entame 9♦, C détient et joue 10♦, A
détient J♦ et rejoue, B joue Q♦ et prend case de 4 …") is written here as data: the hands
the seats hold (every other card is in the widow), the dealer, and the cards played in
order.  :func:`seed_example_markdown` deals those hands with
:func:`boodle.engine.start_deal`, plays each card as the one legal move that plays it (a
card that is not a legal move is a build error: the seed and the interpreter disagree),
and renders the events as the generated example does, then the winner's takings as the
seed counts them (001 §07: 8 + 2 + 3 + 1 = 14 at the end plus 4 before, 18 gross).
"""

from __future__ import annotations

from dataclasses import dataclass

from boodle.docs.escape import md
from boodle.docs.example import _Page
from boodle.docs.templates import Templates
from boodle.docs.translate import localized, with_terms
from boodle.engine import apply, legal_moves, start_deal
from boodle.engine.events import Claim, DealCards, Event, GoOut, transfers_in
from boodle.engine.ledger import Ledger, SeatAccount
from boodle.engine.state import BidRange
from boodle.engine.trace import seat_name
from boodle.language.cards import Card, parse_card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset


@dataclass(frozen=True)
class SeedExample:
    """A seed's worked position: ``hands`` by seat (cards as written, ``"9♦ J♦"``), the
    ``dealer``'s seat, and the cards ``played`` in order (leads and plays)."""

    source: str
    dealer: int
    hands: tuple[str, ...]
    played: tuple[str, ...]


SEED_EXAMPLES: dict[str, SeedExample] = {
    "michigan": SeedExample(
        source="001_a6108fd72e47ea5f.txt §07",
        dealer=3,  # D deals, so A (the dealer's left) leads
        # A leads 9♦ and later plays J♦ (no lower diamond); C holds 10♦; B holds Q♦ and 3♣,
        # B's last card; K♦ is in the widow; at the end A, C, D hold 2, 3 and 1 cards
        hands=("9♦ J♦ 5♠ 6♥", "Q♦ 3♣", "10♦ 2♥ 7♠ 4♣", "8♣"),
        played=("9♦", "10♦", "J♦", "Q♦", "3♣"),
    ),
}
"""The seeds' worked examples, by the variant they illustrate."""


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.split())


def play_seed_example(ruleset: Ruleset, example: SeedExample) -> list[Event]:
    """Every event of the seed's position played through (antes and the deal first).

    Raises :class:`~boodle.language.errors.BoodleError` if a card the seed plays is not a
    legal move at its turn."""
    players = len(example.hands)
    ledger = Ledger.open(players, tuple(s.name for s in ruleset.board),
                         ruleset.session.start_chips)
    state, events = start_deal(ruleset, players, example.dealer, ledger,
                               hands=[_cards(h) for h in example.hands])
    out = list(events)
    for word in example.played:
        card = parse_card(word)
        moves = [mv for mv in legal_moves(ruleset, state)
                 if not isinstance(mv, BidRange) and getattr(mv, "card", None) == card]
        if len(moves) != 1:
            raise BoodleError(f"docs: {example.source} plays {word}, which is not a legal move "
                              f"of {ruleset.name} there", hint="the seed's example and the "
                              "rules disagree: check the hands in boodle/docs/seed_example.py")
        state, more = apply(ruleset, state, moves[0])
        out += more
    return out


def seed_example_markdown(ruleset: Ruleset, t: Templates) -> str:
    """The section of the worked-example page that plays the seed's example, or ``""``
    when no seed works an example of ``ruleset``."""
    example = SEED_EXAMPLES.get(ruleset.name)
    if example is None:
        return ""
    events = play_seed_example(ruleset, example)
    players = len(example.hands)
    page = _Page(localized(ruleset, t), t, players)
    for event in events:
        if isinstance(event, DealCards):  # the widow is the rest of the pack: say so
            page.event(event)
            listed = "- " + t.text("page.example_widow", cards=page.cards(event.widow))
            page.lines[page.lines.index(listed)] = "- " + t.text("page.example_seed_widow",
                                                                 n=len(event.widow))
            continue
        page.event(event)
    page.flush_antes()
    out = [f"## {t.text('page.example_seed_heading', source=md(example.source))}", "",
           t.text("page.example_seed_intro", source=md(example.source), players=players,
                  dealer=seat_name(example.dealer)), "", *page.lines, "",
           _tally(events, t), ""]
    return with_terms("\n".join(out), ruleset, t)


def _tally(events: list[Event], t: Templates) -> str:
    """The winner's takings as the seed counts them: claims during play, then the section
    and each opponent's payment on going out."""
    out = next(e for e in events if isinstance(e, GoOut))
    went_out = events.index(out)
    before = sum(int(e.amount) for e in events[:went_out]
                 if isinstance(e, Claim) and e.seat == out.seat)
    taken = [tr for e in events[went_out:] for tr in transfers_in(e)
             if tr.dst == SeatAccount(out.seat)]
    # the sections first, then each opponent's payment by seat, as the seed adds them up
    taken.sort(key=lambda tr: (isinstance(tr.src, SeatAccount),
                               tr.src.seat if isinstance(tr.src, SeatAccount) else 0))
    parts = [int(tr.amount) for tr in taken]
    end = sum(parts)
    return t.text("page.example_seed_count", seat=seat_name(out.seat), before=before,
                  parts=" + ".join(map(str, parts)), end=end, total=before + end)
