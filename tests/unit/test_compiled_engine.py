"""The compiled engine on its own: tables, 001's worked example, conservation, the players.

Seats A=0, B=1, C=2, D=3; D deals, so A leads first.  Michigan with 4
players: each pays 1 on each of the four boodles and 2 on the kitty, so every
boodle holds 4 and the kitty 8, and each seat goes from 50 to 44 (001 §02).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from boodle.compiled import compile_ruleset, supports, unsupported_features
from boodle.compiled.deal import DealView, TraceItem, own_of, play_dealt
from boodle.compiled.players import greedy_chooser, make_chooser, tips_chooser
from boodle.compiled.tables import WIDOW, CompiledRules
from boodle.language.errors import BoodleError
from boodle.language.variants import load
from compiled_rulesets import busy, sets_and_penalties, variant
from rules_by_hand import card, cards, michigan

A, B, C, D = 0, 1, 2, 3
T = compile_ruleset(michigan())


def idx(t: CompiledRules, text: str) -> list[int]:
    return [t.index[c] for c in cards(text)]


def draft(name: str):  # type: ignore[no-untyped-def]
    """A variant by name, built-in or still a draft."""
    return variant(name)


# ---------------------------------------------------------------- tables


def test_successors_stop_at_the_ace_and_at_a_removed_card() -> None:
    (k_h, a_h, two_c) = idx(T, "K♥ A♥ 2♣")
    assert T.nxt[k_h] == a_h and T.nxt[two_c] == T.index[card("3♣")]
    assert T.nxt[a_h] == -1 and T.stop_reason_none[a_h] == "top rank"
    from compiled_rulesets import ace_low_short

    short = compile_ruleset(ace_low_short())
    seven = short.index[card("7♦")]
    assert short.n_cards == 51 and short.nxt[seven] == -1
    assert short.stop_reason_none[seven] == "not in deck"
    assert short.nxt[short.index[card("A♦")]] == short.index[card("2♦")]  # ace low


def test_antes_are_summed_per_seat_and_section() -> None:
    assert T.antes(4, D) == ((6, 6, 6, 6), (4, 4, 4, 4, 8))
    double = compile_ruleset(draft("michigan-dealer-double"))
    pay, put = double.antes(4, D)
    assert pay == (6, 6, 6, 8) and put == (4, 4, 4, 4, 10)  # the dealer adds 2 on the kitty


def test_the_deal_gives_11_11_10_10_and_the_widow_10() -> None:
    receivers = T.receivers(4, D)
    sizes = [receivers.count(s) for s in (A, B, C, D, WIDOW)]
    assert sizes == [11, 11, 10, 10, 10]
    assert receivers[:5] == (A, B, C, D, WIDOW)  # one at a time from the dealer's left


def test_claims_table_boodles_and_sets() -> None:
    claims = T.claim_tables[0].claims
    assert claims[T.index[card("Q♦")]] == ((2, ()),)  # board order: A♥ K♣ Q♦ J♠ kitty
    assert claims[T.index[card("10♦")]] == ()
    s = compile_ruleset(sets_and_penalties())
    ace_d, king_d = idx(s, "A♦ K♦")
    assert s.claim_tables[0].claims[ace_d] == ((5, (king_d,)),)
    nine_s = s.index[card("9♠")]
    assert s.claim_tables[0].claims[nine_s] == ((6, tuple(idx(s, "8♠ 10♠"))),)


def test_supports_names_what_it_cannot_run() -> None:
    assert supports(load("michigan"))
    assert supports(draft("tripoli"))  # elimination at zero balance: payments cut, seats out
    assert unsupported_features(draft("tripoli-chien-once")) == [
        "going out takes chien unless taken in hearts"]
    tripoley = draft("tripoley")  # its holding and poker phases run before the stops phase
    assert supports(tripoley)
    after = replace(tripoley, phases=tripoley.phases[::-1])  # but not after it
    assert unsupported_features(after) == ["phases other than stops: poker, hearts"]
    assert supports(draft("michigan-widow-sale"))  # spec §5.4, compiled/widow.py
    # spec §5.4: barred to boodle holders, paid to the dealer, the dealer's swap first; with
    # short stacks by section (§4) and a widow blocking sets (§5.2): played (issue 23)
    assert supports(draft("tripoley-as-sold"))
    assert "a widow taker's hand out of play" in unsupported_features(draft("rummoli"))
    assert "chosen-boodle antes" in unsupported_features(draft("newmarket"))
    with pytest.raises(BoodleError, match="does not run tripoli-chien-once"):
        compile_ruleset(draft("tripoli-chien-once"))


# ---------------------------------------------------------------- 001's worked example


def test_worked_example_001() -> None:
    """001 §07: A 9♦, C 10♦, A J♦, B Q♦ (takes 4), K♦ in the widow stops; B leads 3♣, out."""
    hands = [idx(T, "9♦ J♦ 5♠ 6♥"), idx(T, "Q♦ 3♣"), idx(T, "10♦ 2♥ 7♠ 4♣"), idx(T, "8♣")]
    seats, sections = [50] * 4, [0] * 5
    asked: list[list[int]] = []

    def a_leads_9d(view: DealView, seat: int, options: list[int]) -> int:
        asked.append(options)
        return T.index[card("9♦")]

    trace: list[TraceItem] = []
    result = play_dealt(T, 4, D, own_of(T, hands), seats, sections, [a_leads_9d] * 4, trace)
    assert asked == [idx(T, "9♦ 6♥ 5♠")]  # the lowest of each suit A holds, deck order
    assert trace == [
        ("lead", A, "9♦", False), ("play", C, "10♦"), ("play", A, "J♦"), ("play", B, "Q♦"),
        ("claim", B, "Q♦", 4), ("stop", B, "Q♦", "widow", "K♦"), ("lead", B, "3♣", True),
        ("out", B), ("claim", B, "kitty", 8), ("pay", C, 3), ("pay", D, 1), ("pay", A, 2),
        ("end", B),
    ]
    # B: 44 + 4 (Q♦) + 8 (kitty) + 2 + 3 + 1 = 62; A, C, D pay 2, 3, 1 after the ante
    assert seats == [42, 62, 41, 43]
    assert sections == [4, 4, 0, 4, 0]
    assert (result.winner, result.plays, result.leads) == (B, 5, 2)
    assert result.after_ante == (4, 4, 4, 4, 8) and result.taken == (-1, -1, 4, -1, 8)


def test_chips_are_conserved_over_many_compiled_deals() -> None:
    for rules in (michigan(), busy(), sets_and_penalties()):
        t = compile_ruleset(rules)
        rng = random.Random(3)
        for players in range(3, 9):
            seats, sections = [50] * players, [0] * len(t.section_names)
            choosers = [make_chooser("random", random.Random(s)) for s in range(players)]
            for k in range(150):
                perm = list(range(t.n_cards))
                rng.shuffle(perm)
                from boodle.compiled import play_deal

                play_deal(t, players, k % players, perm, seats, sections, choosers)
                assert sum(seats) + sum(sections) == 50 * players
                assert min(sections) >= 0


# ---------------------------------------------------------------- the players


def view(hand_a: str, others: str = "", widow: str = "", played: str = "",
         chips: tuple[int, ...] = (4, 4, 4, 4, 8)) -> DealView:
    """A's hand; B holds ``others`` and every card not named elsewhere; D deals."""
    own = [B] * T.n_cards
    for c in idx(T, hand_a):
        own[c] = A
    for c in idx(T, widow):
        own[c] = WIDOW
    for c in idx(T, played):
        own[c] = -2 - C
    hands = [0] * 4
    for c, w in enumerate(own):
        if w >= 0:
            hands[w] |= T.bit[c]
    held = [h.bit_count() for h in hands]
    return DealView(T, T.claim_tables[0], 4, D, own, hands, held, [44] * 4, list(chips), 10)


