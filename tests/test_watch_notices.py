"""Issue 28, item 6: every change said while following logs.

A watched file emptied, deleted, truncated or replaced (rotated) gets a notice naming it and what
left the view with it (or that nothing did); a wrong path, an empty file, a binary file or a file
of bad lines ends the load with the reason on the status line, never on ``analysing...``; and the
app lists the problems ``rankboard check`` lists, before and after the logs change.

The watched log is tests/data/sweep.dat (30 data sets, 12 learners with long names, acc and
runtime) copied into a folder, next to a second log of its own names; polls are driven one by
one (apps made with ``interval=None``), never waited for.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.conftest import DATA
from tests.test_app import make_app, poll, settle, status
from tui.cli import main
from tui.widgets._problems import ProblemsPanel

SIZE = (80, 24)
SWEEP = DATA / "sweep.dat"
#: The second log: a data set, a learner and a criterion of its own, and one learner of the sweep.
EXTRA = "".join(
    f"zoo,1,{fold},{learner},{criterion},{0.5 + fold / 100}\n"
    for fold in (1, 2, 3)
    for learner in ("nb", "RandomForest-n_estimators=100")
    for criterion in ("acc", "f1")
)


def _column(text: str, index: int) -> set[str]:
    return {line.split(",")[index] for line in text.splitlines() if line}


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """A folder holding sweep.dat and extra.dat."""
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(SWEEP, folder / "sweep.dat")
    (folder / "extra.dat").write_text(EXTRA)
    return folder


def _notices(app) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(n.message, n.severity) for n in app._notifications]


def _check(paths: list[str]) -> list[str]:
    """The problem lines ``rankboard check`` prints (before its blank line and counts)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # (the app under test holds sys.stdout while it runs)
        main(["check", *paths])
    text = out.getvalue()
    return text.split("\n\n", 1)[0].splitlines() if "\n\n" in text else []


def _listed(app) -> list[str]:  # noqa: ANN001
    return list(app.query_one(ProblemsPanel).problems)


# -- a watched file changed: a notice names it and what left the view ---------------------------


async def test_a_file_emptied_is_named_with_what_left_the_view(logs: Path) -> None:
    sweep = logs / "sweep.dat"
    text = SWEEP.read_text()
    datasets, learners = _column(text, 0), _column(text, 3)
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert _notices(app) == []
        sweep.write_text("")  # a run starts over in the same file
        await poll(pilot)
        [(message, severity)] = _notices(app)
        assert severity == "warning"
        got = re.fullmatch(
            rf"{re.escape(str(sweep))} was emptied: data sets (.+) and 27 more; "
            r"learners (.+) and 8 more; criterion runtime left the view",
            message,
        )
        assert got is not None, message
        assert set(got[1].split(", ")) < datasets and len(got[1].split(", ")) == 3
        # the sweep's learners but the one extra.dat has too
        assert set(got[2].split(", ")) < learners - {"RandomForest-n_estimators=100"}
        assert app.model is not None and app.model.datasets == ("zoo",)
        # the emptied file is a problem as check says it (a warning), the views go on with extra.dat
        assert _listed(app) == _check([str(logs)]) == [f"{sweep}: warning: empty file: no results"]
        assert "1 data sets x 2 learners" in status(app)


async def test_a_file_deleted_is_named_with_what_left_the_view(logs: Path) -> None:
    extra = logs / "extra.dat"
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        extra.unlink()
        await poll(pilot)
        assert _notices(app) == [
            (f"{extra} was deleted or moved: data set zoo; learner nb; criterion f1 left the view", "warning")
        ]


async def test_a_file_rotated_is_named_with_what_left_the_view(logs: Path) -> None:
    """Rotation by rename: a new file takes the name (another inode); adult is not in it."""
    sweep = logs / "sweep.dat"
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        fresh = logs / "sweep.tmp"
        fresh.write_text("".join(line for line in SWEEP.read_text().splitlines(True) if not line.startswith("adult,")))
        os.replace(fresh, sweep)
        await poll(pilot)
        assert _notices(app) == [(f"{sweep} was replaced: data set adult left the view", "warning")]
        assert app.model is not None and "adult" not in app.model.datasets


async def test_a_file_truncated_is_named_with_what_left_the_view(logs: Path) -> None:
    """Rewritten shorter in place (the same inode): vote's lines are gone."""
    sweep = logs / "sweep.dat"
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        inode = sweep.stat().st_ino
        sweep.write_text("".join(line for line in SWEEP.read_text().splitlines(True) if not line.startswith("vote,")))
        assert sweep.stat().st_ino == inode
        await poll(pilot)
        assert _notices(app) == [(f"{sweep} was truncated: data set vote left the view", "warning")]


