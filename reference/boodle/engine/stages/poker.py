"""The poker phase (spec §8.2, §8.3): a betting round, if the phase has one, then a showdown.

004 phase 2: "without exchanging, each player selects the best five-card
poker hand among the cards held (cards beyond five are ignored) … the best
hand takes the Pot"; 004 "Égalités": tied hands share it.  The hands are
ranked by :mod:`boodle.engine.poker_hands`; the pot goes to the best seat, or is split
among the tied seats as the phase's ``split`` and the variant's ``chips`` say
(spec §9: whole shares, the remainder stays on the pot; or exact shares).  Under ``short
stack: section by section`` only the best seats that anted the pot take it; when none did,
it stays (spec §4).
No card moves.  The best seats are the phase's winners, for ``winner of
PHASE`` leads (spec §6.1), in the split's order: first the first clockwise from the
dealer's left, or under ``split: lowest seat`` the lowest-numbered seat (the one who takes
the pot).

**Betting** (spec §8.3; Cadaco's Tripoley sheet at centralconnector.com: "the Dealer starts
the betting … He can bet, check or pass. All bets and raises are placed in the Pot").  From
the phase's opener, clockwise, each seat still in that has a whole chip to bet moves:

- nothing owed: a :class:`~boodle.engine.state.PassMove` **checks**, a
  :class:`~boodle.engine.state.BidMove` of the bet size **bets**;
- chips owed: a pass **folds**, a bid of what is owed **calls** (all of a smaller balance:
  all in), a bid of what is owed plus a bet size **raises** (not past the ``raises`` cap).

A bet size is the phase's limit's (:data:`BET_SIZES`): fixed, 1 to a cap, 1 to the pot after
the call (``pot limit``) or 1 to the balance (``no limit``).  With ``blinds:`` the opener and
the seats after it put their blinds in first (``blind`` events, no move); the betting then
starts after the last of them, and a blind counts as chips bet.

A bid's amount is the chips put into the pot now; the bids a seat may make are one
:class:`~boodle.engine.state.BidRange` (the widow auction's shape: the protocol is the
same).  The round ends when one seat is left (it takes the whole pot, showing nothing), or
when every seat still in has acted since the last bet and matched it or is all in.  The
showdown then pays the pot in layers (side pots): the chips already on the pot and each
layer of bets up to the smallest all-in go to the best hand among the seats that put in that
much.  Illegal bets carry the rule ids ``move.kind``, ``bet.funds``, ``bet.amount``
(spec §12).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from boodle.engine.events import Bet, BetAction, Claim, Event, Showdown
from boodle.engine.faults import IllegalMove
from boodle.engine.holders import award, in_split_order
from boodle.engine.ledger import Ledger, Transfer, seat, section
from boodle.engine.poker_hands import PokerHand, showdown
from boodle.engine.stage import Result, Stage
from boodle.engine.state import BetState, BidMove, BidRange, DealState, Legal, Move, PassMove
from boodle.language.errors import BoodleError
from boodle.language.model import BetLimit, Chips, Opener, PokerPhase, Ruleset

__all__ = ["BET_SIZES", "OPENERS", "STAGE", "apply", "enter", "layers", "legal_moves"]


def _phase(ruleset: Ruleset, state: DealState) -> PokerPhase:
    name = state.stage.removeprefix("phase:")
    phase = next((p for p in ruleset.phases if p.name == name), None)
    if not isinstance(phase, PokerPhase):
        raise BoodleError(f"stage {state.stage} is not a poker phase of {ruleset.name}")
    return phase


def _bets(state: DealState) -> BetState:
    assert state.bets is not None
    return state.bets


def _whole(state: DealState, who: int) -> int:
    """``who``'s balance in whole chips, rounded down, never below 0 (what it may bet)."""
    return _whole_chips(state.ledger.seat(who))


OPENERS: dict[Opener, Callable[[DealState], int]] = {
    "dealer": lambda state: state.dealer,
    "left of dealer": lambda state: state.left_of(state.dealer),
}
"""Who opens a betting round (spec §8.3), the first seat still in from the dealer; one row
per member of :data:`~boodle.language.model.Opener`."""


def enter(ruleset: Ruleset, state: DealState) -> Result:
    """Open the betting round (spec §8.3), or without one show every hand at once (§8.2)."""
    phase = _phase(ruleset, state)
    if not phase.betting:
        return _showdown(ruleset, phase, state, [])
    bets = BetState(put=(0,) * state.players)  # a seat with no whole chip is all in at once
    opener = OPENERS[phase.opener](state)
    state, events, last = _post_blinds(phase, state.evolve(bets=bets), opener)
    if last is None:
        return _next(ruleset, phase, state, opener, events, first=True)
    return _next(ruleset, phase, state, last, events)


