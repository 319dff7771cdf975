"""The app's job queue: work too long for a request (preparing a study, computing a validation report) runs here.

The queue is Huey's. By default it lives in a SQLite file in the instance folder (``instance/jobs.db``), so one
machine needs no extra server; with ``REDIS_URL`` (environment ``SUDOKU_REDIS_URL``) it lives on that Redis server,
which web processes and consumers on several hosts share. ``JOBS_NAME`` (``SUDOKU_JOBS_NAME``) names the queue, so
several apps can share one Redis server.

Requests only enqueue a job (a few milliseconds) and record what they asked for in the database; a consumer runs the
jobs: ``flask --app webapp jobs run``, a process of its own beside the web server. Rating and generation are
CPU-bound Python and numba code: in a thread of a web worker they would hold the GIL that the worker's requests
need, and every player's request would wait behind them; in their own process (lowered in priority, like the bank's
refill processes) they take a core of their own and the web workers keep answering. ``make run`` starts the consumer
from gunicorn's master (``webapp.gunicorn_conf``) and stops it with the server; a deployment that runs plain
``gunicorn 'webapp:create_app()'`` runs ``flask --app webapp jobs run`` beside it (another service unit), one or more,
on any host that reaches the queue and the database.

A job is given the app it runs for and ids only: what it works on is read from the database, so a job that runs
twice, or after the thing it was for changed, finds that out and does nothing wrong.

Each consumer keeps a heartbeat in the database (``job_consumers``: renewed every HEARTBEAT_S, gone at a clean
stop), so a page can tell that no consumer is alive, a job lost with a consumer that died can be queued again
(``webapp.study.preparing``), and ``flask jobs status`` shows the queue's depth, its oldest waiting job and the live
consumers. A consumer on this host whose process is gone counts as dead at once; elsewhere after LIVE_S without a
heartbeat.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from huey import Huey, RedisHuey, SqliteHuey, crontab
from huey.consumer import Consumer
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from . import db
from .models import JobConsumer, Lease, utcnow

EXTENSION = "sudoku_jobs"
NICENESS = 10  # the consumer's work comes after the web workers' for the CPU
POLL_MAX_S = 1.0  # an idle consumer looks at a SQLite queue at least this often (Redis wakes it at once)
SHUTDOWN_S = 5.0  # on Ctrl-C a consumer lets a running job finish for this long, then stops
HEARTBEAT_S = 5.0  # a consumer renews its row this often
LIVE_S = 30.0  # a consumer of another host not seen for this long is gone
jobs_cli = AppGroup("jobs", help="The background job queue.")
log = logging.getLogger(__name__)

Job = Callable[[Flask, int], None]
SCHEDULE_MINUTES = 5  # a scheduled job is offered to the consumers this often (the job decides whether it is due)


class Queue:
    """An app's Huey instance, opened on first use (an app that never queues a job creates no queue file), and
    its tasks by name."""

    def __init__(
        self,
        app: Flask,
        jobs: Mapping[str, Job],
        scheduled: Mapping[str, Job] | None = None,
        at_start: Sequence[str] = (),
    ) -> None:
        self.app = app
        self.jobs = dict(jobs)
        self.scheduled = dict(scheduled or {})
        self.at_start = tuple(at_start)
        self.lock = threading.Lock()
        self.opened: tuple[Huey, dict[str, Any]] | None = None

    def open(self) -> tuple[Huey, dict[str, Any]]:
        """The Huey instance and its tasks, opened and registered the first time (scheduled jobs also as periodic
        tasks, which a consumer started with ``periodic`` offers every SCHEDULE_MINUTES, on item 0)."""
        with self.lock:
            if self.opened is None:
                huey = open_queue(self.app)
                tasks = {name: huey.task(name=name)(_bound(self.app, job)) for name, job in self.jobs.items()}
                every = crontab(minute=f"*/{SCHEDULE_MINUTES}")
                for name, job in self.scheduled.items():
                    huey.periodic_task(every, name=f"{name}-schedule")(_scheduled(self.app, job))
                self.opened = huey, tasks
            return self.opened


def init_app(
    app: Flask, jobs: Mapping[str, Job], scheduled: Mapping[str, Job] | None = None, at_start: Sequence[str] = ()
) -> None:
    """Give the app its queue, whose tasks are the jobs (the ``scheduled`` ones also offered on a schedule, those
    named in ``at_start`` also queued when a consumer process starts), and add the ``flask jobs`` commands."""
    app.extensions[EXTENSION] = Queue(app, {**jobs, **(scheduled or {})}, scheduled, at_start)
    app.cli.add_command(jobs_cli)
    app.add_template_global(consumers_alive)


def open_queue(app: Flask) -> Huey:
    """A Redis queue when ``REDIS_URL`` is set, else a SQLite queue in the instance folder (no results kept)."""
    name = str(app.config["JOBS_NAME"])
    url = app.config.get("REDIS_URL")
    if url:
        return RedisHuey(name, url=url, results=False)
    return SqliteHuey(name, filename=str(Path(app.instance_path) / "jobs.db"), results=False)


def _bound(app: Flask, job: Job) -> Callable[..., None]:
    """The task body: the job run for this app on one id (``queued_at``, when it was queued, is for the status)."""

    def run(item: int, queued_at: float | None = None) -> None:
        """Run the job on the item."""
        job(app, item)

    return run


def _scheduled(app: Flask, job: Job) -> Callable[[], None]:
    """The body of a periodic task: the job on item 0 (a scheduled run)."""

    def run() -> None:
        """Run the job as scheduled."""
        job(app, 0)

    return run


def queue_of(app: Flask) -> Huey:
    """The app's Huey instance."""
    queue: Queue = app.extensions[EXTENSION]
    return queue.open()[0]


