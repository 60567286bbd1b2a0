"""boodle: the rules of the Michigan family of stops games, machine-checked.

Data flows one way: rules text → :mod:`boodle.language.syntax` (AST) →
:mod:`boodle.language.build` (validated :class:`boodle.language.model.Ruleset`) →
:mod:`boodle.engine` (play), and later the verifier, the docs and the cases.
"""

__version__ = "0.1.0"
