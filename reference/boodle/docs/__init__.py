"""The rules site generator: the ruleset model → Markdown pages for mkdocs (``boodle docs build``).

Pages are written from the same rulesets the interpreter runs, so the rules
text cannot drift from the game.  One text template per construct and
language (:mod:`.templates`, checked by :mod:`.constructs`); the variant
pages (:mod:`.variant_page`) with the board picture (:mod:`.board_svg`) and
the numbers computed by the interpreter (:mod:`.numbers`); a worked example
per variant (:mod:`.example`); the matrix, index, rules files and cases
(:mod:`.pages`); the DSL reference (:mod:`.dsl_reference`); the spec and
protocol pages (:mod:`.includes`); links (:mod:`.links`, :mod:`.spans`,
:mod:`.specref`); the Pygments lexer for ``.boodle`` (:mod:`.lexer`).
:func:`.site.build_docs` writes them all.
"""
