"""Studies in a real browser: a researcher creates one through the form, participants take it, the data comes out.

The researcher and each participant have their own browser context (their own cookies), as different people would.
What the pages show is checked against the database and against facts worked out here: the solver's solutions and
the balanced Latin square (Williams design) rows.
"""

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
    cell_name,
    create_account,
    create_study,
    download,
    easy_puzzle,
    enter,
    events_of,
    games_of,
    log_in,
    nearly_solved,
    parsed_csv,
    participant_of,
    shown_digits,
    solve_on_page,
)
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

from webapp.study import studies

pytestmark = pytest.mark.browser

EMAIL = "researcher@study-tests.example"
PASSWORD = "correct horse battery"
PUZZLE_SEEDS = (2101, 2102)  # two generated puzzles with 60 givens: 21 cells to type each
REDIRECT_URL = "https://panel.example/submissions/complete?cc=C0MPLETE"
DUPLICATE_IDS_JS = """() => {
  const ids = Array.from(document.querySelectorAll('[id]'), (e) => e.id);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}"""


# Facts worked out without the app ------------------------------------------------------------------------------


# The database --------------------------------------------------------------------------------------------------


# The pages -----------------------------------------------------------------------------------------------------


def progress(page: Page) -> Locator:
    """The study page's progress counts."""
    return page.locator("#progress")


# Fixtures ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def researcher(live_app: tuple[Flask, str]) -> tuple[str, str]:
    """A researcher account made with ``flask user create`` on the live app; its email and password."""
    assert f"Created the researcher account {EMAIL}: not an administrator" in create_account(
        live_app[0], EMAIL, PASSWORD
    )
    return EMAIL, PASSWORD


@pytest.fixture(scope="module")
def puzzle_pair() -> list[tuple[str, str]]:
    """Two easy puzzles with their solutions."""
    pair = [easy_puzzle(seed) for seed in PUZZLE_SEEDS]
    assert pair[0][0] != pair[1][0]
    return pair


# 1. The whole path ---------------------------------------------------------------------------------------------


