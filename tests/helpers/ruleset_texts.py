"""Hypothesis strategy for rules files built from every construct of the language.

:func:`ruleset_texts` draws a variant clause by clause: a deck (suits in any order, ace high
or low, cards removed), a board of every kind of section (boodle cards named or not, with or
without labels, boodles of trumps or drawn, sets fixed, of one suit or of trumps, a kitty, a
pot), antes of every payer and target, every deal line, a widow sale, an optional holding and
poker phase (with or without a betting round), and a stops phase of every lead rule, fallback,
going-out clause, penalty and stop bonus; a session of every end.  Written with the spellings
a person uses (``KC`` and ``K♣``, ``any suit``, extra spaces), so the printer's canonical
text differs from it.

Most drawn texts load; the others break a check of the builder (a lead that can find no card,
a section nothing pays …), and the tests using it skip them with ``assume``: Hypothesis'
health check fails a test where too few load.
"""

from __future__ import annotations

from hypothesis import strategies as st

SPLITS = ["share", "first seat", "lowest seat"]
"""The split rules of holding and poker phases (spec §8)."""

SUITS = ("♣", "♦", "♥", "♠")
LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
RANK_ORDERS = (
    ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
    ("7", "8", "9", "10", "J", "Q", "K", "A"),
)
LABELS = st.sampled_from(["Kitty", "The Pot", "pool", "Ace of hearts", "Ten", "x"])


def _card(draw: st.DrawFn, rank: str, suit: str) -> str:
    """A card in one of its text forms (spec §2.1)."""
    rank_text = "T" if rank == "10" and draw(st.booleans()) else rank
    return rank_text + (LETTER[suit] if draw(st.integers(0, 3)) == 0 else suit)


