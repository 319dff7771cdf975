"""Page weight: everything a player's browser loads for the start page and a game, gzip-compressed, fonts aside.

The budget is 150 kB. Each response the page loads is compressed here with gzip (level 6, what a front server's
default compression gives), so the figure does not depend on whether the test server compresses.
"""

from __future__ import annotations

import gzip
import re

import pytest
from playwright.sync_api import Page, Response, expect

from sudoku_engine.generate import generate_puzzle

pytestmark = pytest.mark.browser

BUDGET_BYTES = 150_000
FONT = re.compile(r"\.(woff2?|ttf|otf)(\?|$)")


def loaded_weight(page: Page, path: str, ready: str) -> dict[str, int]:
    """Per URL loaded while opening ``path`` (until ``ready`` is visible), its gzip-compressed size in bytes."""
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    page.goto(path)
    expect(page.locator(ready)).to_be_visible()
    page.wait_for_load_state("networkidle")
    sizes: dict[str, int] = {}
    for response in responses:
        if FONT.search(response.url) or response.status in (204, 301, 302, 303, 304):
            continue
        sizes[response.url] = len(gzip.compress(response.body(), compresslevel=6))
    return sizes


def test_start_page_and_game_stay_under_the_weight_budget(page: Page, base_url: str) -> None:
    """The start page and a game page each load under 150 kB gzip, fonts aside."""
    start = loaded_weight(page, "/", "#difficulty")
    assert any(url.endswith(".js") for url in start) and any(url.endswith(".css") for url in start), start
    assert sum(start.values()) < BUDGET_BYTES, start

    puzzle = str(generate_puzzle(seed=3303, givens=40).puzzle)
    page.goto(f"/p/{puzzle}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    game = loaded_weight(page.context.new_page(), page.url, "#board")
    assert any("/g/" in url for url in game), game
    assert sum(game.values()) < BUDGET_BYTES, game
