"""The quartile view's box plots as a figure (issue 29): what the SVG shows, read back
(tests/svg_figure.py) and checked against the quartile view's numbers (:class:`tui.model.QuartilesView`,
what the screen and the reports show).

Cases: 2 learners (the bundled logs: 10 data sets, two of them flagged), 12 learners with a
sweep's long names (tests/data/sweep.dat, 30 data sets), 40 learners (a log made here with a
fixed seed, 15 data sets) and 3 learners on 4 data sets (every chart drawn), at one and two
journal columns (3.5 and 7.16 inches)."""

from __future__ import annotations

import dataclasses
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import stats
from tests.svg_figure import NS, affine_fit, groups, points, text_at, texts
from tests.test_figure_cd import ELLIPSIS, HOSTILE, READABLE, SWEEP, _boxes, _font_size, _line_number, _write_log
from tui.cli import bundled_cv
from tui.formats.figure import FigureOptions
from tui.model import Model, QuartileRow, QuartilesView, Selection, default_selection
from tui.render._figure import render_figure

WIDTHS = (3.5, 7.16)
CASES = ("two", "sweep", "forty", "few")
_CASES: dict[str, tuple[Model, Selection]] = {}


@pytest.fixture(scope="module", autouse=True)
def _generated_logs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The logs made here: 40 learners x 15 data sets (seed 40), 3 learners x 4 data sets (seed 4)."""
    folder = tmp_path_factory.mktemp("quartiles")
    for name, learners, datasets, seed in (
        ("forty", [f"learner_{i:02d}" for i in range(40)], 15, 40),
        ("few", ["alpha", "beta", "gamma"], 4, 4),
    ):
        log = stats.read_logs(_write_log(folder / f"{name}.dat", learners, datasets, seed))
        _CASES[name] = (Model(log), default_selection(log, "acc"))


def _case(name: str) -> tuple[Model, Selection]:
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


def _view(model: Model, sel: Selection) -> QuartilesView:
    return model.analyze(sel).prepare("quartiles").part("quartiles")


def _svg(model: Model, sel: Selection, width: float = 7.16) -> bytes:
    return render_figure(model, sel, "quartiles", FigureOptions(fmt="svg", width=width))


def _drawn(g: dict) -> list[int]:
    """The indices (in the view's scopes) of the charts drawn, in the figure's order (top first)."""
    titles = [(text_at(g[k])[2], int(k.split("-")[1])) for k in g if re.fullmatch(r"title-\d+", k)]
    return [s for _, s in sorted(titles)]


def _rows(view: QuartilesView, scope: str) -> list[QuartileRow]:
    return [r for r in view.rows if r.scope == scope]


def _xs(group: ET.Element) -> list[float]:
    return [x for x, _ in points(group)]


def _five(g: dict, s: int, i: int) -> list[float]:
    """The x of min, q1, median, q3 and max as drawn for row ``i`` of chart ``s``."""
    whisker, box, median = _xs(g[f"whisker-{s}-{i}"]), _xs(g[f"box-{s}-{i}"]), _xs(g[f"median-{s}-{i}"])
    assert len(set(median)) == 1  # a vertical mark
    return [min(whisker), min(box), median[0], max(box), max(whisker)]


# -- the boxes are the view's numbers --------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_every_box_is_its_learners_five_numbers_on_one_axis(case: str, width: float) -> None:
    model, sel = _case(case)
    view = _view(model, sel)
    g = groups(_svg(model, sel, width))
    values: list[float] = []
    coords: list[float] = []
    for s in _drawn(g):
        rows = _rows(view, view.scopes[s])
        assert sum(1 for k in g if k.startswith(f"box-{s}-")) == len(rows)
        for i, r in enumerate(rows):
            values += [r.min, r.q1, r.median, r.q3, r.max]
            coords += _five(g, s, i)
            shown = text_at(g[f"name-{s}-{i}"])[0]
            head, cut, tail = shown.partition(ELLIPSIS)
            assert shown == r.learner or (cut and r.learner.startswith(head) and r.learner.endswith(tail))
        # the rows in the view's order (best first), top to bottom
        ys = [text_at(g[f"name-{s}-{i}"])[2] for i in range(len(rows))]
        assert ys == sorted(ys)
    assert affine_fit(values, coords)  # one map for every chart: the view's shared axis
    # the map's ends are the view's axis, read from the first chart's axis line
    lo, hi = _xs(groups(_svg(model, sel, width))[f"axis-{_drawn(g)[0]}"])[:2]
    a = (hi - lo) / (view.hi - view.lo)
    assert all(c == pytest.approx(lo + a * (v - view.lo), abs=0.02) for v, c in zip(values, coords))


def test_ticks_are_numbered_with_their_values_on_the_same_axis() -> None:
    model, sel = _case("sweep")
    view = _view(model, sel)
    g = groups(_svg(model, sel))
    lo, hi = _xs(g["axis-0"])[:2]
    a = (hi - lo) / (view.hi - view.lo)
    ticks = [text_at(g[k]) for k in g if k.startswith("tick-0-")]
    assert len(ticks) >= 3
    for text, x, _ in ticks:
        assert x == pytest.approx(lo + a * (float(text) - view.lo), abs=0.02)


# -- Scott-Knott groups: a rank column and fills that survive greyscale ------------------------------


def _patterns(svg: bytes) -> dict[str, tuple[str, str]]:
    """Each hatch pattern's (colour, hatch lines) by id."""
    root = ET.fromstring(svg)
    out = {}
    for p in root.iter("{http://www.w3.org/2000/svg}pattern"):
        rect, path = p.find("svg:rect", NS), p.find("svg:path", NS)
        out[p.get("id")] = (rect.get("fill") if rect is not None else "", path.get("d") if path is not None else "")
    return out


def _fill(group: ET.Element) -> str:
    path = group.find(".//svg:path", NS)
    found = re.search(r"fill: url\(#(\w+)\)", path.get("style", ""))
    return found.group(1) if found else path.get("style", "")


@pytest.mark.parametrize("case", CASES)
def test_group_ranks_are_a_column_of_text_and_a_colour_with_a_hatch(case: str) -> None:
    model, sel = _case(case)
    view = _view(model, sel)
    svg = _svg(model, sel)
    g, patterns = groups(svg), _patterns(svg)
    fills: dict[int, set[str]] = {}
    for s in _drawn(g):
        scope = view.scopes[s]
        assert view.groups is not None
        for i, r in enumerate(_rows(view, scope)):
            rank = view.groups[scope].get(r.learner)
            assert text_at(g[f"rank-{s}-{i}"])[0] == ("-" if rank is None else str(rank))
            if rank is not None:
                fills.setdefault(rank, set()).add(_fill(g[f"box-{s}-{i}"]))
    assert all(len(f) == 1 for f in fills.values())  # one fill per group
    first = {rank: next(iter(f)) for rank, f in fills.items() if rank <= 7}
    assert len(set(first.values())) == len(first)  # the first seven groups: each its own fill
    colours = [patterns[p][0] for p in first.values()]
    hatches = [patterns[p][1] for p in first.values()]
    assert len(set(colours)) == len(first) and len(set(hatches)) == len(first)  # in greyscale too
    assert all(h for h in hatches)
    for rank, pattern in first.items():  # the legend's swatch of a group is its boxes' fill
        assert _fill(g[f"legend-group-{rank}"]) == pattern


def test_the_control_is_bold_with_a_dotted_line_at_its_median() -> None:
    model, sel = _case("sweep")
    view = _view(model, sel)
    control = model.analyze(sel).control
    g = groups(_svg(model, sel))
    lo, hi = _xs(g["axis-0"])[:2]
    a = (hi - lo) / (view.hi - view.lo)
    rows = _rows(view, "overall")
    for i, r in enumerate(rows):
        style = g[f"name-0-{i}"].find(".//svg:text", NS).get("style")
        assert ("font-weight: 700" in style) == (r.learner == control)
    line = _xs(g["control-0"])
    assert line[0] == line[1] == pytest.approx(lo + a * (view.control_median["overall"] - view.lo), abs=0.02)
    assert any(control in t for t in texts(_svg(model, sel)) if "control" in t)


# -- deltas ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["two", "sweep"])
def test_deltas_have_a_zero_line_and_say_positive_is_better(case: str) -> None:
    model, sel = _with(case, deltas=True)
    view = _view(model, sel)
    assert view.deltas is not None
    svg = _svg(model, sel)
    g = groups(svg)
    drawn = _drawn(g)
    lo, hi = _xs(g[f"axis-{drawn[0]}"])[:2]
    a = (hi - lo) / (view.hi - view.lo)
    for s in drawn:
        zero = _xs(g[f"zero-{s}"])
        assert zero[0] == zero[1] == pytest.approx(lo + a * (0.0 - view.lo), abs=0.02)
        for i, r in enumerate(_rows(view, view.scopes[s])):
            expected = [lo + a * (v - view.lo) for v in (r.min, r.q1, r.median, r.q3, r.max)]
            assert _five(g, s, i) == pytest.approx(expected, abs=0.02)
    axis = " ".join(text_at(g[k])[0] for k in sorted(g, key=_line_number) if k.startswith("axis-label-"))
    assert "positive = better than the control" in axis
    assert view.deltas in " ".join(texts(svg))
    assert not any(k.startswith("rank-") for k in g)  # no Scott-Knott ranks for deltas


# -- which charts -----------------------------------------------------------------------------------


def test_few_data_sets_draw_every_chart() -> None:
    model, sel = _case("few")
    view = _view(model, sel)
    g = groups(_svg(model, sel))
    assert _drawn(g) == list(range(len(view.scopes))) and len(view.scopes) == 5
    assert not any("not drawn" in t for t in texts(_svg(model, sel)))


@pytest.mark.parametrize("case", ["two", "sweep", "forty"])
def test_many_data_sets_draw_overall_and_the_flagged_and_say_how_many_are_not(case: str) -> None:
    model, sel = _case(case)
    view = _view(model, sel)
    svg = _svg(model, sel)
    drawn = [view.scopes[s] for s in _drawn(groups(svg))]
    assert drawn == ["overall", *view.flagged]
    datasets = len(view.scopes) - 1
    said = " ".join(texts(svg))
    assert f"not drawn: the charts of {datasets - len(view.flagged)} data sets" in said
    if case == "two":
        assert view.flagged  # (the bundled logs have discordant data sets: flagged charts are drawn)


# -- names and text ---------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", CASES)
def test_no_two_texts_overlap_and_all_are_inside_the_figure(case: str, width: float) -> None:
    model, sel = _case(case)
    svg = _svg(model, sel, width)
    boxes = _boxes(svg)
    view_w, view_h = (float(v) for v in re.search(rb'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    assert view_w == pytest.approx(width * 72)
    for key, (x0, y0, x1, y1) in boxes.items():
        assert 0 <= x0 and x1 <= view_w and 0 <= y0 and y1 <= view_h, key
    keys = sorted(boxes)
    for i, p in enumerate(keys):
        for q in keys[i + 1 :]:
            a, b = boxes[p], boxes[q]
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (p, q)
    g = groups(svg)
    assert min(_font_size(g[k]) for k in g if k.startswith("name-")) >= READABLE


def test_sweep_names_are_whole_on_two_columns_and_cut_distinct_on_one() -> None:
    model, sel = _case("sweep")
    names = [r.learner for r in _rows(_view(model, sel), "overall")]
    g = groups(_svg(model, sel, 7.16))
    assert [text_at(g[f"name-0-{i}"])[0] for i in range(12)] == names
    svg = _svg(model, sel, 3.5)
    g = groups(svg)
    narrow = [text_at(g[f"name-0-{i}"])[0] for i in range(12)]
    assert len(set(narrow)) == 12
    for shown, name in zip(narrow, names):
        head, cut, tail = shown.partition(ELLIPSIS)
        assert shown == name or (cut and name.startswith(head) and name.endswith(tail) and len(shown) < len(name))
    if narrow != names:
        assert any("cut in the middle" in t for t in texts(svg))


def test_a_hostile_name_is_printed_as_written_and_escaped(tmp_path: Path) -> None:
    log = stats.read_logs(_write_log(tmp_path / "hostile.dat", [HOSTILE, "plain", "other"], 3, 7))
    svg = _svg(Model(log), default_selection(log, "acc"))
    assert b"\x1b" not in svg
    assert any("$\\frac{1}{0}$\\x1b[31m" in t for t in texts(svg))


# -- the formats -----------------------------------------------------------------------------------


def test_pdf_text_is_text_with_an_embedded_font() -> None:
    pdf = render_figure(*_case("two"), "quartiles", FigureOptions(fmt="pdf", width=3.5))
    assert b"/FontFile2" in pdf and b"/ToUnicode" in pdf


def test_png_has_the_width_and_dpi_asked() -> None:
    png = render_figure(*_case("two"), "quartiles", FigureOptions(fmt="png", width=3.5, dpi=150))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">I", png[16:20])[0] == round(3.5 * 150)
    at = png.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", png[at + 4 : at + 13])
    assert unit == 1 and round(per_metre * 0.0254) == 150


@pytest.mark.parametrize("fmt", ["svg", "pdf", "png"])
def test_the_same_input_gives_the_same_bytes(fmt: str) -> None:
    model, sel = _case("sweep")
    first = render_figure(model, sel, "quartiles", FigureOptions(fmt=fmt, dpi=100))
    assert render_figure(model, sel, "quartiles", FigureOptions(fmt=fmt, dpi=100)) == first
