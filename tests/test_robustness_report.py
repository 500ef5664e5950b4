"""``rankboard report --view tests|pairs|cd`` with the robustness of the conclusions (issue 31):
every format carries the figures of ``stats.fragility`` and ``stats.stability`` for the selection's
table, computed here independently from ``stats.scores_table``; names from the logs escaped as
every other name of each format; the JSON follows its schema."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest

import stats
from tests.test_render import validate
from tui import registry
from tui.formats.latex import tex_escape
from tui.formats.markdown import md_escape
from tui.model import Model, default_selection
from tui.render import render_report, schema
from tui.render._json_schema import COMMON, view_keys

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ROOT / "tests" / "data" / "sweep.dat"
CV = ROOT / "sample_logs" / "cv"
LOGS = {"sweep": (SWEEP, "acc"), "cv": (CV, "pd")}
_CACHE: dict[str, tuple[Model, stats.Fragility, stats.Stability, object]] = {}


def _case(name: str) -> tuple[Model, stats.Fragility, stats.Stability, object]:
    """The model, the selection and the stats API's fragility and stability of its table."""
    if name not in _CACHE:
        path, criterion = LOGS[name]
        log = stats.read_logs(path)
        sel = default_selection(log, criterion)
        table = stats.scores_table(log, criterion)
        options = dict(procedure="holm", alpha=0.05, higher_is_better=sel.higher_is_better, test="friedman")
        _CACHE[name] = (Model(log), stats.fragility(table, **options), stats.stability(table, **options), sel)
    return _CACHE[name]


def _report(name: str, view: str, fmt: str) -> str:
    model, _, _, sel = _case(name)
    return render_report(model, sel, view=view, fmt=fmt)  # type: ignore[arg-type]


def _omnibus_words(f: stats.Fragility, esc=str) -> str:  # noqa: ANN001
    """ "fragility 28: adult, anneal, ..." as the stats API gives the omnibus figure."""
    om = f.omnibus
    assert om.exact and om.fragility is not None  # (both logs: an exact figure to check)
    names = [esc(x) for x in om.removed]
    return f"fragility {om.fragility}: " + ", ".join(names[:5])


def _least_rejected(f: stats.Fragility) -> tuple[int, pd.DataFrame]:
    rejected = f.pairs[f.pairs["rejected"] & f.pairs["fragility"].notna()]
    fewest = int(rejected["fragility"].min())
    return fewest, rejected[rejected["fragility"] == fewest]


@pytest.mark.parametrize("name", list(LOGS))
def test_the_text_report_says_the_omnibus_fragility_and_stability_after_the_verdict(name: str) -> None:
    _, f, s, _ = _case(name)
    lines = _report(name, "tests", "text").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("verdict: "))
    robust = lines[at + 1]
    assert robust.startswith("robustness: Friedman's " + ("rejection" if f.omnibus.rejected else "non-rejection"))
    assert _omnibus_words(f) in robust
    held = s.omnibus.held == s.omnibus.analyses
    assert ("holds without any single data set" in robust) is held


def test_the_tests_sentence_names_the_rejected_pairs_one_data_set_reverses() -> None:
    _, f, _, _ = _case("sweep")
    robust = next(x for x in _report("sweep", "tests", "text").splitlines() if x.startswith("robustness: "))
    fewest, least = _least_rejected(f)
    assert fewest == 1
    m = int(f.pairs["rejected"].sum())
    assert f"Holm: {len(least)} of {m} rejected pairs reverse without one data set" in robust
    for row in least.itertuples(index=False):
        assert f"{row.a} vs {row.b} reverses without {row.removed[0]}" in robust


@pytest.mark.parametrize("name", list(LOGS))
def test_the_pairs_report_has_a_fragility_column_equal_to_the_stats_api(name: str) -> None:
    _, f, _, _ = _case(name)
    lines = _report(name, "pairs", "text").splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["a", "b"])
    assert lines[head].split()[-1] == "fragility"
    rows = lines[head + 1 : head + 1 + len(f.pairs)]
    for line, row in zip(rows, f.pairs.itertuples(index=False)):
        assert line.startswith(str(row.a)) and str(row.b) in line
        want = "-" if pd.isna(row.fragility) else str(int(row.fragility))
        assert row.exact and line.split()[-1] == want


