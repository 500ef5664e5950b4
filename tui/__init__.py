"""rankboard's terminal front end: the `rankboard` command (the explorer, `report`, `check`), the view
model and the renderers."""
