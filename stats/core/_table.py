"""Validation and orientation of a scores table (rows = data sets, columns = learners).

Every public function of :mod:`stats` starts here: it turns a DataFrame or a 2-D
array into a :class:`Table` whose ``values`` are oriented so that *higher is
better* (a lower-is-better table is negated), checked for shape, finiteness and
duplicate names, and snapped to 12 significant digits of each data set's own
scale so that quantities equal in decimal are equal in binary (:func:`snap`
states the rule for the whole package).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from stats.core._result import table_of

#: Significant digits kept by :func:`snap`.
SNAP_DIGITS = 12


def magnitude(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """The scale of ``x`` for :func:`snap`: the largest finite ``|x|`` along ``axis`` (kept as a
    length-1 axis, so that it broadcasts back), or each element's own ``|x|`` when ``axis`` is None."""
    a = np.abs(np.asarray(x, dtype=float))
    a = np.where(np.isfinite(a), a, 0.0)
    return a if axis is None else a.max(axis=axis, keepdims=True, initial=0.0)


def snap(x: np.ndarray, scale: Any = None) -> np.ndarray:
    """Round ``x`` to :data:`SNAP_DIGITS` significant digits of ``scale``.

    Tables of results are printed with a few decimals; arithmetic on them
    (``x - row mean``, ``max - min``, ``a - b``) turns values that are equal in
    decimal into values that differ in the last binary digits (0.963 - 0.926 is
    not 0.037 in binary). Ranking such values would break ties that are ties.
    Rounding keeps every real difference (12 digits is far below any
    measurement's precision) and merges the representation noise (about 16
    digits) -- provided it is done at the right scale, which is the rule of the
    whole package:

    * values compared with each other are rounded at their own magnitude: a
      data set's scores at that row's largest ``|x|`` (``scale=magnitude(x,
      axis=1)``, :func:`as_table`), a pooled sample element by element
      (``scale=None``). A table-wide scale would merge a row of MSEs near 0.01
      into ties next to a row near 1e9 (issue 9: ranks 2, 2, 2 everywhere).
    * quantities derived from scores (aligned residuals, Quade's ranges, paired
      differences, contrasts) are rounded at the scale of the scores they came
      from, not at their own smaller scale: 1000.54 - 1000.49 carries noise of
      1e-13, which is the 12th digit of 0.05, and would survive rounding at 0.05's
      own scale, so a tie that is exact in decimal would be broken by an offset.

    García et al. (2010)'s examples need it: the 24-data-set aligned-ranks and Quade tables
    (Adult and German have equal ranges, 0.043) and the Wilcoxon example.

    **The decimal rule** (issue 26): on decimal data every decision -- a tie, a rope or
    threshold boundary -- is the one exact decimal arithmetic makes. A snapped value stands for
    the decimal of its shortest ``repr`` (:func:`exact_decimal`; 12 significant digits are far
    within the 15 that a float keeps, so two different such decimals are two different floats
    and their order is the floats' order). Each site that decides on derived quantities
    applies it so:

    * aligned ranks (:func:`stats.ranking.ranks.aligned_rank_matrix`) rank k x_ij - sum_j x_ij,
      an exact decimal at the row's scale, instead of the repeating x_ij - mean_i;
    * Quade's ranges, paired differences, Walsh averages and contrasts are sums or differences
      of scores, exact decimals recovered by snapping at the scores' scale;
    * the Bayesian signed-rank's rope (:mod:`stats.folds._signed_rank_engine`): z_i + z_j against 2 rope;
    * PRED(N) (:func:`stats.pred`): 100 |predicted - actual| against N |actual|;
    * effect-size magnitudes: A12 and Cliff's delta from exact counts
      (:mod:`stats.twosample.effect_size`); Cohen's d of Scott-Knott ESD against 0.2 as
      d^2 = diff^2 / pooled variance against 0.04 (:mod:`stats.groupings.scott_knott`).

    The comparisons that are not exact in floating point are made in floating point when their
    two sides differ by more than rounding can explain (:func:`near`) and with
    :class:`fractions.Fraction` of the decimals otherwise: exact, and as fast as floats on data
    without boundary cases.

    Parameters
    ----------
    x : array
        Values; NaN and infinities pass through.
    scale : array or float, optional
        Broadcastable to ``x``; each value is rounded to SNAP_DIGITS significant
        digits of its scale. ``None``: each value's own magnitude. A scale of 0
        (a row of zeros) leaves the value as it is.

    Examples
    --------
    >>> snap(np.array([0.1 + 0.2, 1e9 + 0.5, 0.0123]))
    array([3.00e-01, 1.00e+09, 1.23e-02])
    >>> float(snap(1000.54 - 1000.49, 1000.54)), float(snap(0.54 - 0.49, 0.54))
    (0.05, 0.05)
    """
    x = np.asarray(x, dtype=float)
    s = magnitude(x) if scale is None else np.abs(np.broadcast_to(np.asarray(scale, dtype=float), x.shape))
    return round_at(x, _decimals(s))


