"""The game service: positions, concurrent entries, solve-time formatting."""

from __future__ import annotations

import pytest
from flask import Flask

from sudoku_engine.generate import Generated
from webapp import db
from webapp.games import boardview, store
from webapp.models import Game


def stored_game(app: Flask, generated: Generated) -> str:
    """Store a game on the generated puzzle and return its id."""
    with app.app_context():
        return store.new_game_from_text(db.get_session(), str(generated.puzzle)).id


def test_entries_from_stale_copies_do_not_overwrite_each_other(app: Flask, generated: Generated) -> None:
    game_id = stored_game(app, generated)
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    first, second = [cell for cell, char in enumerate(puzzle) if char == "."][:2]
    sessions = app.extensions[db.EXTENSION].sessions
    with sessions() as one, sessions() as two:
        copy_one, copy_two = one.get(Game, game_id), two.get(Game, game_id)
        assert copy_one is not None and copy_two is not None
        store.enter(one, copy_one, first, int(solution[first]), None)
        store.enter(two, copy_two, second, int(solution[second]), None)
    with sessions() as check:
        game = check.get(Game, game_id)
        assert game is not None
        assert game.entries[first] == solution[first] and game.entries[second] == solution[second]


def test_position_overlays_entries_on_givens(app: Flask, generated: Generated) -> None:
    game_id = stored_game(app, generated)
    puzzle = str(generated.puzzle)
    blank = puzzle.index(".")
    with app.app_context():
        session = db.get_session()
        game = session.get(Game, game_id)
        assert game is not None and store.position(game) == puzzle
        store.enter(session, game, blank, 7, 12.0)
        assert store.position(game) == puzzle[:blank] + "7" + puzzle[blank + 1 :]
        view = boardview.cell_view(game, blank)
        assert (view.name, view.digit, view.given) == (f"r{blank // 9 + 1}c{blank % 9 + 1}", 7, False)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0:00"), (4.9, "0:04"), (245, "4:05"), (3599, "59:59"), (3600, "1:00:00"), (7384.2, "2:03:04")],
)
def test_format_duration(seconds: float, text: str) -> None:
    assert store.format_duration(seconds) == text
