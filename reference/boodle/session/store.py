"""A session ledger in SQLite: every deal in one transaction, resumable after a crash.

``boodle play VARIANT --session NAME --ledger FILE.sqlite`` records a session here,
``boodle play --resume FILE.sqlite`` continues it from the last complete deal and
``boodle ledger FILE.sqlite`` prints its standings and history (issue 9).

Tables (format 1; amounts as JSON ints or ``"a/b"`` strings, spec §9):

- ``session``: one row per session: its name, the variant (argument, file name, the whole
  rules text and the texts of the variants it extends, so a resumed session plays the rules
  it started with even if the files changed), players, seed, strategy, a fixed number of
  deals or NULL, and the chips at the start (players × start).
- ``deal``: one row per deal, ``number`` 1, 2, …; row 0 is the opening (drawn boodles,
  the cut).  Each row holds the deal's events (a JSON array of ``to_json()`` records), the
  transfers they carry, the ledger (seats) and the board (sections) after it, and the
  :class:`~boodle.session.run.Progress` to go on from (random generator states included;
  under ``seating: redrawn each deal`` the seats the deal was played in, ``seating`` in the
  progress, absent in a ledger written before seats could be drawn: the starting seats).
  The ledger, the board and the transfers are the players' (by starting seat); the deal's
  events name seats at the table as drawn, and its transfers are stored renamed to players.
- ``ending``: the session's end (leftover split, the extra deal on a tie, standings); for a
  fixed number of deals, an empty ending that marks the session complete.

A row is written in one transaction with the session's other rows untouched, so a crash
(even SIGKILL) leaves every deal either wholly recorded or not at all.  The file is in WAL
mode with full synchronisation: a committed deal survives a power cut; after a crash the
``-wal`` file beside the ledger holds the last deals until SQLite next opens the ledger.
:func:`check` replays every row's transfers from the previous row's ledger: it finds a deal lost,
counted twice or half-recorded, and any chip created or destroyed.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from boodle.engine.events import DealEnd, DealStart, Event, transfers_in
from boodle.engine.ledger import (
    Ledger,
    LedgerError,
    SeatAccount,
    SectionAccount,
    Transfer,
    chips_json,
    normalize,
)
from boodle.engine.strategies import STRATEGIES
from boodle.language.build import MAX_PLAYERS
from boodle.language.errors import BoodleError
from boodle.language.model import Chips, Ruleset
from boodle.session.run import Progress, SessionRun

FORMAT = 1
"""The schema version written in every session row."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS session (
  name TEXT PRIMARY KEY, format INTEGER NOT NULL, variant TEXT NOT NULL, file TEXT NOT NULL,
  rules TEXT NOT NULL, players INTEGER NOT NULL, seed TEXT NOT NULL, strategy TEXT NOT NULL,
  deals INTEGER, start_total TEXT NOT NULL, bases TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deal (
  session TEXT NOT NULL REFERENCES session(name), number INTEGER NOT NULL,
  events TEXT NOT NULL, transfers TEXT NOT NULL, ledger TEXT NOT NULL, board TEXT NOT NULL,
  progress TEXT NOT NULL, PRIMARY KEY (session, number));
CREATE TABLE IF NOT EXISTS ending (
  session TEXT PRIMARY KEY REFERENCES session(name), events TEXT NOT NULL,
  transfers TEXT NOT NULL, ledger TEXT NOT NULL, board TEXT NOT NULL,
  winners TEXT NOT NULL);
"""

Emit = Callable[[list[Event]], None]
"""Receives each recorded unit's events (the opening, a deal, the ending), once committed."""


@dataclass(frozen=True)
class SessionInfo:
    """A stored session's parameters: what is needed to rebuild its :class:`SessionRun`.

    ``rules`` is the text of ``file``; ``bases`` the ``(name, file, text)`` of each variant
    its ``extends`` chain loaded.
    """

    name: str
    variant: str
    file: str
    rules: str
    players: int
    seed: str
    strategy: str
    deals: int | None
    start_total: Chips
    bases: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class DealRow:
    """One recorded deal (``number`` 0: the opening) as read back."""

    number: int
    events: list[dict[str, Any]]
    transfers: list[dict[str, Any]]
    ledger: Ledger
    progress: Progress


# ---------------------------------------------------------------- the database


