"""Play one deal on compiled tables: the stops phase of spec §6-§7, in plain lists (and
the poker phases before it, :mod:`.poker`).

:func:`play_deal` is the per-move path of the simulator, so it is written for
speed: one function, local variables, bitmask hands, the ``own`` list of
:mod:`.tables`, chips moved in the caller's ``seats`` and ``sections`` lists.
A follow is forced (spec §6.2: the next card's holder must play it), so it
is played without asking anyone; a player is asked only at a lead with more
than one allowed card.  Rules come from :class:`~.tables.CompiledRules`
only; nothing here knows a variant.

Chips are conserved exactly as by :meth:`boodle.engine.ledger.Ledger.transfer`:
every amount leaves one list cell for another, and a section pays at most
what it holds (spec §9).  The optional ``trace`` receives one tuple per
event, the same tuples :func:`reference_trace` makes from the reference
engine's events, which is how the agreement test compares the two engines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from boodle.compiled.poker import Bettor, play_poker
from boodle.compiled.tables import (
    BACK_TO_STOPPER,
    HELD_BY,
    WIDOW,
    ClaimTables,
    CompiledHolding,
    CompiledLead,
    CompiledRules,
    OptionsFn,
)
from boodle.compiled.widow import Seller, play_sale
from boodle.engine.holders import award
from boodle.language.errors import BoodleError
from boodle.language.model import Chips

TraceItem = tuple[object, ...]


class DealView:
    """What a player may consult when asked for a lead, read-only by convention.

    ``own``, ``hands`` (bitmasks), ``held`` (counts), ``seats`` and
    ``sections`` (chips) are the live lists of the deal; ``claims`` the deal's
    claim tables (for its trump suit); ``revealed`` is the
    bitmask of widow cards a stop has shown to be held by nobody (spec §6.3);
    ``restart`` and ``stopped`` (suit index, -1 at the first lead) describe the
    lead due; ``widow_size`` is the widow's card count.
    """

    __slots__ = ("rules", "claims", "players", "dealer", "own", "hands", "held", "seats",
                 "sections", "revealed", "restart", "stopped", "widow_size")

    def __init__(self, rules: CompiledRules, claims: ClaimTables, players: int, dealer: int,
                 own: list[int], hands: list[int], held: list[int], seats: list[Chips],
                 sections: list[Chips], widow_size: int) -> None:
        self.rules = rules
        self.claims = claims
        self.players = players
        self.dealer = dealer
        self.own = own
        self.hands = hands
        self.held = held
        self.seats = seats
        self.sections = sections
        self.revealed = 0
        self.restart = False
        self.stopped = -1
        self.widow_size = widow_size


Chooser = Callable[[DealView, int, list[int]], int]
"""A player: ``choose(view, seat, options)`` returns one of ``options`` (card indices)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal's outcome, besides the chips already moved in the caller's lists.

    ``winner``: the seat that went out, or -1 (an all-pass ended the deal);
    ``plays``: cards played; ``leads``: runs opened; ``passes``: passes made;
    ``after_ante``: each section's chips once the ante is paid; ``taken``:
    chips taken from each section in this deal (-1: not claimed).
    """

    winner: int
    plays: int
    leads: int
    passes: int
    after_ante: tuple[Chips, ...]
    taken: tuple[Chips, ...]


def _resolve(
    lead: CompiledLead, own: list[int], dealer: int, players: int
) -> tuple[int, OptionsFn]:
    """A ``holder`` rule's leader and options (spec §6.1: fall back up the suit, then left)."""
    for c, options in lead.candidates:
        q = own[c]
        if q >= 0:
            return q, options
    assert lead.none_held is not None
    return (dealer + 1) % players, lead.none_held


def _leader(lead: CompiledLead, own: list[int], dealer: int, players: int, last: int) -> int:
    """Who leads under ``lead`` (spec §6.1); ``last`` played the stopped run's last card."""
    return LEADERS[lead.who](lead, own, dealer, players, last)


