"""Predicted times in a real browser: the slider, a game and the history say an extrapolated time in words, never
a bare figure; a study participant sees no rating before the perceived-difficulty question (the end of the study
shows them when the researcher switched them on), and a solved study puzzle offers no Give up."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from helpers.board_page import ARTIFACTS, expect_solved, new_page
from helpers.study_page import GAME_URL, JOB_PATIENCE_MS, create_account, easy_puzzle, log_in, nearly_solved, open_study
from playwright.sync_api import Browser, BrowserContext, Page, expect

from sudoku_engine.slider import describe
from webapp.bank import pool, seed

pytestmark = pytest.mark.browser

EMAIL = "researcher@time-words.example"
PASSWORD = "correct horse battery"
DIGIT = re.compile(r"\d")


def hardest_record() -> pool.BankRecord:
    """The shipped seed record of the highest D."""
    return max(seed.read_seed(seed.SEED_FILE), key=lambda record: record["d"])


def shot(page: Page, name: str) -> None:
    """Keep a screenshot for a person to look at, in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(Path(ARTIFACTS) / f"time-words-{name}.png"), full_page=True)


def test_the_top_of_the_slider_and_the_hardest_game_say_words_not_minutes(
    browser: Browser, seeded: tuple[Flask, str], people: list[BrowserContext]
) -> None:
    page = new_page(browser, seeded[1], people, viewport={"width": 1280, "height": 900})
    page.goto("/")
    shown = page.locator("#slider-info")
    for value in (0, 50, 100):
        page.locator("#difficulty").fill(str(value))
        info = describe(float(value))
        expect(shown).to_have_attribute("data-slider", str(info.slider))
        minutes = shown.locator(".minutes")
        expect(minutes).to_have_text(info.time.words)
        if value < 100:
            assert not info.time.extrapolated and DIGIT.search(minutes.inner_text())
            expect(shown.locator(".minutes-range")).to_contain_text("for 8 players in 10")
        else:
            expect(minutes).to_have_text("several hours; most players do not finish")
            expect(shown).to_have_attribute("data-extrapolated", "yes")
            expect(shown.locator(".minutes-range")).to_have_count(0)
            assert not DIGIT.search(minutes.inner_text())
        shot(page, f"slider-{value}")
    page.locator("#new-puzzle").click()  # slider 100: the hardest seed puzzle (nothing can be generated there)
    page.wait_for_url(GAME_URL)
    rating = page.locator("#puzzle-rating")
    expect(rating.locator(".minutes")).to_have_text("several hours; most players do not finish")
    assert not DIGIT.search(rating.locator(".minutes").inner_text())
    hardest = hardest_record()
    page.goto(f"/p/{hardest['puzzle']}")
    page.wait_for_url(GAME_URL)
    expect(rating.locator(".puzzle-d")).to_have_text(f"{hardest['d']:.2f}")
    expect(rating.locator(".minutes")).to_have_text("several hours; most players do not finish")
    expect(rating).to_have_attribute("data-extrapolated", "yes")
    shot(page, "hardest-game")
    page.goto("/history")
    predicted = page.locator("#games tr.played .predicted")
    expect(predicted).to_have_count(2)
    for index in range(2):
        expect(predicted.nth(index)).to_have_text("several hours; most players do not finish")


def study_of_one(page: Page, name: str, puzzle: str, *, show_rating: bool) -> str:
    """A study of one puzzle asking the perceived-difficulty question after it, made from the form; its link."""
    page.goto("/research/studies/new")
    page.locator("#name").fill(name)
    page.locator("#consent_text").fill("Your solve times are recorded.")
    page.locator("#puzzles").fill(puzzle)
    page.locator("#order_scheme").select_option("fixed")
    page.locator("#ask_difficulty").check()
    page.locator("#show_rating").set_checked(show_rating)
    page.locator("#create-study").click()
    page.wait_for_url(re.compile(r"/research/studies/\d+$"))
    expect(page.locator("#entry-link")).to_be_visible(timeout=JOB_PATIENCE_MS)
    open_study(page)
    return page.locator("#entry-link").input_value()


def solve_three(page: Page, solution: str) -> None:
    """Type the three missing digits of a nearly solved puzzle (r1c1, r5c5, r9c9)."""
    for cell in (0, 40, 80):
        page.locator(f'#board [data-cell="r{cell // 9 + 1}c{cell % 9 + 1}"]').click()
        page.keyboard.press(solution[cell])
    expect_solved(page)


def test_a_participant_sees_no_rating_before_the_difficulty_question(
    page: Page, browser: Browser, live_app: tuple[Flask, str], people: list[BrowserContext]
) -> None:
    create_account(live_app[0], EMAIL, PASSWORD)
    log_in(page, EMAIL, PASSWORD)
    _puzzle, solution = easy_puzzle(2501)
    links = {
        shown: study_of_one(page, f"Ratings {shown}", nearly_solved(solution), show_rating=shown)
        for shown in (True, False)
    }
    for shown, link in links.items():
        person = new_page(browser, live_app[1], people)
        person.goto(f"{link}?participant_label=rating-{shown}")
        person.locator("#agree").click()
        person.locator("#start").click()
        person.wait_for_url(GAME_URL)
        board = person.locator("#game")
        expect(person.locator("#give-up")).to_be_visible()
        for hidden in ("#puzzle-rating", ".puzzle-d", ".zone", ".minutes"):
            expect(board.locator(hidden)).to_have_count(0)
        solve_three(person, solution)
        completion = person.locator("#completion")
        expect(completion.locator("dt")).to_have_text(["Hints", "Mistakes"])  # no difficulty, no techniques needed
        for hidden in (".puzzle-d", ".zone", "#techniques"):
            expect(completion.locator(hidden)).to_have_count(0)
        expect(person.locator("#give-up")).to_have_count(0)  # solved: nothing left to give up
        expect(person.locator("#withdraw")).to_be_visible()
        if shown:
            shot(person, "study-solved")
        person.locator("#next-puzzle").click()
        expect(person.locator("#questions")).to_have_attribute("data-page", "puzzle-0")
        assert not re.search(r"\bD \d|minutes|Easy|Medium", person.locator("main").inner_text())
        person.locator('input[name="q_difficulty"][value="3"]').check()
        person.locator("#send-answers").click()
        expect(person.locator("#thanks")).to_be_visible()
        table = person.locator("#study-ratings")
        if shown:  # switched on: after the last answer, the end page shows each puzzle's rating
            expect(table.locator("tbody tr")).to_have_count(1)
            expect(table.locator("tbody tr td").nth(1)).to_have_text("Easy")
        else:
            expect(table).to_have_count(0)