@contextmanager
def connect(path: Path, create: bool = False,
            read_only: bool = False) -> Iterator[sqlite3.Connection]:
    """An open ledger file (autocommit; transactions are explicit), closed afterwards.

    ``read_only``: for reading only, nothing set (``boodle ledger``): a ledger this process
    may not write, or in a folder it may not write, is opened with SQLite's ``mode=ro``
    (:func:`_open_read_only`); one it may write is opened as usual, so that closing it
    folds the ``-wal`` file back and removes it, as a writer does.
    Raises :class:`BoodleError` if the file is missing (unless ``create``) or not a ledger.
    """
    if path.is_dir():
        raise BoodleError(f"{path} is a folder, not a ledger file",
                          hint=f"name a file in it, as in --ledger {path / 'club.sqlite'}")
    if not create and not path.is_file():
        raise BoodleError(f"no ledger file {path}")
    try:
        writable = os.access(path, os.W_OK) and os.access(path.absolute().parent, os.W_OK)
        conn = (_open_read_only(path) if read_only and not writable
                else sqlite3.connect(path, isolation_level=None, timeout=10))
    except sqlite3.Error as exc:
        raise BoodleError(f"cannot open ledger {path}: {exc}", hint=_open_hint(path)) from None
    try:
        if not read_only:
            conn.execute("PRAGMA journal_mode = WAL")  # one fsync per commit, readers go on
            conn.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut, too
        conn.executescript(_SCHEMA) if create else _require_schema(conn, path)
        yield conn
    except sqlite3.DatabaseError as exc:
        raise BoodleError(f"ledger {path}: {exc}") from None
    finally:
        conn.close()


def _open_hint(path: Path) -> str:
    """What to do when SQLite cannot open ``path``: its folder is a file, is missing or is
    not writable."""
    from boodle.out_paths import file_in_the_way

    folder = path.absolute().parent
    blocker = file_in_the_way(folder)
    if blocker is not None:
        return (f"{blocker} is a file, not a folder: name a ledger file in a folder, as in "
                f"--ledger {blocker.parent / path.name}")
    if not folder.is_dir():
        return (f"the folder {folder} does not exist: create it, or name a file in a "
                "folder that does")
    return f"check that {folder} may be written, or name a file in another folder"


def _open_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only.  A ledger is in WAL mode, whose readers need the ``-shm``
    index beside it: in a folder they may not write, with no ``-shm`` left there (the last
    writer closed cleanly and removed it), SQLite cannot open it read-only, and the file is
    opened as immutable instead (nobody can be writing it: the folder is read-only)."""
    uri = path.absolute().as_uri()
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=10)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        if os.access(path.parent, os.W_OK) or path.with_name(path.name + "-wal").exists():
            raise
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)


def _require_schema(conn: sqlite3.Connection, path: Path) -> None:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    missing = [t for t in ("session", "deal", "ending") if t not in tables]
    if missing:
        raise BoodleError(f"{path} is not a boodle ledger (no {' or '.join(missing)} table)")


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def _decoding(what: str) -> Iterator[None]:
    """Report a stored value that does not decode as a damaged ledger (BoodleError)."""
    try:
        yield
    except (ValueError, KeyError, TypeError, LedgerError, ZeroDivisionError,
            AttributeError, IndexError, OverflowError) as exc:
        raise BoodleError(f"the ledger's {what} is damaged: {type(exc).__name__}: {exc}",
                          hint="the file was changed by something other than boodle"
                          ) from None


def sessions(conn: sqlite3.Connection) -> list[SessionInfo]:
    """Every session in the file, in name order (BoodleError if a row is damaged)."""
    rows = conn.execute("SELECT name, variant, file, rules, players, seed, strategy, deals, "
                        "start_total, bases FROM session ORDER BY name").fetchall()
    out: list[SessionInfo] = []
    for name, variant, file, rules, players, seed, strategy, deals, total, bases in rows:
        with _decoding(f"session {name!r}" if isinstance(name, str) else "session table"):
            texts = (name, variant, file, rules, seed, strategy)
            if not all(isinstance(x, str) for x in texts):
                raise TypeError("a name, variant, file, rules text, seed or strategy is "
                                "not text")
            if strategy not in STRATEGIES:
                raise TypeError(f"strategy {strategy!r} is not one of "
                                f"{', '.join(sorted(STRATEGIES))}")
            out.append(SessionInfo(name, variant, file, rules,
                                   _count("players", players, 1, MAX_PLAYERS), seed, strategy,
                                   None if deals is None else _count("deals", deals, 0),
                                   _chips(json.loads(total)), _bases(json.loads(bases))))
    return out


def _count(what: str, value: Any, low: int, high: int | None = None) -> int:
    """A stored whole number of at least ``low`` and at most ``high`` (players, deals);
    raises TypeError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low \
            or (high is not None and value > high):
        raise TypeError(f"{what} {value!r} is not a whole number from {low}"
                        + ("" if high is None else f" to {high}"))
    return value


