"""Compile a :class:`~boodle.language.model.Ruleset` once into plain tables for fast play.

Cards become indices 0..N-1 in deck order (suit by suit, low to high, spec
§2), so "the lowest card of a suit" is the lowest set bit of a hand bitmask
masked by the suit.  Where a card is during a deal is one ``own`` list:
``own[c]`` is the seat holding card ``c`` (0..n-1), ``WIDOW`` (-1), or
``-2 - seat`` once ``seat`` has played it (so ``own[c] < 0`` reads "held by
nobody", spec §6.3).

Every rule the engine needs per move is resolved here, never by a
variant's name: successor cards (spec §2.2), claims per card (spec §6.6),
lead rules as option functions (spec §6.1, §6.4, §6.5), the going-out
payments (spec §7), antes summed per seat and section (spec §4), and the
deal's order of receivers (spec §5.2).

:func:`unsupported_features` lists what the compiled engine does not run;
:func:`compile_ruleset` raises :class:`~boodle.language.errors.BoodleError` for those.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from boodle.engine.holders import SECTION_KINDS, paying_cards
from boodle.engine.leads import CHOICES, SCOPES, TIES, holder_candidates, suit_allowed
from boodle.engine.poker_hands import rank_value
from boodle.engine.stages.antes import PAYERS
from boodle.engine.stages.poker import BET_SIZES, BetSizes
from boodle.engine.stages.turn_up import DEALER_TAKES
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.features import Feature, FeatureKey, Refusal, refused
from boodle.language.kind_facts import BALANCE_FACTS
from boodle.language.model import (
    AllPass,
    Choice,
    ClaimRule,
    Discard,
    Fallback,
    FallbackKind,
    Fault,
    GoingOut,
    HoldingPhase,
    LeadRule,
    Opener,
    PaidTo,
    PokerPhase,
    Ruleset,
    Section,
    ShortStack,
    Split,
    StopsPhase,
    SuitRule,
    TieBreak,
    Trumps,
    WidowPosition,
    WidowSale,
    WidowSets,
)

WIDOW = -1
"""``own[c]`` of a widow card."""

OptionsFn = Callable[[int, int, bool], list[int]]
"""``options(hand, stopped, flipped)``: the card indices a lead rule allows, ascending.

``hand`` is a bitmask of card indices; ``stopped`` the stopped suit's index
(-1 for none: the first lead); ``flipped`` whether an all-pass flipped the
required colour (spec §6.5).
"""


Allowed = tuple[tuple[tuple[int, ...], ...], ...]
"""``allowed[stopped + 1][flipped]``: the bitmasks of the suits a lead rule allows."""


# ---------------------------------------------------------------- what it runs


WIDOW_SETS: dict[WidowSets, bool] = {
    # the claim tables read the players' plays only: widow cards are never played
    "qualifies nobody": False,
    # a set complete in the widow is claimed by nobody: CompiledRules.set_masks, read at
    # each holding phase and once the stops phase starts (the widow no longer changes)
    "blocks sets": True,
}
"""Whether a set lying complete in the widow blocks its section for the deal (spec §5.2),
one row per member of :data:`WidowSets`."""


SHORT_STACKS: dict[ShortStack, bool] = {
    # every ante payment as written, in payment order, each cut to the payer's balance
    # under elimination (CompiledRules.ante_payments)
    "as balance": False,
    # a short payer's dues summed per section, paid in board order while the balance lasts;
    # the seat then takes only the sections it anted (deal._ante_by_section)
    "section by section": True,
}
"""Whether a payer short of their whole ante pays section by section (spec §4), one row per
member of :data:`ShortStack`."""


WIDOW_RECEIVERS: dict[WidowPosition, Callable[[list[int]], list[int]]] = {
    "last": lambda seats: [*seats, WIDOW],
    "first": lambda seats: [WIDOW, *seats],
    "none": lambda seats: seats,
}
"""Who receives each card of a round of the deal (spec §5.2), the seats in turn from the
dealer's left given, ``WIDOW`` for the widow; one row per member of :data:`WidowPosition`."""


TRUMPS_TURNED: dict[Trumps, bool] = {
    "none": False,
    "last widow card": True,  # the card at the widow's last position (turn_position)
}
"""Whether a widow card is turned up for trumps (spec §5.2), one row per member of
:data:`Trumps`."""


PASS_DUES: dict[Fault, bool] = {
    "cannot lead": True,
    # charged at a lead, never at a pass: the compiled engine does not run it (a penalty
    # other than 'cannot lead' is refused by unsupported_features)
    "lead not lowest": False,
}
"""Whether each fault's penalty is a due of a pass (spec §6.8), paid after the fallback's fee,
one row per member of :data:`Fault`."""


@dataclass(frozen=True)
class ClaimRendering:
    """How the compiled engine renders a claims rule (spec §6.6): ``plays_claim``, the claim
    tables list what playing each card claims (else they are empty); ``runs``, the deal loop
    plays it (else :func:`unsupported_features` refuses it)."""

    plays_claim: bool
    runs: bool


