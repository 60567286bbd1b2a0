"""The position notation: one line that says everything about a point in a deal.

What FEN is to chess.  Nine fields separated by spaces (full definition with
examples in ``conformance/FORMAT.md``)::

    4 D 9♦J♦5♠6♥/Q♦3♣/10♦2♥7♠4♣/8♣ * - - A 44,44,44,44 A♥=4,K♣=4,Q♦=4,J♠=4,kitty=8

1. players (an integer); 2. the dealer (a seat letter: A is seat 0, clockwise);
3. the hands, seat by seat, separated by ``/`` (``-`` for an empty hand);
4. the widow (``*``: every card of the deck not elsewhere; ``-``: none);
5. the cards played so far, in order, each after the letter of its player
   (``A9♦C10♦``); 6. the current run (``-`` when a lead is due); 7. the seat to
   move (``-`` once the deal is over), followed by ``+P`` when P passes were
   made since the last card was played; 8. each seat's chips, comma separated;
9. the board: ``section=chips`` in board order.

Version 2 adds optional fields after the nine, each ``key:value``, in this order, written
only when the state needs them (so a position of version 1 reads the same in both):
``drawn:CARDS`` the session's boodle cards drawn from a second pack, one per ``drawn from
second pack`` section in board order (spec §3); ``up:CARD`` the card turned up for trumps
(spec §5.2); ``elim:LETTERS`` the seats eliminated before the deal (spec §10);
``short:X=S+S…,…`` the seats short at the ante under ``short stack: section by section``,
each with the sections it anted (spec §4: it takes no other this deal; ``X=-`` for none);
``dealt:HANDS/WIDOW`` the hands and the widow as dealt, when a widow exchange has moved
cards since (cards in no other place are then out of play); ``pre:MOVES`` the moves made
before the stops phase, comma separated (``Bpass``, ``Cbuy``, ``Dswap``, ``Abid3``,
``Awithdraw``, ``Bstake=Q♦``).  A position may so stand before
the stops phase (a widow sale or a stake awaited: no card played yet).

Cards are written as in the rules language (``10♥``, ``TH``); amounts as
integers or ``a/b``.  :func:`parse` reads the text, :func:`to_state` checks
that the position can happen under a ruleset (every card in exactly one
place, a run of played cards, every played card a legal move when it was
played, the right seat to move) and builds the engine's state;
:func:`from_state` and :func:`format_position` go back.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, replace
from typing import Any

from boodle.conformance.engines import REFERENCE, Engine
from boodle.conformance.wire import chips_from_json
from boodle.engine.ledger import Ledger, chips_json
from boodle.engine.stages.antes import ante_targets
from boodle.engine.state import (
    BidMove,
    BuyMove,
    DealState,
    LeadMove,
    Move,
    OfferMove,
    PassMove,
    PlayMove,
    StakeMove,
    SwapMove,
    WithdrawMove,
)
from boodle.language.cards import Card, parse_card
from boodle.language.errors import BoodleError, Span
from boodle.language.model import Chips, Ruleset, StopsPhase
from boodle.session.second_pack import DRAWN, bind_drawn, unbound_sections

_CARD = r"(?:10|[2-9TJQKA])[♣♦♥♠CDHS]"
_CARDS = re.compile(rf"(?:{_CARD})+")
_ONE_CARD = re.compile(_CARD)
_PLAYED = re.compile(rf"(?:[A-T]{_CARD})+")
_ONE_PLAY = re.compile(rf"([A-T])({_CARD})")
_TO_MOVE = re.compile(r"([A-T]|-)(?:\+(\d+))?")
_AMOUNT = re.compile(r"-?\d+(?:/\d+)?")
_SECTION = re.compile(r"([^\s=,]+)=(-?\d+(?:/\d+)?)")
FIELDS = ("players", "dealer", "hands", "widow", "played", "run", "to move", "seats", "board")
EXTENSIONS = ("drawn", "up", "elim", "short", "dealt", "pre")
"""The optional fields of version 2, in the order written (``key:value``)."""
_SHORT_SEAT = re.compile(r"([A-T])=(-|[^\s=,+]+(?:\+[^\s=,+]+)*)")
_PRE_MOVE = re.compile(r"([A-T])(pass|buy|swap|offer|withdraw|bid(\d+)|stake=([^\s,=]+))")

_DUMMY_CHIPS = 10**6
"""Start balance of the scratch ledger used to replay the played cards (never shown)."""


class PositionError(BoodleError):
    """A position that is malformed or cannot happen; points at the field at fault."""


@dataclass(frozen=True)
class Position:
    """A parsed position (see the module docstring for the fields).

    ``widow`` is ``None`` for ``*``; ``to_move`` is ``None`` once the deal is
    over; ``passes`` counts passes since the last card was played.
    """

    players: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    widow: tuple[Card, ...] | None
    played: tuple[tuple[int, Card], ...]
    run: tuple[Card, ...]
    to_move: int | None
    passes: int
    seats: tuple[Chips, ...]
    board: tuple[tuple[str, Chips], ...]
    drawn: tuple[Card, ...] = ()
    """Version 2: the boodle cards drawn for the session, one per drawn section in board order
    (spec §3; the ruleset the position is played under binds them, :func:`bound_ruleset`)."""
    turn_up: Card | None = None
    """Version 2: the card turned up for trumps (it is the widow's last card as dealt)."""
    eliminated: tuple[int, ...] = ()
    """Version 2: the seats out of the deal (``balance: eliminated at zero``), ascending."""
    dealt: tuple[tuple[Card, ...], ...] | None = None
    """Version 2: each seat's hand as dealt, then the widow as dealt (``None``: what the
    hands, the widow and the played cards say)."""
    before_play: tuple[Move, ...] = ()
    """Version 2: the moves made before the stops phase, in order."""
    short: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Version 2: under ``short stack: section by section`` (spec §4), each seat that could
    not pay its whole ante (ascending), with the sections it anted, in board order: it takes
    no other section this deal."""


def seat_letter(seat: int) -> str:
    """``A`` for seat 0 … ``T`` for seat 19."""
    return chr(ord("A") + seat)


# ---------------------------------------------------------------- text → Position


class _Reader:
    """Field-by-field reader keeping each field's column for error carets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fields: list[tuple[int, str]] = [
            (m.start(), m.group()) for m in re.finditer(r"\S+", text)
        ]

    def error(self, index: int, message: str, hint: str | None = None,
              what: str | None = None) -> PositionError:
        """The error at field ``index`` (past the last: at the end of the text), named by its
        field, or ``what``."""
        col, field = self.fields[index] if index < len(self.fields) else (len(self.text), " ")
        span = Span("<position>", 1, col + 1, 1, col + 1 + len(field), self.text)
        what = what or (FIELDS[index] if index < len(FIELDS)
                        else field.partition(":")[0].strip() or "field")
        return PositionError(f"{what}: {message}", span, hint)

    def index_of(self, key: str) -> int:
        """The index of the version-2 field ``key`` (else the last field)."""
        for i, (_, field) in enumerate(self.fields):
            if i >= len(FIELDS) and field.startswith(key + ":"):
                return i
        return len(self.fields) - 1

    def cards(self, index: int, field: str) -> tuple[Card, ...]:
        if field == "-":
            return ()
        if not _CARDS.fullmatch(field):
            raise self.error(index, f"not a list of cards: {field!r}",
                             "write cards one after the other, like 9♦J♦10♠ or 9DJDTS")
        return tuple(parse_card(c) for c in _ONE_CARD.findall(field))

    def amount(self, index: int, text: str) -> Chips:
        try:
            return chips_from_json(int(text) if "/" not in text else text)
        except (BoodleError, ValueError):
            raise self.error(index, f"not a chip amount: {text!r}") from None


