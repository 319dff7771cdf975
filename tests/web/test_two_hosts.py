"""Two app hosts on one PostgreSQL database and one Redis store: two gunicorn processes on different loopback ports.

What must hold across hosts: a rate limit counts the requests of both, a bank row is served once, Latin-square rows
balance, an action sent to both hosts with the same idempotency key is stored once, and studies made on either host
are prepared once each by the one job consumer (``flask jobs run``, beside the second host) on the shared queue.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from helpers.jobs import wait_for as job_wait
from helpers.services import free_port, fresh_postgres_database, redis_url
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import sessionmaker
from werkzeug.security import generate_password_hash

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider
from webapp import create_app, db
from webapp.bank import pool
from webapp.models import BankPuzzle, Event, Game, Participant, Study, StudyPuzzle, User
from webapp.study import studies

ROOT = Path(__file__).resolve().parents[2]
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
SECRET = "two-hosts-secret"
LINK_LIMIT = 4
# A Redis database no other test uses, one per test process: if the module's tests are shared out between the two
# processes, each has its own hosts and its own counts.
REDIS_DB = 7 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


@pytest.fixture(scope="module")
def shared_database() -> Iterator[str]:
    """A fresh, migrated database on the test PostgreSQL server, dropped after the module."""
    with fresh_postgres_database("sudoku_hosts") as url:
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET, "POOL_REFILL": False})
        db.upgrade(app)
        db.dispose(app)
        yield url


@pytest.fixture(scope="module")
def hosts(shared_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[int]]:
    """Two gunicorn processes (two sync workers each) and one job consumer on one database and one Redis; the
    gunicorn ports."""
    store = urllib.parse.urlsplit(redis_url())._replace(path=f"/{REDIS_DB}").geturl()
    redis.Redis.from_url(store).flushdb()  # this module's own Redis database: no counts left from an earlier run
    bin_dir = Path(sys.executable).parent
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "DATABASE_URL": shared_database,
        "SECRET_KEY": SECRET,
        "SUDOKU_HTMX": "vendor",
        "SUDOKU_POOL_REFILL": "0",
        "RATELIMIT_STORAGE_URI": store,
        "SUDOKU_REDIS_URL": store,
        "SUDOKU_LIMIT_PUZZLE_LINK": f"{LINK_LIMIT} per minute",
        "SUDOKU_LIMIT_NEW": "100 per minute",
    }
    servers = []
    ports = [free_port(), free_port()]
    for number, port in enumerate(ports):
        folder = tmp_path_factory.mktemp(f"host{number}")
        command = [
            str(bin_dir / "gunicorn"),
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--chdir",
            str(ROOT),
            "webapp:create_app()",
        ]
        servers.append(subprocess.Popen(command, env={**env, "HOME": str(folder)}, cwd=folder))
    consumer = [sys.executable, "-m", "flask", "--app", "webapp", "jobs", "run"]
    servers.append(subprocess.Popen(consumer, env={**env, "HOME": str(folder)}, cwd=ROOT, stdout=subprocess.DEVNULL))
    try:
        for port in ports:
            wait_for(port)
        yield ports
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)


def wait_for(port: int) -> None:
    """Return once the host answers its start page (bounded)."""
    for _ in range(600):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"the host on port {port} did not start")


@dataclass
class Browser:
    """A client with a cookie jar that can talk to either host; the hosts share the secret key."""

    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""

    def send(self, port: int, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """One request to the host on ``port``; status, body and the Location's path."""
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.token})
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        page = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        match = CSRF.search(page)
        if match:
            self.token = match.group(1)
        connection.close()
        return response.status, page, urllib.parse.urlparse(response.getheader("Location") or "").path

    def open_link(self, port: int, path: str) -> str:
        """Open a puzzle or entry link as a browser with scripts does: its page, then the post it sends; the
        Location of the post's answer."""
        self.send(port, "GET", path)
        status, _page, location = self.send(port, "POST", path, {})
        assert status == 303, status
        return location