LEADERS: dict[str, Callable[[CompiledLead, list[int], int, int, int], int]] = {
    "last player": lambda lead, own, dealer, players, last: last,
    "next player": lambda lead, own, dealer, players, last: (last + 1) % players,
    "left of dealer": lambda lead, own, dealer, players, last: (dealer + 1) % players,
    "dealer": lambda lead, own, dealer, players, last: dealer,
    "holder": lambda lead, own, dealer, players, last: _resolve(lead, own, dealer, players)[0],
}
"""The compiled reading of each ``who`` it runs (spec §6.1); ``phase winner`` is not run
(:func:`boodle.compiled.tables.unsupported_features` says so, and simulate falls back)."""


def play_deal(
    t: CompiledRules,
    players: int,
    dealer: int,
    perm: Sequence[int],
    seats: list[Chips],
    sections: list[Chips],
    choosers: Sequence[Chooser],
    trace: list[TraceItem] | None = None,
    bettors: Sequence[Bettor] | None = None,
    sellers: Sequence[Seller] | None = None,
) -> DealResult:
    """Ante, deal ``perm`` (card indices in dealing order, spec §5.2) and play the deal out.

    ``seats`` and ``sections`` (chips, board order) are updated in place;
    ``choosers[seat]`` picks a lead when there is a choice; ``bettors[seat]`` acts in the
    betting round of a poker phase (spec §8.3; needed only when the ruleset has one);
    ``sellers[seat]`` in the widow sale or auction (spec §5.4; likewise).  Raises
    :class:`BoodleError` if a lead rule and its fallback both find no card
    (the reference engine's ``NotSupported`` case), or if a betting round has no bettors.
    """
    if t.capped and any(b <= 0 for b in seats):
        return _play_still_in(t, players, dealer, perm, seats, sections, choosers, trace,
                              bettors, sellers)
    own = [0] * t.n_cards
    hands = [0] * players
    bit = t.bit
    for c, w in zip(perm, t.receivers(players, dealer), strict=True):
        own[c] = w
        if w >= 0:
            hands[w] |= bit[c]
    turn_up = perm[t.turn_position(players, dealer)] if t.trumps else -1
    return _play(t, players, dealer, own, hands, seats, sections, choosers, trace, turn_up,
                 bettors, sellers)


def _play_still_in(
    t: CompiledRules,
    players: int,
    dealer: int,
    perm: Sequence[int],
    seats: list[Chips],
    sections: list[Chips],
    choosers: Sequence[Chooser],
    trace: list[TraceItem] | None,
    bettors: Sequence[Bettor] | None,
    sellers: Sequence[Seller] | None = None,
) -> DealResult:
    """Spec §10, ``balance: eliminated at zero``: a seat at zero or below is out of the deal
    (dealt no card, pays no ante, skipped in every rotation), so the deal is the one of the
    seats still in, in their order round the table: it is played on those alone, renumbered
    0..k-1, and its chips and trace are put back on the seats' own numbers.  Raises
    :class:`BoodleError` for a dealer who is out (as the reference engine's ``new_deal``)."""
    still = [s for s in range(players) if seats[s] > 0]
    if dealer not in still:
        raise BoodleError(f"seat {dealer} is eliminated and cannot deal")
    mine = [seats[s] for s in still]
    inner: list[TraceItem] | None = None if trace is None else []
    r = play_deal(t, len(still), still.index(dealer), perm, mine, sections,
                  [choosers[s] for s in still], inner,
                  None if bettors is None else [bettors[s] for s in still],
                  None if sellers is None else [sellers[s] for s in still])
    for s, b in zip(still, mine, strict=True):
        seats[s] = b
    if trace is not None and inner is not None:
        trace.extend(_renumbered(item, still) for item in inner)
    return DealResult(-1 if r.winner < 0 else still[r.winner], r.plays, r.leads, r.passes,
                      r.after_ante, r.taken)


