"""Playing in a real browser: Debian's Chromium through Playwright against a live werkzeug server."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from web_support import new_app
from werkzeug.serving import make_server

from sudoku_engine.generate import Generated
from sudoku_engine.grid import cell_name
from sudoku_engine.solver import solve
from webapp import assets, db

VENDORED_HTMX = Path(__file__).resolve().parents[2] / "static" / assets.HTMX_VENDOR_PATH

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright's own browser download is not available here)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        message = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_ARGS}


@contextmanager
def serving(instance: Path, htmx_source: str) -> Iterator[str]:
    """Serve a migrated app on a temp database from a thread on a free port of 127.0.0.1; yield its URL."""
    app = new_app(instance, TESTING=False, HTMX_SOURCE=htmx_source)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=f"live-server-{htmx_source}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        db.dispose(app)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The live server that loads only the vendored htmx; pages use paths relative to it."""
    with serving(tmp_path_factory.mktemp("live") / "instance", "vendor") as url:
        yield url


@pytest.fixture(scope="session")
def cdn_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server whose pages load htmx from the CDN with SRI, falling back to the vendored copy."""
    with serving(tmp_path_factory.mktemp("cdn") / "instance", "cdn") as url:
        yield url


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


def test_entries_survive_reload(page: Page, generated: Generated) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    page.goto(f"/p/{puzzle}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    empty = [cell for cell, char in enumerate(puzzle) if char == "."][:4]
    for cell in empty:
        page.locator(f'[data-cell="{cell_name(cell)}"]').click()
        page.keyboard.press(solution[cell])
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