def _post_blinds(phase: PokerPhase, state: DealState, opener: int
                 ) -> tuple[DealState, list[Event], int | None]:
    """The blinds (spec §8.3): the opener and the seats after it clockwise each put their
    blind into the pot, at most one per seat still in, all of a smaller balance (all in); a
    blind counts as chips bet, and the seat still acts (the big blind's option).  Returns the
    state, the ``blind`` events, and the last seat that had a blind to post (``None``: no
    blinds; the betting then starts at the opener, else at the seat after it)."""
    seats = (opener, *(s for s in state.clockwise(opener) if s != opener))
    events: list[Event] = []
    last: int | None = None
    for who, blind in zip(seats, phase.blinds, strict=False):
        last = who
        amount = min(blind, _whole(state, who))
        if amount < 1:  # no whole chip: all in from the start, nothing to post
            continue
        state, transfer = state.pay(seat(who), section(phase.pot), amount, "bet")
        bets = _bets(state)
        put = list(bets.put)
        put[who] += amount
        level = max(bets.level, put[who])
        state = state.evolve(bets=BetState(tuple(put), level, bets.folded, bets.acted,
                                           bets.raises))
        events.append(Bet(who, "blind", transfer, level, _whole(state, who) < 1))
    return state, events, last


def _next(ruleset: Ruleset, phase: PokerPhase, state: DealState, start: int,
          events: list[Event], first: bool = False) -> Result:
    """The next seat to act from ``start`` (itself included when ``first``), or the
    showdown when the round is over (spec §8.3)."""
    bets = _bets(state)
    order = state.clockwise(state.dealer)
    live = [s for s in order if s not in bets.folded]
    able = [s for s in live if _whole(state, s) >= 1]  # the others are all in
    due = [s for s in able if s not in bets.acted or bets.owed(s) > 0]
    if len(live) == 1 or not due or (len(able) == 1 and bets.owed(able[0]) == 0):
        return _showdown(ruleset, phase, state, events)
    n = state.players
    for i in range(0 if first else 1, n + 1):
        candidate = (start + i) % n
        if candidate in due:
            return state.evolve(to_move=candidate), events
    raise AssertionError("a seat is due to act")  # pragma: no cover


def legal_moves(ruleset: Ruleset, state: DealState) -> tuple[Legal, ...]:
    """A pass (a check, or a fold when chips are owed) and the bids of the seat to move.

    The bids are one :class:`~boodle.engine.state.BidRange` of the chips put in now:
    nothing owed, the bets (:data:`BET_SIZES` of the phase's limit: the fixed size, 1 to
    the cap, 1 to the pot, 1 to the balance), at most the balance; chips owed, the call (all
    of a smaller balance) and, below the raise cap and with the chips for it, the raises
    (owed plus a bet size; under ``pot limit`` at most the pot after the call).  Cost: the
    same for 10 chips as for 10^8.
    """
    phase, bets, who = _phase(ruleset, state), _bets(state), state.to_move
    assert who is not None
    balance, owed = _whole(state, who), bets.owed(who)
    low, high, step = BET_SIZES[phase.bets](phase, _whole_chips(state.ledger.section(phase.pot)),
                                            owed)
    out: list[Legal] = [PassMove(who)]
    if owed == 0:
        if balance >= low:
            out.append(_range(who, low, _capped(high, balance), step))
        return tuple(out)
    may_raise = phase.raises is None or bets.raises < phase.raises
    if may_raise and balance >= owed + low:
        out.append(_range(who, owed, owed + _capped(high, balance - owed), step))
    else:
        out.append(BidRange(who, min(owed, balance), min(owed, balance)))
    return tuple(out)


BetSizes = Callable[[PokerPhase, int, int], tuple[int, int | None, int]]
"""The sizes of one bet or raise (spec §8.3) from the phase, the pot's whole chips before the
move and the chips the seat owes: (least, most or ``None`` for no bound but the balance,
step), in chips added on top of what is owed."""

BET_SIZES: dict[BetLimit, BetSizes] = {
    "none": lambda p, pot, owed: (0, 0, 1),  # no betting round: never asked
    "fixed": lambda p, pot, owed: (p.bet, p.bet, p.bet),
    "up to": lambda p, pot, owed: (1, p.bet, 1),
    # the pot after the call: what is on it and what the seat owes (at least 1 chip)
    "pot limit": lambda p, pot, owed: (1, max(pot + owed, 1), 1),
    "no limit": lambda p, pot, owed: (1, None, 1),
}
"""The bet and raise sizes of each bet limit (spec §8.3), a rule kind table
(:mod:`boodle.rule_kinds`).  Example (pot limit): 9 chips on the pot, 2 owed: a raise adds
1 to 9 + 2 = 11 chips, so the seat puts in 3 to 13."""


