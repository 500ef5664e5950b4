"""rankboard's terminal front end: the ``rankboard`` command (and, later, the Textual explorer)."""
