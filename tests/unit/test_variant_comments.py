"""What a built-in variant's comments say of its play is what it plays (issue 17).

A rules file explains its lines in comments ("the stops phase claims nothing", "with 4
players: 11, 11, 10, 10 and the widow 10").  The engine reads the lines, never the comments,
so a comment can go on saying what the file no longer does.  Each entry below quotes a
comment (the test fails if the file stops saying it, so the entry is revisited when the
comment changes) and states the checkable claim as a property of the events of random
deals, played with random legal moves at every allowed player count.  The expected values
are the comments' words (and the seeds they cite), not the engine's output.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from boodle.engine import apply, is_terminal, legal_moves, shuffled_deck, start_deal, to_move
from boodle.engine.events import (
    Ante,
    Claim,
    DealCards,
    Event,
    GoOut,
    Lead,
    Play,
    Stop,
    WidowExchange,
)
from boodle.engine.ledger import Ledger, SectionAccount
from boodle.engine.state import move_count, nth_move
from boodle.language.model import Ruleset
from boodle.language.variants import builtin_path, load

Deal = list[Event]
"""The events of one deal, antes to its end."""


def _deals(rules: Ruleset, players: int, count: int, seed: int) -> list[Deal]:
    """``count`` deals of ``rules`` with ``players`` players from an empty board, 50 chips a
    seat, dealer seat ``k % players``, each move drawn at random among the legal ones."""
    rng = random.Random(seed)
    names = tuple(s.name for s in rules.board)
    deals: list[Deal] = []
    for k in range(count):
        ledger = Ledger.open(players, names, 50)
        state, events = start_deal(rules, players, k % players, ledger,
                                   deck_order=shuffled_deck(rules, rng))
        while not is_terminal(state):
            assert to_move(state) is not None
            legal = legal_moves(rules, state)  # a range of bids counts each amount
            state, more = apply(rules, state, nth_move(legal, rng.randrange(move_count(legal))))
            events.extend(more)
        deals.append(events)
    return deals


def _split(deal: Deal) -> tuple[Deal, Deal]:
    """The events before the stops phase's first card, and from it on."""
    first = next((i for i, e in enumerate(deal) if isinstance(e, Lead | Play)), len(deal))
    return deal[:first], deal[first:]


def _winner(deal: Deal) -> int | None:
    return next((e.seat for e in deal if isinstance(e, GoOut)), None)


def _dealt(deal: Deal) -> DealCards:
    return next(e for e in deal if isinstance(e, DealCards))


# ---------------------------------------------------------------- the claims


def stops_phase_claims_only_the_winners_chien(deal: Deal) -> None:
    """Tripoli: "The stops phase claims nothing" ('claims: none'): from the first card of the
    stops phase on, the only claim is the Chien, by the player who goes out (004 phase 3 §5)."""
    _, play = _split(deal)
    for e in play:
        if isinstance(e, Claim):
            assert (e.section, e.seat) == ("chien", _winner(deal)), e


def ghost_hand_sections_are_not_collected(deal: Deal) -> None:
    """Tripoli: "sections of ghost-hand cards carry over (004)": a boodle whose card was dealt
    to the ghost hand is not claimed in the first phase."""
    before, _ = _split(deal)
    widow = {str(c) for c in _dealt(deal).widow}
    claimed = {e.section for e in before if isinstance(e, Claim)}
    assert not claimed & widow, (claimed & widow, widow)


def chien_taken_once(deal: Deal) -> None:
    """tripoli-chien-once: "the stops winner takes the Chien only if phase 1 did not"."""
    before, play = _split(deal)
    if any(isinstance(e, Claim) and e.section == "chien" for e in before):
        assert not any(isinstance(e, Claim) and e.section == "chien" for e in play)


def bids_go_to_the_chien(deal: Deal) -> None:
    """tripoli-ghost-auction: "the highest bidder pays into the Chien"."""
    for e in deal:
        if isinstance(e, WidowExchange) and e.transfer is not None:
            assert e.transfer.dst == SectionAccount("chien"), e


def holding_claims_nothing(deal: Deal) -> None:
    """Michigan, "claims: on play ... holding a card claims nothing" (001 §05): every claim
    follows the play of its card by the claimer, or is the kitty of the player who goes out."""
    last: dict[str, int] = {}
    for e in deal:
        if isinstance(e, Lead | Play):
            last[str(e.card)] = e.seat
        if isinstance(e, Claim):
            if e.section == "kitty":
                assert e.seat == _winner(deal), e
            else:
                assert last.get(e.section) == e.seat, e


def stops_at_ace_widow_or_played(deal: Deal) -> None:
    """Michigan: "stop: top rank, next card held by nobody # ace, or the next card is in the
    widow / already played"."""
    for e in deal:
        if isinstance(e, Stop):
            assert e.reason in ("top rank", "widow", "played"), e