def _seat(reader: _Reader, index: int, letter: str, players: int) -> int:
    seat = ord(letter) - ord("A")
    if len(letter) != 1 or not 0 <= seat < players:
        raise reader.error(index, f"no seat {letter!r} among {players} players",
                           f"seats are A to {seat_letter(players - 1)}")
    return seat


def parse(text: str) -> Position:
    """Read a position; raises :class:`PositionError` pointing at a malformed field."""
    r = _Reader(text)
    if len(r.fields) < len(FIELDS):
        raise r.error(len(r.fields),
                      f"a position has {len(FIELDS)} fields, this one {len(r.fields)}",
                      "fields: " + ", ".join(FIELDS))
    f = [field for _, field in r.fields]
    if not f[0].isdigit() or not 2 <= int(f[0]) <= 20:
        raise r.error(0, f"the number of players is 2 to 20, not {f[0]!r}")
    players = int(f[0])
    dealer = _seat(r, 1, f[1], players)
    hands = tuple(r.cards(2, h) for h in f[2].split("/"))
    if len(hands) != players:
        raise r.error(2, f"{len(hands)} hands for {players} players")
    widow = None if f[3] == "*" else r.cards(3, f[3])
    if f[4] != "-" and not _PLAYED.fullmatch(f[4]):
        raise r.error(4, f"not a list of plays: {f[4]!r}",
                      "write each play as seat then card: A9♦C10♦")
    played = tuple((_seat(r, 4, s, players), parse_card(c)) for s, c in _ONE_PLAY.findall(f[4]))
    run = r.cards(5, f[5])
    m = _TO_MOVE.fullmatch(f[6])
    if not m:
        raise r.error(6, f"not a seat to move: {f[6]!r}", "a seat letter or -, then +P for passes")
    to_move = None if m.group(1) == "-" else _seat(r, 6, m.group(1), players)
    passes = int(m.group(2) or 0)
    amounts = f[7].split(",")
    if not all(_AMOUNT.fullmatch(a) for a in amounts) or len(amounts) != players:
        raise r.error(7, f"{players} chip amounts are needed, comma separated")
    seats = tuple(r.amount(7, a) for a in amounts)
    board = () if f[8] == "-" else tuple(_section(r, item) for item in f[8].split(","))
    base = Position(players, dealer, hands, widow, played, run, to_move, passes, seats, board)
    return _extensions(r, base, f[len(FIELDS):])


