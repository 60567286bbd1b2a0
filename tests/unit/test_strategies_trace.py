"""Built-in strategies and the trace, on constructed deals (001 §07's example for the trace)."""

from __future__ import annotations

import json
import random

from boodle.engine import apply, legal_moves, start_deal
from boodle.engine.events import Event
from boodle.engine.state import LeadMove, PlayMove
from boodle.engine.strategies import STRATEGIES, greedy, make, random_legal
from boodle.engine.trace import render_jsonl, render_text
from rules_by_hand import card, cards, fresh_ledger, michigan

RULES = michigan()
A, B, C, D = 0, 1, 2, 3


def example_events() -> list[Event]:
    """001 §07 played out: A 9♦, C 10♦, A J♦, B Q♦ (stop: K♦ in the widow), B 3♣ out."""
    hands = (cards("9♦ J♦ 5♠ 6♥"), cards("Q♦ 3♣"), cards("10♦ 2♥ 7♠ 4♣"), cards("8♣"))
    state, events = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    for move in (LeadMove(A, card("9♦")), PlayMove(C, card("10♦")), PlayMove(A, card("J♦")),
                 PlayMove(B, card("Q♦")), LeadMove(B, card("3♣"))):
        state, more = apply(RULES, state, move)
        events.extend(more)
    return events


def test_greedy_claims_a_section_with_chips_else_leads_its_longest_suit() -> None:
    hands = (cards("2♣ 3♣ 4♥ Q♦ 5♠"), cards("9♦"), cards("10♦"), cards("8♣"))
    state, _ = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    legal = legal_moves(RULES, state)
    assert greedy(RULES, state, legal) == LeadMove(A, card("Q♦"))  # Q♦ holds 4
    without_q = tuple(m for m in legal if m.card != card("Q♦"))
    assert greedy(RULES, state, without_q) == LeadMove(A, card("2♣"))  # clubs: 2 cards


def test_random_strategy_is_reproducible_and_registered() -> None:
    hands = (cards("2♣ 3♥ 4♦ 5♠"), cards("9♦"), cards("10♦"), cards("8♣"))
    state, _ = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    legal = legal_moves(RULES, state)
    picks = [random_legal(random.Random(5))(RULES, state, legal) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in legal
    assert set(STRATEGIES) == {"random", "greedy"}
    assert make("greedy", random.Random(0)) is greedy


def test_text_trace_tells_the_worked_example() -> None:
    text = render_text(example_events())
    for line in (
        "  antes: A 6, B 6, C 6, D 6 -> A♥ +4, K♣ +4, Q♦ +4, J♠ +4, kitty +8",
        "  A: 9♦ J♦  6♥  5♠",  # deck order: suits ♣ ♦ ♥ ♠, ranks low to high
        "  A leads 9♦",
        "  C plays 10♦",
        "  A plays J♦",
        "  B plays Q♦",
        "    B takes Q♦: 4",
        "    stop: K♦ is in the widow",
        "  B leads 3♣ (restart)",
        "    B goes out",
        "    B takes kitty: 8",
        "    C pays B 3 (3 cards left)",
        "    D pays B 1 (1 card left)",
        "    A pays B 2 (2 cards left)",
        "  board:  A♥ 4, K♣ 4, Q♦ 0, J♠ 4, kitty 0",
        "  ledger: A 42, B 62, C 41, D 43",
    ):
        assert line in text.splitlines(), line


def test_text_trace_explains_top_rank_and_played_stops() -> None:
    hands = (cards("5♣ K♠ 2♥"), cards("4♣ A♠ 9♥"), cards("8♦"), cards("8♥"))
    state, events = start_deal(RULES, 4, D, fresh_ledger(RULES, 4), hands=hands)
    for move in (LeadMove(A, card("5♣")), LeadMove(A, card("K♠")), PlayMove(B, card("A♠")),
                 LeadMove(B, card("4♣"))):
        state, more = apply(RULES, state, move)
        events.extend(more)
    lines = render_text(events).splitlines()
    assert "    stop: 6♣ is in the widow" in lines
    assert "    stop: A♠ is the top rank" in lines
    assert "    stop: 5♣ was already played" in lines


def test_json_lines_are_one_typed_object_per_event() -> None:
    events = example_events()
    lines = render_jsonl(events).splitlines()
    assert len(lines) == len(events)
    objects = [json.loads(line) for line in lines]
    assert [o["kind"] for o in objects] == [e.kind for e in events]
    deal = next(o for o in objects if o["kind"] == "deal")
    assert deal["hands"][A] == ["9♦", "J♦", "6♥", "5♠"]
    assert deal["order"] == [0, 1, 2, 3, "widow"]
    stop = next(o for o in objects if o["kind"] == "stop")
    assert stop == {"kind": "stop", "seat": B, "card": "Q♦", "reason": "widow",
                    "next_card": "K♦"}
    pays = [o for o in objects if o["kind"] == "payment"]
    assert pays[0] == {"kind": "payment", "payer": C, "payee": {"seat": B}, "amount": 3,
                       "cards_left": 3, "excused": False}


def test_a_withheld_widow_is_told_once() -> None:
    """Spec §5.4 `dealer: may withhold`: the dealer's pass at 'dealer offers' ends the sale
    (nobody buys, the widow stays a blocker): one line says so, not a second 'nobody takes'."""
    from boodle.engine.stages.dealing import shuffled_deck
    from boodle.engine.state import PassMove
    from boodle.language.variants import load

    rules = load("michigan-widow-sale-optional")
    deck = shuffled_deck(rules, random.Random(1))
    state, events = start_deal(rules, 4, D, fresh_ledger(rules, 4), deck_order=deck)
    assert state.to_move == D  # the dealer decides first whether the widow is offered
    state, more = apply(rules, state, PassMove(D))
    lines = render_text(events + more).splitlines()
    sale = [line for line in lines if "widow" in line and not line.startswith("  widow:")]
    assert sale == ["  D withholds the widow (dealer): nobody takes it; it stays a blocker"]
