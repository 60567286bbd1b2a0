"""The session's ``seating`` line (spec §10): seats kept, or drawn again before each deal."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from boodle.compiled import unsupported_features
from boodle.conformance.paths import load_variant, variant_paths
from boodle.docs import templates
from boodle.docs.rules_text import Speaker
from boodle.docs.variant_page import standalone_markdown
from boodle.engine.events import DealEnd, DealStart, Event, Lead, Seating, SessionEnd, Split
from boodle.engine.ledger import Ledger
from boodle.engine.state import DealState, Legal, Move
from boodle.engine.strategies import Strategy, make
from boodle.engine.trace import render_text, seat_name
from boodle.language.build import load_text
from boodle.language.cards import Card, parse_card
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.language.printer import print_ruleset
from boodle.session import store
from boodle.session.ledger_cli import render_session
from boodle.session.run import (
    DealCards,
    ExplicitSources,
    SeededSources,
    SessionRun,
    play_session,
)
from boodle.session.store import (
    check,
    connect,
    deal_rows,
    ending_row,
    record_new,
    resume,
    sessions,
)
from boodle.simulate.runner import make_spec
from boodle.verify.verifier import NOT_MODELLED, Options, Subject, verify
from store_helpers import info_for, nothing
from tiny_rules import BASE

REDRAWN = BASE.replace("session { start: 50 chips }",
                       "session { start: 50 chips  seating: redrawn each deal }")


def test_seating_is_fixed_unless_said() -> None:
    assert load_text(BASE, "t.boodle").session.seating == "fixed"
    fixed = BASE.replace("start: 50 chips }", "start: 50 chips  seating: fixed }")
    assert load_text(fixed, "t.boodle").session.seating == "fixed"


def test_seating_redrawn_is_read_and_printed_back() -> None:
    ruleset = load_text(REDRAWN, "t.boodle")
    assert ruleset.session.seating == "redrawn each deal"
    printed = print_ruleset(ruleset)
    assert "seating: redrawn each deal" in printed
    assert load_text(printed, "t.boodle").session.seating == "redrawn each deal"
    assert "seating" not in print_ruleset(load_text(BASE, "t.boodle"))


def test_a_bad_seating_is_a_located_error() -> None:
    text = REDRAWN.replace("redrawn each deal", "shuffled")
    with pytest.raises(BoodleError) as err:
        load_text(text, "t.boodle")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "shuffled" in row)
    assert err.value.span is not None and err.value.span.line == line


def test_two_seating_lines_are_refused() -> None:
    text = REDRAWN.replace("seating: redrawn each deal",
                           "seating: fixed  seating: redrawn each deal")
    with pytest.raises(BoodleError):
        load_text(text, "t.boodle")


# ---------------------------------------------------------------- the session plays it
#
# Spec §10 'seating: redrawn each deal': deal 1 is played in the seats of the cut; before
# every later deal each player is drawn a seat; the dealer is a seat of the table, passing
# left from deal to deal (§5.1) whoever sits there; Michigan's first lead is the seat left
# of the dealer's (§6.1, 001 §03-04).  Seats are A, B, C clockwise; players are named by
# the seat they start in.

PROBE = load_variant("probe-seating")
PROBE_FILE = variant_paths()["probe-seating"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split())


def explicit(seatings: tuple[tuple[int, ...], ...], deals: int = 3) -> ExplicitSources:
    decks = tuple(SeededSources("decks").deal(PROBE, k) for k in range(1, deals + 1))
    return ExplicitSources(cuts=(cards("K♠ 5♦ 3♣"),), deals=decks, seatings=seatings)


class Seen:
    """One strategy per player that records, at each call, the seat the player moves from
    and whether the run's seating puts that player there."""

    def __init__(self) -> None:
        self.run: SessionRun | None = None
        self.calls: list[tuple[int, int, bool]] = []

    def player(self, who: int) -> Strategy:
        inner = make("random", random.Random(who))

        def choose(ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
            assert self.run is not None and state.to_move is not None
            self.calls.append((who, state.to_move, self.run.seating[state.to_move] == who))
            return inner(ruleset, state, legal)
        return choose


def play(run: SessionRun) -> list[Event]:
    events = list(run.opening)
    while run.more_deals():
        events.extend(run.next_deal())
    events.extend(run.finish())
    return events


def by_deal(events: list[Event]) -> list[list[Event]]:
    deals: list[list[Event]] = []
    for e in events:
        if isinstance(e, Seating | DealStart) and not (
                isinstance(e, DealStart) and deals and isinstance(deals[-1][-1], Seating)):
            deals.append([])
        if deals:
            deals[-1].append(e)
    return deals


def test_a_three_player_session_deals_and_leads_from_the_seats_drawn() -> None:
    # by hand: the cut K♠ 5♦ 3♣ gives seat A the first deal (player A); player B leads from
    # seat B.  Deal 2: seats C A B (player C in seat A, A in B, B in C); the deal passes left
    # to seat B, where player A sits; the lead is seat C's: player B.  Deal 3: seats A C B;
    # the deal passes to seat C: player B deals; seat A leads: player A.
    seen = Seen()
    run = SessionRun(PROBE, 3, 0, [seen.player(p) for p in range(3)],
                     sources=explicit(((2, 0, 1), (0, 2, 1))))
    seen.run = run
    events = play(run)
    deals = by_deal(events)
    assert len(deals) == 3 and run.over
    assert [e for e in events if isinstance(e, Seating)] == [Seating(2, (2, 0, 1)),
                                                             Seating(3, (0, 2, 1))]
    starts = [next(e for e in d if isinstance(e, DealStart)) for d in deals]
    leads = [next(e for e in d if isinstance(e, Lead)) for d in deals]
    assert [s.dealer for s in starts] == [0, 1, 2] == run.dealers  # seats A, B, C
    assert [ld.seat for ld in leads] == [1, 2, 0]  # left of each dealer
    sits = [(0, 1, 2), (2, 0, 1), (0, 2, 1)]
    assert [sits[k][s.dealer] for k, s in enumerate(starts)] == [0, 0, 1]  # players A, A, B
    assert [sits[k][ld.seat] for k, ld in enumerate(leads)] == [1, 1, 0]  # players B, B, A
    # each player's strategy moves from the seat the player was drawn into
    assert seen.calls and all(ok for _, _, ok in seen.calls)
    # chips: every deal's balances (by seat) are the players' own, renamed; none lost
    balance = [50, 50, 50]
    for k, deal in enumerate(deals):
        end = next(e for e in deal if isinstance(e, DealEnd))
        assert end.ledger.total() == 150
        for seat, amount in enumerate(end.ledger.seats):
            balance[sits[k][seat]] = amount
    session_end = events[-1]
    assert isinstance(session_end, SessionEnd)
    last = [e for e in events if isinstance(e, DealEnd)][-1]
    board = sum(a for _, a in last.ledger.sections)
    assert sum(session_end.standings) == 150
    split = [sum(e.transfer.amount for e in events if isinstance(e, Split) and e.seat == p)
             for p in range(3)]
    assert sum(split) == board
    assert list(session_end.standings) == [balance[p] + split[p] for p in range(3)]


def test_the_seating_text_and_json_name_the_players_seat_by_seat() -> None:
    event = Seating(2, (2, 0, 1))
    assert event.to_json() == {"kind": "seating", "number": 2, "players": [2, 0, 1]}
    assert render_text([event]) == ("seats drawn for deal 2 (players by their starting seat): "
                                    "C sits in seat A, A sits in seat B, B sits in seat C\n")


def test_a_dealer_seat_whose_player_is_out_passes_the_deal_on() -> None:
    # balance: eliminated at zero, 4 players, player B out from the start (0 chips).  The cut
    # gives seat A the deal; deal 2 is drawn in the starting seats: the deal passes to seat
    # B, whose player is out, and on to seat C (spec §10, §5.1).
    rules = replace(PROBE, session=replace(PROBE.session, negative="eliminate"))
    ledger = Ledger((50, 0, 50, 50), tuple((s.name, 0) for s in rules.board))
    decks = tuple(SeededSources("decks").deal(rules, k) for k in (1, 2))
    sources = ExplicitSources(cuts=(cards("K♠ 5♦ 3♣ 2♥"),), deals=decks,
                              seatings=((0, 1, 2, 3),))
    run = SessionRun(rules, 4, 0, deals=2, sources=sources, ledger=ledger)
    play(run)
    assert run.dealers == [0, 2]


def test_seeded_seats_are_the_same_for_a_seed_and_drawn_before_every_later_deal() -> None:
    one, two = play_session(PROBE, 4, 7), play_session(PROBE, 4, 7)
    assert one.events == two.events
    drawn = [e for e in one.events if isinstance(e, Seating)]
    assert [e.number for e in drawn] == [2, 3, 4]
    assert all(sorted(e.players) == [0, 1, 2, 3] for e in drawn)
    dealers = [e.dealer for e in one.events if isinstance(e, DealStart)]
    assert dealers == [(dealers[0] + k) % 4 for k in range(4)]  # the seat passes left
    assert sum(one.standings) == 200
    assert not any(isinstance(e, Seating) for e in play_session(load_variant("michigan"), 4, 7)
                   .events)


def test_explicit_sources_must_give_each_seating() -> None:
    with pytest.raises(BoodleError, match="seats drawn before deal 3"):
        play(SessionRun(PROBE, 3, 0, sources=explicit(((2, 0, 1),))))
    with pytest.raises(BoodleError, match="each of the 3 players once"):
        play(SessionRun(PROBE, 3, 0, sources=explicit(((2, 2, 1), (0, 1, 2)))))


# ---------------------------------------------------------------- the ledger stores it


def test_a_resumed_session_plays_the_same_seats(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.sqlite", tmp_path / "cut.sqlite"
    info = info_for(players=3, variant=str(PROBE_FILE))
    record_new(whole, info, PROBE, nothing)
    seen = [0]

    def crash(events: list[Event]) -> None:
        seen[0] += 1
        if seen[0] >= 3:  # the opening and deals 1, 2 committed
            raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        record_new(cut, info, PROBE, crash)
    resume(cut, None, lambda _: PROBE, nothing)
    with connect(cut) as conn:
        stored = next(iter(sessions(conn)))
        rows = deal_rows(conn, stored)
        assert check(conn, stored) == []
    with connect(whole) as conn:
        assert deal_rows(conn, next(iter(sessions(conn)))) == rows
    for row in rows[2:]:  # each deal's progress holds the seats it was played in
        drawn = next(e for e in row.events if e["kind"] == "seating")
        assert row.progress.seating == tuple(drawn["players"])
    assert rows[1].progress.seating == (0, 1, 2)


def test_a_ledger_of_fixed_seats_stores_no_seating_and_reads_as_fixed(tmp_path: Path) -> None:
    # a ledger written before the seating line has exactly this form: no 'seating' key
    db = tmp_path / "l.sqlite"
    record_new(db, info_for(players=3, deals=2), load_variant("michigan"), nothing)
    with sqlite3.connect(db) as conn:
        stored = [json.loads(p) for (p,) in conn.execute("SELECT progress FROM deal")]
    assert stored and all("seating" not in p for p in stored)
    with connect(db) as conn:
        assert all(r.progress.seating is None for r in deal_rows(conn, sessions(conn)[0]))


def test_a_tampered_seating_is_found(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite"
    info = info_for(players=3, variant=str(PROBE_FILE))

    def crash(events: list[Event]) -> None:  # once deal 2, the first with seats drawn, is in
        if any(isinstance(e, Seating) for e in events):
            raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        record_new(db, info, PROBE, crash)
    with sqlite3.connect(db) as conn:
        (prog,) = conn.execute("SELECT progress FROM deal WHERE number = 2").fetchone()
        data = json.loads(prog)
        data["seating"] = [data["seating"][1], data["seating"][0], data["seating"][2]]
        conn.execute("UPDATE deal SET progress = ? WHERE number = 2", (json.dumps(data),))
    with pytest.raises(BoodleError, match="damaged"):
        resume(db, None, lambda _: PROBE, nothing)


# ---------------------------------------------------------------- the rules page says it


@pytest.mark.parametrize(("lang", "seats", "rotation"), [
    ("en", "Before every deal after the first, the players draw their seats again",
     "every seat dealing once a rotation"),
    ("fr", "Avant chaque donne après la première, les joueurs tirent à nouveau leurs places",
     "chaque place donnant une fois par tour"),
    ("it", "Prima di ogni distribuzione dopo la prima i giocatori sorteggiano di nuovo i posti",
     "ogni posto distribuendo una volta per giro"),
    ("pt", "Antes de cada distribuição depois da primeira, os jogadores sorteiam de novo",
     "cada lugar distribuindo uma vez por volta"),
])
def test_the_rules_page_says_the_seats_are_drawn_and_rotations_count_seats(
        lang: str, seats: str, rotation: str) -> None:
    page = standalone_markdown(PROBE, templates.load(lang))
    assert seats in page and rotation in page
    # a rotation no longer gives every player the deal equally often (spec §10)
    fixed = standalone_markdown(load_variant("michigan"), templates.load(lang))
    assert rotation not in fixed and seats not in fixed
    # the same sentences wherever a rule is said (the language server's hover too)
    said = [r.text for r in Speaker(PROBE, templates.load(lang)).rules(PROBE.session)]
    assert any(rotation in text for text in said) and any(seats in text for text in said)


# ---------------------------------------------------------------- verify says what it covers


def test_verify_proves_the_session_end_and_names_the_seats_as_not_modelled() -> None:
    # spec §10, verification.md: the draw renames the players between deals; it changes
    # neither the number of deals nor the end, so the session proof stands; who carries
    # which chips is the session's chips, which z3 does not model
    options = Options(players=(3,), exhaustive=False, engine=False)
    results = verify([Subject("probe-seating", PROBE)], options)
    end = next(r for r in results if r.prop == "session end")
    assert end.status == "proven", end.detail
    row = next(r for r in results if r.prop == NOT_MODELLED)
    assert "the seats drawn again before each deal" in row.detail
    plain = verify([Subject("michigan", load_variant("michigan"))], options)
    assert "seats drawn" not in next(r for r in plain if r.prop == NOT_MODELLED).detail


def test_boodle_ledger_names_the_dealer_and_winner_of_each_deal_as_players(
        tmp_path: Path) -> None:
    # the deal's events name seats at the table; the history's columns name players: the
    # dealer of deal k is the player the deal's seating put in the dealer's seat
    db = tmp_path / "l.sqlite"
    record_new(db, info_for(players=3, variant=str(PROBE_FILE)), PROBE, nothing)
    with connect(db) as conn:
        info = sessions(conn)[0]
        rows = deal_rows(conn, info)
        text = render_session(info, rows, ending_row(conn, info), check(conn, info))
    lines = {ln.split()[0]: ln.split() for ln in text.splitlines()[3:] if ln.strip()}
    for row in rows[1:]:
        start = next(e for e in row.events if e["kind"] == "deal-start")
        end = next(e for e in row.events if e["kind"] == "deal-end")
        sits = row.progress.seating
        assert sits is not None
        assert lines[str(row.number)][1] == seat_name(sits[start["dealer"]])
        winner = "none" if end["winner"] is None else seat_name(sits[end["winner"]])
        assert lines[str(row.number)][2] == winner


def test_the_check_of_an_ending_with_a_tie_deal_at_drawn_seats(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    # ties: one more deal.  By hand: in each deal the seat left of the dealer holds one card
    # and goes out, the others hold one card each: the winner nets -6 + 6 + 2 = +2, the
    # others -7.  Deal 1 (seat A deals, starting seats): B wins; deal 2 (starting seats
    # drawn, seat B deals): C wins; deal 3 (seats A C B, seat C deals): seat A, player A,
    # wins.  Everyone has 50 + 2 - 14 = 38; the boodles' 36 split: 50 each, a tie: one more
    # deal at seats C A B, dealt from seat A: seat B, player A, wins it.  Its transfers name
    # seats at the table, the splits around it players: the ledger's check must agree.
    rules = replace(PROBE, session=replace(PROBE.session, ties="one more deal"))
    hands = (["3♦", "2♣", "3♥"], ["4♦", "5♦", "2♠"], ["2♦", "6♠", "5♠"],
             ["7♠", "2♥", "8♠"])
    decks = tuple(DealCards(hands=tuple(cards(h) for h in deal),
                            widow=tuple(c for c in rules.deck.cards()
                                        if c not in cards(" ".join(deal))))
                  for deal in hands)
    sources = ExplicitSources(cuts=(cards("K♠ 5♦ 3♣"),), deals=decks,
                              seatings=((0, 1, 2), (0, 2, 1), (2, 0, 1)))
    monkeypatch.setattr(store, "_run", lambda info, ruleset: SessionRun(
        ruleset, 3, 0, ["random"] * 3, sources=sources))
    db = tmp_path / "l.sqlite"
    record_new(db, info_for(players=3, variant=str(PROBE_FILE)), rules, nothing)
    with connect(db) as conn:
        info = sessions(conn)[0]
        end = ending_row(conn, info)
        assert end is not None and end["winners"] == [0]
        assert any(e["kind"] == "seating" and e["number"] == 4 for e in end["events"])
        # player A: 50 after the split, the extra deal +2, the second split 12 / 3 = 4
        assert end["ledger"].seats == (56, 47, 47)
        assert check(conn, info) == []


def test_boodle_simulate_refuses_drawn_seats_at_the_line_that_asks_for_them() -> None:
    # its session loops (compiled, kernel, and its reference path) keep every player seated
    with pytest.raises(BoodleError, match="does not draw the seats again") as err:
        make_spec(PROBE, 3, 10, 1, ["random"])
    text = PROBE_FILE.read_text("utf-8").splitlines()
    assert err.value.span is not None
    assert "seating: redrawn each deal" in text[err.value.span.line - 1]
    assert unsupported_features(PROBE) == [
        "seats drawn again before each deal (its sessions keep the seats)"]
