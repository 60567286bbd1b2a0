"""The engine that plays, held to the z3 model move by move, inside ``boodle verify`` (issue 16).

The proofs of :mod:`boodle.verify.induction` are about the model; this module checks that
the reference engine (:func:`boodle.engine.legal_moves`, :func:`boodle.engine.apply`, the
functions ``boodle play`` and ``boodle serve`` call) plays that model's game.  In a state of
the stops phase, :class:`Comparer` asks both the same questions:

- **enabled moves**: the actions the model's guards enable must be exactly the engine's
  legal moves;
- **successors**: each legal move's state after the move, computed from the very z3 terms
  the proofs use (:class:`~boodle.verify.concrete.ModelOracle`), must equal the engine's
  state after it: every card's place, the run, the seat to move, passes, the colour flip,
  the winner, every seat's and section's chips, the forfeits;
- **refusals**: every card or pass the model does not enable must be refused by the engine
  (:class:`~boodle.engine.faults.IllegalMove`).

States of other stages (antes, the widow sale or auction, holding and poker phases) have no
model state: they are checked on the engine alone
(:func:`engine_faults`: chips add up to the deal's total, no section below zero, every card
in one place, a legal move while the deal is not over, every listed move accepted).  A
stops-phase state with an eliminated seat (spec §10) is compared like any other: the model's
ghosts say which seats are out (:attr:`~boodle.verify.layout.Ghosts.gone`), and which
sections each seat may take (:attr:`~boodle.verify.layout.Ghosts.eligible`, spec §4), read
from the engine's record of the short seats' antes, which :func:`takers_differ` holds to the
verifier's own statement of them, with every section taken before play.

Two sources of states: every state of the exhaustive search (:mod:`boodle.verify.explicit`
calls :meth:`Comparer.observe`), and :func:`check_random`: random deals of a deck (the full
deck, and small decks chosen to reach the rarer transitions) at a player count, each move
drawn at random, every state compared.  Every transition is classified
(:func:`kinds_of`); :func:`possible_kinds` lists those the ruleset can make, so the report
says which were never exercised.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boodle.engine.api import apply, is_terminal, legal_moves, shuffled_deck, start_deal
from boodle.engine.events import Bet, Event, Showdown, transfers_in
from boodle.engine.faults import IllegalMove
from boodle.engine.ledger import Ledger, LedgerError, SeatAccount
from boodle.engine.state import DealState, LeadMove, Move, PassMove, PlayMove, each_move
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import Chips, HoldingPhase, PokerPhase, Ruleset, StopsPhase
from boodle.verify import own_rules
from boodle.verify.actions import ALL_PASS_TERMS, CLAIM_TERMS, PAID_TO_TERMS
from boodle.verify.cex import Counterexample
from boodle.verify.concrete import ModelOracle, action_name
from boodle.verify.eligibility import SHORT_STACK_TERMS, WIDOW_SET_TERMS
from boodle.verify.explicit import _cards_wrong, state_key
from boodle.verify.lead_terms import FALLBACK_TERMS
from boodle.verify.mutation import NO_MUTATION, Mutation

__all__ = ["KINDS", "Comparer", "RandomResult", "antes_differ", "check_random", "deal_differs",
           "engine_faults", "exchange_differs", "kinds_of", "ledger_differs", "payouts_differ",
           "possible_kinds", "set_in_widow", "takers_differ"]

KINDS: dict[str, str] = {
    "lead": "a first lead (spec §6.1)",
    "restart": "a lead after a stop (§6.4)",
    "follow": "a follow (§6.2)",
    "stop": "a run stops (§6.3)",
    "stop at the widow": "a run stops at a widow card (§6.3)",
    "stop bonus": "a stop bonus paid (§6.7)",
    "claim on play": "a section claimed by playing its card (§6.6)",
    "claim not anted": "a short seat does not take a section it did not ante (§4)",
    "claim blocked by the widow": "nobody takes a set lying complete in the widow (§5.2)",
    "going out": "a player goes out and is paid (§7)",
    "pass": "a pass (§6.5)",
    "colour flip": "every player passed: the colour flips (§6.5)",
    "all-pass end": "every player passed: the deal ends without a winner (§6.5)",
    "penalty": "a fine for a lead or a pass (§6.8)",
    "capped payment": "a seat pays down to zero, capped at its balance (§9)",
    "split remainder": "a section shared with a remainder left on it (§8.1, §9)",
    "eliminated seat": "a deal played with a seat out (§10)",
    "fee with a seat out": "a fee to each opponent paid with a seat out, who gets none (§10)",
}
"""The transition kinds the report accounts for, each with the rule it exercises."""

MODELLED = frozenset(KINDS) - {"split remainder"}
"""The kinds z3 models step by step (a stops-phase move, with any seats out, spec §10); a
split remainder happens in stages the model does not describe and is checked on the engine
alone."""


def _stops(ruleset: Ruleset) -> StopsPhase | None:
    return next((p for p in ruleset.phases if isinstance(p, StopsPhase)), None)


def possible_kinds(ruleset: Ruleset) -> set[str]:
    """The kinds of :data:`KINDS` the rules of ``ruleset`` can make (what the rules say, not
    what a deal reaches): a pass only under ``if none: pass``, a stop bonus only with one …"""
    phase = _stops(ruleset)
    if phase is None:
        return set()
    out = {"lead", "restart", "follow", "stop", "going out"}
    if own_rules.WIDOW_DEALT[ruleset.deal.widow_position]:
        out.add("stop at the widow")
    if phase.stop_bonus is not None:
        out.add("stop bonus")
    plays = CLAIM_TERMS[phase.claims].plays_claim
    if plays and any(own_rules.PER_CARD[s.kind] or own_rules.WHOLE_SET[s.kind]
                     for s in ruleset.board):
        out.add("claim on play")
    if SHORT_STACK_TERMS[ruleset.short_stack].tracked and (
            plays or phase.going_out.takes or PAID_TO_TERMS[phase.going_out.to](
                ruleset, phase.going_out.into)[1]):
        out.add("claim not anted")
    if WIDOW_SET_TERMS[ruleset.deal.widow_sets].blocks and (
            (plays and any(own_rules.WHOLE_SET[s.kind] for s in ruleset.board))
            or any(own_rules.WHOLE_SET[s.kind] for s in ruleset.board
                   if s.name in phase.going_out.takes)):
        out.add("claim blocked by the widow")
    passing = FALLBACK_TERMS[phase.fallback.kind].passes
    if passing:
        out.add("pass")
        event = ALL_PASS_TERMS[phase.all_pass].event
        if event is not None:
            out.add(event)
    if phase.penalties or (passing and phase.fallback.amount > 0):
        out.add("penalty")
    if own_rules.ELIMINATES[ruleset.session.negative]:
        out.add("capped payment")
    if own_rules.seats_may_be_out(ruleset):
        out.add("eliminated seat")
        fees = [p.to for p in phase.penalties]
        if passing and phase.fallback.amount > 0 and phase.fallback.to is not None:
            fees.append(phase.fallback.to)
        if "each opponent" in fees:
            out.add("fee with a seat out")
    shared = CLAIM_TERMS[phase.claims].at_start or any(
        own_rules.SHARED[split] for split in (getattr(p, "split", None) for p in ruleset.phases)
        if split is not None)
    if shared and own_rules.REMAINDER_STAYS[ruleset.chips]:
        out.add("split remainder")
    return out


def kinds_of(before: DealState, after: DealState, events: Iterable[Event]) -> set[str]:
    """The kinds of :data:`KINDS` one transition (``before`` → ``after`` with ``events``;
    the start of a deal has no ``before`` state to speak of: pass the state itself) made."""
    out: set[str] = set()
    claimed: dict[str, int] = {}
    gone_out = False
    for e in events:
        k = e.kind
        if k == "lead":
            out.add("restart" if getattr(e, "restart", False) else "lead")
        elif k == "play":
            out.add("follow")
        elif k == "stop":
            out.add("stop")
            if getattr(e, "reason", None) == "widow":
                out.add("stop at the widow")
        elif k == "stop-bonus":
            out.add("stop bonus")
        elif k == "claim":
            name = getattr(e, "section", "")
            claimed[name] = claimed.get(name, 0) + 1
            if after.stage.startswith("phase:") and not gone_out and before.step in (
                    "lead", "follow") and before is not after:
                out.add("claim on play")
        elif k == "go-out":
            out.add("going out")
            gone_out = True
        elif k == "pass":
            out.add("pass")
        elif k == "flip-colour":
            out.add("colour flip")
        elif k == "deal-end" and getattr(e, "winner", 0) is None:
            out.add("all-pass end")
        elif k == "penalty":
            out.add("penalty")
    if any(c > 1 and after.ledger.section(name) != 0 for name, c in claimed.items()):
        out.add("split remainder")
    if after.capped and any(a == 0 != b for a, b in zip(after.ledger.seats,
                                                        before.ledger.seats, strict=True)):
        out.add("capped payment")
    if after.out:
        out.add("eliminated seat")
        if "penalty" in out and any(isinstance(t.dst, SeatAccount) for e in events
                                    if e.kind == "penalty" for t in transfers_in(e)):
            out.add("fee with a seat out")
    return out


def describe_state(state: DealState) -> str:
    """One line: hands, widow, cards played, whose move and the run, chips."""
    hands = "; ".join(f"seat {s} {' '.join(map(str, h)) or '—'}"
                      for s, h in enumerate(state.hands))
    widow = " ".join(map(str, state.widow())) or "—"
    played = " ".join(f"{s}:{c}" for s, c in state.played()) or "—"
    run = (f"step {state.step}, seat {state.to_move} to move"
           + (f", run at {state.current}" if state.current is not None else "")
           + (f", restart after a stop in {state.stopped}" if state.restart else "")
           + (f", {state.passes} passes" if state.passes else "")
           + (", colour flipped" if state.flipped else ""))
    return (f"[{state.stage}] {hands}; widow {widow}; played {played}; {run}; chips "
            f"{state.ledger}")


Successor = tuple[Move, DealState, list[Event]]
"""A legal move and the engine's state and events after it."""


