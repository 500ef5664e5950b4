"""Nothing stops the load, nothing hangs, nothing is skipped silently (issue 13, items 1-3): an
oversized line, a FIFO, an unreadable directory and a symbolic-link loop are each a problem
``file:line: reason`` and the other files are read."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import stats
import stats.logs._paths
import stats.logs._sources
from stats.logs._formats import MAX_LINE
from tests.follow import Follow
from tests.test_app import make_app, poll, settle, status
from tui.cli import main
from tui.widgets._problems import ProblemsPanel

GOOD = "iris,1,1,nb,accuracy,0.9\niris,1,1,knn,accuracy,0.8\n"


def problems(*paths: Path | str) -> list[str]:
    log = stats.read_logs(*paths, on_error="skip")
    return [str(p) for p in log.problems]


def test_an_oversized_line_is_a_problem_and_the_others_are_read(tmp_path: Path) -> None:
    # Before: _csv.Error "field larger than field limit (131072)" from read_logs, even with
    # on_error="skip", a traceback in check and report, "0 files | 0 lines" in the app.
    (tmp_path / "a.dat").write_text(GOOD + "y" * (1 << 20) + "\n")
    (tmp_path / "b.dat").write_text(GOOD.replace("iris", "wine") + "iris,1,3," + "n" * 200_000 + ",accuracy,zz\n")
    log = stats.read_logs(tmp_path, on_error="skip")
    assert len(log) == 4  # the good lines of both files
    found = [str(p) for p in log.problems]
    assert found == [
        f"{tmp_path / 'a.dat'}:3: line too long: 1,048,576 characters (a result line has at most {MAX_LINE:,})",
        f"{tmp_path / 'b.dat'}:3: line too long: 200,021 characters (a result line has at most {MAX_LINE:,})",
    ]
    with pytest.raises(stats.LogError, match="line too long"):
        stats.read_logs(tmp_path / "a.dat")  # on_error="raise": a LogError naming the line, not _csv.Error


def test_check_reports_an_oversized_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a bad line (its value is not a number) whose name is over the csv module's field limit
    (tmp_path / "a.dat").write_text(GOOD + "iris,1,1," + "x" * 140_000 + ",accuracy,oops\n")
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "a.dat:3: line too long: 140,023 characters" in out and "1 file(s), 1 error(s)" in out


def test_a_fifo_is_refused_without_being_opened_for_reading(tmp_path: Path) -> None:
    # Before: `rankboard check d` never returned (open() of a FIFO blocks until a writer comes).
    (tmp_path / "a.dat").write_text(GOOD)
    os.mkfifo(tmp_path / "b.dat")
    run = subprocess.run(
        [sys.executable, "-m", "tui", "check", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,  # a guard: the check itself takes a second
        cwd=Path(__file__).resolve().parents[1],
    )
    assert f"{tmp_path / 'b.dat'}: not a regular file (a FIFO): not read" in run.stdout
    assert "2 lines" in run.stdout and run.returncode == 1


def test_a_symbolic_link_loop_is_named_as_a_loop(tmp_path: Path) -> None:
    (tmp_path / "one").symlink_to(tmp_path / "two")
    (tmp_path / "two").symlink_to(tmp_path / "one")
    (tmp_path / "a.dat").write_text(GOOD)
    found = problems(tmp_path / "one", tmp_path / "a.dat")
    assert found == [f"{tmp_path / 'one'}: symbolic link loop: the link leads back to itself"]  # was "no such file"


def test_an_unreadable_directory_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # os.walk calls onerror for a directory it cannot list, and skips it: rankboard said
    # "1 file(s), 0 error(s)". Here the listing of locked/ fails as it does for a non-root user.
    (tmp_path / "a.dat").write_text(GOOD)
    (tmp_path / "locked").mkdir()
    real_walk = os.walk

    def walk(top, onerror=None, **kw):  # noqa: ANN001, ANN003, ANN202
        for root, dirs, files in real_walk(top, onerror=onerror, **kw):
            if Path(root).name == "locked":
                onerror(PermissionError(13, "Permission denied", root))
                continue
            yield root, dirs, files

    monkeypatch.setattr(stats.logs._paths.os, "walk", walk)
    found = problems(tmp_path)
    assert found == [f"{tmp_path / 'locked'}: cannot read this directory: permission denied"]


NOBODY = next((u for u in pwd.getpwall() if u.pw_name == "nobody"), None)


@pytest.mark.skipif(os.geteuid() != 0 or NOBODY is None, reason="drops to user nobody: needs root and that user")
def test_an_unreadable_directory_is_reported_to_a_real_user(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = Path("/tmp") / f"rankboard-locked-{os.getpid()}"
    try:
        (root / "locked").mkdir(parents=True)
        (root / "a.dat").write_text(GOOD)
        (root / "locked" / "b.dat").write_text(GOOD.replace("iris", "wine"))
        os.chmod(root, 0o755)
        os.chmod(root / "a.dat", 0o644)
        os.chmod(root / "locked", 0o000)
        code = "import sys, stats; print([str(p) for p in stats.read_logs(sys.argv[1], on_error='skip')"
        code += ".problems])"
        try:
            run = subprocess.run(
                [sys.executable, "-c", code, str(root)],
                capture_output=True,
                text=True,
                timeout=120,
                cwd=Path(__file__).resolve().parents[1],
                user=NOBODY.pw_uid,
                group=NOBODY.pw_gid,
                extra_groups=[],
            )
        except PermissionError as exc:  # the interpreter lives where nobody may not go
            pytest.skip(f"user nobody cannot run {sys.executable}: {exc}")
        if run.returncode != 0 and "Permission denied" in run.stderr:
            pytest.skip(f"user nobody cannot import this checkout: {run.stderr.strip().splitlines()[-1]}")
        assert f"{root / 'locked'}: cannot read this directory: permission denied" in run.stdout, run.stderr
    finally:
        if (root / "locked").exists():
            os.chmod(root / "locked", 0o755)
        shutil.rmtree(root, ignore_errors=True)


async def test_the_app_reads_the_good_files_beside_a_fifo_and_an_oversized_line(tmp_path: Path) -> None:
    # Before: "0 files | 0 lines" and a toast on every poll (the csv error), or a load that never
    # ended (the FIFO).
    (tmp_path / "a.dat").write_text(GOOD + "y" * 200_000 + "\n")
    (tmp_path / "c.dat").write_text(GOOD.replace("iris", "wine"))
    os.mkfifo(tmp_path / "f.dat")
    app = make_app([str(tmp_path)], live=True, interval=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "4 lines | 2 files" in status(app) and app.analysis is not None  # the FIFO is not read
        for _ in range(2):
            await poll(pilot)
        shown = app.query_one(ProblemsPanel).problems
        assert sum("not a regular file (a FIFO)" in p for p in shown) == 1  # listed once, not per poll
        assert sum("line too long" in p for p in shown) == 1


def test_byte_order_marks_and_zero_width_characters_are_not_part_of_a_name(tmp_path: Path) -> None:
    # `cat a.dat b.dat` of two files saved with a BOM: line 3 starts with one. It made a second
    # data set '\ufeffiris' that looks identical to iris; a zero-width space did the same.
    a = b"\xef\xbb\xbfiris,1,1,nb,accuracy,0.9\niris,1,1,knn,accuracy,0.8\n"
    b = "\ufeffiris,1,2,nb,accuracy,0.7\niris,1,2,kn\u200bn,accuracy,0.6\n".encode()
    (tmp_path / "cat.dat").write_bytes(a + b)
    log = stats.read_logs(tmp_path / "cat.dat", on_error="skip")
    assert sorted(log["dataset"].unique()) == ["iris"] and sorted(log["learner"].unique()) == ["knn", "nb"]
    assert len(log) == 4
    found = [str(p) for p in log.problems]
    assert found == [
        f"{tmp_path / 'cat.dat'}:3: dataset '\\ufeffiris' holds invisible characters (byte-order mark or "
        "zero-width): read as 'iris'",
        f"{tmp_path / 'cat.dat'}:4: learner 'kn\\u200bn' holds invisible characters (byte-order mark or "
        "zero-width): read as 'knn'",
    ]
    assert all(p.severity == "warning" for p in log.problems)


def test_the_watcher_reads_invisible_characters_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "a.dat").write_text("iris,1,1,nb,accuracy,0.9\niris,1,1,knn,accuracy,0.8\n")
    watcher = Follow(tmp_path)
    watcher.poll()
    with (tmp_path / "a.dat").open("a") as f:
        # (a BOM at the very start of what is appended is dropped like a file's leading BOM)
        f.write("iris,1,2,knn,accuracy,0.6\n\ufeffiris,1,2,nb,accuracy,0.7\n")
    update = watcher.poll()
    assert list(watcher.frame()["dataset"].unique()) == ["iris"]
    assert any("holds invisible characters" in str(p) for p in update.problems)


def test_latex_rows_never_begin_with_a_bracket(tmp_path: Path) -> None:
    # A tabular row beginning with "[" after "\\" is read as \\[<length>]: the document failed.
    from tui.model import Model
    from tui.render._report import render_report

    rows = [(d, 1, 1, x, "accuracy", v) for d in ("[red]x", "wine", "iris") for x, v in (("[b]nb", 0.9), ("knn", 0.8))]
    log = tmp_path / "b.dat"
    log.write_text("".join(",".join(map(str, r)) + "\n" for r in rows))
    model = Model(stats.read_logs(log))
    tex = render_report(model, model.default_selection(), view="all", fmt="latex")
    assert not [line for line in tex.splitlines() if line.lstrip().startswith("[")]
    assert "{[}red{]}x" in tex and "{[}b{]}nb" in tex


def test_a_compression_bomb_stops_at_the_limit_and_the_others_are_read(tmp_path: Path) -> None:
    # Before: a 2.4 MB gzip of 1 GB of duplicates ran 389 s at 9.4 GB and exited 0.
    import gzip

    with gzip.open(tmp_path / "bomb.dat.gz", "wb", compresslevel=9) as f:
        f.write(b"iris,1,1,nb,accuracy,0.9\n" * 400_000)  # 10 MB from about 20 KB
    (tmp_path / "good.dat").write_text("wine,1,1,nb,accuracy,0.5\n")
    limits = stats.Decompression(max_ratio=50, min_bytes=6 << 20)  # after the first 4 MB block
    log = stats.read_logs(tmp_path, on_error="skip", decompression=limits)
    found = [p for p in log.problems if p.severity == "error"]
    assert len(found) == 1 and found[0].file == str(tmp_path / "bomb.dat.gz")
    assert "decompressed data exceed 50 times the compressed size" in found[0].reason
    kept = (4 << 20) // 25  # the first 4 MiB block of 25-byte lines
    assert f"(a compression bomb?): the rest is not read, the {kept:,} results before are kept" in found[0].reason
    assert set(log["dataset"]) == {"iris", "wine"}  # the rows before the limit, and the other file
    capped = stats.read_logs(tmp_path, on_error="skip", decompression=stats.Decompression(max_bytes=1 << 20))
    assert any(
        p.reason == "decompressed data exceed 1,048,576 bytes (a compression bomb?): the rest is not read, "
        "nothing was read"
        for p in capped.problems
    )
    default = stats.read_logs(tmp_path, on_error="skip")  # 10 MB is under the default min_bytes
    assert not [p for p in default.problems if p.severity == "error"]


# -- issue 13 item 8: numbers that parse as something else ----------------------------------


def test_a_value_below_the_smallest_double_is_an_error_not_a_silent_zero(tmp_path: Path) -> None:
    good = "".join(f"iris,1,{f},nb,acc,0.{f}\n" for f in range(1, 9))
    log = tmp_path / "d.dat"
    log.write_text(good + "iris,2,1,nb,acc,1e-400\niris,2,2,nb,acc,4e-324\niris,2,3,nb,acc,0e-999\n")
    assert problems(log) == [f"{log}:9: value '1e-400' is too small for a double (it would read as 0)"]
    read = stats.read_logs(log, on_error="skip")
    assert read["value"].tolist()[-2:] == [4e-324, 0.0]  # a subnormal and a written zero are kept
    with pytest.raises(stats.LogError, match=r"d.dat:9: value '1e-400' is too small"):
        stats.read_logs(log)


@pytest.mark.parametrize(
    ("line", "field"),
    [("iris,-0,1,nb,acc,0.5", "repeat"), ('iris,1," -0",nb,acc,0.5', "fold"), ("iris,1,-00,nb,acc,0.5", "fold")],
)
def test_a_minus_zero_repeat_or_fold_is_an_error(tmp_path: Path, line: str, field: str) -> None:
    log = tmp_path / "d.dat"
    log.write_text(f"iris,1,1,nb,acc,0.5\n{line}\niris,1,2,knn-0,acc,-0\n")  # -0 as a value or in a name is fine
    assert len(problems(log)) == 1 and problems(log)[0].startswith(f"{log}:2: {field} '")
    assert "has a minus sign" in problems(log)[0]
    assert stats.read_logs(log, on_error="skip")["learner"].tolist() == ["nb", "knn-0"]


def test_a_minus_zero_bin_of_the_wide_format_is_an_error(tmp_path: Path) -> None:
    log = tmp_path / "w.dat"
    log.write_text("#data, learner, repeats, bin, acc\niris, nb, 1, 1, 0.5\niris, nb, 1, -0, 0.6\n")
    assert problems(log) == [f"{log}:3: bin '-0' has a minus sign"]


def test_the_watcher_refuses_the_same_numbers(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.5\n")
    watcher = stats.LogWatcher(log, on_error="skip")
    watcher.poll()
    with log.open("a") as f:
        f.write("iris,1,2,nb,acc,1e-400\niris,-0,3,nb,acc,0.5\n")
    update = watcher.poll()
    assert [p.line for p in update.problems] == [2, 3] and len(update.rows) == 0


def test_check_counts_wide_lines_as_lines_and_says_how_many_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "w.dat"
    rows = [f"iris, {lrn}, 1, {f}, 0.9, 0.8, 0.1, 0.7\n" for f in (1, 2, 3) for lrn in ("nb", "j48")]
    log.write_text("#data, learner, repeats, bin, accuracy, pd, pf, precision\n" + "".join(rows))
    assert main(["check", str(log)]) == 0
    assert "6 lines, 24 results: 1 data sets, 2 learners, 4 criteria" in capsys.readouterr().out
