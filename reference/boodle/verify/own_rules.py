"""The verifier's own statement of the deck's order and of the deal (issue 16, "an
independent model").

The z3 model and the engine = model check must not share code with the engine where a bug
would be on both sides and the comparison could not see it.  The order of the ranks (which
card is next, spec §2.2), the lowest card (§6.1) and who gets each card of the deal
(§5.1, §5.2) are therefore stated here again, from the ruleset's fields alone
(``deck.ranks``, ``deck.suits``, ``deck.removed``, ``deal.widow_position``), written
apart from :meth:`boodle.language.model.Deck.next_card`,
:meth:`~boodle.language.model.Deck.rank_index` and
:func:`boodle.engine.stages.dealing.deal_order`, which the engine plays by.  The model
(:mod:`boodle.verify.layout`, :mod:`boodle.verify.invariants`,
:mod:`boodle.verify.lead_terms`) reads these; :mod:`boodle.verify.engine_model` holds the
engine's deal to :func:`deal`.

The pots of a betting round (spec §8.3, side pots for seats all in) are stated here again
too (:func:`side_pots`), apart from :func:`boodle.engine.stages.poker.layers`: the engine =
model check holds each of the engine's pot payments to them.  So are the antes of short
stacks paid section by section (§4, :func:`short_antes`) and the sets a widow blocks (§5.2,
:func:`blocked_sets`): the check holds the engine's ante payments, its record of who anted
what, and every section taken before play to them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any

from boodle.language.cards import Card
from boodle.language.model import (
    Balance,
    Chips,
    Deck,
    Payer,
    Ruleset,
    Section,
    ShortStack,
    SuitRule,
    Trumps,
    WidowPosition,
    WidowSets,
)

__all__ = ["ELIMINATES", "PAYS_ANTE", "SET_CARDS", "SHORT_BY_SECTION", "TURNED_UP", "WIDOW_BLOCKS",
           "WIDOW_DEALT", "WIDOW_TURNS", "ante_sections", "antes", "blocked_sets", "deal",
           "deal_order", "hand_sizes", "next_card", "rank_position", "seats_may_be_out", "share",
           "short_antes", "side_pots"]


ELIMINATES: dict[Balance, bool] = {
    "allowed": False,
    "eliminate": True,
}
"""Spec §9, §10, the verifier's own statement: whether a balance rule puts a seat at zero or
less out of the next deals and caps every payment at the payer's balance, one row per member
of :data:`Balance` (read by the z3 model, the Init, the session model and the engine = model
check)."""


def seats_may_be_out(ruleset: Ruleset) -> bool:
    """Spec §10: whether a deal can be played with a seat eliminated.  Under ``balance:
    eliminated at zero`` a seat at zero after a deal is out; but ``end: when a player has
    no chips`` ends the session after that very deal, so no deal is played with a seat out."""
    return ELIMINATES[ruleset.session.negative] and not ruleset.session.end_when_broke


def rank_position(deck: Deck, card: Card) -> int:
    """Spec §2.1: the position of ``card``'s rank in the deck's rank order, low to high
    (0 = the lowest rank; a rank named twice counts at its first place).  Raises
    ``ValueError`` for a rank the deck does not have."""
    for k, rank in enumerate(deck.ranks):
        if rank == card.rank:
            return k
    raise ValueError(f"{card} is not of a rank of the deck ({', '.join(deck.ranks)})")


def next_card(deck: Deck, card: Card) -> Card | None:
    """Spec §2.2: the card of the same suit and the next higher rank, ``None`` above the top
    rank.  A removed card is returned all the same (nobody holds it: it stops a run, §6.3);
    the caller looks it up among the deck's cards."""
    k = rank_position(deck, card) + 1
    if k >= len(deck.ranks):
        return None
    return Card(deck.ranks[k], card.suit)


TURNED_UP: dict[Trumps, bool] = {
    "none": False,
    "last widow card": True,
}
"""Whether the widow's last-dealt card is turned up for trumps (spec §5.2), one row per
member of :data:`Trumps` (the verifier's own statement: its search deals every turn-up, its
z3 model has a trump suit)."""


def _widow_last(seats: list[int | None]) -> None:
    seats.append(None)


def _widow_first(seats: list[int | None]) -> None:
    seats.insert(0, None)


def _no_widow(seats: list[int | None]) -> None:
    pass


WIDOW_TURNS: dict[WidowPosition, Callable[[list[int | None]], None]] = {
    "last": _widow_last,
    "first": _widow_first,
    "none": _no_widow,
}
"""The widow's turn in a round of the deal (spec §5.2), put into the round's seats; one row
per member of :data:`WidowPosition` (the verifier's own statement, apart from the
engine's)."""