@dataclass
class Comparer:
    """Compares the engine with the model (``oracle``, built for ``ruleset`` and the player
    count) in states of ``ruleset``; counts what it compared and the kinds it saw.

    ``mutation``: a fault injected in both the model and the engine's results (the
    verifier's own tests); the engine's successors are passed through its ``after_apply``.
    """

    oracle: ModelOracle
    ruleset: Ruleset
    mutation: Mutation = NO_MUTATION
    compared: int = 0
    """States compared with the model."""
    transitions: int = 0
    """Moves whose successor was compared."""
    refusals: int = 0
    """Moves the model does not enable that the engine was asked to refuse."""
    engine_only: dict[str, int] = field(default_factory=dict)
    """States not compared, by why (a stage the model does not have)."""
    seen: set[str] = field(default_factory=set)
    """The kinds of :data:`KINDS` exercised."""
    budget: int | None = None
    """Compare every state up to this many, then only those whose moves make a combination
    of kinds compared fewer than :attr:`per_kind` times (``None``: every state)."""
    per_kind: int = 20
    deals: int = 0
    """Deals whose engine deal was held to the verifier's own (:func:`deal_differs`)."""
    payouts: int = 0
    """Deals whose stages before play had their payouts held to the split rules
    (:func:`payouts_differ`) and their chips to their events (:func:`ledger_differs`)."""
    skipped: int = 0
    """Stops-phase states left uncompared by the budget."""
    signatures: dict[tuple[str, frozenset[str]], int] = field(default_factory=dict)
    """How many compared states had each (step, kinds of its moves)."""

    def observe(self, state: DealState, successors: list[Successor]) -> str | None:
        """Compare ``state`` and its successors (every legal move's, from the engine); the
        disagreement as text, or ``None``.  Records the kinds of the transitions."""
        kinds: set[str] = set()
        for move, new, events in successors:
            kinds |= kinds_of(state, new, events)
            sold = exchange_differs(self.ruleset, state, events)
            if sold is not None:
                return f"after {move} in {describe_state(state)}: {sold}"
        self.seen |= kinds
        if not self._in_stops(state):
            self.engine_only["stages before play"] = \
                self.engine_only.get("stages before play", 0) + 1
            return None
        try:
            values = self.oracle.encode(state)
        except ValueError as e:
            why = str(e)
            self.engine_only[why] = self.engine_only.get(why, 0) + 1
            return None
        signature = (state.step, frozenset(kinds))
        times = self.signatures.get(signature, 0)
        if self.budget is not None and self.compared >= self.budget and times >= self.per_kind:
            self.skipped += 1
            return None
        self.signatures[signature] = times + 1
        self.compared += 1
        return self._compare(state, values, successors)

    def observe_start(self, start: Ledger, events: list[Event],
                      state: DealState) -> str | None:
        """A deal's start (ledger before the antes, the events that started it, the first
        state): when play has begun, the payouts of the stages before it held to the split
        rules (:func:`payouts_differ`) and the chips to the events (:func:`ledger_differs`);
        the disagreement as text, or ``None``."""
        if not (self._in_stops(state) or is_terminal(state)):
            return None  # a sale or chosen antes first: the random deals check what follows
        self.payouts += 1
        why = (antes_differ(self.ruleset, start, events, state.dealer)
               or payouts_differ(self.ruleset, start, events)
               or ledger_differs(start, events, state)
               or takers_differ(self.ruleset, start, events, state))
        return None if why is None else f"{why}, in {describe_state(state)}"

    def _in_stops(self, state: DealState) -> bool:
        name = state.stage.removeprefix("phase:")
        return any(isinstance(p, StopsPhase) and p.name == name for p in self.ruleset.phases)

    def _compare(self, state: DealState, values: list[Any],
                 successors: list[Successor]) -> str | None:
        layout = self.oracle.system.layout
        width = len(self.oracle.system.state.flat())
        model = self.oracle.enabled(values)
        engine = {action_name(layout, m): (m, new) for m, new, _ in successors}
        if set(model) != set(engine):
            only_model = sorted(set(model) - set(engine))
            only_engine = sorted(set(engine) - set(model))
            return (f"enabled moves differ in {describe_state(state)}: the model also enables "
                    f"{only_model or 'nothing'}, the engine also lists {only_engine or 'nothing'}")
        for name, (move, new) in engine.items():
            self.transitions += 1
            try:
                want = self.oracle.encode(new)[:width]
            except ValueError as e:
                return f"after {move} in {describe_state(state)}: no model state ({e})"
            got = model[name]
            if got != want:  # ints, Fractions and bools compare by value (True == 1)
                return (f"after {move} in {describe_state(state)}: "
                        f"{self._differences(got, want)}")
            self.seen |= self.oracle.withheld(values, name)  # the same claims the engine kept
        return self._refusals(state, set(model))

    def _refusals(self, state: DealState, enabled: set[str]) -> str | None:
        """The engine must refuse what the model does not enable: a pass, each card the seat
        to move holds, and one card it does not hold (a card it does not hold is refused by
        one test of the engine, ``lead.not-held``; one stands for all)."""
        who = state.to_move
        if who is None:
            return None
        follow = state.step == "follow"
        probes: list[Move] = [] if "pass" in enabled else [PassMove(who)]
        hand = set(state.hand(who))
        other = next((c for c in self.oracle.system.layout.cards if c not in hand), None)
        for card in [*state.hand(who), *([other] if other is not None else [])]:
            if f"card {card}" not in enabled:
                probes.append(PlayMove(who, card) if follow else LeadMove(who, card))
        for move in probes:
            self.refusals += 1
            try:
                apply(self.ruleset, state, move)
            except IllegalMove:
                continue
            except (BoodleError, LedgerError, ValueError, AssertionError):
                continue  # refused, if not with the rule id of spec §12 (the machine checks ids)
            return f"{move} accepted in {describe_state(state)}, which the model refuses"
        return None

    def _differences(self, got: list[Any], want: list[Any]) -> str:
        names = [str(t) for t in self.oracle.system.state.flat()]
        layout = self.oracle.system.layout
        cards = [str(c) for c in layout.cards]

        def label(k: int, n: str) -> str:
            return f"place of {cards[k]}" if k < len(cards) else n

        return ", ".join(f"{label(k, n)}: model {g} vs engine {w}"
                         for k, (n, g, w) in enumerate(zip(names, got, want, strict=True))
                         if g != w)


