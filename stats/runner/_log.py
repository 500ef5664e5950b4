"""The runner's side of a long-format log: resume scanning, torn-tail repair, atomic unit appends.

A *unit* is one (dataset, repeat, fold, learner): its criterion lines and its
``runtime`` line, always written by one ``write`` followed by ``fsync``. A SIGKILL
can therefore leave only a prefix of the last unit's bytes: whole lines of an
incomplete unit, then perhaps a torn line without its newline. :func:`scan`
finds the complete units and the byte offset where that incomplete tail starts.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

Key = tuple[str, int, int, str]


@dataclass(frozen=True)
class Scan:
    """What a log already holds.

    Attributes
    ----------
    complete : frozenset of (dataset, repeat, fold, learner)
        Units with every required criterion line.
    keep : int
        Bytes to keep: the file is truncated to this length before appending
        (its length when there is nothing to repair).
    size : int
        The file's length when scanned.
    """

    complete: frozenset[Key]
    keep: int
    size: int

    @property
    def needs_repair(self) -> bool:
        """True when a torn line or an incomplete last unit has to be cut off."""
        return self.keep < self.size


def _parse(text: str, where: str) -> tuple[Key, str] | None:
    """One line -> (key, criterion), None for a blank line; the loader's rules."""
    fields = next(csv.reader([text], skipinitialspace=True), [])
    if not fields or all(not f.strip() for f in fields):
        return None
    if len(fields) != 6:
        raise ValueError(f"{where}: expected 6 fields, found {len(fields)}")
    dataset, repeat, fold, learner, criterion, value = (f.strip() for f in fields)
    try:
        key = (dataset, int(repeat), int(fold), learner)
    except ValueError:
        raise ValueError(f"{where}: repeat and fold must be integers") from None
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{where}: value {value!r} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{where}: value {value!r} is not finite")
    return key, criterion


def scan(path: Path, required: Sequence[str], allowed: Sequence[str] | None = None) -> Scan:
    """Read a log written by the runner and decide what to keep.

    Parameters
    ----------
    path : Path
        The log; a missing file is an empty log.
    required : sequence of str
        The lines a complete unit has (the criteria and ``"runtime"``).
    allowed : sequence of str, optional
        Every criterion the runner writes; a line with another criterion is refused (a log
        of another kind: a regression or sequence log where a classification
        cross-validation resumes, say). Default: anything.

    Returns
    -------
    Scan
        Complete units and the length to keep.

    Raises
    ------
    ValueError
        ``file:line: reason`` for a newline-terminated line that does not parse, a
        criterion not in ``allowed``, or an incomplete unit that is not at the end of the
        file (the runner never rewrites the middle of a log).

    Notes
    -----
    Only the bytes after the last line of the last complete unit may be cut: the
    fragment after the last newline (a torn line: a runner's unit always ends with
    a newline, so this is the unit that was being written) and the whole lines of
    incomplete unit just before it (the same unit, written in part). Only one unit can
    be torn: the whole lines of a second incomplete unit before it are "not at the end".
    """
    if not path.exists():
        return Scan(frozenset(), 0, 0)
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1  # everything before `end` is whole lines
    records: list[tuple[int, int, Key, str]] = []  # (byte offset, line number, key, criterion)
    start = 0
    for lineno, raw in enumerate(data[:end].split(b"\n")[:-1], start=1):
        where = f"{path}:{lineno}"
        try:
            text = raw.decode("utf-8-sig" if lineno == 1 else "utf-8").rstrip("\r")
        except UnicodeDecodeError:
            raise ValueError(f"{where}: not UTF-8") from None
        parsed = _parse(text, where)
        if parsed is not None:
            if allowed is not None and parsed[1] not in allowed:
                raise ValueError(
                    f"{where}: criterion {parsed[1]!r} is not one this runner writes ({', '.join(allowed)}): "
                    "a log of another kind; use another out_dir"
                )
            records.append((start, lineno, *parsed))
        start += len(raw) + 1
    seen: dict[Key, set[str]] = {}
    for _, _, key, criterion in records:
        seen.setdefault(key, set()).add(criterion)
    complete = frozenset(k for k, got in seen.items() if set(required) <= got)
    keep = end
    torn: Key | None = None  # the one unit whose write was cut short
    for offset, _, key, _ in reversed(records):
        if key in complete or (torn is not None and key != torn):
            break
        torn, keep = key, offset
    for offset, lineno, key, _ in records:
        if offset < keep and key not in complete:
            missing = ", ".join(sorted(set(required) - seen[key]))
            raise ValueError(
                f"{path}:{lineno}: unit {key} lacks {missing} and is not at the end of the file; "
                "the runner never rewrites the middle of a log: remove its lines or use another out_dir"
            )
    return Scan(complete, keep, len(data))


def repair(path: Path, keep: int) -> None:
    """Truncate ``path`` to ``keep`` bytes (the incomplete tail found by :func:`scan`) and fsync."""
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())


def unit_bytes(key: Key, values: Sequence[tuple[str, float]]) -> bytes:
    """The lines of one unit, csv-quoted where a name needs it, values as ``repr(float)``.

    >>> unit_bytes(("a, b", 1, 2, "nb"), [("pd", 0.1), ("runtime", 2e-05)])
    b'"a, b",1,2,nb,pd,0.1\\n"a, b",1,2,nb,runtime,2e-05\\n'
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for criterion, value in values:
        writer.writerow([key[0], key[1], key[2], key[3], criterion, repr(float(value))])
    return buffer.getvalue().encode("utf-8")


class Appender:
    """An append-only log: each :meth:`write` is one ``os.write`` of a whole unit, then fsync."""

    def __init__(self, path: Path) -> None:
        new = not path.exists()
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if new:  # make the new directory entry durable too
            _fsync_dir(path.parent)

    def write(self, payload: bytes) -> None:
        """Append ``payload`` and fsync before returning."""
        view = memoryview(payload)
        while view:  # os.write on a regular file writes everything; loop in case it does not
            view = view[os.write(self._fd, view) :]
        os.fsync(self._fd)

    def close(self) -> None:
        """Close the file descriptor."""
        os.close(self._fd)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # some platforms cannot open a directory
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
