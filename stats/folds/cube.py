"""The fold-level results of a log as one dense data set x learner x (repeat, fold) array, built
once per criterion and selection (:class:`FoldCube`), and every learner's results paired with a
control's on the same keys (:meth:`FoldCube.paired`; :func:`stats.fold_comparison` and
:func:`stats.fold_deltas` read them from here).

Building the cube is a pass over the log's rows; pairing it with a control is a few passes over
the cube, so comparing with another control does not read the log again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from stats.core import SNAP_DIGITS, round_at

_COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")
#: 10.0**d for the decimals 0..300, as :func:`stats.core._table.snap` computes them.
_POW10 = np.array([10.0**d for d in range(301)])
#: The exponent of a value without one (0, NaN, infinite): below any real one.
_NO_EXPONENT = np.iinfo(np.int16).min


def _levels(
    codes: np.ndarray, labels: pd.Index, wanted: Sequence[Any] | None, what: str
) -> tuple[np.ndarray, list[str]]:
    """Map codes to positions in the chosen labels (-1: not chosen) and the chosen names."""
    present = np.bincount(codes[codes >= 0], minlength=len(labels)) > 0
    names = [str(x) for x in labels.tolist()]  # not label by label: an Arrow-backed Index is slow to index
    if wanted is None:
        chosen = np.flatnonzero(present)
    else:
        index = {x: i for i, x in enumerate(names)}
        missing = [str(x) for x in wanted if str(x) not in index or not present[index[str(x)]]]
        if missing:
            raise ValueError(f"unknown {what}(s) for this criterion: {', '.join(missing)}")
        chosen = np.array([index[str(x)] for x in wanted], dtype=np.intp)
        if len(set(chosen.tolist())) != len(chosen):
            raise ValueError(f"{what}s are named more than once: {list(wanted)}")
    position = np.full(len(labels), -1, dtype=np.intp)
    position[chosen] = np.arange(len(chosen))
    return position, [names[i] for i in chosen.tolist()]


def _codes(column: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Integer codes and labels: category order for a Categorical, first appearance otherwise."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy().astype(np.intp), pd.Index(column.cat.categories)
    codes, uniques = pd.factorize(column, sort=False)
    return codes.astype(np.intp), pd.Index(uniques)


def _exponents(a: np.ndarray) -> np.ndarray:
    """floor(log10(a)) of each usable (finite, > 0) magnitude as :func:`stats.core._table.snap` finds it,
    :data:`_NO_EXPONENT` for the others."""
    usable = np.isfinite(a) & (a > 0.0)
    out = np.full(a.shape, _NO_EXPONENT, dtype=np.int16)
    if usable.all():
        out[...] = np.floor(np.log10(a))
    elif usable.any():
        out[usable] = np.floor(np.log10(a[usable]))
    return out


def _round_to(x: np.ndarray, exponent: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``x`` rounded where ``where`` to :data:`SNAP_DIGITS` significant digits of a scale whose
    floor(log10) is ``exponent``: ``snap(x, scale)`` value by value, the arithmetic of
    :func:`stats.core._table.round_at` (``rint(x * 10**d) / 10**d`` for d = 0..300 decimals)."""
    out = x.copy()
    dec = (SNAP_DIGITS - 1) - exponent.astype(np.int64)
    ok = where & (dec >= 0) & (dec <= 300)
    if ok.any():
        p = _POW10[np.clip(dec, 0, 300)]
        with np.errstate(over="ignore", invalid="ignore"):
            np.copyto(out, np.rint(x * p) / p, where=ok)
    rest = where & ~ok
    if rest.any():  # scales of 1e12 and more, or below 1e-289: round_at's other branches
        v, dv = x[rest], dec[rest]
        out[rest] = round_at(v, [(int(k), dv == k, int((dv == k).sum())) for k in np.unique(dv)])
    return out


