"""The stops phase (spec §6, §7): runs up a suit, stops, restarts, passes, going out.

A stage of the deal (:data:`STAGE`).  Play is a series of runs: a lead,
then follows by the owner of each next card (001 §04), until a stop (the
top rank, or the next card held by nobody) or a player going out, which
ends the deal (001 §06).  Sources: 001 §03-§07; spec §6.1-§6.8 and §7.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boodle.engine.claims import blocked_sections, claims_of, may_claim, pay_holders, take_all
from boodle.engine.events import (
    CarryOver,
    DealEnd,
    Event,
    FlipColour,
    GoOut,
    Lead,
    Pass,
    Payment,
    Penalty,
    Play,
    Stop,
    StopPaid,
    StopReason,
)
from boodle.engine.faults import IllegalMove, NotSupported
from boodle.engine.holders import SECTION_KINDS
from boodle.engine.leads import (
    FAULTS,
    describe,
    lead_fault,
    lead_options,
    leader,
    penalised_leads,
    penalises_lead_not_lowest,
    rule_now,
)
from boodle.engine.ledger import Account, seat, section
from boodle.engine.stage import Result, Stage
from boodle.engine.state import DealState, LeadMove, Move, PassMove, PlayMove, played_by
from boodle.language.cards import Card
from boodle.language.model import (
    AllPass,
    ClaimRule,
    Follow,
    GoingOut,
    PaidTo,
    Ruleset,
    StopsPhase,
    derived,
)

__all__ = ["ALL_PASSES", "CLAIMS", "FOLLOWERS", "PAID_TO", "RUN_ON", "STAGE", "apply",
           "end_deal", "enter", "legal_moves", "phase_of", "run_on"]

_RUN_MOVES = (LeadMove, PlayMove)
"""The moves that play a card (a tuple: ``isinstance`` with ``A | B`` builds the union
at every call)."""

_STOPS_MOVES = (LeadMove, PlayMove, PassMove)
"""The moves the stops phase takes."""


def phase_of(ruleset: Ruleset, state: DealState) -> StopsPhase:
    """The stops phase the deal is in (``state.stage`` is ``phase:NAME``)."""
    phases: dict[str, StopsPhase] | None = ruleset.__dict__.get("_stops_phases")  # asked at
    if phases is None:  # every move: the table by stage key (derived's), looked up at once
        phases = derived(ruleset, "_stops_phases", lambda: {
            f"phase:{p.name}": p for p in reversed(ruleset.phases)
            if isinstance(p, StopsPhase)})  # the first of a name wins
    phase = phases.get(state.stage)
    if phase is None:
        raise NotSupported(f"stage {state.stage} is not a stops phase of {ruleset.name}")
    return phase


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Start the phase: under ``claims: on holding`` pay the holders (spec §6.6), then the
    first leader is to move (spec §6.1).  Under ``claims: none`` (and ``on holding``) no
    play claims anything: :func:`_after_play` claims only under ``on play``."""
    phase = phase_of(ruleset, state)
    events: list[Event] = []
    state = CLAIMS[phase.claims].at_start(ruleset, state, events)
    # the leader depends on none of the fields reset here (the dealer, the seats, the cards)
    return state.evolve(step="lead", restart=False, current=None, stopped=None,
                        last_player=None, passes=0, flipped=False,
                        to_move=leader(ruleset, state, phase.first_lead, None)), events


def _pay_boodle_and_set_holders(ruleset: Ruleset, state: DealState, events: list[Event]
                                ) -> DealState:
    """Spec §6.6 ``claims: on holding``: the holders of the boodle and set sections are paid
    at the phase start, ties shared."""
    names = tuple(s.name for s in ruleset.board if SECTION_KINDS[s.kind].claimed)
    return pay_holders(ruleset, state, names, "share", events)


def _nothing_at_start(ruleset: Ruleset, state: DealState, events: list[Event]) -> DealState:
    return state


@dataclass(frozen=True)
class Claiming:
    """How a stops phase claims (spec §6.6): ``at_start``, what the phase start pays;
    ``on_play``, whether playing a card claims its boodle and the sets it completes."""

    at_start: Callable[[Ruleset, DealState, list[Event]], DealState]
    on_play: bool


CLAIMS: dict[ClaimRule, Claiming] = {
    "on play": Claiming(_nothing_at_start, on_play=True),
    "on holding": Claiming(_pay_boodle_and_set_holders, on_play=False),
    "none": Claiming(_nothing_at_start, on_play=False),
}
"""How each claims rule pays (spec §6.6), one row per member of :data:`ClaimRule`."""


