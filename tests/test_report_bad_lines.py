"""Issue 28, item 2: ``rankboard report`` takes what the app takes. Past bad lines by default (each
named on stderr as ``rankboard check`` names it, never in the report), refused with ``--strict``,
and without a path it reads the bundled logs the app opens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tui.cli import bundled_cv, main

#: 3 data sets x 2 learners x 2 folds, one criterion.
GOOD = [
    f"{dataset},1,{fold},{learner},accuracy,{base + 0.01 * fold + 0.001 * len(dataset):.4f}"
    for dataset in ("iris", "wine", "glass")
    for learner, base in (("nb", 0.8), ("tree", 0.7))
    for fold in (1, 2)
]
#: Line number (1-based, in the log with bad lines) -> a bad line.
BAD = {
    4: "iris,1,3,nb,accuracy",  # 5 fields
    8: "wine,1,3,nb,accuracy,high",  # not a number
    12: "glass,1,x,nb,accuracy,0.5",  # fold not an integer
    13: "glass,1,3,nb,accuracy,nan",  # not finite
}
STRICT_REFUSAL = "rankboard: the logs have errors (see above); fix them or run `rankboard check`"


def _with_bad_lines() -> str:
    lines = list(GOOD)
    for number in sorted(BAD):
        lines.insert(number - 1, BAD[number])
    return "\n".join(lines) + "\n"


def _without_bad_lines() -> str:
    return "\n".join(GOOD) + "\n"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "results.dat"
    path.write_text(_with_bad_lines())
    return path


def _check_problems(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The problem lines ``rankboard check`` prints (before its blank line and summary)."""
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    return out.split("\n\n", 1)[0].splitlines()


def _clean_report(path: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The report of the log without its bad lines, at the same path (the report names it)."""
    path.write_text(_without_bad_lines())
    assert main(["report", str(path), *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("args", [[], ["--format", "json"], ["--view", "ranks", "--memory", "100"]])
def test_report_goes_past_bad_lines_and_names_them_as_check_does(
    log: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    problems = _check_problems(log, capsys)
    assert [line.split(": ", 1)[0] for line in problems] == [f"{log}:{n}" for n in sorted(BAD)]
    assert main(["report", str(log), *args]) == 0
    out, err = capsys.readouterr()
    named = [line for line in err.splitlines() if line.startswith(str(log))]
    assert named == problems  # each bad line, in check's words and order
    assert str(log) + ":" not in out  # no problem in the report itself
    assert out == _clean_report(log, args, capsys)  # the good lines' report, byte for byte


def test_report_to_a_file_holds_no_problem(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.md"
    assert main(["report", str(log), "--format", "markdown", "-o", str(target)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and f"{log}:4: " in err
    assert target.read_text() == _clean_report(log, ["--format", "markdown"], capsys)


def test_strict_refuses_bad_lines_and_writes_nothing(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problems = _check_problems(log, capsys)
    target = tmp_path / "report.txt"
    assert main(["report", str(log), "--strict", "-o", str(target)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and not target.exists() and not list(tmp_path.glob(".*tmp"))
    assert err.splitlines() == [*problems, STRICT_REFUSAL]


def test_strict_still_reports_a_clean_log(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = _clean_report(log, [], capsys)
    assert main(["report", str(log), "--strict"]) == 0
    assert capsys.readouterr().out == expected


def test_a_log_of_bad_lines_only_still_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.dat"
    path.write_text("\n".join(BAD.values()) + "\n")
    assert main(["report", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{path}:1: expected 6 fields, found 5" in err
    assert "rankboard: the logs hold no results" in err


def test_the_command_itself_keeps_problems_on_stderr(log: Path) -> None:
    """The installed entry point, in its own process: stdout is the report, stderr the problems."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, text=True)

    check = run("check", str(log))
    got = run("report", str(log), "--view", "ranks")
    assert got.returncode == 0, got.stderr
    assert got.stderr.startswith(check.stdout.split("\n\n", 1)[0] + "\n")
    log.write_text(_without_bad_lines())
    clean = run("report", str(log), "--view", "ranks")
    assert clean.returncode == 0 and clean.stderr == ""
    assert got.stdout == clean.stdout


def test_report_help_shows_strict() -> None:
    out = subprocess.run([sys.executable, "-m", "tui", "report", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "--strict" in out.stdout


def test_report_without_paths_reads_the_bundled_logs_the_app_opens(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report"]) == 0
    default = capsys.readouterr().out
    assert main(["report", str(bundled_cv())]) == 0
    assert default == capsys.readouterr().out
    assert "10 data sets x 5 learners" in default
