"""Preparing a study in a background job (``webapp.jobs``): rate its puzzles, claim its bank rows, make it ready.

The request that creates a study only checks the form and the puzzles' text and stores the study as "preparing"
with what the job needs (``studies.Pending``). The job then:

1. picks a puzzle for every target as New puzzle does (``pool.choose``: the nearest unused bank row within the
   tolerance, else a row served again, else one generated on demand) and rates every puzzle, reading the database
   only in short read transactions and writing only its progress (one short UPDATE per puzzle), so no write lock
   is held while it rates and players' requests go on;
2. in one short transaction claims every unused bank row it picked (``UPDATE ... WHERE id = ? AND NOT used``, in id
   order), stores the puzzles and makes the study ready (``UPDATE ... WHERE state = 'preparing'``). When a claim
   changes no row, another request took that row first: the transaction is rolled back, which undoes only this
   job's own claims of that transaction, and the lost targets get other puzzles. Either every claim of the study
   commits with it, or none does; another request's claim is never taken or released.

A study that cannot be prepared (no puzzle for a target, a puzzle that cannot be played) ends "failed" with the
reason, shown on its page; it holds no bank row. A job that finds its study no longer preparing does nothing.

A job lost with its consumer (killed, or stopped mid-job) is queued again: at once when the consumer that was
preparing it (``Study.prepared_by``) is no longer alive (``webapp.jobs``' heartbeat), else once the study has shown
no progress for STALE_AFTER. The study's page looks each second it is open; every consumer looks when it starts
and on its schedule (``recover``), so a study nobody watches is prepared once a consumer is back.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from flask import Flask
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from sudoku_engine.generate import generate, warm_up

from .. import db, jobs
from ..bank import pool
from ..models import BankPuzzle, Study, StudyPuzzle, utcnow
from .studies import FAILED, PREPARING, READY, Pending, PuzzleEntry, StudyError, Target, checked_puzzle, rated

JOB = "prepare_study"
RECOVER = "recover_studies"
CLAIM_ROUNDS = 5  # rounds of picking and claiming before a study whose rows keep being taken fails
UNUSED, AGAIN, NEW = "unused", "again", "new"  # where a pick came from (``Pick.claim``)
STALE_AFTER = timedelta(minutes=2)  # a preparing study without progress this long has lost its job: queue it again
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Pick:
    """A puzzle picked for one place of the study: the served isomorph, where it came from, and its rating."""

    served: pool.Served
    claim: str  # UNUSED: an unused bank row to claim; AGAIN: a row served again; NEW: generated here
    entry: PuzzleEntry | None = None


def enqueue(app: Flask, study: Study) -> bool:
    """Queue the study's preparation; False when the queue could not be reached (``requeue_if_stale`` retries)."""
    return jobs.enqueue(app, JOB, study.id)


def is_lost(study: Study, live: set[str]) -> bool:
    """Whether a preparing study's job is lost: its consumer is gone, or it showed no progress for STALE_AFTER."""
    if study.state != PREPARING:
        return False
    if study.prepared_by is not None and study.prepared_by not in live:
        return True
    beat = study.heartbeat_at
    return beat is None or utcnow() - beat >= STALE_AFTER


def requeue_if_stale(app: Flask, session: Session, study: Study) -> bool:
    """Queue a preparing study again when its job is lost (``is_lost``); True when queued. Only one of several
    viewers and consumers does it (a conditional UPDATE of what they read)."""
    if not is_lost(study, jobs.live_consumer_ids(session)):
        return False
    beat, by = study.heartbeat_at, study.prepared_by
    same_beat = Study.heartbeat_at.is_(None) if beat is None else Study.heartbeat_at == beat
    same_by = Study.prepared_by.is_(None) if by is None else Study.prepared_by == by
    bumped = db.changed_rows(
        session,
        update(Study).where(Study.id == study.id, same_beat, same_by).values(heartbeat_at=utcnow(), prepared_by=None),
    )
    session.commit()
    if bumped != 1:
        return False
    gone = f"its consumer {by} is gone" if by is not None else f"no sign of its job since {beat}"
    log.warning("study %s: %s; its preparation is queued again", study.id, gone)
    return enqueue(app, study)


def recover(app: Flask, _item: int) -> None:
    """The job a consumer runs when it starts and on its schedule: queue again every preparation that was lost."""
    with db.sessions_of(app)() as session:
        for study in session.scalars(select(Study).where(Study.state == PREPARING)).all():
            requeue_if_stale(app, session, study)


def prepare(app: Flask, study_id: int) -> None:
    """The job: prepare the study, or end it failed with the reason."""
    sessions = db.sessions_of(app)
    with sessions() as session:
        study = session.get(Study, study_id)
        if study is None or study.state != PREPARING or study.pending is None:
            return
        work = Pending.from_json(study.pending)
    beat(sessions, study_id, 0)
    warm_up()  # a first use compiles the kernels: not inside any puzzle's rating time limit
    try:
        if work.puzzles:
            prepare_uploaded(sessions, study_id, work.puzzles)
        else:
            prepare_targets(app, sessions, study_id, work.targets)
    except StudyError as error:
        fail(sessions, study_id, str(error))
    except Exception:
        log.exception("preparing study %s failed", study_id)
        fail(
            sessions,
            study_id,
            "The puzzles could not be prepared because of an error on the server. Please create the study again.",
        )
        raise


def prepare_uploaded(sessions: sessionmaker[Session], study_id: int, puzzles: Sequence[tuple[str, str]]) -> None:
    """Check and rate pasted or uploaded puzzles one by one, then make the study ready."""
    entries = []
    for line, (puzzle, _solution) in enumerate(puzzles, 1):
        entries.append(rated(*checked_puzzle(puzzle, line)))
        beat(sessions, study_id, len(entries))
    finish(sessions, study_id, entries)