def test_tips_hold_a_boodle_suit_back_where_greedy_leads_its_longest_suit() -> None:
    # A holds 2♦ Q♦ 6♥ 5♠, Q♦'s section holds 4: leading 2♦ may strand Q♦ (000 tips)
    v = view("2♦ Q♦ 6♥ 5♠")
    options = idx(T, "2♦ 6♥ 5♠")
    # scores: 2♦ 0 - 4 + 0.5 - 0.5; 6♥ and 5♠ 0.5 - 0.25, the same chance of a stop: 6♥ first
    assert tips_chooser(v, A, options) == T.index[card("6♥")]
    assert greedy_chooser(v, A, options) == T.index[card("2♦")]  # two diamonds: its longest


def test_tips_lead_a_boodle_suit_when_its_own_cards_reach_the_boodle() -> None:
    v = view("J♦ Q♦ 9♥ 5♠ 6♠ 7♠")
    # J♦ runs J♦ Q♦ by itself: 4 chips + 1.0 - 0.5 beats 5♠ 6♠ 7♠'s 1.5 - 0.75
    assert tips_chooser(v, A, idx(T, "J♦ 9♥ 5♠")) == T.index[card("J♦")]


def test_tips_count_the_widow_and_lead_into_a_known_stop() -> None:
    # 8♥ was shown in the widow by an earlier stop: 7♥ is a sure stop, the lead comes back
    v = view("3♣ 7♥ 10♠", widow="8♥")
    options = idx(T, "3♣ 7♥ 10♠")
    assert tips_chooser(v, A, options) == T.index[card("3♣")]  # unseen: all alike, lowest first
    v.revealed = T.bit[T.index[card("8♥")]]
    assert tips_chooser(v, A, options) == T.index[card("7♥")]


