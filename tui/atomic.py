"""Write a text file atomically: a temporary file in the same folder, fsync, then one step into place.

Nothing is left behind (issue 30, item 11): the temporary file is removed when the write fails,
on SIGTERM, SIGHUP and SIGINT (:func:`remove_pending`, installed by :mod:`tui.signals`),
and, after a SIGKILL or a power cut, by the next write into the same folder: the file is named
``.NAME.rankboard-PID-XXXXXXXX.tmp`` and held with ``flock`` while it is written, so a later
writer removes it once its process is gone (:func:`clear_stale`).
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; a stale file is judged by its PID alone
    fcntl = None  # type: ignore[assignment]

#: A temporary file of :func:`write_atomic`: the writer's PID, then a random token.
_TEMPORARY = re.compile(r"^\..+\.rankboard-(\d+)-[0-9a-f]{8}\.tmp$", re.DOTALL)
#: The temporary files being written by this process (removed by a signal: :func:`remove_pending`).
_PENDING: set[Path] = set()


def _temporary(target: Path) -> tuple[int, Path]:
    """A new file beside ``target``, opened for writing, created as ``open`` creates files: mode
    0o666 less the umask (``tempfile.mkstemp`` makes 0o600 files: an export only its writer reads).

    It is named for this process (:data:`_TEMPORARY`) and held with an exclusive ``flock`` until it is
    closed (the kernel lets go when the process dies, even by SIGKILL); the stale temporary files
    of writers that are gone are removed first (:func:`clear_stale`)."""
    clear_stale(target.parent)
    while True:
        tmp = target.with_name(_temporary_name(target.name))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        _PENDING.add(tmp)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else holds it
            except OSError:  # a file system without flock: the PID alone keeps it
                pass
        return fd, tmp


def _temporary_name(name: str) -> str:
    """``.NAME.rankboard-PID-TOKEN.tmp``, NAME shortened (from its end) so that the whole stays
    within the 255 bytes a file name may have."""
    tail = f".rankboard-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    while len(os.fsencode(f".{name}{tail}")) > 255 and name:
        name = name[:-1]
    return f".{name}{tail}"


def clear_stale(folder: Path) -> list[Path]:
    """Remove the temporary files of :func:`write_atomic` in ``folder`` whose writer is gone: its
    PID names no running process and nobody holds the file's ``flock``. Both must say so: a PID
    can be reused (the file is then kept until that process ends too), and a writer on another
    machine sharing the folder has a PID meaningless here (its ``flock`` keeps its file). Files
    that cannot be examined or removed are left. Returns the files removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        found = _TEMPORARY.match(entry.name)
        if found is None or _alive(int(found.group(1))) or _held(entry.path):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    """Whether ``pid`` names a process (one of another user's counts: it may be writing)."""
    if pid <= 0:
        return True  # not a writer's PID: never judged stale
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, someone else's
        return True
    return True


def _held(path: str) -> bool:
    """Whether a process holds ``path``'s ``flock`` (True too when it is not a regular file, or
    cannot be opened: only what is known to be stale is removed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        if fcntl is None:  # pragma: no cover - no flock: the PID alone says
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        return False
    finally:
        os.close(fd)


def remove_pending() -> None:
    """Remove the temporary files this process is writing (from a signal handler: no lock is
    taken, and a file already gone is no error)."""
    for tmp in list(_PENDING):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def resolve_target(path: str | Path) -> Path:
    """The file a write to ``path`` goes to: ``path`` itself (absolute), or, for a symbolic link,
    the file it points to in the end (which need not exist yet).

    Raises
    ------
    OSError
        ``ELOOP``, naming ``path``, when the links never end in a file.
    """
    link = Path(path).expanduser().absolute()
    if not link.is_symlink():
        return link
    try:
        return Path(os.path.realpath(link, strict=True))
    except FileNotFoundError:  # a dangling link: the file it names is created
        return Path(os.path.realpath(link))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "symbolic link loop", str(link)) from None
        raise


def write_text_atomic(text: str, path: str | Path, *, overwrite: bool = True) -> Path:
    """Write ``text`` (UTF-8, as given) to ``path`` atomically: :func:`write_atomic`."""
    data = text.encode("utf-8")
    return write_atomic(lambda handle: handle.write(data), path, overwrite=overwrite)


def write_atomic(write: Callable[[BinaryIO], object], path: str | Path, *, overwrite: bool = True) -> Path:
    """Have ``write(handle)`` write a file's bytes, and put them at ``path`` so readers see the old
    file or the new one, never half (a Parquet file of a whole log is written as it is made).

    The bytes go to a temporary file in the target's folder (flushed and fsynced), which then
    takes the target's name in one step: ``os.replace`` when ``overwrite``, else a hard link that
    fails if the name exists (so a file created meanwhile is never clobbered). No temporary file
    is left behind, whatever happens. Returns the absolute path of the file written.

    When ``overwrite`` replaces a file, the new file keeps the old one's permission bits (a 0600
    file stays 0600). A symbolic link at ``path`` counts as an existing file: with ``overwrite``
    the file it points to is replaced (or created) and the link is kept (:func:`resolve_target`).
    Errors name ``path`` (or the file the link points to), never the temporary file.

    Raises
    ------
    FileExistsError
        ``path`` exists (or is a symbolic link) and ``overwrite`` is False.
    IsADirectoryError, OSError
        ``path`` is a directory or another non-regular file (a FIFO, a device): never replaced.
    """
    link = Path(path).expanduser().absolute()
    exists = FileExistsError(f"{link} exists; choose another name or allow overwriting")
    if not overwrite and (link.is_symlink() or link.exists()):
        raise exists
    target = resolve_target(link)
    mode = _existing_mode(target)
    try:
        fd, tmp = _temporary(target)
    except OSError as exc:
        raise _naming(exc, target) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            if mode is not None and overwrite:
                os.fchmod(handle.fileno(), mode)  # before it takes the name: never visible with other bits
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise exists from None
            except OSError:  # no hard links on this file system: check, then rename
                if target.exists() or target.is_symlink():
                    raise exists from None
                os.replace(tmp, target)
    except FileExistsError:
        raise
    except OSError as exc:
        raise _naming(exc, target) from None
    finally:
        if tmp.exists():
            tmp.unlink()
        _PENDING.discard(tmp)
    return target


def _existing_mode(target: Path) -> int | None:
    """The permission bits of the regular file ``target``, None when there is none; an error for
    a directory or another kind of file (a replace would put a regular file in its place)."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _naming(exc, target) from None
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(target))
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a FIFO, socket or device): not replaced", str(target))
    return stat.S_IMODE(st.st_mode)


def _naming(exc: OSError, target: Path) -> OSError:
    """``exc`` as the same kind of error about ``target`` (not about the temporary file)."""
    if exc.errno is None:
        return OSError(f"{target}: {exc}")
    return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(target))
