"""``make run``'s server: gunicorn with ``webapp.gunicorn_conf`` starts the job consumer, a study made through HTTP
gets ready, and Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops every process; on a first
start it serves before the kernels are compiled and before the bank is full, and both complete in the background."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from helpers.jobs import wait_for
from helpers.services import free_port
from helpers.web import CSRF_META

from sudoku_engine.generate import generate_puzzle

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
PASSWORD = "correct horse battery"


def group_members(group: int) -> list[int]:
    """The processes of a process group."""
    found = subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True, check=False)
    return [int(pid) for pid in found.stdout.split()]


class Browser:
    """A cookie-keeping HTTP client that sends the CSRF token of the page it last read."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def get(self, path: str) -> str:
        """A page's text (redirects followed); its CSRF token is kept."""
        with self.opener.open(self.base + path, timeout=60) as response:
            page: str = response.read().decode()
        match = CSRF_META.search(page)
        self.token = match.group(1) if match else self.token
        return page

    def post(self, path: str, fields: dict[str, str]) -> str:
        """Post a form with the token; the address the redirects ended at."""
        body = urllib.parse.urlencode({**fields, "csrf_token": self.token}).encode()
        with self.opener.open(self.base + path, data=body, timeout=60) as response:
            url: str = response.geturl()
            return url


Served = tuple[str, subprocess.Popen[bytes], dict[str, str]]
BANK_MIN = 110  # ten more than the shipped seed set
COLD_PATIENCE_S = 1200.0  # compiling every kernel takes about 90 s of a quiet core, several times that under load


def start_server(tmp_path: Path, extra: dict[str, str], setup: list[list[str]], workers: int = 1) -> Served:
    """gunicorn as ``make run`` starts it, on a temp database set up by the ``flask`` commands ``setup``, in a
    process group of its own, with this many web workers; its URL, process and environment."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.db'}",
        "SECRET_KEY": "served-test",
        "SUDOKU_HTMX": "vendor",
        "SUDOKU_POOL_REFILL": "0",
        **extra,
    }
    env.pop("SUDOKU_REDIS_URL", None)
    app = f"webapp:create_app({{'INSTANCE_PATH': {str(tmp_path / 'instance')!r}}})"  # its queue: instance/jobs.db
    flask = [sys.executable, "-m", "flask", "--app", app]
    for arguments in [["init-db"], *setup]:
        subprocess.run([*flask, *arguments], env=env, cwd=ROOT, check=True, capture_output=True)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:webapp.gunicorn_conf",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        app,
    ]
    log = (tmp_path / "server.log").open("wb")
    started = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True, stdout=log, stderr=log)
    return f"http://127.0.0.1:{port}", started, env


def kill_group(started: subprocess.Popen[bytes]) -> None:
    """Kill a server's whole process group if it still runs."""
    if started.poll() is None:
        os.killpg(started.pid, signal.SIGKILL)
        started.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    """The server on a database with a researcher account."""
    served = start_server(tmp_path, {}, [["user", "create", "served@example.org", "--password", PASSWORD]])
    try:
        yield served
    finally:
        kill_group(served[1])


@pytest.fixture
def first_start(tmp_path: Path) -> Iterator[Served]:
    """The server as a first ``make run`` starts it: the shipped seed set only, a bank to fill up to BANK_MIN and
    numba's cache empty (a folder of its own)."""
    extra = {
        "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache"),
        "SUDOKU_POOL_REFILL": "1",
        "SUDOKU_BANK_MIN": str(BANK_MIN),
    }
    served = start_server(tmp_path, extra, [["pool", "seed"]])
    try:
        yield served
    finally:
        kill_group(served[1])


def start_page(base: str) -> str | None:
    """The start page once the server answers it."""
    try:
        with urllib.request.urlopen(base + "/", timeout=10) as response:
            return str(response.read().decode()) if response.status == 200 else None
    except OSError:
        return None


def answers(base: str) -> bool | None:
    """True once the server answers its start page."""
    return None if start_page(base) is None else True


def commands_of(group: int) -> list[list[bytes]]:
    """The command lines of a process group's members."""
    found = []
    for pid in group_members(group):
        try:
            found.append(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"))
        except OSError:
            continue  # ended meanwhile
    return found


def gunicorn_workers(group: int) -> set[int]:
    """The gunicorn worker processes of a server (not its master, consumer, compilation or refill processes)."""
    found = set()
    for pid in group_members(group):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if pid != group and b"gunicorn" in command:
            found.add(pid)
    return found


def is_consumer(command: list[bytes]) -> bool:
    """Whether a command line is a job consumer's (not its supervisor's)."""
    return b"jobs" in command and b"run" in command and b"webapp.supervise" not in command


def consumers(group: int) -> int:
    """How many job consumers a server's process group has."""
    return sum(is_consumer(command) for command in commands_of(group))


def compiling(group: int) -> bool:
    """Whether the server's kernel compilation (``sudoku_engine warm``) runs."""
    return any(b"sudoku_engine" in command and b"warm" in command for command in commands_of(group))


def wait_long(check: Callable[[], T | None], what: str) -> T:
    """Poll ``check`` every half second for up to COLD_PATIENCE_S; its first value other than None."""
    deadline = time.monotonic() + COLD_PATIENCE_S
    while (found := check()) is None:
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.5)
    return found


