"""The compiled engine agrees with the reference engine, deal by deal.

For many seeded deals of every ruleset the compiled engine runs, both engines
play the same card order from the same ledger (chips already on the board,
so carry-over counts), driven by the same choices: the sequences of leads,
plays, stops, claims, passes, penalties, bonuses and payments must be equal
event for event, and so must the final chips of every seat and section.
The built-in players (greedy, tips) must also choose the same on both.

The poker phases with a betting round (spec §8.3) are held to the same: the betting probes
of the conformance suite and two rulesets made for ties, from balances that differ seat by
seat (a short seat goes all in, so side pots are paid), every bet, call, raise, check, fold
and blind, the showdown's hands and the pots paid must be equal, and the built-in players
(random too: the same draws) must bet the same on both engines.
"""

from __future__ import annotations

import random

import pytest

from boodle.compiled import compile_ruleset
from boodle.compiled.agree import both_engines, reference_trace, seeded_picks
from boodle.compiled.deal import TraceItem, play_deal
from boodle.compiled.players import make_bettor, make_chooser, make_seller, reference_strategy
from boodle.compiled.tables import supports, unsupported_features
from boodle.engine.ledger import Ledger, seat, section
from boodle.language.model import Ruleset
from boodle.session.run import play_deal as reference_play_deal
from compiled_rulesets import (
    BETTING_PROBES,
    BUILT,
    MICHIGAN,
    RULESETS,
    betting,
    betting_probe,
    busy,
    claims_nothing,
    playable,
    sets_and_penalties,
    variant,
)


def test_the_variants_the_compiled_engine_runs_include_the_playable_michigans() -> None:
    names = {r.name for r in playable()}
    assert {"michigan", "michigan-classic", "michigan-cadaco", "michigan-paid-stops",
            "michigan-dealer-double", "michigan-alternate-board"} <= names


def opening_ledger(rules: Ruleset, players: int, rng: random.Random) -> Ledger:
    """50 chips each, then a few chips moved onto every section (a carry-over to claim)."""
    ledger = Ledger.open(players, tuple(s.name for s in rules.board), 50)
    for s in rules.board:
        ledger, _ = ledger.transfer(seat(rng.randrange(players)), section(s.name),
                                   rng.randrange(6), "carry")
    return ledger


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name + f"-{id(r) % 997}")
def test_both_engines_play_the_same_deals(rules: Ruleset) -> None:
    tables = compile_ruleset(rules)
    rng = random.Random(rules.name)
    counts = rules.players.counts()
    for k in range(60):
        players = counts[k % len(counts)]
        dealer = rng.randrange(players)
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = opening_ledger(rules, players, rng)
        both = both_engines(tables, players, dealer, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}: {players} players, dealer {dealer}"
        assert both.compiled_chips == both.reference_chips
        assert sum(both.compiled_chips[0]) + sum(both.compiled_chips[1]) == ledger.total()


def test_the_traces_compared_are_not_trivial() -> None:
    """Across the built rulesets every kind of event occurs, so the comparison sees them all."""
    kinds: set[object] = set()
    for rules in BUILT:
        tables = compile_ruleset(rules)
        rng = random.Random(5)
        for k in range(30):
            perm = list(range(tables.n_cards))
            rng.shuffle(perm)
            both = both_engines(tables, 4, k % 4, opening_ledger(rules, 4, rng), perm,
                                seeded_picks(k))
            kinds |= {item[0] for item in both.reference}
    assert kinds == {"lead", "play", "stop", "claim", "pass", "flip", "penalty", "bonus", "out",
                     "pay", "end"}


@pytest.mark.parametrize("name", ["greedy", "tips"])
@pytest.mark.parametrize("rules", [MICHIGAN, busy(), sets_and_penalties(), claims_nothing()],
                         ids=["michigan", "busy", "sets", "claims-none"])