@dataclass(frozen=True, eq=False)
class PairedFolds:
    """Every learner's fold results beside the control's, on the (repeat, fold) keys in order.

    ``x`` (data sets x other learners x keys) holds the learners' results and ``y`` the
    control's (NaN where a result is missing); ``shared`` marks the keys both have and ``d`` the
    oriented differences there (positive: the learner is better; decimal ties judged at the
    pair's scale as in :func:`stats.folds.ttests._paired`; NaN elsewhere). ``repeats`` and
    ``folds`` are each key's numbers, ``fold_index`` the position of its fold among the distinct
    folds. ``others`` indexes ``lnames`` (the control left out); ``notes`` says what was dropped.
    ``complete``: every key is shared (no missing result at all).
    """

    dnames: list[str]
    lnames: list[str]
    others: list[int]
    values: np.ndarray  # the cube's (data sets x learners x keys)
    control: int  # the control's position in ``lnames``
    shared: np.ndarray
    d: np.ndarray
    repeats: np.ndarray
    folds: np.ndarray
    fold_index: np.ndarray
    notes: list[str]
    complete: bool = False

    @cached_property
    def x(self) -> np.ndarray:
        """The other learners' results (data sets x other learners x keys), made when first asked for."""
        return self.values[:, self.others, :]

    @property
    def y(self) -> np.ndarray:
        """The control's results beside each other learner's (a broadcast view of the cube)."""
        return np.broadcast_to(self.values[:, self.control : self.control + 1, :], self.x.shape)


@dataclass(frozen=True, eq=False)
class FoldCube:
    """The fold-level results of one criterion: ``values[i, k, j]`` is learner ``lnames[k]``'s
    result on data set ``dnames[i]`` at the j-th (repeat, fold) key (``repeats[j]``,
    ``folds[j]``; sorted), NaN where there is none. Made by :func:`fold_cube`; read-only.

    ``extremes``: the smallest and largest finite value of the criterion in the whole log (what
    :func:`stats.default_rope` needs), empty when there is none. ``notes``: what was left out.
    Each value's magnitude, exponent and own 12-digit snap are kept too, so that pairing with a
    control (:meth:`paired`) costs a few passes over the cube, not a pass over the log.
    """

    criterion: str
    dnames: list[str]
    lnames: list[str]
    values: np.ndarray
    repeats: np.ndarray
    folds: np.ndarray
    fold_index: np.ndarray
    extremes: np.ndarray
    notes: tuple[str, ...]
    _present: np.ndarray = field(repr=False)
    _magnitude: np.ndarray = field(repr=False)
    _exponent: np.ndarray = field(repr=False)
    _snapped: np.ndarray = field(repr=False)
    _pow: np.ndarray = field(repr=False)  # 10.0**decimals of each value's own scale (1 where none)
    _plain: bool = field(repr=False)  # every result present, each with a scale of 0..300 decimals

    @cached_property
    def row_sums(self) -> np.ndarray:
        """The sum of each (data set, learner)'s results over the keys (``values.sum(axis=2)``),
        made once: a complete cube's means against any control (:func:`stats.fold_comparison`)."""
        out = self.values.sum(axis=2)
        out.setflags(write=False)
        return out

    @property
    def nbytes(self) -> int:
        """The memory the cube holds."""
        arrays = (self.values, self._present, self._magnitude, self._exponent, self._snapped, self._pow)
        return int(sum(a.nbytes for a in arrays))

    def paired(self, control: str, higher_is_better: bool) -> PairedFolds:
        """Every other learner's results beside ``control``'s (:class:`PairedFolds`).

        The differences are those of :func:`stats.folds.ttests._paired` on each pair: both results
        and their difference rounded to 12 significant digits of the pair's scale, the larger
        magnitude of the two. That scale's exponent is the larger value's own, and a value rounded
        at its own exponent is the kept snap, so only the smaller value of a pair whose magnitudes
        differ in exponent is rounded anew (same digits as snapping the pair afresh).
        """
        if str(control) not in self.lnames:
            raise ValueError(f"control {control!r} is not one of the learners: {', '.join(self.lnames)}")
        c = self.lnames.index(str(control))
        others = [i for i in range(len(self.lnames)) if i != c]
        n_d, n_l, n_k = self.values.shape
        shape = (n_d, n_l - 1, n_k)
        complete = self._plain  # (every result present)
        if complete:
            # every result present, every magnitude usable, 0..300 decimals: the pair's scale is
            # the larger magnitude, whose exponent is the larger (or equal) one, so its 10**decimals
            # is the smaller of the two values' own; and the kept snaps are the rounded values.
            # Written straight into the (data set, other learner, key) arrays, the control's column
            # skipped by slices (no copy of the cube's learners first).
            shared = np.ones(shape, dtype=bool)
            d, p = np.empty(shape), np.empty(shape)
            redo = np.empty(shape, dtype=bool)  # exponents differ: the smaller value is rounded anew
            sn, pw, ex = self._snapped, self._pow, self._exponent
            for into, take in ((slice(0, c), slice(0, c)), (slice(c, n_l - 1), slice(c + 1, n_l))):
                np.subtract(sn[:, take, :], sn[:, c : c + 1, :], out=d[:, into, :])
                np.minimum(pw[:, take, :], pw[:, c : c + 1, :], out=p[:, into, :])
                np.not_equal(ex[:, take, :], ex[:, c : c + 1, :], out=redo[:, into, :])
            if redo.any():
                i, k, j = np.nonzero(redo)
                at, xk = (i, k, j), (i, np.asarray(others, dtype=np.intp)[k], j)  # (xk: in the cube)
                x_at, y_at = self.values[xk], self.values[i, c, j]
                x_larger = np.abs(x_at) >= np.abs(y_at)
                pv = np.where(x_larger, self._pow[xk], self._pow[i, c, j])
                p[at] = pv  # (the larger magnitude's own, as minimum gives it where the exponents agree)
                small_x = ~x_larger
                sx, sy = self._snapped[xk], self._snapped[i, c, j]
                with np.errstate(over="ignore", invalid="ignore"):
                    xr = np.where(small_x, np.rint(x_at * pv) / pv, sx)
                    yr = np.where(small_x, sy, np.rint(y_at * pv) / pv)
                d[at] = xr - yr
            if not higher_is_better:
                np.negative(d, out=d)
            with np.errstate(over="ignore", invalid="ignore"):
                np.multiply(d, p, out=d)
                np.rint(d, out=d)
                np.divide(d, p, out=d)
        else:
            x = self.values[:, others, :]
            y = np.broadcast_to(self.values[:, c : c + 1, :], x.shape)
            ax, ay = self._magnitude[:, others, :], self._magnitude[:, c : c + 1, :]
            ex, ey = self._exponent[:, others, :], self._exponent[:, c : c + 1, :]
            px, py = self._present[:, others, :], self._present[:, c : c + 1, :]
            shared = px & py
            x_larger = ax >= ay
            exponent = np.where(x_larger, ex, ey)  # floor(log10) of the pair's scale
            usable = shared & (exponent != _NO_EXPONENT)
            xs = self._snapped[:, others, :].copy()
            ys = np.array(np.broadcast_to(self._snapped[:, c : c + 1, :], x.shape))
            redo = usable & (ex != exponent)
            if redo.any():
                xs[redo] = _round_to(x[redo], exponent[redo], np.ones(int(redo.sum()), dtype=bool))
            redo = usable & (np.broadcast_to(ey, x.shape) != exponent)
            if redo.any():
                ys[redo] = _round_to(y[redo], exponent[redo], np.ones(int(redo.sum()), dtype=bool))
            # a pair of zeros (no scale) keeps its values, as snap does
            zero = shared & ~usable
            if zero.any():
                xs[zero], ys[zero] = x[zero], y[zero]
            d = np.subtract(xs, ys, out=xs)
            if not higher_is_better:
                np.negative(d, out=d)
            d = _round_to(d, exponent, usable)
            d[~shared] = np.nan
        return PairedFolds(
            self.dnames,
            self.lnames,
            others,
            self.values,
            c,
            shared,
            d,
            self.repeats,
            self.folds,
            self.fold_index,
            list(self.notes),
            complete,
        )


