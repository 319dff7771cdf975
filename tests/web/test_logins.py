"""Log-ins that end: logging out, a password change and an administrator end a log-in on the server, so a copy of
the session cookie saved before opens nothing afterwards (Flask's signed cookie alone would stay valid)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from helpers.team import ADMIN, NEW_PASSWORD, PASSWORD, RESEARCHER, account, logged_in, post
from sqlalchemy import func, select

from webapp import db
from webapp.models import LoginSession, User


def saved_cookie(client: FlaskClient) -> str:
    """The client's session cookie as it is now."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def opens(client: FlaskClient, cookie: str | None = None) -> bool:
    """Whether the research pages open for the client (with this session cookie put back first, if given)."""
    if cookie is not None:
        client.set_cookie("session", cookie)
    return client.get("/research/").status_code == 200


def live_logins(app: Flask, email: str) -> int:
    """How many log-in rows the account has in the database."""
    with db.sessions_of(app)() as session:
        user = session.scalar(select(User).where(User.email == email))
        assert user is not None
        return int(session.scalar(select(func.count()).where(LoginSession.user_id == user.id)) or 0)


def test_a_cookie_saved_before_logout_opens_nothing_afterwards(app: Flask) -> None:
    account(app, RESEARCHER)
    client = logged_in(app, RESEARCHER)
    saved = saved_cookie(client)
    assert opens(client) and live_logins(app, RESEARCHER) == 1
    assert post(client, "/research/logout")[0] == 302
    assert live_logins(app, RESEARCHER) == 0
    assert not opens(client, saved)  # the same signed cookie, replayed
    assert opens(logged_in(app, RESEARCHER))  # logging in again works


def test_a_password_change_ends_the_accounts_other_log_ins(app: Flask) -> None:
    account(app, RESEARCHER)
    laptop, phone = logged_in(app, RESEARCHER), logged_in(app, RESEARCHER)
    saved = saved_cookie(laptop)
    status, page = post(phone, "/research/account", current=PASSWORD, password=NEW_PASSWORD, again=NEW_PASSWORD)
    assert status == 200 and "your 1 other log-in(s) ended" in page
    assert opens(phone) and not opens(laptop) and not opens(app.test_client(), saved)
    assert live_logins(app, RESEARCHER) == 1
    assert opens(logged_in(app, RESEARCHER, NEW_PASSWORD))


def test_an_administrator_ends_every_log_in_of_an_account(app: Flask) -> None:
    account(app, ADMIN, admin=True)
    account(app, RESEARCHER)
    admin, first, second = logged_in(app, ADMIN), logged_in(app, RESEARCHER), logged_in(app, RESEARCHER)
    with db.sessions_of(app)() as session:
        user_id = session.scalar(select(User.id).where(User.email == RESEARCHER))
    status, page = post(first, f"/research/users/{user_id}/end-sessions")
    assert status == 403 and opens(first)  # only an administrator
    status, page = post(admin, f"/research/users/{user_id}/end-sessions")
    assert status == 200 and f"Ended 2 log-in(s) of {RESEARCHER}." in page
    assert not opens(first) and not opens(second) and opens(admin)


def test_disabling_ends_the_log_ins_and_enabling_does_not_bring_them_back(app: Flask) -> None:
    account(app, RESEARCHER)
    client = logged_in(app, RESEARCHER)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["user", "set", RESEARCHER, "--disabled"]).exit_code == 0
    assert runner.invoke(args=["user", "set", RESEARCHER, "--enabled"]).exit_code == 0
    assert not opens(client)
    again = logged_in(app, RESEARCHER)
    ended = runner.invoke(args=["user", "set", RESEARCHER, "--end-sessions"])
    assert ended.exit_code == 0 and "1 log-in(s) ended" in ended.output
    assert not opens(again)
