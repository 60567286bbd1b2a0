"""Links to the specification and to the conformance cases that pin a rule.

Spec sections (``§6.4``) come from the model: a field's section is given in
:data:`FIELD_SECTION` where it is finer than its class's, else that of the
construct the field holds (``Ruleset.widow_sale``: ``WidowSale``'s §5.4), else
the first ``spec §N`` its class's docstring cites (:func:`spec_section`).
Anchors are the headings of ``spec/rules.md`` slugged the way the site's
Markdown does.

Conformance cases are found generically: every JSON file under
``conformance/`` (schemas excepted) holding an object with an ``id``; the
sections it pins are every ``§N.N`` written in its ``rules``, ``spec``,
``pins``, ``spec_rules`` or ``rule`` field, and its variant is its
``variant`` field (a name, or an object with a ``name``).  A rule links to
the cases of its variant (or of no variant) that pin its section or one
below it.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boodle.language import model as m
from boodle.resources import spec_prose, variants_dir

FIELD_SECTION: dict[str, str] = {
    "DealSpec.first_dealer": "§5.1", "DealSpec.rotation": "§5.1",
    "DealSpec.widow_position": "§5.2", "DealSpec.widow_visibility": "§5.2",
    "DealSpec.trumps": "§5.2", "DealSpec.turn_up": "§5.2", "DealSpec.misdeal": "§5.3",
    "DealSpec.cut": "§5.1",
    "StopsPhase.first_lead": "§6.1", "StopsPhase.follow": "§6.2",
    "StopsPhase.stop_at_top": "§6.3", "StopsPhase.restart": "§6.4",
    "StopsPhase.fallback": "§6.5", "StopsPhase.all_pass": "§6.5",
    "StopsPhase.claims": "§6.6", "StopsPhase.stop_bonus": "§6.7",
    "StopsPhase.penalties": "§6.8", "StopsPhase.going_out": "§7",
    "Ruleset.carry": "§3", "Ruleset.chips": "§9", "Ruleset.players": "§1",
    "Ruleset.board": "§3", "Ruleset.antes": "§4", "Ruleset.short_stack": "§4",
    "DealSpec.widow_sets": "§5.2",
    "PokerPhase.bets": "§8.3", "PokerPhase.raises": "§8.3", "PokerPhase.opener": "§8.3",
    "PokerPhase.blinds": "§8.3",
}
"""Spec sections finer than the class docstring's."""

CASE_FIELDS = ("rules", "spec", "pins", "spec_rules", "rule")
"""The case fields read for the spec sections a case pins."""

_SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")


def spec_section(key: str) -> str | None:
    """The spec section of a construct key ``Class.field`` (``§6.4``), if known.

    In order: :data:`FIELD_SECTION`; else, for a field whose value is a construct of its
    own (``Ruleset.widow_sale: WidowSale | None``), that construct's section, even when
    the value is absent (the widow never sold is a rule of §5.4); else the first ``spec §N``
    its class's docstring cites.  A class docstring speaks of the class as a whole, or of
    one field of it (``Ruleset``'s cites §9 for its chips): never of a field that is a
    construct of its own.
    """
    if key in FIELD_SECTION:
        return FIELD_SECTION[key]
    cls_name, _, field_name = key.partition(".")
    cls = getattr(m, cls_name, None)
    own = _field_constructs(cls, field_name) if isinstance(cls, type) else []
    sections = {_class_section(c) for c in own} - {None}
    if len(sections) == 1:
        return sections.pop()
    if own:
        return None  # constructs of several sections (a phase: §6 or §8): none of them
    return _class_section(cls)


def _class_section(cls: object) -> str | None:
    """The first ``spec §N`` the docstring of ``cls`` cites."""
    found = _SECTION.search(getattr(cls, "__doc__", "") or "")
    return f"§{found.group(1)}" if found else None


