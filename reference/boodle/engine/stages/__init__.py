"""One module per stage of a deal (see :mod:`boodle.engine.machine`): the antes, the
deal, the trump turn-up, the widow sale, the stops phase, a holding phase, a poker showdown."""
