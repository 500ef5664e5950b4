"""Regenerate every bundled example log: ``python sample_logs/regenerate.py [--resume]``.

- ``c45_demsar.dat``: the table of four C4.5 variants on 14 data sets in Menzies' notes on
  comparing learners (after Demsar 2006; accuracy, one repeat, one fold), rewritten byte for byte from the table below.
- ``wide_sonar.dat``: the six sonar lines printed in Menzies' lecture notes, in their wide format.
- ``cv/<dataset>.dat``: a real 5 x 5 stratified cross-validation (seed 0) of five
  scikit-learn learners on ten data sets shipped inside scikit-learn and statsmodels,
  written by :func:`stats.runner._cv.run_cv`. Everything but the ``runtime`` values is
  deterministic; ``--resume`` continues an interrupted regeneration instead of
  starting over.
- ``regression/diabetes.dat``: a 5 x 5 cross-validation (seed 0) of four scikit-learn
  regressors on scikit-learn's diabetes data (the continuous classes of Menzies' lecture notes: mmre, pred25,
  pred30, correlation, runtime), written by :func:`stats.run_cv` with ``task="regression"``.
- ``sequence/breast_cancer.dat``: the incremental M*N-way study of Menzies' lecture notes (M = 5 repeats,
  N = 10 buckets, seed 0) of four classifiers on scikit-learn's breast cancer data, written
  by :func:`stats.run_sequence` (``fold`` = the test bucket, a ``train`` line = the training size).

``--only cv regression sequence`` regenerates some of the runs (the two printed tables are
always rewritten).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if __name__ == "__main__" and str(HERE.parent) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(HERE.parent))

REPEATS, FOLDS, SEED = 5, 5, 0

# Menzies' notes on comparing learners (after Demsar 2006), "four variants on C4.5, criteria = accuracy", as printed.
C45_TABLE = (
    "\tC4.5\tC4.5+m\tC4.5+cf\tC4.5+m+cf\n"
    "adult (sample)\t0.763 (4)\t0.768 (3)\t0.771 (2)\t0.798 (1)\n"
    "breast cancer\t0.599 (1)\t0.591 (2)\t0.590 (3)\t0.569 (4)\n"
    "breast cancer wisconsin\t0.954 (4)\t0.971 (1)\t0.968 (2)\t0.967 (3)\n"
    "cmc\t0.628 (4)\t0.661 (1)\t0.654 (3)\t0.657 (2)\n"
    "ionosphere\t0.882 (4)\t0.888 (2)\t0.886 (3)\t0.898 (1)\n"
    "iris\t0.936 (1)\t0.931 (2.5)\t0.916 (4)\t0.931 (2.5)\n"
    "liver disorders\t0.661 (3)\t0.668 (2)\t0.609 (4)\t0.685 (1)\n"
    "lung cancer\t0.583 (2.5)\t0.583 (2.5)\t0.563 (4)\t0.625 (1)\n"
    "lymphography\t0.775 (4)\t0.838 (3)\t0.866 (2)\t0.875 (1)\n"
    "mushroom\t1.000 (2.5)\t1.000 (2.5)\t1.000 (2.5)\t1.000 (2.5)\n"
    "primary tumor\t0.940 (4)\t0.962 (2.5)\t0.965 (1)\t0.962 (2.5)\n"
    "rheum\t0.619 (3)\t0.666 (2)\t0.614 (4)\t0.669 (1)\n"
    "voting\t0.972 (4)\t0.981 (1)\t0.975 (2)\t0.975 (3)\n"
    "wine\t0.957 (3)\t0.978 (1)\t0.946 (4)\t0.970 (2)\n"
    "average rank\t3.143\t2.000\t2.893\t1.964\n"
)

# Menzies' lecture notes: the header as the brief spells it, then the six printed lines.
WIDE_HEADER = "#data, learner, goal, train, test, repeats, bin, accuracy, pd, pf, precision"
WIDE_SONAR = """\
q2s/sonar,   bayes, Mine,   139,   69,       1,   1,    63.77, 61.29, 34.21,     59.38
q2s/sonar,    oneR, Mine,   139,   69,       1,   1,    68.12, 61.90, 22.22,     81.25
q2s/sonar,   bayes, Mine,   139,   69,       1,   2,    60.87, 73.08, 46.51,     48.72
q2s/sonar,    oneR, Mine,   139,   69,       1,   2,    68.12, 68.89, 33.33,     79.49
q2s/sonar,   bayes, Mine,   139,   69,       1,   3,    73.91, 86.67, 35.90,     65.00
q2s/sonar,    oneR, Mine,   139,   69,       1,   3,    69.57, 72.09, 34.62,     77.50
"""


def c45_text() -> str:
    """The C4.5 table of Menzies' notes as long-format lines: ``<data set>,1,1,<learner>,accuracy,<printed value>``."""
    header, *rows = C45_TABLE.splitlines()
    learners = header.split("\t")[1:]
    lines = []
    for row in rows:
        name, *cells = row.split("\t")
        if name == "average rank":
            continue
        values = [re.fullmatch(r"(\d\.\d{3}) \([\d.]+\)", cell).group(1) for cell in cells]  # type: ignore[union-attr]
        lines += [f"{name},1,1,{learner},accuracy,{value}" for learner, value in zip(learners, values, strict=True)]
    return "\n".join(lines) + "\n"


