"""Run the suite against an implementation: ``boodle conformance run``.

Session mode starts the implementation once, says ``start``, sends one
``run`` per case and reads one ``result`` for it, and says ``stop`` at the
end.  Whatever the implementation does wrong (crash, hang, garbage, a wrong
case id, a flood of output, exiting at once, ignoring ``stop``) costs an
``error`` for the case concerned: the process group is killed, a fresh one
is started for the next case, and the run goes on.  Every case gets exactly
one outcome.  An implementation that has never answered ``start`` is not
started again: its first failed start ends the run (the remaining cases are
errors "not run"), since it will not start for the next case either.  One
that did start is started again, until two restarts in a row fail the same
way (a start timeout each time, say) or three in a row fail at all.
One-shot mode starts the command once per case instead.

In either mode, after :data:`MAX_SAME_FAILURES` cases in a row end in the same fault of the
implementation's process (a timeout each, say), the remaining cases are errors "not run":
a run in which every case times out costs that many timeouts, not one per case.

Outcomes: ``pass``, ``fail``, ``error``, ``skip``, and with an
expected-failures file ``xfail`` (a fail or error that was expected) and
``xpass`` (an expected failure that passed: it fails the run).
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boodle.conformance import MAX_SAME_FAILURES, PROTOCOL, PROTOCOLS, START_TIMEOUT
from boodle.conformance.cases import Case
from boodle.conformance.compare import Verdict, verdict
from boodle.conformance.impl_process import Child, Line
from boodle.conformance.process_tree import subreaper
from boodle.conformance.validation import check
from boodle.conformance.wire import Json, MessageError, decode_message

START_FAILURES = 3
"""After this many restarts in a row fail (of an implementation that started once), or two
in a row fail the same way (the same message, such as a start timeout), the rest of the cases
are errors."""

STOP_GRACE = 2.0
"""Seconds an implementation has to exit after ``stop``."""

MODE_HINT = ("if the command answers one case per process and exits, run it with "
             "--mode one-shot")
"""Said when ``start`` gets no answer: a one-shot command run in session mode."""


@dataclass
class Outcome:
    """One case's outcome (one of the six), a one-line ``summary`` and a ``detail``ed diff;
    ``pins`` (the spec rules the case pins) and ``description`` are the case's."""

    id: str
    variant: str
    kind: str
    outcome: str
    summary: str = ""
    detail: str = ""
    seconds: float = 0.0
    reason: str = ""
    pins: list[str] = field(default_factory=list)
    description: str = ""
    rule: str = ""
    """Of ``pins``, the rule the failure's first difference shows (:attr:`.Verdict.rule`),
    if it names one: the report groups the case under it."""

    def to_json(self) -> Json:
        return {k: v for k, v in self.__dict__.items() if v != "" or k in ("id", "outcome")}


@dataclass
class Report:
    """A whole run: the implementation's ``started`` answer, outcomes, warnings, time."""

    command: str
    mode: str
    implementation: Json = field(default_factory=dict)
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    startup_seconds: float = 0.0
    """Of ``seconds``, the time spent waiting for ``started`` (every start, session mode)."""

    def counts(self) -> Counter[str]:
        return Counter(o.outcome for o in self.outcomes)

    def ok(self) -> bool:
        """No fail, error or unexpected pass."""
        c = self.counts()
        return not (c["fail"] or c["error"] or c["xpass"])


def _unfinished(partial: str | None) -> str:
    """What to add to a timeout when the implementation wrote part of a line."""
    return f" (it wrote {partial}: an answer ends with a line break)" if partial else ""


def _key_line(said: str) -> str:
    """The line of an implementation's stderr most likely to say what went wrong: the first
    that names an error or exception (a Node.js or Java stack's message, a panic), else the
    last (a Python traceback's)."""
    lines = [ln.strip() for ln in said.splitlines() if ln.strip() and ln.strip() != "…"]
    for ln in lines:
        if _ERROR_LINE.match(ln):
            return ln[:200]
    return lines[-1][:200] if lines else ""


_ERROR_LINE = re.compile(r"([\w.$]*(Error|Exception)\b|(panic|error|fatal)\b)", re.IGNORECASE)
"""A line that starts by naming an error: ``TypeError: …``, ``java.lang.IllegalStateException``,
``panic: …``, ``error: …``."""


