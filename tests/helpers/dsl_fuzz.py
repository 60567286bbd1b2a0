"""Hypothesis strategies for hostile rules texts, and the property every outcome must have.

Three families of inputs (issue 9):

- :func:`random_texts`: any Unicode, lone surrogates and control characters included;
- :func:`token_soups`: words of the language (keywords, cards, names, numbers, braces) in
  random order, so the parser gets past its first token;
- :func:`grammar_texts`: random sentences of the grammar itself, which always parse, so
  the builder's every check is reached;
- :func:`mutated_texts`: a built-in variant or a draft, changed by a few edits (a token
  inserted, deleted, swapped or replaced, a line duplicated, deleted or moved, a number made
  huge, random Unicode, a block cut short, a block or a rule regrown from its grammar rule),
  so the builder's checks are reached too.

:func:`check_outcome` loads a text and asserts the outcome is a ``Ruleset`` or a
``BoodleError`` whose location lies inside the text it quotes and whose ``render()``
works — never another exception, never a hang (:data:`TIME_LIMIT` seconds per input).

Used by ``tests/unit/test_fuzz_dsl.py`` (a bounded run) and ``bench/fuzz_dsl.py`` (≥ 100,000).
"""

from __future__ import annotations

import re
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boodle.language.build import load_text
from boodle.language.errors import BoodleError
from boodle.language.model import Ruleset
from boodle.resources import grammar_path, variants_dir

TIME_LIMIT = 5.0
"""CPU seconds one input may take before it counts as a hang (a parse takes milliseconds);
twelve times as many seconds of wall-clock time (a shared machine can starve a process)."""

SEEDS: tuple[tuple[str, str], ...] = tuple(
    (str(path), path.read_text(encoding="utf-8"))
    for path in sorted(variants_dir().rglob("*.boodle"))
)
"""(file, text) of every built-in variant and draft: the starting points of mutations."""

_WORD = re.compile(r'"[^"\n]*"|#[^\n]*|[\w♣♦♥♠-]+|\S')
KEYWORDS: tuple[str, ...] = tuple(sorted(
    word for word in set(re.findall(r'"([^"\\]+)"', grammar_path().read_text(encoding="utf-8")))
    if re.fullmatch(r"[a-z]+|[{}:,]", word)
))
"""Every quoted word and symbol of the grammar (``variant``, ``{``, ``:`` …)."""

ATOMS: tuple[str, ...] = (
    "A♥", "K♣", "Q♦", "J♠", "10♥", "TH", "KC", "2S", "9D", "1♥", "11♣", "A", "K", "10", "♣",
    "♥", "C", "H", "kitty", "pot", "michigan", "tripoli", "base", "x", "king-queen", '"Kitty"',
    '""', '"', "0", "1", "5", "20", "21", "1000000", "1000001", "999999999999", "9" * 5000,
    "#", "\n", "-", "--", "_", "é", "\u2028", "\x00", "\r",
)
"""Values that are not keywords: cards good and bad, names, labels, edge-case numbers."""

CARDS = tuple(f"{r}{s}" for r in ("2", "5", "9", "10", "J", "Q", "K", "A", "T")
              for s in ("♣", "♦", "♥", "♠", "C", "H"))
"""Cards in both text forms, for same-class replacements."""

HUGE_NUMBERS = ("0", "1", "21", "1001", "1000000", "1000001", "1000000000", "1000000001",
                "0" * 30 + "7", "9" * 40, "9" * 4301, "18446744073709551617")


@dataclass(frozen=True)
class Outcome:
    """What one input gave: ``kind`` is ``"ruleset"`` or ``"error"``."""

    kind: str
    message: str