def test_built_in_players_choose_the_same_on_both_engines(name: str, rules: Ruleset) -> None:
    tables = compile_ruleset(rules)
    loose = compile_ruleset(rules, strict=False)
    rng = random.Random(name)
    for k in range(25):
        players = 3 + k % 4
        dealer = k % players
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = opening_ledger(rules, players, rng)
        strategies = [reference_strategy(name, random.Random(s), loose) for s in range(players)]
        deck = [tables.cards[c] for c in perm]
        state, events = reference_play_deal(rules, players, dealer, ledger, deck, strategies)
        seats = list(ledger.seats)
        sections = [a for _, a in ledger.sections]
        trace: list[TraceItem] = []
        choosers = [make_chooser(name, random.Random(s)) for s in range(players)]
        play_deal(tables, players, dealer, perm, seats, sections, choosers, trace)
        assert trace == reference_trace(events), f"deal {k}"
        assert tuple(seats) == state.ledger.seats


# ---------------------------------------------------------------- betting rounds (spec §8.3)

BETTING = betting()


def betting_ledger(rules: Ruleset, players: int, rng: random.Random) -> Ledger:
    """Balances of 8 to 30 chips, seat by seat (the ante is 9: some seats start all in or go
    all in during the round), and a few chips carried over on every section."""
    names = tuple(s.name for s in rules.board)
    ledger = Ledger(tuple(8 + rng.randrange(23) for _ in range(players)),
                    tuple((name, 0) for name in names))
    for name in names:
        ledger, _ = ledger.transfer(seat(rng.randrange(players)), section(name),
                                    rng.randrange(4), "carry")
    return ledger


def test_the_betting_variants_run_on_the_compiled_engine() -> None:
    for rules in BETTING:
        assert supports(rules), unsupported_features(rules)


@pytest.mark.parametrize("rules", BETTING, ids=lambda r: f"{r.name}-{r.phases[0]}"[:60])
def test_both_engines_play_the_same_betting_rounds(rules: Ruleset) -> None:
    tables = compile_ruleset(rules)
    rng = random.Random(rules.name)
    for k in range(50):
        players = 2 + k % 8
        dealer = rng.randrange(players)
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = betting_ledger(rules, players, rng)
        both = both_engines(tables, players, dealer, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}: {players} players, dealer {dealer}"
        assert both.compiled_chips == both.reference_chips
        assert sum(both.compiled_chips[0]) + sum(both.compiled_chips[1]) == ledger.total()


def test_the_betting_traces_compared_are_not_trivial() -> None:
    """Across the betting rulesets every action occurs, a seat goes all in, a deal pays a side
    pot (two claims on the pot) and a showdown is tied, so the comparison sees them all."""
    seen: set[object] = set()
    for rules in BETTING:
        tables = compile_ruleset(rules)
        rng = random.Random(11)
        for k in range(30):
            perm = list(range(tables.n_cards))
            rng.shuffle(perm)
            both = both_engines(tables, 4, k % 4, betting_ledger(rules, 4, rng), perm,
                                seeded_picks(k))
            bets = [item for item in both.reference if item[0] == "bet"]
            seen |= {item[2] for item in bets}
            if any(item[5] for item in bets):
                seen.add("all in")
            if sum(item[0] == "claim" and item[2] == "pot" for item in both.reference) > 1:
                seen.add("two pot claims")
            if any(item[0] == "showdown" and isinstance(item[3], tuple) and len(item[3]) > 1
                   for item in both.reference):
                seen.add("tie")
    assert seen == {"blind", "check", "bet", "call", "raise", "fold", "all in",
                    "two pot claims", "tie"}


@pytest.mark.parametrize("name", ["random", "greedy", "tips"])
@pytest.mark.parametrize("probe", BETTING_PROBES)
def test_built_in_players_bet_the_same_on_both_engines(name: str, probe: str) -> None:
    rules = betting_probe(probe)
    tables = compile_ruleset(rules)
    loose = compile_ruleset(rules, strict=False)
    rng = random.Random(name + probe)
    acted: set[object] = set()
    for k in range(20):
        players = 2 + k % 6
        dealer = k % players
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = betting_ledger(rules, players, rng)
        strategies = [reference_strategy(name, random.Random(s), loose) for s in range(players)]
        deck = [tables.cards[c] for c in perm]
        state, events = reference_play_deal(rules, players, dealer, ledger, deck, strategies)
        seats = list(ledger.seats)
        sections = [a for _, a in ledger.sections]
        trace: list[TraceItem] = []
        seat_rngs = [random.Random(s) for s in range(players)]
        choosers = [make_chooser(name, r) for r in seat_rngs]
        bettors = [make_bettor(name, r) for r in seat_rngs]
        play_deal(tables, players, dealer, perm, seats, sections, choosers, trace, bettors)
        assert trace == reference_trace(events), f"deal {k}"
        assert tuple(seats) == state.ledger.seats
        acted |= {item[2] for item in trace if item[0] == "bet"}
    assert {"check", "fold"} & acted and {"bet", "call", "raise"} & acted  # they did bet


