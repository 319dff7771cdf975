"""SQLAlchemy 2 models: games and their events, the puzzle bank, researchers, their log-in sessions and the studies'
teams, studies with their puzzles, participants and answers, the time model's versions and what they found per
puzzle, reports, leases on shared work, the live job consumers, rate-limit counts and the audit trail."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
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


def system_clock() -> datetime:
    """The system's current time in UTC."""
    return datetime.now(UTC)


clock = system_clock  # every server timestamp comes from here (a simulated study replaces it)


def utcnow() -> datetime:
    """The current time in UTC, from ``clock``."""
    return clock()


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
    # The puzzle's solving effort (``difficulty.effort``), and the time model's prior for it when the game started:
    # the minutes an app's players take (``time_model``; None for games from before it, or of an unrated puzzle).
    effort: Mapped[float | None] = mapped_column(Double)
    prior_minutes: Mapped[float | None] = mapped_column(Double)
    bank_id: Mapped[int | None]
    seed: Mapped[int | None] = mapped_column(BigInteger)
    source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    first_shown_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    solve_seconds: Mapped[float | None] = mapped_column(Double)
    # Play state (webapp.games.playstate): marks as lists of 81 masks (None: none yet), the undo history, pauses.
    corner: Mapped[list[int] | None] = mapped_column(JSON)
    centre: Mapped[list[int] | None] = mapped_column(JSON)
    history: Mapped[list[list[list[int]]] | None] = mapped_column(JSON)
    undo_depth: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Colour marks: a list of 81 colour numbers (0 none, else 1..9 of playstate.COLOURS), None when none yet.
    colour: Mapped[list[int] | None] = mapped_column(JSON)
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
    # Study games: the participant and the study puzzle (links kept by webapp.study.studies: SQLite cannot add foreign
    # keys to an existing table), and the board settings of the study (None: everything on).
    participant_id: Mapped[int | None] = mapped_column(Integer, index=True)
    study_puzzle_id: Mapped[int | None] = mapped_column(Integer)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The anonymous player whose cookie started the game (webapp.play.player; None: a study game, a game from before
    # players were recorded, or one whose player asked to forget it), and the UTC date of a daily puzzle's game.
    player: Mapped[str | None] = mapped_column(String(32), index=True)
    daily: Mapped[date | None] = mapped_column(Date, index=True)
    # When a study's participant gave up on this puzzle (webapp.study.rights): the game takes no more changes.
    gave_up_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

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


class User(Base):
    """A researcher account (``flask user create``, or an administrator's invitation); the password is kept only as
    a werkzeug hash. An invited account has a random password nobody knows and the SHA-256 of its invitation's token
    until the invitation is taken up (``invite_until`` is when it lapses); a disabled account cannot log in and its
    sessions end at their next request."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    invite_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    invite_until: Mapped[datetime | None] = mapped_column(UTCDateTime)

    # Flask-Login's user protocol.
    is_authenticated = True
    is_anonymous = False

    @property
    def is_active(self) -> bool:
        """Whether the account may log in: not disabled."""
        return self.disabled_at is None

    def get_id(self) -> str:
        """The id Flask-Login keeps in the session."""
        return str(self.id)


def new_public_id() -> str:
    """An unguessable id for a link (study entry, participant)."""
    return secrets.token_urlsafe(12)


class StudyMember(Base):
    """A collaborator on a study besides its creator: an ``owner`` may change the study and its team, a ``viewer``
    sees its pages, report and exports."""

    __tablename__ = "study_members"

    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(16))
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Study(Base):
    """A solve-time study: puzzles, their order scheme, the board's settings and the texts participants read."""

    __tablename__ = "studies"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    consent_text: Mapped[str] = mapped_column(Text, default="")
    instructions: Mapped[str] = mapped_column(Text, default="")
    order_scheme: Mapped[str] = mapped_column(String(16), default="fixed")
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Preparation by a background job (``webapp.study.preparing``): "preparing" until the puzzles are rated and their
    # bank rows claimed, then "ready" (participants may enter) or "failed" (``problem`` says why). ``pending`` holds
    # what the job works from (the checked puzzles, or the targets), ``prepared`` how many puzzles it has rated, and
    # ``heartbeat_at`` when it last showed progress (a job lost with a stopped consumer is queued again).
    state: Mapped[str] = mapped_column(String(16), default="ready", server_default="ready")
    pending: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    prepared: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    problem: Mapped[str | None] = mapped_column(Text)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The job consumer running the preparation (``JobConsumer.id``): once it is gone the job is queued again.
    prepared_by: Mapped[str | None] = mapped_column(String(96))
    # The questionnaire (``webapp.study.questions``): the researcher's text, the questions of each block and the
    # per-puzzle items asked; None when the study asks nothing besides consent.
    questionnaire: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The lifecycle (``webapp.study.lifecycle``): "draft" (editable, no participants), "open", "paused" (no new
    # participants), "closed" (no one goes on), "archived" (read-only, hidden from the list); "preview" for an
    # owner's throw-away copy (``preview_of`` names the study it copies). Caps on participants who count (None: none).
    phase: Mapped[str] = mapped_column(String(16), default="open", server_default="open")
    preview_of: Mapped[int | None] = mapped_column(Integer, index=True)
    max_participants: Mapped[int | None] = mapped_column(Integer)
    max_per_row: Mapped[int | None] = mapped_column(Integer)
    # How many participants' data were deleted (``webapp.study.rights``): on their withdrawal, or at a researcher's
    # request; nothing else about them is kept.
    deleted_on_withdrawal: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deleted_on_request: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    puzzles: Mapped[list[StudyPuzzle]] = relationship(
        back_populates="study", order_by="StudyPuzzle.position", cascade="all, delete-orphan"
    )


class StudyPuzzle(Base):
    """One puzzle of a study at its place in the study's list, with its full rating record."""

    __tablename__ = "study_puzzles"
    __table_args__ = (Index("uq_study_puzzles_study_position", "study_id", "position", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    puzzle: Mapped[str] = mapped_column(String(81))
    solution: Mapped[str] = mapped_column(String(81))
    d: Mapped[float | None] = mapped_column(Double)
    rating: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    study: Mapped[Study] = relationship(back_populates="puzzles")


class Participant(Base):
    """One person taking a study: labels as keyed hashes only, the assigned order, and where they are."""

    __tablename__ = "participants"
    __table_args__ = (
        Index("uq_participants_study_arrival", "study_id", "arrival", unique=True),
        Index("ix_participants_study_label", "study_id", "label_hash"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    arrival: Mapped[int] = mapped_column(Integer)
    label_hash: Mapped[str | None] = mapped_column(String(64))
    labels: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    order: Mapped[list[int]] = mapped_column(JSON)
    latin_row: Mapped[int | None] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16), default="consent")
    current: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    consented_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # When the participant withdrew keeping their data (state "withdrawn"); one who asked for deletion has no row.
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Answer(Base):
    """One question a participant was shown and their answer (``webapp.study.questions``): ``block`` is "before"
    (before the first puzzle), "puzzle" (after the puzzle at ``order_index`` of their order) or "after" (after the
    last); ``order_index`` is 0 for the before and after blocks. ``value`` is None when an optional question was left
    blank; ``passed`` says whether an attention check got its expected answer (None for other questions)."""

    __tablename__ = "answers"
    __table_args__ = (
        Index("uq_answers_participant_place", "participant_id", "block", "order_index", "question", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id", ondelete="CASCADE"), index=True)
    block: Mapped[str] = mapped_column(String(16))
    order_index: Mapped[int] = mapped_column(Integer, default=0)
    question: Mapped[str] = mapped_column(String(64))
    value: Mapped[str | None] = mapped_column(Text)
    passed: Mapped[bool | None] = mapped_column(Boolean)
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Calibration(Base):
    """A version of the time model: a study's refit or a fit over every game (``webapp.games.learning``).

    ``model`` says what it is: "prior" (a study's refit: ln(minutes) = intercept + slope ln(prior minutes)),
    "players" (the fit over players' games: a scale per zone in ``zones`` and each played puzzle's own time in
    ``puzzle_times``). Rows of earlier models ("call_count", "effort": on scales the app no longer computes) are kept
    as history and never put in force. ``active`` marks the one in force; ``state`` is "running" while a fit runs,
    then "done" or "failed" (``problem`` says why; the one in force stays). ``figures`` holds what the research page
    shows of it.
    """

    __tablename__ = "calibrations"

    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int | None] = mapped_column(ForeignKey("studies.id", ondelete="SET NULL"))
    model: Mapped[str] = mapped_column(String(16), default="prior", server_default="call_count")
    intercept: Mapped[float] = mapped_column(Double)
    slope: Mapped[float] = mapped_column(Double)
    puzzles: Mapped[int] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    state: Mapped[str] = mapped_column(String(16), default="done", server_default="done")
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    players: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    sigma: Mapped[float | None] = mapped_column(Double)
    zones: Mapped[dict[str, float] | None] = mapped_column(JSON)
    figures: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    problem: Mapped[str | None] = mapped_column(Text)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PuzzleTime(Base):
    """What a fit over players' games found for one puzzle (by its canonical form): how many finished it and gave
    up on it, their median active time, and its expected minutes for a typical player (the mean, as the prior)."""

    __tablename__ = "puzzle_times"
    __table_args__ = (Index("uq_puzzle_times_calibration_puzzle", "calibration_id", "puzzle", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    calibration_id: Mapped[int] = mapped_column(ForeignKey("calibrations.id", ondelete="CASCADE"))
    puzzle: Mapped[str] = mapped_column(String(81))
    finishers: Mapped[int] = mapped_column(Integer)
    censored: Mapped[int] = mapped_column(Integer)
    median_seconds: Mapped[float | None] = mapped_column(Double)
    minutes: Mapped[float] = mapped_column(Double)


class Lease(Base):
    """A named piece of work one process holds until ``until`` (a fit of the time model): taken by a conditional
    UPDATE, so two job consumers never run it at once, and free again when its holder dies and the time passes."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    until: Mapped[datetime] = mapped_column(UTCDateTime)


class StudyReport(Base):
    """A study's validation report computed by a background job (``webapp.research.report_cache``) for one state of
    its data.

    ``key`` names that state (the count and latest completion of the study's solved games): a view with the same key
    is served ``body`` (the report as JSON) without computing anything; a new key starts a new computation.
    """

    __tablename__ = "study_reports"
    __table_args__ = (Index("uq_study_reports_study_key", "study_id", "key", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), default="computing")
    body: Mapped[str | None] = mapped_column(Text)
    problem: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class LoginSession(Base):
    """A researcher's log-in, kept on the server: the cookie holds a random token, this row its SHA-256. Logging
    out ends the row, a password change ends the account's other rows, an administrator can end them all; a cookie
    whose row is gone opens nothing."""

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    address: Mapped[str] = mapped_column(String(64), default="")


class JobConsumer(Base):
    """A running job consumer (``flask jobs run``), host and process, with its heartbeat: ``seen_at`` is renewed
    every few seconds while it lives, and the row goes when it stops cleanly."""

    __tablename__ = "job_consumers"

    id: Mapped[str] = mapped_column(String(96), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    queue: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RateCount(Base):
    """One rate limit's count in its current window (``webapp.ratestore``): the limit is then one per server,
    whatever the number of web workers, with no other service."""

    __tablename__ = "rate_counts"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Double, index=True)  # seconds since the epoch


class AuditEvent(Base):
    """One researcher action on participants' data (``webapp.research.audit``): who, when, what and from where.
    Append-only: the database refuses to change or delete a row."""

    __tablename__ = "audit_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    user_id: Mapped[int | None] = mapped_column(Integer)  # no foreign key: the trail outlives an account
    email: Mapped[str] = mapped_column(String(254))
    study_id: Mapped[int | None] = mapped_column(Integer, index=True)  # outlives the study too
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[str] = mapped_column(Text, default="")
    address: Mapped[str] = mapped_column(String(64), default="")
