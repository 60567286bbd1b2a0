"""The rules language: cards, errors, the grammar, text to AST (syntax), AST to the
validated ruleset (build, model), the built-in variants, and what a house rule changes."""
