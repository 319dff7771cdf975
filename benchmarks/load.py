"""Load and fault benchmark: players and study participants on gunicorn, workers killed with SIGKILL mid-run.

For each database asked for (a fresh SQLite file; a fresh database on a PostgreSQL server), the app is migrated, a
researcher and a three-puzzle study are stored, and gunicorn (``--workers``, sync) serves it on 127.0.0.1.
``--clients`` simulated clients (threads of this process, one connection each; a quarter of them study participants
who consent, start and play the study's puzzles in turn, the others players on Sudoku Exchange puzzles) act with a
think time from ``--think`` for ``--seconds``: mostly digit entries (the solution's digit, one in ten a wrong one
cleared again), some pencil marks and a hint every ``--hint-every`` actions. Every action carries an idempotency key,
as the board script sends. ``--kills`` times, spread over the run, a gunicorn worker is killed with SIGKILL (the one
that has used the most CPU; gunicorn starts a new one); a request it held fails on
the client, which sends it again with the same key on a new connection, as a browser's retry would.

At the end the events table is read: every action the server acknowledged (HTTP 200) must be stored exactly once.
Printed per database: p50/p95 of the app's own time (Server-Timing) and of the round trip for entries and hints, the
count of acknowledged actions, of those missing or stored twice (goal 0 and 0), of 5xx answers, and of retries.
Targets: entry p95 under 50 ms, hint p95 under 100 ms (app time).

Run: ``.venv/bin/python benchmarks/load.py [--database sqlite postgresql] [--clients 32] [--seconds 30]``. The
PostgreSQL server is ``--postgres-url`` (a role that may create databases), else ``SUDOKU_TEST_POSTGRES_URL``, else
one started for the run by ``scripts/services.sh`` (which installs Debian's ``postgresql`` when missing).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import signal
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from corpus_stats import p95, read_tsv
from serving import free_port, start_gunicorn
from sqlalchemy import create_engine, func, make_url, select, text
from werkzeug.security import generate_password_hash

from sudoku_engine.solver import solve
from webapp import create_app, db
from webapp.models import Event, User
from webapp.study import studies

ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
VIEW = re.compile(r'data-view="([^"]+)"')
GIVEN = re.compile(r'data-cell="r(\d)c(\d)" data-digit="(\d)"[^>]*aria-readonly="true"')
SECRET = "load-benchmark"
RETRIES = 8


@dataclass
class Tally:
    """What the clients saw, shared by their threads."""

    timings: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    acknowledged: list[str] = field(default_factory=list)
    server_errors: int = 0
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client:
    """One simulated browser on one connection, with a cookie jar and the page's CSRF token."""

    def __init__(self, index: int, port: int, rng: random.Random, tally: Tally) -> None:
        self.index = index
        self.port = port
        self.rng = rng
        self.tally = tally
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.sent = 0
        self.game = ""
        self.puzzle = ""
        self.solution = ""

    def key(self) -> str:
        """A fresh idempotency key, unique across clients."""
        self.sent += 1
        return f"c{self.index}-{self.sent}"

    def request(self, kind: str, method: str, path: str, body: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Send one request, again on a new connection when the server dropped it; status, body and Location."""
        for attempt in range(RETRIES):
            try:
                return self._send(kind, method, path, body)
            except (ConnectionError, http.client.HTTPException, TimeoutError):
                with self.tally.lock:
                    self.tally.retries += 1
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                time.sleep(0.2 * (attempt + 1))
        raise RuntimeError(f"{method} {path} failed {RETRIES} times")

    def _send(self, kind: str, method: str, path: str, body: dict[str, str] | None) -> tuple[int, str, str]:
        """One attempt of a request; timings recorded for 200 answers."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.token})
            if kind in ("entry", "mark", "hint"):
                headers["HX-Request"] = "true"
        started = time.perf_counter()
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        page = response.read().decode()
        trip = (time.perf_counter() - started) * 1000
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        if response.status >= 500:
            with self.tally.lock:
                self.tally.server_errors += 1
        elif response.status == 200:
            timing = response.getheader("Server-Timing") or "app;dur=nan"
            with self.tally.lock:
                self.tally.timings[kind].append((float(timing.split("dur=")[1]), trip))
        match = CSRF.search(page)
        if match:
            self.token = match.group(1)
        return response.status, page, urllib.parse.urlparse(response.getheader("Location") or "").path

    def follow(self, path: str) -> str:
        """GET a page, following redirects; the final path."""
        for _ in range(6):
            status, _page, location = self.request("page", "GET", path)
            if status not in (301, 302, 303):
                return path
            path = location
        raise RuntimeError(f"too many redirects from {path}")

    def through(self, path: str) -> str:
        """Open a link as a browser with scripts does (a puzzle or entry link): its page, the post the page sends,
        then the pages that leads to; the final path."""
        self.follow(path)
        _status, _page, location = self.request("page", "POST", path, {})
        return self.follow(location)

    def show(self, path: str) -> str:
        """The game page at ``path`` and the board script's report that it shows the game; the page."""
        _status, page, _ = self.request("page", "GET", path)
        view = VIEW.search(page)
        self.request("page", "POST", f"{path}/shown", {"view": view.group(1) if view else ""})
        return page

    def play(self, path: str, puzzle: str) -> None:
        """Open a game on ``puzzle`` through its link ``path`` and show its page."""
        self.game = self.through(path)
        self.show(self.game)
        self.puzzle = puzzle
        solution = solve(puzzle)
        assert solution is not None
        self.solution = str(solution)

    def action(self, kind: str, path: str, form: dict[str, str]) -> int:
        """A keyed board action; its key is kept when the server acknowledged it."""
        key = self.key()
        status, _page, _ = self.request(kind, "POST", path, {**form, "key": key, "client_ms": "0"})
        if status == 200:
            with self.tally.lock:
                self.tally.acknowledged.append(key)
        return status

    def act(self, count: int, hint_every: int) -> int:
        """One action on the open game: a hint, a mark, a wrong digit and its clearing, or the right digit."""
        cell = self.rng.choice([c for c, ch in enumerate(self.puzzle) if ch == "."])
        path = f"{self.game}/cell/r{cell // 9 + 1}c{cell % 9 + 1}"
        roll = self.rng.random()
        if count % hint_every == hint_every - 1:
            return self.action("hint", f"{self.game}/hint", {})
        if roll < 0.15:
            return self.action("mark", path, {"digit": "5", "mode": self.rng.choice(["corner", "centre"])})
        if roll < 0.25:
            status = self.action("entry", path, {"digit": str(int(self.solution[cell]) % 9 + 1)})
            return status if status != 200 else self.action("entry", path, {"digit": "0"})
        return self.action("entry", path, {"digit": self.solution[cell]})


def run_player(
    client: Client, puzzles: list[str], deadline: float, think: tuple[float, float], hint_every: int
) -> None:
    """Play puzzles in turn until the deadline; a new game when one is solved."""
    count = 0
    while time.perf_counter() < deadline:
        puzzle = puzzles[count % len(puzzles)]
        client.play(f"/p/{puzzle}", puzzle)
        while time.perf_counter() < deadline:
            time.sleep(client.rng.uniform(*think))
            count += 1
            if client.act(count, hint_every) == 409:  # solved: the game takes no more actions
                break


def run_participant(
    client: Client, study: str, puzzles: dict[str, str], deadline: float, think: tuple[float, float], hint_every: int
) -> None:
    """Enter the study, consent, start, and play its puzzles in turn until the deadline or the end."""
    client.through(f"/s/{study}?PROLIFIC_PID={uuid.uuid4().hex}")
    client.request("page", "POST", f"/s/{study}/consent", {"answer": "agree"})
    client.request("page", "POST", f"/s/{study}/start", {})
    count = 0
    while time.perf_counter() < deadline:
        path = client.follow(f"/s/{study}/go")
        if not path.startswith("/g/"):
            return  # the study is done
        page = client.show(path)
        puzzle = givens_of(page)
        client.game, client.puzzle, client.solution = path, puzzle, puzzles[puzzle]
        while time.perf_counter() < deadline:
            time.sleep(client.rng.uniform(*think))
            count += 1
            if client.act(count, hint_every) == 409:
                client.request("page", "POST", f"/s/{study}/next", {})
                break


def givens_of(page: str) -> str:
    """The puzzle of a game page, read from its given cells."""
    cells = ["."] * 81
    for row, col, digit in GIVEN.findall(page):
        cells[(int(row) - 1) * 9 + int(col) - 1] = digit
    return "".join(cells)


def worker_pids(master: int) -> list[int]:
    """The gunicorn master's worker processes."""
    found = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True, check=False)
    return [int(pid) for pid in found.stdout.split()]


