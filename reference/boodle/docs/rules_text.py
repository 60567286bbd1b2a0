"""Ruleset model → plain-language sentences, one template per construct.

The text of a field is its construct's template (:mod:`boodle.docs.constructs`)
filled from the object it belongs to: ``{value}`` is the field's own value,
``{other}`` the text of any other field of the same object (computed when
asked), so a template may combine fields (``{who} leads {choice}``).
Parameter values print as the players see them: cards ``A♥``, a section by
its label, a phase by its label, a count with its unit (``{amount:chips}``);
any other word (``each opponent``) needs a ``value.WORD`` template.

A **rule block** (the deal, a phase, the session …) renders as numbered
rules, one per construct field, each with the span of the DSL line that
states it (:class:`Rule`).
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boodle.docs.constructs import construct_value, constructs, is_parameter
from boodle.docs.escape import md
from boodle.docs.templates import Templates
from boodle.language.cards import SUIT_COLOUR, SUITS, Card
from boodle.language.errors import Span
from boodle.language.model import Ruleset


@dataclass(frozen=True)
class Rule:
    """One numbered rule: its text, the construct key, and where the DSL states it.

    ``key``: ``Class.field`` (``StopsPhase.restart``); ``span``: the DSL
    line(s), ``None`` when the rule is the spec's default (not written).
    """

    key: str
    text: str
    span: Span | None
    tags: tuple[str, ...] = ()


OTHER_TEMPLATE: dict[str, Callable[[Any], str | None]] = {
    # spec §10: under 'seating: redrawn each deal' the deal passes from seat to seat while
    # the players move, so a rotation gives every seat one deal, not every player
    "SessionSpec.rotations": lambda s: (
        "SessionSpec.rotations_by_seat" if s.seating == "redrawn each deal"
        # spec §10 Balances: a rotation counts deals per starting player and an eliminated
        # seat never deals, so the players still in deal more often once one is out
        else "SessionSpec.rotations_eliminated" if s.negative == "eliminate" else None),
    # spec §10 Balances: too few players left ends the session, except under 'end: last
    # player with chips', whose own sentence says they play on however few
    "SessionSpec.negative": lambda s: ("SessionSpec.negative_ends" if s.negative == "eliminate"
                                       and not s.end_last_with_chips else None),
}
"""Fields whose sentence depends on another field of the same object: ``Class.field`` → the
template key to use instead for that object (``None``: the field's own)."""


class Speaker:
    """Says a ruleset's constructs in one language, as Markdown text: the rules file's own
    words (labels, titles) are escaped (:func:`boodle.docs.escape.md`), the templates not."""

    def __init__(self, ruleset: Ruleset, templates: Templates) -> None:
        self.ruleset = ruleset
        self.t = templates

    # -- values
    def value(self, v: Any) -> str:
        """A parameter value as text (cards, sections by label, lists, words)."""
        if v is None:
            return ""
        if isinstance(v, bool):
            return self.t.text("value.yes" if v else "value.no")
        if isinstance(v, Card):
            return card_html(v, self.t)
        if isinstance(v, int):
            return str(v)
        if isinstance(v, tuple | frozenset | list):
            items = sorted(v, key=str) if isinstance(v, frozenset) else list(v)
            texts = [self.value(x) for x in items]
            symbols = all(isinstance(x, Card) or x in SUITS or x in self.ruleset.deck.ranks
                          for x in items)
            return " ".join(texts) if symbols else self.t.text("value.list",
                                                                items=", ".join(texts))
        if dataclasses.is_dataclass(v):
            return self.phrase(v)
        return self.word(str(v))

    def word(self, s: str) -> str:
        """A name or word: a suit symbol, a rank (as the language writes it), a section or phase
        label, else ``value.WORD``."""
        if not s or s in SUITS:
            return s
        if s in self.ruleset.deck.ranks:
            return self.t.rank(s)
        for section in self.ruleset.board:
            if section.name == s:
                return md(section.label)
        for phase in self.ruleset.phases:
            if phase.name == s:
                return md(phase.label)
        return self.t.text(f"value.{s}")

    # -- constructs
    def phrase(self, obj: Any) -> str:
        """The class template of ``obj`` filled from its fields."""
        return self.t.fill(self.t.raw(type(obj).__name__), _Fields(self, obj))

    def field(self, obj: Any, name: str, value: Any = dataclasses.MISSING) -> str:
        """The text of one construct field of ``obj`` (``value`` overrides a tuple item)."""
        cls = type(obj).__name__
        v = construct_value(obj, name) if value is dataclasses.MISSING else value
        if is_parameter(type(obj), name):
            return md(v) if name in _PLAIN and isinstance(v, str) else self.value(v)
        base = f"{cls}.{name}"
        other = OTHER_TEMPLATE.get(base)
        if other is not None and v is not None:
            base = other(obj) or base
        fields = _Fields(self, obj)
        if isinstance(v, bool):
            return self.t.fill(self.template(f"{base}.{'yes' if v else 'no'}", obj, name), fields)
        if isinstance(v, str) and self.t.has(f"{base}.{v}"):
            return self.t.fill(self.template(f"{base}.{v}", obj, name), fields)
        if v is None:
            return self.t.fill(self.t.raw(f"{base}.none"), fields)
        if isinstance(v, tuple | frozenset) and not v:
            return self.t.fill(self.t.raw(f"{base}.empty"), fields)
        if isinstance(v, str) and not self.t.has(base):
            self.t.raw(f"{base}.{v}")  # raises MissingText naming the literal's key
        return self.t.fill(self.template(base, obj, name), _Fields(self, obj, self.value(v)))

    def template(self, key: str, obj: Any, name: str) -> str:
        """The template of ``key`` for ``obj``, or its ``KEY.one`` form where there is one and
        every list the template names holds one item: "on the Kitty" for one section, "on
        each of: A♥, K♣" for several (``{value}`` is field ``name`` itself)."""
        text = self.t.raw(key)
        if not self.t.has(f"{key}.one"):
            return text
        used = {name if f == "value" else f for _, f, _, _ in string.Formatter().parse(text) if f}
        lists = [getattr(obj, f) for f in sorted(used) if isinstance(getattr(obj, f, None), tuple)]
        return self.t.raw(f"{key}.one") if lists and all(len(x) == 1 for x in lists) else text

    def rules(self, obj: Any, where: SpanFinder | None = None) -> list[Rule]:
        """The numbered rules of a rule block: one per construct field (tuples: one per item)."""
        out: list[Rule] = []
        for name in constructs(type(obj)):
            v = getattr(obj, name)
            key = f"{type(obj).__name__}.{name}"
            items = v if isinstance(v, tuple) and v and dataclasses.is_dataclass(v[0]) else None
            for item in items if items is not None else (dataclasses.MISSING,):
                text = squash(self.field(obj, name, item))
                span = getattr(item, "span", None) if items is not None else None
                if span is None and where is not None:
                    span = where(obj, name, v)
                if text.strip():
                    out.append(Rule(key, text, span, _tags(v if items is None else item)))
        return out


RED = "#c62828"
"""The colour of hearts and diamonds on every page (the site's CSS and the board use it)."""


def card_html(card: Card, t: Templates | None = None) -> str:
    """A card as its symbol text (its rank as ``t``'s language writes it), a red suit
    wrapped in ``<span class="card-red" style="color:…">``: red on the site (its CSS) and on
    a page read outside it (``boodle docs page``: the inline style)."""
    text = t.card(card) if t is not None else str(card)
    if SUIT_COLOUR[card.suit] != "red":
        return text
    return f'<span class="card-red" style="color:{RED}">{text}</span>'


_SPACES = re.compile(r"[ \t\r\n]+")


def squash(text: str) -> str:
    """``text`` on one line, runs of spaces made one: the space of empty parts of a template
    go, a non-breaking space (French typography, before ``:``) stays."""
    return _SPACES.sub(" ", text).strip()


def _tags(value: Any) -> tuple[str, ...]:
    """The construct values of a rule (words of its literal fields), to match case pins."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, bool):
        return ()
    if dataclasses.is_dataclass(value):
        return tuple(str(getattr(value, f.name)) for f in dataclasses.fields(value)
                     if isinstance(getattr(value, f.name), str))
    return ()


_PLAIN = frozenset({"name", "label", "title", "about", "base"})
"""Parameters printed as written (display text, escaped as Markdown text), never looked up."""

SpanFinder = Any
"""``(obj, field, value) -> Span | None``: where a rule is written (see :mod:`.spans`)."""


class _Fields(Mapping[str, Any]):
    """The placeholders of one object's templates, computed when asked."""

    def __init__(self, speaker: Speaker, obj: Any, value: Any = dataclasses.MISSING) -> None:
        self.s, self.obj, self.own = speaker, obj, value
        self.names = [f.name for f in dataclasses.fields(obj)]

    def __getitem__(self, key: str) -> Any:
        if key == "value" and self.own is not dataclasses.MISSING:
            return self.own
        if key not in self.names:
            raise KeyError(f"template of {type(self.obj).__name__} uses unknown field {{{key}}}")
        raw = getattr(self.obj, key)
        if is_parameter(type(self.obj), key) and isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        return self.s.field(self.obj, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)