CLAIMS: dict[ClaimRule, ClaimRendering] = {
    "on play": ClaimRendering(plays_claim=True, runs=True),
    # the deal loop does not pay holders at the phase start; the claim tables are still
    # built as under 'on play' for the players' views of a reference deal (strict=False)
    "on holding": ClaimRendering(plays_claim=True, runs=False),
    "none": ClaimRendering(plays_claim=False, runs=True),
}
"""How the compiled engine renders each claims rule, one row per member of :data:`ClaimRule`."""


ALL_PASSES: dict[AllPass, str] = {
    # with 'none' the fallback leads, so no round of passes is played (a pass fallback
    # without an exit is refused, SUPPORT); like the reference engine's row, it flips
    "none": "flip",
    "end without winner": "end",
    "flip colour": "flip",
}
"""What the deal loop does after a round of passes (spec §6.5): ``end`` the deal, or
``flip`` the colour; one row per member of :data:`AllPass`."""


def _to_winner(out: GoingOut, names: tuple[str, ...], kitty: int) -> tuple[int, bool]:
    return -1, False


def _into_kitty(out: GoingOut, names: tuple[str, ...], kitty: int) -> tuple[int, bool]:
    return kitty, True


def _into_section(out: GoingOut, names: tuple[str, ...], kitty: int) -> tuple[int, bool]:
    return (names.index(out.into) if out.into in names else -1), False


PAID_TO: dict[PaidTo, Callable[[GoingOut, tuple[str, ...], int], tuple[int, bool]]] = {
    "winner": _to_winner,
    "kitty": _into_kitty,
    "section": _into_section,
}
"""Where going out's payments go (spec §7), one row per member of :data:`PaidTo`: (the
section index paid into before the sections are taken, or -1 for the winner, paid after;
whether the winner takes that section too)."""


HAND_TO_WIDOW: dict[Discard, bool] = {"becomes widow": True, "out of play": False}
"""Whether a widow taker's hand becomes the widow (spec §5.4), one row per member of
:data:`~boodle.language.model.Discard`; the compiled engine plays only that one."""


SALE_REFUSED: dict[str, Callable[[WidowSale], bool]] = {
    # played (compiled/widow.py): a sale barred to boodle holders (CompiledRules.barring),
    # prices paid to the dealer, the dealer's swap before the offer
    "a widow taker's hand out of play": lambda s: not HAND_TO_WIDOW[s.discard],
}
"""What of a widow sale the compiled engine does not play (spec §5.4), by the words it says."""


def sale_refused(sale: WidowSale) -> list[str]:
    """The parts of ``sale`` the compiled engine does not play (empty: it plays it)."""
    return [words for words, found in SALE_REFUSED.items() if found(sale)]


def _in_phase(words: Callable[[Feature], str]) -> Refusal:
    def said(ruleset: Ruleset, found: Sequence[Feature]) -> list[str]:
        return [f"phase {f.phase}: {words(f)}" for f in found]
    return said


def _said(words: str) -> Refusal:
    return lambda ruleset, found: [words]


def _phases_refused(ruleset: Ruleset, found: Sequence[Feature]) -> list[str]:
    """The phases other than stops the compiled engine does not play: any but a poker or
    holding phase before the stops phase (spec §8.1-§8.3), and a going out barred by what
    such a phase took (``unless taken``, spec §7)."""
    stops = next((k for k, p in enumerate(ruleset.phases) if isinstance(p, StopsPhase)),
                 len(ruleset.phases))
    played = {p.name for p in ruleset.phases[:stops] if isinstance(p, PokerPhase | HoldingPhase)}
    out = [f.detail for f in found if f.detail not in played]
    said = ["phases other than stops: " + ", ".join(out)] if out else []
    barred = [f"{name} unless taken in {earlier}"
              for p in ruleset.phases if isinstance(p, StopsPhase)
              for name, earlier in p.going_out.unless_taken if earlier in played]
    return said + [f"going out takes {b}" for b in barred]


def _claims_refused(ruleset: Ruleset, found: Sequence[Feature]) -> list[str]:
    return [f"phase {f.phase}: claims {f.detail}" for f in found
            if not CLAIMS[cast(ClaimRule, f.detail)].runs]


SUPPORT: dict[FeatureKey, Refusal | None] = {
    "other phases": _phases_refused,  # a poker phase before the stops phase is played
    "no stops phase": _said("0 stops phases (exactly one is played)"),
    "several stops phases": lambda rs, found: [
        f"{found[0].detail} stops phases (exactly one is played)"],
    "widow sale": lambda rs, found: sale_refused(rs.widow_sale) if rs.widow_sale else [],
    "trump sections without trumps": _said("trump sections without a trump suit"),
    "trump turn-up": None,  # the claim tables per trump suit, and the turn-up's boodle
    "drawn boodles": _said("boodles drawn from a second pack"),
    "chosen antes": _said("chosen-boodle antes"),
    # spec §9, §10: payments cut to the payer's balance; the seats out are left out of the
    # deal (play_deal plays it on the seats still in)
    "elimination": None,
    "few players still in": None,  # the session's end: simulate's loop reads it
    # spec §10: each deal is one the compiled engine plays, but its sessions (boodle
    # simulate's loop, the kernel's run_session) keep every player in their seat
    "seats redrawn": _said("seats drawn again before each deal (its sessions keep the seats)"),
    "widow sets": None,  # WIDOW_SETS: both rules played
    "short stack": None,  # SHORT_STACKS: both rules played
    "claims": _claims_refused,
    "going out without ending the deal": _in_phase(
        lambda f: "going out without ending the deal"),
    "lead by a phase winner": _in_phase(lambda f: "lead by a phase winner"),
    "first lead after a run": _in_phase(lambda f: f"first lead by the {f.detail}"),
    "lead fallback without a rule": _in_phase(lambda f: "a lead fallback without a rule"),
    "passes without an all-pass rule": _in_phase(lambda f: "passes without an all-pass rule"),
    "penalty other than cannot lead": _in_phase(lambda f: "penalty other than 'cannot lead'"),
}
"""What the compiled engine says of each feature (:mod:`boodle.language.features`), in the
order it says them: ``None``, it runs it."""


