"""``boodle lsp``: the language server of ``.boodle`` rules files (issue 22).

:mod:`.analysis` (diagnostics and their quick fixes) and :mod:`.features` (hover,
completion, definition, symbols) are plain functions of a text and its path, built on
the project's own parser, builder and docs templates; :mod:`.server` puts them behind
the Language Server Protocol with pygls.  Nothing here is imported by ``boodle --help``.
"""
