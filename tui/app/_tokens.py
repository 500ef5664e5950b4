"""Which worker results are current: one rule for every worker of the app.

Work of one kind (a load of the logs, an analysis of a selection) gets a :class:`Token` when it
starts; starting work of the same kind again, or cancelling it, makes the older token stale. A
worker carries its token into every message it posts, and the app takes a message only when
:meth:`Tokens.current` says its token is current -- the one test of staleness, for loads, their
progress, analyses and the views prepared from them. The tokens are started, cancelled and asked
about on the event loop; a worker only reads its own token's :attr:`Token.cancelled` (to stop early).
"""

from __future__ import annotations

import threading


class Token:
    """One piece of work of kind ``kind``; :attr:`cancelled` once it is replaced or cancelled."""

    __slots__ = ("_cancelled", "kind")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._cancelled = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        self._cancelled.set()

    def __repr__(self) -> str:
        return f"Token({self.kind!r}{', cancelled' if self.cancelled else ''})"


class Tokens:
    """The current token of each kind of work."""

    def __init__(self) -> None:
        self._current: dict[str, Token] = {}

    def start(self, kind: str) -> Token:
        """A new token of ``kind``; the one it replaces is cancelled (its worker stops at its next check)."""
        self.cancel(kind)
        token = self._current[kind] = Token(kind)
        return token

    def cancel(self, kind: str) -> Token | None:
        """Cancel the current work of ``kind`` (its results are stale from now on); returns its token."""
        token = self._current.get(kind)
        if token is not None:
            token.cancel()
        return token

    def current(self, token: Token | None) -> bool:
        """Whether ``token`` is its kind's current one and not cancelled: its results may be shown."""
        return token is not None and self._current.get(token.kind) is token and not token.cancelled
