"""One runner per output folder: an ``flock`` on ``<out_dir>/.rankboard-runner.lock``, held for the run.

Two runners on one folder (issue 30, item 11) each scan the logs, each find the same units
missing, and each append them: every unit twice, the later copy a duplicate. The second
runner is refused at once, naming the folder and the first runner's PID, rather than made to
wait: a run can take hours, a runner waiting that long looks hung, and once the first has
finished there is nothing left for it to do (a rerun resumes, and skips what is complete). Two
runs meant to share the work are better given two folders.

The lock is the kernel's (``fcntl.flock``), not the file's existence: it goes with the process,
so a runner killed by SIGKILL or a power cut leaves no stale lock to clear by hand. The file
stays (removing it while another runner has it open would let a third lock a new one); it holds
the PID of the runner that last held it, said in the refusal.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, no lock
    fcntl = None  # type: ignore[assignment]

#: The lock file's name in the output folder (hidden; the readers take ``*.dat`` only).
LOCK_NAME = ".rankboard-runner.lock"


class FolderBusy(RuntimeError):
    """Another runner is writing to the output folder (its PID in the message)."""


@contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """Hold ``out``'s runner lock while inside; :class:`FolderBusy` when another process holds it.

    Raises
    ------
    FolderBusy
        Another runner holds the folder: ``<out> is in use by another runner (PID n) ...``.
    """
    if fcntl is None:  # pragma: no cover
        yield
        return
    path = out / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FolderBusy(_busy(out, _holder(fd))) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # lets go of the lock


def _holder(fd: int) -> str:
    """The PID the lock file names (the runner holding it), or a word saying it is not known yet."""
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return f"PID {text}" if text.isdigit() else "PID not yet written"


def _busy(out: Path, holder: str) -> str:
    return (
        f"{out} is in use by another runner ({holder}, holding {out / LOCK_NAME}): two runners on one "
        "folder would write every unit twice; wait for it to finish (a rerun then resumes, skipping "
        "the complete units) or give another out_dir"
    )
