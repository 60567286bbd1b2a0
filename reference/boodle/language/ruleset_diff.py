"""What a variant changes from its base: a field-by-field diff of two rulesets (spec §11.2).

``boodle check`` prints it for every file with ``extends``, so that a house
rule shows what it does, for example::

    michigan-dealer-double       players 3-8 …  OK
        changes from michigan:
          ante: + dealer 2 on kitty

:func:`rule_lines` writes every rule of play of a ruleset as a flat map from
a key (``deal: widow``, ``phase play: claims``, ``board: A♥``) to the rule
in the language's own words; :func:`diff` compares two such maps.  Ante
lines add up (spec §4), so they are compared as a list: lines removed, lines
added.  Of the documentation, ``title`` and ``about`` are listed when they differ
(they replace the base's, spec §11.2); ``sources`` and ``version`` are not compared.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from boodle.engine.leads import describe
from boodle.language.model import (
    AnteLine,
    HoldingPhase,
    LeadRule,
    Phase,
    PokerPhase,
    Ruleset,
    Section,
    SessionSpec,
    StopsPhase,
)

__all__ = ["base_of", "diff", "rule_lines"]


def diff(base: Ruleset, derived: Ruleset) -> list[str]:
    """The rules ``derived`` changes from ``base``, one readable line each, in file order.

    ``KEY: old → new`` for a changed rule, ``KEY: + new`` for an added one,
    ``KEY: - old`` for a removed one; ``ante: + LINE`` / ``ante: - LINE``; a
    phase added or removed whole is one line (``phase poker: kind: - poker``).
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
    before, after = Counter(_antes(base)), Counter(_antes(derived))
    # lines add up (spec §4): a line written twice more is two '+' lines, not one
    antes = [f"ante: - {line}" for line in _counted(_antes(base), before - after)]
    antes += [f"ante: + {line}" for line in _counted(_antes(derived), after - before)]
    at = next((i for i, line in enumerate(out) if not line.startswith(("players", "chips",
                                                                        "deck", "board"))),
              len(out))
    return [*out[:at], *antes, *out[at:], *_documentation(base, derived)]


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


def rule_lines(r: Ruleset) -> dict[str, str]:
    """Every rule of play of ``r`` (not its ante lines) as ``key → text``, in file order."""
    lines: dict[str, str] = {
        "players": f"{r.players.low} to {r.players.high}",
        "chips": r.chips,
        "deck: suits": " ".join(r.deck.suits),
        "deck: ranks": " ".join(r.deck.ranks),
        "deck: remove": ", ".join(str(c) for c in sorted(
            r.deck.removed, key=lambda c: (r.deck.suits.index(c.suit), r.deck.rank_index(c))))
        or "none",
    }
    lines.update({f"board: {s.name}": _section(s) for s in r.board})
    d = r.deal
    lines.update({
        "deal: first dealer": (d.first_dealer if d.first_dealer == "high cut"
                               else f"first {d.first_dealer_rank} dealt"),
        "deal: rotation": d.rotation,
        "deal: widow": f"{_WIDOW[d.widow_position]}, {d.widow_visibility}",
        "deal: trumps": "last card of widow" if d.trumps != "none" else "none",
        "deal: misdeal": d.misdeal,
    })
    if r.widow_sale is not None:
        lines.update(_sale(r))
    for phase in r.phases:
        lines.update({f"phase {phase.name}: {k}": v for k, v in _phase(phase).items()})
    s = r.session
    lines.update({
        "session: start": f"{s.start_chips} chips",
        "session: end": _session_end(s),
        "session: leftover": "split equally" if s.leftover == "split equally" else "stays",
        "session: ties": s.ties,
        "session: balance": ("may go negative" if s.negative == "allowed"
                             else "eliminated at zero"),
    })
    return lines


_WIDOW = {"last": "last in each round", "first": "first in each round", "none": "none"}


def _section(s: Section) -> str:
    label = f' "{s.label}"' if s.label not in (s.name, s.name.capitalize()) else ""
    if s.kind in ("kitty", "pot"):
        return f"{s.kind}{label}" if s.name == s.kind else f"{s.kind} {s.name}{label}"
    if s.suit_rule == "drawn":
        return f"{s.kind} {s.name}{label} drawn from second pack"
    if s.suit_rule == "trumps":
        return f"{s.kind} {s.name}{label} {' '.join(s.ranks)} of trumps"
    if s.suit_rule == "same suit":
        return f"{s.kind} {s.name}{label} {' '.join(s.ranks)} same suit"
    cards = " ".join(str(c) for c in s.cards)
    return f"boodle {cards}{label}" if s.kind == "boodle" and cards == s.name else (
        f"{s.kind} {s.name}{label} {cards}")


def _antes(r: Ruleset) -> list[str]:
    boodles = tuple(s.name for s in r.board if s.kind == "boodle")
    every = tuple(s.name for s in r.board)
    return [_ante(line, boodles, every) for line in r.antes]