# ---------------------------------------------------------------- elimination (spec §9, §10)

ELIMINATING = ["tripoli", "tripoli-no-poker", "tripoli-equal-stakes", "michigan-until-broke"]
"""Built-ins played with ``balance: eliminated at zero``."""


def short_ledger(rules: Ruleset, players: int, dealer: int, rng: random.Random) -> Ledger:
    """Balances of 0 to 6 chips (a seat at 0 is out of the deal, spec §10; the others run
    short in the ante, a bet or a payment, each paying at most what they have, spec §9), the
    dealer and at least ``players.low`` seats still in, a few chips on every section."""
    names = tuple(s.name for s in rules.board)
    out = set(rng.sample([s for s in range(players) if s != dealer],
                         rng.randrange(players - rules.players.low + 1)))
    balances = tuple(0 if s in out else 1 + rng.randrange(6) for s in range(players))
    return Ledger(balances, tuple((name, rng.randrange(4)) for name in names))


@pytest.mark.parametrize("name", ELIMINATING)
def test_both_engines_play_the_same_deals_with_players_out_and_short(name: str) -> None:
    rules = variant(name)
    assert supports(rules), unsupported_features(rules)
    tables = compile_ruleset(rules)
    rng = random.Random(name)
    seen: set[str] = set()
    for k in range(60):
        players = rules.players.low + 1 + k % 3
        dealer = rng.randrange(players)
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = short_ledger(rules, players, dealer, rng)
        both = both_engines(tables, players, dealer, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}: {ledger.seats}, dealer {dealer}"
        assert both.compiled_chips == both.reference_chips
        assert sum(both.compiled_chips[0]) + sum(both.compiled_chips[1]) == ledger.total()
        if 0 in ledger.seats:
            seen.add("out")
        if 0 in both.reference_chips[0][:players] and 0 not in ledger.seats:
            seen.add("broke in the deal")
    assert seen == {"out", "broke in the deal"}


@pytest.mark.parametrize("name", ["random", "greedy", "tips"])
def test_built_in_players_choose_the_same_with_players_out(name: str) -> None:
    rules = variant("tripoli")
    tables = compile_ruleset(rules)
    loose = compile_ruleset(rules, strict=False)
    rng = random.Random(name + "out")
    for k in range(20):
        players = 4 + k % 3
        dealer = k % players
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = short_ledger(rules, players, dealer, rng)
        strategies = [reference_strategy(name, random.Random(s), loose) for s in range(players)]
        deck = [tables.cards[c] for c in perm]
        state, events = reference_play_deal(rules, players, dealer, ledger, deck, strategies)
        seats = list(ledger.seats)
        sections = [a for _, a in ledger.sections]
        trace: list[TraceItem] = []
        seat_rngs = [random.Random(s) for s in range(players)]
        choosers = [make_chooser(name, r) for r in seat_rngs]
        bettors = [make_bettor(name, r) for r in seat_rngs]
        play_deal(tables, players, dealer, perm, seats, sections, choosers, trace, bettors)
        assert trace == reference_trace(events), f"deal {k}: {ledger.seats}"
        assert tuple(seats) == state.ledger.seats


# ---------------------------------------------------------------- the widow sale (spec §5.4)

SELLING = ["michigan-widow-sale", "michigan-widow-sale-optional", "michigan-pay-the-widow",
           "michigan-widow-auction", "tripoli-ghost-auction"]
"""Built-ins with a widow sale or auction the compiled engine plays."""