SEAT_FIELDS: dict[str, tuple[int, ...]] = {
    "lead": (1,), "play": (1,), "stop": (1,), "claim": (1,), "pass": (1,), "bonus": (1,),
    "out": (1,), "pay": (1,), "bet": (1,), "penalty": (1, 3), "end": (1,),
    "turn-up": (), "flip": (), "showdown": (), "widow offered": (1,), "widow pass": (1,),
    "bid": (1,), "withdrawn": (1,), "exchange": (1,), "unsold": (),
}
"""Where each trace tuple names a seat (an ``int`` there: a ``penalty`` paid to a seat, an
``end`` with a winner); a ``showdown`` names them in its hands and winners."""


def _renumbered(item: TraceItem, still: list[int]) -> TraceItem:
    """``item`` of a deal played on the seats ``still`` in, renumbered 0..k-1, with the
    seats' own numbers."""
    if item[0] == "showdown":
        hands = cast(tuple[tuple[int, object], ...], item[2])
        winners = cast(tuple[int, ...], item[3])  # a tuple on every engine (Showdown.winners)
        return (item[0], item[1], tuple((still[s], h) for s, h in hands),
                tuple(still[s] for s in winners))
    out = list(item)
    for i in SEAT_FIELDS[cast(str, item[0])]:
        if type(out[i]) is int:
            out[i] = still[cast(int, out[i])]
    return tuple(out)


def _cut(amount: Chips, balance: Chips) -> Chips:
    """What a seat with ``balance`` pays of ``amount`` under elimination (spec §9, as
    :func:`boodle.engine.ledger.capped_amount`): at most the balance, nothing below zero."""
    return min(amount, max(balance, 0))


def own_of(t: CompiledRules, hands: Sequence[Sequence[int]]) -> list[int]:
    """The ``own`` list of a deal given as hands by seat (card indices); the rest is the widow."""
    own = [WIDOW] * t.n_cards
    for seat, hand in enumerate(hands):
        for c in hand:
            own[c] = seat
    return own


def play_dealt(
    t: CompiledRules,
    players: int,
    dealer: int,
    own: list[int],
    seats: list[Chips],
    sections: list[Chips],
    choosers: Sequence[Chooser],
    trace: list[TraceItem] | None = None,
    turn_up: int = -1,
    bettors: Sequence[Bettor] | None = None,
) -> DealResult:
    """Ante and play out a deal whose cards are placed by ``own`` (see :func:`play_deal`).

    ``turn_up``: the widow card turned up for trumps (-1: none), for rules with trumps.
    """
    hands = [0] * players
    for c, w in enumerate(own):
        if w >= 0:
            hands[w] |= t.bit[c]
    return _play(t, players, dealer, own, hands, seats, sections, choosers, trace, turn_up,
                 bettors)


