"""``make run``'s server: gunicorn with ``webapp.gunicorn_conf`` starts the job consumer, a study made through HTTP
gets ready, and Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops every process."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from job_support import wait_for
from services import free_port
from web_support import CSRF_META

from sudoku_engine.generate import generate_puzzle

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], dict[str, str]]]:
    """gunicorn as ``make run`` starts it, on a temp database, in a process group of its own; its URL."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.db'}",
        "SECRET_KEY": "served-test",
        "SUDOKU_HTMX": "vendor",
        "SUDOKU_POOL_REFILL": "0",
    }
    env.pop("SUDOKU_REDIS_URL", None)
    app = f"webapp:create_app({{'INSTANCE_PATH': {str(tmp_path / 'instance')!r}}})"  # its queue: instance/jobs.db
    flask = [sys.executable, "-m", "flask", "--app", app]
    subprocess.run([*flask, "init-db"], env=env, cwd=ROOT, check=True, capture_output=True)
    subprocess.run(
        [*flask, "user", "create", "served@example.org", "--password", PASSWORD],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:webapp.gunicorn_conf",
        "--workers",
        "1",
        "--bind",
        f"127.0.0.1:{port}",
        app,
    ]
    started = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)
    try:
        yield f"http://127.0.0.1:{port}", started, env
    finally:
        if started.poll() is None:
            os.killpg(started.pid, signal.SIGKILL)
            started.wait()


def answers(base: str) -> bool | None:
    """True once the server answers its start page."""
    try:
        with urllib.request.urlopen(base + "/", timeout=10) as response:
            return True if response.status == 200 else None
    except OSError:
        return None


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
    commands = [Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") for pid in group_members(started.pid)]
    assert sum(b"jobs" in command and b"run" in command for command in commands) == 1  # the consumer
    os.killpg(started.pid, signal.SIGINT)
    assert started.wait(timeout=60) == 0
    wait_for(lambda: True if not group_members(started.pid) else None, "every process of the server to stop")
    assert (instance / "jobs.db").is_file()  # the consumer and the web worker used the app's own queue
