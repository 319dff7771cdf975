"""Input at the speed of a key: with every game action slowed by 500 ms on the server, a digit, a mark, a colour
and an undo are drawn at once (well under 50 ms from the key), and the board still ends in the server's state
after a burst of 50 actions, after a refused action (rolled back with its message) and after a reload mid-burst;
every action is stored exactly once."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from conftest import serving
from flask import Flask
from helpers.board_page import SNAPSHOT_JS, empties, events_of, settled, stored
from playwright.sync_api import Page, Route, expect

from sudoku_engine.grid import cell_name, digits_of
from webapp.games.store import state_of

pytestmark = pytest.mark.browser

DELAY_S = 0.5
DRAW_MS = 50.0
BURST = 50
DRAIN_MS = 180_000  # 50 actions one after another, 500 ms each, on a busy machine
ACTIONS = ("enter", "clear", "mark", "colour", "undo", "redo", "erase")
# Records, for each key pressed on the board, the time from the key to the board's first change.
MEASURE_JS = """() => {
  window.drawTimes = [];
  let keyAt = null;
  document.addEventListener("keydown", () => { keyAt = performance.now(); }, true);
  new MutationObserver(() => {
    if (keyAt !== null) { window.drawTimes.push(performance.now() - keyAt); keyAt = null; }
  }).observe(document.getElementById("board"), {subtree: true, childList: true, attributes: true});
}"""
COLOURS_JS = """() => Array.from(document.querySelectorAll('#board [data-cell]'), (c) => {
  const found = /colour-([1-9])/.exec(c.className); return found ? Number(found[1]) : 0; })"""


class Slowed:
    """WSGI middleware: every POST to a game waits DELAY_S before the app sees it (a slow or busy server)."""

    def __init__(self, wrapped: Callable[..., Iterable[bytes]]) -> None:
        self.wrapped = wrapped

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ["REQUEST_METHOD"] == "POST" and environ.get("PATH_INFO", "").startswith("/g/"):
            time.sleep(DELAY_S)
        return self.wrapped(environ, start_response)


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """A live server whose game actions each take 500 ms more, and its app."""
    with serving(tmp_path_factory.mktemp("slow") / "instance", "vendor") as (app, url):
        app.wsgi_app = Slowed(app.wsgi_app)  # type: ignore[method-assign]
        yield app, url


def open_game(page: Page, url: str, puzzle: str) -> str:
    """Open a game on the puzzle on the slow server and wait until the page has told the server it shows; its id."""
    page.goto(f"{url}/p/{puzzle}")
    page.wait_for_url(f"{url}/g/**")
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    settle(page)
    return page.url.rsplit("/", 1)[1]


def pending(page: Page) -> int:
    """The page's actions on their way to the server."""
    return int(page.locator("#game").get_attribute("data-pending") or 0)


def settle(page: Page) -> None:
    """Wait, as long as a slowed burst may take, until the server has answered every action the page sent."""
    settled(page, DRAIN_MS)


def server_board(app: Flask, game_id: str) -> tuple[list[str], list[int]]:
    """The stored game's cells as the page's snapshot spells them ('digit/corner/centre'), and its colours."""
    state = state_of(stored(app, game_id))
    values = state.values()
    cells = [
        f"{values[c] or ''}/"
        + ("" if values[c] else "".join(map(str, digits_of(state.corner[c]))))
        + "/"
        + ("" if values[c] else "".join(map(str, digits_of(state.centre[c]))))
        for c in range(81)
    ]
    return cells, list(state.colour)


def page_board(page: Page) -> tuple[list[str], list[int]]:
    """The page's cells and colours."""
    return page.evaluate(SNAPSHOT_JS), page.evaluate(COLOURS_JS)


def actions_of(app: Flask, game_id: str) -> list[str]:
    """The kinds of the stored board actions, and a check that each was stored once (distinct keys)."""
    events = [e for e in events_of(app, game_id) if e.kind in ACTIONS]
    keys = [e.key for e in events]
    assert len(keys) == len(set(keys)), "an action was stored twice"
    return [e.kind for e in events]


def go_to(page: Page, cell: int) -> None:
    """Select a cell by clicking it."""
    page.locator(f'#board [data-cell="{cell_name(cell)}"]').click()


