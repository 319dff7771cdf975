"""A study participant driven through their rights: start, solve, give up, withdraw; what is stored."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from helpers.play import blanks, game_row
from helpers.studies import enter_study, form_token, public_id
from sudoku_engine.grid import cell_name
from webapp import db
from webapp.models import Participant
from webapp.study.studies import label_hash


class Person:
    """A participant's browser in one study."""

    def __init__(self, app: Flask, study_id: int, label: str) -> None:
        self.app, self.client = app, app.test_client()
        self.base = f"/s/{public_id(app, study_id)}"
        self.label = label
        assert enter_study(self.client, f"{self.base}?participant_label={label}").status_code == 303
        self.token = form_token(self.client, f"{self.base}/go")

    def post(self, path: str, **fields: str) -> tuple[int, str]:
        """A form post to a study page; the status and the page."""
        answer = self.client.post(f"{self.base}/{path}", data={**fields, "csrf_token": self.token})
        return answer.status_code, answer.get_data(as_text=True)

    def start(self) -> str:
        """Consent, start; the id of the first puzzle's game."""
        assert self.post("consent", answer="agree")[0] == 303
        assert self.post("start")[0] == 303
        return self.current_game()

    def current_game(self) -> str:
        """The id of the game the participant is on."""
        location = self.client.get(f"{self.base}/go").headers["Location"]
        assert "/g/" in location, location
        return location.rsplit("/", 1)[1]

    def cell(self, game_id: str, cell: int, digit: str) -> int:
        """Enter a digit on the board; the status."""
        headers = {"X-CSRFToken": self.token, "HX-Request": "true"}
        return self.client.post(
            f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": digit}, headers=headers
        ).status_code

    def solve(self, game_id: str) -> None:
        """Solve the game as a player would."""
        solve(self.app, self.client, self.token, game_id)


def solve(app: Flask, client: FlaskClient, token: str, game_id: str) -> None:
    """Solve a game on the board as a player would."""
    game = game_row(app, game_id)
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    for cell in blanks(game.puzzle):
        answer = client.post(
            f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": game.solution[cell]}, headers=headers
        )
        assert answer.status_code == 200
    assert game_row(app, game_id).completed_at is not None


def stored(app: Flask, model: type, **where: object) -> int:
    """How many rows of a table match."""
    with db.sessions_of(app)() as session:
        query = select(func.count()).select_from(model)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        return int(session.scalar(query) or 0)


def participant_row(app: Flask, study_id: int, label: str) -> Participant | None:
    """The participant who arrived with a label (found by its keyed hash, as stored)."""
    with db.sessions_of(app)() as session:
        hashed = label_hash(str(app.secret_key), label)
        return session.scalar(
            select(Participant).where(Participant.study_id == study_id, Participant.label_hash == hashed)
        )
