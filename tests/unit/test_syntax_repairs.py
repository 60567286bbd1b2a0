"""The repair strategies of a syntax error's hint, one at a time (boodle.language.syntax_repairs).

:data:`REPAIRS` is an ordered table: the first strategy with a hint wins.  Each test
below breaks one line of a tiny variant the way its strategy's docstring says, and
asserts the hint worked out by hand from the strategy's purpose (its edit, written into
the line); then that the strategy says nothing of a slip that is not its own, and that
where two strategies repair the same slip the earlier one's hint is the one given.
"""

from __future__ import annotations

import pytest
from lark import Token
from lark.exceptions import UnexpectedInput, UnexpectedToken

from boodle.language.grammar import CURRENT_TEXT, GluedKeyword, parser
from boodle.language.syntax_errors import where_stopped
from boodle.language.syntax_repairs import (
    REPAIRS,
    Repair,
    Slip,
    article_before,
    block_not_closed_before_line,
    block_not_closed_before_word,
    closest_phrase,
    comma_between_lines,
    extra_colon_or_comma,
    extra_word,
    extra_word_before,
    keyword_again,
    keyword_for_word,
    keywords_run_together,
    line_in_wrong_block,
    mark_for_stray,
    mark_for_word,
    missing_mark,
    misspelt_keyword,
    misspelt_word_before,
    repair_hint,
    stray_mark,
    unclosed_at_end,
    unquoted_label,
)


def _in_variant(lines: str) -> str:
    return "variant mine extends michigan {\n" + lines + "}\n"


def _slip(text: str) -> Slip:
    """Where the parser stops on ``text``, as :func:`boodle.language.syntax_errors.syntax_error`
    hands it to the strategies.  A keyword glued to a word (which the lexer refuses
    before the parser sees it) is handed over as an unexpected token at that word."""
    token = CURRENT_TEXT.set(text)
    try:
        parser().parse(text)
    except UnexpectedInput as exc:
        return where_stopped(exc, text)
    except GluedKeyword as exc:
        return where_stopped(UnexpectedToken(Token("NAME", str(exc.token), exc.token.start_pos,
                                                   exc.token.line, exc.token.column),
                                             set()), text)
    finally:
        CURRENT_TEXT.reset(token)
    raise AssertionError("the text parses: no slip to repair")