def _error(case: Case, summary: str, detail: str = "") -> Verdict:
    """An ``error`` verdict for a fault of the implementation's process; a multi-line
    ``summary`` keeps its first line as the summary and the whole of it as the detail (the
    implementation's stderr, say).  Its ``fault`` is the summary with the case's id taken
    out."""
    first, _, rest = summary.partition("\n")
    return Verdict("error", first, detail or (summary if rest else first),
                   fault=first.replace(case.id, "<id>"))


def _not_run(why: str) -> Verdict:
    """The error of a case the run stopped before (:data:`.report.NOT_RUN`)."""
    return Verdict("error", f"not run: {why}")


def _decode(text: str) -> tuple[Any, str | None]:
    """The JSON value of a line, or why it is none (not JSON, too deep, a lone surrogate)."""
    try:
        return decode_message(text), None
    except MessageError as exc:
        if exc.kind == "json":
            return None, f"not JSON: {text[:200]!r}"
        return None, f"not a valid message: {exc}"


def _clean(text: str) -> str:
    """``text`` as UTF-8 can write it (a lone surrogate as its escape), for the reports."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", errors="backslashreplace").decode("utf-8")
    return text


class Session:
    """The implementation in session mode, restarted as often as needed.

    ``timeout``: seconds per case; ``start_timeout``: seconds to answer ``start``.
    """

    def __init__(self, command: str, timeout: float, report: Report,
                 start_timeout: float = START_TIMEOUT, protocol: str = PROTOCOL) -> None:
        self.command, self.timeout, self.report = command, timeout, report
        self.start_timeout = start_timeout
        self.offered = protocol
        """The version named in ``start`` (the newest unless ``run --protocol`` says)."""
        self.version = PROTOCOLS[protocol]
        """The version the implementation announced in ``started`` (cases run in it)."""
        self.child: Child | None = None
        self.started: Json = {}
        self.start_failures = 0
        self.last_start_problem = ""
        self.gave_up = ""
        self.answered = ""
        """The ``type`` of the last message read, when it was a JSON object."""
        self.sent = False
        """Whether the last case run was sent (not skipped for a variant or a feature)."""

    def _start(self) -> str | None:
        """Start a fresh child and shake hands; an error message if that fails."""
        try:
            self.child = Child(self.command)
        except OSError as exc:
            self.child = None
            return f"cannot start the implementation: {exc}"
        # a child that exited before reading 'start' is found by the read below (end of file)
        self.child.send_text(json.dumps({"type": "start", "protocol": self.offered}) + "\n")
        self.answered = ""
        t0 = time.monotonic()
        answer, problem = self._receive("started", self.start_timeout)
        self.report.startup_seconds += time.monotonic() - t0
        if problem is not None:
            first, newline, rest = problem.partition("\n")
            # the hint fits an answer that is no 'started' at all, not a 'started' with a fault
            if not self.report.implementation and self.answered != "started":
                first += f" ({MODE_HINT})"
            return f"no valid 'started' answer: {first}{newline}{rest}"
        assert answer is not None
        spoken = PROTOCOLS.get(str(answer["protocol"]), 0)
        if not 1 <= spoken <= PROTOCOLS[self.offered]:
            self.kill()
            return (f"'started' names {answer['protocol']}, which the runner did not offer "
                    f"(it offered {self.offered} and speaks {', '.join(PROTOCOLS)})")
        self.version = spoken
        self.started = answer
        if not self.report.implementation:
            self.report.implementation = answer["implementation"]
        return None

    def _lost(self, when: str, stream: str = "stdout") -> str:
        """Why the implementation stopped answering: it exited (with its status), or it
        closed its ``stream`` but still ran (it is killed); with its stderr."""
        child = self.child
        assert child is not None
        code = child.wait(1.0)
        self.kill()  # the readers then hold all the stderr there was
        said = child.stderr_excerpt()
        first = (f"the implementation exited (status {code}) {when}" if code is not None
                 else f"the implementation closed its {stream} {when} without exiting "
                 "(it was killed)")
        if not said:
            return first
        return f"{first}; its stderr says: {_key_line(said)}\nits stderr:\n{said}"

    def _receive(self, definition: str, timeout: float | None = None
                 ) -> tuple[Json | None, str | None]:
        """The next message, checked against the schema's ``definition``, or a problem."""
        assert self.child is not None
        wait = self.timeout if timeout is None else timeout
        line: Line = self.child.read_line(wait)
        if line.kind == "timeout":
            partial = self.child.unfinished_line()
            self.kill()
            return None, f"no answer within {wait:g} s" + _unfinished(partial)
        if line.kind == "overflow":
            self.kill()
            return None, "an answer line longer than the limit (flooded output)"
        if line.kind == "eof":
            return None, self._lost("before answering")
        message, problem = _decode(line.text)
        if problem is not None:
            self.kill()
            return None, problem
        if isinstance(message, dict):
            self.answered = str(message.get("type", ""))
        errors = check(message, "protocol.schema.json", definition)
        if errors:
            self.kill()
            return None, f"not a valid '{definition}' message: " + "; ".join(errors[:3])
        return message, None

    def kill(self) -> None:
        if self.child is not None:
            self.child.kill()
        self.child = None

    def supports(self, case: Case) -> str | None:
        """Why the implementation cannot take ``case`` (it said so in ``started``), or ``None``:
        a variant or version it does not declare, a case kind its ``kinds`` leave out, a
        feature it lacks, a player count outside the range it declares for the variant.
        The reasons name no case, so that the report says each once
        (:func:`.report.skip_reasons`)."""
        return unsupported(self.started, case) or protocol_gap(case, self.version)

    def run(self, case: Case) -> Verdict:
        """The verdict on one case (restarting the implementation if needed)."""
        self.sent = False
        if self.gave_up:
            return _not_run(self.gave_up)
        if self.child is None:
            problem = self._start()
            if problem is not None:
                self.start_failures += 1
                self.kill()
                if not self.report.implementation:
                    self.give_up("the implementation never answered 'start'")
                elif problem == self.last_start_problem:
                    self.give_up("the implementation failed to start twice in a row the "
                                 "same way")
                elif self.start_failures >= START_FAILURES:
                    self.give_up(f"the implementation failed to start {START_FAILURES} "
                                 "times in a row")
                self.last_start_problem = problem
                return _error(case, problem)
            self.start_failures = 0
            self.last_start_problem = ""
        unsupported = self.supports(case)
        if unsupported:
            return Verdict("skip", unsupported)
        assert self.child is not None
        self.sent = True
        message = json.dumps(case.request(self.version), ensure_ascii=False) + "\n"
        if not self.child.send_text(message):
            return _error(case, self._lost("before reading the case", "stdin"))
        answer, problem = self._receive("result")
        if problem is not None:
            return _error(case, problem)
        assert answer is not None
        if answer["id"] != case.id:
            self.kill()
            return _error(case, f"answered case id {answer['id']!r} instead of {case.id!r}")
        return verdict(case, answer, self.version)

    def handshake(self) -> Json:
        """The implementation's ``started`` answer, starting it if it never was; ``{}`` when
        it does not start (the reason is added to the warnings)."""
        if self.started or self.gave_up:
            return self.started
        problem = self._start()
        if problem is not None:
            self.kill()
            self.report.warnings.append("the implementation did not start: "
                                        + problem.splitlines()[0])
        return self.started

    def give_up(self, why: str, note: str = "see the last start error above") -> None:
        """Run no more cases: each remaining one is an error saying ``why``; warn once, with
        ``note`` (a sentence of its own) in parentheses."""
        self.gave_up = why
        self.kill()
        self.report.warnings.append(f"run stopped: {why} ({note}); "
                                    "the remaining cases were not run")

    def close(self) -> None:
        """Say ``stop``; kill the implementation if it does not exit within the grace time."""
        if self.child is None:
            return
        self.child.send_text(json.dumps({"type": "stop"}) + "\n")
        if not self.child.finish(STOP_GRACE):
            self.report.warnings.append(
                f"the implementation did not exit within {STOP_GRACE:g} s of 'stop'; it was killed")
        elif self.child.exit_status() not in (0, None):
            self.report.warnings.append(
                f"the implementation exited with status {self.child.exit_status()} after 'stop' "
                "(PROTOCOL.md: it must exit with status 0)")
        self.child = None


