"""The DSL reference page: every grammar construct with its meaning, form and an example.

Everything comes from the files the tools read: the constructs and their
forms from ``grammar/boodle.lark`` (grouped by its ``// ---- … ----``
headers, which cite the spec), the meanings from the ``[dsl]`` table of the
English templates, and the examples from the first use of each construct in
the built-in variants and the drafts (parsed by the same Lark parser as the
builder).  A construct used nowhere takes its example from ``[dsl_example]``;
one with neither is a :class:`~boodle.docs.templates.MissingText` error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lark import Tree

from boodle.docs.constructs import grammar_constructs
from boodle.docs.specref import spec_anchors
from boodle.docs.templates import MissingText, Templates
from boodle.language.grammar import parser
from boodle.language.variants import builtin_names, builtin_path, draft_paths
from boodle.resources import grammar_path


@dataclass(frozen=True)
class Form:
    """One construct: its name, grammar form, group header and whether it is a choice rule."""

    name: str
    form: str
    group: str
    choice: bool


def forms(text: str) -> list[Form]:
    """Every construct of the grammar text with its form, in file order."""
    out: dict[str, Form] = {}
    group, rule = "", ""
    for line in text.splitlines():
        header = re.match(r"^//\s*-+\s*(.*?)\s*-+\s*$", line)
        if header:
            group = header.group(1)
            continue
        if line.startswith("//") or not line.strip():
            continue
        named = re.match(r"^\??([a-z_]+)\s*:\s*(.*)$", line)
        body = named.group(2) if named else line.strip().lstrip("|").strip()
        if named:
            rule = named.group(1)
            head = " ".join(re.sub(r"\s*->\s*[a-z_]+\s*$", "", line.strip()).split())
            head += " | …" if "->" in line else ""
            out.setdefault(rule, Form(rule, head, group, "->" in line))
        alias = re.search(r"->\s*([a-z_]+)\s*$", body)
        if alias:
            form = " ".join(body[:alias.start()].split())
            out.setdefault(alias.group(1), Form(alias.group(1), form, group, False))
    return [out[n] for n in grammar_constructs(text) if n in out]


def examples() -> dict[str, tuple[str, str]]:
    """Construct → (its first use as written, ``file:line``), over built-ins then drafts."""
    files = [builtin_path(n) for n in builtin_names()] + draft_paths()
    found: dict[str, tuple[str, str]] = {}
    for path in files:
        _collect(Path(path), found)
    return found


def _collect(path: Path, found: dict[str, tuple[str, str]]) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        tree = parser().parse(text)
    except Exception:  # a draft mid-edit by someone else: no examples from it
        return
    lines = text.splitlines()
    for sub in tree.iter_subtrees_topdown():  # type: ignore[no-untyped-call]
        name = str(sub.data)
        if name in found or not isinstance(sub, Tree) or sub.meta.empty:
            continue
        first, last = sub.meta.line, sub.meta.end_line
        if last - first > 2:
            snippet = lines[first - 1].strip() + " …"
        else:
            snippet = " ".join(s.strip() for s in lines[first - 1:last])
            if first == last:
                snippet = lines[first - 1][sub.meta.column - 1:sub.meta.end_column - 1]
        found[name] = (" ".join(snippet.split("#")[0].split()), f"{path.name}:{first}")


def reference_markdown(t: Templates) -> str:
    """The whole DSL reference page (English)."""
    text = grammar_path().read_text(encoding="utf-8")
    found = examples()
    missing: list[tuple[str, str]] = []
    out = [f"# {t.text('page.dsl_title')}", "", t.text("page.dsl_intro"), ""]
    group = None
    for form in forms(text):
        if form.group != group:
            group = form.group
            out += ["", f"## {_group_title(group)}", ""]
        if not t.has(f"dsl.{form.name}"):
            missing.append((t.lang, f"dsl.{form.name}"))
            continue
        out.append(_entry(form, t, found, missing))
    if missing:
        raise MissingText(missing)
    out += ["", f"## {t.text('page.dsl_grammar')}", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


def _group_title(group: str) -> str:
    anchors = spec_anchors()

    def link(match: re.Match[str]) -> str:
        section = match.group(0)
        return f"[{section}](../spec/rules.md#{anchors[section]})" if section in anchors \
            else section

    return re.sub(r"§\d+(?:\.\d+)*", link, group or "variant")


def _entry(form: Form, t: Templates, found: dict[str, tuple[str, str]],
           missing: list[tuple[str, str]]) -> str:
    line = f"- **`{form.name}`**: {t.text(f'dsl.{form.name}')} Form: `{form.form}`."
    if form.name in found:
        snippet, where = found[form.name]
        return line + f" Example: `{snippet}` ({where})."
    if t.has(f"dsl_example.{form.name}"):
        return line + f" Example: `{t.text(f'dsl_example.{form.name}')}`."
    if not form.choice and not form.form.startswith("?"):
        missing.append((t.lang, f"dsl_example.{form.name}"))
    return line
