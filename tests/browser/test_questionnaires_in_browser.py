"""A study with consent clauses and a questionnaire in a real browser: the researcher builds it through the form, a
participant ticks every clause, answers the questions before the puzzles, the per-puzzle items after each puzzle,
an attention check and the questions after the last, and the exports and the codebook hold exactly those answers.

Expected values are what the test typed and clicked, written out here.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from flask import Flask
from helpers.axe import assert_accessible
from helpers.board_page import new_page
from helpers.study_page import (
    GAME_URL,
    JOB_PATIENCE_MS,
    create_account,
    download,
    easy_puzzle,
    header_of,
    log_in,
    nearly_solved,
    open_study,
    participant_of,
    solve_on_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy import select

from webapp import db
from webapp.models import Answer

pytestmark = pytest.mark.browser

EMAIL = "researcher@questionnaire-tests.example"
PASSWORD = "correct horse battery staple"
SEEDS = (2201, 2202)
CONSENT = """Consent for the questionnaire study.

- I am 18 or older.
- I agree that my answers and solve times are recorded.
"""
QUESTIONS = """[before]
age | integer: 18 to 99 | How old are you?
often | single: Never; Monthly; Weekly; Daily | How often do you solve Sudoku?
[after each puzzle]
strategy | text: 60 | optional | Which strategy did you use?
[after]
attention | likert5: Strongly disagree / Strongly agree | check: Strongly disagree | Select "Strongly disagree" here.
enjoy | likert5: Not at all / Very much | How much did you enjoy the puzzles?
"""
PER_PUZZLE = [
    {"difficulty": "2", "tlx_mental": "30", "tlx_effort": "25", "tlx_frustration": "0", "strategy": "naked singles"},
    {"difficulty": "5", "tlx_mental": "70", "tlx_effort": "65", "tlx_frustration": "45", "strategy": ""},
]


@pytest.fixture(scope="module")
def account(live_app: tuple[Flask, str]) -> tuple[str, str]:
    """A researcher account on the live app."""
    create_account(live_app[0], EMAIL, PASSWORD)
    return EMAIL, PASSWORD


@pytest.fixture
def person(browser: Browser, base_url: str, people: list[BrowserContext]) -> Page:
    """A participant's page in a browser context of their own (downloads accepted: the consent's text)."""
    return new_page(browser, base_url, people, accept_downloads=True)


def rows_of(text: str) -> list[dict[str, str]]:
    """The rows of a CSV download."""
    return list(csv.DictReader(io.StringIO(text)))


def build_study(page: Page, puzzles: list[str]) -> tuple[int, str]:
    """The new-study form with consent clauses, the questions and both per-puzzle items; the study and its link."""
    page.goto("/research/studies/new")
    page.locator("#name").fill("Questionnaire study")
    page.locator("#consent_text").fill(CONSENT)
    page.locator("#puzzles").fill("\n".join(puzzles))
    page.locator("#order_scheme").select_option("fixed")
    page.locator("#ask_difficulty").check()
    page.locator("#ask_effort").check()
    page.locator("#questions").fill(QUESTIONS)
    page.locator("#create-study").click()
    page.wait_for_url(re.compile(r"/research/studies/\d+$"))
    expect(page.locator("#entry-link")).to_be_visible(timeout=JOB_PATIENCE_MS)
    open_study(page)
    return int(page.url.rsplit("/", 1)[1]), page.locator("#entry-link").input_value()


def answer_puzzle_items(person: Page, index: int) -> None:
    """The per-puzzle page after puzzle ``index``: the built-in items and the strategy question."""
    expect(person.locator("#questions")).to_have_attribute("data-page", f"puzzle-{index}")
    assert_accessible(person, "the questions after a puzzle")
    given = PER_PUZZLE[index]
    for key in ("difficulty", "tlx_mental", "tlx_effort", "tlx_frustration"):
        person.locator(f'input[name="q_{key}"][value="{given[key]}"]').check()
    person.locator("#q_strategy").fill(given["strategy"])
    person.locator("#send-answers").click()


def test_a_participant_ticks_the_clauses_answers_every_block_and_the_exports_hold_it(
    page: Page, person: Page, live_app: tuple[Flask, str], account: tuple[str, str]
) -> None:
    app = live_app[0]
    pairs = [easy_puzzle(seed) for seed in SEEDS]
    puzzles = [(nearly_solved(solution), solution) for _p, solution in pairs]
    log_in(page, *account)
    study_id, link = build_study(page, [p for p, _s in puzzles])
    public_id = link.rsplit("/", 1)[1]

    person.goto(f"{link}?participant_label=Q-1")
    expect(person.locator('input[name="clause"]')).to_have_count(2)
    assert_accessible(person, "the consent with its clauses")
    consent_text = download(person, "#consent-download")
    assert "- I agree that my answers and solve times are recorded." in consent_text
    person.locator("#clause-1").check()
    person.locator("#agree").click()  # the second clause is not ticked: the browser keeps the page
    expect(person.locator("#agree")).to_be_visible()
    assert participant_of(app, public_id, "Q-1").consented_at is None
    person.locator("#clause-2").check()
    person.locator("#agree").click()

    expect(person.locator("#questions")).to_have_attribute("data-page", "before")
    assert_accessible(person, "the questions before the puzzles")
    person.locator("#q_age").fill("17")
    person.get_by_label("Weekly").check()
    person.locator("#send-answers").click()  # the browser refuses 17 (min 18) before sending
    expect(person.locator("#questions")).to_have_attribute("data-page", "before")
    person.locator("#q_age").fill("41")
    person.locator("#send-answers").click()
    person.locator("#start").click()

    games = []
    for index, (puzzle, solution) in enumerate(puzzles):
        person.wait_for_url(GAME_URL)
        games.append(person.url.rsplit("/", 1)[1])
        solve_on_page(person, puzzle, solution)
        person.locator("#completion #next-puzzle").click()
        answer_puzzle_items(person, index)
        if index == 0:
            person.locator("#continue").click()

    expect(person.locator("#questions")).to_have_attribute("data-page", "after")
    person.locator('input[name="q_attention"][value="1"]').check()
    person.locator('input[name="q_enjoy"][value="4"]').check()
    person.locator("#send-answers").click()
    expect(person.locator("#thanks")).to_have_text("Thank you!")

    expected = [
        ("before", "age", "41", ""),
        ("before", "often", "Weekly", ""),
        *[
            ("puzzle", key, given[key], "")
            for given in PER_PUZZLE
            for key in ("difficulty", "tlx_mental", "tlx_effort", "tlx_frustration", "strategy")
        ],
        ("after", "attention", "1", "1"),
        ("after", "enjoy", "4", ""),
    ]
    with db.sessions_of(app)() as session:
        stored = [
            (a.block, a.question, a.value or "", a.passed) for a in session.scalars(select(Answer).order_by(Answer.id))
        ]
    assert [(b, q, v) for b, q, v, _p in stored] == [(b, q, v) for b, q, v, _p in expected]

    page.goto(f"/research/studies/{study_id}")
    answers_text = download(page, "#export-answers")
    answers = rows_of(answers_text)
    assert [(r["block"], r["question"], r["value"], r["passed"]) for r in answers] == expected
    assert [r["game"] for r in answers if r["block"] == "puzzle"] == [games[0]] * 5 + [games[1]] * 5
    wide_text = download(page, "#export-wide")
    wide = rows_of(wide_text)
    assert [row["game"] for row in wide] == games
    for key in ("difficulty", "tlx_mental", "tlx_effort", "tlx_frustration", "strategy"):
        assert [row[f"q_{key}"] for row in wide] == [given[key] for given in PER_PUZZLE], key
    assert all(row["q_age"] == "41" and row["q_enjoy"] == "4" and row["attention_failed"] == "0" for row in wide)
    exported = json.loads(download(page, "#export-json"))
    assert exported["consent_clauses"] == [
        "I am 18 or older.",
        "I agree that my answers and solve times are recorded.",
    ]
    assert [(a["block"], a["question"], a["value"]) for a in exported["answers"]] == [e[:3] for e in expected]

    book = rows_of(download(page, "#export-codebook"))
    long_text = download(page, "#export-long")
    for kind, text in (("long.csv", long_text), ("wide.csv", wide_text), ("answers.csv", answers_text)):
        assert [row["column"] for row in book if row["file"] == kind] == header_of(text), kind
    assert [row["column"] for row in book if row["file"] == "study.json"] == list(exported)
    assert all(row["meaning"] for row in book)
    described = {row["column"]: row for row in book if row["file"] == "wide.csv"}
    assert described["q_often"]["allowed_values"] == "one of: Never | Monthly | Weekly | Daily"
    assert "How old are you?" in described["q_age"]["meaning"]
