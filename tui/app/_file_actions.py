"""The app's file dialogs: export the current view as CSV (``e``) and save the selection as a view
spec (``s``). Ask for a path, confirm before overwriting, write atomically, say where it went.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from tui.app._screens import FIGURE_SUFFIXES, ConfirmScreen, ExportScreen
from tui.widgets import Sidebar, ViewPanel

if TYPE_CHECKING:
    from textual.app import App

    from tui.formats.figure import FigureOptions
    from tui.model import Analysis, Selection

    _Base = App[None]
else:
    _Base = object


class FileActions(_Base):
    """Mixed into the app: needs ``analysis``, ``selection``, ``view``, ``clock`` and ``paths`` (the logs
    as given on the command line)."""

    paths: list[str]
    analysis: Analysis | None
    selection: Selection | None
    view: str
    clock: Callable[[], datetime]

    def action_export(self) -> None:
        from tui.render import as_shown, default_export_name, export_frame, figure_views, filters_rows

        analysis, view = self.analysis, self.view
        if analysis is None:
            self.notify("nothing to export yet", severity="warning")
            return
        needle = self.query_one(Sidebar).filter_text
        order = cast(ViewPanel, self.query_one(f"#{view}")).shown_order()
        try:
            frame = export_frame(analysis, view)
            datasets, learners = order if order is not None else (None, None)
            frame = as_shown(frame, view, needle=needle, datasets=datasets, learners=learners)
        except Exception as exc:  # noqa: BLE001 - reported, never a traceback
            self.notify(f"cannot export the {view} view: {exc}", severity="error", markup=False)
            return
        name = default_export_name(analysis.selection.criterion, view, now=self.clock())
        shown = f" (as shown: the rows that contain {needle!r})" if needle and filters_rows(view) else ""
        figure = view in figure_views()

        def write(target: Path, ok: bool, raw: bool) -> None:
            if figure and target.suffix.lower() in FIGURE_SUFFIXES:
                self._write_figure(analysis, view, target, overwrite=ok)
            else:
                self._write(frame, target, overwrite=ok, raw=raw)

        self._ask_path(
            name,
            f"Export the current view as CSV{shown}" + (" or as a figure" if figure else ""),
            write,
            raw_option=True,
            figure_option=figure,
        )

    def _write_figure(self, analysis: Analysis, view: str, target: Path, *, overwrite: bool) -> None:
        """Draw ``view`` as a figure (its format from ``target``'s suffix) in a worker thread:
        matplotlib's import and the drawing take a second, the app stays live meanwhile."""
        from tui.formats.figure import FigureOptions

        options = FigureOptions(fmt=target.suffix.lower().lstrip("."))
        self.notify(f"drawing the {view} view as {options.fmt.upper()}…", markup=False)
        self.run_worker(
            lambda: self._figure_written(analysis, view, options, target, overwrite),
            thread=True,
            group="figure",
            exit_on_error=False,
        )

    def _figure_written(
        self, analysis: Analysis, view: str, options: FigureOptions, target: Path, overwrite: bool
    ) -> None:
        """The worker's part: draw, write atomically (never over a file unless confirmed), say where."""
        from tui.atomic import write_atomic
        from tui.formats.figure import FiguresUnavailable
        from tui.render import draw_figure

        try:
            data = draw_figure(analysis, view, options)
            written = write_atomic(lambda h: h.write(data), target, overwrite=overwrite)
        except FiguresUnavailable as exc:
            self.call_from_thread(self.notify, str(exc), severity="error", markup=False)
            return
        except (OSError, ValueError) as exc:
            self.call_from_thread(self.notify, f"export failed: {exc}", severity="error", markup=False)
            return
        self.call_from_thread(self.notify, f"exported {Path(written).resolve()}", markup=False)

    def action_save_spec(self) -> None:
        from tui.model import save_spec
        from tui.render import stamped_name

        selection = self.selection
        if selection is None:
            self.notify("nothing to save yet", severity="warning")
            return
        name = stamped_name(selection.criterion, "view", ".toml", now=self.clock())

        def save(target: Path, _overwrite: bool, _raw: bool) -> None:
            try:
                written = save_spec(selection, target, self.view, logs=self.paths)
            except OSError as exc:
                self.notify(f"saving the view spec failed: {exc}", severity="error", markup=False)
                return
            # the spec names its logs: the command needs no path, and works as printed from here
            self.notify(f"saved {written} (rankboard report --spec {shell_path(target)})", markup=False)

        self._ask_path(name, "Save the current selection as a view spec (TOML)", save)

    def _ask_path(
        self,
        default: str,
        prompt: str,
        write: Callable[[Path, bool, bool], None],
        *,
        raw_option: bool = False,
        figure_option: bool = False,
    ) -> None:
        """Ask for a path (default ``default``); confirm before overwriting; then
        ``write(path, overwrite, raw)`` (``raw``: the dialog's raw-CSV box, with ``raw_option``;
        ``figure_option``: the dialog's figure box, which swaps the name's suffix)."""

        def chosen(choice: tuple[str, bool] | None) -> None:
            if not choice:
                return
            path, raw = choice
            target = Path(path).expanduser()
            if target.exists():
                self.push_screen(
                    ConfirmScreen(f"{target} exists. Overwrite it?"),
                    lambda ok: write(target, True, raw) if ok else None,
                )
            else:
                write(target, False, raw)

        self.push_screen(ExportScreen(default, prompt, raw_option=raw_option, figure_option=figure_option), chosen)

    def _write(self, frame: Any, target: Path, *, overwrite: bool, raw: bool = False) -> None:
        from tui.render import write_csv

        try:
            written = write_csv(frame, target, overwrite=overwrite, raw=raw)
        except (OSError, ValueError) as exc:
            self.notify(f"export failed: {exc}", severity="error", markup=False)
            return
        self.notify(f"exported {Path(written).resolve()}", markup=False)


def shell_path(path: Path) -> str:
    """``path`` as a shell argument that names it from the current directory: ``./`` and the path
    below it when it lies there (``./`` also keeps a name beginning with ``-`` from reading as an
    option), else absolute; quoted (``shlex.quote``) when the shell would split or expand it.

    >>> shell_path(Path(os.getcwd()) / "a b.toml")
    "'./a b.toml'"
    """
    full, here = os.path.abspath(path), os.getcwd()
    try:
        inside = os.path.commonpath([full, here]) == here
    except ValueError:  # another drive (Windows)
        inside = False
    return shlex.quote("./" + Path(os.path.relpath(full, here)).as_posix() if inside else full)
