"""The CSV exports neutralise cells a spreadsheet would read as a formula (OWASP's "CSV injection"): a text cell
starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (or with one of the four after leading
whitespace or quotes) gets a leading ``'``; numbers and the app's own ids stay as they are; a cell holding a
carriage return is quoted, so no row starts inside it; and the JSON is exact.

Expected values are written out here from what the test sends, never read back from the app's own output.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.questionnaires import agree, answer, solve_current
from helpers.studies import (
    consumer,  # noqa: F401  (fixtures)
    create,
    enter_study,
    form_token,
    public_id,
)

from sudoku_engine.generate import generate_puzzle

LINK = '=HYPERLINK("http://x","y")'
QUESTIONS = f"""[before]
t_link | text: 100 | {LINK}
pick | single: {LINK}; +1; -2+3; @SUM(A1) | @SUM(A1)
many | multiple: +1; -2+3; @SUM(A1) | -2+3
scale | likert5: =1+1 / @SUM(A1) | +1
[after each puzzle]
t_plus | text: 100 | optional | +1
t_minus | text: 100 | optional | -2+3
t_at | text: 100 | optional | @SUM(A1)
t_tab | text: 100 | optional | Tab first?
t_cr | text: 100 | optional | Carriage return first?
shift | number: -10 to 10 | How far off were you?
[after]
t_quote | text: 100 | '-2+3
t_dquote | text: 100 | "=1+1
offset | integer: -5 to 5 | How many off?
t_inner | text: 100 | Anything else?
"""
# What the participant sends, page by page.
BEFORE: dict[str, str | list[str]] = {"q_t_link": LINK, "q_pick": "1", "q_many": ["1", "2"], "q_scale": "3"}
PUZZLE: dict[str, str | list[str]] = {
    "q_t_plus": "+1",
    "q_t_minus": "-2+3",
    "q_t_at": "@SUM(A1)",
    "q_t_tab": "\tx",
    "q_t_cr": "\rx",
    "q_shift": "-2.5",
}
AFTER: dict[str, str | list[str]] = {
    "q_t_quote": "'-2+3",
    "q_t_dquote": '"=1+1',
    "q_offset": "-3",
    "q_t_inner": "a\r@SUM(A1)",
}
# The answers as stored (and in the JSON): the answer form trims surrounding whitespace, so a leading tab or
# carriage return never reaches an export through it (the study's description and instructions keep theirs).
STORED = {
    "t_link": LINK,
    "pick": LINK,
    "many": "+1;-2+3",
    "scale": "3",
    "t_plus": "+1",
    "t_minus": "-2+3",
    "t_at": "@SUM(A1)",
    "t_tab": "x",
    "t_cr": "x",
    "shift": "-2.5",
    "t_quote": "'-2+3",
    "t_dquote": '"=1+1',
    "offset": "-3",
    "t_inner": "a\r@SUM(A1)",
}
# The same answers in the answers CSV and the wide CSV.
IN_CSV = {
    "t_link": "'" + LINK,
    "pick": "'" + LINK,
    "many": "'+1;-2+3",
    "scale": "3",
    "t_plus": "'+1",
    "t_minus": "'-2+3",
    "t_at": "'@SUM(A1)",
    "t_tab": "x",
    "t_cr": "x",
    "shift": "-2.5",
    "t_quote": "''-2+3",
    "t_dquote": "'\"=1+1",
    "offset": "-3",
    "t_inner": "a\r@SUM(A1)",  # one quoted cell: no row starts at its carriage return
}
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-[0-9]+(\.[0-9]+)?")


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """One easy generated puzzle with its solution."""
    made = generate_puzzle(seed=1207, givens=62)
    return [(str(made.puzzle), str(made.solution))]


def exported_csv(client: FlaskClient, study_id: int, kind: str) -> list[list[str]]:
    """Every line of one CSV export, the header first."""
    response = client.get(f"/research/studies/{study_id}/export/{kind}")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True), newline="")))


def as_dicts(lines: list[list[str]]) -> list[dict[str, str]]:
    """The rows of a CSV under its header's names."""
    return [dict(zip(lines[0], line, strict=True)) for line in lines[1:]]


