"""The conformance suite: language-agnostic cases, the protocol, a runner and mutants.

Cases live as JSON files under ``conformance/`` at the root of a checkout
(shipped as package data in a wheel); their format is ``boodle-case/1``,
checked by ``conformance/schema/case.schema.json``.  An implementation under
test is any command speaking ``conformance/PROTOCOL.md``.

Modules, one concept each:

- :mod:`.paths`: where the cases, schemas and probe variants are; variants by name.
- :mod:`.wire`: JSON forms of cards, moves, ledgers and events, and their comparison.
- :mod:`.position`: the position notation (a FEN for stops games) and its validator.
- :mod:`.engines`: the reference engine behind one small interface; :mod:`.mutants`.
- :mod:`.execute`: run one case request on an engine (script, reject, count).
- :mod:`.counting`: perft-style counts of complete play sequences.
- :mod:`.cases`: loading, validating and identifying cases.
- :mod:`.generate`: the deterministic generator and the coverage report.
- :mod:`.rules_files`, :mod:`.rules_suite`: a user's rules files (``--rules``), their hash,
  and the suite generated for them.
- :mod:`.serve`: the reference speaking the protocol.
- :mod:`.impl_process`, :mod:`.process_tree`, :mod:`.run_suite`, :mod:`.compare`,
  :mod:`.report`, :mod:`.expected`: driving an implementation and reporting on it.
- :mod:`.referee`: referee mode, the implementation's own play judged by a replay.
- :mod:`.cli`: ``boodle conformance …``.
"""

CASE_FORMAT = "boodle-case/1"
"""The format version every case file carries."""

PROTOCOL = "boodle-protocol/2"
"""The newest protocol version: the one the runner offers in ``start`` (``run --protocol``
changes it) and ``serve`` speaks unless asked for an older one."""

PROTOCOL_V1 = "boodle-protocol/1"
"""The first protocol version, still served (``serve`` answers a ``start`` naming it in its
terms) and accepted (an implementation announcing it in ``started`` is run in its terms)."""

PROTOCOLS = {PROTOCOL_V1: 1, PROTOCOL: 2}
"""Every protocol version spoken, by name: its number."""

START_TIMEOUT = 30.0
"""Default seconds an implementation has to answer ``start`` (PROTOCOL.md, session mode;
``boodle conformance run --start-timeout S``): loading may be slow, a case is not."""

MAX_SAME_FAILURES = 10
"""After this many cases in a row end in the same fault of the implementation's process, the
remaining cases are errors "not run" (PROTOCOL.md, session mode; ``boodle conformance run
--max-same-failures N``, 0: no limit).  At the default timeout of 10 s a run whose every case
times out ends in about 2 minutes, not in hours; a fault that alternates with answers never
stops a run."""

RULES_SUITE_SIZE = 2
"""Default cases per player count and case kind of a suite made for a user's rules file
(``boodle conformance generate --rules FILE --size N``)."""
