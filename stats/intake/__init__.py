"""Logs straight to cell summaries, without the tidy frame: the readers (:mod:`stats.logs`) and
the cell summaries (:mod:`stats.cells`), which do not import each other, joined.

* :mod:`stats.intake.bounded`: aggregate logs bigger than memory (:func:`stats.aggregate_logs`).
* :mod:`stats.intake.checks`: ``rankboard check`` without pandas (:func:`stats.check_logs`).

Nothing else in :mod:`stats` imports from here; the public names are :mod:`stats`'.
"""
