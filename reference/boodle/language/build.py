"""Syntax tree → validated :class:`~boodle.language.model.Ruleset` (spec §11).

Two steps, each small: :func:`~boodle.language.extends.resolve` (in
:mod:`boodle.language.extends`, with finding and reading the files) merges a
variant with the chain of variants it ``extends`` (keyed clauses; spec §11.2),
then :func:`build` (:class:`_Builder`)
turns the merged clauses into the model and checks what the grammar cannot:
every section, card and phase referred to exists, cards are in the deck,
player ranges are possible, and every rule that could loop or block has its
exit written down.  Every failure is a :class:`~boodle.language.errors.BoodleError`
pointing at the clause at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

from boodle.language import model as m
from boodle.language.cards import SUITS, Card, canonical_rank, canonical_suit
from boodle.language.errors import BoodleError, Hint, Span, did_you_mean, line_added, rewritten
from boodle.language.extends import (
    MAX_EXTENDS,
    Resolved,
    Resolver,
    _no_duplicates,
    default_resolver,
    dropped_lines,
    read_rules_file,
    resolve,
)
from boodle.language.kind_facts import (
    BALANCE_FACTS,
    BET_LIMIT_FACTS,
    CLAIM_FACTS,
    END_FACTS,
    HIGH_BID_FACTS,
    PAYER_FACTS,
    SCOPE_FACTS,
    SHORT_STACK_FACTS,
    TIE_FACTS,
    WIDOW_SETS_FACTS,
)
from boodle.language.origin import CLAUSE_OF, Origin, field_spans
from boodle.language.problems import (
    Problem,
    ProblemKey,
    ante_out_of_range,
    card_missing,
    first_lead_problems,
    hand_problems,
    kitty_missing,
    missing_from_deck,
    named_twice,
    paid_twice,
    phase_problems,
    rank_missing,
    section_missing,
    trump_problems,
    unclaimed_problems,
    widow_sets_problems,
)
from boodle.language.syntax import (
    AllPassDecl,
    AnteDecl,
    BetsDecl,
    BlindsDecl,
    BoodleDecl,
    CardLit,
    Clause,
    DealerSwapDecl,
    FallbackDecl,
    LeadDecl,
    NameLit,
    OfferDecl,
    PenaltyDecl,
    PhaseDecl,
    PlayersDecl,
    PoolDecl,
    SetDecl,
    StopBonusDecl,
    TiesDecl,
    WordLit,
    parse,
)

__all__ = ["MAX_AMOUNT", "MAX_ANTE_LINES", "MAX_EXTENDS", "MAX_PHASES", "MAX_PLAYERS",
           "MAX_SECTIONS", "Resolved", "Resolver", "build", "default_resolver", "dropped_lines",
           "load_file", "load_text", "read_rules_file", "resolve"]

MAX_PLAYERS = 20
MAX_AMOUNT = 1_000_000
"""Antes, prices, start chips and every other chip amount above this are refused (spec §11.3)."""
MAX_SECTIONS = 64
"""Board sections per variant (spec §11.3)."""
MAX_PHASES = 16
"""Phases per variant (spec §11.3)."""
MAX_ANTE_LINES = 64
"""Lines of one ante block (spec §11.3)."""
MAX_RAISES = 100
"""The raise cap of a poker phase's betting round (``raises: N``) is at most this (spec §11.3)."""

_T = TypeVar("_T")


# ---------------------------------------------------------------- entry points


def load_text(text: str, file: str, resolver: Resolver | None = None) -> m.Ruleset:
    """Parse, resolve ``extends`` and validate one variant given as text.

    Raises :class:`BoodleError` for any syntax or semantic fault.
    """
    decl = parse(text, file)
    here = Path(file).parent if file and not file.startswith("<") else None
    return build(resolve(decl, resolver or default_resolver, here))


def load_file(path: str | Path, resolver: Resolver | None = None) -> m.Ruleset:
    """:func:`load_text` on a file; a missing or unreadable file is a BoodleError."""
    p = Path(path)
    return load_text(read_rules_file(p), str(p), resolver)



# ---------------------------------------------------------------- building


def build(resolved: Resolved) -> m.Ruleset:
    """Turn merged clauses into a validated Ruleset (raises BoodleError).

    Every independent error is found in one run (:meth:`_Builder.ruleset`): the
    first is raised, the others are its ``more``.  An error found in a base file's
    text is caused by what the extending file replaced (a smaller deck, a board
    without the kitty): :func:`_blame` points it at the extending file.  The ruleset keeps
    its :class:`~boodle.language.origin.Origin`: the span of each line that states a field,
    and ``resolved`` (its base, resolved alone, included), so nothing downstream reads the
    text again.
    """
    try:
        ruleset = _Builder(resolved).ruleset()
    except BoodleError as exc:
        first = _blame(resolved, BoodleError(exc.message, exc.span, exc.hint, exc.rule,
                                             exc.notes))
        seen = {(first.message, first.span)}
        more = []
        for other in (_blame(resolved, e) for e in exc.more):
            if (other.message, other.span) not in seen:  # two base lines, one change to blame
                seen.add((other.message, other.span))
                more.append(other)
        raise first.with_more(more) from None
    return replace(ruleset, origin=Origin(field_spans(ruleset, resolved.items), resolved))


_DOCUMENTATION = ("title", "about", "sources", "version")


def _replaced_what(clause: Clause) -> str:
    """How a note names an item of the extending file: ``the deck is replaced``."""
    key = clause.key
    if key.startswith("without:"):
        return f"phase {key.split(':', 1)[1]} is removed"
    if key.startswith("phase:"):
        return f"phase {key.split(':', 1)[1]} is changed"
    what = {"players": "the players line", "chips": "the chips line", "carry": "the carry line",
            "widow_sale": "the widow sale", "ante": "the ante block",
            "deal": "the deal block", "session": "the session block"}.get(key, f"the {key}")
    return f"{what} is replaced"


def _deck_word(value: object) -> str:
    """A suit or rank of a deck line as written (a card literal's text, a token's)."""
    return str(getattr(value, "card", value))