def _extensions(r: _Reader, pos: Position, fields: list[str]) -> Position:
    """The version-2 fields (``key:value``, in the order of :data:`EXTENSIONS`, each once)."""
    seen: list[str] = []
    changes: dict[str, Any] = {}  # DealState fields of version 2 (turn_up, eliminated, …)
    for k, field in enumerate(fields, start=len(FIELDS)):
        key, colon, value = field.partition(":")
        if not colon or key not in EXTENSIONS:
            raise r.error(k, f"not a field of a position: {field!r}",
                          "after the nine fields come only " + ", ".join(
                              f"{e}:…" for e in EXTENSIONS) + " (version 2)")
        if seen and EXTENSIONS.index(key) <= EXTENSIONS.index(seen[-1]):
            raise r.error(k, f"{key}: comes " + ("twice" if key in seen else
                                                 "before " + seen[-1]),
                          "the order is " + ", ".join(EXTENSIONS))
        seen.append(key)
        if key == "drawn":
            changes["drawn"] = r.cards(k, value)
        elif key == "up":
            cards = r.cards(k, value)
            if len(cards) != 1:
                raise r.error(k, f"one card is turned up, not {value!r}")
            changes["turn_up"] = cards[0]
        elif key == "elim":
            changes["eliminated"] = tuple(sorted({_seat(r, k, s, pos.players) for s in value}))
        elif key == "short":
            changes["short"] = _short_seats(r, k, value, pos.players)
        elif key == "dealt":
            groups = value.split("/")
            if len(groups) != pos.players + 1:
                raise r.error(k, f"{len(groups)} groups of cards: one hand per seat, then the "
                              f"widow ({pos.players + 1})")
            changes["dealt"] = tuple(r.cards(k, g) for g in groups)
        else:
            changes["before_play"] = tuple(_pre_move(r, k, m, pos.players)
                                           for m in value.split(","))
    return replace(pos, **changes)


def _short_seats(r: _Reader, index: int, value: str, players: int
                 ) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """``A=A♥+K♥,C=-``: each short seat with the sections it anted (ascending seats)."""
    out: dict[int, tuple[str, ...]] = {}
    for item in value.split(","):
        m = _SHORT_SEAT.fullmatch(item)
        if not m:
            raise r.error(index, f"not a short seat: {item!r}",
                          "a seat letter, =, then the sections it anted joined by +, or - "
                          "for none: short:A=A♥+K♥,C=-")
        seat = _seat(r, index, m.group(1), players)
        if seat in out:
            raise r.error(index, f"seat {m.group(1)} is written twice")
        names: list[str] = []
        for name in () if m.group(2) == "-" else m.group(2).split("+"):
            with contextlib.suppress(ValueError):
                name = str(parse_card(name))
            if name in names:
                raise r.error(index, f"{name} is written twice for seat {m.group(1)}")
            names.append(name)
        out[seat] = tuple(names)
    return tuple(sorted(out.items()))


def _pre_move(r: _Reader, index: int, text: str, players: int) -> Move:
    m = _PRE_MOVE.fullmatch(text)
    if not m:
        raise r.error(index, f"not a move before play: {text!r}",
                      "a seat letter, then pass, buy, swap, offer, withdraw, bidN or "
                      "stake=SECTION")
    seat = _seat(r, index, m.group(1), players)
    verb = m.group(2)
    if verb == "pass":
        return PassMove(seat)
    if verb == "buy":
        return BuyMove(seat)
    if verb == "swap":
        return SwapMove(seat)
    if verb == "offer":
        return OfferMove(seat)
    if verb == "withdraw":
        return WithdrawMove(seat)
    if m.group(3) is not None:
        return BidMove(seat, int(m.group(3)))
    name = m.group(4)
    with contextlib.suppress(ValueError):
        name = str(parse_card(name))
    return StakeMove(seat, name)