def deal_differs(ruleset: Ruleset, players: int, dealer: int, ledger: Ledger,
                 pack: Sequence[Card], events: Iterable[Event]) -> str | None:
    """The engine's deal of ``pack`` (its ``deal`` event, among ``events``) held to the
    verifier's own statement of the deal (:func:`boodle.verify.own_rules.deal`: one card at
    a time in the order of spec §5.1, eliminated seats, §10, dealt nothing): the hand or
    widow that differs, as text, or ``None``."""
    dealt = next((e for e in events if e.kind == "deal"), None)
    if dealt is None:
        return None  # not dealt yet (chosen antes come first)
    out = frozenset(s for s in range(players) if own_rules.ELIMINATES[ruleset.session.negative]
                    and ledger.seat(s) <= 0)
    hands, widow = own_rules.deal(ruleset, players, dealer, pack, out)
    got_hands: tuple[tuple[Card, ...], ...] = getattr(dealt, "hands", ())
    got_widow: tuple[Card, ...] = getattr(dealt, "widow", ())

    def show(cards: Iterable[Card]) -> str:
        return " ".join(sorted(map(str, cards))) or "—"

    wrong = [f"seat {s}: the rules deal {show(want)}, the engine {show(got)}"
             for s, (want, got) in enumerate(zip(hands, got_hands, strict=False))
             if sorted(map(str, want)) != sorted(map(str, got))]
    if len(got_hands) != players:
        wrong.append(f"the engine dealt {len(got_hands)} hands to {players} players")
    if sorted(map(str, widow)) != sorted(map(str, got_widow)):
        wrong.append(f"widow: the rules deal {show(widow)}, the engine {show(got_widow)}")
    if not wrong:
        return None
    return (f"the deal differs (dealer seat {dealer}, spec §5.1): " + "; ".join(wrong))