def _blame(resolved: Resolved, exc: BoodleError) -> BoodleError:
    """``exc`` re-pointed at the extending file when it was found in a base file.

    Every rule of the base was valid in the base, so the fault is one of the
    items the extending file wrote.  With one such item the error is reported
    at it and the base's line becomes a note; with several, each gets a note
    ("the deck is replaced at t19.boodle:2:3").  Errors already in the
    extending file, and files that extend nothing, are left as they are.
    """
    own = [c for c in resolved.own if c.key not in _DOCUMENTATION]
    if exc.span is None or not own or exc.span.file == resolved.span.file:
        return exc
    try:
        _Builder(Resolved(resolved.base or "", None, resolved.base_items, exc.span)).ruleset()
    except BoodleError:
        return exc  # the base is at fault on its own
    base_line = re.sub(r'\s+#[^"]*$', "", exc.span.source_line()).strip()
    where = f"{exc.span}" + (f" ({base_line})" if base_line else "")
    if len(own) > 1:
        culprits = [c for c in own if _causes(resolved, c, exc)]
        own = culprits if len(culprits) == 1 else own
    if len(own) == 1:
        (clause,) = own
        return BoodleError(
            f"{exc.message} (in the base, after this file's change)",
            clause.span, exc.hint, exc.rule,
            (*exc.notes, f"{_replaced_what(clause)} here; the base's rule at {where} "
             "no longer fits it"),
            edits=(),  # an edit the hint names is of the base's text, not of this file
        )
    notes = [f"{_replaced_what(c)} at {c.span}" for c in own]
    return BoodleError(exc.message, exc.span, exc.hint, exc.rule,
                       (*exc.notes, *notes,
                        f"the base was valid as written; one of {resolved.name}'s changes "
                        "above is the cause"))


def _causes(resolved: Resolved, clause: Clause, exc: BoodleError) -> bool:
    """Whether the extending file's item ``clause`` alone, applied to the base, makes the
    base's error ``exc`` (the same message at the same place): when a file changes several
    items, the one to blame."""
    merged = {c.key: c for c in resolved.items}
    items = {c.key: c for c in resolved.base_items}
    if clause.key in merged:
        items[clause.key] = merged[clause.key]
    elif clause.key.startswith("without:"):  # 'without phase NAME' removes phase NAME
        items.pop("phase:" + clause.key.split(":", 1)[1], None)
    try:
        _Builder(Resolved(resolved.name, resolved.base, tuple(items.values()),
                          resolved.span)).ruleset()
    except BoodleError as found:
        return any((e.message, e.span) == (exc.message, exc.span)
                   for e in (found, *found.more))
    return False


