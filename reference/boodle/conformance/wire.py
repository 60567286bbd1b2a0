"""JSON forms exchanged with implementations: cards, moves, ledgers, events.

All forms are the ones ``conformance/PROTOCOL.md`` specifies:

- a card is its canonical text (``"10♥"``, spec §2.1);
- a chip amount is a JSON integer, or a string ``"a/b"`` for an exact
  fraction in lowest terms (spec §9);
- a move is ``{"move": "lead"|"play"|"pass", "seat": n[, "card": c]}``; among legal moves
  (``boodle-protocol/2``) a bid range is ``{"move": "bid", "seat": n, "min": a, "max": b}``
  (with ``"step": k`` when bids go ``k`` apart), one entry for every bid, while protocol 1
  lists each bid (:func:`legal_to_json`); :func:`legal_keys` reads both the same way;
- a ledger is ``{"seats": [amount …], "sections": {name: amount …}}``;
- an event is the object :meth:`boodle.engine.events.Event.to_json` gives.

:func:`normalize_event` removes what is informative only (a pass's reason), puts card lists
in a fixed order and reads a showdown's hands as their ranks (suits never break ties, spec
§8.2); :func:`normalize_events` also puts the claims one lead or play makes in a fixed order
(spec §6.6: the card takes them at once), so two implementations' events compare by meaning.

:func:`decode_message` reads one line of JSON text as the protocol allows it (PROTOCOL.md,
"Transport"): nested at most :data:`MAX_DEPTH` deep, its strings Unicode text (no lone
surrogate), and anything else a :class:`MessageError`, never a crash.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import typing
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from boodle.engine.ledger import Ledger, normalize
from boodle.engine.state import BidRange, Legal, Move
from boodle.language.cards import RANKS, SUITS, Card, parse_card
from boodle.language.errors import BoodleError
from boodle.language.model import Chips, Ruleset

Json = dict[str, Any]

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects a message may have (the deepest valid message
nests about 8 deep); deeper is an error for its case (PROTOCOL.md, "Transport")."""


class MessageError(ValueError):
    """A line that is not a message the protocol allows: ``kind`` is ``json`` (not JSON),
    ``depth`` (nested more than :data:`MAX_DEPTH` deep) or ``surrogate`` (a string holds
    a lone surrogate)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_TOO_DEEP = (f"nested more than {MAX_DEPTH} deep: no message of the protocol nests so deep "
             "(PROTOCOL.md, Transport)")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def decode_message(text: str) -> Any:
    """The JSON value of one line; raises :class:`MessageError` with the reason.

    ``text`` comes from UTF-8 bytes decoded with replacement, so a surrogate can only come
    from a ``\\u`` escape.  Cost: the decoding, plus a walk of the value's containers when
    the text has more than :data:`MAX_DEPTH` brackets, plus a walk of its strings when the
    text has a surrogate's escape.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise MessageError("depth", _TOO_DEEP) from None
    except ValueError as exc:
        raise MessageError("json", f"not JSON ({exc})") from None
    if isinstance(value, (dict, list)) and text.count("[") + text.count("{") > MAX_DEPTH \
            and _depth_over(value):
        raise MessageError("depth", _TOO_DEEP)
    if _SURROGATE_ESCAPE.search(text):
        lone = _lone_surrogate(value)
        if lone is not None:
            raise MessageError("surrogate", f"a string holds a lone surrogate ({lone!r}), "
                               "which is no Unicode character: JSON text is UTF-8, and a "
                               "\\u escape of half a surrogate pair encodes nothing")
    return value


def _depth_over(value: Any) -> bool:
    """Whether ``value`` nests arrays and objects more than :data:`MAX_DEPTH` deep: its
    containers walked level by level (scalars are not visited), at most that many levels."""
    level = [value]
    for _ in range(MAX_DEPTH):
        deeper: list[Any] = []
        for item in level:
            inner = item.values() if isinstance(item, dict) else item
            deeper.extend(v for v in inner if isinstance(v, (dict, list)))
        if not deeper:
            return False
        level = deeper
    return True