def test_the_widow_sales_compared_are_not_trivial() -> None:
    """Across the selling built-ins every move of the sale occurs (offer, pass, bid, buy,
    swap, an auction won, the widow unsold), so the deal-by-deal comparison sees them all."""
    seen: set[object] = set()
    for name in SELLING:
        rules = variant(name)
        assert supports(rules), unsupported_features(rules)
        tables = compile_ruleset(rules)
        rng = random.Random(name)
        for k in range(30):
            perm = list(range(tables.n_cards))
            rng.shuffle(perm)
            both = both_engines(tables, 4, k % 4, opening_ledger(rules, 4, rng), perm,
                                seeded_picks(k))
            assert both.compiled == both.reference, f"{name} deal {k}"
            assert both.compiled_chips == both.reference_chips
            seen |= {item[0] if item[0] != "exchange" else item[2] for item in both.reference
                     if item[0] in ("widow offered", "widow pass", "bid", "exchange", "unsold")}
    assert seen == {"widow offered", "widow pass", "bid", "buy", "swap", "unsold"}


@pytest.mark.parametrize("name", ["random", "greedy", "tips"])
@pytest.mark.parametrize("rules_name", ["michigan-widow-sale-optional", "tripoli-ghost-auction",
                                        "tripoley-as-sold"])
def test_built_in_players_sell_the_same_on_both_engines(name: str, rules_name: str) -> None:
    rules = variant(rules_name)
    tables = compile_ruleset(rules)
    loose = compile_ruleset(rules, strict=False)
    rng = random.Random(name + rules_name)
    for k in range(20):
        players = 3 + k % 4
        dealer = k % players
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = opening_ledger(rules, players, rng)
        strategies = [reference_strategy(name, random.Random(s), loose) for s in range(players)]
        deck = [tables.cards[c] for c in perm]
        state, events = reference_play_deal(rules, players, dealer, ledger, deck, strategies)
        seats = list(ledger.seats)
        sections = [a for _, a in ledger.sections]
        trace: list[TraceItem] = []
        seat_rngs = [random.Random(s) for s in range(players)]
        play_deal(tables, players, dealer, perm, seats, sections,
                  [make_chooser(name, r) for r in seat_rngs], trace,
                  [make_bettor(name, r) for r in seat_rngs],
                  [make_seller(name, r) for r in seat_rngs])
        assert trace == reference_trace(events), f"deal {k}"
        assert tuple(seats) == state.ledger.seats


@pytest.mark.parametrize("probe", ["probe-withdraw", "probe-elimination", "probe-last-player"])
def test_the_sale_and_elimination_probes_play_the_same_deals(probe: str) -> None:
    """The suite's probes of ``high bidder: may withdraw`` (spec §5.4; no built-in has it)
    and of elimination (spec §10), from short balances: a withdrawal, a bid let stand and
    a seat out occur.  (The elimination probes from short balances, the sale probe from 50
    chips a seat.)"""
    from boodle.conformance.paths import load_variant

    rules = load_variant(probe)
    assert supports(rules), unsupported_features(rules)
    tables = compile_ruleset(rules)
    rng = random.Random(probe)
    seen: set[str] = set()
    for k in range(60):
        players = max(rules.players.low + 1, 3) + k % 2
        dealer = rng.randrange(players)
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = (short_ledger(rules, players, dealer, rng) if rules.widow_sale is None
                  else opening_ledger(rules, players, rng))
        both = both_engines(tables, players, dealer, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}: {ledger.seats}, dealer {dealer}"
        assert both.compiled_chips == both.reference_chips
        seen |= {str(item[0]) for item in both.reference if item[0] == "withdrawn"}
        seen |= {"stands" for item in both.reference
                 if item[0] == "widow pass" and item[2] == "high bidder"}
        seen |= {"out"} if 0 in ledger.seats else set()
    assert seen == ({"withdrawn", "stands"} if probe == "probe-withdraw" else {"out"})


# ------------------------------------------- short stacks (spec §4) and blocked sets (§5.2)


def _widow_blocks(rules: Ruleset, tables_players: tuple[int, int], perm: list[int]) -> bool:
    """Whether the widow dealt by ``perm`` holds a set section whole (spec §5.2), read with the
    reference engine's own rule (:func:`boodle.engine.holders.blocked`)."""
    from boodle.compiled.tables import WIDOW
    from boodle.engine.holders import blocked

    players, dealer = tables_players
    tables = compile_ruleset(rules)
    widow = [tables.cards[c] for c, w in zip(perm, tables.receivers(players, dealer),
                                            strict=True) if w == WIDOW]
    trump = widow[-1].suit if tables.trumps and widow else None
    return any(blocked(s, widow, rules.deck, trump, "blocks sets") for s in rules.board)


