"""Rate limits on the routes that cost the server real work: a new puzzle and the daily puzzle (the bank, else up
to a few seconds of generation; one count for both), a puzzle link (a full rating of any puzzle) and hints (a
technique search); and failed researcher log-ins (password guessing), where only wrong passwords count: per
address, and per account (the email typed, known or not) across addresses, so that guesses spread over many
addresses are stopped too.

Flask-Limiter counts per client address (per game for hints, so a class behind one address is not one player).
Only answers below 400 count: bad input costs nothing and is answered as before. A client over a limit gets 429
with a message and ``Retry-After``. The counts live in each worker's memory by default (``make run``'s two workers
each allow the limit); ``RATELIMIT_STORAGE_URI`` (for example ``redis://host:6379/0``, with the ``redis`` extra
installed) shares them between workers and hosts. While that store cannot be reached, each worker counts in its own
memory again (and logs it) rather than failing the request. ``RATELIMIT_ENABLED`` false switches the limits off
(load benchmarks that play many games from one address).
The limits themselves are ``LIMIT_NEW``, ``LIMIT_PUZZLE_LINK``, ``LIMIT_HINT``, ``LIMIT_LOGIN`` and
``LIMIT_LOGIN_ACCOUNT`` (settings in ``webapp.config``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, cast

from flask import Flask, Response, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

# endpoint, its setting, what the message names, what is counted (the client address, the game as well, or the
# account typed), whether the answer to a failed attempt is what counts (login: wrong passwords) rather than one
# that did the work
LIMITED = (
    ("play.new_game", "LIMIT_NEW", "new puzzles", "address", False),
    ("play.puzzle_link", "LIMIT_PUZZLE_LINK", "puzzle links opened", "address", False),
    ("play.daily_puzzle", "LIMIT_NEW", "new puzzles", "address", False),
    ("play.hint", "LIMIT_HINT", "hints", "game", False),
    ("play.apply_hint", "LIMIT_HINT", "hints", "game", False),
    ("research.login", "LIMIT_LOGIN", "failed log-ins", "address", True),
    ("research.login", "LIMIT_LOGIN_ACCOUNT", "failed log-ins for this account", "account", True),
    ("research.account", "LIMIT_LOGIN", "failed password checks", "address", True),
)


def per_game() -> str:
    """The client address and the game in the address (hint limits count per game)."""
    return f"{get_remote_address()}/{(request.view_args or {}).get('game_id', '')}"


def per_account() -> str:
    """The account a log-in names: a hash of the email as the form typed it, trimmed and lower-cased (the same
    for a known and an unknown email; the store never holds the address itself)."""
    email = (request.form.get("email") or "").strip().lower()
    return "account/" + hashlib.sha256(email.encode("utf-8", "replace")).hexdigest()


KEYS: dict[str, Callable[[], str]] = {"address": get_remote_address, "game": per_game, "account": per_account}


def counted(response: Response) -> bool:
    """Whether an answer uses up the limit: only those that did the work (below 400)."""
    return response.status_code < 400


def refused(response: Response) -> bool:
    """Whether an answer uses up the log-in limit: a wrong email or password (401)."""
    return response.status_code == 401


def checked(setting: str, limit: object) -> str:
    """A limit such as "30 per minute", or a ValueError naming the setting when it cannot be read."""
    try:
        parse_many(str(limit))
    except ValueError:
        raise ValueError(f"{setting} must be a rate such as '30 per minute' or '100/hour', not {limit!r}") from None
    return str(limit)


def init_app(app: Flask) -> Limiter:
    """Attach a limiter of the app's own (tests build many apps) and wrap the limited views."""
    limiter = Limiter(get_remote_address, app=app, headers_enabled=True)
    for endpoint, setting, what, key, failures in LIMITED:
        limit = checked(setting, app.config[setting])
        message = f"Too many {what}: at most {limit}. Please wait a little and try again."
        # Posts only: the work is done by posts, and the pages before them (log-in, a puzzle link's) stay open.
        wrap = limiter.shared_limit(
            limit,
            setting,
            key_func=KEYS[key],
            methods=["POST"],
            deduct_when=refused if failures else counted,
            error_message=message,
        )
        app.view_functions[endpoint] = cast(Any, wrap(app.view_functions[endpoint]))
    app.extensions["sudoku_limiter"] = limiter  # the wrapped views hold it only weakly
    return limiter
