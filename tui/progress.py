"""A rich progress bar for :func:`stats.runner._cv.run_cv` (rich lives here, never in ``stats``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def rich_progress(
    *, console: Console | None = None, transient: bool = False
) -> Iterator[Callable[[int, int, str], None]]:
    """A ``progress(done_units, total_units, description)`` callback drawing a rich bar with ETA.

    Parameters
    ----------
    console : rich.console.Console, optional
        Where to draw (default: rich's console on stdout).
    transient : bool
        Remove the bar when the block ends.

    Yields
    ------
    callable
        The callback for ``run_cv(..., progress=...)``.

    Notes
    -----
    The first call creates the task with the units already done (resumed), so the
    ETA is estimated from the units actually run, not from the instant jump of the
    resumed ones.

    Examples
    --------
    >>> import io
    >>> with rich_progress(console=Console(file=io.StringIO(), width=80)) as progress:
    ...     progress(3, 10, "resumed 3 of 10 units")
    ...     progress(4, 10, "iris r1 f4 nb")
    """
    bar = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=transient,
    )
    task: list[TaskID] = []

    def update(done: int, total: int, description: str) -> None:
        if not task:
            task.append(bar.add_task(description, total=total, completed=done))
        else:
            bar.update(task[0], completed=done, total=total, description=description)

    with bar:
        yield update