def _holder(state: DealState, card: Card) -> int | None:
    """The seat whose hand holds ``card``, or ``None`` (the widow, played, out of play, not
    in the deck)."""
    place = state.place(card)
    return place.seat if place is not None and place.kind == "hand" else None


FOLLOWERS: dict[Follow, Callable[[DealState, Card], int | None]] = {
    "owner": _holder,
    "turn": _holder,  # the turn goes round to the one holder of the card: the same plays
}
"""Who must play the next card of a run (spec §6.2), given the state and that card: a seat,
or ``None`` when no hand holds it (the run stops), one row per member of :data:`Follow`."""


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Move, ...]:
    """The follow due, or every lead the rule allows, or a pass (in deck order of the cards)."""
    assert state.to_move is not None
    if state.step == "follow":
        assert state.current is not None
        nxt = ruleset.deck.next_card(state.current)
        assert nxt is not None
        return (PlayMove(state.to_move, nxt),)
    phase = phase_of(ruleset, state)
    rule, found = lead_options(ruleset, phase, state)
    if not found:
        return (PassMove(state.to_move),)
    extra = penalised_leads(ruleset, phase, state, rule, found)
    return tuple(LeadMove(state.to_move, c) for c in (*found, *extra))


def apply(ruleset: Ruleset, state: DealState, move: Move) -> Result:
    """Play a lead, a follow or a pass (the driver has checked ``deal.over`` and ``turn``)."""
    phase = phase_of(ruleset, state)
    _check(ruleset, phase, state, move)
    if isinstance(move, PassMove):
        return _pass(ruleset, phase, state, move.seat)
    assert isinstance(move, _RUN_MOVES)
    events: list[Event] = []
    if isinstance(move, LeadMove):
        faulty = _not_lowest(ruleset, phase, state, move.card)
        events.append(Lead(move.seat, move.card, state.restart))
        if state.passes or state.flipped:  # a lead ends a round of passes
            state = state.evolve(passes=0, flipped=False)
        if faulty:
            state = _penalise(phase, state, move.seat, events)
    else:
        events.append(Play(move.seat, move.card))
    follower = _follower(ruleset, phase, state, move.seat, move.card)
    if follower is not None:  # the run goes on: the play and the follow due in one step
        return state.play(move.seat, move.card, step="follow", to_move=follower,
                          current=move.card), events
    state = state.play(move.seat, move.card)
    return _after_play(ruleset, phase, state, move.seat, move.card, events)


def _follower(ruleset: Ruleset, phase: StopsPhase, state: DealState, who: int, card: Card
              ) -> int | None:
    """Who must follow when ``who`` plays ``card`` (read before the play), when that is all
    :func:`_after_play` would do: the play claims nothing, ``who`` keeps a card, and the next
    card of the suit is in a hand.  ``None`` otherwise (a claim, going out, or a stop)."""
    if state.held[who] <= 1:  # the last card: going out
        return None
    if (CLAIMS[phase.claims].on_play and who not in state.forfeited
            and claims_of(ruleset, state, who, card)):
        return None
    nxt = ruleset.deck.next_card(card)
    if nxt is None or nxt.rank == card.rank:  # the top rank (or a rank order naming it twice)
        return None
    # not the card played: where it is before the play and after
    return FOLLOWERS[phase.follow](state, nxt)


RUN_ON: dict[Follow, bool] = {
    "owner": True,   # the holder of the next card plays it: the chain :func:`run_on` walks
    "turn": True,    # the turn goes round to the one holder: the same chain
}
"""Whether :func:`run_on` may play a chain of follows for a follow rule (spec §6.2): it walks
from each card to the holder of the next, which is what both rules do with one holder per
card.  A follow rule whose row is ``False`` is played move by move."""


