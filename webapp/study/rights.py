"""A participant's rights in a study: give up on a puzzle, withdraw at any point keeping or deleting what was
recorded about them, and a researcher's deletion of one participant's data by their label.

A puzzle given up is recorded as a ``give_up`` event and the game's ``gave_up_at`` (the game takes no more changes),
and the participant goes on as after a solved puzzle (to its questions first, when the study asks any). A
withdrawal that keeps the data marks the participant "withdrawn" (their square row is given back). A deletion
removes at once the participant's games, their events, their answers to the questionnaire and the participant's
row, and the study's stored reports (which name participants and their times; the next view computes them again);
all that is kept is the study's count of deletions (on withdrawal, or on request), never a label, an id or a time.
A label typed by a researcher is hashed with the app's secret key, as labels are stored, to find its participant.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from ..games.store import log_event, time_is_up
from ..models import Answer, Event, Game, Participant, Study, StudyReport, utcnow
from .studies import StudyError, advance, existing_game, label_hash, study_puzzle

WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class Withdrawals:
    """What was withdrawn from a study: participants who withdrew keeping their data, and how many participants'
    data were deleted on their withdrawal or at a researcher's request."""

    kept: int
    deleted_on_withdrawal: int
    deleted_on_request: int

    @property
    def deleted(self) -> int:
        """Participants whose data were deleted, for either reason."""
        return self.deleted_on_withdrawal + self.deleted_on_request


def withdrawals(session: Session, study: Study) -> Withdrawals:
    """The study's withdrawal counts."""
    kept = session.scalar(
        select(func.count(Participant.id)).where(Participant.study_id == study.id, Participant.state == WITHDRAWN)
    )
    return Withdrawals(int(kept or 0), study.deleted_on_withdrawal, study.deleted_on_request)


def give_up(session: Session, study: Study, participant: Participant, client_ms: float | None = None) -> None:
    """Give up on the current puzzle: record it (an event and the game's state) and go on to the next one."""
    puzzle = study_puzzle(study, participant) if participant.state == "playing" else None
    game = existing_game(session, participant, puzzle) if puzzle is not None else None
    if game is None:
        raise StudyError("There is no puzzle open to give up on.")
    if game.completed_at is not None:
        raise StudyError("This puzzle is solved already: go on to the next one.")
    if time_is_up(game):
        raise StudyError("The time for this puzzle is up already: go on to the next one.")
    if game.gave_up_at is None:
        now = utcnow()
        game.gave_up_at = now
        log_event(session, game, now, "give_up", client_ms, None)
        session.commit()
    advance(session, study, participant)


def withdraw(session: Session, study: Study, participant: Participant, delete_data: bool) -> None:
    """Withdraw a participant: their data deleted at once, or kept and the participant marked withdrawn."""
    if delete_data:
        erase(session, participant)
        counted = update(Study).where(Study.id == study.id)
        session.execute(counted.values(deleted_on_withdrawal=Study.deleted_on_withdrawal + 1))
    else:
        now = utcnow()
        participant.state, participant.withdrawn_at, participant.last_seen_at = WITHDRAWN, now, now
    session.commit()
    session.expire(study)


def delete_by_label(session: Session, study: Study, secret: str, label: str) -> int:
    """Delete the data of the participants of the study who arrived with this label (any recruitment label, hashed
    as stored); how many there were. StudyError when none did."""
    typed = label.strip()[:200]  # as the entry link keeps a label
    if not typed:
        raise StudyError("Type the participant's label.")
    hashed = label_hash(secret, typed)
    people = session.scalars(select(Participant).where(Participant.study_id == study.id))
    found = [p for p in people if p.label_hash == hashed or hashed in (p.labels or {}).values()]
    if not found:
        raise StudyError("No participant of this study arrived with this label.")
    for participant in found:
        erase(session, participant)
    session.execute(
        update(Study).where(Study.id == study.id).values(deleted_on_request=Study.deleted_on_request + len(found))
    )
    session.commit()
    session.expire(study)
    return len(found)


def erase(session: Session, participant: Participant) -> None:
    """Delete a participant's games, their events, their answers and the participant's row, and the study's stored
    reports (in the caller's transaction)."""
    games = select(Game.id).where(Game.participant_id == participant.id).scalar_subquery()
    session.execute(delete(Event).where(Event.game_id.in_(games)), execution_options={"synchronize_session": False})
    session.execute(
        delete(Game).where(Game.participant_id == participant.id), execution_options={"synchronize_session": False}
    )
    session.execute(delete(Answer).where(Answer.participant_id == participant.id))
    session.execute(delete(StudyReport).where(StudyReport.study_id == participant.study_id))
    session.delete(participant)
    session.flush()
