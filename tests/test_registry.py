"""The registry of views (issue 27): a new view is declared in one place, with its own code, and
every part of rankboard finds it: the help, the command palette, the app's keys and panels, every
report format (text, Markdown, LaTeX, JSON with its schema, CSV), the app's export and ``--view``.

The toy view below is such a view, registered by this test alone: it shows, per data set, how many
learners have a result. Nothing else in the tree knows it."""

from __future__ import annotations

import io
import json
import pathlib
import re
from collections.abc import Iterator, Sequence
from contextlib import redirect_stdout
from typing import Any

import pandas as pd
import pytest
from textual.command import CommandList
from textual.widgets import Static

from tests.test_app import LARGE, drive, make_app, press, until
from tests.test_render import validate
from tui import registry
from tui.app import RankboardApp
from tui.app._commands import help_rows
from tui.cli import bundled_cv, main
from tui.model import Analysis, Basis, Model
from tui.registry import RenderOptions, View
from tui.render import export_frame, render_report, schema
from tui.widgets import ViewPanel

SAYS = "toy view: learners with a result per data set"


def _counts(b: Basis) -> pd.Series:
    """The toy view's part: per data set of the table, how many learners have a median."""
    return b.scores.count(axis=1).rename("learners")


def _text(analysis: Analysis, options: RenderOptions) -> list[str]:
    counts = analysis.part("toy")
    return [SAYS, *(f"{d}: {n}" for d, n in counts.items())]


def _json(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    counts = analysis.part("toy")
    return {"toy": None if counts is None else {str(d): int(n) for d, n in counts.items()}}


def _schema() -> dict[str, Any]:
    return {
        "required": ["toy"],
        "properties": {"toy": {"type": ["object", "null"], "additionalProperties": {"type": "integer"}}},
    }


def _export(analysis: Analysis) -> pd.DataFrame:
    return analysis.part("toy").rename_axis("dataset").reset_index()


class ToyPanel(ViewPanel, Static):
    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Sequence[tuple[Any, Any]]) -> Any:
        counts = analysis.part(part)
        return None if counts is None else "\n".join(_text(analysis, RenderOptions()))

    def show(self, data: Any) -> None:
        self.update(data or "nothing for the toy view")


TOY = View(
    name="toy",
    key="8",
    title="Toy view: learners with a result per data set",
    short="toy",
    parts={"toy": _counts},
    formats={
        "text": _text,
        "markdown": _text,
        "latex": lambda a, o: ["% " + line for line in _text(a, o)],
        "json": _json,
    },
    export=_export,
    schema=_schema,
    panel=ToyPanel,
    requires=("testable",),
    filtered_by=("dataset",),
)


@pytest.fixture
def toy() -> Iterator[View]:
    unregister = registry.register(TOY)
    try:
        yield TOY
    finally:
        unregister()


@pytest.fixture(scope="module")
def model() -> Model:
    import stats

    return Model(stats.read_logs(str(bundled_cv())))


def test_a_name_or_key_taken_is_refused(toy: View) -> None:
    with pytest.raises(ValueError, match="clashes"):
        registry.register(View("toy", "9", "again", "again", {}, {}))
    with pytest.raises(ValueError, match="clashes"):
        registry.register(View("other", "1", "key of the quartiles", "x", {}, {}))


def test_the_toy_view_is_in_the_help(toy: View) -> None:
    assert ("8", TOY.title) in list(help_rows())
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        main(["--help"])
    assert TOY.title in out.getvalue()


