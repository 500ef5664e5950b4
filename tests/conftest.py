"""Shared fixtures: published data read from ../shared/reference (never copied here)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def _shared() -> Path:
    """The project's shared/ folder: $RANKBOARD_SHARED, or shared/ beside the checkout (as in CI)."""
    where = Path(os.environ.get("RANKBOARD_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    if not (where / "reference").is_dir():
        raise RuntimeError(
            f"published reference data not found at {where}/reference: the tests need shared/ beside "
            "the checkout (as CI has it) or RANKBOARD_SHARED pointing at it"
        )
    return where


SHARED = _shared()
REFERENCE = SHARED / "reference"


def _csv(name: str) -> pd.DataFrame:
    return pd.read_csv(REFERENCE / name, index_col=0)


@pytest.fixture(scope="session")
def gh2010() -> pd.DataFrame:
    """PDFC, NNEP, IS-CHC+1NN, FH-GBML on 24 data sets (Garcia et al. 2010; seed 002)."""
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
    """Seed 000's four C4.5 variants on 14 data sets, as printed (three decimals)."""
    from stats import read_logs, scores_table

    return scores_table(read_logs(SAMPLES / "c45_demsar.dat"), "accuracy")