def criterion_rows(log: pd.DataFrame, criterion: str) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``criterion`` (a mask) and their values; ValueError for missing columns or an
    unknown criterion."""
    missing = [c for c in _COLUMNS if c not in log.columns]
    if missing:
        raise ValueError(f"log must have the columns {', '.join(_COLUMNS)}; missing: {', '.join(missing)}")
    rows = (log["criterion"] == criterion).to_numpy()
    if not rows.any():
        known = ", ".join(str(c) for c in pd.unique(log["criterion"].astype(str)))
        raise ValueError(f"no results for criterion {criterion!r}; the log has: {known or 'none'}")
    return rows, log["value"].to_numpy(dtype=float)[rows]


def fold_cube(
    log: pd.DataFrame,
    criterion: str,
    *,
    learners: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> FoldCube:
    """The fold-level results of ``criterion`` for the chosen learners and data sets, as one dense
    data set x learner x (repeat, fold) array (:class:`FoldCube`), for :func:`stats.fold_comparison`
    and :func:`stats.fold_deltas` against any control.

    Made once and passed to those in place of the log, comparing with another control costs a
    few passes over the array instead of a pass over the log (the explorer keeps one per
    criterion and selection). The results are the same as from the log.

    Parameters
    ----------
    log : DataFrame
        A tidy log (:func:`stats.read_logs`): dataset, repeat, fold, learner, criterion, value.
        A (dataset, repeat, fold, learner) given twice: the later row counts. NaN and infinite
        values are left out (with a note).
    criterion : str
        The criterion; the other rows are ignored.
    learners, datasets : sequence of str, optional
        Which, in which order; default all that have results for ``criterion`` (category order
        for a Categorical column, else order of first appearance).

    Raises
    ------
    ValueError
        Missing columns, an unknown criterion, learner or data set.

    Examples
    --------
    >>> log = pd.DataFrame({"dataset": "d", "repeat": 1, "fold": [1, 2, 1, 2], "criterion": "acc",
    ...                     "learner": ["a", "a", "b", "b"], "value": [0.8, 0.9, 0.7, 0.95]})
    >>> cube = fold_cube(log, "acc")
    >>> cube.values.shape, cube.lnames, cube.paired("a", True).d.tolist()
    ((1, 2, 2), ['a', 'b'], [[[-0.1, 0.05]]])
    """
    rows, values = criterion_rows(log, criterion)
    all_rows = bool(rows.all())  # (a log of one criterion: no row to take out)
    finite = np.isfinite(values)
    finite_values = values if finite.all() else values[finite]
    extremes = np.array([finite_values.min(), finite_values.max()]) if finite_values.size else np.zeros(0)
    dcodes, dlabels = _codes(log["dataset"])
    lcodes, llabels = _codes(log["learner"])
    if not all_rows:
        dcodes, lcodes = dcodes[rows], lcodes[rows]
    dpos, dnames = _levels(dcodes, dlabels, datasets, "data set")
    lpos, lnames = _levels(lcodes, llabels, learners, "learner")
    notes: list[str] = []

    d_at, l_at = dpos[dcodes], lpos[lcodes]
    keep = (d_at >= 0) & (l_at >= 0)
    if (keep & ~finite).any():
        notes.append(f"{int((keep & ~finite).sum())} NaN or infinite {criterion} value(s) left out")
        keep &= finite
    repeat, fold = log["repeat"].to_numpy(), log["fold"].to_numpy()
    if not all_rows:
        repeat, fold = repeat[rows], fold[rows]
    if not keep.all():
        repeat, fold, d_at, l_at, values = repeat[keep], fold[keep], d_at[keep], l_at[keep], values[keep]
    repeat, fold = repeat.astype(np.int64, copy=False), fold.astype(np.int64, copy=False)

    # (repeat, fold) keys in sorted order
    r0, f0 = (int(repeat.min()), int(fold.min())) if fold.size else (0, 0)
    span = int(fold.max()) - f0 + 1 if fold.size else 1
    kcodes, kuniques = pd.factorize((repeat - r0) * span + (fold - f0), sort=True)
    keys = np.asarray(kuniques, dtype=np.int64)
    n_keys = len(keys)
    _, fold_index = np.unique(keys % span, return_inverse=True)

    n_d, n_l = len(dnames), len(lnames)
    flat = (d_at * n_l + l_at) * n_keys + kcodes
    cells = np.full(n_d * n_l * n_keys, np.nan)
    if flat.size and np.bincount(flat, minlength=cells.size).max() > 1:
        last = flat.size - 1 - np.unique(flat[::-1], return_index=True)[1]  # the later row wins
        flat, values = flat[last], values[last]
    cells[flat] = values
    cube = cells.reshape(n_d, n_l, n_keys)
    present = ~np.isnan(cube)
    magnitude = np.abs(cube)
    exponent = _exponents(magnitude)
    decimals = (SNAP_DIGITS - 1) - exponent.astype(np.intp)  # (no exponent: far above 300)
    in_range = (decimals >= 0) & (decimals <= 300)
    plain = bool(in_range.all())
    if plain:  # each value at its own scale: _round_to's arithmetic, its 10**d found once
        pow10 = _POW10[decimals]
        snapped = np.multiply(cube, pow10)
        with np.errstate(over="ignore", invalid="ignore"):
            np.rint(snapped, out=snapped)
            np.divide(snapped, pow10, out=snapped)
    else:
        pow10 = np.where(in_range, _POW10[np.clip(decimals, 0, 300)], 1.0)
        snapped = _round_to(cube, exponent, exponent != _NO_EXPONENT)  # each value at its own scale
    plain = plain and bool(present.all())
    for a in (cube, present, magnitude, exponent, snapped, extremes, pow10):
        a.setflags(write=False)
    return FoldCube(
        str(criterion),
        dnames,
        lnames,
        cube,
        keys // span + r0,
        keys % span + f0,
        fold_index.ravel(),
        extremes,
        tuple(notes),
        present,
        magnitude,
        exponent,
        snapped,
        pow10,
        plain,
    )
