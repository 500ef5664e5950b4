"""Issue 30, item 11: the watcher follows what a file became and takes back what no longer holds.

A watched file that is no longer a regular file -- a FIFO, a device, a symbolic link to nothing --
loses its rows (``removed``, with its reason) and is a problem said once, as ``rankboard check``
says it; a file that cannot be read (permission denied) likewise. When the file can be read
again, its problem is taken back (``resolved``) and its rows come back. In the app, the notice
says the file is no longer a regular file (once), and the problems panel and the status line drop
a problem that no longer holds: a file become readable, a bad line fixed while a reload failed.

The app's logs are tests/data/sweep.dat (30 data sets, 12 learners with long names) copied into a
folder beside a small log of its own names; polls are driven one by one (``interval=None``).
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import stats
import stats.logs._watch
from tests.conftest import DATA
from tests.follow import Follow
from tests.test_app import make_app, poll, press, settle, status
from tui.cli import main
from tui.widgets._problems import ProblemsPanel

SIZES = [(80, 24), (120, 40)]
SWEEP = DATA / "sweep.dat"
A = "iris,1,1,nb,accuracy,0.9\niris,1,2,nb,accuracy,0.8\n"
B = "wine,1,1,knn,accuracy,0.7\n"
#: The second log of the app tests: a data set (zoo), a learner (nb) and a criterion (f1) of its own.
EXTRA = "".join(f"zoo,1,{fold},nb,{criterion},0.{fold}\n" for fold in (1, 2, 3) for criterion in ("acc", "f1"))


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _device(path: Path) -> None:
    path.symlink_to("/dev/null")  # a character device (os.stat follows the link), made without mknod


def _dangling(path: Path) -> None:
    path.symlink_to(path.with_name("target.log"))  # its target does not exist (and is no *.dat)


#: What a file becomes, and what check says of it then.
BECOMES: dict[str, tuple[Callable[[Path], None], str]] = {
    "a FIFO": (_fifo, "not a regular file (a FIFO): not read"),
    "a device": (_device, "not a regular file (a device): not read"),
    "a symbolic link to nothing": (_dangling, "no such file or directory"),
}


def _check_problems(path: Path) -> list[str]:
    return [str(p) for p in stats.read_logs(path, on_error="skip").problems]


def _rows(follow: Follow) -> list[tuple[str, float]]:
    frame = follow.frame()
    return sorted(zip(frame["learner"].astype(str), frame["value"].tolist()))


def _read_rows(path: Path) -> list[tuple[str, float]]:
    log = stats.read_logs(path, on_error="skip")
    return sorted(zip(log["learner"].astype(str), log["value"].tolist()))


@pytest.mark.parametrize("kind", list(BECOMES))
def test_a_file_no_longer_regular_loses_its_rows_and_is_said_once(kind: str, tmp_path: Path) -> None:
    # Before: its rows stayed (a device, a FIFO: "not a regular file" every poll; a link to nothing:
    # not a word), and nothing was taken back when it was a file again.
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text(A)
    b.write_text(B)
    watcher = Follow(tmp_path)
    watcher.poll()
    make, reason = BECOMES[kind]
    a.unlink()
    make(a)
    update = watcher.poll()
    said = f"{a}: {reason}"
    assert update.removed == [str(a)] and update.reasons == {str(a): "not regular"}
    assert [str(p) for p in update.problems] == [said] == _check_problems(tmp_path)
    assert _rows(watcher) == [("knn", 0.7)] == _read_rows(tmp_path)  # the rows read_logs reads now
    assert not watcher.poll().changed  # said once
    a.unlink()
    a.write_text(A.replace("0.8", "0.6"))  # a file again
    back = watcher.poll()
    assert back.added == [str(a)] and [str(p) for p in back.resolved] == [said] and back.problems == ()
    assert _rows(watcher) == [("knn", 0.7), ("nb", 0.6), ("nb", 0.9)] == _read_rows(tmp_path)


def test_a_link_whose_target_comes_back_is_read(tmp_path: Path) -> None:
    a, target = tmp_path / "a.dat", tmp_path / "target.log"
    a.symlink_to(target)
    watcher = Follow(tmp_path)
    first = watcher.poll()
    assert [str(p) for p in first.problems] == [f"{a}: no such file or directory"] == _check_problems(tmp_path)
    target.write_text(A)
    update = watcher.poll()
    assert update.added == [str(a)] and [str(p) for p in update.resolved] == [f"{a}: no such file or directory"]
    assert _rows(watcher) == [("nb", 0.8), ("nb", 0.9)]


def _unreadable(monkeypatch: pytest.MonkeyPatch, name: str) -> list[bool]:
    """``name`` cannot be read while the returned flag's one item is True (as for a user without
    the permission: the tests run as root, whom a mode does not stop)."""
    locked = [True]
    real = stats.logs._watch._is_gzip

    def is_gzip(path):  # noqa: ANN001, ANN202 - the watcher's first read of a file, each poll
        if locked[0] and Path(path).name == name:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(stats.logs._watch, "_is_gzip", is_gzip)
    return locked


def test_a_file_that_became_readable_takes_its_problem_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: "permission denied" every poll, and never taken back once the file was read.
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text(A)
    b.write_text(B)
    locked = _unreadable(monkeypatch, "a.dat")
    watcher = Follow(tmp_path)
    first = watcher.poll()
    assert [str(p) for p in first.problems] == [f"{a}: permission denied"] and first.added == [str(b)]
    assert not watcher.poll().changed  # said once
    locked[0] = False
    update = watcher.poll()
    assert update.added == [str(a)] and [str(p) for p in update.resolved] == [f"{a}: permission denied"]
    assert _rows(watcher) == [("knn", 0.7), ("nb", 0.8), ("nb", 0.9)]


def test_a_file_that_became_unreadable_loses_its_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text(A)
    b.write_text(B)
    watcher = Follow(tmp_path)
    watcher.poll()
    a.write_text(A + "iris,1,3,nb,accuracy,0.5\n")  # it changed: the next poll reads it
    locked = _unreadable(monkeypatch, "a.dat")
    update = watcher.poll()
    assert update.removed == [str(a)] and update.reasons == {str(a): "unreadable"}
    assert [str(p) for p in update.problems] == [f"{a}: permission denied"]
    assert _rows(watcher) == [("knn", 0.7)]
    locked[0] = False
    assert watcher.poll().added == [str(a)] and len(_rows(watcher)) == 4


# -- the app: the notice, the problems panel and the status line follow ---------------------------


def _check(paths: list[str]) -> list[str]:
    """The problem lines ``rankboard check`` prints (before its blank line and counts)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", *paths])
    text = out.getvalue()
    return text.split("\n\n", 1)[0].splitlines() if "\n\n" in text else []


