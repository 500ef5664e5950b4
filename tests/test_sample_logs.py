"""The bundled logs are what sample_logs/regenerate.py writes, and the loader reads them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest

from stats import read_logs
from tests.conftest import SAMPLES

CV = SAMPLES / "cv"


@pytest.fixture(scope="module")
def regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regenerate", SAMPLES / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_c45_example_is_rewritten_identically_from_menzies_notes(regenerate: ModuleType) -> None:
    assert regenerate.c45_text().encode() == (SAMPLES / "c45_demsar.dat").read_bytes()


def test_wide_sonar_is_menzies_printed_lines(regenerate: ModuleType) -> None:
    text = (SAMPLES / "wide_sonar.dat").read_text()
    assert regenerate.wide_text() == text
    header, *rows = text.splitlines()
    assert header == "#data, learner, goal, train, test, repeats, bin, accuracy, pd, pf, precision"
    assert len(rows) == 6 and all(len(r.split(",")) == 11 for r in rows)


def test_cv_logs_are_complete_5x5_runs(regenerate: ModuleType) -> None:
    assert sorted(p.stem for p in CV.glob("*.dat")) == sorted(regenerate.DATASETS)
    assert len(regenerate.DATASETS) >= 10
    for path in sorted(CV.glob("*.dat")):
        log = read_logs(path)
        assert set(log["dataset"]) == {path.stem}
        assert list(log["learner"].unique()) == list(regenerate.learners())
        assert sorted(log["repeat"].unique()) == [1, 2, 3, 4, 5] and sorted(log["fold"].unique()) == [1, 2, 3, 4, 5]
        assert list(log["criterion"].unique()) == ["pd", "pf", "precision", "accuracy", "runtime"]
        assert not log.duplicated(["repeat", "fold", "learner", "criterion"]).any()
        assert len(log) == 5 * 5 * 5 * 5
        scores = log[log["criterion"] != "runtime"]["value"]
        assert scores.between(0, 1).all() and (log[log["criterion"] == "runtime"]["value"] >= 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["iris", "modechoice"])
def test_cv_logs_are_reproducible(regenerate: ModuleType, tmp_path: Path, name: str) -> None:
    pytest.importorskip("sklearn")
    pytest.importorskip("statsmodels")
    from stats.runner._cv import run_cv

    data = {name: regenerate.DATASETS[name]()}
    run_cv(
        data, regenerate.learners(), tmp_path, repeats=regenerate.REPEATS, folds=regenerate.FOLDS, seed=regenerate.SEED
    )

    def scores(path: Path) -> pd.Series:
        log = read_logs(path)
        return log[log["criterion"] != "runtime"].set_index(["repeat", "fold", "learner", "criterion"])["value"]

    bundled, fresh = scores(CV / f"{name}.dat"), scores(tmp_path / f"{name}.dat")
    # The bundled logs predate the runner's ``balance`` line (issue 15) and are not regenerated here:
    # a fresh run has every bundled line, the same values, and balance = balance(pd, pf) besides.
    criterion = fresh.index.get_level_values("criterion")
    assert set(criterion) == set(bundled.index.get_level_values("criterion")) | {"balance"}
    old = fresh[criterion != "balance"]
    assert old.index.tolist() == bundled.index.tolist()  # (a categorical level's categories differ)
    np.testing.assert_allclose(old.to_numpy(), bundled.to_numpy(), rtol=1e-9, atol=1e-12)
    from stats import balance

    by = fresh.unstack("criterion")
    want = [balance(p, f) for p, f in zip(by["pd"], by["pf"])]
    np.testing.assert_allclose(by["balance"].to_numpy(), want, rtol=0, atol=1e-15)