def prepare_targets(app: Flask, sessions: sessionmaker[Session], study_id: int, targets: Sequence[Target]) -> None:
    """Pick and rate a puzzle per target, then claim all their bank rows at once (other picks for rows lost)."""
    picks: dict[int, Pick] = {}
    passed: set[int] = set()  # bank rows picked already or taken by others
    for _round in range(CLAIM_ROUNDS):
        for index, target in enumerate(targets):
            if index in picks:
                continue
            pick = pick_for(app, sessions, target, passed | chosen_rows(picks))
            if pick is None:
                raise StudyError(
                    f"No puzzle could be found for the {target.asked} (D {target.d:.2f}): the bank has "
                    "none left near it and none could be generated. Try again later or another value."
                )
            picks[index] = replace(pick, entry=rated(pick.served.puzzle, pick.served.solution))
            beat(sessions, study_id, len(picks))
        in_order = [picks[i] for i in range(len(targets))]
        lost = finish(
            sessions,
            study_id,
            [p.entry for p in in_order if p.entry is not None],
            claims=rows_of(in_order, UNUSED),
            again=rows_of(in_order, AGAIN),
        )
        if not lost:
            return
        passed.update(lost)
        picks = {i: p for i, p in picks.items() if p.served.bank_id not in lost}
    raise StudyError(
        "Other studies or players kept taking the bank puzzles picked for this study. Please create it again."
    )


def rows_of(picks: Sequence[Pick], claim: str) -> list[int]:
    """The bank rows of the picks of one kind, in id order."""
    return sorted(p.served.bank_id for p in picks if p.claim == claim and p.served.bank_id is not None)


def chosen_rows(picks: dict[int, Pick]) -> set[int]:
    """The bank rows of the picks so far."""
    return {p.served.bank_id for p in picks.values() if p.served.bank_id is not None}


def pick_for(app: Flask, sessions: sessionmaker[Session], target: Target, passed: set[int]) -> Pick | None:
    """A puzzle for a target, chosen as New puzzle chooses (``pool.choose``, no row in ``passed``), else generated."""
    tolerance = float(app.config["POOL_TOLERANCE"])
    with sessions() as session:
        choice = pool.choose(session, target.d, tolerance, passed=passed)
        if choice is not None:
            return Pick(pool.as_isomorph(choice.row, pool.new_seed()), UNUSED if choice.fresh else AGAIN)
    return generated_for(app, sessions, target.d, passed)


def generated_for(app: Flask, sessions: sessionmaker[Session], target: float, passed: set[int]) -> Pick:
    """A puzzle generated for the target within the app's budget, banked as served (a new row: nothing to claim);
    on a miss, an unused row at least as close instead (as New puzzle does), the miss banked unused."""
    made = generate(target, float(app.config["POOL_TOLERANCE"]), budget_s=float(app.config["POOL_GENERATE_BUDGET_S"]))
    record = pool.generated_record(made)
    with sessions() as session:
        closer = [] if made.hit else pool.fresh_rows(session, target, pool.miss_within(record, target), passed=passed)
        pool.add(session, [record], used=not closer)
        if closer:
            row = session.get(BankPuzzle, closer[0].id)
            assert row is not None  # just read; rows are never deleted
            return Pick(pool.as_isomorph(row, pool.new_seed()), UNUSED)
    return Pick(pool.as_made(made, record), NEW)


def beat(sessions: sessionmaker[Session], study_id: int, prepared: int) -> None:
    """Record the job's progress (puzzles rated) and that it is alive, in a transaction of its own."""
    with sessions() as session:
        session.execute(
            update(Study)
            .where(Study.id == study_id, Study.state == PREPARING)
            .values(prepared=prepared, heartbeat_at=utcnow(), prepared_by=jobs.consumer_id())
        )
        session.commit()


def finish(
    sessions: sessionmaker[Session],
    study_id: int,
    entries: Sequence[PuzzleEntry],
    claims: Sequence[int] = (),
    again: Sequence[int] = (),
) -> set[int]:
    """In one short transaction: claim the unused bank rows ``claims``, mark the rows ``again`` served, store
    the rated puzzles in order and make the study ready.

    Returns the rows of ``claims`` another request had claimed first (nothing of this call is then kept), else an
    empty set: the study is ready, or it was no longer preparing (then nothing is kept either).
    """
    with sessions() as session:
        lost = claim_all(session, claims)
        if lost:
            session.rollback()
            return lost
        pool.renew(session, again)
        ready = (
            update(Study)
            .where(Study.id == study_id, Study.state == PREPARING)
            .values(state=READY, prepared=len(entries), pending=None, heartbeat_at=utcnow())
        )
        if db.changed_rows(session, ready) != 1:
            session.rollback()
            return set()
        session.add_all(
            StudyPuzzle(
                study_id=study_id, position=position, puzzle=e.puzzle, solution=e.solution, d=e.d, rating=e.rating
            )
            for position, e in enumerate(entries)
        )
        session.commit()
    return set()


def claim_all(session: Session, bank_ids: Sequence[int]) -> set[int]:
    """Claim every row (in the order given: id order, so two claimers never wait on each other in a cycle); the
    rows that another request had claimed already."""
    return {bank_id for bank_id in bank_ids if not pool.claim(session, bank_id)}


def fail(sessions: sessionmaker[Session], study_id: int, problem: str) -> None:
    """End a preparing study as failed with the reason (it holds no bank row: none was claimed)."""
    with sessions() as session:
        session.execute(
            update(Study)
            .where(Study.id == study_id, Study.state == PREPARING)
            .values(state=FAILED, problem=problem, pending=None, heartbeat_at=utcnow())
        )
        session.commit()