def _bases(value: Any) -> tuple[tuple[str, str, str], ...]:
    """The stored ``[[name, file, text], …]`` of the variants a session extends."""
    if not isinstance(value, list) or not all(
            isinstance(b, list) and len(b) == 3 and all(isinstance(x, str) for x in b)
            for b in value):
        raise TypeError("the bases are not a list of [name, file, text]")
    return tuple((n, f, t) for n, f, t in value)


def unit_name(number: int) -> str:
    """A recorded row as the messages name it: ``deal 3``, and row 0 ``opening (the cut
    and the draws before deal 1)``, which ``boodle ledger`` lists as no deal."""
    return f"deal {number}" if number else "opening (the cut and the draws before deal 1)"


def deal_rows(conn: sqlite3.Connection, info: SessionInfo) -> list[DealRow]:
    """The session's recorded deals in order, the opening (number 0) first.

    Raises :class:`BoodleError` if a row does not decode.
    """
    rows = conn.execute("SELECT number, events, transfers, ledger, board, progress FROM deal "
                        "WHERE session = ? ORDER BY number", (info.name,)).fetchall()
    out: list[DealRow] = []
    for number, events, transfers, seats, board, prog in rows:
        whole = isinstance(number, int) and not isinstance(number, bool)
        with _decoding(f"{unit_name(number) if whole else f'deal numbered {number!r}'} "
                       f"of session '{info.name}'"):
            out.append(DealRow(_count("a deal's number", number, 0),
                               _records("events", json.loads(events)),
                               _records("transfers", json.loads(transfers)),
                               _ledger(json.loads(seats), json.loads(board)),
                               _progress(json.loads(prog))))
    return out


def _records(what: str, value: Any) -> list[dict[str, Any]]:
    """A stored list of JSON records (a unit's events or transfers); raises TypeError."""
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise TypeError(f"its {what} are not a list of records")
    return value


def ending_row(conn: sqlite3.Connection, info: SessionInfo) -> dict[str, Any] | None:
    """The session's end as stored (``events``, ``transfers``, ``ledger``, ``winners``)."""
    row = conn.execute("SELECT events, transfers, ledger, board, winners FROM ending "
                       "WHERE session = ?", (info.name,)).fetchone()
    if row is None:
        return None
    with _decoding(f"ending of session '{info.name}'"):
        events, transfers, seats, board, winners = (json.loads(x) for x in row)
        if not isinstance(winners, list) or not all(
                isinstance(w, int) and not isinstance(w, bool) for w in winners):
            raise TypeError(f"the winners {_short(winners)} are not a list of seats")
        return {"events": _records("events", events),
                "transfers": _records("transfers", transfers),
                "ledger": _ledger(seats, board), "winners": winners}


# ---------------------------------------------------------------- recording


def record_new(path: Path, info: SessionInfo, ruleset: Ruleset, emit: Emit) -> None:
    """Start session ``info`` in ledger ``path`` (created if missing) and play it to the end.

    The session row and the opening are one transaction, then one per deal and one for the
    ending.  Raises :class:`BoodleError` if the file already holds a session of that name.
    """
    with connect(path, create=True) as conn:
        stored = sessions(conn)
        if any(s.name == info.name for s in stored):
            free = _free_name(info.name, {s.name for s in stored})
            same = next(s for s in stored if s.name == info.name)
            if ending_row(conn, same) is not None:
                hint = (f"that session is complete (see it with: boodle ledger {path}); "
                        f"start a new one under another name: --session {free}")
            else:
                hint = (f"resume it: boodle play --resume {path} --session {info.name}, or "
                        f"start a new one under another name: --session {free}")
            raise BoodleError(f"ledger {path} already holds a session '{info.name}'", hint=hint)
        run = _run(info, ruleset)
        with _transaction(conn):
            conn.execute("INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
                info.name, FORMAT, info.variant, info.file, info.rules, info.players,
                info.seed, info.strategy, info.deals, json.dumps(chips_json(info.start_total)),
                json.dumps([list(b) for b in info.bases], ensure_ascii=False)))
            _insert_deal(conn, info, run, 0, run.opening)
        emit(list(run.opening))
        _play_on(conn, info, run, emit)


