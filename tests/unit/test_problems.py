"""One list of problems (issue 19, step 2): the builder, ``boodle check`` and the language
server report each problem of :func:`boodle.language.problems.problems` in the same words at
the same place, and :func:`problems` finds it on a built model from the model alone.

Each case writes a small rules file with one fault of spec §5.2 (trumps, a turn-up,
``blocks sets`` with nothing to deal them), §6.1 (a first lead that needs a run before it),
§6.5 (a lead that can find no card, a round of passes nothing ends), §6.6 (``claims: none``
with a boodle nothing pays) or §1 (more hands than cards); the message, the line and the
column are counted by hand in the text (the same words ``tests/unit/test_build.py`` pins
for the builder).  Each case also has the file made valid (``good``) and a change of the
built model that puts the fault back (``edit``), so that :func:`problems` is shown finding
it from the model, at the line ``Ruleset.origin`` gives for the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, get_args

import pytest

from boodle.cli import main
from boodle.engine.support import check_playable
from boodle.language import model as m
from boodle.language.build import MAX_AMOUNT, load_text
from boodle.language.errors import BoodleError
from boodle.language.problems import MAX_ANTE, Problem, ProblemKey, problems
from boodle.language.variants import builtin_names, load
from boodle.lsp.analysis import analyse
from boodle.verify.wellformed import WELL_FORMED, well_formed
from tiny_rules import BASE

DEAL_BASE = BASE.replace(
    "    boodle K♣\n", "    boodle K♣\n    set run \"8-9-10\" 8 9 10 same suit\n").replace(
    "  deal { widow: last in each round, hidden }",
    "  deal {\n    widow: last in each round, hidden\n  }")
"""BASE with a same-suit set on line 7 and the deal block on lines 14-16 (its widow line 15)."""

Edit = Callable[[m.Ruleset], m.Ruleset]


def in_phase(edit: Callable[[m.StopsPhase], m.StopsPhase]) -> Edit:
    """An edit of the ruleset's one stops phase."""
    return lambda r: replace(r, phases=tuple(
        edit(p) if isinstance(p, m.StopsPhase) else p for p in r.phases))


def in_deal(**fields: str) -> Edit:
    """An edit of the ruleset's deal block."""
    return lambda r: replace(r, deal=replace(r.deal, **fields))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Case:
    key: ProblemKey
    bad: str
    message: str
    line: int
    column: int
    good: str
    edit: Edit


def _sub(*pairs: tuple[str, str], base: str = BASE) -> str:
    text = base
    for old, new in pairs:
        assert old in text
        text = text.replace(old, new)
    return text


NO_IF_NONE = ("    if none: lead lowest of same suit\n", "")
PASS = ("if none: lead lowest of same suit", "if none: pass left")
FLIP = ("    if none: lead lowest of same suit\n",
        "    if none: lead lowest of chosen suit\n    all pass: flip colour\n")
COLOUR_RESTART = ("lowest of other suit", "lowest of opposite colour")
RED_FIRST = ("first lead: left of dealer, lowest of chosen suit",
             "first lead: left of dealer, lowest red card")
CHOSEN_IF_NONE = ("if none: lead lowest of same suit", "if none: lead lowest of chosen suit")



def SAME_SUIT_IF_NONE(p: m.StopsPhase) -> m.StopsPhase:  # noqa: N802 - a constant edit
    rule = p.fallback.rule or m.LeadRule("last player")
    return replace(p, fallback=replace(p.fallback, rule=replace(rule, scope="same suit")))


WIDOW = "    widow: last in each round, hidden\n"
TRUMPS = (WIDOW, WIDOW + "    trumps: last card of widow\n")
NO_WIDOW = (WIDOW, "    widow: none\n")
TURN_UP = (WIDOW, WIDOW + "    turn up: dealer takes its boodle\n")
BLOCKS = (WIDOW, "    widow: last in each round, blocks sets\n")
NO_SAME_SUIT = ('"8-9-10" 8 9 10 same suit', '"8-9-10" 8♥ 9♥ 10♥')