def unsupported_features(ruleset: Ruleset) -> list[str]:
    """Every feature of ``ruleset`` the compiled engine does not run (empty: it runs it).

    The compiled engine plays one stops phase (spec §6-§7) with antes,
    widows, removed cards, every lead rule, passes and all-pass exits, stop
    bonuses, cannot-lead penalties, boodle and set claims on play (fixed, same
    suit, or of trumps turned up from the widow, with the dealer taking the
    turn-up's boodle) or none (``claims: none``), every going-out clause, and holding and
    poker phases before the stops phase, with or without a betting round (spec §8.1-§8.3),
    short stacks paid section by section (spec §4), a widow that blocks sets (spec §5.2),
    elimination at zero balance (spec §9, §10: payments cut to the balance, the seats
    out dealt no card), and the widow sale or auction (spec §5.4, :mod:`.widow`: barred to
    boodle holders, paid to the dealer, the dealer's swap first) but for what
    :data:`SALE_REFUSED` names.  It does not run a holding or poker phase after the stops
    phase, a going out barred by what such a phase took, drawn boodles, chosen-boodle
    antes, claims on holding, lead-not-lowest penalties, or a going out that does not end
    the deal;
    a caller falls back to the
    reference engine for those.  What it says of each is :data:`SUPPORT`'s row.
    """
    return refused(SUPPORT, ruleset)


def supports(ruleset: Ruleset) -> bool:
    """Whether the compiled engine runs ``ruleset`` (see :func:`unsupported_features`)."""
    return not unsupported_features(ruleset)


# ---------------------------------------------------------------- the tables


Claims = tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]


@dataclass(frozen=True)
class ClaimTables:
    """Which sections a card claims (spec §6.6), for one trump suit (or none).

    ``claims[c]`` = ((section, other cards the same seat must have played),
    …) in board order, split for speed into ``boodle_claim[c]`` (the one
    section card ``c`` claims alone, or -1) and ``set_claims[c]`` (every
    other card's claims, in board order; ``has_sets``: whether any card has
    one).  ``boodle_of[c]``: the boodle sections card ``c`` pays alone;
    ``boodle_mask``: the cards that pay one.
    """

    claims: Claims
    boodle_claim: tuple[int, ...]
    set_claims: Claims
    has_sets: bool
    boodle_of: tuple[tuple[int, ...], ...]
    boodle_mask: int

    @classmethod
    def of(cls, claims: Claims, boodle_of: tuple[tuple[int, ...], ...]) -> ClaimTables:
        """Split ``claims`` for the deal loop."""
        simple = [len(cl) == 1 and not cl[0][1] for cl in claims]
        return cls(
            claims=claims,
            boodle_claim=tuple(cl[0][0] if one else -1 for cl, one in zip(claims, simple,
                                                                          strict=True)),
            set_claims=tuple(() if one else cl for cl, one in zip(claims, simple, strict=True)),
            has_sets=any(cl and not one for cl, one in zip(claims, simple, strict=True)),
            boodle_of=boodle_of,
            boodle_mask=sum(1 << i for i, b in enumerate(boodle_of) if b),
        )


OPENERS: dict[Opener, Callable[[int, int], int]] = {
    "dealer": lambda dealer, players: dealer,
    "left of dealer": lambda dealer, players: (dealer + 1) % players,
}
"""Who opens a betting round (spec §8.3), from the dealer and the player count (every seat is
still in: a deal with seats out is played on the seats still in, renumbered); one row per
member of :data:`Opener`."""


@dataclass(frozen=True)
class CompiledPoker:
    """A poker phase before the stops phase (spec §8.2, §8.3), compiled.

    ``name``: the phase's name; ``pot``: the index of the section its showdown pays (board
    order), ``pot_name`` its name; ``best_of`` (cards, 1-5), ``ace_low`` (A-2-3-4-5 is a
    straight), ``split`` (ties, :data:`~boodle.language.model.Split`); ``betting``: the phase
    has a betting round; ``sizes``: the reference engine's row of its bet limit
    (:data:`boodle.engine.stages.poker.BET_SIZES`), called with ``phase``; ``raises``: the
    raise cap (-1: none); ``opener``: who opens (:data:`OPENERS`' row); ``blinds``: chips, the
    opener's first.
    """

    name: str
    pot: int
    pot_name: str
    best_of: int
    ace_low: bool
    split: Split
    betting: bool
    sizes: BetSizes
    phase: PokerPhase
    raises: int
    opener: Callable[[int, int], int]
    blinds: tuple[int, ...]


