"""Rate limits on the routes that cost the server real work: a new puzzle and the daily puzzle (the bank, else up
to a few seconds of generation; one count for both), a puzzle link (a full rating of any puzzle) and hints (a
technique search); and failed researcher log-ins (password guessing), where only wrong passwords count.

Flask-Limiter counts per client address (per game for hints, so a class behind one address is not one player).
Log-ins are counted three ways, so that one address can neither guess on for long nor lock everyone else out: per
account and address (``LIMIT_LOGIN``: someone who mistypes is stopped only for their own account), per address
across accounts with a higher cap (``LIMIT_LOGIN_ADDRESS``), and per account across addresses
(``LIMIT_LOGIN_ACCOUNT``: guesses spread over many addresses). Only answers below 400 count (wrong passwords, 401,
for log-ins): bad input costs nothing and is answered as before. A client over a limit gets 429 with a message and
``Retry-After``.

The counts live in the app's database by default (``RATELIMIT_STORAGE_URI=database``, ``webapp.ratestore``): one
count per server, however many workers, and per deployment when its hosts share the database.
``RATELIMIT_STORAGE_URI`` may name another store instead (``redis://host:6379/0`` with the ``redis`` extra,
``memory://`` for each worker's own memory). While the store cannot be reached, each worker counts in its own
memory again (and logs it) rather than failing the request. ``RATELIMIT_ENABLED`` false switches the limits off
(load benchmarks that play many games from one address). The limits themselves are ``LIMIT_NEW``,
``LIMIT_PUZZLE_LINK``, ``LIMIT_HINT``, ``LIMIT_LOGIN``, ``LIMIT_LOGIN_ADDRESS`` and ``LIMIT_LOGIN_ACCOUNT``
(settings in ``webapp.config``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, cast

from flask import Flask, Response, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from . import db, ratestore

# endpoint, its setting, what the message names, what is counted (the client address, the game as well, or the
# account typed), whether the answer to a failed attempt is what counts (login: wrong passwords) rather than one
# that did the work
LIMITED = (
    ("play.new_game", "LIMIT_NEW", "new puzzles", "address", False),
    ("play.puzzle_link", "LIMIT_PUZZLE_LINK", "puzzle links opened", "address", False),
    ("play.daily_puzzle", "LIMIT_NEW", "new puzzles", "address", False),
    ("play.hint", "LIMIT_HINT", "hints", "game", False),
    ("play.apply_hint", "LIMIT_HINT", "hints", "game", False),
    ("research.login", "LIMIT_LOGIN", "failed log-ins for this account from here", "account-address", True),
    ("research.login", "LIMIT_LOGIN_ADDRESS", "failed log-ins from here", "address", True),
    ("research.login", "LIMIT_LOGIN_ACCOUNT", "failed log-ins for this account", "account", True),
    ("research.account", "LIMIT_LOGIN", "failed password checks", "address", True),
)
DATABASE = "database"  # RATELIMIT_STORAGE_URI's value for the app's own database (the default)


def per_game() -> str:
    """The client address and the game in the address (hint limits count per game)."""
    return f"{get_remote_address()}/{(request.view_args or {}).get('game_id', '')}"


def per_account() -> str:
    """The account a log-in names: a hash of the email as the form typed it, trimmed and lower-cased (the same
    for a known and an unknown email; the store never holds the address itself)."""
    email = (request.form.get("email") or "").strip().lower()
    return "account/" + hashlib.sha256(email.encode("utf-8", "replace")).hexdigest()


def per_account_and_address() -> str:
    """The account a log-in names, from this client address."""
    return f"{get_remote_address()}/{per_account()}"


KEYS: dict[str, Callable[[], str]] = {
    "address": get_remote_address,
    "game": per_game,
    "account": per_account,
    "account-address": per_account_and_address,
}


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
    """Attach a limiter of the app's own (tests build many apps), counting in the app's database unless another
    store is set, and wrap the limited views."""
    store: dict[str, Any] = {}
    if app.config["RATELIMIT_STORAGE_URI"] == DATABASE:
        store = {"storage_uri": f"{ratestore.SCHEME}://", "storage_options": {"engine": db.engine_of(app)}}
    limiter = Limiter(get_remote_address, app=app, headers_enabled=True, **store)
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