def _account(_: dict[str, Any], account: object) -> str:
    seat = getattr(account, "seat", None)
    return f"seat {seat}" if seat is not None else f"section {getattr(account, 'name', '?')}"


def ledger_differs(start: Ledger, events: Iterable[Event], state: DealState) -> str | None:
    """The chips of ``state`` held to what the events of the deal so far say (every
    transfer they carry applied to ``start``): the engine's record of a deal is its
    events (spec §12), so a chip moved without an event, or an event whose amount was not
    moved, is another game than the one reported.  The first account that differs, or
    ``None``."""
    have: dict[str, Any] = {f"seat {k}": b for k, b in enumerate(start.seats)}
    have.update({f"section {name}": a for name, a in start.sections})
    for e in events:
        for t in transfers_in(e):
            have[_account(have, t.src)] = have.get(_account(have, t.src), 0) - t.amount
            have[_account(have, t.dst)] = have.get(_account(have, t.dst), 0) + t.amount
    now = {f"seat {k}": b for k, b in enumerate(state.ledger.seats)}
    now.update({f"section {name}": a for name, a in state.ledger.sections})
    wrong = [f"{k}: the events say {have.get(k, 0)}, the ledger holds {v}"
             for k, v in now.items() if have.get(k, 0) != v]
    return None if not wrong else "the chips are not what the deal's events moved: " + \
        "; ".join(wrong)


def antes_differ(ruleset: Ruleset, start: Ledger, events: Iterable[Event],
                 dealer: int) -> str | None:
    """The engine's ante payments (the ``ante`` events among ``events``) held to the
    verifier's own statement of the antes (:func:`boodle.verify.own_rules.antes`, spec §4:
    who pays each line, on which sections, capped at the balance under elimination, short
    seats section by section) from ``start`` (the ledger before the antes) when ``dealer``
    deals.  A wrong payer conserves chips, so the chip checks alone pass it.  Rules with a
    ``chosen boodle`` line are left out (a choice is a move; what follows it is checked).
    The first seat that paid otherwise, as text, or ``None``."""
    if any(line.chosen for line in ruleset.antes):
        return None
    out = [k for k, b in enumerate(start.seats)
           if own_rules.ELIMINATES[ruleset.session.negative] and b <= 0]  # spec §10
    want = own_rules.antes(ruleset, dealer, start.seats, out)
    got: dict[tuple[int, str], Chips] = {}
    for e in events:
        if e.kind != "ante":
            continue
        for x in transfers_in(e):
            if isinstance(x.src, SeatAccount) and x.amount:
                key = (x.src.seat, getattr(x.dst, "name", ""))
                got[key] = got.get(key, 0) + x.amount
    for seat in range(len(start.seats)):
        mine = {name: a for (s, name), a in sorted(got.items()) if s == seat}
        rules = {name: a for (s, name), a in sorted(want.items()) if s == seat}
        if mine != rules:
            return (f"seat {seat} ({start.seats[seat]} chips before the ante, dealer seat "
                    f"{dealer}) anted {mine or 'nothing'}; the rules (spec §4) have it ante "
                    f"{rules or 'nothing'}")
    return None


