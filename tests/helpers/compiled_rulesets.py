"""Rulesets the compiled engine is checked on (the agreement test and the compiled engine's
unit tests): Michigan, the playable built-ins, and rulesets built by hand to reach rule kinds
the built-ins do not."""

from __future__ import annotations

from dataclasses import replace

from boodle.compiled import supports
from boodle.language.build import load_file
from boodle.language.model import (
    Deck,
    Fallback,
    GoingOut,
    LeadRule,
    Penalty,
    PokerPhase,
    Ruleset,
    Section,
    Split,
    StopBonus,
)
from boodle.language.variants import builtin_names, builtin_path, draft_paths
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


def claims_nothing() -> Ruleset:
    """Sets and penalties where the stops phase claims nothing (spec §6.6 'claims: none'):
    chips leave the boodles and sets only by going out (the winner takes the chien) or at
    the session's end."""
    return with_phase(sets_and_penalties(), claims="none")


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
         no_widow(), claims_nothing()]
RULESETS = [*playable(), *BUILT]


# ---------------------------------------------------------------- betting (spec §8.3)

BETTING_PROBES = ("probe-betting", "probe-blinds", "probe-pot-limit", "probe-no-limit")
"""The suite's probe variants whose poker phase has a betting round (conformance/variants/)."""


def betting_probe(name: str) -> Ruleset:
    """A betting probe variant of the conformance suite, by name."""
    from boodle.conformance.paths import load_variant

    return load_variant(name)


def _poker_changed(rules: Ruleset, best_of: int, split: Split | None = None,
                   blinds: tuple[int, ...] | None = None) -> Ruleset:
    """``rules`` with its poker phase comparing ``best_of`` cards (and the split, blinds)."""
    phases = tuple(replace(p, best_of=best_of, split=p.split if split is None else split,
                           blinds=p.blinds if blinds is None else blinds)
                   if isinstance(p, PokerPhase) else p for p in rules.phases)
    return replace(rules, phases=phases)


def tied_shares() -> Ruleset:
    """probe-no-limit whose showdown compares one card (the high card: every ace ties) and
    splits a tied pot in exact shares (spec §8.2, §9): ties and fractional chips."""
    return replace(_poker_changed(betting_probe("probe-no-limit"), best_of=1), chips="exact")


def tied_lowest_seat() -> Ruleset:
    """probe-blinds comparing two cards, a tied pot to the lowest-numbered seat (spec
    §8.1), the player at the dealer's left opening after no blinds."""
    return _poker_changed(betting_probe("probe-blinds"), best_of=2, split="lowest seat",
                          blinds=())


def tied_whole_shares() -> Ruleset:
    """probe-pot-limit comparing one card, a tied pot shared in whole chips (spec §9: the
    remainder stays on the pot)."""
    return _poker_changed(betting_probe("probe-pot-limit"), best_of=1)


def betting() -> list[Ruleset]:
    """The rulesets with a betting round the compiled engine is checked on."""
    return [*(betting_probe(n) for n in BETTING_PROBES), tied_shares(), tied_lowest_seat(),
            tied_whole_shares()]
