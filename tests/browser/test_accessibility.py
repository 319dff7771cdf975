"""Accessibility checked by a tool: axe-core run in the browser on every kind of page a player or a participant meets.

axe-core (the npm package, vendored under tests/browser/vendor for the tests only; the app never serves it) runs its
default rules against the live page; a page passes when no violation is serious or critical. Each page is checked in
the state a person sees it: the start page, a game, a game with a hint shown, the completion view, and a study's
consent page and puzzle for a participant, a player's history, and the researcher's team, accounts and password pages.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from helpers.axe import AXE, assert_accessible, blocking_violations
from helpers.board_page import expect_solved, new_page
from helpers.study_page import JOB_PATIENCE_MS, create_account, log_in
from playwright.sync_api import Browser, BrowserContext, Page, expect

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.solver import solve

pytestmark = pytest.mark.browser

EMAIL = "researcher@a11y-tests.example"
PASSWORD = "correct horse battery staple"


def puzzle_and_solution(seed: int, givens: int) -> tuple[str, str]:
    """A generated puzzle and its solution from the solver."""
    puzzle = str(generate_puzzle(seed=seed, givens=givens).puzzle)
    solution = solve(puzzle)
    assert solution is not None
    return puzzle, str(solution)


def open_game(page: Page, puzzle: str) -> None:
    """Open a game on the puzzle through its link page and wait for the board."""
    page.goto(f"/p/{puzzle}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#board [data-cell]")).to_have_count(81)


def test_axe_core_is_the_vendored_package() -> None:
    """The vendored file is axe-core itself, with its licence beside it."""
    assert AXE.read_text(encoding="utf-8")[:40].startswith("/*! axe v4.")
    assert "Mozilla Public License" in (AXE.parent / "LICENSE").read_text(encoding="utf-8")


def test_axe_finds_a_violation_it_should(page: Page, base_url: str) -> None:
    """The check can fail: an image without a text alternative on the start page is a critical violation."""
    page.goto("/")
    page.evaluate("() => document.body.insertAdjacentHTML('beforeend', '<img src=\"data:,\">')")
    assert any(v["id"] == "image-alt" for v in blocking_violations(page))


def test_start_page_game_hint_and_completion_have_no_serious_violation(page: Page, base_url: str) -> None:
    """The start page, a game, a game with its hint's full step shown, and the completion view."""
    page.goto("/")
    expect(page.locator("#difficulty")).to_be_visible()
    assert_accessible(page, "start page")

    puzzle, solution = puzzle_and_solution(3301, 50)
    open_game(page, puzzle)
    assert_accessible(page, "game")

    hint = page.locator("#hint")
    for rung in range(1, 5):
        (hint if rung == 1 else page.locator("#hint-panel [data-action=hint]")).click()
        expect(page.locator("#hint-panel .rungs li")).to_have_count(rung)
    assert_accessible(page, "game with a hint")

    for cell, char in enumerate(puzzle):
        if char == ".":
            page.locator(f'#board [data-cell="r{cell // 9 + 1}c{cell % 9 + 1}"]').click()
            page.keyboard.press(solution[cell])
    expect_solved(page)
    assert_accessible(page, "completion view")
    page.goto("/history")
    expect(page.locator("main h1")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Solved")
    assert_accessible(page, "history page")


def test_study_consent_and_puzzle_pages_have_no_serious_violation(
    browser: Browser, base_url: str, live_app: tuple[Flask, str], people: list[BrowserContext]
) -> None:
    """A researcher's study page, and a participant's consent page and first puzzle."""
    create_account(live_app[0], EMAIL, PASSWORD, admin=True)
    page = new_page(browser, base_url, people)
    log_in(page, EMAIL, PASSWORD)
    assert_accessible(page, "researcher's studies")
    page.locator("#new-study").click()
    page.locator("#name").fill("Accessibility study")
    page.locator("#consent_text").fill("Your solve times are recorded.")
    page.locator("#instructions").fill("Solve each puzzle.")
    page.locator("#puzzles").fill(puzzle_and_solution(3302, 60)[0])
    page.locator("#create-study").click()
    expect(page.locator("#entry-link")).to_be_visible(timeout=JOB_PATIENCE_MS)
    assert_accessible(page, "study page")
    link = page.locator("#entry-link").input_value()
    page.locator("#phase-open").click()  # a study from the form is a draft until its owner opens it
    expect(page.locator("#study-phase")).to_have_text("open")
    page.locator("#team-link").click()
    expect(page.locator("#add-member")).to_be_visible()
    assert_accessible(page, "study team page")
    page.goto("/research/users")
    expect(page.locator("#invite")).to_be_visible()
    assert_accessible(page, "researcher accounts page")
    page.goto("/research/account")
    expect(page.locator("#change-password")).to_be_visible()
    assert_accessible(page, "account page")

    taking = new_page(browser, base_url, people)
    taking.goto(f"{link}?participant_label=a11y-1")
    expect(taking.locator("#agree")).to_be_visible()
    assert_accessible(taking, "consent page")
    taking.locator("#agree").click()
    expect(taking.locator("#start")).to_be_visible()
    assert_accessible(taking, "instructions page")
    taking.locator("#start").click()
    taking.wait_for_url(re.compile(r"/g/[\w-]+$"))
    assert_accessible(taking, "study puzzle")
