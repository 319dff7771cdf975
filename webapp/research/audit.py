"""The audit trail: every researcher action that reads or changes participants' data, recorded once with who,
when, what and from where, in the append-only ``audit_events`` table (its triggers refuse updates and deletions).

A change is recorded in the transaction that makes it (both or neither are kept); a read (an export, a replay, a
participant's page) in a transaction of its own, the one write a page makes (``webapp.db`` lets GETs insert into
this table only). A study's owners see its trail on a page and download it as CSV; administrators see everyone's,
time-model refits included (the pages are in ``manage``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from flask import current_app, request
from flask_login import current_user
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..db import sessions_of
from ..models import AuditEvent, Study
from . import exports

# The actions recorded, with what the trail's page calls them.
ACTIONS = {
    "export": "downloaded an export",
    "replay": "replayed a game",
    "participant-viewed": "opened a participant's page",
    "participant-deleted": "deleted a participant's data",
    "phase": "changed the study's phase",
    "member-added": "added or changed a collaborator",
    "member-removed": "took a collaborator off",
    "calibration-refit": "refitted the slider's calibration",
    "time-model-fit": "queued a fit of the time model",
    "time-model-used": "put a time model version in force",
}
COLUMNS = ("at", "email", "user_id", "study_id", "action", "what", "detail", "address")
SHOWN = 500  # the page shows the latest this many rows; the CSV has them all


def event(action: str, study: Study | None, detail: str) -> AuditEvent:
    """A row for the logged-in researcher's action on this request."""
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    return AuditEvent(
        user_id=current_user.id,
        email=current_user.email,
        study_id=study.id if study is not None else None,
        action=action,
        detail=detail,
        address=(request.remote_addr or "")[:64],
    )


def record_change(session: Session, action: str, study: Study | None, detail: str = "") -> None:
    """Add the row to the session of the change it records (the caller commits both)."""
    session.add(event(action, study, detail))


def record_read(action: str, study: Study | None, detail: str = "") -> None:
    """Record a read in a transaction of its own (committed now)."""
    with sessions_of(current_app)() as session:
        session.add(event(action, study, detail))
        session.commit()


def rows_of(session: Session, study_id: int | None, limit: int | None = None) -> list[AuditEvent]:
    """A study's rows (every row for None), the latest first, at most ``limit`` of them."""
    query = select(AuditEvent).order_by(AuditEvent.id.desc())
    if study_id is not None:
        query = query.where(AuditEvent.study_id == study_id)
    return list(session.scalars(query.limit(limit) if limit else query))


def count_of(session: Session, study_id: int | None) -> int:
    """How many rows a study has (every row for None)."""
    query = select(func.count()).select_from(AuditEvent)
    if study_id is not None:
        query = query.where(AuditEvent.study_id == study_id)
    return int(session.scalar(query) or 0)


def csv_text(rows: Iterable[AuditEvent]) -> str:
    """The trail as CSV text, oldest first (cells made safe as in every export)."""
    return exports.csv_text(COLUMNS, csv_rows(rows), ids=())


def csv_rows(rows: Iterable[AuditEvent]) -> Iterable[Sequence[Any]]:
    """The CSV's rows, oldest first."""
    for row in sorted(rows, key=lambda r: r.id):
        what = ACTIONS.get(row.action, row.action)
        yield (row.at.isoformat(), row.email, row.user_id, row.study_id, row.action, what, row.detail, row.address)
