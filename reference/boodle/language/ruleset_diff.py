"""What a variant changes from its base: a field-by-field diff of two rulesets (spec §11.2).

``boodle check`` prints it for every file with ``extends``, so that a house
rule shows what it does, for example::

    michigan-dealer-double       players 3-8 …  OK
        changes from michigan:
          ante: + dealer 2 on kitty

:func:`rule_lines` gives every rule of play of a ruleset as a flat map from
a key (``deal: widow``, ``phase play: claims``, ``board: A♥``) to the rule
in the language's own words, as the printer (:mod:`boodle.language.printer`)
writes it; :func:`diff` compares two such maps.  Ante
lines add up (spec §4), so they are compared as a list: lines removed, lines
added.  Of the documentation, ``title`` and ``about`` are listed when they differ
(they replace the base's, spec §11.2); ``sources`` and ``version`` are not compared.
"""

from __future__ import annotations

from collections import Counter

from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.language.printer import ante_lines, rules

__all__ = ["base_of", "diff", "rule_lines"]


def diff(base: Ruleset, derived: Ruleset) -> list[str]:
    """The rules ``derived`` changes from ``base``, one readable line each, in file order.

    ``KEY: old → new`` for a changed rule, ``KEY: + new`` for an added one,
    ``KEY: - old`` for a removed one; ``ante: + LINE`` / ``ante: - LINE``; a
    phase added or removed whole is one line (``phase poker: kind: - poker``); sections or
    phases in another order, ``board: order: …`` or ``phases: order: …`` (hidden before
    2026-12-02).
    """
    old, new = rule_lines(base), rule_lines(derived)
    out: list[str] = []
    for key in dict.fromkeys([*old, *new]):
        phase, _, rule = key.partition(": ")
        if phase.startswith("phase ") and rule != "kind" and (
                f"{phase}: kind" not in old or f"{phase}: kind" not in new):
            continue  # a whole phase added or removed: one line, at its kind
        if key not in new:
            out.append(f"{key}: - {old[key]}")
        elif key not in old:
            out.append(f"{key}: + {new[key]}")
        elif old[key] != new[key]:
            out.append(f"{key}: {old[key]} → {new[key]}")
    before, after = Counter(ante_lines(base)), Counter(ante_lines(derived))
    # lines add up (spec §4): a line written twice more is two '+' lines, not one
    antes = [f"ante: - {line}" for line in _counted(ante_lines(base), before - after)]
    antes += [f"ante: + {line}" for line in _counted(ante_lines(derived), after - before)]
    at = next((i for i, line in enumerate(out) if not line.startswith(("players", "chips",
                                                                        "deck", "board"))),
              len(out))
    board = _order("board", [s.name for s in base.board], [s.name for s in derived.board])
    ends = next((i for i, line in enumerate(out) if line.startswith("session")), len(out))
    phases = _order("phases", [p.name for p in base.phases], [p.name for p in derived.phases])
    return [*out[:at], *board, *antes, *out[at:ends], *phases, *out[ends:],
            *_documentation(base, derived)]


def _order(key: str, old: list[str], new: list[str]) -> list[str]:
    """``KEY: order: A, B → B, A`` when the names both have are in another order (the
    board's order is the order a short stack pays in, spec §4, and the order of a claim's
    sections; the phases' is the order of play, spec §6-8), else nothing.  Names added or
    removed have their own lines."""
    both = set(old) & set(new)
    before, after = [n for n in old if n in both], [n for n in new if n in both]
    return [] if before == after else [f"{key}: order: {', '.join(before)} → "
                                       f"{', '.join(after)}"]


def _counted(lines: list[str], extra: Counter[str]) -> list[str]:
    """The first ``extra[line]`` copies of each line of ``lines``, in order."""
    left = Counter(extra)
    out: list[str] = []
    for line in lines:
        if left[line] > 0:
            out.append(line)
            left[line] -= 1
    return out


def _documentation(base: Ruleset, derived: Ruleset) -> list[str]:
    """``title`` and ``about`` where they differ, new text only (at most 60 characters shown):
    they replace the base's (spec §11.2).  They do not change play, so they come last; but a
    file that writes only a title has not changed "nothing".
    """
    out: list[str] = []
    for key, old, new in (("title", base.title, derived.title),
                          ("about", base.about, derived.about)):
        if old != new:
            shown = new if len(new) <= 60 else new[:59] + "…"
            out.append(f'{key}: "{shown}"' if new else f"{key}: - (none)")
    return out


_NOT_COMPARED = frozenset({"title", "about", "source", "version", "carry"})
"""Rules of :func:`~boodle.language.printer.rules` the diff leaves out: the documentation
(``title`` and ``about`` are listed apart, last) and ``carry`` (it has one value).  The
dealer's turn-up and a phase's label are compared: a house rule that changes them changes
what the rules say (``boodle check`` hid both before 2026-12-02)."""


def rule_lines(r: Ruleset) -> dict[str, str]:
    """Every rule of play of ``r`` (not its ante lines) as ``key → words``, in file order:
    the printer's rules (:func:`boodle.language.printer.rules`) without the documentation."""
    return {key: words for key, words in rules(r).items() if key not in _NOT_COMPARED}


def base_of(ruleset: Ruleset) -> Ruleset | None:
    """The variant ``ruleset`` extends, as ``extends`` found it (spec §11.1): built by the
    builder from the clauses it resolved (``ruleset.origin``), no file read again.

    ``None`` if it extends nothing.  Raises :class:`~boodle.language.errors.BoodleError` if
    the base does not build alone, or if ``ruleset`` names a base but was not built from
    text (it has no ``origin``).
    """
    if ruleset.base is None:
        return None
    if ruleset.origin is None:
        raise BoodleError(f"ruleset {ruleset.name} extends {ruleset.base} but was not built "
                          "from a rules file", hint="load it with boodle.language.variants.load")
    return ruleset.origin.base()