# Each strategy, a text with its slip, and the hint: the strategy's edit in its words.
EXAMPLES: list[tuple[Repair, str, str]] = [
    (unclosed_at_end, "variant mine extends michigan {\n  players 3 to 6\n",
     "the variant block, opened at line 1, is not closed: add '}' at the end of the file"),
    (keywords_run_together,
     _in_variant("  phase play is stops {\n    if none: lead lowest of samesuit\n  }\n"),
     "write 'same suit' as two words"),
    (misspelt_keyword, _in_variant("  plyers 3 to 6\n"), "did you mean players?"),
    (misspelt_word_before, _in_variant("  ante {\n    widow 1 on eahc boodle\n  }\n"),
     "did you mean each (not eahc)?"),
    (article_before, _in_variant("  ante {\n    dealer 2 on the kitty\n  }\n"),
     "delete 'the': it has no place here (write it dealer 2 on kitty)"),
    (block_not_closed_before_word, _in_variant("  deal {\n    rotation: left\n  players 3 to 6\n"),
     "the deal block, opened at line 2, is not closed: add '}' before 'players'"),
    (line_in_wrong_block, _in_variant("  session {\n    rotation: left\n  }\n"),
     "'rotation' starts a line of a deal { … } block, not of the session block: move this "
     "line there"),
    (block_not_closed_before_line,
     _in_variant("  ante {\n    dealer 2 on kitty\n  widow sale {\n    offer: sale unseen at 2\n"
                 "  }\n"),
     "the ante block, opened at line 2, is not closed: add '}' before this line"),
    (keyword_again, _in_variant('  board {\n    kitty "Pot", "Pool"\n  }\n'),
     "one item per 'kitty': write 'kitty' again (write it kitty \"Pot\" kitty \"Pool\")"),
    (extra_colon_or_comma, _in_variant('  title: "Mine"\n'),
     "delete ':': there is none here (write it title \"Mine\")"),
    (mark_for_stray, _in_variant("  deal {\n    rotation; left\n  }\n"),
     "write ':' instead of ';'"),
    (missing_mark, _in_variant("  deal {\n    rotation left\n  }\n"),
     "add ':' after 'rotation' (write it rotation: left)"),
    (stray_mark, _in_variant("  players 3 to 6 ;\n"),
     "delete ';': it has no meaning in a rules file"),
    (mark_for_word, _in_variant("  ante {\n    dealer 2 on kitty and A♥\n  }\n"),
     "write ',' instead of 'and'"),
    (extra_word_before, _in_variant("  ante {\n    dealer 2 on my kitty\n  }\n"),
     "delete 'my': it has no place here (write it dealer 2 on kitty)"),
    (unquoted_label, _in_variant("  title Mine\n"), 'a label is written in double quotes: "Mine"'),
    (keyword_for_word, _in_variant("  deal {\n    rotation: up\n  }\n"),
     "write 'right' or 'left' instead of 'up' (write it rotation: right)"),
    (extra_word, _in_variant("  players 3 to 6 please\n"),
     "delete 'please': it has no place here (write it players 3 to 6)"),
    (comma_between_lines,
     _in_variant("  ante { dealer 2 on kitty, each player 1 on each boodle }\n"),
     "delete the ',' before 'each': lines of a block are apart by spaces or a line break, not "
     "a comma (write it ante { dealer 2 on kitty each player 1 on each boodle })"),
    # the choices: grammar/boodle.lark's card_choice alternatives made of keywords only
    # (lowest of SCOPE, lowest [COLOUR] card, lowest opposite colour card, any card; not lowest
    # SUIT, not a card)
    (closest_phrase, _in_variant("  phase play is stops {\n    restart: last player, lowest card "
                                 "of another suit\n  }\n"),
     "write it restart: last player, lowest of other suit (the choices there: any card, "
     "lowest black card, lowest card, lowest of any suit, lowest of chosen suit, lowest of "
     "longest suit, lowest of opposite colour, lowest of other suit, lowest of same suit, "
     "lowest opposite colour card, lowest red card)"),
]

# Each strategy and a slip that is not its own (by its purpose): it says nothing of it.
NOT_THEIRS: list[tuple[Repair, str]] = [
    (unclosed_at_end, _in_variant("  plyers 3 to 6\n")),  # not at the end of the file
    (keywords_run_together, _in_variant("  plyers 3 to 6\n")),  # no two keywords in 'plyers'
    (misspelt_keyword, _in_variant("  title Mine\n")),  # only a label may come: no keyword
    (misspelt_word_before, _in_variant("  plyers 3 to 6\n")),  # no word before it on its line
    (article_before, _in_variant("  ante {\n    dealer 2 on my kitty\n  }\n")),  # 'my'
    (block_not_closed_before_word, _in_variant("  session {\n    rotation: left\n  }\n")),
    (line_in_wrong_block, _in_variant("  plyers 3 to 6\n")),  # starts no line of any block
    (block_not_closed_before_line, _in_variant("  deal {\n    rotation left\n  }\n")),
    (keyword_again, _in_variant('  title: "Mine"\n')),  # a ':', not a ','
    (extra_colon_or_comma, _in_variant("  deal {\n    rotation; left\n  }\n")),  # a ';'
    (mark_for_stray, _in_variant("  players 3 to 6 ;\n")),  # no ':' or ',' goes there
    (missing_mark, _in_variant("  deal {\n    rotation; left\n  }\n")),  # a stray mark
    (stray_mark, _in_variant("  deal {\n    rotation left\n  }\n")),  # a word, not a mark
    (mark_for_word, _in_variant("  players 3 to 6 please\n")),  # nothing takes a ',' there
    (extra_word_before, _in_variant("  plyers 3 to 6\n")),  # no word before it
    (unquoted_label, _in_variant("  deal {\n    rotation: up\n  }\n")),  # no label goes there
    (keyword_for_word, _in_variant("  title Mine\n")),  # a label goes there, no keyword
    (extra_word, _in_variant("  title Mine\n")),  # 'title' alone is no whole line
    (comma_between_lines, _in_variant("  ante { dealer 2 on kitty, A♥ and K♣ }\n")),  # 'and'
    (closest_phrase, _in_variant('  title Mine\n')),  # no ':' or ',' before the error
]