def _field_constructs(cls: type, name: str) -> list[type]:
    """The model classes the annotation of field ``name`` of ``cls`` names (through
    ``X | None``, unions and tuples): the constructs its value is made of."""
    if not dataclasses.is_dataclass(cls):
        return []
    try:
        hint = typing.get_type_hints(cls).get(name)
    except (NameError, TypeError):  # an annotation that does not resolve: no construct
        return []
    out: list[type] = []
    todo = [hint]
    while todo:
        t = todo.pop()
        if isinstance(t, type) and dataclasses.is_dataclass(t) and t.__module__ == m.__name__:
            out.append(t)
        todo.extend(typing.get_args(t))
    return out


def checkout_root() -> Path | None:
    """The project folder (``spec/`` beside ``grammar/``): the package's own checkout, else
    the current folder (``pip install .`` then ``boodle docs build`` in the project)."""
    for root in (variants_dir().parent.parent, Path.cwd()):
        if (root / "spec" / "rules.md").is_file() and (root / "grammar").is_dir():
            return root
    return None


def spec_file() -> Path | None:
    """``spec/rules.md`` of the project folder, else the copy an installed package ships
    (``boodle/data/spec/rules.md``); ``None`` if neither is there."""
    root = checkout_root()
    if root is not None:
        return root / "spec" / "rules.md"
    try:
        return spec_prose("rules.md")
    except FileNotFoundError:
        return None


def slugify(text: str) -> str:
    """A heading's anchor as Python-Markdown's ``toc`` makes it."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


@cache
def spec_anchors() -> dict[str, str]:
    """``§6.4`` → the anchor of its heading in ``spec/rules.md``."""
    path = spec_file()
    if path is None:
        return {}
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^#{2,4}\s+(§\d+(?:\.\d+)*)\s", line)
        if heading:
            out.setdefault(heading.group(1), slugify(line.lstrip("#").strip()))
    return out


@dataclass(frozen=True)
class Case:
    """A conformance case: ``id``, its file (relative to ``conformance/``), variant, sections."""

    id: str
    file: str
    variant: str | None
    sections: tuple[str, ...]
    description: str
    pins: tuple[str, ...] = ()


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def _case(obj: dict[str, Any], file: str) -> Case | None:
    if not isinstance(obj.get("id"), str):
        return None
    pinned = [s for k in CASE_FIELDS for s in _strings(obj.get(k))]
    sections = tuple(dict.fromkeys(f"§{g}" for p in pinned for g in _SECTION.findall(p)))
    variant = obj.get("variant")
    if isinstance(variant, dict):
        variant = variant.get("name")
    desc = obj.get("description", "")
    return Case(obj["id"], file, variant if isinstance(variant, str) else None, sections,
                desc if isinstance(desc, str) else "", tuple(pinned))


def find_cases(root: Path) -> list[Case]:
    """Every case under ``root`` (one JSON object or a list of them per file), sorted by id."""
    cases: list[Case] = []
    for path in sorted(root.rglob("*.json")) if root.is_dir() else []:
        if "schema" in path.relative_to(root).parts[:-1] or path.name.endswith(".schema.json"):
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        for obj in data if isinstance(data, list) else [data]:
            case = _case(obj, path.relative_to(root).as_posix()) if isinstance(obj, dict) else None
            if case is not None:
                cases.append(case)
    return sorted(cases, key=lambda c: c.id)


def cases_for(cases: list[Case], variant: str, section: str | None,
              tags: tuple[str, ...] = ()) -> list[Case]:
    """The cases of ``variant`` (or of none) pinning ``section`` or a section below it.

    Where cases pin a rule id ``§N/slug`` whose slug is one of ``tags`` (the
    construct values of the rule, ``left of dealer`` → ``left-of-dealer``),
    only those are returned: they pin this very rule.
    """
    if section is None:
        return []
    found = [c for c in cases if c.variant in (None, variant)
             and any(s == section or s.startswith(section + ".") for s in c.sections)]
    exact = {f"{section}/{slugify(tag)}" for tag in tags}
    precise = [c for c in found if exact & set(c.pins)]
    return precise or found


def case_anchor(case_id: str) -> str:
    """The anchor of a case on the cases page."""
    return "case-" + re.sub(r"[^a-z0-9]+", "-", case_id.lower()).strip("-")
