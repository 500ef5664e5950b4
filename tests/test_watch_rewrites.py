"""The watcher under rotation and rewrites (issue 13, item 7): files vanishing mid-poll are no
error, rewrites in place are seen however they keep the size or the last bytes, and a path
problem that no longer holds is taken back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import stats
import stats.logs._group
import stats.logs._watch
from stats.logs._paths import Source
from tests.follow import Follow
from tests.test_app import make_app, poll, settle
from tui.widgets._problems import ProblemsPanel


def values(watcher: Follow) -> list[float]:
    return sorted(watcher.frame()["value"].tolist())


def test_a_file_vanishing_between_listing_and_reading_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: FileNotFoundError from poll() (141 of ~1,000 polls under rotation; a toast each time).
    (tmp_path / "a.dat").write_text("iris,1,1,nb,accuracy,0.9\n")
    watcher = Follow(tmp_path)
    real_expand = stats.logs._watch.expand

    def listed_then_gone(paths):  # noqa: ANN001, ANN202
        sources, problems = real_expand(paths)
        return [*sources, Source(str(tmp_path / "rotated.dat"), tmp_path / "rotated.dat")], problems

    monkeypatch.setattr(stats.logs._watch, "expand", listed_then_gone)
    update = watcher.poll()
    assert update.problems == () and values(watcher) == [0.9]


def test_a_file_vanishing_between_plan_and_read_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.dat").write_text("iris,1,1,nb,accuracy,0.9\n")
    (tmp_path / "b.dat").write_text("iris,1,1,knn,accuracy,0.8\n")
    watcher = Follow(tmp_path)
    real_window = stats.logs._watch._Window

    def window(path, start, stop):  # noqa: ANN001, ANN202
        if Path(path).name == "b.dat":
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_window(path, start, stop)

    real_open = stats.logs._group._open_regular

    def open_regular(path):  # noqa: ANN001, ANN202 - new small files are read ahead (stats.logs._group)
        if Path(path).name == "b.dat":
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_open(path)

    monkeypatch.setattr(stats.logs._watch, "_Window", window)
    monkeypatch.setattr(stats.logs._group, "_open_regular", open_regular)
    update = watcher.poll()
    assert update.problems == () and update.added == [str(tmp_path / "a.dat")] and values(watcher) == [0.9]
    monkeypatch.setattr(stats.logs._watch, "_Window", real_window)
    monkeypatch.setattr(stats.logs._group, "_open_regular", real_open)
    update = watcher.poll()  # b.dat is there after all: read now
    assert update.added == [str(tmp_path / "b.dat")] and values(watcher) == [0.8, 0.9]


def test_a_vanished_file_between_new_ones_leaves_theirs_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the new files' indices are given before the read, and only the files read got names
    after it: with b.dat gone, c.dat's rows pointed one past the names (IndexError in poll)."""
    for name, value in (("a", 0.9), ("b", 0.8), ("c", 0.7)):
        (tmp_path / f"{name}.dat").write_text(f"iris,1,1,{name},accuracy,{value}\n")
    monkeypatch.setattr(stats.logs._watch, "WORKERS", 1)  # every file read by _read, in order
    real_window = stats.logs._watch._Window

    def window(path, start, stop):  # noqa: ANN001, ANN202
        if Path(path).name == "b.dat":
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_window(path, start, stop)

    monkeypatch.setattr(stats.logs._watch, "_Window", window)
    watcher = Follow(tmp_path)
    update = watcher.poll()
    assert update.problems == () and values(watcher) == [0.7, 0.9]
    assert watcher.frame().set_index("learner")["value"].to_dict() == {"a": 0.9, "c": 0.7}
    monkeypatch.setattr(stats.logs._watch, "_Window", real_window)
    assert watcher.poll().added == [str(tmp_path / "b.dat")] and values(watcher) == [0.7, 0.8, 0.9]


