"""Gunicorn settings that run the job consumer beside the web workers: ``gunicorn -c python:webapp.gunicorn_conf``.

``make run`` uses them, so one command starts the web server and the consumer (``flask --app webapp jobs run``, a
process of its own: see ``webapp.jobs`` for why not a thread of a web worker) and Ctrl-C stops both: the terminal
sends SIGINT to the whole foreground group, and the master's exit hook stops a consumer that is still there.
A plain ``gunicorn 'webapp:create_app()'`` runs no consumer; run ``flask --app webapp jobs run`` beside it.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from typing import Any

STOP_WAIT_S = 15.0  # after this long a consumer that was asked to stop is killed
_consumers: list[subprocess.Popen[bytes]] = []


def consumer_command(app_uri: str | None) -> list[str]:
    """The command of the consumer process: the same Python, environment and app (factory call) as the server."""
    # two workers: a long scheduled job (a slice of the search for fresh top puzzles) never holds up a study
    return [sys.executable, "-m", "flask", "--app", app_uri or "webapp", "jobs", "run", "--workers", "2"]


def on_starting(server: Any) -> None:
    """Start the consumer when the master starts, before the web workers."""
    _consumers.append(subprocess.Popen(consumer_command(getattr(server.app, "app_uri", None))))
    server.log.info("Started the job consumer (pid %s)", _consumers[-1].pid)


def on_exit(server: Any) -> None:
    """Stop the consumer when the master stops (SIGTERM: running jobs end at once and are queued again later)."""
    while _consumers:
        consumer = _consumers.pop()
        if consumer.poll() is None:
            consumer.send_signal(signal.SIGTERM)
        try:
            consumer.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            consumer.kill()
            consumer.wait()
        server.log.info("The job consumer (pid %s) has stopped", consumer.pid)
