"""Background jobs in tests: a real consumer of a test app's queue, and waiting for what its jobs do.

A consumer runs in threads of the test process (``jobs.running_in_threads``) on the app's real queue (its SQLite
file, or the test Redis server): jobs are enqueued, stored and picked up as in production, not run in Huey's
immediate mode. Waits poll the database; their time limit only keeps a broken job from hanging the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from flask import Flask
from flask.testing import FlaskClient

from helpers.web import csrf_header_of
from sudoku_engine.generate import generate
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical
from webapp import db
from webapp.bank import pool
from webapp.models import Study

T = TypeVar("T")
PATIENCE_S = 240.0  # a stuck job fails the test after this long instead of hanging it


def wait_for(check: Callable[[], T | None], what: str) -> T:
    """Poll ``check`` until it returns something other than None; that value."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        found = check()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def study_state(app: Flask, study_id: int) -> Study:
    """The study as stored now."""
    with db.sessions_of(app)() as session:
        study = session.get(Study, study_id)
        assert study is not None, f"no study {study_id}"
        return study


def prepared(app: Flask, study_id: int) -> Study:
    """Wait until the study's preparation job has ended (ready or failed); the study then."""
    return wait_for(
        lambda: s if (s := study_state(app, study_id)).state != "preparing" else None,
        f"study {study_id} to be prepared",
    )


def computed_report(client: FlaskClient, study_id: int) -> str:
    """The report page of a study once the report of its current data is computed (the page polls its status
    until that answers 204 with HX-Refresh, as the browser's htmx does; the first poll queues the computation)."""
    first = client.get(f"/research/studies/{study_id}/report")
    assert first.status_code == 200

    def done() -> bool | None:
        status = client.post(f"/research/studies/{study_id}/report/status", headers=csrf_header_of(client))
        assert status.status_code in (200, 204), status.status_code
        return True if status.status_code == 204 and status.headers.get("HX-Refresh") == "true" else None

    wait_for(done, f"the report of study {study_id}")
    page = client.get(f"/research/studies/{study_id}/report")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def bank_record(target: float, seed: int) -> pool.BankRecord:
    """A bank row generated within 0.1 of the target (a fixed seed and a budget that always reaches a hit)."""
    made = generate(target, 0.1, seed=seed, budget_s=120.0)
    assert made.hit, f"no puzzle within 0.1 of D {target}"
    return pool.generated_record(made)


def canonical_form(puzzle: str) -> str:
    """The bank's form of a puzzle (the same for all its isomorphs)."""
    return format_values(canonical(parse_values(puzzle)))
