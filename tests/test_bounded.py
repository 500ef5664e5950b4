"""Logs bigger than memory (issue 17, item 5): read by blocks into partitions on disk, aggregated a
partition at a time. With a budget smaller than the log, ``check`` and ``report`` give what the
in-memory path gives (the aggregate bit for bit, the completeness, the views of per-cell medians);
the views of raw results say they are unavailable. (Peak memory: benchmarks/bench_memory.py.)"""

from __future__ import annotations

import gzip
import json
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest

from stats import LoadCancelled, aggregate, aggregate_logs, completeness, log_size, read_logs
from stats.logs import _spill
from tests.test_aggregate import assert_same
from tui.cli import main
from tui.memory import bounded_mode, default_budget, parse_size
from tui.model._model import BOUNDED


def write_logs(folder: Path) -> list[Path]:
    """Three files: long format with an incomplete cell, a bad line, a rerun (duplicates) and a
    name with a control character; a wide-format file; a gzip file. About 40,000 rows."""
    rng = np.random.default_rng(17)
    a = folder / "a.dat"
    lines = [
        f"d{d},{r},{f},l{x},c{c},{rng.random():.4f}\n"
        for d in range(40)
        for r in range(1, 5)
        for f in range(1, 6)
        for x in range(8)
        for c in range(4)
        if not (d == 3 and x == 2 and f == 5)  # an incomplete cell
    ]
    lines.insert(100, "d0,1,1,l0,c0,not-a-number\n")  # an error, skipped
    lines += lines[500:530]  # a rerun: 30 duplicates, the later lines win
    lines.append("bell\x07set,1,1,l0,c0,0.5\n")  # a name with a control character
    a.write_text("".join(lines))
    b = folder / "b.dat"
    head = "#data, learner, goal, train, test, repeats, bin, c0, c9\n"
    b.write_text(
        head
        + "".join(
            f"w{d}, l{x}, 1, 10, 5, {r}, {f}, 0.{d}{x}{f}, 0.{f}{r}\n"
            for d in range(20)
            for x in range(3)
            for r in range(1, 3)
            for f in range(1, 4)
        )
    )
    c = folder / "c.dat.gz"
    c.write_bytes(
        gzip.compress(
            "".join(
                f"g{d},1,{f},l{x},c1,{rng.random():.3f}\n" for d in range(30) for f in range(1, 11) for x in range(5)
            ).encode()
        )
    )
    return [a, b, c]


@pytest.fixture(scope="module")
def logs() -> list[str]:
    folder = Path(tempfile.mkdtemp())
    return [str(p) for p in write_logs(folder)]


def test_the_aggregate_and_completeness_are_the_in_memory_ones(
    logs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_spill, "MAX_PARTITIONS", 7)  # a few partitions, each with many pairs
    bounded = aggregate_logs(*logs, memory=1 << 20)
    assert bounded.partitions == 7 and bounded.spilled > 0
    log = read_logs(*logs, on_error="skip")
    assert_same(bounded.table, aggregate(log))
    assert bounded.table.equals(aggregate(log))  # bit for bit, same order, same labels
    want = completeness(log)
    got = bounded.completeness
    assert got.counts.equals(want.counts) and got.cells.equals(want.cells) and got.design.equals(want.design)
    assert (got.lines, got.file_lines, got.summary()) == (want.lines, want.file_lines, want.summary())
    assert bounded.lines == log.lines and bounded.files == log.files


def repeated_lines(problems: tuple) -> set[tuple[str, int]]:
    """(file, line) of every line a duplicate warning names as repeating an earlier one."""
    out = set()
    for p in problems:
        run = re.match(r"lines (\d+)-(\d+) repeat", p.reason)
        if run:
            out |= {(p.file, n) for n in range(int(run[1]), int(run[2]) + 1)}
        elif p.reason.startswith("duplicate of"):
            out.add((p.file, p.line))
    return out


def is_duplicate(p: object) -> bool:
    return "the later line" in p.reason  # type: ignore[attr-defined]


