"""A game rebuilt from its events (``webapp.games.replay``): a study game is played through the real endpoints with
digits, marks, colours, selections, undo, redo, auto-candidates, hints applied, clearing marks and restart, and the
board the server stored after each request is recorded; the replay of the stored events must give, event by event,
exactly those boards (digits, marks, colours, and the undo history), and end on the game's final row."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from helpers.replay import (
    Played,
    consumer,  # noqa: F401  (fixtures)
    logged_in,
    play_game,
    study_puzzles,
)
from sqlalchemy import select

from webapp import db
from webapp.games import replay
from webapp.models import Event, Game


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
