"""A followed file: what a :class:`~stats.logs._watch.LogWatcher` knows of it (``_File``) and what
a poll reads of it (``_Plan``); its standing: what ``rankboard check`` would say of a text file's
end that reading its complete lines did not (the watcher's ``standing`` problems), those problems
kept up to date poll after poll; why a file is read again whole; and why a file listed is not
read at all (and when that no longer holds)."""

from __future__ import annotations

import codecs
from collections.abc import Container
from dataclasses import dataclass

from stats.logs._formats import BadField, LogProblem, LogSpec, decode_line
from stats.logs._paths import Source

#: Bytes after a file's last newline looked at for what ``rankboard check`` would say of its last line.
_TAIL = 1 << 16
_BOM = b"\xef\xbb\xbf"


@dataclass
class _File:
    """What the watcher knows of one file: identity, bytes read (complete lines), next line."""

    index: int
    identity: tuple[int, int, int]  # device, inode, and mtime for gzip files (read whole)
    offset: int = 0
    next_line: int = 1
    spec: LogSpec | None = None
    seen: bytes = b""  # the bytes just before ``offset``: a rewrite in place changes them
    mtime: int = 0
    head: bytes = b""  # the first bytes read (up to HEAD): a rewrite in place changes them too
    rows: int = 0  # results read since the file was read from its start (counted as check counts them)
    errors: int = 0  # errors found since then


@dataclass
class _Plan:
    """One file a poll reads: bytes ``[state.offset, stop)``, into ``state`` (a copy, kept once
    the poll is done)."""

    source: Source
    state: _File
    stop: int
    gz: bool
    mtime: int


def _fresh(plan: _Plan) -> int | None:
    """The bytes of a plan that reads a text file from its start (read ahead when small), else None."""
    state = plan.state
    return None if plan.gz or state.offset or state.spec is not None or state.next_line != 1 else plan.stop


def _ending(plan: _Plan) -> tuple[LogProblem, ...]:
    """:func:`stats.logs._file_end.file_end` of a plan's text file (nothing of a gzip file: read
    whole, as check reads it)."""
    state = plan.state
    if plan.gz:
        return ()
    header = state.spec is not None
    return file_end(
        plan.source.name, state.offset, rows=state.rows, errors=state.errors, header=header, next_line=state.next_line
    )


def file_end(name: str, offset: int, *, rows: int, errors: int, header: bool, next_line: int) -> tuple[LogProblem, ...]:
    """What ``rankboard check`` would say of the end of the text file ``name`` as it is now, read
    up to ``offset`` (complete lines: ``rows`` results, ``errors`` errors; ``header``: a wide
    header was read; ``next_line``: the line number after them).

    A file with no result and no error is "empty file: no results" (or "no results in the file"
    after a wide header), as check says. A last line without its newline is binary data (an
    error) when it has a NUL byte or bytes that are not UTF-8 -- but for a character cut at the
    end, which the writer may be finishing; any other last line is a line being written (check
    would call it torn or keep it with a warning): it is read when its newline comes.
    """
    try:
        with open(name, "rb") as f:
            f.seek(offset)
            tail = f.read(_TAIL)
    except OSError:
        return ()  # gone: the next poll sees it removed
    if offset == 0 and tail.startswith(_BOM):
        tail = tail[len(_BOM) :]  # as check reads a first line
    if b"\n" in tail:
        return ()  # a line ended since: the next poll reads it
    if not tail.strip():
        if rows or errors:
            return ()
        reason = "empty file: no results" if not header else "no results in the file"
        return (LogProblem(name, None, reason, "warning"),)
    if not header and (errors or tail.lstrip().startswith(b"#")):
        return ()  # check stops at a bad header; a header being written is no result yet
    if b"\x00" not in tail:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(tail)  # not final: a character may be cut
            return ()
        except UnicodeDecodeError:
            pass
    try:
        decode_line(tail)
    except BadField as exc:
        if str(exc).startswith("binary data"):
            return (LogProblem(name, next_line, str(exc)),)
    return ()


def why_read_again(before: tuple[int, int, int], offset: int, size: int, identity: tuple[int, int, int]) -> str:
    """Why a file read before (``before``: its device, inode and mtime then; ``offset`` bytes read)
    is read again whole, now ``size`` bytes of ``identity``: ``"replaced"`` (another inode: renamed
    over, or rotated), ``"emptied"``, ``"truncated"`` (shorter than what was read) or
    ``"rewritten"`` (in place, or a gzip or columnar file that changed)."""
    if before[:2] != identity[:2]:
        return "replaced"
    if size == 0:
        return "emptied"
    return "truncated" if size < offset else "rewritten"


def standing_update(
    reported: dict[str, tuple[LogProblem, ...]],
    present: Container[str],
    ends: list[tuple[str, tuple[LogProblem, ...]]],
    reloaded: set[str],
) -> tuple[list[LogProblem], list[LogProblem]]:
    """The standing problems a poll finds and those it takes back, ``reported`` (per file, what is
    reported now) brought up to date: the problems of files no longer ``present`` are taken back;
    of each file read (``ends``: its name and :func:`file_end`'s problems now), those that no
    longer hold (all of a file read again, ``reloaded``: its problems are reported afresh, as its
    lines' are)."""
    found: list[LogProblem] = []
    withdrawn: list[LogProblem] = []
    for name in [name for name in reported if name not in present]:  # removed or vanished
        withdrawn.extend(reported.pop(name))
    for name, now in ends:
        before = reported.pop(name, ())
        if name in reloaded:
            withdrawn.extend(before)
            before = ()
        withdrawn.extend(p for p in before if p not in now)
        found.extend(p for p in now if p not in before)
        if now:
            reported[name] = now
    return found, withdrawn


#: Why a file read before is dropped now (``WatchUpdate.reasons`` of a file in ``removed`` that is
#: still listed): it is no longer a regular file (a FIFO, a device, a socket, a directory, or a
#: symbolic link to nothing), or it can no longer be read (permission denied, an I/O error).
NOT_REGULAR, UNREADABLE = "not regular", "unreadable"


def unread_update(
    reported: dict[str, LogProblem], now: dict[str, LogProblem]
) -> tuple[list[LogProblem], list[LogProblem]]:
    """Of the files listed but not read (per file, why: ``reported`` by earlier polls, ``now`` by
    this one), the problems to report (new, or changed: a FIFO that became a device) and those to
    take back (the file became readable, or is gone, or is not read for another reason now).

    Each is said once while it holds, as the problems of whole paths are, and taken back when it
    no longer does: a problem that holds no more must not stay on the caller's list.
    """
    found = [p for name, p in now.items() if reported.get(name) != p]
    withdrawn = [p for name, p in reported.items() if now.get(name) != p]
    return found, withdrawn
