"""A study's lifecycle and participants' rights in a real browser: the owner creates a draft, previews it (nothing
stored), opens it; one participant gives up on a puzzle, another withdraws and deletes their data; the owner closes
the study and the exports match the database, without the participant who withdrew."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from helpers.board_page import new_page
from helpers.study_page import (
    GAME_URL,
    JOB_PATIENCE_MS,
    agree_and_start,
    create_account,
    download,
    easy_puzzle,
    enter,
    events_of,
    games_of,
    log_in,
    nearly_solved,
    parsed_csv,
    participant_of,
    solve_on_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy import func, select

from webapp import db
from webapp.models import Game, Participant, Study

pytestmark = pytest.mark.browser

EMAIL = "owner@lifecycle-tests.example"
PASSWORD = "correct horse battery"


def stored_participants(app: Flask, study_id: int) -> int:
    """How many participant rows the study has."""
    with db.sessions_of(app)() as session:
        return int(session.scalar(select(func.count()).where(Participant.study_id == study_id)) or 0)


def create_draft(page: Page, puzzles: list[str]) -> int:
    """Create a two-puzzle study without breaks from the form and wait until it is a prepared draft; its number."""
    page.goto("/research/studies/new")
    page.locator("#name").fill("Lifecycle")
    page.locator("#consent_text").fill("Consent for the lifecycle study.")
    page.locator("#puzzles").fill("\n".join(puzzles))
    page.locator('input[name="breaks"]').set_checked(False)
    page.locator("#create-study").click()
    page.wait_for_url(re.compile(r"/research/studies/\d+$"))
    expect(page.locator("#study-phase")).to_have_text("draft", timeout=JOB_PATIENCE_MS)
    return int(page.url.rsplit("/", 1)[1])


def play_to_the_end(page: Page, pairs: list[tuple[str, str]]) -> None:
    """Agree, start and solve every puzzle in order, then finish."""
    agree_and_start(page)
    for number, (puzzle, solution) in enumerate(pairs):
        solve_on_page(page, puzzle, solution)
        page.locator("#next-puzzle").click()
        if number + 1 < len(pairs):
            page.wait_for_url(GAME_URL)
    expect(page.locator("#thanks")).to_be_visible()


def test_owner_previews_opens_and_closes_while_participants_give_up_and_withdraw(
    page: Page, browser: Browser, live_app: tuple[Flask, str], people: list[BrowserContext]
) -> None:
    app, base_url = live_app
    create_account(app, EMAIL, PASSWORD)
    pairs = [(nearly_solved(solution), solution) for _puzzle, solution in (easy_puzzle(s) for s in (2601, 2602))]
    log_in(page, EMAIL, PASSWORD)
    study_id = create_draft(page, [puzzle for puzzle, _ in pairs])
    link = page.locator("#entry-link").input_value()

    # A visitor finds the draft closed; the owner's preview plays it from consent to the end and stores nothing.
    visitor = new_page(browser, base_url, people)
    visitor.goto(f"{link}?participant_label=early")
    expect(visitor.locator("#study-draft")).to_be_visible()
    page.locator("#preview-study").click()
    expect(page.locator("#preview-note")).to_be_visible()
    expect(page.locator(".study-text")).to_have_text("Consent for the lifecycle study.")
    play_to_the_end(page, pairs)
    page.locator("#preview-back").click()
    expect(page.locator("#progress .arrived")).to_have_text("0")
    assert stored_participants(app, study_id) == 0

    page.locator("#phase-open").click()
    expect(page.locator("#study-phase")).to_have_text("open")

    # One participant gives up on the first puzzle and solves the second.
    quitter = new_page(browser, base_url, people)
    enter(quitter, link, "quitter")
    given_up = agree_and_start(quitter)
    quitter.locator("#give-up").click()
    quitter.locator("#give-up-confirm").click()
    quitter.wait_for_url(GAME_URL)
    solved = quitter.url.rsplit("/", 1)[1]
    assert solved != given_up
    solve_on_page(quitter, *pairs[1])
    quitter.locator("#next-puzzle").click()
    expect(quitter.locator("#thanks")).to_be_visible()

    # Another withdraws mid-puzzle and has everything deleted.
    leaver = new_page(browser, base_url, people)
    enter(leaver, link, "leaver")
    leaving_game = agree_and_start(leaver)
    leaver.locator('#board [data-cell="r1c1"]').click()
    leaver.keyboard.press(pairs[0][1][0])
    leaving_id = participant_of(app, link.rsplit("/", 1)[1], "leaver").public_id
    leaver.locator("#withdraw").click()
    leaver.locator("#withdraw-delete").click()
    expect(leaver.locator("#withdrawn-deleted")).to_be_visible()
    with db.sessions_of(app)() as session:
        assert session.get(Game, leaving_game) is None
        study = session.get(Study, study_id)
        assert study is not None and study.deleted_on_withdrawal == 1

    page.reload()
    page.locator("#phase-closed").click()
    expect(page.locator("#study-phase")).to_have_text("closed")
    quitter.goto(f"{link}/go")
    expect(quitter.locator("#study-closed")).to_be_visible()

    # The exports hold the participant who gave up, as the database does, and nothing of the one who withdrew.
    person = participant_of(app, link.rsplit("/", 1)[1], "quitter")
    games = {game.id: game for game in games_of(app, person)}
    assert set(games) == {given_up, solved} and games[given_up].gave_up_at is not None
    wide = parsed_csv(download(page, "#export-wide"))
    assert {row["participant"] for row in wide} == {person.public_id}
    assert {row["game"]: (row["gave_up"], row["completed"]) for row in wide} == {
        given_up: ("1", "0"),
        solved: ("0", "1"),
    }
    long = parsed_csv(download(page, "#export-long"))
    stored = events_of(app, [given_up, solved])
    assert [(row["game"], row["event"], row["kind"]) for row in long] == [
        (event.game_id, str(event.id), event.kind) for event in stored
    ]
    assert [row["kind"] for row in long if row["game"] == given_up][-1] == "give_up"
    assert leaving_id not in {row["participant"] for row in long}
    exported = json.loads(download(page, "#export-json"))
    assert exported["phase"] == "closed"
    assert exported["withdrawals"] == {"withdrawn_data_kept": 0, "deleted_on_withdrawal": 1, "deleted_on_request": 0}
    assert stored_participants(app, study_id) == 1
