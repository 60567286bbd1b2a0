"""Text templates, one per DSL construct and language, and the formatter that fills them.

A language is one TOML file in ``templates/`` beside this module (``en.toml``,
``fr.toml``, ``it.toml``, ``pt.toml``); adding a language is adding a file (and
its entry in ``mkdocs.yml``).  Tables are flattened with
dots, so ``[StopsPhase]`` + ``"claims.on play" = "…"`` is the key
``StopsPhase.claims.on play``.  Which keys must exist is decided by
:mod:`boodle.docs.constructs` from the ruleset model and the grammar; a
missing key is a :class:`MissingText` error that names the key, the language
and the file to add it to.  An empty string is a valid template: it renders
nothing (a default rule that needs no sentence).

Placeholders are ``{name}`` or ``{name:chips}`` / ``{name:cards}`` (a count
with its unit, singular or plural: ``1 chip``, ``3 chips``).

A language's ``[contract]`` table lists the contractions its grammar makes of a preposition
and the article a filled placeholder starts with: French ``"à le" = "au"`` (a bid paid "au
donneur", never "à le donneur"), Italian ``"a il" = "al"``, Portuguese ``"a o" = "ao"``.
Every filled template is contracted, word by word (:meth:`Templates.fill`).

Ranks are written as each language writes them (``[rank]``: ``K`` is ``R``
in French), so a card prints ``R♣`` on a French page (:meth:`Templates.card`).
The words of the built-in variants' rules files (titles, descriptions,
section and phase labels, in English) have their translation in the other
languages' ``[variants.NAME]`` and ``[label]`` tables
(:mod:`boodle.docs.translate`).
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boodle.language.cards import Card
from boodle.language.errors import BoodleError

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
"""Where the language files live (shipped with the package)."""


class MissingText(BoodleError):
    """A construct has no text template in some language (a docs build error).

    ``keys``: every missing ``(language, key)`` pair, so one run lists them all.
    """

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        files = sorted({str(TEMPLATES_DIR / f"{lang}.toml") for lang, _ in keys})
        lines = "\n".join(f"    {lang}: {key}" for lang, key in keys)
        super().__init__(
            f"docs: {len(keys)} construct(s) have no text template (a construct without "
            f"text is a build error):\n{lines}",
            hint="add each key to " + " and ".join(files)
            + " (see the other keys of the same table for the wording)",
        )
        self.keys = keys


def languages() -> list[str]:
    """Every language with a template file, English first (the site's default)."""
    found = sorted(p.stem for p in TEMPLATES_DIR.glob("*.toml"))
    return sorted(found, key=lambda lang: (lang != "en", lang))


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix and key else (prefix or key)
        if isinstance(value, Mapping):
            out.update(_flatten(value, full))
        else:
            out[full] = str(value)
    return out


@cache
def load(lang: str) -> Templates:
    """The templates of ``lang`` (``en``, ``fr`` …); raises BoodleError if there is no file."""
    path = TEMPLATES_DIR / f"{lang}.toml"
    if not path.is_file():
        raise BoodleError(f"docs: no templates for language '{lang}'",
                          hint="languages: " + ", ".join(languages()))
    with path.open("rb") as f:
        return Templates(lang, _flatten(tomllib.load(f)))


@dataclass(frozen=True)
class Templates:
    """The flat ``key → template`` table of one language."""

    lang: str
    table: dict[str, str]

    def has(self, key: str) -> bool:
        """Whether ``key`` has a template (possibly empty)."""
        return key in self.table

    def raw(self, key: str) -> str:
        """The template text of ``key``; raises :class:`MissingText` if there is none."""
        if key not in self.table:
            raise MissingText([(self.lang, key)])
        return self.table[key]

    def text(self, key: str, values: Mapping[str, Any] | None = None, **kw: Any) -> str:
        """``key``'s template filled from ``values`` and ``kw`` (see the module doc)."""
        merged: dict[str, Any] = {**(values or {}), **kw}
        return self.fill(self.raw(key), merged)

    def fill(self, template: str, values: Mapping[str, Any]) -> str:
        """Fill any template text from ``values`` (a mapping; may compute lazily), with the
        language's contractions made (``[contract]``: "à le donneur" is "au donneur")."""
        text = _Formatter(self).vformat(template, (), values)
        contract = _contractions(self)
        return contract[0].sub(lambda m: contract[1][m.group(0)], text) if contract else text

    def rank(self, rank: str) -> str:
        """A rank as this language writes it (``rank.K``: ``R`` in French); else as given."""
        return self.table.get(f"rank.{rank}", rank)

    def card(self, card: Card) -> str:
        """A card as this language writes it: its rank (:meth:`rank`) then its suit symbol."""
        return self.rank(card.rank) + card.suit

    def count(self, n: int, unit: str) -> str:
        """``n`` with its unit, singular or plural (``unit.chip.one`` / ``unit.chip.many``);
        the counts that take the singular are ``unit.singular`` (``1``; ``0 1`` in French:
        "0 jeton")."""
        one = str(n) in self.raw("unit.singular").split()
        return self.text(f"unit.{unit}.{'one' if one else 'many'}", n=n)


_CONTRACTIONS: dict[str, tuple[re.Pattern[str], dict[str, str]] | None] = {}


def _contractions(t: Templates) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The pattern of ``t``'s ``[contract]`` words (whole words only) and what each becomes;
    ``None`` for a language with none (English)."""
    if t.lang not in _CONTRACTIONS:
        pairs = {k.removeprefix("contract."): v for k, v in t.table.items()
                 if k.startswith("contract.")}
        words = "|".join(re.escape(k) for k in sorted(pairs, key=len, reverse=True))
        _CONTRACTIONS[t.lang] = (re.compile(rf"(?<!\w)(?:{words})(?!\w)"), pairs) if pairs else None
    return _CONTRACTIONS[t.lang]


class _Formatter(string.Formatter):
    def __init__(self, templates: Templates) -> None:
        super().__init__()
        self.templates = templates

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        return kwargs[key]

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.endswith("s") and self.templates.has(f"unit.{format_spec[:-1]}.one"):
            return self.templates.count(int(value), format_spec[:-1])
        return str(value) if not format_spec else format(value, format_spec)