def wide_text() -> str:
    """The wide-format sonar example of Menzies' lecture notes."""
    return WIDE_HEADER + "\n" + WIDE_SONAR


Dataset = tuple[np.ndarray, np.ndarray]


def _sklearn(name: str) -> Callable[[], Dataset]:
    def load() -> Dataset:
        import sklearn.datasets

        X, y = getattr(sklearn.datasets, f"load_{name}")(return_X_y=True)
        return np.asarray(X, dtype=float), np.asarray(y)

    return load


def _breast_cancer() -> Dataset:
    X, y = _sklearn("breast_cancer")()
    return X, (y == 0).astype(int)  # 1 = malignant (scikit-learn codes malignant as 0): pd is "malignant found"


def _diabetes_high() -> Dataset:
    X, y = _sklearn("diabetes")()
    return X, (y > np.median(y)).astype(int)  # derived: disease progression above the median


def _statsmodels(
    module: str, target: str, rule: Callable[[np.ndarray], np.ndarray] | None = None
) -> Callable[[], Dataset]:
    def load() -> Dataset:
        import importlib

        frame = importlib.import_module(f"statsmodels.datasets.{module}").load_pandas().data
        y = frame[target].to_numpy()
        return frame.drop(columns=[target]).to_numpy(dtype=float), (rule(y) if rule else y).astype(int)

    return load


def _star98_high() -> Dataset:
    from statsmodels.datasets import star98

    frame = star98.load_pandas().data
    rate = frame["NABOVE"] / (frame["NABOVE"] + frame["NBELOW"])
    X = frame.drop(columns=["NABOVE", "NBELOW"]).to_numpy(dtype=float)
    return X, (rate > rate.median()).to_numpy().astype(int)  # derived: math pass rate above the median


def _modechoice() -> Dataset:
    from statsmodels.datasets import modechoice

    long = modechoice.load_pandas().data  # 210 travellers x 4 modes (1 air, 2 train, 3 bus, 4 car)
    wide = long.pivot(index="individual", columns="mode", values=["ttme", "invc", "invt", "gc"])
    person = long.groupby("individual")[["hinc", "psize"]].first()
    chosen = long[long["choice"] == 1].set_index("individual")["mode"]
    X = np.hstack([wide.to_numpy(dtype=float), person.loc[wide.index].to_numpy(dtype=float)])
    return X, chosen.loc[wide.index].to_numpy().astype(int)


#: name -> loader; names are the logs' first field and file names.
DATASETS: dict[str, Callable[[], Dataset]] = {
    "iris": _sklearn("iris"),
    "wine": _sklearn("wine"),
    "breast_cancer": _breast_cancer,
    "digits": _sklearn("digits"),
    "diabetes_high": _diabetes_high,
    "spector": _statsmodels("spector", "GRADE"),
    "fair": _statsmodels("fair", "affairs", lambda a: a > 0),
    "anes96": _statsmodels("anes96", "vote"),
    "modechoice": _modechoice,
    "star98_high": _star98_high,
}


