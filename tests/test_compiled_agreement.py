"""The compiled engine agrees with the reference engine, deal by deal.

For many seeded deals of every ruleset the compiled engine runs, both engines
play the same card order from the same ledger (chips already on the board,
so carry-over counts), driven by the same choices: the sequences of leads,
plays, stops, claims, passes, penalties, bonuses and payments must be equal
event for event, and so must the final chips of every seat and section.
The built-in players (greedy, tips) must also choose the same on both.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from boodle.build import load_file
from boodle.compiled import compile_ruleset, supports
from boodle.compiled.agree import both_engines, reference_trace, seeded_picks
from boodle.compiled.deal import TraceItem, play_deal
from boodle.compiled.players import make_chooser, reference_strategy
from boodle.ledger import Ledger, seat, section
from boodle.model import (
    Deck,
    Fallback,
    GoingOut,
    LeadRule,
    Penalty,
    Ruleset,
    Section,
    StopBonus,
)
from boodle.session import play_deal as reference_play_deal
from boodle.variants import builtin_names, builtin_path, draft_paths
from rules_by_hand import card, cards, michigan, with_phase

MICHIGAN = michigan()


def busy() -> Ruleset:
    """Every chip path: pass fees, colour flips, stop bonus, payments into the kitty, excused."""
    return with_phase(
        MICHIGAN,
        restart=LeadRule("last player", "lowest", "opposite colour"),
        fallback=Fallback("pass", amount=1, to="kitty"),
        all_pass="flip colour",
        stop_bonus=StopBonus(1, "each opponent"),
        going_out=GoingOut(takes=("kitty", "A♥"), per_card=1, to="kitty", excused=(card("8♦"),)),
    )


def holders() -> Ruleset:
    """Newmarket-like leads: the holder of 7♦ leads it (or the next diamond up); then any card."""
    return with_phase(
        MICHIGAN,
        first_lead=LeadRule("holder", "card", card=card("7♦")),
        restart=LeadRule("next player", "lowest", "all"),
    )


def lowest_club_holder() -> Ruleset:
    """The holder of the lowest club in play leads it; restarts by the longest suit."""
    return with_phase(
        MICHIGAN,
        first_lead=LeadRule("holder", "lowest", "suit", suit="♣", holder_suit="♣"),
        restart=LeadRule("last player", "lowest", "longest suit"),
    )


def sets_and_penalties() -> Ruleset:
    """Sets (fixed and same suit), black-card restarts with passes, a cannot-lead penalty."""
    board = (
        *MICHIGAN.board,
        Section("marriage", "A♦ K♦", "set", cards("A♦ K♦")),
        Section("chien", "8 9 10", "set", ranks=("8", "9", "10"), suit_rule="same suit"),
    )
    rules = replace(MICHIGAN, board=board)
    return with_phase(
        rules,
        restart=LeadRule("dealer", "lowest", "black"),
        fallback=Fallback("pass"),
        all_pass="end without winner",
        penalties=(Penalty("cannot lead", 1, "each opponent"),),
        stop_bonus=StopBonus(2, "kitty"),
        going_out=GoingOut(takes=("kitty", "chien"), per_card=2),
    )


def ace_low_short() -> Ruleset:
    """Ace low with 8♦ removed (so 7♦ always stops), any-card leads, the widow dealt first."""
    deck = Deck(MICHIGAN.deck.suits, ("A", *MICHIGAN.deck.ranks[:-1]), frozenset({card("8♦")}))
    rules = replace(MICHIGAN, deck=deck, deal=replace(MICHIGAN.deal, widow_position="first"))
    return with_phase(
        rules,
        first_lead=LeadRule("dealer", "any", "all"),
        restart=LeadRule("last player", "any", "all"),
    )


def no_widow() -> Ruleset:
    """No widow: runs stop only on the top rank or cards already played."""
    return replace(MICHIGAN, deal=replace(MICHIGAN.deal, widow_position="none"))


def variant_files() -> list[Ruleset]:
    """Every variant file, built-in or draft (drafts move to the built-ins as they mature)."""
    paths = [builtin_path(n) for n in builtin_names()] + list(draft_paths())
    return [load_file(p) for p in paths]


def variant(name: str) -> Ruleset:
    """A variant by name, wherever its file is now."""
    return next(r for r in variant_files() if r.name == name)


def playable() -> list[Ruleset]:
    return [r for r in variant_files() if supports(r)]


BUILT = [busy(), holders(), lowest_club_holder(), sets_and_penalties(), ace_low_short(),
         no_widow()]
RULESETS = [*playable(), *BUILT]


def test_the_variants_the_compiled_engine_runs_include_the_playable_michigans() -> None:
    names = {r.name for r in playable()}
    assert {"michigan", "michigan-classic", "michigan-cadaco", "michigan-paid-stops",
            "michigan-dealer-double", "michigan-equal-antes"} <= names


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
@pytest.mark.parametrize("rules", [MICHIGAN, busy(), sets_and_penalties()],
                         ids=["michigan", "busy", "sets"])
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
