"""gunicorn for the benchmarks that drive the app over HTTP (play.py, load.py): a free port and a started server."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    """True once the server on ``port`` answers the start page with 200."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/")
        return connection.getresponse().status == 200
    except OSError:
        return False


def start_gunicorn(
    env: dict[str, str], port: int, workers: int, *, threads: int = 1, cwd: Path = ROOT
) -> subprocess.Popen[bytes]:
    """gunicorn serving the app from this checkout on 127.0.0.1:``port`` with ``env``; returns once it answers."""
    command = [str(BIN / "gunicorn"), "--workers", str(workers), "--threads", str(threads)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--chdir", str(ROOT), "webapp:create_app()"]
    server = subprocess.Popen(command, env={"PATH": f"{BIN}:/usr/bin:/bin", **env}, cwd=cwd)
    for _ in range(300):
        if _answers(port):
            return server
        time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")