def _ante(line: AnteLine, boodles: tuple[str, ...], every: tuple[str, ...]) -> str:
    if line.chosen:
        targets = "chosen boodle"
    elif line.targets == every:
        targets = "every section"
    elif line.targets == boodles:
        targets = "each boodle"
    else:
        targets = ", ".join(line.targets)
    return f"{line.payer} {line.amount} on {targets}"


def _sale(r: Ruleset) -> dict[str, str]:
    sale = r.widow_sale
    assert sale is not None
    offer = f"{sale.mode} {'seen' if sale.seen else 'unseen'}" + (
        f" at {sale.price}" if sale.price else "")
    out = {
        "widow sale: offer": offer,
        "widow sale: price to": "dealer" if sale.to_dealer else sale.price_to,
    }
    if sale.dealer_swap:
        out["widow sale: dealer"] = ("may look and swap" if sale.dealer_may_look
                                     else "may swap") + (" first" if sale.dealer_first else "")
    if sale.barred_by_boodle:
        out["widow sale: barred"] = "holding a boodle card"
    out["widow sale: discard"] = sale.discard
    if sale.before is not None:
        out["widow sale: when"] = f"before phase {sale.before}"
    return out


def _who(rule: LeadRule) -> str:
    if rule.who == "holder":
        return (f"holder of lowest {' else '.join((rule.holder_suit, *rule.holder_walk))}"
                if rule.holder_suit
                else f"holder of {rule.card}")
    if rule.who == "phase winner":
        return f"winner of {rule.phase}"
    return rule.who


def _lead(rule: LeadRule) -> str:
    return f"{_who(rule)}, {describe(rule)}"


def _phase(p: Phase) -> dict[str, str]:
    if isinstance(p, HoldingPhase):
        return {"kind": "holding", "pays": ", ".join(p.sections), "split": p.split}
    if isinstance(p, PokerPhase):
        return {"kind": "poker", "pot": p.pot, "best": f"{p.best_of} cards",
                "ace low straight": "yes" if p.ace_low_straight else "no", "split": p.split}
    return _stops(p)


def _stops(p: StopsPhase) -> dict[str, str]:
    fb = p.fallback
    if fb.kind == "lead" and fb.rule is not None:
        fallback = f"lead {describe(fb.rule)}"
    else:
        fallback = (f"pay {fb.amount} to {fb.to}{' if able' if fb.if_able else ''}, "
                    if fb.amount else "") + "pass left"
    out = {
        "kind": "stops",
        "first lead": _lead(p.first_lead),
        "follow": "owner of next card" if p.follow == "owner" else "next in turn",
        "stop": ("top rank, " if p.stop_at_top else "") + "next card held by nobody",
        "restart": _lead(p.restart),
        "if none": fallback,
        "all pass": {"none": "none", "end without winner": "deal ends without winner",
                     "flip colour": "flip colour"}[p.all_pass]
        + (f", {p.all_pass_charge} per card to {p.all_pass_to}" if p.all_pass_to else ""),
        "claims": p.claims,
        "going out": _going_out(p),
        "stop bonus": (f"{p.stop_bonus.amount} from {p.stop_bonus.source}"
                       if p.stop_bonus is not None else "none"),
    }
    for pen in p.penalties:
        out[f"penalty: {pen.fault}"] = (f"pay {pen.amount} to {pen.to}"
                                        + (", forfeit boodles" if pen.forfeit_boodles else ""))
    return out


def _going_out(p: StopsPhase) -> str:
    out = p.going_out
    parts = ["ends deal"] if out.ends_deal else []
    unless = dict(out.unless_taken)
    parts += [f"takes {name}" + (f" unless taken in {unless[name]}" if name in unless else "")
              for name in out.takes]
    parts.append(f"{out.per_card} per card into {out.into}" if out.to == "section"
                 else f"{out.per_card} per card to {out.to}")
    parts += [f"holder of {c} excused" for c in out.excused]
    return ", ".join(parts)


def base_of(ruleset: Ruleset, file: str | None) -> Ruleset | None:
    """The variant ``ruleset`` extends, loaded as ``extends`` finds it (spec §11.1).

    ``file``: where ``ruleset`` was read from (its folder is searched
    first).  ``None`` if it extends nothing.  Raises
    :class:`~boodle.language.errors.BoodleError` if the base does not load.
    """
    if ruleset.base is None:
        return None
    from boodle.language.build import default_resolver, load_text

    here = Path(file).parent if file and ruleset.base != ruleset.name else None
    text, where = default_resolver(ruleset.base, here)  # its own name: the built-in
    return load_text(text, where)


def _session_end(s: SessionSpec) -> str:
    """The ``end`` lines of a session, in the language's words (spec §10)."""
    if s.end_never:
        return "never"
    ends = [] if s.rotations is None else [
        f"after {s.rotations} rotation{'s' * (s.rotations != 1)}"]
    ends += ["when a player has no chips"] * s.end_when_broke
    ends += ["last player with chips"] * s.end_last_with_chips
    ends += [] if s.end_target is None else [f"a player reaches {s.end_target} chips"]
    return ", ".join(ends)