def learners() -> dict[str, object]:
    """The five scikit-learn learners; random ones get the runner's fold seed as ``random_state``."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    return {
        "GaussianNB": GaussianNB(),
        "DecisionTree": DecisionTreeClassifier(),
        "KNN": KNeighborsClassifier(n_neighbors=5),
        "LogisticRegression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        "RandomForest": RandomForestClassifier(n_estimators=10),
    }


#: The regression study: scikit-learn's diabetes data (442 patients, 10 features, target =
#: disease progression after one year, 25..346, so MRE never divides by 0).
REGRESSION_DATASETS: dict[str, Callable[[], Dataset]] = {"diabetes": _sklearn("diabetes")}

#: The sequence study ("Incremental M*N-way" in Menzies' lecture notes): M repeats of N buckets.
SEQUENCE_REPEATS, SEQUENCE_BUCKETS = 5, 10
SEQUENCE_DATASETS: dict[str, Callable[[], Dataset]] = {"breast_cancer": _breast_cancer}


def regressors() -> dict[str, object]:
    """Four scikit-learn regressors; random ones get the runner's fold seed as ``random_state``."""
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeRegressor

    return {
        "LinearRegression": LinearRegression(),
        "RegressionTree": DecisionTreeRegressor(min_samples_leaf=5),
        "KNN": make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=5)),
        "RandomForest": RandomForestRegressor(n_estimators=10),
    }


def sequence_learners() -> dict[str, object]:
    """The four classifiers of the sequence study (a subset of :func:`learners`)."""
    return {name: learner for name, learner in learners().items() if name != "RandomForest"}


def _fresh(directory: Path, resume: bool) -> Path:
    directory.mkdir(exist_ok=True)
    if not resume:
        for old in directory.glob("*.dat"):
            old.unlink()
    return directory


def _run(runner: Callable[..., object], data: dict[str, Dataset], models: dict[str, object], out: Path, **kw: object):
    try:
        from tui.progress import rich_progress
    except ImportError:  # rich missing: run without a bar
        return runner(data, models, out, **kw)
    with rich_progress() as progress:
        return runner(data, models, out, progress=progress, **kw)


def _report(out: Path, summary: object, data: dict[str, Dataset]) -> None:
    size = sum(p.stat().st_size for p in out.glob("*.dat"))
    print(f"{out.relative_to(HERE.parent)}/: {summary}; {len(data)} files, {size / 1024:.0f} KiB")


def regression(resume: bool = False) -> None:
    """Write ``regression/``: run_cv of :func:`regressors` on :data:`REGRESSION_DATASETS`."""
    from stats.runner import run_cv

    out = _fresh(HERE / "regression", resume)
    data = {name: load() for name, load in REGRESSION_DATASETS.items()}
    kw = {"repeats": REPEATS, "folds": FOLDS, "seed": SEED, "task": "regression"}
    _report(out, _run(run_cv, data, regressors(), out, **kw), data)


def sequence(resume: bool = False) -> None:
    """Write ``sequence/``: run_sequence of :func:`sequence_learners` on :data:`SEQUENCE_DATASETS`."""
    from stats.runner import run_sequence

    out = _fresh(HERE / "sequence", resume)
    data = {name: load() for name, load in SEQUENCE_DATASETS.items()}
    kw = {"repeats": SEQUENCE_REPEATS, "buckets": SEQUENCE_BUCKETS, "seed": SEED, "task": "classification"}
    _report(out, _run(run_sequence, data, sequence_learners(), out, **kw), data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resume", action="store_true", help="continue the runs instead of regenerating them")
    parts = ("cv", "regression", "sequence")
    parser.add_argument("--only", nargs="+", choices=parts, default=parts, help="the runs to regenerate (default all)")
    args = parser.parse_args(argv)
    from stats.runner import run_cv

    began = time.perf_counter()
    for name, text in (("c45_demsar.dat", c45_text()), ("wide_sonar.dat", wide_text())):
        path = HERE / name
        same = path.exists() and path.read_bytes() == text.encode("utf-8")
        path.write_bytes(text.encode("utf-8"))
        print(f"{path.relative_to(HERE.parent)}: {text.count(chr(10))} lines{' (unchanged)' if same else ''}")
    if "regression" in args.only:
        regression(args.resume)
    if "sequence" in args.only:
        sequence(args.resume)
    if "cv" not in args.only:
        print(f"regenerated in {time.perf_counter() - began:.1f} s")
        return 0
    cv = _fresh(HERE / "cv", args.resume)
    data = {name: load() for name, load in DATASETS.items()}
    for name, (X, y) in data.items():
        print(f"  {name}: {X.shape[0]} instances, {X.shape[1]} features, {len(np.unique(y))} classes")
    _report(cv, _run(run_cv, data, learners(), cv, repeats=REPEATS, folds=FOLDS, seed=SEED), data)
    print(f"regenerated in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
