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
    out = _run("report")
    assert out.returncode == 0, out.stderr
    assert "criterion accuracy (higher is better), 14 data sets x 4 learners" in out.stdout
    assert "Friedman chi2(3) = 9.857" in out.stdout
    assert "Iman-Davenport F(3, 39) = 3.987" in out.stdout
    assert "average rank                     3.143          2.000          2.929          1.929" in out.stdout
    assert "CD = 1.254" in out.stdout
    assert "control C4.5+m+cf" in out.stdout


def test_report_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--control", "C4.5", "--test", "quade", "--alpha", "0.1", "--direction", "lower"]) == 0
    text = capsys.readouterr().out
    assert "(lower is better)" in text and "control C4.5 (quade z statistics)" in text


def test_report_errors_name_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("d1,1,1,a,accuracy,0.5\nd1,1,1,b,accuracy,oops\n")
    assert main(["report", str(bad)]) == 1
    assert f"{bad}:2: " in capsys.readouterr().err
    assert main(["report", "--criterion", "auc"]) == 2
    assert "criterion 'auc' is not in the log; criteria are: accuracy" in capsys.readouterr().err
    assert main(["report", "--control", "SVM"]) == 2
    assert "control 'SVM' is not a learner" in capsys.readouterr().err


def test_help() -> None:
    out = _run("--help")
    assert out.returncode == 0 and "report" in out.stdout