WIDOW_DEALT: dict[WidowPosition, bool] = {
    "last": True,
    "first": True,
    "none": False,
}
"""Whether a widow is dealt at all (spec §5.2), one row per member of :data:`WidowPosition`
(read by the z3 model's Init, its ranking function and the engine = model check's moves)."""


def deal_order(ruleset: Ruleset, players: int, dealer: int,
               out: frozenset[int] = frozenset()) -> tuple[int | None, ...]:
    """Spec §5.1: who gets each card of one round of the deal, ``None`` for the widow.  The
    seats in turn from the dealer's left (seat ``dealer + 1``, then on round the table,
    the dealer last), eliminated seats (``out``, §10) skipped; the widow after the last
    seat (``widow: last``), before the first (``widow: first``) or not at all
    (``widow: none``)."""
    seats: list[int | None] = []
    seat = dealer
    for _ in range(players):
        seat = seat + 1 if seat + 1 < players else 0
        if seat not in out:
            seats.append(seat)
    WIDOW_TURNS[ruleset.deal.widow_position](seats)
    return tuple(seats)


def hand_sizes(ruleset: Ruleset, players: int, dealer: int, cards: int,
               out: frozenset[int] = frozenset()) -> dict[int | None, int]:
    """Spec §5.2: ``cards`` cards dealt one at a time in :func:`deal_order` make q = cards
    div h cards a hand (h hands, the widow's included) and one more for the first
    cards mod h hands in that order.  Returns hand (``None``: the widow) → its size."""
    order = deal_order(ruleset, players, dealer, out)
    q, r = divmod(cards, len(order))
    return {who: q + (1 if k < r else 0) for k, who in enumerate(order)}


def deal(ruleset: Ruleset, players: int, dealer: int, pack: Sequence[Card],
         out: frozenset[int] = frozenset()) -> tuple[tuple[tuple[Card, ...], ...],
                                                     tuple[Card, ...]]:
    """Spec §5.1: the pack (``pack``, top card first) dealt one card at a time in
    :func:`deal_order`: (every seat's hand, the widow), each in the order dealt."""
    order = deal_order(ruleset, players, dealer, out)
    hands: list[list[Card]] = [[] for _ in range(players)]
    widow: list[Card] = []
    for k, card in enumerate(pack):
        who = order[k % len(order)]
        if who is None:
            widow.append(card)
        else:
            hands[who].append(card)
    return tuple(tuple(h) for h in hands), tuple(widow)


def share(balance: Any, ways: int, chips: str) -> Any:
    """Spec §9: ``balance`` chips of a section shared ``ways`` ways, each share: under
    ``chips: exact`` the exact fraction; else whole chips, the largest whole number of chips
    that ``ways`` shares can take (the remainder stays on the section).  ``ways`` ≥ 1."""
    return CHIP_SHARES[chips](Fraction(balance) / ways)


CHIP_SHARES: dict[str, Callable[[Fraction], Any]] = {
    "whole": lambda exact: exact.numerator // exact.denominator,
    "exact": lambda exact: exact,
}
"""The verifier's own share of every chip mode (spec §9), from the exact fraction of a
section's chips per winner: whole chips (the remainder stays on the section), or exact."""

PER_CARD: dict[str, bool] = {"boodle": True, "set": False, "kitty": False, "pot": False}
"""Spec §3, the verifier's own statement: whether each of a section's paying cards claims it
alone (a boodle, which ``each boodle`` ante lines name), by its kind."""

WHOLE_SET: dict[str, bool] = {"boodle": False, "set": True, "kitty": False, "pot": False}
"""Spec §3: whether a section is paid only to the holder of all its cards (a set), by its
kind; a kitty or a pot is paid by no card."""

SHARED: dict[str, bool] = {"share": True, "first seat": False, "lowest seat": False}
"""Spec §8.1: whether a tie for a section under each split rule shares it among every tied
seat, or gives it to one."""

PHASE_WON: dict[str, bool] = {"left of dealer": False, "dealer": False, "holder": False,
                              "last player": False, "next player": False,
                              "phase winner": True}
"""Spec §6.1: whether a lead under each ``who`` goes to the winner of an earlier phase."""

DRAWN: dict[str, bool] = {"fixed": False, "same suit": False, "trumps": False, "drawn": True}
"""Whether a section's card is drawn from a second pack for the session (spec §3, "Drawn
boodles"), by its suit rule: its ``cards`` are bound at the session's start, not named."""

