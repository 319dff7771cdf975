"""CPU time of the requests that used to do long work, beside the jobs that now do it.

An app on a fresh SQLite file (its job queue in the instance folder) serves a logged-in researcher through Flask's
test client, in this process: each request's CPU is the thread CPU time of the thread that handles it
(``time.thread_time``), so the job consumer's threads, running at the same time, are not counted in it. Measured:

- creating a study from an uploaded file of the 12 hardest puzzles of the shipped seed set, and from 40 slider
  values (the two cases that passed gunicorn's 30 s timeout when the request rated the puzzles itself);
- the study page and its progress poll while the job prepares the study;
- the validation report page and its status poll for that study once it holds ``--participants`` participants who
  solved every puzzle (solve times drawn from a log-normal model and stored as games);
- the jobs themselves (preparing the study, computing the report), timed in the consumer's thread: what a request
  would have spent before.

Printed: per kind of request the count, median, p95 and maximum CPU ms, and each job's CPU s; the goal is no
request above 1 s of CPU. Run: ``.venv/bin/python benchmarks/request_cpu.py [--participants 30]``.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from corpus_stats import p95
from flask import Flask
from flask.testing import FlaskClient
from play import CSRF
from sqlalchemy import select
from werkzeug.security import generate_password_hash
from werkzeug.test import TestResponse

from webapp import create_app, db, jobs
from webapp.models import Game, Participant, Study, User, utcnow
from webapp.research import report, report_cache
from webapp.study import preparing

ROOT = Path(__file__).resolve().parent.parent
SEED_BANK = ROOT / "webapp" / "bank" / "seed_bank" / "hardest.jsonl"
EMAIL, PASSWORD = "cpu@example.org", "request-cpu-benchmark"
WAIT_S = 1800.0


class Meter:
    """Thread CPU seconds of requests by kind, and of jobs by name."""

    def __init__(self) -> None:
        self.requests: dict[str, list[float]] = defaultdict(list)
        self.jobs: dict[str, list[float]] = defaultdict(list)
        self.lock = threading.Lock()

    def request(self, kind: str, send: Callable[[], TestResponse]) -> TestResponse:
        """Send one request and record its CPU time under ``kind``."""
        start = time.thread_time()
        response = send()
        self.requests[kind].append(time.thread_time() - start)
        if response.status_code >= 400:
            raise SystemExit(f"{kind}: HTTP {response.status_code}")
        return response

    def timed_job(self, name: str, job: Callable[..., Any]) -> Callable[..., Any]:
        """``job`` with its thread CPU time recorded under ``name``."""

        def run(*args: Any) -> Any:
            start = time.thread_time()
            try:
                return job(*args)
            finally:
                with self.lock:
                    self.jobs[name].append(time.thread_time() - start)

        return run


def csrf_of(client: FlaskClient, path: str) -> str:
    """The CSRF token on a page."""
    match = CSRF.search(client.get(path).get_data(as_text=True))
    if match is None:
        raise SystemExit(f"no CSRF token on {path}")
    return match.group(1)


def logged_in(app: Flask) -> FlaskClient:
    """A researcher's client, logged in."""
    with db.sessions_of(app)() as session:
        session.add(User(email=EMAIL, password_hash=generate_password_hash(PASSWORD)))
        session.commit()
    client = app.test_client()
    token = csrf_of(client, "/research/login")
    client.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token})
    return client


def create(meter: Meter, client: FlaskClient, kind: str, **fields: Any) -> int:
    """Send the new-study form; the new study's id."""
    data = {
        "name": kind,
        "order_scheme": "fixed",
        "hint_rungs": "4",
        "abandon_minutes": "60",
        "puzzles": "",
        "csrf_token": csrf_of(client, "/research/studies/new"),
        **fields,
    }
    response = meter.request(kind, lambda: client.post("/research/studies/new", data=data))
    return int(response.headers["Location"].rsplit("/", 1)[1])


def follow_preparation(meter: Meter, client: FlaskClient, app: Flask, study_id: int) -> str:
    """Poll the study page and its progress fragment, as the browser does, until the job ends; the end state."""
    headers = {"X-CSRFToken": csrf_of(client, f"/research/studies/{study_id}"), "HX-Request": "true"}
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        meter.request("study page", lambda: client.get(f"/research/studies/{study_id}"))
        poll = meter.request(
            "preparing poll", lambda: client.post(f"/research/studies/{study_id}/preparing", headers=headers)
        )
        if poll.status_code == 204:
            with db.sessions_of(app)() as session:
                study = session.get(Study, study_id)
                assert study is not None
                return study.state
        time.sleep(1.0)
    raise SystemExit(f"study {study_id} was not prepared in {WAIT_S:.0f} s")


