"""The engine's fast paths give what the rules give, on the states of random deals of every
built-in variant: claims by play (spec §6.6) looked up by card, and the sections a winner
takes (spec §7) paid in one step."""

from __future__ import annotations

import dataclasses
import random

import pytest

from boodle.engine import legal_moves
from boodle.engine.claims import claims_of, take, take_all
from boodle.engine.events import Ante, Event
from boodle.engine.holders import paying_cards
from boodle.engine.ledger import Ledger, seat, section
from boodle.engine.state import DealState, LeadMove, PlayMove
from boodle.language.cards import Card
from boodle.language.errors import BoodleError
from boodle.language.model import AnteLine, Ruleset
from boodle.language.variants import builtin_names, load
from boodle.testing import blocked_now
from deal_helpers import random_states


def claims_by_the_rules(ruleset: Ruleset, state: DealState, who: int, card: Card
                        ) -> tuple[str, ...]:
    """Spec §6.6 read section by section in board order: a boodle whose paying card is
    ``card``; a set one of whose cards is ``card`` (a same-suit set: its ranks in ``card``'s
    suit) and whose other cards ``who`` has played; never a set the widow blocks (spec §5.2),
    nor a section a short stack did not ante (spec §4)."""
    def played_by_who(c: Card) -> bool:
        place = state.place(c)
        return place is not None and place.kind == "played" and place.seat == who

    claimed = []
    shut = blocked_now(ruleset, state)  # spec §5.2: a set complete in the widow is blocked
    for s in ruleset.board:
        if s.kind not in ("boodle", "set") or s.name in shut:
            continue
        if not state.may_take(who, s.name):  # spec §4: a short stack takes what it anted
            continue
        paying = paying_cards(s, state.trump)
        if paying is None:
            needed = [Card(r, card.suit) for r in s.ranks] if card.rank in s.ranks else []
        else:
            needed = list(paying) if card in paying else []
        if needed and (s.kind == "boodle"
                       or all(c == card or played_by_who(c) for c in needed)):
            claimed.append(s.name)
    return tuple(claimed)


@pytest.mark.parametrize("name", builtin_names())
def test_claims_of_a_card_are_the_rules_claims(name: str) -> None:
    checked = 0
    for seed in range(4):
        for ruleset, state in random_states(load(name), seed):
            if state.to_move is None:
                continue
            moves = legal_moves(ruleset, state)
            played = [m.card for m in moves if isinstance(m, LeadMove | PlayMove)]
            # the cards about to be played, and every card of the deck by every seat
            for who, card in [*((state.to_move, c) for c in played),
                              *((s, c) for s in range(state.players) for c in state.cards)]:
                assert (claims_of(ruleset, state, who, card)
                        == claims_by_the_rules(ruleset, state, who, card)), (who, card)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", ["michigan", "tripoli", "rummoli", "pope-joan"])
def test_take_all_is_one_take_after_another(name: str) -> None:
    rng = random.Random(5)
    names = [s.name for s in load(name).board]
    for seed in range(3):
        for _, state in random_states(load(name), seed):
            if state.to_move is None:
                continue
            who = state.to_move
            chosen = rng.sample(names, rng.randint(0, len(names)))
            for wanted in (chosen, chosen + chosen[:1], []):
                slow_events: list[Event] = []
                slow = state
                for section_name in wanted:
                    slow = take(slow, who, section_name, slow_events)
                fast_events: list[Event] = []
                fast = take_all(state, who, wanted, fast_events)
                assert fast == slow and fast.since_ante == slow.since_ante
                assert fast_events == slow_events


