"""Scott-Knott ranks beside the quartile charts (issue 16): the view model ranks the very values each
chart summarises, the app shows them in an "SK" column at 80x24 and ``g`` switches the variant,
the spec and ``rankboard report --scott-knott`` carry it, the charts of deltas have none."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats
from tests.test_app import SMALL, drive, press, screen_lines
from tui.cli import main
from tui.model import Model, default_selection
from tui.model._spec import selection_from_spec, spec_text
from tui.views.quartiles.panel import QuartilesPanel


def _log() -> pd.DataFrame:
    """Three learners on two data sets, 10 folds each, groups forced by the values: on d1 ``top``
    (about 0.9) and ``mid`` (about 0.9, shifted by 0.001) cannot be told apart and ``low`` (about
    0.1) is far below; on d2 all three are far apart (0.9, 0.5, 0.1)."""
    rng = np.random.default_rng(3)
    noise = rng.uniform(-0.01, 0.01, size=10)
    centres = {"d1": {"top": 0.9, "mid": 0.899, "low": 0.1}, "d2": {"top": 0.9, "mid": 0.5, "low": 0.1}}
    rows = [
        (ds, 1, fold + 1, learner, "acc", centre + noise[fold])
        for ds, by in centres.items()
        for learner, centre in by.items()
        for fold in range(10)
    ]
    return pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])


def test_ranks_group_the_charted_values() -> None:
    log = _log()
    view = Model(log).analyze(default_selection(log)).quartiles
    assert view.grouping == "esd" and view.groups is not None
    assert dict(view.groups["d1"]) == {"top": 1, "mid": 1, "low": 2}
    assert dict(view.groups["d2"]) == {"top": 1, "mid": 2, "low": 3}
    # overall: every fold of both data sets pooled per learner, the values the overall chart shows
    pooled = {n: g["value"].to_numpy() for n, g in log.groupby("learner")}
    assert dict(view.groups["overall"]) == stats.scott_knott(pooled).ranks
    # lower is better: the same groups, the ranks reversed
    low = Model(log).analyze(dataclasses.replace(default_selection(log), higher_is_better=False)).quartiles
    assert dict(low.groups["d2"]) == {"top": 3, "mid": 2, "low": 1}


def test_a12_variant_and_deltas() -> None:
    log = _log()
    model = Model(log)
    sel = dataclasses.replace(default_selection(log), scott_knott="a12")
    view = model.analyze(sel).quartiles
    assert view.grouping == "a12"
    assert dict(view.groups["d2"]) == {"top": 1, "mid": 2, "low": 3}
    samples = {n: g["value"].to_numpy() for n, g in log[log["dataset"] == "d1"].groupby("learner")}
    assert dict(view.groups["d1"]) == stats.scott_knott(samples, method="a12").ranks
    # charts of deltas rank nothing: the control has no row there
    deltas = model.analyze(dataclasses.replace(sel, deltas=True)).quartiles
    assert deltas.deltas is not None and deltas.groups is None and deltas.grouping is None
    with pytest.raises(ValueError, match="scott_knott"):
        dataclasses.replace(sel, scott_knott="sk")


def test_spec_carries_the_variant() -> None:
    log = _log()
    model = Model(log)
    sel = dataclasses.replace(default_selection(log), scott_knott="a12")
    assert 'scott_knott = "a12"' in spec_text(sel)
    # the default is written too (issue 28 item 5): a spec shows the same if the default changes
    assert 'scott_knott = "esd"' in spec_text(default_selection(log))
    assert selection_from_spec(model, {"criterion": "acc", "scott_knott": "a12"}).scott_knott == "a12"
    with pytest.raises(ValueError, match="scott_knott = 'x' is not valid; valid values are: esd, esd-v1, np, a12"):
        selection_from_spec(model, {"criterion": "acc", "scott_knott": "x"})


def test_report_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.dat"
    _log().to_csv(path, header=False, index=False)
    assert main(["report", str(path), "--view", "quartiles", "--format", "json", "--scott-knott", "a12"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scott_knott"] == "a12"
    assert {(r["scope"], r["learner"]): r["rank"] for r in doc["quartiles"] if r["scope"] == "d2"} == {
        ("d2", "top"): 1,
        ("d2", "mid"): 2,
        ("d2", "low"): 3,
    }
    assert main(["report", str(path), "--view", "quartiles"]) == 0
    text = capsys.readouterr().out
    assert "rank: Scott-Knott ESD 2.x group of the charted values (1 = best), under each chart" in text
    d1 = text[text.index("----| d1 |") :]
    assert re.search(r"^rank 1: top, mid\nrank 2: low$", d1, re.M)
    assert main(["report", str(path), "--view", "quartiles", "--format", "markdown"]) == 0
    assert "| 3 | low | 10 |" in capsys.readouterr().out
    assert main(["report", str(path), "--view", "quartiles", "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    assert re.search(r"^\\rowcolor\[rgb\]\{0\.8,0\.8,0\.8\}1 & mid, ", latex, re.M)  # d1: mid shares group 1


def test_report_rejects_an_unknown_variant(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["report", "--scott-knott", "nope"])
    assert exc.value.code == 2


async def test_sk_column_at_80x24_and_g_switches_the_variant() -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        panel = app.query_one(QuartilesPanel)
        screen = "\n".join(screen_lines(app))
        assert "SK: Scott-Knott ESD 2.x rank (group), 1 = best  (g: next)" in screen
        assert re.search(r"SK learner +n +min +q1 +median +q3 +max", screen)
        view = app.analysis.quartiles
        overall = [r for r in view.rows if r.scope == "overall"]
        for r in overall:  # every overall row on screen: its rank, the name (cut), the bar closed
            rank = view.groups["overall"][r.learner]
            name = rf"(?:{re.escape(r.learner)}|{re.escape(r.learner[:3])}\S*…\S*{re.escape(r.learner[-3:])})"
            assert re.search(rf"^.*[ ▸] {rank} {name} .*\]", screen, re.M), r.learner
        assert "▸ 1 " in screen  # the best learner is in group 1
        for method, name in [
            ("esd-v1", "Scott-Knott ESD 1.x"),
            ("np", "Scott-Knott ESD np 3.0"),
            ("a12", "Scott-Knott A12"),
        ]:  # g cycles the four variants
            await press(pilot, "g")
            assert app.selection.scott_knott == method
            assert app.analysis.quartiles.grouping == method
            assert f"SK: {name} rank (group), 1 = best  (g: next)" in panel.plain
        await press(pilot, "g")
        assert app.selection.scott_knott == "esd"

    await drive(scenario, size=SMALL)


@pytest.mark.parametrize("method", ["esd", "esd-v1", "np", "a12"])
def test_every_chart_ranked_at_once_as_one_at_a_time(method: str) -> None:
    """``rank_every_chart`` (what a report does: each learner's results gathered once for all data
    sets) gives each chart the ranks it gets when asked for alone."""
    from tui.model import rank_every_chart

    rng = np.random.default_rng(7)
    rows = [
        (f"d{d}", r, f, f"l{j}", "acc", round(float(0.5 + 0.02 * j * (d % 3) + rng.normal(0, 0.05)), 3))
        for d in range(12)
        for j in range(5)
        for r in (1, 2)
        for f in range(1, 6)
        if not (d == 3 and j == 4)  # a learner missing from one data set
    ]
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    sel = dataclasses.replace(default_selection(log), scott_knott=method)
    one = Model(log).analyze(sel).quartiles
    alone = {scope: dict(one.groups[scope]) for scope in one.groups}
    every = Model(log).analyze(sel).quartiles
    rank_every_chart(every)
    assert set(every.groups._done) == set(alone)  # every chart computed, before any is read
    assert {scope: dict(every.groups[scope]) for scope in every.groups} == alone
    assert len({tuple(sorted(r.items())) for r in alone.values()}) > 1  # the charts differ
