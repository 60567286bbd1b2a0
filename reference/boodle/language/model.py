"""The validated ruleset model: what a variant *means*, independent of how it was written.

Data flows one way: text → syntax tree (:mod:`boodle.language.syntax`) → this model
(built and checked by :mod:`boodle.language.build`) → engine, verifier, docs, cases.
Every class is a frozen dataclass; the ``span`` field (where the construct was
written) is excluded from equality, so two rulesets compare by meaning.

Each class names the spec section that fixes its meaning (``spec/rules.md``).
Amounts are in chips; card counts in cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, NamedTuple, TypeVar, cast

from boodle.language.cards import Card, card_of
from boodle.language.errors import Span
from boodle.language.origin import Origin

Chips = int | Fraction
"""A chip amount: whole chips in play, exact fractions where a rule splits (spec §9)."""


def _span() -> Span | None:
    return field(default=None, compare=False, repr=False)


T = TypeVar("T")


def derived(owner: object, key: str, compute: Callable[[], T]) -> T:
    """A value computed once from the immutable model object ``owner`` (a frozen dataclass).

    The engine asks the same questions of a ruleset at every move (its stage
    plan, which cards pay which sections …); the answer is kept in ``owner``'s
    instance dictionary under ``key``, outside the fields, so equality,
    hashing and ``repr`` do not see it.  A changed ruleset is a new object
    (``dataclasses.replace``) and starts with no answers.  ``compute`` must
    depend on ``owner``'s fields only.
    """
    memo = owner.__dict__
    try:
        return cast(T, memo[key])
    except KeyError:
        value = memo[key] = compute()
        return value


@dataclass(frozen=True)
class PlayerRange:
    """Allowed player counts, inclusive (spec §1)."""

    low: int
    high: int

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and self.low <= n <= self.high

    def counts(self) -> range:
        """Every allowed player count."""
        return range(self.low, self.high + 1)


@dataclass(frozen=True)
class Deck:
    """The pack and its rank order, low to high (spec §2).

    ``ranks[-1]`` is the top rank, which stops a run where the phase says
    ``stop at top rank`` (ace high: A; ace low: K).
    """

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    removed: frozenset[Card] = frozenset()
    span: Span | None = _span()

    def cards(self) -> tuple[Card, ...]:
        """Every card in play, suit by suit, low to high; removed cards excluded.

        Computed once per deck (the deck is immutable) and kept in the instance
        dictionary, outside the fields: equality and hashing do not see it.
        """
        return derived(self, "_cards", lambda: tuple(
            card_of(rank, suit)
            for suit in self.suits
            for rank in self.ranks
            if Card(rank, suit) not in self.removed
        ))

    def rank_index(self, card: Card) -> int:
        """Position of the card's rank in the rank order (0 = lowest).

        Raises ``ValueError`` for a rank not in the order.  Read from a table
        of the ranks made once per deck (the first position of a rank).
        """
        positions: dict[str, int] | None = self.__dict__.get("_rank_table")
        if positions is None:  # asked at every lead: the table derived keeps, read at once
            positions = derived(self, "_rank_table", self._rank_positions)
        try:
            return positions[card.rank]
        except KeyError:
            return self.ranks.index(card.rank)  # raises the ValueError

    def _rank_positions(self) -> dict[str, int]:
        positions: dict[str, int] = {}
        for i, rank in enumerate(self.ranks):
            positions.setdefault(rank, i)
        return positions

    def next_card(self, card: Card) -> Card | None:
        """The next higher card of the same suit, or ``None`` above the top rank.

        A removed card is still returned: it is "held by nobody", which stops
        a run like a widow card does (spec §6.3).  Read from a table of every
        card of the deck's suits and ranks (removed ones included) made once
        per deck; another card is worked out from the rank order.
        """
        following: dict[Card, Card | None] | None = self.__dict__.get("_next_table")
        if following is None:  # asked at every move: the table derived keeps, read at once
            following = derived(self, "_next_table", self._following)
        try:
            return following[card]
        except KeyError:
            return self._next_of(card)

    def _next_of(self, card: Card) -> Card | None:
        i = self.rank_index(card)
        return Card(self.ranks[i + 1], card.suit) if i + 1 < len(self.ranks) else None

    def _following(self) -> dict[Card, Card | None]:
        """Every card of the deck's suits and ranks and the card after it, as the very card
        objects of :meth:`cards` where there is one (a state's cards are those, so looking
        them up in a state's index or in this table finds them by identity)."""
        own = {(c.rank, c.suit): c for c in self.cards()}

        def canonical(card: Card) -> Card:
            return own.get((card.rank, card.suit), card)

        following: dict[Card, Card | None] = {}
        for card in (canonical(Card(r, s)) for s in self.suits for r in self.ranks):
            nxt = self._next_of(card)
            following[card] = None if nxt is None else canonical(nxt)
        return following

    @property
    def top_rank(self) -> str:
        """The highest rank in the order."""
        return self.ranks[-1]


ChipMode = Literal["whole", "exact"]
"""How a section's chips are shared among several winners (spec §9): ``whole`` chips, the
remainder left on the section, or ``exact`` fractions of a register."""

SectionKind = Literal["boodle", "set", "kitty", "pot"]
SuitRule = Literal["fixed", "same suit", "trumps", "drawn"]


@dataclass(frozen=True)
class Section:
    """One compartment of the board (spec §3).

    - ``boodle``: paid by one card (``cards`` holds it), or by a rank of the
      trump suit (``ranks`` one rank, ``suit_rule="trumps"``), or by a card
      drawn from a second pack per session (``suit_rule="drawn"``).
    - ``set``: paid by a combination: fixed ``cards`` (A♦ K♦), or ``ranks``
      all of one suit (``same suit``) or of trumps.
    - ``kitty``: the prize of going out (spec §7).
    - ``pot``: the prize of a poker phase.
    """

    name: str
    label: str
    kind: SectionKind
    cards: tuple[Card, ...] = ()
    ranks: tuple[str, ...] = ()
    suit_rule: SuitRule = "fixed"
    span: Span | None = _span()


Payer = Literal["each player", "dealer", "each other player", "widow"]


@dataclass(frozen=True)
class AnteLine:
    """One ante line: ``payer`` puts ``amount`` chips on each of ``targets`` (spec §4).

    Lines add up: ``each player 2 on kitty`` plus ``dealer 2 on kitty`` has the
    dealer put 4.  ``widow`` is the widow's share, paid by the dealer.  With
    ``chosen`` the payer picks one of ``targets`` (a move).
    """

    payer: Payer
    amount: int
    targets: tuple[str, ...]
    chosen: bool = False
    span: Span | None = _span()


Trumps = Literal["none", "last widow card"]
"""The trump suit of a deal (spec §5.2): ``none`` — no trumps; ``last widow card`` — the
widow's last-dealt card is turned up, and its suit is trumps."""


TurnUpRule = Literal["nothing", "dealer takes boodle"]
"""What the card turned up for trumps does (spec §5.2): ``nothing`` — it only shows trumps;
``dealer takes boodle`` — the dealer takes the boodle section it pays."""


MisdealRule = Literal["same dealer, no new ante", "reshuffle and redeal"]
"""A declared misdeal (spec §5.3, 001 §06): ``same dealer, no new ante`` — the same dealer
deals again, the ante standing, at any time before the deal is over; ``reshuffle and
redeal`` — the same, but only while the cards are dealt, before the first move."""


FirstDealer = Literal["high cut", "first dealt"]
"""How a session's first dealer is chosen (spec §5.1): ``high cut`` — each player cuts a card,
the highest rank deals, ties cut again (001 §03); ``first dealt`` — cards are dealt face up
until the first of ``first_dealer_rank``, whose receiver deals (Pope Joan)."""


Discard = Literal["becomes widow", "out of play"]
"""Where the hand of a player who takes the widow goes (spec §5.4): ``becomes widow`` — it
is the new widow (a blocker, spec §6.3); ``out of play`` — out of the deal."""


Rotation = Literal["left", "right"]
"""Where the deal passes after each deal (spec §5.1): ``left`` — to the dealer's left, the
next seat clockwise; ``right`` — to the dealer's right."""


Cut = Literal["not stated", "player right of dealer", "player left of dealer"]
"""Who cuts the shuffled pack before each deal (spec §5.1): ``not stated`` — the rules say
nothing (000 step 3, 001 §03: the player on the dealer's right); ``player right of
dealer``; ``player left of dealer``.  A shuffle makes it immaterial to play: it is stated
for the rules text only (the printer's and the docs' words; no engine reads it)."""


WidowVisibility = Literal["hidden", "exposed"]
"""Whether the widow lies face down or face up after the deal (spec §5.2): ``hidden``;
``exposed`` — every player sees it.  Its cards are never played and claim nothing either
way, so no engine reads it: it is stated for the rules text and the matrix."""


WidowPosition = Literal["last", "first", "none"]
"""Where the widow is dealt (spec §5.2): ``last`` — a card after the dealer's in each round;
``first`` — a card before the dealer's left; ``none`` — no widow."""


WidowSets = Literal["qualifies nobody", "blocks sets"]
"""What a set that lies complete in the widow does to its section (spec §3, §6.6, §8.1):
``qualifies nobody`` — the widow takes part in no claim, so another player may still claim
the set (a ``same suit`` set held in another suit); ``blocks sets`` — the section is blocked:
nobody claims it (by holding, by play or by going out) and its chips carry over
(Alysoun/tripoley's "Dead hand blocks pay cards", ``eightNineTenBlocked``)."""


HighBid = Literal["binds", "may be withdrawn"]
"""What an auction's highest bid is once every other bidder has passed (spec §5.4):
``binds`` — the auction ends and the highest bidder pays it and exchanges at once;
``may be withdrawn`` — the highest bidder has one more move: a pass lets the bid stand (they
pay it and exchange), a withdrawal voids it (nothing is paid, nobody takes the widow from the
auction), as Alysoun/tripoley's blind auction lets its high bidder pass and withdraw the bid
(``BLIND_AUCTION_PASS``: "passes and withdraws N chip bid for blind hand")."""


ShortStack = Literal["as balance", "section by section"]
"""What a player pays who cannot pay their whole ante (spec §4): ``as balance`` — every
payment as written, the ``balance`` line deciding (a register goes negative; physical chips
pay at most what they have, payment by payment, spec §9, §10); ``section by section`` — the
player pays their due on each section in board order, each in full, until the first they
cannot pay, and may take only the sections they anted this deal (Alysoun/tripoley's
``distributePlayerAnte`` and ``playerEligibleForSection``)."""


@dataclass(frozen=True)
class DealSpec:
    """How cards are dealt and the deal passes (spec §5).

    ``widow_position``: ``last`` — the widow is dealt last in each round,
    after the dealer (001); ``first`` — it sits at the dealer's left and is
    dealt first in each round (004); ``none`` — no widow.

    ``first_dealer``: ``high cut`` (001 §03), or ``first dealt`` — cards are
    dealt face up round the table and the first to receive a card of
    ``first_dealer_rank`` deals (Hoyle's Games Modernized, Pope Joan: "the
    first knave"; spec §5.1).  ``cut``: who cuts the shuffled pack before each
    deal, ``not stated`` when the rules say nothing (000 step 3, 001 §03: the
    player on the dealer's right; spec §5.1); a shuffle makes it immaterial to
    play, so it is stated for the rules text only.  ``turn_up``: with ``dealer takes boodle`` the
    dealer takes the boodle section the turned-up trump card pays (spec §5.2).
    ``widow_sets``: whether a set complete in the widow blocks its section for the
    deal (:data:`WidowSets`; spec §5.2).
    """

    first_dealer: FirstDealer = "high cut"
    first_dealer_rank: str = "J"
    rotation: Rotation = "left"
    cut: Cut = "not stated"
    widow_position: WidowPosition = "last"
    widow_visibility: WidowVisibility = "hidden"
    trumps: Trumps = "none"
    turn_up: TurnUpRule = "nothing"
    misdeal: MisdealRule = "same dealer, no new ante"
    widow_sets: WidowSets = "qualifies nobody"
    span: Span | None = _span()


SaleMode = Literal["sale", "auction"]
"""How the widow is sold (spec §5.4): ``sale`` — offered once round the table from the
dealer's left, the first to buy pays the price; ``auction`` — bid for in rounds, the highest
bid takes it."""


@dataclass(frozen=True)
class WidowSale:
    """A sale or auction of the widow before play (spec §5.4).

    ``mode``: ``sale`` — offered in turn from the dealer's left at ``price``;
    ``auction`` — highest bid wins.  ``price_to`` is the section that
    receives the price or bid; ``dealer_swap`` lets the dealer swap for the
    price when nobody buys; ``barred_by_boodle`` bars a player holding a
    boodle card; ``discard`` says what becomes of the exchanged hand.
    ``before``: the phase the sale comes before (``None``: before the first
    phase, right after the deal; spec §5.4).  ``to_dealer``: prices and bids
    go to the dealer, a player (``price to: dealer``; ``price_to`` is then
    ``"dealer"``, which names no section).  ``dealer_first``: the dealer's
    chance to swap comes before the offer, and a dealer who swaps ends the
    sale (``dealer: may swap first``).  ``dealer_may_withhold``: the dealer decides first
    whether the widow is offered at all in this deal; withheld, it stays a blocker and no
    sale takes place (``dealer: may withhold``; 000 step 6 "le donneur peut proposer").
    ``high_bid``: whether the auction's highest bidder may withdraw the bid once every other
    bidder has passed (:data:`HighBid`; ``high bidder: may withdraw``).
    """

    mode: SaleMode
    price: int
    seen: bool
    price_to: str
    dealer_swap: bool
    dealer_may_look: bool
    barred_by_boodle: bool
    discard: Discard
    before: str | None = None
    to_dealer: bool = False
    dealer_first: bool = False
    dealer_may_withhold: bool = False
    high_bid: HighBid = "binds"
    span: Span | None = _span()


Who = Literal["left of dealer", "dealer", "holder", "last player", "next player", "phase winner"]


Choice = Literal["lowest", "any", "card"]
"""What card a lead rule leads (spec §6.1): the ``lowest`` of what its scope allows, ``any``
card of it, or the one ``card`` it names."""


Scope = Literal[
    "chosen suit",
    "longest suit",
    "other suit",
    "same suit",
    "opposite colour",
    "opposite colour card",
    "suit",
    "black",
    "red",
    "all",
]

SUIT_SCOPES: tuple[Scope, ...] = (
    "chosen suit",
    "longest suit",
    "other suit",
    "same suit",
    "opposite colour",
)
"""Scopes where the lowest card *of each* candidate suit may be led."""

TieBreak = Literal["chosen", "suit order", "hand order"]
"""How a ``lowest`` lead settles cards of equal rank (spec §6.1): the leader chooses, the
first in a stated suit order, or the first in the hand's order (deck order)."""


@dataclass(frozen=True)
class LeadRule:
    """Who leads and which cards they may lead (spec §6.1, §6.4).

    ``who``: ``left of dealer`` | ``dealer`` | ``holder`` (of ``card``, or
    with ``holder_suit`` of the lowest card in play of that suit) |
    ``last player`` (who played the stopped run's last card) | ``next
    player`` (left of the last player) | ``phase winner`` (of ``phase``).

    ``holder_walk``: with ``holder_suit``, the suits tried next, in order, when no player
    holds a card of it (``holder of lowest ♣ else ♦ else ♠ else ♥``; a choice ``lowest
    SUIT`` of ``holder_suit`` follows the walk to the suit found; dkmccandless/tripoli,
    spec §6.1).

    ``choice``: ``lowest`` | ``any`` | ``card`` (exactly ``card``).  With
    ``lowest`` and a suit scope (:data:`SUIT_SCOPES`) the lowest held card of
    each candidate suit is legal; with ``suit``/``black``/``red``/``all``/``opposite
    colour card`` the lowest held card(s) of that set are legal, cards of equal rank
    settled by ``ties`` (spec §6.1): ``chosen`` — the player chooses; ``suit order`` —
    the first in ``tie_suits``; ``hand order`` — the first in the hand as it is kept, in
    deck order (the deck's ``suits`` line).
    """

    who: Who
    choice: Choice
    scope: Scope = "chosen suit"
    suit: str | None = None
    card: Card | None = None
    phase: str | None = None
    holder_suit: str | None = None
    holder_walk: tuple[str, ...] = ()
    ties: TieBreak = "chosen"
    tie_suits: tuple[str, ...] = ()
    span: Span | None = _span()


FallbackKind = Literal["lead", "pass"]
"""What the restarter does holding no card the restart rule allows (spec §6.5): ``lead`` by
the fallback's own lead rule, or ``pass`` the lead to the left."""


@dataclass(frozen=True)
class Fallback:
    """What the restarter does holding no card the restart rule allows (spec §6.5).

    ``kind``: ``lead`` — lead by ``rule`` instead (001: lowest of the
    stopped suit); ``pass`` — the lead passes left, after paying ``amount``
    chips to section ``to`` when ``amount`` > 0.  ``if_able``: the fee is
    charged only to a player who has at least ``amount`` chips; one with fewer
    passes and pays nothing (``pay N to SECTION if able, pass left``;
    Alysoun/tripoley's pass penalty, spec §6.5).
    """

    kind: FallbackKind
    rule: LeadRule | None = None
    amount: int = 0
    to: str | None = None
    if_able: bool = False
    span: Span | None = _span()


class UnlessTaken(NamedTuple):
    """``takes SECTION unless taken in PHASE`` (spec §7): the winner takes ``section`` only if
    the earlier phase ``phase`` did not pay it this deal.  A named pair (it unpacks as
    ``section, phase``), not a bare tuple whose order a reader must know."""

    section: str
    phase: str


PaidTo = Literal["winner", "kitty", "section"]
"""Where going out's payments per card go (spec §7): ``winner`` — to the player who went
out, after the sections are taken; ``kitty`` — into the kitty first, which the winner then
takes; ``section`` — into the section ``into`` first, which nobody takes unless ``takes``
names it."""


@dataclass(frozen=True)
class GoingOut:
    """Going out (spec §7): the first to play their last card.

    ``ends_deal``: the deal ends at once.  ``takes``: sections the winner
    takes.  ``per_card``: chips each opponent pays per card left, ``to``
    the winner or into ``kitty`` first (which the winner then takes), or into
    the section ``into`` first (``to="section"``: ``N per card into SECTION``),
    which nobody takes unless ``takes`` names it.
    ``excused``: a holder of one of these cards pays nothing.
    ``unless_taken``: :class:`UnlessTaken` pairs: the winner takes that section
    of ``takes`` only if the earlier phase did not pay it this deal (004's
    house rule for the Chien; spec §7).
    """

    ends_deal: bool = True
    takes: tuple[str, ...] = ()
    per_card: int = 1
    to: PaidTo = "winner"
    into: str | None = None
    excused: tuple[Card, ...] = ()
    unless_taken: tuple[UnlessTaken, ...] = ()
    span: Span | None = _span()


Fault = Literal["cannot lead", "lead not lowest"]
"""What a penalty is charged for (spec §6.8): ``cannot lead`` — each pass under a pass
fallback; ``lead not lowest`` — a lead the rule allows in every way but being the lowest,
which the penalty makes legal."""


@dataclass(frozen=True)
class Penalty:
    """A chip penalty for a fault (spec §6.8)."""

    fault: Fault
    amount: int
    to: str
    forfeit_boodles: bool = False
    span: Span | None = _span()


@dataclass(frozen=True)
class StopBonus:
    """Paid stops (spec §6.7): the player who makes a stop gets ``amount``."""

    amount: int
    source: str
    span: Span | None = _span()


AllPass = Literal["none", "end without winner", "flip colour"]
"""What a round of passes does (spec §6.5): ``none`` — no rule says (the builder refuses it
with a pass fallback; told nothing, the engines flip a colour no rule reads);
``end without winner`` — the deal ends, nobody went out; ``flip colour`` — the colour of
the restart rule flips for the next lead."""


ClaimRule = Literal["on play", "on holding", "none"]
"""How a stops phase pays its boodle and set sections (spec §6.6): ``on play`` — playing a
card takes its boodle and the sets it completes; ``on holding`` — the holders are paid at
the phase start; ``none`` — the phase claims nothing (only going out takes chips)."""


Follow = Literal["owner", "turn"]
"""Who plays the next card of a run (spec §6.2): ``owner`` — whoever holds it, regardless of
seat (001); ``turn`` — the turn goes round and each player plays it if they hold it.  With
one holder per card both give the holder of the next card: the same plays."""


@dataclass(frozen=True)
class StopsPhase:
    """The stops phase: runs up a suit until a stop (spec §6).

    ``follow``: ``owner`` — whoever holds the next card plays it, regardless
    of seat (001); ``turn`` — the turn goes round and each player plays the
    next card if they have it (with one holder per card this gives the same
    plays, spec §6.2).  ``stop_at_top``: a top-rank card stops the run; a run
    always stops when nobody holds the next card.  ``all_pass_charge``, ``all_pass_to``:
    when a round of passes ends the deal, every player pays ``all_pass_charge`` chips per
    card left in hand to section ``all_pass_to``, where they carry over (``all pass: deal
    ends without winner, N per card to SECTION``; dkmccandless/tripoli, spec §6.5; 0 and
    ``None``: no charge).  ``claims`` (spec §6.6): ``on play``
    — playing a card takes its boodle and completed sets; ``on holding`` — the holders
    are paid at the phase start; ``none`` — the phase claims nothing (an earlier
    holding phase has paid the sections, 004; only going out takes chips).
    """

    name: str
    label: str
    first_lead: LeadRule
    restart: LeadRule
    fallback: Fallback
    follow: Follow = "owner"
    stop_at_top: bool = True
    all_pass: AllPass = "none"
    all_pass_charge: int = 0
    all_pass_to: str | None = None
    claims: ClaimRule = "on play"
    going_out: GoingOut = GoingOut()
    stop_bonus: StopBonus | None = None
    penalties: tuple[Penalty, ...] = ()
    span: Span | None = _span()


Split = Literal["share", "first seat", "lowest seat"]
"""How several winners of one section are paid (spec §8.1, §8.2): ``share`` — equal
shares, clockwise from the dealer's left (004 "Égalités"); ``first seat`` — the first
winner clockwise from the dealer's left takes it all; ``lowest seat`` — the winner in the
lowest-numbered seat (seat 0 first, whoever deals) takes it all (Alysoun/tripoley's
``resolvePayCardClaims``, which pays the first qualifying player from seat 0)."""


@dataclass(frozen=True)
class HoldingPhase:
    """Claims by holding (spec §8.1): holders of the sections' cards take them at once.

    ``split``: when several players qualify for one section, ``share``
    divides it equally (``remainder`` stays on the section, or is kept as an
    exact fraction under ``chips exact``); ``first seat`` gives it all to the
    first qualifying player from the dealer's left; ``lowest seat`` to the
    qualifying player in the lowest-numbered seat (:data:`Split`).
    """

    name: str
    label: str
    sections: tuple[str, ...]
    split: Split = "share"
    span: Span | None = _span()


Opener = Literal["dealer", "left of dealer"]
"""Who opens a poker phase's betting round (spec §8.3): the ``dealer`` (Cadaco's Tripoley
sheet, centralconnector.com: "the Dealer starts the betting"), or the player at the dealer's
``left of dealer`` (Alysoun/tripoley: "betting begins left of dealer")."""

BetLimit = Literal["none", "fixed", "up to", "pot limit", "no limit"]
"""The size of a bet or raise in a poker phase's betting round (spec §8.3): ``none`` — no
betting round (a showdown only, spec §8.2); ``fixed`` — every bet and every raise is exactly
``bet`` chips (``bets: N chips``); ``up to`` — any whole amount from 1 to ``bet`` chips
(``bets: up to N chips``); ``pot limit`` — 1 chip up to the pot after the call (the pot
section's whole chips plus what the player owes; ``bets: pot limit``); ``no limit`` — 1 chip
up to all the player's whole chips (``bets: no limit``; Alysoun/tripoley takes any amount).
The last two state no size: their ``bet`` is 0.  A rule kind
(:mod:`boodle.rule_kinds`: the engine's ``poker.BET_SIZES``, the printer's ``BET_LIMIT``)."""


@dataclass(frozen=True)
class PokerPhase:
    """A poker showdown (spec §8.2): best five-card hand from each hand takes ``pot``.

    With a betting round (spec §8.3; ``bets`` not ``none``): before the showdown the players
    bet into ``pot``, from ``opener`` clockwise; every bet and every raise is ``bet`` chips
    (``fixed``) or 1 to ``bet`` chips (``up to``), or 1 chip to the pot after the call (``pot
    limit``) or to the balance (``no limit``); ``raises``: at most so many raises after
    the opening bet (``None``: no cap but the players' balances); ``blinds``: the chips the
    opener and the players after it clockwise put into ``pot`` before anyone acts (the small
    blind, then the big; ``()``: none), which count as chips bet.  Only the players still in
    (who did not fold) show; each side pot goes to the best hand among those who matched it.
    """

    name: str
    label: str
    pot: str
    best_of: int = 5
    ace_low_straight: bool = True
    split: Split = "share"
    bets: BetLimit = "none"
    bet: int = 0
    raises: int | None = None
    opener: Opener = "left of dealer"
    blinds: tuple[int, ...] = ()
    span: Span | None = _span()

    @property
    def betting(self) -> bool:
        """Whether the phase has a betting round before its showdown (spec §8.3)."""
        return self.bets != "none"

    def bet_sizes(self) -> tuple[int, int | None]:
        """The least and the most chips one bet or raise adds (spec §8.3); ``(0, 0)``
        without betting; the most is ``None`` under ``pot limit`` and ``no limit``, where
        it depends on the pot and the balance (the engine's ``poker.BET_SIZES``)."""
        return ((0, 0) if self.bets == "none" else
                (self.bet, self.bet) if self.bets == "fixed" else
                (1, self.bet) if self.bets == "up to" else (1, None))


Phase = StopsPhase | HoldingPhase | PokerPhase


Balance = Literal["allowed", "eliminate"]
"""What a balance at zero does (spec §9, §10; the session's ``balance`` line): ``allowed`` — a
balance may go negative, as in a register, and every player plays every deal; ``eliminate``
— physical chips: a payment is capped at the payer's balance, and a player at zero or less
is out of the next deals (the players still in)."""


Leftover = Literal["split equally", "stays"]
"""The chips left on the board at a session's end (spec §10, 001 §06): ``split equally`` —
in exact equal shares among the players still in; ``stays`` — nobody takes them."""


EndTie = Literal["share", "one more deal"]

SeatingRule = Literal["fixed", "redrawn each deal"]
"""Where the players sit for each deal (spec §10): ``fixed``, their first seats; ``redrawn
each deal``, seats drawn again before every deal but the first."""
"""A tie for best at a session's end (spec §10): ``share`` — the tied players share the win;
``one more deal`` — one extra deal is played (once), then the standings stand."""


EndRule = Literal["rotations", "no chips", "last with chips", "target", "never"]
"""An end rule of a session (spec §10), one ``end`` line each: ``rotations`` — after so many
rotations; ``no chips`` — after a deal that leaves a player with no chips; ``last with
chips`` — after a deal that leaves at most one player with chips; ``target`` — after a deal
at whose end a player has the target or more; ``never`` — the session has no end."""


@dataclass(frozen=True)
class SessionSpec:
    """A session of deals and its end (spec §10).

    The end: ``rotations`` × the players at the start deals (``None``: no such
    limit, when other ``end`` lines are written and this one is not); sooner after a
    deal that leaves a player with no chips (``end_when_broke``), that leaves at most
    one player with chips (``end_last_with_chips``), or at whose end a player has
    ``end_target`` chips or more; ``end_never``: the session has no end (the ledger
    runs on; only a fixed number of deals is played). ``seating``: ``fixed`` keeps every
    player in the seat they start in; ``redrawn each deal`` draws the seats again, at
    random from the session's seed, before every deal (chips stay with the players).
    """

    start_chips: int = 50
    rotations: int | None = 1
    end_when_broke: bool = False
    end_last_with_chips: bool = False
    end_target: int | None = None
    end_never: bool = False
    leftover: Leftover = "split equally"
    ties: EndTie = "share"
    negative: Balance = "allowed"
    seating: SeatingRule = "fixed"
    span: Span | None = _span()

    def ends(self) -> tuple[EndRule, ...]:
        """The end rules the session has (spec §10), in the order of :data:`EndRule`."""
        said: dict[EndRule, bool] = {
            "rotations": self.rotations is not None, "no chips": self.end_when_broke,
            "last with chips": self.end_last_with_chips, "target": self.end_target is not None,
            "never": self.end_never}
        return tuple(end for end, has in said.items() if has)

    def has_end(self) -> bool:
        """Whether the session has an end at all (not ``end: never``)."""
        return not self.end_never

    def bounded(self) -> bool:
        """Whether the rules bound the number of deals (a rotation limit; spec §10)."""
        return self.rotations is not None


@dataclass(frozen=True)
class Ruleset:
    """A whole variant, validated and with every ``extends`` resolved.

    ``base`` is the name of the variant it extends (documentation only: the
    fields already hold the merged result).  ``origin``: where each rule was written and the
    ruleset it extends (:class:`~boodle.language.origin.Origin`), kept by the builder so that
    nothing downstream reads the text again; like ``span``, out of equality, hashing and
    ``repr`` (``None`` for a ruleset not built from text).  ``chips``: ``whole`` chips, or
    ``exact`` fractions where a rule splits (spec §9).  ``short_stack``: what a player who
    cannot pay the whole ante pays, and may take (:data:`ShortStack`, spec §4).
    """

    name: str
    title: str
    about: str
    sources: tuple[str, ...]
    version: int
    base: str | None
    players: PlayerRange
    deck: Deck
    board: tuple[Section, ...]
    antes: tuple[AnteLine, ...]
    deal: DealSpec
    widow_sale: WidowSale | None
    phases: tuple[Phase, ...]
    session: SessionSpec
    chips: ChipMode = "whole"
    carry: Literal["unclaimed"] = "unclaimed"
    short_stack: ShortStack = "as balance"
    span: Span | None = _span()
    origin: Origin | None = field(default=None, compare=False, repr=False)

    def section(self, name: str) -> Section:
        """The section called ``name``; raises ``KeyError`` if none."""
        for section in self.board:
            if section.name == name:
                return section
        raise KeyError(name)

    def kitty(self) -> Section | None:
        """The kitty section, if the board has one."""
        return next((s for s in self.board if s.kind == "kitty"), None)
