"""The grouped median on DuckDB (Raasveldt & Muehleisen 2019): one node, out of core.

Text logs are read a whole line a row (``read_csv`` with one column and a delimiter no line may
hold: a line with it is an error of DuckDB's, never a cut), so that the line numbers are the
files' and the fields are judged by :mod:`tui.engines._shared`'s grammar; Parquet tables with
``read_parquet`` (``file_row_number`` is the row's place). Rows keep the scan's order (DuckDB
preserves insertion order unless told not to), which ``row_number() OVER ()`` numbers.

The median's two order statistics come from ``row_number()`` over each cell sorted by value: a
sort, which DuckDB spills to disk when it outgrows memory; no approximate quantile is used.
"""

from __future__ import annotations

from typing import Any

from tui.engines._shared import (
    BLANK,
    FILE_STRIDE,
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

_TAB = "' ' || chr(9)"


def _text_rows() -> str:
    """The rows of the text logs: src, pos, ln (for messages), kind, text, reason (null: read,
    0: a blank line, :data:`REFUSED`: refused) and the six fields."""
    f = [f"parts[{i}]" for i in range(1, 7)]
    trimmed = [f"trim({x}, {_TAB})" for x in f]
    value = f"TRY_CAST({trimmed[5]} AS DOUBLE)"
    reason = f"""CASE
        WHEN length(line) <= {MAX_LINE} AND regexp_full_match(line, $line) THEN
             CASE WHEN TRY_CAST({trimmed[1]} AS BIGINT) > {MAX_INT} OR TRY_CAST({trimmed[2]} AS BIGINT) > {MAX_INT}
                       OR abs({value}) >= {MAX_VALUE!r}
                       OR ({value} = 0 AND regexp_matches({trimmed[5]}, '^' || $nonzero)) THEN {REFUSED} END
        WHEN regexp_full_match(line, $blank) THEN 0
        ELSE {REFUSED}
        END"""
    return f"""
      SELECT src, src * {FILE_STRIDE} + g AS pos, g AS ln, 'text' AS kind, line AS text, {reason} AS reason,
             {trimmed[0]} AS dataset, TRY_CAST({trimmed[1]} AS BIGINT) AS rep, TRY_CAST({trimmed[2]} AS BIGINT) AS fold,
             {trimmed[3]} AS learner, {trimmed[4]} AS criterion, {value} AS value
      FROM (SELECT list_position($all_files, filename) - 1 AS src, coalesce(line, '') AS line,
                   string_split(coalesce(line, ''), ',') AS parts, row_number() OVER () AS g
            FROM read_csv($text_files, columns = {{'line': 'VARCHAR'}}, header = false, auto_detect = false,
                          delim = chr(31), quote = '', escape = '', comment = '', strict_mode = true,
                          filename = true))"""


def _parquet_rows(group: list[Source], key: str) -> str:
    """The rows of Parquet tables with the same column names (``$key`` holds their paths)."""
    c = [f'"{name.replace(chr(34), chr(34) * 2)}"' for name in group[0].columns]
    names = [f"CAST({x} AS VARCHAR)" for x in (c[0], c[3], c[4])]
    value = f"CAST({c[5]} AS DOUBLE)"
    reason = f"""CASE
        WHEN {c[0]} IS NULL OR {c[1]} IS NULL OR {c[2]} IS NULL OR {c[3]} IS NULL OR {c[4]} IS NULL
             OR {c[5]} IS NULL THEN 10
        WHEN starts_with(ltrim({names[0]}, {_TAB}), '#') THEN 4
        WHEN NOT (regexp_full_match({names[0]}, $name) AND regexp_full_match({names[1]}, $name)
                  AND regexp_full_match({names[2]}, $name)) THEN 5
        WHEN {c[1]} < 0 OR {c[1]} > {MAX_INT} OR {c[2]} < 0 OR {c[2]} > {MAX_INT} THEN 6
        WHEN NOT isfinite({value}) THEN 7
        WHEN abs({value}) >= {MAX_VALUE!r} THEN 8
        END"""
    return f"""
      SELECT list_position($all_files, filename) - 1 AS src,
             (list_position($all_files, filename) - 1) * {FILE_STRIDE} + file_row_number AS pos,
             file_row_number + 1 AS ln, 'parquet' AS kind,
             concat_ws(',', {", ".join(f"CAST({x} AS VARCHAR)" for x in c)}) AS text, {reason} AS reason,
             trim({names[0]}, {_TAB}) AS dataset, CAST({c[1]} AS BIGINT) AS rep, CAST({c[2]} AS BIGINT) AS fold,
             trim({names[1]}, {_TAB}) AS learner, trim({names[2]}, {_TAB}) AS criterion, {value} AS value
      FROM read_parquet(${key}, filename = true, file_row_number = true)"""


# The later row of a key wins (arg_max by position); a cell's first row is the least position of
# its keys' rows, replaced ones included; the order statistics come from a sort within each cell.
_CELLS = """
  kept AS (SELECT criterion, dataset, learner, arg_max(value, pos) AS value, min(pos) AS first
           FROM rows WHERE reason IS NULL GROUP BY dataset, rep, fold, learner, criterion),
  ranked AS (SELECT *, row_number() OVER (PARTITION BY criterion, dataset, learner ORDER BY value) - 1 AS k,
                    count(*) OVER (PARTITION BY criterion, dataset, learner) AS n FROM kept)
  SELECT criterion, dataset, learner, min(first) AS first, any_value(n) AS n,
         max(value) FILTER (WHERE k = (n - 1) // 2) AS a,
         max(value) FILTER (WHERE k = least((n - 1) // 2 + 1, n - 1)) AS b
  FROM ranked GROUP BY ALL"""


def aggregate(files: list[Source], options: dict[str, Any]) -> Cells:
    """The cells of the logs ``files``, computed by DuckDB (``options`` unused: one node)."""
    import duckdb

    con = duckdb.connect()
    try:
        params: dict[str, Any] = {
            "blank": BLANK,
            "line": LINE,
            "name": NAME,
            "nonzero": NONZERO,
        }
        params["all_files"] = [s.absolute for s in files]  # list_position: a row's file -> its place in the order
        parts = []
        text = [s.absolute for s in files if s.kind == "text"]
        if text:
            parts.append(_text_rows())
            params["text_files"] = text
        groups: dict[tuple[str, ...], list[Source]] = {}
        for s in files:
            if s.kind == "parquet":
                groups.setdefault(s.columns, []).append(s)
        for i, group in enumerate(groups.values()):
            key = f"parquet_{i}"
            parts.append(_parquet_rows(group, key))
            params[key] = [s.absolute for s in group]
        used = "\n".join(parts)
        params = {k: v for k, v in params.items() if f"${k}" in used}
        rows = "\n UNION ALL \n".join(parts)
        try:
            _refuse_bad(con, f"WITH rows AS ({rows})", params, files)
            result = con.execute(f"WITH rows AS ({rows}), {_CELLS}", params).fetchnumpy()
        except duckdb.Error as exc:
            raise EngineRefused(f"--engine duckdb cannot read the logs: {_explain(str(exc))}") from None
    finally:
        con.close()
    return Cells({name: result[name] for name in ("criterion", "dataset", "learner", "first", "n", "a", "b")})


def _refuse_bad(con: Any, rows: str, params: dict[str, Any], files: list[Source]) -> None:
    """Raise :class:`EngineRefused` naming the first bad lines, when there are any (``rows``: the
    ``WITH`` clause defining them)."""
    (total,) = con.execute(f"{rows} SELECT count(*) FROM rows WHERE reason > 0", params).fetchone()
    if not total:
        return
    shown = con.execute(
        rows
        + """ SELECT src, CASE WHEN kind = 'text' THEN ln - (SELECT min(r.ln) FROM rows r WHERE r.src = b.src) + 1
                           ELSE ln END, reason, text
           FROM (SELECT * FROM rows WHERE reason > 0 ORDER BY pos LIMIT 5) b ORDER BY pos""",
        params,
    ).fetchall()
    problems = [Problem(int(s), int(ln), int(code), text) for s, ln, code, text in shown]
    raise refusal(problems, int(total), files, "duckdb")


def _explain(message: str) -> str:
    """DuckDB's error in a few lines: its first, the file and line it names, and what the text
    reader needs (its list of the reader's options left out)."""
    import re

    lines = [line.strip() for line in message.splitlines() if line.strip()]
    named = [line for line in lines if re.match(r"(file = |CSV Error on Line|Original Line)", line)]
    csv = any("CSV" in line for line in lines)
    need = (
        "\nthe engines read text lines ending in LF or CRLF (one kind a file), with no lone carriage return "
        "and no U+001F character; rankboard check names every problem"
        if csv
        else ""
    )
    return "\n".join([lines[0] if lines else message, *named[:3]]) + need
