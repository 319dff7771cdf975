"""Fresh puzzles at the top: new distinct puzzles per CPU-hour of the neighbourhood search, per D band.

Walks (``sudoku_engine.neighbourhood.search``, as the bank's ``top-search`` job runs them) start from ``--starts``
shipped seed puzzles of D 9 or more, spread over their D, each for ``--seconds``; the finds of all walks are put in
canonical form and counted once (a puzzle two walks found, or an isomorph of a shipped one, counts for neither).
Printed: the walks' CPU time, and per band (9-10, 10-11, 11+) the distinct new puzzles and their rate per CPU-hour.

Run: ``.venv/bin/python benchmarks/top_search.py [--starts 6] [--seconds 60] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import time

from sudoku_engine import neighbourhood, solver
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical
from webapp.bank import seed

BANDS = ((9.0, 10.0), (10.0, 11.0), (11.0, 99.0))


def main() -> None:
    """Walk, count, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=6, help="shipped seed puzzles to start from (default 6)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds per walk (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    solver.warm_up()
    top = sorted((r for r in seed.read_seed(seed.SEED_FILE) if r["d"] >= 9.0), key=lambda r: r["d"])
    step = max(1, len(top) // options.starts)
    starts = top[::step][: options.starts]
    shipped = {r["puzzle"] for r in seed.read_seed(seed.SEED_FILE)}
    found: dict[str, float] = {}
    cpu = 0.0
    for number, start in enumerate(starts):
        began = time.process_time()
        finds = neighbourhood.search(
            parse_values(start["puzzle"]), 9.0, options.seconds, options.seed + number, set(), start["d"]
        )
        cpu += time.process_time() - began
        for find in finds:
            form = format_values(canonical(find.values))
            if form not in shipped:
                found.setdefault(form, find.rating.d)
        print(f"  walk from D {start['d']:.2f}: {len(finds)} finds", flush=True)
    hours = cpu / 3600
    print(f"{len(starts)} walks, {cpu:.0f} s of CPU; {len(found)} distinct new puzzles of D 9 or more")
    for low, high in BANDS:
        count = sum(1 for d in found.values() if low <= d < high)
        name = f"{low:g}-{high:g}" if high < 99 else f"{low:g}+"
        print(f"  D {name:6}: {count:5} new, {count / hours:8.0f} per CPU-hour")


if __name__ == "__main__":
    main()
