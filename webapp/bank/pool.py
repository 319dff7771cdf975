"""The puzzle bank: rated puzzles indexed by D, served as random isomorphs, each unused row to one player only.

A row is stored in canonical form, so the unique ``puzzle`` column keeps isomorphic duplicates out as well, and
inserting a puzzle that is already there does nothing (several processes may fill the bank at once).

Drawing reads the unused rows nearest the target, then claims one with ``UPDATE ... WHERE id = ? AND NOT used``:
a claim that changes no row lost a race with another request or worker, and the next candidate is tried. A row is
therefore never drawn twice, whatever the number of gunicorn workers on the database; the claim commits together
with the new game. When no unused row is within the generation tolerance, a row served before is served again, as
a fresh isomorph (the one served longest ago, never one the requesting player has played), while the refill makes
new ones; only when the player has played every near row is a puzzle generated on demand.

After a draw, if the bank runs low near that target, a daemon thread of the serving process (one per process) has
a child process generate more, so requests never wait for it and never share the CPU-bound work's GIL.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypedDict

from flask import Flask
from sqlalchemy import Select, case, false, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.dml import ReturningInsert

from sudoku_engine import difficulty
from sudoku_engine.generate import DEFAULT_TOLERANCE, MAX_GIVENS, Targeted, generate
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical, canonical_isomorph, random_isomorph
from sudoku_engine.rating import NotUnique, Rating, rate
from sudoku_engine.solver import solve

from .. import db
from ..models import BankPuzzle, Game, utcnow

EXTENSION = "sudoku_pool"
CANDIDATES = 8  # unused rows read per claim round, nearest first
CLAIM_TRIES = 40  # rows a request tries to claim, each lost to another request, before it generates instead
MAX_PENDING = 16  # refill targets a process queues at most

log = logging.getLogger(__name__)
SEED_SOURCE = "seed"  # the ``source`` of shipped seed rows (``webapp.bank.seed``)
_RENEWING = threading.Lock()  # one refiller per process even when request threads race for it


class BankRecord(TypedDict):
    """The columns of a new bank row."""

    puzzle: str
    solution: str
    d: float
    label: str
    predicted_minutes: float
    se_like: float
    hardest_technique: str
    rating: dict[str, Any]
    source: str


@dataclass(frozen=True)
class Served:
    """A puzzle handed to a new game: givens, solution, its D, the seed that made it, the bank row it came from."""

    puzzle: str
    solution: str
    d: float
    seed: int
    bank_id: int | None
    effort: float | None = None  # the solving effort (``difficulty.effort``), when known
    prior_minutes: float | None = None  # the time model's prior (``time_model``), when the record has one


def init_app(app: Flask) -> None:
    """Give the app its refiller of the bank."""
    app.extensions[EXTENSION] = Refiller(app)


def record_of(puzzle: Sequence[int], solution: Sequence[int], rating: Rating, source: str) -> BankRecord:
    """The bank row of a rated puzzle: puzzle and solution in canonical form, and the rating's figures."""
    transform = canonical_isomorph(puzzle)
    form = format_values(transform.apply(puzzle))
    details = rating.as_dict()
    details["puzzle"] = form
    return BankRecord(
        puzzle=form,
        solution=format_values(transform.apply(solution)),
        d=rating.d,
        label=rating.label,
        predicted_minutes=rating.predicted_minutes,
        se_like=rating.se_like,
        hardest_technique=rating.hardest_technique,
        rating=details,
        source=source,
    )


def generated_record(made: Targeted) -> BankRecord:
    """The bank row of a generated puzzle."""
    rating = made.rating if made.rating is not None else rate(made.puzzle.values, measures=difficulty.MEASURES)
    return record_of(made.puzzle.values, made.solution.values, rating, "generated")


def rated_record(values: Sequence[int]) -> BankRecord:
    """The bank row of an outside puzzle, rated here; NotUnique when it has no solution or several."""
    rating = rate(values, measures=difficulty.MEASURES)
    solution = solve(values)
    assert solution is not None  # rate checked there is exactly one
    return record_of(values, solution.values, rating, "import")


