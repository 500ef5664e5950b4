"""Issue 28, item 3: ropes in the data's units. The default rope follows the criterion's scale
(0.01 on [0, 1], 1 on [0, 100], else 0 with a note: Benavoli, Corani, Demsar & Zaffalon 2017,
Sec. 3.4); ``o`` cycles 0, 1/2, 1, 2 and 5 units and keeps a rope from a spec or typed in its cycle;
``O`` types any rope."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats
from tests.conftest import REFERENCE
from tests.test_app import LARGE, drive, make_app, press
from tui.app._screens import AskScreen
from tui.model import Model, default_selection
from tui.render._report import render_report

# -- stats.default_rope and stats.rope_unit --------------------------------------------------

#: values -> the unit of their scale (the default rope: the unit, or 0.0 when it is None)
SCALES = [
    ([0.0, 0.5, 1.0], 0.01),
    ([1.0], 0.01),  # 1.0 is inside [0, 1]
    ([-0.0, 0.25], 0.01),  # -0.0 is 0
    ([0.0], 0.01),
    ([0.3, np.nan, np.inf], 0.01),  # only the finite values count
    ([0.2, 1.0000001], 1.0),  # just above 1: per cent
    ([94.444, 98.889], 1.0),
    ([100.0], 1.0),  # 100.0 is inside [0, 100]
    ([-0.0, 100.0], 1.0),
    ([50.0, -np.inf, np.nan], 1.0),
    ([100.0000001], None),  # just above 100: unknown
    ([0.0, 100.0000001], None),
    ([-1e-300, 0.5], None),  # just below 0: unknown
    ([-0.1, 0.5], None),
    ([-3.5, 2.0], None),
    ([120.0, 250.0], None),
    ([], None),  # no value: unknown
    ([np.nan, np.inf], None),
]


@pytest.mark.parametrize(("values", "unit"), SCALES)
def test_the_default_rope_is_one_unit_of_the_criterions_scale(values: list[float], unit: float | None) -> None:
    assert stats.rope_unit(values) == unit
    rope = stats.default_rope(values)
    assert rope == (0.0 if unit is None else unit) and type(rope) is float
    assert stats.default_rope(np.array(values)) == rope  # any array-like, in any order
    assert stats.default_rope(list(reversed(values))) == rope


def test_rope_unit_is_public_and_documented() -> None:
    assert "rope_unit" in stats.__all__ and stats.rope_unit is stats.folds.comparisons.rope_unit
    for f in (stats.rope_unit, stats.default_rope):
        assert "Benavoli" in f.__doc__ and "Sec. 3.4" in f.__doc__


def _log(values: dict[str, np.ndarray], learners: int = 3, datasets: int = 4, folds: int = 5) -> pd.DataFrame:
    """A tidy log: each criterion's values filled in (dataset, fold, learner) order, cycling."""
    rows = []
    for criterion, vals in values.items():
        k = 0
        for d in range(datasets):
            for f in range(1, folds + 1):
                for learner in range(learners):
                    rows.append((f"d{d}", 1, f, f"L{learner}", criterion, float(vals[k % len(vals)])))
                    k += 1
    return pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])


def test_fold_comparison_notes_an_unknown_scale_and_uses_the_units_of_per_cent() -> None:
    rng = np.random.default_rng(7)
    log = _log({"gain": rng.uniform(-5, 5, 60), "pct": rng.uniform(60, 100, 60), "acc": rng.uniform(0.6, 1, 60)})
    gain = stats.fold_comparison(log, "gain", "L0", nsamples=500)
    assert gain.rope == 0.0 and gain.notes[0].startswith("rope 0: the scale of gain is unknown")
    assert "[0, 100]" in gain.notes[0]
    given_rope = stats.fold_comparison(log, "gain", "L0", rope=0.0, nsamples=500)
    assert not any("scale" in n for n in given_rope.notes)  # a rope given: nothing to say
    pct = stats.fold_comparison(log, "pct", "L0", nsamples=500)
    assert pct.rope == 1.0 and not any("scale" in n for n in pct.notes)
    assert stats.fold_comparison(log, "acc", "L0", nsamples=500).rope == 0.01


# -- the model's default is stats' -----------------------------------------------------------