def case_players(case: Case) -> int | None:
    """The number of players of a case's setup (a deal, a session or a position)."""
    spec = case.data["setup"]
    if isinstance(spec.get("players"), int):
        return int(spec["players"])
    head = str(spec.get("position", "")).split(" ", 1)[0]
    return int(head) if head.isdigit() else None


def unsupported(started: Json, case: Case) -> str | None:
    """Why an implementation that answered ``started`` cannot take ``case``, or ``None``
    (:meth:`Session.supports`)."""
    declared = {(v["name"], v["version"]): v for v in started.get("variants", [])}
    variant = case.data["variant"]
    entry = declared.get((variant["name"], variant["version"]))
    if entry is None:
        return (f"the implementation does not play {variant['name']} "
                f"version {variant['version']}")
    kinds = started.get("kinds")
    if kinds is not None and case.kind not in kinds:
        return (f"the implementation takes no {case.kind} cases (its 'started' names the "
                f"kinds {', '.join(kinds) or 'none'})")
    missing = case.needs() - set(started.get("features", []))
    if missing:
        return f"the implementation lacks {', '.join(sorted(missing))}"
    players, count = entry.get("players"), case_players(case)
    if players and count is not None and not players["min"] <= count <= players["max"]:
        return (f"the implementation plays {variant['name']} with {players['min']} to "
                f"{players['max']} players, not {count}")
    return None


