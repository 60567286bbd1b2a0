"""Rulesets built by hand for the engine tests, and small helpers.

:func:`michigan` mirrors ``spec/variants/michigan.boodle`` line by line, so the
engine tests do not depend on the parser; ``test_engine_rules`` checks that
it equals what the builder makes of the file.
"""

from __future__ import annotations

from dataclasses import replace

from boodle.engine.ledger import Ledger
from boodle.language.cards import RANKS, Card, parse_card
from boodle.language.model import (
    AnteLine,
    DealSpec,
    Deck,
    Fallback,
    GoingOut,
    LeadRule,
    PlayerRange,
    Ruleset,
    Section,
    SessionSpec,
    StopsPhase,
)


def michigan() -> Ruleset:
    """The Michigan home profile (001), as spec/variants/michigan.boodle says it."""
    boodles = tuple(
        Section(name, name, "boodle", (parse_card(name),)) for name in ("A♥", "K♣", "Q♦", "J♠")
    )
    return Ruleset(
        name="michigan",
        title="Michigan (home profile)",
        about="Four boodle sections and a kitty; the owner of the next card plays it; "
        "the first out takes the kitty.",
        sources=("001_a6108fd72e47ea5f.txt", "000_1cd38874b08dd73a.txt"),
        version=1,
        base=None,
        players=PlayerRange(3, 8),
        deck=Deck(suits=("♣", "♦", "♥", "♠"), ranks=RANKS),
        board=(*boodles, Section("kitty", "Kitty", "kitty")),
        antes=(
            AnteLine("each player", 1, ("A♥", "K♣", "Q♦", "J♠")),
            AnteLine("each player", 2, ("kitty",)),
        ),
        deal=DealSpec(
            first_dealer="high cut",
            rotation="left",
            cut="player right of dealer",  # 001 §03 "droite coupe"
            widow_position="last",
            widow_visibility="hidden",
            misdeal="same dealer, no new ante",
        ),
        widow_sale=None,
        phases=(
            StopsPhase(
                name="play",
                label="Stops",
                first_lead=LeadRule("left of dealer", "lowest", "chosen suit"),
                follow="owner",
                stop_at_top=True,
                restart=LeadRule("last player", "lowest", "other suit"),
                fallback=Fallback("lead", LeadRule("last player", "lowest", "same suit")),
                claims="on play",
                going_out=GoingOut(ends_deal=True, takes=("kitty",), per_card=1, to="winner"),
            ),
        ),
        session=SessionSpec(
            start_chips=50, rotations=1, leftover="split equally", ties="share",
            negative="allowed",
        ),
        chips="whole",
        carry="unclaimed",
    )


def with_phase(ruleset: Ruleset, **changes: object) -> Ruleset:
    """``ruleset`` with its (only) stops phase changed."""
    phase = ruleset.phases[0]
    assert isinstance(phase, StopsPhase)
    return replace(ruleset, phases=(replace(phase, **changes),))  # type: ignore[arg-type]


def cards(text: str) -> tuple[Card, ...]:
    """``"9♦ J♦ 5♠"`` → the cards."""
    return tuple(parse_card(t) for t in text.split())


def card(text: str) -> Card:
    """``"9♦"`` → the card."""
    return parse_card(text)


def fresh_ledger(ruleset: Ruleset, players: int, start: int = 50) -> Ledger:
    """``start`` chips per seat, every section empty."""
    return Ledger.open(players, tuple(s.name for s in ruleset.board), start)
