"""What every other part of :mod:`stats` stands on, and imports nothing else of it.

* :mod:`stats.core._table`: the scores table (validation, orientation, the argument checks) and
  the decimal rule (:func:`snap`, :func:`exact_decimal`): values equal in decimal are equal.
* :mod:`stats.core._result`: results that hold a table (:class:`TableResult`, :class:`LogRead`).
* :mod:`stats.core._format`: number formatting of the results' sentences (:func:`fmt_p`, ...).
* :mod:`stats.core._keys`: integer keys, every packing of several integers into one.
* :mod:`stats.core._pairs`: the k(k-1)/2 pairs of learners in the library's order.
* :mod:`stats.core._order_statistics`: a few order statistics of a large array.
* :mod:`stats.core._distributions`: the normal and binomial functions, the sign test's p and
  mid-ranks (of one sample, or of every column at once) of ``scipy.stats``, the same floats, from
  ``scipy.special`` (no ``import scipy.stats``).
* :mod:`stats.core.names`: names from logs made safe to show; :mod:`stats.core.labels`: the
  printed names of the tests and procedures; :mod:`stats.core.criteria`: which criterion lines are
  criteria and which are bookkeeping (a sequence study's training size).
* :mod:`stats.core.import_ahead`: modules imported in a thread, waited for where needed.
* :mod:`stats.core._lazy`: the lazy package attributes (PEP 562) of :mod:`stats` and its
  subpackages (:func:`lazy`).

Imports are lazy, as in :mod:`stats`: importing :mod:`stats.core` imports only :mod:`stats.core._lazy`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core._lazy import lazy

#: Each name the other parts of stats import from here, and the module that defines it.
_EXPORTS: dict[str, str] = {
    "Printable": "stats.core._format",
    "fmt_p": "stats.core._format",
    "fmt_stat": "stats.core._format",
    "p_is": "stats.core._format",
    "NARROW_BITS": "stats.core._keys",
    "cell_criterion": "stats.core._keys",
    "check_files": "stats.core._keys",
    "check_labels": "stats.core._keys",
    "location_file": "stats.core._keys",
    "pack_cell": "stats.core._keys",
    "pack_cell_run": "stats.core._keys",
    "pack_location": "stats.core._keys",
    "pack_radix": "stats.core._keys",
    "pack_row": "stats.core._keys",
    "pack_run": "stats.core._keys",
    "radix_dtype": "stats.core._keys",
    "radix_space": "stats.core._keys",
    "unpack_cell": "stats.core._keys",
    "unpack_location": "stats.core._keys",
    "unpack_radix": "stats.core._keys",
    "unpack_run": "stats.core._keys",
    "binom_cdf": "stats.core._distributions",
    "binom_pmf": "stats.core._distributions",
    "binom_sf": "stats.core._distributions",
    "binomtest_half_pvalue": "stats.core._distributions",
    "binomtest_half_pvalues": "stats.core._distributions",
    "column_midranks": "stats.core._distributions",
    "norm_cdf": "stats.core._distributions",
    "norm_isf": "stats.core._distributions",
    "twice_midranks": "stats.core._distributions",
    "order_statistics": "stats.core._order_statistics",
    "pairs": "stats.core._pairs",
    "LogRead": "stats.core._result",
    "TableResult": "stats.core._result",
    "table_of": "stats.core._result",
    "SNAP_DIGITS": "stats.core._table",
    "Table": "stats.core._table",
    "as_sample": "stats.core._table",
    "as_table": "stats.core._table",
    "check_alpha": "stats.core._table",
    "check_bool": "stats.core._table",
    "check_choice": "stats.core._table",
    "exact_decimal": "stats.core._table",
    "magnitude": "stats.core._table",
    "near": "stats.core._table",
    "paired_difference": "stats.core._table",
    "round_at": "stats.core._table",
    "snap": "stats.core._table",
    "snap_at": "stats.core._table",
    "snap_digits": "stats.core._table",
    "EFFECT_COLUMNS": "stats.core.labels",
    "PROCEDURE_NAMES": "stats.core.labels",
    "RANKS_NAMES": "stats.core.labels",
    "INVISIBLE": "stats.core.names",
    "has_controls": "stats.core.names",
    "printable": "stats.core.names",
    "printable_lines": "stats.core.names",
    "show_invisible": "stats.core.names",
    "without_invisible": "stats.core.names",
}

__all__ = sorted([*_EXPORTS, "lazy"])

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.core._distributions import (  # noqa: F401
        binom_cdf,
        binom_pmf,
        binom_sf,
        binomtest_half_pvalue,
        binomtest_half_pvalues,
        column_midranks,
        norm_cdf,
        norm_isf,
        twice_midranks,
    )
    from stats.core._format import Printable, fmt_p, fmt_stat, p_is  # noqa: F401
    from stats.core._keys import (  # noqa: F401
        NARROW_BITS,
        cell_criterion,
        check_files,
        check_labels,
        location_file,
        pack_cell,
        pack_cell_run,
        pack_location,
        pack_radix,
        pack_row,
        pack_run,
        radix_dtype,
        radix_space,
        unpack_cell,
        unpack_location,
        unpack_radix,
        unpack_run,
    )
    from stats.core._order_statistics import order_statistics  # noqa: F401
    from stats.core._pairs import pairs  # noqa: F401
    from stats.core._result import LogRead, TableResult, table_of  # noqa: F401
    from stats.core._table import (  # noqa: F401
        SNAP_DIGITS,
        Table,
        as_sample,
        as_table,
        check_alpha,
        check_bool,
        check_choice,
        exact_decimal,
        magnitude,
        near,
        paired_difference,
        round_at,
        snap,
        snap_at,
        snap_digits,
    )
    from stats.core.labels import EFFECT_COLUMNS, PROCEDURE_NAMES, RANKS_NAMES  # noqa: F401
    from stats.core.names import (  # noqa: F401
        INVISIBLE,
        has_controls,
        printable,
        printable_lines,
        show_invisible,
        without_invisible,
    )


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
