"""Play latency under load and the game page's weight.

A gunicorn server (``--workers W``, ``--threads T``; ``make run`` uses 2 sync workers) serves the app on a fresh
SQLite file on 127.0.0.1. ``--players`` simulated players (threads of this process, one HTTP connection each) open
a game on a Sudoku Exchange puzzle each and play for ``--seconds``: mostly digit entries (the solution's digit,
one in ten a wrong one cleared again), some corner and centre marks, and a hint press every ``--hint-every``
actions, with a think time drawn from ``--think`` (min, max seconds) between actions. Timed per request kind:
the app's own time (the Server-Timing header the app sets: what the issue calls the server time) and the round
trip seen by the client (adds queueing in gunicorn and the network stack), median and p95. Baseline in the same
run: the start page (GET /) under the same load. Targets: p95 server time under 50 ms for an entry and under
100 ms for a hint.

Page weight: the bytes of a game page's first load (HTML, CSS, board script; htmx from the CDN not counted, and
its vendored fallback reported apart), raw and gzip-compressed. Target: under 150 kB.

Run: ``.venv/bin/python benchmarks/play.py [--players 32] [--seconds 30] [--workers 2] [--threads 1]``.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import random
import re
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

from corpus_stats import p95, read_tsv
from serving import BIN, ROOT, free_port, start_gunicorn

from sudoku_engine.solver import solve

CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
VIEW = re.compile(r'data-view="([^"]+)"')
ASSET = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def start_server(folder: Path, port: int, workers: int, threads: int) -> subprocess.Popen[bytes]:
    """Migrate a fresh database and start gunicorn on it; returns once the server answers."""
    env = {
        "DATABASE_URL": f"sqlite:///{folder / 'play.db'}",
        "SECRET_KEY": "bench",
        "SUDOKU_HTMX": "vendor",
        "RATELIMIT_ENABLED": "false",  # all the simulated players come from 127.0.0.1
        "PATH": str(BIN),
    }
    subprocess.run(
        [str(BIN / "flask"), "--app", "webapp", "init-db"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    return start_gunicorn(env, port, workers, threads=threads)


class Player:
    """One simulated player on one connection: opens a game and acts on it."""

    def __init__(self, port: int, puzzle: str, rng: random.Random, timings: dict[str, list[tuple[float, float]]]):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.rng = rng
        self.timings = timings
        self.cookies: dict[str, str] = {}  # the session cookie and the anonymous player's, as a browser keeps them
        self.refused: dict[str, int] = defaultdict(int)  # answers of 400 or more, by request kind
        self.puzzle = puzzle
        solution = solve(puzzle)
        assert solution is not None
        self.solution = str(solution)
        self.game = ""
        self.token = ""
        self.sent = 0

    def stamp(self) -> dict[str, str]:
        """A fresh idempotency key and the client clock, as the board script sends them."""
        self.sent += 1
        return {"key": f"{threading.get_ident()}-{self.sent}", "client_ms": f"{time.perf_counter() * 1000:.1f}"}

    def request(self, kind: str, method: str, path: str, body: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Send one request; record (app ms, round-trip ms) under ``kind``; status, body and Location."""
        headers = {"Cookie": self.cookie} if self.cookies else {}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers.update(
                {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.token, "HX-Request": "true"}
            )
        started = time.perf_counter()
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        trip = (time.perf_counter() - started) * 1000
        timing = response.getheader("Server-Timing") or "app;dur=nan"
        self.timings[kind].append((float(timing.split("dur=")[1]), trip))
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        if response.status >= 500:
            raise RuntimeError(f"{method} {path}: {response.status}")
        if response.status >= 400:
            self.refused[kind] += 1
        return response.status, text, response.getheader("Location") or ""

    @property
    def cookie(self) -> str:
        """The Cookie header of the next request."""
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def open(self) -> None:
        """Open a game on the puzzle through its link (the page, then its post), read the CSRF token and show the
        game's page as the board script does."""
        status, page, _ = self.request("page", "GET", f"/p/{self.puzzle}")
        match = CSRF.search(page)
        assert status == 200 and match, status
        self.token = match.group(1)
        status, _text, location = self.request("open", "POST", f"/p/{self.puzzle}", {})
        assert status == 303, status
        self.game = urllib.parse.urlparse(location).path
        status, page, _ = self.request("page", "GET", self.game)
        view = VIEW.search(page)
        assert status == 200 and view
        self.request("page", "POST", f"{self.game}/shown", {"view": view.group(1)})

    def act(self, hint_every: int, count: int) -> None:
        """One action: a hint, a mark, a wrong digit and its clearing, or the right digit."""
        empty = [c for c, ch in enumerate(self.puzzle) if ch == "."]
        cell = self.rng.choice(empty)
        name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
        roll = self.rng.random()
        if count % hint_every == hint_every - 1:
            self.request("hint", "POST", f"{self.game}/hint", self.stamp())
        elif roll < 0.15:
            mode = self.rng.choice(["corner", "centre"])
            self.request("mark", "POST", f"{self.game}/cell/{name}", {**self.stamp(), "digit": "5", "mode": mode})
        elif roll < 0.25:
            wrong = str(int(self.solution[cell]) % 9 + 1)
            self.request("entry", "POST", f"{self.game}/cell/{name}", {**self.stamp(), "digit": wrong})
            self.request("entry", "POST", f"{self.game}/cell/{name}", {**self.stamp(), "digit": "0"})
        else:
            self.request("entry", "POST", f"{self.game}/cell/{name}", {**self.stamp(), "digit": self.solution[cell]})
        if count % 10 == 5:
            self.request("start page", "GET", "/")


