"""The difficulty scale as a player meets it: the targets of issue 16 beside today's figures and the peers'.

Prints, in one run:

1. Time model: the minutes the slider page predicts at every 5 units (``slider.describe``), whether they never fall,
   slider 95 against slider 5, the Easy zone's range (against people's times: ``human_times.py``); and on a sample
   of ``sudokuexchange_graded_even.tsv`` our predicted minutes beside pencilmark's ``time`` (its predicted minutes
   for an average player): the range of each per zone, and Spearman between the two.
2. Easy puzzles: the givens of puzzles generated for slider 0-19 (target: at most 40 each, median 30-38).
3. Top end: Spearman of D against Sudoku Explainer's ER over the ER-rated puzzles of
   ``forum_hardest_1106_rated.tsv`` (target >= 0.70), hodoku-py's and pencilmark's on the ones they finish within
   ``--peer-limit`` seconds each; the five ER-rated puzzles of ``famous_hard_puzzles.tsv`` in ER order (target:
   distinct D in ER order where ER differs); the widest jump between slider knots (target <= 0.3 D).
4. The middle: on a sample of SE-rated rows of the Sudoku Exchange file, the share where se_like equals the SE
   rating (to 0.05, and within 0.1: target 50%), the median D per 0.5 band of SE rating (target: rising at every
   band), and Spearman of D against SE and against menneske grades (targets >= 0.95).

The peers (GPL) run in the benchmark's own environment ``benchmarks/.peers``, never a dependency of the project.
Run: ``.venv/bin/python benchmarks/scale.py [--jobs 2] [--sample 400] [--easy 40] [--peer-limit 120]
[--peer-sample 40] [--no-peers] [--hardest 0]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

from corpus_stats import read_tsv, spearman

from sudoku_engine import difficulty, solver
from sudoku_engine.generate import generate
from sudoku_engine.rating import NotUnique, rate
from sudoku_engine.slider import describe, target_for_slider
from sudoku_engine.slider_knots import KNOTS

PEERS = Path(__file__).resolve().parent / ".peers"
MENNESKE = ("Super easy", "Very easy", "Easy", "Medium", "Hard", "Harder", "Very hard", "Super hard", "Impossible")
PEER_SCRIPT = """
import json, sys, time, multiprocessing as mp
kind, limit = sys.argv[1], float(sys.argv[2])
def work(puzzle, out):
    if kind == "pencilmark":
        import pencilmark.api as api
        card = api.rate(puzzle)
        out.put([card["difficulty"], card["time"]])
    else:
        from hodoku import Solver
        result = Solver().rate(puzzle)
        out.put([result.score, result.score])
results = []
for line in sys.stdin:
    puzzle = line.strip()
    out = mp.Queue()
    worker = mp.Process(target=work, args=(puzzle, out))
    started = time.perf_counter()
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        worker.terminate()
        results.append(None)
    else:
        results.append(out.get() if not out.empty() else None)
print(json.dumps(results))
"""


def peer_python(package: str) -> Path | None:
    """The peers' environment with ``package`` installed (created on first use), or None."""
    python = PEERS / "bin" / "python"
    if not python.exists():
        subprocess.run(["python3", "-m", "venv", str(PEERS)], check=True)
    module = {"hodoku-py": "hodoku", "pencilmark": "pencilmark"}[package]
    if subprocess.run([str(python), "-c", f"import {module}"], capture_output=True).returncode != 0:
        install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", package], capture_output=True)
        if install.returncode != 0:
            print(f"{package} could not be installed: left out")
            return None
    return python


def peer_run(package: str, puzzles: Sequence[str], limit: float) -> list[list[float] | None]:
    """A peer's (difficulty, minutes or score) per puzzle, None where it did not finish within ``limit`` s."""
    python = peer_python(package)
    if python is None:
        return [None] * len(puzzles)
    kind = "pencilmark" if package == "pencilmark" else "hodoku"
    run = subprocess.run(
        [str(python), "-c", PEER_SCRIPT, kind, str(limit)],
        input="\n".join(puzzles),
        capture_output=True,
        text=True,
        check=True,
    )
    result: list[list[float] | None] = json.loads(run.stdout)
    return result


def rate_one(puzzle: str) -> tuple[float, float, float, float] | None:
    """D, se_like, predicted minutes and effort of a puzzle (None when it is not unique or timed out)."""
    try:
        rating = rate(puzzle, timeout=600)
    except NotUnique:
        return None
    return None if rating.timeout else (rating.d, rating.se_like, rating.predicted_minutes, rating.effort)


