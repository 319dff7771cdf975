"""A study's data for analysis: long CSV (one row per event), wide CSV (one row per participant x puzzle), JSON.

The columns are documented in ``docs/data.md``. Participants appear under their public id (never their
recruitment labels, which are stored only as keyed hashes); times are UTC ISO 8601 from the server's clock,
``client_ms`` is the browser's ``performance.now()`` at the action, to the whole millisecond; D to 3 decimals, as
the rating record gives it.

Every CSV the app writes goes through ``csv_text``: a text cell a spreadsheet would read as a formula (OWASP's "CSV
injection") gets a leading ``'`` (``safe_cell``), a cell holding a line break is quoted; numbers, the app's own ids
and the JSON stay exact.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_engine.grid import cell_name

from ..games.store import solve_seconds, time_is_up
from ..models import Event, Game, Participant, Study, utcnow
from ..study.rights import WITHDRAWN, withdrawals
from ..study.studies import is_abandoned
from . import answers

T = TypeVar("T")


@dataclass(frozen=True)
class Place:
    """Where a row stands: the study, the participant (their arrival and Latin-square row) and the puzzle in their
    order. A row's fields are its columns, in order; a field whose column has another name says so (``column``)."""

    study: str
    participant: str
    arrival: int
    latin_row: int | str  # "" outside a Latin square
    order_index: int
    puzzle_position: int

    def cells(self) -> tuple[Any, ...]:
        """The row's values in the order of its columns."""
        return tuple(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True)
class LongRow(Place):
    """One event of a participant's game."""

    game: str
    event: int
    server_time: str
    client_ms: int | str
    kind: str
    cell: str
    digit: int | str
    mode: str | None
    rung: int | str
    detail: str


@dataclass(frozen=True)
class WideRow(Place):
    """One participant x puzzle: times, pauses, hints, mistakes, undos, outcome."""

    puzzle: str
    d: float | str
    game: str
    first_shown: str
    completed_at: str
    time_on_task_s: float | str
    solve_seconds: float | str = field(metadata={"column": "active_s"})
    paused_s: float | str
    pauses: int
    hidden_pauses: int
    hints_rung1: int
    hints_rung2: int
    hints_rung3: int
    hints_rung4: int
    hints_applied: int
    mistakes: int
    undos: int
    redos: int
    entries: int
    completed: int
    timed_out: int
    abandoned: int
    gave_up: int
    withdrawn: int


def columns(row_type: type[Place]) -> tuple[str, ...]:
    """The CSV columns of a row type: its fields' names (or the column a field names), in order."""
    return tuple(f.metadata.get("column", f.name) for f in fields(row_type))


PLACE_COLUMNS = columns(Place)
LONG_COLUMNS = columns(LongRow)
WIDE_COLUMNS = columns(WideRow)


@dataclass(frozen=True)
class Played:
    """One participant's game on one study puzzle, with its events."""

    participant: Participant
    order_index: int
    position: int
    game: Game
    events: list[Event]


def played(session: Session, study: Study) -> list[Played]:
    """Every participant's games in the study, in order of arrival and then of play."""
    people = list(
        session.scalars(select(Participant).where(Participant.study_id == study.id).order_by(Participant.arrival))
    )
    positions = {p.id: p.position for p in study.puzzles}
    found = []
    for person in people:
        games = session.scalars(select(Game).where(Game.participant_id == person.id))
        by_position = {positions[g.study_puzzle_id]: g for g in games if g.study_puzzle_id in positions}
        for index, position in enumerate(person.order):
            game = by_position.get(position)
            if game is None:
                continue
            events = list(session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.id)))
            found.append(Played(person, index, position, game, events))
    return found


def _iso(moment: datetime | None) -> str:
    """A UTC time as ISO 8601, empty when missing."""
    return moment.isoformat() if moment is not None else ""


# A text a spreadsheet reads as a formula: a tab or carriage return first, or = + - @ first after any whitespace and
# quotes; a plain negative number (as the app stores a number answer) is only a number.
FORMULA = re.compile(r"[\t\r]|[\s'\"]*[=+\-@]")
NEGATIVE = re.compile(r"-[0-9]+(?:\.[0-9]+)?(?:e[+-][0-9]+)?")
# The columns holding the app's own ids (``secrets.token_urlsafe``), written exactly when they are such tokens.
ID_COLUMNS = frozenset({"study", "participant", "game"})
TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def safe_cell(value: object) -> object:
    """The value as a CSV cell: a formula-like text behind a leading ``'``, anything else unchanged."""
    if isinstance(value, str) and FORMULA.match(value) and not NEGATIVE.fullmatch(value):
        return "'" + value
    return value


def _id_cell(value: object) -> object:
    """An id column's cell: the app's token as it is, anything else made safe."""
    return value if isinstance(value, str) and TOKEN.fullmatch(value) else safe_cell(value)


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]], ids: Collection[str] = ID_COLUMNS) -> str:
    """CSV text with a header line, every cell made safe (those of the ``ids`` columns kept when they are tokens)."""
    places = [name in ids for name in columns]
    lines = [_line([safe_cell(name) for name in columns])]
    for row in rows:
        lines.append(_line([_id_cell(v) if is_id else safe_cell(v) for v, is_id in zip(row, places, strict=True)]))
    return "".join(lines)


