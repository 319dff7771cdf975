"""A game rebuilt from its events (``webapp.games.replay``): a study game is played through the real endpoints with
digits, marks, colours, selections, undo, redo, auto-candidates, hints applied, clearing marks and restart, and the
board the server stored after each request is recorded; the replay of the stored events must give, event by event,
exactly those boards (digits, marks, colours, and the undo history), and end on the game's final row."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from test_play_routes import blanks
from test_studies import EMAIL, PASSWORD, create, first_game, form_token

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import PEERS, cell_name
from webapp import db, jobs
from webapp.games import replay
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


@pytest.fixture
def played(app: Flask) -> Played:
    """A study game played to its end with every kind of action, by the study's first participant."""
    return play_game(app, logged_in(app), study_puzzles())


def replayed(app: Flask, game_id: str) -> tuple[list[replay.Step], Game]:
    """The game's replay from its stored events, and the stored game."""
    with app.app_context():
        session = db.get_session()
        game = session.get(Game, game_id)
        assert game is not None
        events = list(session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id)))
        return replay.replay(game, events), game


def as_stored(step: replay.Step) -> dict[str, Any]:
    """A replayed state in the stored board's terms."""
    state = step.state
    return {
        **replay.board_of(state),
        "history": [list(map(list, action)) for action in state.history],
        "undo_depth": state.undo_depth,
    }


def test_every_replayed_step_is_the_board_the_server_stored_after_that_action(played: Played) -> None:
    steps, _game = replayed(played.app, played.game_id)
    assert len(steps) > 40
    for step in steps:
        assert step.note == "", (step.event.kind, step.note)
        assert as_stored(step) == played.board_after(step.event.id), (step.event.id, step.event.kind)


def test_the_replay_ends_on_the_games_stored_final_board(played: Played) -> None:
    steps, game = replayed(played.app, played.game_id)
    final = replay.board_of(steps[-1].state)
    assert final["entries"] == game.entries and final["corner"] == game.corner and final["centre"] == game.centre
    assert final["colour"] == game.colour
    solved = "".join(g if g != "." else e for g, e in zip(game.puzzle, final["entries"], strict=True))
    assert solved == game.solution


def test_the_replay_clock_stops_while_the_game_is_paused(played: Played) -> None:
    steps, game = replayed(played.app, played.game_id)
    kinds = [s.event.kind for s in steps]
    paused, resumed = kinds.index("pause"), kinds.index("resume")
    assert steps[resumed].solve_seconds == pytest.approx(steps[paused].solve_seconds, abs=1e-6)
    gap = (steps[resumed].event.server_time - steps[paused].event.server_time).total_seconds()
    assert steps[resumed].elapsed_s - steps[paused].elapsed_s == pytest.approx(gap, abs=1e-6)
    assert steps[0].event.kind == "show" and steps[0].elapsed_s == 0.0
    assert steps[-1].solve_seconds == pytest.approx(game.solve_seconds, abs=1e-3)


def test_a_stored_change_that_the_rules_do_not_give_wins_and_is_said(played: Played) -> None:
    """An event whose stored change disagrees with the rules (a row changed by hand) is drawn as stored."""
    with played.app.app_context():
        session = db.get_session()
        event = session.scalars(
            select(Event).where(Event.game_id == played.game_id, Event.kind == "autofill").order_by(Event.id)
        ).first()
        assert event is not None and event.detail is not None
        rows = [list(row) for row in event.detail["change"]]
        rows[0][7] = 0  # the first cell's centre marks after: none
        event.detail = {**event.detail, "change": rows}
        session.commit()
        changed_cell, event_id = rows[0][0], event.id
    steps, _game = replayed(played.app, played.game_id)
    step = next(s for s in steps if s.event.id == event_id)
    assert step.note.startswith("Rebuilt from the stored change")
    assert step.state.centre[changed_cell] == 0
    assert played.board_after(event_id)["centre"][changed_cell] != 0


def test_events_stored_before_colour_marks_replay_their_seven_value_rows(played: Played) -> None:
    """Undo and redo rows of 7 values (before colour marks existed) still rebuild the board."""
    with played.app.app_context():
        session = db.get_session()
        for event in session.scalars(select(Event).where(Event.game_id == played.game_id)):
            rows = (event.detail or {}).get("change")
            if event.kind in ("undo", "redo") and rows and all(row[4] == row[8] == 0 for row in rows):
                event.detail = {**event.detail, "change": [[*row[:4], *row[5:8]] for row in rows]}
        session.commit()
    steps, _game = replayed(played.app, played.game_id)
    for step in steps:
        assert step.note == ""
        assert as_stored(step) == played.board_after(step.event.id)
