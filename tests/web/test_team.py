"""Research teams through the app: an administrator invites and disables accounts, researchers change their
password, a study's owners add collaborators who see (viewers) or also change (owners) the study.

Each researcher is a client of their own (their own session cookie), logged in through the login page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from helpers.studies import create, form_token
from helpers.team import ADMIN, NEW_PASSWORD, OTHER, PASSWORD, RESEARCHER, account, logged_in, post
from helpers.web import csrf_token_of

from sudoku_engine.generate import generate_puzzle
from webapp import db, jobs
from webapp.models import User, utcnow

INVITE_LINK = re.compile(r'id="invite-link"[^>]*value="(http://[^"]+/research/invite/([\w-]+))"')


@pytest.fixture(autouse=True)
def consumer(app: Flask) -> Iterator[None]:
    """A real consumer of the app's job queue: studies are prepared by it."""
    with jobs.running_in_threads(app):
        yield


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """Two easy generated puzzles with their solutions."""
    made = [generate_puzzle(seed=1900 + i, givens=60) for i in range(2)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


def log_in_status(app: Flask, email: str, password: str) -> tuple[int, str]:
    """The login page's answer to these credentials."""
    client = app.test_client()
    token = form_token(client, "/research/login")
    answer = client.post("/research/login", data={"email": email, "password": password, "csrf_token": token})
    return answer.status_code, answer.get_data(as_text=True)


def user_row(app: Flask, email: str) -> User:
    """The stored account."""
    with app.app_context():
        found = db.get_session().query(User).filter_by(email=email).one()
        db.get_session().expunge(found)
        return found


def test_the_command_line_makes_administrators_and_changes_accounts(app: Flask) -> None:
    runner = app.test_cli_runner()
    made = runner.invoke(args=["user", "create", ADMIN, "--password", PASSWORD, "--admin"])
    assert made.exit_code == 0 and f"Created the administrator account {ADMIN}." in made.output
    account(app, RESEARCHER)
    assert not user_row(app, RESEARCHER).is_admin and user_row(app, ADMIN).is_admin
    changed = runner.invoke(args=["user", "set", RESEARCHER, "--admin", "--disabled"])
    assert changed.exit_code == 0 and f"{RESEARCHER}: administrator, disabled; 0 log-in(s) ended." in changed.output
    row = user_row(app, RESEARCHER)
    assert row.is_admin and row.disabled_at is not None
    assert runner.invoke(args=["user", "set", "nobody@lab.example", "--enabled"]).exit_code == 2


def test_an_administrator_invites_a_researcher_who_sets_a_password_once(app: Flask) -> None:
    account(app, ADMIN, admin=True)
    admin = logged_in(app, ADMIN)
    status, page = post(admin, "/research/users/invite", email=f"  {OTHER.upper()} ")
    assert status == 200
    found = INVITE_LINK.search(page)
    assert found, page
    link, token = found.groups()
    assert user_row(app, OTHER).invite_hash is not None and token not in str(user_row(app, OTHER).invite_hash)
    assert log_in_status(app, OTHER, PASSWORD)[0] == 401, "an invited account has no password anyone knows yet"

    newcomer = app.test_client()
    path = link.split("localhost", 1)[-1]
    assert newcomer.get(path).status_code == 200
    token_field = csrf_token_of(newcomer.get(path).get_data(as_text=True))
    mismatch = newcomer.post(path, data={"password": NEW_PASSWORD, "again": "other words", "csrf_token": token_field})
    assert mismatch.status_code == 400 and "The two passwords differ." in mismatch.get_data(as_text=True)
    short = newcomer.post(path, data={"password": "short", "again": "short", "csrf_token": token_field})
    assert short.status_code == 400 and "at least 8 characters" in short.get_data(as_text=True)
    done = newcomer.post(path, data={"password": NEW_PASSWORD, "again": NEW_PASSWORD, "csrf_token": token_field})
    assert done.status_code == 200 and "Your password is set" in done.get_data(as_text=True)
    assert newcomer.get("/research/").status_code == 200, "logged in by the invitation"
    assert app.test_client().get(path).status_code == 404, "an invitation works once"
    assert log_in_status(app, OTHER, NEW_PASSWORD)[0] == 302

    again_status, again_page = post(admin, "/research/users/invite", email=OTHER)
    assert again_status == 400 and f"There is already an account for {OTHER}." in again_page
    assert post(admin, "/research/users/invite", email="not an email")[0] == 400


def test_an_invitation_past_its_week_opens_nothing(app: Flask) -> None:
    account(app, ADMIN, admin=True)
    admin = logged_in(app, ADMIN)
    found = INVITE_LINK.search(post(admin, "/research/users/invite", email=OTHER)[1])
    assert found
    with app.app_context():
        session = db.get_session()
        row = session.query(User).filter_by(email=OTHER).one()
        row.invite_until = utcnow() - timedelta(seconds=1)
        session.commit()
    assert app.test_client().get(f"/research/invite/{found.group(2)}").status_code == 404


def test_only_administrators_manage_accounts(app: Flask) -> None:
    account(app, RESEARCHER)
    researcher = logged_in(app, RESEARCHER)
    assert researcher.get("/research/users").status_code == 403
    assert post(researcher, "/research/users/invite", email=OTHER)[0] == 403
    assert post(researcher, f"/research/users/{user_row(app, RESEARCHER).id}/disable")[0] == 403
    assert 'id="users-link"' not in researcher.get("/research/").get_data(as_text=True)


def test_a_disabled_account_is_logged_out_and_cannot_log_in_until_enabled(app: Flask) -> None:
    account(app, ADMIN, admin=True)
    account(app, RESEARCHER)
    admin, researcher = logged_in(app, ADMIN), logged_in(app, RESEARCHER)
    assert researcher.get("/research/").status_code == 200
    target = user_row(app, RESEARCHER).id
    status, page = post(admin, f"/research/users/{target}/disable")
    assert status == 200 and re.search(rf'data-email="{re.escape(RESEARCHER)}".*?disabled', page, re.S)
    assert researcher.get("/research/").status_code == 302, "the disabled account's session ended"
    refused = log_in_status(app, RESEARCHER, PASSWORD)
    assert refused[0] == 401 and "This account is disabled" in refused[1]
    own = post(admin, f"/research/users/{user_row(app, ADMIN).id}/disable")
    assert own[0] == 409 and "You cannot disable your own account." in own[1]
    assert post(admin, f"/research/users/{target}/enable")[0] == 200
    assert log_in_status(app, RESEARCHER, PASSWORD)[0] == 302


def test_a_researcher_changes_their_password(app: Flask) -> None:
    account(app, RESEARCHER)
    researcher = logged_in(app, RESEARCHER)
    wrong = post(researcher, "/research/account", current="not it", password=NEW_PASSWORD, again=NEW_PASSWORD)
    assert wrong[0] == 401 and "The current password is wrong." in wrong[1]
    differ = post(researcher, "/research/account", current=PASSWORD, password=NEW_PASSWORD, again="battery")
    assert differ[0] == 400 and "The two passwords differ." in differ[1]
    done = post(researcher, "/research/account", current=PASSWORD, password=NEW_PASSWORD, again=NEW_PASSWORD)
    assert done[0] == 200 and "Your password is changed." in done[1]
    assert log_in_status(app, RESEARCHER, PASSWORD)[0] == 401
    assert log_in_status(app, RESEARCHER, NEW_PASSWORD)[0] == 302


def test_collaborators_see_or_change_a_study_by_their_role(app: Flask, puzzles: list[tuple[str, str]]) -> None:
    for email in (RESEARCHER, OTHER, ADMIN):
        account(app, email)
    owner, colleague, stranger = logged_in(app, RESEARCHER), logged_in(app, OTHER), logged_in(app, ADMIN)
    study_id = create(owner, puzzles)
    pages = [f"/research/studies/{study_id}{tail}" for tail in ("", "/team", "/report", "/export/long.csv")]
    assert [colleague.get(path).status_code for path in pages] == [404] * 4, "no role: as if there were no study"

    status, page = post(owner, f"/research/studies/{study_id}/team", email=OTHER.upper(), role="viewer")
    assert status == 303, page
    assert [colleague.get(path).status_code for path in pages] == [200] * 4
    listed = colleague.get("/research/").get_data(as_text=True)
    assert re.search(r"Pilot</a>.*?<span class=\"study-role\">viewer</span>", listed, re.S)
    assert post(colleague, f"/research/studies/{study_id}/team", email=ADMIN, role="viewer")[0] == 403
    assert post(colleague, f"/research/studies/{study_id}/calibrate")[0] == 403
    team_page = colleague.get(f"/research/studies/{study_id}/team").get_data(as_text=True)
    assert 'id="add-member"' not in team_page and "viewer" in team_page

    assert post(owner, f"/research/studies/{study_id}/team", email=OTHER, role="owner")[0] == 303
    assert post(colleague, f"/research/studies/{study_id}/team", email=ADMIN, role="viewer")[0] == 303
    assert stranger.get(pages[0]).status_code == 200
    bad = [
        post(owner, f"/research/studies/{study_id}/team", email="nobody@lab.example", role="viewer"),
        post(owner, f"/research/studies/{study_id}/team", email=OTHER, role="king"),
        post(owner, f"/research/studies/{study_id}/team", email=RESEARCHER, role="viewer"),
    ]
    assert [status for status, _ in bad] == [400, 400, 400]
    assert "no active researcher account" in bad[0][1] and "The role must be one of" in bad[1][1]
    assert "always one of its owners" in bad[2][1]

    assert post(owner, f"/research/studies/{study_id}/team/{user_row(app, ADMIN).id}/remove")[0] == 303
    assert stranger.get(pages[0]).status_code == 404
    assert post(owner, f"/research/studies/{study_id}/team/{user_row(app, ADMIN).id}/remove")[0] == 404