@dataclass(frozen=True)
class CompiledHolding:
    """A holding phase before the stops phase (spec §8.1), compiled.

    ``name``: the phase's name; ``sections``: the indices of the sections it pays, in the
    order it lists them; ``split`` (ties, :data:`~boodle.language.model.Split`); ``masks``:
    per claim table (:attr:`CompiledRules.claim_tables`' order: one, or one per trump suit)
    and per section of the board, the card masks a hand may hold to qualify (any one of
    them: a boodle's card, a set's cards, or a ``same suit`` set's ranks in each suit).
    """

    name: str
    sections: tuple[int, ...]
    split: Split
    masks: tuple[tuple[tuple[int, ...], ...], ...]


def _holding(phase: HoldingPhase, ruleset: Ruleset, index: dict[Card, int],
             trumps: tuple[str | None, ...]) -> CompiledHolding:
    names = tuple(s.name for s in ruleset.board)
    return CompiledHolding(
        name=phase.name, sections=tuple(names.index(n) for n in phase.sections),
        split=phase.split,
        masks=tuple(tuple(_holding_masks(s, ruleset, index, trump) for s in ruleset.board)
                    for trump in trumps))


def _holding_masks(s: Section, ruleset: Ruleset, index: dict[Card, int],
                   trump: str | None) -> tuple[int, ...]:
    """The card masks that qualify a hand for ``s`` (spec §8.1, as
    :func:`boodle.engine.holders.qualifies`): none for a kitty, a pot or a card out of the
    deck."""
    if not SECTION_KINDS[s.kind].claimed:
        return ()
    cards = paying_cards(s, trump)
    groups = [tuple(Card(r, suit) for r in s.ranks) for suit in ruleset.deck.suits] \
        if cards is None else ([cards] if cards else [])
    return tuple(sum(1 << index[c] for c in g) for g in groups if all(c in index for c in g))


def _poker(phase: PokerPhase, names: tuple[str, ...]) -> CompiledPoker:
    return CompiledPoker(
        name=phase.name, pot=names.index(phase.pot), pot_name=phase.pot,
        best_of=phase.best_of, ace_low=phase.ace_low_straight, split=phase.split,
        betting=phase.betting, sizes=BET_SIZES[phase.bets], phase=phase,
        raises=-1 if phase.raises is None else phase.raises, opener=OPENERS[phase.opener],
        blinds=phase.blinds)


@dataclass(frozen=True)
class CompiledLead:
    """A lead rule, compiled (spec §6.1, §6.4).

    ``who``: ``left of dealer``, ``dealer``, ``holder``, ``last player`` or
    ``next player``.  ``options``: the cards it allows.  For ``holder``:
    ``candidates`` are (card, options) in the order tried (spec §6.1: the named
    card, then higher cards of its suit; or every card of a suit, low to high),
    and ``none_held`` the options of the dealer's left when no player holds
    any candidate (lowest card).  ``per_suit``: for a rule that allows the
    lowest card of each allowed suit, its table of allowed suit masks (the
    deal loop computes those options inline), else ``None``.
    """

    who: str
    options: OptionsFn
    candidates: tuple[tuple[int, OptionsFn], ...] = ()
    none_held: OptionsFn | None = None
    per_suit: Allowed | None = None


