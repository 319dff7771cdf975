"""docs/data.md says what the codebook says: the same columns in each CSV, the same event kinds, every JSON key and
study setting named (the codebook itself is checked against the exports in test_questionnaires.py)."""

from __future__ import annotations

import re

import pytest
from helpers.markdown import REPO, section

from webapp.research import answers, codebook, exports
from webapp.study.studies import DEFAULT_SETTINGS

DOC = REPO / "docs" / "data.md"
QUESTION_COLUMNS = ("q_*key*", answers.ATTENTION_FAILED)  # one per question of a study, and the attention checks'
TICKED = re.compile(r"`([^`]+)`")


def doc_section(title_start: str, text: str | None = None) -> str:
    """The text of the ``##`` section whose title starts so."""
    return section(DOC.read_text(encoding="utf-8") if text is None else text, title_start)


def documented_columns(section: str) -> list[str]:
    """The columns a section's table names: each row's first cell, split at commas, ``a1 .. a4`` spelled out, the
    names an "as above" row lists included."""
    columns: list[str] = []
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith(("| column", "| ---")):
            continue
        first = line.split("|")[1].strip()
        for name in (part.strip() for part in first.split(",")):
            spread = re.fullmatch(r"(\w+?)(\d+) \.\. \1(\d+)", name)
            if spread:
                stem, low, high = spread.group(1), int(spread.group(2)), int(spread.group(3))
                columns.extend(f"{stem}{n}" for n in range(low, high + 1))
            elif name not in QUESTION_COLUMNS:
                columns.append(name)
    return columns


CSVS = {
    "Long CSV": (exports.LONG_COLUMNS, codebook.LONG),
    "Wide CSV": (exports.WIDE_COLUMNS, codebook.WIDE),
    "Answers CSV": (answers.ANSWER_COLUMNS, codebook.ANSWERS),
}


@pytest.mark.parametrize("title", list(CSVS))
def test_each_csv_has_the_columns_the_codebook_describes_in_its_order(title: str) -> None:
    columns, described = CSVS[title]
    assert sorted(described) == sorted(columns), "the codebook describes the export's columns (in their order)"
    assert documented_columns(doc_section(title)) == list(columns), f"docs/data.md's {title} table"


def test_the_event_kinds_are_the_codebooks() -> None:
    kind_row = next(line for line in doc_section("Long CSV").splitlines() if line.startswith("| kind |"))
    documented = re.findall(r"`(\w+)`(?: \(|,| or |$)", kind_row)
    allowed = codebook.LONG["kind"][1].split("; ")
    assert sorted(set(documented)) == sorted(allowed)


def test_the_json_section_names_every_key_and_setting() -> None:
    named = set(TICKED.findall(doc_section("JSON")))
    missing = [key for key in (*codebook.JSON_KEYS, *DEFAULT_SETTINGS) if key not in named]
    assert not missing, f"docs/data.md's JSON section does not name {missing}"


def test_the_codebook_names_every_study_setting() -> None:
    meaning = codebook.JSON_KEYS["settings"][2]
    assert [key for key in DEFAULT_SETTINGS if key not in meaning] == []


def test_a_column_left_out_of_the_doc_is_seen() -> None:
    section = doc_section("Wide CSV").replace("| mistakes |", "| errors |")
    assert documented_columns(section) != list(exports.WIDE_COLUMNS)
