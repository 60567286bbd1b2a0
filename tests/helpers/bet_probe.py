"""The small variant of the betting tests (``bet-probe``): 24 cards (9 to A), no widow, 1 chip
on the pot and 1 on the kitty from each player, a poker phase with the betting lines given,
then a stops phase; used by the reference engine's and the compiled engine's tests of a
betting round (spec §8.3), whose chips are worked out by hand from it."""

from __future__ import annotations

from boodle.language.build import load_text
from boodle.language.model import Ruleset


def bet_probe(betting: str, session: str = "start: 20 chips  end: after 1 rotation") -> Ruleset:
    """``bet-probe`` with ``betting`` (the poker phase's betting lines) and ``session``."""
    return load_text(f"""
variant bet-probe {{
  players 2 to 4
  deck {{
    suits ♣ ♦ ♥ ♠
    ranks 9 10 J Q K A
  }}
  board {{
    kitty
    pot
  }}
  ante {{ each player 1 on pot, kitty }}
  deal {{ widow: none }}
  phase poker is poker {{
    pot: pot
    {betting}
  }}
  phase play is stops {{
    first lead: left of dealer, lowest of chosen suit
    follow: owner of next card
    stop: top rank, next card held by nobody
    restart: last player, lowest of other suit
    if none: lead lowest of same suit
    claims: on play
    going out: ends deal, takes kitty, 1 per card to winner
  }}
  session {{ {session} }}
}}
""", "bet-probe.boodle")