def test_each_kind_of_input_is_drawn_at_once_while_the_server_is_slow(
    page: Page, slow: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    app, url = slow
    puzzle, solution = easy
    game_id = open_game(page, url, puzzle)
    page.evaluate(MEASURE_JS)
    a, b, c, d = empties(puzzle)[:4]
    cell = page.locator
    go_to(page, a)
    page.keyboard.press(solution[a])
    expect(cell(f"#cell-{cell_name(a)}")).to_have_attribute("data-digit", solution[a], timeout=DRAW_MS * 4)
    assert pending(page) >= 1  # drawn before the server answered
    go_to(page, b)
    page.keyboard.press("Shift+4")
    expect(cell(f"#cell-{cell_name(b)} .corner .m4")).to_have_count(1, timeout=DRAW_MS * 4)
    go_to(page, c)
    page.keyboard.press("Control+6")
    expect(cell(f"#cell-{cell_name(c)} .centre .m6")).to_have_count(1, timeout=DRAW_MS * 4)
    go_to(page, d)
    page.keyboard.press("v")  # colour mode: no change on the board
    page.keyboard.press("3")
    expect(cell(f"#cell-{cell_name(d)}")).to_have_class(re.compile(r"\bcolour-3\b"), timeout=DRAW_MS * 4)
    page.keyboard.press("Control+z")
    expect(cell(f"#cell-{cell_name(d)}")).not_to_have_class(re.compile(r"colour-"), timeout=DRAW_MS * 4)
    assert pending(page) >= 1
    times = page.evaluate("() => window.drawTimes")
    assert len(times) == 5, times  # the digit, the two marks, the colour and the undo (the mode key draws nothing)
    print(f"key to draw (ms): {', '.join(f'{t:.1f}' for t in times)}")
    assert max(times) < DRAW_MS, times
    settle(page)
    assert page_board(page) == server_board(app, game_id)
    assert actions_of(app, game_id) == ["enter", "mark", "mark", "colour", "undo"]


def burst(page: Page, puzzle: str, solution: str, count: int) -> int:
    """Press ``count`` board actions as fast as the keyboard goes, each one changing the board: in turn over pairs
    of empty cells, a right digit, a corner and a centre mark, an undo and a redo, an erase and a wrong digit; how
    many were sent."""
    cells = empties(puzzle)
    steps: list[tuple[int | None, str]] = []
    for group in range(count // 7 + 1):
        x, y = cells[2 * group], cells[2 * group + 1]
        wrong = str(int(solution[x]) % 9 + 1)
        steps += [(x, solution[x]), (y, f"Shift+{group % 9 + 1}"), (y, f"Control+{(group + 4) % 9 + 1}")]
        steps += [(None, "Control+z"), (None, "Control+y"), (x, "Backspace"), (x, wrong)]
    for cell, key in steps[:count]:
        if cell is not None:
            go_to(page, cell)
        page.keyboard.press(key)
    return len(steps[:count])


def test_a_burst_of_fifty_actions_ends_in_the_servers_state(
    page: Page, slow: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    app, url = slow
    puzzle, solution = easy
    game_id = open_game(page, url, puzzle)
    sent = burst(page, puzzle, solution, BURST)
    assert pending(page) > 10  # most still on their way: the keys did not wait for the server
    settle(page)
    assert page_board(page) == server_board(app, game_id)
    assert len(actions_of(app, game_id)) == sent == BURST
    page.reload()
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    assert page_board(page) == server_board(app, game_id)


def test_a_refused_action_is_rolled_back_with_the_servers_message(
    page: Page, slow: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    app, url = slow
    puzzle, solution = easy
    game_id = open_game(page, url, puzzle)
    a, b, c = empties(puzzle)[:3]
    refused = f"/cell/{cell_name(b)}"

    def refuse(route: Route) -> None:
        route.fulfill(status=409, content_type="text/html", body="<p>This game changed in another window.</p>")

    page.route(f"{url}/g/*{refused}", refuse)
    for cell in (a, b, c):
        go_to(page, cell)
        page.keyboard.press(solution[cell])
    expect(page.locator(f"#cell-{cell_name(b)}")).to_have_attribute("data-digit", solution[b])  # drawn at once
    settle(page)
    expect(page.locator("#message")).to_have_text("This game changed in another window.")
    expect(page.locator(f"#cell-{cell_name(b)}")).not_to_have_attribute("data-digit", solution[b])  # rolled back
    cells, _colours = page_board(page)
    assert cells[a].startswith(solution[a]) and cells[c].startswith(solution[c])
    assert page_board(page) == server_board(app, game_id)
    assert actions_of(app, game_id) == ["enter", "enter"]


def test_a_reload_mid_burst_shows_the_servers_state(page: Page, slow: tuple[Flask, str], easy: tuple[str, str]) -> None:
    app, url = slow
    puzzle, solution = easy
    game_id = open_game(page, url, puzzle)
    sent = burst(page, puzzle, solution, 20)
    assert pending(page) > 5
    page.reload()
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    time.sleep(2 * DELAY_S)  # an action the server was working on when the page went away is stored by now
    page.reload()
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    settle(page)
    stored_actions = actions_of(app, game_id)
    assert 0 < len(stored_actions) < sent  # the reload came mid-burst: what was not sent is not there
    assert page_board(page) == server_board(app, game_id)