def _pre_text(move: Move) -> str:
    letter = seat_letter(move.seat)
    if isinstance(move, BidMove):
        return f"{letter}bid{move.amount}"
    if isinstance(move, StakeMove):
        return f"{letter}stake={move.section}"
    if isinstance(move, BuyMove):
        return f"{letter}buy"
    if isinstance(move, SwapMove):
        return f"{letter}swap"
    if isinstance(move, OfferMove):
        return f"{letter}offer"
    if isinstance(move, WithdrawMove):
        return f"{letter}withdraw"
    return f"{letter}pass"


def _section(reader: _Reader, item: str) -> tuple[str, Chips]:
    m = _SECTION.fullmatch(item)
    if not m:
        raise reader.error(8, f"not a section=chips item: {item!r}")
    name = m.group(1)
    with contextlib.suppress(ValueError):
        name = str(parse_card(name))
    return name, reader.amount(8, m.group(2))


# ---------------------------------------------------------------- Position → state


def to_state(ruleset: Ruleset, position: Position | str, engine: Engine = REFERENCE
             ) -> DealState:
    """The engine state ``position`` describes under ``ruleset``.

    Checks that the position can happen: the players and the board fit the
    ruleset; every card of the deck is in exactly one place (of ``dealt``, in version 2:
    then the cards in no place now are out of play); the run is the tail of the played
    cards; dealing the hands they came from (the ``up`` card last in the widow, the
    ``elim`` seats out), playing the moves before play, then the played cards (forced
    passes included) is legal move by move, and ends with the hands, the widow, the run
    and the seat to move the position gives, after ``passes`` passes.
    Raises :class:`PositionError` saying what is impossible.
    """
    text = position if isinstance(position, str) else format_position(position)
    pos = parse(position) if isinstance(position, str) else position
    r = _Reader(text)
    ruleset = _bound(r, ruleset, pos)
    if pos.players not in ruleset.players:
        raise r.error(0, f"{ruleset.name} is for {ruleset.players.low} to "
                      f"{ruleset.players.high} players, not {pos.players}")
    ledger = _ledger(r, ruleset, pos)
    widow = _check_cards(r, ruleset, pos)
    _check_run(r, ruleset, pos)
    scratch = _short_balances(r, ruleset, pos)
    state = _replay(r, ruleset, pos, widow, engine, scratch)
    played = engine.ruleset(ruleset)  # a mutant may ante otherwise: its short seats are its own
    if played.short_stack == ruleset.short_stack and _short_of(ruleset, state) != pos.short:
        raise r.error(r.index_of("short"), "the ante leaves "
                      f"{_short_text(_short_of(ruleset, state)) or 'no seat'} short, not "
                      f"{_short_text(pos.short) or 'none'} (spec §4)")
    return replace(state, ledger=ledger)


def bound_ruleset(ruleset: Ruleset, position: Position | str) -> Ruleset:
    """The rules ``position`` is played under: ``ruleset`` with the boodle cards of its
    ``drawn:`` field bound to the ``drawn from second pack`` sections (spec §3), or
    ``ruleset`` itself when it draws none.  Raises :class:`PositionError` when the cards do
    not fit the sections (one per section, cards of the deck, none twice), or are missing."""
    text = position if isinstance(position, str) else format_position(position)
    pos = parse(position) if isinstance(position, str) else position
    return _bound(_Reader(text), ruleset, pos)


def drawn_cards(ruleset: Ruleset) -> tuple[Card, ...]:
    """The cards bound to the drawn sections of ``ruleset``, in board order (none unbound)."""
    return tuple(s.cards[0] for s in ruleset.board if DRAWN[s.suit_rule] and s.cards)


def _bound(r: _Reader, ruleset: Ruleset, pos: Position) -> Ruleset:
    index = r.index_of("drawn")
    unbound = unbound_sections(ruleset)
    if unbound and not pos.drawn:
        raise r.error(len(r.fields), f"{ruleset.name} draws its boodle cards from a second "
                      "pack once per session (spec §3): the position names them, one for "
                      f"each of {', '.join(unbound)}", "add drawn:CARDS (version 2)", "drawn")
    if unbound:
        try:
            return bind_drawn(ruleset, pos.drawn)[0]
        except BoodleError as exc:
            raise r.error(index, exc.message) from None
    if pos.drawn and pos.drawn != drawn_cards(ruleset):
        now = "".join(map(str, drawn_cards(ruleset)))
        raise r.error(index, f"{ruleset.name} " + (f"has drawn {now}" if now else
                      "draws no boodle card from a second pack") + " (spec §3)")
    return ruleset


