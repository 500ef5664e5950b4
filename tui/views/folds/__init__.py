"""View 6, the folds: each learner against the control from the fold-level results: per data set
the corrected resampled t-test (Nadeau & Bengio 2003) and the Bayesian correlated t-test (Corani
& Benavoli 2015); across data sets the Bayesian signed-rank test (Benavoli et al. 2017).

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