NEEDS_NEWER = "needs a newer protocol"
"""The start of the reason a case is skipped for an implementation of an older version."""


def protocol_gap(case: Case, version: int) -> str | None:
    """Why ``case`` cannot be run in protocol ``version`` (:meth:`.Case.needs_protocol`), or
    ``None``."""
    needed, why = case.needs_protocol()
    if needed <= version:
        return None
    name = next(n for n, v in PROTOCOLS.items() if v == needed)
    return f"{NEEDS_NEWER}: {name} ({why}); the implementation speaks boodle-protocol/{version}"


def run_one_shot(command: str, case: Case, timeout: float, protocol: int = 2) -> Verdict:
    """One-shot mode: the command gets one ``run`` message on stdin and answers one ``result``.

    Exit status 0: the case ran; 1: a move was rejected; anything else: a crash.
    ``protocol``: the version the command speaks (``run --protocol``); a case that needs a
    newer one is skipped without starting it.
    """
    gap = protocol_gap(case, protocol)
    if gap is not None:
        return Verdict("skip", gap)
    try:
        child = Child(command, stdin_text=json.dumps(case.request(protocol),
                                                     ensure_ascii=False) + "\n")
    except OSError as exc:
        return _error(case, f"cannot start the implementation: {exc}")
    try:
        line = child.read_line(timeout)
        code = child.wait(max(0.0, timeout)) if line.kind != "timeout" else None
        partial = child.unfinished_line()
    finally:
        child.kill()
    if line.kind == "timeout" or code is None:
        return _error(case, f"no answer within {timeout:g} s" + _unfinished(partial))
    if line.kind != "line":
        said = child.stderr_excerpt()
        return _error(case, f"no answer ({line.kind}); exit status {code}"
                      + (f"; its stderr:\n{said}" if said else ""))
    answer, problem = _decode(line.text)
    if problem is not None:
        return _error(case, problem)
    errors = check(answer, "protocol.schema.json", "result")
    if errors:
        return _error(case, "not a valid 'result' message: " + "; ".join(errors[:3]))
    if answer["id"] != case.id:
        return _error(case, f"answered case id {answer['id']!r} instead of {case.id!r}")
    expected_code = {"rejected": 1, "error": None}.get(answer["status"], 0)
    if code not in (0, 1) or (expected_code is not None and code != expected_code):
        return _error(case, f"exit status {code} does not fit the answer {answer['status']!r}")
    return verdict(case, answer, protocol)