SCALE_VALUES = st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.0000001, 37.5, 99.999, 100.0, 100.0000001, -1e-300, -2.0, 250.0])


@settings(max_examples=40, deadline=None)
@given(
    a=st.lists(SCALE_VALUES | st.floats(0, 1), min_size=1, max_size=8),
    b=st.lists(SCALE_VALUES | st.floats(-200, 200), min_size=1, max_size=8),
)
def test_the_models_default_rope_is_stats_default_rope(a: list[float], b: list[float]) -> None:
    log = _log({"a": np.array(a), "b": np.array(b)}, learners=2, datasets=3, folds=2)
    model = Model(log)
    for criterion in ("a", "b"):
        values = log.loc[log["criterion"] == criterion, "value"]
        assert model.rope_unit(criterion) == stats.rope_unit(values)
        assert model.default_rope(criterion) == stats.default_rope(values)


def test_the_folds_view_and_the_report_say_how_to_set_a_rope_on_an_unknown_scale() -> None:
    log = _log({"gain": np.random.default_rng(3).uniform(-5, 5, 60)})
    model = Model(log)
    sel = default_selection(log, "gain")
    view = model.analyze(sel).folds
    assert view.rope == 0.0 and "unknown" in view.notes[0]
    assert "O types one" in view.notes[0] and "--rope" in view.notes[0] and "o cycles" in view.notes[0]
    text = render_report(model, sel, view="folds")
    assert "the scale of gain is unknown" in text and "--rope R" in text
    chosen = model.analyze(dataclasses.replace(sel, rope=0.5)).folds
    assert chosen.rope == 0.5 and not any("unknown" in n for n in chosen.notes)


# -- the explorer: o cycles in the data's units, O types any rope ----------------------------


def _percent_log(tmp_path: Path) -> Path:
    """Three data sets of baycomp's log (accuracies in per cent, 10 x 10-fold CV, 5 learners)."""
    lines = (REFERENCE / "baycomp_accuracies.dat").read_text().splitlines(keepends=True)
    keep = []
    for line in lines:
        if line.split(",", 1)[0] in {"anneal", "audiology", "cmc"}:
            keep.append(line)
    assert len(keep) == 1500
    path = tmp_path / "percent.dat"
    path.write_text("".join(keep))
    return path


def _messages(app) -> list[str]:  # noqa: ANN001
    return [n.message for n in app._notifications]


async def test_on_percentages_the_rope_is_one_and_o_cycles_points(tmp_path: Path) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        from tui.views.folds.panel import FoldsPanel

        await press(pilot, "6")
        assert app.selection.rope is None and app.analysis.folds.rope == 1.0
        assert "rope 1 (o)" in app.query_one(FoldsPanel).plain
        seen = []
        for _ in range(5):
            await press(pilot, "o")
            seen.append(app.selection.rope)
            assert app.analysis.folds.rope == app.selection.rope
        assert seen == [2.0, 5.0, 0.0, 0.5, 1.0]
        assert "rope 1 (o)" in app.query_one(FoldsPanel).plain

    await drive(scenario, size=LARGE, app=make_app([str(_percent_log(tmp_path))]))


async def test_a_rope_outside_the_cycle_stays_in_it(tmp_path: Path) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")
        app.selection = dataclasses.replace(app.selection, rope=3.0)  # as from a spec
        await press(pilot)
        assert app.analysis.folds.rope == 3.0
        seen = []
        for _ in range(6):
            await press(pilot, "o")
            seen.append(app.selection.rope)
        assert seen == [5.0, 0.0, 0.5, 1.0, 2.0, 3.0]
        await press(pilot, "o")
        assert app.selection.rope == 5.0

    await drive(scenario, size=LARGE, app=make_app([str(_percent_log(tmp_path))]))


async def test_o_on_proportions_cycles_as_before() -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")
        assert app.analysis.folds.rope == 0.01
        app.selection = dataclasses.replace(app.selection, rope=0.0125)
        await press(pilot)
        seen = []
        for _ in range(6):
            await press(pilot, "o")
            seen.append(app.selection.rope)
        assert seen == [0.02, 0.05, 0.0, 0.005, 0.01, 0.0125]

    await drive(scenario, size=LARGE)


