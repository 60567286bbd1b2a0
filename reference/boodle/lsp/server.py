"""``boodle lsp``: the language server over stdio, with pygls.

The server keeps, per open document, its last :class:`~boodle.lsp.analysis.Analysis`
and the last one that parsed (completion needs the board and the deck while the line
being typed does not parse).  Diagnostics are published once the author stops typing
for :data:`DEBOUNCE_S` seconds (at once on open and save); an analysis whose document
changed meanwhile is dropped.  Every handler answers, even on a bug of boodle's: the
analysis turns exceptions into diagnostics, and each feature answers "nothing" rather
than fail.

Features: diagnostics (errors, their hints, warnings), code actions (each hint's edit as a
quick fix), hover, completion, go to definition, document symbols, formatting (the
canonical printer's, ``boodle fmt``'s, comments kept); with the initialization option
``verifyOnSave``, ``boodle verify`` of each saved file in the background
(:mod:`.verify_on_save`), stopped after ``verifyTimeout`` seconds (at most, and by
default, :data:`~boodle.lsp.verify_on_save.TIMEOUT_S`). The request
``boodle/readOnlyFolder`` (boodle's own, outside the protocol) names the folder of the
installed package's built-in variants, which go to definition opens and an editor should
not let the author change (the VS Code extension makes them read-only); ``null`` in a
checkout, where ``spec/variants`` is the project's own.

Columns: the analysis counts code points; the editor counts UTF-16 units (or what the
client and server agreed on): :func:`_to_client` and :func:`_from_client` convert, with
lines ending at ``\\n`` only, as the parser counts them (spec §11.1).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from boodle import __version__
from boodle.language.errors import BoodleError
from boodle.language.formatter import format_text
from boodle.lsp import analysis as an
from boodle.lsp import features as ft

if TYPE_CHECKING:
    from boodle.lsp.verify_on_save import VerifyNote

DEBOUNCE_S = 0.15
"""Seconds without a change before a document is analysed again."""


@dataclass
class _Document:
    """What the server knows of one open document."""

    version: int = 0
    last: an.Analysis | None = None
    parsed: an.Analysis | None = None
    pending: asyncio.Task[None] | None = field(default=None, repr=False)
    verified: list[lsp.Diagnostic] = field(default_factory=list)
    """The last verification's diagnostics, shown while the text is ``verified_text``."""
    verified_text: str | None = None
    verifying: asyncio.Task[None] | None = field(default=None, repr=False)


class BoodleServer(LanguageServer):
    """The pygls server with the documents' analyses and the editor's language."""

    def __init__(self) -> None:
        super().__init__("boodle", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.documents: dict[str, _Document] = {}
        self.lang = "en"
        self.verify_on_save = False
        self.verify_timeout: float | None = None
        """Seconds a verification may run (initialization option ``verifyTimeout``);
        ``None``: :data:`~boodle.lsp.verify_on_save.TIMEOUT_S`."""


def _path(uri: str) -> str:
    """The file path of a ``file:`` URI (another scheme: the URI itself, which names no
    folder: ``extends`` then finds only built-ins)."""
    if urlparse(uri).scheme == "file":
        path = to_fs_path(uri)
        if path:
            return path
    return "<" + unquote(uri) + ">"


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _units(server: LanguageServer, text: str) -> int:
    codec = server.workspace.position_encoding
    if codec == lsp.PositionEncodingKind.Utf32:
        return len(text)
    if codec == lsp.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def _to_client(server: LanguageServer, text: str, where: an.Range) -> lsp.Range:
    lines = _lines(text)

    def position(line: int, column: int) -> lsp.Position:
        if line >= len(lines):
            return lsp.Position(line=len(lines) - 1, character=_units(server, lines[-1]))
        return lsp.Position(line=line, character=_units(server, lines[line][:column]))

    return lsp.Range(start=position(where.line, where.column),
                     end=position(where.end_line, where.end_column))


def _from_client(server: LanguageServer, text: str, position: lsp.Position) -> tuple[int, int]:
    lines = _lines(text)
    if position.line >= len(lines):
        return len(lines) - 1, len(lines[-1])
    line = lines[position.line]
    units = 0
    for column, char in enumerate(line):
        if units >= position.character:
            return position.line, column
        units += _units(server, char)
    return position.line, len(line)


def _text(server: LanguageServer, uri: str) -> str:
    return server.workspace.get_text_document(uri).source


def _publish(server: BoodleServer, uri: str) -> None:
    doc = server.documents.setdefault(uri, _Document())
    text = _text(server, uri)
    result = an.analyse(text, _path(uri))
    doc.last = result
    if result.decl is not None:
        doc.parsed = result
    diagnostics = [_diagnostic(server, text, d) for d in result.diagnostics]
    if doc.verified_text == text:
        diagnostics += doc.verified
    server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, diagnostics=diagnostics, version=doc.version))


