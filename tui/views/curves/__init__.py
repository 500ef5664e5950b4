"""View 7, the learning curves of a sequence study (Menzies' lecture notes, "Incremental M*N-way"):
per learner the criterion's quartiles at each training size, the plateau (``stats.plateau``)
marked on its row and said in words.

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