def _play(  # noqa: C901 - the per-move path, kept in one function for speed
    t: CompiledRules,
    n: int,
    dealer: int,
    own: list[int],
    hands: list[int],
    seats: list[Chips],
    sections: list[Chips],
    choosers: Sequence[Chooser],
    trace: list[TraceItem] | None,
    turn_up: int,
    bettors: Sequence[Bettor] | None = None,
    sellers: Sequence[Seller] | None = None,
) -> DealResult:
    """The ante, the turn-up, the widow sale (spec §5.4), the poker and holding phases before
    the stops phase (spec §8.1-§8.3) and the stops phase on a dealt ``own``/``hands``
    (spec §4-§7)."""
    allow: list[int] | None = None  # per seat, the sections it may take (None: all, spec §4)
    if t.by_section:  # spec §4: a short payer antes section by section
        allow = _ante_by_section(t, n, dealer, seats, sections)
    elif t.capped:  # spec §4, §9: payment by payment, each cut to the payer's balance
        for who, k, due in t.ante_payments(n, dealer):
            paid = _cut(due, seats[who])
            seats[who] -= paid
            sections[k] += paid
    else:
        pay, put = t.antes(n, dealer)
        for i in range(n):
            seats[i] -= pay[i]
        for k, ante in enumerate(put):
            sections[k] += ante
    after_ante = tuple(sections)
    taken: list[Chips] = [-1] * len(sections)
    bit, nxt, suit_of, bonus = t.bit, t.nxt, t.suit_of, t.bonus
    ct = t.claim_tables[suit_of[turn_up] if turn_up >= 0 else 0]
    simple, complex_claims, has_sets = ct.boodle_claim, ct.set_claims, ct.has_sets
    held = [h.bit_count() for h in hands]
    view = DealView(t, ct, n, dealer, own, hands, held, seats, sections, t.n_cards - sum(held))
    if turn_up >= 0:
        _turn_up(t, ct, turn_up, dealer, seats, sections, taken, trace, allow)
    for i, ph in enumerate(t.before):  # the holding and poker phases, in order (§8.1-§8.3)
        if i == t.sale_at:
            _sale(t, n, dealer, own, hands, held, seats, sections, sellers, trace, view)
        if isinstance(ph, CompiledHolding):
            _pay_holders(t, ph, suit_of[turn_up] if turn_up >= 0 else 0, n, dealer, hands,
                         seats, sections, taken, trace, own, allow)
        else:
            play_poker(t, ph, n, dealer, hands, seats, sections, taken, bettors, trace, allow)
    if t.sale_at == len(t.before) and t.sale_at >= 0:
        _sale(t, n, dealer, own, hands, held, seats, sections, sellers, trace, view)
    # spec §4, §5.2: what each seat may not claim in the stops phase (a set the widow
    # blocks, a section a short seat did not ante), as section bits; None: nothing barred
    deny: list[int] | None = None
    shut = _blocked(t, suit_of[turn_up] if turn_up >= 0 else 0, own)
    if shut or allow is not None:
        full = (1 << len(sections)) - 1
        deny = [shut | (full & ~(full if allow is None else allow[s])) for s in range(n)]
    fallback, first, again = t.fallback, t.first_lead, t.restart
    again_last = BACK_TO_STOPPER[again.who]
    restart = flipped = False
    stopped = -1  # the stopped suit, set only once a restart is due
    passes = plays = leads = npass = 0
    winner = -1
    lead = first
    options, per_suit = first.options, first.per_suit
    holder = HELD_BY[first.who]
    p = _leader(first, own, dealer, n, -1)
    while True:
        # ---- a lead is due by p (spec §6.1, §6.4, §6.5)
        hand = hands[p]
        if per_suit is not None:  # the lowest card of each allowed suit, inline
            opts = []
            for m in per_suit[stopped + 1][flipped]:
                x = hand & m
                if x:
                    opts.append((x & -x).bit_length() - 1)
        else:
            if holder:
                options = _resolve(lead, own, dealer, n)[1]
            opts = options(hand, stopped, flipped)
        if not opts:
            if fallback is None:
                npass += 1
                _pass_dues(t, p, n, seats, sections, trace)
                if trace is not None:
                    trace.append(("pass", p))
                passes += 1
                p = (p + 1) % n
                if passes < n:
                    continue
                if t.all_pass == "end":
                    _all_pass_charge(t, dealer, n, held, seats, sections, trace)
                    break
                flipped = not flipped
                passes = 0
                if trace is not None:
                    trace.append(("flip", flipped))
                continue
            opts = fallback(hand, stopped, flipped)
            if not opts:
                raise BoodleError(f"seat {p} may lead no card under the lead rule nor its "
                                  "fallback; the ruleset does not say what happens")
        c = opts[0] if len(opts) == 1 else choosers[p](view, p, opts)
        passes = 0
        flipped = False
        leads += 1
        if trace is not None:
            trace.append(("lead", p, str(t.cards[c]), restart))
        # ---- the run: play c, then every forced follow (spec §6.2, §6.3, §6.6)
        while True:
            hands[p] ^= bit[c]
            own[c] = -2 - p
            held[p] -= 1
            plays += 1
            k = simple[c]
            if k >= 0 and (deny is None or not deny[p] >> k & 1):
                amount = sections[k]
                sections[k] = 0
                seats[p] += amount
                taken[k] = amount if taken[k] < 0 else taken[k] + amount
                if trace is not None:
                    trace.append(("claim", p, t.section_names[k], amount))
            elif has_sets and complex_claims[c]:
                _claim_sets(t, ct, p, c, own, seats, sections, taken, trace,
                            0 if deny is None else deny[p])
            if held[p] == 0:
                break
            nx = nxt[c]
            if nx < 0:
                break
            q = own[nx]
            if q < 0:
                break
            c = nx
            p = q
            if trace is not None:
                trace.append(("play", p, str(t.cards[c])))
        if held[p] == 0:
            winner = p
            _go_out(t, p, n, hands, held, seats, sections, taken, trace,
                    0 if deny is None else deny[p])
            break
        # ---- a stop (spec §6.3, §6.7): the restart rule names the next leader
        if nx >= 0 and own[nx] == WIDOW:
            view.revealed |= bit[nx]
        if trace is not None:
            trace.append(_stop_item(t, p, c, nx, own))
        if bonus is not None:
            _bonus(bonus, p, n, seats, sections, trace, t.capped)
        if not restart:
            restart = view.restart = True
            lead, options, per_suit = again, again.options, again.per_suit
            holder = HELD_BY[again.who]
        stopped = view.stopped = suit_of[c]
        if not again_last:
            p = _leader(again, own, dealer, n, p)
    if trace is not None:
        trace.append(("end", None if winner < 0 else winner))
    return DealResult(winner, plays, leads, npass, after_ante, tuple(taken))


