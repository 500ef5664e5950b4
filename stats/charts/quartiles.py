"""Quartile summaries and the text quartile charts of Menzies' notes and lecture notes.

A chart draws every row on one shared axis ``[lo, hi]`` of ``width`` cells;
:func:`scale_position` is the single mapping from a value to a cell, used by
both chart styles (and by the app).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from stats.core import as_sample, check_choice

STYLES = ("seed000", "seed004")
#: Default number of cells of a chart's axis (the axis of Menzies' lecture notes is 41 cells wide).
DEFAULT_WIDTH = 41


@dataclass(frozen=True)
class Quartiles:
    """Five-number summary plus mean and sample standard deviation (ddof = 1).

    ``sd`` of a single value is 0.0 (not NaN): one value has no spread to show.
    """

    n: int
    min: float
    q1: float
    median: float
    q3: float
    max: float
    mean: float
    sd: float

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, (int, np.integer)) or self.n < 1:
            raise ValueError(f"n must be a positive integer, got {self.n!r}")
        for name in ("min", "q1", "median", "q3", "max", "mean", "sd"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be finite, got {getattr(self, name)!r}")
        if not self.min <= self.q1 <= self.median <= self.q3 <= self.max:
            raise ValueError(
                "quartiles must satisfy min <= q1 <= median <= q3 <= max, got "
                f"{self.min}, {self.q1}, {self.median}, {self.q3}, {self.max}"
            )
        if self.sd < 0:
            raise ValueError(f"sd must be >= 0, got {self.sd!r}")

    def __str__(self) -> str:
        return (
            f"n = {self.n}, min = {self.min:g}, q1 = {self.q1:g}, median = {self.median:g}, "
            f"q3 = {self.q3:g}, max = {self.max:g}, mean = {self.mean:g}, sd = {self.sd:g}"
        )


def quartiles(values: ArrayLike) -> Quartiles:
    """Summarise ``values`` by n, min, q1, median, q3, max, mean and sd.

    Parameters
    ----------
    values : array_like
        One-dimensional, non-empty, finite numbers.

    Returns
    -------
    Quartiles
        ``q1``, ``median`` and ``q3`` are the 25th, 50th and 75th percentiles.

    Notes
    -----
    Percentiles use numpy's default ``method="linear"`` (Hyndman & Fan 1996,
    type 7; R's ``quantile`` default and pandas' ``quantile``): the p-th
    percentile of the sorted x_0..x_{n-1} interpolates linearly at position
    (n - 1) p / 100. ``sd`` has ddof = 1 and is 0.0 for a single value.

    References
    ----------
    Menzies, notes on comparing learners, and Menzies, lecture notes on evaluation
    bias: quartile charts. R. J. Hyndman and Y. Fan (1996), Sample quantiles in
    statistical packages, The American Statistician 50(4), 361-365.

    Examples
    --------
    >>> q = quartiles([0.34, 0.49, 0.51, 0.6])
    >>> print(q.q1, q.median, q.max)
    0.4525 0.5 0.6
    """
    x = as_sample(values)
    q1, median, q3 = np.percentile(x, [25.0, 50.0, 75.0], method="linear")
    sd = float(np.std(x, ddof=1)) if x.size > 1 else 0.0
    return Quartiles(
        n=int(x.size),
        min=float(x.min()),
        q1=float(q1),
        median=float(median),
        q3=float(q3),
        max=float(x.max()),
        mean=float(np.mean(x)),
        sd=sd,
    )


def _check_width(width: Any) -> int:
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 1:
        raise ValueError(f"width must be a positive integer, got {width!r}")
    return int(width)


def _check_axis(lo: Any, hi: Any) -> tuple[float, float]:
    lo_f, hi_f = float(lo), float(hi)
    if not math.isfinite(lo_f):
        raise ValueError(f"lo must be finite, got {lo!r}")
    if not math.isfinite(hi_f):
        raise ValueError(f"hi must be finite, got {hi!r}")
    if lo_f > hi_f:
        raise ValueError(f"lo must be <= hi, got lo = {lo!r} and hi = {hi!r}")
    return lo_f, hi_f


def scale_position(x: float, lo: float, hi: float, width: int) -> int:
    """Return the cell (0 .. width - 1) of ``x`` on the axis ``[lo, hi]``.

    Parameters
    ----------
    x : float
        The value to place.
    lo, hi : float
        The axis ends (finite, ``lo <= hi``); ``lo`` is cell 0 and ``hi`` is
        cell ``width - 1``.
    width : int
        Number of cells (>= 1).

    Returns
    -------
    int
        ``round((x - lo) / (hi - lo) * (width - 1))``, clipped to
        ``[0, width - 1]``.

    Notes
    -----
    Rounding is half up (2.5 -> 3), not Python's half-to-even, so that equal
    gaps look equal; the scaled value is first rounded to 9 decimals so that
    2.4999999999 from binary arithmetic counts as 2.5. A value outside
    ``[lo, hi]`` is drawn at the nearer end. When ``lo == hi`` (all values
    equal) every value maps to the middle cell ``(width - 1) // 2`` and
    nothing is divided by zero.

    Examples
    --------
    >>> scale_position(0.0, -21.7, 21.7, 41), scale_position(5.0, 5.0, 5.0, 11)
    (20, 5)
    """
    width = _check_width(width)
    lo, hi = _check_axis(lo, hi)
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"x must be finite, got {x!r}")
    if hi == lo:
        return (width - 1) // 2
    t = round((x - lo) / (hi - lo) * (width - 1), 9)
    return min(max(math.floor(t + 0.5), 0), width - 1)


def _bar(q: Quartiles, style: str, lo: float, hi: float, width: int) -> str:
    pos = {f: scale_position(getattr(q, f), lo, hi, width) for f in ("min", "q1", "median", "q3", "max")}
    if style == "seed000":
        cells = [" "] * width
        cells[pos["q1"] : pos["median"]] = "-" * (pos["median"] - pos["q1"])
        cells[pos["median"] + 1 : pos["q3"] + 1] = "+" * (pos["q3"] - pos["median"])
    else:
        cells = ["."] * width
        cells[pos["min"] : pos["q1"] + 1] = "*" * (pos["q1"] - pos["min"] + 1)
        cells[pos["q3"] : pos["max"] + 1] = "*" * (pos["max"] - pos["q3"] + 1)
    cells[pos["median"]] = "|"
    return "".join(cells)


def quartile_chart(
    rows: Mapping[Any, ArrayLike | Quartiles],
    *,
    style: str = "seed000",
    width: int = DEFAULT_WIDTH,
    lo: float | None = None,
    hi: float | None = None,
    decimals: int = 1,
) -> list[str]:
    """Draw one text quartile chart line per row, all rows on one axis.

    Parameters
    ----------
    rows : mapping
        Name -> values (summarised by :func:`quartiles`) or name -> a
        :class:`Quartiles`. Names are printed literally (no escaping).
    style : {"seed000", "seed004"}
        ``"seed000"`` (Menzies' notes): ``name, min, q1, median, q3, max, [bar]`` where, inside
        the brackets, ``-`` fills q1 up to the median, ``|`` marks the median,
        ``+`` fills after the median up to q3, and spaces are elsewhere.
        ``"seed004"`` (Menzies' lecture notes): a header ``#rx, mean, sd, n, min, q1, median, q3, max,
        <axis>`` (the axis is ``.`` with ``0`` at zero's cell when
        ``lo <= 0 <= hi``) and rows ``name, mean, sd, n, min, q1, median, q3,
        max, <bar>`` with ``.`` background, ``*`` from min to q1 and from q3 to
        max (both ends included), ``|`` at the median; names right-aligned.
    width : int, default 41
        Number of cells of the bar (inside the brackets for ``"seed000"``).
    lo, hi : float, optional
        Axis ends; default the smallest min and the largest max over all rows.
    decimals : int, default 1
        Decimals of the printed numbers.

    Returns
    -------
    list of str
        The lines, without newlines (``"seed004"``: header first).

    Notes
    -----
    Cells come from :func:`scale_position`; the median is drawn last, so it
    stays visible when quartiles share its cell. Column widths in ``"seed004"``
    style are at least those of Menzies' lecture notes (5 for numbers, 6 for median, 2 for n)
    and grow to fit.

    References
    ----------
    Menzies, notes on comparing learners: ``"|" is median, "+" is upper
    quartile, "-" is lower quartile``. Menzies, lecture notes on evaluation bias:
    the ``#rx`` chart with a ``0`` marker in the header.

    Examples
    --------
    >>> for line in quartile_chart({"a": [1, 2, 3, 4, 5], "b": [3, 5, 7, 9, 11]}, width=11):
    ...     print(line)
    a, 1.0, 2.0, 3.0, 4.0, 5.0, [ -|+       ]
    b, 3.0, 5.0, 7.0, 9.0, 11.0, [    --|++  ]
    """
    check_choice("style", style, STYLES)
    width = _check_width(width)
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative integer, got {decimals!r}")
    if not isinstance(rows, Mapping):
        raise ValueError(f"rows must be a mapping name -> values or Quartiles, got {type(rows).__name__}")
    if len(rows) == 0:
        raise ValueError("rows must hold at least one row, got an empty mapping")
    summaries = {str(name): v if isinstance(v, Quartiles) else _row(v, name) for name, v in rows.items()}
    lo_f, hi_f = _check_axis(
        min(q.min for q in summaries.values()) if lo is None else lo,
        max(q.max for q in summaries.values()) if hi is None else hi,
    )

    def num(x: float) -> str:
        text = f"{x:.{int(decimals)}f}"
        return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.0"

    if style == "seed000":
        return [
            ", ".join([name] + [num(getattr(q, f)) for f in ("min", "q1", "median", "q3", "max")])
            + f", [{_bar(q, style, lo_f, hi_f, width)}]"
            for name, q in summaries.items()
        ]
    heads = ("mean", "sd", "n", "min", "q1", "median", "q3", "max")
    cells = {name: [str(q.n) if h == "n" else num(getattr(q, h)) for h in heads] for name, q in summaries.items()}
    widths = [max(2 if h == "n" else 5, len(h), *(len(c[j]) for c in cells.values())) for j, h in enumerate(heads)]
    name_w = max(len("#rx"), *(len(name) for name in summaries))
    axis = ["."] * width
    if lo_f <= 0.0 <= hi_f:
        axis[scale_position(0.0, lo_f, hi_f, width)] = "0"

    def line(name: str, fields: list[str], bar: str) -> str:
        padded = [f.rjust(w) for f, w in zip(fields, widths, strict=True)]
        return ",".join([name.rjust(name_w), *padded, bar])

    out = [line("#rx", list(heads), "".join(axis))]
    out += [line(name, cells[name], _bar(q, style, lo_f, hi_f, width)) for name, q in summaries.items()]
    return out


def _row(values: ArrayLike, name: Any) -> Quartiles:
    try:
        return quartiles(values)
    except ValueError as exc:
        raise ValueError(f"rows[{name!r}]: {exc}") from None