def cpu_ticks(pid: int) -> int:
    """The CPU time a process has used so far, in clock ticks (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def start_server(url: str, folder: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    """gunicorn on ``url``; returns once the server answers."""
    env = {
        "DATABASE_URL": url,
        "SECRET_KEY": SECRET,
        "SUDOKU_HTMX": "vendor",
        "RATELIMIT_ENABLED": "false",
        "SUDOKU_POOL_REFILL": "0",
    }
    return start_gunicorn(env, port, workers, cwd=folder)


def prepare(url: str, folder: Path, study_puzzles: list[str]) -> str:
    """Migrate the database and store a researcher with a fixed-order study; the study's public id."""
    app = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": SECRET, "INSTANCE_PATH": str(folder / "instance"), "POOL_REFILL": False}
    )
    db.upgrade(app)
    with db.sessions_of(app)() as session:
        owner = User(email="load@example.org", password_hash=generate_password_hash("load-benchmark"))
        session.add(owner)
        session.flush()
        entries = [studies.PuzzleEntry(p, str(solve(p)), None, None) for p in study_puzzles]
        study = studies.create_study(session, owner, name="Load", puzzles=entries)
        public_id = study.public_id
    db.dispose(app)
    return public_id


def stored_once(url: str, keys: list[str]) -> tuple[int, int]:
    """How many of the acknowledged keys have no event row, and how many have more than one."""
    engine = create_engine(url)
    counts: dict[str, int] = {}
    with engine.connect() as connection:
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            rows = connection.execute(
                select(Event.key, func.count()).where(Event.key.in_(chunk)).group_by(Event.key)
            ).all()
            counts.update({key: count for key, count in rows if key is not None})
    engine.dispose()
    missing = sum(1 for key in keys if key not in counts)
    return missing, sum(1 for count in counts.values() if count > 1)