INSERTS: dict[str, Callable[[type[BankPuzzle]], sqlite.Insert | postgresql.Insert]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}  # the INSERTs that know ON CONFLICT


def _insert_new(session: Session, row: dict[str, Any]) -> ReturningInsert[tuple[int]]:
    """An INSERT of one row that does nothing when the puzzle is already in the bank (SQLite or PostgreSQL); it
    returns the new row's id, so the rows returned count the rows added on both."""
    dialect = session.get_bind().dialect.name
    if dialect in INSERTS:
        insert = INSERTS[dialect](BankPuzzle).values(row).on_conflict_do_nothing(index_elements=["puzzle"])
        return insert.returning(BankPuzzle.id)
    raise NotImplementedError(f"the puzzle bank runs on SQLite or PostgreSQL, not {dialect}")


def add(session: Session, records: Iterable[BankRecord], *, used: bool = False) -> int:
    """Insert records (served already when ``used``), skipping puzzles the bank holds; the number inserted."""
    added = 0
    for record in records:
        row: dict[str, Any] = {**record, "created_at": utcnow(), "used": used, "served_at": utcnow() if used else None}
        added += db.changed_rows(session, _insert_new(session, row))
    session.commit()
    return added


@dataclass(frozen=True)
class Candidate:
    """An unused bank row a draw may claim: its id, D and predicted minutes."""

    id: int
    d: float
    minutes: float


def refresh(session: Session, records: Iterable[BankRecord]) -> int:
    """Give rows the bank holds for these records (by puzzle) the records' figures where they differ (a shipped seed
    set rated again); how many rows changed (committed)."""
    changed = 0
    for record in records:
        row = session.scalar(select(BankPuzzle).where(BankPuzzle.puzzle == record["puzzle"]))
        if row is None:
            continue
        figures: dict[str, Any] = {
            "d": record["d"],
            "label": record["label"],
            "predicted_minutes": record["predicted_minutes"],
            "se_like": record["se_like"],
            "hardest_technique": record["hardest_technique"],
            "rating": record["rating"],
        }
        if any(getattr(row, key) != value for key, value in figures.items()):
            for key, value in figures.items():
                setattr(row, key, value)
            changed += 1
    session.commit()
    return changed


def nearest_unused(session: Session, target: float, limit: int = CANDIDATES) -> list[Candidate]:
    """Up to ``limit`` unused rows, nearest the target first (two range scans of the (used, D) index)."""
    unused = BankPuzzle.used == false()
    columns = select(BankPuzzle.id, BankPuzzle.d, BankPuzzle.predicted_minutes).where(unused)
    above = columns.where(BankPuzzle.d >= target).order_by(BankPuzzle.d).limit(limit)
    below = columns.where(BankPuzzle.d < target).order_by(BankPuzzle.d.desc()).limit(limit)
    rows = [
        Candidate(row.id, row.d, row.predicted_minutes) for query in (above, below) for row in session.execute(query)
    ]
    return sorted(rows, key=lambda row: abs(row.d - target))[:limit]


def preferred(candidates: Sequence[Candidate], minutes: float | None) -> list[Candidate]:
    """The candidates in the order a draw tries them: nearest in predicted minutes to ``minutes`` (what the slider
    promised) when given, else as they come (nearest in D)."""
    if minutes is None or minutes <= 0:
        return list(candidates)
    return sorted(candidates, key=lambda row: abs(math.log(max(row.minutes, 1e-3) / minutes)))


def fresh_rows(
    session: Session, target: float, within: float, minutes: float | None = None, passed: Collection[int] = ()
) -> list[Candidate]:
    """The unused rows within ``within`` of the target a puzzle for it is taken from, best first: of the nearest
    few in D, nearest ``minutes`` in predicted minutes when given, else nearest in D; none of ``passed``."""
    near = nearest_unused(session, target, CANDIDATES + len(passed))
    return preferred([row for row in near if abs(row.d - target) <= within and row.id not in passed], minutes)


