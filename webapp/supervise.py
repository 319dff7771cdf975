"""Keep one process running: ``python -m webapp.supervise -- COMMAND ...`` runs the command and starts it again
whenever it dies, after a pause that grows while it keeps dying soon after its start (RESTART_PAUSES_S; a run of
STEADY_S starts the pauses over). ``webapp.gunicorn_conf`` runs the job consumer under it.

The supervisor is the consumer's parent, so it alone waits for it and knows how it ended (gunicorn's master reaps
every child of its own, which would hide the exit code). SIGINT or SIGTERM stops it: the signal goes on to the
command as SIGINT (the consumer's clean stop), and the supervisor exits with the command once it has stopped, or
kills it after STOP_WAIT_S.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from types import FrameType

RESTART_PAUSES_S = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
STEADY_S = 60.0
STOP_WAIT_S = 15.0
POLL_S = 0.5  # how often a stop is looked for while the command runs
USAGE = "usage: python -m webapp.supervise -- COMMAND [ARGUMENT ...]"


def say(level: str, message: str) -> None:
    """One line on stderr in gunicorn's format, so the server's log reads as one."""
    moment = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S +0000")
    print(f"[{moment}] [{os.getpid()}] [{level}] {message}", file=sys.stderr, flush=True)


def pause_after(failures: int) -> float:
    """The pause before the next start, after this many deaths in a row soon after a start."""
    return RESTART_PAUSES_S[min(max(failures - 1, 0), len(RESTART_PAUSES_S) - 1)]


class Supervisor:
    """Runs the command again and again until told to stop."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.stopping = threading.Event()
        self.child: subprocess.Popen[bytes] | None = None

    def stop(self, signum: int, _frame: FrameType | None) -> None:
        """A stop signal: stop restarting and ask the command to stop (SIGINT)."""
        self.stopping.set()
        if self.child is not None and self.child.poll() is None:
            self.child.send_signal(signal.SIGINT)

    def run(self) -> int:
        """Keep the command running until stopped; the exit code of its last run (0 when it was stopped)."""
        failures = 0
        while not self.stopping.is_set():
            started = time.monotonic()
            self.child = subprocess.Popen(self.command)
            say("INFO", f"Started the job consumer (pid {self.child.pid})")
            code = self.wait_for_child(self.child)
            if self.stopping.is_set():
                return 0 if code in (0, -signal.SIGINT) else code
            failures = 0 if time.monotonic() - started >= STEADY_S else failures + 1
            pause = pause_after(failures)
            say(
                "ERROR",
                f"The job consumer (pid {self.child.pid}) ended with exit code {code}: starting it again in "
                f"{pause:.0f} s",
            )
            self.stopping.wait(pause)
        return 0

    def wait_for_child(self, child: subprocess.Popen[bytes]) -> int:
        """The child's exit code; once a stop is asked, killed if it has not stopped after STOP_WAIT_S."""
        asked: float | None = None
        while True:
            try:
                return child.wait(timeout=POLL_S)
            except subprocess.TimeoutExpired:
                if self.stopping.is_set():
                    asked = asked if asked is not None else time.monotonic()
                    if time.monotonic() - asked > STOP_WAIT_S:
                        child.kill()


def main(argv: list[str]) -> int:
    """Run the command of ``-- COMMAND ...`` under a supervisor; exit code 2 without one."""
    if len(argv) < 2 or argv[0] != "--":
        print(USAGE, file=sys.stderr)
        return 2
    supervisor = Supervisor(argv[1:])
    signal.signal(signal.SIGINT, supervisor.stop)
    signal.signal(signal.SIGTERM, supervisor.stop)
    return supervisor.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