async def test_a_file_replaced_by_the_same_results_says_nothing_left(logs: Path) -> None:
    sweep = logs / "sweep.dat"
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shutil.copy(SWEEP, logs / "sweep.tmp")
        os.replace(logs / "sweep.tmp", sweep)
        await poll(pilot)
        assert _notices(app) == [(f"{sweep} was replaced: nothing left the view", "information")]
        assert app.model is not None and len(app.model.datasets) == 31


async def test_names_in_a_notice_are_literal(logs: Path) -> None:
    """Names from the logs are untrusted: no markup, no terminal escape in the notice."""
    hostile = logs / "hostile.dat"
    hostile.write_text("".join(f"[b]x[/b],1,{f},\x1b]0;pwned\x07,acc,0.{f}\n" for f in (1, 2, 3)))
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hostile.unlink()
        await poll(pilot)
        [notice] = app._notifications
        assert notice.message == (
            f"{hostile} was deleted or moved: data set [b]x[/b]; learner \\x1b]0;pwned\\x07 left the view"
        )
        assert notice.markup is False


# -- logs that give nothing: the load ends, the status line says why, the problems are check's ----


def _bad_inputs(folder: Path) -> dict[str, Path]:
    """Each bad input (not yet made: made by :func:`_make`)."""
    return {
        "wrong path": folder / "no-such.dat",
        "empty file": folder / "empty.dat",
        "binary without a newline": folder / "binary.bin",
        "bytes 0..255": folder / "bytes.bin",
        "only bad lines": folder / "bad.dat",
        "Latin-1 text": folder / "latin.dat",
        "a FIFO": folder / "fifo.dat",
    }


def _make(name: str, path: Path) -> None:
    if name == "empty file":
        path.write_bytes(b"")
    elif name == "binary without a newline":
        path.write_bytes(bytes(b for b in range(256) if b != 10))
    elif name == "bytes 0..255":
        path.write_bytes(bytes(range(256)))
    elif name == "only bad lines":
        path.write_text("sweep results\nadult,1,1,nb,acc\nadult,1,x,nb,acc,0.5\n")
    elif name == "Latin-1 text":  # not UTF-8, and a field short (before: check and the app crashed)
        path.write_bytes("café,1,1,nb,acc\n".encode("latin-1"))
    elif name == "a FIFO":
        os.mkfifo(path)


BAD = list(_bad_inputs(Path()))


@pytest.mark.parametrize("name", BAD)
async def test_logs_without_results_end_the_load_and_say_why(name: str, tmp_path: Path) -> None:
    path = _bad_inputs(tmp_path)[name]
    _make(name, path)
    expected = _check([str(path)])
    assert expected  # check finds a problem in each
    app = make_app([str(path)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.loading is None
        line = status(app)
        assert "analysing" not in line
        first = expected[0]
        more = f" and {len(expected) - 1} more problem{'s' * (len(expected) > 2)}" if len(expected) > 1 else ""
        assert line.startswith(f"no results: {first}{more} | 0 data sets x 0 learners | 0 lines")
        assert _listed(app) == expected
        assert str(app.query_one("#problem", Static).content).startswith(f"no results in the logs: {first}")


async def test_the_app_and_check_list_the_same_problems(tmp_path: Path) -> None:
    """Every bad input at once, next to a good log: the same problems, of the same files."""
    paths = _bad_inputs(tmp_path)
    for name, path in paths.items():
        _make(name, path)
    shutil.copy(SWEEP, tmp_path / "sweep.dat")
    given = [str(tmp_path / "sweep.dat"), *map(str, paths.values())]
    expected = _check(given)
    app = make_app(given, live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listed = _listed(app)
        assert len(listed) == len(set(listed)) and set(listed) == set(expected)
        files = {str(path) for path in paths.values()}
        assert {p for p in files if any(line.startswith(p + ":") for line in listed)} == files


async def test_problems_that_no_longer_hold_leave_the_list_as_they_leave_check(logs: Path) -> None:
    """A file emptied then written again, a file of bad lines rewritten: the app lists what check
    lists after each change (before: an empty file was no problem, and old errors stayed)."""
    sweep, bad = logs / "sweep.dat", logs / "bad.dat"
    bad.write_text("yak,1,1,nb,acc\nyak,1,2,nb,acc,high\n")
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert (
            _listed(app)
            == _check([str(logs)])
            == [
                f"{bad}:1: expected 6 fields, found 5",
                f"{bad}:2: value 'high' is not a number",
            ]
        )
        sweep.write_text("")
        bad.write_text("yak,1,1,nb,acc,0.5\n")  # shorter: read again whole
        await poll(pilot)
        assert _listed(app) == _check([str(logs)]) == [f"{sweep}: warning: empty file: no results"]
        sweep.write_text(SWEEP.read_text())
        await poll(pilot)
        assert _listed(app) == _check([str(logs)]) == []
        assert app.model is not None and len(app.model.datasets) == 32