def played_rows(player: str | None) -> Select[int | None]:
    """The bank rows a player's games came from (none without a player)."""
    return select(Game.bank_id).where(Game.player == player, Game.bank_id.is_not(None))


def again(
    session: Session, target: float, within: float, player: str | None = None, passed: Collection[int] = ()
) -> BankPuzzle | None:
    """The row to serve again, as a fresh isomorph, when no unused row is near: the row within ``within`` of the
    target served longest ago (a shipped seed row counts even unused), else, for a target past every shipped seed
    row (which generation cannot reach), the hardest of them; never one ``player`` has played or one of
    ``passed``. None when there is no such row."""
    rows = select(BankPuzzle).where(BankPuzzle.id.not_in(passed))
    if player is not None:
        rows = rows.where(BankPuzzle.id.not_in(played_rows(player)))
    near = rows.where(
        or_(BankPuzzle.used, BankPuzzle.source == SEED_SOURCE),
        BankPuzzle.d >= target - within,
        BankPuzzle.d <= target + within,
    ).order_by(BankPuzzle.served_at.is_not(None), BankPuzzle.served_at, func.abs(BankPuzzle.d - target))
    row = session.scalars(near.limit(1)).first()
    if row is not None:
        return row
    hardest = session.scalar(select(func.max(BankPuzzle.d)).where(BankPuzzle.source == SEED_SOURCE))
    if hardest is None or target <= hardest:
        return None
    seeds = rows.where(BankPuzzle.source == SEED_SOURCE).order_by(BankPuzzle.d.desc())
    return session.scalars(seeds.limit(1)).first()


@dataclass(frozen=True)
class Choice:
    """A bank row chosen for a target D, read and not yet taken: ``fresh`` when it is unused (taking it claims it),
    else one served again as another isomorph (taking it renews its serving time)."""

    row: BankPuzzle
    fresh: bool


def choose(
    session: Session,
    target: float,
    within: float,
    *,
    minutes: float | None = None,
    player: str | None = None,
    passed: Collection[int] = (),
    recycle: bool = True,
) -> Choice | None:
    """The bank's puzzle for a target D: the first of ``fresh_rows``, else (when ``recycle``) the row served
    ``again``; None when there is none."""
    fresh = fresh_rows(session, target, within, minutes, passed)
    if fresh:
        row = session.get(BankPuzzle, fresh[0].id)
        assert row is not None  # just read; rows are never deleted
        return Choice(row, True)
    row = again(session, target, within, player, passed) if recycle else None
    return None if row is None else Choice(row, False)


def claim(session: Session, bank_id: int) -> bool:
    """Mark a row used unless some request already has; True when this call did (the caller commits)."""
    statement = (
        update(BankPuzzle)
        .where(BankPuzzle.id == bank_id, BankPuzzle.used == false())
        .values(used=True, served_at=utcnow())
    )
    return db.changed_rows(session, statement) == 1


def renew(session: Session, bank_ids: Collection[int]) -> None:
    """Mark rows served now (rows served again: no claim, another isomorph of them may be served later)."""
    if bank_ids:
        session.execute(update(BankPuzzle).where(BankPuzzle.id.in_(bank_ids)).values(used=True, served_at=utcnow()))


def take(session: Session, choice: Choice) -> bool:
    """Claim a fresh choice (False when another request claimed it first) or renew one served again (the caller
    commits)."""
    if choice.fresh:
        return claim(session, choice.row.id)
    renew(session, [choice.row.id])
    return True