def _lone_surrogate(value: Any) -> str | None:
    """The first string (key or value) in ``value`` that UTF-8 cannot encode, else ``None``."""
    todo = [value]
    while todo:
        item = todo.pop()
        texts: list[Any] = []
        if isinstance(item, str):
            texts = [item]
        elif isinstance(item, dict):
            texts = list(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        for text in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                return str(text[max(0, exc.start - 10):exc.end + 10])
    return None


INFORMATIVE = {"pass": ("reason",)}
"""Event fields that are informative text only, by event kind; never compared."""


def card_from_json(text: object) -> Card:
    """A card from its text; raises :class:`BoodleError` for anything else."""
    if not isinstance(text, str):
        raise BoodleError(f"a card is a string like \"10♥\", not {text!r}")
    try:
        return parse_card(text)
    except ValueError as exc:
        raise BoodleError(str(exc)) from None


def chips_from_json(value: object) -> Chips:
    """An amount from an integer or an ``"a/b"`` string; raises :class:`BoodleError`."""
    if isinstance(value, bool):
        raise BoodleError(f"not a chip amount: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and "/" in value:
        top, _, bottom = value.partition("/")
        if top.lstrip("-").isdigit() and bottom.isdigit() and int(bottom) > 0:
            return normalize(Fraction(int(top), int(bottom)))
    raise BoodleError(f"not a chip amount: {value!r} (an integer, or \"a/b\")")


def _move_name(cls: type) -> str:
    """``LeadMove`` → ``lead``, ``WidowBidMove`` → ``widow-bid``."""
    base = cls.__name__.removesuffix("Move")
    return re.sub(r"(?<!^)(?=[A-Z])", "-", base).lower()


@functools.cache
def _move_classes() -> dict[str, tuple[type, dict[str, Any]]]:
    """Every move class of :data:`boodle.engine.state.Move` and its field types, by JSON name."""
    return {_move_name(cls): (cls, typing.get_type_hints(cls)) for cls in typing.get_args(Move)}


def move_to_json(move: Move) -> Json:
    """``LeadMove(0, 9♦)`` → ``{"move": "lead", "seat": 0, "card": "9♦"}``.

    Every field of the move is written, cards as text: moves added to the
    engine later (a widow purchase, a bid) get a JSON form the same way.
    """
    out: Json = {"move": _move_name(type(move)), "seat": move.seat}
    for f in dataclasses.fields(move):
        value = getattr(move, f.name)
        if f.name != "seat":
            out[f.name] = str(value) if isinstance(value, Card) else value
    return out


def move_from_json(data: Mapping[str, Any]) -> Move:
    """The move a JSON object names; raises :class:`BoodleError` for an unknown form, or a
    field of the wrong type: a card is a card's text, an integer field (a bid's amount, in
    chips) a JSON integer, never a fraction, ``2.0`` or ``true`` (spec §9: no floating point;
    the protocol's schema leaves the fields of later stages' moves open)."""
    kind, seat = data.get("move"), data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BoodleError(f"a move needs an integer seat: {dict(data)}")
    found = _move_classes().get(str(kind))
    if found is None:
        raise BoodleError(f"unknown move {kind!r}")
    cls, hints = found
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            raise BoodleError(f"a {kind} move needs a {f.name!r}: {dict(data)}")
        value = data[f.name]
        if hints.get(f.name) is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise BoodleError(f"a {kind} move's {f.name!r} must be an integer, not {value!r}")
        values[f.name] = card_from_json(value) if hints.get(f.name) is Card else value
    extra = set(data) - {"move"} - set(values)
    if extra:
        raise BoodleError(f"unknown fields in a {kind} move: {sorted(extra)}")
    move: Move = cls(**values)
    return move


def move_key(data: Mapping[str, Any]) -> str:
    """A stable text key for a JSON move (``lead 0 9♦``), used to compare sets of moves; a
    bid range is ``bid 0 1..44`` (with `` step K`` when its step is not 1)."""
    interval = _bid_interval(data)
    if interval is not None and "min" in data:
        seat, low, high, step = interval
        return f"bid {seat} {low}..{high}" + (f" step {step}" if step != 1 else "")
    rest = " ".join(str(v) for k, v in sorted(data.items()) if k not in ("move", "seat"))
    return f"{data.get('move')} {data.get('seat')}" + (f" {rest}" if rest else "")


MAX_V1_BIDS = 10_000
"""The most bids one list of legal moves holds in ``boodle-protocol/1`` (every bid written
out); a range of more is an error that names protocol 2, which writes it as one entry."""


def legal_to_json(entries: Sequence[Legal], protocol: int = 2) -> list[Json]:
    """The JSON list of legal moves: moves as :func:`move_to_json`, a
    :class:`~boodle.engine.state.BidRange` as one ``{"move": "bid", "seat", "min", "max"}``
    entry (``"step"`` only when it is not 1) under protocol 2, as its every bid under
    protocol 1.  Raises :class:`BoodleError` when protocol 1 would write more than
    :data:`MAX_V1_BIDS` bids (a seat with 10^8 chips): its cost would grow with the balance.
    """
    out: list[Json] = []
    for entry in entries:
        if not isinstance(entry, BidRange):
            out.append(move_to_json(entry))
        elif protocol >= 2:
            out.append({"move": "bid", "seat": entry.seat, "min": entry.low, "max": entry.high,
                        **({"step": entry.step} if entry.step != 1 else {})})
        elif entry.size > MAX_V1_BIDS:
            raise BoodleError(f"{entry}: boodle-protocol/1 lists every bid, and "
                              f"{entry.size} bids are more than {MAX_V1_BIDS}; "
                              "boodle-protocol/2 writes them as one range")
        else:
            out.extend({"move": "bid", "seat": entry.seat, "amount": a}
                       for a in entry.amounts())
    return out


def _bid_interval(data: Mapping[str, Any]) -> tuple[int, int, int, int] | None:
    """(seat, low, high, step) of a bid or bid range in JSON, or ``None`` for another move."""
    seat = data.get("seat")
    if data.get("move") != "bid" or not isinstance(seat, int):
        return None
    if set(data) == {"move", "seat", "amount"} and isinstance(data["amount"], int):
        return seat, data["amount"], data["amount"], 1
    if {"min", "max"} <= set(data) <= {"move", "seat", "min", "max", "step"}:
        low, high, step = data["min"], data["max"], data.get("step", 1)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high, step)):
            return seat, low, high, step
    return None


