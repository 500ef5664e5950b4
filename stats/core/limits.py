"""The limits of what is read as a result, stated once: for the log readers (:mod:`stats.logs`),
the cell summaries of a log given as a DataFrame (:mod:`stats.cells`) and the engines of
``rankboard aggregate``, which check lines themselves and must refuse what the readers refuse.

The largest magnitude of a result, :data:`MAX_VALUE`:

The statistics square results and sum them (variances, sums of squares of millions of values),
and normality tests raise differences to the fourth power (D'Agostino & Pearson 1973's kurtosis):
at 1e100 that already overflows a double (1e400), and at +-1e308 a mean or a difference does.
(2e50)^4 = 1.6e201 leaves a hundred orders of magnitude for the sums; no result of a
cross-validation (accuracies, errors, seconds, squared errors) comes near.
"""

#: As written in a log: ``1e50`` is read, ``1.0000001e50`` is refused as out of range.
MAX_VALUE_TEXT = "1e50"
MAX_VALUE = float(MAX_VALUE_TEXT)

#: The largest repeat or fold number (a 32-bit signed integer, as the readers store them).
MAX_INT = 2**31 - 1

#: The longest line read as a result (characters): a name, a number or a whole line of a
#: result is far shorter; a longer line is reported (``file:line: line too long``), never a
#: crash of the csv module (whose own limit is 131,072 characters per field).
MAX_LINE = 65536
