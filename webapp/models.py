"""SQLAlchemy 2 models: a game (one player on one puzzle), its events (DESIGN 7.2) and the puzzle bank."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

EMPTY_ENTRIES = "." * 81

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def new_game_id() -> str:
    """An unguessable game id: the game's only access key."""
    return secrets.token_urlsafe(16)


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Store aware times converted to UTC."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass an aware time in UTC")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Read times as aware UTC."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base with constraint names that migrations can refer to."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Game(Base):
    """One play of one puzzle: the givens, the solution and the player's current digits.

    Slider games also keep the D the slider asked for (``target_d``), the D of the puzzle served (``d``) and the
    bank row it came from (``bank_id``, None when it was generated on demand).
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_game_id)
    puzzle: Mapped[str] = mapped_column(String(81))
    solution: Mapped[str] = mapped_column(String(81))
    entries: Mapped[str] = mapped_column(String(81), default=EMPTY_ENTRIES)
    slider: Mapped[float | None] = mapped_column(Double)
    target_d: Mapped[float | None] = mapped_column(Double)
    d: Mapped[float | None] = mapped_column(Double)
    bank_id: Mapped[int | None]
    seed: Mapped[int | None] = mapped_column(BigInteger)
    source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    first_shown_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    solve_seconds: Mapped[float | None] = mapped_column(Double)
    # Play state (webapp.playstate): marks as lists of 81 masks (None: none yet), the undo history, pauses.
    corner: Mapped[list[int] | None] = mapped_column(JSON)
    centre: Mapped[list[int] | None] = mapped_column(JSON)
    history: Mapped[list[list[list[int]]] | None] = mapped_column(JSON)
    undo_depth: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    paused_seconds: Mapped[float] = mapped_column(Double, default=0.0, server_default="0")
    pause_reason: Mapped[str | None] = mapped_column(String(16))
    # The latest page view of the game: a page that was replaced (reload, another tab) cannot pause it.
    view: Mapped[str | None] = mapped_column(String(32))
    check_mistakes: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    mistakes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    hint: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    techniques: Mapped[dict[str, int] | None] = mapped_column(JSON)

    # Every write checks the version it read, so concurrent requests on one game never overwrite each other.
    __mapper_args__ = {"version_id_col": version}

    events: Mapped[list[Event]] = relationship(
        back_populates="game", order_by="Event.id", cascade="all, delete-orphan", passive_deletes=True
    )


class Event(Base):
    """One thing that happened in a game, stamped with server time and the client's clock offset."""

    __tablename__ = "events"
    __table_args__ = (Index("uq_events_game_id_key", "game_id", "key", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    server_time: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    client_ms: Mapped[float | None] = mapped_column(Double)
    kind: Mapped[str] = mapped_column(String(16))
    cell: Mapped[int | None]
    digit: Mapped[int | None]
    mode: Mapped[str] = mapped_column(String(16), default="digit", server_default="digit")
    rung: Mapped[int | None]
    # The client's idempotency key: a retried request finds its event and changes nothing.
    key: Mapped[str | None] = mapped_column(String(64))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="events")


class BankPuzzle(Base):
    """A rated puzzle of the bank, stored in its canonical form; served once, as a random isomorph."""

    __tablename__ = "bank"
    __table_args__ = (Index("ix_bank_used_d", "used", "d"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(81), unique=True)
    solution: Mapped[str] = mapped_column(String(81))
    d: Mapped[float] = mapped_column(Double, index=True)
    label: Mapped[str] = mapped_column(String(16))
    predicted_minutes: Mapped[float] = mapped_column(Double)
    se_like: Mapped[float] = mapped_column(Double)
    hardest_technique: Mapped[str] = mapped_column(String(64))
    rating: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    used: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    served_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
