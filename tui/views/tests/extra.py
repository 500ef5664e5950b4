"""The tests view's additions of issue 16 in every report format: the tie-corrected Friedman statistic
beside Demsar's (2006) form, the multiple sign test against the control and the win/loss/tie table of
Menzies' lecture notes
(:class:`~tui.model._tests_extra.TestsExtra`). Each renderer calls the function of its format."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from stats import fmt_stat, p_is
from tui.model import TestsView

TIE_NOTE = "as scipy's friedmanchisquare and R's friedman.test; the line above is Demsar's (2006) uncorrected form"


def _sign_sentence(tests: TestsView, alpha: float) -> str:
    sign = tests.extra.sign  # type: ignore[union-attr]
    h1 = "worse than" if sign.alternative == "worse" else "different from"
    if sign.critical_value is None:
        crit = f"no count can be rejected at alpha = {alpha:g} with {sign.n} data sets"
    else:
        lo, hi = sign.fwer_bounds
        fwer = f"exact FWER {lo:.4g}" if sign.exact else f"FWER in [{lo:.4g}, {hi:.4g}]"
        crit = f"critical value r* = {sign.critical_value} ({fwer}); rejected when statistic <= r*"
    return (
        f"multiple sign test (Steel 1959) against the control {tests.control}: H1 the learner is {h1} the "
        f"control; +, -, = count the data sets it wins, loses, ties; {crit}"
    )


def _wlt_sentence(alpha: float) -> str:
    return (
        f"win/loss/tie (Menzies): paired t-tests across the data sets at alpha = {alpha:g} between every pair of "
        "learners, no multiplicity correction; sorted by win - loss"
    )


def _sign_rows(tests: TestsView, mark: Callable[[str, bool], str]) -> list[list[str]]:
    table = tests.extra.sign.table  # type: ignore[union-attr]
    return [
        [
            str(name),
            str(int(r["plus"])),
            str(int(r["minus"])),
            str(int(r["ties"])),
            mark(str(int(r["statistic"])), bool(r["rejected"])),
        ]
        for name, r in table.iterrows()
    ]


def _wlt_rows(tests: TestsView) -> list[list[str]]:
    wlt = tests.extra.win_loss_tie  # type: ignore[union-attr]
    return [
        [str(name), *(str(int(r[c])) for c in ("win", "loss", "tie", "win_minus_loss"))] for name, r in wlt.iterrows()
    ]


SIGN_HEADER = ("learner", "+", "-", "=", "statistic")
WLT_HEADER = ("learner", "win", "loss", "tie", "win-loss")


def friedman_ties_text(tests: TestsView) -> str:
    f = tests.extra.friedman_ties  # type: ignore[union-attr]
    return f"Friedman, tie-corrected chi2({f.df}) = {fmt_stat(f.statistic)}, {p_is(f.pvalue)} ({TIE_NOTE})"


def extra_text(tests: TestsView, alpha: float, grid: Callable[..., list[str]]) -> list[str]:
    """Text: the sign test's and the win/loss/tie table's sentences and tables (``grid`` draws them)."""
    out = ["", _sign_sentence(tests, alpha)]
    out += grid(list(SIGN_HEADER), _sign_rows(tests, lambda s, on: s + ("*" if on else " ")))
    out += ["", _wlt_sentence(alpha)]
    out += grid(list(WLT_HEADER), _wlt_rows(tests))
    return out


def extra_markdown(
    tests: TestsView, alpha: float, table: Callable[..., list[str]], escape: Callable[[object], str]
) -> list[str]:
    """Markdown: the same, as pipe tables (rejected statistics in bold)."""
    sign = [[escape(r[0]), *r[1:]] for r in _sign_rows(tests, lambda s, on: f"**{s}**" if on else s)]
    out = ["", escape(_sign_sentence(tests, alpha)) + ".", ""]
    out += table(list(SIGN_HEADER), "lrrrr", sign)
    out += ["", escape(_wlt_sentence(alpha)) + ".", ""]
    out += table(list(WLT_HEADER), "lrrrr", [[escape(r[0]), *r[1:]] for r in _wlt_rows(tests)])
    return out


def extra_latex(
    tests: TestsView, alpha: float, tabular: Callable[..., list[str]], escape: Callable[[object], str]
) -> list[str]:
    """LaTeX: the same, as tabulars (rejected statistics in bold); the sentences as comments."""
    bold: Callable[[str, bool], str] = lambda s, on: f"\\textbf{{{s}}}" if on else s  # noqa: E731
    sign = [[escape(r[0]), *r[1:]] for r in _sign_rows(tests, bold)]
    out = ["", f"% {escape(_sign_sentence(tests, alpha))}"]
    out += tabular(
        "l r r r r",
        ["Learner", "$+$", "$-$", "$=$", "Statistic"],
        sign,
        f"multiple sign test vs {escape(tests.control)}",
    )
    out += ["", f"% {escape(_wlt_sentence(alpha))}"]
    wlt = [[escape(r[0]), *r[1:]] for r in _wlt_rows(tests)]
    out += tabular("l r r r r", ["Learner", "Win", "Loss", "Tie", "Win $-$ loss"], wlt, "win/loss/tie")
    return out


def extra_json(tests: TestsView | None, num: Callable[[Any], Any]) -> dict[str, Any]:
    """JSON: ``friedman_tie_corrected``, ``multiple_sign`` and ``win_loss_tie`` (None without tests)."""
    if tests is None or tests.extra is None:
        return {"friedman_tie_corrected": None, "multiple_sign": None, "win_loss_tie": None}
    f, sign, wlt = tests.extra.friedman_ties, tests.extra.sign, tests.extra.win_loss_tie
    return {
        "friedman_tie_corrected": {"statistic": num(f.statistic), "pvalue": num(f.pvalue), "df": num(f.df)},
        "multiple_sign": {
            "control": tests.control,
            "alternative": sign.alternative,
            "critical_value": sign.critical_value,
            "exact": bool(sign.exact),
            "fwer_bounds": [num(x) for x in sign.fwer_bounds],
            "rows": [
                {
                    "learner": str(name),
                    **{k: int(r[k]) for k in ("plus", "minus", "ties", "statistic")},
                    "rejected": bool(r["rejected"]),
                }
                for name, r in sign.table.iterrows()
            ],
        },
        "win_loss_tie": [
            {"learner": str(name), **{k: int(r[k]) for k in ("win", "loss", "tie", "win_minus_loss")}}
            for name, r in wlt.iterrows()
        ],
    }


def extra_csv(tests: TestsView, frame: pd.DataFrame) -> pd.DataFrame:
    """CSV: the control table's rows gain the multiple sign test's columns (sign_plus, sign_minus,
    sign_ties, sign_statistic, sign_rejected) and every learner's win, loss, tie, win_minus_loss;
    the control gets a row of its own with only those four."""
    assert tests.extra is not None
    sign = tests.extra.sign.table.rename(columns=lambda c: f"sign_{c}")
    sign.index = [str(x) for x in sign.index]
    wlt = tests.extra.win_loss_tie
    out = frame.set_index("learner").join(sign, how="left")
    control = pd.DataFrame(index=[tests.control])
    out = pd.concat([out, control]).join(wlt, how="left")
    out.index.name = "learner"
    for c in (*(f"sign_{k}" for k in ("plus", "minus", "ties", "statistic")), "win", "loss", "tie", "win_minus_loss"):
        out[c] = out[c].astype("Int64")
    out["sign_rejected"] = out["sign_rejected"].astype("boolean")
    return out.reset_index()


__all__: Sequence[str] = (
    "extra_csv",
    "extra_json",
    "extra_latex",
    "extra_markdown",
    "extra_text",
    "friedman_ties_text",
)
