"""``rankboard report -o FILE``: refuse to overwrite unless ``--force``, write atomically, say what was done.

Rules (issue 13, item 6): a new file is written; an existing file is replaced only with
``--force``, keeping its permission bits; a symbolic link is written through only with
``--force`` (the file it points to is replaced, the link stays); a directory or another
non-regular file (FIFO, device, socket) is never replaced. Messages name the file asked for
(and the file a link points to), never the temporary file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from tui.atomic import resolve_target, write_atomic


class OutputRefused(Exception):
    """``-o FILE`` would overwrite without ``--force``, or FILE cannot be replaced at all."""


def _refused_exists(path: Path) -> OutputRefused:
    return OutputRefused(f"{path} exists; not overwritten (--force replaces it)")


def check_output(path: str | Path, *, force: bool) -> None:
    """Refuse ``path`` before any work is done (:class:`OutputRefused` says why).

    Checked again when writing: a file created meanwhile is still never clobbered.
    """
    p = Path(path).expanduser()
    if p.is_symlink():
        if not force:
            raise OutputRefused(
                f"{p} is a symbolic link (to {os.readlink(p)}); not written "
                "(--force writes to the file it points to and keeps the link)"
            )
        _check_kind(resolve_target(p))
        return
    if p.exists():
        _check_kind(p)
        if not force:
            raise _refused_exists(p)


def _check_kind(target: Path) -> None:
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise OutputRefused(f"{target} is a directory; give a file name")
    if not stat.S_ISREG(mode):
        raise OutputRefused(f"{target} is not a regular file (a FIFO, socket or device); not replaced")


def write_output(text: str | Callable[[BinaryIO], object], path: str | Path, *, force: bool) -> str:
    """Write ``text`` (or what ``text(handle)`` writes: a binary file) to ``path`` under the rules
    above; return the sentence saying what was done.

    Raises
    ------
    OutputRefused
        As :func:`check_output`, also for a file that appeared since.
    OSError
        The write failed (the message names the file, not the temporary one).
    """
    check_output(path, force=force)
    p = Path(path).expanduser()
    link = p.absolute() if p.is_symlink() else None
    target = resolve_target(p)
    existed = target.exists()
    try:
        data = text.encode("utf-8") if isinstance(text, str) else None
        written = write_atomic(text if data is None else lambda h: h.write(data), p, overwrite=force)
    except FileExistsError:
        raise _refused_exists(p) from None
    mode = f"mode {stat.S_IMODE(os.stat(written).st_mode):04o} kept"
    if link is not None:
        did = f"replaced {written} ({mode})" if existed else f"wrote {written} (a new file)"
        return f"{did} through the symbolic link {link}, which is kept (--force)"
    if existed:
        return f"replaced {written} (--force; {mode})"
    return f"wrote {written}"