def taken(session: Session, pick: Callable[[set[int]], Choice | None]) -> BankPuzzle | None:
    """The first choice ``pick`` makes (passing over the rows it is given: those other requests claimed first) that
    this request takes; None when none is left.

    The claim is part of the session's transaction, so it is committed with the game that serves the row (one
    commit per request) and undone with it. On SQLite the first claim statement also takes the write lock, so
    the rows read after it cannot be claimed by anyone else before the commit. Without a row, the transaction
    is rolled back, so that no lock is held while a puzzle is generated.
    """
    lost: set[int] = set()
    for _ in range(CLAIM_TRIES):
        choice = pick(lost)
        if choice is None:
            break
        if take(session, choice):
            return choice.row
        lost.add(choice.row.id)
    session.rollback()
    return None


def draw(
    session: Session, target: float, within: float = DEFAULT_TOLERANCE, minutes: float | None = None
) -> BankPuzzle | None:
    """Claim the best unused row within ``within`` of the target (``fresh_rows``); None when there is none."""
    return taken(session, lambda lost: choose(session, target, within, minutes=minutes, passed=lost, recycle=False))


def as_isomorph(row: BankPuzzle, seed: int) -> Served:
    """A bank row served as the isomorph the seed picks (the same transform on puzzle and solution)."""
    transform = random_isomorph(random.Random(seed))
    puzzle = format_values(transform.apply(parse_values(row.puzzle)))
    solution = format_values(transform.apply(parse_values(row.solution)))
    return Served(
        puzzle=puzzle,
        solution=solution,
        d=row.d,
        seed=seed,
        bank_id=row.id,
        effort=effort_of(row.rating),
        prior_minutes=prior_of(row.rating, row.predicted_minutes),
    )


def as_made(made: Targeted, record: BankRecord) -> Served:
    """A generated puzzle served as it was made (its bank row, banked as served, is not linked: nothing to claim)."""
    return Served(
        puzzle=str(made.puzzle),
        solution=str(made.solution),
        d=record["d"],
        seed=made.seed,
        bank_id=None,
        effort=effort_of(record["rating"]),
        prior_minutes=prior_of(record["rating"], record["predicted_minutes"]),
    )


def miss_within(record: BankRecord, target: float) -> float:
    """How near an unused row must be to beat a generated miss: at least as near the target as the miss."""
    return abs(record["d"] - target)


def new_seed() -> int:
    """A fresh seed that fits a signed 64-bit column."""
    return random.SystemRandom().randrange(2**63)


def serve(
    session: Session,
    target: float,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    budget_s: float = 3.0,
    minutes: float | None = None,
    player: str | None = None,
) -> Served:
    """A puzzle for a target D, chosen as ``choose`` does (an unused row claimed, else one served again, never one
    ``player`` has played), else one generated on demand.

    A bank row's claim is left for the caller to commit, with the game it starts.
    """
    row = taken(session, lambda lost: choose(session, target, tolerance, minutes=minutes, player=player, passed=lost))
    if row is not None:
        return as_isomorph(row, new_seed())
    return _serve_generated(session, target, tolerance, budget_s)


def _serve_generated(session: Session, target: float, tolerance: float, budget_s: float) -> Served:
    """Generate within the budget; on a miss, a bank row at least as close is served instead and the miss banked."""
    made = generate(target, tolerance, budget_s=budget_s)
    record = generated_record(made)
    if not made.hit:
        closer = draw(session, target, miss_within(record, target))
        if closer is not None:
            add(session, [record])
            return as_isomorph(closer, new_seed())
    add(session, [record], used=True)  # its rating stays known, e.g. for links to it
    return as_made(made, record)


def unused_near(session: Session, target: float, tolerance: float = DEFAULT_TOLERANCE) -> int:
    """How many unused rows are within tolerance of the target."""
    query = select(func.count()).where(
        BankPuzzle.used == false(), BankPuzzle.d.between(target - tolerance, target + tolerance)
    )
    return session.scalar(query) or 0


def rows_near(session: Session, target: float, tolerance: float = DEFAULT_TOLERANCE) -> int:
    """How many rows, used or not, are within tolerance of the target (what New puzzle can serve there)."""
    query = select(func.count()).where(BankPuzzle.d.between(target - tolerance, target + tolerance))
    return session.scalar(query) or 0


