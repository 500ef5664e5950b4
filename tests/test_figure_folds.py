"""The folds view as a figure (issue 29): the per-data-set probability bars of every learner against
the control, and with ``pair`` the posterior simplex of the Bayesian signed-rank test, read back
from the SVG and checked against the view model the screen and the report use (``FoldsView``).

Cases: 2 learners (one named ``$\\frac{1}{0}$`` and an escape), the 12 long sweep names of
tests/data/sweep.dat, and 40 learners x 15 data sets x 1 repeat x 5 folds written here from a
fixed seed; widths of one and two journal columns.
"""

from __future__ import annotations

import dataclasses
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import stats
from stats.core import snap
from stats.core.names import printable
from tests.conftest import DATA
from tests.svg_figure import affine_fit, groups, points, text_at, uses
from tui.formats.figure import FigureOptions
from tui.model import FoldsView, Model, Selection, default_selection
from tui.render._figure import render_figure

pytest.importorskip("matplotlib")

HOSTILE = "$\\frac{1}{0}$\x1b[31m"
OUTCOMES = (("worse", "p_worse"), ("equivalent", "p_equivalent"), ("better", "p_better"))
WIDTHS = (3.5, 7.16)
SVG = "{http://www.w3.org/2000/svg}"


def _fold_log(path: Path, learners: list[str], datasets: int, repeats: int, seed: int) -> Path:
    """A log of ``learners`` on ``datasets`` data sets, ``repeats`` x 5 folds of accuracy (3 decimals)."""
    rng = np.random.default_rng(seed)
    lines = []
    for d in range(datasets):
        base = rng.uniform(0.6, 0.9)
        for learner in learners:
            shift = rng.normal(0.0, 0.03)
            for r in range(1, repeats + 1):
                lines += [
                    f"data-{d:02d},{r},{f},{learner},acc,{base + shift + rng.normal(0.0, 0.02):.3f}"
                    for f in range(1, 6)
                ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Model, Selection]]:
    folder = tmp_path_factory.mktemp("folds")
    logs = {
        "2": _fold_log(folder / "two.dat", ["nb", HOSTILE], 15, 2, seed=2),
        "12": DATA / "sweep.dat",
        "40": _fold_log(folder / "forty.dat", [f"learner-{i:02d}" for i in range(40)], 15, 1, seed=40),
    }
    out = {}
    for name, path in logs.items():
        log = stats.read_logs(path)
        out[name] = (Model(log), default_selection(log, "acc"))
    return out


def _view(case: tuple[Model, Selection]) -> FoldsView:
    model, sel = case
    view = model.analyze(sel).prepare("folds").part("folds")
    assert view is not None and not view.table.empty
    return view


def _svg(case: tuple[Model, Selection], width: float, pair: str | None = None) -> bytes:
    model, sel = case
    return render_figure(model, sel, "folds", FigureOptions(fmt="svg", width=width, pair=pair))


def _lines(found: dict[str, ET.Element], gid: str) -> list[str]:
    """The text of a gid drawn over several lines (``gid``, ``gid.1``, ...)."""
    out, k = [], 0
    while (name := gid if k == 0 else f"{gid}.{k}") in found:
        out.append(text_at(found[name])[0])
        k += 1
    return out


# -- text extents, for the tests of both figures ---------------------------------------------------