async def _type_rope(pilot, text: str) -> None:  # noqa: ANN001
    await press(pilot, "O")
    assert isinstance(pilot.app.screen, AskScreen)
    await pilot.press(*(text or ["backspace"]))  # (the default is selected: what is typed replaces it)
    await press(pilot, "enter")
    assert not isinstance(pilot.app.screen, AskScreen)


async def test_shift_o_types_any_rope_and_refuses_what_is_not_one(tmp_path: Path) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        from tui.views.folds.panel import FoldsPanel

        await press(pilot, "6")
        await press(pilot, "O")
        assert isinstance(app.screen, AskScreen)
        assert app.screen.query_one("#ask-value").value == "1"  # the rope in use
        await press(pilot, "escape")
        assert not isinstance(app.screen, AskScreen) and app.selection.rope is None
        await _type_rope(pilot, "0.75")
        assert app.selection.rope == 0.75 and app.analysis.folds.rope == 0.75
        assert "rope 0.75 (o)" in app.query_one(FoldsPanel).plain
        for bad in ("-1", "abc", "nan", "inf", ""):
            await _type_rope(pilot, bad)
            assert app.selection.rope == 0.75, bad
            assert f"rope {bad!r} refused: a rope is a finite number >= 0" in _messages(app)[-1]
            assert "it stays 0.75" in _messages(app)[-1]
        await press(pilot, "o", "o")  # 0.75 -> 1 -> 2: the typed rope stays in the cycle
        assert app.selection.rope == 2.0
        for _ in range(4):
            await press(pilot, "o")
        assert app.selection.rope == 0.75

    await drive(scenario, size=LARGE, app=make_app([str(_percent_log(tmp_path))]))


async def test_on_an_unknown_scale_o_says_so_and_a_typed_rope_cycles_with_zero(tmp_path: Path) -> None:
    path = tmp_path / "gain.dat"
    rng = np.random.default_rng(5)
    path.write_text(
        "".join(
            f"d{d},1,{f},L{k},gain,{rng.uniform(-5, 5):.4f}\n" for d in range(3) for f in range(1, 6) for k in range(3)
        )
    )

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        from tui.views.folds.panel import FoldsPanel

        await press(pilot, "6")
        assert app.analysis.folds.rope == 0.0 and "O types one" in app.analysis.folds.notes[0]
        assert "the scale of gain is unknown" in app.query_one(FoldsPanel).plain
        await press(pilot, "o")
        assert app.selection.rope is None  # nothing to cycle to: no change, a notice
        assert "unknown" in _messages(app)[-1] and "O types a rope" in _messages(app)[-1]
        await _type_rope(pilot, "2")
        assert app.selection.rope == 2.0 and app.analysis.folds.rope == 2.0
        await press(pilot, "o")
        assert app.selection.rope == 0.0
        await press(pilot, "o")
        assert app.selection.rope == 2.0

    await drive(scenario, size=LARGE, app=make_app([str(path)]))


def test_the_cycle_is_the_units_multiples_and_keeps_the_rope_in_use() -> None:
    from tui.app._selection_actions import next_rope, plain_number, rope_cycle

    assert rope_cycle(0.01) == (0.0, 0.005, 0.01, 0.02, 0.05)  # today's cycle, on [0, 1]
    assert rope_cycle(1.0) == (0.0, 0.5, 1.0, 2.0, 5.0)  # per cent
    assert rope_cycle(None) == (0.0,)  # unknown scale
    assert rope_cycle(1.0, 3.0, None, 1.0) == (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)
    assert rope_cycle(None, -0.0) == (0.0,)
    assert next_rope(1.0, 3.0) == 5.0 and next_rope(1.0, 5.0, 3.0) == 0.0 and next_rope(1.0, 2.0, 3.0) == 3.0
    assert next_rope(0.01, 0.05) == 0.0 and next_rope(None, 0.0) == 0.0 and next_rope(None, 0.0, 2.5) == 2.5
    assert [plain_number(x) for x in (1.0, 0.005, 0.75, 0.0123456789, 0.1 + 0.2)] == [
        "1",
        "0.005",
        "0.75",
        "0.0123456789",
        "0.30000000000000004",
    ]
