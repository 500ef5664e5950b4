"""The CD diagram as a figure (issue 29): what the SVG shows, read back (tests/svg_figure.py) and
checked against the CD view's numbers (:class:`tui.model.CDView`, what the screen and the reports
show) and against the statistics themselves.

Cases: 2 learners (the bundled logs), 12 learners with a sweep's long names (tests/data/sweep.dat)
and 40 learners (a log made here with a fixed seed), at one and two journal columns (3.5 and 7.16
inches). The report options, refusals and the app's ``e`` are tests/test_figure_output.py's."""

from __future__ import annotations

import dataclasses
import re
import struct
from pathlib import Path

import numpy as np
import pytest

import stats
from tests.svg_figure import affine_fit, groups, points, text_at, texts
from tui.cli import bundled_cv
from tui.formats.figure import FigureOptions
from tui.model import CDView, Model, Selection, default_selection
from tui.render._figure import render_figure

SWEEP = Path(__file__).parent / "data" / "sweep.dat"
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
WIDTHS = (3.5, 7.16)
CASES = ("two", "sweep", "forty")
HOSTILE = "$\\frac{1}{0}$\x1b[31m"
#: The smallest type a journal prints (points): no label is set smaller.
READABLE = 5.0


def _write_log(path: Path, learners: list[str], datasets: int, seed: int) -> Path:
    """A log of ``learners`` x ``datasets`` data sets x 1 repeat x 5 folds of accuracies, each
    learner a fixed skill plus noise (``seed``): ranks spread, ties rare."""
    rng = np.random.default_rng(seed)
    skill = rng.normal(0.0, 0.03, len(learners))
    lines = []
    for d in range(datasets):
        base = rng.uniform(0.6, 0.9)
        for name, s in zip(learners, skill):
            for fold in range(1, 6):
                lines.append(f"ds{d:02d},1,{fold},{name},acc,{base + s + rng.normal(0, 0.02):.4f}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


_CASES: dict[str, tuple[Model, Selection]] = {}


@pytest.fixture(scope="module", autouse=True)
def _forty_log(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The 40 learners' log, written once for the module (15 data sets, seed 40)."""
    path = _write_log(tmp_path_factory.mktemp("forty") / "forty.dat", [f"learner_{i:02d}" for i in range(40)], 15, 40)
    log = stats.read_logs(path)
    _CASES["forty"] = (Model(log), default_selection(log, "acc"))


def _case(name: str) -> tuple[Model, Selection]:
    """The model and default selection of a case (the 2 learners: the bundled logs' first two)."""
    if name not in _CASES:
        if name == "sweep":
            log = stats.read_logs(SWEEP)
            _CASES[name] = (Model(log), default_selection(log, "acc"))
        else:
            log = stats.read_logs(bundled_cv())
            sel = default_selection(log)
            _CASES[name] = (Model(log), dataclasses.replace(sel, learners=sel.learners[:2]))
    return _CASES[name]


def _with(name: str, **changes: object) -> tuple[Model, Selection]:
    model, sel = _case(name)
    return model, dataclasses.replace(sel, **changes)


def _view(model: Model, sel: Selection) -> CDView:
    return model.analyze(sel).prepare("cd").part("cd")


def _svg(model: Model, sel: Selection, width: float = 7.16) -> bytes:
    return render_figure(model, sel, "cd", FigureOptions(fmt="svg", width=width))


def _rank_map(svg: bytes, view: CDView) -> tuple[float, float]:
    """(a, b) with x = a * rank + b: the axis' map, read from the ticks of rank 1 and rank k (k > 1)."""
    g = groups(svg)
    k = len(view.ranks)
    x1 = _tick_x(g, 1)
    # the axis path starts with its own ends: rank 1 and rank k
    (start, _), (end, _) = points(g["rank-axis"])[:2]
    assert start == pytest.approx(x1, abs=0.02)
    a = (end - start) / (k - 1)
    return a, start - a


def _tick_x(g: dict, rank: int) -> float:
    return text_at(g[f"tick-{rank}"])[1]


def _font_size(group) -> float:  # noqa: ANN001
    t = group.find(".//{http://www.w3.org/2000/svg}text")
    return float(re.search(r"font-size: ([\d.]+)px", t.get("style")).group(1))


def _line_number(key: str) -> int:
    """The number of a line of text under the figure (``basis-3``: 3), for sorting; -1 for others."""
    tail = key.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else -1


def _labels(svg: bytes, k: int) -> list[tuple[str, float, float, float]]:
    """(text, x, y, font size) of each learner's label, best first."""
    g = groups(svg)
    return [(*text_at(g[f"label-{j}"]), _font_size(g[f"label-{j}"])) for j in range(k)]


# -- the bars are the procedure's ------------------------------------------------------------------


@pytest.mark.parametrize("procedure", ["nemenyi", "holm", "shaffer"])
def test_the_bars_are_the_cliques_of_the_chosen_procedure(procedure: str) -> None:
    model, sel = _with("sweep", procedure=procedure)
    view = _view(model, sel)
    assert view.procedure == procedure
    svg = _svg(model, sel)
    g = groups(svg)
    a, b = _rank_map(svg, view)
    rank = {str(n): float(v) for n, v in view.ranks.items()}
    bars = sorted((k for k in g if k.startswith("bar-")), key=lambda k: int(k.split("-")[1]))
    assert len(bars) == len(view.cliques) > 0
    for key, clique in zip(bars, view.cliques):
        (x0, _), (x1, _) = points(g[key])
        assert x0 == pytest.approx(a * rank[clique[0]] + b, abs=0.02)
        assert x1 == pytest.approx(a * rank[clique[-1]] + b, abs=0.02)
    # the line under the figure says which procedure the bars are of
    said = " ".join(text_at(g[k])[0] for k in sorted(g, key=_line_number) if k.startswith("basis-"))
    assert said == view.basis + (f"; {view.replaced}" if view.replaced else "")
    assert stats.PROCEDURE_NAMES[procedure].split()[0] in said


def test_nemenyi_bars_are_those_of_the_critical_difference_and_differ_from_holms() -> None:
    """The bars follow the procedure, not Nemenyi whatever it is (scikit-posthocs #82): on the sweep,
    Nemenyi's CD and Holm's APVs join different learners, and each figure draws its own."""
    model, sel = _with("sweep", procedure="nemenyi")
    view = _view(model, sel)
    expected = tuple(tuple(str(n) for n in c) for c in stats.cd_groups(view.ranks, view.cd))
    assert view.cliques == expected
    holm = _view(*_with("sweep", procedure="holm"))
    assert holm.cliques != expected

    def drawn(procedure: str) -> list[tuple[float, float]]:
        g = groups(_svg(*_with("sweep", procedure=procedure)))
        return [tuple(x for x, _ in points(g[f"bar-{i}"])) for i in range(sum(k.startswith("bar-") for k in g))]

    assert drawn("nemenyi") != drawn("holm")


@pytest.mark.parametrize("procedure", ["nemenyi", "holm", "shaffer"])
def test_the_cd_interval_is_drawn_under_nemenyi_only(procedure: str) -> None:
    model, sel = _with("sweep", procedure=procedure)
    view = _view(model, sel)
    svg = _svg(model, sel)
    g = groups(svg)
    if procedure != "nemenyi":
        assert "cd-interval" not in g
        assert not any(t.startswith("CD = ") for t in texts(svg))
        return
    a, b = _rank_map(svg, view)
    xs = [x for x, _ in points(g["cd-interval"])]
    assert min(xs) == pytest.approx(a * 1 + b, abs=0.02)
    assert max(xs) - min(xs) == pytest.approx(a * view.cd, abs=0.02)  # the CD in rank units
    assert f"CD = {view.cd:.3f}" in text_at(g["cd-label"])[0]


# -- labels: at their ranks, readable, never overlapping ---------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_each_line_starts_at_its_average_rank_and_ends_at_its_label(case: str, width: float) -> None:
    model, sel = _case(case)
    view = _view(model, sel)
    svg = _svg(model, sel, width)
    g = groups(svg)
    names = [str(n) for n in view.ranks.index]
    values = [float(v) for v in view.ranks.to_numpy()]
    k, left_n = len(names), (len(names) + 1) // 2
    starts = [points(g[f"line-{j}"])[0] for j in range(k)]
    assert affine_fit(values, [x for x, _ in starts])
    a, b = _rank_map(svg, view)
    assert all(x == pytest.approx(a * v + b, abs=0.02) for (x, _), v in zip(starts, values))
    assert len({y for _, y in starts}) == 1  # every line leaves the axis
    ticks = [int(key.split("-")[1]) for key in g if key.startswith("tick-")]
    assert 1 in ticks and all(_tick_x(g, r) == pytest.approx(a * r + b, abs=0.02) for r in ticks)
    labels = _labels(svg, k)
    numbered = [bool(re.search(r"\(\d+\.\d\d\)", text)) for text, *_ in labels]
    assert all(numbered) or not any(numbered)  # every label with its average rank, or none (long names)
    assert all(numbered) or case == "sweep"
    for j, (text, x, y, _) in enumerate(labels):
        end_x, end_y = points(g[f"line-{j}"])[-1]
        if numbered[j]:
            assert text.endswith(f" ({values[j]:.2f})") if j < left_n else text.startswith(f"({values[j]:.2f}) ")
        assert (x < end_x) if j < left_n else (x > end_x)  # left half left of its line, the rest right
        assert abs(end_y - y) < 0.5 * _font_size(g[f"label-{j}"])  # the line ends at its label's middle
    # the better half hangs to the left, the best on the top row; the worst on top at the right
    ys = [y for _, _, y, _ in _labels(svg, k)]
    assert ys[:left_n] == sorted(ys[:left_n]) and ys[left_n:] == sorted(ys[left_n:], reverse=True)


def _extent(text: str, x: float, y: float, size: float, anchor: str) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1, SVG units = points) that ``text`` takes, from DejaVu Sans' glyph
    metrics (matplotlib's font file) and 5 per cent more; ascent 0.95 em, descent 0.25 em."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    w = (
        1.1
        * text_to_path.get_text_width_height_descent(text, FontProperties(family="DejaVu Sans", size=size), False)[0]
    )
    x0 = {"start": x, "end": x - w, "middle": x - w / 2}[anchor]
    return x0, y - 0.95 * size, x0 + w, y + 0.25 * size


def _boxes(svg: bytes) -> dict[str, tuple[float, float, float, float]]:
    """The box of every text the figure draws, by its group's id."""
    out = {}
    for key, group in groups(svg).items():
        t = group.find("{http://www.w3.org/2000/svg}text")
        if t is None:
            continue
        anchor = re.search(r"text-anchor: (\w+)", t.get("style", ""))
        text, x, y = text_at(group)
        out[key] = _extent(text, x, y, _font_size(group), anchor.group(1) if anchor else "start")
    return out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_no_two_texts_overlap_and_all_are_inside_the_figure(case: str, width: float) -> None:
    model, sel = _case(case)
    svg = _svg(model, sel, width)
    boxes = _boxes(svg)
    view_w, view_h = (float(v) for v in re.search(rb'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    assert view_w == pytest.approx(width * 72)
    assert sum(k.startswith("label-") for k in boxes) == len(_view(model, sel).ranks)
    for key, (x0, y0, x1, y1) in boxes.items():
        assert 0 <= x0 and x1 <= view_w and 0 <= y0 and y1 <= view_h, key
    keys = sorted(boxes)
    for i, p in enumerate(keys):
        for q in keys[i + 1 :]:
            a, b = boxes[p], boxes[q]
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (p, q)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_labels_are_set_no_smaller_than_five_points(case: str, width: float) -> None:
    model, sel = _case(case)
    labels = _labels(_svg(model, sel, width), len(_view(model, sel).ranks))
    assert min(size for *_, size in labels) >= READABLE


def test_forty_learners_are_all_named_whole_on_both_widths() -> None:
    """learner_00 .. learner_39 are short: smaller type, never cut."""
    model, sel = _case("forty")
    for width in WIDTHS:
        shown = " ".join(t for t, *_ in _labels(_svg(model, sel, width), 40))
        assert all(f"learner_{i:02d}" in shown for i in range(40))
        assert ELLIPSIS not in shown


def _shown_name(text: str) -> str:
    """The name of a label ``name (1.83)`` or ``(1.83) name``."""
    return re.sub(r"^\(\d+\.\d\d\) | \(\d+\.\d\d\)$", "", text)


def test_sweep_names_are_whole_on_two_columns_and_cut_distinct_on_one() -> None:
    model, sel = _case("sweep")
    view = _view(model, sel)
    names = [str(n) for n in view.ranks.index]
    wide = [_shown_name(t) for t, *_ in _labels(_svg(model, sel, 7.16), 12)]
    assert wide == names
    svg = _svg(model, sel, 3.5)
    narrow = [_shown_name(t) for t, *_ in _labels(svg, 12)]
    assert len(set(narrow)) == 12  # distinct
    for shown, name in zip(narrow, names):
        head, cut, tail = shown.partition(ELLIPSIS)
        assert shown == name or (cut and name.startswith(head) and name.endswith(tail) and len(shown) < len(name))
    assert any(ELLIPSIS in s for s in narrow)
    g = groups(svg)
    legend = " ".join(text_at(g[k])[0] for k in sorted(g, key=_line_number) if k.startswith("names-legend-"))
    assert "cut in the middle" in legend


# -- the formats -----------------------------------------------------------------------------------


def _hostile_case(folder: Path) -> tuple[Model, Selection]:
    path = _write_log(folder / "hostile.dat", [HOSTILE, "plain", "other"], 6, 7)
    log = stats.read_logs(path)
    return Model(log), default_selection(log, "acc")


def test_a_hostile_name_is_printed_as_written_and_escaped(tmp_path: Path) -> None:
    model, sel = _hostile_case(tmp_path)
    svg = _svg(model, sel)
    assert b"\x1b" not in svg
    shown = texts(svg)
    assert any("$\\frac{1}{0}$\\x1b[31m" in t for t in shown)  # literally: no mathtext, ESC escaped


def test_pdf_text_is_text_with_an_embedded_font() -> None:
    pdf = render_figure(*_case("sweep"), "cd", FigureOptions(fmt="pdf", width=3.5))
    assert b"/FontFile2" in pdf and b"/ToUnicode" in pdf


def test_png_has_the_width_and_dpi_asked() -> None:
    png = render_figure(*_case("two"), "cd", FigureOptions(fmt="png", width=3.5, dpi=150))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">I", png[16:20])[0] == round(3.5 * 150)
    at = png.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", png[at + 4 : at + 13])
    assert unit == 1 and round(per_metre * 0.0254) == 150


@pytest.mark.parametrize("fmt", ["svg", "pdf", "png"])
def test_the_same_input_gives_the_same_bytes(fmt: str) -> None:
    model, sel = _with("sweep", procedure="nemenyi")
    first = render_figure(model, sel, "cd", FigureOptions(fmt=fmt, dpi=100))
    assert render_figure(model, sel, "cd", FigureOptions(fmt=fmt, dpi=100)) == first