def test_every_report_format_has_the_toy_view(toy: View, model: Model) -> None:
    sel = model.default_selection()
    counts = model.analyze(sel).part("toy")
    assert counts is not None and (counts == len(sel.learners)).all()
    for fmt in ("text", "markdown", "latex"):
        alone = render_report(model, sel, view="toy", fmt=fmt)
        assert SAYS in alone
        every = render_report(model, sel, view="all", fmt=fmt)
        assert SAYS in every and every.index(SAYS) > every.index("verdict" if fmt == "text" else "Friedman")
    doc = json.loads(render_report(model, sel, view="toy", fmt="json"))
    assert doc["toy"] == {str(d): int(n) for d, n in counts.items()}
    every = json.loads(render_report(model, sel, view="all", fmt="json"))
    assert list(every)[-1] == "toy" and "toy" in schema()["required"]
    validate(every, schema())
    csv = render_report(model, sel, view="toy", fmt="csv")
    assert csv.splitlines()[0] == "dataset,learners"
    assert len(csv.splitlines()) == len(counts) + 1


def test_the_export_writes_the_toy_view(toy: View, model: Model) -> None:
    frame = export_frame(model.analyze(model.default_selection()), "toy")
    assert list(frame.columns) == ["dataset", "learners"]


def test_report_command_takes_view_toy(toy: View, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "toy.md"
    assert main(["report", str(bundled_cv()), "--view", "toy", "--format", "markdown", "-o", str(out)]) == 0
    assert SAYS in out.read_text()


async def test_the_app_shows_the_toy_view_in_its_panel_palette_and_export(
    toy: View, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "8")
        assert app.view == "toy"
        panel = app.query_one("#toy", ToyPanel)
        assert str(panel.render()).startswith(SAYS)
        await press(pilot, "1")
        await press(pilot, "ctrl+p")
        await pilot.press(*"Toy view")
        await until(pilot, lambda: app.screen.query(CommandList).first().option_count > 0)
        await press(pilot, "enter")
        assert app.view == "toy"
        written: list[pd.DataFrame] = []
        monkeypatch.setattr(type(app), "_ask_path", lambda self, name, title, write, **kw: written.append(name))
        await press(pilot, "e")
        assert written and re.search(r"-toy-\d{8}-\d{6}\.csv$", str(written[0]))

    await drive(scenario, size=LARGE, app=make_app())


def test_a_spec_names_a_registered_view(toy: View, tmp_path: pathlib.Path, model: Model) -> None:
    from tui.model import load_spec, save_spec, spec_view

    path = save_spec(model.default_selection(), tmp_path / "toy.toml", "toy")
    assert 'view = "toy"' in path.read_text() and spec_view(load_spec(path)) == "toy"
    (tmp_path / "bad.toml").write_text('criterion = "pd"\nview = "nope"\n')
    with pytest.raises(ValueError, match=r"bad.toml: view = 'nope' is not valid; valid values are: quartiles, .*toy"):
        load_spec(tmp_path / "bad.toml")


async def test_the_app_opens_on_the_view_a_spec_names(tmp_path: pathlib.Path) -> None:
    """The s key records the view on screen; --spec opens on it (the registry names the views)."""
    from tui.model import load_spec, save_spec

    async def saved(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")
        save_spec(app.selection, tmp_path / "folds.toml", app.view)

    await drive(saved)
    spec = load_spec(tmp_path / "folds.toml")
    assert spec["view"] == "folds"

    async def reopened(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert app.view == "folds" and app.analysis is not None and app.analysis.ready("folds")

    await drive(reopened, app=make_app(spec=spec))


def test_report_prints_the_view_a_spec_names_unless_view_is_given(
    tmp_path: pathlib.Path, model: Model, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.model import save_spec

    spec = save_spec(model.default_selection(), tmp_path / "cd.toml", "cd")
    assert main(["report", str(bundled_cv()), "--spec", str(spec)]) == 0
    only_cd = capsys.readouterr().out
    assert main(["report", str(bundled_cv()), "--spec", str(spec), "--view", "cd"]) == 0
    assert capsys.readouterr().out == only_cd and "critical difference diagram" in only_cd
    assert main(["report", str(bundled_cv()), "--spec", str(spec), "--view", "all"]) == 0
    every = capsys.readouterr().out
    assert "verdict:" in every and "verdict:" not in only_cd