def _diagnostic(server: LanguageServer, text: str, d: an.Diagnostic) -> lsp.Diagnostic:
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "") \
        + "".join(f"\nnote: {note}" for note in d.notes)
    related = [info for info in (_related(note) for note in (d.message, *d.notes)) if info]
    return lsp.Diagnostic(
        range=_to_client(server, text, d.range), message=message,
        severity=(lsp.DiagnosticSeverity.Error if d.severity == "error"
                  else lsp.DiagnosticSeverity.Warning),
        source="boodle", code=d.kind, related_information=related or None)


_PLACE = re.compile(r"((?:[A-Za-z]:)?[^\s:()]+\.boodle):(\d+):(\d+)")


def _related(note: str) -> lsp.DiagnosticRelatedInformation | None:
    """A note (or message) that names a place in a rules file (``…/michigan.boodle:12:3``,
    a base's line) as related information, so the editor can open it."""
    found = _PLACE.search(note)
    if found is None or not os.path.isfile(found.group(1)):
        return None
    uri = from_fs_path(os.path.abspath(found.group(1)))
    if uri is None:
        return None
    line, column = int(found.group(2)) - 1, int(found.group(3)) - 1
    where = lsp.Position(line=max(line, 0), character=max(column, 0))
    return lsp.DiagnosticRelatedInformation(
        location=lsp.Location(uri=uri, range=lsp.Range(start=where, end=where)), message=note)


async def _later(server: BoodleServer, uri: str, version: int) -> None:
    await asyncio.sleep(DEBOUNCE_S)
    doc = server.documents.get(uri)
    if doc is None or doc.version != version:
        return
    _publish(server, uri)


async def _verify(server: BoodleServer, uri: str, text: str) -> None:
    """``boodle verify`` of the saved file in a child process (bounded, killed when
    cancelled), its report as the document's diagnostics (:mod:`.verify_on_save`)."""
    import tempfile

    from boodle.lsp import verify_on_save as vs

    doc = server.documents.get(uri)
    result = doc.last if doc is not None else None
    line = result.decl.span.line - 1 if result is not None and result.decl is not None else 0
    with tempfile.TemporaryDirectory(prefix="boodle-lsp-verify-") as cex_dir:
        process = await asyncio.create_subprocess_exec(
            *vs.command(_path(uri), cex_dir), stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, stdin=asyncio.subprocess.DEVNULL)
        try:
            timeout = server.verify_timeout or vs.TIMEOUT_S
            out, _ = await asyncio.wait_for(process.communicate(), timeout)
            notes = vs.parse_report(out)
        except TimeoutError:
            notes = [vs.VerifyNote("warning", f"boodle verify stopped after "
                                   f"{timeout:g} s: nothing proven yet")]
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    doc = server.documents.get(uri)
    if doc is None:
        return
    doc.verified = verify_diagnostics(uri, _to_client(server, text, vs.where(line)), notes)
    doc.verified_text = text
    _publish(server, uri)


_SEVERITIES = {"error": lsp.DiagnosticSeverity.Error,
               "warning": lsp.DiagnosticSeverity.Warning,
               "information": lsp.DiagnosticSeverity.Information}


def verify_diagnostics(uri: str, where: lsp.Range,
                       notes: list[VerifyNote]) -> list[lsp.Diagnostic]:
    """The notes of a verification (:class:`~boodle.lsp.verify_on_save.VerifyNote`) as the
    document's diagnostics at ``where`` (the ``variant`` line): each with its severity, and
    a counterexample's trace as related information, one step a line."""
    return [lsp.Diagnostic(
        range=where, message=note.message, severity=_SEVERITIES[note.severity],
        source="boodle verify", code="verify",
        related_information=[lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=uri, range=where), message=step)
            for step in note.trace] or None)
        for note in notes]


