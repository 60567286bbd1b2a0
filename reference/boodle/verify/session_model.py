"""The session across deals as a z3 model, and the proof that it ends (spec §10; issue 16,
"session end is a proof, not a check of one number").

The state between two deals: ``p`` the regular deals played, ``stop`` whether the last deal
reached a target (``end: when a player has no chips``, ``last player with chips``, ``a
player reaches N chips``) or left fewer players in than may play on (``balance: eliminated
at zero``), ``over``.  Which deal reaches a target, and who ties, depend on the chips: they
are left a free choice of the model (every outcome allowed), so a proof holds whatever the
deals pay.  The player count ``n`` is a variable from the variant's lowest to its highest.

Transitions (as :class:`boodle.session.run.SessionRun` plays them, stated here from the
rules):

- **a regular deal**, while ``p`` is below ``rotations × n`` (when there is a rotations
  line) and no deal has stopped the session: ``p' = p + 1``, ``stop'`` free (false when the
  rules have no target and no elimination);
- **the end**, once no regular deal is due: ``over'``, and under ``ties: one more deal``,
  when there is a tie (free), the one extra deal is played as part of it (spec §10: at
  most once).

**The proof** (:func:`prove_session_end`): the invariant ``0 ≤ p ≤ rotations × n`` holds
at the start (``p = 0``) and after every transition, and the ranking function
``r = 2 · (rotations × n − p) + (0 if over else 1)`` is at least 0 and decreases at every
transition (one of the two is always enabled before the end: their guards are ``due`` and
``not due``); with the deals' own termination (each deal ends: the ``termination`` row),
every session ends, after at most ``rotations × n`` deals plus the tie deal.  Without a
rotations line no ranking function bounds ``p`` (a target need never be reached): z3
shows it, and the session end is ``unknown``.
"""

from __future__ import annotations

import z3

from boodle.language.model import EndTie, Ruleset
from boodle.verify.own_rules import ELIMINATES

__all__ = ["TIE_DEAL_TERMS", "prove_session_end"]

TIE_DEAL_TERMS: dict[EndTie, int] = {
    "share": 0,
    "one more deal": 1,
}
"""The extra deals of the session model's end step under a tie for best (spec §10: ``one
more deal`` plays one, once), one row per member of :data:`EndTie` (the verifier's own
statement, apart from the session's)."""


def prove_session_end(ruleset: Ruleset, timeout_ms: int = 10_000) -> tuple[bool, str]:
    """Whether z3 proves the session of ``ruleset`` ends after finitely many deals, given
    that every deal ends (the module docstring's model, invariant and ranking function),
    and the bound or why not.  ``end: never`` sessions are not asked here (they have no
    end by their rules)."""
    s = ruleset.session
    n, p, stop, over = z3.Int("n"), z3.Int("p"), z3.Bool("stop"), z3.Bool("over")
    p2, stop2, over2 = z3.Int("p'"), z3.Bool("stop'"), z3.Bool("over'")
    tie = z3.Bool("tie")
    free_stop = bool(s.end_when_broke or s.end_last_with_chips or s.end_target is not None
                     or ELIMINATES[s.negative])
    count = z3.And(n >= ruleset.players.low, n <= ruleset.players.high)
    limit = None if s.rotations is None else s.rotations * n
    due = z3.Not(stop) if limit is None else z3.And(p < limit, z3.Not(stop))
    deal = z3.And(z3.Not(over), due, p2 == p + 1, over2 == z3.BoolVal(False),
                  z3.BoolVal(True) if free_stop else z3.Not(stop2))
    extra = TIE_DEAL_TERMS[s.ties]
    end = z3.And(z3.Not(over), z3.Not(due), over2,
                 p2 == (p + z3.If(tie, extra, 0)) if extra else p2 == p, stop2 == stop)
    steps = z3.Or(deal, end)
    if limit is None:
        # no bound: z3 finds a regular deal from every state with no target reached yet
        solver = z3.Solver()
        solver.add(count, p >= 0, z3.Not(over), z3.Not(stop), deal, z3.Not(stop2))
        solver.set("timeout", timeout_ms)
        if solver.check() == z3.sat:
            return False, ("z3: no ranking function bounds the deals: after any number of "
                           "deals with no target reached, one more is due (which deal "
                           "reaches a target is a free choice of the model: chips can go "
                           "round for ever)")
        return False, "z3 found no bound on the deals"
    # the deal the tie-break plays comes after the last regular one: p may pass the limit
    # by one only once over
    inv = z3.And(p >= 0, z3.If(over, p <= limit + extra, p <= limit))
    inv2 = z3.substitute(inv, (p, p2), (over, over2))

    def rank(q: z3.ArithRef, done: z3.BoolRef) -> z3.ArithRef:
        return 2 * (limit + extra - q) + z3.If(done, 0, 1)

    queries = {
        "init": z3.Not(z3.Implies(z3.And(count, p == 0, z3.Not(stop), z3.Not(over)), inv)),
        "consecution": z3.Not(z3.Implies(z3.And(count, inv, steps), inv2)),
        "ranking": z3.Not(z3.Implies(z3.And(count, inv, steps),
                                     z3.And(rank(p, over) >= 0, rank(p2, over2) < rank(p, over)))),
    }
    for name, query in queries.items():
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(query)
        got = solver.check()
        if got != z3.unsat:
            return False, f"z3: the session's {name} query is {got}"
    most = (f"{s.rotations} × n" if s.rotations != 1 else "n") + (" + 1" if extra else "")
    return True, (f"z3: the session's ranking function 2·({most} − deals played) + "
                  "(1 until it is over) decreases at every deal and at the end, from every "
                  "state the invariant allows, at every player count n; targets and ties "
                  "are free choices of the model")
