"""The Host header never decides an address the app shows: a study's entry link comes from SUDOKU_BASE_URL, else
from an allowed (or local) request host, else it is shown as a path; with SUDOKU_ALLOWED_HOSTS set, other hosts
get 400."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.web import csrf_token_of

from webapp import create_app, db
from webapp.models import User
from webapp.study import studies

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION_01 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
ENTRY_LINK = re.compile(r'id="entry-link"[^>]*>([^<]*)</textarea>')


Ask = Callable[[str], tuple[int, str | None, str]]


def study_page(make_app: Callable[..., Flask], **config: object) -> Ask:
    """An app with a researcher logged in and one study; a function that asks for the study's page with a Host
    header and gives the status, what the entry link shows before the study's path (None: no link) and the page."""
    app = make_app(**config)
    created = app.test_cli_runner().invoke(args=["user", "create", "r@example.org", "--password", "right-pw"])
    assert created.exit_code == 0
    with app.app_context():
        session = db.get_session()
        owner = session.query(User).one()
        entry = studies.PuzzleEntry(EULER_01, SOLUTION_01, None, None)
        study = studies.create_study(session, owner, name="Pilot", puzzles=[entry])
        study_id, public_id = study.id, study.public_id
    cookie = logged_in_cookie(app.test_client())
    client = app.test_client(use_cookies=False)  # the session cookie goes to every host name alike

    def ask(host: str) -> tuple[int, str | None, str]:
        response = client.get(f"/research/studies/{study_id}", headers={"Host": host, "Cookie": cookie})
        text = response.get_data(as_text=True)
        found = ENTRY_LINK.search(text)
        if found is None:
            return response.status_code, None, text
        assert found.group(1).endswith(f"/s/{public_id}"), found.group(1)
        return response.status_code, found.group(1).removesuffix(f"/s/{public_id}"), text

    return ask


def logged_in_cookie(client: FlaskClient) -> str:
    """Log the researcher in (through a local host name); the session cookie to send."""
    token = csrf_token_of(client.get("/research/login").get_data(as_text=True))
    data = {"email": "r@example.org", "password": "right-pw", "csrf_token": token}
    assert client.post("/research/login", data=data).status_code == 302
    session = client.get_cookie("session")
    assert session is not None
    return f"session={session.value}"


def test_a_forged_host_never_makes_the_entry_link_without_settings(make_app: Callable[..., Flask]) -> None:
    """No base URL, no list: a local host's link is absolute, a forged host's is only the path, with a note."""
    ask = study_page(make_app)
    assert ask("localhost:5000")[:2] == (200, "http://localhost:5000")
    assert ask("127.0.0.1:8000")[:2] == (200, "http://127.0.0.1:8000")
    status, prefix, page = ask("evil.example")
    assert (status, prefix) == (200, "")
    assert "evil.example" not in page and "SUDOKU_BASE_URL" in page


def test_the_base_url_makes_every_entry_link(make_app: Callable[..., Flask]) -> None:
    ask = study_page(make_app, BASE_URL="https://sudoku.example.org/")
    for host in ("evil.example", "localhost", "sudoku.example.org"):
        status, prefix, page = ask(host)
        assert (status, prefix) == (200, "https://sudoku.example.org") and "SUDOKU_BASE_URL" not in page


def test_with_allowed_hosts_set_other_hosts_get_400(make_app: Callable[..., Flask]) -> None:
    ask = study_page(make_app, ALLOWED_HOSTS=["sudoku.example.org", "localhost"])
    assert ask("sudoku.example.org")[:2] == (200, "http://sudoku.example.org")
    status, prefix, page = ask("evil.example")
    assert (status, prefix) == (400, None)
    assert "does not answer for the host name" in page and "evil.example" not in page
    assert ask("127.0.0.1")[0] == 400  # a local name is no exception once the list is set


def test_the_settings_come_from_the_environment_and_a_bad_base_url_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUDOKU_BASE_URL", "https://sudoku.example.org")
    monkeypatch.setenv("SUDOKU_ALLOWED_HOSTS", "sudoku.example.org, .example.net")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "a"), "SECRET_KEY": "k"})
    db.dispose(app)
    assert app.config["BASE_URL"] == "https://sudoku.example.org"
    assert app.config["ALLOWED_HOSTS"] == ["sudoku.example.org", ".example.net"]
    for bad in ("sudoku.example.org", "ftp://sudoku.example.org", "https://sudoku.example.org/lab", "https://"):
        monkeypatch.setenv("SUDOKU_BASE_URL", bad)
        with pytest.raises(ValueError, match="SUDOKU_BASE_URL must be an address"):
            create_app({"INSTANCE_PATH": str(tmp_path / "b"), "SECRET_KEY": "k"})