def test_study_from_the_form_through_two_puzzles_to_exports_and_report(
    page: Page,
    browser: Browser,
    live_app: tuple[Flask, str],
    researcher: tuple[str, str],
    puzzle_pair: list[tuple[str, str]],
    people: list[BrowserContext],
) -> None:
    app, base_url = live_app
    puzzles = [puzzle for puzzle, _ in puzzle_pair]
    log_in(page, *researcher)
    study_id, link = create_study(page, "Latin pair", puzzles, order="latin", breaks=True)
    public_id = link.rsplit("/", 1)[1]
    expect(page.locator("td.completed")).to_have_text(["0", "0"])

    # Someone arrives first and goes no further: they take square row 0, so the participant followed gets row 1.
    first = new_page(browser, base_url, people)
    enter(first, link, "P-early")
    person = new_page(browser, base_url, people)
    enter(person, link, "P-main")
    expect(person.locator(".study-text")).to_have_text("Consent for Latin pair: your solve times are recorded.")
    person.locator("#agree").click()
    expect(person.locator(".study-text")).to_have_text("Instructions for Latin pair: solve each puzzle.")
    expect(person.locator(".card")).to_contain_text("2 puzzles.")
    person.locator("#start").click()
    person.wait_for_url(GAME_URL)

    assigned = participant_of(app, public_id, "P-main")
    assert participant_of(app, public_id, "P-early").latin_row == 0
    assert assigned.latin_row == 1 and assigned.order == studies.williams_rows(2)[1] == [1, 0]
    game_ids = []
    for index, position in enumerate(assigned.order):
        puzzle, solution = puzzle_pair[position]
        expect(person.locator("#study-place")).to_have_text(f"Latin pair: puzzle {index + 1} of 2")
        assert shown_digits(person) == puzzle, f"place {index + 1} shows the puzzle at position {position}"
        game_ids.append(person.url.rsplit("/", 1)[1])
        solve_on_page(person, puzzle, solution)
        assert shown_digits(person) == solution
        next_button = person.locator("#completion #next-puzzle")
        expect(next_button).to_have_text("Next puzzle" if index == 0 else "Finish")
        next_button.click()
        if index == 0:
            expect(person.locator(".card")).to_contain_text("Puzzle 1 of 2 is done.")
            person.locator("#continue").click()
            person.wait_for_url(GAME_URL)
            assert person.url.rsplit("/", 1)[1] != game_ids[0]
    expect(person.locator("#thanks")).to_have_text("Thank you!")
    assert len(set(game_ids)) == 2

    # Back as the researcher: the progress, then the downloads.
    page.reload()
    expect(progress(page).locator(".arrived")).to_have_text("2")
    expect(progress(page).locator(".consented")).to_have_text("1")
    expect(progress(page).locator(".declined")).to_have_text("0")
    expect(progress(page).locator(".finished")).to_have_text("1")
    expect(page.locator("td.completed")).to_have_text(["1", "1"])

    stored_games = {game.id: game for game in games_of(app, assigned)}
    assert set(stored_games) == set(game_ids)
    assert all(game.completed_at is not None for game in stored_games.values())
    events = events_of(app, game_ids)
    kinds = [event.kind for event in events]
    assert kinds.count("show") == 2 and kinds.count("complete") == 2 and kinds.count("enter") == 42

    long_rows = parsed_csv(download(page, "#export-long"))
    assert {row["participant"] for row in long_rows} == {assigned.public_id}, "P-early has no games, so no rows"
    assert {row["study"] for row in long_rows} == {public_id}
    assert [(int(row["event"]), row["kind"], row["game"]) for row in long_rows] == [
        (event.id, event.kind, event.game_id) for event in events
    ]
    assert {(row["game"], int(row["order_index"]), int(row["puzzle_position"])) for row in long_rows} == {
        (game_ids[0], 0, 1),
        (game_ids[1], 1, 0),
    }

    wide_rows = parsed_csv(download(page, "#export-wide"))
    assert len(wide_rows) == 2
    assert [row["completed"] for row in wide_rows] == ["1", "1"]
    assert [int(row["puzzle_position"]) for row in wide_rows] == assigned.order
    assert [int(row["order_index"]) for row in wide_rows] == [0, 1]
    assert [row["game"] for row in wide_rows] == game_ids
    assert [row["puzzle"] for row in wide_rows] == [puzzles[p] for p in assigned.order]
    assert {row["latin_row"] for row in wide_rows} == {"1"}
    assert [int(row["entries"]) for row in wide_rows] == [21, 21]
    assert [float(row["active_s"]) for row in wide_rows] == pytest.approx(
        [stored_games[game_id].solve_seconds for game_id in game_ids], abs=1e-3
    )

    exported = json.loads(download(page, "#export-json"))
    assert exported["study"] == public_id and exported["order_scheme"] == "latin"
    assert exported["settings"]["breaks"] is True and exported["settings"]["redirect_url"] is None
    assert [(p["position"], p["puzzle"], p["solution"]) for p in exported["puzzles"]] == [
        (position, puzzle, solution) for position, (puzzle, solution) in enumerate(puzzle_pair)
    ]
    assert all(p["D"] is not None and p["rating"] for p in exported["puzzles"])

    page.locator("#report-link").click()
    page.wait_for_url(re.compile(rf"/research/studies/{study_id}/report$"))
    expect(page.locator("h1")).to_have_text("Validation report: Latin pair")
    # The report is computed by a job; the page says so, polls, and reloads itself with the report.
    expect(page.locator("#puzzle-table")).to_be_visible(timeout=JOB_PATIENCE_MS)
    expect(page.locator("#report-computing")).to_have_count(0)
    # a correlation needs 3 puzzles or more: the report says so instead of showing an empty table
    expect(page.locator("#correlation-table")).to_have_count(0)
    expect(page.locator("#report-missing")).to_contain_text("at least 3 puzzles; 2 of 2 have one so far")
    expect(page.locator("#puzzle-table tbody tr")).to_have_count(2)
    expect(page.locator("#puzzle-table tbody tr td:nth-child(3)")).to_have_text(["1", "1"])  # solved once each
    expect(page.locator("#table-two tbody tr")).to_have_count(2)  # one participant and the averages
    expect(page.locator("#table-two tbody tr").last.locator("th")).to_have_text("Average")
    expect(page.locator("#refit")).to_be_visible()


