"""The grouped median on Spark (Zaharia et al. 2016): ``pyspark``, local (``local[*]``) or on the
cluster of ``--master URL``.

Text logs are read a whole line a row (``spark.read.text`` with ``lineSep`` "\\n": Hadoop's
default also ends lines at a lone carriage return, which rankboard refuses); a row's place is its
file's, then its block's start (``_metadata.file_block_start``), then ``monotonically_increasing_id``
(increasing within a partition, hence within a block). Spark replaces bytes that are not UTF-8
with U+FFFD, so a line holding U+FFFD is refused (rankboard names such bytes an error). Parquet
tables use ``_metadata.row_index``. The grammar is :mod:`tui.engines._shared`'s, the regular
expressions anchored with ``\\z`` (Java's ``$`` also matches before a final line terminator).

Exactness: the later row of a key is the maximum of (place, value) per key; each cell's kept
values are collected and sorted (``sort_array(collect_list(value))``) and the two middle order
statistics taken by index. ``percentile_approx`` (Greenwald & Khanna 2001's sketch) is never used.
Only Spark's built-in expressions run on the executors: they need no Python package.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlparse

from tui.engines._shared import (
    BLANK,
    LINE,
    MAX_INT,
    MAX_LINE,
    MAX_VALUE,
    NAME,
    NONZERO,
    REFUSED,
    Cells,
    EngineRefused,
    Problem,
    Source,
    refusal,
)

CELL = ["criterion", "dataset", "learner"]
KEY = ["dataset", "rep", "fold", "learner", "criterion"]


def _full(column: Any, pattern: str) -> Any:
    return column.rlike(f"^(?:{pattern})\\z")


def _trim(column: Any) -> Any:
    from pyspark.sql import functions as F

    return F.regexp_replace(column, "^[ \t]+|[ \t]+\\z", "")


def _reason(rules: list[tuple[int, Any]], skip: Any = None) -> Any:
    """The first failing rule's code (0: a skipped line, null: a good one)."""
    from pyspark.sql import functions as F

    out = F.when(skip, F.lit(0)) if skip is not None else None
    for code, bad in rules:
        out = F.when(bad, F.lit(code)) if out is None else out.when(bad, F.lit(code))
    return out


def _text_rows(spark: Any, paths: list[str]) -> Any:
    """The rows of the text logs: one regular expression a line (:data:`LINE`), then the ranges
    of the numbers; reason null (read), 0 (a blank line) or :data:`REFUSED`."""
    from pyspark.sql import functions as F

    raw = spark.read.option("lineSep", "\n").text(paths)
    line = F.regexp_replace(F.col("value"), "\r\\z", "")  # a CRLF line's end
    parts = F.split(line, ",", -1)
    trimmed = [_trim(F.try_element_at(parts, F.lit(i))) for i in range(1, 7)]
    rep, fold, value = trimmed[1].try_cast("bigint"), trimmed[2].try_cast("bigint"), trimmed[5].try_cast("double")
    ok = (F.length(line) <= MAX_LINE) & _full(line, LINE)
    out_of_range = (rep > MAX_INT) | (fold > MAX_INT) | (F.abs(value) >= MAX_VALUE)
    underflow = (value == 0) & trimmed[5].rlike(f"^{NONZERO}")
    reason = (
        F.when(ok & ~(out_of_range | underflow), F.lit(None).cast("int"))
        .when(ok, F.lit(REFUSED))
        .when(_full(line, BLANK), F.lit(0))
        .otherwise(F.lit(REFUSED))
    )
    return raw.select(
        F.col("_metadata.file_path").alias("file"),
        F.col("_metadata.file_block_start").alias("block"),
        F.monotonically_increasing_id().alias("row"),
        line.alias("text"),
        reason.alias("reason"),
        trimmed[0].alias("dataset"),
        rep.alias("rep"),
        fold.alias("fold"),
        trimmed[3].alias("learner"),
        trimmed[4].alias("criterion"),
        value.alias("value"),
    )


def _parquet_rows(spark: Any, group: list[Source]) -> Any:
    from pyspark.sql import functions as F

    c = [F.col(f"`{name}`") for name in group[0].columns]
    names = [c[i].cast("string") for i in (0, 3, 4)]
    value = c[5].cast("double")
    rules = [
        (10, c[0].isNull() | c[1].isNull() | c[2].isNull() | c[3].isNull() | c[4].isNull() | c[5].isNull()),
        (4, _trim(names[0]).startswith("#")),
        (5, ~(_full(names[0], NAME) & _full(names[1], NAME) & _full(names[2], NAME))),
        (6, (c[1] < 0) | (c[1] > MAX_INT) | (c[2] < 0) | (c[2] > MAX_INT)),
        (7, F.isnan(value) | (F.abs(value) == float("inf"))),
        (8, F.abs(value) >= MAX_VALUE),
    ]
    raw = spark.read.parquet(*[s.absolute for s in group])
    return raw.select(
        F.col("_metadata.file_path").alias("file"),
        F.lit(0).cast("bigint").alias("block"),
        F.col("_metadata.row_index").alias("row"),
        F.concat_ws(",", *[x.cast("string") for x in c]).alias("text"),
        _reason(rules).alias("reason"),
        _trim(names[0]).alias("dataset"),
        c[1].cast("bigint").alias("rep"),
        c[2].cast("bigint").alias("fold"),
        _trim(names[1]).alias("learner"),
        _trim(names[2]).alias("criterion"),
        value.alias("value"),
    )


