"""An app whose players' games the time model learns from."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from helpers.play import open_game, show_game
from helpers.web import Clock, csrf_token_of
from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from sudoku_engine.rating import rate
from webapp import db
from webapp.bank import pool

PLAYERS, PUZZLES = 30, 20
MADE = [generate_puzzle(seed=9100 + k, givens=36) for k in range(PUZZLES)]


def banked_app(make_app: Callable[..., Flask]) -> Flask:
    """A test app whose rate limits let every simulated player through, its puzzles in the bank (served already)."""
    made = make_app(RATELIMIT_ENABLED=False)
    with db.sessions_of(made)() as session:
        records = [pool.record_of(m.puzzle.values, m.solution.values, rate(m.puzzle.values), "import") for m in MADE]
        pool.add(session, records, used=True)
    return made


def by_digit(puzzle: str, solution: str) -> list[tuple[str, str]]:
    """The empty cells grouped by the digit the solution puts there: (digit, "r1c2,r4c5,...")."""
    groups: dict[str, list[str]] = {}
    for cell, given in enumerate(puzzle):
        if given == ".":
            groups.setdefault(solution[cell], []).append(cell_name(cell))
    return [(digit, ",".join(cells)) for digit, cells in sorted(groups.items())]


def play(client: FlaskClient, clock: Clock, index: int, minutes: float, stop_at: float | None = None) -> str:
    """Play puzzle ``index`` in ``minutes``, one digit at a time (all its cells at once), the clock moving evenly
    between entries; with ``stop_at`` (minutes) the player leaves once that much time has gone. The game id."""
    made = MADE[index]
    game_id = open_game(client, str(made.puzzle))
    page = show_game(client, game_id)
    headers = {"X-CSRFToken": csrf_token_of(page), "HX-Request": "true"}
    groups = by_digit(str(made.puzzle), str(made.solution))
    step = 60.0 * minutes / len(groups)
    for number, (digit, cells) in enumerate(groups, start=1):
        if stop_at is not None and number * step > 60.0 * stop_at:
            break
        clock.advance(step)
        answer = client.post(
            f"/g/{game_id}/cells", data={"cells": cells, "digit": digit, "mode": "digit"}, headers=headers
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)
    clock.advance(120.0)
    return game_id