def _ledger(r: _Reader, ruleset: Ruleset, pos: Position) -> Ledger:
    names = tuple(s.name for s in ruleset.board)
    given = tuple(n for n, _ in pos.board)
    if given != names:
        raise r.error(8, f"the board is {', '.join(names) or '-'} in this order, "
                      f"not {', '.join(given) or '-'}")
    if any(a < 0 for _, a in pos.board):
        raise r.error(8, "a section never holds a negative amount (spec §9)")
    return Ledger(pos.seats, pos.board)


def _check_cards(r: _Reader, ruleset: Ruleset, pos: Position) -> tuple[Card, ...]:
    """Every deck card in exactly one place; returns the widow (``*`` expanded)."""
    deck = ruleset.deck.cards()
    in_deck = set(deck)
    seen: dict[Card, str] = {}
    places = [(2, f"hand {seat_letter(s)}", c) for s, h in enumerate(pos.hands) for c in h]
    places += [(3, "the widow", c) for c in pos.widow or ()]
    places += [(4, "played", c) for _, c in pos.played]
    for field, where, card in places:
        if card not in in_deck:
            raise r.error(field, f"{card} is not a card of the {ruleset.name} deck")
        if card in seen:
            raise r.error(field, f"{card} is in two places: {seen[card]} and {where}")
        seen[card] = where
    if pos.dealt is not None:  # version 2: cards in no place are out of play
        dealt = [c for group in pos.dealt for c in group]
        index = r.index_of("dealt")
        if sorted(map(str, dealt)) != sorted(map(str, deck)):
            raise r.error(index, "the hands and the widow as dealt must hold every card of "
                          "the deck once")
        return pos.widow if pos.widow is not None else tuple(c for c in deck if c not in seen)
    if pos.widow is not None:
        missing = [str(c) for c in deck if c not in seen]
        if missing:
            raise r.error(3, f"cards in no place: {' '.join(missing)}",
                          "write * for the widow to mean every card not elsewhere; a "
                          "widow exchange that put cards out of play needs dealt:… "
                          "(version 2)")
        return pos.widow
    return tuple(c for c in deck if c not in seen)


def _check_run(r: _Reader, ruleset: Ruleset, pos: Position) -> None:
    played = [c for _, c in pos.played]
    for card in pos.run:
        if card not in played:
            raise r.error(5, f"{card} is in the run but has not been played")
    if pos.run and tuple(played[-len(pos.run):]) != pos.run:
        raise r.error(5, "the run must be the last cards played, in the order played")
    for low, high in zip(pos.run, pos.run[1:], strict=False):
        if ruleset.deck.next_card(low) != high:
            raise r.error(5, f"{high} does not follow {low} in a run (spec §6.2)")


def _dues(ruleset: Ruleset, pos: Position, seat: int) -> dict[str, Chips]:
    """What the ante lines ask of ``seat`` this deal, per section (spec §4; under ``short stack:
    section by section`` every line is paid by a player, on fixed sections)."""
    dues: dict[str, Chips] = {}
    for line in ruleset.antes:
        pays = {"each player": True, "each other player": seat != pos.dealer,
                "dealer": seat == pos.dealer, "widow": False}[line.payer]
        if pays:
            for name in ante_targets(ruleset, line.targets):
                dues[name] = dues.get(name, 0) + line.amount
    return dues


