"""The verifier: z3 proofs, exhaustive small-deck checking and bounded model checking.

Everything is computed from a :class:`~boodle.language.model.Ruleset`, never from a
variant's name (spec/verification.md says what is proven, for which bounds,
and what is not).  One module per stage, as in mypyvy:

- :mod:`~boodle.verify.layout`: the symbolic state (card places, run, seat
  to move, passes, chips) and its integer codes;
- :mod:`~boodle.verify.lead_terms`, :mod:`~boodle.verify.actions`: the
  translation of the stops phase into z3, one transition per card and pass;
- :mod:`~boodle.verify.invariants`: Init, the inductive invariant, the
  ranking function;
- :mod:`~boodle.verify.induction`: the checks (init, consecution, progress,
  ranking); :mod:`~boodle.verify.bmc`: bounded model checking from Init;
- :mod:`~boodle.verify.z3eval`: the model's terms evaluated on concrete
  states (the agreement test asks the model itself);
- :mod:`~boodle.verify.reduce`, :mod:`~boodle.verify.symmetry`,
  :mod:`~boodle.verify.explicit`: exhaustive search with the real engine
  on reduced decks;
- :mod:`~boodle.verify.wellformed`: checks on the ruleset alone;
- :mod:`~boodle.verify.mutation`: injected faults, to show faults are caught;
- :mod:`~boodle.verify.cex`: counterexamples as cards, chips and play-by-play;
- :mod:`~boodle.verify.verifier`, :mod:`~boodle.verify.report`,
  :mod:`~boodle.verify.cli`: the ``boodle verify`` command.

Start reading at :mod:`~boodle.verify.verifier`.
"""
