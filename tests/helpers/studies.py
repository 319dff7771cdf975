"""A study through the web app: an account, its puzzles, a study created and prepared, a participant's way in."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from helpers.jobs import prepared
from helpers.play import blanks, game_row
from helpers.web import csrf_token_of
from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from webapp import db, jobs
from webapp.models import Study

EMAIL, PASSWORD = "lab@example.org", "correct horse"


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """Four easy generated puzzles with their solutions (many givens: few entries to solve them)."""
    made = [generate_puzzle(seed=900 + i, givens=60) for i in range(4)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


@pytest.fixture(autouse=True)
def consumer(app: Flask) -> Iterator[None]:
    """A real consumer of the app's job queue: studies are prepared and reports computed by it."""
    with jobs.running_in_threads(app):
        yield


@pytest.fixture
def researcher(app: Flask, client: FlaskClient) -> FlaskClient:
    """A client logged in as a researcher made with ``flask user create``."""
    result = app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD])
    assert result.exit_code == 0, result.output
    token = csrf_token_of(client.get("/research/login").get_data(as_text=True))
    response = client.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    return client


def form_token(client: FlaskClient, path: str) -> str:
    """The CSRF token of a page."""
    return csrf_token_of(client.get(path).get_data(as_text=True))


def create(client: FlaskClient, pasted: list[tuple[str, str]], **fields: str) -> int:
    """Create a study with the pasted puzzles and wait until the job made it ready; its id."""
    data = {
        "name": "Pilot",
        "puzzles": "\n".join(p for p, _s in pasted),
        "order_scheme": "latin",
        "hint_rungs": "4",
        "autofill": "on",
        "checking": "on",
        "abandon_minutes": "60",
        **fields,
    }
    data["csrf_token"] = form_token(client, "/research/studies/new")
    response = client.post("/research/studies/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    study_id = int(response.headers["Location"].rsplit("/", 1)[1])
    app = client.application
    assert prepared(app, study_id).state == "ready", prepared(app, study_id).problem
    open_study(client, study_id)
    return study_id


def open_study(client: FlaskClient, study_id: int) -> None:
    """Open a prepared draft to participants, as its owner does from the study page."""
    token = form_token(client, "/research/studies/new")  # not the study's page: its messages stay for the test
    opened = client.post(f"/research/studies/{study_id}/phase", data={"to": "open", "csrf_token": token})
    assert opened.status_code == 303, opened.get_data(as_text=True)


def enter_study(client: FlaskClient, entry: str, barrier: threading.Barrier | None = None) -> TestResponse:
    """Go through an entry link as a browser does: its page, then the page's post (sent once ``barrier`` lets
    every waiting arrival go); a recognised participant's answer to the page itself."""
    page = client.get(entry)
    if page.status_code != 200:
        return page
    token = csrf_token_of(page.get_data(as_text=True))
    if barrier is not None:
        barrier.wait()
    return client.post(entry, data={"csrf_token": token})


def public_id(app: Flask, study_id: int) -> str:
    """The entry-link id of a study."""
    with app.app_context():
        study = db.get_session().get(Study, study_id)
        assert study is not None
        return study.public_id


def play_through(app: Flask, client: FlaskClient, entry: str) -> list[str]:
    """Consent, start and solve every puzzle of the study; the puzzles in the order they came."""
    enter_study(client, entry)
    base = entry.split("?")[0]
    token = form_token(client, f"{base}/go")
    assert client.post(f"{base}/consent", data={"answer": "agree", "csrf_token": token}).status_code == 303
    client.post(f"{base}/start", data={"csrf_token": token})
    seen = []
    while True:
        response = client.get(f"{base}/go")
        if response.status_code != 303 or "/g/" not in response.headers["Location"]:
            return seen
        game_id = response.headers["Location"].rsplit("/", 1)[1]
        page = client.get(f"/g/{game_id}").get_data(as_text=True)
        assert "puzzle " in page and 'id="study-place"' in page
        game = game_row(app, game_id)
        seen.append(game.puzzle)
        headers = {"X-CSRFToken": token, "HX-Request": "true"}
        for cell in blanks(game.puzzle):
            client.post(f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": game.solution[cell]}, headers=headers)
        assert game_row(app, game_id).completed_at is not None
        assert client.post(f"{base}/next", data={"csrf_token": token}).status_code in (200, 303)


def first_game(app: Flask, study_id: int) -> tuple[FlaskClient, str, str, str]:
    """A new participant who agreed and started: their client, the study's base path, CSRF token, first game."""
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    token = form_token(client, f"{base}/go")
    client.post(f"{base}/consent", data={"answer": "agree", "csrf_token": token})
    client.post(f"{base}/start", data={"csrf_token": token})
    return client, base, token, client.get(f"{base}/go").headers["Location"]