def unused_count(session: Session) -> int:
    """How many rows have not been served."""
    return session.scalar(select(func.count()).where(BankPuzzle.used == false())) or 0


def known_d(session: Session, values: Sequence[int]) -> float | None:
    """D of a puzzle the bank holds in some isomorph, else None."""
    known = known_rating(session, values)
    return None if known is None else known.d


@dataclass(frozen=True)
class Known:
    """What the bank knows of a puzzle's rating: D, effort and prior minutes (None when its record has none)."""

    d: float
    effort: float | None
    prior_minutes: float | None


def known_rating(session: Session, values: Sequence[int]) -> Known | None:
    """D, effort and prior minutes of a puzzle the bank holds in some isomorph, else None."""
    row = session.execute(
        select(BankPuzzle.d, BankPuzzle.rating, BankPuzzle.predicted_minutes).where(
            BankPuzzle.puzzle == format_values(canonical(values))
        )
    ).first()
    return None if row is None else Known(row.d, effort_of(row.rating), prior_of(row.rating, row.predicted_minutes))


def effort_of(rating: dict[str, Any] | None) -> float | None:
    """The effort a stored rating record holds (records made before the time model had none)."""
    effort = (rating or {}).get("effort")
    return float(effort) if isinstance(effort, (int, float)) else None


def prior_of(rating: dict[str, Any] | None, exact: float | None = None) -> float | None:
    """The prior minutes of a stored rating record (``exact``: the same figure unrounded, from a bank row's column),
    when it comes from the time model fitted to people (a record with ``minutes_interval``); None for an older
    record, timed by a former model."""
    record = rating or {}
    minutes = record.get("predicted_minutes") if exact is None else exact
    if "minutes_interval" not in record or not isinstance(minutes, (int, float)):
        return None
    return float(minutes)


@dataclass(frozen=True)
class ZoneCount:
    """Bank rows of one zone: unused, used, and the D range."""

    label: str
    unused: int
    used: int
    d_min: float
    d_max: float

    @property
    def total(self) -> int:
        """Unused plus used."""
        return self.unused + self.used


def zone_counts(session: Session) -> list[ZoneCount]:
    """Counts by zone, Easy to Extreme (zones without rows left out)."""
    used = func.sum(case((BankPuzzle.used, 1), else_=0))
    query = select(BankPuzzle.label, func.count(), used, func.min(BankPuzzle.d), func.max(BankPuzzle.d))
    order = [name for name, _ in difficulty.ZONES] + ["Extreme"]
    rows = [
        ZoneCount(label, total - (n_used or 0), n_used or 0, low, high)
        for label, total, n_used, low, high in session.execute(query.group_by(BankPuzzle.label))
    ]
    return sorted(rows, key=lambda row: order.index(row.label) if row.label in order else len(order))


@dataclass(frozen=True)
class TopUp:
    """One background refill: the database, the target D, and how many unused puzzles near it are enough."""

    database_url: str
    target: float
    tolerance: float
    upto: int
    budget_s: float

    @classmethod
    def of(cls, app: Flask, target: float) -> TopUp:
        """The refill of a target with the app's settings."""
        config = app.config
        return cls(
            database_url=config["DATABASE_URL"],
            target=target,
            tolerance=float(config["POOL_TOLERANCE"]),
            upto=int(config["POOL_REFILL_UPTO"]),
            budget_s=float(config["POOL_REFILL_BUDGET_S"]),
        )

    @property
    def time_limit_s(self) -> float:
        """Seconds after which the child process is stopped (start-up plus every attempt's budget and rating)."""
        return 60.0 + 2 * self.upto * (self.budget_s + 10.0)


