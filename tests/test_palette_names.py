"""Issue 28, item 8/9: the command palette finds the names of the logs, not only the actions.

Typing a criterion's name offers ``criterion: NAME`` (Enter chooses it), a learner's ``control:
NAME`` (Enter makes it the control), a data set's ``data set: NAME (exclude it)`` or ``(include
it)`` (Enter does that). Names are untrusted text: shown literally, never read as markup.
"""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette

from tests.test_app import LARGE, SMALL, drive, make_app, press, until
from tui.widgets._sidebar import NameList

SWEEP = Path(__file__).resolve().parent / "data" / "sweep.dat"


def _hits(app) -> list[str]:  # noqa: ANN001
    """The palette's entries as listed, best first (plain text)."""
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]


async def _choose(pilot, query: str, entry: str) -> list[str]:  # noqa: ANN001
    """Open the palette, type ``query``, wait until ``entry`` is the first hit, press Enter;
    the entries that were listed."""
    app = pilot.app
    await press(pilot, "ctrl+p")
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*query)
    await until(pilot, lambda: _hits(app)[:1] == [entry])
    hits = _hits(app)
    await press(pilot, "enter")
    assert not isinstance(app.screen, CommandPalette)
    return hits


async def test_typing_a_criterion_chooses_it() -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        assert app.selection.criterion == "acc"
        await _choose(pilot, "runtime", "criterion: runtime")
        assert app.selection.criterion == "runtime" and not app.selection.higher_is_better  # its own direction
        assert app.analysis.selection.criterion == "runtime"

    await drive(scenario, size=SMALL, app=make_app([str(SWEEP)]))


async def test_typing_a_learner_makes_it_the_control() -> None:
    name = "LogisticRegression-C=0.1"

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        assert app.analysis.control != name
        await _choose(pilot, name, f"control: {name}")
        assert app.selection.control == name and app.analysis.control == name
        learners = app.query_one("#learners", NameList)
        assert str(learners.get_option(name).prompt).startswith("[c] ")

    await drive(scenario, size=LARGE, app=make_app([str(SWEEP)]))


async def test_typing_a_data_set_excludes_it_then_includes_it() -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        n = len(app.selection.datasets)
        await _choose(pilot, "credit-g", "data set: credit-g (exclude it)")
        assert "credit-g" not in app.selection.datasets and len(app.selection.datasets) == n - 1
        assert app.analysis.n_datasets == n - 1
        await _choose(pilot, "credit-g", "data set: credit-g (include it)")
        assert "credit-g" in app.selection.datasets and app.analysis.n_datasets == n

    await drive(scenario, size=SMALL, app=make_app([str(SWEEP)]))


def _hostile_log(tmp_path: Path) -> Path:
    """Names that are markup, or hold a control character, on 3 data sets x 3 learners."""
    rows = [
        f"{dataset},1,{fold},{learner},accuracy,{0.5 + 0.1 * i + 0.01 * fold + 0.02 * j}\n"
        for j, dataset in enumerate(["[b]x", "iris", "wine\x1b[31m"])
        for i, learner in enumerate(["[red]boom", "nb", "tree"])
        for fold in (1, 2)
    ]
    path = tmp_path / "hostile.dat"
    path.write_text("".join(rows))
    return path


async def test_names_in_the_palette_are_literal(tmp_path: Path) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await _choose(pilot, "[red]boom", "control: [red]boom")
        assert app.selection.control == "[red]boom"
        await _choose(pilot, "[b]x", "data set: [b]x (exclude it)")
        assert "[b]x" not in app.selection.datasets
        hits = await _choose(pilot, "wine", "data set: wine\\x1b[31m (exclude it)")  # escaped, as everywhere
        assert not any("\x1b" in h for h in hits)
        assert "wine\x1b[31m" not in app.selection.datasets  # (the real name was excluded)

    await drive(scenario, size=LARGE, app=make_app([str(_hostile_log(tmp_path))]))
