"""Playing a game through the web app's routes: open, show, enter, read back."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from helpers.web import csrf_token_of
from webapp import db
from webapp.models import Event, Game

VIEW = re.compile(r'data-view="([^"]+)"')


def events_of(app: Flask, game_id: str) -> list[Event]:
    """The events of a game in the order they were recorded."""
    with app.app_context():
        query = select(Event).where(Event.game_id == game_id).order_by(Event.id)
        return list(db.get_session().scalars(query))


def game_row(app: Flask, game_id: str) -> Game:
    """The stored game row."""
    with app.app_context():
        game = db.get_session().get(Game, game_id)
        assert game is not None
        return game


def open_game(client: FlaskClient, puzzle: str) -> str:
    """Open a game on a puzzle through its /p/ link (the page, then its post) and return its id."""
    page = client.get(f"/p/{puzzle}")
    assert page.status_code == 200, page.get_data(as_text=True)
    response = client.post(f"/p/{puzzle}", data={"csrf_token": csrf_token_of(page.get_data(as_text=True))})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def show_game(client: FlaskClient, game_id: str) -> str:
    """Open a game's page as a browser does: the page, then the board script's report that it is shown; the page."""
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    view = VIEW.search(page)
    assert view is not None, "no page view id on the game page"
    data = {"view": view.group(1), "csrf_token": csrf_token_of(page)}
    assert client.post(f"/g/{game_id}/shown", data=data, headers={"HX-Request": "true"}).status_code == 200
    return page


def enter(
    client: FlaskClient, headers: dict[str, str], game_id: str, cell: str, digit: str, **extra: str
) -> TestResponse:
    """Post one entry the way the board script does."""
    return client.post(f"/g/{game_id}/cell/{cell}", data={"digit": digit, **extra}, headers=headers)


def spoken(cell: int) -> str:
    """How the board names a cell to a screen reader."""
    return f"Row {cell // 9 + 1}, column {cell % 9 + 1}"


def blanks(puzzle: str) -> list[int]:
    """The empty cells of a puzzle."""
    return [cell for cell, char in enumerate(puzzle) if char in ".0"]
