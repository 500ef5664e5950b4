"""The reports of ``rankboard report`` (numbers from :mod:`stats`, layout here).

:func:`render_report` renders any view of a :class:`~tui.viewmodel.Model`
selection as text, csv, markdown, LaTeX or JSON; :func:`text_report` is the
original one-shot text summary of a log.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd

import stats
from stats._format import fmt_p
from tui.export import export_frame, write_csv
from tui.render_json import render_json
from tui.render_latex import render_latex
from tui.render_markdown import render_markdown
from tui.render_text import VIEWS, check_view, render_text
from tui.viewmodel import LOWER_IS_BETTER, Model, Selection, default_higher_is_better

__all__ = [
    "FORMATS",
    "LOWER_IS_BETTER",
    "VIEWS",
    "csv_text",
    "default_higher_is_better",
    "render_report",
    "text_report",
]

#: Output formats of :func:`render_report` (``--format``).
FORMATS = ("text", "csv", "markdown", "latex", "json")


def csv_text(frame: pd.DataFrame) -> str:
    """Exactly the bytes :func:`tui.export.write_csv` writes for ``frame`` (it writes them, here to a scratch file)."""
    with tempfile.TemporaryDirectory(prefix="rankboard-csv-") as tmp:
        path = write_csv(frame, Path(tmp) / "view.csv")
        return path.read_bytes().decode("utf-8")


def render_report(
    model: Model,
    selection: Selection,
    *,
    view: str = "all",
    fmt: str = "text",
    ascii: bool = False,
    source: str = "",
    standalone: bool = False,
) -> str:
    """Render ``view`` ("quartiles", "ranks", "tests", "pairs", "cd" or "all") of ``selection`` as ``fmt``.

    Parameters
    ----------
    model, selection
        The loaded log and what to look at (``model.analyze(selection)``).
    view : str, default "all"
        One view, or every view in order.
    fmt : {"text", "csv", "markdown", "latex", "json"}
        ``csv`` is the app's export of one view, byte for byte (``view="all"`` is refused).
    ascii : bool, default False
        Text and markdown: draw the CD diagram with ASCII instead of box drawing.
    source : str
        Where the log came from, printed in the header (not in csv).
    standalone : bool, default False
        LaTeX only: a whole document (packages and the ``\\boxplot`` macro) instead of a fragment.

    Raises
    ------
    ValueError
        Unknown ``fmt`` (naming --format) or ``view`` (naming --view); csv with
        ``view="all"``; csv of a view the selection cannot fill (the analysis'
        problem says why).
    """
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    check_view(view)
    if fmt == "csv" and view == "all":
        raise ValueError(f"--format csv writes one view: give --view {'|'.join(VIEWS)}")
    analysis = model.analyze(selection)
    if fmt == "csv":
        return csv_text(export_frame(analysis, view))
    if fmt == "latex":
        return render_latex(analysis, view, standalone=standalone, source=source)
    if fmt == "markdown":
        return render_markdown(analysis, view, ascii=ascii, source=source)
    if fmt == "json":
        return render_json(analysis, view, source=source)
    return render_text(analysis, view, ascii=ascii, source=source)


def _rank_table(scores: pd.DataFrame, ranks: pd.DataFrame, avg: pd.Series) -> list[str]:
    width = max(len(str(d)) for d in scores.index.tolist() + ["average rank"])
    cols = [str(c) for c in scores.columns]
    cw = [max(len(c), 13) for c in cols]
    lines = [" " * width + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, cw))]
    for name, row in scores.iterrows():
        cells = [f"{v:.3f} ({ranks.loc[name, c]:g})" for c, v in row.items()]
        lines.append(str(name).ljust(width) + "  " + "  ".join(x.rjust(w) for x, w in zip(cells, cw)))
    lines.append(
        "average rank".ljust(width) + "  " + "  ".join(f"{avg[c]:.3f}".rjust(w) for c, w in zip(scores.columns, cw))
    )
    return lines


def text_report(
    log: pd.DataFrame,
    *,
    source: str,
    criterion: str | None = None,
    direction: str | None = None,
    control: str | None = None,
    alpha: float = 0.05,
    test: str = "friedman",
) -> str:
    if log.empty:
        raise ValueError("the logs hold no results")
    criterion = criterion or str(log["criterion"].iloc[0])
    scores = stats.scores_table(log, criterion)
    if len(scores) < 2:
        raise ValueError(f"{len(scores)} complete data set(s) for {criterion!r}: the tests need at least 2")
    higher = default_higher_is_better(criterion) if direction is None else direction == "higher"
    ranks = stats.ranks(scores, higher_is_better=higher)
    fr = stats.friedman(scores, higher_is_better=higher)
    avg = fr.ranks
    if control is None:
        control = str(avg.idxmin())
    k, n = scores.shape[1], scores.shape[0]
    cd = stats.critical_difference(k, n, alpha=alpha)
    out = [
        f"rankboard report: {source}",
        f"criterion {criterion} ({'higher' if higher else 'lower'} is better), "
        f"{n} data sets x {k} learners, median over repeats and folds",
        "",
        *_rank_table(scores, ranks, avg),
        *[f"left out: {name} ({why})" for name, why in scores.attrs.get("excluded", {}).items()],
        "",
        "verdict: " + str(stats.verdict(scores, alpha=alpha, higher_is_better=higher)),
        "",
        str(fr),
        str(stats.iman_davenport(scores, higher_is_better=higher)),
        str(stats.friedman_aligned(scores, higher_is_better=higher)),
        str(stats.quade(scores, higher_is_better=higher)),
        f"Nemenyi critical difference (alpha = {alpha:g}): CD = {cd:.3f}",
        "",
        f"control {control} ({test} z statistics); adjusted p-values <= {alpha:g} are marked *",
    ]
    table = stats.control_test(scores, control, test=test, alpha=alpha, higher_is_better=higher)
    procs = [c for c in table.columns if c not in ("z", "p")]
    lw = max(len(str(x)) for x in table.index.tolist() + ["learner"])
    out.append("learner".ljust(lw) + "        z         p" + "".join(f"{c:>12}" for c in procs))
    for name, row in table.iterrows():
        cells = "".join(f"{fmt_p(row[c]) + ('*' if row[c] <= alpha else ' '):>12}" for c in procs)
        out.append(f"{str(name).ljust(lw)} {row['z']:8.3f} {fmt_p(row['p']):>9}{cells}")
    return "\n".join(out) + "\n"