ONE_SUIT_SETS: dict[str, bool] = {"fixed": False, "same suit": True, "trumps": False,
                                  "drawn": False}
"""Whether a set under each suit rule is its ranks in any one suit (spec §3), so that the
widow may hold one suit's and a hand another's (spec §5.2 ``blocks sets``)."""


REMAINDER_STAYS: dict[str, bool] = {"whole": True, "exact": False}
"""Whether a split under each chip mode may leave a remainder on the section (spec §9)."""


def side_pots(put: Mapping[int, Chips], live: Sequence[int],
              before: Any) -> list[tuple[Any, tuple[int, ...]]]:
    """Spec §8.3, "Showdown and side pots": the pots a betting round's showdown pays, main
    pot first, each as (chips, the seats it is open to, in the order of ``live``).

    ``put``: seat → chips it put in during the round (blinds, bets, calls, raises; a seat
    that folded counts, a seat absent put in 0); ``live``: the seats still in (not folded),
    clockwise from the dealer's left; ``before``: the chips on the pot before the round
    (antes, carry-over).  The main pot holds ``before`` and, from every seat, its chips up
    to the smallest amount a live seat put in; it is open to every live seat.  Each further
    pot holds every seat's chips above the last level and up to the next smallest amount
    put in by a live seat still open, and is open to the live seats that put in that much.
    Example (§8.3): ``before`` 9, seat 0 puts in 5, seat 2 (all in) 2, seat 3 folds after
    nothing: the main pot 9 + 2 + 2 = 13 for seats 0 and 2, the side pot 3 for seat 0."""
    pots: list[tuple[Any, tuple[int, ...]]] = []
    open_to = tuple(live)
    done: Chips = 0  # the chips per seat already counted in earlier pots
    while open_to:
        level = min(put.get(s, 0) for s in open_to)
        chips: Any = sum(max(0, min(p, level) - done) for p in put.values())
        pots.append((chips + before if not pots else chips, open_to))
        done = level
        open_to = tuple(s for s in open_to if put.get(s, 0) > level)
    return pots


PAYS_ANTE: dict[Payer, Callable[[int, int], bool]] = {
    "each player": lambda dealer, seat: True,
    "dealer": lambda dealer, seat: seat == dealer,
    "each other player": lambda dealer, seat: seat != dealer,
    "widow": lambda dealer, seat: seat == dealer,  # the widow's share, paid by the dealer
}
"""Whether ``seat`` pays an ante line when ``dealer`` deals (spec §4), one row per member of
:data:`Payer` (the verifier's own, apart from :data:`boodle.engine.stages.antes.PAYERS`)."""


def ante_sections(ruleset: Ruleset, targets: Sequence[str]) -> list[str]:
    """The sections an ante line's targets name, in order (spec §4: ``each boodle``, every
    boodle section in board order; ``every section``, every section; else the section
    named)."""
    out: list[str] = []
    for t in targets:
        out += ([s.name for s in ruleset.board if PER_CARD[s.kind]] if t == "each boodle"
                else [s.name for s in ruleset.board] if t == "every section" else [t])
    return out


SHORT_BY_SECTION: dict[ShortStack, bool] = {
    "as balance": False,
    "section by section": True,
}
"""Spec §4, the verifier's own statement: whether a seat that cannot pay its whole ante pays
section by section (:func:`short_antes`) rather than as written, the balance line deciding
(§9), one row per member of :data:`ShortStack`."""


def antes(ruleset: Ruleset, dealer: int, balances: Sequence[Chips],
          out: Collection[int] = ()) -> dict[tuple[int, str], Chips]:
    """Spec §4: what each seat puts on each section at the ante, ``(seat, section) → chips``
    (none of 0), from ``balances`` (each seat's chips before the ante) when ``dealer``
    deals; ``out``: the seats eliminated (§10), who pay nothing.  Every line but the chosen
    ones (a seat's choice is a move, not a rule: left out), paid by the seats
    :data:`PAYS_ANTE` names, on the sections :func:`ante_sections` names.  Under
    ``balance: eliminated at zero`` (§9) each payment is capped at what the payer has left,
    lines in order and each line's sections in order; under ``short stack: section by
    section`` a short seat pays as :func:`short_antes` says.  Example (§4, Michigan with the
    dealer paying double, 3 players, dealer seat 0): seat 0 puts 1 on each boodle and 4 on
    the kitty, seats 1 and 2 one on each boodle and 2 on the kitty."""
    short = short_antes(ruleset, dealer, balances, out) \
        if SHORT_BY_SECTION[ruleset.short_stack] else {}
    capped = ELIMINATES[ruleset.session.negative]
    paid: dict[tuple[int, str], Chips] = {}
    for seat, balance in enumerate(balances):
        if seat in out:
            continue
        if seat in short:
            paid |= {(seat, name): a for name, a in short[seat].items() if a}
            continue
        left = balance
        for line in ruleset.antes:
            if line.chosen or not PAYS_ANTE[line.payer](dealer, seat):
                continue
            for name in ante_sections(ruleset, line.targets):
                amount = min(line.amount, max(left, 0)) if capped else line.amount
                left -= amount
                if amount:
                    paid[(seat, name)] = paid.get((seat, name), 0) + amount
    return paid


