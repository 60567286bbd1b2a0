"""The command-line side of the session ledger (:mod:`boodle.session.store`).

- ``boodle play VARIANT --players N --session NAME --ledger FILE.sqlite``: play a session,
  recording every deal as it ends; the trace is printed deal by deal.
- ``boodle play --resume FILE.sqlite [--session NAME]``: continue from the last complete deal.
- ``boodle ledger FILE.sqlite [--session NAME]``: the standings, the deal-by-deal history
  and a consistency check (exit 1 if the ledger is inconsistent).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boodle.argtypes import session_name
from boodle.language.errors import BoodleError
from boodle.language.kind_facts import BALANCE_FACTS

if TYPE_CHECKING:  # the engine and the store are imported by the commands that use them
    from boodle.engine.events import Event
    from boodle.engine.ledger import Ledger
    from boodle.language.model import Chips, Ruleset
    from boodle.session.store import Emit, SessionInfo

EXIT_OK, EXIT_RULES, EXIT_USAGE = 0, 1, 2


def add_parser(sub: Any) -> None:
    """Add ``boodle ledger`` to the subcommands ``sub`` (an argparse subparsers action)."""
    ledger = sub.add_parser("ledger", help="print a session ledger's standings and history",
                            description="Print the standings and the deal-by-deal history of "
                            "the sessions in a ledger file, and check that they are consistent "
                            "(exit 1 if not).")
    ledger.add_argument("file", metavar="FILE.sqlite")
    ledger.add_argument("--session", metavar="NAME", type=session_name,
                        help="only this session")
    ledger.set_defaults(func=cmd_ledger)


# ---------------------------------------------------------------- play


def cmd_play_recorded(args: argparse.Namespace, ruleset: Ruleset | None) -> int:
    """``boodle play`` with ``--ledger`` or ``--resume`` (``ruleset`` is None for a resume)."""
    from boodle.session.store import SessionInfo, record_new, resume

    emit = _emitter(args.json)
    if args.resume is not None:
        def say(info: SessionInfo, before: int) -> None:  # first, before the deals' lines
            where = f"after deal {before}" if before else "from its first deal (none was recorded)"
            print(f"resumed session '{info.name}' {where}", file=sys.stderr, flush=True)

        resume(Path(args.resume), args.session, load_rules, emit, say)
        return EXIT_OK
    assert ruleset is not None
    file, text, bases = source_of(args.variant)
    info = SessionInfo(
        name=args.session or ruleset.name, variant=args.variant, file=file, rules=text,
        players=args.players, seed=str(args.seed), strategy=args.strategy, deals=args.deals,
        start_total=ruleset.session.start_chips * args.players, bases=bases,
    )
    record_new(Path(args.ledger), info, load_rules(info), emit)
    return EXIT_OK


def source_of(variant: str) -> tuple[str, str, tuple[tuple[str, str, str], ...]]:
    """``(file, text, bases)`` of a variant argument, read as :func:`boodle.language.variants.load`
    reads it: the absolute file name, its text, and ``(name, file, text)`` of each variant
    its ``extends`` chain loads.  Raises :class:`BoodleError` for a faulty variant."""
    from boodle.language.build import default_resolver, load_text, read_rules_file
    from boodle.language.variants import builtin_path, is_path

    path = Path(variant) if is_path(variant) else builtin_path(variant)
    path = path.absolute()
    text = read_rules_file(path)
    bases: list[tuple[str, str, str]] = []

    def recording(name: str, here: Path | None) -> tuple[str, str]:
        base_text, base_file = default_resolver(name, here)
        bases.append((name, base_file, base_text))
        return base_text, base_file

    load_text(text, str(path), recording)
    return str(path), text, tuple(bases)


def load_rules(info: SessionInfo) -> Ruleset:
    """The ruleset of a stored session, built from the texts it was started with only."""
    from boodle.language.build import load_text

    # the bases in the order the first load asked for them: one chain may hold two variants
    # of one name (a file 'variant michigan extends michigan' and the built-in, spec §11.1)
    stored = list(info.bases)

    def from_ledger(name: str, here: Path | None) -> tuple[str, str]:
        for i, (known, file, text) in enumerate(stored):
            if known == name:
                del stored[i]
                return text, file
        raise KeyError(name)  # not in the ledger, reported as an unknown base

    try:
        return load_text(info.rules, info.file, from_ledger)
    except BoodleError as exc:
        raise exc.with_note(f"while loading the rules stored with session '{info.name}'"
                            ) from None


def _emitter(as_json: bool) -> Emit:
    """Print each committed unit's events at once: the trace of ``boodle play``, unchanged."""
    from boodle.engine.trace import DrawnSeats, render_jsonl, render_text

    first = [True]
    seats = DrawnSeats()

    def emit(events: list[Event]) -> None:
        if not events:
            return
        # a later unit keeps the blank line render_text puts before a deal or its seating
        out = render_jsonl(events) if as_json else render_text(events, start=first[0],
                                                                   seats=seats)
        first[0] = False
        sys.stdout.write(out)
        sys.stdout.flush()

    return emit


# ---------------------------------------------------------------- ledger