def enqueue(app: Flask, name: str, item: int) -> bool:
    """Put a job on the queue; False (logged) when the queue cannot be reached, so the caller can retry later."""
    queue: Queue = app.extensions[EXTENSION]
    try:
        queue.open()[1][name](item, queued_at=time.time())
    except Exception:  # a queue server that is down must not turn a researcher's request into a 500
        log.exception("could not queue the job %s(%s)", name, item)
        return False
    return True


class StoppingConsumer(Consumer):  # type: ignore[misc]
    """A consumer whose stop signal, once received, is not taken again: a terminal's Ctrl-C reaches it and then the
    server that started it asks it to stop too (``webapp.gunicorn_conf``); huey would die of the second SIGINT (its
    default handler) instead of finishing its shutdown (at most ``shutdown_s``) and exiting cleanly."""

    def _handle_signal(self, signum: int, frame: Any) -> None:
        """Stop as huey does, and ignore the same signal from now on."""
        super()._handle_signal(signum, frame)
        signal.signal(signum, signal.SIG_IGN)


def consumer(app: Flask, workers: int = 1, shutdown_s: float | None = SHUTDOWN_S) -> Consumer:
    """A consumer of the app's queue with thread workers (the consumer is a process of its own)."""
    return StoppingConsumer(
        queue_of(app),
        workers=workers,
        worker_type="thread",
        periodic=True,
        max_delay=POLL_MAX_S,
        shutdown_timeout=shutdown_s,
    )


def take_lease(session: Session, name: str, holder: str, seconds: float) -> bool:
    """Take the named lease for ``seconds`` unless another holder has it (one conditional UPDATE, or the INSERT of
    its row the first time: atomic on SQLite and PostgreSQL); True when this call took it (committed)."""
    now = utcnow()
    until = now + timedelta(seconds=seconds)
    taken = session.execute(
        update(Lease).where(Lease.name == name, Lease.until <= now).values(holder=holder, until=until)
    )
    session.commit()
    if getattr(taken, "rowcount", 0) == 1:
        return True
    if session.get(Lease, name) is not None:
        return False
    session.add(Lease(name=name, holder=holder, until=until))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True


def release_lease(session: Session, name: str, holder: str) -> None:
    """Give the lease back, if this holder still has it (committed)."""
    session.rollback()
    session.execute(update(Lease).where(Lease.name == name, Lease.holder == holder).values(until=utcnow()))
    session.commit()


# The consumers' heartbeat ------------------------------------------------------------------------------------------

_this_consumer: str | None = None  # the id of the consumer this process runs, if it runs one


def consumer_id() -> str | None:
    """The heartbeat id of the consumer running in this process (None in a web worker)."""
    return _this_consumer


def process_alive(pid: int) -> bool:
    """Whether a process of this host is still running."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def is_live(row: JobConsumer, now: datetime, host: str) -> bool:
    """Whether a consumer's row shows a live consumer: seen within LIVE_S, and its process running if on this host."""
    if now - row.seen_at > timedelta(seconds=LIVE_S):
        return False
    return row.host != host or process_alive(row.pid)


def consumers_of(session: Session) -> list[tuple[JobConsumer, bool]]:
    """Every consumer row with whether it is live, the latest seen first."""
    now, host = utcnow(), socket.gethostname()
    rows = session.scalars(select(JobConsumer).order_by(JobConsumer.seen_at.desc()))
    return [(row, is_live(row, now, host)) for row in rows]


def live_consumer_ids(session: Session) -> set[str]:
    """The ids of the live consumers."""
    return {row.id for row, live in consumers_of(session) if live}


def consumers_alive() -> bool:
    """Whether any consumer of the app's database is alive (for pages that wait on a job)."""
    return bool(live_consumer_ids(db.get_session()))