CASES = [
    # spec §5.2: a section paid by a trump needs trumps
    Case("trump section without trumps",
         _sub(("boodle K♣", 'boodle king "King" K of trumps'), base=DEAL_BASE),
         "section 'king' is paid by a trump but the deal sets no trumps", 6, 5,
         _sub(("boodle K♣", 'boodle king "King" K of trumps'), TRUMPS, base=DEAL_BASE),
         in_deal(trumps="none")),
    # spec §5.2: trumps are the widow's last card
    Case("trumps without a widow", _sub(TRUMPS, NO_WIDOW, base=DEAL_BASE),
         "trumps are turned from the widow, but there is no widow", 14, 3,
         _sub(TRUMPS, base=DEAL_BASE), in_deal(widow_position="none")),
    # spec §5.2: the dealer takes the boodle of a turned-up card: one must be turned up
    Case("turn-up without trumps", _sub(TURN_UP, base=DEAL_BASE),
         "'turn up: dealer takes its boodle' but no card is turned up", 14, 3,
         _sub(TURN_UP, TRUMPS, base=DEAL_BASE), in_deal(trumps="none")),
    # spec §5.2: 'blocks sets' is about the widow
    Case("widow sets without a widow",
         _sub((WIDOW, "    widow: none, blocks sets\n"), base=DEAL_BASE),
         "widow: 'blocks sets' but the deal has no widow", 15, 5,
         _sub(BLOCKS, base=DEAL_BASE), in_deal(widow_position="none")),
    # spec §5.2: only a set of any suit can lie complete in the widow and still be claimable
    Case("widow sets without a same-suit set", _sub(BLOCKS, NO_SAME_SUIT, base=DEAL_BASE),
         "widow: 'blocks sets' changes nothing: the board has no 'same suit' set (a set of "
         "named cards that lies in the widow is held by nobody anyway)", 15, 5,
         _sub(BLOCKS, base=DEAL_BASE),
         lambda r: replace(r, board=tuple(replace(s, suit_rule="fixed") if s.kind == "set"
                                          else s for s in r.board))),
    # spec §6.1: the first lead comes before any run: no last player, no stopped suit
    Case("first lead by a player of a run",
         _sub(("first lead: left of dealer", "first lead: last player")),
         "the first lead cannot be by the 'last player': no run has been played", 15, 17,
         BASE, in_phase(lambda p: replace(p, first_lead=replace(p.first_lead,
                                                                who="last player")))),
    Case("first lead of a stopped suit",
         _sub(("first lead: left of dealer, lowest of chosen suit",
               "first lead: left of dealer, lowest of same suit")),
         "the first lead cannot use 'same suit': no run has stopped yet", 15, 17,
         BASE, in_phase(lambda p: replace(p, first_lead=replace(p.first_lead,
                                                                scope="same suit")))),
    # spec §6.5: 'other suit' can allow nothing, and no line says what happens then
    Case("lead can fail without if none", _sub(NO_IF_NONE),
         "the lead rule can leave a player with no legal card, and no 'if none' rule says "
         "what happens then", 18, 5,
         BASE, in_phase(lambda p: replace(p, fallback=m.Fallback(
             "lead", m.LeadRule("last player", "lowest", "chosen suit"))))),
    # spec §6.5: a pass with no 'all pass' exit: a round of passes goes round forever
    Case("passes without an all-pass exit", _sub(PASS),
         "players may pass, but nothing ends a round where every player passes", 19, 5,
         _sub(PASS, ("  going out:", "  all pass: deal ends without winner\n    going out:")),
         in_phase(lambda p: replace(p, all_pass="none"))),
    # spec §6.5: flipping the colour needs a restart that names a colour
    Case("flip colour without a colour restart", _sub(FLIP),
         "'all pass: flip colour' needs a restart by colour", 20, 5,
         _sub(FLIP, COLOUR_RESTART),
         in_phase(lambda p: replace(p, restart=replace(p.restart, scope="other suit")))),
    # spec §6.5: 'same suit' does not cover what 'opposite colour' can fail on
    Case("if none can fail", _sub(COLOUR_RESTART),
         "the 'if none' lead can itself find no card for some hands", 19, 5,
         _sub(COLOUR_RESTART, CHOSEN_IF_NONE),
         in_phase(SAME_SUIT_IF_NONE)),
    # spec §6.5: before any stop 'same suit' allows nothing to a first leader with no red card
    Case("if none can fail the first lead", _sub(RED_FIRST),
         "the 'if none' lead can find no card for the first lead: before any run has "
         "stopped, 'same suit' allows nothing", 19, 5,
         _sub(RED_FIRST, CHOSEN_IF_NONE),
         in_phase(SAME_SUIT_IF_NONE)),
    # spec §6.6: under 'claims: none' a boodle nothing else pays would keep its chips forever
    Case("claims none leaves a section unpaid",
         _sub(("    going out:", "    claims: none\n    going out:")),
         "'claims: none': nothing takes sections A♥, K♣: no holding phase pays them and going "
         "out does not take them", 20, 5,
         _sub(("    going out:", "    claims: on play\n    going out:")),
         in_phase(lambda p: replace(p, claims="none"))),
    # spec §1, §5.2: 20 players and a widow need 21 hands; 5 ranks of 4 suits are 20 cards
    Case("a hand without a card",
         _sub(("players 3 to 8", "players 3 to 20"),
              ("ranks 2 3 4 5 6 7 8 9 10 J Q K A", "ranks 10 J Q K A")),
         "with 20 players the deck of 20 cards cannot give every hand a card", 2, 3,
         _sub(("players 3 to 8", "players 3 to 20")),
         lambda r: replace(r, deck=replace(r.deck, ranks=("10", "J", "Q", "K", "A")))),
]


