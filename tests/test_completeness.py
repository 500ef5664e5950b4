"""Missing and incomplete cells, the check summary, and the scores table of complete data sets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.cells import completeness, scores_table
from stats.cells._aggregate import aggregate
from stats.cells._incremental import Aggregator
from tests.conftest import REFERENCE, SAMPLES

FIELDS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]


def cell_rows(dataset: str, learner: str, criterion: str, n: int, repeats: int = 2) -> list[tuple]:
    """``n`` results of one cell, repeat-major over ``repeats`` x 2 folds; value = 0.1 * (index + 1)."""
    return [(dataset, i // 2 % repeats + 1, i % 2 + 1, learner, criterion, 0.1 * (i + 1)) for i in range(n)]


def as_log(rows: list[tuple]) -> pd.DataFrame:
    log = pd.DataFrame(rows, columns=FIELDS)
    for k in ("dataset", "learner", "criterion"):
        log[k] = pd.Categorical(log[k], categories=pd.unique(log[k]))
    return log


@pytest.fixture
def log() -> pd.DataFrame:
    """pd: iris complete; wine lacks knn; zoo's svm has 2 of 4; cars has acc results only."""
    rows = []
    for d in ("iris", "wine", "zoo", "cars"):
        for lrn in ("nb", "knn", "svm"):
            rows += cell_rows(d, lrn, "acc", 4)
            if d == "cars" or (d, lrn) == ("wine", "knn"):
                continue
            rows += cell_rows(d, lrn, "pd", 2 if (d, lrn) == ("zoo", "svm") else 4)
    return as_log(rows)


def test_scores_table_keeps_complete_rows_and_says_why(log: pd.DataFrame) -> None:
    table = scores_table(log, "pd")
    assert table.index.tolist() == ["iris", "zoo"] and table.columns.tolist() == ["nb", "knn", "svm"]
    assert table.excluded == {"wine": "no pd result for learner knn", "cars": "no pd results"}
    assert table.incomplete == {"zoo": "learner svm has 2 of 4 results"}
    assert table.loc["iris", "nb"] == pytest.approx(0.25)  # median of 0.1, 0.2, 0.3, 0.4
    assert table.loc["zoo", "svm"] == pytest.approx(0.15)  # the median of what exists
    assert table.index.name == "dataset" and table.columns.name is None


def test_incomplete_cells_can_exclude(log: pd.DataFrame) -> None:
    table = scores_table(log, "pd", incomplete="exclude")
    assert table.index.tolist() == ["iris"]
    assert table.excluded["zoo"] == "learner svm has 2 of 4 results"
    assert table.incomplete == {}


def test_selection_sets_order_and_completeness(log: pd.DataFrame) -> None:
    table = scores_table(log, "pd", datasets=["zoo", "wine", "iris"], learners=["svm", "nb"])
    assert table.index.tolist() == ["zoo", "wine", "iris"]  # wine is complete without knn
    assert table.columns.tolist() == ["svm", "nb"] and table.excluded == {}
    both = scores_table(log, "pd", learners=["knn", "svm"])
    assert both.excluded["wine"] == "no pd result for learner knn"
    missing_two = scores_table(log.drop(log.index[(log["dataset"] == "wine") & (log["learner"] == "svm")]), "pd")
    assert missing_two.excluded["wine"] == "no pd result for learners knn, svm"