def _short_balances(r: _Reader, ruleset: Ruleset, pos: Position) -> dict[int, Chips]:
    """The balance before the ante that makes each seat of ``short:`` short with the sections
    it anted (the largest such balance), checking that it can be: a short seat antes its dues
    section by section in board order, each in full, until the first it cannot pay (spec §4),
    so the sections it anted are the first of its dues in board order, and not all of them."""
    if not pos.short:
        return {}
    index = r.index_of("short")
    if ruleset.short_stack != "section by section":
        raise r.error(index, "a seat is short with the sections it anted only under 'short "
                      f"stack: section by section' (spec §4), and {ruleset.name} antes "
                      f"'{ruleset.short_stack}'")
    order = [s.name for s in ruleset.board]
    balances: dict[int, Chips] = {}
    for seat, anted in pos.short:
        letter = seat_letter(seat)
        if seat in pos.eliminated:
            raise r.error(index, f"seat {letter} is eliminated: it antes nothing and is not "
                          "short (spec §4, §10)")
        for name in anted:
            if name not in order:
                raise r.error(index, f"no section {name!r} on the board",
                              "the board is " + ", ".join(order))
        dues = sorted(_dues(ruleset, pos, seat).items(), key=lambda d: order.index(d[0]))
        paid = [name for name, _ in dues[:len(anted)]]
        if len(anted) >= len(dues):
            raise r.error(index, f"seat {letter} anted every section it owed: it is not short "
                          "(spec §4)", f"leave {letter} out of short:…")
        if sorted(anted, key=order.index) != paid:
            first = ", ".join(paid) or "none"
            raise r.error(index, f"seat {letter} cannot have anted {'+'.join(anted) or '-'}: "
                          "a short seat antes its sections in board order, each in full, "
                          "until the first it cannot pay (spec §4)",
                          f"its first {len(anted)} sections with a due are {first}")
        balance = sum((d for _, d in dues[:len(anted)]), start=0) + dues[len(anted)][1] - 1
        if balance <= 0:
            raise r.error(index, f"seat {letter} had no chip before the ante: it is eliminated "
                          "(elim:…), not short (spec §10)")
        balances[seat] = balance
    return balances


def _replay(r: _Reader, ruleset: Ruleset, pos: Position, widow: tuple[Card, ...],
            engine: Engine, short: dict[int, Chips] | None = None) -> DealState:
    """Deal the hands the cards came from, replay the moves before play (version 2), then the
    plays, passes forced.  ``short``: the balance each short seat starts the ante with (it
    antes just the sections ``short:`` says; every other seat has plenty)."""
    if pos.dealt is not None:
        dealt = [list(h) for h in pos.dealt[:-1]]
        widow = pos.dealt[-1]
    else:
        dealt = [list(h) for h in pos.hands]
        for seat, card in pos.played:
            dealt[seat].append(card)
    if pos.turn_up is not None:  # the widow's last card as dealt is the one turned up
        if pos.turn_up not in widow:
            raise r.error(r.index_of("up"), f"{pos.turn_up} is turned up from the widow, and "
                          "the widow as dealt does not hold it")
        widow = (*(c for c in widow if c != pos.turn_up), pos.turn_up)
    if any(not h for s, h in enumerate(dealt) if s not in pos.eliminated):
        raise r.error(2, "every player is dealt at least one card",
                      "a seat eliminated before the deal (balance: eliminated at zero) is "
                      "written in elim:… (version 2)")
    short = short or {}
    starts: list[Chips] = [0 if s in pos.eliminated else short.get(s, _DUMMY_CHIPS)
                           for s in range(pos.players)]
    for _ in range(len(pos.before_play) + pos.players + 1):
        state = _start(r, ruleset, pos, starts, dealt, widow, engine)
        state, repair = _replay_before_play(r, ruleset, pos, state, engine)
        if repair is None:
            break
        who, less = repair
        starts[who] -= less
    if not in_stops_phase(ruleset, state) and pos.played:
        raise r.error(4, f"the deal is in stage {state.stage}, before its stops phase: moves "
                      "before play are written in pre:… (version 2)")
    for k, (seat, card) in enumerate(pos.played):
        state = _forced_passes_until(r, ruleset, state, seat, engine)
        move: Move = LeadMove(seat, card) if state.step == "lead" else PlayMove(seat, card)
        state = _apply(r, 4, ruleset, state, move, f"play {k + 1} ({seat_letter(seat)}{card})",
                       engine)
    for k in range(pos.passes):
        state = _apply(r, 6, ruleset, state, PassMove(state.to_move or 0), f"pass {k + 1}",
                       engine)
    return _check_end(r, ruleset, pos, state)


def _forced_passes_until(r: _Reader, ruleset: Ruleset, state: DealState, seat: int,
                         engine: Engine) -> DealState:
    """Passes the played sequence implies: a seat that could only pass, before ``seat`` led."""
    for _ in range(2 * state.players + 1):
        mover = state.to_move
        if mover is None or state.step != "lead":
            return state
        legal = engine.legal(ruleset, state)
        if mover == seat and legal != (PassMove(mover),):
            return state
        if mover != seat and legal != (PassMove(mover),):
            raise r.error(4, f"{seat_letter(seat)} plays, but it was {seat_letter(mover)}'s "
                          "lead and they could lead (spec §6.5)")
        state = _apply(r, 4, ruleset, state, PassMove(mover), "a forced pass", engine)
    raise r.error(4, f"{seat_letter(seat)} plays after more passes than a deal allows")