def test_the_server_runs_the_consumer_and_ctrl_c_stops_everything(
    server: tuple[str, subprocess.Popen[bytes], dict[str, str]], tmp_path: Path
) -> None:
    instance = tmp_path / "instance"
    base, started, _env = server
    wait_for(lambda: answers(base), "the server to answer")
    browser = Browser(base)
    browser.get("/research/login")
    assert browser.post("/research/login", {"email": "served@example.org", "password": PASSWORD}).endswith("/research/")
    browser.get("/research/studies/new")
    puzzle = str(generate_puzzle(seed=5100, givens=60).puzzle)
    landed = browser.post(
        "/research/studies/new", {"name": "Served", "puzzles": puzzle, "order_scheme": "fixed", "hint_rungs": "4"}
    )
    study = re.fullmatch(rf"{re.escape(base)}/research/studies/(\d+)", landed)
    assert study is not None, landed
    page = f"/research/studies/{study.group(1)}"
    wait_for(lambda: True if 'id="entry-link"' in browser.get(page) else None, "the study to be ready")
    assert consumers(started.pid) == 1
    os.killpg(started.pid, signal.SIGINT)
    assert started.wait(timeout=60) == 0
    wait_for(lambda: True if not group_members(started.pid) else None, "every process of the server to stop")
    log = (tmp_path / "server.log").read_text()
    assert "[ERROR]" not in log and "Traceback" not in log, log  # a clean stop logs no error
    assert (instance / "jobs.db").is_file()  # the consumer and the web worker used the app's own queue


def test_a_first_start_serves_before_the_kernels_are_compiled_and_the_bank_is_full(first_start: Served) -> None:
    """The first page answers while the kernels compile and the bank holds only the shipped seed set, saying the
    bank is filling; New puzzle serves meanwhile (workers on the Python references); once the kernels are ready the
    consumer starts, the workers are replaced, the bank fills up to BANK_MIN and the notice goes."""
    base, started, _env = first_start
    page = wait_for(lambda: start_page(base), "the first page")
    assert compiling(started.pid) and consumers(started.pid) == 0
    assert 'id="bank-filling"' in page and f"100 of {BANK_MIN} puzzles" in page
    browser = Browser(base)
    browser.get("/")
    game = browser.post("/new", {"slider": "20"})
    assert re.search(r"/g/[\w-]+$", game), game
    workers = gunicorn_workers(started.pid)
    wait_long(lambda: True if consumers(started.pid) == 1 and not compiling(started.pid) else None, "the kernels")
    wait_long(
        lambda: True if 'id="bank-filling"' not in (start_page(base) or 'id="bank-filling"') else None, "a full bank"
    )
    assert workers
    wait_long(  # every worker is replaced (the bank may fill before the reload is through)
        lambda: True if (now := gunicorn_workers(started.pid)) and not workers & now else None, "new workers"
    )
    assert browser.post("/new", {"slider": "20"}) != game
    os.killpg(started.pid, signal.SIGINT)
    assert started.wait(timeout=60) == 0


def test_the_log_in_limit_is_one_per_server_with_two_workers_and_no_redis(tmp_path: Path) -> None:
    """Wrong passwords through two web workers, with no store but the database: exactly LIMIT_LOGIN (10 a minute)
    are answered 401, then 429; another account still logs in from the same address."""
    accounts = [["user", "create", email, "--password", PASSWORD] for email in ("a@example.org", "b@example.org")]
    base, started, _env = start_server(tmp_path, {"SUDOKU_LIMIT_LOGIN": "10 per minute"}, accounts, workers=2)
    try:
        wait_for(lambda: answers(base), "the server to answer")
        assert len(gunicorn_workers(started.pid)) == 2
        answered = []
        for _ in range(12):
            browser = Browser(base)  # a new connection each time: the two workers share them out
            browser.get("/research/login")
            answered.append(status_of(browser, "/research/login", {"email": "a@example.org", "password": "wrong"}))
        assert answered == [401] * 10 + [429] * 2
        other = Browser(base)
        other.get("/research/login")
        assert other.post("/research/login", {"email": "b@example.org", "password": PASSWORD}).endswith("/research/")
    finally:
        kill_group(started)


def status_of(browser: Browser, path: str, fields: dict[str, str]) -> int:
    """The HTTP status of a form post (an error status too)."""
    try:
        browser.post(path, fields)
    except urllib.error.HTTPError as error:
        return int(error.code)
    return 200


def pids_of(group: int, wanted: Callable[[list[bytes]], bool]) -> list[int]:
    """The processes of a server's process group whose command line is wanted."""
    found = []
    for pid in group_members(group):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if wanted(command):
            found.append(pid)
    return found


