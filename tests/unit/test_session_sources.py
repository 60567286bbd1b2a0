"""A session driven by explicit sources (spec §3, §5.1, §10): the draw, the cut, the decks.

The seeded session of ``boodle play`` and the explicit one of a conformance
``session`` case are the same code (:class:`boodle.session.run.SessionRun`); only
where the chance outcomes come from differs.  Values are worked out by hand
from the rules (each test says how).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from boodle.conformance.generate import recording
from boodle.engine.events import BoodlesDrawn, Cut, FirstDealt, SessionEnd
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Move
from boodle.engine.strategies import Strategy, make
from boodle.engine.trace import render_jsonl
from boodle.language.cards import parse_card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.language.variants import load
from boodle.session.run import (
    DealCards,
    ExplicitSources,
    SeededSources,
    SessionRun,
    first_dealer,
    play_session,
)
from boodle.session.second_pack import bind_drawn
from rules_by_hand import michigan

MICHIGAN = michigan()


def cards(text: str) -> tuple:
    return tuple(parse_card(c) for c in text.split())


def one_card_deals(*hands: str, ruleset: Ruleset = MICHIGAN) -> tuple[DealCards, ...]:
    """Deals given as hands, one string of hands per deal ("2♣|3♦|4♦"), the rest the widow."""
    out = []
    for deal in hands:
        held = [cards(h) for h in deal.split("|")]
        rest = tuple(c for c in ruleset.deck.cards() if not any(c in h for h in held))
        out.append(DealCards(hands=tuple(held), widow=rest))
    return tuple(out)


def play(run: SessionRun) -> list:
    events = list(run.opening)
    while run.more_deals():
        events.extend(run.next_deal())
    events.extend(run.finish())
    return events


class Recorder(SeededSources):
    """Seeded sources that keep what they gave."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.cuts: list[tuple] = []
        self.decks: list[DealCards] = []
        self.faced_cards: list = []
        self.drawn: tuple = ()

    def draw(self, ruleset, count):  # type: ignore[no-untyped-def]
        self.drawn = tuple(super().draw(ruleset, count))
        return self.drawn

    def cut(self, ruleset, seats):  # type: ignore[no-untyped-def]
        self.cuts.append(tuple(super().cut(ruleset, seats)))
        return self.cuts[-1]

    def faced(self, ruleset):  # type: ignore[no-untyped-def]
        for card in super().faced(ruleset):
            self.faced_cards.append(card)
            yield card

    def deal(self, ruleset, number):  # type: ignore[no-untyped-def]
        self.decks.append(super().deal(ruleset, number))
        return self.decks[-1]


def replaying(decisions: list[Move]) -> Strategy:
    def choose(ruleset: Ruleset, state: DealState, legal: tuple[Move, ...]) -> Move:
        return legal[0] if len(legal) == 1 else decisions.pop(0)
    return choose


@pytest.mark.parametrize("variant,players,seed", [
    ("michigan", 4, 3), ("pope-joan", 3, 5), ("michigan-random-boodles", 5, 1),
    ("probe-elimination", 4, 2), ("tripoli", 3, 9)])
def test_a_seeded_session_replayed_from_its_recorded_sources_is_the_same(
        variant: str, players: int, seed: int) -> None:
    ruleset = load(variant) if variant != "probe-elimination" else _probe(variant)
    rec = Recorder(str(seed))
    decisions: list[Move] = []
    movers = [recording(make("random", random.Random(f"{seed}:seat:{i}")), decisions)
              for i in range(players)]
    seeded = play(SessionRun(ruleset, players, seed, movers, sources=rec))
    assert render_jsonl(seeded) == render_jsonl(play_session(ruleset, players, seed).events)
    explicit = ExplicitSources(drawn=rec.drawn, cuts=tuple(rec.cuts),
                               faced_cards=tuple(rec.faced_cards), deals=tuple(rec.decks))
    again = play(SessionRun(ruleset, players, "unused", [replaying(decisions)] * players,
                            sources=explicit))
    assert render_jsonl(again) == render_jsonl(seeded) and not decisions


def _probe(name: str) -> Ruleset:
    from boodle.conformance.paths import load_variant
    return load_variant(name)


def test_the_cut_ties_on_kings_and_the_tied_seats_cut_again() -> None:
    # K♠ and K♥ tie for highest (suits do not break ties, spec §5.1); A and B cut again:
    # the Q♦ beats the 3♣, so B (seat 1) deals
    sources = ExplicitSources(cuts=(cards("K♠ K♥ 5♦"), cards("3♣ Q♦")))
    run = SessionRun(MICHIGAN, 3, 0, sources=sources)
    assert run.dealer == 1
    assert run.opening == [
        Cut(((0, parse_card("K♠")), (1, parse_card("K♥")), (2, parse_card("5♦"))), None),
        Cut(((0, parse_card("3♣")), (1, parse_card("Q♦"))), 1)]
    sources.check_used()


def test_an_ace_low_deck_cuts_the_king_highest() -> None:
    ruleset = load("pope-joan")
    low = replace(ruleset, deal=replace(ruleset.deal, first_dealer="high cut"))
    # Pope Joan ranks A 2 … K: the K♣ beats the A♠
    run = SessionRun(low, 3, 0, sources=ExplicitSources(cuts=(cards("A♠ K♣ 10♥"),)))
    assert run.dealer == 1