class Hang(BaseException):
    """An input ran past :data:`TIME_LIMIT` (a BaseException: no ``except Exception`` eats it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread if the block uses more than ``seconds`` of CPU
    time, or more than twelve times that of wall-clock time."""

    def _cpu(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s of CPU time")

    def _wall(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {12 * seconds} s")

    previous = signal.signal(signal.SIGPROF, _cpu), signal.signal(signal.SIGALRM, _wall)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, 12 * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


def check_outcome(text: str, file: str) -> Outcome:
    """Load ``text`` as rules file ``file`` and check the outcome (raises AssertionError).

    A :class:`BoodleError` must carry a span whose line and column lie in the text the
    span quotes (the input itself, or a base variant's file for an error met while
    loading it), and must render.  Any other exception propagates, as does :class:`Hang`.
    """
    try:
        with time_limit(TIME_LIMIT):
            ruleset = load_text(text, file)
    except BoodleError as exc:
        check_error(exc, text, file)
        return Outcome("error", exc.message)
    assert isinstance(ruleset, Ruleset)
    return Outcome("ruleset", ruleset.name)


def check_error(exc: BoodleError, text: str, file: str) -> None:
    """The location property of one error (see :func:`check_outcome`)."""
    span = exc.span
    assert span is not None, f"error without a location: {exc.message}"
    shown = re.sub("[\ud800-\udfff]", "\ufffd", text)  # surrogates are quoted as U+FFFD
    shown = shown.removeprefix("\ufeff")  # a leading byte order mark is dropped (spec §11.1)
    if span.text != shown:  # an error in a base variant, read from its file
        assert Path(span.file).is_file(), f"the span quotes a text that is not {span.file}"
        assert span.text == Path(span.file).read_text(encoding="utf-8")
    lines = span.text.split("\n")
    assert 1 <= span.line <= len(lines), f"line {span.line} of {len(lines)}"
    assert 1 <= span.column <= len(lines[span.line - 1].removesuffix("\r")) + 1, (
        f"column {span.column} past the end of line {span.line}"
    )
    assert (span.end_line, span.end_column) >= (span.line, span.column)
    rendered = exc.render()
    assert rendered.startswith(f"{span.file}:{span.line}:{span.column}: error: ")
    rendered.encode("utf-8")  # printable on a UTF-8 terminal (no lone surrogates)


# ---------------------------------------------------------------- strategies

_ODD = st.sampled_from(["\x00", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029",
                        "\ufeff", "\u200b", "\U0010ffff", "\u0301"])
_UNICODE = st.characters() | st.characters(categories=["Cc", "Zl", "Zp", "Mn"]) | _ODD
"""Any code point but surrogates; control characters and line separators made common."""
_SURROGATE = st.characters(categories=["Cs"])
"""A lone surrogate: only an in-memory ``str`` can hold one; added to one input in ten."""


def _maybe_surrogate(draw: st.DrawFn, text: str) -> str:
    if draw(st.integers(0, 9)) < 9:  # Hypothesis leans to small integers: rarer than 1 in 10
        return text
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(_SURROGATE) + text[at:]


@st.composite
def random_texts(draw: st.DrawFn) -> str:
    """Any text, from any code points; sometimes starting like a variant."""
    prefix = draw(st.sampled_from(["", "variant ", "variant x {",
                                   "variant x extends michigan {\n"]))
    body = draw(st.text(_UNICODE, max_size=200)
                | st.text(st.sampled_from("{}:,#\"\n \t♣♥10AKQJ"), max_size=200))
    return _maybe_surrogate(draw, prefix + body)


def token_soups() -> st.SearchStrategy[str]:
    """Words of the language in random order, joined by spaces or line breaks."""
    word = st.sampled_from(KEYWORDS) | st.sampled_from(ATOMS)
    sep = st.sampled_from([" ", "\n", "  ", ""])
    words = st.lists(st.tuples(word, sep), max_size=80)
    head = st.sampled_from(["variant x {\n", "variant x extends michigan {\n", ""])
    return st.builds(lambda h, ws: h + "".join(w + s for w, s in ws) + "\n}\n", head, words)


_TERMINAL_SAMPLES: dict[str, tuple[str, ...]] = {
    "CARD": ("A♥", "K♣", "Q♦", "J♠", "10♥", "2♣", "TH", "KC", "5S", "9D"),
    "RANK": ("2", "5", "9", "10", "J", "Q", "K", "A", "T"),
    "SUIT": ("♣", "♦", "♥", "♠", "C", "H"),
    "NAME": ("kitty", "pot", "play", "poker", "hearts", "x", "michigan", "tripoli", "rummoli"),
    "STRING": ('"Kitty"', '""', '"Pot"'),
    "INT": ("3", "2", "1", "4", "5", "8", "2", "3", "6", "10", "20", "0", "21", "1001",
            "1000000", "1000001"),
}
"""Values for the grammar's pattern terminals; names often match sections and phases."""


def _grammar() -> tuple[dict[str, list[list[str]]], dict[str, tuple[str, ...]]]:
    """The parser's rules (non-terminal → expansions) and a few texts per terminal."""
    from boodle.language.grammar import parser

    lark = parser()
    rules: dict[str, list[list[str]]] = {}
    for rule in lark.rules:
        rules.setdefault(rule.origin.name, []).append([sym.name for sym in rule.expansion])
    texts: dict[str, tuple[str, ...]] = {}
    for term in lark.terminals:
        if term.name in _TERMINAL_SAMPLES:
            texts[term.name] = _TERMINAL_SAMPLES[term.name]
        elif term.pattern.type == "str":
            texts[term.name] = (term.pattern.value,)
        else:  # (?:left|right) and the like
            texts[term.name] = tuple(re.findall(r"[a-z]+", term.pattern.value))
    return rules, texts


def _min_depth(rules: dict[str, list[list[str]]]) -> dict[str, int]:
    """The depth of the shallowest derivation of each non-terminal (terminals: 0)."""
    depth: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for name, expansions in rules.items():
            for exp in expansions:
                if all(s not in rules or s in depth for s in exp):
                    d = 1 + max((depth[s] for s in exp if s in rules), default=0)
                    if d < depth.get(name, 1 << 30):
                        depth[name], changed = d, True
    return depth


def _derive(draw: st.DrawFn, symbol: str, first: str | None = None, max_depth: int = 10,
            names: tuple[str, ...] = ()) -> str:
    """A random derivation of grammar symbol ``symbol`` (an expansion starting with terminal
    ``first`` if given).  Past ``max_depth`` only the shallowest expansion is taken, so
    lists end; ``names`` join the pool of NAME values."""
    rules, texts = _GRAMMAR
    out: list[str] = []

    def expand(sym: str, depth: int, head: str | None = None) -> None:
        if sym not in rules:
            pool = texts[sym] + names if sym == "NAME" else texts[sym]
            out.append(draw(st.sampled_from(pool)))
            return
        options = [e for e in rules[sym] if head is None or e[:1] == [head]]
        if depth >= max_depth:
            options = [min(options, key=lambda e: max((_DEPTH.get(x, 0) for x in e),
                                                      default=0))]
        for part in draw(st.sampled_from(options)):
            expand(part, depth + 1)

    expand(symbol, 0, first)
    return " ".join(out)


@st.composite
def grammar_texts(draw: st.DrawFn) -> str:
    """A random variant built from sentences of the grammar: it always parses.

    Each block a variant needs (players, deck, board, ante, deal, a phase, session) is
    present nine times in ten, each a random derivation of its grammar rule (see
    :func:`_derive`), and now and then one more random item.  Pattern terminals take values
    from a small pool, so section and phase names often refer to something that exists.
    """
    out = ["variant " + draw(st.sampled_from(["x", "house", "michigan"]))]
    if draw(st.integers(0, 9)) == 9:
        out.append("extends " + draw(st.sampled_from(["michigan", "x", "tripoli"])))
    out.append("{")
    blocks = [("item", "PLAYERS"), ("deck", None), ("board", None), ("ante", None),
              ("deal", None), ("phase", None), ("session", None)]
    for symbol, first in blocks:
        if draw(st.integers(0, 9)) < 9:
            out.append(_derive(draw, symbol, first))
    for _ in range(draw(st.integers(0, 9)) // 5):  # one more item, now and then
        out.append(_derive(draw, "item"))
    out.append("}")
    return " ".join(out)


_REGROW = re.compile(
    r"^ *(players [^\n]*|(deck|board|ante|deal|session|widow sale|phase [^{\n]*)\s*\{[^{}]*\}"
    r"|(first lead|follow|stop|restart|if none|all pass|claims|going out|penalty|stop bonus)"
    r"\s*:[^\n]*)", re.M)
_REGROW_SYMBOL = {"players": ("item", "PLAYERS"), "deck": ("deck", None),
                  "board": ("board", None), "ante": ("ante", None), "deal": ("deal", None),
                  "session": ("session", None), "widow": ("widow_sale", None),
                  "phase": ("phase", None)}


def _regrow(draw: st.DrawFn, text: str) -> str | None:
    """``text`` with one block, or one rule of a stops phase, replaced by a random
    derivation of its grammar rule (None if the text has none left)."""
    found = list(_REGROW.finditer(text))
    if not found:
        return None
    m = found[draw(st.integers(0, len(found) - 1))]
    symbol, first = ("stops_rule", None) if m.group(3) else _REGROW_SYMBOL[m.group(1).split()[0]]
    names = tuple(sorted(set(re.findall(r"\b[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*\b", text))))[:40]
    return text[: m.start(1)] + _derive(draw, symbol, first, names=names) + text[m.end(1) :]


_GRAMMAR = _grammar()
_DEPTH = _min_depth(_GRAMMAR[0])


@st.composite
def _edit(draw: st.DrawFn, text: str) -> str:
    """One random edit of ``text``."""
    words = _WORD.findall(text)
    lines = text.split("\n")
    kind = draw(st.sampled_from([
        "regrow", "same-class", "del-line", "move-line", "number", "insert", "delete", "swap",
        "replace", "dup-line", "unicode", "cut", "splice", "del-span",
    ]))
    if kind == "regrow" and (grown := _regrow(draw, text)) is not None:
        return grown
    if kind == "same-class" and words:  # keeps the syntax, so the builder's checks run
        i = draw(st.integers(0, len(words) - 1))
        word = words[i]
        if re.fullmatch(r"(10|[2-9TJQKA])[♣♦♥♠CDHS]", word):
            words[i] = draw(st.sampled_from(CARDS))
        elif word.isdigit():
            words[i] = draw(st.sampled_from(HUGE_NUMBERS[:8]))
        elif re.fullmatch(r"[a-z][\w-]*", word):
            words[i] = draw(st.sampled_from(KEYWORDS) | st.sampled_from(
                [w for w in words if re.fullmatch(r"[a-z][\w-]*", w)]))
        return _join(words)
    if kind in ("insert", "delete", "swap", "replace") and words:
        i = draw(st.integers(0, len(words) - 1))
        j = draw(st.integers(0, len(words) - 1))
        new = draw(st.sampled_from(KEYWORDS) | st.sampled_from(ATOMS) | st.sampled_from(words))
        if kind == "insert":
            words.insert(i, new)
        elif kind == "delete":
            del words[i : i + draw(st.integers(1, 3))]
        elif kind == "swap":
            words[i], words[j] = words[j], words[i]
        else:
            words[i] = new
        return _join(words)
    if kind in ("dup-line", "del-line", "move-line") and lines:
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines)))
        line = lines[i]
        if kind != "dup-line":
            del lines[i]
        if kind != "del-line":
            lines.insert(min(j, len(lines)), line)
        return "\n".join(lines)
    if kind == "number":
        numbers = list(re.finditer(r"\b[0-9]+\b", text))
        if numbers:
            m = numbers[draw(st.integers(0, len(numbers) - 1))]
            return text[: m.start()] + draw(st.sampled_from(HUGE_NUMBERS)) + text[m.end() :]
    at = draw(st.integers(0, len(text)))
    if kind == "unicode":
        return text[:at] + draw(st.text(_UNICODE, min_size=1, max_size=4)) + text[at:]
    if kind == "cut":
        return text[:at]
    if kind == "splice":
        _, other = draw(st.sampled_from(SEEDS))
        k = draw(st.integers(0, len(other)))
        return text[:at] + other[k : k + draw(st.integers(1, 400))] + text[at:]
    return text[:at] + text[at + draw(st.integers(1, 60)) :]


