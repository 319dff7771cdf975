"""A participant through a study's consent and questionnaires."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from helpers.play import blanks, game_row
from helpers.studies import form_token
from sudoku_engine.grid import cell_name


def agree(client: FlaskClient, base: str, clauses: list[str]) -> TestResponse:
    """Post Agree with these clauses ticked."""
    token = form_token(client, f"{base}/go")
    return client.post(f"{base}/consent", data={"answer": "agree", "clause": clauses, "csrf_token": token})


def answer(client: FlaskClient, base: str, page: str, fields: dict[str, str | list[str]]) -> TestResponse:
    """Post the answers of a page of questions."""
    token = form_token(client, f"{base}/go")
    return client.post(f"{base}/answers", data={**fields, "page": page, "csrf_token": token})


def solve_current(app: Flask, client: FlaskClient, base: str) -> str:
    """Solve the participant's current puzzle through the board's routes and go on; its game id."""
    location = client.get(f"{base}/go").headers["Location"]
    game_id = location.rsplit("/", 1)[1]
    game = game_row(app, game_id)
    token = form_token(client, f"/g/{game_id}")
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    for cell in blanks(game.puzzle):
        client.post(f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": game.solution[cell]}, headers=headers)
    assert game_row(app, game_id).completed_at is not None
    assert client.post(f"{base}/next", data={"csrf_token": token}).status_code == 303
    return game_id
