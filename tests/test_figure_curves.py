"""The learning curves as a figure (issue 29), read back from the SVG and checked against the view
model the screen and the report use (``CurvesView``): each learner's medians and q1-q3 band at each
training size, and its plateau marked at its size.

Cases: the bundled sequence study (sample_logs/sequence), and sequence studies written here from a
fixed seed: 2 learners (one named ``$\\frac{1}{0}$`` and an escape) on 3 data sets, the 12 long
names of tests/data/sweep.dat on 2 data sets, 40 learners on one; widths of one and two columns.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import stats
from stats.core.names import printable
from tests.conftest import DATA, SAMPLES
from tests.svg_figure import affine_fit, groups, points, text_at, texts, uses
from tests.test_figure_folds import HOSTILE, _lines, _png_size_and_dpi, assert_text_apart, text_boxes
from tui.formats.figure import FigureOptions
from tui.model import Model, Selection, default_selection
from tui.render._figure import render_figure

pytest.importorskip("matplotlib")

WIDTHS = (3.5, 7.16)
SIZES = (50, 100, 150, 200, 250, 300)


def _sequence_log(path: Path, learners: list[str], datasets: list[str], seed: int) -> Path:
    """A sequence study as ``stats.run_sequence`` writes it: per (data set, repeat, test bucket,
    learner) an ``acc`` line and a ``train`` line (the training size); 5 repeats of 6 sizes, each
    learner's curve rising to a knee and flat after it, with noise."""
    rng = np.random.default_rng(seed)
    lines = []
    for d in datasets:
        for learner in learners:
            top, knee = rng.uniform(0.7, 0.95), rng.choice(SIZES[1:])
            for r in range(1, 6):
                for bucket, size in enumerate(SIZES, start=2):
                    value = top - 0.2 * max(0, knee - size) / knee + rng.normal(0.0, 0.01)
                    lines += [f"{d},{r},{bucket},{learner},acc,{value:.4f}", f"{d},{r},{bucket},{learner},train,{size}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Model, Selection]]:
    folder = tmp_path_factory.mktemp("curves")
    sweep = [str(n) for n in dict.fromkeys(stats.read_logs(DATA / "sweep.dat")["learner"].astype(str))]
    logs = {
        "2": (_sequence_log(folder / "two.dat", ["nb", HOSTILE], ["d1", "d2", "d3"], seed=2), "acc"),
        "12": (_sequence_log(folder / "twelve.dat", sweep, ["adult", "iris"], seed=12), "acc"),
        "40": (_sequence_log(folder / "forty.dat", [f"learner-{i:02d}" for i in range(40)], ["d1"], seed=40), "acc"),
        "bundled": (SAMPLES / "sequence", "balance"),
    }
    out = {}
    for name, (path, criterion) in logs.items():
        log = stats.read_logs(path)
        out[name] = (Model(log), default_selection(log, criterion))
    return out


def _view(case: tuple[Model, Selection]) -> object:
    model, sel = case
    view = model.analyze(sel).prepare("curves").part("curves")
    assert view is not None and not view.message
    return view


def _svg(case: tuple[Model, Selection], width: float) -> bytes:
    model, sel = case
    return render_figure(model, sel, "curves", FigureOptions(fmt="svg", width=width))


def _panels(view: object, found: dict[str, ET.Element]) -> list[tuple[int, str, list[str]]]:
    """(index, data set, the learners) of each panel drawn, in the view's order (the first data
    sets; those beyond the page's height named in a line below); the learners' indices are in the
    order of all the view's learners (each learner's style is the same in every panel)."""
    rows = view.rows  # type: ignore[attr-defined]
    learners = list(dict.fromkeys(rows["learner"]))
    datasets = list(dict.fromkeys(rows["dataset"]))
    drawn = [d for d in range(len(datasets)) if f"dataset-{d}" in found]
    assert drawn == list(range(len(drawn))) and drawn
    left_out = " ".join(_lines(found, "left-out"))
    assert all(printable(name) in left_out for name in datasets[len(drawn) :])
    return [(d, datasets[d], learners) for d in drawn]


CASES = ["2", "12", "40", "bundled"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_curve_points_are_the_medians_and_the_bands_the_quartiles(
    cases: dict[str, tuple[Model, Selection]], case: str, width: float
) -> None:
    view = _view(cases[case])
    found = groups(_svg(cases[case], width))
    for d, dataset, learners in _panels(view, found):
        sizes, xs, values, ys = [], [], [], []
        for i, learner in enumerate(learners):
            curve = view.curve(dataset, learner).sort_values("train")  # type: ignore[attr-defined]
            marks = uses(found[f"curve-{d}-{i}"])  # a marker per training size
            assert len(marks) == len(curve)
            band = points(found[f"band-{d}-{i}"])[: 2 * len(curve)]  # q1 forwards, then q3 backwards
            train = curve["train"].tolist()
            sizes += train + train + train[::-1]
            xs += [x for x, _ in marks] + [x for x, _ in band]
            values += curve["median"].tolist() + curve["q1"].tolist() + curve["q3"].tolist()[::-1]
            ys += [y for _, y in marks] + [y for _, y in band]
        assert affine_fit(sizes, xs)  # one x axis for the panel: the training size
        assert affine_fit(values, ys)  # one y axis: the criterion (medians, q1 and q3 alike)
        assert ys[0] != ys[np.argmax(values)]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_each_plateau_is_marked_at_its_size_and_said_in_the_key(
    cases: dict[str, tuple[Model, Selection]], case: str, width: float
) -> None:
    view = _view(cases[case])
    found = groups(_svg(cases[case], width))
    for d, dataset, learners in _panels(view, found):
        sizes, xs, medians, ys = [], [], [], []
        for i, learner in enumerate(learners):  # the axes' map, from the medians
            curve = view.curve(dataset, learner).sort_values("train")  # type: ignore[attr-defined]
            marks = uses(found[f"curve-{d}-{i}"])
            sizes += curve["train"].tolist()
            medians += curve["median"].tolist()
            xs += [x for x, _ in marks]
            ys += [y for _, y in marks]
        slope_x = np.polyfit(sizes, xs, 1) if len(set(sizes)) > 1 else None
        slope_y = np.polyfit(medians, ys, 1)
        plateaus = view.plateaus[view.plateaus["dataset"] == dataset]  # type: ignore[attr-defined]
        reached = 0
        for p in plateaus.itertuples(index=False):
            i = learners.index(p.learner)
            key = "".join(_lines(found, f"key-{d}-{i}")).replace(" ", "")
            if not p.reached:
                assert f"plateau-{d}-{i}" not in found
                assert key.endswith(f"stillimprovingat{p.size:g}")
                continue
            reached += 1
            assert key == f"{printable(p.learner)}:plateauat{p.size:g}".replace(" ", "")
            curve = view.curve(dataset, p.learner)  # type: ignore[attr-defined]
            median = float(curve[curve["train"] == p.size]["median"].iloc[0])
            ((x, y),) = uses(found[f"plateau-{d}-{i}"])  # one open marker, on the curve at the plateau
            assert slope_x is not None
            assert abs(x - np.polyval(slope_x, p.size)) < 0.05
            assert abs(y - np.polyval(slope_y, median)) < 0.05
            tick = points(found[f"plateau-tick-{d}-{i}"])
            assert all(abs(tx - x) < 0.05 for tx, _ in tick)  # and a tick on the x axis under it
        assert reached == int(plateaus["reached"].sum())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_names_are_present_and_no_text_overlaps(
    cases: dict[str, tuple[Model, Selection]], case: str, width: float
) -> None:
    view = _view(cases[case])
    svg = _svg(cases[case], width)
    found = groups(svg)
    for d, dataset, learners in _panels(view, found):
        assert text_at(found[f"dataset-{d}"])[0] == printable(dataset)
        for i, learner in enumerate(learners):
            key = "".join(_lines(found, f"key-{d}-{i}")).replace(" ", "")
            assert key.startswith(printable(learner).replace(" ", "") + ":")
    assert_text_apart(svg)
    shown = texts(svg)
    direction = "higher" if view.higher_is_better else "lower"  # type: ignore[attr-defined]
    assert f"{printable(view.criterion)} ({direction} is better)" in shown  # type: ignore[attr-defined]
    assert "training size (instances)" in shown
    caption = " ".join(_lines(found, "caption"))
    assert "stats.plateau" in caption and "Mann-Whitney" in caption  # what marks the plateau


def test_a_log_without_a_sequence_study_has_no_curves_to_draw() -> None:
    log = stats.read_logs(DATA / "sweep.dat")
    with pytest.raises(ValueError, match="nothing to draw in the curves view: this log holds no sequence study"):
        render_figure(Model(log), default_selection(log, "acc"), "curves", FigureOptions(fmt="svg"))


def test_formats_text_dpi_and_the_same_bytes_twice(cases: dict[str, tuple[Model, Selection]]) -> None:
    model, sel = cases["bundled"]
    out = {}
    for fmt in ("svg", "pdf", "png"):
        options = FigureOptions(fmt=fmt, width=3.5, dpi=90)
        out[fmt] = render_figure(model, sel, "curves", options)
        assert render_figure(model, sel, "curves", options) == out[fmt]
    assert b"/FontFile2" in out["pdf"] and b"/ToUnicode" in out["pdf"]
    height_pt = float(ET.fromstring(out["svg"]).get("height", "0").removesuffix("pt"))
    width, height, dpi = _png_size_and_dpi(out["png"])
    assert (width, round(dpi)) == (round(3.5 * 90), 90)
    assert abs(height - height_pt / 72 * 90) <= 1


def test_a_hostile_name_is_printed_escaped_and_literally(cases: dict[str, tuple[Model, Selection]]) -> None:
    svg = _svg(cases["2"], 3.5)
    assert b"\x1b" not in svg
    assert any(line.startswith(printable(HOSTILE) + ":") for line, *_ in text_boxes(svg))
