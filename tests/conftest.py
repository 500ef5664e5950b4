"""Shared fixtures: published data copied into tests/data (sources in tests/data/README.md)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
DATA = Path(__file__).resolve().parent / "data"
#: published reference tables and the real baycomp log
REFERENCE = DATA / "reference"
#: the texts the tests quote from: Garcia & Herrera's tutorial slides (2008, 2010; 002_*.txt) and
#: Menzies' lecture notes (004_*.txt)
SEEDS = DATA / "seeds"


def _csv(name: str) -> pd.DataFrame:
    return pd.read_csv(REFERENCE / name, index_col=0)


@pytest.fixture(scope="session")
def gh2010() -> pd.DataFrame:
    """PDFC, NNEP, IS-CHC+1NN, FH-GBML on 24 data sets (Garcia et al. 2010)."""
    return _csv("garcia_2010_accuracy.csv")


@pytest.fixture(scope="session")
def gh2008() -> pd.DataFrame:
    """C4.5, k-NN(k=1), NaiveBayes, Kernel, CN2 on 30 data sets (Garcia & Herrera 2008)."""
    return _csv("garcia_herrera_2008_accuracy.csv")


@pytest.fixture(scope="session")
def stac() -> pd.DataFrame:
    """STAC's unit-test table: 3 algorithms, 6 problems, lower is better."""
    return _csv("stac_unit_test_data.csv")


@pytest.fixture(scope="session")
def scmamp() -> pd.DataFrame:
    """Figures printed by scmamp's vignette for the 2008 data."""
    return pd.read_csv(REFERENCE / "scmamp_vignette_outputs_gh2008.csv", keep_default_na=False)


def scmamp_pairs(frame: pd.DataFrame, obj: str) -> dict[tuple[str, str], float]:
    part = frame[frame["object"] == obj]
    return {(r.row, r.column): float(r.value) for r in part.itertuples()}


@pytest.fixture(scope="session")
def c45() -> pd.DataFrame:
    """The four C4.5 variants on 14 data sets of Menzies' notes (after Demsar 2006), as printed (three decimals)."""
    from stats import read_logs, scores_table

    return scores_table(read_logs(SAMPLES / "c45_demsar.dat"), "accuracy")
