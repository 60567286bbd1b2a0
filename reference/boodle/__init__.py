"""boodle: the rules of the Michigan family of stops games, machine-checked.

Data flows one way: rules text → :mod:`boodle.syntax` (AST) →
:mod:`boodle.build` (validated :class:`boodle.model.Ruleset`) →
:mod:`boodle.engine` (play), and later the verifier, the docs and the cases.
"""

__version__ = "0.1.0"
