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

from tui.app._screens import ConfirmScreen, ExportScreen
from tui.widgets import Sidebar, ViewPanel

if TYPE_CHECKING:
    from textual.app import App

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
        from tui.render import as_shown, default_export_name, export_frame, filters_rows

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
        self._ask_path(
            name,
            f"Export the current view as CSV{shown}",
            lambda target, ok, raw: self._write(frame, target, overwrite=ok, raw=raw),
            raw_option=True,
        )

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
        self, default: str, prompt: str, write: Callable[[Path, bool, bool], None], *, raw_option: bool = False
    ) -> None:
        """Ask for a path (default ``default``); confirm before overwriting; then
        ``write(path, overwrite, raw)`` (``raw``: the dialog's raw-CSV box, with ``raw_option``)."""

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

        self.push_screen(ExportScreen(default, prompt, raw_option=raw_option), chosen)

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