def _whole_chips(chips: Chips) -> int:
    """``chips`` in whole chips, rounded down, never below 0."""
    whole = chips if type(chips) is int else int(Fraction(chips) // 1)
    return max(whole, 0)


def _capped(most: int | None, chips: int) -> int:
    """The most a bet or raise adds, ``most`` (``None``: no bound), within ``chips``."""
    return chips if most is None else min(most, chips)


def _range(who: int, low: int, high: int, step: int) -> BidRange:
    """The bids ``low`` to ``high``, ``step`` apart; one amount is written with step 1."""
    return BidRange(who, low, high, step if high > low else 1)


def _check(ruleset: Ruleset, state: DealState, move: Move) -> None:
    """Raise :class:`IllegalMove` for a move the betting round refuses (spec §12 order)."""
    if isinstance(move, PassMove):
        return
    if not isinstance(move, BidMove):
        raise IllegalMove(f"{move}: the betting round takes a bid (a bet, call or raise) or a "
                          "pass (a check or a fold)", rule="move.kind")
    balance = _whole(state, move.seat)
    if move.amount > balance:
        raise IllegalMove(f"{move}: the seat has {state.ledger.seat(move.seat)} chips, not "
                          f"{move.amount}", rule="bet.funds")
    if not any(isinstance(e, BidRange) and e.holds(move) for e in legal_moves(ruleset, state)):
        allowed = [e for e in legal_moves(ruleset, state) if isinstance(e, BidRange)]
        raise IllegalMove(f"{move}: the bids allowed now are {allowed[0] if allowed else 'none'}"
                          " (spec §8.3)", rule="bet.amount")


def apply(ruleset: Ruleset, state: DealState, move: Move) -> Result:
    """Play a check, bet, call, raise or fold (the driver has checked ``deal.over``, ``turn``)."""
    _check(ruleset, state, move)
    phase, bets, who = _phase(ruleset, state), _bets(state), move.seat
    owed = bets.owed(who)
    action: BetAction
    if isinstance(move, PassMove):
        if owed == 0:
            action, bets = "check", BetState(bets.put, bets.level, bets.folded,
                                             bets.acted | {who}, bets.raises)
        else:
            action, bets = "fold", BetState(bets.put, bets.level, bets.folded | {who},
                                            bets.acted, bets.raises)
        event = Bet(who, action, None, bets.level)
        return _next(ruleset, phase, state.evolve(bets=bets), who, [event])
    assert isinstance(move, BidMove)
    state, transfer = state.pay(seat(who), section(phase.pot), move.amount, "bet")
    put = list(bets.put)
    put[who] += move.amount
    all_in = _whole(state, who) < 1
    if put[who] > bets.level:
        action = "bet" if bets.level == 0 else "raise"
        raises = bets.raises + (action == "raise")
        bets = BetState(tuple(put), put[who], bets.folded, frozenset({who}), raises)
    else:
        action = "call"
        bets = BetState(tuple(put), bets.level, bets.folded, bets.acted | {who}, bets.raises)
    event = Bet(who, action, transfer, bets.level, all_in)
    return _next(ruleset, phase, state.evolve(bets=bets), who, [event])


def layers(put: tuple[int, ...], live: list[int], base: Chips) -> list[tuple[Chips, list[int]]]:
    """The pots of a betting round (spec §8.3): (chips, the seats that may win them), main
    pot first.

    ``put``: what each seat put in; ``live``: the seats still in (not folded), clockwise from
    the dealer's left; ``base``: the chips on the pot before the round (antes, carry-over),
    which the main pot holds.  Each layer up to the next level a live seat put in holds every
    seat's chips in that band (a folded seat's too) and is open to the live seats that put in
    that much.  Example: base 9, seats put 5, 2 and 0 (folded): main pot 9 + 2 + 2 = 13 for
    both live seats, side pot 3 for the seat that put in 5.
    """
    out: list[tuple[Chips, list[int]]] = []
    below = 0
    for level in sorted({put[s] for s in live}):
        chips: Chips = sum(min(p, level) - min(p, below) for p in put)
        if not out:
            chips += base
        out.append((chips, [s for s in live if put[s] >= level]))
        below = level
    return out


SHOWDOWNS_KEPT = 1 << 14
"""The most showdowns :func:`_showdown` keeps per ruleset, then it starts again (about 2.3 kB
each, measured on tripoley-as-sold; the betting paths of one deal meet in a few hundred)."""

RULESETS_KEPT = 2
"""The most rulesets whose showdowns :func:`_showdown` keeps (a search is of one at a time)."""

_Outcome = tuple[tuple[Event, ...], Ledger, tuple[Transfer, ...], tuple[tuple[str, str], ...],
                 tuple[int, ...]]
"""A showdown's outcome (:func:`_showdown`): its events, the ledger after it, its transfers,
the sections taken and the winners."""

_SHOWDOWNS: dict[int, tuple[Ruleset, dict[tuple[object, ...], _Outcome]]] = {}
"""By ``id`` of a ruleset (kept, so the id stays its own): the showdowns met, by what they
read of the state (:func:`_showdown`)."""


def _showdown(ruleset: Ruleset, phase: PokerPhase, state: DealState,
              events: list[Event]) -> Result:
    """Show the hands of the seats still in, pay each pot to its best hand(s) (spec §8.2).

    A pure function of what it reads of ``state`` (the hands of the seats still in, the
    bets put in and folds, the ledger, the short stacks, the cap, the sections taken, the
    dealer and the seats out): the outcome is kept, so the exhaustive search of
    ``boodle verify``, which ends many betting paths in the same showdown, ranks the hands
    and pays the pots once per showdown (the state and events are the same as computed).
    """
    order = state.clockwise(state.dealer)
    bets = state.bets
    live = [s for s in order if bets is None or s not in bets.folded]
    folded_out = bets is not None and len(live) == 1
    key = (phase.name, state.players, state.dealer, state.out, state.capped, state.short,
           state.taken, state.ledger, None if bets is None else (bets.put, bets.folded),
           () if folded_out else tuple(state.hand(s) for s in live))
    kept = _SHOWDOWNS.get(id(ruleset))
    if kept is None or kept[0] is not ruleset:
        if len(_SHOWDOWNS) >= RULESETS_KEPT:  # rulesets of earlier runs: let them go
            _SHOWDOWNS.clear()
        kept = _SHOWDOWNS[id(ruleset)] = (ruleset, {})
    memo = kept[1]
    outcome = memo.get(key)
    if outcome is None:
        if len(memo) >= SHOWDOWNS_KEPT:
            memo.clear()
        outcome = memo[key] = _shown(ruleset, phase, state, order, live)
    shown_events, ledger, transfers, taken, winners = outcome
    events.extend(shown_events)
    if transfers:
        state = state.evolve(ledger=ledger, since_ante=(*state.since_ante, *transfers))
    state = state.evolve(to_move=None, taken=taken, bets=None,
                         phase_winners=(*state.phase_winners, (phase.name, winners)))
    return state, events


def _shown(ruleset: Ruleset, phase: PokerPhase, state: DealState, order: tuple[int, ...],
           live: list[int]) -> _Outcome:
    """What :func:`_showdown` does to ``state``: the events, the ledger after the pots are
    paid, the transfers, the sections taken and the winners."""
    bets = state.bets
    events: list[Event] = []
    transfers: list[Transfer] = []
    pot_chips = state.ledger.section(phase.pot)
    if bets is not None and len(live) == 1:  # everyone else folded: no hand is shown
        pots: list[tuple[Chips, list[int]]] = [(pot_chips, live)]
        shown: dict[int, PokerHand] = {}
        winners: tuple[int, ...] = tuple(live)
    else:
        best, shown = showdown({s: state.hand(s) for s in live}, phase.best_of,
                               phase.ace_low_straight)
        winners = in_split_order([s for s in order if s in best], phase.split)
        if bets is None:
            pots = [(pot_chips, live)]
        else:
            pots = layers(bets.put, live, pot_chips - sum(bets.put))
    events.append(Showdown(phase.name, tuple((s, shown[s]) for s in order if s in shown),
                           winners))
    folded_out = bets is not None and len(live) == 1
    taken = state.taken
    for layer, (chips, eligible) in enumerate(pots):
        contenders = eligible if folded_out else [s for s in eligible if s in shown]
        if not contenders:
            continue
        top = None if folded_out else max(shown[s] for s in contenders)
        best_here = [s for s in contenders if top is None or shown[s] == top]
        takers = [w for w in best_here if state.may_take(w, phase.pot)]  # spec §4: who anted
        paid = award(phase.pot, takers, chips, phase.split, ruleset.chips)
        if paid is not None:
            for who in paid.seats:
                state, t = state.pay(section(phase.pot), seat(who), paid.share, "claim")
                events.append(Claim(who, phase.pot, t, layer if len(pots) > 1 else None))
                transfers.append(t)
            if (phase.name, phase.pot) not in taken:
                taken = (*taken, (phase.name, phase.pot))
    return tuple(events), state.ledger, tuple(transfers), taken, winners


STAGE = Stage("poker", enter, legal_moves, apply)
"""The poker phase: the betting round's moves, if any, then the showdown (spec §8.2, §8.3)."""