def text_boxes(svg: bytes) -> list[tuple[str, float, float, float, float]]:
    """(text, left, right, top, bottom) in SVG units of every unrotated ``<text>``: its width that
    of the font's outlines at its size (what a viewer draws), from the ascender (0.76 em) above the
    baseline to the descender (0.24 em) below it, placed by its ``text-anchor``."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    out = []
    for t in ET.fromstring(svg).iter(f"{SVG}text"):
        if re.search(r"rotate\(-?(?!0 )[\d.]+", t.get("transform", "")):
            continue  # the rotated axis label: alone on its side of the axes
        style = t.get("style", "")
        size = float(re.search(r"font-size: ([\d.]+)px", style).group(1))  # type: ignore[union-attr]
        weight = "bold" if "font-weight: 700" in style or "font-weight: bold" in style else "normal"
        text = "".join(t.itertext())
        width = text_to_path.get_text_width_height_descent(text, FontProperties(size=size, weight=weight), False)[0]
        x, y = float(t.get("x", "nan")), float(t.get("y", "nan"))
        anchor = re.search(r"text-anchor: (\w+)", style)
        shift = {"start": 0.0, "middle": width / 2, "end": width}[anchor.group(1) if anchor else "start"]
        out.append((text, x - shift, x - shift + width, y - 0.76 * size, y + 0.24 * size))
    return out


def assert_text_apart(svg: bytes) -> None:
    """No two texts of the figure overlap, and every text lies within the figure."""
    root = ET.fromstring(svg)
    width, height = (float(root.get(k, "0").removesuffix("pt")) for k in ("width", "height"))
    boxes = text_boxes(svg)
    assert boxes
    for text, left, right, top, bottom in boxes:
        assert -0.5 <= left and right <= width + 0.5 and -0.5 <= top and bottom <= height + 0.5, text
    order = sorted(boxes, key=lambda b: b[1])
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if b[1] >= a[2]:
                break
            assert not (a[3] < b[4] and b[3] < a[4]), f"{a[0]!r} overlaps {b[0]!r}"


# -- the bars ----------------------------------------------------------------------------------------


def _rectangles(group: ET.Element) -> list[tuple[float, float, float, float]]:
    """(left, right, top, bottom) of each rectangle of a bars path, in order."""
    p = points(group)
    assert len(p) % 4 == 0
    return [
        (min(x for x, _ in r), max(x for x, _ in r), min(y for _, y in r), max(y for _, y in r))
        for r in (p[k : k + 4] for k in range(0, len(p), 4))
    ]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", ["2", "12", "40"])
def test_bars_are_the_tables_probabilities_stacked_over_the_panel(
    cases: dict[str, tuple[Model, Selection]], case: str, width: float
) -> None:
    view = _view(cases[case])
    found = groups(_svg(cases[case], width))
    names = [str(n) for n in view.totals.index]
    drawn = [i for i in range(len(names)) if f"bars-{i}-worse" in found]
    assert drawn == list(range(len(drawn))) and drawn  # the first learners, in the table's order
    for i in drawn:
        rows = view.table.xs(names[i], level="learner")
        frame = points(found[f"panel-{i}"])
        x0, x1 = min(x for x, _ in frame), max(x for x, _ in frame)
        rects = {key: _rectangles(found[f"bars-{i}-{key}"]) for key, _ in OUTCOMES}
        assert all(len(r) == len(rows) for r in rects.values())  # a bar per data set compared
        probs = rows[[column for _, column in OUTCOMES]].to_numpy(float)
        ends = np.cumsum(probs, axis=1)
        # each bar starts at the panel's left, ends at its right (the three sum to 1) ...
        assert all(abs(r[0] - x0) < 0.02 for r in rects["worse"])
        assert all(abs(r[1] - x1) < 0.05 for r in rects["better"])
        # ... and its segments' ends are the cumulated probabilities under one affine map
        values = [0.0] * len(rows) + ends.ravel().tolist()
        coords = [r[0] for r in rects["worse"]] + [rects[key][j][1] for j in range(len(rows)) for key, _ in OUTCOMES]
        assert affine_fit(values, coords)
        centres = [(r[2] + r[3]) / 2 for r in rects["worse"]]
        assert centres == sorted(centres)  # the data sets top to bottom in the table's order


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", ["2", "12", "40"])
def test_every_learner_is_named_once_and_no_text_overlaps(
    cases: dict[str, tuple[Model, Selection]], case: str, width: float
) -> None:
    view = _view(cases[case])
    svg = _svg(cases[case], width)
    found = groups(svg)
    names = [printable(n) for n in view.totals.index]
    titled = [i for i in range(len(names)) if f"title-{i}" in found]
    for i in titled:  # each panel's title is the learner's whole name, wrapped over lines
        assert "".join(_lines(found, f"title-{i}")).replace(" ", "") == names[i].replace(" ", "")
    left_out = " ".join(_lines(found, "left-out"))
    assert all(names[i] in left_out for i in range(len(titled), len(names)))
    assert printable(view.control) in " ".join(_lines(found, "caption"))
    first_column = [i for i in titled if f"dataset-{i}-0" in found]
    datasets = list(dict.fromkeys(view.table.index.get_level_values(0)))
    for i in first_column:
        assert [text_at(found[f"dataset-{i}-{j}"])[0] for j in range(len(datasets))] == datasets
    assert_text_apart(svg)


def test_forty_learners_keep_their_names_readable(cases: dict[str, tuple[Model, Selection]]) -> None:
    """40 learners: several columns of small panels at full size of text, and the learners that do not
    fit the page named below (the tables have them all)."""
    view = _view(cases["40"])
    found = groups(_svg(cases["40"], 7.16))
    drawn = [i for i in range(len(view.totals)) if f"title-{i}" in found]
    tops = {round(text_at(found[f"title-{i}"])[2], 1) for i in drawn}
    assert len(drawn) / len(tops) >= 4  # at least 4 columns of panels
    assert len(drawn) < len(view.totals)
    left_out = " ".join(_lines(found, "left-out"))
    assert f"{len(drawn)} of {len(view.totals)} learners" in left_out


def test_the_caption_names_the_test_and_the_rope(cases: dict[str, tuple[Model, Selection]]) -> None:
    view = _view(cases["12"])
    found = groups(_svg(cases["12"], 7.16))
    caption = " ".join(_lines(found, "caption"))
    assert "Bayesian correlated t-test (Corani & Benavoli 2015)" in caption
    assert f"rope {view.rope:g}" in caption and "acc (higher is better)" in caption
    assert [text_at(found[f"key-text-{key}"])[0] for key, _ in OUTCOMES] == [
        "control better",
        "equivalent (within the rope)",
        "learner better",
    ]


# -- the simplex -------------------------------------------------------------------------------------


def _pair(view: FoldsView) -> str:
    """The learner whose signed-rank probabilities are the most evenly spread (a simplex with points
    in more than one region)."""
    p = view.totals[[column for _, column in OUTCOMES]].to_numpy(float)
    spread = -np.sort(p, axis=1)[:, -1]
    return str(view.totals.index[int(np.argmax(spread))])


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", ["2", "12", "40"])
def test_simplex_points_fall_in_the_regions_in_the_totals_shares(
    cases: dict[str, tuple[Model, Selection]], case: str, width: float
) -> None:
    view = _view(cases[case])
    learner = _pair(view)
    svg = _svg(cases[case], width, pair=learner)
    found = groups(svg)
    expected = view.totals.loc[learner, [column for _, column in OUTCOMES]].to_numpy(float)
    corner = np.array(points(found["simplex"])[:3])  # control better, rope, learner better
    inverse = np.linalg.inv(np.vstack([corner.T, np.ones(3)]))
    counts, open_, total = np.zeros(3), 0, 0
    for k, (key, _) in enumerate(OUTCOMES):
        for x, y in uses(found[f"samples-{key}"]):
            theta = inverse @ (x, y, 1.0)  # barycentric: the thetas of the sample
            assert theta.min() > -1e-3 and abs(theta.sum() - 1) < 1e-6
            top = np.sort(theta)
            if top[-1] - top[-2] < 1e-4:  # on a boundary, within the SVG's rounding
                open_ += 1
            else:
                assert int(np.argmax(theta)) == k  # each point drawn in its region's marker and colour
            counts[int(np.argmax(theta))] += 1
            total += 1
    assert total >= 1000
    assert np.all(np.abs(counts / total - expected) <= (1 + open_) / total)
    for k, (key, _) in enumerate(OUTCOMES):
        assert text_at(found[f"prob-{key}"])[0] == f"P = {expected[k]:.3f}"
    caption = " ".join(_lines(found, "caption"))
    assert printable(learner) in caption.replace(" ", "") or printable(learner) in caption
    assert "Bayesian signed-rank test (Benavoli et al. 2017)" in caption
    assert_text_apart(svg)


def test_the_samples_shares_are_the_totals_to_the_last_bit(cases: dict[str, tuple[Model, Selection]]) -> None:
    """Every one of the 50,000 samples redrawn from the table's mean differences wins where the
    view's signed-rank test found it: the shares are the totals' probabilities exactly."""
    from stats.folds.signed_rank_samples import signed_rank_thetas, winners

    for case in ("12", "40"):
        view = _view(cases[case])
        for learner in view.totals.index:
            z = snap(view.table.xs(learner, level="learner")["mean_difference"].to_numpy(float))
            shares = np.bincount(winners(signed_rank_thetas(z, view.rope), view.rope), minlength=3) / 50000
            expected = view.totals.loc[learner, ["p_better", "p_equivalent", "p_worse"]].to_numpy(float)
            assert np.array_equal(shares, expected), learner


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_the_thetas_win_as_bayes_signed_rank_counts(rope: float) -> None:
    from stats.folds.signed_rank_samples import signed_rank_thetas, winners

    z = np.round(np.random.default_rng(7).normal(0.004, 0.02, 40), 3)
    thetas = signed_rank_thetas(z, rope, nsamples=5000, seed=3)
    assert np.allclose(thetas.sum(axis=1), 1.0) and thetas.min() >= -1e-12
    got = np.bincount(winners(thetas, rope), minlength=3) / 5000
    r = stats.bayes_signed_rank(z, np.zeros(z.size), rope=rope, nsamples=5000, seed=3)
    assert got.tolist() == [r.p_a, r.p_rope, r.p_b]


@pytest.mark.parametrize("pair", ["no such learner", "control"])
def test_a_pair_that_is_not_a_compared_learner_is_refused_naming_them(
    cases: dict[str, tuple[Model, Selection]], pair: str
) -> None:
    view = _view(cases["12"])
    name = view.control if pair == "control" else pair
    with pytest.raises(ValueError, match="the learners are: ") as caught:
        _svg(cases["12"], 3.5, pair=name)
    assert all(str(n) in str(caught.value) for n in view.totals.index)
    assert f"--pair {name}" in str(caught.value)


# -- formats -----------------------------------------------------------------------------------------


def _png_size_and_dpi(data: bytes) -> tuple[int, int, float]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    at = data.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1
    return width, height, per_metre * 0.0254


@pytest.mark.parametrize("pair", [False, True])
def test_formats_text_dpi_and_the_same_bytes_twice(cases: dict[str, tuple[Model, Selection]], pair: bool) -> None:
    model, sel = cases["2"]
    learner = _pair(_view(cases["2"])) if pair else None
    out = {}
    for fmt in ("svg", "pdf", "png"):
        options = FigureOptions(fmt=fmt, width=3.5, dpi=120, pair=learner)
        out[fmt] = render_figure(model, sel, "folds", options)
        assert render_figure(model, sel, "folds", options) == out[fmt]
    assert b"/FontFile2" in out["pdf"] and b"/ToUnicode" in out["pdf"]
    root = ET.fromstring(out["svg"])
    height_pt = float(root.get("height", "0").removesuffix("pt"))
    width, height, dpi = _png_size_and_dpi(out["png"])
    assert (width, round(dpi)) == (round(3.5 * 120), 120)
    assert abs(height - height_pt / 72 * 120) <= 1


def test_a_hostile_name_is_printed_escaped_and_literally(cases: dict[str, tuple[Model, Selection]]) -> None:
    svg = _svg(cases["2"], 3.5)
    assert b"\x1b" not in svg
    shown = [t[0] for t in text_boxes(svg)]
    assert any(printable(HOSTILE) in line for line in shown)  # with its $ signs: no mathtext
    assert printable(HOSTILE) == "$\\frac{1}{0}$\\x1b[31m"


def test_with_rope_0_every_point_lies_on_the_bottom_edge(cases: dict[str, tuple[Model, Selection]]) -> None:
    model, sel = cases["12"]
    case = (model, dataclasses.replace(sel, rope=0.0))
    view = _view(case)
    learner = _pair(view)
    found = groups(_svg(case, 3.5, pair=learner))
    corner = np.array(points(found["simplex"])[:3])
    bottom = (corner[0][1] + corner[2][1]) / 2
    marks = [p for key, _ in OUTCOMES if f"samples-{key}" in found for p in uses(found[f"samples-{key}"])]
    assert marks and all(abs(y - bottom) < 0.01 for _, y in marks)
    assert text_at(found["prob-equivalent"])[0] == "P = 0.000"
    assert "rope 0" in " ".join(_lines(found, "caption"))


def test_a_learner_whose_signed_rank_test_was_not_computed_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above the Monte Carlo's size limit the totals hold NaN (stats.folds._signed_rank_jobs.MAX_WEIGHTS):
    the simplex is refused with the reason, never drawn from weights that would not fit in memory."""
    import stats.folds._signed_rank_jobs as jobs

    monkeypatch.setattr(jobs, "MAX_WEIGHTS", 1)
    log = stats.read_logs(DATA / "sweep.dat")
    model, selection = Model(log), default_selection(log, "acc")
    view = _view((model, selection))
    learner = next(str(n) for n in view.totals.index if n != view.control)
    assert np.isnan(view.totals.loc[learner, "p_better"])  # the limit took effect
    with pytest.raises(ValueError, match="probabilities were not computed"):
        render_figure(model, selection, "folds", FigureOptions(pair=learner))
