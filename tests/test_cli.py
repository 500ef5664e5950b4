"""The `rankboard report` command as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tui.cli import main


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True)


def test_report_on_bundled_example() -> None:
    out = _run("report", _c45())  # without a path: the bundled cv logs (issue 28)
    assert out.returncode == 0, out.stderr
    assert "criterion accuracy (higher is better), 14 data sets x 4 learners" in out.stdout
    assert "Friedman chi2(3) = 9.857" in out.stdout
    assert "Iman-Davenport F(3, 39) = 3.987" in out.stdout
    assert "average rank                     3.143          2.000          2.929          1.929" in out.stdout
    assert "CD = 1.254" in out.stdout
    assert "control C4.5+m+cf" in out.stdout


def test_report_options(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--control", "C4.5", "--test", "quade", "--alpha", "0.1", "--direction", "lower"]
    assert main(["report", _c45(), *args]) == 0
    text = capsys.readouterr().out
    assert "(lower is better)" in text and "control C4.5 (quade z statistics)" in text


def test_report_errors_name_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("d1,1,1,a,accuracy,0.5\nd1,1,1,b,accuracy,oops\n")
    assert main(["report", str(bad), "--strict"]) == 1  # by default it goes past them (issue 28)
    assert f"{bad}:2: " in capsys.readouterr().err
    assert main(["report", _c45(), "--criterion", "auc"]) == 2
    assert "criterion 'auc' is not in the log; criteria are: accuracy" in capsys.readouterr().err
    assert main(["report", _c45(), "--control", "SVM"]) == 2
    assert "control = 'SVM' is not valid; valid values are: C4.5, C4.5+m" in capsys.readouterr().err


def test_help() -> None:
    out = _run("--help")
    assert out.returncode == 0 and "report" in out.stdout


def test_check_clean_log_summarises_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import REFERENCE

    assert main(["check", str(REFERENCE / "baycomp_accuracies.dat")]) == 0
    out = capsys.readouterr().out
    assert "1 file(s), 0 error(s), 0 warning(s)" in out
    assert "27000 lines: 54 data sets, 5 learners, 1 criterion (accuracy)" in out
    assert "all 54 data sets x 5 learners: 10 x 10" in out


def test_check_reports_each_problem_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "d.dat"
    bad.write_text("a,1,1,x,pd,0.5\na,1,1,y,pd,zero\na,1,1,x,pd,0.6\na,1,2,x,pd,0.7")
    assert main(["check", str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{bad}:2: ") and "warning" not in lines[0]
    assert any(line.startswith(f"{bad}:3: warning: ") for line in lines)  # the rerun of line 1
    assert any(line.startswith(f"{bad}:4: warning: ") for line in lines)  # torn last line
    assert "1 file(s), 1 error(s), 2 warning(s)" in lines


def test_check_warnings_only_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.dat"
    empty.write_text("")
    good = tmp_path / "good.dat"
    good.write_text("a,1,1,x,pd,0.5\n")
    assert main(["check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{empty}: warning: " in out and "2 file(s), 0 error(s), 1 warning(s)" in out


def test_report_on_cv_samples_lower_is_better() -> None:
    out = _run("report", str(Path(__file__).resolve().parents[1] / "sample_logs" / "cv"), "--criterion", "pf")
    assert out.returncode == 0, out.stderr
    assert "criterion pf (lower is better), 10 data sets x 5 learners" in out.stdout


def _c45() -> str:
    return str(Path(__file__).resolve().parents[1] / "sample_logs" / "c45_demsar.dat")


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json"])
def test_report_formats(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", _c45(), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "9.857" in out or "9.85714" in out
    if fmt == "json":
        import json

        doc = json.loads(out)
        assert doc["friedman"]["statistic"] == pytest.approx(9.857142857142861)
        assert doc["verdict"]["outcome"] == "different"


def test_report_csv_needs_one_view_and_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", _c45(), "--format", "csv"]) == 2
    assert "--view" in capsys.readouterr().err
    out = tmp_path / "ranks.csv"
    assert main(["report", _c45(), "--format", "csv", "--view", "ranks", "-o", str(out)]) == 0
    assert str(out) in capsys.readouterr().err
    import pandas as pd

    frame = pd.read_csv(out)
    assert frame.iloc[-1]["dataset"] == "average rank"
    assert not list(tmp_path.glob(".*tmp"))


def test_report_spec_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from stats import read_logs
    from tui.model import Model, default_selection
    from tui.model._spec import save_spec

    log = read_logs(_c45())
    sel = default_selection(log)
    sel = type(sel)(**{**sel.__dict__, "learners": ("C4.5", "C4.5+m", "C4.5+cf"), "alpha": 0.1})
    spec = save_spec(sel, tmp_path / "view.toml")
    assert main(["report", _c45(), "--spec", str(spec), "--format", "json"]) == 0
    import json

    doc = json.loads(capsys.readouterr().out)
    assert doc["learners"] == ["C4.5", "C4.5+m", "C4.5+cf"] and doc["alpha"] == 0.1
    assert Model(log).analyze(sel).tests is not None


def test_report_usage_errors_list_valid_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", _c45(), "--learners", "C4.5", "J48"]) == 2
    err = capsys.readouterr().err
    assert "J48" in err and "C4.5+m+cf" in err


#: Runs the command in a fresh interpreter and prints which heavy modules it imported.
_IMPORTED = """
import contextlib, io, sys
from tui.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(" ".join(m for m in ("numpy", "pandas", "pyarrow", "scipy", "textual", "textual.app") if m in sys.modules))
"""


def _heavy(*args: str) -> set[str]:
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", _IMPORTED, *args], cwd=root, capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("report", "--help"),
        ("check", "--help"),
        ("convert", "--help"),
        ("report", "--bogus"),
        ("convert", "x.dat"),  # no -o: an argument error
        ("--bogus",),  # the app's parser
    ],
)
def test_help_and_argument_errors_import_nothing_heavy(args: tuple[str, ...]) -> None:
    """Issue 17: every command imported scipy and pandas first (2.4-4.6 s for --help)."""
    assert _heavy(*args) == set()


def test_check_imports_neither_scipy_nor_pandas() -> None:
    example = Path(__file__).resolve().parents[1] / "sample_logs" / "c45_demsar.dat"
    assert _heavy("check", str(example)) == {"numpy", "pyarrow"}  # no pandas either (stats.check_logs)


def test_a_refused_report_output_imports_nothing_heavy(tmp_path: Path) -> None:
    """``-o FILE`` that exists (no ``--force``) is refused before any work: the check lives in
    ``tui.output``, which imports no pandas (it was in ``tui.render``, which imports pandas)."""
    example = Path(__file__).resolve().parents[1] / "sample_logs" / "c45_demsar.dat"
    taken = tmp_path / "taken.md"
    taken.write_text("mine\n")
    assert _heavy("report", str(example), "-o", str(taken)) == set()
    assert taken.read_text() == "mine\n"


def test_report_imports_scipy_and_convert_does_not(tmp_path: Path) -> None:
    """Issue 17, item 1: what each command imports, in a fresh interpreter."""
    example = Path(__file__).resolve().parents[1] / "sample_logs" / "c45_demsar.dat"
    assert _heavy("report", str(example)) == {"numpy", "pandas", "pyarrow", "scipy"}
    table = tmp_path / "c45.parquet"
    assert _heavy("convert", str(example), "-o", str(table)) == {"numpy", "pandas", "pyarrow"}
    assert table.read_bytes()[:4] == b"PAR1"
    assert _heavy("check", str(table)) == {"numpy", "pyarrow"}
