"""A research team: accounts with their roles, logged-in clients and form posts."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from helpers.studies import form_token

ADMIN, RESEARCHER, OTHER = "admin@lab.example", "owner@lab.example", "colleague@lab.example"
PASSWORD, NEW_PASSWORD = "correct horse", "battery staple"


def account(app: Flask, email: str, *, admin: bool = False) -> None:
    """An account made on the command line."""
    args = ["user", "create", email, "--password", PASSWORD, *(["--admin"] if admin else [])]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output


def logged_in(app: Flask, email: str, password: str = PASSWORD) -> FlaskClient:
    """A new client logged in through the login page."""
    client = app.test_client()
    token = form_token(client, "/research/login")
    answer = client.post("/research/login", data={"email": email, "password": password, "csrf_token": token})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return client


def post(client: FlaskClient, path: str, **fields: str) -> tuple[int, str]:
    """A form post with the page's CSRF token; the status and the page."""
    answer = client.post(path, data={**fields, "csrf_token": form_token(client, "/research/account")})
    return answer.status_code, answer.get_data(as_text=True)