def top_up(sessions: sessionmaker[Session], job: TopUp) -> int:
    """Generate puzzles for the target until enough unused ones are near it (at most 2 * upto tries); how many added."""
    added = 0
    for _ in range(2 * job.upto):
        with sessions() as session:
            if unused_near(session, job.target, job.tolerance) >= job.upto:
                break
        made = generate(job.target, job.tolerance, budget_s=job.budget_s)
        with sessions() as session:
            added += add(session, [generated_record(made)])
    return added


def top_up_alone(job: TopUp) -> int:
    """A refill on an engine of its own (the body of a refill process); how many puzzles it added."""
    database = db.open_database(job.database_url)
    try:
        return top_up(database.sessions, job)
    finally:
        database.engine.dispose()


def top_up_in_child(job: TopUp) -> int | None:
    """Run a refill in a fresh ``python -m webapp.bank.refill`` process and wait for it; its exit code (None: stopped).

    Generation is CPU-bound: in a thread of the serving process it would hold the GIL and slow every request. The
    child shares nothing with this process (no inherited locks or connections) and reads the job on stdin, so a
    database password never shows in the process list.
    """
    try:
        finished = subprocess.run(
            [sys.executable, "-m", "webapp.bank.refill"],
            input=json.dumps(asdict(job)),
            stdout=subprocess.DEVNULL,
            text=True,
            timeout=job.time_limit_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    return finished.returncode


class Refiller:
    """Tops the bank up near requested targets, one refill process at a time, from a daemon thread of this process.

    The thread only starts the refill processes and waits for them, so requests never wait for it.
    """

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.pending: list[float] = []
        self.thread: threading.Thread | None = None

    def request(self, target: float) -> bool:
        """Queue a target (unless one near it is queued) and start the thread if it is idle; True when queued."""
        tolerance = float(self.app.config["POOL_TOLERANCE"])
        with self.lock:
            if len(self.pending) >= MAX_PENDING or any(abs(t - target) <= tolerance / 2 for t in self.pending):
                return False
            self.pending.append(target)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="bank-refill", daemon=True)
                self.thread.start()
            return True

    def _run(self) -> None:
        """Work through the queued targets, then stop."""
        while True:
            with self.lock:
                if not self.pending:
                    self.thread = None
                    return
                target = self.pending[0]
            try:
                code = top_up_in_child(TopUp.of(self.app, target))
                if code != 0:
                    log.warning("refilling the puzzle bank near D %.2f ended with exit code %s", target, code)
            except Exception:  # the thread must go on with the other targets
                log.exception("refilling the puzzle bank near D %.2f failed", target)
            finally:
                with self.lock:
                    self.pending.remove(target)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the queue is done; True when it is (tests and shutdown)."""
        with self.lock:
            thread = self.thread
        if thread is not None:
            thread.join(timeout)
        return self.idle

    @property
    def idle(self) -> bool:
        """True when no refill is queued or running."""
        with self.lock:
            return self.thread is None


def refiller(app: Flask) -> Refiller:
    """This process's refiller (a new one after a fork: threads do not survive it)."""
    with _RENEWING:
        current: Refiller = app.extensions[EXTENSION]
        if current.pid != os.getpid():
            current = app.extensions[EXTENSION] = Refiller(current.app)  # the app itself, never a proxy of it
        return current


def refill_if_low(app: Flask, session: Session, target: float) -> bool:
    """Queue a background refill when few unused rows are left near the target; True when queued."""
    if not app.config["POOL_REFILL"]:
        return False
    if unused_near(session, target, float(app.config["POOL_TOLERANCE"])) >= int(app.config["POOL_REFILL_BELOW"]):
        return False
    return refiller(app).request(target)


def try_rate(values: Sequence[int]) -> BankRecord | str:
    """The bank row of an outside puzzle, or why it cannot be banked (runs in worker processes too)."""
    givens = sum(1 for v in values if v)
    if givens > MAX_GIVENS:
        return f"{givens} givens: the bank keeps puzzles of at most {MAX_GIVENS}"
    try:
        return rated_record(values)
    except NotUnique as error:
        return str(error)
