"""Well-formedness and session end, checked on the ruleset itself (no play needed).

Each check enumerates a finite set (sections, cards, player counts, ante
lines), so a pass is a proof for that ruleset:

- every card a section, a lead rule or an excused clause names is a card of
  the deck (not removed), boodle cards are distinct, a set names no card or
  rank twice, every rank named is a rank of the deck (spec §3);
- every allowed player count gives every hand, the widow's included, at
  least one card (spec §1, §5.2);
- every ante is a whole number from 0 to 1,000,000 (spec §4).

:func:`session_end` says whether the session's end rules end every session,
and after how many deals at most (spec §10).  Builders refuse most faults
at load time already; these checks hold rulesets made in Python to the
same standard and name the fault as a verifier property.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from boodle.language.cards import Card
from boodle.language.model import EndRule, Ruleset, SessionSpec, StopsPhase

__all__ = ["session_end", "well_formed"]


def _named_cards(ruleset: Ruleset) -> list[tuple[str, Card]]:
    out = [(f"section {s.name}", c) for s in ruleset.board for c in s.cards]
    for p in ruleset.phases:
        if isinstance(p, StopsPhase):
            rules = [("first lead", p.first_lead), ("restart", p.restart)]
            if p.fallback.rule is not None:
                rules.append(("if none", p.fallback.rule))
            out += [(f"phase {p.name}: {what}", r.card) for what, r in rules if r.card is not None]
            out += [(f"phase {p.name}: going out excuses", c) for c in p.going_out.excused]
    return out


def well_formed(ruleset: Ruleset) -> list[str]:
    """Every well-formedness fault of ``ruleset``, as sentences (empty: well-formed)."""
    deck = set(ruleset.deck.cards())
    faults = [f"{where} names {c}, which is not in the deck"
              + (" (it is removed)" if c in ruleset.deck.removed else "")
              for where, c in _named_cards(ruleset) if c not in deck]
    fixed = Counter(c for s in ruleset.board if s.kind == "boodle" for c in s.cards)
    faults += [f"{c} pays {k} boodle sections" for c, k in fixed.items() if k > 1]
    for s in ruleset.board:
        if len(set(s.cards)) != len(s.cards) or len(set(s.ranks)) != len(s.ranks):
            faults.append(f"section {s.name} names a card or rank twice")
        faults += [f"section {s.name} names rank {r}, which the deck does not have"
                   for r in s.ranks if r not in ruleset.deck.ranks]
    faults += _hands(ruleset)
    faults += [f"an ante line pays {a.amount} chips" for a in ruleset.antes
               if not 0 <= a.amount <= 1_000_000]
    return faults


def _hands(ruleset: Ruleset) -> list[str]:
    cards = len(ruleset.deck.cards())
    widow = 0 if ruleset.deal.widow_position == "none" else 1
    return [f"with {n} players {cards} cards cannot give {n + widow} hands a card each"
            for n in ruleset.players.counts() if cards < n + widow]


END_WORDS: dict[EndRule, Callable[[SessionSpec], str | None]] = {
    "rotations": lambda s: None,  # the bound itself, not a sooner end
    "no chips": lambda s: "a player has no chips",
    "last with chips": lambda s: "one player is left with chips",
    "target": lambda s: f"a player has {s.end_target} chips",
    "never": lambda s: None,  # no end at all: said before any bound
}
"""What ends a session sooner than its bound, in words (spec §10), one row per member of
:data:`EndRule` (``None``: not a sooner end)."""


def session_end(ruleset: Ruleset) -> tuple[str, str]:
    """Whether every session ends (spec §10), and why: the most deals it can last, for each
    allowed player count n (``rotations × n``, plus the tie-break deal if there is one).

    Returns (status, why): ``checked`` (every session ends within that bound), ``no end``
    (``end: never``: by its rules the session has no end), or ``unknown`` (it ends only
    when a player reaches a target, which no rule guarantees).
    """
    s = ruleset.session
    if s.end_never:
        return "no end", ("'end: never': by its rules the session has no end (the ledger runs "
                          "on; a number of deals is played)")
    targets = [words for end in s.ends() if (words := END_WORDS[end](s)) is not None]
    if s.rotations is None:
        return "unknown", ("no bound on the deals: the session ends only when "
                           + " or ".join(targets) + ", which no rule guarantees")
    extra = " + 1 tie-break deal (played once, spec §10)" if s.ties == "one more deal" else ""
    rotations = f"{s.rotations} rotation{'' if s.rotations == 1 else 's'}"
    most = ("n" if s.rotations == 1 else f"{s.rotations}n") + (" + 1" if extra else "")
    low, high = ruleset.players.low, ruleset.players.high
    counts = f"n = {low}" if low == high else f"n from {low} to {high}"
    why = (f"with n players at most {rotations} × n players{extra} = {most} deals "
           f"({counts}), each of which ends")
    if targets:
        why += "; it may end sooner, after a deal at whose end " + " or ".join(targets)
    ok = "checked" if s.rotations >= 1 else "counterexample"
    return ok, why + "; declared misdeals are outside the rules and not counted"