# 2. Declining --------------------------------------------------------------------------------------------------


def test_declining_shows_the_goodbye_and_creates_no_game(
    page: Page,
    browser: Browser,
    live_app: tuple[Flask, str],
    researcher: tuple[str, str],
    puzzle_pair: list[tuple[str, str]],
    people: list[BrowserContext],
) -> None:
    app, base_url = live_app
    log_in(page, *researcher)
    _study_id, link = create_study(page, "Declined", [puzzle_pair[0][0]])
    person = new_page(browser, base_url, people)
    enter(person, link, "P-no")
    person.locator("#decline").click()
    expect(person.locator("#declined")).to_contain_text("You chose not to take part.")
    person.goto(f"{link}?participant_label=P-no")  # coming back through the link changes nothing
    expect(person.locator("#declined")).to_be_visible()

    declined = participant_of(app, link.rsplit("/", 1)[1], "P-no")
    assert declined.state == "declined" and declined.consented_at is None and declined.finished_at is not None
    assert games_of(app, declined) == []
    page.reload()
    expect(progress(page).locator(".arrived")).to_have_text("1")
    expect(progress(page).locator(".consented")).to_have_text("0")
    expect(progress(page).locator(".declined")).to_have_text("1")
    expect(progress(page).locator(".finished")).to_have_text("0")


# 3. A game is its participant's own ----------------------------------------------------------------------------


def test_another_participant_cannot_open_a_participants_game(
    page: Page,
    browser: Browser,
    live_app: tuple[Flask, str],
    researcher: tuple[str, str],
    puzzle_pair: list[tuple[str, str]],
    people: list[BrowserContext],
) -> None:
    app, base_url = live_app
    log_in(page, *researcher)
    _study_id, link = create_study(page, "Own games", [puzzle_pair[0][0]])
    owner = new_page(browser, base_url, people)
    enter(owner, link, "P-owner")
    owner_game = agree_and_start(owner)
    other = new_page(browser, base_url, people)
    enter(other, link, "P-other")
    other_game = agree_and_start(other)
    assert other_game != owner_game
    shown_before = events_of(app, [owner_game])

    response = other.goto(f"/g/{owner_game}")
    assert response is not None and response.status == 403
    expect(other.locator("h1")).to_have_text("Not yours")
    expect(other.locator(".error-message")).to_have_text("This game belongs to another participant of a study.")
    expect(other.locator("#board")).to_have_count(0)
    assert [e.id for e in events_of(app, [owner_game])] == [e.id for e in shown_before]

    token = other.locator('meta[name="csrf-token"]').get_attribute("content") or ""
    empty = cell_name(puzzle_pair[0][0].index("."))
    answer = other.request.post(
        f"/g/{owner_game}/cell/{empty}", form={"digit": "5"}, headers={"X-CSRFToken": token, "HX-Request": "true"}
    )
    assert answer.status == 403, "nor can it act on it"
    response = page.goto(f"/g/{owner_game}")  # the researcher's browser never entered the study
    assert response is not None and response.status == 403
    assert [e.id for e in events_of(app, [owner_game])] == [e.id for e in shown_before]

    response = other.goto(f"/g/{other_game}")  # their own game still opens
    assert response is not None and response.status == 200
    expect(other.locator("#study-place")).to_have_text("Own games: puzzle 1 of 1")


# 4. The completion redirect ------------------------------------------------------------------------------------


