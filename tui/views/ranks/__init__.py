"""View 2, the ranks: per data set the learners' medians and ranks (1 = best), their average ranks
(Demsar 2006) and the compact letters of the pairs procedure (Piepho 2004).

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
