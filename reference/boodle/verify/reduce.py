"""Reduced decks for exhaustive checking: a ruleset on S suits × R ranks, derived by rule.

The rule (spec/verification.md, "Reduced decks"):

1. The reduced deck keeps the **first S suits** of the deck's suit order and
   the **top R ranks** of its rank order, so the top rank (which stops a
   run) stays the top rank.
2. Every card a rule names — section cards (board order), lead cards (first
   lead, restart, fallback), excused cards, removed cards, in that order —
   is **mapped** into the reduced deck: its suit to itself if kept, else to
   the kept suit at its position modulo S; its rank to itself if kept, else
   to the lowest kept rank.  If that card is already the image of another
   named card, the next free card is taken: down the ranks of that suit,
   then up, then in the next suits.  So distinct named cards stay distinct.
3. Ranks a section names (``RANK of trumps``, ``same suit`` sets) map the
   same way and stay distinct within the section (a clash moves up to the
   next free kept rank, then down).  Suits named by a lead rule map like
   card suits.
4. A ``drawn from second pack`` boodle is bound, for the check, to the
   highest free card of each kept suit in turn (the draw is a chance event
   of the session, spec §3; one binding is checked, not every draw).
5. Removed cards mapped into the reduced deck are removed from it.

Everything else (antes, deal, widow sale, phases, session) is unchanged.
Raises :class:`ReductionError` when the reduced deck cannot hold the named
cards or a section's ranks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from boodle.language.cards import Card
from boodle.language.model import Deck, LeadRule, Ruleset, Section, StopsPhase
from boodle.verify.own_rules import DRAWN

__all__ = ["Reduction", "ReductionError", "reduce"]


class ReductionError(ValueError):
    """The reduced deck cannot carry the variant's named cards or ranks."""


@dataclass(frozen=True)
class Reduction:
    """A reduced ruleset and how the named cards were mapped (``cards``: original → image)."""

    ruleset: Ruleset
    suits: int
    ranks: int
    cards: dict[Card, Card]

    @property
    def label(self) -> str:
        """``"2x3"``: suits × ranks."""
        return f"{self.suits}x{self.ranks}"


class _Mapper:
    """The injective map of named cards (rules 2, 3 and 5 of the module docstring)."""

    def __init__(self, deck: Deck, suits: tuple[str, ...], ranks: tuple[str, ...]):
        self.deck, self.suits, self.ranks = deck, suits, ranks
        self.images: dict[Card, Card] = {}

    def suit(self, suit: str) -> str:
        """The kept suit ``suit`` maps to (rule 2)."""
        if suit in self.suits:
            return suit
        return self.suits[self.deck.suits.index(suit) % len(self.suits)]

    def rank(self, rank: str) -> str:
        """The kept rank ``rank`` maps to before any clash (rule 2)."""
        return rank if rank in self.ranks else self.ranks[0]

    def card(self, card: Card) -> Card:
        """The image of a named card: the same card each time, distinct from the others."""
        if card in self.images:
            return self.images[card]
        used = set(self.images.values())
        want = Card(self.rank(card.rank), self.suit(card.suit))
        for c in self._candidates(want):
            if c not in used:
                self.images[card] = c
                return c
        raise ReductionError(f"the reduced deck has no free card left for {card}")

    def _candidates(self, want: Card) -> list[Card]:
        r = self.ranks.index(want.rank)
        order = [*range(r, -1, -1), *range(r + 1, len(self.ranks))]
        start = self.suits.index(want.suit)
        suits = [self.suits[(start + k) % len(self.suits)] for k in range(len(self.suits))]
        return [Card(self.ranks[i], s) for s in suits for i in order]

    def rank_set(self, ranks: tuple[str, ...], what: str) -> tuple[str, ...]:
        """The images of a section's ranks, distinct (rule 3); raises :class:`ReductionError`."""
        if len(ranks) > len(self.ranks):
            raise ReductionError(f"{what} needs {len(ranks)} ranks; the reduced deck has "
                                 f"{len(self.ranks)}")
        out: list[str] = []
        for r in ranks:
            k = self.ranks.index(self.rank(r))
            order = [*range(k, len(self.ranks)), *range(k - 1, -1, -1)]
            out.append(next(self.ranks[i] for i in order if self.ranks[i] not in out))
        return tuple(out)