@contextmanager
def postgres_database(server_url: str | None) -> Iterator[str]:
    """A fresh database on the PostgreSQL server (one started for the run when none is given), dropped after."""
    services = None
    if not server_url:
        services = Path(tempfile.mkdtemp(prefix="sudoku-load-services-"))
        subprocess.run(["bash", str(ROOT / "scripts" / "services.sh"), "start", str(services)], check=True)
        values = dict(line.split("=", 1) for line in (services / "env").read_text().split())
        server_url = values["SUDOKU_TEST_POSTGRES_URL"]
    name = f"sudoku_load_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
        if services is not None:
            subprocess.run(["bash", str(ROOT / "scripts" / "services.sh"), "stop", str(services)], check=False)


def run_clients(
    port: int,
    server: subprocess.Popen[bytes],
    study: str,
    args: argparse.Namespace,
    puzzles: list[str],
    study_puzzles: dict[str, str],
) -> tuple[Tally, int]:
    """The clients side by side, workers killed along the way; the tally and how many workers were killed."""
    tally = Tally()
    deadline = time.perf_counter() + args.seconds
    errors: list[BaseException] = []
    participants = args.clients // 4

    def run(index: int) -> None:
        client = Client(index, port, random.Random(args.seed * 1000 + index), tally)
        try:
            if index < participants:
                run_participant(client, study, study_puzzles, deadline, tuple(args.think), args.hint_every)
            else:
                run_player(
                    client, puzzles[index :: args.clients] or puzzles, deadline, tuple(args.think), args.hint_every
                )
        except BaseException as error:  # reported after the run
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    killed = 0
    for _kill in range(args.kills):
        time.sleep(args.seconds / (args.kills + 1))
        victims = worker_pids(server.pid)
        if victims:
            os.kill(max(victims, key=cpu_ticks), signal.SIGKILL)
            killed += 1
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"{len(errors)} clients failed, first: {errors[0]!r}")
    return tally, killed