def _session(master: str | None) -> tuple[Any, bool]:
    """The active Spark session, else a new one (on ``master``, default ``local[*]``); whether it is new."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    builder = (
        SparkSession.builder.appName("rankboard aggregate")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    spark = builder.master(master or "local[*]").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark, True


def aggregate(files: list[Source], options: dict[str, Any]) -> Cells:
    """The cells of the logs ``files``, computed by Spark."""
    from pyspark.errors import PySparkException
    from pyspark.sql import functions as F

    try:
        spark, new = _session(options.get("master"))
    except Exception as exc:  # no Java, a master that cannot be reached
        raise EngineRefused(f"--engine spark cannot start a session: {type(exc).__name__}: {exc}") from None
    try:
        parts = []
        text = [s.absolute for s in files if s.kind == "text"]
        if text:
            parts.append(_text_rows(spark, text))
        groups: dict[tuple[str, ...], list[Source]] = {}
        for s in files:
            if s.kind == "parquet":
                groups.setdefault(s.columns, []).append(s)
        parts += [_parquet_rows(spark, group) for group in groups.values()]
        rows = parts[0]
        for more in parts[1:]:
            rows = rows.unionByName(more)
        index = _file_index(spark, rows, files)
        rows = rows.join(F.broadcast(index), "file").drop("file")
        rows = rows.cache()
        try:
            _refuse_bad(rows, files)
            good = rows.where(F.col("reason").isNull())
            place = F.struct("src", "block", "row")
            firsts = good.groupBy(*CELL).agg(F.min(place).alias("first"))
            kept = good.groupBy(*KEY).agg(F.max(F.struct(place.alias("place"), F.col("value"))).alias("last"))
            values = kept.groupBy(*CELL).agg(F.sort_array(F.collect_list("last.value")).alias("values"))
            n = F.size("values")
            lo = F.floor((n - 1) / 2).cast("int")
            cells = values.select(
                *CELL,
                n.alias("n"),
                F.element_at("values", lo + 1).alias("a"),
                F.element_at("values", F.least(lo + 2, n)).alias("b"),
            ).join(firsts, CELL)
            out = cells.select(*CELL, "first.src", "first.block", "first.row", "n", "a", "b").collect()
        finally:
            rows.unpersist()
    except PySparkException as exc:
        raise EngineRefused(f"--engine spark cannot read the logs: {_first_lines(str(exc))}") from None
    finally:
        if new:
            spark.stop()
    return _cells(out)


def _cells(out: list[Any]) -> Cells:
    """The collected rows as :class:`Cells`, ``first`` the rank of each cell's first place."""
    import numpy as np

    order = sorted(range(len(out)), key=lambda i: (out[i]["src"], out[i]["block"], out[i]["row"]))
    first = np.empty(len(out), np.int64)
    first[order] = np.arange(len(out))
    columns: dict[str, Any] = {name: [r[name] for r in out] for name in (*CELL, "n", "a", "b")}
    columns["first"] = first
    return Cells(columns)


def _file_index(spark: Any, rows: Any, files: list[Source]) -> Any:
    """A table (file, src): Spark's name of each file read (a URI) and its place in the order."""
    place = {os.path.realpath(s.absolute): s.index for s in files}
    seen = [r["file"] for r in rows.select("file").distinct().collect()]
    pairs = []
    for uri in seen:
        path = os.path.realpath(unquote(urlparse(uri).path))
        if path not in place:  # pragma: no cover - a file Spark read that was not asked for
            raise EngineRefused(f"--engine spark read {uri}, which is none of the logs given")
        pairs.append((uri, place[path]))
    return spark.createDataFrame(pairs, "file string, src long")


def _refuse_bad(rows: Any, files: list[Source]) -> None:
    """Raise :class:`EngineRefused` naming the first bad lines (line numbers counted for those
    files only), when there are any."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    bad = rows.where(F.col("reason") > 0)
    total = bad.count()
    if not total:
        return
    first = bad.orderBy("src", "block", "row").limit(5).collect()
    named = sorted({r["src"] for r in first})
    numbered = (
        rows.where(F.col("src").isin(named))
        .withColumn("ln", F.row_number().over(Window.partitionBy("src").orderBy("block", "row")))
        .where(F.col("reason") > 0)
        .orderBy("src", "block", "row")
        .limit(5)
        .collect()
    )
    problems = [Problem(int(r["src"]), int(r["ln"]), int(r["reason"]), str(r["text"])) for r in numbered]
    raise refusal(problems, int(total), files, "spark")


def _first_lines(message: str) -> str:
    return "\n".join(message.splitlines()[:6])
