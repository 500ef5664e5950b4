"""numpy's ``f2py`` and ``testing`` loaded when used, not on every start (issue 32).

scipy (1.15 on) imports its array-API layer with ``scipy.special``, and that layer copies numpy's
namespace (``from numpy import *`` in ``scipy._lib.array_api_compat.numpy``). That imports every
submodule numpy loads lazily, among them ``numpy.f2py`` (the Fortran wrapper generator, with
``charset_normalizer``) and ``numpy.testing`` (with ``unittest``): 0.1 s of each start of the app and
of ``rankboard report`` on a quiet 2-core machine, and 7 MB of peak memory, for modules rankboard
never calls.

:func:`defer_numpy_tools` (called first thing by the ``rankboard`` command) arranges that, when
scipy is first imported, those two are put in ``sys.modules`` as modules of
:class:`importlib.util.LazyLoader`: the copy binds the module objects without loading them, and the
first use of one of their names (``numpy.testing.assert_allclose``, ``from numpy.testing import
...``) loads it then, in full. Nothing is imported before scipy is (``rankboard --help`` imports no
numpy); a process that imported scipy or these modules before keeps them as they are.

This is the application's choice for its own process: :mod:`stats` does not make it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
from collections.abc import Sequence
from types import ModuleType

#: numpy's submodules loaded only when one of their names is used.
DEFERRED = ("numpy.f2py", "numpy.testing")

_lock = threading.Lock()


def defer_numpy_tools() -> None:
    """Make :data:`DEFERRED` load on first use, from the moment scipy is first imported (at once
    if numpy is imported and scipy not yet). Idempotent; nothing to do once scipy is imported."""
    with _lock:
        if "scipy" in sys.modules or any(isinstance(f, _BeforeScipy) for f in sys.meta_path):
            return
        sys.meta_path.insert(0, _BeforeScipy())


class _BeforeScipy(importlib.abc.MetaPathFinder):
    """Asked first for every import: on ``scipy``'s, makes :data:`DEFERRED` lazy, removes itself,
    and lets the usual finders find scipy (it finds nothing itself)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "scipy":
            with _lock:
                if self in sys.meta_path:
                    sys.meta_path.remove(self)
            _make_lazy()
        return None


def _make_lazy() -> None:
    import numpy

    for name in DEFERRED:
        if name in sys.modules:  # imported already: nothing to save
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:  # pragma: no cover - a numpy without it
            continue
        loader = importlib.util.LazyLoader(spec.loader)
        spec.loader = loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loader.exec_module(module)  # (lazy: the module's code runs on its first attribute use)
        # numpy's own __getattr__ would import it again; as after a real import, the attribute is set
        setattr(numpy, name.rpartition(".")[2], module)