class Heartbeat:
    """A consumer's row in ``job_consumers``, renewed from a daemon thread every HEARTBEAT_S until ``stop``."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.id = f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"[:96]
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name="consumer-heartbeat", daemon=True)

    def start(self) -> None:
        """Record the consumer and start renewing its row; this process's consumer from now on."""
        global _this_consumer
        queue = str(self.app.config["JOBS_NAME"])
        with db.sessions_of(self.app)() as session:
            session.add(JobConsumer(id=self.id, host=socket.gethostname(), pid=os.getpid(), queue=queue))
            session.commit()
        _this_consumer = self.id
        self.thread.start()

    def _beat(self) -> None:
        """Renew the row until stopped (a database fault is logged and tried again at the next beat)."""
        while not self.stopped.wait(HEARTBEAT_S):
            try:
                with db.sessions_of(self.app)() as session:
                    session.execute(update(JobConsumer).where(JobConsumer.id == self.id).values(seen_at=utcnow()))
                    session.commit()
            except SQLAlchemyError as error:
                log.warning("the job consumer's heartbeat could not be written: %s", error)

    def stop(self) -> None:
        """Stop renewing and remove the row (the consumer is not alive any more)."""
        global _this_consumer
        self.stopped.set()
        _this_consumer = None
        try:
            with db.sessions_of(self.app)() as session:
                session.execute(delete(JobConsumer).where(JobConsumer.id == self.id))
                session.commit()
        except SQLAlchemyError as error:
            log.warning("the job consumer's row could not be removed: %s", error)


class ThreadConsumer(Consumer):  # type: ignore[misc]
    """A consumer run from threads of a process that keeps its own signal handlers (tests, embedding)."""

    def _set_signal_handlers(self) -> None:
        """Leave the process's signal handlers alone."""


@contextmanager
def running_in_threads(app: Flask, workers: int = 1) -> Iterator[Consumer]:
    """Run a consumer of the app's queue in threads of this process until the block ends (then its jobs finish)."""
    started = ThreadConsumer(
        queue_of(app),
        workers=workers,
        worker_type="thread",
        periodic=False,
        max_delay=0.2,
        check_worker_health=False,
    )
    heartbeat = Heartbeat(app)
    heartbeat.start()
    started.start()
    try:
        yield started
    finally:
        started.stop(graceful=True)
        heartbeat.stop()


@jobs_cli.command("run")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Jobs run at once (threads; run more processes to use more cores).",
)
def run_command(workers: int) -> None:
    """Run the job consumer until Ctrl-C or SIGTERM (studies being prepared, validation reports)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    where = "Redis" if app.config.get("REDIS_URL") else str(Path(app.instance_path) / "jobs.db")
    click.echo(f"Job consumer on queue {app.config['JOBS_NAME']!r} ({where}) with {workers} worker(s).")
    started = consumer(app, workers)
    heartbeat = Heartbeat(app)
    heartbeat.start()
    queue: Queue = app.extensions[EXTENSION]
    for name in queue.at_start:
        enqueue(app, name, 0)
    try:
        started.run()
    finally:
        heartbeat.stop()


@dataclass(frozen=True)
class Waiting:
    """What waits on the queue: how many jobs, and when the oldest was queued (None: unknown or none)."""

    count: int
    scheduled: int
    oldest: float | None


def waiting(app: Flask) -> Waiting:
    """The queue's waiting jobs (read from the queue itself)."""
    huey = queue_of(app)
    times = [t for t in (task.kwargs.get("queued_at") for task in huey.pending()) if isinstance(t, int | float)]
    return Waiting(huey.pending_count(), huey.scheduled_count(), min(times) if times else None)


def ago(seconds: float) -> str:
    """A duration in words for the status ("12 s", "3 min", "2 h")."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@jobs_cli.command("status")
def status_command() -> None:
    """Show the queue's depth, its oldest waiting job and the consumers (exit code 1 when jobs wait and no consumer
    is alive)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    found = waiting(app)
    where = "Redis" if app.config.get("REDIS_URL") else str(Path(app.instance_path) / "jobs.db")
    oldest = "" if found.oldest is None else f", the oldest queued {ago(time.time() - found.oldest)} ago"
    click.echo(f"Queue {app.config['JOBS_NAME']!r} ({where}): {found.count} job(s) waiting{oldest}.")
    with db.sessions_of(app)() as session:
        rows = consumers_of(session)
    now = utcnow()
    live = [row for row, alive in rows if alive]
    click.echo(f"Consumers alive: {len(live)}.")
    for row, alive in rows:
        state = "alive" if alive else "gone"
        seen = ago((now - row.seen_at).total_seconds())
        click.echo(
            f"  {row.id} ({state}): queue {row.queue!r}, started {row.started_at:%Y-%m-%d %H:%M:%S} UTC, "
            f"last heartbeat {seen} ago"
        )
    if found.count and not live:
        click.echo("No consumer is alive: start one with `flask --app webapp jobs run` (make run starts one).")
        sys.exit(1)
