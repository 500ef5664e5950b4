"""The views, one folder each: ``tui/views/<name>/`` holds how the view's part of an analysis is made
(``part.py``), how each output format renders it (``text.py``, ``markdown.py``, ``latex.py``,
``json.py``), what its CSV export writes (``export.py``) and its panel in the app (``panel.py``).
:mod:`tui.registry` declares them."""
