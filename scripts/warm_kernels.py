"""Build the engine's compiled kernels, or load them from numba's on-disk cache, before the tests start.

``make test`` runs this once, so the test processes (pytest-xdist workers) load every kernel from the cache
instead of each compiling them on first use while a test waits: the search, the compiled technique finders, the
call count, the contradiction nets (reached by rating one of the hardest puzzles) and the generator's digging.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from sudoku_engine.generate import generate_puzzle, warm_up
from sudoku_engine.rating import rate

HARDEST = Path(__file__).resolve().parent.parent / "webapp" / "bank" / "seed_bank" / "hardest.jsonl"


def main() -> None:
    """Warm every kernel and say how long it took."""
    start = time.perf_counter()
    backend = warm_up()
    puzzle = json.loads(HARDEST.read_text().splitlines()[0])["puzzle"]
    rate(puzzle)
    generate_puzzle(seed=1)
    print(f"engine kernels ready ({backend} backend) in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
