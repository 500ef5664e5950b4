"""stats.read_logs: formats, inputs, every kind of problem, duplicates, line numbers.

Expected values come from the formats of Menzies' notes on comparing learners and lecture notes and from the
lines each test writes, never from the reader's own output.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats.logs._parse
import stats.logs._sources
from stats.cells import scores_table
from stats.logs._formats import LogProblem
from stats.logs._read import LogError, read_logs
from tests.conftest import REFERENCE, SAMPLES

LONG = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
# The wide log of Menzies' lecture notes, as printed (with the notes' leading spaces before the header).
MENZIES_WIDE = """    #data, learner, goal, train, test, repeats, bin, accuracy,    pd,    pf, precision
q2s/sonar,   bayes, Mine,   139,   69,       1,   1,    63.77, 61.29, 34.21,     59.38
q2s/sonar,    oneR, Mine,   139,   69,       1,   1,    68.12, 61.90, 22.22,     81.25
q2s/sonar,   bayes, Mine,   139,   69,       1,   2,    60.87, 73.08, 46.51,     48.72
q2s/sonar,    oneR, Mine,   139,   69,       1,   2,    68.12, 68.89, 33.33,     79.49
q2s/sonar,   bayes, Mine,   139,   69,       1,   3,    73.91, 86.67, 35.90,     65.00
q2s/sonar,    oneR, Mine,   139,   69,       1,   3,    69.57, 72.09, 34.62,     77.50
"""


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def rows(log: pd.DataFrame) -> list[tuple]:
    return [tuple(r) for r in log[LONG].astype(object).itertuples(index=False)]


def problems(log: pd.DataFrame) -> list[str]:
    return [f"{p.severity}: {p}" for p in log.problems]


# -- the frame -------------------------------------------------------------------------------


def test_reads_spaces_bom_crlf_and_quoted_commas(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", '\ufeffiris, 1, 2, "nb, gaussian", pd, 0.5\r\niris,1,2,tree,pd,0.7\r\n')
    log = read_logs(f)
    assert rows(log) == [("iris", 1, 2, "nb, gaussian", "pd", 0.5), ("iris", 1, 2, "tree", "pd", 0.7)]
    assert log.problems == () and log.files == (str(f),) and log.lines == 2


def test_schema_dtypes_and_categories_in_order_of_first_appearance(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "wine,1,1,tree,pd,0.5\niris,1,1,nb,pd,0.25\nwine,1,2,nb,pf,1e-3\n")
    log = read_logs(f)
    assert list(log.columns) == LONG
    assert [str(t) for t in log.dtypes] == ["category", "int64", "int64", "category", "category", "float64"]
    assert list(log["dataset"].cat.categories) == ["wine", "iris"]
    assert list(log["learner"].cat.categories) == ["tree", "nb"]
    assert list(log["criterion"].cat.categories) == ["pd", "pf"]
    assert log["value"].tolist() == [0.5, 0.25, 0.001]


def test_reference_log_is_a_complete_10x10_cv_without_problems() -> None:
    log = read_logs(REFERENCE / "baycomp_accuracies.dat")
    assert len(log) == 27_000 and log.lines == 27_000 and log.problems == ()
    assert log["dataset"].nunique() == 54 and log["learner"].nunique() == 5
    assert set(log["learner"].cat.categories) == {"nbc", "aode", "hnb", "j48", "j48gr"}
    assert list(log["criterion"].cat.categories) == ["accuracy"]
    cells = log.groupby(["dataset", "learner"], observed=True).size()
    assert len(cells) == 270 and (cells == 100).all()
    assert sorted(log["repeat"].unique()) == list(range(1, 11)) and sorted(log["fold"].unique()) == list(range(1, 11))
    assert rows(log.head(1)) == [("anneal", 1, 1, "nbc", "accuracy", 94.444)]


def test_bundled_sample_matches_menzies_table() -> None:
    table = scores_table(read_logs(SAMPLES / "c45_demsar.dat"), "accuracy")
    assert list(table.columns) == ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    assert table.loc["adult (sample)"].tolist() == [0.763, 0.768, 0.771, 0.798]


# -- the wide format (Menzies) --------------------------------------------------------------


def test_wide_format_gives_one_row_per_criterion_and_keeps_metadata(tmp_path: Path) -> None:
    log = read_logs(write(tmp_path, "sonar.dat", MENZIES_WIDE))
    assert list(log.columns) == [*LONG, "goal", "train", "test"]
    assert len(log) == 6 * 4 and log.lines == 6 and log.problems == ()
    assert rows(log.head(5)) == [
        ("q2s/sonar", 1, 1, "bayes", "accuracy", 63.77),
        ("q2s/sonar", 1, 1, "bayes", "pd", 61.29),
        ("q2s/sonar", 1, 1, "bayes", "pf", 34.21),
        ("q2s/sonar", 1, 1, "bayes", "precision", 59.38),
        ("q2s/sonar", 1, 1, "oneR", "accuracy", 68.12),
    ]
    assert str(log["goal"].dtype) == "category" and set(log["goal"]) == {"Mine"}
    assert str(log["train"].dtype) == "Int64" and set(log["train"]) == {139} and set(log["test"]) == {69}


def test_many_names_and_criteria(tmp_path: Path) -> None:
    criteria = [f"c{i}" for i in range(150)]
    lines = ["#data,learner,repeats,bin," + ",".join(criteria)]
    lines += [f"d{i},l{i % 200},1,1," + ",".join(f"{i}.{j}" for j in range(150)) for i in range(300)]
    log = read_logs(write(tmp_path, "w.dat", "\n".join(lines) + "\n"))
    assert len(log) == 300 * 150
    assert list(log["criterion"].cat.categories) == criteria
    assert list(log["dataset"].cat.categories) == [f"d{i}" for i in range(300)]
    assert rows(log.tail(1)) == [("d299", 1, 1, "l99", "c149", 299.149)]


def test_long_and_wide_together_long_rows_have_missing_metadata(tmp_path: Path) -> None:
    wide = write(tmp_path, "a.dat", MENZIES_WIDE)
    long = write(tmp_path, "b.dat", "q2s/sonar,2,1,bayes,pd,0.5\n")
    log = read_logs(wide, long)
    last = log.iloc[-1]
    assert (last["repeat"], last["criterion"], last["value"]) == (2, "pd", 0.5)
    assert pd.isna(last["goal"]) and pd.isna(last["train"]) and pd.isna(last["test"])
    assert log.lines == 7


def test_wide_header_needs_only_the_keys(tmp_path: Path) -> None:
    log = read_logs(write(tmp_path, "w.dat", "#bin,repeats,learner,data,auc\n2,1,nb,iris,0.9\n"))
    assert rows(log) == [("iris", 1, 2, "nb", "auc", 0.9)]
    assert log["goal"].isna().all() and log["train"].isna().all()


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ("#data, learner, goal, accuracy", "wide header lacks the column(s) repeats, bin"),
        ("#learner, repeats, bin, pd", "wide header lacks the column(s) data"),
        ("#data, learner, repeats, bin", "wide header names no criterion column"),
        ("#data, learner, repeats, bin, pd, pd", "wide header names the column(s) pd twice"),
    ],
)
def test_wide_header_without_its_keys_is_an_error_and_skips_the_file(tmp_path: Path, header: str, reason: str) -> None:
    f = write(tmp_path, "w.dat", f"\n{header}\niris,nb,1,1,0.5\n")
    with pytest.raises(LogError, match=f"^{re.escape(f'{f}:2: {reason}')}$"):
        read_logs(f)
    log = read_logs(f, on_error="skip")
    assert len(log) == 0 and problems(log) == [f"error: {f}:2: {reason}"]


def test_repeated_identical_wide_header_is_allowed_a_different_one_is_not(tmp_path: Path) -> None:
    head = "#data, learner, repeats, bin, pd"
    f = write(tmp_path, "w.dat", f"{head}\niris,nb,1,1,0.5\n{head}\niris,nb,1,2,0.6\n#data,learner,repeats,bin,pf\n")
    log = read_logs(f, on_error="skip")
    assert [r[2] for r in rows(log)] == [1, 2]
    assert [(p.line, p.severity) for p in log.problems] == [(5, "error")]
    assert "starts with '#'" in log.problems[0].reason


# -- problems, one kind at a time -------------------------------------------------------------

GOOD = "iris,1,1,nb,pd,0.5\n"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("iris,1,1,nb,pd", "expected 6 fields, found 5"),
        ("iris,1,1,nb,pd,0.5,extra", "expected 6 fields, found 7"),
        ("iris,1,1,nb,pd,abc", "value 'abc' is not a number"),
        ("iris,1,1,nb,pd,", "value '' is not a number"),
        ("iris,1,1,nb,pd,NA", "value 'NA' is not a number"),
        ("iris,1,1,nb,pd,1_0", "value '1_0' is not a number"),
        ("iris,1,1,nb,pd,nan", "value 'nan' is not finite"),
        ("iris,1,1,nb,pd,-inf", "value '-inf' is not finite"),
        ("iris,1,1,nb,pd,1e400", "value '1e400' is not finite"),
        ("iris,1.5,1,nb,pd,0.5", "repeat '1.5' is not an integer"),
        ("iris,1,x,nb,pd,0.5", "fold 'x' is not an integer"),
        ("iris,0x1,1,nb,pd,0.5", "repeat '0x1' is not an integer"),
        ("iris,,1,nb,pd,0.5", "repeat '' is not an integer"),
        ("iris,-1,1,nb,pd,0.5", "repeat '-1' is negative"),
        ("iris,1,99999999999,nb,pd,0.5", "fold '99999999999' is out of range"),
        ("iris,1,1, ,pd,0.5", "empty learner name"),
        ('iris,1,1,"nb,pd,0.5', "unbalanced quote: a quoted field is never closed"),
        ("iris,1,1,n\x00b,pd,0.5", "binary data: NUL byte in the line"),
        ("iris,1,1,nb\rx,pd,0.5", "carriage return inside the line (CR without LF)"),
        ("#iris,1,1,nb,pd,0.5", "line starts with '#': comments and second headers are not allowed"),
    ],
)
def test_each_bad_line_is_named_with_file_and_line(tmp_path: Path, line: str, reason: str) -> None:
    f = write(tmp_path, "d.dat", GOOD + "\n" + line + "\n" + GOOD.replace(",1,nb", ",2,nb"))
    with pytest.raises(LogError) as raised:
        read_logs(f)
    assert str(raised.value) == f"{f}:3: {reason}"
    assert raised.value.problem == LogProblem(str(f), 3, reason, "error")
    assert isinstance(raised.value, ValueError)
    log = read_logs(f, on_error="skip")
    assert problems(log) == [f"error: {f}:3: {reason}"]
    assert [r[2] for r in rows(log)] == [1, 2]  # the good lines around it stay


def test_invalid_utf8_is_binary_data_with_its_column(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", GOOD.encode() + b"ir\xffis,1,2,nb,pd,0.5\n")
    log = read_logs(f, on_error="skip")
    assert problems(log) == [f"error: {f}:2: binary data: invalid UTF-8 (byte 0xff at column 3)"]
    assert len(log) == 1


def test_binary_file_lines_are_errors(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", GOOD.encode() + bytes(range(256)) + b"\n")
    with pytest.raises(LogError, match=r":2: binary data: NUL byte"):
        read_logs(f)


def test_empty_files_are_warnings(tmp_path: Path) -> None:
    empty = write(tmp_path, "a.dat", "")
    blank = write(tmp_path, "b.dat", "\n  \r\n\t\n")
    header = write(tmp_path, "c.dat", "#data,learner,repeats,bin,pd\n")
    log = read_logs(empty, blank, header)  # warnings never raise
    assert len(log) == 0 and list(log.columns)[:6] == LONG
    assert problems(log) == [
        f"warning: {empty}: empty file: no results",
        f"warning: {blank}: empty file: no results",
        f"warning: {header}: no results in the file",
    ]


def test_blank_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "\n\r\n" + GOOD + "   \n\n" + "iris,1,2,nb,pd,zz\n")
    log = read_logs(f, on_error="skip")
    assert problems(log) == [f"error: {f}:6: value 'zz' is not a number"]


# -- the last line ------------------------------------------------------------------------


@pytest.mark.parametrize("tail", ["iris,1,2,nb,p", "iris,1,2,nb,pd,", "iris,1,2,n", 'iris,1,2,"nb'])
def test_torn_last_line_is_a_warning_and_is_dropped(tmp_path: Path, tail: str) -> None:
    f = write(tmp_path, "d.dat", GOOD + tail)
    log = read_logs(f)  # a warning: no raise
    assert len(log) == 1
    [p] = log.problems
    assert (p.file, p.line, p.severity) == (str(f), 2, "warning")
    assert "the run died mid-write" in p.reason and "line dropped" in p.reason


def test_complete_looking_last_line_without_newline_is_kept_with_a_warning(tmp_path: Path) -> None:
    # "0.93" cut to "0.9" looks complete: keep it (no data lost) but say the file is unterminated.
    f = write(tmp_path, "d.dat", GOOD + "iris,1,2,nb,pd,0.9")
    log = read_logs(f)
    assert [r[-1] for r in rows(log)] == [0.5, 0.9]
    [p] = log.problems
    assert (p.line, p.severity) == (2, "warning") and "no newline at the end" in p.reason


def test_binary_last_line_is_an_error_not_a_torn_line(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", GOOD.encode() + b"\x00\x00\x00")
    with pytest.raises(LogError, match=r":2: binary data: NUL byte"):
        read_logs(f)


def test_no_newline_anywhere(tmp_path: Path) -> None:
    assert rows(read_logs(write(tmp_path, "d.dat", GOOD.strip()))) == [("iris", 1, 1, "nb", "pd", 0.5)]


# -- duplicates -----------------------------------------------------------------------------


def test_duplicate_in_a_file_later_line_wins_and_both_lines_are_named(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "iris,1,1,nb,pd,0.1\niris,1,1,tree,pd,0.2\niris, 1,1, nb ,pd,0.3\n")
    log = read_logs(f)
    assert rows(log) == [("iris", 1, 1, "tree", "pd", 0.2), ("iris", 1, 1, "nb", "pd", 0.3)]
    assert problems(log) == [
        f"warning: {f}:3: duplicate of line 1 (iris, repeat 1, fold 1, nb, pd): the later line wins"
    ]
    assert log.lines == 2


def test_duplicate_across_files_names_the_other_file(tmp_path: Path) -> None:
    a = write(tmp_path, "a.dat", "iris,1,1,nb,pd,0.1\niris,1,2,nb,pd,0.2\n")
    b = write(tmp_path, "b.dat", "iris,1,2,nb,pd,0.9\n")
    log = read_logs(a, b)
    assert rows(log) == [("iris", 1, 1, "nb", "pd", 0.1), ("iris", 1, 2, "nb", "pd", 0.9)]
    assert problems(log) == [
        f"warning: {b}:1: duplicate of {a}:2 (iris, repeat 1, fold 2, nb, pd): the later line wins"
    ]


def test_a_rerun_appended_to_the_log_is_one_warning(tmp_path: Path) -> None:
    run = "".join(f"iris,1,{n},nb,pd,0.{n}\n" for n in range(1, 6))
    f = write(tmp_path, "d.dat", run + run.replace("0.", "1."))
    log = read_logs(f)
    assert [r[-1] for r in rows(log)] == [1.1, 1.2, 1.3, 1.4, 1.5]
    assert problems(log) == [f"warning: {f}:6: lines 6-10 repeat the results of lines 1-5: the later lines win"]


def test_three_copies_each_names_the_one_before(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "a,1,1,l,c,1\nb,1,1,l,c,2\na,1,1,l,c,3\nc,1,1,l,c,4\nd,1,1,l,c,5\na,1,1,l,c,6\n")
    log = read_logs(f)
    assert [r[-1] for r in rows(log)] == [2.0, 4.0, 5.0, 6.0]
    assert [(p.line, p.reason.split(" (")[0]) for p in log.problems] == [
        (3, "duplicate of line 1"),
        (6, "duplicate of line 3"),
    ]


def test_interleaved_copies_are_one_run(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "a,1,1,l,c,1\nb,1,1,l,c,2\na,1,1,l,c,3\nb,1,1,l,c,4\na,1,1,l,c,5\n")
    log = read_logs(f)
    assert [r[-1] for r in rows(log)] == [4.0, 5.0]
    assert problems(log) == [f"warning: {f}:3: lines 3-5 repeat the results of lines 1-3: the later lines win"]


def test_wide_duplicate_line_is_one_warning(tmp_path: Path) -> None:
    lines = MENZIES_WIDE.splitlines(keepends=True)
    f = write(tmp_path, "w.dat", "".join(lines) + lines[1].replace("63.77", "64.00"))
    log = read_logs(f)
    assert len(log) == 24 and log.lines == 6
    assert problems(log) == [
        f"warning: {f}:8: duplicate of line 2 (q2s/sonar, repeat 1, fold 1, bayes, 4 criteria): the later line wins"
    ]
    assert log["value"].iloc[-4] == 64.00  # the rerun's row comes last, in its file position


# -- inputs -----------------------------------------------------------------------------------


def test_directory_reads_every_dat_below_sorted(tmp_path: Path) -> None:
    write(tmp_path, "b/z.dat", "z,1,1,l,c,1\n")
    write(tmp_path, "a.dat", "a,1,1,l,c,1\n")
    write(tmp_path, "b/c.dat.gz", gzip.compress(b"c,1,1,l,c,1\n"))
    write(tmp_path, "b/notes.txt", "not a log\n")
    log = read_logs(tmp_path)
    assert list(log["dataset"]) == ["a", "c", "z"]
    assert log.files == (
        str(tmp_path / "a.dat"),
        str(tmp_path / "b/c.dat.gz"),
        str(tmp_path / "b/z.dat"),
    )


def test_glob_patterns_are_expanded_here(tmp_path: Path) -> None:
    write(tmp_path, "runs/x1.dat", "x1,1,1,l,c,1\n")
    write(tmp_path, "runs/deep/x2.dat", "x2,1,1,l,c,1\n")
    write(tmp_path, "runs/y.dat", "y,1,1,l,c,1\n")
    assert list(read_logs(str(tmp_path / "runs/x*.dat"))["dataset"]) == ["x1"]
    assert list(read_logs(str(tmp_path / "**/x*.dat"))["dataset"]) == ["x2", "x1"]


def test_several_paths_in_order_and_a_file_named_twice_is_read_once(tmp_path: Path) -> None:
    a = write(tmp_path, "a.dat", "a,1,1,l,c,1\n")
    b = write(tmp_path, "b.dat", "b,1,1,l,c,1\n")
    log = read_logs(b, a, b)
    assert list(log["dataset"]) == ["b", "a"] and log.problems == ()


def test_gzip_is_found_by_its_magic_bytes(tmp_path: Path) -> None:
    f = write(tmp_path, "compressed.dat", gzip.compress(GOOD.encode() * 3 + b"iris,2,1,nb,pd,x\n"))
    log = read_logs(f, on_error="skip")
    assert len(log) == 1 and problems(log)[-1] == f"error: {f}:4: value 'x' is not a number"


def test_gzip_problems(tmp_path: Path) -> None:
    whole = gzip.compress(("".join(f"iris,1,{n},nb,pd,0.5\n" for n in range(1, 2001))).encode())
    cut = write(tmp_path, "cut.dat.gz", whole[: len(whole) // 2])
    fake = write(tmp_path, "fake.dat.gz", GOOD)
    log = read_logs(cut, fake, on_error="skip")
    assert 0 < len(log) < 2000
    assert [(p.file, p.line, p.severity) for p in log.problems][-2:] == [
        (str(cut), None, "warning"),
        (str(fake), None, "error"),
    ]
    assert "compressed data ends early" in log.problems[-2].reason
    assert log.problems[-1].reason == "the name ends in .gz but the file is not gzip data"


@pytest.mark.parametrize("compress", [False, True])
def test_standard_input(monkeypatch: pytest.MonkeyPatch, compress: bool) -> None:
    data = (GOOD + "iris,1,2,nb,pd,0.7\n").encode()
    stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(gzip.compress(data) if compress else data)))
    monkeypatch.setattr(sys, "stdin", stdin)
    log = read_logs("-")
    assert [r[-1] for r in rows(log)] == [0.5, 0.7] and log.files == ("<stdin>",)


def test_missing_paths_are_errors_naming_them(tmp_path: Path) -> None:
    missing = tmp_path / "nope.dat"
    with pytest.raises(LogError, match=f"^{re.escape(str(missing))}: no such file or directory$"):
        read_logs(missing)
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    pattern = str(tmp_path / "*.none")
    log = read_logs(missing, empty_dir, pattern, on_error="skip")
    assert problems(log) == [
        f"error: {missing}: no such file or directory",
        f"warning: {empty_dir}: no logs in this directory (looked for *.dat, *.dat.gz and Parquet or Arrow files)",
        f"error: {pattern}: no file matches this pattern",
    ]


def test_on_error_is_checked() -> None:
    with pytest.raises(ValueError, match="on_error must be 'raise' or 'skip', got 'ignore'"):
        read_logs("x.dat", on_error="ignore")  # type: ignore[arg-type]


def test_problem_text() -> None:
    assert str(LogProblem("a.dat", 4, "value 'x' is not a number")) == "a.dat:4: value 'x' is not a number"
    assert str(LogProblem("a.dat", None, "empty file: no results", "warning")) == "a.dat: empty file: no results"


def test_warnings_do_not_raise_and_problems_are_in_file_and_line_order(tmp_path: Path) -> None:
    a = write(tmp_path, "a.dat", "iris,1,1,nb,pd,0.1\niris,1,1,nb,pd,0.2\niris,1,2,nb,pd,0.3")
    b = write(tmp_path, "b.dat", "")
    log = read_logs(a, b)
    assert [(Path(p.file).name, p.line) for p in log.problems] == [("a.dat", 2), ("a.dat", 3), ("b.dat", None)]


# -- many blocks, the thread pool, the careful path ------------------------------------------


def _log_lines(n: int) -> list[str]:
    return [f"data_{i // 50:03d},{i // 10 % 5 + 1},{i % 10 + 1},learner_{i % 3},acc,0.{i:05d}\n" for i in range(n)]


def test_line_numbers_hold_across_blocks_and_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats.logs._sources, "BLOCK", 256)  # ~7 lines a block: dozens of blocks, in the pool
    lines = _log_lines(600)
    bad = {17: "data_x,1,1,l,acc,zz\n", 18: "\n", 250: "\r\n", 251: 'q,1,1,"l,acc,1\n', 400: "q,1,1,l\x00,acc,1\n"}
    for i, line in bad.items():
        lines.insert(i, line)
    f = write(tmp_path, "d.dat", "\ufeff" + "".join(lines))
    used = []
    parts = stats.logs._sources._Parts
    original = parts.add
    monkeypatch.setattr(parts, "add", lambda self, *a: used.append(self.window) or original(self, *a))
    log = read_logs(f, on_error="skip")
    assert used and min(used) > 0 or stats.logs._sources.WORKERS == 1  # blocks went through the pool
    assert [p.line for p in log.problems] == [18, 252, 401]
    assert len(log) == 600 and log["value"].tolist() == [float(f"0.{i:05d}") for i in range(600)]


def test_clean_file_never_reaches_the_line_by_line_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("a clean line went through Python")

    monkeypatch.setattr(stats.logs._parse, "judge_line", refuse)
    monkeypatch.setattr(stats.logs._sources, "BLOCK", 4096)
    log = read_logs(write(tmp_path, "d.dat", "".join(_log_lines(2000))))
    assert len(log) == 2000


bad_lines = st.sampled_from(
    [
        "x,1,1,l,c\n",
        "x,1,1,l,c,zz\n",
        "x,one,1,l,c,1\n",
        "x,1,1,l,c,inf\n",
        "x,1,1,,c,1\n",
        "\x00x,1,1,l,c,1\n",
        '"x,1,1,l,c,1\n',
    ]
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, 3), st.integers(1, 3), st.integers(0, 2)), max_size=60),
    st.lists(st.tuples(st.integers(0, 80), bad_lines), max_size=8),
    st.sampled_from([64, 300, 1 << 20]),
    st.booleans(),
)
def test_any_log_reads_as_the_spec_says(
    records: list[tuple[int, int, int, int]], inserts: list[tuple[int, str]], block: int, crlf: bool
) -> None:
    """Random results, bad lines and blank lines at random places: the rows are the good lines (the
    later of two equal keys winning), the errors are exactly the bad lines' numbers."""
    import tempfile

    lines = [f" d{d} ,{r},{n},l{lr},acc,{i}.5\n" for i, (d, r, n, lr) in enumerate(records)]
    bad_at = []
    for position, text in sorted(inserts, reverse=True):
        lines.insert(min(position, len(lines)), text)
    bad_at = [i + 1 for i, line in enumerate(lines) if line.startswith(("x", "\x00", '"'))]
    content = "".join(lines).replace("\n", "\r\n") if crlf else "".join(lines)
    expected: dict[tuple, tuple] = {}
    for i, (d, r, n, lr) in enumerate(records):
        key = (f"d{d}", r, n, f"l{lr}", "acc")
        expected.pop(key, None)
        expected[key] = (*key, i + 0.5)
    old = stats.logs._sources.BLOCK
    stats.logs._sources.BLOCK = block
    try:
        with tempfile.TemporaryDirectory() as folder:
            log = read_logs(write(Path(folder), "d.dat", content), on_error="skip")
    finally:
        stats.logs._sources.BLOCK = old
    assert sorted(rows(log), key=lambda r: r[-1]) == sorted(expected.values(), key=lambda r: r[-1])
    assert [p.line for p in log.problems if p.severity == "error"] == bad_at