@st.composite
def ruleset_texts(draw: st.DrawFn) -> str:
    """The text of one rules file (``variant gen { … }``), most of them valid."""
    suits = draw(st.permutations(SUITS).map(lambda p: p[:3] if p[0] == "♠" else p))
    ranks = draw(st.sampled_from(RANK_ORDERS))
    deck_cards = [(r, s) for s in suits for r in ranks]
    removed = draw(st.lists(st.sampled_from(deck_cards), max_size=2, unique=True))
    cards = [c for c in deck_cards if c not in removed]
    out = ["variant gen {"]
    if draw(st.booleans()):
        out.append(f'  title "{draw(LABELS)}"')
    if draw(st.booleans()):
        out.append('  about "drawn by Hypothesis"')
    if draw(st.booleans()):
        out.append('  source "a.txt", "b.txt"')
    if draw(st.booleans()):
        out.append(f"  version {draw(st.integers(1, 3))}")
    low = draw(st.integers(2, 4))
    out.append(f"  players {low} to {draw(st.integers(low, 6))}")
    if draw(st.booleans()):
        out.append(f"  chips {draw(st.sampled_from(['whole', 'exact']))}")
    if draw(st.booleans()):
        out.append("  carry : unclaimed")
    deck = ["  deck {"]
    if suits != SUITS or draw(st.booleans()):
        deck.append("    suits " + " ".join(
            LETTER[s] if draw(st.booleans()) else s for s in suits))
    deck.append("    ranks " + " ".join(ranks))
    if removed:
        deck.append("    remove " + ", ".join(_card(draw, r, s) for r, s in removed))
    out += [*deck, "  }"]

    # ---- the deal first (the board's trumps need it), written after the board
    widow = draw(st.sampled_from(["last in each round", "first in each round", "none"]))
    trumps = widow != "none" and draw(st.booleans())
    # ---- board
    board: list[str] = []
    names: list[str] = []
    boodles: list[str] = []
    used: set[tuple[str, str]] = set()
    for i in range(draw(st.integers(1, 4))):
        rank, suit = draw(st.sampled_from(cards))
        if (rank, suit) in used:
            continue
        used.add((rank, suit))
        how = draw(st.integers(0, 5))
        label = f' "{draw(LABELS)}"' if draw(st.booleans()) else ""
        if how <= 2:
            board.append(f"boodle {_card(draw, rank, suit)}{label}")
            name = f"{rank}{suit}"
        elif how == 3:
            name = f"b{i}"
            board.append(f"boodle {name}{label} {_card(draw, rank, suit)}")
        elif how == 4 and trumps:
            name = f"t{i}"
            board.append(f"boodle {name}{label} {rank} of trumps")
        else:
            name = f"d{i}"
            board.append(f"boodle {name}{label} drawn from second pack")
        names.append(name)
        boodles.append(name)
    if draw(st.booleans()):
        picked = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=3, unique=True))
        kind = draw(st.integers(0, 2 if trumps else 1))
        label = f' "{draw(LABELS)}"' if draw(st.booleans()) else ""
        if kind == 0:
            board.append(f"set s{label} " + " ".join(_card(draw, r, s) for r, s in picked))
        else:
            picked_ranks = " ".join(dict.fromkeys(r for r, _ in picked))
            board.append(f"set s{label} {picked_ranks} "
                         + ("same suit" if kind == 1 else "of trumps"))
        names.append("s")
    kitty = draw(st.booleans())
    if kitty:
        kitty_name = draw(st.sampled_from(["kitty", "pool"]))
        label = f' "{draw(LABELS)}"' if draw(st.booleans()) else ""
        board.append(("kitty" if kitty_name == "kitty" else f"kitty {kitty_name}") + label)
        names.append(kitty_name)
    pot = draw(st.booleans())
    if pot:
        board.append("pot" + (' "Pot money"' if draw(st.booleans()) else ""))
        names.append("pot")
    out += ["  board {", *(f"    {line}" for line in board), "  }"]

    # ---- ante
    ante = []
    for _ in range(draw(st.integers(0, 3))):
        payers = ["each player", "each other player", "dealer"] + (
            ["widow"] if widow != "none" else [])
        payer = draw(st.sampled_from(payers))
        amount = draw(st.integers(0, 5))
        target = draw(st.integers(0, 3))
        if target == 0 and boodles:
            targets = "each boodle"
        elif target == 1:
            targets = "every section"
        elif target == 2 and boodles:
            targets = "chosen boodle"
        else:
            targets = ", ".join(draw(st.lists(st.sampled_from(names), min_size=1,
                                              max_size=3, unique=True)))
        ante.append(f"    {payer} {amount} on {targets}")
    if draw(st.integers(0, 3)) == 0:  # needs 'balance: eliminated at zero' to build
        stack = draw(st.sampled_from(["section by section", "as balance"]))
        ante.append(f"    short stack: {stack}")
    out += ["  ante {", *ante, "  }"]

    # ---- deal
    deal = []
    if draw(st.booleans()):
        deal.append("first dealer: high cut" if draw(st.booleans())
                    else f"first dealer: first {draw(st.sampled_from(ranks))} dealt")
    if draw(st.booleans()):
        deal.append(f"rotation: {draw(st.sampled_from(['left', 'right']))}")
    if draw(st.booleans()):
        deal.append(f"cut: player {draw(st.sampled_from(['left', 'right']))} of dealer")
    opts = [widow] if draw(st.booleans()) or widow != "last in each round" else []
    if draw(st.booleans()):
        opts.append(draw(st.sampled_from(["hidden", "exposed"])))
    if opts and widow != "none" and draw(st.integers(0, 3)) == 0:
        opts.append("blocks sets")  # needs a 'same suit' set to build
    if opts:
        deal.append("widow: " + ", ".join(opts))
    if trumps:
        deal.append("trumps: last card of widow")
        if draw(st.booleans()):
            deal.append("turn up: dealer takes its boodle")
    if draw(st.booleans()):
        deal.append("misdeal: " + draw(st.sampled_from(["same dealer, no new ante",
                                                        "reshuffle and redeal"])))
    out += ["  deal {", *(f"    {line}" for line in deal), "  }"]

    # ---- phases
    phases: list[str] = []
    earlier: list[str] = []
    pokers: list[str] = []
    holding_pays: list[str] = []
    paying = [n for n in names if n not in ("pot", "kitty", "pool") and not n.startswith("d")]
    if paying and draw(st.booleans()):
        holding_pays = draw(st.lists(st.sampled_from(paying), min_size=1, unique=True))
        label = ' "Holding"' if draw(st.booleans()) else ""
        phases += [f"  phase hold{label} is holding {{", "    pays: " + ", ".join(holding_pays)]
        if draw(st.booleans()):
            phases.append(f"    split: {draw(st.sampled_from(SPLITS))}")
        phases.append("  }")
        earlier.append("hold")
    if pot and draw(st.booleans()):
        phases += ["  phase showdown is poker {", "    pot: pot"]
        if draw(st.booleans()):
            phases.append(f"    best: {draw(st.integers(1, 5))} cards")
        if draw(st.booleans()):
            phases.append(f"    ace low straight: {draw(st.sampled_from(['yes', 'no']))}")
        if draw(st.booleans()):
            phases.append(f"    split: {draw(st.sampled_from(SPLITS))}")
        if draw(st.booleans()):  # a betting round (spec §8.3)
            bet = draw(st.integers(1, 3))
            phases.append(draw(st.sampled_from([f"    bets: {bet} chips", f"    bets: {bet} chip",
                                                f"    bets: up to {bet + 1} chips",
                                                "    bets: pot limit", "    bets: no limit"])))
            if draw(st.booleans()):
                phases.append(f"    raises: {draw(st.integers(0, 3))}")
            if draw(st.booleans()):
                phases.append(f"    opener: {draw(st.sampled_from(['dealer', 'left of dealer']))}")
            if draw(st.booleans()):
                phases.append(draw(st.sampled_from(["    blinds: 1 chip", "    blinds: 2 chips",
                                                    "    blinds: 1, 2 chips"])))
        phases.append("  }")
        earlier.append("showdown")
        pokers.append("showdown")

    def who(first: bool) -> str:
        options = ["left of dealer", "dealer", "holder"] + (
            [] if first else ["last player", "next player"]) + (
            ["winner of showdown"] if pokers else [])
        chosen = draw(st.sampled_from(options))
        if chosen == "holder":
            if draw(st.booleans()):
                return "holder of " + _card(draw, *draw(st.sampled_from(cards)))
            return f"holder of lowest {draw(st.sampled_from(suits))}"
        return chosen

    def choice(first: bool) -> str:
        per_suit = ["chosen suit", "any suit", "longest suit"] + (
            [] if first else ["other suit", "same suit", "opposite colour"])
        kind = draw(st.integers(0, 6))
        if kind <= 2:
            return f"lowest of {draw(st.sampled_from(per_suit))}"
        if kind == 3:
            return f"lowest {draw(st.sampled_from(suits))}"
        if kind == 4:
            return "lowest " + draw(st.sampled_from(["black ", "red ", ""])) + "card"
        if kind == 5:
            return "any card"
        return _card(draw, *draw(st.sampled_from(cards)))

    stops = [f"first lead: {who(True)}, {choice(True)}"]
    if draw(st.booleans()):
        stops.append("follow: " + draw(st.sampled_from(["owner of next card", "next in turn"])))
    stops.append("stop: top rank, next card held by nobody" if draw(st.booleans())
                 else "stop: next card held by nobody")
    stops.append(f"restart: {who(False)}, {choice(False)}")
    fallback = draw(st.integers(0, 4))
    passes = False
    if fallback == 1:
        stops.append("if none: lead " + draw(st.sampled_from(
            ["lowest of chosen suit", "lowest of same suit", "lowest of longest suit",
             "any card", "lowest card"])))
    elif fallback == 2:
        stops.append("if none: pass left")
        passes = True
    elif fallback == 3:
        stops.append(f"if none: pay {draw(st.integers(0, 3))} to "
                     f"{draw(st.sampled_from(names))}, pass left")
        passes = True
    elif fallback == 4:
        stops.append("if none: lead lowest of chosen suit")
    if passes or draw(st.integers(0, 3)) == 0:
        stops.append("all pass: " + draw(st.sampled_from(["deal ends without winner",
                                                          "flip colour"])))
    if draw(st.booleans()):
        stops.append("claims: " + draw(st.sampled_from(["on play", "on holding", "none"])))
    if draw(st.booleans()):
        clauses = []
        if draw(st.booleans()):
            clauses.append("ends deal")
        for name in draw(st.lists(st.sampled_from(names), max_size=2, unique=True)):
            if earlier and draw(st.booleans()):
                clauses.append(f"takes {name} unless taken in {draw(st.sampled_from(earlier))}")
            else:
                clauses.append(f"takes {name}")
        if draw(st.booleans()) or not clauses:
            to = draw(st.sampled_from(["winner", "kitty"] if kitty else ["winner"]))
            clauses.append(f"{draw(st.integers(0, 3))} per card to {to}")
        if draw(st.booleans()):
            clauses.append("holder of " + _card(draw, *draw(st.sampled_from(cards))) + " excused")
        stops.append("going out: " + ", ".join(clauses))
    for fault in draw(st.lists(st.sampled_from(["cannot lead", "lead not lowest"]),
                               max_size=2, unique=True)):
        payee = draw(st.sampled_from(["each opponent", *names]))
        forfeit = ", forfeit boodles" if draw(st.booleans()) else ""
        stops.append(f"penalty: {fault}, pay {draw(st.integers(1, 3))} to {payee}{forfeit}")
    if draw(st.booleans()):
        stops.append(f"stop bonus: {draw(st.integers(1, 3))} from "
                     f"{draw(st.sampled_from(['each opponent', *names]))}")
    label = ' "Stops"' if draw(st.booleans()) else ""
    phases += [f"  phase play{label} is stops {{", *(f"    {line}" for line in stops), "  }"]
    out += phases

    # ---- widow sale, after the phases it may name
    if widow != "none" and draw(st.integers(0, 3)) == 0:
        mode = draw(st.sampled_from(["sale", "auction"]))
        price = draw(st.integers(1 if mode == "sale" else 0, 4))
        sale = [f"offer: {mode} {draw(st.sampled_from(['seen', 'unseen']))}"
                + (f" at {price}" if price or draw(st.booleans()) else "")]
        sale.append("price to: " + draw(st.sampled_from(["dealer", *names])))
        if draw(st.booleans()):
            sale.append("dealer: may " + draw(st.sampled_from(["swap", "look and swap"]))
                        + draw(st.sampled_from(["", " first"])))
        if draw(st.booleans()):
            sale.append("dealer: may withhold")
        if mode == "auction" and draw(st.booleans()):  # spec §5.4: an auction's only
            sale.append("high bidder: may withdraw")
        if draw(st.booleans()):
            sale.append("barred: holding a boodle card")
        if draw(st.booleans()):
            sale.append("discard: " + draw(st.sampled_from(["becomes widow", "out of play"])))
        if draw(st.booleans()):
            sale.append(f"when: before phase {draw(st.sampled_from([*earlier, 'play']))}")
        out += ["  widow sale {", *(f"    {line}" for line in sale), "  }"]

    # ---- session
    session = []
    start = draw(st.integers(1, 60))
    if draw(st.booleans()):
        session.append(f"start: {start} chips")
    else:
        start = 50
    end = draw(st.integers(0, 5))
    if end == 1:
        n = draw(st.integers(1, 3))
        session.append(f"end: after {n} rotation" + ("s" if n != 1 or draw(st.booleans())
                                                     else ""))
    elif end == 2:
        session.append("end: when a player has no chips")
    elif end == 3:
        session.append("end: last player with chips")
    elif end == 4:
        session.append(f"end: a player reaches {start + draw(st.integers(1, 50))} chips")
        if draw(st.booleans()):
            session.append("end: after 2 rotations")
    elif end == 5:
        session.append("end: never")
    if draw(st.booleans()):
        session.append("leftover: " + draw(st.sampled_from(["split equally", "stays"])))
    if draw(st.booleans()):
        session.append("ties: " + draw(st.sampled_from(["share", "one more deal"])))
    if draw(st.booleans()):
        session.append("balance: " + draw(st.sampled_from(["may go negative",
                                                           "eliminated at zero"])))
    if draw(st.booleans()):
        session.append("seating: " + draw(st.sampled_from(["fixed", "redrawn each deal"])))
    out += ["  session {", *(f"    {line}" for line in session), "  }", "}"]
    return "\n".join(out) + "\n"