PHASE_KEYS = {"claims none leaves a section unpaid", "first lead by a player of a run",
              "first lead of a stopped suit", "lead can fail without if none",
              "passes without an all-pass exit",
              "flip colour without a colour restart", "if none can fail",
              "if none can fail the first lead"}


@dataclass(frozen=True)
class PartCase:
    """A problem of :func:`boodle.language.problems.part_problems`: what a stops phase made
    in Python may name that is not there.  ``edit`` puts it in BASE's model, found at the
    part's ``line`` and ``column``; ``engine`` is what ``check_playable`` says (the part
    that names it first, as there is no caret); ``bad`` writes the same fault in text where
    the grammar can (``None``: it cannot), which the builder refuses while reading the
    clause, through the same check: in the same words, at the word ``at`` (its line, and
    the word, found in that line of ``bad``)."""

    key: ProblemKey
    edit: Edit
    message: str
    line: int
    column: int
    engine: str
    bad: str | None = None
    at: tuple[int, str] = (0, "")


def with_going_out(**fields: Any) -> Edit:
    return in_phase(lambda p: replace(p, going_out=replace(p.going_out, **fields)))


ONE_CARD = m.LeadRule("last player", "card", "all")
"""A one-card lead (the grammar's ``2♣``) without its card: only Python can make it."""
PENALTY = ("    going out:", "    penalty: cannot lead, pay 1 to pot\n    going out:")
BONUS = ("    going out:", "    stop bonus: 1 from pot\n    going out:")