def test_other_statistics_and_inputs(log: pd.DataFrame) -> None:
    counts = scores_table(log, "acc", statistic="count")
    assert counts.shape == (4, 3) and (counts == 4).all().all()
    means = scores_table(log, "acc", statistic="mean")
    assert means.loc["cars", "svm"] == pytest.approx(0.25)
    for source in (aggregate(log), Aggregator(log)):
        pd.testing.assert_frame_equal(scores_table(source, "pd").table, scores_table(log, "pd").table)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"criterion": "auc"}, "criterion 'auc' is not in the log; criteria are: acc, pd"),
        ({"datasets": ["mars"]}, "unknown data set\\(s\\) 'mars'; data sets are: iris, wine, zoo, cars"),
        ({"learners": ["rf", "nb"]}, "unknown learner\\(s\\) 'rf' for criterion 'pd'; learners are: nb, knn, svm"),
        ({"statistic": "mode"}, "statistic must be one of 'count', 'min'"),
        ({"incomplete": "drop"}, "incomplete must be one of 'use', 'exclude'; got 'drop'"),
    ],
)
def test_unknown_names_list_the_valid_ones(log: pd.DataFrame, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        scores_table(log, **{"criterion": "pd", **kwargs})


def test_learner_without_results_for_the_criterion_is_unknown_to_it() -> None:
    log = as_log(cell_rows("a", "x", "pd", 2) + cell_rows("a", "y", "acc", 2))
    with pytest.raises(ValueError, match="unknown learner\\(s\\) 'y' for criterion 'pd'; learners are: x"):
        scores_table(log, "pd", learners=["y"])


def test_bad_inputs() -> None:
    with pytest.raises(TypeError, match="expected a log, an aggregate or an Aggregator"):
        scores_table([1, 2], "pd")
    with pytest.raises(ValueError, match="expected a log .* or an aggregate"):
        completeness(pd.DataFrame({"x": [1]}))


def test_completeness_names_missing_and_incomplete_cells(log: pd.DataFrame) -> None:
    found = completeness(log)
    assert not found.complete and found.lines == len(log)
    assert found.cells["reason"].to_dict() == {
        ("pd", "wine", "knn"): "no pd result for learner knn",
        ("pd", "zoo", "svm"): "learner svm has 2 of 4 results",
        ("pd", "cars", "nb"): "no pd result for learner nb",
        ("pd", "cars", "knn"): "no pd result for learner knn",
        ("pd", "cars", "svm"): "no pd result for learner svm",
    }
    assert found.cells["status"].value_counts().to_dict() == {"missing": 4, "incomplete": 1}
    assert found.counts.shape == (2 * 4 * 3, 2)  # every criterion x data set x learner with results
    assert found.counts.loc[("pd", "cars", "nb")].tolist() == [0, 4]  # the criterion's modal count
    assert found.design.loc[("iris", "nb"), "design"] == "2 x 2"
    assert found.criteria.tolist() == ["acc", "pd"] and found.datasets.tolist() == ["iris", "wine", "zoo", "cars"]


def test_summary_text(log: pd.DataFrame) -> None:
    text = completeness(log).summary(max_lines=3)
    assert text.splitlines() == [
        "78 lines: 4 data sets, 3 learners, 2 criteria (acc, pd)",
        "repeats x folds: all 4 data sets x 3 learners: 2 x 2",
        "4 missing and 1 incomplete cells (expected: the modal count over the learners of a data set):",
        "  pd / wine / knn: no pd result for learner knn",
        "  pd / zoo / svm: learner svm has 2 of 4 results",
        "  pd / cars / nb: no pd result for learner nb",
        "  ... and 2 more",
    ]
    assert str(completeness(log)) == completeness(log).summary()


def test_summary_lists_the_odd_designs() -> None:
    rows = cell_rows("a", "x", "acc", 4) + cell_rows("a", "y", "acc", 6, repeats=3) + cell_rows("b", "x", "acc", 4)
    lines = completeness(as_log(rows)).summary().splitlines()
    assert lines[1:4] == [
        "repeats x folds: 2 x 2 for 2 of 4 data set x learner pairs; otherwise:",
        "  a / y: 3 x 2",
        "  b / y: no results",
    ]
    assert lines[4:] == [
        "1 missing and 1 incomplete cells (expected: the modal count over the learners of a data set):",
        "  acc / a / x: learner x has 4 of 6 results",  # a tie of counts: the larger is expected
        "  acc / b / y: no acc result for learner y",
    ]


def test_expected_count_ties_go_to_the_larger() -> None:
    log = as_log(cell_rows("a", "x", "pd", 4) + cell_rows("a", "y", "pd", 2))
    assert completeness(log).cells["reason"].tolist() == ["learner y has 2 of 4 results"]


def test_sources_agree(log: pd.DataFrame) -> None:
    from_log, from_agg = completeness(log), completeness(aggregate(log))
    agg = Aggregator(log.iloc[:50])
    agg.add(log.iloc[50:])
    from_aggregator = completeness(agg)
    assert from_agg.design is None and "repeats x folds: unknown" in from_agg.summary()
    pd.testing.assert_frame_equal(from_agg.cells, from_log.cells)
    pd.testing.assert_frame_equal(from_aggregator.cells, from_log.cells)
    pd.testing.assert_frame_equal(from_aggregator.design, from_log.design)


@pytest.fixture(scope="module")
def baycomp() -> pd.DataFrame:
    return pd.read_csv(REFERENCE / "baycomp_accuracies.dat", header=None, names=FIELDS)


def test_reference_log_is_complete(baycomp: pd.DataFrame) -> None:
    found = completeness(baycomp)
    assert found.complete
    assert found.summary().splitlines() == [
        "27000 lines: 54 data sets, 5 learners, 1 criterion (accuracy)",
        "repeats x folds: all 54 data sets x 5 learners: 10 x 10",
        "complete: no missing or incomplete cells",
    ]
    table = scores_table(baycomp, "accuracy")
    assert table.shape == (54, 5) and table.excluded == {} and table.incomplete == {}
    assert table.columns.tolist() == ["nbc", "aode", "hnb", "j48", "j48gr"]
    want = baycomp.pivot_table(index="dataset", columns="learner", values="value", aggfunc="median", sort=False)
    np.testing.assert_allclose(table.to_numpy(), want.loc[table.index, table.columns].to_numpy(), rtol=1e-12)


def test_reference_log_with_knocked_out_results(baycomp: pd.DataFrame) -> None:
    short = (baycomp["dataset"] == "iris") & (baycomp["learner"] == "j48") & (baycomp["repeat"] > 4)
    gone = (baycomp["dataset"] == "wine") & (baycomp["learner"] == "hnb")
    log = baycomp[~short & ~gone]
    table = scores_table(log, "accuracy")
    assert table.incomplete == {"iris": "learner j48 has 40 of 100 results"}
    assert table.excluded == {"wine": "no accuracy result for learner hnb"}
    assert len(table) == 53
    found = completeness(log)
    assert found.design.loc[("iris", "j48"), "design"] == "4 x 10"
    assert "  wine / hnb: no results" in found.summary().splitlines()


def test_plain_string_labels_keep_first_appearance_order() -> None:
    log = pd.read_csv(SAMPLES / "c45_demsar.dat", header=None, names=FIELDS, skipinitialspace=True)
    ours = scores_table(log, "accuracy")
    old = log.pivot_table(index="dataset", columns="learner", values="value", aggfunc="median", sort=False)
    assert ours.index.tolist() == old.index.tolist() == list(pd.unique(log["dataset"]))
    assert ours.columns.tolist() == old.columns.tolist() == ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    np.testing.assert_allclose(ours.to_numpy(), old.to_numpy(), rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=60))
def test_a_data_set_is_kept_exactly_when_no_selected_cell_is_missing(cells: list[tuple[int, int, int]]) -> None:
    """Random cells (data set, learner, count - 1 ... counts 1 to 5): rows kept = rows with every learner."""
    rows = [r for d, lrn, n in dict.fromkeys(cells) for r in cell_rows(f"d{d}", f"l{lrn}", "pd", n + 1)]
    log = as_log(rows).drop_duplicates(["dataset", "repeat", "fold", "learner", "criterion"])
    table = scores_table(log, "pd")
    have = log.groupby(["dataset", "learner"], observed=True).size().unstack()
    complete = have.notna().all(axis=1)
    assert sorted(table.index) == sorted(complete.index[complete])
    assert sorted(table.excluded) == sorted(complete.index[~complete])
    found = completeness(log)
    flagged = found.cells.reset_index()
    assert set(flagged["dataset"]) >= set(table.incomplete) | set(table.excluded)
