"""Who may play what in a study: the participants this browser has entered (kept in the signed session cookie),
whether a game is theirs to play, and where a study game sits in its participant's order. The study and play
blueprints both read them."""

from __future__ import annotations

from dataclasses import dataclass

from flask import session

from ..db import get_session
from ..models import Game, Participant, Study

COOKIE_KEY = "participants"  # study public id -> participant public id, in the signed session cookie


def remembered(study: Study) -> str | None:
    """The participant id this browser holds for the study."""
    known: dict[str, str] = session.get(COOKIE_KEY) or {}
    return known.get(study.public_id)


def forget(study: Study) -> None:
    """Drop the study's participant id from the session cookie (their data were deleted)."""
    known = dict(session.get(COOKIE_KEY) or {})
    known.pop(study.public_id, None)
    session[COOKIE_KEY] = known


def remember(study: Study, participant: Participant) -> None:
    """Keep the participant's id for the study in the session cookie."""
    known = dict(session.get(COOKIE_KEY) or {})
    known[study.public_id] = participant.public_id
    session[COOKIE_KEY] = known
    session.permanent = True


def may_play(game: Game) -> bool:
    """True when the game is not a study game, or belongs to the participant of this browser."""
    if game.participant_id is None:
        return True
    participant = get_session().get(Participant, game.participant_id)
    known: dict[str, str] = session.get(COOKIE_KEY) or {}
    return participant is not None and participant.public_id in known.values()


@dataclass(frozen=True)
class StudyPlace:
    """Where a study game sits: its study, and the participant's place in their order."""

    study: Study
    number: int
    total: int

    @property
    def shows_rating(self) -> bool:
        """Whether the participant may see the puzzle's rating (D, zone, minutes, techniques) once it is solved: only
        when the researcher switched it on, and never when the study asks how difficult the puzzle felt (the end of
        the study shows them then, after every answer)."""
        return bool(self.study.settings.get("show_rating")) and not asks_difficulty(self.study)


def asks_difficulty(study: Study) -> bool:
    """True when the study asks the built-in perceived-difficulty question after each puzzle."""
    return "difficulty" in ((study.questionnaire or {}).get("per_puzzle") or [])


def study_context(game: Game) -> StudyPlace | None:
    """The study place of a study game (None for a free game)."""
    if game.participant_id is None:
        return None
    participant = get_session().get(Participant, game.participant_id)
    study = get_session().get(Study, participant.study_id) if participant is not None else None
    if participant is None or study is None:
        return None
    return StudyPlace(study=study, number=participant.current + 1, total=len(participant.order))


ENDED_PHASES = ("closed", "archived")  # a study in these phases lets no participant go on (webapp.study.lifecycle)


def study_ended(game: Game) -> str | None:
    """Why a study game can no longer be played (its study is closed, or its participant withdrew), or None."""
    if game.participant_id is None:
        return None
    place = study_context(game)
    if place is None:
        return None
    if place.study.phase in ENDED_PHASES:
        return "This study is closed: its puzzles can no longer be played. Thank you for taking part."
    participant = get_session().get(Participant, game.participant_id)
    if participant is not None and participant.state == "withdrawn":
        return "You have withdrawn from this study: its puzzles can no longer be played."
    return None
