"""View 3, the tests: the verdict, the omnibus tests (Friedman, Iman-Davenport, aligned ranks, Quade;
Garcia et al. 2010), Nemenyi's CD, the control table with every APV of Garcia et al. (2010), the
multiple sign test (Steel 1959) and the win/loss/tie counts of Menzies' lecture notes; when selected
data sets miss results, Skillings & Mack's (1981) test beside Friedman's and the data sets each uses,
or alone when fewer than 2 data sets are complete (no other test, CD, table or post-hoc procedure).

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
