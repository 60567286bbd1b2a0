"""Built-in mutants of the reference: each breaks exactly one kind of rule.

A good suite fails every one of them (``boodle conformance serve --mutant
NAME``).  A mutant either plays a changed ruleset (:meth:`Engine.ruleset`)
or wraps the engine's entry points; the engine's code is never edited.
Each docstring names the spec rule the mutant breaks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import replace

from boodle.conformance.engines import Engine
from boodle.engine.events import Claim, Event, GoOut, Payment, Stop
from boodle.engine.ledger import Ledger, seat, section
from boodle.engine.state import DealState, Move
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import (
    AnteLine,
    Choice,
    Deck,
    Fallback,
    HoldingPhase,
    LeadRule,
    Leftover,
    Payer,
    PokerPhase,
    Rotation,
    Ruleset,
    Scope,
    Split,
    StopsPhase,
    Who,
    WidowPosition,
)

RESTART_SCOPES: dict[Scope, Scope] = {
    "chosen suit": "same suit", "longest suit": "same suit", "other suit": "chosen suit",
    "same suit": "same suit", "opposite colour": "chosen suit",
    "opposite colour card": "same suit", "suit": "same suit", "black": "same suit",
    "red": "same suit", "all": "same suit",
}
"""``restart-same-suit``: the scope a restart leads in instead of its own (spec §6.4): a rule
that bars the stopped suit allows any suit, the others the stopped suit."""

LOOSE_CHOICES: dict[Choice, Choice] = {"lowest": "any", "any": "any", "card": "card"}
"""``lead-not-lowest``: what a lead rule leads instead (spec §6.1): any card where it chose
one, the one card it names left alone."""

FIRST_LEADERS: dict[Who, Who] = {
    "left of dealer": "dealer", "dealer": "left of dealer", "holder": "holder",
    "last player": "last player", "next player": "next player", "phase winner": "phase winner",
}
"""``first-lead-dealer``: who leads first instead (spec §6.1): the dealer and the player on
their left swap; the other rules are left alone."""

RESTARTERS: dict[Who, Who] = {
    "left of dealer": "next player", "dealer": "next player", "holder": "next player",
    "last player": "next player", "next player": "last player", "phase winner": "next player",
}
"""``restart-next-player``: who restarts instead (spec §6.4): the player on the left of the
last player, and the last player under ``next player``."""

WIDOW_POSITIONS: dict[WidowPosition, WidowPosition] = {
    "last": "first", "first": "last", "none": "none"}
"""``widow-misplaced``: where the widow is dealt instead (spec §5.2)."""

PAYERS: dict[Payer, Payer] = {
    "each player": "each other player", "each other player": "each other player",
    "dealer": "dealer", "widow": "widow"}
"""``ante-dealer-exempt``: who pays an ante line instead (spec §4): ``each player`` skips the
dealer."""

ROTATIONS: dict[Rotation, Rotation] = {"left": "right", "right": "left"}
"""``rotation-reversed``: where the deal passes instead (spec §5.1)."""

LEFTOVERS: dict[Leftover, Leftover] = {"split equally": "stays", "stays": "split equally"}
"""``leftover-kept``: what becomes of the board's chips at a session's end instead (§10)."""

SPLITS: dict[Split, Split] = {"share": "share", "first seat": "first seat",
                              "lowest seat": "share"}
"""``ties-not-by-seat``: how a holding or poker phase splits a tie instead (spec §8.1, §8.2)."""


def _phase(ruleset: Ruleset, **changes: object) -> Ruleset:
    """``ruleset`` with its stops phase changed."""
    phases = tuple(replace(p, **changes) if isinstance(p, StopsPhase) else p  # type: ignore[arg-type]
                   for p in ruleset.phases)
    return replace(ruleset, phases=phases)


def _stops(ruleset: Ruleset) -> StopsPhase:
    return next(p for p in ruleset.phases if isinstance(p, StopsPhase))


class RulesetMutant(Engine, ABC):
    """A mutant that plays a changed ruleset; subclasses define :meth:`change` (abstract:
    a subclass without it cannot be built)."""

    def __init__(self) -> None:
        self._cache: dict[int, tuple[Ruleset, Ruleset]] = {}

    @abstractmethod
    def change(self, ruleset: Ruleset) -> Ruleset:
        """The broken ruleset."""

    def ruleset(self, ruleset: Ruleset) -> Ruleset:
        key = id(ruleset)
        hit = self._cache.get(key)
        if hit is None or hit[0] is not ruleset:
            hit = (ruleset, self.change(ruleset))
            self._cache[key] = hit
        return hit[1]


class RestartSameSuit(RulesetMutant):
    """§6.4: restarts in any suit, the stopped one included, while another suit is held."""

    name, rules = "restart-same-suit", "the restarter may lead the stopped suit again"

    def change(self, ruleset: Ruleset) -> Ruleset:
        restart = _stops(ruleset).restart
        return _phase(ruleset, restart=replace(restart, scope=RESTART_SCOPES[restart.scope]))


class LeadNotLowest(RulesetMutant):
    """§6.1 (001 §04): any card of the chosen suit may be led, not only the lowest."""

    name, rules = "lead-not-lowest", "a lead may be any card of an allowed suit"

    def change(self, ruleset: Ruleset) -> Ruleset:
        p = _stops(ruleset)

        def loose(rule: LeadRule) -> LeadRule:
            return replace(rule, choice=LOOSE_CHOICES[rule.choice])

        return _phase(ruleset, first_lead=loose(p.first_lead), restart=loose(p.restart))


class FirstLeadDealer(RulesetMutant):
    """§6.1 WHO: the dealer makes the first lead instead of the player on their left (and the
    reverse); a holder rule is left alone."""

    name, rules = "first-lead-dealer", "the dealer leads first"

    def change(self, ruleset: Ruleset) -> Ruleset:
        p = _stops(ruleset)
        who = FIRST_LEADERS[p.first_lead.who]
        return ruleset if who == p.first_lead.who else _phase(
            ruleset, first_lead=replace(p.first_lead, who=who))


class RestartNextPlayer(RulesetMutant):
    """§6.4 WHO: the player on the left of the last player restarts, not the last player."""

    name, rules = "restart-next-player", "the restart goes to the left of the stopper"

    def change(self, ruleset: Ruleset) -> Ruleset:
        p = _stops(ruleset)
        return _phase(ruleset, restart=replace(p.restart, who=RESTARTERS[p.restart.who]))


class GoingOutKittyOnly(RulesetMutant):
    """§7: going out pays the kitty only; opponents pay nothing for their cards."""

    name, rules = "going-out-kitty-only", "no per-card payment when a player goes out"

    def change(self, ruleset: Ruleset) -> Ruleset:
        out = _stops(ruleset).going_out
        return _phase(ruleset, going_out=replace(out, per_card=0))


class GoingOutTakesBoard(RulesetMutant):
    """§3 carry-over: the winner also takes every unclaimed section instead of leaving it."""

    name, rules = "going-out-takes-board", "unclaimed sections go to the winner"

    def change(self, ruleset: Ruleset) -> Ruleset:
        out = _stops(ruleset).going_out
        return _phase(ruleset, going_out=replace(out, takes=tuple(s.name for s in ruleset.board)))


class WidowMisplaced(RulesetMutant):
    """§5.2: the widow is dealt first in each round where the rule says last (and the reverse)."""

    name, rules = "widow-misplaced", "the widow takes the wrong place in each round of the deal"

    def change(self, ruleset: Ruleset) -> Ruleset:
        position = WIDOW_POSITIONS[ruleset.deal.widow_position]
        return replace(ruleset, deal=replace(ruleset.deal, widow_position=position))


class AnteDealerExempt(RulesetMutant):
    """§4: ``each player`` lines skip the dealer (as if they read ``each other player``)."""

    name, rules = "ante-dealer-exempt", "the dealer pays no 'each player' ante"

    def change(self, ruleset: Ruleset) -> Ruleset:
        def exempt(line: AnteLine) -> AnteLine:
            return replace(line, payer=PAYERS[line.payer])

        return replace(ruleset, antes=tuple(exempt(line) for line in ruleset.antes))


class AceLow(RulesetMutant):
    """§2.2: the first rank of the deck is moved to the top (ace high becomes ace low)."""

    name, rules = "ace-low", "the rank order is rotated: the lowest rank becomes the top"

    def change(self, ruleset: Ruleset) -> Ruleset:
        d = ruleset.deck
        deck = Deck(d.suits, (*d.ranks[1:], d.ranks[0]), d.removed, d.span)
        return replace(ruleset, deck=deck)


class NoPass(RulesetMutant):
    """§6.5: a seat that may lead nothing leads its lowest card of any suit instead of passing."""

    name, rules = "no-pass", "the pass fallback is replaced by a lead in any suit"

    def change(self, ruleset: Ruleset) -> Ruleset:
        p = _stops(ruleset)
        if p.fallback.kind != "pass":
            return ruleset
        lead = Fallback("lead", LeadRule("last player", "lowest", "chosen suit"))
        return _phase(ruleset, fallback=lead, all_pass="none")


class ExcusedPays(RulesetMutant):
    """§7: the holder of an excused card pays for the cards left like everyone else."""

    name, rules = "excused-pays", "nobody is excused from the going-out payments"

    def change(self, ruleset: Ruleset) -> Ruleset:
        out = _stops(ruleset).going_out
        return _phase(ruleset, going_out=replace(out, excused=()))


class NoStopBonus(RulesetMutant):
    """§6.7: stops are never paid."""

    name, rules = "no-stop-bonus", "the stop bonus is never paid"

    def change(self, ruleset: Ruleset) -> Ruleset:
        return _phase(ruleset, stop_bonus=None)


class _WrapDeck(Deck):
    """A deck whose top rank is followed by its lowest rank, in the same suit."""

    def next_card(self, card: Card) -> Card | None:
        i = self.rank_index(card)
        return Card(self.ranks[(i + 1) % len(self.ranks)], card.suit)


class TopRankContinues(RulesetMutant):
    """§6.3 top rank: the ace (the top rank) does not stop; the run goes on with the 2."""

    name, rules = "top-rank-continues", "the top rank does not stop a run"

    def change(self, ruleset: Ruleset) -> Ruleset:
        d = ruleset.deck
        return replace(_phase(ruleset, stop_at_top=False),
                       deck=_WrapDeck(d.suits, d.ranks, d.removed, d.span))


class SkipStop(Engine):
    """§6.3: a run does not stop when the next card is in the widow: it jumps over widow
    cards to the next card a player holds.

    (Jumping over *played* cards instead would be an equivalent mutant: the card
    after a played run is never held, since a held card would have been played
    in that run.)"""

    def __init__(self, name: str, reasons: tuple[str, ...], rules: str) -> None:
        self.name, self.reasons, self.rules = name, reasons, rules

    def apply(self, ruleset: Ruleset, state: DealState, move: Move
              ) -> tuple[DealState, list[Event]]:
        after, events = super().apply(ruleset, state, move)
        stop = events[-1] if events else None
        if not isinstance(stop, Stop) or stop.reason not in self.reasons:
            return after, events
        below, card = stop.card, stop.next_card
        while card is not None:
            place = after.place(card)
            if place is None or place.kind != stop.reason:
                break
            below, card = card, ruleset.deck.next_card(card)
        holder = after.holder(card) if card is not None else None
        if holder is None:
            return after, events
        return replace(after, step="follow", to_move=holder, current=below), events[:-1]


class ClaimsOnHolding(Engine):
    """§6.6: boodle sections are paid to their holders at the deal; playing claims nothing."""

    name, rules = "claims-on-holding", "boodles are paid for holding, not for playing"

    def ruleset(self, ruleset: Ruleset) -> Ruleset:
        board = tuple(replace(s, cards=()) if s.kind == "boodle" else s for s in ruleset.board)
        return replace(ruleset, board=board)

    def start(self, ruleset: Ruleset, players: int, dealer: int, ledger: Ledger,
              deck_order: Sequence[Card] | None = None,
              hands: Sequence[Sequence[Card]] | None = None,
              widow: Sequence[Card] | None = None, *, number: int | None = None
              ) -> tuple[DealState, list[Event]]:
        state, events = super().start(ruleset, players, dealer, ledger, deck_order, hands, widow,
                                      number=number)
        for s in ruleset.board:
            holders = [state.holder(c) for c in s.cards] if s.kind == "boodle" else []
            if holders and holders[0] is not None:
                amount = state.ledger.section(s.name)
                state, t = state.pay(section(s.name), seat(holders[0]), amount, "claim")
                events.append(Claim(holders[0], s.name, t))
        return state, events


class PaymentsFromDealer(Engine):
    """§7: going-out payments are made clockwise from the dealer's left, not the winner's."""

    name, rules = "payments-from-dealer", "opponents pay in seat order from the dealer's left"

    def apply(self, ruleset: Ruleset, state: DealState, move: Move
              ) -> tuple[DealState, list[Event]]:
        after, events = super().apply(ruleset, state, move)
        if not any(isinstance(e, GoOut) for e in events):
            return after, events
        n = state.players
        pays = sorted((e for e in events if isinstance(e, Payment)),
                      key=lambda e: (e.payer - state.dealer - 1) % n)
        it = iter(pays)
        return after, [next(it) if isinstance(e, Payment) else e for e in events]


class RotationReversed(RulesetMutant):
    """§5.1 (001 §03): the deal passes the other way: to the dealer's right under
    ``rotation: left`` (and left under ``right``).  Only a session case sees it."""

    name, rules = "rotation-reversed", "the deal passes to the dealer's right"

    def change(self, ruleset: Ruleset) -> Ruleset:
        rotation = ROTATIONS[ruleset.deal.rotation]
        return replace(ruleset, deal=replace(ruleset.deal, rotation=rotation))


class LeftoverKept(RulesetMutant):
    """§10 (001 §06): the chips left on the board at the session's end are not split
    (``leftover: stays`` instead of ``split equally``, and the other way)."""

    name, rules = "leftover-kept", "the board's leftover is not split at the session's end"

    def change(self, ruleset: Ruleset) -> Ruleset:
        leftover = LEFTOVERS[ruleset.session.leftover]
        return replace(ruleset, session=replace(ruleset.session, leftover=leftover))


class TiesNotBySeat(RulesetMutant):
    """§8.1, §8.2 ``split: lowest seat``: ties are shared instead of paid to the lowest seat."""

    name, rules = "ties-not-by-seat", "a tie under 'split: lowest seat' is shared"

    def change(self, ruleset: Ruleset) -> Ruleset:
        phases = tuple(replace(p, split=SPLITS[p.split])
                       if isinstance(p, HoldingPhase | PokerPhase) else p for p in ruleset.phases)
        return replace(ruleset, phases=phases)


class WidowBlocksNothing(RulesetMutant):
    """§5.2 ``blocks sets``: a set complete in the widow blocks nothing (it qualifies nobody)."""

    name, rules = "widow-blocks-nothing", "a set in the widow does not block its section"

    def change(self, ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, deal=replace(ruleset.deal, widow_sets="qualifies nobody"))


class ShortStackAsBalance(RulesetMutant):
    """§4 ``short stack: section by section``: a short player pays line by line and may take
    every section."""

    name, rules = "short-stack-as-balance", "a short player antes as written and takes anything"

    def change(self, ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, short_stack="as balance")


MUTANTS: dict[str, Engine] = {
    m.name: m
    for m in (
        SkipStop("skip-widow-stop", ("widow",), "a run jumps over widow cards instead of stopping"),
        TopRankContinues(),
        RestartSameSuit(),
        LeadNotLowest(),
        FirstLeadDealer(),
        RestartNextPlayer(),
        GoingOutKittyOnly(),
        GoingOutTakesBoard(),
        ExcusedPays(),
        ClaimsOnHolding(),
        WidowMisplaced(),
        AnteDealerExempt(),
        AceLow(),
        NoPass(),
        NoStopBonus(),
        PaymentsFromDealer(),
        RotationReversed(),
        LeftoverKept(),
        TiesNotBySeat(),
        WidowBlocksNothing(),
        ShortStackAsBalance(),
    )
}
"""Every built-in mutant by name."""


def mutant(name: str) -> Engine:
    """The mutant called ``name``; raises :class:`BoodleError` with the list if unknown."""
    if name not in MUTANTS:
        raise BoodleError(f"no mutant '{name}'", hint="mutants: " + ", ".join(sorted(MUTANTS)))
    return MUTANTS[name]
