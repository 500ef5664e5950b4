"""Lazy package attributes (PEP 562): a package's public names imported when first used.

``stats``, ``stats.logs`` and ``stats.cells`` map each public name to the module that defines it,
so that importing a package costs nothing until a name is used: ``rankboard --help`` imports no
numpy, ``rankboard check`` no pandas (:func:`stats.check_logs`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy(
    package: str, exports: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: a name of ``exports`` is imported from its
    module when first asked for and kept in ``namespace`` (the package's globals), so that later
    lookups do not come back here."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