def report(name: str, tally: Tally, killed: int, missing: int, duplicated: int) -> None:
    """Print the figures of one database's run."""
    print(f"\n{name}: {killed} workers killed with SIGKILL during the run; {tally.retries} requests sent again")
    print(f"{'request':<8} {'n':>6} {'app p50':>8} {'app p95':>8} {'trip p50':>9} {'trip p95':>9}  (ms)")
    for kind in ("entry", "hint", "mark", "page"):
        rows = tally.timings.get(kind, [])
        if rows:
            app = [a for a, _t in rows]
            trip = [t for _a, t in rows]
            print(
                f"{kind:<8} {len(rows):>6} {statistics.median(app):>8.1f} {p95(app):>8.1f} "
                f"{statistics.median(trip):>9.1f} {p95(trip):>9.1f}"
            )
    print(
        f"acknowledged actions {len(tally.acknowledged)}: missing {missing}, stored twice {duplicated} "
        f"(goal 0 and 0); 5xx answers {tally.server_errors}"
    )


def run_database(
    name: str, url: str, args: argparse.Namespace, puzzles: list[str], study_puzzles: dict[str, str]
) -> None:
    """One database's run: prepare, serve, load with a fault, check every acknowledged action."""
    with tempfile.TemporaryDirectory() as folder:
        url = url or f"sqlite:///{Path(folder) / 'load.db'}"
        study = prepare(url, Path(folder), list(study_puzzles))
        port = free_port()
        server = start_server(url, Path(folder), port, args.workers)
        try:
            tally, killed = run_clients(port, server, study, args, puzzles, study_puzzles)
        finally:
            server.terminate()
            server.wait(timeout=30)
        missing, duplicated = stored_once(url, tally.acknowledged)
        report(name, tally, killed, missing, duplicated)


def main() -> None:
    """Parse options and run the benchmark on each database asked for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    parser.add_argument("--postgres-url", default=os.environ.get("SUDOKU_TEST_POSTGRES_URL"))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5), metavar=("MIN", "MAX"))
    parser.add_argument("--hint-every", type=int, default=8)
    parser.add_argument("--kills", type=int, default=6, help="workers killed with SIGKILL, spread over the run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = read_tsv("sudokuexchange_graded_even.tsv")
    rng = random.Random(args.seed)
    chosen = [r["puzzle"].replace("0", ".") for r in rng.sample(rows, args.clients * 2 + 3)]
    study_puzzles = {p: str(solve(p)) for p in chosen[:3]}
    print(
        f"{args.clients} clients ({args.clients // 4} participants) for {args.seconds:g} s, think "
        f"{args.think[0]:g}-{args.think[1]:g} s, gunicorn {args.workers} sync workers"
    )
    for name in args.database:
        if name == "sqlite":
            run_database("SQLite", "", args, chosen[3:], study_puzzles)
        else:
            with postgres_database(args.postgres_url) as url:
                run_database("PostgreSQL", url, args, chosen[3:], study_puzzles)


if __name__ == "__main__":
    main()