PART_CASES = [
    # spec §6.5: 'if none: lead' leads by a rule
    PartCase("if none lead without a lead rule",
             in_phase(lambda p: replace(p, fallback=replace(p.fallback, rule=None))),
             "the 'if none: lead' fallback has no lead rule", 19, 5,
             "phase play: the 'if none: lead' fallback has no lead rule"),
    # spec §6.5: the fee is paid into a section of the board
    PartCase("a pass fee to a section not on the board",
             in_phase(lambda p: replace(p, fallback=m.Fallback(
                 "pass", amount=1, to="pot", span=p.fallback.span), all_pass="end without winner")),
             "no section 'pot' on the board", 19, 5,
             "phase play: the pass fallback: no section 'pot' on the board",
             _sub(("if none: lead lowest of same suit", "if none: pay 1 to pot, pass left"),
                  ("  going out:", "  all pass: deal ends without winner\n    going out:")),
             (19, "pot")),
    # spec §6.1: a lead of one card names it
    PartCase("a one-card lead without a card",
             in_phase(lambda p: replace(p, restart=replace(ONE_CARD, span=p.restart.span))),
             "a lead rule of one card names no card", 18, 14,
             "phase play: a lead rule of one card names no card"),
    # spec §7: the winner takes sections of the board
    PartCase("going out to a section not on the board", with_going_out(takes=("pot",)),
             "no section 'pot' on the board", 20, 5,
             "phase play: going out: no section 'pot' on the board",
             _sub(("takes kitty", "takes pot")), (20, "pot")),
    # spec §7: 'N per card to kitty' pays into the kitty first
    PartCase("going out into a kitty not on the board",
             lambda r: with_going_out(to="kitty", takes=())(
                 replace(r, board=tuple(s for s in r.board if s.kind != "kitty"))),
             "payments go into the kitty, but the board has none", 20, 5,
             "phase play: going out: payments go into the kitty, but the board has none",
             _sub(('    kitty "Kitty"\n', ""), ("    each player 2 on kitty\n", ""),
                  ("takes kitty, 1 per card to winner", "1 per card to kitty")),
             (18, "1 per card to kitty")),
    # spec §6.8: a penalty is paid to a section of the board (or each opponent)
    PartCase("a penalty to a section not on the board",
             in_phase(lambda p: replace(p, penalties=(m.Penalty(
                 "cannot lead", 1, "pot", span=p.going_out.span),))),
             "no section 'pot' on the board", 20, 5,
             "phase play: the penalty for 'cannot lead': no section 'pot' on the board",
             _sub(PENALTY), (20, "pot")),
    # spec §6.7: a stop bonus is paid from a section of the board (or each opponent)
    PartCase("a stop bonus from a section not on the board",
             in_phase(lambda p: replace(p, stop_bonus=m.StopBonus(1, "pot", p.going_out.span))),
             "no section 'pot' on the board", 20, 5,
             "phase play: the stop bonus: no section 'pot' on the board", _sub(BONUS),
             (20, "pot")),
]


@dataclass(frozen=True)
class DeckCase:
    """A problem of :func:`boodle.language.problems.deck_problems`, the verifier's
    well-formedness (or of :func:`~boodle.language.problems.section_problems`): ``edit`` puts
    it in DEAL_BASE's model, found at ``line`` and ``column`` (the line that names it) in
    the words ``message``, which ``well_formed`` says after what names it (``said``); ``bad``
    writes the fault in text, which the builder refuses while reading the clause through the
    same check, in the same words, at ``at``: its line, and the word there it points at."""

    key: ProblemKey
    edit: Edit
    message: str
    said: str
    line: int
    column: int
    bad: str
    at: tuple[int, str]


def in_board(name: str, **fields: Any) -> Edit:
    return lambda r: replace(r, board=tuple(replace(s, **fields) if s.name == name else s
                                            for s in r.board))


DECK_CASES = [
    # spec §3: a boodle card is a card of the deck; 'remove A♥' takes it out
    DeckCase("a card not in the deck",
             lambda r: replace(r, deck=replace(r.deck, removed=(m.Card("A", "♥"),))),
             "boodle card A♥ is not in the deck (it is removed)",
             "section A♥: boodle card A♥ is not in the deck (it is removed)", 5, 5,
             _sub(("deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A }",
                   "deck { ranks 2 3 4 5 6 7 8 9 10 J Q K A  remove A♥ }"), base=DEAL_BASE),
             (5, "A♥")),
    # spec §3: one card pays one boodle section
    DeckCase("a card paying two boodles", in_board("K♣", cards=(m.Card("A", "♥"),)),
             "A♥ already pays section 'A♥'", "A♥ already pays section 'A♥'", 6, 5,
             _sub(("boodle K♣", 'boodle ace "Ace" A♥'), base=DEAL_BASE), (6, "boodle")),
    # spec §3: a set names each of its ranks once
    DeckCase("a section naming a card or rank twice", in_board("run", ranks=("8", "8", "10")),
             "a set names the same rank twice", "section run: a set names the same rank twice",
             7, 5, _sub(('"8-9-10" 8 9 10', '"8-9-10" 8 8 10'), base=DEAL_BASE), (7, "set")),
    # spec §3: a set's ranks are ranks of the deck
    DeckCase("a rank not in the deck",
             lambda r: replace(r, deck=replace(r.deck, ranks=tuple(
                 k for k in r.deck.ranks if k != "8"))),
             "rank 8 is not in the deck", "section run: rank 8 is not in the deck", 7, 5,
             _sub(("ranks 2 3 4 5 6 7 8 9 10 J Q K A", "ranks 2 3 4 5 6 7 9 10 J Q K A"),
                  base=DEAL_BASE), (7, "set")),
    # spec §4: an ante is from 0 to 1,000,000 chips
    DeckCase("an ante out of range",
             lambda r: replace(r, antes=(replace(r.antes[0], amount=2_000_000), *r.antes[1:])),
             "an ante of 2000000 chips is too large", "an ante of 2000000 chips is too large",
             11, 5, _sub(("each player 1 on each boodle", "each player 2000000 on each boodle"),
                         base=DEAL_BASE), (11, "each")),
]

