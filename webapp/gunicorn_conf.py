"""Gunicorn settings that serve at once and run the job consumer beside the web workers:
``gunicorn -c python:webapp.gunicorn_conf``.

``make run`` uses them, so one command starts the web server and the consumer (``flask --app webapp jobs run``, a
process of its own: see ``webapp.jobs`` for why not a thread of a web worker) and Ctrl-C stops both: the terminal
sends SIGINT to the whole foreground group, and the master's exit hook stops a consumer that is still there.

When numba's cache does not yet hold the engine's kernels for these sources (a first start, or new sources:
``sudoku_engine.warm.is_warm``), the master does not wait for them: it runs ``sudoku-engine warm`` (with its
progress bar) beside web workers that use the engine's pure-Python references meanwhile, so no request compiles
a kernel; once the kernels are ready it starts the consumer and reloads the workers (SIGHUP: new workers, the old
ones finish their requests), which then load the compiled kernels from the cache.
The consumer runs under a supervisor (``webapp.supervise``): one that dies (killed, out of memory, a crash) is
started again, after a pause that grows while it keeps dying soon after its start, and its lost jobs are queued
again (``webapp.study.preparing``). A plain ``gunicorn 'webapp:create_app()'`` runs no consumer; run
``flask --app webapp jobs run`` beside it, under a supervisor that restarts it (systemd's ``Restart=always``:
docs/deploy.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import Any

from sudoku_engine.warm import is_warm

STOP_WAIT_S = 20.0  # after this long a process that was asked to stop is killed (the supervisor's wait is 15 s)
BACKEND = "SUDOKU_ENGINE_BACKEND"
INTERRUPTED = (130, -signal.SIGINT, -signal.SIGTERM, -signal.SIGKILL)  # exit codes of a stopped compilation
_children: list[subprocess.Popen[bytes]] = []
_stopping = threading.Event()
_lock = threading.Lock()


def consumer_command(app_uri: str | None) -> list[str]:
    """The command of the consumer process: the same Python, environment and app (factory call) as the server."""
    # two workers: a long scheduled job (a slice of the search for fresh top puzzles) never holds up a study
    return [sys.executable, "-m", "flask", "--app", app_uri or "webapp", "jobs", "run", "--workers", "2"]


def warm_command() -> list[str]:
    """The command that compiles the engine's kernels into numba's cache, with its progress bar."""
    return [sys.executable, "-m", "sudoku_engine", "warm"]


def start_consumer(server: Any) -> None:
    """Start the job consumer under its supervisor (``webapp.supervise``), unless the master is stopping.

    ``close_fds=False`` lets Python start it with posix_spawn, which returns once the program runs: a fork-and-exec
    from this thread could hold a pipe that a web worker forked meanwhile inherits, and then wait for ever."""
    with _lock:
        if _stopping.is_set():
            return
        command = [
            sys.executable,
            "-m",
            "webapp.supervise",
            "--",
            *consumer_command(getattr(server.app, "app_uri", None)),
        ]
        _children.append(subprocess.Popen(command, close_fds=False))
    server.log.info("Started the job consumer's supervisor (pid %s)", _children[-1].pid)


def warm_then_reload(server: Any, warming: subprocess.Popen[bytes]) -> None:
    """Wait for the kernels; then start the consumer and reload the workers onto the compiled kernels (a failed
    compilation leaves the workers on the Python references and says so; a stopped one does nothing)."""
    code = warming.wait()
    if _stopping.is_set() or code in INTERRUPTED:
        return
    if code != 0:
        server.log.error("Compiling the engine's kernels failed (exit code %s): serving on the Python references", code)
        start_consumer(server)
        return
    os.environ.pop(BACKEND, None)
    server.log.info("The engine's kernels are ready: reloading the workers onto them")
    start_consumer(server)
    os.kill(os.getpid(), signal.SIGHUP)


def on_starting(server: Any) -> None:
    """Start the consumer when the master starts, before the web workers; first the kernels' compilation, with the
    workers on the Python references meanwhile, when numba's cache does not hold them."""
    if os.environ.get(BACKEND) or is_warm():
        start_consumer(server)
        return
    server.log.info("Compiling the engine's kernels in the background; serving on the Python references meanwhile")
    env = {key: value for key, value in os.environ.items() if key != BACKEND}
    os.environ[BACKEND] = "python"  # the workers forked until the kernels are ready
    with _lock:
        warming = subprocess.Popen(warm_command(), env=env)
        _children.append(warming)
    threading.Thread(target=warm_then_reload, args=(server, warming), name="warm-kernels", daemon=True).start()


def on_exit(server: Any) -> None:
    """Stop the consumer (and a compilation still running) when the master stops: SIGINT, on which the consumer
    lets running jobs go on for a few seconds (``webapp.jobs.SHUTDOWN_S``), then stops them (they are queued
    again later) and exits cleanly, as it does on a terminal's Ctrl-C."""
    with _lock:
        _stopping.set()
    while _children:
        child = _children.pop()
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
        try:
            child.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        server.log.info("The background process %s has stopped", child.pid)
