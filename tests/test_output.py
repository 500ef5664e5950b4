"""``rankboard report -o``: never overwrites unasked, keeps modes and links, names the real file
(issue 13, item 6). Each of these overwrote, changed or misnamed something before."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pandas as pd
import pytest

import tui.atomic
from tests.conftest import SAMPLES
from tui.cli import main
from tui.output import OutputRefused, write_output
from tui.render._csv import write_csv

C45 = str(SAMPLES / "c45_demsar.dat")


def report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["report", C45, "--view", "ranks", *args])
    return code, capsys.readouterr().err


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def no_temporary_left(folder: Path) -> bool:
    return not [p for p in os.listdir(folder) if p.endswith(".tmp")]


def test_an_existing_file_is_refused_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "f"
    target.write_text("PRECIOUS\n")
    code, err = report(capsys, "-o", str(target))
    assert code == 1
    assert err == f"rankboard: {target} exists; not overwritten (--force replaces it)\n"
    assert target.read_text() == "PRECIOUS\n"
    assert no_temporary_left(tmp_path)


def test_the_refusal_comes_before_the_logs_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "f"
    target.write_text("PRECIOUS\n")
    assert main(["report", str(tmp_path / "missing.dat"), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert "exists; not overwritten" in err and "missing.dat" not in err


def test_force_replaces_and_keeps_the_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "f"
    target.write_text("PRECIOUS\n")
    target.chmod(0o600)
    code, err = report(capsys, "-o", str(target), "--force")
    assert code == 0
    assert err == f"rankboard: replaced {target} (--force; mode 0600 kept)\n"
    assert "average rank" in target.read_text()
    assert mode(target) == 0o600
    assert no_temporary_left(tmp_path)


def test_a_new_file_is_written_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "new.txt"
    code, err = report(capsys, "-o", str(target))
    assert code == 0 and err == f"rankboard: wrote {target}\n"
    assert "average rank" in target.read_text()


def test_a_symbolic_link_is_refused_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "real.txt"
    real.write_text("PRECIOUS\n")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    code, err = report(capsys, "-o", str(link))
    assert code == 1
    assert f"{link} is a symbolic link (to real.txt); not written" in err and "--force" in err
    assert link.is_symlink() and real.read_text() == "PRECIOUS\n"


def test_force_writes_through_a_symbolic_link_and_keeps_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "real.txt"
    real.write_text("PRECIOUS\n")
    real.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    code, err = report(capsys, "-o", str(link), "--force")
    assert code == 0
    assert err == (
        f"rankboard: replaced {real} (mode 0640 kept) through the symbolic link {link}, which is kept (--force)\n"
    )
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert "average rank" in real.read_text() and mode(real) == 0o640
    assert no_temporary_left(tmp_path)


def test_force_through_a_dangling_link_creates_the_file_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to("later.txt")
    code, err = report(capsys, "-o", str(link), "--force")
    assert code == 0 and "(a new file) through the symbolic link" in err
    assert link.is_symlink() and "average rank" in (tmp_path / "later.txt").read_text()


def test_a_symbolic_link_loop_is_named_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    code, err = report(capsys, "-o", str(tmp_path / "a"), "--force")
    assert code == 1
    assert "symbolic link loop" in err and str(tmp_path / "a") in err


def test_directories_and_fifos_are_never_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    code, err = report(capsys, "-o", str(folder), "--force")
    assert code == 1 and err == f"rankboard: {folder} is a directory; give a file name\n"
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    code, err = report(capsys, "-o", str(fifo), "--force")
    assert code == 1 and "is not a regular file" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and folder.is_dir()
    assert no_temporary_left(tmp_path)


def test_errors_name_the_target_not_the_temporary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "x.csv"
    code, err = report(capsys, "-o", str(target))
    assert code == 1
    assert str(target) in err and ".tmp" not in err and "No such file or directory" in err


def test_a_failed_replace_names_the_target_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(src))  # as the kernel names the source

    target = tmp_path / "x.csv"
    target.write_text("old\n")
    monkeypatch.setattr(tui.atomic.os, "replace", full)
    code, err = report(capsys, "-o", str(target), "--force")
    assert code == 1
    assert err == f"rankboard: [Errno {errno.ENOSPC}] No space left on device: '{target}'\n"
    assert target.read_text() == "old\n" and no_temporary_left(tmp_path)


def test_a_file_created_after_the_check_is_not_clobbered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "x.txt"
    real_link = os.link

    def racing_link(src: object, dst: object) -> None:  # another process creates the file first
        Path(str(dst)).write_text("theirs\n")
        real_link(src, dst)

    monkeypatch.setattr(tui.atomic.os, "link", racing_link)
    with pytest.raises(OutputRefused, match="exists; not overwritten"):
        write_output("ours\n", target, force=False)
    assert target.read_text() == "theirs\n" and no_temporary_left(tmp_path)


def test_force_without_output_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = report(capsys, "--force")
    assert code == 2 and "--force applies to -o FILE only" in err


def test_the_apps_confirmed_export_keeps_mode_and_link(tmp_path: Path) -> None:
    # The app asks before overwriting, then writes with overwrite=True: the same rules hold.
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    real.chmod(0o600)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    written = write_csv(pd.DataFrame({"x": [1.0]}), link, overwrite=True)
    assert written == real and link.is_symlink()
    assert real.read_text() == "x\n1.0\n" and mode(real) == 0o600
    with pytest.raises(FileExistsError):
        write_csv(pd.DataFrame({"x": [2.0]}), link)  # a link counts as an existing file
