"""New puzzle with the bank: server time of POST /new over the whole slider, beside a page load as baseline.

A fresh app on a temporary SQLite file is migrated, its bank filled with ``flask pool fill --count N --jobs J``
(slider spread 0-100) and ``--hardest`` puzzles of ``ph1910_sample_even.tsv`` added with ``flask pool import``
(the top of the slider, D about 9.5, cannot be generated on demand: a deployment imports such lists), then
``--requests`` New puzzle requests at slider values drawn uniformly from 0-100
(seeded) go through the app in this process (the Flask test client: the time is the server's, no network),
with the background refill off so that only the draw is timed. Printed: median and p95 of the New puzzle time,
how many requests the bank served and how many fell back to on-demand generation, and the same figures for the
start page (GET /) in the same run as the baseline. Target (issue 5): p95 under 50 ms over the whole slider.

Run: ``.venv/bin/python benchmarks/bank.py [--fill N] [--hardest H] [--jobs J] [--requests M] [--seed K]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from corpus_stats import p95, read_tsv
from flask import Flask

from sudoku_engine import solver
from webapp import create_app, db
from webapp.models import Game


def new_app(folder: Path) -> Flask:
    """A migrated app on a fresh SQLite file, CSRF, background refill and rate limits (one client) off."""
    app = create_app({
        "INSTANCE_PATH": str(folder), "SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{folder / 'bench.db'}",
        "HTMX_SOURCE": "vendor", "WTF_CSRF_ENABLED": False, "POOL_REFILL": False, "RATELIMIT_ENABLED": False,
    })
    db.upgrade(app)
    return app


def fill(app: Flask, count: int, jobs: int, seed: int) -> float:
    """Fill the bank through its CLI; seconds taken."""
    started = time.perf_counter()
    result = app.test_cli_runner().invoke(args=["pool", "fill", "--count", str(count), "--jobs", str(jobs),
                                                "--seed", str(seed), "--budget", "3"])
    if result.exit_code != 0:
        raise SystemExit(f"pool fill failed: {result.output}")
    return time.perf_counter() - started


def import_hardest(app: Flask, folder: Path, count: int, jobs: int) -> float:
    """Add ``count`` puzzles of the ph_1910 sample through ``flask pool import``; seconds taken."""
    path = folder / "hardest.txt"
    path.write_text("\n".join(r["puzzle"] for r in read_tsv("ph1910_sample_even.tsv")[:count]) + "\n")
    started = time.perf_counter()
    result = app.test_cli_runner().invoke(args=["pool", "import", str(path), "--jobs", str(jobs)])
    if result.exit_code != 0:
        raise SystemExit(f"pool import failed: {result.output}")
    return time.perf_counter() - started


def timed_requests(app: Flask, sliders: list[float]) -> tuple[list[float], list[float], int]:
    """Seconds per New puzzle and per start page, and how many games came from the bank."""
    client = app.test_client()
    new_times, page_times, from_bank = [], [], 0
    for slider in sliders:
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
    return new_times, page_times, from_bank


def main() -> None:
    """Fill, time and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fill", type=int, default=400, help="puzzles generated into the bank (default 400)")
    parser.add_argument("--hardest", type=int, default=40, help="ph_1910 puzzles imported (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the fill (default 2)")
    parser.add_argument("--requests", type=int, default=200, help="New puzzle requests (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    print(f"solver backend: {solver.warm_up()}")
    with tempfile.TemporaryDirectory() as folder:
        app = new_app(Path(folder))
        seconds = fill(app, options.fill, options.jobs, options.seed)
        print(f"bank filled with {options.fill} puzzles in {seconds:.0f} s ({options.jobs} jobs)")
        if options.hardest:
            seconds = import_hardest(app, Path(folder), options.hardest, options.jobs)
            print(f"imported {options.hardest} ph_1910 puzzles in {seconds:.0f} s")
        rng = random.Random(options.seed)
        sliders = [rng.uniform(0, 100) for _ in range(options.requests)]
        new_times, page_times, from_bank = timed_requests(app, sliders)
    print(f"\nNew puzzle (POST /new), {len(new_times)} requests at uniform random slider values: "
          f"median {statistics.median(new_times) * 1000:.1f} ms, p95 {p95(new_times) * 1000:.1f} ms, "
          f"max {max(new_times) * 1000:.1f} ms   (target p95 < 50 ms)")
    print(f"  served from the bank: {from_bank}, generated on demand: {len(new_times) - from_bank}")
    bank_times = sorted(new_times)[:from_bank]
    if bank_times:
        print(f"  fastest {from_bank} (the bank's share): p95 {p95(bank_times) * 1000:.1f} ms")
    print(f"start page (GET /), same run: median {statistics.median(page_times) * 1000:.1f} ms, "
          f"p95 {p95(page_times) * 1000:.1f} ms; New puzzle median is "
          f"{statistics.median(new_times) / statistics.median(page_times):.1f}x the page's")


if __name__ == "__main__":
    main()
