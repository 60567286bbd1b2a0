"""Text → AST: parse a rules file with :func:`boodle.language.grammar.parser` and build its AST.

The grammar lives in ``grammar/boodle.lark`` (shipped as package data); the
parser and how it reads text are in :mod:`boodle.language.grammar`, what is said when
it stops (message, caret, hint) in :mod:`boodle.language.syntax_errors`.  The
AST is deliberately thin: a :class:`VariantDecl` is a list of keyed
:class:`Clause` items (``players``, ``board``, ``phase:play`` …), blocks hold
clauses of their own.  It holds no parser token: a name is a :class:`NameLit`,
a card a :class:`CardLit`, a suit or a rank a :class:`WordLit`, each with its
span; a clause of several parts is a typed dataclass (:class:`BoodleDecl`,
:class:`LeadDecl`, :class:`FallbackDecl` …, one per shape, no tuple whose layout
``syntax`` and ``build`` must agree on); everything else is a plain value.  Keys are what
``extends`` merges on (spec §11); the meaning of each clause is given by
:mod:`boodle.language.build`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput

from boodle.language.cards import Card, parse_card
from boodle.language.errors import Span
from boodle.language.grammar import (
    BOM,
    CURRENT_TEXT,
    EMOJI_STYLE,
    GluedKeyword,
    TooLarge,
    parser,
    token_span,
)
from boodle.language.syntax_errors import (
    check_not_empty,
    check_text,
    glued_error,
    syntax_error,
    too_large_error,
)

__all__ = ["AllPassDecl", "AnteDecl", "BlindsDecl", "BoodleDecl", "CardLit", "ChoiceDecl",
           "Clause", "DealerSwapDecl", "FallbackDecl", "FeeDecl", "FirstDealerDecl", "LeadDecl",
           "NameLit",
           "OfferDecl", "PenaltyDecl", "PerCardDecl", "PhaseDecl", "PlayersDecl", "PoolDecl",
           "SectionRef", "SetDecl", "StopBonusDecl", "TakesUnlessDecl", "TiesDecl", "VariantDecl",
           "WhoDecl", "WordLit", "parse", "parse_fragment"]


@dataclass(frozen=True)
class Clause:
    """One keyed statement.  ``value`` is a plain value, a literal (:class:`CardLit`,
    :class:`NameLit`, :class:`WordLit`), a typed clause value (:class:`LeadDecl` …), a tuple
    of those, or a nested tuple of clauses for blocks."""

    key: str
    value: Any
    span: Span = field(compare=False)


@dataclass(frozen=True)
class CardLit:
    """A card as written, with where it was written."""

    card: Card
    text: str
    span: Span = field(compare=False)


@dataclass(frozen=True)
class NameLit:
    """A name (section, phase or variant) as written."""

    name: str
    span: Span = field(compare=False)


@dataclass(frozen=True)
class WordLit:
    """A suit or a rank as written (``♥``, ``H``, ``10``, ``T``), with where it was written:
    the AST holds no parser token.  ``str()`` of it is the text as written."""

    text: str
    span: Span = field(compare=False)

    def __str__(self) -> str:
        return self.text


SectionRef = CardLit | NameLit
"""A section named by its name or, for a boodle, its card (``kitty``, ``A♥``)."""


@dataclass(frozen=True)
class PlayersDecl:
    """``players LOW to HIGH``."""

    low: int
    high: int


@dataclass(frozen=True)
class BoodleDecl:
    """A ``boodle`` line of the board: ``rule`` ``fixed`` (``item`` its card), ``trumps``
    (``item`` the rank, ``RANK of trumps``) or ``drawn`` (``drawn from second pack``, no
    item); ``name`` ``None`` for a boodle named by its card."""

    name: NameLit | None
    label: str | None
    rule: str
    item: CardLit | WordLit | None


@dataclass(frozen=True)
class SetDecl:
    """A ``set`` line of the board: ``rule`` ``fixed`` (``items`` its cards), ``same suit``
    or ``trumps`` (``items`` its ranks)."""

    name: NameLit
    label: str | None
    rule: str
    items: tuple[CardLit, ...] | tuple[WordLit, ...]


@dataclass(frozen=True)
class PoolDecl:
    """A ``kitty`` or ``pot`` line of the board (``name`` ``None``: the kind's own name)."""

    name: NameLit | None
    label: str | None


@dataclass(frozen=True)
class AnteDecl:
    """An ante line: ``payer`` (``each player``, ``dealer``, ``each other player``,
    ``widow``) puts ``amount`` chips on each target: a section, or a ``target`` clause
    (``each boodle``, ``every section``, ``chosen boodle``)."""

    payer: str
    amount: int
    targets: tuple[CardLit | NameLit | Clause, ...]


@dataclass(frozen=True)
class FirstDealerDecl:
    """``first dealer: high cut`` (``rank`` ``None``), or ``first RANK dealt``."""

    rule: str
    rank: WordLit | None = None


@dataclass(frozen=True)
class OfferDecl:
    """``offer: sale|auction seen|unseen [at N]`` (``price`` 0 when not written)."""

    mode: str
    seen: bool
    price: int


@dataclass(frozen=True)
class DealerSwapDecl:
    """``dealer: may [look and] swap [first]``."""

    may_look: bool
    first: bool


@dataclass(frozen=True)
class WhoDecl:
    """Who leads (before the comma of a lead rule): ``kind`` as the builder reads it
    (``holder``: ``arg`` the card; ``holder of lowest``: ``arg`` the suits of the walk;
    ``phase winner``: ``arg`` the phase's name; else no ``arg``)."""

    kind: str
    arg: CardLit | NameLit | tuple[str, ...] | None = None


@dataclass(frozen=True)
class ChoiceDecl:
    """What may be led: ``choice`` ``lowest``, ``any`` or ``card``; ``scope`` (a
    :data:`~boodle.language.model.Scope`); ``arg`` the suit of ``lowest SUIT`` or the card
    of an exact lead."""

    choice: str
    scope: str
    arg: CardLit | str | None = None


@dataclass(frozen=True)
class TiesDecl:
    """``ties by …``: ``rule`` a :data:`~boodle.language.model.TieBreak`; ``suits`` the order
    of ``ties by suit order``."""

    rule: str
    suits: tuple[str, ...] = ()


@dataclass(frozen=True)
class LeadDecl:
    """A lead rule (``first lead:``, ``restart:``): who, what, and how ties are settled."""

    who: WhoDecl
    choice: ChoiceDecl
    ties: TiesDecl | None = None


@dataclass(frozen=True)
class FeeDecl:
    """``pay N to SECTION [if able]`` of an ``if none: …, pass left``."""

    amount: int
    to: SectionRef
    if_able: bool


@dataclass(frozen=True)
class FallbackDecl:
    """``if none:``: ``kind`` ``lead`` (``lead`` what is led), ``pass`` or ``pay and pass``
    (``fee``)."""

    kind: str
    lead: ChoiceDecl | None = None
    fee: FeeDecl | None = None


@dataclass(frozen=True)
class AllPassDecl:
    """``all pass:``: ``rule`` and, for ``deal ends without winner, N per card to SECTION``,
    the ``charge`` and where it goes (``to``)."""

    rule: str
    charge: int = 0
    to: SectionRef | None = None


@dataclass(frozen=True)
class TakesUnlessDecl:
    """``takes SECTION unless taken in PHASE`` of a ``going out`` line."""

    section: SectionRef
    phase: NameLit


@dataclass(frozen=True)
class PerCardDecl:
    """``N per card to winner|kitty`` (``to``), or ``N per card into SECTION`` (``into``)."""

    amount: int
    to: str | None = None
    into: SectionRef | None = None


@dataclass(frozen=True)
class PenaltyDecl:
    """``penalty: FAULT, pay N to PAYEE[, forfeit boodles]`` (``to``: a section or ``each
    opponent``)."""

    fault: str
    amount: int
    to: SectionRef | str
    forfeit: bool


@dataclass(frozen=True)
class StopBonusDecl:
    """``stop bonus: N from SOURCE`` (a section or ``each opponent``)."""

    amount: int
    source: SectionRef | str


@dataclass(frozen=True)
class BetsDecl:
    """``bets: N chips`` (``limit`` ``fixed``), ``bets: up to N chips`` (``up to``),
    ``bets: pot limit`` or ``bets: no limit`` in a poker phase (spec §8.3): ``amount`` chips
    a bet or raise adds (at most, for ``up to``; 0 for the pot and no limits, whose sizes
    come from the pot and the balance)."""

    limit: str
    amount: int


@dataclass(frozen=True)
class BlindsDecl:
    """``blinds: N chips`` or ``blinds: N, M chips`` in a poker phase (spec §8.3): the
    ``first`` blind (the opener's) and the ``second`` (the next player's; ``None``: one
    blind), in chips."""

    first: int
    second: int | None = None

    def amounts(self) -> tuple[int, ...]:
        """The blinds in posting order, in chips."""
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class PhaseDecl:
    """``phase NAME "label" is KIND { rules }``: rules keyed for merging."""

    name: str
    label: str | None
    kind: str
    rules: tuple[Clause, ...]
    span: Span = field(compare=False)


@dataclass(frozen=True)
class VariantDecl:
    """One parsed ``variant NAME [extends BASE] { … }`` before resolution."""

    name: str
    base: NameLit | None
    items: tuple[Clause, ...]
    span: Span = field(compare=False)
    source: str = field(default="", compare=False, repr=False)


def parse(text: str, file: str = "<string>") -> VariantDecl:
    """Parse one rules file into a :class:`VariantDecl`.

    Raises :class:`BoodleError` with file, line, column, caret and hint on
    any syntax error, and for a file over :data:`~boodle.language.grammar.MAX_SOURCE_BYTES`.  A byte
    order mark (U+FEFF) at the very start is not part of the text and is
    dropped, so columns count as an editor shows them (spec §11.1).
    """
    text = text.removeprefix(BOM)
    check_text(text, file)
    check_not_empty(text, file)
    token = CURRENT_TEXT.set(text)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, file) from None
    except GluedKeyword as exc:
        raise glued_error(exc.token, text, file) from None
    except TooLarge as exc:
        raise too_large_error(exc.token, text, file) from None
    finally:
        CURRENT_TEXT.reset(token)
    decl = _ToAst(file, text).transform(tree)
    assert isinstance(decl, VariantDecl)
    return decl