SECTION_CASES = [
    # spec §4: an ante line pays sections of the board
    DeckCase("a section not on the board",
             lambda r: replace(r, antes=(*r.antes[:-1], replace(r.antes[-1], targets=("pot",)))),
             "no section 'pot' on the board", "an ante line: no section 'pot' on the board",
             12, 5, _sub(("each player 2 on kitty", "each player 2 on pot"), base=DEAL_BASE),
             (12, "pot")),
    # spec §6.5: a round of passes charges into a section of the board
    DeckCase("a section not on the board",
             in_phase(lambda p: replace(p, all_pass="end without winner", all_pass_charge=1,
                                        all_pass_to="kity")),
             "no section 'kity' on the board", "the all-pass charge: no section 'kity' on the "
             "board", 17, 3,
             _sub(("    going out:", "    all pass: deal ends without winner, 1 per card to "
                   "kity\n    going out:"), base=DEAL_BASE), (23, "kity")),
]


def test_every_problem_has_a_case() -> None:
    assert [c.key for c in CASES] + [c.key for c in PART_CASES] == list(get_args(ProblemKey))[
        :len(CASES) + len(PART_CASES)]
    assert [c.key for c in DECK_CASES] == [k for k in WELL_FORMED if k != "a hand without a card"]
    every: list[Case | PartCase | DeckCase] = [*CASES, *PART_CASES, *DECK_CASES, *SECTION_CASES]
    assert set(get_args(ProblemKey)) == {c.key for c in every}


@pytest.mark.parametrize("case", DECK_CASES, ids=[c.key for c in DECK_CASES])
def test_what_the_deck_cannot_give_is_a_problem_the_verifier_reads(case: DeckCase) -> None:
    good = load_text(DEAL_BASE, "t.boodle")
    assert problems(good) == [] and well_formed(good) == []
    bad = case.edit(good)
    found = _found_and_built(case, bad)
    assert well_formed(bad) == [case.said] == [found.said()]  # in the problem's words


@pytest.mark.parametrize("case", SECTION_CASES, ids=["ante line", "all-pass charge"])
def test_a_section_named_not_on_the_board_is_a_problem(case: DeckCase) -> None:
    good = load_text(DEAL_BASE, "t.boodle")
    bad = case.edit(good)
    assert _found_and_built(case, bad).said() == case.said
    assert well_formed(bad) == []  # not a well-formedness fault of the verifier's list


def _found_and_built(case: DeckCase, bad: m.Ruleset) -> Problem:
    """The one problem of ``case.key`` in ``bad``, checked against the case; and the builder
    shown refusing ``case.bad`` through the same check: its words and hint, at the word."""
    (found,) = [p for p in problems(bad) if p.key == case.key]
    assert (found.key, found.message) == (case.key, case.message)
    assert found.span is not None and found.hint
    assert (found.span.line, found.span.column) == (case.line, case.column)
    with pytest.raises(BoodleError) as built:  # the builder refuses it as it reads the line
        load_text(case.bad, "t.boodle")
    line, word = case.at
    column = case.bad.splitlines()[line - 1].index(word) + 1
    assert (built.value.message, built.value.hint) == (found.message, found.hint)
    assert built.value.span is not None
    assert (built.value.span.line, built.value.span.column) == (line, column)
    return found


