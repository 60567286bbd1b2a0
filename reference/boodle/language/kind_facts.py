"""What the language says of each member of a rule kind: the facts the builder's checks read.

These are tables keyed by the model's ``Literal`` rule kinds (:mod:`boodle.rule_kinds` checks
that they cover every member), kept apart from :mod:`boodle.language.model` because they are
not constructs a ruleset holds: the docs generator documents every dataclass of the model.
"""

from __future__ import annotations

from dataclasses import dataclass

from boodle.language.model import (
    AllPass,
    Balance,
    BetLimit,
    ClaimRule,
    EndRule,
    FallbackKind,
    Fault,
    HighBid,
    PaidTo,
    Payer,
    Scope,
    ShortStack,
    Split,
    TieBreak,
    TurnUpRule,
    Who,
    WidowSets,
)


@dataclass(frozen=True)
class WhoFacts:
    """What the language says of a ``who`` of a lead rule (spec §6.1): ``after_run``, it
    names a player of the stopped run, so it cannot give the first lead of a phase."""

    after_run: bool


WHO_FACTS: dict[Who, WhoFacts] = {
    "left of dealer": WhoFacts(after_run=False),
    "dealer": WhoFacts(after_run=False),
    "holder": WhoFacts(after_run=False),
    "last player": WhoFacts(after_run=True),
    "next player": WhoFacts(after_run=True),
    "phase winner": WhoFacts(after_run=False),
}
"""The facts of each ``who``, one row per member of :data:`Who`."""



@dataclass(frozen=True)
class ScopeFacts:
    """What the language says of a lead scope, whatever suits a deal holds (spec §6.1, §6.4,
    §6.5): the facts the builder's checks (a first lead, ``flip colour``, ``if none``) and the
    support lists read.  Each back end keeps its own table of what a scope allows
    (:mod:`boodle.rule_kinds` checks that every table has a row for every scope).

    ``per_suit``: ``lowest`` may lead the lowest card *of each* candidate suit (else the
    lowest rank of the whole set).  ``after_stop``: the scope reads the stopped suit, so it
    cannot govern a first lead.  ``colour``: a colour scope, which ``all pass: flip colour``
    inverts.  ``total``: it allows some card to every player who holds one (no ``if none``
    rule is needed).
    """

    per_suit: bool
    after_stop: bool
    colour: bool
    total: bool


SCOPE_FACTS: dict[Scope, ScopeFacts] = {
    "chosen suit": ScopeFacts(per_suit=True, after_stop=False, colour=False, total=True),
    "longest suit": ScopeFacts(per_suit=True, after_stop=False, colour=False, total=True),
    "other suit": ScopeFacts(per_suit=True, after_stop=True, colour=False, total=False),
    "same suit": ScopeFacts(per_suit=True, after_stop=True, colour=False, total=False),
    "opposite colour": ScopeFacts(per_suit=True, after_stop=True, colour=True, total=False),
    "opposite colour card": ScopeFacts(per_suit=False, after_stop=True, colour=True,
                                       total=False),
    "suit": ScopeFacts(per_suit=False, after_stop=False, colour=False, total=False),
    "black": ScopeFacts(per_suit=False, after_stop=False, colour=True, total=False),
    "red": ScopeFacts(per_suit=False, after_stop=False, colour=True, total=False),
    "all": ScopeFacts(per_suit=False, after_stop=False, colour=False, total=True),
}
"""The facts of each lead scope, one row per member of :data:`Scope`."""


@dataclass(frozen=True)
class BetLimitFacts:
    """What the language says of a bet limit (spec §8.3): ``sized``, its ``bets:`` line
    states a size in chips (``bets: N chips``, ``bets: up to N chips``), which must be 1 to
    the chip limit; else the sizes come from the pot and the balance (or there is no
    betting round)."""

    sized: bool


BET_LIMIT_FACTS: dict[BetLimit, BetLimitFacts] = {
    "none": BetLimitFacts(sized=False),
    "fixed": BetLimitFacts(sized=True),
    "up to": BetLimitFacts(sized=True),
    "pot limit": BetLimitFacts(sized=False),
    "no limit": BetLimitFacts(sized=False),
}
"""The facts of each bet limit, one row per member of :data:`BetLimit`."""


@dataclass(frozen=True)
class SplitFacts:
    """What the language says of a split rule (spec §8.1, §8.2, §9): ``divides``, several
    winners each get a share (so ``chips`` decides whole shares or exact fractions), else one
    of them takes the whole section; ``from_dealer``, the winners are read clockwise from
    the dealer's left (else by seat number, seat 0 first, whoever deals)."""

    divides: bool
    from_dealer: bool


SPLIT_FACTS: dict[Split, SplitFacts] = {
    "share": SplitFacts(divides=True, from_dealer=True),
    "first seat": SplitFacts(divides=False, from_dealer=True),
    "lowest seat": SplitFacts(divides=False, from_dealer=False),
}
"""The facts of each split rule, one row per member of :data:`Split`."""