def consumer_pids(group: int) -> list[int]:
    """The job consumer processes of a server's process group."""
    return pids_of(group, is_consumer)


def supervisor_pid(group: int) -> int:
    """The consumer's supervisor in a server's process group."""
    (found,) = pids_of(group, lambda command: b"webapp.supervise" in command)
    return found


def study_row(tmp_path: Path, study_id: int) -> tuple[str, str | None]:
    """A study's state and the consumer preparing it, read from the server's SQLite file."""
    with sqlite3.connect(tmp_path / "served.db", timeout=30) as connection:
        state, by = connection.execute("SELECT state, prepared_by FROM studies WHERE id = ?", (study_id,)).fetchone()
    return str(state), by


def new_study(base: str, fields: dict[str, str]) -> tuple[Browser, int]:
    """Log in and create a study by the form; the researcher's client and the study's id."""
    browser = Browser(base)
    browser.get("/research/login")
    assert browser.post("/research/login", {"email": "served@example.org", "password": PASSWORD}).endswith("/research/")
    browser.get("/research/studies/new")
    landed = browser.post("/research/studies/new", {"order_scheme": "fixed", "hint_rungs": "4", **fields})
    study = re.fullmatch(rf"{re.escape(base)}/research/studies/(\d+)", landed)
    assert study is not None, landed
    return browser, int(study.group(1))


def jobs_status(env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``flask jobs status`` on the server's database and queue."""
    app = f"webapp:create_app({{'INSTANCE_PATH': {str(tmp_path / 'instance')!r}}})"
    command = [sys.executable, "-m", "flask", "--app", app, "jobs", "status"]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)


def test_a_killed_consumer_is_started_again_and_the_study_it_was_preparing_gets_ready(
    server: tuple[str, subprocess.Popen[bytes], dict[str, str]], tmp_path: Path
) -> None:
    """kill -9 of the consumer while it prepares a study (puzzles generated for eight slider values, on an empty
    bank): the master starts a new consumer, which queues the lost preparation again at its start, and the study
    gets ready with nobody watching its page; ``flask jobs status`` shows the live consumer and the gone one."""
    base, started, env = server
    wait_for(lambda: answers(base), "the server to answer")
    wait_for(lambda: consumer_pids(started.pid) or None, "the consumer")
    _browser, study = new_study(base, {"name": "Lost job", "puzzles": "", "sliders": "20, 30, 40, 45, 50, 55, 60, 65"})
    by = wait_for(lambda: study_row(tmp_path, study)[1], "the consumer to take the job")
    victim = int(by.split(":")[1])
    os.kill(victim, signal.SIGKILL)
    assert study_row(tmp_path, study)[0] == "preparing"  # the job was lost with it
    replaced = wait_for(lambda: [pid for pid in consumer_pids(started.pid) if pid != victim] or None, "a new consumer")
    wait_for(lambda: True if study_row(tmp_path, study)[0] == "ready" else None, "the study to be ready")
    assert study_row(tmp_path, study)[1] not in (None, by)  # prepared by the new consumer
    status = jobs_status(env, tmp_path)
    assert status.returncode == 0, status.stderr
    assert "Consumers alive: 1." in status.stdout and f":{replaced[0]}:" in status.stdout
    assert f":{victim}:" in status.stdout and "(gone)" in status.stdout
    log = (tmp_path / "server.log").read_text()
    assert f"The job consumer (pid {victim}) ended with exit code -9: starting it again in 1 s" in log


def test_with_no_consumer_the_study_page_says_so_and_jobs_status_fails(
    server: tuple[str, subprocess.Popen[bytes], dict[str, str]], tmp_path: Path
) -> None:
    """A study queued while no consumer runs: its page says no job consumer is running (not "preparing" for ever)
    and ``flask jobs status`` shows the waiting job and exits 1; once a consumer runs the study gets ready."""
    base, started, env = server
    wait_for(lambda: answers(base), "the server to answer")
    first = wait_for(lambda: consumer_pids(started.pid) or None, "the consumer")[0]
    supervisor = supervisor_pid(started.pid)
    os.kill(supervisor, signal.SIGSTOP)  # the supervisor cannot restart the consumer while it is stopped
    try:
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: None if consumer_pids(started.pid) else True, "the consumer to die")
        puzzle = str(generate_puzzle(seed=5101, givens=60).puzzle)
        browser, study = new_study(base, {"name": "Waiting", "puzzles": puzzle})
        page = browser.get(f"/research/studies/{study}")
        assert 'id="no-consumer"' in page and "No job consumer is running" in page
        status = jobs_status(env, tmp_path)
        assert status.returncode == 1 and "1 job(s) waiting, the oldest queued" in status.stdout, status.stdout
        assert "Consumers alive: 0." in status.stdout and "No consumer is alive" in status.stdout
    finally:
        os.kill(supervisor, signal.SIGCONT)
    wait_for(lambda: True if study_row(tmp_path, study)[0] == "ready" else None, "the study to be ready")
    assert 'id="entry-link"' in browser.get(f"/research/studies/{study}")
