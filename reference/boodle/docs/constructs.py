"""Which text templates must exist: every construct of the model and of the grammar.

A **model construct** is a field of a :mod:`boodle.language.model` dataclass and, for
a ``Literal`` field, each of its values.  Keys (``Class.field…``):

- ``Class``: the class's phrase (a heading or a sentence; may be empty);
- a ``Literal`` field: ``Class.field.VALUE`` for every value;
- a ``bool`` field: ``Class.field.yes`` and ``Class.field.no``;
- an optional field: ``Class.field`` and ``Class.field.none``;
- a tuple or set field: ``Class.field`` and ``Class.field.empty``;
- any other field: ``Class.field``;
- for :class:`~boodle.language.model.Ruleset`, also ``Ruleset.field`` (the page heading).

Fields listed in :data:`PARAMETERS` are values used inside other templates
(``{amount:chips}``) and need no key of their own.  A field added to the model
without a template (or a parameter declaration) fails the docs build with
the exact key to add: new constructs cannot slip in undocumented.

A **grammar construct** is every alternative alias (``-> name``) and named
rule of ``grammar/boodle.lark``; each needs ``dsl.NAME`` (its meaning) in the
English templates (the DSL reference is in English).
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

from boodle.docs.templates import MissingText, Templates
from boodle.language import model as m
from boodle.resources import grammar_path

PARAMETERS: dict[str, frozenset[str]] = {
    "*": frozenset({"span", "name", "label"}),
    "Ruleset": frozenset({"title", "about", "sources", "version", "base", "origin"}),
    "PlayerRange": frozenset({"low", "high"}),
    "Section": frozenset({"cards", "ranks"}),
    "AnteLine": frozenset({"amount", "targets"}),
    "WidowSale": frozenset({"price", "price_to"}),
    "LeadRule": frozenset({"suit", "card", "phase", "holder_suit", "holder_walk", "tie_suits"}),
    "Fallback": frozenset({"amount", "to"}),
    "Penalty": frozenset({"amount", "to"}),
    "StopBonus": frozenset({"amount", "source"}),
    "PokerPhase": frozenset({"pot", "bet"}),
    "GoingOut": frozenset({"into"}),
    "StopsPhase": frozenset({"all_pass_charge"}),
    "DealSpec": frozenset({"first_dealer_rank"}),
}
"""Fields that are values inside other templates, not constructs of their own."""


DERIVED: dict[tuple[str, str], tuple[Callable[[Any], str], tuple[str, ...]]] = {
    ("LeadRule", "who"): (
        lambda r: ("holder of lowest, walking on" if r.holder_walk else "holder of lowest")
        if r.who == "holder" and r.holder_suit else r.who,
        ("holder of lowest", "holder of lowest, walking on"),
    ),
    ("Fallback", "kind"): (
        lambda f: "pay and pass" if f.kind == "pass" and f.amount > 0 else f.kind,
        ("pay and pass",),
    ),
    ("PokerPhase", "opener"): (  # spec §8.3: no opener is said without a betting round
        lambda p: p.opener if p.betting else "no betting",
        ("no betting",),
    ),
    ("WidowSale", "dealer_swap"): (  # spec §5.4 'dealer: may swap first': the swap is
        # said once, where it happens (before the offer), not "if nobody buys" as well
        lambda w: "first" if w.dealer_swap and w.dealer_first else w.dealer_swap,
        ("first",),
    ),
    ("WidowSale", "high_bid"): (  # spec §5.4: a withdrawn bid goes on "as when nobody
        # bought": the dealer's swap under 'dealer: may swap' without 'first', else the widow
        # stays (under 'first' the dealer's chance came before the offer)
        lambda w: "may be withdrawn, widow stays"
        if w.high_bid == "may be withdrawn" and not (w.dealer_swap and not w.dealer_first)
        else w.high_bid,
        ("may be withdrawn, widow stays",),
    ),
    ("WidowSale", "mode"): (  # spec §5.4: a bid is at least N and at least 1
        lambda w: "auction no minimum" if w.mode == "auction" and w.price < 1 else w.mode,
        ("auction no minimum",),
    ),
}
"""Constructs the grammar tells apart but the model folds into one field value:
``(class, field) -> (the construct value of an object, the extra values)``."""


def construct_value(obj: Any, field: str) -> Any:
    """The value of ``obj.field`` as a construct (see :data:`DERIVED`)."""
    derived = DERIVED.get((type(obj).__name__, field))
    return derived[0](obj) if derived else getattr(obj, field)


def model_classes() -> list[type]:
    """Every dataclass defined in :mod:`boodle.language.model`, in definition order."""
    return [c for c in vars(m).values()
            if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == m.__name__]


def is_parameter(cls: type, field: str) -> bool:
    """Whether ``cls.field`` is a parameter (no template of its own)."""
    return field in PARAMETERS["*"] or field in PARAMETERS.get(cls.__name__, frozenset())


def hints(cls: type) -> dict[str, Any]:
    """The resolved type of each field of ``cls``."""
    return typing.get_type_hints(cls, vars(m))


FIRST: dict[str, tuple[str, ...]] = {
    # spec §5.4: the dealer decides "before anything else of the sale" whether the widow is
    # offered; the field is declared last (it has a default), its rule is said first
    "WidowSale": ("dealer_may_withhold",),
}
"""Fields whose rule happens before the others of their block: said first, in this order
(the dataclass declares fields with defaults last, which is not always when they happen)."""


def constructs(cls: type) -> list[str]:
    """The non-parameter fields of ``cls``: those of :data:`FIRST` first, then the others in
    declaration order (the order a page numbers its rules in)."""
    names = [f.name for f in dataclasses.fields(cls) if not is_parameter(cls, f.name)]
    first = [n for n in FIRST.get(cls.__name__, ()) if n in names]
    return first + [n for n in names if n not in first]


def _optional(tp: Any) -> bool:
    return get_origin(tp) in (typing.Union, types.UnionType) and type(None) in get_args(tp)


def keys_for_field(cls: type, field: str) -> list[str]:
    """The template keys one field needs (see the module doc)."""
    tp, base = hints(cls)[field], f"{cls.__name__}.{field}"
    extra = DERIVED.get((cls.__name__, field), (None, ()))[1]
    if get_origin(tp) is Literal:
        return [f"{base}.{v}" for v in (*get_args(tp), *extra)]
    if tp is bool:
        return [f"{base}.{v}" for v in ("yes", "no", *extra)]
    if _optional(tp):
        return [base, f"{base}.none"]
    if get_origin(tp) in (tuple, frozenset):
        return [base, f"{base}.empty"]
    return [base]


def model_keys() -> list[str]:
    """Every template key the model needs, class by class."""
    keys: list[str] = []
    for cls in model_classes():
        keys.append(cls.__name__)
        for field in constructs(cls):
            if cls is m.Ruleset and not keys_for_field(cls, field)[0].endswith(field):
                keys.append(f"Ruleset.{field}")
            keys.extend(keys_for_field(cls, field))
    return list(dict.fromkeys(keys))


_ALIAS = re.compile(r"->\s*([a-z_]+)")
_RULE = re.compile(r"^\??([a-z_]+)\s*:", re.M)


def grammar_constructs(text: str | None = None) -> list[str]:
    """Every alias and named rule of the grammar, in file order, without repeats."""
    text = grammar_path().read_text(encoding="utf-8") if text is None else text
    found: list[tuple[int, str]] = [(mt.start(), mt.group(1)) for mt in _ALIAS.finditer(text)]
    found += [(mt.start(), mt.group(1)) for mt in _RULE.finditer(text)]
    return list(dict.fromkeys(name for _, name in sorted(found)))


def dsl_keys() -> list[str]:
    """The ``dsl.NAME`` keys of the DSL reference (English)."""
    return [f"dsl.{name}" for name in grammar_constructs()]


def check(templates: list[Templates], extra: dict[str, list[str]] | None = None) -> None:
    """Raise :class:`MissingText` listing every missing key of every language.

    Model keys and ``extra`` keys (page texts, by language ``"*"`` for all)
    are needed in every language; ``dsl.*`` keys in English only.
    """
    missing: list[tuple[str, str]] = []
    extra = extra or {}
    for t in templates:
        needed = model_keys() + extra.get("*", []) + extra.get(t.lang, [])
        if t.lang == "en":
            needed += dsl_keys()
        missing += [(t.lang, key) for key in dict.fromkeys(needed) if not t.has(key)]
    if missing:
        raise MissingText(missing)
