"""Playing in a real browser: Debian's Chromium through Playwright against a live werkzeug server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, Route, expect

from sudoku_engine import difficulty
from sudoku_engine.generate import Generated, generate
from sudoku_engine.grid import cell_name
from sudoku_engine.rating import rate
from sudoku_engine.slider import describe, target_for_slider
from sudoku_engine.solver import count_solutions, solve
from webapp import assets, db, pool
from webapp.models import Game

VENDORED_HTMX = Path(__file__).resolve().parents[2] / "static" / assets.HTMX_VENDOR_PATH

pytestmark = pytest.mark.browser

SLIDER_VALUES = (10.0, 50.0, 75.0)  # the values the slider test moves to


@pytest.fixture
def banked(live_app: tuple[Flask, str]) -> tuple[Flask, list[pool.BankRecord]]:
    """One generated puzzle per slider value of the slider test in the live server's bank; the app and records."""
    made = [generate(target_for_slider(slider), budget_s=1.5, seed=4100 + i) for i, slider in enumerate(SLIDER_VALUES)]
    records = [pool.generated_record(found) for found in made]
    with db.sessions_of(live_app[0])() as session:
        pool.add(session, records)
    return live_app[0], records


def served_game(app: Flask, url: str) -> Game:
    """The game a game page shows."""
    with db.sessions_of(app)() as session:
        game = session.get(Game, url.rsplit("/", 1)[1])
        assert game is not None
        return game


def board_text(page: Page) -> str:
    """The board as 81 characters, '.' for empty cells."""
    texts = page.locator("[data-cell]").all_inner_texts()
    assert len(texts) == 81
    return "".join(text.strip() or "." for text in texts)


def snake_order() -> list[str]:
    """Cells in the order the arrow keys walk them: rows alternately left to right and right to left."""
    order = []
    for row in range(9):
        cols = range(9) if row % 2 == 0 else range(8, -1, -1)
        order.extend(cell_name(row * 9 + col) for col in cols)
    return order


def type_solution(page: Page, puzzle: str, solution: str) -> None:
    """Click r1c1, then walk the board with arrow keys typing every missing digit."""
    page.locator('[data-cell="r1c1"]').click()
    order = snake_order()
    for step, name in enumerate(order):
        cell = (int(name[1]) - 1) * 9 + int(name[3]) - 1
        if puzzle[cell] == ".":
            page.keyboard.press(solution[cell])
        if step + 1 < len(order):
            next_name = order[step + 1]
            if next_name[1] != name[1]:
                page.keyboard.press("ArrowDown")
            else:
                page.keyboard.press("ArrowRight" if next_name[3] > name[3] else "ArrowLeft")


def test_new_puzzle_then_solve_with_keyboard(page: Page) -> None:
    page.goto("/")
    page.locator("#difficulty").fill("20")
    page.locator("#new-puzzle").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    puzzle = board_text(page)
    solution = solve(puzzle)
    assert solution is not None
    type_solution(page, puzzle, str(solution))
    expect(page.locator("#completion")).to_contain_text(re.compile(r"Solved in \d+:\d\d"))
    assert board_text(page) == str(solution)
    page.reload()
    expect(page.locator("#completion")).to_contain_text("Solved in")


def test_slider_shows_its_target_and_serves_a_matching_puzzle(
    page: Page, banked: tuple[Flask, list[pool.BankRecord]]
) -> None:
    app, records = banked
    for slider, record in zip(SLIDER_VALUES, records, strict=True):
        page.goto("/")
        page.locator("#difficulty").fill(f"{slider:g}")
        info = describe(slider)
        shown = page.locator("#slider-info")
        expect(shown).to_have_attribute("data-slider", str(info["slider"]))
        expect(shown.locator(".zone")).to_have_text(str(info["label"]))
        expect(shown.locator(".slider-d")).to_have_text(f"{info['D']:.2f}")
        expect(shown.locator(".slider-minutes")).to_have_text(str(round(float(str(info["predicted_minutes"])))))
        page.locator("#new-puzzle").click()
        page.wait_for_url(re.compile(r"/g/[\w-]+$"))
        puzzle = board_text(page)
        assert count_solutions(puzzle) == 1
        rating = rate(puzzle, measures=difficulty.MEASURES)
        served = page.locator("#puzzle-rating")
        expect(served.locator(".puzzle-d")).to_have_text(f"{rating.d:.2f}")
        expect(served.locator(".zone")).to_have_text(rating.label)
        assert float(served.get_attribute("data-d") or "nan") == rating.d
        game = served_game(app, page.url)
        assert game.d == rating.d and game.target_d == target_for_slider(slider)
        if abs(record["d"] - target_for_slider(slider)) <= pool.DEFAULT_TOLERANCE:
            assert game.bank_id is not None, "a bank puzzle within tolerance was there to serve"


