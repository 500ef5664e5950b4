"""``rankboard report --view curves``: the learning curves of a sequence study (Menzies' lecture notes).

Menzies' lecture notes ("Incremental M*N-way"): "report 'plateau' (where
learning improvement stops)". The view pairs each result with its unit's ``train`` line
(:func:`stats.run_sequence`'s encoding), gives the quartiles per training size and marks the
plateau of :func:`stats.plateau`; a log without a sequence study gets one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import stats
from tests.conftest import SAMPLES
from tui.cli import main
from tui.model import Model, default_selection
from tui.render import render_report

SIZES = (10, 20, 30, 40, 50)


def _synthetic(path: Path, criterion: str = "accuracy", higher: bool = True) -> Path:
    """A sequence log with a known knee: ``knee`` improves up to 30 then is flat, ``climber`` never stops."""
    rng = np.random.default_rng(7)
    lines = []
    for repeat in range(1, 11):
        for fold, size in enumerate(SIZES, start=2):
            for learner, value in (("knee", min(size, 30) / 40), ("climber", size / 60)):
                v = value + rng.normal(0, 0.005)
                v = v if higher else 1 - v
                lines.append(f"toy,{repeat},{fold},{learner},{criterion},{v!r}")
                lines.append(f"toy,{repeat},{fold},{learner},train,{float(size)!r}")
    path.write_text("\n".join(lines) + "\n")
    return path


def _report(path: Path, criterion: str, fmt: str, view: str = "curves") -> str:
    log = stats.read_logs(path)
    return render_report(Model(log), default_selection(log, criterion), view=view, fmt=fmt)


@pytest.mark.parametrize(("criterion", "higher"), [("accuracy", True), ("mmre", False)])
def test_knee_is_the_plateau_and_a_climber_has_none(tmp_path: Path, criterion: str, higher: bool) -> None:
    path = _synthetic(tmp_path / "seq.dat", criterion, higher)
    text = _report(path, criterion, "text")
    assert "----| toy / knee |----- plateau at 30 (of 5 training sizes)" in text
    assert "----| toy / climber |----- plateau not reached: still improving at 50 (of 5 training sizes)" in text
    assert [line.split(",")[0].strip() for line in text.splitlines() if "plateau," in line] == ["30 plateau"]
    doc = json.loads(_report(path, criterion, "json"))["curves"]
    assert [(p["learner"], p["size"], p["reached"]) for p in doc["plateaus"]] == [
        ("knee", 30, True),
        ("climber", 50, False),
    ]
    assert [r["train"] for r in doc["rows"] if r["plateau"]] == [30]
    assert "Mann-Whitney" in doc["definition"] and "A12" in doc["definition"]


def test_curves_equal_the_stats_api() -> None:
    log = stats.read_logs(SAMPLES / "sequence")
    doc = json.loads(_report(SAMPLES / "sequence", "balance", "json"))["curves"]
    assert doc["message"] is None and len(doc["plateaus"]) == log["learner"].nunique()
    for p in doc["plateaus"]:
        sizes, values = stats.learning_curve(log, dataset=p["dataset"], learner=p["learner"], criterion="balance")
        want = stats.plateau(sizes, values, higher_is_better=True)
        assert (p["size"], p["reached"], p["sizes"]) == (want.size, want.reached, len(want.sizes))
        rows = [r for r in doc["rows"] if (r["dataset"], r["learner"]) == (p["dataset"], p["learner"])]
        assert [r["train"] for r in rows] == list(want.sizes)
        for r in rows:
            q = stats.quartiles(values[sizes == r["train"]])
            assert (r["n"], r["min"], r["q1"], r["median"], r["q3"], r["max"]) == (
                q.n, q.min, q.q1, q.median, q.q3, q.max,
            )  # fmt: skip


def test_csv_has_a_row_per_size_and_the_plateau(tmp_path: Path) -> None:
    text = _report(_synthetic(tmp_path / "seq.dat"), "accuracy", "csv")
    header, *rows = text.splitlines()
    assert header == "criterion,dataset,learner,train,n,mean,sd,min,q1,median,q3,max,plateau,plateau_size,reached"
    assert len(rows) == 2 * len(SIZES)
    assert [r.split(",")[3] for r in rows if r.split(",")[12] == "True"] == ["30.0"]


def test_a_log_without_a_sequence_study_says_so_in_one_line() -> None:
    text = _report(SAMPLES / "c45_demsar.dat", "accuracy", "text")
    body = text.split("\n\n", 1)[1].strip().splitlines()
    assert body == [
        "learning curves: this log holds no sequence study (no 'train' lines, which stats.run_sequence writes)"
    ]
    assert json.loads(_report(SAMPLES / "c45_demsar.dat", "accuracy", "json"))["curves"]["rows"] == []
    with pytest.raises(ValueError, match="nothing to export in the curves view: this log holds no sequence study"):
        _report(SAMPLES / "c45_demsar.dat", "accuracy", "csv")


def test_cli_prints_the_curves_of_the_bundled_sequence_study(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(SAMPLES / "sequence"), "--criterion", "accuracy", "--view", "curves"]) == 0
    out = capsys.readouterr().out
    for learner in ("GaussianNB", "DecisionTree", "KNN", "LogisticRegression"):
        assert f"----| breast_cancer / {learner} |----- plateau" in out
    assert "#rx," in out  # the chart header of Menzies' lecture notes


def test_names_from_the_log_are_shown_safely(tmp_path: Path) -> None:
    path = _synthetic(tmp_path / "seq.dat")
    path.write_text(path.read_text().replace(",knee,", ",=evil\\x1b[31m,").replace("\\x1b", "\x1b"))
    for fmt in ("text", "markdown", "latex"):
        assert "\x1b" not in _report(path, "accuracy", fmt)
    assert "\\x1b[31m" in _report(path, "accuracy", "text")
    rows = _report(path, "accuracy", "csv").splitlines()[1:]
    assert any(",'=evil" in r for r in rows) and not any(",=evil" in r for r in rows)