def takers_differ(ruleset: Ruleset, start: Ledger, events: Iterable[Event],
                  state: DealState) -> str | None:
    """Who may take what, before play, held to the verifier's own statement of the rules:
    under ``short stack: section by section`` (spec §4) each short seat's ante payments
    (the ``ante`` events) and the engine's record of the sections it anted
    (``DealState.short``, which the model's eligibility ghosts read) must be those of
    :func:`boodle.verify.own_rules.short_antes` from ``start`` (the ledger before the
    antes), and no section taken before play (a holding phase, a showdown's pot, a turn-up)
    may go to a short seat that did not ante it; under ``widow: blocks sets`` (§5.2) none
    may be a set lying complete in the widow (:func:`boodle.verify.own_rules.blocked_sets`,
    the widow as play finds it: as the holding phases did, after any exchange).  ``events``:
    the deal's events up to ``state``, the first state of play (or the end).  The first
    disagreement, or ``None``."""
    tracked = SHORT_STACK_TERMS[ruleset.short_stack].tracked
    if not tracked and not own_rules.WIDOW_BLOCKS[ruleset.deal.widow_sets]:
        return None
    out = [k for k, b in enumerate(start.seats) if b <= 0]  # spec §10: out, pays nothing
    short = own_rules.short_antes(ruleset, state.dealer, start.seats, out) if tracked else {}
    paid: dict[tuple[int, str], Chips] = {}
    taken: list[tuple[int, str]] = []
    for e in events:
        if e.kind == "ante":
            for x in transfers_in(e):
                if isinstance(x.src, SeatAccount):
                    key = (x.src.seat, getattr(x.dst, "name", ""))
                    paid[key] = paid.get(key, 0) + x.amount
        elif e.kind == "claim":
            taken.append((getattr(e, "seat", -1), getattr(e, "section", "")))
    for seat, want in short.items():
        got = {name: a for (s, name), a in paid.items() if s == seat and a}
        if got != want:
            return (f"seat {seat}, short at the ante ({start.seats[seat]} chips), paid "
                    f"{got or 'nothing'}; the rules (spec §4, section by section in board "
                    f"order) have it pay {want or 'nothing'}")
    record = {seat: set(names) for seat, names in state.short}
    if tracked and record != {seat: set(want) for seat, want in short.items()}:
        return (f"the engine records the short seats' antes as {record}; the rules (spec §4) "
                f"give {({s: set(w) for s, w in short.items()})}")
    shut = own_rules.blocked_sets(ruleset, state.widow(), state.trump)
    for seat, name in taken:
        if seat in short and name not in short[seat]:
            return (f"seat {seat} took section {name} before play, which it did not ante "
                    "(spec §4: a short seat takes only the sections it anted)")
        if name in shut:
            return (f"seat {seat} took section {name} before play, a set lying complete in "
                    f"the widow ({' '.join(map(str, state.widow()))}; spec §5.2 'blocks sets')")
    return None


def payouts_differ(ruleset: Ruleset, start: Ledger, events: Iterable[Event]) -> str | None:
    """The payouts of the holding phases and poker showdowns (spec §8.1, §8.2) among
    ``events`` (those before the stops phase) held to the split rules (§9, stated in
    :func:`boodle.verify.own_rules.share`): each run of claims on one section is one award;
    under ``split: share`` every sharer takes the same share of the section's balance
    before the award, and under ``first seat`` / ``lowest seat`` one seat takes it all.
    After a betting round (§8.3) the pot's claims are one award per side pot
    (:func:`boodle.verify.own_rules.side_pots`), see :func:`_side_pots_differ`.
    Who qualifies is the engine's (the rules' card tests); how much each takes is checked.
    The first award that differs, or ``None``."""
    holding = {s: p.split for p in ruleset.phases if isinstance(p, HoldingPhase)
               for s in p.sections}
    several = {s for s in holding if sum(s in p.sections for p in ruleset.phases
                                         if isinstance(p, HoldingPhase)) > 1}
    poker = {p.pot: p.split for p in ruleset.phases if isinstance(p, PokerPhase)}
    have: dict[str, Any] = {f"seat {k}": b for k, b in enumerate(start.seats)}
    have.update({f"section {name}": a for name, a in start.sections})
    group: list[Any] = []
    kind = ""  # what opened the run of claims: "poker", "turn-up" or "holding"
    round_put: dict[int, Chips] = {}  # the chips bet by seat in this betting round (§8.3)
    bet_in = False  # whether this poker phase has played a betting round yet
    put: dict[int, Chips] = {}  # the last showdown's: the chips bet by seat in its round
    betting = False  # whether a betting round was played before the last showdown
    show: Showdown | None = None  # the last showdown

    def settle() -> str | None:
        if not group:
            return None
        name = group[0].section
        balance = have[f"section {name}"]
        rule = {"poker": poker.get(name), "holding": holding.get(name)}.get(kind)
        if rule is None or (kind == "holding" and name in several):
            return None  # a turn-up takes the whole section: one claim; checked by totals
        if kind == "poker" and betting and show is not None:
            return _side_pots_differ(ruleset, name, balance, group, show, put, rule)
        amounts = [c.amount for c in group]
        seats = [c.seat for c in group]
        if len(set(seats)) != len(seats):
            return f"section {name}: seat paid twice in one award ({seats})"
        if not own_rules.SHARED[rule] or len(group) == 1:
            if len(group) != 1 or amounts[0] != balance:
                return (f"section {name} ({balance} chips, split: {rule}): the rules give "
                        f"it all to one seat, the engine paid {amounts} to seats {seats}")
            return None
        want = own_rules.share(balance, len(group), ruleset.chips)
        if any(a != want for a in amounts):
            return (f"section {name} ({balance} chips) shared by seats {seats}: the rules "
                    f"give each {want} (spec §9, chips {ruleset.chips}), the engine paid "
                    f"{amounts}")
        return None

    def spend(done: Iterable[Event]) -> None:
        for x in done:
            for t in transfers_in(x):
                have[_account(have, t.src)] = have.get(_account(have, t.src), 0) - t.amount
                have[_account(have, t.dst)] = have.get(_account(have, t.dst), 0) + t.amount

    opener = ""  # the kind of the last event that was not a claim
    for e in events:
        if e.kind == "claim":
            if group and getattr(e, "section", None) == group[0].section:
                group.append(e)
                continue
            if group:
                wrong = settle()
                if wrong is not None:
                    return wrong
                spend(group)
                kind = "holding"  # the next section of a holding phase (a pot is one)
            else:
                kind = {"showdown": "poker", "turn-up": "turn-up"}.get(opener, "holding")
            group = [e]
            continue
        if group:
            wrong = settle()
            if wrong is not None:
                return wrong
            spend(group)
            group = []
        spend([e])
        if isinstance(e, Bet):
            bet_in = True
            round_put[e.seat] = round_put.get(e.seat, 0) + (
                0 if e.transfer is None else e.transfer.amount)
        elif isinstance(e, Showdown):  # its claims follow; the next poker phase bets afresh
            show, put, betting = e, round_put, bet_in
            round_put, bet_in = {}, False
        opener = e.kind
    return settle()