def _free_name(name: str, taken: set[str]) -> str:
    """``friday-2`` (or ``-3`` …): the first of ``name``'s numbered names not in ``taken``."""
    number = 2
    while f"{name}-{number}" in taken:
        number += 1
    return f"{name}-{number}"


def resume(path: Path, name: str | None, load: Callable[[SessionInfo], Ruleset],
           emit: Emit, on_start: Callable[[SessionInfo, int], None] | None = None,
           ) -> tuple[SessionInfo, int]:
    """Continue a session of ``path`` from its last complete deal; ``(info, deals before)``.

    ``name`` picks the session when the file holds several unfinished ones.  ``load``
    builds the ruleset from the stored rules text.  The ledger is checked first: a session
    that :func:`check` finds inconsistent, or whose recorded deals are not what its rules,
    seed and players replay to (:func:`replay_problems`: a tampered or bit-flipped file), is
    refused, with what is wrong.  ``on_start(info, deals before)`` is called once the session
    is found and its state restored, before the first deal is played (``boodle play
    --resume`` says there which session it resumes).  Raises :class:`BoodleError` if there
    is nothing to resume or the session is damaged.
    """
    with connect(path) as conn:
        info = _pick(conn, path, name)
        if ending_row(conn, info) is not None:
            raise BoodleError(f"session '{info.name}' in {path} is complete",
                              hint=f"see it with: boodle ledger {path}")
        rows = deal_rows(conn, info)
        if not rows:
            raise BoodleError(f"session '{info.name}' in {path} has no opening recorded")
        run = _run(info, load(info))
        problems = check(conn, info) or replay_problems(run, rows)
        if problems:
            raise BoodleError(
                f"session '{info.name}' in {path} is damaged and is not resumed: "
                + "; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)"
                                             if len(problems) > 3 else ""),
                hint=f"see every problem with: boodle ledger {path}; a ledger changed by "
                "something other than boodle cannot be continued")
        if on_start is not None:
            on_start(info, rows[-1].number)
        _play_on(conn, info, run, emit)
        return info, rows[-1].number


def replay_problems(run: SessionRun, rows: list[DealRow]) -> list[str]:
    """Replay the last recorded deal and say where the record differs; empty: it is what
    boodle played, and ``run`` now stands after it, ready to go on.

    ``run`` is fresh (the session's rules, players, seed).  The last deal is played again
    from the progress stored with the deal before it (the opening: from the seed) and must
    give the recorded events and the recorded progress (ledger, dealer, the seats' random
    generators): a flipped bit in either progress, or a changed event of that deal, shows.
    One deal, whatever the session's length; earlier deals are :func:`check`'s (their
    ledgers) and are not used by the resume.
    """
    last = rows[-1]
    with _decoding(unit_name(last.number)):
        if len(rows) >= 2:
            run.restore(rows[-2].progress)
        events = run.opening if len(rows) == 1 else run.next_deal()
    if json.loads(_events_json(events)) != last.events:
        return [f"{unit_name(last.number)}: its recorded events are not what the session's rules "
                "and seed play from the deal before"]
    if _progress_json(run.progress()) != _progress_json(last.progress):
        return [f"{unit_name(last.number)}: the recorded progress (ledger, dealer or random "
                "generators) is not what the session's rules and seed give"]
    return []


def _pick(conn: sqlite3.Connection, path: Path, name: str | None) -> SessionInfo:
    stored = sessions(conn)
    if name is not None:
        found = [s for s in stored if s.name == name]
        if not found:
            raise BoodleError(f"no session '{name}' in {path}",
                              hint="sessions: " + (", ".join(s.name for s in stored) or "none"))
        return found[0]
    open_ = [s for s in stored if ending_row(conn, s) is None]
    if len(open_) == 1:
        return open_[0]
    if not stored:
        raise BoodleError(f"ledger {path} holds no session")
    if not open_:
        raise BoodleError(f"every session in {path} is complete",
                          hint=f"see them with: boodle ledger {path}")
    raise BoodleError(f"ledger {path} holds {len(open_)} unfinished sessions",
                      hint="choose one with --session: " + ", ".join(s.name for s in open_))


