"""The one rule that makes a CSV cell safe for spreadsheets (``exports.safe_cell``) and the writer every CSV export
uses (``exports.csv_text``), on values written out here with their expected cells.

``test_safe_exports.py`` sends the same kinds of values through the app's routes.
"""

from __future__ import annotations

import csv
import io

import pytest

from webapp.research import exports

LINK = '=HYPERLINK("http://x","y")'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (LINK, "'" + LINK),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
        (" =1+1", "' =1+1"),
        ("\n -1", "'\n -1"),
        ("'=1+1", "''=1+1"),
        ('"@SUM(A1)', "'\"@SUM(A1)"),
        ("' \"+1", "'' \"+1"),
        ("-", "'-"),
        ("+5", "'+5"),
        ("- 1", "'- 1"),
        ("-1-1", "'-1-1"),
        ("-1e5", "'-1e5"),
        ("-\u0663", "'-\u0663"),
        ("-3", "-3"),
        ("-0.5", "-0.5"),
        ("-1e-05", "-1e-05"),
        ("-2.5e+20", "-2.5e+20"),
        ("", ""),
        ("x", "x"),
        ("a=b", "a=b"),
        ("1-2", "1-2"),
        ("x\t=1", "x\t=1"),
        ("'quoted'", "'quoted'"),
        ("q_age", "q_age"),
        (-0.5, -0.5),
        (-3, -3),
        (None, None),
    ],
)
def test_safe_cell_quotes_formula_text_only(value: object, expected: object) -> None:
    assert exports.safe_cell(value) == expected
    assert type(exports.safe_cell(value)) is type(expected)


def test_csv_text_makes_the_header_and_every_cell_safe_but_keeps_numbers_and_the_apps_ids() -> None:
    text = exports.csv_text(
        ("participant", "=label", "value"),
        [["-abc_DEF12", "@x", -0.5], ["=cmd|' /C calc'!A0", -3, "-2"], ["", "\rx", 7]],
    )
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["participant", "'=label", "value"],
        ["-abc_DEF12", "'@x", "-0.5"],
        ["'=cmd|' /C calc'!A0", "-3", "-2"],
        ["", "'\rx", "7"],
    ]
    assert exports.csv_text(("participant",), [["-abc"]], ids=()) == "participant\n'-abc\n"
