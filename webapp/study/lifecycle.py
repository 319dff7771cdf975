"""A study's lifecycle: draft -> open -> paused -> closed -> archived; editing a draft, duplicating, previewing.

- draft: the study's name, texts, questionnaire, order, settings, caps and puzzles may be changed (new puzzles are
  prepared again by the ``preparing`` job); participants cannot enter. A study made from the researcher's form
  starts here once its puzzles are prepared.
- open: participants may enter.
- paused: the entry link says the study is paused and takes no one new; participants already in may finish.
- closed: no one enters or goes on (every participant page says the study is closed); a participant may still
  withdraw and have their data deleted.
- archived: read-only and hidden from the researcher's list of studies by default; the data stay for export, and
  deletion of a participant's data on request still works.

A paused study opens again; no other move goes back. A duplicate is a new draft with the same texts (the consent
with its clauses), questionnaire, order, settings, caps and rated puzzles, and no participants. A preview is a
throw-away copy of the study (phase "preview", ``preview_of`` naming the study) that its owner takes as a
participant would, questions included: its participants, games and answers belong to the copy, so nothing is stored
in the study's own data; an owner's next preview deletes the older copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Participant, Study, StudyPuzzle, utcnow
from .rights import erase
from .studies import (
    ARCHIVED,
    CLOSED,
    DRAFT,
    OPEN,
    ORDER_SCHEMES,
    PAUSED,
    PREPARING,
    PREVIEW,
    READY,
    Pending,
    StudyError,
    check_count,
    settings_of,
)

MOVES: dict[str, tuple[str, ...]] = {
    DRAFT: (OPEN,),
    OPEN: (PAUSED, CLOSED),
    PAUSED: (OPEN, CLOSED),
    CLOSED: (ARCHIVED,),
    ARCHIVED: (),
}
MOVE_NAMES = {OPEN: "Open", PAUSED: "Pause", CLOSED: "Close", ARCHIVED: "Archive"}
MAX_CAP = 100_000


def moves_of(study: Study) -> tuple[str, ...]:
    """The phases the study may move to now (none before its puzzles are prepared)."""
    return MOVES.get(study.phase, ()) if study.state == READY else ()


def move(session: Session, study: Study, to: str) -> None:
    """Move the study to another phase, or StudyError saying why it cannot."""
    if study.state != READY:
        raise StudyError("A study changes phase once its puzzles are prepared.")
    if to not in MOVES.get(study.phase, ()):
        allowed = ", ".join(MOVES.get(study.phase, ())) or "nothing"
        raise StudyError(f"A {study.phase} study cannot become {to!r}; it can become: {allowed}.")
    if to == OPEN and not study.puzzles:
        raise StudyError("A study without puzzles cannot open.")
    study.phase = to
    if to == CLOSED:
        study.closed_at = utcnow()
    elif to == OPEN:
        study.closed_at = None
    session.commit()


def checked_caps(total: int | None, per_row: int | None) -> tuple[int | None, int | None]:
    """Caps on participants (None: no cap), each 1 to MAX_CAP."""
    for cap in (total, per_row):
        if cap is not None and not 1 <= cap <= MAX_CAP:
            raise StudyError(f"A cap on participants must be 1 to {MAX_CAP}; {cap} given.")
    return total, per_row


def edit(
    session: Session, study: Study, fields: Mapping[str, Any], work: Pending | None, caps: tuple[int | None, int | None]
) -> None:
    """Change a draft: ``fields`` name, description, consent_text, instructions, order_scheme, settings and, when
    given, questionnaire (what ``questions.parse`` made of the form; kept when absent); new puzzles (``work``) replace
    the old ones and are prepared again by the job (the caller queues it)."""
    if study.phase != DRAFT:
        raise StudyError(f"Only a draft can be changed; this study is {study.phase}. Duplicate it to change a copy.")
    if study.state == PREPARING:
        raise StudyError("The study's puzzles are being prepared: change it once they are ready.")
    name = str(fields.get("name") or "").strip()
    if not name:
        raise StudyError("A study needs a name.")
    scheme = str(fields.get("order_scheme") or "fixed")
    if scheme not in ORDER_SCHEMES:
        raise StudyError(f"{scheme!r} is not an order scheme: use fixed, random or latin.")
    if work is not None:
        check_count(work.count)
    study.name, study.order_scheme = name, scheme
    study.description = str(fields.get("description") or "")
    study.consent_text = str(fields.get("consent_text") or "")
    study.instructions = str(fields.get("instructions") or "")
    study.settings = settings_of(fields.get("settings") or {})
    if "questionnaire" in fields:
        study.questionnaire = fields["questionnaire"]
    study.max_participants, study.max_per_row = checked_caps(*caps)
    if work is not None:
        study.puzzles = []
        session.flush()  # the old puzzles' places are free before the job stores the new ones
        study.state, study.pending, study.prepared, study.problem = PREPARING, work.as_json(), 0, None
        study.heartbeat_at = utcnow()
    session.commit()


def duplicate(session: Session, study: Study, owner_id: int, phase: str = DRAFT) -> Study:
    """A new study (a draft, or a preview copy) with the study's texts, questionnaire, order, settings, caps and
    rated puzzles, and no participants."""
    if study.state != READY:
        raise StudyError("Only a study whose puzzles are prepared can be copied.")
    copy = Study(
        owner_id=owner_id,
        name=study.name if phase == PREVIEW else f"Copy of {study.name}"[:200],
        description=study.description,
        consent_text=study.consent_text,
        instructions=study.instructions,
        order_scheme=study.order_scheme,
        settings=dict(study.settings),
        questionnaire=deepcopy(study.questionnaire),
        phase=phase,
        preview_of=study.id if phase == PREVIEW else None,
        max_participants=study.max_participants,
        max_per_row=study.max_per_row,
    )
    copy.puzzles = [
        StudyPuzzle(position=p.position, puzzle=p.puzzle, solution=p.solution, d=p.d, rating=p.rating)
        for p in study.puzzles
    ]
    session.add(copy)
    session.commit()
    return copy


def preview(session: Session, study: Study, owner_id: int) -> Study:
    """A fresh preview copy of the study for its owner; their older copies of it are deleted first."""
    if study.preview_of is not None:
        raise StudyError("This is a preview already.")
    drop_previews(session, study, owner_id)
    return duplicate(session, study, owner_id, PREVIEW)


def drop_previews(session: Session, study: Study, owner_id: int) -> None:
    """Delete the owner's preview copies of the study with everything played in them."""
    copies = session.scalars(select(Study).where(Study.preview_of == study.id, Study.owner_id == owner_id))
    for copy in copies:
        for participant in session.scalars(select(Participant).where(Participant.study_id == copy.id)):
            erase(session, participant)
        session.delete(copy)
    session.commit()


def is_listed(study: Study, archived: bool) -> bool:
    """Whether the researcher's list shows the study: never a preview copy, archived ones only when asked."""
    return study.phase != PREVIEW and (archived or study.phase != ARCHIVED)