def _line(cells: Sequence[object]) -> str:
    """One CSV line ending in a line feed, a cell holding a carriage return or a line feed quoted (a spreadsheet
    starts a new row at either)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(cells)  # the writer quotes the terminator's characters
    return out.getvalue().removesuffix("\r\n") + "\n"


def place_of(study: Study, item: Played) -> dict[str, Any]:
    """The place fields of a played game's rows."""
    person = item.participant
    return {
        "study": study.public_id,
        "participant": person.public_id,
        "arrival": person.arrival,
        "latin_row": _blank(person.latin_row),
        "order_index": item.order_index,
        "puzzle_position": item.position,
    }


def long_rows(study: Study, games: list[Played]) -> Iterator[LongRow]:
    """One row per event."""
    for item in games:
        place = place_of(study, item)
        for event in item.events:
            yield LongRow(
                **place,
                game=item.game.id,
                event=event.id,
                server_time=_iso(event.server_time),
                client_ms=_blank(_whole(event.client_ms)),
                kind=event.kind,
                cell=cell_name(event.cell) if event.cell is not None else "",
                digit=_blank(event.digit),
                mode=event.mode,
                rung=_blank(event.rung),
                detail=json.dumps(event.detail, separators=(",", ":")) if event.detail else "",
            )


def _blank(value: T | None) -> T | str:
    """The value, or an empty field for None."""
    return "" if value is None else value


def long_csv(session: Session, study: Study) -> str:
    """The long export."""
    return csv_text(LONG_COLUMNS, (row.cells() for row in long_rows(study, played(session, study))))


def wide_row(study: Study, item: Played, now: datetime) -> WideRow:
    """One participant x puzzle row: times, pauses, hints, mistakes, undos, outcome."""
    game, person = item.game, item.participant
    kinds = Counter(e.kind for e in item.events)
    rungs = Counter(e.rung for e in item.events if e.kind == "hint")
    pauses = [e for e in item.events if e.kind == "pause"]
    last = item.events[-1].server_time if item.events else game.first_shown_at
    end = game.completed_at or last
    on_task = (end - game.first_shown_at).total_seconds() if end and game.first_shown_at else None
    return WideRow(
        **place_of(study, item),
        puzzle=game.puzzle,
        d=_blank(_rating(game.d)),
        game=game.id,
        first_shown=_iso(game.first_shown_at),
        completed_at=_iso(game.completed_at),
        time_on_task_s=_round(on_task),
        solve_seconds=_round(solve_seconds(game, last)),
        paused_s=_round(game.paused_seconds),
        pauses=len(pauses),
        hidden_pauses=sum(1 for e in pauses if (e.detail or {}).get("reason") == "hidden"),
        hints_rung1=rungs[1],
        hints_rung2=rungs[2],
        hints_rung3=rungs[3],
        hints_rung4=rungs[4],
        hints_applied=kinds["apply"],
        mistakes=game.mistakes,
        undos=kinds["undo"],
        redos=kinds["redo"],
        entries=kinds["enter"],
        completed=int(game.completed_at is not None),
        timed_out=int(time_is_up(game, last)),
        abandoned=int(game.completed_at is None and game.gave_up_at is None and is_abandoned(person, study, now)),
        gave_up=int(game.gave_up_at is not None),
        withdrawn=int(person.state == WITHDRAWN),
    )


def _whole(value: float | None) -> int | None:
    """A browser time to the whole millisecond (its clock has sub-millisecond float noise)."""
    return None if value is None else round(value)


def _rating(value: float | None) -> float | None:
    """A rating to 3 decimals, as the rating record gives it."""
    return None if value is None else round(value, 3)


def _round(value: float | None) -> float | str:
    """Seconds to the millisecond, empty when missing."""
    return "" if value is None else round(value, 3)


def wide_csv(session: Session, study: Study) -> str:
    """The wide export, the questionnaire's columns (``answers``) after the game's."""
    now = utcnow()
    given = answers.answers_by_place(session, study)
    rows = (
        (*wide_row(study, item, now).cells(), *given.values(item.participant, item.order_index))
        for item in played(session, study)
    )
    return csv_text(WIDE_COLUMNS + answers.wide_columns(study), rows)


def answers_csv(session: Session, study: Study) -> str:
    """The answers export: one row per question shown to a participant."""
    return csv_text(answers.ANSWER_COLUMNS, answers.answer_rows(session, study))


def study_json(study: Study, session: Session) -> dict[str, Any]:
    """The study's settings, phase, caps, what was withdrawn, and every puzzle with its full rating record, then its
    consent clauses, questionnaire and every answer."""
    withdrawn = withdrawals(session, study)
    return {
        "study": study.public_id,
        "name": study.name,
        "description": study.description,
        "order_scheme": study.order_scheme,
        "settings": study.settings,
        "consent_text": study.consent_text,
        "instructions": study.instructions,
        "created_at": _iso(study.created_at),
        "phase": study.phase,
        "max_participants": study.max_participants,
        "max_per_row": study.max_per_row,
        "withdrawals": {
            "withdrawn_data_kept": withdrawn.kept,
            "deleted_on_withdrawal": withdrawn.deleted_on_withdrawal,
            "deleted_on_request": withdrawn.deleted_on_request,
        },
        "puzzles": [
            {"position": p.position, "puzzle": p.puzzle, "solution": p.solution, "D": _rating(p.d), "rating": p.rating}
            for p in study.puzzles
        ],
        **answers.questionnaire_json(study),
        "answers": answers.answers_json(session, study),
    }