def run_on(ruleset: Ruleset, state: DealState) -> tuple[DealState, int]:
    """Play, one after another, every follow due that only hands the run on (spec §6.2:
    the holder of the next card must play it), and return the state after the last and
    how many were played (``0``: ``state`` itself, when no such follow is due).

    A follow hands the run on when :func:`_follower` names who follows it: the player keeps
    a card, the next card of the suit is in a hand, and the play claims nothing.  The
    state returned is the one :func:`boodle.engine.machine.apply_move` gives after as many
    :class:`~boodle.engine.state.PlayMove` (each the only legal move), the events of these
    plays aside: one new state instead of one per card, for a caller that wants only where
    the plays lead (a perft count, :mod:`boodle.conformance.counting`).  A card that pays
    or belongs to a section the phase could claim ends the run of follows here: that play
    goes through :func:`apply`.
    """
    if state.step != "follow" or state.to_move is None or state.current is None:
        return state, 0
    try:
        phase = phase_of(ruleset, state)
    except NotSupported:  # not in a stops phase: no follow is due
        return state, 0
    if not RUN_ON[phase.follow]:
        return state, 0
    claiming = CLAIMS[phase.claims].on_play
    trump = state.trump
    d = state.__dict__
    index, forfeited = state.index, state.forfeited
    places, held, hands = list(state.places), list(state.held), d.get("hands")
    mine = None if hands is None else list(hands)
    next_card = ruleset.deck.next_card
    plays, who, current, played = state.plays, state.to_move, state.current, 0
    while True:
        card = next_card(current)  # the follow due (legal_moves), never None in a follow
        if card is None or held[who] <= 1:  # the last card: going out
            break
        if claiming and who not in forfeited and may_claim(ruleset, trump, card):
            break  # it may claim: apply decides
        nxt = next_card(card)
        if nxt is None or nxt.rank == card.rank:  # the top rank: a stop
            break
        j = index.get(nxt)
        place = None if j is None else places[j]
        if place is None or place.kind != "hand" or place.seat is None:  # a stop
            break
        i = index[card]
        old = places[i]
        if old.kind == "hand" and old.seat is not None:
            held[old.seat] -= 1
            if mine is not None:
                same = state.cards[i]
                mine[old.seat] = tuple([c for c in mine[old.seat] if c is not same])
        places[i] = played_by(who, plays)
        plays += 1
        played += 1
        who, current = place.seat, card
    if not played:
        return state, 0
    changes: dict[str, object] = {
        "places": tuple(places), "held": tuple(held), "plays": plays,
        "moves": state.moves + played, "to_move": who, "current": current}
    new = state.evolve(**changes)
    if mine is not None:
        new.__dict__["hands"] = tuple(mine)
    return new, played


def _check(ruleset: Ruleset, phase: StopsPhase, state: DealState, move: Move) -> None:
    """Raise :class:`IllegalMove` naming the rule ``move`` breaks, if any (spec §12 order)."""
    if not isinstance(move, _STOPS_MOVES):
        raise IllegalMove(f"{move}: the stops phase takes leads, plays and passes",
                          rule="move.kind")
    if state.step == "follow":
        assert state.current is not None
        nxt = ruleset.deck.next_card(state.current)
        if isinstance(move, PassMove):
            raise IllegalMove(f"{move}: seat holds {nxt} and must play it", rule="pass.not-allowed")
        if isinstance(move, LeadMove) or move.card != nxt:
            raise IllegalMove(
                f"{move}: the run is at {state.current}; the only play is {nxt} (001 §04)",
                rule="follow.next-card",
            )
        return
    if isinstance(move, PlayMove):
        raise IllegalMove(f"{move}: no run is going; a lead is due", rule="move.kind")
    rule, found = lead_options(ruleset, phase, state)
    if isinstance(move, PassMove):
        if found:
            raise IllegalMove(
                f"{move}: the seat may lead {' '.join(map(str, found))}",
                rule="pass.not-allowed",
            )
        return
    if move.card in found or move.card in penalised_leads(ruleset, phase, state, rule, found):
        return
    hand = state.hand(move.seat)
    if move.card not in hand:
        raise IllegalMove(f"{move}: the seat does not hold {move.card}", rule="lead.not-held")
    stopped = state.stopped if state.restart else None
    rule_id, why = lead_fault(ruleset, rule, hand, move.card, stopped, state.flipped)
    raise IllegalMove(f"{move}: {why}", rule=rule_id)


def _not_lowest(ruleset: Ruleset, phase: StopsPhase, state: DealState, card: Card) -> bool:
    """Whether leading ``card`` is a fault ``penalty: lead not lowest`` accepts (spec §6.8)."""
    if not penalises_lead_not_lowest(phase):
        return False
    rule, found = lead_options(ruleset, phase, state)
    return card in penalised_leads(ruleset, phase, state, rule, found)


def _penalise(phase: StopsPhase, state: DealState, who: int, events: list[Event]) -> DealState:
    """Spec §6.8: the faulty leader pays, and under ``forfeit boodles`` claims nothing more."""
    for pen in phase.penalties:
        if not FAULTS[pen.fault].not_lowest:
            continue
        for dst in _payees(state, who, pen.to):
            state, t = state.pay(seat(who), dst, pen.amount, "penalty")
            events.append(Penalty(who, pen.fault, t))
        if pen.forfeit_boodles:
            state = state.evolve(forfeited=state.forfeited | {who})
    return state


