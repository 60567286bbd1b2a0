"""The built-in variants' own words in every language: titles, descriptions, labels.

The rules files (``spec/variants/*.boodle``) are written in English: a
variant's ``title`` and ``about``, and the ``label`` of each board section and
phase, are display text the engine never reads.  A page in another language
shows the translation from that language's templates:
``variants.NAME.title`` and ``variants.NAME.about`` for a variant, and
``label.LABEL`` for a section or phase label (``label.Kitty`` is ``Piatto`` in
Italian, the word of 002).  A label made only of ranks, suit symbols, digits
and dashes (``A♥``, ``K-Q``, ``10♥ (8)``) needs no entry: its ranks are
written as the language writes them (``R-D`` in French).

A variant may also name its own word for a term of the templates, as its
source does: ``[variants.tripoli.terms]`` ``veuve = "main fantôme"`` (004 calls
Tripoli's widow the "main fantôme", 000 Michigan's the "veuve");
:func:`with_terms` puts it in the variant's pages and those of its house
rules (its ``base``).

Which keys each language must have is :func:`needed_keys`; the docs build
checks them with the construct templates (:func:`boodle.docs.site.all_templates`),
so a built-in variant, section or phase added without its translations
fails the build with the keys to add.  English pages show the rules files'
words as they are.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from boodle.docs.templates import Templates
from boodle.language import model as m
from boodle.language.variants import builtin_names, load

CARD_LIKE = re.compile(r"^[0-9JQKA♣♦♥♠()\-– ]+$")
"""A label that is only ranks, suits, digits and dashes: written, not translated."""

_RANK = re.compile(r"(?<![0-9A-Za-z])[JQKA](?![A-Za-z])")


def is_card_like(label: str) -> bool:
    """Whether ``label`` is made of ranks and suits only (``A♥``, ``K-Q``, ``7-8-9``)."""
    return bool(CARD_LIKE.match(label))


def label(text: str, t: Templates) -> str:
    """A section or phase label in ``t``'s language (unchanged when there is no entry)."""
    if is_card_like(text):
        return _RANK.sub(lambda mt: t.rank(mt.group(0)), text)
    return t.table.get(f"label.{text}", text)


def labels_of(r: m.Ruleset) -> list[str]:
    """Every section and phase label of ``r`` that needs a translation, in board order."""
    found = [s.label for s in r.board] + [p.label for p in r.phases]
    return [x for x in dict.fromkeys(found) if x and not is_card_like(x)]


def needed_keys(rulesets: list[m.Ruleset]) -> list[str]:
    """The keys a language other than English needs for ``rulesets`` (the built-in ones):
    each variant's title and description, each label that is words."""
    keys: list[str] = []
    for r in rulesets:
        keys.append(f"variants.{r.name}.title")
        if r.about:
            keys.append(f"variants.{r.name}.about")
        keys += [f"label.{x}" for x in labels_of(r)]
    return list(dict.fromkeys(keys))


def localized(r: m.Ruleset, t: Templates) -> m.Ruleset:
    """``r`` with its title, description and labels in ``t``'s language (English: ``r``).

    Only display text changes: names, cards, spans and every rule stay, so the
    localized ruleset compares to its localized base as the originals do."""
    if t.lang == "en":
        return r
    return replace(
        r,
        title=_own_words(r, "title", t),
        about=_own_words(r, "about", t),
        board=tuple(replace(s, label=label(s.label, t)) for s in r.board),
        phases=tuple(replace(p, label=label(p.label, t)) for p in r.phases),
    )


def _own_words(r: m.Ruleset, field: str, t: Templates) -> str:
    """The translation of ``r``'s title or description (``field``): its own, else, where
    ``r`` keeps the text of a built-in variant (a house rule without its own ``about``, of a
    built-in or of a file that extends one), that variant's; else the text as written."""
    text: str = getattr(r, field)
    for name in (r.name, _builtin_words(field).get(text)):
        key = f"variants.{name}.{field}"
        if name is not None and key in t.table:
            return t.table[key]
    return text


@functools.cache
def _builtin_words(field: str) -> dict[str, str]:
    """The built-in variants' English ``title`` or ``about`` → the variant's name (the
    first in name order that writes it)."""
    out: dict[str, str] = {}
    for name in builtin_names():
        out.setdefault(getattr(load(name), field), name)
    return out


def terms(r: m.Ruleset, t: Templates) -> dict[str, str]:
    """The variant's own words for terms of ``t``'s templates (``variants.NAME.terms.WORD``),
    else its base's: ``{"veuve": "main fantôme"}`` for Tripoli in French."""
    for name in (r.name, r.base):
        prefix = f"variants.{name}.terms."
        found = {k[len(prefix):]: v for k, v in t.table.items() if k.startswith(prefix)}
        if found:
            return found
    return {}


def with_terms(text: str, r: m.Ruleset, t: Templates) -> str:
    """``text`` with each of the variant's own words (:func:`terms`) for the templates' word,
    as a whole word, capitalised where the word is (``Veuve`` → ``Main fantôme``)."""
    for word, own in terms(r, t).items():
        text = re.sub(rf"\b{re.escape(word)}\b", own, text)
        text = re.sub(rf"\b{re.escape(word.capitalize())}\b", own[:1].upper() + own[1:], text)
    return text