READ_ONLY_FOLDER = "boodle/readOnlyFolder"
"""boodle's request for :func:`read_only_folder` (no parameters)."""


def read_only_folder() -> str | None:
    """The folder of the built-in variants when it is the installed package's
    (``boodle/data/variants``, see :mod:`boodle.resources`): files that go to definition
    opens and that an edit would change for every rules file of the installation; ``None``
    in a source checkout, whose ``spec/variants`` is the project's text to edit."""
    from boodle.resources import variants_dir

    folder = variants_dir().resolve()
    installed = (Path(__file__).resolve().parent.parent / "data" / "variants").resolve()
    return str(folder) if folder == installed else None


def make_server() -> BoodleServer:
    """The server with every feature registered (not started)."""
    server = BoodleServer()

    @server.feature(READ_ONLY_FOLDER)
    def read_only(ls: BoodleServer, params: Any) -> str | None:
        return read_only_folder()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: BoodleServer, params: lsp.InitializeParams) -> None:
        from boodle.docs.templates import languages
        from boodle.lsp import verify_on_save as vs

        locale = (params.locale or "en").lower().replace("_", "-").split("-")[0]
        ls.lang = locale if locale in languages() else "en"
        options = params.initialization_options
        ls.verify_on_save = isinstance(options, dict) and options.get("verifyOnSave") is True
        timeout = options.get("verifyTimeout") if isinstance(options, dict) else None
        if isinstance(timeout, int | float) and not isinstance(timeout, bool) \
                and 0 < timeout <= vs.TIMEOUT_S:
            ls.verify_timeout = float(timeout)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: BoodleServer, params: lsp.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.documents[uri] = _Document(version=params.text_document.version)
        _publish(ls, uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: BoodleServer, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.documents.setdefault(uri, _Document())
        doc.version = params.text_document.version
        if doc.pending is not None:
            doc.pending.cancel()
        doc.pending = asyncio.get_running_loop().create_task(_later(ls, uri, doc.version))

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: BoodleServer, params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        _publish(ls, uri)
        doc = ls.documents.setdefault(uri, _Document())
        if ls.verify_on_save and not _path(uri).startswith("<"):
            if doc.verifying is not None:
                doc.verifying.cancel()  # the file changed: the run in progress is stale
            doc.verifying = asyncio.get_running_loop().create_task(
                _verify(ls, uri, _text(ls, uri)))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: BoodleServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.documents.pop(uri, None)
        for task in (doc.pending, doc.verifying) if doc is not None else ():
            if task is not None:
                task.cancel()
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri,
                                                                          diagnostics=[]))

    def current(ls: BoodleServer, uri: str) -> an.Analysis:
        """The analysis of the document as it is now (analysed again if it changed since:
        a request must answer about the text the editor shows)."""
        doc = ls.documents.setdefault(uri, _Document())
        text = _text(ls, uri)
        if doc.last is None or doc.last.text != text:
            doc.last = an.analyse(text, _path(uri))
            if doc.last.decl is not None:
                doc.parsed = doc.last
        return doc.last

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: BoodleServer, params: lsp.HoverParams) -> lsp.Hover | None:
        try:
            result = current(ls, params.text_document.uri)
            line, column = _from_client(ls, result.text, params.position)
            found = ft.hover(result, line, column, ls.lang)
        except Exception as exc:
            logging.getLogger(__name__).exception("hover: %s", exc)
            return None
        if found is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                    value=found.markdown),
                         range=_to_client(ls, result.text, found.range))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=[":", ",", " "]))
    def completion(ls: BoodleServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        uri = params.text_document.uri
        try:
            text = _text(ls, uri)
            doc = ls.documents.setdefault(uri, _Document())
            line, column = _from_client(ls, text, params.position)
            known = doc.parsed if doc.parsed is not None else current(ls, uri)
            items = ft.completions(text, _path(uri), line, column, known)
        except Exception as exc:
            logging.getLogger(__name__).exception("completion: %s", exc)
            items = []
        return lsp.CompletionList(is_incomplete=False, items=[
            lsp.CompletionItem(label=item.label, kind=_KINDS[item.kind],
                               detail=item.detail or item.kind)
            for item in items])

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: BoodleServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        try:
            result = current(ls, params.text_document.uri)
            line, column = _from_client(ls, result.text, params.position)
            found = ft.definition(result, line, column)
            if found is None:
                return None
            uri = (params.text_document.uri if found.path == result.path
                   else from_fs_path(found.path) or found.path)
            target = result.text if found.path == result.path else _file_text(found.path)
            return lsp.Location(uri=uri, range=_to_client(ls, target, found.range))
        except Exception as exc:
            logging.getLogger(__name__).exception("definition: %s", exc)
            return None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: BoodleServer,
                        params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        try:
            result = current(ls, params.text_document.uri)
            return [_symbol(ls, result.text, s) for s in ft.symbols(result)]
        except Exception as exc:
            logging.getLogger(__name__).exception("symbols: %s", exc)
            return []

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: BoodleServer,
                   params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        """The canonical layout of the document (``boodle fmt``'s, comments kept), as one
        edit of the whole text; none for a text with errors (its diagnostics say them) or
        already canonical."""
        uri = params.text_document.uri
        try:
            text = _text(ls, uri)
            formatted = format_text(text, _path(uri))
        except BoodleError:
            return []
        except Exception as exc:
            logging.getLogger(__name__).exception("formatting: %s", exc)
            return []
        if formatted == text:
            return []
        lines = text.split("\n")
        end = lsp.Position(line=len(lines) - 1,
                           character=len(lines[-1].encode("utf-16-le")) // 2)
        return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end),
                             new_text=formatted)]

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: BoodleServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        out: list[lsp.CodeAction] = []
        try:
            result = current(ls, uri)
            for diag in result.diagnostics:
                shown = _to_client(ls, result.text, diag.range)
                if not _overlaps(shown, params.range):
                    continue
                for fix in an.fixes(result, diag):
                    edits = [lsp.TextEdit(range=_to_client(ls, result.text, e.range),
                                          new_text=e.new_text) for e in fix.edits]
                    out.append(lsp.CodeAction(
                        title=fix.title, kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[_diagnostic(ls, result.text, diag)], is_preferred=True,
                        edit=lsp.WorkspaceEdit(changes={uri: edits})))
        except Exception as exc:
            logging.getLogger(__name__).exception("code action: %s", exc)
        return out

    return server


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _file_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeError):
        return ""


