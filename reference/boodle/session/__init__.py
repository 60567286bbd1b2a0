"""Sessions of deals: the run from the cut to the split (:mod:`.run`), boodles drawn from a
second pack, the SQLite ledger store and the ``boodle ledger`` command."""
