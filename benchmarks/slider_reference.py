"""Build the slider's reference knots (``sudoku_engine/slider_knots.py``) from the graded corpora.

The slider (0-100) maps onto D through quantiles of a reference sample (seed 002's percentile idea):

- slider 0-95: published puzzles of every grade with at most ``generate.MAX_GIVENS`` givens,
  ``sudokuexchange_graded_even.tsv``, ``menneske_graded_even.tsv`` and ``kaggle3m_curated_graded_even.tsv`` (an even
  spread of each file), rated with the measures D reads.
  They are split by zone (Easy, Medium, Hard, Expert, Extreme) and each zone gets 19 slider units, so every zone
  has the same share of the slider; within a zone, slider positions follow the quantiles of D of the zone's
  puzzles.
- slider 95-100: the hardest known puzzles (``forum_hardest_1106_rated.tsv``, ``ph1910_sample_even.tsv``,
  ``famous_hard_puzzles.tsv``): the quantiles of their D above the top of the first part, so the top of the
  slider reaches them.

The knots are D at slider 0, 1, ..., 100; beside each, the typical predicted minutes of a puzzle there (the time
model's prior: the median over the ``NEAREST`` reference puzzles whose D is nearest the knot, made non-decreasing
along the slider), which the page shows. Run: ``.venv/bin/python benchmarks/slider_reference.py [--jobs J]``; it
prints the zone counts, the knots, their widest jump and the predicted minutes, and rewrites
``sudoku_engine/slider_knots.py``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import textwrap
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

from corpus_stats import engine_fingerprint, read_tsv, spread

from sudoku_engine import difficulty, solver, time_model
from sudoku_engine.generate import MAX_GIVENS
from sudoku_engine.rating import NotUnique, rate

OUT = Path(__file__).resolve().parent.parent / "sudoku_engine" / "slider_knots.py"
CACHE = Path(__file__).resolve().parent / ".slider_reference"  # ratings kept between runs (not committed)
PUBLISHED = (
    ("sudokuexchange_graded_even.tsv", 1200),
    ("menneske_graded_even.tsv", 600),
    ("kaggle3m_curated_graded_even.tsv", 400),
)
HARDEST = (("forum_hardest_1106_rated.tsv", 125), ("ph1910_sample_even.tsv", 100), ("famous_hard_puzzles.tsv", 10))
ZONE_UNITS = 19  # slider units per zone in the first part (5 zones: 0-95)
TIMEOUT_S = 120.0
NEAREST = 15
ZONE_NAMES = (*(name for name, _ in difficulty.ZONES), "Extreme")


def _rated(puzzle: str) -> tuple[float, float] | None:
    """D and predicted minutes of a puzzle (None when it is not unique or the rating timed out)."""
    try:
        rating = rate(puzzle, timeout=TIMEOUT_S, measures=difficulty.MEASURES)
    except NotUnique:
        return None
    return None if rating.timeout else (rating.d, rating.predicted_minutes)


def rated(files: Sequence[tuple[str, int]], jobs: int, max_givens: int = 81) -> list[tuple[float, float]]:
    """D and predicted minutes of a spread sample of each file's puzzles with at most ``max_givens`` givens (puzzles
    that cannot be rated are left out). Ratings are kept in ``CACHE`` under the engine's fingerprint as they arrive, so
    a run that stops resumes."""
    puzzles = [
        p
        for name, count in files
        for p in spread([r["puzzle"] for r in read_tsv(name) if 81 - r["puzzle"].count(".") <= max_givens], count)
    ]
    cache = CACHE / f"ratings-{engine_fingerprint()}.jsonl"
    known: dict[str, tuple[float, float] | None] = {}
    if cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            known[entry["puzzle"]] = None if entry["d"] is None else (entry["d"], entry["minutes"])
    todo = [p for p in dict.fromkeys(puzzles) if p not in known]
    cache.parent.mkdir(exist_ok=True)
    with Pool(jobs) as pool, cache.open("a", encoding="utf-8") as out:
        for puzzle, found in zip(todo, pool.imap(_rated, todo, chunksize=1)):
            known[puzzle] = found
            d, minutes = found if found is not None else (None, None)
            out.write(json.dumps({"puzzle": puzzle, "d": d, "minutes": minutes}) + "\n")
            out.flush()
    return [found for p in puzzles if (found := known[p]) is not None]


def quantile(ordered: Sequence[float], f: float) -> float:
    """The f-quantile of sorted values, interpolated between order statistics."""
    place = f * (len(ordered) - 1)
    low = int(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (place - low) * (ordered[high] - ordered[low])


def knots(published: Sequence[float], hardest: Sequence[float]) -> list[float]:
    """D at slider 0..100: zone quantiles of the published puzzles to 95, the hardest puzzles above."""
    zones: list[list[float]] = [[] for _ in ZONE_NAMES]
    for d in published:
        zones[ZONE_NAMES.index(difficulty.zone(d))].append(d)
    for z in zones:
        z.sort()
    out = []
    for k in range(5 * ZONE_UNITS + 1):
        z = min(k // ZONE_UNITS, len(zones) - 1)
        out.append(quantile(zones[z], (k - z * ZONE_UNITS) / ZONE_UNITS))
    top = sorted(d for d in hardest if d > out[-1]) or [out[-1]]
    tail = 100 - 5 * ZONE_UNITS
    for k in range(1, tail + 1):
        out.append(quantile(top, k / tail))
    for k in range(1, len(out)):
        out[k] = max(out[k], out[k - 1])
    return out


def typical_minutes(knot_values: Sequence[float], sample: Sequence[tuple[float, float]]) -> list[float]:
    """The typical predicted minutes at each knot: the median of the NEAREST puzzles by D, non-decreasing."""
    out: list[float] = []
    for value in knot_values:
        near = sorted(sample, key=lambda item: abs(item[0] - value))[:NEAREST]
        out.append(max(statistics.median(minutes for _, minutes in near), out[-1] if out else 0.0))
    return out


def write(values: Sequence[float], minutes: Sequence[float], counts: dict[str, int], hardest: int) -> None:
    """Rewrite the knots module."""
    rows = ",\n".join("    " + ", ".join(f"{v:.3f}" for v in values[i : i + 10]) for i in range(0, len(values), 10))
    minute_rows = ",\n".join(
        "    " + ", ".join(f"{v:.2f}" for v in minutes[i : i + 10]) for i in range(0, len(minutes), 10)
    )
    zones = ", ".join(f"{name} {count}" for name, count in counts.items())
    about = textwrap.fill(
        f"Reference sample: {sum(counts.values())} published puzzles with at most {MAX_GIVENS} givens, by zone "
        f"({zones}) for slider 0-95, {hardest} of the hardest known puzzles for 95-100. MINUTES: the typical "
        f"predicted minutes of a puzzle at each knot. Built {datetime.date.today().isoformat()}.",
        116,
    )
    OUT.write_text(
        '"""D at slider 0, 1, ..., 100: written by ``benchmarks/slider_reference.py`` (see its docstring).\n\n'
        f'{about}\n"""\n\n'
        f"KNOTS: tuple[float, ...] = (\n{rows},\n)\n\n"
        f"MINUTES: tuple[float, ...] = (\n{minute_rows},\n)\n"
    )


def main() -> None:
    """Rate the reference sample, print the zone counts and knots, and write the module."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    options = parser.parse_args()
    solver.warm_up()
    started = time.perf_counter()
    published = rated(PUBLISHED, options.jobs, MAX_GIVENS)
    hardest = rated(HARDEST, options.jobs)
    counts = {name: sum(difficulty.zone(d) == name for d, _ in published) for name in ZONE_NAMES}
    print(
        f"published: {len(published)} rated, by zone {counts}; hardest: {len(hardest)} rated, "
        f"median D {statistics.median(d for d, _ in hardest):.2f}"
    )
    values = knots([d for d, _ in published], [d for d, _ in hardest])
    minutes = typical_minutes(values, [*published, *hardest])
    for k in range(0, 101, 5):
        shown = time_model.estimate(minutes[k], values[k]).words
        print(f"  slider {k:3}: D {values[k]:.3f} ({difficulty.zone(values[k])}), {minutes[k]:.1f} min: {shown}")
    jump, at = max((b - a, k) for k, (a, b) in enumerate(zip(values, values[1:])))
    print(f"widest jump between knots: {jump:.3f} D (slider {at} to {at + 1})")
    write(values, minutes, counts, len(hardest))
    print(f"wrote {OUT} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
