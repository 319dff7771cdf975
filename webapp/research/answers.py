"""A study's questionnaire answers for analysis: the answers CSV (one row per question shown), the questionnaire's
columns of the wide CSV, and their part of the JSON (``docs/data.md``).

Every question shown to a participant has a row, its value empty when an optional question was left blank; the
wide CSV has one column per question, ``q_<key>``: the per-puzzle items on each participant x puzzle row, the
answers before and after the puzzles repeated on each of the participant's rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Game, Participant, Study
from ..study import consent, questions

ANSWER_COLUMNS = (
    "study",
    "participant",
    "arrival",
    "latin_row",
    "block",
    "order_index",
    "puzzle_position",
    "game",
    "question",
    "kind",
    "value",
    "attention_check",
    "passed",
    "answered_at",
)
ATTENTION_FAILED = "attention_failed"


def column(question: questions.Question) -> str:
    """A question's column in the wide CSV."""
    return f"q_{question.key}"


def wide_columns(study: Study) -> tuple[str, ...]:
    """The wide CSV's questionnaire columns, after its own: one per question, then the failed attention checks."""
    asked = questions.questions_of(study)
    checks = (ATTENTION_FAILED,) if any(q.expect is not None for q in asked) else ()
    return tuple(column(q) for q in asked) + checks


@dataclass(frozen=True)
class Answers:
    """A study's answers, by participant and page, for the wide CSV."""

    asked: list[questions.Question]
    by_place: dict[tuple[int, str, int], dict[str, str | None]]
    failed: dict[int, int]

    def values(self, person: Participant, order_index: int) -> list[Any]:
        """The questionnaire columns of one participant x puzzle row (empty where nothing was answered)."""
        row: list[Any] = []
        for question in self.asked:
            place = (person.id, question.block, order_index if question.block == "puzzle" else 0)
            row.append(_blank(self.by_place.get(place, {}).get(question.key)))
        if any(q.expect is not None for q in self.asked):
            row.append(self.failed.get(person.id, 0))
        return row


def answers_by_place(session: Session, study: Study) -> Answers:
    """Every answer of the study's participants, keyed by participant, block and order index."""
    ids = list(session.scalars(select(Participant.id).where(Participant.study_id == study.id)))
    by_place: dict[tuple[int, str, int], dict[str, str | None]] = {}
    failed: dict[int, int] = {}
    for answer in questions.answers_of(session, ids):
        by_place.setdefault((answer.participant_id, answer.block, answer.order_index), {})[answer.question] = (
            answer.value
        )
        if answer.passed is False:
            failed[answer.participant_id] = failed.get(answer.participant_id, 0) + 1
    return Answers(questions.questions_of(study), by_place, failed)


def _blank(value: object) -> object:
    """The value, or an empty field for None."""
    return "" if value is None else value


def _iso(moment: datetime | None) -> str:
    """A UTC time as ISO 8601, empty when missing."""
    return moment.isoformat() if moment is not None else ""


def answer_rows(session: Session, study: Study) -> Iterator[list[Any]]:
    """One row per question shown, in order of arrival, then as answered."""
    people = list(
        session.scalars(select(Participant).where(Participant.study_id == study.id).order_by(Participant.arrival))
    )
    kinds = {q.key: q for q in questions.questions_of(study)}
    games = _games(session, study, [p.id for p in people])
    for person in people:
        for answer in questions.answers_of(session, [person.id]):
            question = kinds.get(answer.question)
            puzzle = answer.block == "puzzle" and answer.order_index < len(person.order)
            position = person.order[answer.order_index] if puzzle else None
            game = games.get((person.id, position)) if position is not None else None
            yield [
                study.public_id,
                person.public_id,
                person.arrival,
                _blank(person.latin_row),
                answer.block,
                answer.order_index if puzzle else "",
                _blank(position),
                game.id if game is not None else "",
                answer.question,
                question.kind if question is not None else "",
                _blank(answer.value),
                int(question is not None and question.expect is not None),
                "" if answer.passed is None else int(answer.passed),
                _iso(answer.answered_at),
            ]


def _games(session: Session, study: Study, ids: Sequence[int]) -> dict[tuple[int, int], Game]:
    """The participants' games by participant and puzzle position."""
    positions = {p.id: p.position for p in study.puzzles}
    games = session.scalars(select(Game).where(Game.participant_id.in_(ids))) if ids else ()
    return {
        (game.participant_id, positions[game.study_puzzle_id]): game
        for game in games
        if game.participant_id is not None and game.study_puzzle_id in positions
    }


def questionnaire_json(study: Study) -> dict[str, Any]:
    """The JSON's description of the consent clauses and the questionnaire (every question as asked)."""
    data = study.questionnaire or {}
    return {
        "consent_clauses": consent.clauses(study.consent_text),
        "questionnaire": {
            "per_puzzle": list(data.get("per_puzzle") or ()),
            "questions": [q.as_json() for q in questions.questions_of(study)],
            "source": data.get("source", ""),
        },
    }


def answers_json(session: Session, study: Study) -> list[dict[str, Any]]:
    """Every answer as an object with the answers CSV's fields."""
    return [dict(zip(ANSWER_COLUMNS, row, strict=True)) for row in answer_rows(session, study)]