class _Builder:
    """One method per block; each validates what it reads."""

    def __init__(self, resolved: Resolved) -> None:
        self.r = resolved
        self.items = {item.key: item for item in resolved.items}
        self.deck: m.Deck | None = None
        self.board: tuple[m.Section, ...] = ()
        self.no_widow = False
        self.poker_names: set[str] = set()
        self.phase_names: list[str] = []
        self.claims_none: Clause | None = None

    # -- helpers
    def need(self, key: str, example: str) -> Clause:
        if key not in self.items:
            raise BoodleError(
                f"variant {self.r.name} has no '{key}' block or line",
                self.r.span,
                hint=_adding(f"add one, for example: {example}", self.r.span, example),
            )
        return self.items[key]

    def section_names(self) -> list[str]:
        return [s.name for s in self.board]

    def section_ref(self, ref: CardLit | NameLit, kinds: Iterable[str] | None = None,
                    key: ProblemKey = "a section not on the board") -> str:
        """The name of the board's section ``ref`` names; refused at the name as
        :func:`~boodle.language.problems.section_missing` says (``key``: which problem of
        that list it is), or when the section is not of one of ``kinds``."""
        name = str(ref.card) if isinstance(ref, CardLit) else ref.name
        _refuse_one(section_missing(key, name, self.board, ref.span))
        found = next(s for s in self.board if s.name == name)
        allowed = tuple(kinds or ())
        if allowed and found.kind not in allowed:
            fitting = [s.name for s in self.board if s.kind in allowed]
            raise BoodleError(
                f"section '{name}' is a {found.kind}; here it must be a "
                + " or ".join(allowed),
                ref.span,
                hint=(f"name one of: {', '.join(fitting)}" if fitting else
                      f"add a {' or '.join(allowed)} to the board and name it here"),
            )
        return name

    def in_deck(self, lit: CardLit, what: str) -> Card:
        """The card ``lit`` names, refused at it when the deck lacks it
        (:func:`~boodle.language.problems.card_missing`)."""
        assert self.deck is not None
        _refuse_one(card_missing(lit.card, self.deck, what, lit.span))
        return lit.card

    # -- the whole
    def ruleset(self) -> m.Ruleset:
        """The validated Ruleset.  Each block is checked even when an earlier one failed,
        unless it depends on it (the board on the deck; the phases and the antes on the
        board; the trumps and the widow sale on the deal): then only its presence is
        checked.  Raises the first :class:`BoodleError` found, in the file's block order,
        with every other one as its ``more``."""
        errors: list[BoodleError] = []

        def attempt(step: Callable[[], _T]) -> _T | None:
            try:
                return step()
            except BoodleError as exc:
                errors.append(exc)
                return None

        def present(key: str, example: str) -> None:
            attempt(lambda: self.need(key, example))

        players = attempt(self.players)
        self.deck = attempt(self.deck_spec)
        board = attempt(self.board_spec) if self.deck is not None else None
        if self.deck is None:
            present("board", "board { boodle A♥  kitty }")
        self.board = board or ()
        deal = attempt(self.deal_spec) if self.deck is not None else None
        if self.deck is None:
            present("deal", "deal { widow: last in each round }")
        self.no_widow = deal is not None and deal.widow_position == "none"
        if deal is not None and board is not None:
            attempt(lambda: _refuse(trump_problems(deal, self.board, self.at)))
            attempt(lambda: _refuse(widow_sets_problems(deal, self.board, self.at)))
        phases = attempt(self.phases) if board is not None else None
        claims_none = self.claims_none
        if claims_none is not None and phases is not None and deal is not None:
            checked_phases, checked_deal = phases, deal
            attempt(lambda: _refuse(unclaimed_problems(
                checked_phases, self.board, checked_deal, lambda owner, name: claims_none.span)))
        if players is not None and deal is not None:
            deck = self.deck
            assert deck is not None  # a deal is read only from a deck
            attempt(lambda: _refuse(hand_problems(players, deck, deal, self.at)))
        antes = attempt(self.antes) if board is not None and deal is not None else None
        if board is None or deal is None:
            present("ante", "ante { each player 1 on each boodle }")
        sale = (attempt(lambda: self.widow_sale(deal))
                if deal is not None and board is not None and phases is not None else None)
        session = attempt(self.session)
        short = (attempt(lambda: self.short_stack(antes, session))
                 if antes is not None and session is not None else None)
        if errors:
            raise errors[0].with_more(errors[1:])
        assert players is not None and deal is not None and phases is not None
        assert antes is not None and session is not None and self.deck is not None
        return m.Ruleset(
            name=self.r.name,
            title=self.text("title", self.r.name),
            about=self.text("about", ""),
            sources=tuple(self.items["sources"].value) if "sources" in self.items else (),
            version=int(self.items["version"].value) if "version" in self.items else 1,
            base=self.r.base,
            players=players,
            deck=self.deck,
            board=self.board,
            antes=antes,
            deal=deal,
            widow_sale=sale,
            phases=phases,
            session=session,
            chips=cast(Any, self.items["chips"].value) if "chips" in self.items else "whole",
            carry="unclaimed",
            short_stack=short or "as balance",
            span=self.r.span,
        )

    def text(self, key: str, default: str) -> str:
        return str(self.items[key].value) if key in self.items else default

    # -- players
    def players(self) -> m.PlayerRange:
        clause = self.need("players", "players 3 to 8")
        players: PlayersDecl = clause.value
        low, high = players.low, players.high
        if low < 2:
            raise BoodleError(
                f"players {low} to {high}: a stops game needs at least 2 players",
                clause.span,
                hint="write players 3 to 8, say",
            )
        if low > high:
            raise BoodleError(
                f"players {low} to {high}: the range is empty",
                clause.span,
                hint=f"did you mean players {high} to {low}?",
            )
        if high > MAX_PLAYERS:
            raise BoodleError(
                f"players {low} to {high}: at most {MAX_PLAYERS} players are supported",
                clause.span,
                hint=f"write players {low} to {MAX_PLAYERS} at most",
            )
        return m.PlayerRange(low, high)

    # -- deck (spec §2)
    def deck_spec(self) -> m.Deck:
        clause = self.need("deck", "deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }")
        _no_duplicates(clause.value, "in the deck block")
        lines = {line.key: line for line in clause.value}
        suits = tuple(SUITS)
        if "suits" in lines:
            suits = self.unique(
                [canonical_suit(str(t).replace("\ufe0f", "")) for t in lines["suits"].value],
                lines["suits"], "suit",
            )
        if "ranks" not in lines:
            raise BoodleError(
                "the deck has no rank order",
                clause.span,
                hint=self.base_deck_hint(lines)
                or "add a line like: ranks 2 3 4 5 6 7 8 9 10 J Q K A  (low to high)",
            )
        ranks = self.unique(
            [canonical_rank(str(t)) for t in lines["ranks"].value], lines["ranks"], "rank"
        )
        if len(ranks) < 2:
            raise BoodleError("a deck needs at least two ranks", lines["ranks"].span,
                              hint="list the ranks low to high: ranks 2 3 4 5 6 7 8 9 10 J Q K A")
        removed: set[Card] = set()
        for lit in lines["remove"].value if "remove" in lines else ():
            if lit.card.rank not in ranks or lit.card.suit not in suits:
                raise BoodleError(f"cannot remove {lit.card}: it is not in the deck", lit.span,
                                  hint=missing_from_deck(lit.card, suits, ranks))
            if lit.card in removed:
                raise BoodleError(f"{lit.card} is removed twice", lit.span,
                                  hint=f"name {lit.card} once: delete this one")
            removed.add(lit.card)
        return m.Deck(suits, ranks, frozenset(removed), clause.span)

    def base_deck_hint(self, lines: dict[str, Clause]) -> str | None:
        """For a house rule's ``deck`` block without ``ranks``: that the block replaces the
        base's whole deck block (spec §11.2), and the base's own lines it lacks (its rank
        order: an ace-low base stays ace-low).  ``None`` for a variant that extends nothing.
        """
        base = next((c for c in self.r.base_items if c.key == "deck"), None)
        if self.r.base is None or base is None:
            return None
        missing = [line for line in base.value if line.key not in lines]
        shown = [f"{line.key} " + " ".join(_deck_word(v) for v in line.value)
                 for line in missing if line.key in ("suits", "ranks")]
        if not shown:
            return None
        return (f"a deck block replaces the whole deck block of {self.r.base}: add its own "
                f"line{'s' if len(shown) > 1 else ''}: {' and '.join(shown)}  (ranks low to high)")

    @staticmethod
    def unique(values: list[str], clause: Clause, what: str) -> tuple[str, ...]:
        seen: set[str] = set()
        for value, word in zip(values, clause.value, strict=True):
            if value in seen:
                raise BoodleError(f"{what} {value} appears twice", word.span,
                                  hint=f"list each {what} once: delete this {value}")
            seen.add(value)
        return tuple(values)

    # -- board (spec §3)
    def board_spec(self) -> tuple[m.Section, ...]:
        clause = self.need("board", "board { boodle A♥  kitty }")
        _at_most(clause, len(clause.value), MAX_SECTIONS, "sections on the board")
        sections: list[m.Section] = []
        for entry in clause.value:
            section = self.section(entry)
            clash = next((s for s in sections if s.name == section.name), None)
            if clash is not None:
                raise BoodleError(
                    f"section '{section.name}' is on the board twice",
                    entry.span,
                    hint="give one of them another name",
                    notes=(f"first defined at {clash.span}",),
                )
            _refuse_one(paid_twice(section, sections))
            sections.append(section)
        kinds = [s.kind for s in sections]
        if kinds.count("kitty") > 1:
            raise BoodleError("the board has more than one kitty", clause.span,
                              hint="keep one kitty; another section can be a pot, a boodle or "
                              "a set")
        return tuple(sections)

    def section(self, entry: Clause) -> m.Section:
        key, value, span = entry.key, entry.value, entry.span
        if isinstance(value, BoodleDecl):
            name_lit, label, rule, item = value.name, value.label, value.rule, value.item
            if rule == "fixed":
                assert isinstance(item, CardLit)
                card = self.in_deck(item, "boodle card")
                name = name_lit.name if name_lit else str(card)
                return m.Section(name, label or str(card), "boodle", (card,), (), "fixed", span)
            if rule == "trumps":
                assert isinstance(item, WordLit) and name_lit is not None
                rank = self.rank_in_deck(item, span)
                return m.Section(name_lit.name, label or name_lit.name, "boodle", (), (rank,),
                                 "trumps", span)
            assert name_lit is not None
            return m.Section(name_lit.name, label or name_lit.name, "boodle", (), (), "drawn", span)
        if isinstance(value, SetDecl):
            name_lit, label, rule, items = value.name, value.label, value.rule, value.items
            if rule == "fixed":
                cards = tuple(self.in_deck(lit, "set card") for lit in items
                              if isinstance(lit, CardLit))
                made = m.Section(name_lit.name, label or name_lit.name, "set", cards, (),
                                 "fixed", span)
            else:
                ranks = tuple(self.rank_in_deck(tok, span) for tok in items
                              if isinstance(tok, WordLit))
                made = m.Section(name_lit.name, label or name_lit.name, "set", (), ranks,
                                 cast(m.SuitRule, rule), span)
            _refuse_one(named_twice(made))
            return made
        pool: PoolDecl = value
        name_lit, label = pool.name, pool.label
        default = "kitty" if key == "kitty" else "pot"
        name = name_lit.name if name_lit else default
        return m.Section(name, label or name.capitalize(), cast(m.SectionKind, key), span=span)

    def rank_in_deck(self, word: WordLit, span: Span) -> str:
        """The rank ``word`` names, refused at ``span`` when the deck lacks it
        (:func:`~boodle.language.problems.rank_missing`)."""
        assert self.deck is not None
        rank = canonical_rank(str(word))
        _refuse_one(rank_missing(rank, self.deck, span))
        return rank

    # -- antes (spec §4)
    def antes(self) -> tuple[m.AnteLine, ...]:
        clause = self.need("ante", "ante { each player 1 on each boodle }")
        _at_most(clause, len(clause.value), MAX_ANTE_LINES, "lines in the ante block")
        lines = []
        for line in clause.value:
            if line.key == "short_stack":
                continue  # read by short_stack()
            ante: AnteDecl = line.value
            # the grammar admits only the four payers (spec §4), so the word is a Payer
            payer, amount, targets = cast(m.Payer, ante.payer), ante.amount, ante.targets
            _refuse_one(ante_out_of_range(amount, line.span))
            names: list[str] = []
            chosen = any(isinstance(t, Clause) and t.value == "chosen boodle" for t in targets)
            if chosen and len(targets) > 1:
                raise BoodleError("'chosen boodle' must be the only target of its ante line",
                                  line.span, hint="put the other targets on a line of their own")
            if PAYER_FACTS[payer].for_widow and self.no_widow:
                raise BoodleError("an ante for the widow, but the deal has no widow", line.span,
                                  hint="give the deal a widow (widow: last in each round) "
                                  "or delete this line")
            named_by: dict[str, CardLit | NameLit | Clause] = {}
            for target in targets:
                expanded = (self.expand_target(target) if isinstance(target, Clause)
                            else [self.section_ref(target)])
                for name in expanded:
                    if name in named_by:  # spec §4: a line names each section once
                        raise BoodleError(
                            f"this ante line names section '{name}' twice",
                            target.span,
                            hint="a line pays each of its sections once; to pay a section "
                            "more, raise the amount or write a second line "
                            f"(e.g. '{payer} {amount} on {name}')",
                            notes=(f"'{name}' is already named at {named_by[name].span}",),
                        )
                    named_by[name] = target
                names.extend(expanded)
            lines.append(m.AnteLine(payer, amount, tuple(names), chosen,
                                    line.span))
        return tuple(lines)

    def short_stack(self, antes: tuple[m.AnteLine, ...], session: m.SessionSpec
                    ) -> m.ShortStack:
        """The ante block's ``short stack:`` line (spec §4; default ``as balance``), checked
        against the facts of its rule: ``section by section`` needs ``balance: eliminated at
        zero`` and dues known before the ante (no ``chosen boodle`` line, no ``widow`` payer).
        Errors point at the line."""
        said = [c for c in self.items["ante"].value if c.key == "short_stack"]
        if not said:
            return "as balance"
        if len(said) > 1:
            raise BoodleError("the ante block has two 'short stack' lines", said[1].span,
                              hint="keep one", notes=(f"the first is at {said[0].span}",))
        line = said[0]
        rule: m.ShortStack = line.value
        facts = SHORT_STACK_FACTS[rule]
        if facts.needs_elimination and not BALANCE_FACTS[session.negative].eliminates:
            raise BoodleError(
                f"'short stack: {rule}', but balances may go negative: every player can pay "
                "the whole ante", line.span,
                hint="add 'balance: eliminated at zero' to the session block "
                     "(physical chips), or delete this line")
        if facts.fixed_dues:
            for ante in antes:
                what = ("a 'chosen boodle' stake" if ante.chosen
                        else "an ante on the widow's behalf" if PAYER_FACTS[ante.payer].for_widow
                        else None)
                if what is not None:
                    raise BoodleError(
                        f"'short stack: {rule}' cannot be paid with {what}: a short player's "
                        "dues are paid in board order, fixed before the ante", line.span,
                        hint="delete the 'short stack' line, or that ante line",
                        notes=(f"the ante line is at {ante.span}",))
        return rule

    def expand_target(self, target: Clause) -> list[str]:
        if target.value == "every section":
            return self.section_names()
        boodles = [s.name for s in self.board if s.kind == "boodle"]
        if not boodles:
            raise BoodleError(f"'{target.value}': the board has no boodle section", target.span,
                              hint="add a boodle to the board, or name the sections to pay")
        return boodles

    # -- deal (spec §5)
    def deal_spec(self) -> m.DealSpec:
        clause = self.need("deal", "deal { widow: last in each round }")
        fields: dict[str, Any] = {"span": clause.span}
        _no_duplicates((c for c in clause.value if c.key != "widow"), "in the deal block")
        for line in clause.value:
            if line.key == "widow":
                for opt in line.value:
                    slot = ("widow_visibility" if opt in ("hidden", "exposed")
                            else "widow_sets" if opt in WIDOW_SETS_FACTS else "widow_position")
                    if slot in fields and fields[slot] != opt:
                        raise BoodleError(
                            f"widow: '{opt}' contradicts '{fields[slot]}'", line.span,
                            hint=f"keep one of '{fields[slot]}' and '{opt}'",
                        )
                    fields[slot] = opt
            elif line.key == "first_dealer" and line.value.rank is None:
                fields["first_dealer"] = line.value.rule
            elif line.key == "first_dealer":
                fields["first_dealer"] = "first dealt"  # spec §5.1: the first RANK dealt face up
                rank = self.rank_in_deck(line.value.rank, line.span)
                assert self.deck is not None
                if not any(c.rank == rank for c in self.deck.cards()):
                    raise BoodleError(f"'first dealer: first {rank} dealt': the deck has no {rank}",
                                      line.span, hint="name a rank with a card left in the deck")
                fields["first_dealer_rank"] = rank
            else:
                slot = {"rotation": "rotation", "cut": "cut", "trumps": "trumps",
                        "turn_up": "turn_up", "misdeal": "misdeal"}[line.key]
                fields[slot] = line.value
        return m.DealSpec(**fields)

    def at(self, owner: str, name: str) -> Span | None:
        """Where a field of the ruleset (``Ruleset``) or of the deal (``DealSpec``) is
        written, from the clauses (as :attr:`Origin.spans` says it once built), or ``None``."""
        if owner == "Ruleset":
            clause = self.items.get(CLAUSE_OF.get((owner, name), name))
            return clause.span if clause is not None else None
        key = CLAUSE_OF.get((owner, name), name)
        block = self.items.get("deal") if owner == "DealSpec" else None
        lines = block.value if block is not None else ()
        return next((c.span for c in lines if isinstance(c, Clause) and c.key == key), None)

    def widow_sale(self, deal: m.DealSpec) -> m.WidowSale | None:
        clause = self.items.get("widow_sale")
        if clause is None:
            return None
        if deal.widow_position == "none":
            raise BoodleError("a widow sale needs a widow", clause.span,
                              hint="set 'widow: last in each round' in the deal block")
        lines = {line.key: line for line in clause.value}
        if "offer" not in lines:
            # spec §5.4: 'high bidder' needs an auction, so the example offer is one
            offer_line = ("offer: auction unseen at 2" if "high_bidder" in lines
                          else "offer: sale unseen at 2")
            raise BoodleError("the widow sale has no offer line", clause.span,
                              hint=_adding(f"add, for example: {offer_line}",
                                           clause.span, offer_line))
        _no_duplicates(clause.value, "in the widow sale")
        offer: OfferDecl = lines["offer"].value
        mode, seen, price = offer.mode, offer.seen, offer.price
        if mode == "sale" and price == 0:
            raise BoodleError("a widow sale needs a price", lines["offer"].span,
                              hint="write, for example: offer: sale unseen at 2")
        if price > MAX_AMOUNT:
            raise BoodleError(f"a price of {price} chips is too large", lines["offer"].span,
                              hint=f"chip amounts are at most {MAX_AMOUNT:,}")
        kitty = next((s.name for s in self.board if s.kind == "kitty"), None)
        to_dealer = "price_to" in lines and lines["price_to"].value == "dealer"
        price_to = (self.section_ref(lines["price_to"].value) if "price_to" in lines
                    and not to_dealer else kitty)
        if price_to is None and not to_dealer:
            raise BoodleError("the widow sale says nowhere for the price to go", clause.span,
                              hint=_adding("add: price to: kitty  (or: price to: dealer)",
                                           clause.span, "price to: kitty"))
        swap: DealerSwapDecl = (lines["dealer_swap"].value if "dealer_swap" in lines
                                else DealerSwapDecl(may_look=False, first=False))
        look, first = swap.may_look, swap.first
        high_bid = self.high_bid(lines, mode, seen, price)
        return m.WidowSale(
            mode=cast(Any, mode), price=price, seen=seen,
            price_to="dealer" if to_dealer else price_to or "",
            dealer_swap="dealer_swap" in lines,
            dealer_may_look=look,
            to_dealer=to_dealer,
            dealer_first=first,
            dealer_may_withhold="dealer_withhold" in lines,
            high_bid=high_bid,
            barred_by_boodle="barred" in lines,
            discard=lines["discard"].value if "discard" in lines else "becomes widow",
            before=self.sale_before(lines.get("when")),
            span=clause.span,
        )

    def high_bid(self, lines: dict[str, Clause], mode: str, seen: bool,
                 price: int) -> m.HighBid:
        """The widow sale's ``high bidder:`` line (spec §5.4; default ``binds``), checked
        against the facts of its rule: ``may withdraw`` needs ``offer: auction``.  The error
        points at the line; its hint rewrites the offer line as an auction."""
        if "high_bidder" not in lines:
            return "binds"
        line = lines["high_bidder"]
        rule: m.HighBid = line.value
        if HIGH_BID_FACTS[rule].needs_auction and mode != "auction":
            offer = lines["offer"]
            sight = "seen" if seen else "unseen"
            raise BoodleError(
                "'high bidder: may withdraw', but the widow is sold at a fixed price: a sale "
                "has no bids to withdraw", line.span,
                hint=_writing(f"offer: auction {sight} at {price}", offer.span,
                              ", or delete the 'high bidder' line"),
                notes=(f"the offer line is at {offer.span}",))
        return rule

    def sale_before(self, clause: Clause | None) -> str | None:
        """Spec §5.4 ``when: before phase NAME``: NAME must be a phase of the variant."""
        if clause is None:
            return None
        name = clause.value.name
        if name not in self.phase_names:
            raise BoodleError(f"'when: before phase {name}': no phase of that name",
                              clause.value.span,
                              hint=did_you_mean(name, self.phase_names)
                              or "phases are: " + ", ".join(self.phase_names))
        return str(name)

    # -- phases (spec §6-8)
    def phases(self) -> tuple[m.Phase, ...]:
        items = [c for c in self.items.values() if c.key.startswith("phase:")]
        if len(items) > MAX_PHASES:
            _at_most(items[MAX_PHASES], len(items), MAX_PHASES, "phases")
        decls = [c.value for c in items]
        if not decls:
            raise BoodleError(f"variant {self.r.name} has no phase", self.r.span,
                              hint="add a 'phase play \"Stops\" is stops { … }' block")
        phases: list[m.Phase] = []
        for decl in decls:
            builders: dict[str, Callable[[PhaseDecl, list[str]], m.Phase]] = {
                "stops": self.stops_phase, "holding": self.holding_phase,
                "poker": self.poker_phase}
            builder = builders[decl.kind]
            phases.append(builder(decl, [p.name for p in phases]))
            self.phase_names.append(decl.name)
            if decl.kind == "poker":
                self.poker_names.add(decl.name)
        stops = [p for p in phases if isinstance(p, m.StopsPhase)]
        if len(stops) != 1:
            raise BoodleError(f"a variant has exactly one stops phase; this one has {len(stops)}",
                              self.r.span, hint="the stops phase is the game; others come before")
        if not isinstance(phases[-1], m.StopsPhase):
            raise BoodleError(
                f"phase {phases[-1].name} comes after the stops phase, which ends the deal",
                phases[-1].span, hint="move it before the stops phase",
            )
        return tuple(phases)

    def stops_phase(self, decl: PhaseDecl, earlier: list[str]) -> m.StopsPhase:
        rules = {rule.key: rule for rule in decl.rules}

        def need(key: str, example: str) -> Clause:
            if key not in rules:
                raise BoodleError(f"stops phase {decl.name} has no '{key.replace('_', ' ')}' rule",
                                  decl.span, hint=_adding(f"add: {example}", decl.span,
                                                          example))
            return rules[key]

        pokers = [p for p in earlier if p in self.poker_names]
        first = self.lead_rule(need("first_lead", "first lead: left of dealer, lowest of "
                                    "chosen suit").value, pokers, first=True, phase=decl.name)
        restart = self.lead_rule(need("restart", "restart: last player, lowest of other suit")
                                 .value, pokers)
        fallback = self.fallback(rules.get("fallback"), earlier)
        written: AllPassDecl = (rules["all_pass"].value if "all_pass" in rules
                                else AllPassDecl("none"))
        all_pass: Any = written.rule
        charge, charge_to = 0, None
        if written.to is not None:  # spec §6.5: '…, N per card to SECTION'
            charge, ref = written.charge, written.to
            _chips_at_most(rules["all_pass"], charge, "a payment per card")
            if charge == 0:
                raise BoodleError("'0 per card' charges nothing", rules["all_pass"].span,
                                  hint=_writing("all pass: deal ends without winner",
                                                rules["all_pass"].span))
            charge_to = self.section_ref(ref)
        self.check_exits(decl, rules, first, restart, fallback, all_pass)
        claims = rules.get("claims")
        if claims is not None and not (CLAIM_FACTS[claims.value].on_play
                                       or CLAIM_FACTS[claims.value].at_start):
            self.claims_none = claims
            for key, clause in rules.items():
                if key.startswith("penalty:") and clause.value.forfeit:
                    raise BoodleError(
                        "'forfeit boodles' under 'claims: none': the phase claims nothing, "
                        "so there is nothing to forfeit", clause.span,
                        hint="drop ', forfeit boodles', or write 'claims: on play' (spec §6.6, "
                        "§6.8)")
        stops = rules["stop"].value if "stop" in rules else ()
        return m.StopsPhase(
            name=decl.name,
            label=decl.label or decl.name.capitalize(),
            first_lead=first,
            restart=restart,
            fallback=fallback,
            follow=rules["follow"].value if "follow" in rules else "owner",
            stop_at_top="top rank" in stops,
            all_pass=all_pass,
            all_pass_charge=charge,
            all_pass_to=charge_to,
            claims=rules["claims"].value if "claims" in rules else "on play",
            going_out=self.going_out(rules.get("going_out"), earlier),
            stop_bonus=self.stop_bonus(rules.get("stop_bonus")),
            penalties=tuple(self.penalty(c) for k, c in rules.items() if k.startswith("penalty:")),
            span=decl.span,
        )

    def check_exits(self, decl: PhaseDecl, rules: dict[str, Clause], first: m.LeadRule,
                    restart: m.LeadRule, fallback: m.Fallback, all_pass: m.AllPass) -> None:
        """Whether every round of the phase can end (spec §6.2, §6.5): a run stops on an
        unheld card (a line the model cannot say, checked here), then the first problem of
        :func:`boodle.language.problems.phase_problems`, at the line that states it."""
        stop = rules.get("stop")
        if stop is None or "next card held by nobody" not in stop.value:
            raise BoodleError(
                "a run must stop when nobody holds the next card, or play blocks",
                stop.span if stop else decl.span,
                hint=(_writing("stop: top rank, next card held by nobody", stop.span) if stop
                      else _adding("write: stop: top rank, next card held by nobody", decl.span,
                                   "stop: top rank, next card held by nobody")),
            )
        # only the fields phase_problems reads are the phase's own here; the rest is built later
        phase = m.StopsPhase(decl.name, decl.name, first, restart, fallback, all_pass=all_pass)

        def where(name: str) -> Span | None:
            clause = rules.get(CLAUSE_OF.get(("StopsPhase", name), name))
            return clause.span if clause is not None else None

        _refuse(phase_problems(phase, where), decl.span)

    def lead_rule(self, clause: Clause, earlier: list[str], first: bool = False,
                  phase: str = "") -> m.LeadRule:
        lead: LeadDecl = clause.value
        who, arg = lead.who.kind, lead.who.arg
        choice, card_lit = lead.choice.choice, lead.choice.arg
        scope = cast(m.Scope, lead.choice.scope)
        ties = lead.ties
        fields: dict[str, Any] = {"choice": choice, "scope": scope, "span": clause.span}
        if ties is not None:
            fields["ties"], fields["tie_suits"] = self.tie_rule(clause, choice, scope, ties)
        if first:  # the rule as the model will hold it, as far as the checks read it
            _refuse(first_lead_problems(
                m.LeadRule(cast(m.Who, who), cast(Any, choice), scope, span=clause.span), phase))
        if who == "holder":
            assert isinstance(arg, CardLit)
            fields["card"] = self.in_deck(arg, "lead card")
        elif who == "holder of lowest":
            assert isinstance(arg, tuple)  # spec §6.1: 'lowest ♣ else ♦ …' walks on in that order
            fields["holder_suit"], walk = arg[0], arg[1:]
            assert self.deck is not None  # phases are built after the deck
            for k, suit in enumerate(arg):
                if suit not in self.deck.suits:
                    raise BoodleError(f"no suit {suit} in the deck", clause.span,
                                      hint="name suits of the deck's 'suits' line")
                if suit in arg[:k]:
                    raise BoodleError(f"'else {suit}': {suit} is already named in this walk",
                                      clause.span, hint=f"drop 'else {suit}'")
            fields["holder_walk"] = walk
            if walk and choice == "lowest" and scope == "suit" and card_lit != arg[0]:
                raise BoodleError(
                    f"the walk starts with {arg[0]}, but the lead is 'lowest {card_lit}'",
                    clause.span, hint=f"write 'lowest {arg[0]}': the lead follows the walk to "
                    "the suit it stops at")
        elif who == "phase winner":
            assert isinstance(arg, NameLit)
            if arg.name not in earlier:
                raise BoodleError(
                    f"'winner of {arg.name}': no earlier poker phase of that name", arg.span,
                    hint=did_you_mean(arg.name, earlier, arg.span) or "a winner comes from an "
                    "earlier "
                    "poker phase (a holding phase has no single winner)",
                )
            fields["phase"] = arg.name
        if isinstance(card_lit, CardLit):
            card = self.in_deck(card_lit, "lead card")
            if who == "holder" and fields["card"] != card:  # one card field (spec §6.1)
                held = fields["card"]
                raise BoodleError(
                    f"'holder of {held}, {card}': the holder of {held} leads, but the lead "
                    f"names another card, {card}", clause.span,
                    hint=f"write 'holder of {held}, {held}' (the holder of a card leads it), "
                    f"or 'holder of {card}, {card}'")
            fields["card"] = card
        elif isinstance(card_lit, str):
            fields["suit"] = card_lit
        return _lead_rule(who, fields)

    def tie_rule(self, clause: Clause, choice: str, scope: str,
                 ties: TiesDecl) -> tuple[str, tuple[str, ...]]:
        """A written tie rule (spec §6.1): only a lowest card of a colour or of any suit has
        ties; a suit order names every suit of the deck once."""
        kind, suits = ties.rule, ties.suits
        if choice != "lowest" or SCOPE_FACTS[cast(m.Scope, scope)].per_suit or scope == "suit":
            raise BoodleError(
                "a tie rule needs a lead of the lowest card of a colour or of any suit: only "
                "there can cards of equal rank tie", clause.span,
                hint="lead 'lowest card', 'lowest black card', 'lowest red card' or 'lowest "
                "opposite colour card', or drop the ties part")
        if TIE_FACTS[cast(m.TieBreak, kind)].needs_suits:
            assert self.deck is not None  # phases are built after the deck
            missing = [s for s in self.deck.suits if s not in suits]
            extra = [s for k, s in enumerate(suits) if s not in self.deck.suits or s in suits[:k]]
            if missing or extra:
                raise BoodleError(
                    "a suit order names every suit of the deck once"
                    + (f"; {' '.join(extra)} is not a suit of the deck, or named twice"
                       if extra else f"; {' '.join(missing)} is missing"), clause.span,
                    hint="write: ties by suit order " + " ".join(
                        [s for k, s in enumerate(suits) if s in self.deck.suits
                         and s not in suits[:k]] + missing))
        return kind, suits

    def fallback(self, clause: Clause | None, earlier: list[str]) -> m.Fallback:
        if clause is None:
            return m.Fallback("lead", m.LeadRule("last player", "lowest", "chosen suit"))
        written: FallbackDecl = clause.value
        if written.kind == "lead":
            assert written.lead is not None
            choice, scope, card_lit = written.lead.choice, written.lead.scope, written.lead.arg
            rule = m.LeadRule(
                "last player", cast(Any, choice), cast(m.Scope, scope),
                suit=card_lit if isinstance(card_lit, str) else None,
                card=self.in_deck(card_lit, "lead card") if isinstance(card_lit, CardLit) else None,
                span=clause.span,
            )
            return m.Fallback("lead", rule, span=clause.span)
        if written.kind == "pass" or written.fee is None:
            return m.Fallback("pass", span=clause.span)
        amount, to, if_able = written.fee.amount, written.fee.to, written.fee.if_able
        _chips_at_most(clause, amount, "a payment to pass")
        if if_able and amount == 0:
            raise BoodleError("'pay 0 … if able': a fee of 0 chips is never charged", clause.span,
                              hint=_writing("if none: pass left", clause.span,
                                            "  (or a fee of 1 chip or more)"))
        to_name = self.section_ref(to, key="a pass fee to a section not on the board")
        return m.Fallback("pass", amount=amount, to=to_name, if_able=if_able,
                          span=clause.span)

    def going_out(self, clause: Clause | None, earlier: list[str]) -> m.GoingOut:
        if clause is None:
            return m.GoingOut()
        takes: list[str] = []
        excused: list[Card] = []
        unless: list[m.UnlessTaken] = []
        # spec §7: a written line pays per card only with its 'N per card' clause
        fields: dict[str, Any] = {"ends_deal": False, "per_card": 0, "span": clause.span}
        for part in clause.value:
            if part.key == "ends":
                fields["ends_deal"] = True
            elif part.key == "takes":
                takes.append(self.section_ref(part.value, key=GOING_OUT))
            elif part.key == "takes_unless":  # spec §7: not if an earlier phase paid it
                ref, phase = part.value.section, part.value.phase
                if phase.name not in earlier:
                    raise BoodleError(
                        f"'unless taken in {phase.name}': no earlier phase of that name",
                        phase.span, hint=did_you_mean(phase.name, earlier, phase.span)
                        or "name a holding or poker phase written before this one")
                takes.append(self.section_ref(ref, key=GOING_OUT))
                unless.append(m.UnlessTaken(takes[-1], phase.name))
            elif part.key == "per_card":
                fields["per_card"], fields["to"] = part.value.amount, part.value.to
                _chips_at_most(part, part.value.amount, "a payment per card")
                _refuse_one(kitty_missing(part.value.to, self.board, part.span))
            elif part.key == "per_card_into":  # spec §7: into a named section, not taken
                fields["per_card"], ref = part.value.amount, part.value.into
                _chips_at_most(part, part.value.amount, "a payment per card")
                fields["to"], fields["into"] = "section", self.section_ref(ref, key=GOING_OUT)
            else:
                excused.append(self.in_deck(part.value, "excused card"))
        return m.GoingOut(takes=tuple(takes), excused=tuple(excused),
                          unless_taken=tuple(unless), **fields)

    def stop_bonus(self, clause: Clause | None) -> m.StopBonus | None:
        """The stop bonus of spec §6.7; ``None`` for no line or ``stop bonus: none``."""
        if clause is None or clause.value is None:
            return None
        bonus: StopBonusDecl = clause.value
        amount, source = bonus.amount, bonus.source
        _chips_at_most(clause, amount, "a stop bonus")
        src = source if isinstance(source, str) else self.section_ref(
            source, key="a stop bonus from a section not on the board")
        return m.StopBonus(amount, src, clause.span)

    def penalty(self, clause: Clause) -> m.Penalty:
        penalty: PenaltyDecl = clause.value
        fault, amount, to, forfeit = penalty.fault, penalty.amount, penalty.to, penalty.forfeit
        _chips_at_most(clause, amount, "a penalty")
        payee = to if isinstance(to, str) else self.section_ref(
            to, key="a penalty to a section not on the board")
        return m.Penalty(cast(Any, fault), amount, payee, forfeit, clause.span)

    def holding_phase(self, decl: PhaseDecl, earlier: list[str]) -> m.HoldingPhase:
        rules = {rule.key: rule for rule in decl.rules}
        if "pays" not in rules:
            raise BoodleError(f"holding phase {decl.name} pays no section", decl.span,
                              hint=_adding("add: pays: A♥, K♥", decl.span, "pays: A♥, K♥"))
        sections = tuple(self.section_ref(ref, ("boodle", "set")) for ref in rules["pays"].value)
        split: Any = rules["split"].value if "split" in rules else "share"
        return m.HoldingPhase(decl.name, decl.label or decl.name.capitalize(), sections, split,
                              decl.span)

    def poker_phase(self, decl: PhaseDecl, earlier: list[str]) -> m.PokerPhase:
        rules = {rule.key: rule for rule in decl.rules}
        if "pot" not in rules:
            raise BoodleError(f"poker phase {decl.name} names no pot", decl.span,
                              hint=_adding("add: pot: pot", decl.span, "pot: pot"))
        pot = self.section_ref(rules["pot"].value, ("pot",))
        best = rules["best"].value if "best" in rules else 5
        if not 1 <= best <= 5:
            raise BoodleError("a poker hand is at most 5 cards", rules["best"].span,
                              hint="write best: 5 cards (or fewer, at least 1)")
        betting = self.poker_betting(decl, rules)
        return m.PokerPhase(
            decl.name, decl.label or decl.name.capitalize(), pot, best,
            rules["ace_low_straight"].value if "ace_low_straight" in rules else True,
            rules["split"].value if "split" in rules else "share", **betting, span=decl.span,
        )

    def poker_betting(self, decl: PhaseDecl, rules: dict[str, Clause]) -> dict[str, Any]:
        """The betting round of a poker phase (spec §8.3): ``bets``, ``raises``, ``opener``."""
        bets = rules.get("bets")
        if bets is None:
            for key in ("raises", "opener", "blinds"):
                if key in rules:
                    raise BoodleError(
                        f"'{key}:' in poker phase {decl.name}, which has no betting round",
                        rules[key].span, hint="add the size of a bet: bets: 1 chip  (or "
                        "bets: up to 5 chips, bets: pot limit, bets: no limit), or remove "
                        "the line")
            return {}
        size: BetsDecl = bets.value
        how, amount = cast(m.BetLimit, size.limit), size.amount  # the grammar's words
        if BET_LIMIT_FACTS[how].sized:  # else the sizes come from the pot and the balance
            if amount == 0:
                least = "bets: up to 1 chip" if how == "up to" else "bets: 1 chip"
                raise BoodleError("a bet of 0 chips is a check, not a bet", bets.span,
                                  hint=_writing(least, bets.span, "  (a bet is at least 1 "
                                                "chip; or remove the line: no betting)"))
            _chips_at_most(bets, amount, "a bet")
        out: dict[str, Any] = {"bets": how, "bet": amount}
        if "raises" in rules:
            raises = rules["raises"].value
            _at_most(rules["raises"], raises, MAX_RAISES, "raises")
            out["raises"] = raises
        if "opener" in rules:
            out["opener"] = rules["opener"].value
        if "blinds" in rules:
            out["blinds"] = _blinds(rules["blinds"])
        return out

    # -- session (spec §10)
    def session(self) -> m.SessionSpec:
        clause = self.need("session", "session { start: 50 chips  end: after 1 rotation }")
        fields: dict[str, Any] = {"span": clause.span}
        _no_duplicates(clause.value, "in the session block")
        for line in clause.value:
            if line.key == "start":
                if line.value > MAX_AMOUNT:
                    raise BoodleError(f"{line.value} start chips is too many", line.span,
                                      hint=f"chip amounts are at most {MAX_AMOUNT:,}")
                fields["start_chips"] = line.value
            elif line.key == "end_rotations":
                if not 1 <= line.value <= 1000:
                    raise BoodleError("a session lasts 1 to 1000 rotations", line.span,
                                      hint="write, for example: end: after 1 rotation")
                fields["rotations"] = line.value
            elif line.key == "end_broke":
                fields["end_when_broke"] = True
            elif line.key == "end_last":
                fields["end_last_with_chips"] = True
            elif line.key == "end_target":
                fields["end_target"] = line.value
            elif line.key == "end_never":
                fields["end_never"] = True
            else:
                slot = {"leftover": "leftover", "ties": "ties", "balance": "negative",
                        "seating": "seating"}[line.key]
                fields[slot] = line.value
        ends = [line for line in clause.value if line.key.startswith("end_")]
        if any(line.key in _UNBOUNDED_ENDS for line in ends) and "rotations" not in fields:
            fields["rotations"] = None  # spec §10: these ends replace the default rotation
        never = next((line for line in ends if line.key == "end_never"), None)
        if never is not None and len(ends) > 1:
            other = next(line for line in ends if line is not never)
            raise BoodleError(
                "'end: never' says the session has no end, and another 'end' line ends it",
                other.span if other.span.line > never.span.line else never.span,
                hint="keep 'end: never' (the ledger runs on) or the other end lines (spec §10)",
                notes=(f"'end: never' at {never.span}",
                       f"the other 'end' line at {other.span}"))
        start = next((line for line in clause.value if line.key == "start"), None)
        target = next((line for line in ends if line.key == "end_target"), None)
        start_chips = start.value if start is not None else m.SessionSpec.start_chips
        if target is not None and not start_chips < target.value <= MAX_AMOUNT:
            raise BoodleError(
                f"'end: a player reaches {target.value} chips': every player starts with "
                f"{start_chips}, so the session would end after its first deal"
                if target.value <= start_chips else f"{target.value} chips is too many",
                target.span,
                hint=f"the target is more than the start ({start_chips} chips) and at most "
                f"{MAX_AMOUNT:,}, for example: end: a player reaches {2 * start_chips} chips")
        balance: m.Balance = fields.get("negative", "allowed")
        if start is not None and start.value == 0 and BALANCE_FACTS[balance].eliminates:
            raise BoodleError(
                "'start: 0 chips' with 'balance: eliminated at zero': every player is out "
                "before the first deal, so the session would play no deal",
                start.span,
                hint="start with at least 1 chip, or write 'balance: may go negative' "
                "to keep a register from 0 (spec §10)")
        return m.SessionSpec(**fields)


