"""Referee mode: the implementation chooses, the reference judges (PROTOCOL.md, "Referee mode").

A ``referee`` case gives only a setup: a deal (players, dealer, ledger, the cards) or a
whole session's chance outcomes (the draw, the cut, the deals).  The implementation plays
it to its end with its own choices and answers ``done`` with every event and its
``final``.  The runner replays those events through the reference (:func:`judge`): at every
point it takes the legal move whose events are the implementation's next ones, so every
move must be legal there and every consequence (stops, claims, payments, carry-over,
ledger, the end) exactly what the reference derives from the moves.  A disagreement names
the point, the move and the spec rule (:class:`Disagreement`).

:func:`play_own` is the reference's side, for ``boodle conformance serve``: it plays a
referee case with choices of its own (seeded by the case id).  :func:`referee_cases` makes
the seeded cases of ``boodle conformance run --referee-deals N --seed S``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boodle.conformance import CASE_FORMAT
from boodle.conformance.cases import Case, case_id
from boodle.conformance.compare import Verdict
from boodle.conformance.engines import REFERENCE, Engine, playable
from boodle.conformance.play_case import (
    ruleset_of,
    run_session,
    session_sources,
    setup,
)
from boodle.conformance.wire import (
    Json,
    card_from_json,
    ledger_from_json,
    legal_keys,
    legal_to_json,
    move_key,
    move_to_json,
    normalize_event,
)
from boodle.engine.faults import IllegalMove
from boodle.engine.ledger import Ledger, chips_json
from boodle.engine.stages.dealing import eliminated
from boodle.engine.state import (
    BidMove,
    BidRange,
    DealState,
    LeadMove,
    Legal,
    Move,
    PassMove,
    PlayMove,
    move_count,
    nth_move,
)
from boodle.engine.strategies import Strategy
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.session.run import REDRAWS, DealEngine, SessionRun, best_seats

KIND = "referee"
"""The case kind, and the ``features`` entry an implementation announces to take it."""

CONTEXT = 3
"""Events shown before a disagreement."""


def _j(value: object) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# ---------------------------------------------------------------- the reference's own play


def _chooser(case: str) -> Strategy:
    """A player choosing at random among the legal moves, seeded by the case id."""
    rng = random.Random(f"referee:{case}")

    def choose(ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
        count = move_count(legal)  # a range of bids counts each amount (one draw)
        return nth_move(legal, rng.randrange(count) if count > 1 else 0)
    return choose


def play_own(request: Mapping[str, Any], engine: Engine = REFERENCE) -> Json:
    """The result of a ``referee`` request played by ``engine`` with its own choices: ``done``
    with every event and ``final`` (the deal's or the session's, as a script or session
    case answers), or ``error`` for a setup it cannot play."""
    choose = _chooser(str(request.get("id", "")))
    if "deals" in request["setup"]:
        return run_session(request, engine, choose)
    try:
        ruleset = ruleset_of(request)
        state, first = setup(ruleset, request["setup"], engine)
        events = [e.to_json() for e in first]
        while state.step != "over" and (legal := engine.legal(ruleset, state)):
            state, more = engine.apply(ruleset, state, choose(ruleset, state, legal))
            events.extend(e.to_json() for e in more)
    except BoodleError as exc:
        return {"status": "error", "message": exc.message}
    over = state.step == "over"
    return {"status": "done", "events": events,
            "final": {"ledger": state.ledger.to_json(), "over": over,
                      "to_move": None if over else state.to_move, "unused": 0}}


# ---------------------------------------------------------------- judging


@dataclass
class Disagreement(Exception):
    """Where the implementation's run leaves the rules: at ``point`` (moves made before it),
    event ``event`` of its answer; ``move`` the move concerned (JSON, or ``None``),
    ``rule`` the spec rule (an id of spec-rules.json, or ``(no rule)``), ``summary`` one
    line and ``detail`` the explanation."""

    point: int
    event: int
    move: Json | None
    rule: str
    summary: str
    detail: str = ""


def _rule_of_event(ruleset: Ruleset, events: Sequence[Json], index: int) -> str:
    """The spec rule the reference's event ``index`` shows (:data:`.generate.EVENT_PINS`),
    the most particular one; ``(no rule)`` when it shows none.  The event's own rules
    count even when an earlier event showed them (a second stop bonus, the last payment),
    with those it is the first to show in its deal (the ruleset's rules it implies).
    ``events``: a deal's or a whole session's, normalised (:func:`.wire.normalize_events`)."""
    from boodle.conformance.generate import _event_pins, _last_event_pins

    if index >= len(events):
        return "§7/ends-deal" if events and events[-1].get("kind") in ("deal-end",) else \
            "(no rule)"
    # a session's events are read from the start of the deal the event falls in: a deal
    # read after another would take its claims for the last one's going out
    start = max((k for k in range(index + 1) if events[k].get("kind") == "deal-start"),
                default=0)
    deal, at = list(events[start:index + 1]), index - start
    try:
        new = _last_event_pins(ruleset, deal) | \
            (_event_pins(ruleset, deal) - _event_pins(ruleset, deal[:at]))
    except (BoodleError, KeyError, TypeError, ValueError, AttributeError):
        new = set()  # an implementation's event of an unforeseen shape shows no rule
    fallback = {"ante": "§4/order", "deal": "§5.2/round", "deal-start": "§5.1/rotation",
                "penalty": "§6.5/pass-fee", "eliminated": "§10/elimination",
                "split": "§10/leftover-split", "session-end": "§10/order",
                "cut": "§5.1/first-dealer", "first-dealt": "§5.1/first-dealt",
                "boodles-drawn": "§3/drawn", "seating": "§10/seating"}
    kind = str(events[index].get("kind"))
    if not new:
        return fallback.get(kind, "(no rule)")
    return sorted(new, key=lambda r: (r.startswith("§9"), r.startswith("§2"), r))[0]


def _intended(rest: Sequence[Json]) -> Move | None:
    """The move the implementation's next events show, read from them: a ``lead`` or
    ``play`` event, or a pass (its ``penalty`` events, then the ``pass``)."""
    for e in rest[:16]:
        kind = e.get("kind")
        try:
            if kind == "lead":
                return LeadMove(int(e["seat"]), card_from_json(e["card"]))
            if kind == "play":
                return PlayMove(int(e["seat"]), card_from_json(e["card"]))
            if kind == "pass":
                return PassMove(int(e["seat"]))
        except (BoodleError, KeyError, TypeError, ValueError):
            return None
        if kind != "penalty":
            return None
    return None


class _Replay:
    """Every seat's player in the reference's replay of an implementation's events:
    at each point, the legal move whose events are the implementation's next ones.

    ``theirs``: the implementation's events, normalised; ``ours()`` gives the reference's
    events so far (normalised) when a move is due."""

    def __init__(self, ruleset: Ruleset, theirs: list[Json]) -> None:
        self.ruleset, self.theirs = ruleset, theirs
        self.point = 0
        self.moves: list[tuple[int, Json]] = []
        """(event index, move) of every move taken, in order."""

    def last_move(self, before: int) -> Json | None:
        """The last move taken whose events begin before event ``before``."""
        found = [m for i, m in self.moves if i <= before]
        return found[-1] if found else None

    def agree(self, ours: Sequence[Json], upto: int | None = None) -> None:
        """Raise a :class:`Disagreement` at the first of the first ``upto`` events (default:
        all of ours) where the implementation's differ from the reference's."""
        n = len(ours) if upto is None else upto
        if list(self.theirs[:n]) == list(ours[:n]):
            return
        i = next((k for k in range(n) if k >= len(self.theirs) or self.theirs[k] != ours[k]), n)
        move = self.last_move(i)
        rule = _rule_of_event(self.ruleset, ours, i)
        got = _j(self.theirs[i]) if i < len(self.theirs) else "(no more events)"
        after = f"after the move {move_key(move)}" if move else "before the first move"
        summary = (f"event {i}, {after}: the reference derives {_j(ours[i])}, the "
                   f"implementation says {got} (rule {rule})")
        raise Disagreement(self.point, i, move, rule, summary, self._context(ours, i, summary))

    def _context(self, ours: Sequence[Json], i: int, summary: str) -> str:
        lines = [summary]
        if i:
            lines.append(f"  before it (events {max(0, i - CONTEXT)}-{i - 1}, agreed):")
            lines.extend(f"    {_j(e)}" for e in ours[max(0, i - CONTEXT):i])
        return "\n".join(lines)

    def choose(self, engine: DealEngine, state: DealState, legal: tuple[Legal, ...],
               ours: Sequence[Json]) -> Move:
        """The legal move the implementation made at this point (raises
        :class:`Disagreement` when its events before it differ from the reference's, when
        it made an illegal move, or when the move's consequences differ)."""
        self.agree(ours)
        i = len(ours)
        rest = self.theirs[i:]
        keys = legal_keys(legal_to_json(legal))
        if not rest:
            mover = f"seat {state.to_move}"
            summary = (f"point {self.point}: the implementation's events end, but the "
                       f"reference has {mover} to move (legal: {', '.join(keys)})")
            raise Disagreement(self.point, i, None, "§7/ends-deal", summary,
                               summary + "\n  a referee run plays on to the end of the "
                               "deal or session")
        matches: list[tuple[Move, list[Json]]] = []
        for move in _candidates(legal, rest[0] if rest else None):
            _, evs = engine.apply(self.ruleset, state, move)
            mine = [normalize_event(e.to_json()) for e in evs]
            if rest[:len(mine)] == mine:
                matches.append((move, mine))
        if matches:
            move = max(matches, key=lambda m: len(m[1]))[0]
            self.moves.append((i, move_to_json(move)))
            self.point += 1
            return move
        intended = _intended(rest)
        if intended is None:
            shown = _rule_of_event(self.ruleset, self.theirs, i)
            rule = "§12/move.kind" if shown == "(no rule)" else shown
            summary = (f"point {self.point}, event {i}: the implementation says {_j(rest[0])}"
                       f", where the reference's next event is a move of seat "
                       f"{state.to_move} (legal: {', '.join(keys)}) (rule {rule})")
            raise Disagreement(self.point, i, None, rule, summary,
                               self._context(ours, i, summary))
        as_json = move_to_json(intended)
        try:
            _, evs = engine.apply(self.ruleset, state, intended)
        except IllegalMove as exc:
            rule = f"§12/{exc.rule}" if exc.rule else "(no rule)"
            summary = (f"point {self.point}, event {i}: the move {move_key(as_json)} is "
                       f"illegal in the reference: {exc.rule} ({exc.message}); legal "
                       f"there: {', '.join(keys)}")
            raise Disagreement(self.point, i, as_json, rule, summary,
                               self._context(ours, i, summary)) from None
        mine = [*ours, *(normalize_event(e.to_json()) for e in evs)]
        self.moves.append((i, as_json))
        self.agree(mine, len(mine))
        raise AssertionError("a legal move whose events agree matched above")  # pragma: no cover


def _candidates(legal: Sequence[Legal], event: Json | None) -> list[Move]:
    """The concrete moves of ``legal`` the implementation's next ``event`` may be: every
    move, and of a range of bids the one bid ``event`` names, if it lies in the range (a
    range stands for one bid per chip: it is never enumerated); a ``bet`` event of a betting
    round (spec §8.3) names the chips put in, its bid's amount."""
    moves: list[Move] = []
    for entry in legal:
        if not isinstance(entry, BidRange):
            moves.append(entry)
        elif event is not None and event.get("kind") in ("widow-bid", "bet") \
                and event.get("seat") == entry.seat and isinstance(event.get("amount"), int):
            bid = BidMove(entry.seat, event["amount"])
            if entry.holds(bid):
                moves.append(bid)
    return moves


def _final_disagreement(point: int, index: int, key: str, want: object, got: object
                        ) -> Disagreement:
    summary = f"final {key}: the reference derives {_j(want)}, the implementation says {_j(got)}"
    return Disagreement(point, index, None, "§9/conservation" if key == "ledger" else
                        "§7/ends-deal", summary, summary)


def _replay_deal(request: Mapping[str, Any], theirs: list[Json], final: Mapping[str, Any]
                 ) -> int:
    """Replay a deal's events; the number of moves, or a :class:`Disagreement`."""
    ruleset = ruleset_of(request)
    replay = _Replay(ruleset, theirs)
    state, first = setup(ruleset, request["setup"])
    ours = [normalize_event(e.to_json()) for e in first]
    while state.step != "over" and (legal := REFERENCE.legal(ruleset, state)):
        move = replay.choose(REFERENCE, state, legal, ours)
        state, more = REFERENCE.apply(ruleset, state, move)
        ours.extend(normalize_event(e.to_json()) for e in more)
    _the_end(replay, ours)
    want = {"ledger": state.ledger.to_json(), "over": state.step == "over"}
    for key, value in want.items():
        if final.get(key) != value:
            raise _final_disagreement(replay.point, len(ours), key, value, final.get(key))
    return replay.point


def _the_end(replay: _Replay, ours: list[Json]) -> None:
    """The reference's run is over: the implementation's events must be exactly its."""
    replay.agree(ours)
    if len(replay.theirs) > len(ours):
        i = len(ours)
        summary = (f"event {i}: the reference's run is over after event {i - 1}, the "
                   f"implementation goes on with {_j(replay.theirs[i])}")
        raise Disagreement(replay.point, i, replay.last_move(i), "§7/ends-deal", summary,
                           replay._context(ours, i, summary))


class _SessionPlayer:
    """The :class:`_Replay` as every seat's strategy of a :class:`SessionRun`; ``done``: the
    events of the deals finished (and of the opening)."""

    def __init__(self, replay: _Replay) -> None:
        self.replay = replay
        self.run: SessionRun | None = None
        self.done: list[Json] = []

    def ours(self) -> list[Json]:
        assert self.run is not None
        now = [*self.run.ending, *self.run.current]
        return [*self.done, *(normalize_event(e.to_json()) for e in now)]

    def __call__(self, ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
        assert self.run is not None
        return self.replay.choose(self.run.engine, state, legal, self.ours())


def _replay_session(request: Mapping[str, Any], theirs: list[Json], final: Mapping[str, Any]
                    ) -> int:
    """Replay a session's events (spec §10); the number of moves, or a :class:`Disagreement`."""
    ruleset = ruleset_of(request)
    spec = request["setup"]
    replay = _Replay(ruleset, theirs)
    player = _SessionPlayer(replay)
    ledger = ledger_from_json(ruleset, spec["ledger"]) if "ledger" in spec else None
    run = SessionRun(ruleset, spec["players"], 0, [player] * spec["players"],
                     sources=session_sources(spec), ledger=ledger)
    player.run = run
    replay.ruleset = run.ruleset  # its boodle cards drawn from a second pack bound (spec §3)
    player.done = [normalize_event(e.to_json()) for e in run.opening]
    while run.more_deals():
        player.done.extend(normalize_event(e.to_json()) for e in run.next_deal())
        run.current = []
    player.done.extend(normalize_event(e.to_json()) for e in run.finish())
    run.ending, run.current = [], []
    _the_end(replay, player.done)
    want = {"ledger": run.ledger.to_json(), "over": run.over, "deals": run.played,
            "dealers": run.dealers, "standings": [chips_json(a) for a in run.ledger.seats],
            "winners": list(best_seats(run.ledger)) if run.over else [],
            "eliminated": sorted(eliminated(run.rules, run.ledger))}
    for key, value in want.items():
        if key in final and final[key] != value or key in ("ledger", "over") \
                and final.get(key) != value:
            raise _final_disagreement(replay.point, len(player.done), key, value,
                                      final.get(key))
    return replay.point


def judge(case: Case, result: Mapping[str, Any]) -> Verdict:
    """The verdict on a ``referee`` case's ``result`` (status ``done``): ``pass`` when the
    reference, replaying the events, finds every move legal and derives exactly those
    events and that ``final``; ``fail`` naming the point, the move and the rule otherwise."""
    if result["status"] != "done":
        said = f": {result['message']}" if result.get("message") else ""
        return Verdict("fail", f"answered {result['status']!r} to a referee case{said} (a "
                       "referee run plays its own moves to the end and answers 'done')")
    theirs = [normalize_event(e) for e in result.get("events", [])]
    request = case.request()
    try:
        if "deals" in request["setup"]:
            _replay_session(request, theirs, result.get("final", {}))
        else:
            _replay_deal(request, theirs, result.get("final", {}))
    except Disagreement as d:
        move = f"\n  the move: {move_key(d.move)}" if d.move else ""
        return Verdict("fail", d.summary, f"{d.detail}{move}\n  rule: {d.rule}\n"
                       f"  setup: {_j(request['setup'])}", rule=d.rule)
    except BoodleError as exc:
        return Verdict("error", f"the reference cannot replay this setup: {exc.message}")
    return Verdict("pass")


# ---------------------------------------------------------------- seeded cases


def _players_in(ruleset: Ruleset, low: int | None, high: int | None) -> list[int]:
    """The player counts both the variant and the implementation take."""
    lo = max(ruleset.players.low, low or ruleset.players.low)
    hi = min(ruleset.players.high, high or ruleset.players.high, 10)
    return list(range(lo, hi + 1))


def referee_case(ruleset: Ruleset, players: int, seed: str, k: int) -> Case:
    """Referee deal ``k`` of ``seed`` in ``ruleset`` for ``players``: a shuffled pack, a random
    dealer, every seat the variant's start chips and the board empty.  Every other deal
    gives the ``hands`` and the ``widow`` as dealt (the widow's card turned up for trumps
    last) instead of the ``deck``, so that an implementation meets both forms."""
    rng = random.Random(f"referee:{seed}:{ruleset.name}:{players}:{k}")
    deck = list(ruleset.deck.cards())
    rng.shuffle(deck)
    names = tuple(s.name for s in ruleset.board)
    ledger = Ledger.open(players, names, ruleset.session.start_chips)
    dealer = rng.randrange(players)
    cards: Json = {"deck": [str(c) for c in deck]}
    if k % 2:
        state, _ = REFERENCE.start(ruleset, players, dealer, ledger, deck_order=deck)
        places = state.dealt or state.to_deal
        pairs = list(zip(state.cards, places, strict=True))
        hands = [[str(c) for c, p in pairs if p.kind == "hand" and p.seat == s]
                 for s in range(players)]
        widow = [c for c, p in pairs if p.kind == "widow"]
        if state.turn_up in widow:
            widow = [*(c for c in widow if c != state.turn_up), state.turn_up]
        cards = {"hands": hands, "widow": [str(c) for c in widow]}
    data: Json = {"format": CASE_FORMAT, "kind": KIND,
                  "description": f"referee deal {k + 1} of seed {seed!r}, {players} players: "
                  "the implementation plays it with its own choices",
                  "variant": {"name": ruleset.name, "version": ruleset.version},
                  "pins": [],
                  "setup": {"players": players, "dealer": dealer,
                            "ledger": ledger.to_json(), "deal": cards}}
    data["id"] = case_id(data, f"referee-{k + 1}")
    return Case(data, None)


SESSION_DEALS = 12
"""The most deals a referee session gives (its deals run out there: the session stops)."""


def referee_session_case(ruleset: Ruleset, players: int, seed: str, k: int) -> Case:
    """Referee session ``k`` of ``seed`` in ``ruleset`` for ``players``: every chance outcome
    written out (the boodle cards drawn, the cut or the cards dealt face up, one shuffled
    pack per deal, the seats drawn before each deal after the first when they are, as many
    deals as the session's rotations allow and one for a tie, at most
    :data:`SESSION_DEALS`); every seat starts with the variant's start chips."""
    from boodle.conformance.generate import _Recorder

    name = f"referee:{seed}:{ruleset.name}:{players}:session:{k}"
    recorder = _Recorder(name)
    SessionRun(ruleset, players, name, ["random"] * players, sources=recorder)
    rotations = ruleset.session.rotations
    count = SESSION_DEALS if rotations is None else min(SESSION_DEALS, rotations * players + 1)
    rng = random.Random(name)
    decks = []
    for _ in range(count):
        deck = [str(c) for c in ruleset.deck.cards()]
        rng.shuffle(deck)
        decks.append({"deck": deck})
    spec: Json = {"players": players}
    if recorder.drawn:
        spec["draw"] = recorder.drawn
    if recorder.cuts:
        spec["cut"] = recorder.cuts
    if recorder.faced_cards:
        spec["first_dealt"] = recorder.faced_cards
    spec["deals"] = decks
    if REDRAWS[ruleset.session.seating]:  # spec §10: the seats of deal 2 on
        spec["seating"] = [list(recorder.inner.seating(ruleset, players, number))
                           for number in range(2, count + 1)]
    data: Json = {"format": CASE_FORMAT, "kind": KIND,
                  "description": f"referee session {k + 1} of seed {seed!r}, {players} "
                  f"players, {count} deals given: the implementation plays it with its own "
                  "choices",
                  "variant": {"name": ruleset.name, "version": ruleset.version},
                  "pins": [], "setup": spec}
    data["id"] = case_id(data, f"referee-session-{k + 1}")
    return Case(data, None)


@dataclass(frozen=True)
class Declared:
    """A variant as an implementation's ``started`` declares it: name, rules version and
    the player counts it takes (``None``: the variant's)."""

    name: str
    version: int
    low: int | None = None
    high: int | None = None

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> Declared:
        """An entry of ``started``'s ``variants`` (valid by the schema's ``declaredVariant``:
        ``name``, ``version``, optionally ``players`` ``{"min", "max"}``)."""
        players = entry.get("players") or {}
        return cls(str(entry["name"]), int(entry["version"]), players.get("min"),
                   players.get("max"))


def referee_cases(declared: Iterable[Declared], deals: int, seed: str,
                  only: str | None = None, sessions: int = 0) -> tuple[list[Case], list[str]]:
    """``deals`` referee deals and ``sessions`` referee sessions per variant the
    implementation declares (``only``: that variant alone), the player counts turning
    through those both it and the variant take; and a warning, once, for each declared
    variant the reference cannot referee (unknown, of another version, or with no deal
    the reference starts from a setup alone)."""
    from boodle.conformance.engines import session_playable
    from boodle.conformance.paths import load_variant

    cases: list[Case] = []
    warnings: list[str] = []
    for d in declared:
        if only is not None and d.name != only:
            continue
        try:
            ruleset = load_variant(d.name)
        except BoodleError:
            warnings.append(f"referee deals: the reference does not know variant {d.name!r}"
                            " (give its rules file with --rules)")
            continue
        if ruleset.version != d.version:
            warnings.append(f"referee deals: {d.name} is at rules version {ruleset.version}"
                            f" here, the implementation plays version {d.version}")
            continue
        counts = _players_in(ruleset, d.low, d.high)
        if not counts:
            warnings.append(f"referee deals: the player counts declared for {d.name} are "
                            f"none of its {ruleset.players.low} to {ruleset.players.high}")
            continue
        if deals and playable(ruleset):
            cases.extend(referee_case(ruleset, counts[k % len(counts)], seed, k)
                         for k in range(deals))
        elif deals:
            warnings.append(f"referee deals: {d.name} has no deal the reference starts from "
                            "a setup alone (its boodle cards are drawn once per session): "
                            "--referee-sessions N plays it")
        if sessions and session_playable(ruleset):
            cases.extend(referee_session_case(ruleset, counts[k % len(counts)], seed, k)
                         for k in range(sessions))
    return cases, warnings