def _ante_by_section(t: CompiledRules, n: int, dealer: int, seats: list[Chips],
                     sections: list[Chips]) -> list[int] | None:
    """Spec §4 ``short stack: section by section``: the ante's payments in order
    (:meth:`~.tables.CompiledRules.ante_payments`), but a seat whose balance is less than its
    whole ante pays, at the place of its first payment, its dues summed per section in board
    order, each in full, until the first it cannot pay (the rest stays with it).  Returns per
    seat the sections (bits, board order) it may take this deal, or ``None`` when nobody was
    short (as :func:`boodle.engine.stages.antes._section_by_section`)."""
    pays = t.ante_payments(n, dealer)
    total: list[Chips] = [0] * n
    for who, _, due in pays:
        total[who] += due
    short = [seats[s] < total[s] for s in range(n)]
    if not any(short):
        for who, k, due in pays:
            seats[who] -= due
            sections[k] += due
        return None
    full = (1 << len(sections)) - 1
    allow = [full] * n
    done = [False] * n
    for who, k, due in pays:
        if not short[who]:
            seats[who] -= due
            sections[k] += due
            continue
        if done[who]:
            continue
        done[who] = True
        dues: list[Chips] = [0] * len(sections)
        named = 0
        for payer, j, amount in pays:
            if payer == who:
                dues[j] += amount
                named |= 1 << j
        anted = 0
        for j in range(len(sections)):
            if not named >> j & 1:
                continue
            if dues[j] > seats[who]:
                break
            seats[who] -= dues[j]
            sections[j] += dues[j]
            anted |= 1 << j
        allow[who] = anted
    return allow


def _blocked(t: CompiledRules, table: int, own: list[int]) -> int:
    """Spec §5.2 ``blocks sets``: the set sections (bits, board order) whose cards lie whole in
    the widow as ``own`` places it now, for claim table ``table``; 0 under ``qualifies
    nobody``."""
    if not t.set_masks:
        return 0
    widow = 0
    for c, w in enumerate(own):
        if w == WIDOW:
            widow |= 1 << c
    out = 0
    for k, masks in enumerate(t.set_masks[table]):
        if any(widow & m == m for m in masks):
            out |= 1 << k
    return out


def _sale(t: CompiledRules, n: int, dealer: int, own: list[int], hands: list[int],
          held: list[int], seats: list[Chips], sections: list[Chips],
          sellers: Sequence[Seller] | None, trace: list[TraceItem] | None,
          view: DealView) -> None:
    """Spec §5.4 (:func:`~.widow.play_sale`); raises :class:`BoodleError` without sellers."""
    if sellers is None:
        raise BoodleError("the widow sale needs sellers (one a seat)")
    play_sale(t, n, dealer, own, hands, held, seats, sections, sellers, trace)
    view.widow_size = t.n_cards - sum(held)


