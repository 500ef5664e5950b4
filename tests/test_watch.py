"""stats.logs._watch.LogWatcher on real files: appends split mid-line, truncation, replacement, new files."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.logs._read import LogError, read_logs
from stats.logs._watch import LogWatcher
from tests.follow import Follow

LONG = ["dataset", "repeat", "fold", "learner", "criterion", "value"]


def append(path: Path, text: str | bytes) -> None:
    with path.open("ab") as f:
        f.write(text.encode() if isinstance(text, str) else text)


def rows(frame: pd.DataFrame, *extra: str) -> list[tuple]:
    return [tuple(r) for r in frame[[*LONG, *extra]].astype(object).itertuples(index=False)]


def test_appends_split_mid_line_are_read_once_with_their_line_numbers(tmp_path: Path) -> None:
    log = tmp_path / "iris.dat"
    log.write_text("iris,1,1,nb,acc,0.9\niris,1,1,tree,acc,0.")
    watcher = Follow(log)
    first = watcher.poll()
    assert first.added == [str(log)] and first.problems == ()  # the partial line waits: not torn
    assert rows(first.rows, "line") == [("iris", 1, 1, "nb", "acc", 0.9, 1)]
    append(log, "8")
    assert not watcher.poll().changed  # still no newline
    append(log, "\niris,1,2,nb,acc,zz\niris,1,2,tree,acc,0.7\niris,1,3")
    second = watcher.poll()
    assert rows(second.rows, "line") == [("iris", 1, 1, "tree", "acc", 0.8, 2), ("iris", 1, 2, "tree", "acc", 0.7, 4)]
    assert [str(p) for p in second.problems] == [f"{log}:3: value 'zz' is not a number"]
    append(log, ",nb,acc,0.6\n")
    third = watcher.poll()
    assert rows(third.rows, "line") == [("iris", 1, 3, "nb", "acc", 0.6, 5)]
    assert list(third.rows["file"]) == [str(log)]
    assert rows(watcher.frame(), "line") == rows(read_logs(log, on_error="skip").assign(line=[1, 2, 4, 5]), "line")


def test_only_the_appended_bytes_are_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import stats.logs._sources

    log = tmp_path / "d.dat"
    log.write_text("".join(f"iris,1,{n},nb,acc,0.5\n" for n in range(1, 1001)))
    watcher = Follow(log)
    assert len(watcher.poll().rows) == 1000
    seen: list[int] = []
    original = stats.logs._sources.parse_block
    monkeypatch.setattr(
        stats.logs._sources, "parse_block", lambda d, s, e, spec: seen.append(e - s) or original(d, s, e, spec)
    )
    append(log, "iris,2,1,nb,acc,0.5\n")
    assert rows(watcher.poll().rows, "line") == [("iris", 2, 1, "nb", "acc", 0.5, 1001)]
    assert seen == [len("iris,2,1,nb,acc,0.5\n")]


def test_truncated_file_is_read_again_whole(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.9\niris,1,2,nb,acc,0.8\n")
    watcher = Follow(tmp_path)
    watcher.poll()
    log.write_text("wine,1,1,nb,acc,0.1\n")  # a new run: shorter than what was read
    update = watcher.poll()
    assert update.reloaded == [str(log)] and update.added == []
    assert rows(update.rows, "line") == [("wine", 1, 1, "nb", "acc", 0.1, 1)]
    assert rows(watcher.frame()) == [("wine", 1, 1, "nb", "acc", 0.1)]


def test_file_replaced_by_rename_is_read_again_whole(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.9\n")
    watcher = Follow(log)
    watcher.poll()
    fresh = tmp_path / "d.dat.tmp"
    fresh.write_text("iris,1,1,nb,acc,0.5\niris,1,2,nb,acc,0.6\niris,1,3,nb,acc,0.7\n")
    os.replace(fresh, log)
    update = watcher.poll()
    assert update.reloaded == [str(log)] and update.superseded == [] and update.problems == ()
    assert [r[-1] for r in rows(watcher.frame())] == [0.5, 0.6, 0.7]


def test_file_rewritten_in_place_and_longer_is_read_again(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.9\n")
    watcher = Follow(log)
    watcher.poll()
    with log.open("r+") as f:  # same inode, grown, but the first line changed
        f.write("wine,1,1,nb,acc,0.1\nwine,1,2,nb,acc,0.2\n")
    update = watcher.poll()
    assert update.reloaded == [str(log)]
    assert [r[0] for r in rows(watcher.frame())] == ["wine", "wine"]


def test_new_and_removed_files_under_a_directory(tmp_path: Path) -> None:
    (tmp_path / "a.dat").write_text("a,1,1,nb,acc,0.9\n")
    watcher = Follow([tmp_path])
    assert watcher.poll().added == [str(tmp_path / "a.dat")]
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "b.dat").write_text("b,1,1,nb,acc,0.8\n")
    (tmp_path / "runs" / "notes.txt").write_text("not a log\n")
    update = watcher.poll()
    assert update.added == [str(tmp_path / "runs" / "b.dat")]
    assert rows(update.rows, "file") == [("b", 1, 1, "nb", "acc", 0.8, str(tmp_path / "runs" / "b.dat"))]
    (tmp_path / "a.dat").unlink()
    update = watcher.poll()
    assert update.removed == [str(tmp_path / "a.dat")]
    assert [r[0] for r in rows(watcher.frame())] == ["b"]


def test_duplicates_across_polls_later_wins(tmp_path: Path) -> None:
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text("iris,1,1,nb,acc,0.1\niris,1,2,nb,acc,0.2\n")
    watcher = Follow(tmp_path)
    watcher.poll()
    append(a, "iris,1,1,nb,acc,0.3\n")
    b.write_text("iris,1,2,nb,acc,0.4\n")
    update = watcher.poll()
    assert update.superseded == [(str(a), 1), (str(a), 2)]
    assert [str(p) for p in update.problems] == [
        f"{a}:3: duplicate of line 1 (iris, repeat 1, fold 1, nb, acc): the later line wins",
        f"{b}:1: duplicate of {a}:2 (iris, repeat 1, fold 2, nb, acc): the later line wins",
    ]
    assert all(p.severity == "warning" for p in update.problems)
    assert rows(watcher.frame(), "line") == [("iris", 1, 1, "nb", "acc", 0.3, 3), ("iris", 1, 2, "nb", "acc", 0.4, 1)]


def test_wide_log_appended(tmp_path: Path) -> None:
    log = tmp_path / "w.dat"
    log.write_text("\n#data, learner, repeats, bin, pd, pf\nsonar, nb, 1, 1, 0.5, 0.1\n")
    watcher = Follow(log)
    assert [r[4:] for r in rows(watcher.poll().rows, "line")] == [("pd", 0.5, 3), ("pf", 0.1, 3)]
    append(log, "sonar, nb, 1, 2, 0.6, 0.2\n")
    update = watcher.poll()
    assert [r[2:] for r in rows(update.rows, "line")] == [(2, "nb", "pd", 0.6, 4), (2, "nb", "pf", 0.2, 4)]
    assert update.rows["goal"].isna().all()


def test_blank_start_then_results(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("\n\n")
    watcher = Follow(log)
    first = watcher.poll()
    assert len(first.rows) == 0 and first.problems == ()  # an empty log is not a problem while watching
    append(log, "iris,1,1,nb,acc,0.9\n")
    assert list(watcher.poll().rows["line"]) == [3]


def test_gzip_log_is_read_again_when_it_changes(tmp_path: Path) -> None:
    log = tmp_path / "d.dat.gz"
    log.write_bytes(gzip.compress(b"iris,1,1,nb,acc,0.9\n"))
    watcher = Follow(log)
    assert len(watcher.poll().rows) == 1
    log.write_bytes(gzip.compress(b"iris,1,1,nb,acc,0.9\niris,1,2,nb,acc,0.8\n"))
    os.utime(log, ns=(0, 10**18))  # a new modification time, whatever the clock's resolution
    update = watcher.poll()
    assert update.reloaded == [str(log)] and len(update.rows) == 2 and update.superseded == []


def test_missing_path_is_reported_once_then_picked_up(tmp_path: Path) -> None:
    log = tmp_path / "later.dat"
    watcher = Follow(log)
    assert [str(p) for p in watcher.poll().problems] == [f"{log}: no such file or directory"]
    assert watcher.poll().problems == ()
    log.write_text("iris,1,1,nb,acc,0.9\n")
    update = watcher.poll()
    assert update.added == [str(log)] and len(update.rows) == 1


def test_on_error_raise_after_taking_the_rows(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.9\niris,1,2,nb\n")
    watcher = Follow(log, on_error="raise")
    with pytest.raises(LogError, match=r"d\.dat:2: expected 6 fields, found 4$"):
        watcher.poll()
    assert len(watcher.frame()) == 1
    with pytest.raises(ValueError, match="on_error must be"):
        LogWatcher(log, on_error="warn")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="standard input"):
        LogWatcher("-")


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 60), min_size=1, max_size=12), st.booleans())
def test_any_sequence_of_appends_ends_as_read_logs_reads_the_file(cuts: list[int], crlf: bool) -> None:
    """However the bytes arrive, the watcher ends where read_logs starts: the same rows, the same
    errors; the held rows it superseded were earlier copies of repeated keys."""
    import tempfile

    lines, last, earlier = [], {}, set()
    for i in range(45):
        if i % 7 == 3:
            lines.append(f"d{i},1,1,l,acc,oops\n")
            continue
        key = (i % 3, i % 2 + 1, i % 5 + 1)  # repeats every 30 lines: the rerun of a run
        if key in last:
            earlier.add(last[key])
        last[key] = len(lines) + 1
        lines.append(f"d{key[0]},{key[1]},{key[2]},l,acc,{i}.5\n")
    text = "".join(lines)
    data = (text.replace("\n", "\r\n") if crlf else text).encode()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "d.dat"
        log.write_bytes(b"")
        watcher = Follow(log)
        found, superseded, position = [], [], 0
        for cut in [*cuts, len(data)]:
            append(log, data[position : position + cut])
            position = min(position + cut, len(data))
            update = watcher.poll()
            found += [p for p in update.problems if p.severity == "error"]
            superseded += update.superseded
        expected = read_logs(log, on_error="skip")
        assert rows(watcher.frame()) == rows(expected)
        assert sorted(map(str, found)) == sorted(str(p) for p in expected.problems if p.severity == "error")
        assert {line for _, line in superseded} <= earlier  # held rows replaced by a later poll's


def test_watch_is_headless() -> None:
    code = "import sys, stats.logs; print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the index of the held rows' keys (a poll without duplicates does not look at all the rows) --


def _chunk(dataset: str, folds: range) -> str:
    return "".join(f"{dataset},1,{f},nb,acc,0.5\n" for f in folds)


def test_duplicate_many_polls_later_is_found(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text(_chunk("iris", range(1, 11)))
    watcher = Follow(log)
    watcher.poll()
    for n in range(100):  # many runs merged
        append(log, _chunk(f"set{n}", range(1, 4)))
        update = watcher.poll()
        assert len(update.rows) == 3 and not update.superseded and not update.problems
    assert watcher._held.runs <= 9 and len(watcher._held) == 310  # O(log n) sorted runs
    append(log, "iris,1,7,nb,acc,0.9\nset5,1,2,nb,acc,0.8\n")
    update = watcher.poll()
    assert update.superseded == [(str(log), 7), (str(log), 10 + 3 * 5 + 2)]
    assert [str(p) for p in update.problems] == [
        f"{log}:311: duplicate of line 7 (iris, repeat 1, fold 7, nb, acc): the later line wins",
        f"{log}:312: duplicate of line 27 (set5, repeat 1, fold 2, nb, acc): the later line wins",
    ]
    # The index follows: the same duplicate again is found again.
    append(log, "set5,1,2,nb,acc,0.7\n")
    update = watcher.poll()
    assert update.superseded == [(str(log), 312)]
    expected = read_logs(log, on_error="skip")
    assert rows(watcher.frame()) == rows(expected)


def test_duplicates_within_one_appended_chunk(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.1\n")
    watcher = Follow(log)
    watcher.poll()
    append(log, "iris,1,2,nb,acc,0.2\niris,1,3,nb,acc,0.3\niris,1,2,nb,acc,0.4\n")
    update = watcher.poll()
    assert update.superseded == []  # the earlier line is new too: it is not among the rows held
    assert [str(p) for p in update.problems] == [
        f"{log}:4: duplicate of line 2 (iris, repeat 1, fold 2, nb, acc): the later line wins"
    ]
    assert rows(update.rows, "line") == [("iris", 1, 3, "nb", "acc", 0.3, 3), ("iris", 1, 2, "nb", "acc", 0.4, 4)]
    append(log, "iris,1,2,nb,acc,0.5\n")
    assert watcher.poll().superseded == [(str(log), 4)]
    assert rows(watcher.frame(), "line") == rows(read_logs(log).assign(line=[1, 3, 5]), "line")


@pytest.mark.parametrize("odd", ["iris,1,2048,nb,acc,0.1\n", "iris,1,5000,nb,acc,0.1\n", "iris,99999,1,nb,acc,0.1\n"])
def test_keys_that_do_not_pack_are_kept_apart_and_found(tmp_path: Path, odd: str) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.1\niris,1,2,nb,acc,0.2\n")
    watcher = Follow(log)
    watcher.poll()
    append(log, odd)
    first = watcher.poll()
    assert len(first.rows) == 1 and not first.superseded
    assert watcher._held.odd == 1 and len(watcher._held) == 3  # kept apart; the others stay packed
    append(log, "iris,1,3,nb,acc,0.3\n" + odd + "iris,1,1,nb,acc,0.4\n")
    update = watcher.poll()
    assert update.superseded == [(str(log), 1), (str(log), 3)]  # in line order
    assert [p.line for p in update.problems] == [5, 6]
    assert rows(watcher.frame()) == rows(read_logs(log, on_error="skip"))


def test_many_labels_are_kept_apart(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("".join(f"d{n},1,1,nb,acc,0.1\n" for n in range((1 << 16) + 1)))  # d65536's code needs 17 bits
    watcher = Follow(log)
    assert len(watcher.poll().rows) == (1 << 16) + 1 and watcher._held.odd == 1
    append(log, "d65536,1,1,nb,acc,0.2\nd65535,1,1,nb,acc,0.3\n")
    assert watcher.poll().superseded == [(str(log), (1 << 16)), (str(log), (1 << 16) + 1)]
    assert watcher._held.odd == 1 and len(watcher._held) == (1 << 16) + 1
    assert watcher.frame()["value"].iloc[-2:].tolist() == [0.2, 0.3]


def test_reload_after_truncate_rebuilds_the_index(tmp_path: Path) -> None:
    log, other = tmp_path / "a.dat", tmp_path / "b.dat"
    log.write_text("iris,1,1,nb,acc,0.1\niris,1,2,nb,acc,0.2\n")
    other.write_text("iris,1,3,nb,acc,0.3\n")
    watcher = Follow(tmp_path)
    watcher.poll()
    log.write_text("iris,1,2,nb,acc,0.5\n")  # shorter: read again; fold 1 is gone, fold 2 is no duplicate
    update = watcher.poll()
    assert update.reloaded == [str(log)] and not update.superseded and not update.problems
    append(log, "iris,1,1,nb,acc,0.6\n")  # fold 1 was dropped with the old rows: not a duplicate either
    update = watcher.poll()
    assert not update.superseded and not update.problems
    append(log, "iris,1,3,nb,acc,0.7\n")  # b.dat's row is still held and indexed
    assert watcher.poll().superseded == [(str(other), 1)]
    other.unlink()
    assert watcher.poll().removed == [str(other)]
    append(log, "iris,1,3,nb,acc,0.8\niris,1,2,nb,acc,0.9\n")
    assert watcher.poll().superseded == [(str(log), 1), (str(log), 3)]  # in line order
    assert rows(watcher.frame(), "line") == [
        ("iris", 1, 1, "nb", "acc", 0.6, 2),
        ("iris", 1, 3, "nb", "acc", 0.8, 4),
        ("iris", 1, 2, "nb", "acc", 0.9, 5),
    ]


def test_truncate_to_keys_that_do_not_pack_then_back(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text("iris,1,1,nb,acc,0.1\niris,99999,1,nb,acc,0.1\n")
    watcher = Follow(log)
    watcher.poll()
    assert watcher._held.odd == 1
    log.write_text("iris,1,2,nb,acc,0.2\n")
    assert watcher.poll().reloaded == [str(log)]
    assert watcher._held.odd == 0 and len(watcher._held) == 1  # the odd key went with its file
    append(log, "iris,1,2,nb,acc,0.3\n")
    assert watcher.poll().superseded == [(str(log), 1)]