def _named(ruleset: Ruleset) -> list[Card]:
    """Every card a rule names, in the order of rule 2."""
    out: list[Card] = [c for s in ruleset.board for c in s.cards if not DRAWN[s.suit_rule]]
    for p in ruleset.phases:
        if isinstance(p, StopsPhase):
            rules = [p.first_lead, p.restart, *([p.fallback.rule] if p.fallback.rule else [])]
            out += [r.card for r in rules if r.card is not None]
            out += list(p.going_out.excused)
    out += sorted(ruleset.deck.removed, key=lambda c: (ruleset.deck.suits.index(c.suit),
                                                        ruleset.deck.rank_index(c)))
    return out


def reduce(ruleset: Ruleset, suits: int, ranks: int) -> Reduction:
    """``ruleset`` on the first ``suits`` suits and the top ``ranks`` ranks (module docstring)."""
    deck = ruleset.deck
    if not 1 <= suits <= len(deck.suits) or not 2 <= ranks <= len(deck.ranks):
        raise ReductionError(f"cannot reduce a {len(deck.suits)}x{len(deck.ranks)} deck to "
                             f"{suits}x{ranks}")
    m = _Mapper(deck, deck.suits[:suits], deck.ranks[-ranks:])
    for c in _named(ruleset):
        m.card(c)
    board = tuple(_section(m, s) for s in ruleset.board)
    board = _bind_drawn(m, board)
    removed = frozenset(m.images[c] for c in deck.removed)
    small = Deck(m.suits, m.ranks, removed)
    phases = tuple(_phase(m, p) if isinstance(p, StopsPhase) else p for p in ruleset.phases)
    name = f"{ruleset.name}@{suits}x{ranks}"
    out = replace(ruleset, name=name, deck=small, board=board, phases=phases)
    return Reduction(out, suits, ranks, dict(m.images))


def _section(m: _Mapper, s: Section) -> Section:
    if DRAWN[s.suit_rule]:
        return s
    cards = tuple(m.card(c) for c in s.cards)
    ranks = m.rank_set(s.ranks, f"section {s.name}") if s.ranks else ()
    return replace(s, cards=cards, ranks=ranks)


def _bind_drawn(m: _Mapper, board: tuple[Section, ...]) -> tuple[Section, ...]:
    used = {c for s in board for c in s.cards}
    free = [Card(r, s) for r in reversed(m.ranks) for s in m.suits]
    out = []
    for s in board:
        if DRAWN[s.suit_rule] and not s.cards:
            card = next((c for c in free if c not in used), None)
            if card is None:
                raise ReductionError(f"no free card to bind the drawn section {s.name}")
            used.add(card)
            s = replace(s, cards=(card,))
        out.append(s)
    return tuple(out)


def _rule(m: _Mapper, rule: LeadRule) -> LeadRule:
    return replace(rule,
                   card=None if rule.card is None else m.card(rule.card),
                   suit=None if rule.suit is None else m.suit(rule.suit),
                   holder_suit=None if rule.holder_suit is None else m.suit(rule.holder_suit),
                   holder_walk=_walk(m, rule),
                   tie_suits=tuple(dict.fromkeys(map(m.suit, rule.tie_suits))))


def _walk(m: _Mapper, rule: LeadRule) -> tuple[str, ...]:
    """The walk's suits mapped into the reduced deck, each once, after the first suit."""
    first = None if rule.holder_suit is None else m.suit(rule.holder_suit)
    out: list[str] = []
    for s in map(m.suit, rule.holder_walk):
        if s != first and s not in out:
            out.append(s)
    return tuple(out)


def _phase(m: _Mapper, p: StopsPhase) -> StopsPhase:
    fb = p.fallback
    fallback = replace(fb, rule=None if fb.rule is None else _rule(m, fb.rule))
    out = replace(p.going_out, excused=tuple(m.card(c) for c in p.going_out.excused))
    return replace(p, first_lead=_rule(m, p.first_lead), restart=_rule(m, p.restart),
                   fallback=fallback, going_out=out)
