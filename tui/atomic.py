"""Write a text file atomically: a temporary file in the same folder, fsync, then one step into place."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def _temporary(target: Path) -> tuple[int, Path]:
    """A new file beside ``target``, opened for writing, created as ``open`` creates files: mode
    0o666 less the umask (``tempfile.mkstemp`` makes 0o600 files: an export only its writer reads)."""
    while True:
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue


def write_text_atomic(text: str, path: str | Path, *, overwrite: bool = True) -> Path:
    """Write ``text`` (UTF-8, as given) to ``path`` so readers see the old file or the new one, never half.

    The text goes to a temporary file in the target's folder (flushed and fsynced), which then
    takes the target's name in one step: ``os.replace`` when ``overwrite``, else a hard link that
    fails if the name exists (so a file created meanwhile is never clobbered). No temporary file
    is left behind, whatever happens. Returns the absolute path.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is False.
    """
    target = Path(path).expanduser().absolute()
    exists = FileExistsError(f"{target} exists; choose another name or allow overwriting")
    if not overwrite and target.exists():
        raise exists
    fd, tmp = _temporary(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise exists from None
            except OSError:  # no hard links on this file system: check, then rename
                if target.exists():
                    raise exists from None
                os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    return target
