"""Run one case request on an engine: what an adapter does with a ``run`` message.

A request is the ``run`` message of ``conformance/PROTOCOL.md`` (the case
without its expectations).  :func:`execute` returns the body of the
``result`` message: ``status`` and what goes with it.

Script semantics (``conformance/FORMAT.md``): from the setup, repeat until
the deal is over: a point with exactly one legal move plays it (forced);
a point with several (a *choice point*) takes the next decision of the
script, or ends the run there if none is left.  Points are numbered by the
moves made before them (0 = the setup), and ``legal_at`` asks for the legal
moves at given points.

A ``session`` case plays a whole session (spec §10) through
:class:`boodle.session.run.SessionRun`, the code ``boodle play`` uses, with
:class:`~boodle.session.run.ExplicitSources` (the draw, the cut, the decks as the
setup gives them) and the script's decisions as every seat's player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from boodle.conformance import PROTOCOLS
from boodle.conformance.counting import count
from boodle.conformance.engines import REFERENCE, Engine
from boodle.conformance.paths import load_variant
from boodle.conformance.position import bound_ruleset, to_state
from boodle.conformance.wire import (
    Json,
    card_from_json,
    ledger_from_json,
    legal_to_json,
    move_from_json,
)
from boodle.engine.events import Event
from boodle.engine.ledger import chips_json
from boodle.engine.stages.dealing import eliminated
from boodle.engine.state import DealState, Legal, Move, only_move
from boodle.engine.strategies import Strategy
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.session.run import DealCards, ExplicitSources, SessionRun, best_seats, unseated


class CaseSetupError(BoodleError):
    """A request whose setup this engine cannot start from (an invalid deal or position)."""


def ruleset_of(request: Mapping[str, Any]) -> Ruleset:
    """The rules a request is played under: the variant it names, with the boodle cards a
    position setup's ``drawn:`` names bound (spec §3, :func:`.position.bound_ruleset`).
    Raises :class:`BoodleError` if the variant is unknown or of another version, or for
    drawn cards that do not fit it."""
    variant = request["variant"]
    ruleset = load_variant(variant["name"])
    if ruleset.version != variant["version"]:
        raise BoodleError(f"variant {ruleset.name} is at rules version {ruleset.version}, "
                          f"the case wants version {variant['version']}")
    position = request.get("setup", {}).get("position")
    return bound_ruleset(ruleset, position) if isinstance(position, str) else ruleset


def setup(ruleset: Ruleset, spec: Mapping[str, Any], engine: Engine = REFERENCE
          ) -> tuple[DealState, list[Event]]:
    """The state a setup describes and the events of getting there (antes, deal).

    Raises :class:`CaseSetupError` for a setup that cannot be played.
    """
    try:
        if "position" in spec:
            return to_state(ruleset, spec["position"], REFERENCE), []
        ledger = ledger_from_json(ruleset, spec["ledger"])
        deal = spec["deal"]
        if "deck" in deal:
            deck = [card_from_json(c) for c in deal["deck"]]
            return engine.start(ruleset, spec["players"], spec["dealer"], ledger, deck_order=deck)
        hands = [[card_from_json(c) for c in h] for h in deal["hands"]]
        widow = [card_from_json(c) for c in deal["widow"]]
        return engine.start(ruleset, spec["players"], spec["dealer"], ledger, hands=hands,
                            widow=widow)
    except BoodleError as exc:
        raise CaseSetupError(exc.message, exc.span, exc.hint, exc.rule) from None


def execute(request: Mapping[str, Any], engine: Engine = REFERENCE, protocol: int = 2) -> Json:
    """The result of one request: ``done``, ``rejected``, ``accepted``, ``counted`` or ``error``.

    ``protocol``: the version's number whose forms the result uses (legal bids as ranges
    from 2 on; PROTOCOL.md), unless the request names its own (a ``protocol`` field, which
    a one-shot ``run`` of version 2 carries).
    """
    protocol = PROTOCOLS.get(str(request.get("protocol")), protocol)
    if request["kind"] == "session":
        return run_session(request, engine)
    if request["kind"] == "referee":
        from boodle.conformance.referee import play_own

        return play_own(request, engine)
    try:
        ruleset = ruleset_of(request)
        state, events = setup(ruleset, request["setup"], engine)
    except BoodleError as exc:
        return {"status": "error", "message": exc.message}
    kind = request["kind"]
    if kind == "count":
        return _count(ruleset, state, engine, protocol)
    if kind == "reject":
        return _reject(ruleset, state, request["move"], engine)
    return _script(ruleset, state, events, request, engine, protocol=protocol)


def _final(state: DealState, unused: int) -> Json:
    over = state.step == "over"
    return {"ledger": state.ledger.to_json(), "over": over,
            "to_move": None if over else state.to_move, "unused": unused}


Observer = Callable[[int, int, DealState], None]
"""Called at each point of a script run with (point, events so far, state)."""


def _script(ruleset: Ruleset, state: DealState, events: list[Event],
            request: Mapping[str, Any], engine: Engine, observe: Observer | None = None,
            protocol: int = 2) -> Json:
    decisions = list(request.get("script", ()))
    wanted = set(request.get("legal_at", ()))
    out: list[Json] = [e.to_json() for e in events]
    legal: dict[str, list[Json]] = {}
    point = 0
    while True:
        while decisions and is_misdeal(decisions[0]):  # no move: the point stays (FORMAT.md)
            try:
                cards = deal_cards(decisions.pop(0)["misdeal"])
                state, more = engine.misdeal(ruleset, state, cards)
            except BoodleError as exc:
                return {"status": "error", "message": f"at point {point}: {exc.message}"}
            out.extend(e.to_json() for e in more)
        if observe is not None:
            observe(point, len(out), state)
        try:
            moves: tuple[Legal, ...] = (() if state.step == "over"
                                        else engine.legal(ruleset, state))
            if point in wanted:
                legal[str(point)] = legal_to_json(moves, protocol)
        except BoodleError as exc:
            return {"status": "error", "message": f"at point {point}: {exc.message}"}
        forced = only_move(moves)
        if not moves or (forced is None and not decisions):
            break
        try:
            move = forced if forced is not None else move_from_json(decisions.pop(0))
            state, more = engine.apply(ruleset, state, move)
        except BoodleError as exc:
            if exc.rule is None:
                return {"status": "error", "message": f"at point {point}: {exc.message}"}
            return {"status": "rejected", "rule": exc.rule, "message": exc.message,
                    "at": point, "events": out, "legal": legal}
        out.extend(e.to_json() for e in more)
        point += 1
    return {"status": "done", "events": out, "legal": legal, "final": _final(state, len(decisions))}


def script_points(request: Mapping[str, Any]) -> list[tuple[int, int, DealState]]:
    """The reference's (point, events before it, state) at every point of a script case.

    Used to show the state where an implementation's events diverge.  Empty
    if the setup cannot be played.
    """
    points: list[tuple[int, int, DealState]] = []
    try:
        ruleset = ruleset_of(request)
        state, events = setup(ruleset, request["setup"])
    except BoodleError:
        return points
    if request["kind"] == "script":
        _script(ruleset, state, events, request, REFERENCE,
                lambda p, n, s: points.append((p, n, s)))
    else:
        points.append((0, len(events), state))
    return points


def _reject(ruleset: Ruleset, state: DealState, move_json: Mapping[str, Any], engine: Engine
            ) -> Json:
    try:
        move = move_from_json(move_json)
        state, more = engine.apply(ruleset, state, move)
    except BoodleError as exc:
        if exc.rule is None:
            return {"status": "error", "message": exc.message}
        return {"status": "rejected", "rule": exc.rule, "message": exc.message}
    return {"status": "accepted", "events": [e.to_json() for e in more]}


def _count(ruleset: Ruleset, state: DealState, engine: Engine, protocol: int = 2) -> Json:
    try:
        result = count(ruleset, state, engine, ranges=protocol >= 2)
    except BoodleError as exc:
        return {"status": "error", "message": exc.message}
    rows = [{"move": legal_to_json((m,), protocol)[0], "sequences": s, "ledgers": n}
            for m, s, n in result.by_first_move]
    return {"status": "counted",
            "count": {"sequences": result.sequences, "ledgers": result.ledgers,
                      "by_first_move": rows}}


# ---------------------------------------------------------------- session cases


class _ScriptEnded(Exception):
    """The script has no decision left at a choice point: the run ends at ``state``."""

    def __init__(self, state: DealState) -> None:
        super().__init__("no decision left")
        self.state = state


class _Script:
    """Every seat's player in a session case: forced moves are played, a choice point takes
    the next decision; ``point`` counts the points of the whole session (0 = the first)."""

    def __init__(self, decisions: list[Json]) -> None:
        self.decisions = decisions
        self.point = 0

    def __call__(self, ruleset: Ruleset, state: DealState, legal: tuple[Legal, ...]) -> Move:
        forced = only_move(legal)
        if forced is None and not self.decisions:
            raise _ScriptEnded(state)
        move = forced if forced is not None else move_from_json(self.decisions.pop(0))
        self.point += 1
        return move


def is_misdeal(entry: object) -> bool:
    """Whether a script entry declares a misdeal (``{"misdeal": DEAL}``, spec §5.3; the
    feature ``misdeal`` of ``boodle-protocol/2``) rather than being a decision."""
    return isinstance(entry, Mapping) and "misdeal" in entry


def deal_cards(deal: Mapping[str, Any]) -> DealCards:
    """A ``DEAL`` of a setup (``{"deck": …}`` or ``{"hands": …, "widow": …}``) as
    :class:`~boodle.session.run.DealCards`; raises :class:`BoodleError` for a bad card."""
    if "deck" in deal:
        return DealCards(deck=tuple(card_from_json(c) for c in deal["deck"]))
    return DealCards(hands=tuple(tuple(card_from_json(c) for c in h) for h in deal["hands"]),
                     widow=tuple(card_from_json(c) for c in deal["widow"]))


def session_sources(spec: Mapping[str, Any]) -> ExplicitSources:
    """The explicit sources a session setup gives (``draw``, ``cut``, ``first_dealt``,
    ``deals``, ``seating``); raises :class:`BoodleError` for a bad card."""
    return ExplicitSources(
        drawn=tuple(card_from_json(c) for c in spec.get("draw", ())),
        cuts=tuple(tuple(card_from_json(c) for c in r) for r in spec.get("cut", ())),
        faced_cards=tuple(card_from_json(c) for c in spec.get("first_dealt", ())),
        deals=tuple(deal_cards(d) for d in spec["deals"]),
        seatings=tuple(tuple(int(p) for p in order) for order in spec.get("seating", ())))


def run_session(request: Mapping[str, Any], engine: Engine = REFERENCE,
                player: Strategy | None = None) -> Json:
    """The result of a ``session`` request (``conformance/FORMAT.md``): ``done`` with every
    event and the session's ``final``, ``rejected`` for an illegal decision, or ``error``
    for a setup that cannot be played.  ``player``: every seat's player instead of the
    script's decisions (a ``referee`` case played by the reference, :mod:`.referee`)."""
    script = _Script(list(request.get("script", ())))
    try:
        ruleset = ruleset_of(request)
        spec = request["setup"]
        sources = session_sources(spec)
        ledger = ledger_from_json(ruleset, spec["ledger"]) if "ledger" in spec else None
        if ledger is not None and ledger.players != spec["players"]:
            raise BoodleError(f"the ledger has {ledger.players} seats for "
                              f"{spec['players']} players")
        if spec["players"] not in ruleset.players:
            raise BoodleError(f"{ruleset.name} is for {ruleset.players.low} to "
                              f"{ruleset.players.high} players, not {spec['players']}")
        run = SessionRun(ruleset, spec["players"], 0,
                         [script if player is None else player] * spec["players"],
                         sources=sources, engine=engine, ledger=ledger)
        sources.check_used()
    except BoodleError as exc:
        return {"status": "error", "message": exc.message}
    events: list[Event] = list(run.opening)
    stopped_at: DealState | None = None
    try:
        try:
            while run.more_deals():
                events.extend(run.next_deal())
            events.extend(run.finish())
        except _ScriptEnded as end:
            events.extend([*run.ending, *run.current])
            stopped_at = end.state
    except BoodleError as exc:
        out = [e.to_json() for e in [*events, *run.ending, *run.current]]
        if exc.rule is None:
            return {"status": "error", "message": f"at point {script.point}: {exc.message}"}
        return {"status": "rejected", "rule": exc.rule, "message": exc.message,
                "at": script.point - 1, "events": out}
    # the players' balances (spec §10 seating: a deal cut short holds them in table order)
    ledger = run.ledger if stopped_at is None else unseated(stopped_at.ledger, run.seating)
    final = {"ledger": ledger.to_json(), "over": run.over,
             "to_move": None if stopped_at is None else stopped_at.to_move,
             "unused": len(script.decisions), "deals": run.played, "dealers": run.dealers,
             "standings": [chips_json(a) for a in ledger.seats],
             "winners": list(best_seats(ledger)) if run.over else [],
             "eliminated": sorted(eliminated(run.rules, ledger))}
    return {"status": "done", "events": [e.to_json() for e in events], "final": final}
