"""The sample logs of Menzies' lecture notes' studies (issue 15): a regression cross-validation and a
sequence study.

Menzies' lecture notes: continuous classes scored by MMRE, PRED(N) and
correlation; "Incremental M*N-way (a.k.a. sequence studies)". The bundled logs are what
``sample_logs/regenerate.py`` writes (runtime aside), ``rankboard check`` and ``rankboard
report`` read them, the default directions are the notes', and the package ships them.
"""

from __future__ import annotations

import fnmatch
import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest
import tomllib

from stats import read_logs
from tests.conftest import SAMPLES
from tui.cli import main
from tui.model import default_higher_is_better

REGRESSION, SEQUENCE = SAMPLES / "regression", SAMPLES / "sequence"
REGRESSION_CRITERIA = ["mmre", "pred25", "pred30", "correlation", "runtime"]
SEQUENCE_CRITERIA = ["pd", "pf", "precision", "accuracy", "balance", "train", "runtime"]


@pytest.fixture(scope="module")
def regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regenerate", SAMPLES / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_regression_log_is_a_complete_5x5_run(regenerate: ModuleType) -> None:
    assert sorted(p.stem for p in REGRESSION.glob("*.dat")) == ["diabetes"] == list(regenerate.REGRESSION_DATASETS)
    log = read_logs(REGRESSION / "diabetes.dat")
    assert list(log["learner"].unique()) == list(regenerate.regressors())
    assert 3 <= log["learner"].nunique() <= 5
    assert list(log["criterion"].unique()) == REGRESSION_CRITERIA
    assert sorted(log["repeat"].unique()) == [1, 2, 3, 4, 5] and sorted(log["fold"].unique()) == [1, 2, 3, 4, 5]
    assert len(log) == 4 * 5 * 5 * len(REGRESSION_CRITERIA)
    assert not log.duplicated(["repeat", "fold", "learner", "criterion"]).any()
    by = {c: log[log["criterion"] == c]["value"] for c in REGRESSION_CRITERIA}
    assert (by["mmre"] >= 0).all() and by["pred25"].between(0, 1).all() and by["correlation"].between(-1, 1).all()
    assert (by["pred25"].to_numpy() <= by["pred30"].to_numpy()).all()  # PRED(25) counts a subset of PRED(30)'s cases


def test_sequence_log_follows_menzies_loop(regenerate: ModuleType) -> None:
    assert sorted(p.stem for p in SEQUENCE.glob("*.dat")) == ["breast_cancer"] == list(regenerate.SEQUENCE_DATASETS)
    log = read_logs(SEQUENCE / "breast_cancer.dat")
    m, n = regenerate.SEQUENCE_REPEATS, regenerate.SEQUENCE_BUCKETS
    assert list(log["learner"].unique()) == list(regenerate.sequence_learners())
    assert 3 <= log["learner"].nunique() <= 4
    assert list(log["criterion"].unique()) == SEQUENCE_CRITERIA
    assert sorted(log["repeat"].unique()) == list(range(1, m + 1))
    assert sorted(log["fold"].unique()) == list(range(2, n + 1))  # "for I = 2 to N": bucket 1 is never tested
    assert len(log) == 4 * m * (n - 1) * len(SEQUENCE_CRITERIA)
    train = log[log["criterion"] == "train"]
    sizes = train.groupby("fold", observed=True)["value"].agg(["min", "max"])
    assert (sizes["min"] == sizes["max"]).all()  # one training size per bucket I, whatever the repeat
    assert sizes["min"].is_monotonic_increasing
    assert abs(sizes["min"].iloc[-1] - 569 * (n - 1) / n) <= n  # buckets 1..N-1 of the 569 tumours


def test_default_directions_are_menzies() -> None:
    criteria = set(read_logs(REGRESSION)["criterion"].unique()) | set(read_logs(SEQUENCE)["criterion"].unique())
    lower = {c for c in criteria if not default_higher_is_better(c)}
    assert lower == {"mmre", "pf", "runtime"}
    assert {"pred25", "pred30", "correlation", "balance", "pd", "precision", "accuracy"} <= criteria - lower


@pytest.mark.parametrize(
    ("path", "criterion", "direction"),
    [
        (REGRESSION, "mmre", "lower"),
        (REGRESSION, "pred30", "higher"),
        (REGRESSION, "correlation", "higher"),
        (SEQUENCE, "balance", "higher"),
        (SEQUENCE, "pf", "lower"),
    ],
)
def test_check_and_report_read_them(
    path: Path, criterion: str, direction: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "0 error(s), 0 warning(s)" in out and "complete: no missing or incomplete cells" in out
    for fmt in ("text", "markdown", "json", "latex"):
        assert main(["report", str(path), "--criterion", criterion, "--format", fmt]) == 0
    assert f"criterion {criterion} ({direction} is better)" in capsys.readouterr().out


def test_package_data_ships_every_sample_log() -> None:
    pyproject = tomllib.loads((SAMPLES.parent / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["rankboard_sample_logs"]
    logs = [p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*.dat")]
    assert {"regression/diabetes.dat", "sequence/breast_cancer.dat"} <= set(logs)
    unshipped = [
        p for p in logs if not any(fnmatch.fnmatchcase(p, pat) and p.count("/") == pat.count("/") for pat in patterns)
    ]
    assert unshipped == []


def _scores(path: Path) -> pd.Series:
    log = read_logs(path)
    return log[log["criterion"] != "runtime"].set_index(["repeat", "fold", "learner", "criterion"])["value"]


def _same(bundled: Path, fresh: Path) -> None:
    old, new = _scores(bundled), _scores(fresh)
    assert new.index.tolist() == old.index.tolist()
    np.testing.assert_allclose(new.to_numpy(), old.to_numpy(), rtol=1e-9, atol=1e-12)


def test_regression_log_is_reproducible(regenerate: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from stats.runner import run_cv

    data = {name: load() for name, load in regenerate.REGRESSION_DATASETS.items()}
    run_cv(
        data,
        regenerate.regressors(),
        tmp_path,
        repeats=regenerate.REPEATS,
        folds=regenerate.FOLDS,
        seed=regenerate.SEED,
        task="regression",
    )
    _same(REGRESSION / "diabetes.dat", tmp_path / "diabetes.dat")


@pytest.mark.slow
def test_sequence_log_is_reproducible(regenerate: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from stats.runner import run_sequence

    data = {name: load() for name, load in regenerate.SEQUENCE_DATASETS.items()}
    run_sequence(
        data,
        regenerate.sequence_learners(),
        tmp_path,
        repeats=regenerate.SEQUENCE_REPEATS,
        buckets=regenerate.SEQUENCE_BUCKETS,
        seed=regenerate.SEED,
        task="classification",
    )
    _same(SEQUENCE / "breast_cancer.dat", tmp_path / "breast_cancer.dat")
