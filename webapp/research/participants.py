"""One participant at a time: a study's participants, one participant's path through it, and the replay of a game.

Every page asks ``study_for`` for the viewer role; a participant or game that is not the study's gets 404 with a
message. The replay's boards are rebuilt from the game's events by ``webapp.games.replay`` (the rules of play) and
drawn with the game's own cell markup (``play/_cell.html``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from ..db import get_session
from ..games import boardview, replay
from ..models import Event, Game, Participant, Study, utcnow
from ..validation import bounded_int
from . import audit, bp, exports, login_required
from .access import study_for

ID_LENGTH = 32  # public ids and game ids fit String(32)
# The longest wait between two events while the replay plays, in seconds of the page's time: a long think or a
# pause of the game plays in at most this long at any speed.
MAX_WAIT_S = 3.0
SPEEDS = (1, 2, 4, 10)


@bp.get("/studies/<int:study_id>/participants")
@login_required
def participants(study_id: int) -> ResponseReturnValue:
    """The study's participants in order of arrival, each with their state and how many puzzles they completed and
    gave up on."""
    found = study_for(study_id)
    session = get_session()
    people = list(
        session.scalars(select(Participant).where(Participant.study_id == found.id).order_by(Participant.arrival))
    )
    ids = [p.id for p in people]
    games: list[Game] = list(session.scalars(select(Game).where(Game.participant_id.in_(ids)))) if ids else []
    completed = per_participant(game for game in games if game.completed_at is not None)
    gave_up = per_participant(game for game in games if game.gave_up_at is not None)
    return render_template(
        "research/participants.html", study=found, people=people, completed=completed, gave_up=gave_up
    )


def per_participant(games: Iterable[Game]) -> dict[int, int]:
    """How many of these games each participant (by row id) has."""
    counts: dict[int, int] = {}
    for game in games:
        if game.participant_id is not None:
            counts[game.participant_id] = counts.get(game.participant_id, 0) + 1
    return counts


def participant_of(study: Study, public_id: str) -> Participant:
    """The study's participant with this public id, else 404 with a message."""
    found = None
    if len(public_id) <= ID_LENGTH:
        found = get_session().scalar(
            select(Participant).where(Participant.study_id == study.id, Participant.public_id == public_id)
        )
    if found is None:
        abort(404, description="This study has no participant with this id.")
    return found


def path_of(study: Study, person: Participant) -> Iterator[exports.Played | int]:
    """The participant's puzzles in their order: the played game with its events, or the position of a puzzle not
    reached yet."""
    session = get_session()
    positions = {p.id: p.position for p in study.puzzles}
    games = session.scalars(select(Game).where(Game.participant_id == person.id))
    by_position = {positions[g.study_puzzle_id]: g for g in games if g.study_puzzle_id in positions}
    for index, position in enumerate(person.order):
        game = by_position.get(position)
        if game is None:
            yield position
            continue
        events = list(session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.id)))
        yield exports.Played(person, index, position, game, events)


@bp.get("/studies/<int:study_id>/participants/<participant>")
@login_required
def participant_page(study_id: int, participant: str) -> ResponseReturnValue:
    """A participant's arrival, Latin row, state, consent, and their path: each puzzle in their order with its
    showing, pauses, completion, time, hints by rung, mistakes and undos (the wide export's figures)."""
    found = study_for(study_id)
    person = participant_of(found, participant)
    audit.record_read("participant-viewed", found, person.public_id)
    now = utcnow()
    puzzles = {p.position: p for p in found.puzzles}
    rows: list[dict[str, Any]] = []
    for item in path_of(found, person):
        if isinstance(item, int):
            rows.append({"position": item, "puzzle": puzzles.get(item), "figures": None, "game": None})
            continue
        figures = exports.wide_row(found, item, now)
        rows.append(
            {"position": item.position, "puzzle": puzzles.get(item.position), "figures": figures, "game": item.game}
        )
    return render_template("research/participant.html", study=found, person=person, rows=rows)