def legal_keys(moves: Sequence[Mapping[str, Any]]) -> list[str]:
    """Sorted text keys of a list of legal moves, the same for both protocols' forms: each
    seat's bids of step 1 (single ``amount`` bids and ``min``/``max`` ranges) merged into
    maximal ranges ``bid S a..b``; other moves by :func:`move_key`.  Cost: one step per
    entry (plus a sort), never one per amount of a range."""
    keys: list[str] = []
    spans: dict[int, list[tuple[int, int]]] = {}
    for data in moves:
        interval = _bid_interval(data)
        if interval is None:
            keys.append(move_key(data))
        elif interval[3] != 1 and interval[1] != interval[2]:
            seat, low, high, step = interval
            keys.append(f"bid {seat} {low}..{high} step {step}")
        else:
            spans.setdefault(interval[0], []).append(interval[1:3])
    for seat, intervals in spans.items():
        merged: list[list[int]] = []
        for low, high in sorted(intervals):
            if merged and low <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        keys.extend(f"bid {seat} {low}..{high}" for low, high in merged)
    return sorted(keys)


def ledger_from_json(ruleset: Ruleset, data: Mapping[str, Any]) -> Ledger:
    """A ledger in board order from ``{"seats": […], "sections": {…}}``.

    Raises :class:`BoodleError` unless the sections are exactly the board's
    and every amount is exact (sections never negative).
    """
    names = tuple(s.name for s in ruleset.board)
    sections = data.get("sections")
    if not isinstance(sections, Mapping) or set(sections) != set(names):
        given = sorted(sections) if isinstance(sections, Mapping) else sections
        raise BoodleError(f"the ledger's sections must be the board's {list(names)}, "
                          f"not {given}")
    seats = tuple(chips_from_json(a) for a in data.get("seats", ()))
    amounts = tuple((n, chips_from_json(sections[n])) for n in names)
    if any(a < 0 for _, a in amounts):
        raise BoodleError("a section never holds a negative amount (spec §9)")
    return Ledger(seats, amounts)