def exact_decimal(x: Any) -> Fraction:
    """The decimal a float stands for, as an exact fraction: that of its shortest ``repr``
    (``0.1`` is 1/10, not the binary 3602879701896397/2^55). For a snapped value (:func:`snap`)
    this is the decimal it was rounded to.

    >>> exact_decimal(0.3) + exact_decimal(0.09) == exact_decimal(0.39)
    True
    """
    return Fraction(repr(float(x)))


#: Relative difference below which :func:`near` sends a comparison to exact arithmetic: far above
#: the rounding of a few floating-point operations (about 1e-15), far below any real difference
#: of 12-digit values (1e-12).
NEAR = 1e-11


def near(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Where ``left`` and ``right`` (floats computed from decimals by a few operations) are too
    close for their floating-point comparison to be trusted: within :data:`NEAR` of the larger
    magnitude. Those comparisons are made again in exact arithmetic (:func:`exact_decimal`)."""
    left, right = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    return np.abs(left - right) <= NEAR * np.maximum(np.abs(left), np.abs(right))


def paired_difference(x: Any, y: Any) -> np.ndarray:
    """``x - y`` of paired values, each value and the difference snapped at the pair's scale (the
    larger of |x|, |y|: :func:`snap`'s rule for derived quantities), so that 0.9 - 0.8 is 0.1 in
    every pair. The one place the paired tests, effect sizes and fold comparisons take it."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    scale = np.maximum(np.abs(x), np.abs(y))
    return snap(snap(x, scale) - snap(y, scale), scale)


def snap_digits(scale: Any, shape: tuple[int, ...]) -> list[tuple[int, np.ndarray, int]]:
    """The digits :func:`snap` keeps at ``scale`` (broadcast to ``shape``), found once for several
    arrays snapped at the same scale with :func:`snap_at` (a paired difference snaps both results
    and their difference at the pair's scale)."""
    return _decimals(np.abs(np.broadcast_to(np.asarray(scale, dtype=float), shape)))


def snap_at(x: Any, digits: list[tuple[int, np.ndarray, int]]) -> np.ndarray:
    """``snap(x, scale)`` for ``digits = snap_digits(scale, x.shape)``: the same values."""
    return round_at(np.asarray(x, dtype=float), digits)


def _decimals(s: np.ndarray) -> list[tuple[int, np.ndarray, int]]:
    """For the scale ``s`` (>= 0): each number of decimals d that keeps :data:`SNAP_DIGITS`
    significant digits of a usable (finite, > 0) scale, with where it applies and how often."""
    usable = np.isfinite(s) & (s > 0.0)
    if usable.all():
        exponent = np.floor(np.log10(s)).astype(np.int64)
    else:
        exponent = np.zeros(s.shape, dtype=np.int64)
        if not usable.any():
            return []
        exponent[usable] = np.floor(np.log10(s[usable])).astype(np.int64)
    used = exponent[usable] if not usable.all() else exponent.ravel()
    lo = int(used.min())
    counts = np.bincount(used - lo)
    return [
        (SNAP_DIGITS - 1 - e, usable & (exponent == e), int(counts[e - lo]))
        for e in np.flatnonzero(counts) + lo  # np.unique's values, without a sort or hash
    ]


def round_at(x: np.ndarray, decimals: list[tuple[int, np.ndarray, int]]) -> np.ndarray:
    """``x`` rounded to d decimals where (:func:`_decimals`) the scale asks for d and ``x`` is finite."""
    out = x.copy()
    finite = np.isfinite(x)
    everywhere = bool(finite.all())
    # np.round(x, d) is rint(x * 10**d) / 10**d (d >= 0) or rint(x / 10**-d) * 10**-d; done per
    # value with its own d. Below ~1e-297, 10**d overflows: scale by 1e300 first (exact enough:
    # the result is rounded anyway).
    for d, where, count in decimals:
        m = where if everywhere else where & finite
        if 0 <= d <= 300 and count > x.size // 4:
            # many values: the same arithmetic on the whole array, kept where m (no gather, scatter)
            with np.errstate(over="ignore", invalid="ignore"):
                np.copyto(out, np.rint(x * 10.0**d) / 10.0**d, where=m)
            continue
        v = x[m]
        if d > 300:
            v, d = v * 1e300, d - 300
            out[m] = (np.rint(v * 10.0**d) / 10.0**d) / 1e300 if d >= 0 else (np.rint(v / 10.0**-d) * 10.0**-d) / 1e300
        elif d >= 0:
            out[m] = np.rint(v * 10.0**d) / 10.0**d
        else:
            out[m] = np.rint(v / 10.0**-d) * 10.0**-d
    return out


@dataclass(frozen=True, eq=False)
class Table:
    """A validated scores table.

    ``values`` is oriented (higher is better) and snapped row by row; ``raw`` is
    the input as floats, in its own direction; ``scale`` each row's magnitude
    (n x 1), the scale of everything derived from that row.
    """

    values: np.ndarray
    raw: np.ndarray
    datasets: pd.Index
    learners: pd.Index
    higher_is_better: bool
    #: What is computed from the table once and shared by every statistic given the table
    #: (:meth:`derived`): the rank matrices, average ranks, tie sizes.
    _derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def derived(self, name: str, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per table and kept under ``name`` (arrays read-only): every
        statistic given this table reuses its ranks instead of ranking it again. Two threads may
        both compute a missing entry; they compute the same value and the first one stays."""
        try:
            return self._derived[name]
        except KeyError:
            pass
        value = make()
        for part in value if isinstance(value, tuple) else (value,):
            if isinstance(part, np.ndarray):
                part.setflags(write=False)
        return self._derived.setdefault(name, value)

    @property
    def scale(self) -> np.ndarray:
        """Each data set's magnitude (n x 1): derived quantities are snapped at it (read-only)."""
        return self.derived("scale", lambda: magnitude(self.values, axis=1))

    @property
    def n(self) -> int:
        """Number of data sets (blocks)."""
        return self.values.shape[0]

    @property
    def k(self) -> int:
        """Number of learners (treatments)."""
        return self.values.shape[1]


def as_table(
    scores: Any,
    *,
    higher_is_better: bool = True,
    min_learners: int = 2,
    min_datasets: int = 2,
    learners: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> Table:
    """Validate ``scores`` and return an oriented :class:`Table`.

    ``scores`` is a DataFrame (index = data sets, columns = learners) or a
    2-D array-like; for an array, ``learners`` and ``datasets`` name the
    columns and rows (default ``L1..Lk`` and ``D1..Dn``).

    Raises
    ------
    ValueError
        When the table is not 2-D, has fewer than ``min_learners`` columns or
        ``min_datasets`` rows, holds a non-numeric, NaN or infinite cell, or
        repeats a learner name.
    """
    check_bool("higher_is_better", higher_is_better)
    if isinstance(scores, Table):  # validated once (stats.ranked_table): shared with its ranks
        return _checked_size(scores, bool(higher_is_better), min_learners, min_datasets)
    scores = table_of(scores)  # a ScoresTable is its table
    if isinstance(scores, pd.DataFrame):
        frame = scores
    else:
        try:
            array = np.asarray(scores)
        except ValueError:
            lengths = sorted({len(row) for row in scores}) if hasattr(scores, "__iter__") else []
            raise ValueError(
                f"scores must be a rectangular table (data sets x learners): rows have {lengths} values"
            ) from None
        if array.dtype == object and array.ndim == 1 and len(array) and hasattr(array[0], "__len__"):
            raise ValueError("scores must be a rectangular table (data sets x learners): rows differ in length")
        if array.ndim != 2:
            raise ValueError(f"scores must be a 2-D table (data sets x learners), got {array.ndim} dimension(s)")
        cols = list(learners) if learners is not None else [f"L{j + 1}" for j in range(array.shape[1])]
        rows = list(datasets) if datasets is not None else [f"D{i + 1}" for i in range(array.shape[0])]
        if len(cols) != array.shape[1] or len(rows) != array.shape[0]:
            raise ValueError(
                f"{len(rows)} data set and {len(cols)} learner names for a {array.shape[0]} x {array.shape[1]} table"
            )
        frame = pd.DataFrame(array, index=rows, columns=cols)

    n, k = frame.shape
    _check_size(n, k, min_learners, min_datasets)
    names = pd.Index(frame.columns)
    if names.has_duplicates:
        dupes = sorted({str(x) for x in names[names.duplicated()]})
        raise ValueError(f"duplicate learner name(s): {', '.join(dupes)}")
    try:
        raw = frame.to_numpy(dtype=float, copy=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scores must be numeric: {exc}") from None
    bad = ~np.isfinite(raw)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"scores must be finite: {int(bad.sum())} NaN or infinite cell(s), "
            f"first at data set {frame.index[i]!r}, learner {names[j]!r} ({raw[i, j]})"
        )
    oriented = raw if higher_is_better else -raw
    values = snap(oriented, magnitude(oriented, axis=1))  # each data set at its own scale
    values.setflags(write=False)  # shared by every statistic given this Table, with its ranks
    raw.setflags(write=False)
    return Table(
        values=values,
        raw=raw,
        datasets=pd.Index(frame.index),
        learners=names,
        higher_is_better=bool(higher_is_better),
    )


def _check_size(n: int, k: int, min_learners: int, min_datasets: int) -> None:
    if k < min_learners:
        raise ValueError(f"need at least {min_learners} learners (columns), got {k}")
    if n < min_datasets:
        raise ValueError(f"need at least {min_datasets} data sets (rows), got {n}")


def _checked_size(table: Table, higher_is_better: bool, min_learners: int, min_datasets: int) -> Table:
    """``table`` itself, after the checks :func:`as_table` makes of a table of its shape."""
    if higher_is_better != table.higher_is_better:
        made = "higher" if table.higher_is_better else "lower"
        raise ValueError(
            f"the ranked table was made with higher_is_better={table.higher_is_better} ({made} is better); "
            f"got higher_is_better={higher_is_better}"
        )
    _check_size(table.n, table.k, min_learners, min_datasets)
    return table


def as_sample(values: Any, name: str = "values") -> np.ndarray:
    """Validate one sample: numeric, 1-D, non-empty and finite; return it as float64.

    Raises ``ValueError`` naming ``name`` and the problem.
    """
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric: {exc}") from None
    if x.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got {x.ndim} dimension(s)")
    if x.size == 0:
        raise ValueError(f"{name} is empty: need at least 1 value")
    bad = int((~np.isfinite(x)).sum())
    if bad:
        raise ValueError(f"{name} must be finite, got {bad} NaN or infinite value(s)")
    return x


def check_bool(name: str, value: Any) -> bool:
    """``value`` if it is True or False (numpy's too); else ``ValueError`` naming the parameter.
    ``"yes"``, ``1`` or ``None`` are refused: a truthy string silently meaning True hides mistakes."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> None:
    """Raise ``ValueError`` naming the parameter, the value and the choices."""
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")


def check_alpha(alpha: float) -> float:
    """Return ``alpha`` as a float after checking 0 < alpha < 1."""
    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive), got {alpha!r}")
    return a
