"""Live rows have one owner (issue 10, item 5): the watcher keeps offsets and a key index, the
Aggregator keeps the rows (with their file and line) and follows each WatchUpdate with apply()."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats import Aggregator, LogWatcher, WatchUpdate, aggregate, read_logs
from tests.follow import Follow
from tests.test_aggregate import assert_same


def append(path: Path, text: str) -> None:
    with path.open("a") as f:
        f.write(text)


def fresh(*paths: Path) -> pd.DataFrame:
    """The aggregate of the logs read from scratch (read_logs resolves last-wins)."""
    return aggregate(read_logs(*paths, on_error="skip"))


def values(agg: Aggregator, criterion: str, learner: str) -> list[float]:
    snap = agg.snapshot()
    return sorted(snap.gather(criterion, learner, [str(d) for d in snap.levels[1]]).tolist())


def follow(*paths: Path) -> tuple[LogWatcher, Aggregator]:
    watcher = LogWatcher(list(paths))
    return watcher, Aggregator(watcher.poll().rows)


def test_the_watcher_keeps_no_rows() -> None:
    watcher = LogWatcher("x.dat")
    assert not hasattr(watcher, "frame") and not hasattr(watcher, "_batches")


def test_a_rewritten_files_old_rows_are_gone_from_the_aggregate(tmp_path: Path) -> None:
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text("iris,1,1,nb,acc,0.9\niris,1,2,nb,acc,0.8\nwine,1,1,nb,acc,0.7\n")
    b.write_text("iris,1,3,nb,acc,0.1\n")
    watcher, agg = follow(tmp_path)
    a.write_text("iris,1,1,nb,acc,0.2\n")  # shorter: a new run; wine and fold 2 are gone
    update = watcher.poll()
    assert update.reloaded == [str(a)]
    touched = agg.apply(update)
    assert sorted(touched.tolist()) == [("acc", "iris", "nb"), ("acc", "wine", "nb")]  # wine emptied
    assert agg.table.index.tolist() == [("acc", "iris", "nb")]
    assert values(agg, "acc", "nb") == [0.1, 0.2]
    assert_same(agg.table, fresh(tmp_path))


def test_a_removed_files_rows_are_gone(tmp_path: Path) -> None:
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text("iris,1,1,nb,acc,0.9\n")
    b.write_text("iris,1,2,nb,acc,0.5\nwine,1,1,knn,pd,0.4\n")
    watcher, agg = follow(tmp_path)
    b.unlink()
    agg.apply(watcher.poll())
    assert agg.table.index.tolist() == [("acc", "iris", "nb")] and values(agg, "acc", "nb") == [0.9]
    assert agg.snapshot().results("pd").empty


def test_superseded_rows_across_polls_and_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text("iris,1,1,nb,acc,0.1\niris,1,2,nb,acc,0.2\n")
    watcher, agg = follow(tmp_path)
    append(a, "iris,1,1,nb,acc,0.3\n")
    b.write_text("iris,1,2,nb,acc,0.4\n")
    update = watcher.poll()
    assert update.superseded == [(str(a), 1), (str(a), 2)]
    agg.apply(update)
    assert values(agg, "acc", "nb") == [0.3, 0.4]
    append(b, "iris,1,1,nb,acc,0.5\n")  # supersedes a:3, itself a superseding row
    agg.apply(watcher.poll())
    assert values(agg, "acc", "nb") == [0.4, 0.5] and agg.table["count"].tolist() == [2]
    assert_same(agg.table, fresh(a, b))


def test_one_criterion_of_a_wide_line_superseded(tmp_path: Path) -> None:
    wide, long = tmp_path / "a.dat", tmp_path / "b.dat"
    wide.write_text("#data, learner, repeats, bin, pd, pf\nsonar, nb, 1, 1, 0.5, 0.1\n")
    watcher, agg = follow(tmp_path)
    long.write_text("sonar,1,1,nb,pd,0.7\n")  # replaces the wide line's pd only
    update = watcher.poll()
    assert update.superseded == [(str(wide), 2)]
    agg.apply(update)
    assert values(agg, "pd", "nb") == [0.7] and values(agg, "pf", "nb") == [0.1]


def test_apply_needs_located_rows(tmp_path: Path) -> None:
    (tmp_path / "a.dat").write_text("iris,1,1,nb,acc,0.1\n")
    update = LogWatcher(tmp_path).poll()
    with pytest.raises(ValueError, match="built from rows without 'file' and 'line'"):
        Aggregator(update.rows.drop(columns=["file", "line"])).apply(update)
    empty = Aggregator()  # no rows yet: follows a watcher from its first poll
    assert empty.located and len(empty.table) == 0
    empty.apply(update)
    assert empty.table["count"].tolist() == [1]


def test_compaction_keeps_what_apply_took_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Aggregator, "_COMPACT_MIN", 0)  # merge into the store at each chance
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text("".join(f"d{i},1,1,nb,acc,{i / 10}\n" for i in range(8)))
    b.write_text("d0,1,2,nb,acc,0.5\n")
    watcher, agg = follow(tmp_path)
    append(a, "d1,1,1,nb,acc,0.9\n")
    agg.apply(watcher.poll())
    assert (agg._gone.size, agg._extra[0].size) == (1, 1)  # d1's old row listed as taken out
    assert_same(agg.table, fresh(a, b))
    append(a, "d2,1,1,nb,acc,0.8\nd3,1,1,nb,acc,0.7\n")
    agg.apply(watcher.poll())  # 3 appended rows > 9 stored // 4: merged, the rows taken out dropped
    assert (agg._gone.size, agg._extra[0].size, agg._values.size) == (0, 0, 9)
    assert_same(agg.table, fresh(a, b))
    b.unlink()
    agg.apply(watcher.poll())
    assert_same(agg.table, fresh(a))
    assert values(agg, "acc", "nb") == [0.0, 0.4, 0.5, 0.6, 0.7, 0.7, 0.8, 0.9]


def test_an_update_fed_twice_is_caught_by_nothing_but_a_superseded_row_not_held_is_ignored(tmp_path: Path) -> None:
    """apply() trusts the watcher: a superseded (file, line) it does not hold changes nothing."""
    (tmp_path / "a.dat").write_text("iris,1,1,nb,acc,0.1\n")
    watcher, agg = follow(tmp_path)
    ghost = WatchUpdate(watcher.poll().rows, superseded=[(str(tmp_path / "a.dat"), 99), ("nowhere.dat", 1)])
    agg.apply(ghost)
    assert values(agg, "acc", "nb") == [0.1]


# -- any sequence of appends, rewrites, truncations and removals ---------------------------------

LINES = [
    f"d{d},{r},{f},l{x},c{c},{{v}}\n" for d in range(3) for r in (1, 2) for f in (1, 2) for x in (0, 1) for c in (0, 1)
]

Step = tuple[str, str, list[int]]
step = st.one_of(
    st.tuples(st.just("append"), st.sampled_from("ab"), st.lists(st.integers(0, len(LINES) - 1), max_size=12)),
    st.tuples(st.just("rewrite"), st.sampled_from("ab"), st.lists(st.integers(0, len(LINES) - 1), max_size=12)),
    st.tuples(st.just("remove"), st.sampled_from("ab"), st.just([])),
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(step, min_size=1, max_size=10), st.booleans())
def test_any_sequence_of_polls_equals_what_the_updates_say(steps: list[Step], compact: bool) -> None:
    """The aggregator equals the aggregate of the rows a consumer holds that keeps every row handed
    on, less what the updates drop (tests.follow, itself checked against read_logs in
    test_watch.py). Keys repeat across files, so a row of one file replaces one of the other, and
    removing a file does not bring back what it replaced (the watcher's later-in-time wins)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "a.dat").write_text(LINES[0].format(v=0.5))
        mirror = Follow(root)
        agg = Aggregator(mirror.poll().rows)
        if compact:
            agg._COMPACT_MIN = 0
        counter = 0
        for kind, name, picks in steps:
            path = root / f"{name}.dat"
            text = "".join(LINES[i].format(v=(counter + n) / 100) for n, i in enumerate(picks))
            counter += len(picks)
            if kind == "remove":
                path.unlink(missing_ok=True)
            elif kind == "rewrite" or not path.exists():
                path.write_text(text)
                os.utime(path, ns=(0, 10**18 + counter))  # seen as changed whatever the clock
            else:
                append(path, text)
            agg.apply(mirror.poll())
            log = mirror.frame()
            if not len(log):
                assert len(agg.table) == 0
                continue
            assert_same(agg.table, aggregate(log))
            for criterion in ("c0", "c1"):
                for learner in ("l0", "l1"):
                    rows = log[(log["criterion"] == criterion) & (log["learner"] == learner)]
                    assert values(agg, criterion, learner) == sorted(rows["value"].tolist())
