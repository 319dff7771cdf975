"""``pip install`` with a progress bar: ``.venv/bin/python scripts/install.py -e '.[web]'`` installs into the Python
that runs it and shows the packages found while pip resolves, then a bar of the packages installed (counted as
their ``.dist-info`` folders appear) with an estimate of the time left. pip's own output is kept and printed only
when the install fails. Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path
from typing import TextIO

WIDTH = 30
LINE_S = 10.0  # without a terminal, a progress line at most this often
POLL_S = 0.5
FOUND = re.compile(r"^(Collecting|Processing|Requirement already satisfied:) ")
INSTALLING = "Installing collected packages: "


def normalised(name: str) -> str:
    """A distribution's name as its ``.dist-info`` folder spells it (lower case, runs of -_. as one _)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def installed_since(folder: Path, names: set[str], start: float) -> int:
    """How many of ``names`` have a ``.dist-info`` folder in ``folder`` made since ``start``."""
    done = 0
    for info in folder.glob("*.dist-info"):
        name = normalised(info.name[: -len(".dist-info")].rsplit("-", 1)[0])
        if name in names and info.stat().st_mtime >= start:
            done += 1
    return done


class Display:
    """One progress line: redrawn in place on a terminal, else printed at most every LINE_S seconds."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.terminal = stream.isatty()
        self.last = -LINE_S
        self.start = time.monotonic()

    def show(self, text: str, final: bool = False) -> None:
        """Show the line (always when ``final``)."""
        now = time.monotonic()
        if not self.terminal and not final and now - self.last < LINE_S:
            return
        self.last = now
        line = f"installing the packages: {text} ({now - self.start:.0f} s)"
        self.stream.write(f"\r{line}\x1b[K" + ("\n" if final else "") if self.terminal else line + "\n")
        self.stream.flush()

    def bar(self, done: int, total: int, since: float) -> None:
        """Show ``done`` of ``total`` packages installed, with the time left at the rate since ``since``."""
        filled = WIDTH * done // max(total, 1)
        spent = time.monotonic() - since
        left = f", about {spent * (total - done) / done:.0f} s left" if 0 < done < total else ""
        self.show(f"[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total}{left}")


def watch_installing(display: Display, names: set[str], start: float, done: threading.Event) -> None:
    """Redraw the bar of installed packages every POLL_S seconds until ``done`` is set."""
    folder = Path(sysconfig.get_paths()["purelib"])
    wall = time.time()
    while not done.wait(POLL_S):
        display.bar(installed_since(folder, names, wall), len(names), start)


def main(arguments: list[str]) -> int:
    """Run pip install with the arguments; its exit code."""
    command = [sys.executable, "-m", "pip", "install", "--progress-bar", "off", *arguments]
    display = Display(sys.stderr)
    output: list[str] = []
    found = 0
    stop = threading.Event()
    watcher: threading.Thread | None = None
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as pip:
        assert pip.stdout is not None
        for line in pip.stdout:
            output.append(line)
            if FOUND.match(line):
                found += 1
                display.show(f"resolving, {found} found")
            elif line.startswith(INSTALLING) and watcher is None:
                names = {normalised(name) for name in line[len(INSTALLING) :].strip().split(", ")}
                watcher = threading.Thread(
                    target=watch_installing, args=(display, names, time.monotonic(), stop), daemon=True
                )
                watcher.start()
    stop.set()
    if watcher is not None:
        watcher.join()
    if pip.returncode != 0:
        display.show(f"failed (exit code {pip.returncode}); pip said:", final=True)
        sys.stderr.write("".join(output))
        return pip.returncode
    installed = next((line for line in output if line.startswith("Successfully installed")), "")
    display.show(f"done, {len(installed.split()) - 2 if installed else 0} installed", final=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