UNREPAIRABLE = _in_variant("  players three to 8\n")
"""A number written as a word: no small edit of the kinds above repairs it."""

DOCUMENTED_ORDER = [
    "unclosed_at_end",
    "keywords_run_together",
    "misspelt_keyword",
    "misspelt_word_before",
    "article_before",
    "block_not_closed_before_word",
    "line_in_wrong_block",
    "block_not_closed_before_line",
    "keyword_again",
    "extra_colon_or_comma",
    "mark_for_stray",
    "missing_mark",
    "stray_mark",
    "mark_for_word",
    "extra_word_before",
    "unquoted_label",
    "keyword_for_word",
    "extra_word",
    "comma_between_lines",
    "closest_phrase",
]
"""The order of boodle.language.syntax_repairs.REPAIRS as documented there and in this file."""


def test_the_table_is_ordered_as_documented() -> None:
    assert [repair.__name__ for repair in REPAIRS] == DOCUMENTED_ORDER


def test_every_strategy_has_an_example_and_a_slip_not_its_own() -> None:
    assert [r for r, _, _ in EXAMPLES] == list(REPAIRS)
    assert [r for r, _ in NOT_THEIRS] == list(REPAIRS)
    assert all(r.__doc__ and "→" in r.__doc__ for r in REPAIRS)  # the edit, by example


@pytest.mark.parametrize(("repair", "text", "hint"), EXAMPLES,
                         ids=[r.__name__ for r, _, _ in EXAMPLES])
def test_each_strategy_repairs_its_slip(repair: Repair, text: str, hint: str) -> None:
    assert repair(_slip(text)) == hint


@pytest.mark.parametrize(("repair", "text"), NOT_THEIRS, ids=[r.__name__ for r, _ in NOT_THEIRS])
def test_each_strategy_says_nothing_of_a_slip_not_its_own(repair: Repair, text: str) -> None:
    assert repair(_slip(text)) is None


@pytest.mark.parametrize("repair", REPAIRS, ids=[r.__name__ for r in REPAIRS])
def test_no_strategy_repairs_a_number_written_as_a_word(repair: Repair) -> None:
    assert repair(_slip(UNREPAIRABLE)) is None


@pytest.mark.parametrize(("first", "later", "text"), [
    # the block left open is said, not the line misplaced in it
    (block_not_closed_before_word, line_in_wrong_block,
     _in_variant("  deal {\n    rotation: left\n  players 3 to 6\n")),
    # a ':' for the ';', rather than the ';' deleted
    (mark_for_stray, stray_mark, _in_variant("  deal {\n    rotation; left\n  }\n")),
    # the misspelt word respelt, rather than deleted
    (misspelt_word_before, extra_word_before,
     _in_variant("  ante {\n    widow 1 on eahc boodle\n  }\n")),
], ids=["open-block-before-wrong-block", "mark-before-delete", "respell-before-delete"])
def test_where_two_strategies_repair_a_slip_the_earlier_wins(first: Repair, later: Repair,
                                                             text: str) -> None:
    slip = _slip(text)
    assert REPAIRS.index(first) < REPAIRS.index(later)
    assert first(slip) is not None and later(slip) is not None
    assert repair_hint(slip) == first(slip)
