"""``rankboard convert LOGS -o FILE`` (issue 17, item 4): the tidy long table as Parquet or Arrow,
written atomically, refused over an existing file without --force; reading it back gives the
same log, the same aggregate and the same analysis as the text logs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from stats import aggregate, completeness, read_logs
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
CV = ROOT / "sample_logs" / "cv"
LONG = ["dataset", "repeat", "fold", "learner", "criterion", "value"]


def frames_equal(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a[LONG], b[LONG])
    for c in ("dataset", "learner", "criterion"):
        assert list(a[c].cat.categories) == list(b[c].cat.categories)


@pytest.mark.parametrize("name", ["results.parquet", "results.feather"])
def test_convert_then_read_back_gives_the_same_log_aggregate_and_report(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / name
    assert main(["convert", str(CV), "-o", str(out)]) == 0
    assert f"wrote {out}: 6,250 results from 10 file(s)" in capsys.readouterr().err
    # the file is what its suffix says, read by pyarrow itself
    table = pq.read_table(out) if name.endswith("parquet") else feather.read_table(out)
    assert table.column_names == LONG and table.num_rows == 6250
    text, back = read_logs(CV), read_logs(out)
    frames_equal(back.table, text.table)
    assert back.problems == () and back.lines == text.lines
    pd.testing.assert_frame_equal(aggregate(back), aggregate(text))
    assert completeness(back).summary() == completeness(text).summary()
    reports = []
    for source in (CV, out):
        assert main(["report", str(source), "--format", "json", "--criterion", "pd"]) == 0
        report = json.loads(capsys.readouterr().out)
        report.pop("source")
        reports.append(report)
    assert reports[0] == reports[1]


def test_duplicates_are_resolved_before_writing_wide_logs_become_long(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "a.dat"
    log.write_text("iris,1,1,nb,acc,0.5\niris,1,1,tree,acc,0.6\niris,1,1,nb,acc,0.7\n")
    wide = ROOT / "sample_logs" / "wide_sonar.dat"
    out = tmp_path / "r.pq"
    assert main(["convert", str(log), str(wide), "-o", str(out)]) == 0
    back = pq.read_table(out).to_pandas()
    # nb's rerun comes first, where the text first named nb (issue 30, item 11: learners nb, tree)
    assert back.iloc[:2][LONG].astype(object).values.tolist() == [
        ["iris", 1, 1, "nb", "acc", 0.7],
        ["iris", 1, 1, "tree", "acc", 0.6],
    ]
    # the first line of Menzies' lecture notes: q2s/sonar, bayes, ..., 1, 1, accuracy 63.77, pd 61.29, pf 34.21,
    # precision 59.38
    assert back.iloc[2:6][["dataset", "learner", "criterion", "value"]].astype(object).values.tolist() == [
        ["q2s/sonar", "bayes", "accuracy", 63.77],
        ["q2s/sonar", "bayes", "pd", 61.29],
        ["q2s/sonar", "bayes", "pf", 34.21],
        ["q2s/sonar", "bayes", "precision", 59.38],
    ]
    assert "warning" in capsys.readouterr().err  # the duplicate was said


def test_existing_file_is_refused_without_force_and_replaced_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    out.write_bytes(b"keep me")
    os.chmod(out, 0o600)
    assert main(["convert", str(CV), "-o", str(out)]) == 1
    assert "exists; not overwritten (--force replaces it)" in capsys.readouterr().err
    assert out.read_bytes() == b"keep me"
    assert main(["convert", str(CV), "-o", str(out), "--force"]) == 0
    assert pq.read_table(out).num_rows == 6250 and (os.stat(out).st_mode & 0o777) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.parquet"]  # no temporary file left


def test_format_from_option_or_suffix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.bin"
    assert main(["convert", str(CV), "-o", str(out)]) == 2
    assert "cannot tell the format from the name" in capsys.readouterr().err
    assert not out.exists()
    assert main(["convert", str(CV), "-o", str(out), "--format", "feather"]) == 0
    assert out.read_bytes()[:6] == b"ARROW1"
    assert main(["convert", str(CV), "-o", str(tmp_path / "r.arrow")]) == 0
    assert (tmp_path / "r.arrow").read_bytes()[:6] == b"ARROW1"


def test_logs_with_errors_are_not_converted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("iris,1,1,nb,acc,0.5\niris,1,1,tree,acc,oops\n")
    out = tmp_path / "r.parquet"
    assert main(["convert", str(bad), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2: " in err and "nothing written" in err
    assert not out.exists()


def test_convert_needs_an_output(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["convert", str(CV)])
    assert exc.value.code == 2
    assert "-o/--output" in capsys.readouterr().err


async def test_the_app_opens_a_converted_table_as_it_opens_the_logs(tmp_path: Path) -> None:
    from tests.test_app import make_app, settle, status

    out = tmp_path / "cv.parquet"
    assert main(["convert", str(CV), "-o", str(out)]) == 0
    shown = []
    for source in (CV, out):
        app = make_app([str(source)])
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            shown.append((status(app).split(" | updated")[0], app.analysis.selection))
    assert "10 data sets x 5 learners | 6250 lines" in shown[0][0]
    assert shown[0][0].replace("10 files", "1 file") == shown[1][0].replace("1 files", "1 file")
    assert shown[0][1] == shown[1][1]
