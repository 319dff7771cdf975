"""The research pages and a participant's study in a real browser."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import Page, expect
from sqlalchemy import select

from helpers.board_page import expect_solved
from sudoku_engine.generate import generate_puzzle
from sudoku_engine.solver import solve
from webapp import db
from webapp.models import Event, Game, Participant, Study
from webapp.study import studies

NEARLY_SOLVED_CELLS = (0, 40, 80)  # distinct rows, columns and boxes


GAME_URL = re.compile(r"/g/[\w-]+$")


JOB_PATIENCE_MS = 120_000  # a background job that has not ended by then fails the test


DIGITS_JS = "() => Array.from(document.querySelectorAll('#board [data-cell]'), (c) => c.dataset.digit || '.').join('')"


def easy_puzzle(seed: int) -> tuple[str, str]:
    """A generated puzzle with 60 givens and its solution from the solver."""
    puzzle = str(generate_puzzle(seed=seed, givens=60).puzzle)
    solution = solve(puzzle)
    assert solution is not None
    return puzzle, str(solution)


def nearly_solved(solution: str) -> str:
    """A solution with r1c1, r5c5 and r9c9 blanked: three naked singles, so one solution and three cells to type."""
    return "".join("." if cell in NEARLY_SOLVED_CELLS else char for cell, char in enumerate(solution))


def cell_name(cell: int) -> str:
    """The board's name of a cell index: r1c1..r9c9."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def parsed_csv(text: str) -> list[dict[str, str]]:
    """The rows of a CSV download as dicts keyed by the header."""
    return list(csv.DictReader(io.StringIO(text)))


def participant_of(app: Flask, public_id: str, label: str) -> Participant:
    """The study's participant who arrived with this participant_label (found by its keyed hash)."""
    who = studies.label_hash(app.secret_key or "", label)
    with db.sessions_of(app)() as session:
        found = session.scalar(
            select(Participant)
            .join(Study, Participant.study_id == Study.id)
            .where(Study.public_id == public_id, Participant.label_hash == who)
        )
        assert found is not None, f"no participant {label!r} in study {public_id}"
        return found


def games_of(app: Flask, participant: Participant) -> list[Game]:
    """The participant's games."""
    with db.sessions_of(app)() as session:
        return list(session.scalars(select(Game).where(Game.participant_id == participant.id)))


def events_of(app: Flask, game_ids: list[str]) -> list[Event]:
    """The events of these games, game by game in the order given, each game's in the order stored."""
    with db.sessions_of(app)() as session:
        return [
            event
            for game_id in game_ids
            for event in session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id))
        ]


def log_in(page: Page, email: str, password: str) -> None:
    """Log the researcher in through the login page and land on their studies."""
    page.goto("/research/login")
    page.locator("#email").fill(email)
    page.locator("#password").fill(password)
    page.locator("#login").click()
    page.wait_for_url(re.compile(r"/research/$"))
    expect(page.locator("#new-study")).to_be_visible()


def create_study(
    page: Page, name: str, puzzles: list[str], *, order: str = "fixed", breaks: bool = True, redirect_url: str = ""
) -> tuple[int, str]:
    """Fill and send the new-study form from the studies page; the study's number and its entry link."""
    page.goto("/research/")
    page.locator("#new-study").click()
    page.locator("#name").fill(name)
    page.locator("#description").fill("Browser test study")
    page.locator("#consent_text").fill(f"Consent for {name}: your solve times are recorded.")
    page.locator("#instructions").fill(f"Instructions for {name}: solve each puzzle.")
    page.locator("#puzzles").fill("\n".join(puzzles))
    page.locator("#order_scheme").select_option(order)
    page.locator('input[name="breaks"]').set_checked(breaks)
    if redirect_url:
        page.locator("#redirect_url").fill(redirect_url)
    page.locator("#create-study").click()
    page.wait_for_url(re.compile(r"/research/studies/\d+$"))
    expect(page.locator(".flash")).to_have_text(f"Study created: its {len(puzzles)} puzzles are being prepared.")
    # The page polls the preparation job and reloads itself when the study is ready.
    expect(page.locator("#entry-link")).to_be_visible(timeout=JOB_PATIENCE_MS)
    link = page.locator("#entry-link").input_value()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/s/[\w-]+", link), link
    open_study(page)
    return int(page.url.rsplit("/", 1)[1]), link


def open_study(page: Page) -> None:
    """Open a prepared draft to participants from its page (a study from the form is a draft until then)."""
    page.locator("#phase-open").click()
    expect(page.locator("#study-phase")).to_have_text("open")


def enter(page: Page, link: str, label: str) -> None:
    """Open the entry link with a participant label and wait for the consent page."""
    page.goto(f"{link}?participant_label={label}")
    expect(page.locator("#agree")).to_be_visible()


def agree_and_start(page: Page) -> str:
    """Agree, start from the instructions, and wait for the first puzzle; its game id."""
    page.locator("#agree").click()
    page.locator("#start").click()
    page.wait_for_url(GAME_URL)
    return page.url.rsplit("/", 1)[1]


def shown_digits(page: Page) -> str:
    """The board's digits as 81 characters, '.' for empty cells."""
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    found = page.evaluate(DIGITS_JS)
    assert isinstance(found, str) and len(found) == 81
    return found


def solve_on_page(page: Page, puzzle: str, solution: str) -> None:
    """Click each empty cell, type its digit, and wait for the completion view."""
    for cell, char in enumerate(puzzle):
        if char == ".":
            page.locator(f'#board [data-cell="{cell_name(cell)}"]').click()
            page.keyboard.press(solution[cell])
    expect_solved(page)


def download(page: Page, link_id: str) -> str:
    """Click a download link of the study page and read the downloaded file."""
    with page.expect_download() as info:
        page.locator(link_id).click()
    path = info.value.path()
    return Path(path).read_text(encoding="utf-8")


def create_account(app: Flask, email: str, password: str, *, admin: bool = False) -> str:
    """Make a researcher (or administrator) account with ``flask user create`` on the app; what the command said.
    Each test module uses an email of its own: the live app is shared by the session."""
    args = ["user", "create", email, "--password", password, *(["--admin"] if admin else [])]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    return result.output


def header_of(text: str) -> list[str]:
    """The header line of a CSV download."""
    return next(csv.reader(io.StringIO(text)))
