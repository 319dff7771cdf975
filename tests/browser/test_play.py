"""Playing in a real browser: Debian's Chromium through Playwright against a live werkzeug server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from helpers.board_page import board_text, expect_solved, type_solution
from playwright.sync_api import Browser, Page, Route, expect
from sqlalchemy import false, update

from sudoku_engine import difficulty
from sudoku_engine.generate import Generated, generate
from sudoku_engine.grid import cell_name
from sudoku_engine.rating import rate
from sudoku_engine.slider import describe, target_for_slider
from sudoku_engine.solver import count_solutions, solve
from webapp import assets, db
from webapp.bank import pool
from webapp.models import BankPuzzle, Game

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


def test_new_puzzle_then_solve_with_keyboard(page: Page) -> None:
    page.goto("/")
    page.locator("#difficulty").fill("20")
    page.locator("#new-puzzle").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    puzzle = board_text(page)
    solution = solve(puzzle)
    assert solution is not None
    type_solution(page, puzzle, str(solution))
    expect_solved(page)
    assert board_text(page) == str(solution)
    page.reload()
    expect(page.locator("#completion")).to_contain_text("Solved in")


TOP = 100.0  # the top of the slider: nothing there can be generated, so generation takes its whole budget
SLOW_BUDGET_S = 3.0  # the generation budget of the slow New puzzle test (the production default)


@pytest.fixture
def slow_top(live_app: tuple[Flask, str], monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The live app with no unused bank puzzle near the top of the slider and a full generation budget, so that
    New puzzle there generates for the whole budget."""
    app = live_app[0]
    target = target_for_slider(TOP)
    with db.sessions_of(app)() as session:
        near = BankPuzzle.d.between(target - pool.DEFAULT_TOLERANCE, target + pool.DEFAULT_TOLERANCE)
        session.execute(update(BankPuzzle).where(near, BankPuzzle.used == false()).values(used=True))
        session.commit()
    monkeypatch.setitem(app.config, "POOL_GENERATE_BUDGET_S", SLOW_BUDGET_S)
    return app


def status_box(page: Page) -> tuple[float, float, float, float]:
    """Where New puzzle's button and status line are: the button's top and height, the line's top and height."""
    button = page.locator("#new-puzzle").bounding_box()
    line = page.locator(".new-puzzle-status").bounding_box()
    assert button is not None and line is not None
    return button["y"], button["height"], line["y"], line["height"]


def test_new_puzzle_shows_progress_until_the_game_loads(page: Page, slow_top: Flask) -> None:
    page.goto("/")
    button, finding = page.locator("#new-puzzle"), page.get_by_text("Finding a puzzle…")
    generating = page.get_by_text("Generating a puzzle of this difficulty…")
    page.locator("#difficulty").fill(f"{TOP:g}")
    expect(page.locator("#slider-info")).to_have_attribute("data-slider", str(TOP))
    expect(finding).to_be_hidden()
    expect(generating).to_be_hidden()
    before = status_box(page)
    button.click()
    expect(button).to_be_disabled()
    expect(finding).to_be_visible()
    assert status_box(page) == before, "the progress line must not move the layout"
    expect(generating).to_be_visible()  # the generation takes its whole budget: longer than a moment
    expect(finding).to_be_hidden()
    assert status_box(page) == before
    expect(page.locator("#new-puzzle-error")).to_have_text("")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"), timeout=60_000)
    game = served_game(slow_top, page.url)
    assert game.slider == TOP and game.target_d == target_for_slider(TOP)
    assert board_text(page).count(".") == game.puzzle.count(".")


def test_new_puzzle_works_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    try:
        page = context.new_page()
        page.goto("/")
        page.locator("#new-puzzle").click()
        page.wait_for_url(re.compile(r"/g/[\w-]+$"))
        assert page.locator("[data-cell]").count() == 81
    finally:
        context.close()


def test_new_puzzle_refused_leaves_the_page_usable(page: Page, one_new_per_minute: str) -> None:
    page.goto(f"{one_new_per_minute}/")
    page.locator("#new-puzzle").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    page.goto(f"{one_new_per_minute}/")
    button = page.locator("#new-puzzle")
    with page.expect_response(re.compile(r"/new$")) as answer:
        button.click()
    assert answer.value.status == 429
    expect(page.locator("#new-puzzle-error")).to_contain_text("Too many new puzzles: at most 1 per minute")
    expect(button).to_be_enabled()
    expect(page.get_by_text("Finding a puzzle…")).to_be_hidden()
    expect(page.get_by_text("Generating a puzzle of this difficulty…")).to_be_hidden()
    assert page.url == f"{one_new_per_minute}/"
    page.locator("#difficulty").fill("60")  # the slider still answers
    expect(page.locator("#slider-info")).to_have_attribute("data-slider", "60.0")


def test_new_puzzle_says_so_when_the_server_cannot_be_reached(page: Page) -> None:
    page.route(re.compile(r"/new$"), lambda route: route.abort())
    page.goto("/")
    button = page.locator("#new-puzzle")
    button.click()
    expect(page.locator("#new-puzzle-error")).to_have_text(
        "The server could not be reached. Check the connection and try again."
    )
    expect(button).to_be_enabled()
    expect(page.get_by_text("Finding a puzzle…")).to_be_hidden()
    page.unroute(re.compile(r"/new$"))
    button.click()  # works again once the server answers
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    assert page.locator("[data-cell]").count() == 81


def test_a_page_restored_while_waiting_loads_afresh(page: Page) -> None:
    held: list[Route] = []
    page.route(re.compile(r"/new$"), lambda route: held.append(route))  # the request stays unanswered
    page.goto("/")
    page.evaluate("window.leftWaiting = true")
    button = page.locator("#new-puzzle")
    button.click()
    expect(button).to_be_disabled()
    # What a browser does on Back to a page kept in its back-forward cache (Chromium under test keeps none).
    with page.expect_navigation():
        page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    expect(button).to_be_enabled()
    expect(page.get_by_text("Finding a puzzle…")).to_be_hidden()
    assert page.evaluate("window.leftWaiting === undefined") and len(held) == 1


def test_slider_shows_its_target_and_serves_a_matching_puzzle(
    page: Page, banked: tuple[Flask, list[pool.BankRecord]]
) -> None:
    app, records = banked
    for slider, record in zip(SLIDER_VALUES, records, strict=True):
        page.goto("/")
        page.locator("#difficulty").fill(f"{slider:g}")
        info = describe(slider)
        shown = page.locator("#slider-info")
        expect(shown).to_have_attribute("data-slider", str(info.slider))
        expect(shown.locator(".zone")).to_have_text(info.label)
        expect(shown.locator(".slider-d")).to_have_text(f"{info.D:.2f}")
        expect(shown.locator(".minutes")).to_have_text(info.time.words)
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


PUZZLE_FOR_POLICY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def test_pages_break_no_rule_of_their_content_security_policy(page: Page, cdn_url: str) -> None:
    """Start page, a game, the print page (its Print button included) and the CDN fallback run under the policy
    the server sends: the browser reports no violation."""
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.route(assets.HTMX_CDN_URL, lambda route: route.abort())
    page.goto(f"{cdn_url}/")
    assert page.evaluate("window.htmx.version") == assets.HTMX_VERSION
    page.goto(f"{cdn_url}/p/{PUZZLE_FOR_POLICY}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    page.goto(f"{cdn_url}/print/{PUZZLE_FOR_POLICY}")
    page.evaluate("window.print = () => { window.printed = true; }")
    page.click("#print-button")
    assert page.evaluate("window.printed") is True
    assert violations == []