def play(
    port: int, puzzles: list[str], seconds: float, think: tuple[float, float], hint_every: int, seed: int
) -> dict[str, list[tuple[float, float]]]:
    """Run the players side by side; the timings by request kind."""
    timings: dict[str, list[tuple[float, float]]] = defaultdict(list)
    deadline = time.perf_counter() + seconds
    errors: list[BaseException] = []
    players: list[Player] = []

    def run(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        player = Player(port, puzzles[index], rng, timings)
        players.append(player)
        try:
            player.open()
            count = 0
            while time.perf_counter() < deadline:
                time.sleep(rng.uniform(*think))
                player.act(hint_every, count)
                count += 1
        except BaseException as error:  # reported after the run
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(puzzles))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"{len(errors)} players failed, first: {errors[0]!r}")
    refused = {kind: sum(p.refused[kind] for p in players) for kind in timings}
    if any(refused.values()):
        print(f"answers of 400 or more, by request kind: { {k: n for k, n in refused.items() if n} }")
    return timings


def page_weight(port: int, puzzle: str) -> None:
    """Print the first-load bytes of a game page and its assets, raw and gzipped."""
    player = Player(port, puzzle, random.Random(0), defaultdict(list))
    player.open()
    connection = player.connection
    connection.request("GET", player.game, headers={"Cookie": player.cookie})
    page = connection.getresponse().read()
    parts = {"game page HTML": page}
    for asset in ASSET.findall(page.decode()):
        connection.request("GET", asset)
        parts[asset] = connection.getresponse().read()
    total = raw_total = 0
    print("\nPage weight of a game page's first load (bytes, raw / gzip):")
    for name, body in parts.items():
        packed = len(gzip.compress(body))
        vendored = "vendor/" in name
        print(f"  {name:<40} {len(body):>8} / {packed:>7}{'  (htmx fallback, not counted)' if vendored else ''}")
        if not vendored:
            raw_total += len(body)
            total += packed
    print(f"  {'total without htmx':<40} {raw_total:>8} / {total:>7}   (target: under 150 kB)")


def report(timings: dict[str, list[tuple[float, float]]]) -> None:
    """Print median and p95 of app time and round trip per request kind."""
    print(f"\n{'request':<12} {'n':>6} {'app median':>11} {'app p95':>9} {'trip median':>12} {'trip p95':>9}  (ms)")
    for kind in ("entry", "mark", "hint", "page", "start page"):
        rows = timings.get(kind, [])
        if not rows:
            continue
        app = [a for a, _t in rows]
        trip = [t for _a, t in rows]
        print(
            f"{kind:<12} {len(rows):>6} {statistics.median(app):>11.1f} {p95(app):>9.1f} "
            f"{statistics.median(trip):>12.1f} {p95(trip):>9.1f}"
        )


def main() -> None:
    """Parse options, start gunicorn, run the players, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), metavar=("MIN", "MAX"))
    parser.add_argument("--hint-every", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = read_tsv("sudokuexchange_graded_even.tsv")
    rng = random.Random(args.seed)
    puzzles = [r["puzzle"].replace("0", ".") for r in rng.sample(rows, args.players)]
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port, args.workers, args.threads)
        try:
            print(
                f"{args.players} players for {args.seconds:g} s, think {args.think[0]:g}-{args.think[1]:g} s, "
                f"gunicorn {args.workers} workers x {args.threads} threads, SQLite"
            )
            timings = play(port, puzzles, args.seconds, tuple(args.think), args.hint_every, args.seed)
            report(timings)
            page_weight(port, puzzles[0])
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
