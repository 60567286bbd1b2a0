"""The authoring shorthand of hand-written cases (``conformance/src/hand/*.json``).

Hand-written cases are written in a short text form and expanded into the
case format by :func:`expand`.  The expansion is a one-to-one rewriting of
words into JSON fields, with no game logic: every value in a hand-written
case is the author's, worked out from the rules by hand.

Seats are letters (A = seat 0).  Moves: ``lead A 9♦``, ``play C 10♦``,
``pass A``.  Events:

========================================  ==========================================
``lead A 9♦`` / ``lead B 3♣ restart``      a lead (restart false / true)
``play C 10♦``                             a follow
``stop B Q♦ widow K♦``                     a stop and why (``top``: top rank, no next card)
``claim B Q♦ 4``                           a section taken
``pass A``                                 a pass (its reason text is never compared)
``penalty A kitty 1`` / ``penalty A B 1``  a "cannot lead" penalty to a section / a seat
``penalty A B 1 not-lowest``               a "lead not lowest" penalty
``bonus A kitty 1`` / ``bonus A B 1``      a stop bonus to A, from a section / a seat
``flip``                                   the colour flips after a round of passes
``out B``                                  B goes out
``pay C B 3 3`` / ``pay B kitty 0 2 excused``  payment: payer, payee, amount, cards left
``carry A♥ 4``                             a section carries over
``end B SEATS BOARD`` / ``end - SEATS BOARD``  the deal ends (went out / all passed),
                                           ledger as in the position notation
``ante A A♥ 1`` / ``ante-widow D kitty 1``  an ante (the widow's share, paid by the dealer)
========================================  ==========================================

A deal's ``"widow": "rest"`` is every card of the variant's deck not in a
hand, in deck order.  A session setup (``"deals": [DEAL …]``) takes the same
shorthand in each deal, and its ``draw``, ``first_dealt`` and each round of
its ``cut`` may be written as one string of cards (``"K♠ K♥ 5♦"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boodle.conformance.paths import load_variant
from boodle.conformance.wire import Json, chips_from_json
from boodle.language.cards import parse_card
from boodle.language.errors import BoodleError


def _seat(letter: str) -> int:
    if len(letter) != 1 or not "A" <= letter <= "T":
        raise BoodleError(f"not a seat letter: {letter!r}")
    return ord(letter) - ord("A")


def _card(text: str) -> str:
    return str(parse_card(text))


def _account(word: str) -> Json:
    if len(word) == 1 and "A" <= word <= "T":
        return {"seat": _seat(word)}
    try:
        return {"section": _card(word)}
    except ValueError:
        return {"section": word}


def _amount(word: str) -> int | str:
    value = chips_from_json(int(word) if "/" not in word else word)
    return value if isinstance(value, int) else word


def move(text: str | Mapping[str, Any]) -> Json:
    """``lead A 9♦`` → ``{"move": "lead", "seat": 0, "card": "9♦"}`` (a JSON move as given)."""
    if not isinstance(text, str):
        return dict(text)
    w = text.split()
    if w[0] == "pass" and len(w) == 2:
        return {"move": "pass", "seat": _seat(w[1])}
    if w[0] in ("lead", "play") and len(w) == 3:
        return {"move": w[0], "seat": _seat(w[1]), "card": _card(w[2])}
    raise BoodleError(f"not a move in shorthand: {text!r}")


def _ledger(seats: str, board: str) -> Json:
    sections: dict[str, Any] = {}
    for item in board.split(","):
        name, _, amount = item.partition("=")
        sections[_account(name)["section"]] = _amount(amount)
    return {"seats": [_amount(a) for a in seats.split(",")], "sections": sections}


def _transfer(kind: str, payer: Json, payee: Json, amount: str, reason: str) -> Json:
    return {"kind": kind, "from": payer, "to": payee, "amount": _amount(amount), "reason": reason}


def event(text: str) -> Json:
    """One event in shorthand → its JSON (see the module docstring)."""
    w = text.split()
    k = w[0]
    if k == "lead":
        return {"kind": "lead", "seat": _seat(w[1]), "card": _card(w[2]),
                "restart": len(w) > 3 and w[3] == "restart"}
    if k == "play":
        return {"kind": "play", "seat": _seat(w[1]), "card": _card(w[2])}
    if k == "stop":
        top = w[3] == "top"
        return {"kind": "stop", "seat": _seat(w[1]), "card": _card(w[2]),
                "reason": "top rank" if top else " ".join(w[3:-1]),
                "next_card": None if top else _card(w[-1])}
    if k == "claim":
        return {"kind": "claim", "seat": _seat(w[1]), "section": _account(w[2])["section"],
                "amount": _amount(w[3])}
    if k == "pass":
        return {"kind": "pass", "seat": _seat(w[1])}
    if k == "penalty":
        body = _transfer("penalty", {"seat": _seat(w[1])}, _account(w[2]), w[3], "penalty")
        fault = "lead not lowest" if w[4:] == ["not-lowest"] else "cannot lead"
        return {"kind": "penalty", "seat": _seat(w[1]), "fault": fault,
                **{f: body[f] for f in ("from", "to", "amount", "reason")}}
    if k == "bonus":
        body = _transfer("stop-bonus", _account(w[2]), {"seat": _seat(w[1])}, w[3], "stop bonus")
        return {"kind": "stop-bonus", "seat": _seat(w[1]),
                **{f: body[f] for f in ("from", "to", "amount", "reason")}}
    if k == "flip":
        return {"kind": "flip-colour", "flipped": True}
    if k == "out":
        return {"kind": "go-out", "seat": _seat(w[1])}
    if k == "pay":
        return {"kind": "payment", "payer": _seat(w[1]), "payee": _account(w[2]),
                "amount": _amount(w[3]), "cards_left": int(w[4]),
                "excused": len(w) > 5 and w[5] == "excused"}
    if k == "carry":
        return {"kind": "carry-over", "section": _account(w[1])["section"], "amount": _amount(w[2])}
    if k == "end":
        winner = None if w[1] == "-" else _seat(w[1])
        return {"kind": "deal-end", "winner": winner,
                "reason": "went out" if winner is not None else "all passed",
                "ledger": _ledger(w[2], w[3])}
    if k in ("ante", "ante-widow"):
        reason = "ante (widow's share)" if k == "ante-widow" else "ante"
        return _transfer("ante", {"seat": _seat(w[1])}, _account(w[2]), w[3], reason)
    raise BoodleError(f"not an event in shorthand: {text!r}")


def _rest(variant: str, hands: list[list[str]]) -> list[str]:
    held = {c for h in hands for c in h}
    return [str(c) for c in load_variant(variant).deck.cards() if str(c) not in held]


def _deal_setup(variant: str, setup: Json) -> Json:
    out = dict(setup)
    deal = dict(out["deal"])
    if "hands" in deal:
        deal["hands"] = [[_card(c) for c in h.split()] if isinstance(h, str) else h
                         for h in deal["hands"]]
        if deal.get("widow") == "rest":
            deal["widow"] = _rest(variant, deal["hands"])
    if isinstance(deal.get("deck"), str):
        deal["deck"] = [_card(c) for c in deal["deck"].split()]
    out["deal"] = deal
    if isinstance(out.get("ledger"), str):
        seats, board = out["ledger"].split()
        out["ledger"] = _ledger(seats, board)
    return out


def _cards(value: str | list[str]) -> list[str]:
    return [_card(c) for c in value.split()] if isinstance(value, str) else list(value)


def _session_setup(variant: str, setup: Json) -> Json:
    out = dict(setup)
    out["deals"] = [_deal_setup(variant, {"deal": d})["deal"] for d in setup["deals"]]
    for key in ("draw", "first_dealt"):
        if key in out:
            out[key] = _cards(out[key])
    if "cut" in out:
        out["cut"] = [_cards(r) for r in out["cut"]]
    if isinstance(out.get("ledger"), str):
        seats, board = out["ledger"].split()
        out["ledger"] = _ledger(seats, board)
    return out


def _expect(variant: str, expect: Mapping[str, Any]) -> Json:
    out: Json = {}
    for key, value in expect.items():
        if key == "events":
            out[key] = [event(e) if isinstance(e, str) else _deal_event(variant, e) for e in value]
        elif key == "legal":
            out[key] = {str(p): [move(m) for m in ms] for p, ms in value.items()}
        elif key == "final" and isinstance(value.get("ledger"), str):
            seats, board = value["ledger"].split()
            out[key] = {**value, "ledger": _ledger(seats, board)}
        else:
            out[key] = value
    return out


def _deal_event(variant: str, e: Mapping[str, Any]) -> Json:
    if e.get("kind") != "deal":
        return dict(e)
    hands = [[_card(c) for c in h.split()] if isinstance(h, str) else h for h in e["hands"]]
    widow = e["widow"]
    if widow == "rest":
        widow = _rest(variant, hands)
    elif isinstance(widow, str):
        widow = [_card(c) for c in widow.split()]
    return {**e, "hands": hands, "widow": widow}


def expand(source: Mapping[str, Any]) -> Json:
    """A hand-written case in shorthand → the case fields (without ``format`` and ``id``)."""
    name = source["variant"]
    case: Json = {
        "kind": source["kind"],
        "description": source["description"],
        "variant": {"name": name, "version": load_variant(name).version},
        "pins": list(source["pins"]),
        "source": dict(source["source"]),
        "setup": _deal_setup(name, source["setup"]) if "deal" in source["setup"]
        else _session_setup(name, source["setup"]) if "deals" in source["setup"]
        else dict(source["setup"]),
    }
    if "script" in source or source["kind"] in ("script", "session"):
        case["script"] = [move(m) for m in source.get("script", [])]
    if "legal_at" in source:
        case["legal_at"] = list(source["legal_at"])
    if "move" in source:
        case["move"] = move(source["move"])
    case["expect"] = _expect(name, source["expect"])
    return case