def _blinds(clause: Clause) -> tuple[int, ...]:
    """The blinds of a betting round (spec §8.3, ``blinds: N, M chips``): each at least 1
    chip and at most the chip limit, the small blind first; raises a located
    :class:`BoodleError` otherwise."""
    decl: BlindsDecl = clause.value
    blinds = decl.amounts()
    if 0 in blinds:
        raise BoodleError("a blind of 0 chips is no blind", clause.span,
                          hint="write blinds: 1, 2 chips  (or remove the line: no blinds)")
    for amount in blinds:
        _chips_at_most(clause, amount, "a blind")
    if len(blinds) == 2 and blinds[0] > blinds[1]:
        raise BoodleError(f"the small blind ({blinds[0]}) is more than the big blind "
                          f"({blinds[1]})", clause.span,
                          hint=f"write the small blind first: blinds: {blinds[1]}, {blinds[0]} "
                          "chips")
    return blinds


def _at_most(clause: Clause, count: int, limit: int, what: str) -> None:
    """Refuse more than ``limit`` ``what`` (spec §11.3), pointing at ``clause``."""
    if count > limit:
        raise BoodleError(f"{count} {what}: at most {limit} are allowed", clause.span,
                          hint=f"keep {limit} at most (spec §11.3)")


def _chips_at_most(clause: Clause, amount: int, what: str) -> None:
    """Refuse a chip amount over :data:`MAX_AMOUNT` (spec §11.3)."""
    if amount > MAX_AMOUNT:
        raise BoodleError(f"{what} of {amount} chips is too large", clause.span,
                          hint=f"chip amounts are at most {MAX_AMOUNT:,}")