def _pass(ruleset: Ruleset, phase: StopsPhase, state: DealState, who: int) -> Result:
    """Spec §6.5: pay any pass fee and penalty, pass the lead left; a full round ends or flips.

    A fee written ``if able`` is charged only to a player with at least its amount.
    """
    events: list[Event] = []
    fb = phase.fallback
    dues: list[tuple[int, str]] = []
    if fb.amount > 0 and fb.to is not None \
            and (not fb.if_able or state.ledger.balance(seat(who)) >= fb.amount):
        dues.append((fb.amount, fb.to))
    dues.extend((p.amount, p.to) for p in phase.penalties if FAULTS[p.fault].at_pass)
    for amount, to in dues:
        for dst in _payees(state, who, to):
            state, t = state.pay(seat(who), dst, amount, "penalty")
            events.append(Penalty(who, "cannot lead", t))
    rule = rule_now(phase, ruleset, state)
    events.append(Pass(who, f"may lead no card under '{describe(rule)}'"))
    state = state.evolve(passes=state.passes + 1, to_move=state.left_of(who))
    if state.passes < len(state.clockwise(who)):  # every player still in passed once
        return state, events
    return ALL_PASSES[phase.all_pass](phase, state, events)


def _end_without_winner(phase: StopsPhase, state: DealState, events: list[Event]) -> Result:
    """Spec §6.5 ``all pass: deal ends without winner``: any charge per card, then the end."""
    if phase.all_pass_to is not None:
        state = _all_pass_charge(phase, state, section(phase.all_pass_to), events)
    return end_deal(state, None, events)


def _flip_colour(phase: StopsPhase, state: DealState, events: list[Event]) -> Result:
    """Spec §6.5 ``all pass: flip colour``: the colour of the restart rule flips, and the
    round of passes starts again."""
    events.append(FlipColour(not state.flipped))
    return state.evolve(passes=0, flipped=not state.flipped), events


ALL_PASSES: dict[AllPass, Callable[[StopsPhase, DealState, list[Event]], Result]] = {
    # 'none' with a pass fallback is refused before a deal starts (support.check_playable);
    # a ruleset made in Python that plays it anyway flips a colour no rule reads, the round
    # going on for ever (the verifier's 'no all-pass exit' mutant relies on it)
    "none": _flip_colour,
    "end without winner": _end_without_winner,
    "flip colour": _flip_colour,
}
"""What a round of passes does (spec §6.5), one row per member of :data:`AllPass`."""


def _all_pass_charge(phase: StopsPhase, state: DealState, dst: Account, events: list[Event]
                     ) -> DealState:
    """Spec §6.5: a round of passes ends the deal, and every player, clockwise from the
    dealer's left, pays ``all_pass_charge`` per card left in hand to ``dst`` (it carries)."""
    payers = state.clockwise(state.dealer)
    counts = [len(state.hand(payer)) for payer in payers]
    state, done = state.pay_all([(seat(payer), dst, phase.all_pass_charge * n, "all pass")
                                 for payer, n in zip(payers, counts, strict=True)])
    events.extend(Payment(payer, dst, n, False, t)
                  for payer, n, t in zip(payers, counts, done, strict=True))
    return state


def _payees(state: DealState, who: int, to: str) -> list[Account]:
    if to == "each opponent":
        return [seat(s) for s in state.clockwise(who)[:-1]]
    return [section(to)]


def _after_play(
    ruleset: Ruleset,
    phase: StopsPhase,
    state: DealState,
    who: int,
    card: Card,
    events: list[Event],
) -> Result:
    """After ``who`` played ``card``: claims, then going out, a stop, or the next follow."""
    if CLAIMS[phase.claims].on_play and who not in state.forfeited:
        claimed = claims_of(ruleset, state, who, card)
        if claimed:
            state = take_all(state, who, claimed, events)
    if state.held[who] == 0:
        return _go_out(ruleset, phase, state, who, events)
    nxt = ruleset.deck.next_card(card)
    reason: StopReason
    if nxt is None:  # the top rank: nothing follows it (spec §6.3), with or without 'top rank'
        reason = "top rank"
    else:
        follower = FOLLOWERS[phase.follow](state, nxt)
        if follower is not None:
            return state.evolve(step="follow", to_move=follower, current=card), events
        place = state.place(nxt)
        reason = "not in deck" if place is None else _STOP_REASON[place.kind]
    events.append(Stop(who, card, reason, nxt))
    state = _stop_bonus(phase, state, who, events)
    return state.evolve(step="lead", restart=True, current=None, stopped=card.suit,
                        last_player=who, passes=0, flipped=False,
                        to_move=leader(ruleset, state, phase.restart, who)), events


_STOP_REASON: dict[str, StopReason] = {"widow": "widow", "played": "played", "out": "out of play"}


