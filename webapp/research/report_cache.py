"""The validation report, computed once per change of its data by a background job and served from the database.

A report takes seconds of CPU (the bootstrap intervals); a request never computes one. Its data is the study's
solved games: their count and latest completion make the report's key (``data_key``, one cheap query). A view
looks up the ``study_reports`` row of the current key: done, it is served as stored; missing, the view inserts it
as "computing" (a unique index lets only one of several viewers do so) and queues the job; computing, the page
says so and polls. The job builds the report (``report.build``), stores it as JSON and drops the study's older
reports. While a report is computed, views show the study's latest computed report, if any, with a note; one
computation per study runs at a time, so a study whose players keep finishing games still gets reports. A
computation whose job was lost (its consumer stopped) is queued again by the next view after STALE_AFTER. The
command line (``flask study report``) still builds the report directly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from flask import Flask
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import db, jobs
from ..models import Game, Participant, Study, StudyReport, utcnow
from . import report

JOB = "compute_report"
FORMAT = 1  # part of the key: a new layout of the stored figures makes reports be computed again
COMPUTING, DONE, FAILED = "computing", "done", "failed"
STALE_AFTER = timedelta(minutes=5)
log = logging.getLogger(__name__)


def data_key(session: Session, study: Study) -> str:
    """The state of the report's data: how many of the study's games are solved and when the latest was."""
    count, latest = session.execute(
        select(func.count(Game.id), func.max(Game.completed_at))
        .join(Participant, Game.participant_id == Participant.id)
        .where(Participant.study_id == study.id, Game.solve_seconds.is_not(None))
    ).one()
    return f"{FORMAT}:{count}:{'-' if latest is None else latest}"


@dataclass(frozen=True)
class View:
    """What a report view shows: the latest computed report (None: none yet), whether a newer one is being computed,
    and why the one for the current data could not be computed."""

    shown: StudyReport | None
    computing: bool
    problem: str | None = None


def peek(session: Session, study: Study) -> View:
    """The study's report for its current data if it is computed, else the latest computed one and ``computing``
    set; reads only (a page view), the page's poll (``lookup``) starts the computation."""
    return _view(_rows(session, study), data_key(session, study))


def _view(rows: list[StudyReport], key: str) -> View:
    """The view of the stored reports (newest first) for the data's current key."""
    latest = next((row for row in rows if row.state == DONE), None)
    exact = next((row for row in rows if row.key == key), None)
    if exact is not None and exact.state != COMPUTING:
        return View(exact if exact.state == DONE else latest, False, exact.problem)
    return View(latest, True)


def _rows(session: Session, study: Study) -> list[StudyReport]:
    """The study's stored reports, newest first."""
    return list(
        session.scalars(select(StudyReport).where(StudyReport.study_id == study.id).order_by(StudyReport.id.desc()))
    )


def lookup(app: Flask, session: Session, study: Study) -> View:
    """As ``peek``, and the current report queued unless a computation of the study is under way already (one at a
    time per study; one that shows no sign of life is queued again)."""
    key = data_key(session, study)
    rows = _rows(session, study)
    view = _view(rows, key)
    if not view.computing:
        return view
    latest = view.shown
    running = next((row for row in rows if row.state == COMPUTING), None)
    if running is not None:
        if utcnow() - running.started_at >= STALE_AFTER:
            restart(app, session, running)
        return View(latest, True)
    start(app, session, study, key)
    return View(latest, True)


def start(app: Flask, session: Session, study: Study, key: str) -> None:
    """Store the report of this key as computing and queue its job (unless another view just did)."""
    row = StudyReport(study_id=study.id, key=key, state=COMPUTING, started_at=utcnow())
    session.add(row)
    try:
        session.commit()
    except IntegrityError:  # another view inserted it first and queued the job
        session.rollback()
        return
    jobs.enqueue(app, JOB, row.id)


def restart(app: Flask, session: Session, row: StudyReport) -> None:
    """Queue a computation again whose job shows no sign of life; only one of several viewers does it."""
    restarted = update(StudyReport).where(StudyReport.id == row.id, StudyReport.started_at == row.started_at)
    if db.changed_rows(session, restarted.values(started_at=utcnow())) == 1:
        session.commit()
        log.warning(
            "the report %s of study %s was still computing after %s: queued again", row.id, row.study_id, STALE_AFTER
        )
        jobs.enqueue(app, JOB, row.id)
    else:
        session.rollback()


def served(row: StudyReport, study: Study) -> report.Report:
    """The stored report of a done row."""
    assert row.body is not None, "a done report has its figures"
    return report.from_json(row.body, study)


def compute(app: Flask, report_id: int) -> None:
    """The job: build the report of the row's study, store it, and drop the study's older reports."""
    sessions = db.sessions_of(app)
    with sessions() as session:
        row = session.get(StudyReport, report_id)
        study = session.get(Study, row.study_id) if row is not None else None
        if row is None or study is None or row.state != COMPUTING:
            return
        try:
            body, state, problem = report.as_json(report.build(session, study)), DONE, None
        except Exception:
            log.exception("computing the report %s of study %s failed", report_id, study.id)
            body, state, problem = None, FAILED, "The report could not be computed because of an error on the server."
        session.rollback()  # the build only read: end its transaction before writing
        stored = update(StudyReport).where(StudyReport.id == report_id, StudyReport.state == COMPUTING)
        session.execute(stored.values(state=state, body=body, problem=problem, finished_at=utcnow()))
        if state == DONE:
            session.execute(
                delete(StudyReport).where(
                    StudyReport.study_id == study.id, StudyReport.id < report_id, StudyReport.state != COMPUTING
                )
            )
        session.commit()
