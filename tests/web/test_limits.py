"""Rate limits on new puzzles, puzzle links and hints: 429 with a message past the limit, bad input not counted,
hints counted per game, and a switch that turns them off."""

from __future__ import annotations

import pytest
from helpers.web import csrf_header_of
from sqlalchemy import select

from webapp import config, db
from webapp.models import User

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def new_game(client, headers) -> str:
    """Open a game from the slider; its address."""
    response = client.post("/new", data={"slider": "10"}, headers=headers)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def test_new_puzzles_past_the_limit_get_429_with_a_message(make_app):
    client = make_app(LIMIT_NEW="2 per minute").test_client()
    headers = csrf_header_of(client)
    new_game(client, headers)
    new_game(client, headers)
    refused = client.post("/new", data={"slider": "10"}, headers=headers)
    assert refused.status_code == 429
    assert "Too many new puzzles: at most 2 per minute" in refused.get_data(as_text=True)
    assert int(refused.headers["Retry-After"]) > 0
    fragment = client.post("/new", data={"slider": "10"}, headers={**headers, "HX-Request": "true"})
    assert fragment.status_code == 429 and "<html" not in fragment.get_data(as_text=True)


def test_bad_input_does_not_use_up_the_limit(make_app):
    client = make_app(LIMIT_NEW="2 per minute").test_client()
    headers = csrf_header_of(client)
    for bad in ("", "x", "101", "-1", "nan"):
        assert client.post("/new", data={"slider": bad}, headers=headers).status_code == 400
    new_game(client, headers)
    new_game(client, headers)


def test_puzzle_links_are_limited(make_app):
    client = make_app(LIMIT_PUZZLE_LINK="1 per minute").test_client()
    headers = csrf_header_of(client)
    assert client.post(f"/p/{'1' * 81}", headers=headers).status_code == 400  # refused input is not counted
    for _page in range(2):
        assert client.get(f"/p/{EULER_01}").status_code == 200  # the link's page is not counted either
    assert client.post(f"/p/{EULER_01}", headers=headers).status_code == 303
    refused = client.post(f"/p/{EULER_01}", headers=headers)
    assert refused.status_code == 429 and "Too many puzzle links opened" in refused.get_data(as_text=True)


def test_hints_are_counted_per_game(make_app):
    client = make_app(LIMIT_HINT="2 per minute").test_client()
    plain = csrf_header_of(client)
    headers = {**plain, "HX-Request": "true"}
    first, second = new_game(client, plain), new_game(client, plain)
    assert client.post(f"{first}/hint", headers=headers).status_code == 200
    assert client.post(f"{first}/hint", headers=headers).status_code == 200
    refused = client.post(f"{first}/hint", headers=headers)
    assert refused.status_code == 429 and "Too many hints" in refused.get_data(as_text=True)
    assert client.post(f"{first}/hint/apply", headers=headers).status_code == 429  # the same count as Hint
    assert client.post(f"{second}/hint", headers=headers).status_code == 200


def test_limits_can_be_switched_off(make_app):
    client = make_app(LIMIT_NEW="1 per minute", RATELIMIT_ENABLED=False).test_client()
    headers = csrf_header_of(client)
    for _ in range(3):
        new_game(client, headers)


def test_the_environment_switches_limits_off_and_names_the_storage(monkeypatch):
    from webapp import config

    monkeypatch.setenv("RATELIMIT_ENABLED", "off")
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "memory://")
    found = config.from_environment()
    assert found["RATELIMIT_ENABLED"] is False and found["RATELIMIT_STORAGE_URI"] == "memory://"
    monkeypatch.setenv("RATELIMIT_ENABLED", "1")
    assert config.from_environment()["RATELIMIT_ENABLED"] is True


def test_limits_come_from_the_environment_and_bad_ones_are_refused(monkeypatch, make_app):
    monkeypatch.setenv("SUDOKU_LIMIT_NEW", "1/minute")
    client = make_app().test_client()
    headers = csrf_header_of(client)
    new_game(client, headers)
    assert client.post("/new", data={"slider": "10"}, headers=headers).status_code == 429
    monkeypatch.setenv("SUDOKU_LIMIT_HINT", "plenty")
    with pytest.raises(ValueError, match="LIMIT_HINT must be a rate such as"):
        make_app()


def create_researcher(app):
    """Make the account r@example.org (password right-pw) with ``flask user create``; the exit code."""
    return app.test_cli_runner().invoke(args=["user", "create", "r@example.org", "--password", "right-pw"]).exit_code


def test_failed_log_ins_are_limited_and_a_right_password_is_not_counted(make_app):
    """Wrong passwords use up the log-in limit (then 429, even with the right one); right ones do not."""
    app = make_app(LIMIT_LOGIN="3 per minute")
    assert create_researcher(app) == 0
    client = app.test_client()
    headers = csrf_header_of(client)

    def log_in(password):
        return client.post("/research/login", data={"email": "r@example.org", "password": password}, headers=headers)

    for _ in range(4):
        assert log_in("right-pw").status_code == 302
    for _ in range(3):
        assert log_in("wrong").status_code == 401
    refused = log_in("right-pw")
    assert refused.status_code == 429
    assert "Too many failed log-ins for this account from here: at most 3 per minute" in refused.get_data(as_text=True)
    other = app.test_cli_runner().invoke(args=["user", "create", "o@example.org", "--password", "other-pw"])
    assert other.exit_code == 0
    answer = client.post("/research/login", data={"email": "o@example.org", "password": "other-pw"}, headers=headers)
    assert answer.status_code == 302  # another account from the same address is not locked out