def test_every_problem_is_found_at_its_file_and_line(logs: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same errors and warnings; the duplicates are the same lines, grouped per partition (a run
    of repeated lines whose pairs fall in several partitions is one warning per partition)."""
    monkeypatch.setattr(_spill, "MAX_PARTITIONS", 5)
    bounded = aggregate_logs(*logs, memory=1 << 20)
    log = read_logs(*logs, on_error="skip")
    assert [str(p) for p in bounded.problems if not is_duplicate(p)] == [
        str(p) for p in log.problems if not is_duplicate(p)
    ]
    assert any(p.severity == "error" and p.line == 101 for p in bounded.problems)
    assert any("control characters" in p.reason for p in bounded.problems)
    want = repeated_lines(log.problems)
    assert len(want) == 30 and repeated_lines(bounded.problems) == want


def test_the_temporary_directory_goes_even_when_the_read_is_cancelled(logs: list[str], tmp_path: Path) -> None:
    def stop(done: int, total: int | None) -> None:
        if done:
            raise LoadCancelled("stop")

    with pytest.raises(LoadCancelled):
        aggregate_logs(*logs, memory=1 << 20, progress=stop, directory=str(tmp_path))
    assert list(tmp_path.iterdir()) == []
    aggregate_logs(*logs, memory=1 << 20, directory=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_check_with_a_budget_smaller_than_the_log_prints_the_same(
    logs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    size = log_size(*logs)
    assert main(["check", *logs, "--memory", str(size // 4)]) == 1  # the bad line is an error
    bounded = capsys.readouterr()
    assert main(["check", *logs]) == 1
    memory = capsys.readouterr()
    assert "bounded memory: aggregating by blocks" in bounded.err and "bounded" not in memory.err
    # the duplicate warnings are grouped per partition (so they may count more): all else is the same
    drop = lambda text: [x for x in text.splitlines() if "the later line" not in x and "warning(s)" not in x]  # noqa: E731
    assert drop(bounded.out) == drop(memory.out)
    assert "3 file(s), 1 error(s)," in bounded.out and "3 file(s), 1 error(s)," in memory.out
    summary = memory.out.split("warning(s)\n")[1]
    assert summary in bounded.out and "missing" in summary  # the incomplete cell, listed the same


def clean_log(folder: Path) -> Path:
    rng = np.random.default_rng(5)
    path = folder / "clean.dat"
    path.write_text(
        "".join(f"d{d},1,{f},l{x},acc,{rng.random():.4f}\n" for d in range(25) for f in range(1, 11) for x in range(6))
    )
    return path


def without_note(text: str) -> list[str]:
    """The lines of a report less the note of bounded mode (and the blank line after it, in markdown)."""
    lines, out = text.splitlines(), []
    for i, line in enumerate(lines):
        if BOUNDED in line or (not line and i and BOUNDED in lines[i - 1] and lines[i - 1].endswith(".")):
            continue
        out.append(line)
    return out


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_report_with_a_budget_smaller_than_the_log_shows_the_same_views(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = str(clean_log(tmp_path))
    budget = str(os.path.getsize(log) // 3)
    for view in ("ranks", "tests", "pairs", "cd"):
        assert main(["report", log, "--view", view, "--format", fmt, "--memory", budget]) == 0
        bounded = capsys.readouterr()
        assert main(["report", log, "--view", view, "--format", fmt]) == 0
        memory = capsys.readouterr()
        assert "bounded memory" in bounded.err
        if fmt == "json":
            got, want = json.loads(bounded.out), json.loads(memory.out)
            got.pop("notes", None), want.pop("notes", None)
            assert got == want
        else:
            assert without_note(bounded.out) == memory.out.splitlines()


def test_report_says_the_views_of_raw_results_are_unavailable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = str(clean_log(tmp_path))
    for view in ("quartiles", "folds", "all"):
        assert main(["report", log, "--view", view, "--memory", "1K"]) == 0
        assert BOUNDED in capsys.readouterr().out
    csv = ["report", log, "--view", "quartiles", "--format", "csv", "-o", str(tmp_path / "q.csv"), "--memory", "1K"]
    assert main(csv) == 2
    said = capsys.readouterr().err
    assert (
        f"nothing to export in the quartiles view: quartiles, fold-level views and learning curves: {BOUNDED}" in said
    )


def test_sizes_and_budgets(tmp_path: Path) -> None:
    assert [parse_size(t) for t in ("200M", "2G", "1.5g", "512k", "1000", "200MB", "2GiB")] == [
        200 << 20,
        2 << 30,
        3 << 29,
        512 << 10,
        1000,
        200 << 20,
        2 << 30,
    ]
    for bad in ("abc", "-1M", "0", "M", "", "nan"):
        with pytest.raises(ValueError, match="--memory"):
            parse_size(bad)
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        available = next(
            int(x.split()[1]) * 1024 for x in meminfo.read_text().splitlines() if x.startswith("MemAvailable")
        )
        assert abs(default_budget() - available // 2) < available // 10  # half of what is available now
    text = tmp_path / "a.dat"
    text.write_text("a,1,1,b,c,0.5\n" * 1000)
    packed = tmp_path / "b.dat.gz"
    packed.write_bytes(gzip.compress(text.read_bytes()))
    assert log_size(text) == 14000 and log_size(packed) == 14000 and log_size(tmp_path) == 28000
    fifo = tmp_path / "pipe.dat"
    os.mkfifo(fifo)
    assert log_size(text, fifo) == 14000  # a FIFO counts 0 and is never opened (it would block)
    assert bounded_mode([str(text)], "10K") == (True, 10240, 14000)
    assert bounded_mode([str(text)], "1M") == (False, 1 << 20, 14000)


# -- the app -------------------------------------------------------------------------------------


def test_the_loader_aggregates_by_blocks_over_the_budget_and_says_so(tmp_path: Path) -> None:
    from tui.model import Loader

    log = clean_log(tmp_path)
    phases: list[str] = []
    loader = Loader([str(log)], memory="1K")
    result = loader.load(reload=True, phase=phases.append)
    assert result is not None and result.bounded is not None and result.bounded.startswith("bounded memory")
    assert phases[0] == result.bounded and phases[-1].startswith("bounded: ")
    assert phases[-1].endswith(" partitions") and phases[-1].split()[1] == phases[-1].split()[3]  # n of n
    assert result.lines == 25 * 10 * 6 and result.files == 1
    memory = Loader([str(log)]).load(reload=True)
    assert memory is not None and memory.bounded is None
    assert result.model._agg.equals(memory.model._agg)  # the same aggregate
    sel = result.model.default_selection()
    got, want = result.model.analyze(sel), memory.model.analyze(sel)
    assert got.ranks is not None and want.ranks is not None
    assert got.ranks.medians.equals(want.ranks.medians) and got.ranks.average.equals(want.ranks.average)
    assert got.quartiles is None and BOUNDED in " ".join(got.notes)
    assert loader.load(reload=False) is None  # no live updates in bounded mode


def test_the_load_bar_says_the_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the "bounded memory" phase the reading's label says the mode (as README shows it).
    The bar is replaced through monkeypatch, which puts LoadBar back after the test (set on the
    class by hand, it broke every later test that reads the real bar's progress)."""
    from tui.widgets import LoadBar

    calls: list[str] = []
    bar = LoadBar.__new__(LoadBar)
    bar._say = calls.append  # type: ignore[method-assign]
    bar.set_class = lambda *a: None  # type: ignore[method-assign]
    bar.prefix = ""
    bar.phase("bounded memory: aggregating by blocks (the logs, 1 MB, exceed the memory budget, 1 kB)")
    monkeypatch.setattr(LoadBar, "bar", property(lambda self: type("B", (), {"update": lambda *a, **k: None})()))
    bar.reading(12_600_000, 40_800_000)
    assert calls[-1] == "bounded: 12.6 MB of 40.8 MB"


async def test_the_app_in_bounded_mode_says_so_and_stops_following(tmp_path: Path) -> None:
    from tests.test_app import make_app, settle
    from tui.widgets import ProblemsPanel  # noqa: F401

    log = clean_log(tmp_path)
    app = make_app([str(log)], memory="1K", live=True, interval=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.model is not None and app.live is False
        notices = " ".join(str(n.message) for n in app._notifications)
        assert "bounded memory: aggregating by blocks" in notices and "live updates off" in notices
        assert BOUNDED in (app._problem or "")