def _run(info: SessionInfo, ruleset: Ruleset) -> SessionRun:
    return SessionRun(ruleset, info.players, info.seed, [info.strategy] * info.players,
                      info.deals)


def _play_on(conn: sqlite3.Connection, info: SessionInfo, run: SessionRun, emit: Emit) -> None:
    while run.more_deals():
        events = run.next_deal()
        with _transaction(conn):
            _insert_deal(conn, info, run, run.played, events)
        emit(events)
    events = run.finish()  # empty for a fixed number of deals: the row still marks the end
    with _transaction(conn):
        conn.execute("INSERT INTO ending VALUES (?, ?, ?, ?, ?, ?)", (
            info.name, _events_json(events), _transfers_json(events, run.seating),
            *_ledger_json(run.ledger), json.dumps(list(events_winners(events)))))
    emit(events)


def _insert_deal(conn: sqlite3.Connection, info: SessionInfo, run: SessionRun, number: int,
                 events: Sequence[Event]) -> None:
    try:
        conn.execute("INSERT INTO deal VALUES (?, ?, ?, ?, ?, ?, ?)", (
            info.name, number, _events_json(events), _transfers_json(events, run.seating),
            *_ledger_json(run.ledger), json.dumps(_progress_json(run.progress()))))
    except sqlite3.IntegrityError:
        raise BoodleError(f"deal {number} of session '{info.name}' is already recorded",
                          hint="is another 'boodle play --resume' running on this file?"
                          ) from None


def events_winners(events: Sequence[Event]) -> tuple[int, ...]:
    """The winners named by the session-end event among ``events`` (empty if none)."""
    from boodle.engine.events import SessionEnd

    return next((e.winners for e in events if isinstance(e, SessionEnd)), ())


# ---------------------------------------------------------------- JSON forms


def _events_json(events: Sequence[Event]) -> str:
    return json.dumps([e.to_json() for e in events], ensure_ascii=False)


def _transfers_json(events: Sequence[Event], seating: Sequence[int] = ()) -> str:
    """The transfers of ``events``, a seat named as the player in it: a deal's transfers (from
    its ``deal-start`` to its ``deal-end``) are at the table of ``seating`` (the player in each
    seat, spec §10; none: the starting seats), the others (the splits) already players'."""
    out: list[dict[str, object]] = []
    inside = False
    for e in events:
        inside = inside or isinstance(e, DealStart)
        out += [(_by_player(t, seating) if inside and seating else t).to_json()
                for t in transfers_in(e)]
        inside = inside and not isinstance(e, DealEnd)
    return json.dumps(out, ensure_ascii=False)


def _by_player(t: Transfer, seating: Sequence[int]) -> Transfer:
    """``t`` with each seat of the table named as the player who sits there."""
    def who(account: SeatAccount | SectionAccount) -> SeatAccount | SectionAccount:
        return SeatAccount(seating[account.seat]) if isinstance(account, SeatAccount) \
            else account
    return Transfer(who(t.src), who(t.dst), t.amount, t.reason)


def _ledger_json(ledger: Ledger) -> tuple[str, str]:
    data = ledger.to_json()
    return json.dumps(data["seats"]), json.dumps(data["sections"], ensure_ascii=False)


def _chips(value: Any) -> Chips:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise LedgerError(f"not a chip amount: {value!r}")
    try:
        return normalize(value if isinstance(value, int) else Fraction(value))
    except (ValueError, ZeroDivisionError):
        raise LedgerError(f"not a chip amount: {value!r}") from None


def _ledger(seats: Any, board: Any) -> Ledger:
    if not isinstance(seats, list) or not isinstance(board, dict):
        raise LedgerError(f"seats {_short(seats)} and board {_short(board)} are not a list "
                          "of amounts and a table of sections")
    return Ledger(tuple(_chips(a) for a in seats),
                  tuple((str(name), _chips(a)) for name, a in board.items()))


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _progress_json(progress: Progress) -> dict[str, Any]:
    seats, board = _ledger_json(progress.ledger)
    out = {"seats": json.loads(seats), "board": json.loads(board), "dealer": progress.dealer,
           "played": progress.played, "rngs": [list(_listed(s)) for s in progress.rng_states]}
    if progress.seating is not None:
        out["seating"] = list(progress.seating)
    return out