# -- strict reading and the scores table built from it -------------------------------------


def test_on_error_raise_stops_at_the_first_bad_line(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "a,1,1,x,pd,0.1\na,1,one,x,pd,0.2\n")
    with pytest.raises(LogError, match=f"^{re.escape(str(f))}:2: fold 'one' is not an integer$"):
        read_logs(f, on_error="raise")


def test_scores_table_is_the_median_and_leaves_out_incomplete_data_sets(tmp_path: Path) -> None:
    f = write(tmp_path, "d.dat", "a,1,1,x,pd,0.1\na,1,2,x,pd,0.3\na,2,1,x,pd,0.9\na,1,1,y,pd,0.5\nb,1,1,x,pd,0.2\n")
    table = scores_table(read_logs(f), "pd")
    assert table.index.tolist() == ["a"] and table.loc["a", "x"] == pytest.approx(0.3)
    assert table.excluded == {"b": "no pd result for learner y"}
    with pytest.raises(ValueError, match="criterion 'pf'"):
        scores_table(read_logs(f), "pf")


def test_read_logs_keeps_its_findings_as_fields_not_attrs(tmp_path: Path) -> None:
    """The problems, files and lines are fields of a frozen result (pandas deep-copied ``attrs``
    on every operation); the frame is ``.table``, and the result still reads like it."""
    f = write(tmp_path, "d.dat", "".join(f"a,1,{n},l,c,1\n" for n in range(1, 4)) + "a,1,1,l,c,2\n")
    log = read_logs(f)
    assert isinstance(log, stats.LogRead) and isinstance(log.table, pd.DataFrame)
    assert log.files == (str(f),) and log.lines == 3
    assert [(p.line, p.severity) for p in log.problems] == [(4, "warning")]  # line 4 reruns line 1
    assert log.table.attrs == {}
    subset = log[log["fold"] > 0]  # reads like its table: a plain DataFrame comes out
    assert isinstance(subset, pd.DataFrame) and len(log) == 3 and list(log) == list(log.table.columns)
    assert np.array_equal(subset["value"].to_numpy(), [1.0, 1.0, 2.0])
    with pytest.raises(AttributeError, match=r"fields \(problems, files, lines\)"):
        log.attrs  # noqa: B018
    with pytest.raises(dataclasses.FrozenInstanceError):
        log.lines = 0  # type: ignore[misc]