def _side_pots_differ(ruleset: Ruleset, name: str, balance: Any, group: Sequence[Any],
                      show: Showdown, put: dict[int, Chips], rule: str) -> str | None:
    """The claims (``group``, in order) on the pot ``name`` after a betting round held to
    spec §8.3's side pots, stated in :func:`boodle.verify.own_rules.side_pots` (not the
    engine's :func:`~boodle.engine.stages.poker.layers`): ``balance`` chips on the pot at
    the showdown, ``put`` each seat's chips bet in the round, ``show`` the showdown (its
    hands: the live seats, clockwise from the dealer's left; none shown when every other
    seat folded, and the one winner takes the whole pot).  Each pot, main pot first, is one
    award among the best hands of the seats it is open to (the engine's hand ranking, from
    the showdown's hands), split by ``rule`` (§8.1, §9): under ``share`` each taker gets
    :func:`~boodle.verify.own_rules.share` of that pot, else one seat takes it all (the
    first best hand clockwise from the dealer's left, or the lowest-numbered).  Under
    ``short stack: section by section`` (§4) who anted the pot is the engine's: a pot's
    takers may be fewer than its best hands; otherwise they are exactly those the split names.  The
    first pot paid otherwise, as a sentence, or ``None``."""
    hands = {s: h.strength for s, h in show.hands}
    if hands:
        pots = own_rules.side_pots(put, list(hands), balance - sum(put.values()))
    else:
        pots = [(balance, tuple(show.winners))]
    exact = not SHORT_STACK_TERMS[ruleset.short_stack].tracked
    k = 0
    for n, (chips, open_to) in enumerate(pots):
        top = max(hands[s] for s in open_to) if hands else None
        best = [s for s in open_to if top is None or hands[s] == top]
        most = len(best) if own_rules.SHARED[rule] else min(1, len(best))
        take: list[Any] = []
        while (k < len(group) and len(take) < most and group[k].seat in best
               and all(c.seat != group[k].seat for c in take)):
            take.append(group[k])
            k += 1
        seats = [c.seat for c in take]
        amounts = [c.amount for c in take]
        where = (f"section {name}, {'main' if n == 0 else f'side pot {n}'} ({chips} chips, "
                 f"open to seats {list(open_to)}, best hands {best}; spec §8.3)")
        due = {"share": best, "first seat": best[:1], "lowest seat": sorted(best)[:1]}.get(
            rule, best[:1])
        if exact and sorted(seats) != sorted(due):
            then = f", then seat {group[k].seat} {group[k].amount} chips" if k < len(group) else ""
            return (f"{where}: the rules pay it to seats {due} (split: {rule}), the engine paid "
                    f"seats {seats}{then}")
        if not take:
            continue
        want = chips if len(take) == 1 else own_rules.share(chips, len(take), ruleset.chips)
        if any(a != want for a in amounts):
            return (f"{where}: the rules give {'it all' if len(take) == 1 else 'each'} "
                    f"{want} (spec §9, chips {ruleset.chips}), the engine paid {amounts} to "
                    f"seats {seats}")
    if k < len(group):
        rest = [(c.seat, c.amount) for c in group[k:]]
        return (f"section {name}: the engine paid (seat, chips) {rest} beyond the pots the "
                f"rules make of it ({[(c, list(o)) for c, o in pots]}; spec §8.3, §9)")
    return None


