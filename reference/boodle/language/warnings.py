"""The warnings of a rules file: rules that are legal but suspect (spec §11.2).

:func:`rules_warnings` is the one place they are found; the language server shows them as
diagnostics (:mod:`boodle.lsp.analysis`) and ``boodle check`` prints them as
``FILE:LINE:COL: warning: …`` with their hint (:func:`file_warnings`).  Seven checks:

- a line of a house rule that says what its base already says (the same clause, the same
  phase rule): it changes nothing (:data:`RESTATED`);
- a house rule that changes no rule of its base (``boodle check`` says "changes from
  michigan: nothing");
- a section of the board that nothing ever pays out: no card claims it, no phase pays it,
  no one going out takes it (the rules page says "never won");
- a blind of a betting round above the chips each player starts with (spec §8.3, §10): at
  the first deal every such blind is posted all in;
- a file ``NAME.boodle`` holding a variant of another name (spec §11.1: a file SHOULD be
  named after its variant): ``extends`` looks a base up by its file's name, so another file
  of the folder could not extend it;
- a ``stop bonus: 0 from …`` (spec §6.7): it pays nothing, and ``stop bonus: none`` says so;
- an ``ante`` block that holds only ``short stack:`` (spec §4, §11.2): it replaces the
  base's whole block, so nobody antes.

A warning never refuses a file: ``boodle check`` exits 0 on a file that has only warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from boodle.language import model as m
from boodle.language.build import Resolved, build, default_resolver, resolve
from boodle.language.errors import BoodleError, Span
from boodle.language.extends import read_rules_file
from boodle.language.grammar import BOM
from boodle.language.syntax import Clause, PhaseDecl, VariantDecl, parse

WarningKind = Literal["restated", "unchanged", "never claimed", "blind beyond start",
                      "file name", "pays nothing", "no ante line"]

RESTATED = "this line says what the base already says: it changes nothing"
"""The message of a restated line (its quick fix deletes the line)."""

_DOCUMENTATION = ("title", "about", "sources", "version")
"""Clauses that are no rules: a house rule citing its base's source says where it comes
from."""


@dataclass(frozen=True)
class RulesWarning:
    """One warning: where (``span``, in the file checked), what (``message``), what to do
    (``hint``) and which check found it (``kind``)."""

    span: Span
    message: str
    hint: str
    kind: WarningKind

    def render(self) -> str:
        """``FILE:LINE:COL: warning: MESSAGE`` then ``  hint: HINT`` (as errors print)."""
        return f"{self.span}: warning: {self.message}\n  hint: {self.hint}"


def rules_warnings(decl: VariantDecl, resolved: Resolved, ruleset: m.Ruleset,
                   base: m.Ruleset | None) -> tuple[RulesWarning, ...]:
    """Every warning of the rules file ``decl`` (parsed), ``resolved`` (its ``extends``
    chain merged) and ``ruleset`` (built), given ``base``, the ruleset of the variant it
    extends (``None``: it extends nothing, or the base does not build alone), in the order:
    a file named for another variant, restated lines, a house rule that changes nothing,
    sections never claimed, blinds above the start, stop bonuses of 0 chips, an ante block
    of only ``short stack:``."""
    return (*_file_name(decl), *_restated_lines(resolved), *_unchanged(decl, ruleset, base),
            *_never_claimed(ruleset, decl.span.file),
            *_blinds_beyond_start(ruleset, decl.span.file),
            *_bonus_of_nothing(ruleset, decl.span.file), *_only_short_stack(decl))


def file_warnings(path: str | Path) -> tuple[RulesWarning, ...]:
    """The warnings of the rules file at ``path`` (:func:`rules_warnings`), for ``boodle
    check``; none when it does not read, parse or build (its error is said elsewhere)."""
    file = Path(path)
    try:
        decl = parse(read_rules_file(file).removeprefix(BOM), str(file))
        resolved = resolve(decl, default_resolver, file.parent)
        ruleset = build(resolved)
    except BoodleError:
        return ()
    try:
        base = build(resolved.parent) if resolved.parent is not None else None
    except BoodleError:  # the base does not build alone: no 'changes nothing' to say
        base = None
    return rules_warnings(decl, resolved, ruleset, base)


def _file_name(decl: VariantDecl) -> list[RulesWarning]:
    """A warning on the ``variant`` line of a file ``X.boodle`` whose variant is not ``X``
    (spec §11.1); none for a text that is no ``.boodle`` file (an editor's unsaved buffer)."""
    name = Path(decl.span.file).name
    if not name.endswith(".boodle") or name == f"{decl.name}.boodle":
        return []
    line = decl.span.source_line()
    start = line.find(decl.name, max(0, decl.span.column - 1))
    where = (replace(decl.span, column=start + 1, end_line=decl.span.line,
                     end_column=start + 1 + len(decl.name)) if start >= 0 else decl.span)
    return [RulesWarning(where, f"the file {name} holds the variant '{decl.name}': "
                         f"a file that writes 'extends {decl.name}' looks for "
                         f"{decl.name}.boodle and will not find it",
                         f"rename the file {decl.name}.boodle, or the variant "
                         f"'{name.removesuffix('.boodle')}'", "file name")]


def _restated_lines(resolved: Resolved) -> list[RulesWarning]:
    """A warning on each line of a house rule that says what its base already says."""
    base = {c.key: c for c in resolved.base_items}
    out: list[RulesWarning] = []
    for clause in resolved.own:
        old = base.get(clause.key)
        if old is None or clause.key in _DOCUMENTATION:
            continue
        if isinstance(clause.value, PhaseDecl) and isinstance(old.value, PhaseDecl):
            rules = {r.key: r for r in old.value.rules}
            out += [_same_as_base(rule) for rule in clause.value.rules
                    if rules.get(rule.key) == rule]
        elif clause == old:
            out.append(_same_as_base(clause))
    return out


def _same_as_base(clause: Clause) -> RulesWarning:
    return RulesWarning(clause.span, RESTATED, "delete it, or change it", "restated")


def _unchanged(decl: VariantDecl, ruleset: m.Ruleset,
               base: m.Ruleset | None) -> list[RulesWarning]:
    """A warning on ``extends`` when the house rule changes no rule of its base."""
    from boodle.language.ruleset_diff import diff

    if base is None or decl.base is None or diff(base, ruleset):
        return []
    return [RulesWarning(decl.base.span, f"this house rule changes nothing from {base.name}",
                         "write the lines it changes inside the variant's braces",
                         "unchanged")]


def _never_claimed(ruleset: m.Ruleset, path: str) -> list[RulesWarning]:
    """A warning on each section of the board written in ``path`` that nothing ever pays
    out (the rules page's claims walk finds no way it is won)."""
    from boodle.docs.templates import load
    from boodle.docs.variant_page import section_ways

    t = load("en")
    out: list[RulesWarning] = []
    for section in ruleset.board:
        if section.span is None or section.span.file != path or section_ways(ruleset, t,
                                                                             section):
            continue
        out.append(RulesWarning(section.span,
                                f"no card, phase or going out ever claims section "
                                f"'{section.name}': its chips only carry over",
                                "name it in a phase that pays it, or delete it",
                                "never claimed"))
    return out


def _blinds_beyond_start(ruleset: m.Ruleset, path: str) -> list[RulesWarning]:
    """A warning on a ``blinds:`` line written in ``path`` whose big blind is more than the
    chips each player starts with (``start:``, spec §10): the blind is posted all in at the
    first deal (spec §8.3), so the line does not do what it says.  None for a start of 0
    chips (a points register, where the balances may go below zero)."""
    start = ruleset.session.start_chips
    origin = ruleset.origin
    out: list[RulesWarning] = []
    for phase in ruleset.phases:
        if not isinstance(phase, m.PokerPhase) or not phase.blinds or start <= 0 \
                or max(phase.blinds) <= start or origin is None:
            continue
        span = origin.span(phase, "blinds")
        if span is None or span.file != path:
            continue
        big = max(phase.blinds)
        out.append(RulesWarning(
            span, f"a blind of {big:,} chips is more than the {start:,} chips each player "
            "starts with: at the first deal it is posted all in",
            f"write blinds of at most {start:,} chips, or a larger 'start:' in the session "
            "block", "blind beyond start"))
    return out


def _bonus_of_nothing(ruleset: m.Ruleset, path: str) -> list[RulesWarning]:
    """A warning on a ``stop bonus: 0 from …`` line written in ``path``: a bonus of no chips
    pays nothing (spec §6.7), which ``stop bonus: none`` says in words (and removes a base
    phase's bonus as well)."""
    return [RulesWarning(p.stop_bonus.span, "a stop bonus of 0 chips pays nothing",
                         "write 'stop bonus: none'", "pays nothing")
            for p in ruleset.phases
            if isinstance(p, m.StopsPhase) and p.stop_bonus is not None
            and p.stop_bonus.amount == 0 and p.stop_bonus.span is not None
            and p.stop_bonus.span.file == path]


def _only_short_stack(decl: VariantDecl) -> list[RulesWarning]:
    """A warning on an ``ante`` block of ``decl`` whose only lines are ``short stack:``
    (spec §4): a written block replaces the base's whole (spec §11.2), so the variant
    has no ante line and nobody antes; the ``short stack`` line then has nothing to cut."""
    return [RulesWarning(c.span, "this ante block holds only 'short stack:': it replaces the "
                         "base's whole ante block, so nobody pays an ante",
                         "write the ante lines in this block too", "no ante line")
            for c in decl.items
            if c.key == "ante" and c.value and all(x.key == "short_stack" for x in c.value)]