def test_more_than_32767_names_in_one_block_keep_their_codes(tmp_path: Path) -> None:
    # Before: the label column widened one step (int8 -> int16) however wide the block's codes
    # were, so 65,536 data sets in one block wrapped to negative codes (read_logs raised).
    log = tmp_path / "many.dat"
    log.write_text("".join(f"d{n},1,1,nb,acc,0.1\n" for n in range(1 << 16)))
    names = read_logs(log)["dataset"]
    assert names.iloc[[0, 32767, 32768, -1]].tolist() == ["d0", "d32767", "d32768", "d65535"]


def test_put_shifts_consecutive_numbers_and_gathers_others() -> None:
    """Columns' label codes: lut[codes], by an add when lut is consecutive (lut[0] past the codes'
    own type included: int16 codes, 40,000 labels before them), else by a gather."""
    from stats.logs._frame import _put

    codes = np.array([2, 0, 1, 2], np.int16)
    for lut, dtype in (
        (np.array([5, 6, 7]), np.int8),
        (np.array([40_000, 40_001, 40_002]), np.int32),
        (np.array([7, 5, 6]), np.int8),
        (np.array([0, 2, 3]), np.int16),
    ):
        target = np.zeros(4, dtype)
        _put(target, lut, codes, 1)
        assert target.tolist() == lut[codes].tolist()
    target = np.zeros(8, np.int8)
    _put(target, np.array([3, 4, 5]), codes, 2)  # a wide line: each code k times
    assert target.tolist() == [5, 5, 3, 3, 4, 4, 5, 5]
