"""A Pygments lexer for ``.boodle`` rules files, registered as ``boodle`` (entry point).

The keywords are every quoted word of ``grammar/boodle.lark``, read when
this module loads, so the highlighter knows exactly the words the parser
knows.  Cards (``K♣``, ``10H``) are constants, numbers are numbers, block
names (``deck``, ``board`` …) and phase kinds are declarations, strings and
``#`` comments as usual; anything else (section and phase names) is a name.
"""

from __future__ import annotations

import re

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Punctuation, String, Text

from boodle.resources import grammar_path

BLOCKS = ("variant", "extends", "deck", "board", "ante", "deal", "widow", "sale", "phase",
          "session", "stops", "holding", "poker")
"""Words that open a block or name a phase kind: highlighted as declarations."""


def grammar_keywords() -> tuple[str, ...]:
    """Every word quoted in the grammar (``"players"``, ``"lowest"`` …), longest first."""
    text = grammar_path().read_text(encoding="utf-8")
    found = set(re.findall(r'"([a-z][a-z-]*)"', text))
    return tuple(sorted(found - set(BLOCKS), key=lambda w: (-len(w), w)))


class BoodleLexer(RegexLexer):
    """Highlights the boodle rules language (``grammar/boodle.lark``)."""

    name = "boodle"
    aliases = ["boodle"]
    filenames = ["*.boodle"]
    mimetypes = ["text/x-boodle"]

    tokens = {
        "root": [
            (r"\s+", Text),
            (r"#[^\n]*", Comment.Single),
            (r'"[^"\n]*"', String.Double),
            (r"(10|[2-9TJQKA])[♣♦♥♠CDHS](?![A-Za-z0-9_])", Name.Constant),
            (r"[♣♦♥♠]", Name.Constant),
            (words(BLOCKS, suffix=r"\b"), Keyword.Declaration),
            (words(grammar_keywords(), suffix=r"\b"), Keyword),
            (r"[0-9]+", Number.Integer),
            (r"[JQKA](?![A-Za-z0-9_])", Number.Integer),
            (r"[a-z][a-z0-9_]*(-[a-z0-9_]+)*", Name),
            (r"[{}:,]", Punctuation),
            (r".", Text),
        ],
    }
