"""``python -m tui`` runs the ``rankboard`` command."""

from tui.cli import main

raise SystemExit(main())