def exchange_differs(ruleset: Ruleset, state: DealState,
                     events: Iterable[Event]) -> str | None:
    """A widow exchange among ``events`` (a move's, from ``state``) held to spec §5.4: the
    seat takes the widow as it lies in ``state`` and gives up its hand, and pays the price
    (``buy``, ``swap``) or the winning bid (``bid``: the highest bid of ``state``'s sale, or
    the move's own bid when that bid ends the auction)
    to the price's section, or to the dealer under ``price to: dealer`` (nothing when that
    is the dealer paying itself).  The first thing that differs, or ``None``."""
    sale = ruleset.widow_sale
    if sale is None:
        return None
    bid = getattr(state.sale, "bid", None)  # the highest bid before the move
    for e in events:
        if e.kind == "widow-bid":  # a bid that ends the auction wins it at once
            bid = getattr(e, "amount", None)
            continue
        if e.kind != "widow-exchange":
            continue
        who, how = getattr(e, "seat", -1), getattr(e, "how", "")
        want = bid if how == "bid" else sale.price
        to = f"seat {state.dealer}" if sale.to_dealer else f"section {sale.price_to}"
        paid = getattr(e, "transfer", None)
        free = want == 0 or (sale.to_dealer and who == state.dealer)
        if paid is None and not free:
            return f"seat {who} took the widow ({how}) and paid nothing, not {want}"
        if paid is not None and (paid.amount != want or _account({}, paid.src) !=
                                 f"seat {who}" or _account({}, paid.dst) != to):
            return (f"seat {who} took the widow ({how}): the rules have it pay {want} to "
                    f"{to}, the engine moved {paid.amount} from {_account({}, paid.src)} to "
                    f"{_account({}, paid.dst)}")
        taken = sorted(map(str, getattr(e, "taken", ())))
        given = sorted(map(str, getattr(e, "discarded", ())))
        widow, hand = sorted(map(str, state.widow())), sorted(map(str, state.hand(who)))
        if taken != widow or given != hand:
            return (f"seat {who} took the widow: the rules give it the widow "
                    f"({' '.join(widow)}) for its hand ({' '.join(hand)}), the engine "
                    f"{' '.join(taken)} for {' '.join(given)}")
    return None


def engine_faults(ruleset: Ruleset, state: DealState, total: Any) -> list[tuple[str, str]]:
    """What the engine alone gets wrong in ``state`` (property, why): chips that do not add up
    to ``total`` or a section below zero (spec §9), a card not in exactly one place or hand
    counts that disagree (§2)."""
    out = []
    ledger = state.ledger
    if ledger.total() != total:
        out.append(("chip conservation", f"seats and sections hold {ledger.total()} chips, "
                    f"not {total}"))
    low = [name for name, amount in ledger.sections if amount < 0]
    if low:
        out.append(("chip conservation", f"section {', '.join(low)} below zero"))
    why = _cards_wrong(ruleset, state)  # the exhaustive search's own check
    if why:
        out.append(("card conservation", why))
    return out


@dataclass
class RandomResult:
    """What :func:`check_random` saw: ``states`` (every stage), ``deals`` per deck, the
    comparer's counts and kinds, the first violation by property, the time."""

    players: int
    decks: list[str] = field(default_factory=list)
    deals: int = 0
    states: int = 0
    violations: dict[str, Counterexample] = field(default_factory=dict)
    seconds: float = 0.0


def check_random(decks: list[tuple[str, Ruleset, Comparer]], players: int, deals: int,
                 seed: int = 16, stop_when: Callable[[], bool] | None = None,
                 start_chips: tuple[int, ...] = (3, 8, 50)) -> RandomResult:
    """Play ``deals`` random deals on each deck (label, ruleset, its comparer), each move drawn
    at random, and compare every state; the engine alone is checked in every state of every
    stage (:func:`engine_faults`, progress, listed moves accepted).

    ``stop_when``: checked after each deal; true ends the run early (every kind seen).
    Each deal starts from a ledger of ``start_chips`` chips a seat (drawn; under ``short
    stack: section by section`` drawn seat by seat, so that a short seat's unanted sections
    hold the others' antes), so that payments capped at a balance are reached; under
    ``balance: eliminated at zero`` one deal in three starts with a seat at zero (an
    eliminated seat, spec §10) when the count allows it (the variant's lowest count still
    in, or 2 under ``end: last player with chips``).
    """
    t0 = time.perf_counter()
    rng = random.Random(seed)
    result = RandomResult(players)
    for label, ruleset, comparer in decks:
        result.decks.append(label)
        names = tuple(s.name for s in ruleset.board)
        for _ in range(deals):
            ledger = Ledger.open(players, names, rng.choice(start_chips))
            if SHORT_STACK_TERMS[ruleset.short_stack].tracked:  # spec §4: some seats short,
                # others not, so that a section one seat did not ante has chips on it
                ledger = Ledger(tuple(rng.choice(start_chips) for _ in range(players)),
                                ledger.sections)
            fewest = 2 if ruleset.session.end_last_with_chips else ruleset.players.low
            if (own_rules.seats_may_be_out(ruleset) and players - 1 >= fewest
                    and rng.random() < 1 / 3):
                seats = list(ledger.seats)
                seats[rng.randrange(players)] = 0
                ledger = Ledger(tuple(seats), ledger.sections)
            _random_deal(ruleset, comparer, players, rng, ledger, label, result)
            result.deals += 1
            if result.violations or (stop_when is not None and stop_when()):
                break
        if result.violations:
            break
    result.seconds = time.perf_counter() - t0
    return result


