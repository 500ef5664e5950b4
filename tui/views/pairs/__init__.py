"""View 4, the pairs: every pair's APVs under Nemenyi, Holm, Shaffer and Bergmann-Hommel (Garcia &
Herrera 2008) or a two-sample procedure (Benavoli, Corani & Mangili 2016), the two-sample tests of
one pair, contrast estimation, and every pair's effect sizes.

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
