"""The process's memory: the allocator's policy for large arrays, and the memory budget of a load
(``--memory``: logs bigger than the budget are aggregated by blocks, :func:`stats.aggregate_logs`).

``tune_allocator`` is called once by the app's loader (:class:`tui.model.Loader`), not by
``check`` or ``report``, which meet their bar without it and would pay the page faults of
memory mapped afresh for every large block (measured: within the noise, ~10% slower at most): it
asks glibc to give every block of 1 MiB or more back to the system when it is freed. glibc's
default raises that threshold each time such a block is freed (up to 32 MiB), after which the
reading's freed 4 MB parse buffers and the columns let go of while a log is summarised stay in
the process (measured on the 5,000,000-line log: 35 MB more at the app's peak). Elsewhere (not
glibc) it does nothing.

``remove_spills`` removes the spill directories of bounded mode when a signal ends the process
(:mod:`tui.signals`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

#: Blocks of at least this many bytes are mapped on their own and unmapped when freed.
MMAP_THRESHOLD = 1 << 20
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number
_tuned = False


def tune_allocator() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` (once); whether it was set."""
    global _tuned
    if _tuned or not sys.platform.startswith("linux"):
        return _tuned
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _tuned = bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):  # not glibc (musl has no mallopt): nothing to tune
        _tuned = False
    return _tuned


_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes of a size such as ``200M``, ``2G``, ``1.5G``, ``512k`` or ``1000000`` (powers of 1024;
    an optional trailing ``B`` or ``iB``: ``200MB``, ``2GiB``). ``ValueError`` names what is wrong."""
    raw = text.strip().upper()
    for suffix in ("IB", "B"):
        if raw.endswith(suffix):
            raw = raw.removesuffix(suffix)
            break
    unit = raw[-1:] if raw[-1:] in _UNITS else ""
    number = raw[: len(raw) - len(unit)].strip()
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"--memory: not a size: {text!r} (e.g. 200M, 2G)") from None
    if not value > 0 or value != value or value == float("inf"):
        raise ValueError(f"--memory must be positive, got {text!r}")
    return max(1, int(value * _UNITS[unit]))


def available_memory() -> int | None:
    """Bytes of memory available to a new process: ``MemAvailable`` of /proc/meminfo (Linux), else
    the free physical pages (``os.sysconf``), else None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, AttributeError):
        return None


#: The budget when the available memory cannot be read: 2 GiB.
FALLBACK_BUDGET = 2 << 30


def default_budget() -> int:
    """Half of the available memory (:func:`available_memory`), or :data:`FALLBACK_BUDGET`."""
    available = available_memory()
    return FALLBACK_BUDGET if available is None else max(1, available // 2)


def human(size: float) -> str:
    """``204 MB``, ``1.9 GB``: a size in decimal units, as ``/usr/bin/time`` readers expect."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{int(size)} B"


STDIN = "-"


def bounded_mode(paths: list[str], memory: str | None) -> tuple[bool, int, int | None]:
    """Whether the logs go over the budget (then they are aggregated by blocks), the budget and
    the logs' size (uncompressed estimate: :func:`stats.log_size`, every member of a gzip file
    counted). ``memory``: ``--memory``'s text, or None for :func:`default_budget`.

    Standard input (``-``) cannot be sized before it is read: with ``--memory`` given, the logs
    are aggregated by blocks whatever their size (then the size is None); without it, standard
    input counts 0, as before (the default budget is half of the memory available)."""
    global _spilling
    from stats import log_size

    budget = default_budget() if memory is None else parse_size(memory)
    size = log_size(*paths)
    if memory is not None and STDIN in paths:
        _spilling = True
        return True, budget, None
    _spilling = _spilling or size > budget
    return size > budget, budget, size


def bounded_note(budget: int, size: int | None) -> str:
    """The sentence that says a load is in bounded mode (``size`` None: standard input's is not known)."""
    if size is None:
        return (
            "bounded memory: aggregating by blocks (standard input cannot be sized before it is read; "
            f"the memory budget is {human(budget)})"
        )
    return f"bounded memory: aggregating by blocks (the logs, {human(size)}, exceed the memory budget, {human(budget)})"


#: Set once bounded mode is chosen: only then may a spill directory exist (nothing is imported
#: on a signal before).
_spilling = False


def remove_spills() -> None:
    """Remove the spill directories of bounded mode, if it was chosen (a cleanup of
    :func:`tui.signals.install`: without it a killed ``report --memory`` left gigabytes of
    ``rankboard_spill_*`` behind)."""
    if _spilling:
        from stats import SpilledLogs

        SpilledLogs.remove_all()