@pytest.mark.parametrize("name", list(LOGS))
def test_the_pairs_csv_has_the_fragility_of_every_pair(name: str) -> None:
    _, f, s, _ = _case(name)
    rows = list(csv.DictReader(io.StringIO(_report(name, "pairs", "csv"))))
    assert len(rows) == len(f.pairs)
    by_pair = {(r["a"], r["b"]): r for r in rows}
    for row, st in zip(f.pairs.itertuples(index=False), s.pairs.itertuples(index=False)):
        got = by_pair[(str(row.a), str(row.b))]
        assert got["fragility"] == ("" if pd.isna(row.fragility) else str(int(row.fragility)))
        assert got["fragility_removed"] == "; ".join(map(str, row.removed))
        assert got["stability_held"] == str(st.held) and got["stability_analyses"] == str(st.analyses)


def test_the_tests_and_cd_csv_have_each_learners_role_and_its_stability() -> None:
    _, _, s, _ = _case("sweep")
    for view, key in (("tests", "learner"), ("cd", "learner")):
        rows = list(csv.DictReader(io.StringIO(_report("sweep", view, "csv"))))
        assert rows and all(r["role"] for r in rows)
        for r in rows:
            want = s.roles.loc[r[key]]
            assert r["role"] == want["role"] and r["role_held"] == str(want["held"])


@pytest.mark.parametrize("name", list(LOGS))
def test_the_cd_report_has_the_fragility_line_under_the_diagram(name: str) -> None:
    _, f, _, _ = _case(name)
    text = _report(name, "cd", "text").splitlines()
    assert text[-1].startswith("fragility (Holm): ")
    md = _report(name, "cd", "markdown").splitlines()
    at = next(i for i, x in enumerate(md) if x.startswith("fragility (Holm): "))
    fences = [i for i, x in enumerate(md) if x == "```"]
    assert len(fences) == 2 and fences[1] < at  # under the diagram, out of its code block
    tex = _report(name, "cd", "latex").splitlines()
    assert tex[-1].startswith("% fragility (Holm): ") and tex[-2] == r"\end{tikzpicture}"
    if f.pairs["rejected"].any():
        fewest, least = _least_rejected(f)
        row = next(least.itertuples(index=False))
        assert f"{row.a} vs {row.b} reverses without {row.removed[0]}" in text[-1]
    else:
        assert text[-1] == "fragility (Holm): no pair is rejected"


@pytest.mark.parametrize("name", list(LOGS))
def test_markdown_and_latex_carry_the_sentence_and_the_column(name: str) -> None:
    _, f, _, _ = _case(name)
    md = _report(name, "tests", "markdown")
    line = next(x for x in md.splitlines() if x.startswith("**Robustness:** "))
    assert _omnibus_words(f, md_escape) in line
    tex = _report(name, "tests", "latex")
    assert any(x.startswith("% robustness: ") and _omnibus_words(f, tex_escape) in x for x in tex.splitlines())
    pairs_md = _report(name, "pairs", "markdown").splitlines()
    header = next(x for x in pairs_md if x.startswith("| a | b |"))
    assert header.rstrip(" |").endswith("fragility")
    pairs_tex = _report(name, "pairs", "latex")
    assert "& fragility" in pairs_tex and "% reversed by removing data sets (Holm):" in pairs_tex


@pytest.mark.parametrize("name", list(LOGS))
@pytest.mark.parametrize("view", ["tests", "pairs", "cd"])
def test_the_json_robustness_follows_the_schema_and_equals_the_stats_api(name: str, view: str) -> None:
    _, f, s, _ = _case(name)
    doc = json.loads(_report(name, view, "json"))
    one = {**schema(), "required": [*COMMON, *view_keys(registry.view(view))]}  # the document of one view
    validate(doc, one)
    assert "robustness" in one["required"]
    r = doc["robustness"]
    om = r["omnibus_decision"]
    assert (om["rejected"], om["fragility"], om["exact"]) == (f.omnibus.rejected, f.omnibus.fragility, f.omnibus.exact)
    assert om["removed"] == [str(x) for x in f.omnibus.removed]
    assert (om["held"], om["analyses"]) == (s.omnibus.held, s.omnibus.analyses)
    assert [(p["a"], p["b"]) for p in r["pairs"]] == [(str(a), str(b)) for a, b in zip(f.pairs["a"], f.pairs["b"])]
    want = [None if pd.isna(x) else int(x) for x in f.pairs["fragility"]]
    assert [p["fragility"] for p in r["pairs"]] == want
    assert [p["held"] for p in r["pairs"]] == [int(x) for x in s.pairs["held"]]
    assert {x["learner"]: x["role"] for x in r["roles"]} == {str(k): v for k, v in s.roles["role"].items()}


