"""One participant's game replayed in a real browser: a participant plays a study puzzle with marks, a wrong digit
and an undo; the researcher opens the participant's page from the study page, replays the game, steps through it
and plays it at 10x to the end, where the board is the one the database stores."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from helpers.axe import assert_accessible
from helpers.board_page import new_page
from helpers.study_page import (
    DIGITS_JS,
    agree_and_start,
    cell_name,
    create_account,
    create_study,
    easy_puzzle,
    enter,
    log_in,
    solve_on_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy import select

from webapp import db
from webapp.models import Event, Game

pytestmark = pytest.mark.browser

EMAIL = "replay@study-tests.example"
PASSWORD = "correct horse battery"
MARKS_JS = """(name) => Array.from(document.querySelectorAll('#cell-' + name + ' .corner .m'), (m) => m.textContent)"""


@pytest.fixture(scope="module")
def researcher(live_app: tuple[Flask, str]) -> tuple[str, str]:
    """A researcher account made with ``flask user create`` on the live app; its email and password."""
    create_account(live_app[0], EMAIL, PASSWORD)
    return EMAIL, PASSWORD


@pytest.fixture
def participant(browser: Browser, base_url: str, people: list[BrowserContext]) -> Page:
    """A participant's page in a browser context of their own."""
    return new_page(browser, base_url, people)


def stored(app: Flask, game_id: str) -> tuple[Game, list[Event]]:
    """The stored game and its events."""
    with db.sessions_of(app)() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game, list(session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id)))


def step_text(page: Page) -> str:
    """The replay's 'n of N'."""
    return page.locator("#replay-step").inner_text()


def test_a_researcher_replays_a_participants_game_to_the_stored_board(
    page: Page, participant: Page, live_app: tuple[Flask, str], researcher: tuple[str, str]
) -> None:
    app, _base_url = live_app
    puzzle, solution = easy_puzzle(2301)
    log_in(page, *researcher)
    study_id, link = create_study(page, "Replay study", [puzzle], breaks=False)

    enter(participant, link, "R-1")
    game_id = agree_and_start(participant)
    empty = [cell for cell, char in enumerate(puzzle) if char == "."]
    marked, wrong_cell = empty[0], empty[1]
    corner_digit = solution[marked]
    participant.locator(f'#board [data-cell="{cell_name(marked)}"]').click()
    participant.keyboard.press(f"Shift+{corner_digit}")
    expect(participant.locator(f"#cell-{cell_name(marked)} .corner")).to_have_text(corner_digit)
    participant.locator(f'#board [data-cell="{cell_name(wrong_cell)}"]').click()
    wrong = str(int(solution[wrong_cell]) % 9 + 1)
    participant.keyboard.press(wrong)
    expect(participant.locator(f"#cell-{cell_name(wrong_cell)}")).to_have_attribute("data-digit", wrong)
    participant.keyboard.press("Control+z")
    expect(participant.locator(f"#cell-{cell_name(wrong_cell)}")).not_to_have_attribute("data-digit", wrong)
    solve_on_page(participant, puzzle, solution)

    game, events = stored(app, game_id)
    kinds = [e.kind for e in events]
    assert kinds[0] == "show" and kinds[1:4] == ["mark", "enter", "undo"] and kinds[-1] == "complete"
    total = len(events)

    page.goto(f"/research/studies/{study_id}")
    page.locator("#participants-link").click()
    page.locator("#participants a").first.click()
    expect(page.locator("#path .completed")).to_have_text("yes")
    expect(page.locator("#path .undos")).to_have_text("1")
    assert_accessible(page, "participant page")
    page.locator("#path .replay-link").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/replay$"))
    assert step_text(page) == f"{total} of {total}"
    assert_accessible(page, "replay page")

    page.locator("#replay-first").click()
    assert step_text(page) == f"0 of {total}"
    assert page.evaluate(DIGITS_JS) == puzzle
    for number in (1, 2):
        page.locator("#replay-forward").click()
        assert step_text(page) == f"{number} of {total}"
    assert page.evaluate(MARKS_JS, cell_name(marked)) == [corner_digit], "the corner mark after the mark event"
    page.locator("#replay-forward").click()
    expect(page.locator(f"#cell-{cell_name(wrong_cell)}")).to_have_attribute("data-digit", wrong)
    page.locator("#replay-forward").click()  # the undo takes the wrong digit away
    expect(page.locator(f"#cell-{cell_name(wrong_cell)}")).not_to_have_attribute("data-digit", wrong)
    page.locator("#replay-back").click()
    assert step_text(page) == f"3 of {total}"
    expect(page.locator(f"#cell-{cell_name(wrong_cell)}")).to_have_attribute("data-digit", wrong)
    expect(page.locator('#replay-events [aria-current="step"]')).to_have_attribute("data-kind", "enter")

    page.locator("#replay-speed").select_option("10")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_text("Pause")
    expect(page.locator("#replay-step")).to_have_text(f"{total} of {total}", timeout=30_000)
    expect(page.locator("#replay-play")).to_have_text("Play")
    final = "".join(g if g != "." else e for g, e in zip(game.puzzle, game.entries, strict=True))
    assert page.evaluate(DIGITS_JS) == final == solution
    assert (
        page.locator("#board .corner, #board .centre").count() == 0 == sum(game.corner or []) + sum(game.centre or [])
    )
    clock = page.locator("#replay-clock").inner_text()
    assert re.fullmatch(r"\d+:\d\d\.\d \(\d+:\d\d\.\d\)", clock), clock
