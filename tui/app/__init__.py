"""The Textual explorer: the app, its commands and key bindings, dialogs and widgets."""

from tui.app._app import RankboardApp, create_app
from tui.app._commands import help_rows

__all__ = [
    "RankboardApp",
    "create_app",
    "help_rows",
]