def at_once(count: int, work: Callable[[int], object]) -> list[object]:
    """Run ``work(i)`` for i < count in threads released together; the results in order."""
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(index: int) -> None:
        barrier.wait()
        results[index] = work(index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def puzzle_link_statuses(ports: list[int], puzzle: str, count: int) -> list[int]:
    """Post a puzzle link ``count`` times from one address, alternating hosts; the statuses in order."""
    browser = Browser()
    browser.send(ports[0], "GET", f"/p/{puzzle}")
    return [browser.send(ports[i % 2], "POST", f"/p/{puzzle}", {})[0] for i in range(count)]


def test_a_rate_limit_counts_the_requests_of_both_hosts(hosts: list[int]) -> None:
    puzzle = str(generate_puzzle(seed=11, givens=36).puzzle)
    statuses = puzzle_link_statuses(hosts, puzzle, 2 * LINK_LIMIT)
    assert statuses[:LINK_LIMIT] == [303] * LINK_LIMIT
    assert statuses[LINK_LIMIT:] == [429] * LINK_LIMIT


def test_a_bank_row_is_served_once_across_hosts(hosts: list[int], shared_database: str) -> None:
    target = target_for_slider(40)
    made = [generate_puzzle(seed=100 + i, givens=38) for i in range(6)]
    records = [
        pool.record_of(m.puzzle.values, m.solution.values, rate(m.puzzle, measures=False), "import") for m in made
    ]
    engine = create_engine(shared_database)
    with sessionmaker(engine)() as session:
        assert pool.add(session, [{**r, "d": target + 0.01 * i} for i, r in enumerate(records)]) == len(records)
        ids = set(session.scalars(select(BankPuzzle.id).where(BankPuzzle.puzzle.in_([r["puzzle"] for r in records]))))

    def new_game(index: int) -> str:
        browser = Browser()
        browser.send(hosts[index % 2], "GET", "/")
        status, _page, location = browser.send(hosts[index % 2], "POST", "/new", {"slider": "40"})
        assert status == 303, status
        return location.rsplit("/", 1)[1]

    game_ids = at_once(len(records), new_game)
    with sessionmaker(engine)() as session:
        served = [session.get(Game, game_id) for game_id in game_ids]
        bank_ids = [game.bank_id for game in served if game is not None]
        used = set(session.scalars(select(BankPuzzle.id).where(BankPuzzle.id.in_(ids), BankPuzzle.used)))
    engine.dispose()
    assert len(bank_ids) == len(records) and len(set(bank_ids)) == len(bank_ids)
    assert set(bank_ids) == ids == used


def test_latin_rows_balance_across_hosts(hosts: list[int], shared_database: str) -> None:
    engine = create_engine(shared_database)
    with sessionmaker(engine)() as session:
        owner = User(email=f"{uuid.uuid4().hex[:8]}@example.org", password_hash=generate_password_hash("x" * 12))
        session.add(owner)
        session.flush()
        made = [generate_puzzle(seed=200 + i, givens=36) for i in range(3)]
        entries = [studies.PuzzleEntry(str(m.puzzle), str(m.solution), None, None) for m in made]
        study = studies.create_study(session, owner, name="Hosts", puzzles=entries, order_scheme="latin")
        study_id, public_id = study.id, study.public_id
    rows = len(studies.williams_rows(3))
    for _round in range(3):
        browsers = [Browser() for _ in range(rows)]
        for i, browser in enumerate(browsers):
            browser.send(hosts[i % 2], "GET", f"/s/{public_id}")
        at_once(rows, lambda i, b=browsers: b[i].send(hosts[i % 2], "POST", f"/s/{public_id}", {}))
        with sessionmaker(engine)() as session:
            counts = Counter(session.scalars(select(Participant.latin_row).where(Participant.study_id == study_id)))
        assert len(counts) == rows and len(set(counts.values())) == 1, counts
    engine.dispose()


def test_an_action_sent_to_both_hosts_is_stored_once(hosts: list[int], shared_database: str) -> None:
    browser = Browser()
    browser.send(hosts[0], "GET", "/")
    status, _page, location = browser.send(hosts[0], "POST", "/new", {"slider": "20"})
    assert status == 303, status
    browser.send(hosts[0], "GET", location)
    browser.send(hosts[0], "POST", f"{location}/shown", {})
    engine = create_engine(shared_database)
    with sessionmaker(engine)() as session:
        game = session.get(Game, location.rsplit("/", 1)[1])
        assert game is not None
        puzzle, solution = game.puzzle, game.solution
    empty = [i for i, ch in enumerate(puzzle) if ch == "."][:10]
    for cell in empty:
        form = {"digit": solution[cell], "key": f"k{cell}", "client_ms": "1"}
        path = f"{location}/cell/r{cell // 9 + 1}c{cell % 9 + 1}"
        statuses = at_once(4, lambda i, p=path, f=form: browser.send(hosts[i % 2], "POST", p, f)[0])
        assert statuses == [303] * 4  # a plain form post is answered with the game page's address
    with engine.connect() as connection:
        counts = dict(
            connection.execute(
                select(Event.key, func.count()).where(Event.game_id == location.rsplit("/", 1)[1]).group_by(Event.key)
            ).all()
        )
    engine.dispose()
    assert {f"k{cell}" for cell in empty} <= set(counts)
    assert all(counts[f"k{cell}"] == 1 for cell in empty)


def test_studies_made_on_either_host_are_prepared_once_by_the_shared_queue(
    hosts: list[int], shared_database: str
) -> None:
    engine = create_engine(shared_database)
    email, password = f"{uuid.uuid4().hex[:8]}@example.org", "two hosts, one queue"
    with sessionmaker(engine)() as session:
        session.add(User(email=email, password_hash=generate_password_hash(password)))
        session.commit()
    researcher = Browser()
    researcher.send(hosts[0], "GET", "/research/login")
    assert researcher.send(hosts[0], "POST", "/research/login", {"email": email, "password": password})[0] == 302
    researcher.send(hosts[1], "GET", "/research/studies/new")
    made = [[str(generate_puzzle(seed=300 + 10 * study + i, givens=60).puzzle) for i in range(2)] for study in range(4)]

    def create(index: int) -> int:
        form = {
            "name": f"Host {index % 2}",
            "puzzles": "\n".join(made[index]),
            "order_scheme": "fixed",
            "hint_rungs": "4",
            "abandon_minutes": "60",
        }
        status, page, location = researcher.send(hosts[index % 2], "POST", "/research/studies/new", form)
        assert status == 303, page
        return int(location.rsplit("/", 1)[1])

    study_ids = at_once(len(made), create)

    def states() -> list[str] | None:
        with sessionmaker(engine)() as session:
            found = [session.get(Study, study_id) for study_id in study_ids]
            return None if any(s is None or s.state == "preparing" for s in found) else [s.state for s in found if s]

    assert job_wait(states, "the studies to be prepared") == ["ready"] * len(made)
    with sessionmaker(engine)() as session:
        stored = {
            study_id: list(
                session.scalars(
                    select(StudyPuzzle.puzzle).where(StudyPuzzle.study_id == study_id).order_by(StudyPuzzle.position)
                )
            )
            for study_id in study_ids
        }
    engine.dispose()
    assert [stored[study_id] for study_id in study_ids] == made  # each prepared once, from its own puzzles