def test_failed_log_ins_from_one_address_have_a_higher_cap_across_accounts(make_app):
    """Wrong passwords for many accounts from one address use up the address's cap, then every log-in from it
    gets 429 (even a right one); another address still logs in."""
    app = make_app(LIMIT_LOGIN="2 per minute", LIMIT_LOGIN_ADDRESS="5 per minute")
    assert create_researcher(app) == 0
    client = app.test_client()
    headers = csrf_header_of(client)

    def log_in(email, password, address="192.0.2.9"):
        return client.post(
            "/research/login",
            data={"email": email, "password": password},
            headers=headers,
            environ_base={"REMOTE_ADDR": address},
        )

    for number in range(5):
        assert log_in(f"guess{number}@example.org", "wrong").status_code == 401
    refused = log_in("r@example.org", "right-pw")
    assert refused.status_code == 429
    assert "Too many failed log-ins from here: at most 5 per minute" in refused.get_data(as_text=True)
    assert log_in("r@example.org", "right-pw", "198.51.100.3").status_code == 302


def test_an_unknown_email_costs_the_same_hash_check_as_a_known_one(make_app, monkeypatch):
    """Whether the account exists or not, a failed log-in runs one password hash check of the same kind."""
    from webapp.research import views

    app = make_app()
    assert create_researcher(app) == 0
    checked = []
    real = views.check_password_hash
    monkeypatch.setattr(
        views, "check_password_hash", lambda stored, given: checked.append(stored.split("$")[0]) or real(stored, given)
    )
    client = app.test_client()
    headers = csrf_header_of(client)
    for email in ("r@example.org", "nobody@example.org"):
        response = client.post("/research/login", data={"email": email, "password": "wrong"}, headers=headers)
        assert response.status_code == 401
    assert len(checked) == 2 and checked[0] == checked[1]  # the same method and cost parameters


def test_accounts_are_hashed_with_scrypt_unless_the_app_is_told_otherwise(make_app, tmp_path):
    """The app's own setting is scrypt (werkzeug's 2^15 work factor); an account made on it is stored so and logs
    in; the test apps' fast method is an override."""
    assert config.load(str(tmp_path), {}, environ={})["PASSWORD_HASH_METHOD"] == "scrypt"
    app = make_app(PASSWORD_HASH_METHOD="scrypt")
    assert create_researcher(app) == 0
    with app.app_context():
        stored = db.get_session().scalar(select(User.password_hash).where(User.email == "r@example.org"))
    assert stored is not None and stored.startswith("scrypt:32768:8:1$")
    client = app.test_client()
    answer = client.post(
        "/research/login", data={"email": "r@example.org", "password": "right-pw"}, headers=csrf_header_of(client)
    )
    assert answer.status_code == 302


def test_failed_log_ins_for_one_account_are_limited_across_addresses(make_app):
    """Wrong passwords for one email from many addresses use up that account's limit (then 429 from a fresh
    address, even with the right password); an unknown email is counted the same way; other accounts and the
    log-in page stay open."""
    app = make_app(LIMIT_LOGIN="100 per minute", LIMIT_LOGIN_ACCOUNT="3 per hour")
    assert create_researcher(app) == 0
    client = app.test_client()
    headers = csrf_header_of(client)

    def log_in(email, password, address):
        return client.post(
            "/research/login",
            data={"email": email, "password": password},
            headers=headers,
            environ_base={"REMOTE_ADDR": address},
        )

    for number, email in enumerate(("r@example.org", " R@Example.org ", "r@example.org")):
        assert log_in(email, "wrong", f"192.0.2.{number + 1}").status_code == 401
    refused = log_in("r@example.org", "right-pw", "198.51.100.7")
    assert refused.status_code == 429
    assert "Too many failed log-ins for this account: at most 3 per hour" in refused.get_data(as_text=True)
    for number in range(3):
        assert log_in("nobody@example.org", "wrong", f"203.0.113.{number + 1}").status_code == 401
    assert log_in("nobody@example.org", "wrong", "203.0.113.99").status_code == 429
    assert log_in("other@example.org", "wrong", "198.51.100.7").status_code == 401  # another account is not held
    assert client.get("/research/login", environ_base={"REMOTE_ADDR": "198.51.100.7"}).status_code == 200


def test_forwarded_addresses_count_only_behind_trusted_proxies(make_app):
    """Without PROXY_HOPS a client's X-Forwarded-For is ignored (it cannot dodge the limit); with one trusted
    proxy the address the proxy reports is the one counted."""

    def statuses(app, forwarded_for):
        client = app.test_client()
        headers = csrf_header_of(client)
        return [
            client.post(f"/p/{EULER_01}", headers={**headers, "X-Forwarded-For": address}).status_code
            for address in forwarded_for
        ]

    addresses = ["192.0.2.1", "192.0.2.2", "192.0.2.3"]
    direct = make_app(LIMIT_PUZZLE_LINK="1 per minute")
    assert statuses(direct, addresses) == [303, 429, 429]
    proxied = make_app(LIMIT_PUZZLE_LINK="1 per minute", PROXY_HOPS=1)
    assert statuses(proxied, addresses) == [303, 303, 303]
    assert statuses(proxied, ["192.0.2.1"]) == [429]


def test_a_bad_proxy_hops_setting_is_refused(monkeypatch):
    from webapp import config

    monkeypatch.setenv("SUDOKU_PROXY_HOPS", "one")
    with pytest.raises(ValueError, match="SUDOKU_PROXY_HOPS must be a whole number"):
        config.from_environment()