def _short(rules: Ruleset, ledger: Ledger) -> bool:
    """Whether a seat still in holds less than the whole ante, one chip a section (the
    rulesets below: ``each player 1 on every section``, spec §4)."""
    return any(0 < b < len(rules.board) for b in ledger.seats)


@pytest.mark.parametrize("name", ["probe-short-stacks", "probe-widow-blocks-sets",
                                  "tripoley-as-sold without its sale"])
def test_both_engines_play_short_stacks_and_blocked_sets_alike(name: str) -> None:
    """Section-by-section antes (spec §4: a short seat takes only what it anted, on play, by
    holding, at the showdown, on the turn-up, going out) and sets blocked by the widow (spec
    §5.2), from short balances and from 50 chips a seat, deal by deal."""
    from dataclasses import replace

    from boodle.conformance.paths import load_variant

    rules = (replace(variant("tripoley-as-sold"), widow_sale=None) if " " in name
             else load_variant(name))
    assert supports(rules), unsupported_features(rules)
    tables = compile_ruleset(rules)
    rng = random.Random(name)
    seen: set[str] = set()
    for k in range(80):
        players = max(rules.players.low + 1, 3) + k % 4
        dealer = rng.randrange(players)
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = (short_ledger(rules, players, dealer, rng) if k % 2
                  else opening_ledger(rules, players, rng))
        both = both_engines(tables, players, dealer, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}: {ledger.seats}, dealer {dealer}"
        assert both.compiled_chips == both.reference_chips
        assert sum(both.compiled_chips[0]) + sum(both.compiled_chips[1]) == ledger.total()
        if rules.short_stack == "section by section" and _short(rules, ledger):
            seen.add("short")
        if rules.deal.widow_sets == "blocks sets" and _widow_blocks(rules, (players, dealer),
                                                                    perm):
            seen.add("blocked")
    wanted = ({"short"} if rules.short_stack == "section by section" else set()) | (
        {"blocked"} if rules.deal.widow_sets == "blocks sets" else set())
    assert wanted and seen == wanted


def test_both_engines_play_tripoley_as_sold_alike() -> None:
    """Tripoley as sold (its rules file): the dealer's swap before the auction (spec §5.4
    ``dealer: may swap first``), bids paid to the dealer (``price to: dealer``), holders of a
    heart boodle barred from bidding and swapping (``barred: holding a boodle card``), short
    stacks and sets blocked by the widow, deal by deal from short and full balances."""
    from boodle.engine.holders import paying_cards

    rules = variant("tripoley-as-sold")
    assert supports(rules), unsupported_features(rules)
    tables = compile_ruleset(rules)
    boodle_cards = {c for s in rules.board if s.kind == "boodle" for c in paying_cards(s) or ()}
    rng = random.Random("as sold")
    seen: set[str] = set()
    for k in range(80):
        players = 3 + k % 4
        dealer = rng.randrange(players)
        perm = list(range(tables.n_cards))
        rng.shuffle(perm)
        ledger = (short_ledger(rules, players, dealer, rng) if k % 2
                  else opening_ledger(rules, players, rng))
        both = both_engines(tables, players, dealer, ledger, perm, seeded_picks(k))
        assert both.compiled == both.reference, f"deal {k}: {ledger.seats}, dealer {dealer}"
        assert both.compiled_chips == both.reference_chips
        dealt = tables.receivers(players, dealer)
        if any(tables.cards[c] in boodle_cards and w == dealer
               for c, w in zip(perm, dealt, strict=True)) and ledger.seats[dealer] > 0:
            seen.add("dealer barred")
        for item in both.reference:
            if item[0] == "widow pass" and item[2] == "dealer first":
                seen.add("dealer first: pass")
            if item[0] == "exchange" and item[2] == "swap":
                seen.add("dealer first: swap")
            if item[0] == "exchange" and item[2] == "bid" and item[3] > 0:
                seen.add("bid paid to the dealer")
        if _short(rules, ledger):
            seen.add("short")
        if _widow_blocks(rules, (players, dealer), perm):
            seen.add("blocked")
    assert seen == {"dealer barred", "dealer first: pass", "dealer first: swap",
                    "bid paid to the dealer", "short", "blocked"}