def _pay_holders(t: CompiledRules, ph: CompiledHolding, table: int, n: int, dealer: int,
                 hands: list[int], seats: list[Chips], sections: list[Chips],
                 taken: list[Chips], trace: list[TraceItem] | None, own: list[int],
                 allow: list[int] | None) -> None:
    """Spec §8.1: each section of the holding phase, in its order, to the seats holding its
    cards (any one of its masks), split by the phase's rule (:func:`award`, spec §9), the
    shares clockwise from the dealer's left; nobody: it carries over.  A set complete in the
    widow (``own``) at the phase's start is paid to nobody (spec §5.2 ``blocks sets``); a
    seat qualifies only for the sections ``allow[seat]`` has (spec §4: a short seat, the
    sections it anted; ``None``: every seat, every section)."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    masks = ph.masks[table]
    shut = _blocked(t, table, own)
    for k in ph.sections:
        if shut >> k & 1:
            continue
        alternatives = masks[k]
        winners = [s for s in order if any(hands[s] & m == m for m in alternatives)
                   and (allow is None or allow[s] >> k & 1)]
        paid = award(t.section_names[k], winners, sections[k], ph.split, t.ruleset.chips)
        if paid is None:
            continue
        for who in paid.seats:
            share = paid.share
            sections[k] -= share
            seats[who] += share
            taken[k] = share if taken[k] < 0 else taken[k] + share
            if trace is not None:
                trace.append(("claim", who, t.section_names[k], share))


def _turn_up(t: CompiledRules, ct: ClaimTables, c: int, dealer: int, seats: list[Chips],
             sections: list[Chips], taken: list[Chips], trace: list[TraceItem] | None,
             allow: list[int] | None = None) -> None:
    """Spec §5.2: the turn-up shows trumps; the dealer may take the boodle it pays (a short
    dealer only one it anted, ``allow``, spec §4)."""
    if trace is not None:
        trace.append(("turn-up", str(t.cards[c]), t.cards[c].suit))
    if not t.turn_up_takes:
        return
    for k in ct.boodle_of[c]:
        if allow is not None and not allow[dealer] >> k & 1:
            continue
        amount = sections[k]
        sections[k] = 0
        seats[dealer] += amount
        taken[k] = amount if taken[k] < 0 else taken[k] + amount
        if trace is not None:
            trace.append(("claim", dealer, t.section_names[k], amount))


def _claim_sets(t: CompiledRules, ct: ClaimTables, p: int, c: int, own: list[int],
                seats: list[Chips], sections: list[Chips], taken: list[Chips],
                trace: list[TraceItem] | None, deny: int = 0) -> None:
    """Spec §6.6: the sections card ``c`` claims with sets, in board order, but those of
    ``deny`` (section bits: blocked by the widow, spec §5.2, or not anted, spec §4)."""
    mine = -2 - p
    for k, needs in ct.set_claims[c]:
        if not deny >> k & 1 and all(own[x] == mine for x in needs):
            amount = sections[k]
            sections[k] = 0
            seats[p] += amount
            taken[k] = amount if taken[k] < 0 else taken[k] + amount
            if trace is not None:
                trace.append(("claim", p, t.section_names[k], amount))


def _stop_item(t: CompiledRules, p: int, c: int, nx: int, own: list[int]) -> TraceItem:
    """The trace tuple of a stop after card ``c`` (reasons as in
    :class:`boodle.engine.events.Stop`)."""
    card = t.cards[c]
    if nx < 0:
        reason = t.stop_reason_none[c]
        after = t.ruleset.deck.next_card(card)
        return ("stop", p, str(card), reason, None if reason == "top rank" else str(after))
    reason = "widow" if own[nx] == WIDOW else "played"
    return ("stop", p, str(card), reason, str(t.cards[nx]))


def _pass_dues(t: CompiledRules, who: int, n: int, seats: list[Chips], sections: list[Chips],
               trace: list[TraceItem] | None) -> None:
    """Spec §6.5, §6.8: the pass fee, then a ``cannot lead`` penalty, before passing."""
    for due, to, if_able in t.pass_dues:
        amount: Chips = due
        if if_able and seats[who] < amount:
            continue
        if to >= 0:
            if t.capped:
                amount = _cut(amount, seats[who])
            seats[who] -= amount
            sections[to] += amount
            if trace is not None:
                trace.append(("penalty", who, amount, t.section_names[to]))
            continue
        for i in range(1, n):
            each = _cut(amount, seats[who]) if t.capped else amount
            seats[who] -= each
            seats[(who + i) % n] += each
            if trace is not None:
                trace.append(("penalty", who, each, (who + i) % n))


def _all_pass_charge(t: CompiledRules, dealer: int, n: int, held: list[int],
                     seats: list[Chips], sections: list[Chips],
                     trace: list[TraceItem] | None) -> None:
    """Spec §6.5: the round of passes ends the deal; each player from the dealer's left pays
    per card left in hand to the charge's section."""
    per, to = t.all_pass_charge
    if to < 0:
        return
    for i in range(1, n + 1):
        payer = (dealer + i) % n
        amount: Chips = per * held[payer]
        if t.capped:
            amount = _cut(amount, seats[payer])
        seats[payer] -= amount
        sections[to] += amount
        if trace is not None:
            trace.append(("pay", payer, amount))


