"""Rate-limit counts in the app's own database (the ``rate_counts`` table), so that a limit is one per server
whatever the number of web workers, with no other service: the default store of ``webapp.limits``
(``RATELIMIT_STORAGE_URI=database``). Several hosts on one database share it too; Redis stays an option.

A storage backend of the ``limits`` library for its fixed-window strategy: a key's row holds its count and when its
window ends. Each hit is one atomic INSERT ... ON CONFLICT DO UPDATE ... RETURNING, the same statement on SQLite and
PostgreSQL, which starts a new window once the old one has ended. Rows of ended windows are deleted now and then.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from limits.storage import Storage
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

SCHEME = "sudoku-database"  # the scheme ``webapp.limits`` registers this store under
SWEEP_EVERY = 200  # ended windows are deleted on one hit in this many (per process)
HIT = text(
    "INSERT INTO rate_counts (key, count, expires_at) VALUES (:key, :amount, :now + :expiry) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_counts.expires_at <= :now THEN :amount ELSE rate_counts.count + :amount END, "
    "expires_at = CASE WHEN rate_counts.expires_at <= :now THEN :now + :expiry ELSE rate_counts.expires_at END "
    "RETURNING count"
)


class DatabaseStorage(Storage):
    """The ``limits`` storage over the app's SQLAlchemy engine (passed as the ``engine`` option)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions)
        self.engine: Engine = options["engine"]
        self.hits = itertools.count(1)

    @property
    def base_exceptions(self) -> type[Exception]:
        """What a database fault raises (the limiter then counts in memory meanwhile)."""
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` hits on the key in its window (a new window of ``expiry`` seconds once the last ended)."""
        now = time.time()
        with self.engine.begin() as connection:
            values = {"key": key, "amount": amount, "now": now, "expiry": expiry}
            counted = int(connection.execute(HIT, values).one()[0])
            if next(self.hits) % SWEEP_EVERY == 0:
                connection.execute(text("DELETE FROM rate_counts WHERE expires_at <= :now"), {"now": now})
        return counted

    def get(self, key: str) -> int:
        """The key's count in its current window (0 when its window has ended)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                text("SELECT count FROM rate_counts WHERE key = :key AND expires_at > :now"),
                {"key": key, "now": time.time()},
            ).scalar()
        return int(found or 0)

    def get_expiry(self, key: str) -> float:
        """When the key's window ends (seconds since the epoch; now when it has none)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                text("SELECT expires_at FROM rate_counts WHERE key = :key"), {"key": key}
            ).scalar()
        return float(found) if found is not None else time.time()

    def check(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        """Delete every count; how many there were."""
        with self.engine.begin() as connection:
            return int(connection.execute(text("DELETE FROM rate_counts")).rowcount)

    def clear(self, key: str) -> None:
        """Delete the key's count."""
        with self.engine.begin() as connection:
            connection.execute(text("DELETE FROM rate_counts WHERE key = :key"), {"key": key})
