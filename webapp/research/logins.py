"""Researchers' log-in sessions kept on the server, so that they can end: Flask's signed cookie alone stays valid
for as long as it is kept.

A log-in makes a random token: the cookie holds it, the ``login_sessions`` table its SHA-256 (with the account,
when it started and was last seen, and the address). A request's researcher is loaded only while that row exists.
Logging out deletes the row (a copy of the cookie saved before opens nothing afterwards); a password change deletes
the account's other rows; an administrator can delete them all (the accounts page, ``flask user set X
--end-sessions``); disabling an account ends them too.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import request, session
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..db import changed_rows
from ..models import LoginSession, User, utcnow

COOKIE_KEY = "login"  # the token's key in Flask's session cookie
SEEN_EVERY = timedelta(minutes=1)  # ``seen_at`` is renewed by a post at most this often (no write per request)


def token_hash(token: str) -> str:
    """The stored form of a log-in token."""
    return hashlib.sha256(token.encode()).hexdigest()


def start(db: Session, user: User) -> None:
    """Record a new log-in of the account and put its token in the cookie (committed)."""
    token = secrets.token_urlsafe(32)
    db.add(LoginSession(token_hash=token_hash(token), user_id=user.id, address=(request.remote_addr or "")[:64]))
    db.commit()
    session[COOKIE_KEY] = token


def own_hash() -> str | None:
    """The stored form of this request's log-in token, if its cookie has one."""
    token = session.get(COOKIE_KEY)
    return token_hash(token) if isinstance(token, str) else None


def is_live(db: Session, user_id: int) -> bool:
    """Whether this request's cookie holds a log-in of the account that has not ended (its last sighting renewed)."""
    hashed = own_hash()
    found = db.get(LoginSession, hashed) if hashed is not None else None
    if found is None or found.user_id != user_id:
        return False
    now = utcnow()
    if request.method == "POST" and now - found.seen_at >= SEEN_EVERY:  # pages (GET) never write
        found.seen_at = now
        db.commit()
    return True


def end_own(db: Session) -> None:
    """End this request's log-in on the server and drop its token from the cookie (committed)."""
    hashed = own_hash()
    if hashed is not None:
        db.execute(delete(LoginSession).where(LoginSession.token_hash == hashed))
        db.commit()
    session.pop(COOKIE_KEY, None)


def end_others(db: Session, user: User) -> int:
    """End every log-in of the account but this request's (committed); how many ended."""
    hashed = own_hash() or ""
    ended = changed_rows(
        db, delete(LoginSession).where(LoginSession.user_id == user.id, LoginSession.token_hash != hashed)
    )
    db.commit()
    return ended


def end_all(db: Session, user: User) -> int:
    """End every log-in of the account (committed); how many ended."""
    ended = changed_rows(db, delete(LoginSession).where(LoginSession.user_id == user.id))
    db.commit()
    return ended


def count(db: Session, user: User) -> int:
    """How many log-ins of the account are live."""
    return int(db.scalar(select(func.count()).where(LoginSession.user_id == user.id)) or 0)
