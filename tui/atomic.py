"""Write a text file atomically: a temporary file in the same folder, fsync, then ``os.replace``."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text_atomic(text: str, path: str | Path) -> Path:
    """Write ``text`` (UTF-8, LF) to ``path`` so readers see the old file or the new one, never half.

    Returns the absolute path. The temporary file is removed on any failure.
    """
    target = Path(path).expanduser().absolute()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
