"""Every setting of the web app in one table, and one reader for them all.

A setting's value comes from the factory's ``config`` argument, else from its environment variable, else from its
default. Each kind of value has one parser whose error names the variable: switches take 1/0, on/off, true/false
or yes/no; numbers are checked for their range; a blank variable counts as unset. ``docs/webapp.md`` describes the
settings for people, and a test keeps its table and this one the same.
"""

from __future__ import annotations

import math
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudoku_engine.difficulty import DEFAULT_TOLERANCE

ON_WORDS = ("1", "on", "true", "yes")
OFF_WORDS = ("0", "off", "false", "no")


def text(_name: str, value: str) -> str:
    """Text as it is, trimmed."""
    return value.strip()


def switch(name: str, value: str) -> bool:
    """On or off, in any of the usual words."""
    word = value.strip().lower()
    if word in ON_WORDS:
        return True
    if word in OFF_WORDS:
        return False
    raise ValueError(f"{name} must be 1 or 0 (on or off, true or false, yes or no), not {value!r}")


def positive_number(name: str, value: str) -> float:
    """A finite number above 0."""
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value!r}") from None
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a positive number, not {value!r}")
    return number


def whole_number(name: str, value: str) -> int:
    """A whole number, 0 or more."""
    if not value.strip().isdigit():
        raise ValueError(f"{name} must be a whole number (0 or more), not {value!r}")
    return int(value)


def positive_whole_number(name: str, value: str) -> int:
    """A whole number above 0."""
    number = whole_number(name, value)
    if number == 0:
        raise ValueError(f"{name} must be a positive number, not {value!r}")
    return number


def names(_name: str, value: str) -> list[str]:
    """A comma-separated list of names, blanks dropped."""
    return [part.strip() for part in value.split(",") if part.strip()]


@dataclass(frozen=True)
class Setting:
    """One setting: its key in ``app.config``, its environment variable, its default and the parser of its text."""

    key: str
    env: str
    default: Any
    parse: Callable[[str, str], Any] = text


SETTINGS: tuple[Setting, ...] = (
    Setting("DATABASE_URL", "DATABASE_URL", None),  # None: the SQLite file in the instance folder
    Setting("SECRET_KEY", "SECRET_KEY", None),  # None: made once and kept in the instance folder
    Setting("MIGRATE_AT_START", "SUDOKU_MIGRATE_AT_START", False, switch),
    Setting("HTMX_SOURCE", "SUDOKU_HTMX", "cdn"),
    Setting("POOL_TOLERANCE", "SUDOKU_POOL_TOLERANCE", DEFAULT_TOLERANCE, positive_number),
    Setting("POOL_GENERATE_BUDGET_S", "SUDOKU_POOL_GENERATE_BUDGET_S", 3.0, positive_number),
    Setting("POOL_REFILL", "SUDOKU_POOL_REFILL", True, switch),
    Setting("POOL_REFILL_BELOW", "SUDOKU_POOL_REFILL_BELOW", 4, positive_whole_number),
    Setting("POOL_REFILL_UPTO", "SUDOKU_POOL_REFILL_UPTO", 8, positive_whole_number),
    Setting("POOL_REFILL_BUDGET_S", "SUDOKU_POOL_REFILL_BUDGET_S", 3.0, positive_number),
    Setting("HINT_BUDGET_S", "SUDOKU_HINT_BUDGET_S", 2.0, positive_number),
    Setting("BANK_MIN", "SUDOKU_BANK_MIN", 400, whole_number),  # 0: the consumers do not fill the bank
    Setting("TOP_SEARCH_S", "SUDOKU_TOP_SEARCH_S", 60, whole_number),  # 0: no search for fresh top puzzles
    Setting("TOP_UNUSED", "SUDOKU_TOP_UNUSED", 30, whole_number),
    Setting("LIMIT_NEW", "SUDOKU_LIMIT_NEW", "30 per minute"),
    Setting("LIMIT_PUZZLE_LINK", "SUDOKU_LIMIT_PUZZLE_LINK", "30 per minute"),
    Setting("LIMIT_HINT", "SUDOKU_LIMIT_HINT", "120 per minute"),
    Setting("LIMIT_LOGIN", "SUDOKU_LIMIT_LOGIN", "10 per minute"),
    Setting("LIMIT_LOGIN_ADDRESS", "SUDOKU_LIMIT_LOGIN_ADDRESS", "100 per hour"),
    Setting("LIMIT_LOGIN_ACCOUNT", "SUDOKU_LIMIT_LOGIN_ACCOUNT", "30 per hour"),
    Setting("RATELIMIT_ENABLED", "RATELIMIT_ENABLED", True, switch),
    Setting("RATELIMIT_STORAGE_URI", "RATELIMIT_STORAGE_URI", "database"),
    Setting("SESSION_COOKIE_SECURE", "SUDOKU_SECURE_COOKIES", False, switch),
    Setting("BASE_URL", "SUDOKU_BASE_URL", None),
    Setting("ALLOWED_HOSTS", "SUDOKU_ALLOWED_HOSTS", [], names),
    Setting("PROXY_HOPS", "SUDOKU_PROXY_HOPS", 0, whole_number),
    Setting("REDIS_URL", "SUDOKU_REDIS_URL", None),
    Setting("JOBS_NAME", "SUDOKU_JOBS_NAME", "sudoku"),
    Setting("TIME_FIT_EVERY_S", "SUDOKU_TIME_FIT_EVERY_S", 3600, whole_number),  # 0: only ``flask calibration fit``
)
BY_KEY = {setting.key: setting for setting in SETTINGS}

# Not read from the environment.
FIXED: dict[str, Any] = {
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    # While a shared store of rate-limit counts cannot be reached, each worker counts in its own memory.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    # The largest request body read (an uploaded puzzle file is at most 200 kB); a larger one gets 413 unread.
    "MAX_CONTENT_LENGTH": 1_000_000,
    # A game can stay open for hours; the CSRF token lives as long as the browser session instead.
    "WTF_CSRF_TIME_LIMIT": None,
    # How researchers' passwords are hashed (werkzeug's method string); the test apps pass a fast one.
    "PASSWORD_HASH_METHOD": "scrypt",
}


def read(setting: Setting, environ: Mapping[str, str] = os.environ) -> Any:
    """The setting from its environment variable, else its default (a ValueError names a bad value)."""
    value = environ.get(setting.env, "")
    return setting.parse(setting.env, value) if value.strip() else setting.default


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """Every setting from the environment, else its default."""
    return {setting.key: read(setting, environ) for setting in SETTINGS}


def load(instance_path: str, overrides: Mapping[str, Any], environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """The app's settings: the fixed ones, the environment's or defaults, then ``overrides``; the database and the
    secret key default to the instance folder (``secret_key`` is made only when nothing else gives one)."""
    settings = {**FIXED, **from_environment(environ), **overrides}
    if settings["DATABASE_URL"] is None:
        settings["DATABASE_URL"] = f"sqlite:///{Path(instance_path) / 'sudoku.db'}"
    if settings["SECRET_KEY"] is None:
        settings["SECRET_KEY"] = persistent_secret_key(Path(instance_path))
    return settings


def persistent_secret_key(instance: Path) -> str:
    """The key stored in ``instance/secret_key``, created once so restarts and workers agree."""
    path = instance / "secret_key"
    if not path.exists():
        draft = instance / f"secret_key.{secrets.token_hex(8)}"
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # atomic: the first worker to get here wins, the others read its key
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()