def test_tips_lead_short_suits_first() -> None:
    v = view("2♣ 5♣ 9♣ 3♥")
    assert tips_chooser(v, A, idx(T, "2♣ 3♥")) == T.index[card("3♥")]


def test_tips_go_out_when_a_lead_plays_out_the_hand() -> None:
    # any-card leads: Q♦ K♦ A♦ run out the whole hand from Q♦, whatever else pays
    v = view("Q♦ K♦ A♦", chips=(40, 4, 0, 4, 8))
    assert tips_chooser(v, A, idx(T, "Q♦ K♦ A♦")) == T.index[card("Q♦")]


def test_unknown_players_are_refused() -> None:
    with pytest.raises(KeyError):
        make_chooser("clever", random.Random(0))


# ---------------------------------------------------------------- trumps (Pope Joan)


def test_trump_tables_follow_the_turned_suit() -> None:
    pj = compile_ruleset(draft("pope-joan"))
    names = pj.section_names  # pope matrimony intrigue ace king queen jack game
    ct = pj.claim_tables[pj.ruleset.deck.suits.index("♥")]
    assert [names[k] for k in ct.boodle_of[pj.index[card("A♥")]]] == ["ace"]
    assert ct.boodle_of[pj.index[card("A♠")]] == ()
    assert [names[k] for k in ct.boodle_of[pj.index[card("9♦")]]] == ["pope"]  # any trumps
    king, queen = idx(pj, "K♥ Q♥")
    # K♥ pays the King alone, and Matrimony once the same seat has played Q♥ too
    assert [(names[k], needs) for k, needs in ct.claims[king]] == [
        ("matrimony", (queen,)), ("king", ())]


def test_the_turn_up_sets_trumps_and_pays_the_dealer_its_boodle() -> None:
    pj = compile_ruleset(draft("pope-joan"))
    # 51 cards, 4 players and the widow last in each round: the widow's last card is the
    # 50th dealt (position 49); put Q♦ there: diamonds are trumps, the dealer takes Queen
    assert pj.turn_position(4, D) == 49
    perm = [c for c in range(pj.n_cards) if c != pj.index[card("Q♦")]]
    perm.insert(49, pj.index[card("Q♦")])
    seats, sections = [50] * 4, [0] * 8
    trace: list[TraceItem] = []
    from boodle.compiled import play_deal

    choosers = [make_chooser("random", random.Random(1))] * 4
    play_deal(pj, 4, D, perm, seats, sections, choosers, trace)
    # the dealer dressed the board with 15 chips, 1 of them on the Queen, and takes it back
    assert trace[:2] == [("turn-up", "Q♦", "♦"), ("claim", D, "queen", 1)]