def _listed(app) -> list[str]:  # noqa: ANN001
    return list(app.query_one(ProblemsPanel).problems)


def _notices(app) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(n.message, n.severity) for n in app._notifications]


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(SWEEP, folder / "sweep.dat")
    (folder / "extra.dat").write_text(EXTRA)
    return folder


@pytest.mark.parametrize("size", SIZES)
async def test_the_app_drops_a_file_become_a_device_and_says_so_once(logs: Path, size: tuple[int, int]) -> None:
    # Before: zoo's rows stayed in the views, with no notice; the device was listed as a problem.
    extra = logs / "extra.dat"
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert app.model is not None and "zoo" in app.model.datasets
        extra.unlink()
        _device(extra)
        await poll(pilot)
        notice = (
            f"{extra} is no longer a regular file: data set zoo; learner nb; criterion f1 left the view",
            "warning",
        )
        assert _notices(app) == [notice]
        said = f"{extra}: not a regular file (a device): not read"
        assert _listed(app) == _check([str(logs)]) == [said]
        assert app.model is not None and "zoo" not in app.model.datasets and "nb" not in app.model.learners
        assert "30 data sets x 12 learners | 7200 lines | 1 files" in status(app)
        await poll(pilot)
        assert _notices(app) == [notice] and _listed(app) == [said]  # once
        extra.unlink()
        extra.write_text(EXTRA)  # a file again: read, its problem gone
        await poll(pilot)
        assert _listed(app) == _check([str(logs)]) == []
        assert app.model is not None and "zoo" in app.model.datasets


@pytest.mark.parametrize("size", SIZES)
async def test_a_file_become_readable_leaves_the_problems_and_the_status(tmp_path: Path, size: tuple[int, int]) -> None:
    # Before: "not a regular file (a FIFO)" stayed in the problems panel once the file was read.
    log = tmp_path / "sweep.dat"
    os.mkfifo(log)
    app = make_app([str(log)], live=True, interval=None)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        said = f"{log}: not a regular file (a FIFO): not read"
        assert _listed(app) == _check([str(log)]) == [said]
        assert status(app).startswith(f"no results: {said} |")
        log.unlink()
        shutil.copy(SWEEP, log)
        await poll(pilot)
        assert _listed(app) == _check([str(log)]) == []
        line = status(app)
        assert "no results" not in line and "30 data sets x 12 learners | 7200 lines | 1 files" in line


async def test_a_problem_fixed_while_a_reload_failed_leaves_the_list(
    logs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reload that fails (as one bad byte made it fail, issue 30 item 1) leaves the loader a fresh
    watcher; its first poll says every problem again. Before: the list kept the old problems beside
    them, so a bad line fixed meanwhile stayed listed for good."""
    bad = logs / "bad.dat"
    bad.write_text("yak,1,1,nb,acc,0.5\nyak,1,2,nb,acc,high\n")
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert _listed(app) == [f"{bad}:2: value 'high' is not a number"]
        real = stats.LogWatcher.poll
        failing = [True]

        def poll_once_failing(self, **options):  # noqa: ANN001, ANN003, ANN202
            if failing[0]:
                failing[0] = False
                raise RuntimeError("internal error: a block could not be read")
            return real(self, **options)

        monkeypatch.setattr(stats.LogWatcher, "poll", poll_once_failing)
        await press(pilot, "r")
        assert any("internal error" in message for message, _ in _notices(app))
        bad.write_text("yak,1,1,nb,acc,0.5\nyak,1,2,nb,acc,0.25\n")  # fixed by rewriting the file
        await poll(pilot)
        assert _listed(app) == _check([str(logs)]) == []
        assert app.model is not None and "yak" in app.model.datasets
