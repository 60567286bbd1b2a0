"""Every shipped variant plays a whole session for every allowed player count (issue 3).

``boodle play V --players N --seed S`` runs :func:`boodle.session.run.play_session`
with a random player per seat drawn from ``"{S}:seat:{i}"``; these tests run
the same session with each seat's player wrapped so that it also checks the
deal at every decision: every card of the deck is in exactly one place (the
pack, a hand, the widow, played, out of play).  Chips are replayed from the
events' transfers alone and must add up to N × the start after every event;
each deal's closing ledger must equal the replay.  One session per (V, N).
"""

from __future__ import annotations

import random

import pytest

from boodle.cli import main
from boodle.engine.events import (
    DealEnd,
    DealStart,
    Eliminated,
    Event,
    PhaseSkipped,
    SessionEnd,
    transfers_in,
)
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Move
from boodle.engine.strategies import Strategy, make
from boodle.language.model import Ruleset
from boodle.language.variants import builtin_names, load
from boodle.session.run import play_session

SEED = 11
CASES = [(name, n) for name in builtin_names() for n in load(name).players.counts()]


def checking(player: Strategy, deck: frozenset) -> Strategy:
    """``player``, checking at each decision that every card is in exactly one place."""

    def choose(ruleset: Ruleset, state: DealState, legal: tuple[Move, ...]) -> Move:
        where = [c for hand in state.hands for c in hand]
        where += [*state.widow(), *state.out_of_play(), *(c for _, c in state.played())]
        # a stake on a chosen boodle (spec §4) is decided before the deal: cards in the pack
        where += [c for c, p in zip(state.cards, state.places, strict=True) if p.kind == "pack"]
        assert len(where) == len(deck) and set(where) == deck, "a card lost or doubled"
        assert state.held == tuple(len(h) for h in state.hands)
        assert legal and all(m.seat == state.to_move for m in legal)
        return player(ruleset, state, legal)

    return choose


def replay_chips(events: tuple[Event, ...], players: int, ruleset: Ruleset) -> int:
    """Replay every transfer; the total is constant after each event.  Returns the deals."""
    names = tuple(s.name for s in ruleset.board)
    start = ruleset.session.start_chips
    ledger = Ledger.open(players, names, start)
    deals = 0
    for event in events:
        for t in transfers_in(event):
            ledger, _ = ledger.transfer(t.src, t.dst, t.amount, t.reason)
        assert ledger.total() == players * start, event
        if isinstance(event, DealEnd | SessionEnd):
            assert event.ledger == ledger
        deals += isinstance(event, DealStart)
    return deals


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_a_whole_session_conserves_chips_and_cards(name: str, players: int) -> None:
    ruleset = load(name)
    deck = frozenset(ruleset.deck.cards())
    movers = [checking(make("random", random.Random(f"{SEED}:seat:{i}")), deck)
              for i in range(players)]
    session = ruleset.session
    if not session.has_end():  # 'end: never' (spec §10): two rotations of a register that runs on
        result = play_session(ruleset, players, SEED, strategies=movers, deals=2 * players)
        assert replay_chips(result.events, players, ruleset) == 2 * players == result.deals
        assert not any(isinstance(e, SessionEnd) for e in result.events) and not result.winners
        return
    result = play_session(ruleset, players, SEED, strategies=movers)
    deals = replay_chips(result.events, players, ruleset)
    # one rotation of the deal (the shipped sessions), plus at most one tie deal (spec §10);
    # under 'end: when a player has no chips' it ends early after a deal leaving someone at
    # 0, under 'end: last player with chips' after one leaving one player alone with chips
    assert session.rotations is not None
    rotation = session.rotations * players
    last = [e for e in result.events if isinstance(e, DealEnd)][-1].ledger
    early = ((session.end_when_broke and min(last.seats) <= 0)
             or (session.end_last_with_chips and sum(b > 0 for b in last.seats) <= 1))
    assert (early or rotation <= deals) and deals <= rotation + 1 and result.deals == deals
    assert isinstance(result.events[-1], SessionEnd) and result.winners
    # the deal passes left, to the next player still in (spec §5.1, §10)
    out: set[int] = set()
    dealer: int | None = None
    for e in result.events:
        if isinstance(e, Eliminated):
            out.add(e.seat)
        elif isinstance(e, DealStart):
            if dealer is not None:
                expected = next(s for s in ((dealer + k) % players for k in range(1, players))
                                if s not in out)
                assert e.dealer == expected
            dealer = e.dealer


@pytest.mark.parametrize("name", builtin_names())
def test_boodle_play_completes_a_session(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    n = load(name).players.low
    if not load(name).session.has_end():  # 'end: never': as many deals as asked, no end
        assert main(["play", name, "--players", str(n), "--seed", str(SEED), "--deals", "4"]) == 0
        out = capsys.readouterr().out
        assert "Deal 4:" in out and "Deal 5:" not in out and "Session end" not in out
        return
    assert main(["play", name, "--players", str(n), "--seed", str(SEED)]) == 0
    out = capsys.readouterr().out
    assert "Session end" in out and "best:" in out


def test_a_skipped_phase_is_said_in_the_trace(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from boodle.engine import machine as stages
    from boodle.engine.stages import stops
    from boodle.language.model import StopsPhase

    monkeypatch.setattr(stages, "PHASE_STAGES", {StopsPhase: stops.STAGE})
    result = play_session(load("tripoley"), 3, SEED, deals=1)
    skipped = [(e.phase, e.phase_kind) for e in result.events if isinstance(e, PhaseSkipped)]
    assert skipped == [("hearts", "holding"), ("poker", "poker")]
    assert main(["play", "tripoley", "--players", "3", "--seed", "1", "--deals", "1"]) == 0
    assert "phase poker (poker) skipped: this engine does not execute it yet" in (
        capsys.readouterr().out)