@dataclass(frozen=True)
class WidowSetsFacts:
    """What the language says of a widow rule for sets (spec §5.2): ``needs_widow``, it reads
    the widow, so the deal must have one; ``needs_same_suit_set``, it changes a claim only for
    a ``same suit`` set (a set of named cards, or of trumps, that lies complete in the widow
    is held by nobody anyway), so the board must have one."""

    needs_widow: bool
    needs_same_suit_set: bool


WIDOW_SETS_FACTS: dict[WidowSets, WidowSetsFacts] = {
    "qualifies nobody": WidowSetsFacts(needs_widow=False, needs_same_suit_set=False),
    "blocks sets": WidowSetsFacts(needs_widow=True, needs_same_suit_set=True),
}
"""The facts of each widow rule for sets, one row per member of :data:`WidowSets`."""


@dataclass(frozen=True)
class ShortStackFacts:
    """What the language says of a short-stack rule (spec §4): ``needs_elimination``, it is
    about a player who cannot pay, so balances must not go negative (``balance: eliminated at
    zero``); ``fixed_dues``, it reads every payer's dues before the ante is paid, so no line
    may wait for a payer's choice (``chosen boodle``) or be paid on the widow's behalf."""

    needs_elimination: bool
    fixed_dues: bool


SHORT_STACK_FACTS: dict[ShortStack, ShortStackFacts] = {
    "as balance": ShortStackFacts(needs_elimination=False, fixed_dues=False),
    "section by section": ShortStackFacts(needs_elimination=True, fixed_dues=True),
}
"""The facts of each short-stack rule, one row per member of :data:`ShortStack`."""


@dataclass(frozen=True)
class HighBidFacts:
    """What the language says of an auction's highest bid (spec §5.4): ``needs_auction``, it
    is about the highest bidder, so the widow sale must be an ``offer: auction``;
    ``feature``, the words the widow sale's feature adds to its mode
    (:func:`boodle.language.features.features`), so that an engine or model that leaves the
    sale out says which rule it leaves out."""

    needs_auction: bool
    feature: str


HIGH_BID_FACTS: dict[HighBid, HighBidFacts] = {
    "binds": HighBidFacts(needs_auction=False, feature=""),
    "may be withdrawn": HighBidFacts(needs_auction=True,
                                     feature=" (the high bidder may withdraw)"),
}
"""The facts of each rule of the highest bid, one row per member of :data:`HighBid`."""


@dataclass(frozen=True)
class TieFacts:
    """What the language says of a tie rule of a ``lowest`` lead (spec §6.1): ``chooses``,
    the leader picks among equal ranks (several legal leads); ``needs_suits``, the rule
    lists the suits in order (``ties by suit order ♣ ♦ ♠ ♥``)."""

    chooses: bool
    needs_suits: bool


TIE_FACTS: dict[TieBreak, TieFacts] = {
    "chosen": TieFacts(chooses=True, needs_suits=False),
    "suit order": TieFacts(chooses=False, needs_suits=True),
    "hand order": TieFacts(chooses=False, needs_suits=False),
}
"""The facts of each tie rule, one row per member of :data:`TieBreak`."""


@dataclass(frozen=True)
class AllPassFacts:
    """What the language says of an all-pass rule (spec §6.5): ``exits``, it says what a
    round of passes does, so a pass fallback may use it (without one the deal could go round
    for ever); ``needs_colour``, it flips the colour of the restart rule, so that rule must
    read a colour; ``ends_deal``, a round of passes ends the deal."""

    exits: bool
    needs_colour: bool
    ends_deal: bool


ALL_PASS_FACTS: dict[AllPass, AllPassFacts] = {
    "none": AllPassFacts(exits=False, needs_colour=False, ends_deal=False),
    "end without winner": AllPassFacts(exits=True, needs_colour=False, ends_deal=True),
    "flip colour": AllPassFacts(exits=True, needs_colour=True, ends_deal=False),
}
"""The facts of each all-pass rule, one row per member of :data:`AllPass`."""


@dataclass(frozen=True)
class ClaimFacts:
    """What the language says of a claims rule of a stops phase (spec §6.6): ``on_play``,
    playing a card claims its boodle and the sets it completes; ``at_start``, the holders of
    the boodle and set sections are paid when the phase starts.  With neither, only going
    out takes chips, so every boodle and set section must be paid by something else."""

    on_play: bool
    at_start: bool


CLAIM_FACTS: dict[ClaimRule, ClaimFacts] = {
    "on play": ClaimFacts(on_play=True, at_start=False),
    "on holding": ClaimFacts(on_play=False, at_start=True),
    "none": ClaimFacts(on_play=False, at_start=False),
}
"""The facts of each claims rule, one row per member of :data:`ClaimRule`."""


