"""stats.Aggregator.snapshot(): the raw results of cells, last wins, frozen at the moment taken."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats import Aggregator


def random_log(rng: np.random.Generator, n: int, datasets: int = 6) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "dataset": pd.Categorical(rng.choice([f"d{i}" for i in range(datasets)], n)),
            "repeat": rng.integers(1, 4, n),
            "fold": rng.integers(1, 6, n),
            "learner": pd.Categorical(rng.choice(["a", "b", "c"], n)),
            "criterion": pd.Categorical(rng.choice(["pd", "pf"], n)),
            "value": rng.random(n).round(3),
        }
    )


def last_wins(log: pd.DataFrame) -> pd.DataFrame:
    return log.drop_duplicates(["dataset", "repeat", "fold", "learner", "criterion"], keep="last")


def expected(log: pd.DataFrame, criterion: str, learner: str, datasets: list[str]) -> list[float]:
    rows = log[(log["criterion"] == criterion) & (log["learner"] == learner) & log["dataset"].isin(datasets)]
    return sorted(rows["value"].tolist())


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_gather_equals_the_log_after_appends_that_replace_results(
    seed: int, compact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if compact:  # merge the appended rows into the store often (the arrays are replaced)
        monkeypatch.setattr(Aggregator, "_COMPACT_MIN", 16)
    rng = np.random.default_rng(seed)
    first = last_wins(random_log(rng, 200))
    agg = Aggregator(first)
    whole = first
    snapshots = [(agg.snapshot(), whole)]
    for step in range(8):  # appends: new results, results of new data sets, rewritten results
        more = last_wins(random_log(rng, 40, datasets=6 + step))
        agg.add(more)
        whole = last_wins(pd.concat([whole, more], ignore_index=True))
        snapshots.append((agg.snapshot(), whole))
    for snap, log in snapshots:  # every snapshot still answers for its own moment
        for criterion in ("pd", "pf"):
            for learner in ("a", "b", "c"):
                datasets = sorted(set(log["dataset"].astype(str)))[::2]
                got = sorted(snap.gather(criterion, learner, datasets).tolist())
                assert got == expected(log, criterion, learner, datasets)


def test_unknown_names_give_nothing() -> None:
    log = last_wins(random_log(np.random.default_rng(1), 50))
    snap = Aggregator(log).snapshot()
    assert snap.gather("nope", "a", ["d0"]).size == 0
    assert snap.gather("pd", "zz", ["d0"]).size == 0
    assert snap.gather("pd", "a", ["mars"]).size == 0
    assert snap.gather("pd", "a", []).size == 0


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_gather_each_is_gather_of_each_data_set(seed: int, compact: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same arrays, values in the same order, as one gather per data set (after appends that
    replace results, so that stored, appended and removed rows all occur)."""
    if compact:
        monkeypatch.setattr(Aggregator, "_COMPACT_MIN", 16)
    rng = np.random.default_rng(100 + seed)
    agg = Aggregator(last_wins(random_log(rng, 300)))
    for step in range(6):
        agg.add(last_wins(random_log(rng, 50, datasets=6 + step)))
    snap = agg.snapshot()
    names = [str(d) for d in snap.levels[1]] + ["mars"]
    for criterion in ("pd", "pf", "nope"):
        for learner in ("a", "b", "c", "zz"):
            each = snap.gather_each(criterion, learner, names[::-1])
            assert list(each) == names[::-1]
            for d in names:
                one = snap.gather(criterion, learner, [d])
                assert each[d].dtype == one.dtype and each[d].tolist() == one.tolist()
    assert snap.gather_each("pd", "a", []) == {}