def _listed(state: object) -> list[Any]:
    """``random.Random.getstate()`` (version, 625 ints, gauss) as JSON-able lists."""
    version, internal, gauss = cast(tuple[int, tuple[int, ...], float | None], state)
    return [version, list(internal), gauss]


def _progress(data: Any) -> Progress:
    if not isinstance(data, dict) or not isinstance(data.get("rngs"), list):
        raise LedgerError(f"the progress {_short(data)} is not a table with 'rngs'")
    rngs = tuple((v, tuple(internal), gauss) for v, internal, gauss in data["rngs"])
    ledger = _ledger(data["seats"], data["board"])
    return Progress(ledger, _count("dealer", data["dealer"], 0),
                    _count("played", data["played"], 0), rngs,
                    _seating(data.get("seating"), ledger.players))


def _seating(value: Any, players: int) -> tuple[int, ...] | None:
    """A stored seating (the player in each seat, spec §10), or ``None`` when the progress
    has none (fixed seating, or a ledger older than the ``seating`` line); raises TypeError
    unless it seats each player once."""
    if value is None:
        return None
    if not isinstance(value, list) or sorted(
            v if isinstance(v, int) and not isinstance(v, bool) else -1 for v in value
    ) != list(range(players)):
        raise TypeError(f"the seating {_short(value)} does not seat each of the {players} "
                        "players once")
    return tuple(value)


# ---------------------------------------------------------------- checking


def check(conn: sqlite3.Connection, info: SessionInfo) -> list[str]:
    """Every inconsistency of a stored session (empty: consistent).

    Deals are numbered 0, 1, 2 … without a gap; each deal's events name it once (one
    ``deal-start`` numbered like the row, one ``deal-end``); replaying its transfers on the
    previous row's ledger gives its own ledger (nothing lost or counted twice); every ledger
    holds the starting total; the stored progress agrees with the row; the ending, if any,
    follows from the last deal the same way.
    """
    problems: list[str] = []
    rows = deal_rows(conn, info)
    if [r.number for r in rows] != list(range(len(rows))):
        problems.append(f"deal numbers {[r.number for r in rows]} are not 0, 1, 2 …")
    previous: Ledger | None = None
    for row in rows:
        where = unit_name(row.number)
        if row.number > 0:
            starts = [e.get("number") for e in row.events if e.get("kind") == "deal-start"]
            ends = [e for e in row.events if e.get("kind") == "deal-end"]
            if starts != [row.number] * len(starts) or not starts or len(ends) != 1:
                problems.append(f"{where}: events hold deal starts {starts} and "
                                f"{len(ends)} deal ends")
        problems += _check_step(where, previous, row.transfers, row.ledger, info)
        if row.progress.ledger != row.ledger or row.progress.played != row.number:
            problems.append(f"{where}: stored progress does not match the row")
        previous = row.ledger
    end = ending_row(conn, info)
    if end is not None:
        problems += _check_step("ending", previous, end["transfers"], end["ledger"], info)
    return problems


def _check_step(where: str, before: Ledger | None, transfers: list[dict[str, Any]],
                after: Ledger, info: SessionInfo) -> list[str]:
    """Problems of one row: its chips' total, and its transfers (players') replayed on
    ``before`` giving ``after``."""
    out: list[str] = []
    if after.total() != info.start_total:
        out.append(f"{where}: chips {after.total()} instead of {info.start_total}")
    if before is None:
        return out
    ledger = before
    try:
        for t in transfers:
            ledger, _ = ledger.transfer(_account(t["from"]), _account(t["to"]),
                                        _chips(t["amount"]), str(t["reason"]))
    except (LedgerError, KeyError, TypeError) as exc:
        return [*out, f"{where}: a transfer does not replay: {exc}"]
    if ledger != after:
        out.append(f"{where}: its transfers from the previous ledger give {ledger.to_json()}, "
                   f"not the recorded {after.to_json()}")
    return out


def _account(data: dict[str, Any]) -> SeatAccount | SectionAccount:
    return SeatAccount(int(data["seat"])) if "seat" in data else SectionAccount(data["section"])