@dataclass(frozen=True)
class CompiledRules:
    """A ruleset as plain data; build it with :func:`compile_ruleset`.

    Cards (indices in deck order): ``cards``, ``suit_of``, ``ranks`` (rank
    index in the deck's order), ``bit`` (1 << i),
    ``suit_masks`` (one bitmask per suit), ``nxt`` (the next card's index, or
    -1 when none follows: top rank or a removed card), ``stop_reason_none``
    (for ``nxt`` -1: ``top rank`` or ``not in deck``).  Board (sections in
    board order): ``section_names``; ``claim_tables`` (:class:`ClaimTables`):
    one, or with ``trumps`` one per trump suit (suit index), the trump suit
    being the suit of the widow's last-dealt card (spec §5.2);
    ``turn_up_takes``: the dealer takes the boodle the turned card pays.
    Going out (spec §7):
    ``out_takes`` (sections, the kitty appended under ``to kitty``),
    ``out_per_card``, ``out_to_kitty`` (the section paid into first, the kitty or one named
    ``into``, or -1), ``out_excused``
    (bitmask).  Passes (spec §6.5): ``pass_dues`` = ((amount, section or -1
    for each opponent, charged only to a player with that much), …),
    ``all_pass`` ``end``/``flip`` (:data:`ALL_PASSES`); ``all_pass_charge``: (chips per
    card, section) each player pays when a round of passes ends the deal ((0, -1): none).  Stop
    bonus (spec §6.7): ``bonus`` (amount, section or -1), or ``None``.  Poker phases played
    before the stops phase (spec §8.2, §8.3): ``pokers`` (:class:`CompiledPoker`, in order),
    ``poker_value`` (each card's poker value, 2 … 14, ace 14); ``before``: every phase played
    before the stops phase, poker and holding (:class:`CompiledHolding`, spec §8.1), in order.
    ``sale_at``: the widow sale (spec §5.4) comes before ``before[sale_at]`` (its length:
    before the stops phase; -1: no sale).  ``capped``: ``balance: eliminated at zero`` (spec
    §9, §10): a seat pays at most its balance, and a seat at zero or below before the deal
    is out of it.  ``by_section``: ``short stack: section by section`` (spec §4,
    :data:`SHORT_STACKS`).  ``set_masks``: under ``widow: blocks sets`` (spec §5.2,
    :data:`WIDOW_SETS`), per claim table and per section of the board, the card masks that
    complete a set section (empty for other sections); a section is blocked while the widow
    holds one of them whole; ``()`` under ``qualifies nobody``.  ``barring``: under a widow
    sale's ``barred: holding a boodle card`` (spec §5.4), the cards that pay a boodle section
    by themselves (a hand holding one may not buy, bid or swap); else 0.
    """

    ruleset: Ruleset
    cards: tuple[Card, ...]
    index: dict[Card, int]
    suit_of: tuple[int, ...]
    ranks: tuple[int, ...]
    bit: tuple[int, ...]
    suit_masks: tuple[int, ...]
    all_mask: int
    nxt: tuple[int, ...]
    stop_reason_none: tuple[str, ...]
    section_names: tuple[str, ...]
    kitty: int
    claim_tables: tuple[ClaimTables, ...]
    trumps: bool
    turn_up_takes: bool
    first_lead: CompiledLead
    restart: CompiledLead
    fallback: OptionsFn | None
    pass_dues: tuple[tuple[int, int, bool], ...]
    all_pass: str
    all_pass_charge: tuple[int, int]
    bonus: tuple[int, int] | None
    out_takes: tuple[int, ...]
    out_per_card: int
    out_to_kitty: int
    out_excused: int
    pokers: tuple[CompiledPoker, ...] = ()
    poker_value: tuple[int, ...] = ()
    before: tuple[CompiledPoker | CompiledHolding, ...] = ()
    capped: bool = False
    sale_at: int = -1
    by_section: bool = False
    barring: int = 0
    set_masks: tuple[tuple[tuple[int, ...], ...], ...] = ()
    _antes: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = field(
        default_factory=dict, compare=False, repr=False)
    _receivers: dict[tuple[int, int], tuple[int, ...]] = field(
        default_factory=dict, compare=False, repr=False)

    @property
    def n_cards(self) -> int:
        """Cards in the deck."""
        return len(self.cards)

    def antes(self, players: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(chips each seat pays, chips each section receives) for one deal's ante (spec §4)."""
        key = (players, dealer)
        if key not in self._antes:
            self._antes[key] = _antes(self.ruleset, self.section_names, players, dealer)
        return self._antes[key]

    def ante_payments(self, players: int, dealer: int) -> tuple[tuple[int, int, int], ...]:
        """The ante's payments (spec §4) in the reference engine's order, line by line, each
        payer clockwise from the dealer's left (dealer last), each target in turn: (seat,
        section index, chips); what :meth:`antes` adds up, paid one by one when each is cut
        to the payer's balance (``capped``, spec §9)."""
        return _ante_payments(self.ruleset, self.section_names, players, dealer)

    def turn_position(self, players: int, dealer: int) -> int:
        """The position in the dealing order of the widow's last card (the turn-up), or -1."""
        receivers = self.receivers(players, dealer)
        return max((i for i, w in enumerate(receivers) if w == WIDOW), default=-1)

    def receivers(self, players: int, dealer: int) -> tuple[int, ...]:
        """Who receives the i-th card dealt: a seat, or ``WIDOW`` (spec §5.2)."""
        key = (players, dealer)
        if key not in self._receivers:
            seats = [(dealer + 1 + i) % players for i in range(players)]
            order = WIDOW_RECEIVERS[self.ruleset.deal.widow_position](seats)
            self._receivers[key] = tuple(order[i % len(order)] for i in range(self.n_cards))
        return self._receivers[key]


def _lead_instead(t: _LeadCompiler, fb: Fallback) -> OptionsFn | None:
    return None if fb.rule is None else t.options(fb.rule)  # no rule: refused, SUPPORT


def _pass_instead(t: _LeadCompiler, fb: Fallback) -> OptionsFn | None:
    return None


FALLBACKS: dict[FallbackKind, Callable[[_LeadCompiler, Fallback], OptionsFn | None]] = {
    "lead": _lead_instead,
    "pass": _pass_instead,
}
"""The deal loop's ``if none`` rule (spec §6.5), one row per member of :data:`FallbackKind`:
the options of the lead rule to lead by instead, or ``None``: the seat passes."""

LEADS_INSTEAD: dict[FallbackKind, bool] = {"lead": True, "pass": False}
"""Whether the ``if none`` rule leads by another lead rule (spec §6.5), as the kernel's
fallback spec, one row per member of :data:`FallbackKind`."""


def compile_ruleset(ruleset: Ruleset, *, strict: bool = True) -> CompiledRules:
    """Compile ``ruleset``; raises :class:`BoodleError` if it needs an unsupported feature.

    With ``strict=False`` the check is skipped: the card and board tables are
    right for any ruleset with a stops phase (players' views of a reference
    deal use them), but :func:`~.deal.play_deal` must not be run on them.
    """
    gaps = unsupported_features(ruleset)
    if gaps and strict:
        raise BoodleError(f"the compiled engine does not run {ruleset.name}: " + "; ".join(gaps))
    phase = next(p for p in ruleset.phases if isinstance(p, StopsPhase))
    cards = ruleset.deck.cards()
    index = {c: i for i, c in enumerate(cards)}
    suits = ruleset.deck.suits
    suit_of = tuple(suits.index(c.suit) for c in cards)
    suit_masks = tuple(sum(1 << i for i, c in enumerate(cards) if c.suit == s) for s in suits)
    nxt, why = _successors(ruleset, cards, index)
    names = tuple(s.name for s in ruleset.board)
    kitty = next((k for k, s in enumerate(ruleset.board) if SECTION_KINDS[s.kind].kitty), -1)
    trumps = TRUMPS_TURNED[ruleset.deal.trumps]
    tables = tuple(ClaimTables.of(*_claims(ruleset, cards, index, trump))
                   for trump in (ruleset.deck.suits if trumps else (None,)))
    t = _LeadCompiler(ruleset, cards, index, suit_of, suit_masks)
    out = phase.going_out
    takes = [names.index(n) for n in out.takes]
    into, taken = PAID_TO[out.to](out, names, kitty)
    if taken and into >= 0 and into not in takes:
        takes.append(into)
    fb = phase.fallback
    dues = [(fb.amount, names.index(fb.to), fb.if_able)] \
        if fb.amount > 0 and fb.to in names else []
    dues += [(p.amount, -1 if p.to == "each opponent" else names.index(p.to), False)
             for p in phase.penalties if PASS_DUES[p.fault]]
    bonus = phase.stop_bonus
    trump_suits: tuple[str | None, ...] = ruleset.deck.suits if trumps else (None,)
    before = tuple(_poker(p, names) if isinstance(p, PokerPhase)
                   else _holding(p, ruleset, index, trump_suits)
                   for p in ruleset.phases[:ruleset.phases.index(phase)]
                   if isinstance(p, PokerPhase | HoldingPhase))
    return CompiledRules(
        ruleset=ruleset, cards=cards, index=index, suit_of=suit_of,
        ranks=tuple(ruleset.deck.rank_index(c) for c in cards),
        bit=tuple(1 << i for i in range(len(cards))), suit_masks=suit_masks,
        all_mask=(1 << len(cards)) - 1, nxt=nxt, stop_reason_none=why,
        section_names=names, kitty=kitty, claim_tables=tables, trumps=trumps,
        turn_up_takes=trumps and DEALER_TAKES[ruleset.deal.turn_up],
        first_lead=t.lead(phase.first_lead), restart=t.lead(phase.restart),
        fallback=FALLBACKS[fb.kind](t, fb),
        pass_dues=tuple(dues),
        all_pass=ALL_PASSES[phase.all_pass],
        all_pass_charge=(phase.all_pass_charge, names.index(phase.all_pass_to))
        if phase.all_pass_to is not None else (0, -1),
        bonus=None if bonus is None else (
            bonus.amount, -1 if bonus.source == "each opponent" else names.index(bonus.source)),
        out_takes=tuple(takes), out_per_card=out.per_card,
        out_to_kitty=into,
        out_excused=sum(1 << index[c] for c in out.excused if c in index),
        pokers=tuple(b for b in before if isinstance(b, CompiledPoker)),
        poker_value=tuple(rank_value(c) for c in cards),
        before=before,
        capped=BALANCE_FACTS[ruleset.session.negative].eliminates,
        sale_at=_sale_at(ruleset, phase),
        by_section=SHORT_STACKS[ruleset.short_stack],
        barring=sum(1 << index[c] for s in ruleset.board if s.kind == "boodle"
                    for c in paying_cards(s) or () if c in index)
        if ruleset.widow_sale is not None and ruleset.widow_sale.barred_by_boodle else 0,
        set_masks=tuple(tuple(_holding_masks(s, ruleset, index, trump) if s.kind == "set"
                              else () for s in ruleset.board) for trump in trump_suits)
        if WIDOW_SETS[ruleset.deal.widow_sets] else (),
    )


def _successors(
    ruleset: Ruleset, cards: tuple[Card, ...], index: dict[Card, int]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The next card of each card (spec §2.2), -1 with the stop reason when none is in play."""
    nxt: list[int] = []
    why: list[str] = []
    for c in cards:
        n = ruleset.deck.next_card(c)
        nxt.append(-1 if n is None or n not in index else index[n])
        why.append("top rank" if n is None else "not in deck")
    return tuple(nxt), tuple(why)


def _claims(
    ruleset: Ruleset, cards: tuple[Card, ...], index: dict[Card, int], trump: str | None
) -> tuple[Claims, tuple[tuple[int, ...], ...]]:
    """Per card, the sections playing it claims (spec §6.6) and the boodles it pays alone.

    ``trump``: the deal's trump suit, which names the cards of ``RANK of
    trumps`` boodles and sets (spec §3); ``None`` without trumps.
    """
    claims: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in cards]
    boodle_of: list[list[int]] = [[] for _ in cards]
    for k, s in enumerate(ruleset.board):
        fixed = CLAIMED_BY[s.suit_rule](s, trump)
        row = SECTION_KINDS[s.kind]
        if row.per_card:
            for c in fixed or ():
                if c in index:
                    claims[index[c]].append((k, ()))
                    boodle_of[index[c]].append(k)
        elif row.whole_set and fixed is not None:
            for c in fixed:
                others = [o for o in fixed if o != c]
                if c in index and all(o in index for o in others):
                    claims[index[c]].append((k, tuple(index[o] for o in others)))
        elif row.whole_set:  # CLAIMED_BY: any one suit
            for i, c in enumerate(cards):
                others = [Card(r, c.suit) for r in s.ranks if r != c.rank]
                if c.rank in s.ranks and all(o in index for o in others):
                    claims[i].append((k, tuple(index[o] for o in others)))
    if not CLAIMS[_stops(ruleset).claims].plays_claim:  # spec §6.6: playing claims nothing
        claims = [[] for _ in cards]  # (the turn-up's boodle, boodle_of, is not a claim)
    return tuple(tuple(c) for c in claims), tuple(tuple(b) for b in boodle_of)


CLAIMED_BY: dict[SuitRule, Callable[[Section, str | None], tuple[Card, ...] | None]] = {
    "fixed": lambda s, trump: s.cards,
    "same suit": lambda s, trump: None,  # its ranks in any one suit
    "trumps": lambda s, trump: tuple(Card(r, trump) for r in s.ranks) if trump else (),
    "drawn": lambda s, trump: (),  # refused (SUPPORT: boodles drawn from a second pack)
}
"""The cards whose play claims a section (spec §3, §6.6), one row per member of
:data:`SuitRule`, for one trump suit (or none); ``None``: its ranks in any one suit."""


def _stops(ruleset: Ruleset) -> StopsPhase:
    return next(p for p in ruleset.phases if isinstance(p, StopsPhase))


def _antes(
    ruleset: Ruleset, names: tuple[str, ...], players: int, dealer: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Spec §4 summed: what each seat pays and each section receives, every line added up."""
    seats = [0] * players
    sections = [0] * len(names)
    for p, k, amount in _ante_payments(ruleset, names, players, dealer):
        seats[p] += amount
        sections[k] += amount
    return tuple(seats), tuple(sections)


def _sale_at(ruleset: Ruleset, stops: StopsPhase) -> int:
    """Where the widow sale comes among the phases played before the stops phase (spec
    §5.4: right after the deal, or before the phase it names); -1: no sale."""
    sale = ruleset.widow_sale
    if sale is None:
        return -1
    if sale.before is None:
        return 0
    names = [p.name for p in ruleset.phases[:ruleset.phases.index(stops)]
             if isinstance(p, PokerPhase | HoldingPhase)]
    return names.index(sale.before) if sale.before in names else len(names)


def _ante_payments(
    ruleset: Ruleset, names: tuple[str, ...], players: int, dealer: int
) -> tuple[tuple[int, int, int], ...]:
    """Spec §4: every ante payment in order, (seat, section index, chips)."""
    out: list[tuple[int, int, int]] = []
    everyone = [(dealer + 1 + i) % players for i in range(players)]
    per_card = {s.name: SECTION_KINDS[s.kind].per_card for s in ruleset.board}
    for line in ruleset.antes:
        payers = PAYERS[line.payer](dealer, everyone)
        targets: list[str] = []
        for t in line.targets:
            if t == "each boodle":
                targets += [n for n in names if per_card[n]]
            elif t == "every section":
                targets += list(names)
            else:
                targets.append(t)
        for p in payers:
            for t in targets:
                out.append((p, names.index(t), line.amount))
    return tuple(out)


@dataclass
class _LeadCompiler:
    """Turns lead rules into option functions over bitmask hands (spec §6.1, §6.4)."""

    ruleset: Ruleset
    cards: tuple[Card, ...]
    index: dict[Card, int]
    suit_of: tuple[int, ...]
    suit_masks: tuple[int, ...]

    def lead(self, rule: LeadRule) -> CompiledLead:
        if not HELD_BY[rule.who]:
            per_suit = (self._allowed(rule) if CHOICES[rule.choice].ranked
                        and SCOPES[rule.scope].lowest == "each suit" else None)
            return CompiledLead(rule.who, self.options(rule), per_suit=per_suit)
        found = holder_candidates(self.ruleset, rule) \
            if rule.holder_suit is not None or rule.card is not None else []
        cands = tuple((self.index[c], self.options(in_force)) for c, in_force in found
                      if c in self.index)
        return CompiledLead("holder", self.options(rule), cands,
                            self.options(LeadRule("left of dealer", "lowest", "all")))

    def options(self, rule: LeadRule) -> OptionsFn:
        """The option function of ``rule``'s choice and scope (:data:`CHOICE_OPTIONS`)."""
        return CHOICE_OPTIONS[rule.choice](self, rule)

    def exact(self, rule: LeadRule) -> OptionsFn:
        """The named card of ``rule`` (``holder of 7♦``), if held (spec §6.1)."""
        return _exact(self.target(rule))

    def target(self, rule: LeadRule) -> int:
        """The index of ``rule``'s named card (-1: none, or not in the deck)."""
        return self.index.get(rule.card, -1) if rule.card is not None else -1

    def any(self, rule: LeadRule) -> OptionsFn:
        """Every card of a suit ``rule``'s scope allows (spec §6.4)."""
        return _any(self._allowed(rule))

    def lowest(self, rule: LeadRule) -> OptionsFn:
        """The lowest card(s) ``rule``'s scope allows, ties broken by its rule (§6.1, §6.4)."""
        allowed = self._allowed(rule)
        lowest = SCOPES[rule.scope].lowest
        if lowest == "longest suits":
            return _longest(allowed)
        if lowest == "each suit":
            return _lowest_per_suit(allowed)
        ranks = tuple(self.ruleset.deck.rank_index(c) for c in self.cards)
        if not TIE_ORDERED[rule.ties]:
            return _lowest_rank(allowed, ranks)
        return _tie_broken(_lowest_rank(allowed, ranks), self.ruleset, rule, self.cards,
                           self.index)

    def _allowed(self, rule: LeadRule) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``allowed[stopped + 1][flipped]``: the masks of the suits the scope allows."""
        suits = self.ruleset.deck.suits
        return tuple(
            tuple(tuple(self.suit_masks[i] for i, s in enumerate(suits)
                        if suit_allowed(rule, s, None if st < 0 else suits[st], flip))
                  for flip in (False, True))
            for st in range(-1, len(suits)))


TIE_ORDERED: dict[TieBreak, bool] = {"chosen": False, "suit order": True, "hand order": True}
"""Whether a tie rule of a ``lowest`` lead breaks a tie by an order of suits (spec §6.1), so
the option function filters the lowest cards through the engine's rows (``_tie_broken``),
one row per member of :data:`~boodle.language.model.TieBreak`; ``chosen``: every tied card."""

HELD_BY: dict[str, bool] = {
    "left of dealer": False,
    "dealer": False,
    "holder": True,
    "last player": False,
    "next player": False,
    "phase winner": False,
}
"""Whether the compiled lead of each ``who`` goes to the holder of a card (spec §6.1), whose
candidates it resolves, one row per member of :data:`~boodle.language.model.Who`."""

BACK_TO_STOPPER: dict[str, bool] = {
    "left of dealer": False,
    "dealer": False,
    "holder": False,
    "last player": True,
    "next player": False,
    "phase winner": False,
}
"""Whether a restart under each ``who`` goes back to the player who stopped the run (spec
§6.4 ``last player``), one row per member of :data:`~boodle.language.model.Who`."""


CHOICE_OPTIONS: dict[Choice, Callable[[_LeadCompiler, LeadRule], OptionsFn]] = {
    "lowest": _LeadCompiler.lowest,
    "any": _LeadCompiler.any,
    "card": _LeadCompiler.exact,
}
"""The compiled engine's option function builder of every lead choice (spec §6.1, §6.4),
one row per member of :data:`~boodle.language.model.Choice`."""



def _exact(target: int) -> OptionsFn:
    def options(hand: int, stopped: int, flipped: bool) -> list[int]:
        return [target] if target >= 0 and hand >> target & 1 else []
    return options


def _any(allowed: Allowed) -> OptionsFn:
    def options(hand: int, stopped: int, flipped: bool) -> list[int]:
        out: list[int] = []
        for m in allowed[stopped + 1][flipped]:
            x = hand & m
            while x:
                low = x & -x
                out.append(low.bit_length() - 1)
                x ^= low
        return out
    return options


def _lowest_per_suit(allowed: Allowed) -> OptionsFn:
    def options(hand: int, stopped: int, flipped: bool) -> list[int]:
        out: list[int] = []
        for m in allowed[stopped + 1][flipped]:
            x = hand & m
            if x:
                out.append((x & -x).bit_length() - 1)
        return out
    return options


def _longest(allowed: Allowed) -> OptionsFn:
    def options(hand: int, stopped: int, flipped: bool) -> list[int]:
        out: list[int] = []
        most = 0
        for m in allowed[stopped + 1][flipped]:
            x = hand & m
            n = x.bit_count()
            if n and n >= most:
                if n > most:
                    most, out = n, []
                out.append((x & -x).bit_length() - 1)
        return out
    return options


def _lowest_rank(allowed: Allowed, ranks: tuple[int, ...]) -> OptionsFn:
    def options(hand: int, stopped: int, flipped: bool) -> list[int]:
        lows = [(x & -x).bit_length() - 1 for m in allowed[stopped + 1][flipped]
                if (x := hand & m)]
        if not lows:
            return lows
        low = min(ranks[c] for c in lows)
        return [c for c in lows if ranks[c] == low]
    return options


def _tie_broken(base: OptionsFn, ruleset: Ruleset, rule: LeadRule, cards: tuple[Card, ...],
                index: dict[Card, int]) -> OptionsFn:
    """``base``'s lowest cards settled by the rule's tie row of the reference engine
    (:data:`boodle.engine.leads.TIES`; spec §6.1)."""
    settle = TIES[rule.ties]

    def options(hand: int, stopped: int, flipped: bool) -> list[int]:
        tied = base(hand, stopped, flipped)
        if len(tied) < 2:
            return tied
        return [index[c] for c in settle(ruleset, rule, tuple(cards[i] for i in tied))]
    return options