def _bonus(bonus: tuple[int, int], p: int, n: int, seats: list[Chips], sections: list[Chips],
           trace: list[TraceItem] | None, capped: bool = False) -> None:
    """Spec §6.7: the stop's player gets the bonus, from each opponent (each paying at most
    their balance when ``capped``, spec §9) or a section."""
    each, src = bonus
    if src < 0:
        for i in range(1, n):
            payer = (p + i) % n
            amount = _cut(each, seats[payer]) if capped else each
            seats[payer] -= amount
            seats[p] += amount
            if trace is not None:
                trace.append(("bonus", p, amount))
        return
    amount = min(each, sections[src])
    sections[src] -= amount
    seats[p] += amount
    if trace is not None:
        trace.append(("bonus", p, amount))


def _go_out(t: CompiledRules, p: int, n: int, hands: list[int], held: list[int],
            seats: list[Chips], sections: list[Chips], taken: list[Chips],
            trace: list[TraceItem] | None, deny: int = 0) -> None:
    """Spec §7: payments into the kitty, the sections taken (but those of ``deny``, section
    bits: a set the widow blocks, spec §5.2, a section a short winner did not ante, spec §4),
    then payments to the winner."""
    if trace is not None:
        trace.append(("out", p))
    if t.out_to_kitty >= 0:
        _payments(t, p, n, hands, held, seats, sections, t.out_to_kitty, trace)
    for k in t.out_takes:
        if deny >> k & 1:
            continue
        amount = sections[k]
        sections[k] = 0
        seats[p] += amount
        taken[k] = amount if taken[k] < 0 else taken[k] + amount
        if trace is not None:
            trace.append(("claim", p, t.section_names[k], amount))
    if t.out_to_kitty < 0:
        _payments(t, p, n, hands, held, seats, sections, -1, trace)


def _payments(t: CompiledRules, p: int, n: int, hands: list[int], held: list[int],
              seats: list[Chips], sections: list[Chips], kitty: int,
              trace: list[TraceItem] | None) -> None:
    """Each opponent from the winner's left pays per card left, to the kitty or the winner."""
    per, excused = t.out_per_card, t.out_excused
    for i in range(1, n):
        payer = (p + i) % n
        amount: Chips = 0 if hands[payer] & excused else per * held[payer]
        if t.capped:
            amount = _cut(amount, seats[payer])
        seats[payer] -= amount
        if kitty >= 0:
            sections[kitty] += amount
        else:
            seats[p] += amount
        if trace is not None:
            trace.append(("pay", payer, amount))
