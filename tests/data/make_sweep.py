"""Write ``sweep.dat``: a log shaped like a hyperparameter sweep's (issue 28).

12 learners named as scikit-learn sweeps name them (``GradientBoosting-learning_rate=0.1-max_depth=3``),
30 data sets, 2 repeats x 5-fold cross-validation, accuracy (higher is better) and runtime in
seconds (lower is better): 7,200 lines. The values are synthetic (a fixed seed), written with
three decimals for accuracy and two for runtime. Run ``python tests/data/make_sweep.py`` to
write the file again; the tests read the committed copy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

LEARNERS = {  # name: (mean accuracy offset, mean runtime in seconds)
    "RandomForest-n_estimators=100": (0.010, 1.2),
    "RandomForest-n_estimators=1000": (0.014, 11.5),
    "GradientBoosting-learning_rate=0.1-max_depth=3": (0.018, 4.1),
    "GradientBoosting-learning_rate=0.01-max_depth=5": (0.012, 9.8),
    "SVC-kernel=rbf-C=10.0": (0.004, 2.3),
    "SVC-kernel=linear-C=1.0": (-0.010, 1.7),
    "KNeighborsClassifier-n_neighbors=5": (-0.020, 0.4),
    "KNeighborsClassifier-n_neighbors=15": (-0.016, 0.4),
    "LogisticRegression-C=0.1": (-0.012, 0.3),
    "LogisticRegression-C=1.0": (-0.008, 0.3),
    "DecisionTree-max_depth=None": (-0.030, 0.1),
    "GaussianNB-var_smoothing=1e-9": (-0.045, 0.05),
}
DATASETS = [
    "adult", "anneal", "audiology", "balance-scale", "breast-cancer", "breast-w", "car",
    "colic", "credit-a", "credit-g", "diabetes", "glass", "heart-c", "heart-h", "heart-statlog",
    "hepatitis", "hypothyroid", "ionosphere", "iris", "kr-vs-kp", "labor", "letter",
    "lymph", "mushroom", "segment", "sick", "sonar", "soybean", "vehicle", "vote",
]


def lines(seed: int = 28) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for ds in DATASETS:
        base = rng.uniform(0.70, 0.95)
        size = rng.uniform(0.5, 3.0)
        for r in range(1, 3):
            for f in range(1, 6):
                for name, (offset, seconds) in LEARNERS.items():
                    acc = min(1.0, base + offset + rng.normal(0, 0.02))
                    run = seconds * size * rng.uniform(0.8, 1.25)
                    out.append(f"{ds},{r},{f},{name},acc,{acc:.3f}\n")
                    out.append(f"{ds},{r},{f},{name},runtime,{max(run, 0.01):.2f}\n")
    return out


if __name__ == "__main__":
    Path(__file__).with_name("sweep.dat").write_text("".join(lines()))
