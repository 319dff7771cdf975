"""Rate limits on a shared store: two app instances (two hosts or workers, each with its own database) that share
one Redis count one limit together; a store that cannot be reached leaves each instance counting on its own."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient
from helpers.services import free_port, redis_url
from helpers.web import csrf_header_of


def failed_log_in(client: FlaskClient, headers: dict[str, str]) -> int:
    """Post a log-in for an account that does not exist; the status code."""
    data = {"email": "nobody@example.org", "password": "wrong"}
    return client.post("/research/login", data=data, headers=headers).status_code


def test_two_instances_sharing_redis_allow_the_limit_once_in_total(make_app: Callable[..., Flask]) -> None:
    """Three failed log-ins allowed in total, not three on each instance: two on the first, one on the second,
    then both refuse."""
    shared = {
        "RATELIMIT_STORAGE_URI": redis_url(),
        "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        "LIMIT_LOGIN": "3 per minute",
    }
    first, second = make_app(**shared).test_client(), make_app(**shared).test_client()
    first_headers, second_headers = csrf_header_of(first), csrf_header_of(second)
    assert [failed_log_in(first, first_headers) for _ in range(2)] == [401, 401]
    assert failed_log_in(second, second_headers) == 401
    assert failed_log_in(second, second_headers) == 429
    assert failed_log_in(first, first_headers) == 429


def test_each_instance_counts_alone_while_the_store_is_unreachable(make_app: Callable[..., Flask]) -> None:
    """No server at the store's address: answers are served (never a 500) and the limit still holds per
    instance."""
    store = f"redis://127.0.0.1:{free_port()}/0"
    client = make_app(RATELIMIT_STORAGE_URI=store, LIMIT_LOGIN="2 per minute").test_client()
    headers = csrf_header_of(client)
    assert [failed_log_in(client, headers) for _ in range(3)] == [401, 401, 429]