def set_in_widow(ruleset: Ruleset, players: int, dealer: int, order: Sequence[Card],
                 rng: random.Random) -> tuple[Card, ...]:
    """The pack ``order`` (top card first) rearranged so that the deal (the verifier's own,
    :func:`boodle.verify.own_rules.deal_order`) puts a ``same suit`` set's ranks of one suit
    in the widow and the same ranks of another suit in one seat's hand: a deal in which that
    seat may play the set while the widow blocks it (spec §5.2 ``blocks sets``; a random
    deal of the full deck rarely has one).  The pack unchanged when the board has no such
    set, the deck too few suits or cards of its ranks, or the widow or the hand too few
    cards."""
    sets = [s for s in ruleset.board
            if own_rules.WHOLE_SET[s.kind] and own_rules.ONE_SUIT_SETS[s.suit_rule]]
    suits = list(ruleset.deck.suits)
    if not sets or len(suits) < 2:
        return tuple(order)
    section = rng.choice(sets)
    dead, live = rng.sample(suits, 2)
    seat = rng.randrange(players)
    turns = own_rules.deal_order(ruleset, players, dealer)
    where: dict[int | None, list[int]] = {}
    for k in range(len(order)):
        where.setdefault(turns[k % len(turns)], []).append(k)
    pack = list(order)
    wanted: list[tuple[Card, int | None]] = [(Card(r, dead), None) for r in section.ranks]
    wanted += [(Card(r, live), seat) for r in section.ranks]
    if any(c not in pack for c, _ in wanted) or any(
            len(where.get(hand, [])) < len(section.ranks) for hand in (None, seat)):
        return tuple(pack)
    for k, (card, hand) in enumerate(wanted):
        slot = where[hand][k % len(section.ranks)]
        j = pack.index(card)
        pack[slot], pack[j] = pack[j], pack[slot]
    return tuple(pack)


def _random_deal(ruleset: Ruleset, comparer: Comparer, players: int, rng: random.Random,
                 ledger: Ledger, label: str, result: RandomResult) -> None:
    dealer = rng.randrange(players)
    order = shuffled_deck(ruleset, rng)
    if WIDOW_SET_TERMS[ruleset.deal.widow_sets].blocks and rng.random() < 1 / 2:
        order = set_in_widow(ruleset, players, dealer, order, rng)
    mutation = comparer.mutation
    try:
        state, events = start_deal(mutation.start_ruleset(ruleset), players, dealer, ledger,
                                   order)
    except BoodleError:
        return  # a deal the rules cannot start from this ledger (too few players in)
    total = ledger.total()
    trail: list[Event] = list(events)
    moves: list[str] = []
    deal = {f"seat {s}": [str(c) for c in h] for s, h in enumerate(state.hands)}
    deal["widow"] = [str(c) for c in state.widow()]

    where = label if label == "full deck" else f"{label} deck"

    def report(prop: str, why: str) -> None:
        if prop not in result.violations:
            result.violations[prop] = Counterexample(
                prop, f"{why} (random deal on the {where}, dealer seat {dealer})", label,
                players, deal, list(moves), list(trail), {"state": describe_state(state)})

    comparer.seen |= kinds_of(state, state, events)

    def dealt_wrong(events: list[Event]) -> bool:
        """The deal (in the antes' events, or after chosen antes) held to the rules'."""
        if not any(e.kind == "deal" for e in events):
            return False
        comparer.deals += 1
        differs = deal_differs(ruleset, players, dealer, ledger, order, events)
        if differs is not None:
            report("engine = model", f"{differs} (the pack, top card first: "
                   f"{' '.join(map(str, order))})")
        return differs is not None

    if dealt_wrong(events):
        return
    keys = {state_key(state)}
    paid_checked = False
    while True:
        result.states += 1
        for prop, why in engine_faults(ruleset, state, total):
            report(prop, f"{why} in {describe_state(state)}")
            return
        if not paid_checked and (comparer._in_stops(state) or is_terminal(state)):
            paid_checked = True  # the stages before play are over: their payouts, checked
            comparer.payouts += 1
            paid = (antes_differ(ruleset, ledger, trail, dealer)
                    or payouts_differ(ruleset, ledger, trail)
                    or ledger_differs(ledger, trail, state)
                    or takers_differ(ruleset, ledger, trail, state))
            if paid is not None:
                report("engine = model", f"{paid}, in {describe_state(state)}")
                return
        if is_terminal(state):
            paid = ledger_differs(ledger, trail, state)
            if paid is not None:
                report("engine = model", f"{paid}, at the end of the deal: "
                       f"{describe_state(state)}")
            return
        try:
            legal = legal_moves(ruleset, state)
        except BoodleError as e:
            report("progress", f"no move can be made: {e.message} in {describe_state(state)}")
            return
        if not legal:
            report("progress", f"the deal is not over and no move is legal in "
                   f"{describe_state(state)}")
            return
        successors: list[Successor] = []
        for move in each_move(legal):  # bids: a balance of at most 50 chips here
            try:
                new, more = apply(ruleset, state, move)
            except IllegalMove as e:
                report("well-formedness", f"{move} is listed as legal but refused ({e.rule})")
                return
            except LedgerError as e:
                report("chip conservation", f"{move}: {e}")
                return
            successors.append((move, mutation.after_apply(new, more), more))
        wrong = [(prop, f"after {move}: {why}") for move, new, _ in successors
                 for prop, why in engine_faults(ruleset, new, total)]
        for prop, why in wrong:
            report(prop, f"{why}, in {describe_state(state)}")
        differs = comparer.observe(state, successors)
        if differs is not None:
            report("engine = model", differs)
        if wrong or differs is not None:
            return
        move, state, more = successors[rng.randrange(len(successors))]
        moves.append(str(move))
        trail.extend(more)
        if dealt_wrong(more):
            return
        key = state_key(state)
        if key in keys:
            report("termination", f"after {move} the deal is back in a state it was in "
                   f"before: it can go round for ever, in {describe_state(state)}")
            return
        keys.add(key)