def test_the_verifier_reads_the_hands_the_deck_cannot_deal_from_the_list() -> None:
    # 20 players and a widow need 21 hands; 5 ranks of 4 suits are 20 cards (as CASES)
    good = load_text(_sub(("players 3 to 8", "players 3 to 20")), "t.boodle")
    bad = replace(good, deck=replace(good.deck, ranks=("10", "J", "Q", "K", "A")))
    assert well_formed(bad) == [
        "with 20 players the deck of 20 cards cannot give every hand a card"]
    assert MAX_ANTE == MAX_AMOUNT


@pytest.mark.parametrize("case", PART_CASES, ids=[c.key for c in PART_CASES])
def test_a_part_not_there_is_a_problem_the_engine_refuses(case: PartCase) -> None:
    good = load_text(BASE, "t.boodle")
    assert problems(good) == []
    (found,) = [p for p in problems(case.edit(good)) if p.key == case.key]
    assert (found.key, found.phase, found.message) == (case.key, "play", case.message)
    assert found.span is not None and found.hint
    assert (found.span.line, found.span.column) == (case.line, case.column)
    # made in Python (no origin): the engine refuses it before a deal
    python = replace(case.edit(good), origin=None)
    with pytest.raises(BoodleError) as info:
        check_playable(python)
    assert (info.value.message, info.value.hint) == (case.engine, found.hint)
    if case.bad is not None:  # the builder refuses it while reading the clause, as problems
        with pytest.raises(BoodleError) as built:  # says it, at the word at fault
            load_text(case.bad, "t.boodle")
        line, word = case.at
        column = case.bad.splitlines()[line - 1].index(word) + 1
        assert (built.value.message, built.value.hint) == (found.message, found.hint)
        assert built.value.span is not None
        assert (built.value.span.line, built.value.span.column) == (line, column)


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_check_and_the_language_server_report_it_alike(
        case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tiny.boodle"
    path.write_text(case.bad, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["tiny", "ERROR"]
    assert out[1] == f"    {path}:{case.line}:{case.column}: error: {case.message}"
    with pytest.raises(BoodleError) as info:
        load_text(case.bad, str(path))
    assert f"      hint: {info.value.hint}" in out
    (diagnostic,) = analyse(case.bad, str(path)).diagnostics
    assert (diagnostic.message, diagnostic.kind, diagnostic.hint) == (
        case.message, "rules", info.value.hint)
    assert (diagnostic.range.line, diagnostic.range.column) == (case.line - 1, case.column - 1)


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_problems_finds_it_on_the_model(case: Case) -> None:
    good = load_text(case.good, "t.boodle")
    assert problems(good) == []
    first = problems(case.edit(good))[0]
    in_phase = "play" if case.key in PHASE_KEYS else None
    assert (first.key, first.phase, first.message) == (case.key, in_phase, case.message)
    assert first.span is not None
    assert (first.span.line, first.span.column) == (case.line, case.column)
    with pytest.raises(BoodleError) as info:
        load_text(case.bad, "t.boodle")
    assert first.hint == info.value.hint


def test_a_ruleset_made_in_python_has_its_problems_without_spans() -> None:
    good = load_text(_sub(PASS, ("  going out:", "  all pass: deal ends without winner\n"
                                               "    going out:")), "t.boodle")
    bad = replace(good, phases=tuple(replace(p, all_pass="none") for p in good.phases
                                     if isinstance(p, m.StopsPhase)), origin=None)
    assert [(p.key, p.span) for p in problems(bad)] == [("passes without an all-pass exit", None)]
    # the engine refuses the same problem before a deal, in its own words
    with pytest.raises(BoodleError, match="the deal could go round forever"):
        check_playable(bad)


def test_no_shipped_variant_has_a_problem() -> None:
    # every built-in builds, so the builder found none of the list in it: problems() agrees
    for name in builtin_names():
        assert problems(load(name)) == [], name