def test_a_cut_that_ties_with_no_further_round_or_leaves_rounds_over_is_refused() -> None:
    with pytest.raises(BoodleError, match="round 2"):
        SessionRun(MICHIGAN, 3, 0, sources=ExplicitSources(cuts=(cards("K♠ K♥ 5♦"),)))
    with pytest.raises(BoodleError, match="3 seats draw, 2 cards"):
        SessionRun(MICHIGAN, 3, 0, sources=ExplicitSources(cuts=(cards("K♠ K♥"),)))
    sources = ExplicitSources(cuts=(cards("A♠ K♥ 5♦"), cards("2♣ 3♣")))
    SessionRun(MICHIGAN, 3, 0, sources=sources)
    with pytest.raises(BoodleError, match="known after 1"):
        sources.check_used()


def test_the_first_knave_dealt_face_up_chooses_the_dealer() -> None:
    # dealt from A clockwise: A 4♣, B 9♥, C K♠, A 2♦, B J♥: B deals; the J♣ is not dealt
    sources = ExplicitSources(faced_cards=cards("4♣ 9♥ K♠ 2♦ J♥ J♣"))
    run = SessionRun(load("pope-joan"), 3, 0, sources=sources)
    assert run.dealer == 1
    [event] = run.opening
    assert isinstance(event, FirstDealt) and event.rank == "J"
    assert [(s, str(c)) for s, c in event.dealt] == [
        (0, "4♣"), (1, "9♥"), (2, "K♠"), (0, "2♦"), (1, "J♥")]
    with pytest.raises(BoodleError, match="no J"):
        SessionRun(load("pope-joan"), 3, 0, sources=ExplicitSources(faced_cards=cards("4♣ 9♥")))


def test_first_dealer_from_a_generator_is_unchanged_for_simulate() -> None:
    # the public function simulate uses still draws from one generator, a fresh shuffle a round
    rng, again = random.Random(4), random.Random(4)
    dealer, events = first_dealer(MICHIGAN, 5, rng)
    expected = SessionRun(MICHIGAN, 5, 0, sources=ExplicitSources(cuts=tuple(
        tuple(c for _, c in e.draws) for e in events if isinstance(e, Cut)))).dealer
    assert dealer == expected
    assert first_dealer(MICHIGAN, 5, again) == (dealer, events)


def test_drawn_boodles_are_bound_in_board_order_before_the_cut() -> None:
    ruleset = load("michigan-random-boodles")
    sources = ExplicitSources(drawn=cards("7♣ 2♥ 9♠ 5♦"), cuts=(cards("K♣ 3♦ 8♥"),))
    run = SessionRun(ruleset, 3, 0, sources=sources)
    drawn, cut = run.opening
    assert isinstance(drawn, BoodlesDrawn) and isinstance(cut, Cut) and cut.dealer == 0
    assert [(n, str(c)) for n, c in drawn.draws] == [
        ("first", "7♣"), ("second", "2♥"), ("third", "9♠"), ("fourth", "5♦")]
    assert [str(s.cards[0]) for s in run.ruleset.board[:4]] == ["7♣", "2♥", "9♠", "5♦"]
    with pytest.raises(BoodleError, match="3 are given"):
        SessionRun(ruleset, 3, 0, sources=ExplicitSources(drawn=cards("7♣ 2♥ 9♠")))
    with pytest.raises(BoodleError, match="not 1"):
        bind_drawn(ruleset, cards("7♣"))


def test_a_session_of_given_deals_dealt_left_and_split_at_the_end() -> None:
    # B deals first (cut), then C, A.  Each deal the seat left of the dealer holds one card,
    # leads it and goes out: antes 6 each, the winner takes the kitty 6 and 1 per card.
    # Deal 1 (C; A holds 3, B 1): A 41, B 43, C 54.  Deal 2 (A; B 2, C 4): A 47, B 35,
    # C 44.  Deal 3 (B; C 1, A 2): A 39, B 38, C 37.  Boodles 9 each: 12 to each seat.
    sources = ExplicitSources(
        cuts=(cards("K♠ K♥ 5♦"), cards("3♣ Q♦")),
        deals=one_card_deals("3♦ 4♦ 5♦|3♥|2♣", "2♠|4♥ 5♥|6♥ 7♥ 8♥ 9♥", "6♠ 7♠|2♦|5♠"))
    run = SessionRun(MICHIGAN, 3, 0, sources=sources)
    events = play(run)
    assert run.dealers == [1, 2, 0] and run.played == 3 and run.over and not run.stopped
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.standings == (51, 50, 49) and end.winners == (0,)


def test_when_the_given_deals_run_out_the_session_stops_without_its_end() -> None:
    # the same session with two deals given: it stops before deal 3, nothing is split
    sources = ExplicitSources(
        cuts=(cards("K♠ K♥ 5♦"), cards("3♣ Q♦")),
        deals=one_card_deals("3♦ 4♦ 5♦|3♥|2♣", "2♠|4♥ 5♥|6♥ 7♥ 8♥ 9♥"))
    run = SessionRun(MICHIGAN, 3, 0, sources=sources)
    events = play(run)
    assert run.stopped and not run.over and run.played == 2
    assert not any(isinstance(e, SessionEnd) for e in events)
    assert run.ledger == Ledger((47, 35, 44), (("A♥", 6), ("K♣", 6), ("Q♦", 6), ("J♠", 6),
                                               ("kitty", 0)))
