"""The Textual explorer: the app, its commands and key bindings, dialogs and widgets.

Lazy (PEP 562): ``rankboard --help`` reads :func:`help_rows` without importing the app.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {"RankboardApp": "tui.app._app", "create_app": "tui.app._app", "help_rows": "tui.app._commands"}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'tui.app' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from tui.app._app import RankboardApp, create_app  # noqa: F401
    from tui.app._commands import help_rows  # noqa: F401