@dataclass(frozen=True)
class PaidToFacts:
    """What the language says of where going out's payments go (spec §7): ``needs_kitty``,
    they go into the kitty, so the board must have one; ``needs_into``, they go into the
    section the rule names (``N per card into SECTION``); ``to_winner``, the player who went
    out receives them directly."""

    needs_kitty: bool
    needs_into: bool
    to_winner: bool


PAID_TO_FACTS: dict[PaidTo, PaidToFacts] = {
    "winner": PaidToFacts(needs_kitty=False, needs_into=False, to_winner=True),
    "kitty": PaidToFacts(needs_kitty=True, needs_into=False, to_winner=False),
    "section": PaidToFacts(needs_kitty=False, needs_into=True, to_winner=False),
}
"""The facts of each destination of going out's payments, one row per member of
:data:`PaidTo`."""


@dataclass(frozen=True)
class FallbackFacts:
    """What the language says of an ``if none`` rule (spec §6.5): ``passes``, a player may
    pass, so a round of passes needs an all-pass exit; ``leads``, it names a lead rule, which
    must find a card whenever the rule it stands in for finds none."""

    passes: bool
    leads: bool


FALLBACK_FACTS: dict[FallbackKind, FallbackFacts] = {
    "lead": FallbackFacts(passes=False, leads=True),
    "pass": FallbackFacts(passes=True, leads=False),
}
"""The facts of each ``if none`` rule, one row per member of :data:`FallbackKind`."""


@dataclass(frozen=True)
class PayerFacts:
    """What the language says of who pays an ante line (spec §4): ``for_widow``, the line is
    the widow's share, paid on its behalf (by the dealer), so the deal must have a widow, and
    a short player's dues cannot be fixed before the ante."""

    for_widow: bool


PAYER_FACTS: dict[Payer, PayerFacts] = {
    "each player": PayerFacts(for_widow=False),
    "dealer": PayerFacts(for_widow=False),
    "each other player": PayerFacts(for_widow=False),
    "widow": PayerFacts(for_widow=True),
}
"""The facts of each payer of an ante line, one row per member of :data:`Payer`."""


@dataclass(frozen=True)
class EndFacts:
    """What the language says of an end rule of a session (spec §10): ``line``, the key of
    its ``end`` line in the syntax tree; ``replaces_rotations``, written without ``after N
    rotations`` it replaces the default ``after 1 rotation`` (the session runs until its
    target, or on; ``when a player has no chips`` keeps the default, as it always has)."""

    line: str
    replaces_rotations: bool


END_FACTS: dict[EndRule, EndFacts] = {
    "rotations": EndFacts("end_rotations", replaces_rotations=False),
    "no chips": EndFacts("end_broke", replaces_rotations=False),
    "last with chips": EndFacts("end_last", replaces_rotations=True),
    "target": EndFacts("end_target", replaces_rotations=True),
    "never": EndFacts("end_never", replaces_rotations=True),
}
"""The facts of each end rule, one row per member of :data:`EndRule`."""


@dataclass(frozen=True)
class TurnUpFacts:
    """What the language says of a turn-up rule (spec §5.2): ``dealer_takes``, the dealer takes
    the boodle section the turned-up card pays, so the deal must turn a card up, and that
    boodle is paid even under ``claims: none``."""

    dealer_takes: bool


TURN_UP_FACTS: dict[TurnUpRule, TurnUpFacts] = {
    "nothing": TurnUpFacts(dealer_takes=False),
    "dealer takes boodle": TurnUpFacts(dealer_takes=True),
}
"""The facts of each turn-up rule, one row per member of :data:`TurnUpRule`."""


@dataclass(frozen=True)
class BalanceFacts:
    """What the language says of a balance rule (spec §9, §10): ``eliminates``, a player at
    zero or less is out (so the session can run out of players still in, a short stack can
    ante section by section, and a session cannot start at 0 chips)."""

    eliminates: bool


BALANCE_FACTS: dict[Balance, BalanceFacts] = {
    "allowed": BalanceFacts(eliminates=False),
    "eliminate": BalanceFacts(eliminates=True),
}
"""The facts of each balance rule, one row per member of :data:`Balance`: read by the builder,
the features list, the simulator, ``boodle ledger`` and the conformance generator."""


@dataclass(frozen=True)
class FaultFacts:
    """What the language says of a penalty's fault (spec §6.8): ``at_pass``, it is charged at
    a pass (``cannot lead``), not at a lead the rule makes legal (``lead not lowest``)."""

    at_pass: bool


FAULT_FACTS: dict[Fault, FaultFacts] = {
    "cannot lead": FaultFacts(at_pass=True),
    "lead not lowest": FaultFacts(at_pass=False),
}
"""The facts of each penalty fault, one row per member of :data:`Fault`: read by the features
list (a penalty charged other than at a pass)."""