def short_antes(ruleset: Ruleset, dealer: int, balances: Sequence[Chips],
                out: Collection[int] = ()) -> dict[int, dict[str, Chips]]:
    """Spec §4 ``short stack: section by section``: what each short seat pays, section by
    section (section → chips), from ``balances`` (each seat's chips before the ante) when
    ``dealer`` deals; ``out``: the seats eliminated (§10), who pay nothing.  A seat is short
    when its balance is less than the whole of its dues (every line that names it, chosen
    lines aside: the rule allows none); it pays its due on each section in board order, each
    in full, until the first it cannot pay in full, and nothing on that one or any later.
    The sections a short seat paid are those it may take this deal.  Seats not short are
    left out (they pay as written and may take every section).  Example (§4): Tripoley, 5
    chips, 1 due on each of the nine sections: A♥, K♥, Q♥, J♥ and 10♥, 1 chip each."""
    order = {s.name: k for k, s in enumerate(ruleset.board)}
    found: dict[int, dict[str, Chips]] = {}
    for seat, balance in enumerate(balances):
        if seat in out:
            continue
        dues: dict[str, Chips] = {}
        for line in ruleset.antes:
            if line.chosen or not PAYS_ANTE[line.payer](dealer, seat):
                continue
            for name in ante_sections(ruleset, line.targets):
                dues[name] = dues.get(name, 0) + line.amount
        if balance >= sum(dues.values()):
            continue
        paid: dict[str, Chips] = {}
        left = balance
        for name in sorted(dues, key=order.__getitem__):
            if dues[name] > left:
                break
            paid[name] = dues[name]
            left -= dues[name]
        found[seat] = paid
    return found


def _fixed_cards(ruleset: Ruleset, section: Section, trump: str | None
                 ) -> list[tuple[Card, ...]]:
    return [section.cards] if section.cards else []


def _same_suit_cards(ruleset: Ruleset, section: Section, trump: str | None
                     ) -> list[tuple[Card, ...]]:
    return [tuple(Card(r, suit) for r in section.ranks) for suit in ruleset.deck.suits]


def _trump_cards(ruleset: Ruleset, section: Section, trump: str | None
                 ) -> list[tuple[Card, ...]]:
    return [] if trump is None else [tuple(Card(r, trump) for r in section.ranks)]


SET_CARDS: dict[SuitRule, Callable[[Ruleset, Section, str | None], list[tuple[Card, ...]]]] = {
    "fixed": _fixed_cards,
    "same suit": _same_suit_cards,  # its ranks in any one suit
    "trumps": _trump_cards,  # its ranks in the deal's trump suit
    "drawn": _fixed_cards,  # bound before play (spec §3)
}
"""The card groups any one of which completes a set section (spec §3), one row per member of
:data:`SuitRule` (the verifier's own, apart from :func:`boodle.engine.holders.qualifies`)."""


WIDOW_BLOCKS: dict[WidowSets, bool] = {"qualifies nobody": False, "blocks sets": True}
"""Whether a set complete in the widow is blocked (spec §5.2), one row per member of
:data:`WidowSets`."""


def blocked_sets(ruleset: Ruleset, widow: Collection[Card], trump: str | None
                 ) -> frozenset[str]:
    """Spec §5.2 ``widow: blocks sets``: the set sections that lie complete in ``widow`` (one
    of their card groups, :data:`SET_CARDS`, all there), which nobody takes this deal.
    Empty under ``qualifies nobody``.  Example (§5.2): the widow holds 8♦ 9♦ 10♦; the 8-9-10
    section, ``same suit``, is blocked."""
    if not WIDOW_BLOCKS[ruleset.deal.widow_sets]:
        return frozenset()
    held = set(widow)
    return frozenset(s.name for s in ruleset.board if WHOLE_SET[s.kind] and any(
        group and all(c in held for c in group)
        for group in SET_CARDS[s.suit_rule](ruleset, s, trump)))