def _join(words: list[str]) -> str:
    """Words back into text; a comment keeps its line break so it swallows nothing."""
    return " ".join(w + "\n" if w.startswith("#") else w for w in words)


@st.composite
def mutated_texts(draw: st.DrawFn) -> tuple[str, str]:
    """``(file, text)``: a built-in variant or draft after 1 to 4 edits.

    ``file`` is the seed's real path, so ``extends`` resolves as it would for that file.
    """
    file, text = draw(st.sampled_from(SEEDS))
    if draw(st.booleans()):  # comments off: more of each edit lands on code
        text = re.sub(r"#[^\n]*", "", text)
    for _ in range(draw(st.integers(1, 4))):
        text = draw(_edit(text))
    return file, _maybe_surrogate(draw, text)


def any_input() -> st.SearchStrategy[tuple[str, str]]:
    """One input of any family, with the file name it is loaded as."""
    plain = (random_texts() | token_soups() | grammar_texts()).map(lambda t: ("<fuzz>", t))
    return mutated_texts() | plain


def run_inputs(strategy: st.SearchStrategy[tuple[str, str]], examples: int,
               derandomize: bool = True) -> Counter[str]:
    """Check ``examples`` inputs (file name, text) with :func:`check_outcome`; count the
    outcomes: ``ruleset``, and error messages by shape (quoted words and numbers elided)."""
    seen: Counter[str] = Counter()

    @settings(database=None, deadline=None, suppress_health_check=list(HealthCheck),
              max_examples=examples, derandomize=derandomize)
    @given(strategy)
    def one(case: tuple[str, str]) -> None:
        outcome = check_outcome(case[1], case[0])
        seen["ruleset" if outcome.kind == "ruleset"
             else re.sub(r"'[^']*'|U\+\w+|\d+", "…", outcome.message)] += 1

    one()
    return seen
