"""Which results a log lacks, in numpy alone: the counts of its cells against their expected
counts, its repeats x folds, and the text ``rankboard check`` prints.

:mod:`stats.cells._completeness` turns these arrays into the frames of
:class:`~stats.Completeness`; ``rankboard check`` reads them straight from the label codes of
the readers (:func:`stats.check_logs`), so that it never imports pandas (0.3 s and 40 MB of a
process that otherwise reads a log in 0.5 s). The policy is the module docstring of
:mod:`stats.cells._completeness`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from stats.core.criteria import bookkeeping_criteria, measured_criteria

#: Rows per chunk of the passes over a log (its work space: a few int64 arrays of this length).
ROWS = 1 << 18
#: Rows -> (pair, repeat, fold) of rows ``s:e``: the (dataset, learner) pair is
#: ``dataset code * learners + learner code``.
Rows = Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]]
NO_RESULTS = "no results"


def count_grid(codes: Sequence[np.ndarray], shape: Sequence[int]) -> np.ndarray:
    """The (criterion, dataset, learner) grid of counts from the three code columns: one
    bincount a chunk of rows at a time (no aggregate, no sort)."""
    space = int(np.prod(shape, dtype=np.int64))
    grid = np.zeros(space, np.int64)
    n = len(codes[0])
    for s in range(0, n, ROWS):
        key = codes[0][s : s + ROWS].astype(np.int64)
        for x, span in zip(codes[1:], shape[1:]):
            key *= span
            key += x[s : s + ROWS]
        grid += np.bincount(key, minlength=space)
    return grid.reshape(shape)


def modal_by(group: np.ndarray, n: np.ndarray, n_groups: int) -> np.ndarray:
    """The modal ``n`` of each group (ties: the larger ``n``; 0 for a group without cells).

    >>> modal_by(np.array([0, 0, 0, 1, 1, 2, 2]), np.array([5, 5, 4, 3, 7, 2, 9]), 4).tolist()
    [5, 7, 9, 0]
    """
    out = np.zeros(n_groups, np.int64)
    if not len(group):
        return out
    order = np.lexsort((n, group))
    g, v = group[order], n[order]
    starts = np.flatnonzero(np.r_[True, (g[1:] != g[:-1]) | (v[1:] != v[:-1])])  # runs of equal (group, n)
    freq = np.diff(np.r_[starts, len(g)])
    rg, rv = g[starts], v[starts]
    pick = np.lexsort((rv, freq, rg))  # within a group: by frequency, then by n; the last wins
    last = np.r_[rg[pick][1:] != rg[pick][:-1], True]
    out[rg[pick][last]] = rv[pick][last]
    return out


@dataclass(frozen=True)
class Cells:
    """Every cell of the policy (each data set with results x each learner with a result for the
    criterion), in (criterion, dataset, learner) code order: codes, count and expected count."""

    criterion: np.ndarray
    dataset: np.ndarray
    learner: np.ndarray
    count: np.ndarray
    expected: np.ndarray


def policy_cells(grid: np.ndarray) -> Cells:
    """The cells and their expected counts (the modal count over the learners of the data set
    and criterion; for a data set without a result for the criterion, the criterion's modal
    count) from the grid of counts (0: no result)."""
    c, d, lrn = np.nonzero(grid)  # the observed cells, in code order
    n = grid[c, d, lrn]
    has_dataset = np.zeros(grid.shape[1], bool)
    has_dataset[d] = True
    learner_for = np.zeros((grid.shape[0], grid.shape[2]), bool)
    learner_for[c, lrn] = True
    by_criterion = modal_by(c, n, grid.shape[0])
    by_cell = modal_by(c * grid.shape[1] + d, n, grid.shape[0] * grid.shape[1]).reshape(grid.shape[:2])
    expected = np.where(by_cell > 0, by_cell, by_criterion[:, None])
    ci, di, li = np.nonzero(has_dataset[None, :, None] & learner_for[:, None, :])
    return Cells(ci, di, li, grid[ci, di, li], expected[ci, di])


@dataclass(frozen=True)
class Designs:
    """Repeats x folds of the (dataset, learner) pairs with results: the pairs (``dataset code *
    learners + learner code``, increasing), their distinct repeats, folds and (repeat, fold) runs,
    and the words ("10 x 10", "10 x 10 (93 of 100 runs)")."""

    pairs: np.ndarray
    repeats: np.ndarray
    folds: np.ndarray
    runs: np.ndarray

    @property
    def text(self) -> list[str]:
        return [
            f"{a} x {b}" if k == a * b else f"{a} x {b} ({k} of {a * b} runs)"
            for a, b, k in zip(self.repeats.tolist(), self.folds.tolist(), self.runs.tolist())
        ]


def designs(rows: Rows, n: int, n_pairs: int) -> Designs:
    """Repeats x folds of each (dataset, learner) pair with results.

    One boolean grid over (pair, repeat, fold), filled a chunk of rows at a time: a pair's
    repeats are the repeats with a run, its folds the folds with a run, its runs the cells set
    (no sort, no copy of the columns). A grid much larger than the log (repeat or fold numbers
    spread far apart) falls back to counting distinct values with a sort.
    """
    lows, highs = [0, 0], [0, 0]
    for s in range(0, n, ROWS):
        _, repeat, fold = rows(s, min(s + ROWS, n))
        for k, x in enumerate((repeat, fold)):
            lo, hi = int(x.min()), int(x.max())
            lows[k], highs[k] = (lo, hi) if s == 0 else (min(lows[k], lo), max(highs[k], hi))
    spans = [hi - lo + 1 for lo, hi in zip(lows, highs)]
    if n and n_pairs * spans[0] * spans[1] <= max(4 * n, 1 << 22):
        grid = np.zeros(n_pairs * spans[0] * spans[1], bool)
        for s in range(0, n, ROWS):
            at, repeat, fold = rows(s, min(s + ROWS, n))  # ``at``: the pair, made the grid's index in place
            at *= spans[0]
            at += repeat
            at -= lows[0]
            at *= spans[1]
            at += fold
            at -= lows[1]
            grid[at] = True
        cube = grid.reshape(n_pairs, spans[0], spans[1])
        got = [cube.any(axis=2).sum(axis=1), cube.any(axis=1).sum(axis=1), cube.sum(axis=(1, 2))]
    elif n:
        pair, repeat, fold = rows(0, n)
        pair = pair.astype(np.int64)
        repeat, fold = repeat.astype(np.int64) - lows[0], fold.astype(np.int64) - lows[1]
        got = [_distinct(pair, n_pairs, x) for x in (repeat, fold, repeat * spans[1] + fold)]
    else:
        got = [np.zeros(n_pairs, np.int64)] * 3
    where = np.flatnonzero(got[0])
    r, f, runs = (np.asarray(g[where], np.int64) for g in got)
    return Designs(where, r, f, runs)


def _distinct(pair: np.ndarray, n_pairs: int, x: np.ndarray) -> np.ndarray:
    """Number of distinct ``x`` per ``pair`` (for designs too sparse for :func:`designs`' grid)."""
    both = np.unique(np.stack([pair, x]), axis=1)
    return np.bincount(both[0], minlength=n_pairs)


def code_rows(dataset: np.ndarray, learner: np.ndarray, repeat: np.ndarray, fold: np.ndarray, n_learners: int) -> Rows:
    """:data:`Rows` of a log's code columns (as they are: no copy; repeat and fold as signed
    integers)."""
    if repeat.dtype.kind != "i" or fold.dtype.kind != "i":
        repeat, fold = repeat.astype(np.int64), fold.astype(np.int64)

    def rows(s: int, e: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pair = dataset[s:e].astype(np.int64)
        pair *= n_learners
        pair += learner[s:e]
        return pair, repeat[s:e], fold[s:e]

    return rows


def reason(criterion: object, learner: object, count: int, expected: int) -> str:
    if count == 0:
        return f"no {criterion} result for learner {learner}"
    return f"learner {learner} has {int(count)} of {int(expected)} results"


def criteria_text(criteria: Sequence[object]) -> str:
    """The criteria of a log in words, its bookkeeping lines apart (:mod:`stats.core.criteria`): a
    sequence study's ``train`` lines are its training sizes, not one more criterion to rank by.

    >>> criteria_text(["pd", "train", "runtime"])
    '2 criteria (pd, runtime) and the training sizes of a sequence study (train)'
    >>> criteria_text(["acc"])
    '1 criterion (acc)'
    """
    measured, sizes = measured_criteria(criteria), bookkeeping_criteria(criteria)
    text = f"{len(measured)} criteri{'on' if len(measured) == 1 else 'a'} ({', '.join(measured)})"
    if sizes:
        text += f" and the training sizes of a sequence study ({', '.join(sizes)})"
    return text


def summary_text(
    *,
    criteria: Sequence[object],
    datasets: Sequence[object],
    learners: Sequence[object],
    lines: int,
    file_lines: int | None,
    pair_text: Sequence[str] | None,
    short: Sequence[tuple[object, object, object, str]],
    n_missing: int,
    max_lines: int = 20,
) -> str:
    """The text of ``rankboard check`` (and :meth:`stats.Completeness.summary`).

    ``criteria``, ``datasets``, ``learners``: the labels that occur, in label order;
    ``pair_text``: the repeats x folds of every (dataset, learner) pair in that order
    (:data:`NO_RESULTS` for a pair without results), None when unknown (an aggregate);
    ``short``: (criterion, dataset, learner, reason) of each missing or incomplete cell, in
    order, of which ``n_missing`` are missing. Lists are cut after ``max_lines`` entries.
    """
    nd, nl = len(datasets), len(learners)
    names = criteria_text(criteria)
    size = f"{lines} lines"
    if file_lines is not None and file_lines != lines:  # wide lines: a result per criterion
        size = f"{file_lines} lines, {lines} results"
    out = [f"{size}: {nd} data sets, {nl} learners, {names}"]
    if pair_text is None:
        out.append("repeats x folds: unknown (summarised from an aggregate, not a log)")
    else:
        tally: dict[str, int] = {}
        for text in pair_text:
            tally[text] = tally.get(text, 0) + 1
        usual = max(tally, key=tally.__getitem__)  # the most frequent; of equals, the first seen
        n_usual = tally[usual]
        if len(tally) == 1:
            out.append(f"repeats x folds: all {nd} data sets x {nl} learners: {usual}")
        else:
            out.append(f"repeats x folds: {usual} for {n_usual} of {nd * nl} data set x learner pairs; otherwise:")
            odd = [
                f"  {datasets[i // nl]} / {learners[i % nl]}: {text}"
                for i, text in enumerate(pair_text)
                if text != usual
            ]
            out += _cut(odd, max_lines)
    if not short:
        out.append("complete: no missing or incomplete cells")
    else:
        out.append(
            f"{n_missing} missing and {len(short) - n_missing} incomplete cells "
            "(expected: the modal count over the learners of a data set):"
        )
        out += _cut([f"  {c} / {d} / {lrn}: {r}" for c, d, lrn, r in short], max_lines)
    return "\n".join(out)


def _cut(lines: list[str], max_lines: int) -> list[str]:
    return lines if len(lines) <= max_lines else [*lines[:max_lines], f"  ... and {len(lines) - max_lines} more"]


@dataclass(frozen=True, eq=False)
class CellCounts:
    """A log's cells against their expected counts and its repeats x folds, from its label codes
    (numpy only): what ``rankboard check`` prints (:meth:`summary`).

    ``names``: the labels of each code column (criterion, dataset, learner: every code, in code
    order); ``cells``: :func:`policy_cells`; ``designs``: :func:`designs`.
    """

    names: tuple[Sequence[object], Sequence[object], Sequence[object]]
    cells: Cells
    designs: Designs | None
    lines: int
    file_lines: int | None = None

    @classmethod
    def of_codes(
        cls,
        codes: dict[str, np.ndarray],
        names: dict[str, Sequence[object]],
        *,
        file_lines: int | None = None,
    ) -> CellCounts:
        """From the code columns ``criterion``, ``dataset``, ``learner`` (and ``repeat``, ``fold``
        when known) of a log's rows, and the label of each code."""
        keys = ("criterion", "dataset", "learner")
        shape = [len(names[k]) for k in keys]
        grid = count_grid([codes[k] for k in keys], shape)
        n = len(codes["criterion"])
        found = None
        if "repeat" in codes and "fold" in codes:
            rows = code_rows(codes["dataset"], codes["learner"], codes["repeat"], codes["fold"], shape[2])
            found = designs(rows, n, shape[1] * shape[2])
        return cls((names["criterion"], names["dataset"], names["learner"]), policy_cells(grid), found, n, file_lines)

    def summary(self, max_lines: int = 20) -> str:
        cells = self.cells
        occurs = [np.unique(x) for x in (cells.criterion, cells.dataset, cells.learner)]
        criteria, datasets, learners = ([names[i] for i in o.tolist()] for names, o in zip(self.names, occurs))
        pair_text = None
        if self.designs is not None:
            n_learners = len(self.names[2])
            at = {int(p): t for p, t in zip(self.designs.pairs.tolist(), self.designs.text)}
            pair_text = [
                at.get(d * n_learners + lrn, NO_RESULTS) for d in occurs[1].tolist() for lrn in occurs[2].tolist()
            ]
        short = np.flatnonzero(cells.count < cells.expected)
        listed = [
            (
                self.names[0][c],
                self.names[1][d],
                self.names[2][lrn],
                reason(self.names[0][c], self.names[2][lrn], k, e),
            )
            for c, d, lrn, k, e in zip(
                *(
                    x[short].tolist()
                    for x in (cells.criterion, cells.dataset, cells.learner, cells.count, cells.expected)
                )
            )
        ]
        return summary_text(
            criteria=criteria,
            datasets=datasets,
            learners=learners,
            lines=self.lines,
            file_lines=self.file_lines,
            pair_text=pair_text,
            short=listed,
            n_missing=int((cells.count[short] == 0).sum()),
            max_lines=max_lines,
        )