@pytest.mark.parametrize("name", builtin_names())
def test_a_play_that_only_passes_the_run_on_is_what_the_general_path_gives(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lead or follow with no claim, no going out and the next card in a hand is played
    with the follow due in one step; the general path (claims, going out, stops) played
    afterwards gives the same state and events."""
    from boodle.engine.stages import stops

    fast_apply = stops.apply
    checked = passed_on = 0
    for seed in range(3):
        for ruleset, state in random_states(load(name), seed):
            if state.to_move is None or not state.stage.startswith("phase:"):
                continue
            for move in legal_moves(ruleset, state):
                if not isinstance(move, LeadMove | PlayMove):
                    continue
                phase = stops.phase_of(ruleset, state)
                passed_on += stops._follower(ruleset, phase, state, move.seat,
                                             move.card) is not None
                fast = fast_apply(ruleset, state, move)
                with monkeypatch.context() as m:
                    m.setattr(stops, "_follower", lambda *args: None)
                    slow = fast_apply(ruleset, state, move)
                assert fast[0] == slow[0] and fast[1] == slow[1], move
                assert fast[0].hands == slow[0].hands
                checked += 1
    assert checked > passed_on > 0


def _ante_one_by_one(state: DealState, payer: int, names: list[str], line: AnteLine,
                     events: list[Event]) -> DealState:
    """``payer``'s ante of ``line`` on each of ``names``: one transfer at a time, each cut to
    the payer's balance under ``capped`` (spec §9, :meth:`DealState.payable`)."""
    src = seat(payer)
    reason = "ante (widow's share)" if line.payer == "widow" else "ante"
    ledger = state.ledger
    for name in names:
        ledger, t = ledger.transfer(src, section(name), state.payable(src, line.amount, ledger),
                                    reason)
        events.append(Ante(t))
    return state.evolve(ledger=ledger)


def _antes_payer_by_payer(ruleset: Ruleset, state: DealState, at: tuple[int, int],
                          events: list[Event]) -> tuple[DealState, list[Event]]:
    """The antes paid one payer at a time, one transfer at a time."""
    from boodle.engine.stages import antes

    first_line, first_payer = at
    for i, line in enumerate(ruleset.antes[first_line:], start=first_line):
        for j, payer in enumerate(antes._payers(line, state)):
            if i == first_line and j < first_payer:
                continue
            if line.chosen:
                return state.evolve(stake=(i, j), to_move=payer), events
            state = _ante_one_by_one(state, payer, antes.ante_targets(ruleset, line.targets),
                                     line, events)
    return state.evolve(stake=None, to_move=None), events


@pytest.mark.parametrize("name", builtin_names())
def test_the_antes_paid_at_once_are_the_antes_paid_payer_by_payer(name: str) -> None:
    from boodle.engine.stages import antes
    from boodle.engine.stages.dealing import new_deal

    # the one-by-one oracle is the ante as written; 'short stack: section by section' pays in
    # another order (spec §4), pinned by test_short_stacks.py and the Hypothesis machine
    ruleset = dataclasses.replace(load(name), short_stack="as balance")
    for players in ruleset.players.counts():
        for capped in (False, True):
            names = tuple(s.name for s in ruleset.board)
            ledger = Ledger.open(players, names, 3)  # small: a cap bites
            state = new_deal(ruleset, players, 1, ledger, ruleset.deck.cards(), None, None)
            state = state.evolve(capped=capped)
            fast_events: list[Event] = []
            slow_events: list[Event] = []
            fast, _ = antes._pay_from(ruleset, state, (0, 0), fast_events)
            slow, _ = _antes_payer_by_payer(ruleset, state, (0, 0), slow_events)
            while True:
                assert fast == slow and fast_events == slow_events
                if fast.stake is None:
                    break
                line, payer = fast.stake  # a chosen boodle: stake on the first target
                target = ruleset.antes[line].targets[0]
                fast = antes._pay(fast, fast.to_move, [target], ruleset.antes[line], fast_events)
                slow = _ante_one_by_one(slow, slow.to_move, [target], ruleset.antes[line],
                                        slow_events)
                fast, _ = antes._pay_from(ruleset, fast, (line, payer + 1), fast_events)
                slow, _ = _antes_payer_by_payer(ruleset, slow, (line, payer + 1), slow_events)


def test_a_deck_order_must_be_a_permutation_of_the_deck() -> None:
    from boodle.engine.stages.dealing import deal_hands

    ruleset = load("michigan")
    cards = list(ruleset.deck.cards())
    hands, widow = deal_hands(ruleset, 4, 0, list(reversed(cards)))
    assert sum(len(h) for h in hands) + len(widow) == len(cards) == 52
    for wrong in (cards[:-1], [*cards[:-1], cards[0]], [*cards, cards[0]]):
        # one card short; one card twice instead of another; one card too many
        with pytest.raises(BoodleError, match="exactly once"):
            deal_hands(ruleset, 4, 0, wrong)


def test_a_deal_state_with_the_decks_kept_index_is_the_one_made_afresh() -> None:
    from boodle.engine.state import card_index

    ruleset = load("michigan")
    cards = ruleset.deck.cards()
    hands = (cards[0:10], cards[10:20], cards[20:30], cards[30:40])
    widow = cards[40:]
    ledger = Ledger.open(4, tuple(s.name for s in ruleset.board), 5)
    kept = DealState.new(4, 0, cards, hands, widow, ledger, card_index(cards))
    fresh = DealState.new(4, 0, cards, hands, widow, ledger)
    assert kept == fresh and dict(kept.index) == dict(fresh.index)
    assert dict(fresh.index) == {c: i for i, c in enumerate(cards)}
    with pytest.raises(ValueError, match="dealt twice"):
        DealState.new(4, 0, cards, (cards[0:10], cards[0:10], cards[20:30], cards[30:40]),
                      widow, ledger, card_index(cards))


@pytest.mark.parametrize("name", ["tripoli", "tripoley", "tripoli-ghost-auction",
                                  "michigan-claims-on-holding", "pope-joan"])
def test_holders_paid_at_once_are_the_holders_paid_one_share_at_a_time(name: str) -> None:
    from boodle.engine.claims import _pay_holders_one_by_one, pay_holders

    checked = 0
    for seed in range(3):
        for ruleset, state in random_states(load(name), seed):
            names = tuple(s.name for s in ruleset.board if s.kind in ("boodle", "set", "pot"))
            for split in ("share", "first seat"):
                for phase in (None, "hearts"):
                    fast_events: list[Event] = []
                    slow_events: list[Event] = []
                    fast = pay_holders(ruleset, state, names, split, fast_events, phase)
                    slow = _pay_holders_one_by_one(ruleset, state, names, split, slow_events,
                                                   phase)
                    assert fast == slow and fast.since_ante == slow.since_ante
                    assert fast_events == slow_events
                    checked += bool(fast_events)
    assert checked > 0
