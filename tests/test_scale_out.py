"""README's "Logs bigger than one machine": the DuckDB query printed there, run on the bundled
sample logs, writes a Parquet file of medians from which `rankboard report` prints the same
statistics as from the whole logs (issue 17, "Scale past one machine").

The query is read from README.md itself, so the documented text is what is tested.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tui.cli import main

duckdb = pytest.importorskip("duckdb", reason="duckdb is a test dependency (pip install -e '.[test]')")

README = Path(__file__).resolve().parent.parent / "README.md"
# What needs every fold value and so cannot come from one median per cell (README says so).
FROM_THE_FOLDS = {"source", "quartiles", "folds"}


def readme_query() -> str:
    section = README.read_text(encoding="utf-8").split("## Logs bigger than one machine", 1)[1]
    (query,) = re.findall(r"```sql\n(.*?)```", section.split("\n## ", 1)[0], flags=re.S)
    return query


def report_json(capsys: pytest.CaptureFixture[str], logs: Path, criterion: str) -> dict:
    assert main(["report", str(logs), "--format", "json", "--criterion", criterion]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_readme_query_is_the_one_run_here() -> None:
    query = readme_query()
    assert "median(value)" in query and "GROUP BY criterion, dataset, learner" in query
    assert "'logs/*.dat'" in query and "'medians.parquet'" in query


@pytest.mark.parametrize("criterion", ["pd", "pf", "runtime"])  # higher, lower, tiny values
def test_medians_from_duckdb_give_the_same_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], criterion: str
) -> None:
    logs = SAMPLES / "cv"
    target = tmp_path / "medians.parquet"
    query = readme_query().replace("'logs/*.dat'", f"'{logs.as_posix()}/*.dat'")
    duckdb.sql(query.replace("'medians.parquet'", f"'{target.as_posix()}'"))

    whole = report_json(capsys, logs, criterion)
    medians = report_json(capsys, target, criterion)

    # One row per cell: 10 data sets x 5 learners x 5 criteria in the file, a 1 x 1 design.
    assert duckdb.sql(f"SELECT count(*) FROM '{target.as_posix()}'").fetchall() == [(250,)]
    assert set(whole) == set(medians)
    differ = {key for key in whole if whole[key] != medians[key]}
    assert differ == FROM_THE_FOLDS
    assert medians["rank_table"] == whole["rank_table"]  # the medians, to the last bit
    assert medians["friedman"] == whole["friedman"] and medians["pairs"] == whole["pairs"]
    assert medians["folds"]["rows"] == [] and whole["folds"]["rows"]  # nothing to compare, said
