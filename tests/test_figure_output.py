"""Figures as a user gets them (issue 29): ``rankboard report --format svg|pdf|png`` (options, refusals,
output files, matplotlib missing) and the app's ``e`` (CSV or a figure of the current view).

What each figure shows is tested in tests/test_figure_<view>.py."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import pytest

from tests.svg_figure import texts
from tests.test_app import RankboardApp, drive, press, settle
from tui.app._screens import ConfirmScreen, ExportScreen
from tui.cli import bundled_cv, main

LEARNERS = ("DecisionTree", "GaussianNB", "KNN", "LogisticRegression", "RandomForest")  # the bundled logs'


def _run(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes, str]:
    code = main(argv)
    out = capsysbinary.readouterr()
    return code, out.out, out.err.decode()


@pytest.mark.parametrize("view", ["cd", "quartiles", "folds"])
def test_report_svg_to_stdout_names_every_learner(view: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = _run(["report", "--view", view, "--format", "svg"], capsysbinary)
    assert code == 0, err
    assert out.startswith(b"<?xml") and b"<svg" in out
    shown = " ".join(texts(out))
    assert all(name in shown for name in LEARNERS)


def test_report_figure_defaults_to_the_cd_diagram(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    _, default, _ = _run(["report", "--format", "svg"], capsysbinary)
    _, cd, _ = _run(["report", "--format", "svg", "--view", "cd"], capsysbinary)
    assert default == cd


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--view", "all", "--format", "svg"], "a figure shows one view"),
        (["--view", "ranks", "--format", "svg"], "a figure shows one view: --view quartiles|cd|folds|curves"),
        (["--size", "single"], "--size apply to figures"),
        (["--dpi", "200", "--format", "json"], "--dpi apply to figures"),
        (["--pair", "KNN", "--view", "folds"], "--pair apply to figures"),
        (["--width", "2.5"], "--width of a text report is a whole number of columns"),
        (["--format", "svg", "--width", "0.5"], "--width of a figure is in inches, from 1 to 20"),
        (["--format", "png", "--dpi", "5", "-o", "x.png"], "--dpi must be from 30 to 2400"),
    ],
)
def test_report_refuses_figure_options_that_cannot_work(
    argv: list[str],
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["report", *argv], capsysbinary)
    assert code == 2
    assert said in err
    assert out == b"" and not list(tmp_path.iterdir())


def test_a_binary_figure_is_not_written_to_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = _run(["report", "--format", "pdf"], capsysbinary)
    assert code == 2 and "a PDF figure is binary: write it with -o FILE" in err
    assert out == b""


def _png_size_and_dpi(data: bytes) -> tuple[int, int, float]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    at = data.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1  # metres
    return width, height, per_metre * 0.0254


@pytest.mark.parametrize(("size", "inches"), [("single", 3.5), ("double", 7.16)])
def test_png_has_the_journal_width_and_the_dpi_asked(
    size: str, inches: float, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "cd.png"
    code, _, err = _run(["report", "--format", "png", "--size", size, "--dpi", "150", "-o", str(out)], capsysbinary)
    assert code == 0, err
    width, _, dpi = _png_size_and_dpi(out.read_bytes())
    assert width == round(inches * 150)
    assert round(dpi) == 150


def test_width_in_inches_wins_over_the_size(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    out = tmp_path / "cd.png"
    code, _, err = _run(["report", "--format", "png", "--width", "5", "--dpi", "100", "-o", str(out)], capsysbinary)
    assert code == 0, err
    assert _png_size_and_dpi(out.read_bytes())[0] == 500


@pytest.mark.parametrize("fmt", ["svg", "pdf", "png"])
def test_the_same_input_gives_the_same_bytes(
    fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    for out in (first, second):
        assert _run(["report", "--view", "quartiles", "--format", fmt, "-o", str(out)], capsysbinary)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    assert b"CreationDate" not in first.read_bytes() and b"<dc:date>" not in first.read_bytes()


def test_pdf_text_is_text_with_embedded_fonts(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    out = tmp_path / "cd.pdf"
    assert _run(["report", "--format", "pdf", "-o", str(out)], capsysbinary)[0] == 0
    data = out.read_bytes()
    assert b"/FontFile2" in data  # a TrueType font embedded (pdf.fonttype 42), not glyphs drawn as paths
    assert b"/ToUnicode" in data  # its text maps back to characters: searchable, copyable
    streams = [zlib.decompress(m) for m in _flate_streams(data)]
    assert any(b"Tj" in s or b"TJ" in s for s in streams)  # text-showing operators


def _flate_streams(data: bytes) -> list[bytes]:
    out, at = [], 0
    while (start := data.find(b"stream\n", at)) != -1:
        end = data.find(b"endstream", start)
        header = data[max(0, start - 200) : start]
        if b"/FlateDecode" in header:
            out.append(data[start + 7 : end].rstrip(b"\r\n"))
        at = end + 9
    return out


def test_an_existing_output_is_not_overwritten_without_force(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "cd.svg"
    out.write_bytes(b"mine")
    code, _, err = _run(["report", "--format", "svg", "-o", str(out)], capsysbinary)
    assert code == 1 and "exists" in err
    assert out.read_bytes() == b"mine"
    assert _run(["report", "--format", "svg", "-o", str(out), "--force"], capsysbinary)[0] == 0
    assert out.read_bytes().startswith(b"<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cd.svg"]  # no temporary file left


def _without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError


def test_without_matplotlib_the_message_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    _without_matplotlib(monkeypatch)
    out = tmp_path / "cd.svg"
    code, printed, err = _run(["report", "--format", "svg", "-o", str(out)], capsysbinary)
    assert code == 1
    assert 'pip install "rankboard[figures]"' in err
    assert printed == b"" and not out.exists()
    assert _run(["report", "--view", "cd"], capsysbinary)[0] == 0  # the text report needs no matplotlib


# -- the app's e -----------------------------------------------------------------------------------


async def _export_dialog(pilot, key: str) -> ExportScreen:  # noqa: ANN001
    await press(pilot, key, "e")
    screen = pilot.app.screen
    assert isinstance(screen, ExportScreen)
    return screen


async def test_e_offers_a_figure_that_swaps_the_suffix_and_writes_svg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        screen = await _export_dialog(pilot, "5")
        field = screen.query_one("#export-path")
        assert field.value.endswith("-cd-20260102-030405.csv") or field.value.endswith(".csv")
        screen.query_one("#as-figure").toggle()
        await pilot.pause()
        assert field.value.endswith(".svg") and field.value[:-4] == screen.default[:-4]
        screen.query_one("#as-figure").toggle()
        await pilot.pause()
        assert field.value == screen.default  # back to the CSV's name
        screen.query_one("#as-figure").toggle()
        await pilot.pause()
        await press(pilot, "enter")
        await settle(pilot)
        (svg,) = tmp_path.glob("*.svg")
        assert svg.name == Path(screen.default).with_suffix(".svg").name
        shown = " ".join(texts(svg.read_bytes()))
        assert all(name in shown for name in LEARNERS)
        assert not list(tmp_path.glob("*.csv"))

    await drive(scenario)


async def test_e_on_a_view_without_a_figure_offers_csv_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        screen = await _export_dialog(pilot, "2")
        assert not screen.query("#as-figure")
        await press(pilot, "escape")

    await drive(scenario)


async def test_e_figure_named_pdf_is_a_pdf_and_asks_before_overwriting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "mine.pdf"
    target.write_bytes(b"old")

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        screen = await _export_dialog(pilot, "1")
        screen.query_one("#export-path").value = str(target)
        await press(pilot, "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")
        assert target.read_bytes() == b"old"
        screen = await _export_dialog(pilot, "1")
        screen.query_one("#export-path").value = str(target)
        await press(pilot, "enter")
        await press(pilot, "y")
        await settle(pilot)
        assert target.read_bytes().startswith(b"%PDF")

    await drive(scenario)


async def test_e_figure_without_matplotlib_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    said: list[str] = []

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        monkeypatch.setattr(app, "notify", lambda message, **_: said.append(str(message)))
        _without_matplotlib(monkeypatch)
        screen = await _export_dialog(pilot, "5")
        screen.query_one("#export-path").value = str(tmp_path / "cd.svg")
        await press(pilot, "enter")
        await settle(pilot)
        assert any('pip install "rankboard[figures]"' in s for s in said), said
        assert not list(tmp_path.iterdir())

    await drive(scenario)


def test_bundled_logs_are_the_default(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """The figure of no path is the bundled logs', as the text report's (one source of logs)."""
    _, default, _ = _run(["report", "--format", "svg"], capsysbinary)
    _, given, _ = _run(["report", str(bundled_cv()), "--format", "svg"], capsysbinary)
    assert default == given