def parse_fragment(text: str, start: str) -> Tree[Token]:
    """Parse a fragment (a ``card``, a ``section`` line, a ``lead_rule``) alone."""
    token = CURRENT_TEXT.set(text)
    try:
        return parser(start).parse(text)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, "<fragment>", start) from None
    except GluedKeyword as exc:
        raise glued_error(exc.token, text, "<fragment>", start) from None
    except TooLarge as exc:
        raise too_large_error(exc.token, text, "<fragment>") from None
    finally:
        CURRENT_TEXT.reset(token)


# ---------------------------------------------------------------- tree → AST


def _span_of(meta: Any, file: str, text: str) -> Span:
    if getattr(meta, "empty", True):
        return Span(file, 1, 1, 1, 2, text)
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column, text)


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """One method per grammar alias; an unhandled alias is a programming error."""

    def __init__(self, file: str, text: str) -> None:
        super().__init__()
        self.file = file
        self.text = text

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
        raise AssertionError(f"grammar rule {data!r} has no AST method")

    # helpers
    def _s(self, meta: Any) -> Span:
        return _span_of(meta, self.file, self.text)

    def _c(self, key: str, value: Any, meta: Any) -> Clause:
        return Clause(key, value, self._s(meta))

    def _name(self, tok: Token) -> NameLit:
        return NameLit(str(tok), token_span(tok, self.file, self.text))

    def _word(self, tok: Token) -> WordLit:
        return WordLit(str(tok), token_span(tok, self.file, self.text))

    @staticmethod
    def _label(children: list[Any]) -> str | None:
        return next((c for c in children if isinstance(c, _Label)), _Label(None)).text

    # top level
    def start(self, meta: Any, c: list[Any]) -> Any:
        return c[0]

    def variant(self, meta: Any, c: list[Any]) -> VariantDecl:
        base = c[1] if len(c) > 1 and isinstance(c[1], NameLit) else None
        items = tuple(x for x in c[1:] if isinstance(x, Clause))
        return VariantDecl(str(c[0]), base, items, self._s(meta), self.text)

    def extends(self, meta: Any, c: list[Any]) -> NameLit:
        return self._name(c[0])

    def title(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("title", _unquote(c[0]), meta)

    def about(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("about", _unquote(c[0]), meta)

    def sources(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("sources", tuple(_unquote(t) for t in c), meta)

    def version(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("version", int(c[0]), meta)

    def players(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("players", PlayersDecl(int(c[0]), int(c[1])), meta)

    def chips(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("chips", str(c[0]), meta)

    def carry(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("carry", str(c[0]), meta)

    def without_phase(self, meta: Any, c: list[Any]) -> Clause:
        return self._c(f"without:{c[0]}", self._name(c[0]), meta)

    # deck
    def deck(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("deck", tuple(c), meta)

    def suits(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("suits", tuple(self._word(t) for t in c), meta)

    def ranks(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ranks", tuple(self._word(t) for t in c), meta)

    def remove(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("remove", tuple(c), meta)

    # cards and names
    def card(self, meta: Any, c: list[Any]) -> CardLit:
        tok = c[0]
        text = str(tok).replace(EMOJI_STYLE, "")  # spec §11.1: ♥ + U+FE0F is ♥
        return CardLit(parse_card(text), text, token_span(tok, self.file, self.text))

    def section_ref(self, meta: Any, c: list[Any]) -> CardLit | NameLit:
        return c[0] if isinstance(c[0], CardLit) else self._name(c[0])

    def label(self, meta: Any, c: list[Any]) -> _Label:
        return _Label(_unquote(c[0]))

    # board
    def board(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("board", tuple(c), meta)

    def boodle_card(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", BoodleDecl(None, self._label(c), "fixed", c[0]), meta)

    def boodle_named(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", BoodleDecl(self._name(c[0]), self._label(c), "fixed", c[-1]),
                       meta)

    def boodle_trump(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", BoodleDecl(self._name(c[0]), self._label(c), "trumps",
                                            self._word(c[-1])), meta)

    def boodle_drawn(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("boodle", BoodleDecl(self._name(c[0]), self._label(c), "drawn", None),
                       meta)

    def card_set(self, meta: Any, c: list[Any]) -> Clause:
        rule, items = c[-1]
        return self._c("set", SetDecl(self._name(c[0]), self._label(c), rule, items), meta)

    def set_fixed(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return ("fixed", tuple(c))

    def set_same_suit(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return ("same suit", tuple(self._word(t) for t in c))

    def set_trumps(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return ("trumps", tuple(self._word(t) for t in c))

    def kitty(self, meta: Any, c: list[Any]) -> Clause:
        name = next((self._name(t) for t in c if isinstance(t, Token)), None)
        return self._c("kitty", PoolDecl(name, self._label(c)), meta)

    def pot(self, meta: Any, c: list[Any]) -> Clause:
        name = next((self._name(t) for t in c if isinstance(t, Token)), None)
        return self._c("pot", PoolDecl(name, self._label(c)), meta)

    # ante
    def ante(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ante", tuple(c), meta)

    def ante_line(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ante_line", AnteDecl(c[0], int(c[1]), tuple(c[2:])), meta)

    def short_stack_sections(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("short_stack", "section by section", meta)

    def short_stack_balance(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("short_stack", "as balance", meta)

    def each_player(self, meta: Any, c: list[Any]) -> str:
        return "each player"

    def each_other_player(self, meta: Any, c: list[Any]) -> str:
        return "each other player"

    def dealer(self, meta: Any, c: list[Any]) -> str:
        return "dealer"

    def widow_share(self, meta: Any, c: list[Any]) -> str:
        return "widow"

    def each_boodle(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("target", "each boodle", meta)

    def every_section(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("target", "every section", meta)

    def chosen_boodle(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("target", "chosen boodle", meta)

    # deal
    def deal(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("deal", tuple(c), meta)

    def first_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("first_dealer", FirstDealerDecl("high cut"), meta)

    def first_dealer_dealt(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("first_dealer", FirstDealerDecl("first dealt", self._word(c[0])), meta)

    def rotation(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("rotation", str(c[0]), meta)

    def cut(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("cut", f"player {c[0]} of dealer", meta)

    def widow(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("widow", tuple(c), meta)

    def widow_last(self, meta: Any, c: list[Any]) -> str:
        return "last"

    def widow_first(self, meta: Any, c: list[Any]) -> str:
        return "first"

    def widow_none(self, meta: Any, c: list[Any]) -> str:
        return "none"

    def widow_hidden(self, meta: Any, c: list[Any]) -> str:
        return "hidden"

    def widow_exposed(self, meta: Any, c: list[Any]) -> str:
        return "exposed"

    def widow_blocks_sets(self, meta: Any, c: list[Any]) -> str:
        return "blocks sets"

    def widow_qualifies_nobody(self, meta: Any, c: list[Any]) -> str:
        return "qualifies nobody"

    def trumps(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("trumps", "last widow card", meta)

    def turn_up_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("turn_up", "dealer takes boodle", meta)

    def misdeal(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("misdeal", c[0], meta)

    def misdeal_same_dealer(self, meta: Any, c: list[Any]) -> str:
        return "same dealer, no new ante"

    def misdeal_reshuffle(self, meta: Any, c: list[Any]) -> str:
        return "reshuffle and redeal"

    # widow sale
    def widow_sale(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("widow_sale", tuple(c), meta)

    def offer(self, meta: Any, c: list[Any]) -> Clause:
        price = int(c[2]) if len(c) > 2 else 0
        return self._c("offer", OfferDecl(str(c[0]), str(c[1]) == "seen", price), meta)

    def price_to(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("price_to", c[0], meta)

    def price_to_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("price_to", "dealer", meta)

    def dealer_swap(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", DealerSwapDecl(may_look=False, first=False), meta)

    def dealer_swap_first(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", DealerSwapDecl(may_look=False, first=True), meta)

    def dealer_look_swap(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", DealerSwapDecl(may_look=True, first=False), meta)

    def dealer_look_swap_first(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_swap", DealerSwapDecl(may_look=True, first=True), meta)

    def dealer_withhold(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("dealer_withhold", True, meta)

    def high_bidder(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("high_bidder", "may be withdrawn", meta)

    def barred(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("barred", True, meta)

    def discard(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("discard", c[0], meta)

    def sale_before(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("when", self._name(c[0]), meta)

    def discard_widow(self, meta: Any, c: list[Any]) -> str:
        return "becomes widow"

    def discard_out(self, meta: Any, c: list[Any]) -> str:
        return "out of play"

    # phases
    def phase(self, meta: Any, c: list[Any]) -> Clause:
        kind, rules = c[-1]
        decl = PhaseDecl(str(c[0]), self._label(c), kind, tuple(rules), self._s(meta))
        return Clause(f"phase:{c[0]}", decl, self._s(meta))

    def stops_phase(self, meta: Any, c: list[Any]) -> tuple[str, list[Any]]:
        return ("stops", c)

    def holding_phase(self, meta: Any, c: list[Any]) -> tuple[str, list[Any]]:
        return ("holding", c)

    def poker_phase(self, meta: Any, c: list[Any]) -> tuple[str, list[Any]]:
        return ("poker", c)

    def first_lead(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("first_lead", c[0], meta)

    def follow_owner(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("follow", "owner", meta)

    def follow_turn(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("follow", "turn", meta)

    def stop(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("stop", tuple(c), meta)

    def stop_top(self, meta: Any, c: list[Any]) -> str:
        return "top rank"

    def stop_unheld(self, meta: Any, c: list[Any]) -> str:
        return "next card held by nobody"

    def restart(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("restart", c[0], meta)

    def lead_rule(self, meta: Any, c: list[Any]) -> Clause:
        ties = c[2] if len(c) > 2 else None
        return self._c("lead_rule", LeadDecl(c[0], c[1], ties), meta)

    def ties_chosen(self, meta: Any, c: list[Any]) -> TiesDecl:
        return TiesDecl("chosen")

    def ties_suit_order(self, meta: Any, c: list[Any]) -> TiesDecl:
        return TiesDecl("suit order", tuple(_suit(s) for s in c))

    def ties_hand_order(self, meta: Any, c: list[Any]) -> TiesDecl:
        return TiesDecl("hand order")

    def who_left_of_dealer(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("left of dealer")

    def who_dealer(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("dealer")

    def who_holder(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("holder", c[0])

    def who_holder_lowest(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("holder of lowest", tuple(_suit(s) for s in c))

    def who_last_player(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("last player")

    def who_next_player(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("next player")

    def who_phase_winner(self, meta: Any, c: list[Any]) -> WhoDecl:
        return WhoDecl("phase winner", self._name(c[0]))

    def lowest_of(self, meta: Any, c: list[Any]) -> ChoiceDecl:
        return ChoiceDecl("lowest", c[0])

    def lowest_card(self, meta: Any, c: list[Any]) -> ChoiceDecl:
        return ChoiceDecl("lowest", str(c[0]) if c else "all")

    def lowest_opposite_card(self, meta: Any, c: list[Any]) -> ChoiceDecl:
        return ChoiceDecl("lowest", "opposite colour card")

    def lowest_suit(self, meta: Any, c: list[Any]) -> ChoiceDecl:
        return ChoiceDecl("lowest", "suit", _suit(c[0]))

    def any_card(self, meta: Any, c: list[Any]) -> ChoiceDecl:
        return ChoiceDecl("any", "all")

    def exact_card(self, meta: Any, c: list[Any]) -> ChoiceDecl:
        return ChoiceDecl("card", "all", c[0])

    def colour_scope(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def scope_chosen(self, meta: Any, c: list[Any]) -> str:
        return "chosen suit"

    def scope_longest(self, meta: Any, c: list[Any]) -> str:
        return "longest suit"

    def scope_other(self, meta: Any, c: list[Any]) -> str:
        return "other suit"

    def scope_same(self, meta: Any, c: list[Any]) -> str:
        return "same suit"

    def scope_opposite(self, meta: Any, c: list[Any]) -> str:
        return "opposite colour"

    def fallback(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("fallback", c[0], meta)

    def fallback_lead(self, meta: Any, c: list[Any]) -> FallbackDecl:
        return FallbackDecl("lead", lead=c[0])

    def fallback_pass(self, meta: Any, c: list[Any]) -> FallbackDecl:
        return FallbackDecl("pass")

    def fallback_pay_pass(self, meta: Any, c: list[Any]) -> FallbackDecl:
        return FallbackDecl("pay and pass", fee=FeeDecl(int(c[0]), c[1], if_able=False))

    def fallback_pay_if_able(self, meta: Any, c: list[Any]) -> FallbackDecl:
        return FallbackDecl("pay and pass", fee=FeeDecl(int(c[0]), c[1], if_able=True))

    def all_pass(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("all_pass", c[0], meta)

    def all_pass_end(self, meta: Any, c: list[Any]) -> AllPassDecl:
        return AllPassDecl("end without winner")

    def all_pass_end_charged(self, meta: Any, c: list[Any]) -> AllPassDecl:
        return AllPassDecl("end without winner", int(c[0]), c[1])

    def all_pass_flip(self, meta: Any, c: list[Any]) -> AllPassDecl:
        return AllPassDecl("flip colour")

    def claims_on_play(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("claims", "on play", meta)

    def claims_on_holding(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("claims", "on holding", meta)

    def claims_none(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("claims", "none", meta)

    def going_out(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("going_out", tuple(c), meta)

    def out_ends(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ends", True, meta)

    def out_takes(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("takes", c[0], meta)

    def out_takes_unless(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("takes_unless", TakesUnlessDecl(c[0], self._name(c[1])), meta)

    def out_per_card(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("per_card", PerCardDecl(int(c[0]), to=str(c[1])), meta)

    def out_per_card_into(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("per_card_into", PerCardDecl(int(c[0]), into=c[1]), meta)

    def out_excused(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("excused", c[0], meta)

    def penalty(self, meta: Any, c: list[Any]) -> Clause:
        forfeit = len(c) > 3
        return self._c(f"penalty:{c[0]}", PenaltyDecl(c[0], int(c[1]), c[2], forfeit), meta)

    def fault_cannot_lead(self, meta: Any, c: list[Any]) -> str:
        return "cannot lead"

    def fault_not_lowest(self, meta: Any, c: list[Any]) -> str:
        return "lead not lowest"

    def each_opponent(self, meta: Any, c: list[Any]) -> str:
        return "each opponent"

    def payee(self, meta: Any, c: list[Any]) -> Any:
        return c[0]

    def stop_bonus(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("stop_bonus", StopBonusDecl(int(c[0]), c[1]), meta)

    def stop_bonus_none(self, meta: Any, c: list[Any]) -> Clause:
        """``stop bonus: none``: no bonus, replacing a base phase's (spec §6.7)."""
        return self._c("stop_bonus", None, meta)

    def pays(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("pays", tuple(c), meta)

    def split_rule(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("split", c[0], meta)

    def split_share(self, meta: Any, c: list[Any]) -> str:
        return "share"

    def split_first_seat(self, meta: Any, c: list[Any]) -> str:
        return "first seat"

    def split_lowest_seat(self, meta: Any, c: list[Any]) -> str:
        return "lowest seat"

    def poker_pot(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("pot", c[0], meta)

    def poker_best(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("best", int(c[0]), meta)

    def poker_ace_low(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ace_low_straight", str(c[0]) == "yes", meta)

    def poker_bets_fixed(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("bets", BetsDecl("fixed", int(c[0])), meta)

    def poker_bets_capped(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("bets", BetsDecl("up to", int(c[0])), meta)

    def poker_bets_pot_limit(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("bets", BetsDecl("pot limit", 0), meta)

    def poker_bets_no_limit(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("bets", BetsDecl("no limit", 0), meta)

    def poker_raises(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("raises", int(c[0]), meta)

    def poker_blinds(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("blinds", BlindsDecl(*(int(x) for x in c)), meta)

    def poker_opener_dealer(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("opener", "dealer", meta)

    def poker_opener_left(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("opener", "left of dealer", meta)

    # session
    def session(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("session", tuple(c), meta)

    def start_chips(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("start", int(c[0]), meta)

    def end_rotations(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_rotations", int(c[0]), meta)

    def end_broke(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_broke", True, meta)

    def end_last_player(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_last", True, meta)

    def end_target(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_target", int(c[0]), meta)

    def end_never(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("end_never", True, meta)

    def leftover_split(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("leftover", "split equally", meta)

    def leftover_stays(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("leftover", "stays", meta)

    def ties_share(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ties", "share", meta)

    def ties_more_deal(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("ties", "one more deal", meta)

    def balance_negative(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("balance", "allowed", meta)

    def balance_eliminate(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("balance", "eliminate", meta)

    def seating_fixed(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("seating", "fixed", meta)

    def seating_redrawn(self, meta: Any, c: list[Any]) -> Clause:
        return self._c("seating", "redrawn each deal", meta)


@dataclass(frozen=True)
class _Label:
    text: str | None


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


def _suit(tok: Token) -> str:
    from boodle.language.cards import canonical_suit

    return canonical_suit(str(tok).replace(EMOJI_STYLE, ""))