def hands(*sizes: int) -> Callable[[Deal], None]:
    """The hand sizes in dealing order of one round (the widow where it is dealt), as a
    comment gives them for 4 players."""
    def check(deal: Deal) -> None:
        dealt = _dealt(deal)
        sizes_now = tuple(len(dealt.widow) if who is None else len(dealt.hands[who])
                          for who in dealt.order)
        assert sizes_now == sizes
    check.__doc__ = f"hands in dealing order: {sizes}"
    return check


def antes(**on: int) -> Callable[[Deal], None]:
    """What the antes put on each section from an empty board, as a comment gives it for 4
    players (``kitty=8``; ``every=5`` for every section)."""
    def check(deal: Deal) -> None:
        put: Counter[str] = Counter()
        for e in deal:
            if isinstance(e, Ante):
                assert isinstance(e.transfer.dst, SectionAccount)
                put[e.transfer.dst.name] += int(e.transfer.amount)
        for section, amount in put.items():
            assert amount == on.get(section, on.get("every", on.get("boodle"))), (section, put)
    check.__doc__ = f"antes: {on}"
    return check


@dataclass(frozen=True)
class Said:
    """A variant's comment (quoted verbatim from its file) and the property it claims."""

    variant: str
    comment: str
    check: Callable[[Deal], None]
    players: tuple[int, ...] = ()
    """The player counts the comment speaks of; every allowed count when empty."""
    occurs: Callable[[Deal], bool] | None = None
    """What must happen in at least one of the deals for the check to say anything."""


def _chien_in_phase_one(deal: Deal) -> bool:
    return any(isinstance(e, Claim) and e.section == "chien" for e in _split(deal)[0])


def _bid_paid(deal: Deal) -> bool:
    return any(isinstance(e, WidowExchange) and e.transfer is not None for e in deal)


def _boodle_in_the_ghost_hand(deal: Deal) -> bool:
    return any(str(c) in ("A♥", "K♥", "Q♥", "J♥", "10♥", "K♣", "Q♦", "J♠")
               for c in _dealt(deal).widow)


SAID = [
    Said("michigan", "with 4 players: 11, 11, 10, 10 and the widow 10",
         hands(11, 11, 10, 10, 10), (4,)),
    Said("michigan", "with 4 players, 4 on each boodle, 8 on the kitty",
         antes(boodle=4, kitty=8), (4,)),
    Said("michigan", "ace, or the next card is in the widow / already played",
         stops_at_ace_widow_or_played),
    Said("michigan", "claims: on play", holding_claims_nothing),
    Said("tripoli", "with 4 players the hands are ghost 11, left of dealer 11, then 10, 10, 10",
         hands(11, 11, 10, 10, 10), (4,)),
    Said("tripoli", "with 4 players each section gets 2 + 3 = 5", antes(every=5), (4,)),
    Said("tripoli", "The stops phase claims nothing", stops_phase_claims_only_the_winners_chien),
    Said("tripoli", "sections of ghost-hand cards carry over",
         ghost_hand_sections_are_not_collected, occurs=_boodle_in_the_ghost_hand),
    Said("tripoli-no-poker", "tripoli.boodle's", stops_phase_claims_only_the_winners_chien),
    Said("tripoli-equal-stakes", "with 4 players each of the eight sections receives 4",
         antes(every=4), (4,)),
    Said("tripoli-boodle-cards", "The first phase still", ghost_hand_sections_are_not_collected,
         occurs=_boodle_in_the_ghost_hand),
    Said("tripoli-boodle-cards", "tripoli.boodle's", stops_phase_claims_only_the_winners_chien),
    Said("tripoli-chien-once", "the stops winner takes the Chien only if phase 1 did not",
         chien_taken_once, occurs=_chien_in_phase_one),
    Said("tripoli-ghost-auction", "the highest bidder pays into the Chien", bids_go_to_the_chien,
         occurs=_bid_paid),
    Said("tripoli-ghost-auction", "Bids go to the Chien, which the stops winner",
         stops_phase_claims_only_the_winners_chien),
]


def _flat(text: str) -> str:
    """A rules file's comments as one line: the '#' and line breaks gone."""
    return " ".join(line.split("#", 1)[1].strip() for line in text.splitlines() if "#" in line)


@pytest.mark.parametrize("said", SAID, ids=lambda s: f"{s.variant}: {s.comment[:40]}")
def test_the_comment_is_what_the_variant_plays(said: Said) -> None:
    text = builtin_path(said.variant).read_text(encoding="utf-8")
    assert said.comment in text or said.comment in _flat(text), (
        f"{said.variant}.boodle no longer says {said.comment!r}: revisit this entry")
    rules = load(said.variant)
    counts = said.players or tuple(range(rules.players.low, rules.players.high + 1))
    seen = False
    for players in counts:
        for deal in _deals(rules, players, 6 if said.players else 4, seed=players):
            said.check(deal)
            seen = seen or said.occurs is None or said.occurs(deal)
    assert seen, "no deal reached the case the comment speaks of: play more deals"
