"""Suit symmetry: the permutations of suits under which a ruleset plays the same.

A permutation π of the suits is a **symmetry** of a ruleset when applying it
to every card changes no rule: every section is paid by the same cards
(setwise), every card, suit and holder a lead rule names stays put, the
excused and removed cards stay put, and colours are kept whenever a rule
speaks of colour (``opposite colour``, ``lowest black/red card``, a flip).
The engine never compares suits otherwise (spec §2.2), so a deal and its
image under π play alike, move for move; the exhaustive check explores one
deal per orbit (:func:`canonical`) and counts the orbit's size.

Michigan's board (A♥ K♣ Q♦ J♠) pays a different rank in every suit, so its
only symmetry is the identity; a board without card sections (a kitty and
pots) has every suit permutation that keeps colours where colours matter.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

from boodle.language.cards import SUIT_COLOUR, Card
from boodle.language.kind_facts import ALL_PASS_FACTS, SCOPE_FACTS
from boodle.language.model import LeadRule, Ruleset, StopsPhase

__all__ = ["Perm", "canonical", "suit_symmetries"]

Perm = dict[str, str]
"""A suit permutation: suit → its image."""


def _map(p: Perm, c: Card) -> Card:
    return Card(c.rank, p[c.suit])


def _rules(ruleset: Ruleset) -> list[LeadRule]:
    out: list[LeadRule] = []
    for ph in ruleset.phases:
        if isinstance(ph, StopsPhase):
            out += [ph.first_lead, ph.restart, *([ph.fallback.rule] if ph.fallback.rule else [])]
    return out


def _colour_matters(ruleset: Ruleset) -> bool:
    stops = [p for p in ruleset.phases if isinstance(p, StopsPhase)]
    return (any(SCOPE_FACTS[r.scope].colour for r in _rules(ruleset))
            or any(ALL_PASS_FACTS[p.all_pass].needs_colour for p in stops))


def _fixed_cards(ruleset: Ruleset) -> set[Card]:
    out: set[Card] = set()
    for r in _rules(ruleset):
        if r.card is not None:
            out.add(r.card)
    for p in ruleset.phases:
        if isinstance(p, StopsPhase):
            out.update(p.going_out.excused)
    return out


SUITS_ORDERED: dict[str, bool] = {"chosen": False, "suit order": True, "hand order": True}
"""Spec §6.1: whether a tie rule of a ``lowest`` lead puts the suits in an order (so that no
two suits are alike for the symmetry reduction); ``chosen`` leaves the choice to the leader."""


def _fixed_suits(ruleset: Ruleset) -> set[str]:
    rules = list(_rules(ruleset))
    if any(SUITS_ORDERED[r.ties] for r in rules):  # a tie order tells every suit apart
        return set(ruleset.deck.suits)
    return {s for r in rules for s in (r.suit, r.holder_suit, *r.holder_walk)
            if s is not None}


def _is_symmetry(ruleset: Ruleset, p: Perm) -> bool:
    if any(p[s] != s for s in _fixed_suits(ruleset)):
        return False
    if any(_map(p, c) != c for c in _fixed_cards(ruleset)):
        return False
    if {_map(p, c) for c in ruleset.deck.removed} != set(ruleset.deck.removed):
        return False
    if _colour_matters(ruleset) and any(SUIT_COLOUR[s] != SUIT_COLOUR[p[s]] for s in p):
        return False
    return all({_map(p, c) for c in s.cards} == set(s.cards) for s in ruleset.board)


def suit_symmetries(ruleset: Ruleset) -> list[Perm]:
    """Every suit permutation that is a symmetry of ``ruleset`` (the identity first)."""
    suits = ruleset.deck.suits
    out = []
    for image in permutations(suits):
        p = dict(zip(suits, image, strict=True))
        if _is_symmetry(ruleset, p):
            out.append(p)
    return out


Deal = tuple[tuple[Card, ...], ...]
"""A deal: each seat's hand, then the widow (each sorted), and for trumps the turned card."""


def canonical(deal: Deal, group: Iterable[Perm], order: dict[Card, int]) -> Deal:
    """The least image of ``deal`` under ``group`` (cards compared by ``order``)."""
    best: Deal | None = None
    best_key: tuple[tuple[int, ...], ...] | None = None
    for p in group:
        image = tuple(tuple(sorted((_map(p, c) for c in part), key=order.__getitem__))
                      for part in deal)
        key = tuple(tuple(order[c] for c in part) for part in image)
        if best_key is None or key < best_key:
            best, best_key = image, key
    assert best is not None
    return best