def test_the_json_schema_declares_the_robustness_key_of_each_view() -> None:
    for name in ("tests", "pairs", "cd"):
        part = registry.view(name).ref("schema")()
        assert "robustness" in part["required"]
        props = part["properties"]["robustness"]
        assert props["type"] == ["object", "null"] and "omnibus_decision" in props["required"]
    bad = json.loads(_report("cv", "tests", "json"))
    bad["robustness"]["omnibus_decision"]["fragility"] = "2"
    with pytest.raises(AssertionError, match="fragility"):
        validate(bad, {**schema(), "required": []})


# --- names from the logs: escaped in each format as every other name ----------------------------

HOSTILE = ("d|*1", "d_2&`x", "d3", "d_4&`y", "d5", "d_6&`z")  # markdown and LaTeX specials


def _hostile(tmp_path: Path) -> tuple[Model, object]:
    """L1 wins on all six data sets; L2 and L3 take turns at second place (stats.fragility's
    example): Nemenyi rejects L1 vs L2, which one data set where L2 is last reverses."""
    table = [[0.9 + 0.002 * i, 0.8 + 0.003 * i * i, 0.7 + 0.004 * i] for i in range(6)]
    table = [[a, b, c] if i % 2 == 0 else [a, c, b] for i, (a, b, c) in enumerate(table)]
    learners = ("L|1", "L*2", "L_3")
    lines = [
        f"{d},1,1,{x},acc,{v}" for d, row in zip(HOSTILE, table) for x, v in zip(learners, row)
    ]  # (one fold: the median is the value)
    path = tmp_path / "hostile.dat"
    path.write_text("\n".join(lines) + "\n")
    log = stats.read_logs(path)
    sel = default_selection(log, "acc")
    import dataclasses

    return Model(log), dataclasses.replace(sel, procedure="nemenyi")


def test_names_in_the_sentences_and_cells_are_escaped_per_format(tmp_path: Path) -> None:
    model, sel = _hostile(tmp_path)
    table = model.analyze(sel).robustness.fragility.pairs  # (the figures checked above; here the names)
    row = table[table["rejected"]].iloc[0]
    removed = row["removed"][0]
    assert removed in HOSTILE[1::2]  # a data set where L2 is last: a name with specials
    md = render_report(model, sel, view="tests", fmt="markdown")  # type: ignore[arg-type]
    line = next(x for x in md.splitlines() if x.startswith("**Robustness:** "))
    assert f"{md_escape(row['a'])} vs {md_escape(row['b'])} reverses without {md_escape(removed)}" in line
    assert "L|1" not in line and "`" not in line.replace("\\`", "")
    tex = render_report(model, sel, view="tests", fmt="latex")  # type: ignore[arg-type]
    line = next(x for x in tex.splitlines() if x.startswith("% robustness: "))
    assert f"reverses without {tex_escape(removed)}" in line and "&" not in line.replace(r"\&", "")
    pairs_md = render_report(model, sel, view="pairs", fmt="markdown")  # type: ignore[arg-type]
    listed = [x for x in pairs_md.splitlines() if x.startswith("- ") and "reverses" not in x and " vs " in x]
    assert any(md_escape(removed) in x and md_escape(row["a"]) in x for x in listed), listed
    cd_tex = render_report(model, sel, view="cd", fmt="latex")  # type: ignore[arg-type]
    assert tex_escape(removed) in cd_tex.splitlines()[-1] and "&" not in cd_tex.splitlines()[-1].replace(r"\&", "")


def test_under_nemenyi_the_pairs_fragility_says_it_follows_the_critical_difference() -> None:
    # the pairs table's nemenyi column is m p (Garcia & Herrera 2008); Nemenyi's rejections in the
    # verdict, the CD diagram and the fragility are Demsar's CD: the note must say which it follows,
    # and its "rejected" must be the CD's (bundled logs, accuracy: KNN vs LogisticRegression is
    # 0.0468 by m p, rejected by both here)
    from dataclasses import replace

    log = stats.read_logs(CV)
    sel = replace(default_selection(log, "accuracy"), procedure="nemenyi")
    text = render_report(Model(log), sel, view="pairs", fmt="text")  # type: ignore[arg-type]
    flat = " ".join(text.split())
    assert "Demšar's (2006) critical difference" in flat and "as in the CD diagram and the verdict" in flat
    ranks = stats.average_ranks(stats.scores_table(log, "accuracy"))
    cd = stats.critical_difference(ranks.k, ranks.n, alpha=0.05)
    average = ranks.ranks
    rejected, kept = ("DecisionTree", "LogisticRegression"), ("GaussianNB", "DecisionTree")
    for pair, said in [(rejected, "(rejected)"), (kept, "(not rejected)")]:
        apart = abs(average[pair[0]] - average[pair[1]]) >= cd
        assert (said == "(rejected)") == apart
        assert f"{pair[0]} vs {pair[1]} {said}" in text