_KINDS: dict[str, lsp.CompletionItemKind] = {
    "keyword": lsp.CompletionItemKind.Keyword, "phrase": lsp.CompletionItemKind.Snippet,
    "card": lsp.CompletionItemKind.Constant, "section": lsp.CompletionItemKind.Variable,
    "phase": lsp.CompletionItemKind.Function, "variant": lsp.CompletionItemKind.Module,
}

_SYMBOL_KINDS: dict[str, lsp.SymbolKind] = {
    "variant": lsp.SymbolKind.Module, "block": lsp.SymbolKind.Struct,
    "phase": lsp.SymbolKind.Function, "line": lsp.SymbolKind.Property,
}


def _symbol(server: LanguageServer, text: str, symbol: ft.Symbol) -> lsp.DocumentSymbol:
    where = _to_client(server, text, symbol.range)
    return lsp.DocumentSymbol(name=symbol.name, kind=_SYMBOL_KINDS[symbol.kind], range=where,
                              selection_range=where, detail=symbol.detail or None,
                              children=[_symbol(server, text, c) for c in symbol.children])


class OneLine(logging.Formatter):
    """A log record on one line, its exception as ``(Type: message)``: what the server (and
    pygls, for a message that is not JSON) logs reaches the editor's output as a sentence,
    never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            text += f" ({type(exc).__name__}: {exc})"
        return f"boodle lsp: {record.levelname.lower()}: {text}"


def main(_args: Any = None) -> int:
    """Run the server on stdin and stdout until the editor shuts it down (its log, warnings
    and errors, on stderr one line each: :class:`OneLine`)."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(OneLine())
        handler.setLevel(logging.WARNING)
        root.addHandler(handler)
    make_server().start_io()
    return 0