def test_finishing_sends_the_participant_to_the_completion_url(
    page: Page,
    browser: Browser,
    live_app: tuple[Flask, str],
    researcher: tuple[str, str],
    puzzle_pair: list[tuple[str, str]],
    people: list[BrowserContext],
) -> None:
    app, base_url = live_app
    solution = puzzle_pair[1][1]
    puzzle = nearly_solved(solution)
    log_in(page, *researcher)
    _study_id, link = create_study(page, "Redirected", [puzzle], breaks=False, redirect_url=REDIRECT_URL)
    person = new_page(browser, base_url, people)
    arrived: list[str] = []

    def panel(route: Route) -> None:
        """Stand in for the recruitment platform's completion page."""
        arrived.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<h1 id='panel'>Submission complete</h1>")

    person.context.route("https://panel.example/**", panel)
    enter(person, link, "P-panel")
    agree_and_start(person)
    solve_on_page(person, puzzle, solution)
    finish = person.locator("#completion #next-puzzle")
    expect(finish).to_have_text("Finish")
    finish.click()
    person.wait_for_url(re.compile(re.escape(REDIRECT_URL) + "$"))
    expect(person.locator("#panel")).to_have_text("Submission complete")
    assert arrived == [REDIRECT_URL]
    assert participant_of(app, link.rsplit("/", 1)[1], "P-panel").state == "done"


# 5. Known bugs --------------------------------------------------------------------------------------------------


def test_a_solved_study_game_has_no_duplicate_ids(
    page: Page,
    browser: Browser,
    live_app: tuple[Flask, str],
    researcher: tuple[str, str],
    puzzle_pair: list[tuple[str, str]],
    people: list[BrowserContext],
) -> None:
    _app, base_url = live_app
    solution = puzzle_pair[0][1]
    puzzle = nearly_solved(solution)
    log_in(page, *researcher)
    _study_id, link = create_study(page, "Unique ids", [puzzle])
    person = new_page(browser, base_url, people)
    enter(person, link, "P-ids")
    agree_and_start(person)
    solve_on_page(person, puzzle, solution)
    assert person.evaluate(DUPLICATE_IDS_JS) == []
    expect(person.locator("#next-puzzle")).to_have_text("Finish")


def test_reloading_the_break_page_shows_no_error(
    page: Page,
    browser: Browser,
    live_app: tuple[Flask, str],
    researcher: tuple[str, str],
    puzzle_pair: list[tuple[str, str]],
    people: list[BrowserContext],
) -> None:
    _app, base_url = live_app
    solutions = [solution for _puzzle, solution in puzzle_pair]
    puzzles = [nearly_solved(solution) for solution in solutions]
    log_in(page, *researcher)
    _study_id, link = create_study(page, "Reloaded break", puzzles, breaks=True)
    person = new_page(browser, base_url, people)
    enter(person, link, "P-reload")
    agree_and_start(person)
    solve_on_page(person, puzzles[0], solutions[0])
    person.locator("#completion #next-puzzle").click()
    expect(person.locator("#continue")).to_be_visible()
    response = person.reload()
    assert response is not None and response.status == 200
    expect(person.locator(".error-message")).to_have_count(0)


def test_creating_a_study_shows_progress_while_the_post_is_on_its_way(
    page: Page, researcher: tuple[str, str], puzzle_pair: list[tuple[str, str]]
) -> None:
    """Once the new study's form is sent, its button is disabled and the form says what is happening (seen here on
    a post answered 204, which leaves the page in place); sent for real, the answer brings the study page."""
    log_in(page, *researcher)
    page.goto("/research/studies/new")
    sent: list[str] = []

    def answer_nothing(route: Route) -> None:
        """Answer the form's post with 204 (no navigation); let every other request through."""
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.url)
        route.fulfill(status=204)

    page.route("**/research/studies/new", answer_nothing)
    page.locator("#name").fill("Progress shown")
    page.locator("#puzzles").fill(puzzle_pair[0][0])
    page.locator("#create-study").click()
    expect(page.locator("#create-study")).to_be_disabled()
    expect(page.locator("#create-study-status")).to_have_text(
        "Creating the study: checking the form and the puzzles..."
    )
    assert len(sent) == 1
    page.unroute("**/research/studies/new")
    page.goto("/research/studies/new")
    expect(page.locator("#create-study")).to_be_enabled()
    expect(page.locator("#create-study-status")).to_have_text("")
    page.locator("#name").fill("Progress shown")
    page.locator("#puzzles").fill(puzzle_pair[0][0])
    page.locator("#create-study").click()
    page.wait_for_url(re.compile(r"/research/studies/\d+$"))
    expect(page.locator(".flash")).to_have_text("Study created: its 1 puzzles are being prepared.")
