"""Expected-failures files: an implementation's known disagreements with the suite.

A text file, one case per line: the case id, spaces, and the reason (which
is required)::

    # boodle-xfail/1 — expected failures of my-michigan 0.3
    michigan.gen-deal-p4-003.0123456789ab  we pay going out in seat order

Blank lines and lines starting with ``#`` are ignored.  The file belongs to
the implementation: ``boodle conformance run --expected-failures FILE``
turns those cases' failures into ``xfail``, fails the run when one passes
(``xpass``: the line is stale), and warns about ids the suite does not know.
``--write-expected-failures FILE`` writes one from a run.
"""

from __future__ import annotations

from pathlib import Path

from boodle.conformance.run_suite import Report
from boodle.language.errors import BoodleError, Span

HEADER = "# boodle-xfail/1"


def read_expected(path: Path) -> dict[str, str]:
    """Case id → reason; raises :class:`BoodleError` (with the line) for a malformed line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoodleError(f"cannot read the expected-failures file {path}: {exc}") from None
    except UnicodeDecodeError:
        raise BoodleError(f"the expected-failures file {path} is not UTF-8 text",
                          hint="save it as UTF-8: one case id, spaces, then the reason, "
                          "per line") from None
    out: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        case_id, _, reason = stripped.partition(" ")
        span = Span(str(path), number, 1, number, len(line) + 1, text)
        if not reason.strip():
            raise BoodleError(f"no reason given for {case_id}", span,
                              hint="write the case id, spaces, then why it is expected to fail")
        if case_id in out:
            raise BoodleError(f"case {case_id} is listed twice", span)
        out[case_id] = reason.strip()
    return out


def write_expected(path: Path, report: Report) -> int:
    """Write every failed or erred case of ``report`` (and keep xfails); returns how many."""
    name = report.implementation.get("name", report.command)
    version = report.implementation.get("version", "")
    lines = [f"{HEADER} — expected failures of {name} {version}".rstrip(),
             "# written by 'boodle conformance run --write-expected-failures'; edit the reasons"]
    count = 0
    for o in report.outcomes:
        if o.outcome in ("fail", "error", "xfail"):
            reason = o.reason or o.summary or o.outcome
            lines.append(f"{o.id}  {' '.join(reason.split())[:200]}")
            count += 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return count
