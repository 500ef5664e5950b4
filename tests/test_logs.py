"""The strict long-format reader behind `rankboard report`."""

from __future__ import annotations

from pathlib import Path

import pytest

import stats


def test_reads_spaces_bom_crlf_and_quoted_commas(tmp_path: Path) -> None:
    f = tmp_path / "d.dat"
    f.write_bytes('\ufeffiris, 1, 2, "nb, gaussian", pd, 0.5\r\niris,1,2,tree,pd,0.7\r\n'.encode())
    log = stats.read_long_log(f)
    assert log["learner"].tolist() == ["nb, gaussian", "tree"]
    assert log["value"].tolist() == [0.5, 0.7]
    assert log["repeat"].tolist() == [1, 1] and log["fold"].tolist() == [2, 2]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a,1,1,x,pd\n", "1: expected 6 fields, found 5"),
        ("a,1,1,x,pd,0.1\na,1,one,x,pd,0.2\n", "2: repeat and fold must be integers"),
        ("a,1,1,x,pd,nan\n", "1: value 'nan' is not finite"),
        ("a,1,1,x,pd,0.1\na,1,1,y,pd,\n", "2: value '' is not a number"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path: Path, text: str, reason: str) -> None:
    f = tmp_path / "d.dat"
    f.write_text(text)
    with pytest.raises(ValueError, match=f"^{f}:{reason}"):
        stats.read_long_log(f)


def test_empty_file(tmp_path: Path) -> None:
    f = tmp_path / "e.dat"
    f.write_text("\n")
    with pytest.raises(ValueError, match="no results"):
        stats.read_long_log(f)


def test_scores_table_is_the_median_and_reports_missing_cells(tmp_path: Path) -> None:
    f = tmp_path / "d.dat"
    f.write_text("a,1,1,x,pd,0.1\na,1,2,x,pd,0.3\na,2,1,x,pd,0.9\na,1,1,y,pd,0.5\nb,1,1,x,pd,0.2\n")
    log = stats.read_long_log(f)
    with pytest.raises(ValueError, match="1 data set x learner cell\\(s\\) have no 'pd' result: b/y"):
        stats.scores_table(log, "pd")
    f.write_text(f.read_text() + "b,1,1,y,pd,0.4\n")
    table = stats.scores_table(stats.read_long_log(f), "pd")
    assert table.loc["a", "x"] == pytest.approx(0.3)
