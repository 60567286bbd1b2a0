"""``boodle simulate``: many deals, streaming statistics with confidence intervals.

- :mod:`.runner`: sessions of deals, chunks, serial / process / Dask backends;
- :mod:`.stats`: exact, mergeable sums and 95 % intervals;
- :mod:`.report`: the text report, JSON and CSV;
- :mod:`.plot`: an optional PNG/SVG figure (matplotlib, the ``plot`` extra).

Import from the submodules (``boodle.simulate.runner`` …): the command line loads
this package for its arguments without loading the engines.
"""