def test_a_file_read_ahead_then_gone_adds_no_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """New small files are read ahead in the pool (stats.logs._group); one gone before its state
    is taken (its last bytes read again) is as if not listed: none of its rows, no error."""
    (tmp_path / "a.dat").write_text("iris,1,1,nb,accuracy,0.9\n")
    (tmp_path / "b.dat").write_text("iris,1,1,knn,accuracy,0.8\n")
    (tmp_path / "c.dat").write_text("iris,1,1,lr,accuracy,0.7\n")
    monkeypatch.setattr(stats.logs._watch, "WORKERS", 2)
    watcher = Follow(tmp_path)
    real_tail = stats.logs._watch._tail

    def tail(path, stop):  # noqa: ANN001, ANN202
        if Path(path).name == "b.dat":
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_tail(path, stop)

    monkeypatch.setattr(stats.logs._watch, "_tail", tail)
    update = watcher.poll()
    assert update.problems == () and values(watcher) == [0.7, 0.9]
    assert update.added == [str(tmp_path / "a.dat"), str(tmp_path / "c.dat")]
    monkeypatch.setattr(stats.logs._watch, "_tail", real_tail)
    assert watcher.poll().added == [str(tmp_path / "b.dat")] and values(watcher) == [0.7, 0.8, 0.9]


def _touch_later(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_a_same_size_rewrite_in_place_is_read_again(tmp_path: Path) -> None:
    # Before: same size, same last 64 bytes' position: the old values stayed until `r`.
    log = tmp_path / "a.dat"
    tail = "".join(f"wine,1,{f},nb,accuracy,0.5\n" for f in range(1, 5))  # the last 64 bytes stay
    log.write_text("iris,1,1,nb,accuracy,0.9\n" + tail)
    watcher = Follow(tmp_path)
    watcher.poll()
    with log.open("r+") as f:
        f.write("iris,1,1,nb,accuracy,0.1\n")
    _touch_later(log)
    update = watcher.poll()
    assert update.reloaded == [str(log)] and values(watcher) == [0.1] + [0.5] * 4


def test_a_rewrite_that_keeps_the_last_bytes_is_read_again(tmp_path: Path) -> None:
    # Truncated and regrown: the 64 bytes before the old end are the same, the head is not.
    log = tmp_path / "a.dat"
    tail = "".join(f"wine,1,{f},nb,accuracy,0.5\n" for f in range(1, 5))  # > 64 bytes
    log.write_text("iris,1,1,nb,accuracy,0.9\n" + tail)
    watcher = Follow(tmp_path)
    watcher.poll()
    log.write_text("iris,1,1,nb,accuracy,0.2\n" + tail + "wine,1,5,nb,accuracy,0.5\n")
    update = watcher.poll()
    assert update.reloaded == [str(log)]
    assert values(watcher) == [0.2] + [0.5] * 5  # 0.9 is gone: it was rewritten


def test_a_path_problem_that_no_longer_holds_is_taken_back(tmp_path: Path) -> None:
    watcher = Follow(tmp_path)
    first = watcher.poll()
    looked_for = "no logs in this directory (looked for *.dat, *.dat.gz and Parquet or Arrow files)"
    assert [p.reason for p in first.problems] == [looked_for]
    (tmp_path / "a.dat").write_text("iris,1,1,nb,accuracy,0.9\n")
    update = watcher.poll()
    assert [p.reason for p in update.resolved] == [looked_for]


async def test_the_problems_panel_follows_the_current_poll(tmp_path: Path) -> None:
    # Before: "no *.dat files in this directory" stayed after the file came back.
    logs = tmp_path / "logs"
    logs.mkdir()
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert any("no logs in this directory" in p for p in app.query_one(ProblemsPanel).problems)
        (logs / "a.dat").write_text("iris,1,1,nb,accuracy,0.9\niris,1,1,knn,accuracy,0.8\n")
        await poll(pilot)
        assert not any("no logs in this directory" in p for p in app.query_one(ProblemsPanel).problems)
        assert app.model is not None and app.model.learners == ("nb", "knn")