def add_solvers(app: Flask, study_id: int, participants: int, seed: int) -> None:
    """Store participants who solved every puzzle of the study, times from log t = 5 + 0.4 D - theta + e."""
    rng = random.Random(seed)
    with db.sessions_of(app)() as session:
        study = session.get(Study, study_id)
        assert study is not None
        for arrival in range(participants):
            theta = rng.gauss(0.0, 0.4)
            person = Participant(
                study_id=study_id,
                arrival=arrival,
                order=[p.position for p in study.puzzles],
                state="done",
                consented_at=utcnow(),
                finished_at=utcnow(),
            )
            session.add(person)
            session.flush()
            for puzzle in study.puzzles:
                seconds = math.exp(5.0 + 0.4 * (puzzle.d or 5.0) - theta + rng.gauss(0.0, 0.5))
                done = utcnow()
                session.add(
                    Game(
                        puzzle=puzzle.puzzle,
                        solution=puzzle.solution,
                        entries=puzzle.solution,
                        source="study",
                        participant_id=person.id,
                        study_puzzle_id=puzzle.id,
                        first_shown_at=done - timedelta(seconds=seconds),
                        completed_at=done,
                        solve_seconds=seconds,
                    )
                )
        session.commit()


def follow_report(meter: Meter, client: FlaskClient, study_id: int) -> None:
    """Open the report and poll its status, as the page does, until the computed report is shown."""
    headers = {"X-CSRFToken": csrf_of(client, f"/research/studies/{study_id}"), "HX-Request": "true"}
    deadline = time.monotonic() + WAIT_S
    meter.request("report page", lambda: client.get(f"/research/studies/{study_id}/report"))
    while time.monotonic() < deadline:
        status = meter.request(
            "report status poll", lambda: client.post(f"/research/studies/{study_id}/report/status", headers=headers)
        )
        if status.status_code == 204:
            page = meter.request("report page", lambda: client.get(f"/research/studies/{study_id}/report"))
            if "Participants with a solved puzzle" not in page.get_data(as_text=True):
                raise SystemExit("the computed report was not shown")
            return
        time.sleep(1.0)
    raise SystemExit(f"the report of study {study_id} was not computed in {WAIT_S:.0f} s")


def print_table(meter: Meter) -> None:
    """Per kind of request: count, median, p95 and max CPU ms; per job: CPU s."""
    print(f"{'request':<34}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}")
    for kind, seconds in meter.requests.items():
        ms = [s * 1000 for s in seconds]
        print(f"{kind:<34}{len(ms):>5}{statistics.median(ms):>11.1f}{p95(ms):>9.1f}{max(ms):>9.1f}")
    print(f"{'job (consumer thread)':<34}{'n':>5}{'CPU s each':>20}")
    for name, seconds in meter.jobs.items():
        print(f"{name:<34}{len(seconds):>5}{'  ' + ', '.join(f'{s:.2f}' for s in seconds):>20}")
    worst = max(max(seconds) for seconds in meter.requests.values())
    print(f"largest request CPU: {worst * 1000:.1f} ms (goal: under 1000 ms)")


def main() -> None:
    """Run the measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--participants", type=int, default=30)
    parser.add_argument("--sliders", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    meter = Meter()
    hardest = [json.loads(line)["puzzle"] for line in SEED_BANK.read_text().splitlines()[:12]]
    preparing.prepare = meter.timed_job("prepare study", preparing.prepare)  # type: ignore[method-assign]
    report_cache.compute = meter.timed_job("compute report", report_cache.compute)  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{folder}/cpu.db",
                "SECRET_KEY": "request-cpu",
                "INSTANCE_PATH": f"{folder}/instance",
                "POOL_REFILL": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        db.upgrade(app)
        seeded = app.test_cli_runner().invoke(args=["pool", "seed"])  # the shipped seed set, as `make run` adds it
        if seeded.exit_code != 0:
            raise SystemExit(f"pool seed failed: {seeded.output}")
        client = logged_in(app)
        with jobs.running_in_threads(app):
            upload = (io.BytesIO(("\n".join(hardest) + "\n").encode()), "hardest.txt")
            hard = create(meter, client, "create: 12 hardest uploaded", puzzle_file=upload)
            print(f"12 hardest uploaded: {follow_preparation(meter, client, app, hard)}", file=sys.stderr)
            sliders = " ".join(f"{100 * (i + 0.5) / args.sliders:.1f}" for i in range(args.sliders))
            slid = create(meter, client, f"create: {args.sliders} slider values", sliders=sliders)
            print(f"{args.sliders} slider values: {follow_preparation(meter, client, app, slid)}", file=sys.stderr)
            add_solvers(app, hard, args.participants, args.seed)
            follow_report(meter, client, hard)
        with db.sessions_of(app)() as session:
            built = session.scalars(select(Study).where(Study.id == hard)).one()
            inline = time.thread_time()
            report.build(session, built)
            inline = time.thread_time() - inline
        db.dispose(app)
    print_table(meter)
    print(f"the same report built inline in this thread (the old request's work): {inline:.2f} s CPU")


if __name__ == "__main__":
    main()