def cmd_ledger(args: argparse.Namespace) -> int:
    """``boodle ledger FILE``: each session's header, history, standings and check."""
    from boodle.session.store import check, connect, deal_rows, ending_row, sessions

    path = Path(args.file)
    failures = 0
    with connect(path, read_only=True) as conn:  # a ledger on a read-only disk reads too
        chosen = [s for s in sessions(conn) if args.session in (None, s.name)]
        if not chosen:
            raise BoodleError(f"no session{' ' + repr(args.session) if args.session else ''} "
                              f"in {path}")
        for n, info in enumerate(chosen):
            problems = check(conn, info)
            failures += bool(problems)
            rows, end = deal_rows(conn, info), ending_row(conn, info)
            text = render_session(info, rows, end, problems, path)
            sys.stdout.write(("\n" if n else "") + text)
    return EXIT_RULES if failures else EXIT_OK


def render_session(info: SessionInfo, rows: list[Any], end: dict[str, Any] | None,
                   problems: list[str], path: Path | None = None) -> str:
    """One session as text: header, one line per deal, standings, the check.

    A session without its ending is unfinished: the header says how many of the deals
    planned are recorded and, given the ledger's ``path``, how to resume it.
    """
    from boodle.engine.trace import seat_name

    played = len(rows) - 1 if rows else 0
    lines = [
        f"session {info.name}: {info.variant}, {info.players} players, seed {info.seed}, "
        f"strategy {info.strategy}",
        "  " + _progress_line(info, played, end is not None, path),
        "  " + _row("deal", "dealer", "winner", [seat_name(s) for s in range(info.players)],
                    "board"),
    ]
    for row in rows:
        # the deal's events name seats at the table; the columns name players (spec §10)
        sits = row.progress.seating or range(info.players)
        dealer = next((seat_name(sits[e["dealer"]]) for e in row.events
                       if e.get("kind") == "deal-start"), "-")
        winner = next((seat_name(sits[e["winner"]]) if e["winner"] is not None else "none"
                       for e in row.events if e.get("kind") == "deal-end"), "-")
        lines.append("  " + _ledger_row(str(row.number) if row.number else "start", dealer,
                                         winner, row.ledger))
    final: Ledger | None = rows[-1].ledger if rows else None
    if end is not None:
        final = end["ledger"]
        if end["events"]:
            lines.append("  " + _ledger_row("end", "", "", end["ledger"]))
    if final is not None:
        balances = ", ".join(f"{seat_name(s)} {_chips(a)}" for s, a in enumerate(final.seats))
        head = "final standings" if end is not None and end["events"] else "standings"
        lines.append(f"  {head}: {balances}")
        if end is not None and end["winners"]:
            lines.append("  best: " + ", ".join(seat_name(s) for s in end["winners"]))
        board = sum(a for _, a in final.sections)
        seats = sum(final.seats)
        verdict = ("consistent" if not problems
                   else f"INCONSISTENT ({_plural(len(problems), 'problem')})")
        lines.append(f"  check: players {_chips(seats)} + board {_chips(board)} = "
                     f"{_chips(seats + board)}, start {_chips(info.start_total)}: {verdict}")
    lines += [f"  problem: {p}" for p in problems]
    return "\n".join(lines) + "\n"


def _progress_line(info: SessionInfo, played: int, complete: bool, path: Path | None) -> str:
    """``complete: 8 deals recorded (the whole session)`` or ``in progress: 5 of 8 deals
    recorded …; resume with boodle play --resume FILE``."""
    if complete:
        planned = _plural(info.deals, "deal") if info.deals is not None else "the whole session"
        return f"complete: {_plural(played, 'deal')} recorded ({planned})"
    from boodle.session.run import TIE_DEALS

    if info.deals is not None:
        of = f"{played} of {_plural(info.deals, 'deal')} recorded"
    else:
        try:  # a whole session: rotations × players deals (spec §10)
            session = load_rules(info).session
            sooner = (session.end_when_broke or BALANCE_FACTS[session.negative].eliminates
                      or session.end_last_with_chips or session.end_target is not None)
            if session.rotations is None:  # ended only by a target (spec §10)
                of = f"{_plural(played, 'deal')} of the whole session recorded"
            else:
                extra = TIE_DEALS[session.ties]
                most = session.rotations * info.players + extra
                of = (f"{played} of the whole session's {'up to ' * bool(extra)}"
                      f"{_plural(most, 'deal')} recorded{' (it may end sooner)' * sooner}")
        except BoodleError:
            of = f"{_plural(played, 'deal')} of the whole session recorded"
    resume = f"; resume with boodle play --resume {path}" if path is not None else ""
    return f"in progress, not finished: {of}{resume}"


def _plural(count: int, noun: str) -> str:
    """``1 deal``, ``0 deals``, ``3 problems``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _ledger_row(label: str, dealer: str, winner: str, ledger: Ledger) -> str:
    board = sum(a for _, a in ledger.sections)
    return _row(label, dealer, winner, [_chips(a) for a in ledger.seats], _chips(board))


def _row(label: str, dealer: str, winner: str, cells: list[str], board: str) -> str:
    return f"{label:>5}  {dealer:>6}  {winner:>6}  " + "".join(f"{c:>8}" for c in cells) \
        + f"  {board:>7}"


def _chips(amount: Chips) -> str:
    from boodle.engine.ledger import chips_json

    return str(chips_json(amount))