def _lead_rule(who: str, fields: dict[str, Any]) -> m.LeadRule:
    if "holder_suit" in fields:
        # "whoever holds the lowest club leads": the holder of that suit's lowest card in play
        return m.LeadRule("holder", **fields)
    return m.LeadRule(cast(m.Who, who), **fields)


_UNBOUNDED_ENDS = frozenset(f.line for f in END_FACTS.values() if f.replaces_rotations)
"""The ``end`` lines after which no default ``after 1 rotation`` applies (spec §10)."""


def _refuse_one(found: Problem | None) -> None:
    """Raise ``found`` (a problem of :mod:`boodle.language.problems`, at the word it names)
    as the builder's error; nothing if it is ``None``."""
    if found is not None:
        raise found.error()


GOING_OUT: ProblemKey = "going out to a section not on the board"


def _refuse(found: list[Problem], fallback_span: Span | None = None) -> None:
    """Raise the first of ``found`` (:mod:`boodle.language.problems`) as the builder's
    error, at ``fallback_span`` if it has no span of its own; nothing if it is empty."""
    if found:
        raise found[0].error(fallback_span)


def _adding(sentence: str, block: Span, line: str) -> str:
    """The hint ``sentence`` with its edit: ``line`` added as the last line of the block
    written over ``block`` (:func:`boodle.language.errors.line_added`), if it has one."""
    edit = line_added(block, line)
    return Hint(sentence, (edit,)) if edit is not None else sentence


def _writing(line: str, span: Span, more: str = "") -> str:
    """The hint ``write: LINE`` (then ``more``) with its edit: ``line`` in place of the line
    at ``span`` (:func:`boodle.language.errors.rewritten`)."""
    edit = rewritten(span, line)
    sentence = f"write: {line}{more}"
    return Hint(sentence, (edit,)) if edit is not None else sentence