def rate_all(puzzles: Sequence[str], jobs: int) -> list[tuple[float, float, float, float] | None]:
    """Rate puzzles over worker processes."""
    with Pool(jobs) as pool:
        return pool.map(rate_one, puzzles, chunksize=1)


def time_model(options: argparse.Namespace) -> None:
    """Figure 1."""
    print("1. time model")
    minutes = [describe(s).predicted_minutes for s in range(0, 101)]
    monotone = all(a <= b for a, b in zip(minutes, minutes[1:]))
    print("  slider -> predicted minutes: " + ", ".join(f"{s}: {minutes[s]:.1f}" for s in range(0, 101, 5)))
    print(
        f"  never falls along the slider: {monotone}; slider 95 / slider 5 = {minutes[95] / minutes[5]:.1f}x; "
        f"Easy zone (slider 0-19) {min(minutes[:20]):.1f} to {max(minutes[:20]):.1f} min (against people's "
        "times: benchmarks/human_times.py)"
    )
    rows = read_tsv("sudokuexchange_graded_even.tsv")
    random.Random(16).shuffle(rows)
    puzzles = [r["puzzle"] for r in rows[: options.sample // 2]]
    ours = rate_all(puzzles, options.jobs)
    theirs = [None] * len(puzzles) if options.no_peers else peer_run("pencilmark", puzzles, options.peer_limit)
    pairs = [(o, t) for o, t in zip(ours, theirs) if o is not None and t is not None]
    print(f"  beside pencilmark's time on {len(puzzles)} Sudoku Exchange puzzles ({len(pairs)} rated by both):")
    for zone in (*(name for name, _ in difficulty.ZONES), "Extreme"):
        here = [(o[2], t[1]) for o, t in pairs if difficulty.zone(o[0]) == zone]
        if here:
            mine, peer = [m for m, _ in here], [p for _, p in here]
            print(
                f"    {zone:8} {len(here):4} puzzles: ours {min(mine):6.1f}-{max(mine):6.1f} min (median "
                f"{statistics.median(mine):5.1f}), pencilmark {min(peer):6.1f}-{max(peer):6.1f} min (median "
                f"{statistics.median(peer):5.1f})"
            )
    if len(pairs) > 2:
        rho = spearman([o[2] for o, _ in pairs], [t[1] for _, t in pairs])
        print(f"    Spearman (ours, pencilmark's time): {rho:.3f}")


def easy_givens(options: argparse.Namespace) -> None:
    """Figure 2."""
    print("\n2. easy puzzles: generated for slider 0-19")
    givens = []
    for k in range(options.easy):
        slider = 19 * k / max(options.easy - 1, 1)
        made = generate(target_for_slider(slider), seed=1000 + k, budget_s=3)
        givens.append(81 - made.puzzle.values.count(0))
    print(
        f"  {len(givens)} puzzles: givens min {min(givens)}, median {statistics.median(givens)}, max {max(givens)} "
        "(targets: at most 40, median 30-38)"
    )


def top_end(options: argparse.Namespace) -> None:
    """Figure 3."""
    print("\n3. top end")
    rows = [r for r in read_tsv("forum_hardest_1106_rated.tsv") if r["ER"]]
    if options.hardest:
        rows = rows[:: max(len(rows) // options.hardest, 1)][: options.hardest]
    started = time.perf_counter()
    ours = rate_all([r["puzzle"] for r in rows], options.jobs)
    rated = [(float(r["ER"]), o[0]) for r, o in zip(rows, ours) if o is not None]
    rho = spearman([d for _, d in rated], [e for e, _ in rated])
    print(
        f"  forum_hardest_1106_rated.tsv, {len(rated)} of {len(rows)} ER-rated puzzles rated in "
        f"{time.perf_counter() - started:.0f} s: Spearman(D, ER) {rho:.3f} (target >= 0.70)"
    )
    if not options.no_peers:
        picked = rows[:: max(len(rows) // options.peer_sample, 1)][: options.peer_sample]
        for package in ("hodoku-py", "pencilmark"):
            results = peer_run(package, [r["puzzle"] for r in picked], options.peer_limit)
            mine = [ours[rows.index(r)] for r in picked]
            done = [
                (float(r["ER"]), res[0], o[0])
                for r, res, o in zip(picked, results, mine)
                if res is not None and o is not None
            ]
            if len(done) > 2:
                print(
                    f"  {package}: finished {len(done)} of {len(picked)} within {options.peer_limit:.0f} s each: "
                    f"Spearman with ER {spearman([p for _, p, _ in done], [e for e, _, _ in done]):.3f}; D on the "
                    f"same {spearman([d for _, _, d in done], [e for e, _, _ in done]):.3f}"
                )
            else:
                print(f"  {package}: finished {len(done)} of {len(picked)} within {options.peer_limit:.0f} s each")
    famous = [r for r in read_tsv("famous_hard_puzzles.tsv") if r["ER"]]
    rated_famous = rate_all([r["puzzle"] for r in famous], options.jobs)
    print(
        "  famous puzzles, by ER: "
        + ", ".join(
            f"{r['puzzle_name']} ER {r['ER']} D {o[0]:.3f}"
            for r, o in sorted(zip(famous, rated_famous), key=lambda pair: -float(pair[0]["ER"]))
            if o is not None
        )
    )
    ordered = all(
        (float(a["ER"]) == float(b["ER"])) or ((oa[0] > ob[0]) == (float(a["ER"]) > float(b["ER"])))
        for (a, oa) in zip(famous, rated_famous)
        for (b, ob) in zip(famous, rated_famous)
        if a is not b and oa is not None and ob is not None
    )
    print(f"  distinct D in ER order where ER differs: {ordered}")
    jump, at = max((b - a, k) for k, (a, b) in enumerate(zip(KNOTS, KNOTS[1:])))
    print(
        f"  widest jump between slider knots: {jump:.3f} D at slider {at}-{at + 1} (target <= 0.3); top knot "
        f"{KNOTS[-1]:.2f}"
    )


def middle(options: argparse.Namespace) -> None:
    """Figure 4."""
    print("\n4. the middle")
    rows = [r for r in read_tsv("sudokuexchange_graded_even.tsv") if r["se_rating"]]
    random.Random(17).shuffle(rows)
    rows = rows[: options.sample]
    ours = rate_all([r["puzzle"] for r in rows], options.jobs)
    pairs = [(float(r["se_rating"]), o) for r, o in zip(rows, ours) if o is not None]
    exact = sum(abs(o[1] - se) < 0.05 for se, o in pairs) / len(pairs)
    near = sum(abs(o[1] - se) < 0.15 for se, o in pairs) / len(pairs)
    print(
        f"  {len(pairs)} SE-rated puzzles: se_like equals SE {100 * exact:.0f}%, within 0.1 {100 * near:.0f}% "
        "(target 50%)"
    )
    bands: dict[float, list[float]] = {}
    for se, o in pairs:
        bands.setdefault(math.floor(se * 2) / 2, []).append(o[0])
    medians = [(band, statistics.median(ds)) for band, ds in sorted(bands.items())]
    rising = all(a[1] < b[1] for a, b in zip(medians, medians[1:]))
    print(
        "  median D per 0.5 band: "
        + ", ".join(f"{b:.1f}: {m:.2f}" for b, m in medians)
        + f" -> {'rises at every band' if rising else 'NOT rising at every band'}"
    )
    print(f"  Spearman(D, SE) {spearman([o[0] for _, o in pairs], [se for se, _ in pairs]):.3f} (target >= 0.95)")
    menneske = read_tsv("menneske_graded_even.tsv")
    random.Random(18).shuffle(menneske)
    menneske = menneske[: options.sample]
    rated = rate_all([r["puzzle"] for r in menneske], options.jobs)
    grades = [(MENNESKE.index(r["menneske_grade"]), o[0]) for r, o in zip(menneske, rated) if o is not None]
    print(
        f"  Spearman(D, menneske grade) {spearman([d for _, d in grades], [g for g, _ in grades]):.3f} on "
        f"{len(grades)} puzzles (target >= 0.95)"
    )


def main() -> None:
    """Run every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=400, help="SE-rated and menneske puzzles of figure 4")
    parser.add_argument("--easy", type=int, default=40, help="puzzles generated for slider 0-19")
    parser.add_argument("--hardest", type=int, default=0, help="ER-rated puzzles of figure 3 (0: all)")
    parser.add_argument("--peer-limit", type=float, default=120.0, help="seconds per puzzle a peer may take")
    parser.add_argument("--peer-sample", type=int, default=40, help="ER-rated puzzles the peers rate")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--only", choices=("time", "easy", "top", "middle"), help="one figure only")
    options = parser.parse_args()
    print(f"solver backend: {solver.warm_up()}")
    figures = {"time": time_model, "easy": easy_givens, "top": top_end, "middle": middle}
    for name, figure in figures.items():
        if options.only in (None, name):
            figure(options)


if __name__ == "__main__":
    main()