def _stop_bonus(phase: StopsPhase, state: DealState, who: int, events: list[Event]) -> DealState:
    """Spec §6.7: the seat that made the stop gets the bonus (a section pays what it has)."""
    bonus = phase.stop_bonus
    if bonus is None:
        return state
    if bonus.source == "each opponent":
        state, done = state.pay_all([(seat(opponent), seat(who), bonus.amount, "stop bonus")
                                     for opponent in state.clockwise(who)[:-1]])
        events.extend(StopPaid(who, t) for t in done)
    else:
        amount = min(bonus.amount, state.ledger.section(bonus.source))
        state, t = state.pay(section(bonus.source), seat(who), amount, "stop bonus")
        events.append(StopPaid(who, t))
    return state


def _go_out(
    ruleset: Ruleset, phase: StopsPhase, state: DealState, who: int, events: list[Event]
) -> Result:
    """001 §06: the winner takes its sections and each opponent pays per card left.

    A section written ``takes SECTION unless taken in PHASE`` is not taken when
    PHASE paid it in this deal (spec §7; 004's Chien house rule), nor one the widow blocks
    (spec §5.2 ``blocks sets``).
    """
    events.append(GoOut(who))
    out = phase.going_out
    barred = {name for name, earlier in out.unless_taken if (earlier, name) in state.taken}
    barred |= blocked_sections(ruleset, state)  # spec §5.2 'blocks sets': carried over
    takes = [name for name in out.takes if name not in barred]
    paid = PAID_TO[out.to](ruleset, out)
    if paid.taken and paid.into is not None and paid.into not in takes:
        takes.append(paid.into)
    if state.short:  # spec §4: a short winner takes only the sections it anted
        takes = [name for name in takes if state.may_take(who, name)]
    if paid.into is not None:
        state = _payments(phase, state, who, section(paid.into), events)
    state = take_all(state, who, takes, events)
    if paid.winner:
        state = _payments(phase, state, who, seat(who), events)
    return end_deal(state, who, events)


@dataclass(frozen=True)
class PaidInto:
    """Where going out's payments go (spec §7): ``into`` a section first (``None``: none),
    which with ``taken`` the winner then takes too (the kitty); ``winner``, to the winner,
    after the sections are taken."""

    into: str | None
    taken: bool = False
    winner: bool = False


def _to_winner(ruleset: Ruleset, out: GoingOut) -> PaidInto:
    return PaidInto(None, winner=True)


def _into_kitty(ruleset: Ruleset, out: GoingOut) -> PaidInto:
    kitty = ruleset.kitty()  # the builder refuses 'to kitty' on a board without one
    return PaidInto(None if kitty is None else kitty.name, taken=True)


def _into_section(ruleset: Ruleset, out: GoingOut) -> PaidInto:
    return PaidInto(out.into)  # spec §7: into a section, which nobody takes unless named


PAID_TO: dict[PaidTo, Callable[[Ruleset, GoingOut], PaidInto]] = {
    "winner": _to_winner,
    "kitty": _into_kitty,
    "section": _into_section,
}
"""Where going out's payments go (spec §7), one row per member of :data:`PaidTo`."""


def _payments(
    phase: StopsPhase, state: DealState, who: int, dst: Account, events: list[Event]
) -> DealState:
    """Each opponent, from the winner's left, pays ``per_card`` per card left to ``dst``.

    A holder of an ``excused`` card pays nothing (recorded as a 0 payment).
    """
    out = phase.going_out
    payers = state.clockwise(who)[:-1]
    counts = [len(state.hand(payer)) for payer in payers]
    excused = [bool(out.excused) and any(c in state.hand(payer) for c in out.excused)
               for payer in payers]
    state, done = state.pay_all([(seat(payer), dst, 0 if free else out.per_card * n, "going out")
                                 for payer, n, free in zip(payers, counts, excused, strict=True)])
    events.extend(Payment(payer, dst, n, free, t)
                  for payer, n, free, t in zip(payers, counts, excused, done, strict=True))
    return state


def end_deal(state: DealState, winner: int | None, events: list[Event]) -> Result:
    """The deal ends: unclaimed sections carry over (001 §06); ``winner`` went out, or nobody."""
    for name, amount in state.ledger.sections:
        if amount != 0:
            events.append(CarryOver(name, amount))
    state = state.evolve(step="over", to_move=None, current=None, winner=winner)
    events.append(DealEnd(winner, "went out" if winner is not None else "all passed", state.ledger))
    return state, events


STAGE = Stage("stops", enter, legal_moves, apply)
"""The stops phase as a stage of the deal."""
