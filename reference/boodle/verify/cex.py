"""Counterexamples as people read them: states as cards and chips, traces as play-by-play.

Two sources: a z3 model (a dict of values from
:func:`~boodle.verify.z3eval.state_values`, with a
:class:`~boodle.verify.layout.Layout` to name the cards) and a real engine
trace (:class:`Counterexample` made by :mod:`boodle.verify.explicit`, whose
events are printed by :func:`boodle.engine.trace.render_text`).  Both also have a
JSON form, tagged so that a tool can read it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from boodle.engine.events import Event
from boodle.engine.ledger import chips_json
from boodle.engine.trace import render_text
from boodle.language.cards import Card
from boodle.verify.layout import FOLLOW, LEAD, NONE, OVER, Layout

__all__ = ["Counterexample", "model_state_json", "model_state_lines", "model_steps_lines"]


def _cards(cards: list[Card]) -> str:
    return " ".join(map(str, cards)) or "—"


def _where(layout: Layout, loc: list[int]) -> dict[str, list[Card]]:
    """Location code → its cards, named."""
    out: dict[str, list[Card]] = {}
    n = layout.n
    for card, code in zip(layout.cards, loc, strict=True):
        if 0 <= code < n:
            key = f"seat {code} holds"
        elif code == n:
            key = "widow"
        elif n < code <= 2 * n:
            key = f"seat {code - n - 1} played"
        elif code == layout.out:
            key = "out of play"
        else:
            key = f"nowhere (code {code})"
        out.setdefault(key, []).append(card)
    return out


def _amount(x: Any) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        return f"{x.numerator}/{x.denominator}"
    return str(int(x)) if isinstance(x, Fraction | int) else str(x)


def _run(layout: Layout, v: dict[str, Any]) -> str:
    step, who = v["step"], v["tomove"]
    if step == OVER:
        won = v["winner"]
        return "deal over: " + (f"seat {won} went out" if won != NONE else "nobody went out")
    if step == FOLLOW:
        cur = v["cur"]
        at = layout.cards[cur] if 0 <= cur < len(layout.cards) else f"card code {cur}"
        return f"run at {at}: seat {who} must play the next card"
    if step == LEAD and v["restart"]:
        stopped = v["stopped"]
        suit = layout.suits[stopped] if 0 <= stopped < len(layout.suits) else f"suit {stopped}"
        return f"seat {who} to restart after a stop in {suit} (last card by seat {v['last']})"
    return f"seat {who} to make the first lead"


def model_state_lines(layout: Layout, v: dict[str, Any]) -> list[str]:
    """A model's state as lines: hands, widow, played cards, the run, passes and chips."""
    places = sorted(_where(layout, v["loc"]).items())
    lines = [f"{where}: {_cards(cards)}" for where, cards in places]
    lines.append(_run(layout, v))
    if v["passes"] or v["flipped"]:
        lines.append(f"passes in a row: {v['passes']}" + (", colour flipped" if v["flipped"]
                                                          else ""))
    seats = ", ".join(f"seat {k} {_amount(x)}" for k, x in enumerate(v["bal"]))
    sections = ", ".join(f"{s.name} {_amount(x)}" for s, x in zip(layout.board, v["sec"],
                                                                  strict=True))
    lines.append(f"chips: {seats}; sections: {sections}")
    ghosts = v.get("ghosts", {})
    if ghosts:
        held = sum(v["bal"]) + sum(v["sec"])
        lines.append(f"dealer seat {ghosts.get('dealer')}, chips in play {_amount(held)} "
                     f"(the deal began with {_amount(ghosts['total'])})"
                     + (f", trumps {layout.suits[ghosts['trump']]}"
                        if 0 <= ghosts.get("trump", NONE) < len(layout.suits) else "")
                     + (", eliminated: " + ", ".join(f"seat {k}" for k in ghosts["eliminated"])
                        if ghosts.get("eliminated") else "")
                     + ("".join(f", seat {k} short, may take only: {', '.join(names) or 'nothing'}"
                                for k, names in ghosts["short"].items())
                        if ghosts.get("short") else ""))
    return lines


def model_steps_lines(layout: Layout, steps: list[Any]) -> list[str]:
    """A BMC trace as play-by-play: who moved and what, step by step."""
    out = []
    for k, step in enumerate(steps, 1):
        who = step.before["tomove"]
        if step.kind == "pass":
            what = "passes"
        else:
            card = layout.cards[step.card]
            what = ("plays" if step.before["step"] == FOLLOW else "leads") + f" {card}"
        out.append(f"{k:>3}. seat {who} {what}")
    return out


def model_state_json(layout: Layout, v: dict[str, Any]) -> dict[str, Any]:
    """A model's state as JSON: cards by place, the run, chips (exact amounts)."""
    return {
        "places": {k: [str(c) for c in cards] for k, cards in _where(layout, v["loc"]).items()},
        "run": _run(layout, v),
        "passes": v["passes"],
        "flipped": v["flipped"],
        "seats": [chips_json(x) for x in v["bal"]],
        "sections": {s.name: chips_json(x) for s, x in zip(layout.board, v["sec"], strict=True)},
    }


@dataclass
class Counterexample:
    """A violation found on the real engine: ``prop`` broken after ``moves`` from the deal.

    ``deal``: hands by seat and the widow (from the exhaustive search, also each seat's
    ``chips before the ante``: the start it was found from); ``moves``: the moves as text;
    ``events``: every event from the start of the deal; ``why``: what is
    wrong in the last state; ``state``: that state's cards and chips;
    ``loop``: for a cycle, the moves that return to an earlier state.
    """

    prop: str
    why: str
    deck: str
    players: int
    deal: dict[str, list[str]]
    moves: list[str]
    events: list[Event] = field(default_factory=list, repr=False)
    state: dict[str, Any] = field(default_factory=dict)
    loop: list[str] = field(default_factory=list)

    @property
    def length(self) -> int:
        """Moves from the deal to the violation (with the loop, for a cycle)."""
        return len(self.moves) + len(self.loop)

    def text(self) -> str:
        """The play-by-play: the deal and every event, then what is wrong."""
        head = [f"{self.prop}: {self.why}",
                f"  deck {self.deck}, {self.players} players, {self.length} moves"]
        body = ["  " + line for line in render_text(self.events).splitlines()]
        tail = [f"  then, round and round: {'; '.join(self.loop)}"] if self.loop else []
        return "\n".join([*head, *body, *tail])

    def to_json(self) -> dict[str, Any]:
        """Tagged JSON: the deal, the moves, the events and the broken state."""
        return {
            "kind": "counterexample",
            "property": self.prop,
            "why": self.why,
            "deck": self.deck,
            "players": self.players,
            "deal": self.deal,
            "moves": self.moves,
            "loop": self.loop,
            "events": [e.to_json() for e in self.events],
            "state": self.state,
        }
