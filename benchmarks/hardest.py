"""The top of the scale at speed: rating the hardest known puzzles and hints on the hardest bank puzzles.

Prints, with warm kernels, in one run:
- the CPU seconds ``rate`` takes on each famous hardest puzzle of ``famous_hard_puzzles.tsv`` and on the first
  puzzles of ``tdoku_forum_hardest_1905_11plus_even.txt`` (median and p95 per set), beside hodoku-py's seconds on
  the same puzzles (GPL; run in this benchmark's own environment ``benchmarks/.peers``, never a dependency);
- the wall time of ``hint`` at random positions of the shipped seed set's hardest puzzles (D 9 and up), with no
  budget (the engine's own time) and with the app's budget (what a player waits at most).

Run: ``.venv/bin/python benchmarks/hardest.py [--top N] [--hints N] [--no-peer] [--peer-timeout S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from corpus_stats import p95, read_tsv, read_txt
from rating import PEER_SCRIPT, mid_game, peer_python

from sudoku_engine.hints import hint
from sudoku_engine.rating import rate

SEED = Path(__file__).resolve().parent.parent / "webapp" / "bank" / "seed_bank" / "hardest.jsonl"
HINT_BUDGET_S = 2.0  # the app's default SUDOKU_HINT_BUDGET_S


def cpu_rate(puzzle: str) -> tuple[float, float]:
    """CPU seconds of one rating, and its D."""
    started = time.process_time()
    record = rate(puzzle)
    return time.process_time() - started, record.d


def peer_seconds(puzzles: Sequence[str], timeout: float) -> list[float] | None:
    """hodoku-py's seconds per puzzle, or None when it cannot run or does not finish within ``timeout``."""
    python = peer_python()
    if python is None:
        return None
    try:
        run = subprocess.run(
            [str(python), "-c", PEER_SCRIPT],
            input="\n".join(puzzles),
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        print(f"  hodoku-py did not finish in {timeout:.0f} s")
        return None
    return [row[0] for row in json.loads(run.stdout)]


def rating_set(label: str, names: Sequence[str], puzzles: Sequence[str], peer: bool, timeout: float) -> None:
    """Rate a set, print each puzzle's CPU time and the set's median and p95 beside hodoku-py's."""
    ours = [cpu_rate(p) for p in puzzles]
    theirs = peer_seconds(puzzles, timeout) if peer else None
    print(f"\n{label}: {len(puzzles)} puzzles")
    for i, (name, (seconds, d)) in enumerate(zip(names, ours)):
        peer_text = f"   hodoku-py {theirs[i]:6.2f} s" if theirs else ""
        print(f"  {name:34} D {d:5.2f}   ours {seconds:6.2f} s CPU{peer_text}")
    times = [seconds for seconds, _ in ours]
    print(
        f"  ours: median {statistics.median(times):.2f} s, p95 {p95(times):.2f} s of CPU"
        "   (target median <= 1 s, p95 <= 2 s)"
    )
    if theirs:
        print(
            f"  hodoku-py: median {statistics.median(theirs):.2f} s, p95 {p95(theirs):.2f} s; "
            f"ours {statistics.median(theirs) / statistics.median(times):.1f}x faster at the median"
        )


def hint_times(count: int) -> None:
    """Hint wall times at random positions of the seed set's puzzles of D 9 and up, unbounded and budgeted."""
    rows = [json.loads(line) for line in SEED.read_text().splitlines() if line.strip()]
    top = [row["puzzle"] for row in rows if row["d"] >= 9]
    rng = random.Random(11)
    positions = []
    for _ in range(count):
        puzzle = rng.choice(top)
        positions.append((puzzle, mid_game(puzzle, rng)))
    starts = [(puzzle, puzzle) for puzzle in top]
    for label, cases in ((f"{count} random positions", positions), ("the start positions", starts)):
        for budget in (None, HINT_BUDGET_S):
            times = []
            for puzzle, position in cases:
                started = time.perf_counter()
                hint(puzzle, position, budget_s=budget)
                times.append(time.perf_counter() - started)
            said = "no budget" if budget is None else f"budget {budget:.1f} s"
            print(
                f"\nhint, {said}, {label} of the {len(top)} seed puzzles of D >= 9: median "
                f"{statistics.median(times) * 1000:.0f} ms, p95 {p95(times) * 1000:.0f} ms, "
                f"max {max(times) * 1000:.0f} ms   (target p95 <= 500 ms)"
            )


def main() -> None:
    """Warm the kernels, then time the sets and the hints."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=20, help="puzzles of the 11+ list to rate")
    parser.add_argument("--hints", type=int, default=40, help="random positions to hint (0: skip)")
    parser.add_argument("--no-peer", action="store_true", help="skip hodoku-py")
    parser.add_argument("--peer-timeout", type=float, default=1800, help="seconds hodoku-py gets per set")
    args = parser.parse_args()
    famous = [r for r in read_tsv("famous_hard_puzzles.tsv")]
    rate(famous[0]["puzzle"])  # loads every kernel the ratings below reach
    names = [f"{r['puzzle_name'][:24]} (ER {r['ER'] or '?'})" for r in famous]
    rating_set("famous hardest", names, [r["puzzle"] for r in famous], not args.no_peer, args.peer_timeout)
    top = read_txt("tdoku_forum_hardest_1905_11plus_even.txt", args.top)
    labels = [f"11+ list #{i + 1}" for i in range(len(top))]
    rating_set("forum hardest 11+", labels, top, not args.no_peer, args.peer_timeout)
    if args.hints:
        hint_times(args.hints)


if __name__ == "__main__":
    main()