def test_formula_cells_of_every_csv_export_get_a_leading_quote_and_the_json_stays_exact(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(
        researcher,
        puzzles,
        name=LINK,
        description="\tx",
        instructions="\rx",
        order_scheme="fixed",
        breaks="",
        questions=QUESTIONS,
    )
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, f"{base}?participant_label=-2+3")
    assert agree(client, base, []).status_code == 303
    assert answer(client, base, "before", BEFORE).status_code == 303
    client.post(f"{base}/start", data={"csrf_token": form_token(client, f"{base}/go")})
    game = solve_current(app, client, base)
    assert answer(client, base, "puzzle-0", PUZZLE).status_code == 303
    assert answer(client, base, "after", AFTER).status_code == 303

    exported = researcher.get(f"/research/studies/{study_id}/export/study.json").get_json()
    assert (exported["name"], exported["description"], exported["instructions"]) == (LINK, "\tx", "\rx")
    asked = {q["key"]: q for q in exported["questionnaire"]["questions"]}
    assert [asked[key]["text"] for key in ("t_link", "pick", "many", "scale", "t_plus", "t_minus", "t_at")] == [
        LINK,
        "@SUM(A1)",
        "-2+3",
        "+1",
        "+1",
        "-2+3",
        "@SUM(A1)",
    ]
    assert (asked["t_quote"]["text"], asked["t_dquote"]["text"]) == ("'-2+3", '"=1+1')
    assert asked["pick"]["options"] == [LINK, "+1", "-2+3", "@SUM(A1)"]
    assert asked["scale"]["options"] == ["=1+1", "@SUM(A1)"]
    assert {a["question"]: a["value"] for a in exported["answers"]} == STORED
    person = exported["answers"][0]["participant"]
    ids = {exported["study"], person, game}  # the app's own ids, written as they are

    lines = {kind: exported_csv(researcher, study_id, kind) for kind in ("long.csv", "wide.csv", "answers.csv")}
    lines["codebook.csv"] = exported_csv(researcher, study_id, "codebook.csv")
    for kind, rows in lines.items():
        for row in rows:
            for cell in row:
                if cell.startswith(DANGEROUS):
                    assert NUMBER.fullmatch(cell) or cell in ids, (kind, cell)

    assert {row["question"]: row["value"] for row in as_dicts(lines["answers.csv"])} == IN_CSV
    (wide,) = as_dicts(lines["wide.csv"])
    assert {key: wide[f"q_{key}"] for key in IN_CSV} == IN_CSV
    assert (wide["participant"], wide["game"]) == (person, game)
    assert {(row["participant"], row["game"]) for row in as_dicts(lines["long.csv"])} == {(person, game)}

    book = {row["column"]: row for row in as_dicts(lines["codebook.csv"]) if row["file"] == "wide.csv"}
    repeat = "wide CSV: answers before and after repeat on each row)"
    assert book["q_t_link"]["meaning"] == f"'{LINK} (asked before the puzzles; {repeat}"
    assert book["q_pick"]["meaning"] == f"'@SUM(A1) (asked before the puzzles; {repeat}"
    assert book["q_many"]["meaning"] == f"'-2+3 (asked before the puzzles; {repeat}"
    assert book["q_t_plus"]["meaning"] == f"'+1 (asked after each puzzle; {repeat}"
    assert book["q_t_quote"]["meaning"] == f"''-2+3 (asked after the last puzzle; {repeat}"
    assert book["q_t_dquote"]["meaning"] == f"'\"=1+1 (asked after the last puzzle; {repeat}"
    assert book["q_pick"]["allowed_values"] == f"one of: {LINK} | +1 | -2+3 | @SUM(A1)"
    assert book["q_shift"]["allowed_values"] == "'-10 to 10"
    assert book["q_offset"]["allowed_values"] == "'-5 to 5"
