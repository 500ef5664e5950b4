"""View 5, the critical-difference diagram (Demsar 2006): average ranks on an axis and bars joining
the learners no procedure tells apart.

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
