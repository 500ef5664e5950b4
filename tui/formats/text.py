"""Plain-text pieces every view's renderer uses: the decimals of a criterion's values, fixed-width
columns, probabilities, and the report's header."""

from __future__ import annotations

import math

from tui.formats.names import MIN_NAME, fit_names
from tui.model import Analysis


def value_decimals(largest: float, smallest: float | None = None) -> int:
    """Decimals of a criterion's values, from the largest magnitude it takes: as in Menzies'
    notes on comparing learners, 1 for values of 10 or more, 3 down to 0.1, and below that as many
    as keep 3 significant digits (runtimes of 0.0006 to 0.005 s print 0.00065 .. 0.00500, not
    0.000652 beside 0.001); with ``smallest`` (the least non-zero magnitude) and a largest below
    0.1, also as many as keep 2 significant digits of it (runtimes of 0.0004 to 0.014 s: 0.00045 ..
    0.01400, not 0.0004 or 0.000445 beside 0.0011). At most 8.

    >>> value_decimals(98.9), value_decimals(0.97), value_decimals(0.005), value_decimals(0.0)
    (1, 3, 5, 3)
    >>> value_decimals(0.014), value_decimals(0.014, 0.000445), value_decimals(0.97, 0.004)
    (4, 5, 3)
    """
    big = abs(largest)
    if not math.isfinite(big) or big >= 10:
        return 1
    decimals = 3 if big >= 0.1 or big == 0 else min(8, 2 - math.floor(math.log10(big)))
    small = abs(smallest) if smallest is not None else 0.0
    if big < 0.1 and 0 < small and math.isfinite(small):  # rates in [0, 1] keep Menzies' 3
        decimals = max(decimals, min(8, 1 - math.floor(math.log10(small))))
    return decimals


def header_lines(analysis: Analysis, source: str) -> list[str]:
    sel = analysis.selection
    direction = "higher" if sel.higher_is_better else "lower"
    out = [f"rankboard report: {source}"] if source else []
    out.append(
        f"criterion {sel.criterion} ({direction} is better), {analysis.n_datasets} data sets x "
        f"{analysis.n_learners} learners, median over repeats and folds"
    )
    if analysis.problem:
        out.append(f"not tested: {analysis.problem}")
    out += list(analysis.notes)
    return out


def prob(p: float) -> str:
    return "-" if not finite(p) else f"{p:.3f}"


def grid(header: tuple[str, ...] | list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Fixed-width text columns: the first ``left`` left-aligned, the others right-aligned.

    Each line is one ``str.format`` of a template of the columns' widths (a row of as many cells
    as columns): a cell justified at a time took seconds for the 499,500 rows of 1,000 learners'
    pairs."""
    widths = [max(map(len, map(str, col))) for col in zip(header, *rows)]

    def line(cells: list[str] | tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    template = "  ".join(f"{{:{'<' if i < left else '>'}{w}}}" for i, w in enumerate(widths))
    return [line(header), *(template.format(*r).rstrip() if len(r) == len(widths) else line(r) for r in rows)]


def finite(x: float) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


def wrapped_grid(header: list[str], rows: list[list[str]], width: int | None, left: int = 1) -> list[str]:
    """:func:`grid`, its columns after the first ``left`` split into blocks no wider than ``width``
    (each block repeating the first ``left`` columns, blocks apart by a blank line), as R prints a
    wide matrix; one block when there is no ``width`` or it fits."""
    if width is None:
        return grid(header, rows, left)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    fixed = sum(w + 2 for w in widths[:left])
    out: list[str] = []
    start = left
    while start < len(header):
        end = start + 1  # at least one column a block, however narrow the width
        while end < len(header) and fixed + sum(w + 2 for w in widths[start : end + 1]) - 2 <= width:
            end += 1
        keep = [*range(left), *range(start, end)]
        out += ([""] if out else []) + grid([header[c] for c in keep], [[r[c] for c in keep] for r in rows], left)
        start = end
    return out


#: How a text report's reader sees names whole (a report to a file or a pipe is not fitted).
WHOLE_NAMES = "a wider terminal or a pipe: whole names"


def fitted_grid(
    header: list[str], rows: list[list[str]], width: int | None, *, left: int = 1, names: tuple[int, ...] = (0,),
    keep: int = 2,
    what: tuple[str, ...] = ("learners",),
) -> list[str]:
    """:func:`grid` fitted to ``width`` columns (a terminal's; None: :func:`grid` itself): the name
    columns ``names`` (of the first ``left``) fitted by the rule of every view (:func:`fit_names`)
    so that they and the first ``keep`` other columns fit, the other columns wrapped into blocks
    (:func:`wrapped_grid`), and a legend line per kind of name shortened (``what``: each name
    column's, e.g. "data sets", "learners")."""
    if width is None:
        return grid(header, rows, left)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    others = sum(w + 2 for i, w in enumerate(widths[:left]) if i not in names) + sum(
        w + 2 for w in widths[left : left + keep]
    )
    cap = max(MIN_NAME, (width - others) // max(len(names), 1) - 2)
    kinds = dict(zip(names, (*what, *[what[-1]] * len(names))))  # columns of one kind: one fit
    by_kind = {k: fit_names([r[i] for r in rows for i in names if kinds[i] == k], cap) for k in kinds.values()}
    rows = [[by_kind[kinds[i]][c] if i in kinds else c for i, c in enumerate(r)] for r in rows]
    legends = [fitted.legend(kind, WHOLE_NAMES) for kind, fitted in by_kind.items()]
    return wrapped_grid(header, rows, width, left) + [legend for legend in legends if legend]