def run_suite(
    cases: Sequence[Case],
    command: str,
    timeout: float = 10.0,
    mode: str = "session",
    expected: dict[str, str] | None = None,
    progress: Callable[[Outcome], None] | None = None,
    known_ids: set[str] | None = None,
    start_timeout: float = START_TIMEOUT,
    max_same_failures: int = MAX_SAME_FAILURES,
    extra: Callable[[Json], tuple[list[Case], list[str]]] | None = None,
    protocol: str = PROTOCOL,
) -> Report:
    """Run ``cases`` against ``command``; every case gets exactly one :class:`Outcome`.

    ``timeout``: seconds per case; ``start_timeout``: seconds to answer ``start``
    (session mode).  ``expected``: the expected failures (case id → reason); ids
    not in ``known_ids`` (default: the ids of ``cases``) are reported as warnings.
    ``max_same_failures``: after that many cases in a row end in the same fault of the
    implementation's process, the rest are not run (0: no limit).  On Linux the runner
    is a child subreaper for the run (:func:`.process_tree.subreaper`), so that nothing
    the implementation starts outlives it.  ``protocol``: the version offered in ``start``
    (one-shot: the version the command speaks); cases that need a newer version than the
    implementation speaks are skipped, all with the same reason (the reports say it once:
    :func:`.report.skip_reasons`).
    ``extra``: more cases made once the implementation has said what it is (its ``started``
    answer, ``{}`` in one-shot mode or when it does not start), with warnings: the seeded
    referee deals of ``--referee-deals`` (:func:`.referee.referee_cases`), run after ``cases``.
    """
    report = Report(command, mode)
    expected = expected or {}
    began = time.monotonic()
    session = (Session(command, timeout, report, start_timeout, protocol)
               if mode == "session" else None)
    streak = Streak(max_same_failures)
    with subreaper():
        try:
            for case in cases:
                _run_case(case, command, timeout, session, streak, report, expected, progress,
                          PROTOCOLS[protocol])
            if extra is not None:
                more, warnings = extra(session.handshake() if session is not None else {})
                report.warnings.extend(warnings)
                for case in more:
                    _run_case(case, command, timeout, session, streak, report, expected,
                              progress, PROTOCOLS[protocol])
        finally:
            if session is not None:
                session.close()
    known = known_ids if known_ids is not None else {c.id for c in cases}
    report.warnings.extend(f"expected-failures file names an unknown case id: {i}"
                           for i in sorted(set(expected) - known))
    report.seconds = round(time.monotonic() - began, 3)
    return report


@dataclass
class Streak:
    """Cases in a row that ended in the same fault, and whether the run stopped for it."""

    limit: int
    fault: str = ""
    count: int = 0
    stopped: str = ""

    def add(self, v: Verdict, sent: bool) -> str | None:
        """Count ``v`` (a case not ``sent``, skipped for its variant or a feature, changes
        nothing); the reason to stop the run when it makes :attr:`limit` same faults in a
        row."""
        if not sent and v.outcome == "skip":
            return None
        if v.fault and v.fault == self.fault:
            self.count += 1
        else:
            self.fault, self.count = v.fault, 1 if v.fault else 0
        if self.limit and self.fault and self.count >= self.limit:
            self.stopped = f"the same failure {self.count} times in a row ({self.fault})"
            return self.stopped
        return None


def _run_case(case: Case, command: str, timeout: float, session: Session | None,
              streak: Streak, report: Report, expected: dict[str, str],
              progress: Callable[[Outcome], None] | None, protocol: int = 2) -> None:
    """Run one case (or say it was not run) and add its outcome to ``report``."""
    t0 = time.monotonic()
    if streak.stopped:
        v = _not_run(streak.stopped)
    elif session is not None:
        v = session.run(case)
    else:
        v = run_one_shot(command, case, timeout, protocol)
    sent = session.sent if session is not None else True
    stop = streak.add(v, sent) if not streak.stopped else None
    if stop is not None:
        note = "--max-same-failures N changes the limit, 0 for none"
        if session is not None:
            session.give_up(stop, note)
        else:
            report.warnings.append(f"run stopped: {stop} ({note}); "
                                   "the remaining cases were not run")
    outcome = Outcome(case.id, case.variant, case.kind, v.outcome, _clean(v.summary),
                      _clean(v.detail), round(time.monotonic() - t0, 4),
                      pins=list(case.data.get("pins", ())) or ([v.rule] if v.rule else []),
                      description=_clean(str(case.data.get("description", ""))),
                      rule=v.rule)
    _expectation(outcome, expected)
    report.outcomes.append(outcome)
    if progress is not None:
        progress(outcome)


def _expectation(outcome: Outcome, expected: dict[str, str]) -> None:
    """Turn a fail/error into ``xfail`` and a pass into ``xpass`` for an expected failure."""
    reason = expected.get(outcome.id)
    if reason is None:
        return
    outcome.reason = reason
    if outcome.outcome in ("fail", "error"):
        outcome.outcome = "xfail"
    elif outcome.outcome == "pass":
        outcome.outcome = "xpass"
        outcome.summary = f"expected to fail ({reason}) but passed"
