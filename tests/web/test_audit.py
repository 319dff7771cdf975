"""The audit trail of a whole study: every researcher action that reads or changes participants' data is recorded
once, with who, when, what and from where; owners see it and download it; nobody can change or delete a row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.rights import Person
from helpers.studies import EMAIL, create, form_token
from helpers.team import OTHER, PASSWORD, account, logged_in
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from webapp import db, jobs
from webapp.models import AuditEvent, Participant

ADDRESS = "198.51.100.23"
EXPORTS = ("long.csv", "wide.csv", "answers.csv", "study.json", "codebook.csv")


@pytest.fixture(autouse=True)
def consumer(app: Flask) -> Iterator[None]:
    """A real consumer of the app's job queue: the study is prepared by it."""
    with jobs.running_in_threads(app):
        yield


def trail(app: Flask) -> list[AuditEvent]:
    """Every audit row, oldest first."""
    with db.sessions_of(app)() as session:
        return list(session.scalars(select(AuditEvent).order_by(AuditEvent.id)))


def post(client: FlaskClient, path: str, **fields: str) -> int:
    """A form post from the study's researcher address with a CSRF token; the status."""
    token = form_token(client, "/research/account")
    return client.post(path, data={**fields, "csrf_token": token}, environ_base={"REMOTE_ADDR": ADDRESS}).status_code


def get(client: FlaskClient, path: str) -> int:
    """A page from the researcher's address; the status."""
    return client.get(path, environ_base={"REMOTE_ADDR": ADDRESS}).status_code


def test_every_action_on_a_studys_data_is_recorded_once_and_owners_see_the_trail(
    app: Flask,
    puzzles: list[tuple[str, str]],
) -> None:
    account(app, EMAIL)
    owner = logged_in(app, EMAIL)
    account(app, OTHER)
    study_id = create(owner, puzzles[:1], breaks="")
    alice, bob = Person(app, study_id, "alice"), Person(app, study_id, "bob")
    game = alice.start()
    bob.start()
    before = len(trail(app))  # the study's opening (a phase change)
    base = f"/research/studies/{study_id}"
    with db.sessions_of(app)() as session:
        alice_id = session.scalars(
            select(Participant.public_id).where(Participant.study_id == study_id).order_by(Participant.id)
        ).first()
    for kind in EXPORTS:
        assert get(owner, f"{base}/export/{kind}") == 200
    assert get(owner, f"{base}/participants") == 200  # the list alone is not recorded
    assert get(owner, f"{base}/participants/{alice_id}") == 200
    assert get(owner, f"{base}/games/{game}/replay") == 200
    assert get(owner, f"{base}/games/{game}/replay?step=0") == 200  # the same replay, stepped: not again
    assert post(owner, f"{base}/team", email=OTHER, role="viewer") == 303
    assert post(owner, f"{base}/participants/delete", label="nobody", confirm="yes") == 404  # nothing done
    assert post(owner, f"{base}/participants/delete", label="bob", confirm="yes") == 303
    with db.sessions_of(app)() as session:
        other_id = session.scalar(text("SELECT id FROM users WHERE email = :e"), {"e": OTHER})
    assert post(owner, f"{base}/team/{other_id}/remove") == 303
    assert post(owner, f"{base}/phase", to="paused") == 303
    rows = trail(app)
    assert rows[0].action == "phase" and rows[0].detail == "draft -> open"
    recorded = [(row.action, row.detail) for row in rows[before:]]
    assert recorded == [
        *[("export", kind) for kind in EXPORTS],
        ("participant-viewed", alice_id),
        ("replay", f"game {game} of participant {alice_id}"),
        ("member-added", f"{OTHER} as viewer"),
        ("participant-deleted", "1 participant(s) with the label typed"),
        ("member-removed", OTHER),
        ("phase", "open -> paused"),
    ]
    assert {(row.email, row.study_id, row.address) for row in rows[before:]} == {(EMAIL, study_id, ADDRESS)}
    assert all(row.at is not None for row in rows)

    page = owner.get(f"{base}/audit").get_data(as_text=True)
    assert page.count('<tr data-action="') == len(rows) and "deleted a participant&#39;s data" in page
    download = owner.get(f"{base}/audit.csv")
    assert download.status_code == 200 and download.mimetype == "text/csv"
    lines = list(csv.DictReader(io.StringIO(download.get_data(as_text=True))))
    assert [(line["action"], line["detail"]) for line in lines] == [(row.action, row.detail) for row in rows]
    assert lines[-1]["email"] == EMAIL and lines[-1]["address"] == ADDRESS

    viewer = logged_in(app, OTHER, PASSWORD)
    assert post(owner, f"{base}/team", email=OTHER, role="viewer") == 303
    assert viewer.get(f"{base}/audit").status_code == 403 and viewer.get(f"{base}/audit.csv").status_code == 403
    assert viewer.get("/research/audit").status_code == 403  # the whole trail: administrators only


def test_the_database_refuses_to_change_or_delete_an_audit_row(app: Flask) -> None:
    with db.sessions_of(app)() as session:
        session.add(AuditEvent(user_id=1, email="r@example.org", action="export", detail="long.csv", address="x"))
        session.commit()
    for statement in ("UPDATE audit_events SET detail = 'nothing'", "DELETE FROM audit_events"):
        with db.sessions_of(app)() as session, pytest.raises(DBAPIError, match="append-only"):
            session.execute(text(statement))
            session.commit()
    assert [row.detail for row in trail(app)] == ["long.csv"]