def _start(r: _Reader, ruleset: Ruleset, pos: Position, starts: list[Chips],
           dealt: list[list[Card]], widow: tuple[Card, ...], engine: Engine) -> DealState:
    """The deal started from a scratch ledger whose seats hold ``starts``."""
    names = tuple(s.name for s in ruleset.board)
    scratch = Ledger(tuple(starts), tuple((n, 0) for n in names))
    try:
        state, _ = engine.start(ruleset, pos.players, pos.dealer, scratch,
                                hands=[tuple(h) for h in dealt], widow=widow)
    except BoodleError as exc:
        raise r.error(2, f"these hands cannot be dealt: {exc.message}") from None
    if set(state.out) != set(pos.eliminated):
        raise r.error(r.index_of("elim"), "seats are eliminated before a deal only under "
                      "'balance: eliminated at zero' (spec §10)")
    return state


def _replay_before_play(r: _Reader, ruleset: Ruleset, pos: Position, state: DealState,
                        engine: Engine) -> tuple[DealState, tuple[int, Chips] | None]:
    """Replay the moves before play; or, where a betting round (spec §8.3) shows that a seat
    had fewer chips than the scratch ledger gives it, the seat and how many chips less to
    start it with: a call of less than was owed is all in, and a seat the moves skip had no
    chip left (the position's own balances are set afterwards)."""
    for k, early in enumerate(pos.before_play):
        bets = state.bets
        if bets is not None and state.step != "over":
            mover = state.to_move
            balance = state.ledger.seat(mover) if mover is not None else 0
            if mover is not None and mover != early.seat and balance > 0:
                return state, (mover, balance)  # the seat to move was all in: skipped
            if (isinstance(early, BidMove) and early.seat == mover
                    and 0 < early.amount < bets.owed(mover) < balance):
                return state, (mover, balance - early.amount)  # an all-in call
        state = _apply(r, r.index_of("pre"), ruleset, state, early,
                       f"move {k + 1} before play ({_pre_text(early)})", engine)
    mover = state.to_move
    if (state.bets is not None and state.step != "over" and mover is not None
            and pos.to_move is not None and mover != pos.to_move and not pos.played
            and state.ledger.seat(mover) > 0):
        return state, (mover, state.ledger.seat(mover))  # all in: the position skips it
    return state, None


def _apply(r: _Reader, field: int, ruleset: Ruleset, state: DealState, move: Move, what: str,
           engine: Engine) -> DealState:
    if state.step == "over":
        raise r.error(field, f"{what}: the deal is already over")
    try:
        state, _ = engine.apply(ruleset, state, move)
    except BoodleError as exc:
        rule = f" [rule {exc.rule}]" if exc.rule else ""
        raise r.error(field, f"{what} is not a legal move there: {exc.message}{rule}") from None
    return state


def _check_end(r: _Reader, ruleset: Ruleset, pos: Position, state: DealState) -> DealState:
    over = state.step == "over"
    if pos.to_move is None and not over:
        raise r.error(6, f"the deal is not over: {seat_letter(state.to_move or 0)} is to move")
    if pos.to_move is not None and over:
        raise r.error(6, "the deal is over: nobody is to move (write -)")
    if pos.to_move is not None and state.to_move != pos.to_move:
        raise r.error(6, f"{seat_letter(state.to_move or 0)} is to move, not "
                      f"{seat_letter(pos.to_move)}")
    run = current_run(ruleset, state)
    if run != pos.run:
        now = "".join(map(str, run)) or "-"
        raise r.error(5, f"the run going on is {now}")
    if pos.dealt is not None:  # after an exchange, the hands and widow are where it put them
        for s, hand in enumerate(pos.hands):
            if set(hand) != set(state.hand(s)):
                raise r.error(2, f"hand {seat_letter(s)} is {_cards(state.hand(s))} after the "
                              "deal and the moves before play")
        if pos.widow is not None and set(pos.widow) != set(state.widow()):
            raise r.error(3, f"the widow is {_cards(state.widow())} after the deal and the "
                          "moves before play")
    return state


# ---------------------------------------------------------------- state → text


def in_stops_phase(ruleset: Ruleset, state: DealState) -> bool:
    """Whether ``state`` is in a stops phase or over (else in a stage before play: a stake
    awaited, a widow sale; version 2 of the notation describes those too)."""
    if state.step == "over":
        return True
    name = state.stage.removeprefix("phase:")
    return state.stage.startswith("phase:") and any(
        isinstance(p, StopsPhase) and p.name == name for p in ruleset.phases)


