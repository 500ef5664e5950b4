"""Benchmark: drawing one view as a figure (issue 29: under 1 s, matplotlib's import reported apart).

What it measures
    1. matplotlib's import: a fresh interpreter importing ``matplotlib.figure`` and the Agg canvas,
       against a fresh interpreter importing nothing (the baseline of the same run); medians of
       ``--rounds`` interleaved runs.
    2. Drawing: for each view with a figure (CD diagram, quartiles, folds, and with ``--pair`` the
       posterior simplex; curves on the bundled sequence study) and each format (SVG, PDF, PNG at
       300 dpi), the time of :func:`tui.render.draw_figure` on an analysis already made, in this
       process after matplotlib is imported: the median of ``--rounds`` draws. Beside it, the
       same view's text section (:func:`tui.render.render_report` as text, analysis made), the
       baseline of the same run: the ratio says what the figure costs over the text.
    3. Whole command: ``rankboard report --view cd --format svg -o FILE`` against ``rankboard
       report --view cd`` (text), fresh processes, interleaved, medians.

Logs: the bundled cross-validation logs (5 learners x 10 data sets) and the long-name sweep of the
tests (``tests/data/sweep.dat``: 12 learners named like a hyperparameter sweep, 30 data sets).

Run from the repository root::

    python benchmarks/bench_figures.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _process(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def imports(rounds: int) -> None:
    bare, mpl = [], []
    for _ in range(rounds):  # interleaved: a change of the machine's load falls on both
        bare.append(_process("pass"))
        mpl.append(_process("import matplotlib.figure, matplotlib.backends.backend_agg"))
    b, m = statistics.median(bare), statistics.median(mpl)
    print(f"import matplotlib (fresh process): {m * 1000:7.0f} ms   bare python: {b * 1000:5.0f} ms   "
          f"matplotlib's own: {(m - b) * 1000:5.0f} ms")


def _median_ms(work, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def drawing(rounds: int) -> None:
    from stats import read_logs
    from tui.cli import bundled_cv
    from tui.formats.figure import FigureOptions
    from tui.model import Model, default_selection
    from tui.render import draw_figure, render_report

    logs = {
        "bundled cv (5 x 10)": [str(bundled_cv())],
        "sweep (12 x 30)": [str(ROOT / "tests" / "data" / "sweep.dat")],
        "sequence study": [str(ROOT / "sample_logs" / "sequence")],
    }
    draw_figure_warm = True
    print(f"\n{'log':22s} {'view':10s} {'fmt':4s} {'figure ms':>10s} {'text ms':>8s} {'ratio':>6s}")
    for name, paths in logs.items():
        log = read_logs(*paths).table
        model = Model(log)
        selection = default_selection(log)
        views = ("curves",) if name == "sequence study" else ("cd", "quartiles", "folds", "pair")
        for view in views:
            real = "folds" if view == "pair" else view
            analysis = model.analyze(selection).prepare(real)
            if analysis.part(real) is None:
                print(f"{name:22s} {view:10s} (nothing to draw: {analysis.problem})")
                continue
            pair = None
            if view == "pair":
                pair = next(le for le in analysis.part("folds").totals.index)
            text_ms = _median_ms(partial(render_report, model, selection, view=real, fmt="text"), rounds)
            for fmt in ("svg", "pdf", "png"):
                options = FigureOptions(fmt=fmt, pair=pair)
                if draw_figure_warm:  # the first draw pays matplotlib's import and font cache
                    draw_figure(analysis, real, options)
                    draw_figure_warm = False
                ms = _median_ms(partial(draw_figure, analysis, real, options), rounds)
                print(f"{name:22s} {view:10s} {fmt:4s} {ms:10.0f} {text_ms:8.0f} {ms / text_ms:6.1f}")


def whole(rounds: int) -> None:
    text, svg = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            out = os.path.join(tmp, f"cd{i}.svg")
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "tui", "report", "--view", "cd"], check=True,
                           stdout=subprocess.DEVNULL)
            text.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "tui", "report", "--view", "cd", "--format", "svg", "-o", out],
                           check=True, stderr=subprocess.DEVNULL)
            svg.append(time.perf_counter() - start)
    t, s = statistics.median(text), statistics.median(svg)
    print(f"\nrankboard report --view cd (fresh process): text {t * 1000:.0f} ms, --format svg -o FILE "
          f"{s * 1000:.0f} ms (ratio {s / t:.2f}; the difference {(s - t) * 1000:.0f} ms is matplotlib's "
          "import and the drawing)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    imports(args.rounds)
    drawing(args.rounds)
    whole(max(3, args.rounds // 2))


if __name__ == "__main__":
    main()