def _card_order(text: str) -> tuple[int, int, str]:
    try:
        card = parse_card(text)
    except ValueError:
        return (9, 99, text)
    return (SUITS.index(card.suit), RANKS.index(card.rank), text)


def sort_cards(cards: list[Any]) -> list[Any]:
    """Card texts in a fixed order (suit ♣♦♥♠, then rank 2 … A); non-cards last."""
    if not all(isinstance(c, str) for c in cards):
        return cards
    return sorted(cards, key=_card_order)


CARD_SETS = {"deal": ("widow",), "widow-shown": ("cards",),
             "widow-exchange": ("taken", "discarded")}
"""Event fields that are sets of cards: their order is not compared."""


def normalize_event(event: Mapping[str, Any]) -> Json:
    """``event`` without informative fields, its sets of cards in a fixed order."""
    kind = str(event.get("kind"))
    out = {k: v for k, v in event.items() if k not in INFORMATIVE.get(kind, ())}
    for name in CARD_SETS.get(kind, ()):
        if isinstance(out.get(name), list):
            out[name] = sort_cards(out[name])
    if kind == "deal" and isinstance(out.get("hands"), list):
        out["hands"] = [sort_cards(h) if isinstance(h, list) else h for h in out["hands"]]
    if kind == "showdown" and isinstance(out.get("hands"), list):
        out["hands"] = [{**{k: v for k, v in h.items() if k != "cards"},
                         "ranks": _ranks(h["cards"])}
                        if isinstance(h, dict) and isinstance(h.get("cards"), list) else h
                        for h in out["hands"]]
    return out


def _ranks(cards: list[Any]) -> list[Any]:
    """The ranks of a showdown hand's cards, high to low (``["K", "K", "9"]``): what the
    comparison keeps of them, since suits never break ties (spec §8.2); a list holding a
    non-card is kept as its cards, sorted."""
    keyed = [_card_order(t) if isinstance(t, str) else (9, 99, "") for t in cards]
    if any(k[0] == 9 for k in keyed):
        return sort_cards(cards)
    return [RANKS[r] for _, r, _ in sorted(keyed, key=lambda k: -k[1])]


CARD_PLAYS = ("lead", "play")
"""Event kinds of a card played: the claims right after one are that card's (spec §6.6)."""


def normalize_events(events: Sequence[Mapping[str, Any]]) -> list[Json]:
    """Every event :func:`normalize_event`-ed, and the run of ``claim`` events right after a
    ``lead`` or ``play`` sorted by section name: one card takes its claims at once (spec §6.6),
    so their order is not compared (PROTOCOL.md, "Events").  Other claims (going out's, a
    holding phase's) keep their order."""
    out = [normalize_event(e) for e in events]
    i = 0
    while i < len(out):
        if out[i].get("kind") in CARD_PLAYS:
            j = i + 1
            while j < len(out) and out[j].get("kind") == "claim":
                j += 1
            out[i + 1:j] = sorted(out[i + 1:j], key=lambda e: str(e.get("section")))
            i = j
        else:
            i += 1
    return out