def current_run(ruleset: Ruleset, state: DealState) -> tuple[Card, ...]:
    """The cards of the run going on (empty when a lead is due or the deal is over).

    A lead is never the next card of the card before it (that card would have
    had to be played as a follow), so the run is the longest tail of the
    played cards in which each card is the next card of the one before.
    """
    if state.step != "follow":
        return ()
    played = [c for _, c in state.played()]
    run = [played[-1]]
    for card in reversed(played[:-1]):
        if ruleset.deck.next_card(card) != run[0]:
            break
        run.insert(0, card)
    return tuple(run)


def _dealt(state: DealState) -> tuple[tuple[Card, ...], ...] | None:
    """The hands and the widow as dealt, when they are not what the hands, the widow and the
    played cards of ``state`` say (a widow exchange moved cards); else ``None``."""
    places = state.dealt or state.to_deal  # before the deal (a stake awaited): to be dealt
    if not places:
        return None
    pairs = list(zip(state.cards, places, strict=True))
    hands = tuple(tuple(c for c, p in pairs if p.kind == "hand" and p.seat == s)
                  for s in range(state.players))
    widow = tuple(c for c, p in pairs if p.kind == "widow")
    played: list[list[Card]] = [[] for _ in range(state.players)]
    for seat, card in state.played():
        played[seat].append(card)
    same = all(set(hands[s]) == {*state.hand(s), *played[s]} for s in range(state.players))
    if same and set(widow) == set(state.widow()):
        return None
    return (*hands, widow)


def from_state(ruleset: Ruleset, state: DealState) -> Position:
    """The position of an engine state (hands and widow in deck order), in every stage: before
    the stops phase (a widow sale, a stake awaited), during it and once the deal is over;
    the fields of version 2 only where the state needs them."""
    playing = in_stops_phase(ruleset, state)
    passes = state.passes + (state.players if state.flipped else 0) if playing else 0
    return Position(
        players=state.players,
        dealer=state.dealer,
        hands=state.hands,
        widow=state.widow(),
        played=state.played(),
        run=current_run(ruleset, state),
        to_move=None if state.step == "over" else state.to_move,
        passes=passes,
        seats=state.ledger.seats,
        board=state.ledger.sections,
        turn_up=state.turn_up,
        eliminated=tuple(sorted(state.out)),
        dealt=_dealt(state),
        before_play=state.before_play,
        short=_short_of(ruleset, state),
        drawn=drawn_cards(ruleset),
    )


def _short_of(ruleset: Ruleset, state: DealState) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The short seats of ``state`` (spec §4), ascending, each with the sections it anted in
    board order."""
    order = [s.name for s in ruleset.board]
    return tuple((seat, tuple(n for n in order if n in anted))
                 for seat, anted in sorted(state.short, key=lambda item: item[0]))


def _short_text(short: tuple[tuple[int, tuple[str, ...]], ...]) -> str:
    """``A=A♥+K♥,C=-``: the value of the ``short:`` field."""
    return ",".join(f"{seat_letter(s)}={'+'.join(a) or '-'}" for s, a in short)


def _cards(cards: tuple[Card, ...]) -> str:
    return "".join(map(str, cards)) or "-"


def format_position(pos: Position) -> str:
    """The one-line text of a position (canonical card forms)."""
    widow = "*" if pos.widow is None else _cards(pos.widow)
    played = "".join(f"{seat_letter(s)}{c}" for s, c in pos.played) or "-"
    mover = "-" if pos.to_move is None else seat_letter(pos.to_move)
    mover += f"+{pos.passes}" if pos.passes else ""
    seats = ",".join(str(chips_json(a)) for a in pos.seats)
    board = ",".join(f"{n}={chips_json(a)}" for n, a in pos.board) or "-"
    hands = "/".join(_cards(h) for h in pos.hands)
    fields = [str(pos.players), seat_letter(pos.dealer), hands, widow, played,
              _cards(pos.run), mover, seats, board]
    if pos.drawn:
        fields.append("drawn:" + _cards(pos.drawn))
    if pos.turn_up is not None:
        fields.append(f"up:{pos.turn_up}")
    if pos.eliminated:
        fields.append("elim:" + "".join(seat_letter(s) for s in pos.eliminated))
    if pos.short:
        fields.append("short:" + _short_text(pos.short))
    if pos.dealt is not None:
        fields.append("dealt:" + "/".join(_cards(g) for g in pos.dealt))
    if pos.before_play:
        fields.append("pre:" + ",".join(_pre_text(m) for m in pos.before_play))
    return " ".join(fields)


def describe(ruleset: Ruleset, state: DealState) -> str:
    """The position of ``state`` as text."""
    return format_position(from_state(ruleset, state))
