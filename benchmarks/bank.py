"""New puzzle with the bank ``make run`` fills: server time of POST /new per slider decile, beside a page load.

A fresh app on a temporary SQLite file is migrated and its bank filled as ``make run`` does it: the shipped seed
set for the top of the slider (``flask pool seed``) and ``flask pool ensure --min N --jobs J`` (generated, slider
0-80). Then ``--per-decile`` New puzzle requests at seeded uniform slider values inside each decile (0-10, ...,
90-100), each from a new player (``--one-player``: all from one, who is never served a puzzle twice), go through the
app in this process (the Flask test client: the time is the server's, no network), with
the background refill off so that only the draw is timed. Printed per decile: median and p95 of the New puzzle
time, how many came from the bank and how many were generated on demand, and the same for the start page (GET /)
as the baseline, and how many got a puzzle within the tolerance of their target D. Targets: p95 under 100 ms
and at least 95% within the tolerance in every decile.

Run: ``.venv/bin/python benchmarks/bank.py [--min N] [--jobs J] [--per-decile M] [--seed K]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from corpus_stats import p95
from flask import Flask

from sudoku_engine import solver
from sudoku_engine.difficulty import DEFAULT_TOLERANCE
from sudoku_engine.slider import target_for_slider
from webapp import create_app, db
from webapp.models import Game


def new_app(folder: Path) -> Flask:
    """A migrated app on a fresh SQLite file, CSRF, background refill and rate limits (one client) off."""
    app = create_app(
        {
            "INSTANCE_PATH": str(folder),
            "SECRET_KEY": "bench",
            "DATABASE_URL": f"sqlite:///{folder / 'bench.db'}",
            "HTMX_SOURCE": "vendor",
            "WTF_CSRF_ENABLED": False,
            "POOL_REFILL": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    db.upgrade(app)
    return app


def fill(app: Flask, minimum: int, jobs: int, seed: int) -> float:
    """Fill the bank as ``make run`` does (seed set, then ensure); seconds taken."""
    started = time.perf_counter()
    runner = app.test_cli_runner()
    for args in (
        ["pool", "seed"],
        ["pool", "ensure", "--min", str(minimum), "--jobs", str(jobs), "--seed", str(seed), "--budget", "1.5"],
    ):
        result = runner.invoke(args=args)
        if result.exit_code != 0:
            raise SystemExit(f"{' '.join(args)} failed: {result.output}")
        print(f"  {' '.join(args)}: {result.output.strip()}")
    return time.perf_counter() - started


def timed_requests(app: Flask, sliders: list[float], one_player: bool) -> tuple[list[float], list[float], int, int]:
    """Seconds per New puzzle and per start page, how many games came from the bank, and how many got a puzzle
    within the tolerance of the D their slider value asks for."""
    client = app.test_client()
    new_times, page_times, from_bank, hits = [], [], 0, 0
    for slider in sliders:
        if not one_player:
            client = app.test_client()  # a player of their own (no cookie yet), as players arrive after make run
        started = time.perf_counter()
        page = client.get("/")
        page_times.append(time.perf_counter() - started)
        assert page.status_code == 200
        started = time.perf_counter()
        response = client.post("/new", data={"slider": f"{slider:.2f}"})
        new_times.append(time.perf_counter() - started)
        assert response.status_code == 303, response.status_code
        game_id = response.headers["Location"].rsplit("/", 1)[-1]
        with app.app_context():
            game = db.get_session().get(Game, game_id)
            assert game is not None
            from_bank += game.bank_id is not None
            hits += game.d is not None and abs(game.d - target_for_slider(slider)) <= DEFAULT_TOLERANCE + 1e-9
    return new_times, page_times, from_bank, hits


def main() -> None:
    """Fill, time and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min", type=int, default=400, help="unused puzzles `pool ensure` keeps (400, as make run)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the fill (default 2)")
    parser.add_argument("--per-decile", type=int, default=10, help="New puzzle requests per decile (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--one-player", action="store_true", help="every request from one player (never served a puzzle twice)"
    )
    options = parser.parse_args()
    print(f"solver backend: {solver.warm_up()}")
    rng = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as folder:
        app = new_app(Path(folder))
        seconds = fill(app, options.min, options.jobs, options.seed)
        print(f"bank filled as make run does in {seconds:.0f} s ({options.jobs} jobs)")
        print("\nNew puzzle (POST /new) per slider decile (target p95 < 100 ms):")
        every = []
        for low in range(0, 100, 10):
            sliders = [rng.uniform(low, low + 10) for _ in range(options.per_decile)]
            new_times, page_times, from_bank, hits = timed_requests(app, sliders, options.one_player)
            every += new_times
            print(
                f"  {low:3}-{low + 10:<3}: median {statistics.median(new_times) * 1000:6.1f} ms, p95 "
                f"{p95(new_times) * 1000:7.1f} ms, max {max(new_times) * 1000:7.1f} ms; from the bank "
                f"{from_bank}/{len(new_times)}, within the tolerance {hits}/{len(new_times)}; start page p95 "
                f"{p95(page_times) * 1000:.1f} ms"
            )
        print(f"  all: median {statistics.median(every) * 1000:.1f} ms, p95 {p95(every) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