def test_entries_survive_reload(page: Page, generated: Generated) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    page.goto(f"/p/{puzzle}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    empty = [cell for cell, char in enumerate(puzzle) if char == "."][:4]
    for cell in empty:
        page.locator(f'[data-cell="{cell_name(cell)}"]').click()
        with page.expect_response(re.compile(rf"/cell/{cell_name(cell)}$")):  # each action stored in turn
            page.keyboard.press(solution[cell])
    with page.expect_response(re.compile(rf"/cell/{cell_name(empty[3])}$")):  # the clear stored before the reload
        page.keyboard.press("Backspace")
    for cell in empty[:3]:
        expect(page.locator(f'[data-cell="{cell_name(cell)}"]')).to_have_text(solution[cell])
    expect(page.locator(f'[data-cell="{cell_name(empty[3])}"]')).to_have_text("")
    expect(page.locator(f'[data-cell="{cell_name(empty[3])}"]')).to_have_class(re.compile(r"\bselected\b"))
    page.reload()
    for cell in empty[:3]:
        expect(page.locator(f'[data-cell="{cell_name(cell)}"]')).to_have_text(solution[cell])
    assert board_text(page).count(".") == puzzle.count(".") - 3


def test_puzzle_link_opens_that_puzzle(page: Page, generated: Generated) -> None:
    puzzle = str(generated.puzzle)
    page.goto(f"/p/{puzzle.replace('.', '0')}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    assert board_text(page) == puzzle
    assert page.locator("[data-cell].given").count() == 81 - puzzle.count(".")


def test_given_cannot_be_changed(page: Page, generated: Generated) -> None:
    puzzle = str(generated.puzzle)
    page.goto(f"/p/{puzzle}")
    given = next(cell for cell, char in enumerate(puzzle) if char != ".")
    cell = page.locator(f'[data-cell="{cell_name(given)}"]')
    cell.click()
    page.keyboard.press("5" if puzzle[given] != "5" else "6")
    page.keyboard.press("Delete")
    expect(cell).to_have_text(puzzle[given])
    page.reload()
    expect(page.locator(f'[data-cell="{cell_name(given)}"]')).to_have_text(puzzle[given])


def test_board_fits_phone_width(page: Page, generated: Generated) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"/p/{generated.puzzle}")
    board = page.locator("#board").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 360
    assert abs(board["width"] - board["height"]) < 2


def requested_paths(page: Page) -> list[str]:
    """Start recording the URLs the page requests."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def test_cdn_htmx_passes_its_integrity_check(page: Page, cdn_url: str) -> None:
    def from_cdn(route: Route) -> None:
        route.fulfill(
            body=VENDORED_HTMX.read_bytes(),
            content_type="text/javascript",
            headers={"Access-Control-Allow-Origin": "*"},
        )

    page.route(assets.HTMX_CDN_URL, from_cdn)
    urls = requested_paths(page)
    page.goto(f"{cdn_url}/")
    assert page.evaluate("window.htmx.version") == assets.HTMX_VERSION
    assert assets.HTMX_CDN_URL in urls
    assert not any(url.endswith(assets.HTMX_VENDOR_PATH) for url in urls)


def test_vendored_htmx_is_the_fallback_when_the_cdn_fails(page: Page, cdn_url: str) -> None:
    page.route(assets.HTMX_CDN_URL, lambda route: route.abort())
    urls = requested_paths(page)
    page.goto(f"{cdn_url}/")
    assert page.evaluate("window.htmx.version") == assets.HTMX_VERSION
    assert any(url.endswith(assets.HTMX_VENDOR_PATH) for url in urls)
