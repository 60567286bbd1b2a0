"""A stops phase that claims nothing (spec §6.6 'claims: none'; issue 18 item 9) and Tripoli
(004), whose stops phase is one: its sets are paid to holders in phase 1 only, and the stops
winner takes the Chien (the bids of a ghost-hand auction included) and the cards."""

from __future__ import annotations

import pytest

from boodle.engine import legal_moves, start_deal
from boodle.engine.events import Claim, Event, GoOut, Lead, Play, WidowExchange
from boodle.engine.ledger import Ledger, SectionAccount, seat, section
from boodle.engine.stages.stops import phase_of
from boodle.engine.state import LeadMove
from boodle.engine.strategies import greedy
from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import StopsPhase
from boodle.language.variants import load
from boodle.session.run import play_session
from rules_by_hand import cards, michigan, with_phase

MICHIGAN_LIKE = """variant probe extends michigan {
  phase play is stops {
    claims: none
    going out: ends deal, takes A♥, takes K♣, takes Q♦, takes J♠, takes kitty, 1 per card to winner
  }
}
"""


def build(text: str) -> object:
    return load_text(text, "probe.boodle")


def stops(ruleset: object) -> StopsPhase:
    return next(p for p in ruleset.phases if isinstance(p, StopsPhase))  # type: ignore[attr-defined]


def test_claims_none_is_read_into_the_model() -> None:
    assert stops(build(MICHIGAN_LIKE)).claims == "none"
    assert stops(load("tripoli")).claims == "none"
    assert stops(load("michigan")).claims == "on play"


def test_a_section_that_nothing_can_take_is_refused_at_the_claims_line() -> None:
    text = MICHIGAN_LIKE.replace("takes Q♦, takes J♠, ", "")
    with pytest.raises(BoodleError) as err:
        build(text)
    e = err.value
    assert "nothing takes sections Q♦, J♠" in e.message
    assert e.span is not None and (e.span.line, e.span.column) == (3, 5)  # 'claims: none'
    assert e.hint is not None and "pays: Q♦, J♠" in e.hint and "claims: on play" in e.hint


def test_forfeit_boodles_is_refused_where_nothing_is_claimed() -> None:
    text = MICHIGAN_LIKE.replace(
        "    claims: none\n",
        "    claims: none\n    penalty: lead not lowest, pay 1 to each opponent, forfeit boodles\n")
    with pytest.raises(BoodleError) as err:
        build(text)
    assert "forfeit boodles" in err.value.message and err.value.span is not None
    assert err.value.span.line == 4
    assert err.value.hint is not None and "drop ', forfeit boodles'" in err.value.hint


def _stops_claims(events: list[Event]) -> list[tuple[Claim, bool]]:
    """The claims made once the stops phase has begun (its first lead), each with whether a
    player had gone out before it."""
    out, started, gone = [], False, False
    for e in events:
        started = started or isinstance(e, Lead)
        gone = gone or isinstance(e, GoOut)
        if started and isinstance(e, Claim):
            out.append((e, gone))
    return out


@pytest.mark.parametrize("name", ["tripoli", "tripoli-ghost-auction", "tripoli-chien-once",
                                  "tripoli-no-poker"])
def test_in_tripolis_stops_phase_only_the_winner_takes_and_only_what_going_out_takes(
        name: str) -> None:
    """004 phase 3 §5: the stops winner collects the Chien and 1 chip per card; no rule of
    phase 3 pays a section for playing its cards (the variant files say so too)."""
    rules = load(name)
    takes = set(stops(rules).going_out.takes)
    seen = 0
    for seed in range(40):
        result = play_session(rules, 3 + seed % 4, seed, deals=1)
        winner = next((e.seat for e in result.events if isinstance(e, GoOut)), None)
        for claim, after_going_out in _stops_claims(list(result.events)):
            assert after_going_out and claim.seat == winner, (seed, claim)
            assert claim.section in takes, (seed, claim)
            seen += 1
    assert seen > 0  # the winner's Chien was looked at


def test_the_ghost_auctions_bids_go_to_the_stops_winner_seed_49() -> None:
    """Issue 17 error 1: `boodle play tripoli-ghost-auction --players 4 --seed 49 --deals 1`
    gave the Chien, with the auction's bids on it, to the player of 8-9-10♦. 004: the bids
    go to the Chien and the stops winner collects it. Expected: every chip on the Chien after
    the exchange (nothing claims it in between) goes to the winner, at going out."""
    result = play_session(load("tripoli-ghost-auction"), 4, 49, deals=1)
    events = list(result.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, WidowExchange))
    chien = 0  # what the antes, the hearts phase and the bids leave on the Chien
    for e in events[:at + 1]:
        t = getattr(e, "transfer", None)
        if t is not None and isinstance(t.dst, SectionAccount) and t.dst.name == "chien":
            chien += t.amount
        if t is not None and isinstance(t.src, SectionAccount) and t.src.name == "chien":
            chien -= t.amount
    bid = events[at].transfer  # type: ignore[attr-defined]
    assert bid is not None and chien >= bid.amount > 0
    claims = _stops_claims(events)
    winner = next(e.seat for e in events if isinstance(e, GoOut))
    assert [(c.seat, c.section, c.transfer.amount) for c, _ in claims] == [
        (winner, "chien", chien)]
    players_of_8_9_10 = {e.seat for e in events if isinstance(e, Lead | Play)
                         and str(e.card) in ("8♦", "9♦", "10♦")}
    assert len(players_of_8_9_10) == 1 and winner not in players_of_8_9_10


def test_greedy_does_not_chase_claims_that_the_phase_does_not_make() -> None:
    """Under 'claims: none' a play claims nothing, so the greedy player does not prefer a
    boodle card for its chips: it leads from its longest suit, as on an empty board."""
    on_play = michigan()
    none = with_phase(on_play, claims="none")
    ledger = Ledger.open(3, tuple(s.name for s in on_play.board), 50)
    ledger, _ = ledger.transfer(seat(0), section("Q♦"), 10, "carry")
    hands = [list(cards("Q♦ 2♣ 3♣ 5♣")), list(cards("5♠")), list(cards("6♠"))]
    for rules, lead in ((on_play, "Q♦"), (none, "2♣")):
        state, _ = start_deal(rules, 3, 2, ledger, hands=hands)
        assert phase_of(rules, state).claims == stops(rules).claims
        move = greedy(rules, state, legal_moves(rules, state))
        assert isinstance(move, LeadMove) and str(move.card) == lead


def test_tripolis_pages_say_what_is_played() -> None:
    """Issue 17 error 3: the rules pages of Tripoli said things the rules do not."""
    from boodle.docs.templates import load as templates
    from boodle.docs.variant_page import standalone_markdown

    page = standalone_markdown(load("tripoli"), templates("en"))
    assert "does not deal this variant yet" not in page
    assert "| dealer pays | each other pays |" in page  # 004 set-up §2: 2 and 1
    assert "| 4 | 11 · 10 · 10 · 10 | 11 | 5 | 16 | 8 |" in page  # 5 on each of 8 sections
    assert "Holding a card claims nothing" not in page
    assert "in the Stops phase" in page  # the Chien by going out …
    assert "by playing" not in page  # … and nothing by playing
    auction = standalone_markdown(load("tripoli-ghost-auction"), templates("en"))
    assert "(at least 1 chip)" in auction and "(at least 0 chips)" not in auction  # §5.4
    line = next(x for x in auction.splitlines() if "just before the Stops phase" in x)
    assert "default, not written" not in line and "tripoli-ghost-auction.boodle:" in line
