"""A study game played through and replayed: its puzzles, the played game, a logged-in researcher."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from helpers.play import blanks
from helpers.studies import EMAIL, PASSWORD, create, first_game, form_token
from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import PEERS, cell_name
from webapp import db, jobs
from webapp.models import Event, Game, Participant


@pytest.fixture(autouse=True)
def consumer(app: Flask) -> Iterator[None]:
    """A real consumer of the app's job queue: studies are prepared by it."""
    with jobs.running_in_threads(app):
        yield


@functools.cache
def study_puzzles() -> list[tuple[str, str]]:
    """Two generated puzzles with their solutions (enough empty cells for hints that remove candidates)."""
    made = [generate_puzzle(seed=2600 + i, givens=36) for i in range(2)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


def logged_in(app: Flask) -> FlaskClient:
    """A researcher's client, the account made on the command line and logged in through the login page."""
    app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD])
    client = app.test_client()
    token = form_token(client, "/research/login")
    assert client.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token}).status_code
    return client


def stored_board(app: Flask, game_id: str) -> tuple[int, dict[str, Any]]:
    """The latest event id of the game and its stored board: digits, marks, colours, undo history."""
    with app.app_context():
        session = db.get_session()
        game = session.get(Game, game_id)
        assert game is not None
        last = session.scalar(select(func.max(Event.id)).where(Event.game_id == game_id)) or 0
        return last, {
            "entries": game.entries,
            "corner": list(game.corner or [0] * 81),
            "centre": list(game.centre or [0] * 81),
            "colour": list(game.colour or [0] * 81),
            "history": [list(map(list, action)) for action in game.history or []],
            "undo_depth": game.undo_depth,
        }


@dataclass
class Played:
    """A study game played through the endpoints, and the board stored after each request (by latest event id)."""

    app: Flask
    researcher: FlaskClient
    study_id: int
    game_id: str
    participant: str
    boards: list[tuple[int, dict[str, Any]]]

    def board_after(self, event_id: int) -> dict[str, Any]:
        """The board the server stored after the request that logged this event."""
        return next(board for last, board in self.boards if last >= event_id)


def play_game(app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]) -> Played:
    """A participant's first study game played with every kind of action to its end, recording the stored board
    after each request."""
    study_id = create(researcher, puzzles, order_scheme="fixed")
    client, _base, token, game_url = first_game(app, study_id)
    game_id = game_url.rsplit("/", 1)[1]
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    with app.app_context():
        game = db.get_session().get(Game, game_id)
        assert game is not None
        puzzle, solution, participant_id = game.puzzle, game.solution, game.participant_id
    boards: list[tuple[int, dict[str, Any]]] = []

    def send(action: str, **data: str) -> int:
        status = client.post(f"{game_url}/{action}", data=data, headers=headers).status_code
        boards.append(stored_board(app, game_id))
        return status

    empty = blanks(puzzle)
    a = empty[0]
    b = next(c for c in empty if c in PEERS[a])
    c, d = [x for x in empty if x not in (a, b)][:2]
    given = next(i for i, ch in enumerate(puzzle) if ch != ".")
    wrong = str(int(solution[b]) % 9 + 1)
    assert send("shown", view="v1") == 200
    assert send(f"cell/{cell_name(a)}", digit=solution[a], mode="corner") == 200
    assert send(f"cell/{cell_name(a)}", digit=wrong, mode="centre") == 200
    assert send(f"cell/{cell_name(b)}", digit=wrong) == 200  # a wrong digit: taken from a's centre marks
    assert send("undo") == 200 and send("redo") == 200 and send("undo") == 200
    assert send("cells", cells=f"{cell_name(a)},{cell_name(given)}", digit="3", mode="colour") == 200
    assert send("cells", cells=f"{cell_name(c)},{cell_name(d)}", digit="5", mode="centre") == 200
    assert send("cells", cells=f"{cell_name(c)},{cell_name(d)}", digit=solution[c]) == 200
    assert send("cells", cells=f"{cell_name(c)},{cell_name(d)}", digit="0") == 200  # erase
    assert send("autofill") == 200
    assert send("pause", reason="button") == 200 and send("resume") == 200
    for _rung in range(4):
        assert send("hint") == 200
    assert send("hint/apply") == 200
    assert send("check", on="on") == 200
    assert send(f"cell/{cell_name(b)}", digit=wrong) == 200
    assert send(f"cell/{cell_name(b)}", digit=wrong) == 200  # the same digit again clears it
    assert send(f"cell/{cell_name(b)}", digit="0") == 200  # clears the marks
    assert send("clear-marks") == 200 and send("undo") == 200
    assert send("restart") == 200 and send("undo") == 200 and send("redo") == 200 and send("undo") == 200
    for _rung in range(4):
        send("hint")
    send("hint/apply")
    for cell in empty:
        with app.app_context():
            current = db.get_session().get(Game, game_id)
            assert current is not None
            if current.completed_at is not None:
                break
            if current.entries[cell] != solution[cell]:
                assert send(f"cell/{cell_name(cell)}", digit=solution[cell]) == 200
    with app.app_context():
        session = db.get_session()
        done = session.get(Game, game_id)
        assert done is not None and done.completed_at is not None
        kinds = set(session.scalars(select(Event.kind).where(Event.game_id == game_id)))
        person = session.get(Participant, participant_id)
        public = person.public_id if person is not None else ""
    assert {"enter", "clear", "mark", "colour", "undo", "redo", "autofill", "apply", "clear_marks", "restart"} <= kinds
    assert public
    return Played(app, researcher, study_id, game_id, public, boards)