def study_game(study: Study, game_id: str) -> tuple[Game, Participant]:
    """A game of one of the study's participants, with the participant; else 404 with a message."""
    game = get_session().get(Game, game_id) if len(game_id) <= ID_LENGTH else None
    person = get_session().get(Participant, game.participant_id) if game and game.participant_id else None
    if game is None or person is None or person.study_id != study.id:
        abort(404, description="This study has no game with this id.")
    return game, person


def step_asked(count: int) -> int:
    """The step the address asks for (``?step=``, 0 for the board before the first event), else the last one;
    400 with a message when it is not a step of this game."""
    text = request.args.get("step")
    if text is None or text == "":
        return count
    try:
        return bounded_int(text, 0, count)
    except ValueError:
        abort(400, description=f"step is a whole number from 0 to {count}: the events of this game.")


def frames(steps: list[replay.Step], solution: str, start: list[boardview.CellView]) -> dict[str, Any]:
    """Each distinct cell markup once (``markups``), the markup of every cell before the first event (``start``, as
    indexes into it), and for each step the [cell, markup index] pairs that changed from the step before
    (``frames``): the page's script draws any step from them."""
    index: dict[boardview.CellView, int] = {}
    markups: list[str] = []

    def markup(view: boardview.CellView) -> int:
        if view not in index:
            index[view] = len(markups)
            markups.append(render_template("play/_cell.html", cell=view, oob=False))
        return index[view]

    shown, out = start, []
    for step in steps:
        views = board_at(step, solution)
        out.append([[view.cell, markup(view)] for view in boardview.changed(shown, views)])
        shown = views
    return {"markups": markups, "start": [markup(view) for view in start], "frames": out}


def clock_text(elapsed: float, active: float) -> str:
    """The replay's clock: elapsed time since the first showing and, in brackets, active time (m:ss.s)."""
    return f"{seconds_text(elapsed)} ({seconds_text(active)})"


def seconds_text(seconds: float) -> str:
    """Seconds as m:ss.s (h:mm:ss.s from one hour on)."""
    tenths = round(seconds * 10)
    minutes, rest = divmod(tenths, 600)
    hours, minutes = divmod(minutes, 60)
    text = f"{minutes:02d}:{rest // 10:02d}.{rest % 10}" if hours else f"{minutes}:{rest // 10:02d}.{rest % 10}"
    return f"{hours}:{text}" if hours else text


def board_at(step: replay.Step, solution: str) -> list[boardview.CellView]:
    """The cells after a step, with wrong digits marked while the player had mistake checking on."""
    state = step.state
    wrong = {c for c, d in enumerate(state.entries) if d and str(d) != solution[c]} if step.checking else set()
    return boardview.state_board(state, wrong)


@bp.get("/studies/<int:study_id>/games/<game_id>/replay")
@login_required
def replay_page(study_id: int, game_id: str) -> ResponseReturnValue:
    """A game of the study replayed from its events on the game's board (read-only): play, pause, step, speed, a
    slider and the list of events to jump to one; ``?step=n`` draws the board after the n-th event without script."""
    found = study_for(study_id)
    game, person = study_game(found, game_id)
    if "step" not in request.args:  # a replay is recorded once, not at each step of its page without script
        audit.record_read("replay", found, f"game {game.id} of participant {person.public_id}")
    events = list(get_session().scalars(select(Event).where(Event.game_id == game.id).order_by(Event.id)))
    steps = replay.replay(game, events)
    step = step_asked(len(steps))
    start = boardview.state_board(replay.start_state(game), set())
    shown = board_at(steps[step - 1], game.solution) if step else start
    clock = [clock_text(0.0, 0.0)] + [clock_text(s.elapsed_s, s.solve_seconds) for s in steps]
    elapsed = [0.0] + [round(s.elapsed_s, 3) for s in steps]
    data = {**frames(steps, game.solution, start), "clock": clock, "elapsed": elapsed}
    position = next((p.position for p in found.puzzles if p.id == game.study_puzzle_id), None)
    return render_template(
        "research/replay.html",
        study=found,
        person=person,
        game=game,
        steps=steps,
        step=step,
        clock=clock,
        place=person.order.index(position) + 1 if position in person.order else None,
        board=shown,
        data=data,
        speeds=SPEEDS,
        max_wait_s=MAX_WAIT_S,
    )
