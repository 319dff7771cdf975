"""A player's own history in a real browser against a live server: the history page after two games, the daily
puzzle the same in two browser contexts, the share text of a solved game without any digit of its grid, and the
player's own predicted time once they have solved three games."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.board_page import board_text, solve_by_requests, type_solution
from playwright.sync_api import Browser, BrowserContext, Page, expect

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.solver import solve

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PUZZLES = [generate_puzzle(seed=seed, givens=50) for seed in (7201, 7202, 7203, 7204)]
GAME_URL = re.compile(r"/g/[\w-]+$")


@pytest.fixture
def context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """A browser context of its own (its own player cookie), allowed to use the clipboard."""
    made = browser.new_context(base_url=base_url)
    made.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    yield made
    made.close()


def open_puzzle(page: Page, puzzle: str) -> str:
    """Open a puzzle through its link, as a player does; the game's address."""
    page.goto(f"/p/{puzzle}")
    page.wait_for_url(GAME_URL)
    return page.url


def shoot(page: Page, name: str) -> None:
    """Screenshots of the page for a person to look at: desktop light and phone dark, in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, scheme in (((1280, 900), "light"), ((360, 740), "dark")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        kind = "desktop" if size[0] > 600 else "phone"
        page.screenshot(path=str(ARTIFACTS / f"{name}-{kind}-{scheme}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme="light")


def test_history_page_after_two_games(context: BrowserContext, browser: Browser, base_url: str) -> None:
    page = context.new_page()
    first = PUZZLES[0]
    solved_url = open_puzzle(page, str(first.puzzle))
    type_solution(page, str(first.puzzle), str(first.solution))
    expect(page.locator("#completion")).to_contain_text("Solved in")
    open_url = open_puzzle(page, str(PUZZLES[1].puzzle))
    page.locator("#history-link, .history-link a").first.click()
    page.wait_for_url(re.compile(r"/history$"))
    rows = page.locator("#games tr.played")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-finished", "no")
    expect(rows.nth(1)).to_have_attribute("data-finished", "yes")
    expect(rows.nth(1).locator(".time")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator("#zone-times tbody tr")).to_have_count(1)
    expect(page.locator("#streaks")).to_have_attribute("data-current", "1")
    shoot(page, "history")
    rows.nth(0).get_by_role("link", name="Continue").click()
    page.wait_for_url(GAME_URL)
    assert page.url == open_url and page.url != solved_url
    other = browser.new_context(base_url=base_url)
    stranger = other.new_page()
    stranger.goto("/history")
    expect(stranger.locator("#no-games")).to_be_visible()  # another browser sees none of these games
    other.close()


def test_daily_puzzle_is_the_same_in_two_browser_contexts(browser: Browser, base_url: str) -> None:
    boards = []
    for _ in range(2):
        made = browser.new_context(base_url=base_url)
        page = made.new_page()
        page.goto("/")
        page.locator("#daily-puzzle").click()
        page.wait_for_url(GAME_URL)
        boards.append(board_text(page))
        page.goto("/history")
        expect(page.locator("#games tr.played .daily-mark")).to_have_count(1)
        made.close()
    assert boards[0] == boards[1] and boards[0].count(".") > 0


def test_share_text_has_no_digit_of_the_grid(context: BrowserContext) -> None:
    page = context.new_page()
    made = PUZZLES[2]
    open_puzzle(page, str(made.puzzle))
    type_solution(page, str(made.puzzle), str(made.solution))
    share = page.locator("#share-text")
    expect(share).to_be_visible()
    text = share.input_value()
    match = re.fullmatch(r"Sudoku (\d{4}-\d\d-\d\d) · (\w+ · )?solved in (\d+:\d\d) · no hints", text)
    assert match is not None, text
    assert not re.search(r"\d", text.replace(match.group(1), "").replace(match.group(3), ""))
    page.locator("#share-copy").click()
    expect(page.locator("#share-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == text
    shoot(page, "completion-share")


def test_predicted_time_appears_after_three_solved_games(context: BrowserContext) -> None:
    page = context.new_page()
    for number, made in enumerate(PUZZLES[:3]):
        page.goto("/")
        expect(page.locator("#slider-info .your-minutes")).to_have_count(0)
        expect(page.locator("#next-minutes")).to_have_count(0)
        open_puzzle(page, str(made.puzzle))
        expect(page.locator(".your-minutes")).to_have_count(0)
        solution = solve(str(made.puzzle))
        assert solution is not None and number < 3
        solve_by_requests(page, str(made.puzzle), str(solution))
    page.goto("/")
    expect(page.locator("#slider-info .your-minutes")).to_contain_text("minutes for you")
    expect(page.locator("#slider-info .your-minutes")).to_contain_text("from your 3 solved games")
    expect(page.locator("#next-minutes-button")).to_have_text("A puzzle for my next 15 minutes")
    shoot(page, "start-your-time")
    page.locator("#difficulty").fill("60")  # the slider's fragment carries it too
    expect(page.locator("#slider-info .your-minutes")).to_contain_text("minutes for you")
    open_puzzle(page, str(PUZZLES[3].puzzle))
    expect(page.locator("#puzzle-rating .your-minutes")).to_contain_text("minutes for you")
