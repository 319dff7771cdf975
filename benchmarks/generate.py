"""Targeted generation on demand (no bank): hit rate, time to a hit and monotony along the slider, beside peers.

Three figures of issue 5, each printed beside its target:

1. Hit rate at slider 5, 15, ..., 95: ``--calls`` calls per slider value (distinct seeds), each with a budget of
   ``--budget`` seconds (``--top-budget`` above slider 80); the share of calls with |D - target| within the
   tolerance, the time to a hit (median, mean and p95 over the calls that hit; the p95 over all calls, misses
   included, beside it), seed 002's generation cost (the expected time to a hit when a miss is retried with a new
   seed: the time of all calls over the number of hits) and the median number of evaluations. Every returned
   puzzle is checked unique with the exact solver, and the D of the first ``--recheck`` puzzles per slider value
   is recomputed with ``rate`` and compared with the reported value.
2. Monotony: ``--requests`` requests at slider values drawn uniformly from 0-100 (seeded), same budgets; Spearman
   rho between the slider value and the measured D of the served puzzle.
3. Peers, in the same run, on comparable levels: for each zone (Easy .. Extreme; its slider span is computed from
   ``target_for_slider``), ``--calls`` of our calls spread over the zone's slider span beside ``--peer-calls``
   calls of hodoku-py's ``Generator().generate(level)`` (EASY, MEDIUM, HARD, UNFAIR, EXTREME) and of pencilmark's
   ``pencilmark.gen.generate`` with a ``target_difficulty`` range on its own difficulty scale. The peers run in
   the benchmark's own environment ``benchmarks/.peers`` (never a dependency of the project), timed inside their
   own process, each call limited to ``--peer-limit`` seconds (hodoku-py: one try at a time until the limit;
   pencilmark: its ``time_limit``, checked between attempts, so a call can run past it; the process is killed at
   three times the limits). Printed per level: their median time per puzzle (a failed call counts as infinite;
   when more than half fail, the time they spent gives a lower bound of the ratio) against our median time to a
   hit (our mean and expected time to a hit beside it), the ratio, and the median D (our rating) of the unique
   puzzles each produces.

Run: ``.venv/bin/python benchmarks/generate.py [--calls N] [--sliders 35,55] [--requests M] [--budget S]
[--top-budget S2] [--peer-calls K] [--peer-limit L] [--peer-zones Easy,Hard] [--no-peers] [--seed K] [--quick]``;
``--quick`` is a smoke run of about a minute; ``--requests 0 --no-peers --peer-zones ''`` runs figure 1 alone.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from corpus_stats import p95, spearman

from sudoku_engine import difficulty, solver
from sudoku_engine.generate import DEFAULT_TOLERANCE, generate
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider
from sudoku_engine.solver import count_solutions

SLIDERS = tuple(range(5, 100, 10))
TOP_SLIDER = 80  # above it the top budget applies and the time targets are only reported
TARGET_HIT_RATE = 0.95
TARGET_MEDIAN_S = 0.3
TARGET_P95_S = 2.0
TARGET_RHO = 0.97
ZONE_NAMES = (*(name for name, _ in difficulty.ZONES), "Extreme")
HODOKU_LEVELS = {"Easy": "EASY", "Medium": "MEDIUM", "Hard": "HARD", "Expert": "UNFAIR", "Extreme": "EXTREME"}
# pencilmark's card difficulty is its own continuous scale ("a typical newspaper medium is about 5"); its cards of
# puzzles we generate in each zone sit around 3-4 (Easy), 5 (Medium), 6-8 (Hard), 6-8 (Expert), 10-11 (Extreme).
PENCILMARK_RANGES = {
    "Easy": (3.0, 4.5),
    "Medium": (4.5, 5.5),
    "Hard": (5.5, 7.0),
    "Expert": (7.0, 9.0),
    "Extreme": (9.5, 12.0),
}

PEERS = Path(__file__).resolve().parent / ".peers"
PEER_PACKAGES = {"hodoku-py": "hodoku", "pencilmark": "pencilmark"}
HODOKU_SCRIPT = """
import json, sys, time
from hodoku import DifficultyType, Generator
request = json.loads(sys.stdin.read())
if request["level"] not in DifficultyType.__members__:
    sys.exit(f"no level {request['level']!r} in {list(DifficultyType.__members__)}")
level = DifficultyType[request["level"]]
generator = Generator()
inner = getattr(generator, "_generator", None)
for i in range(request["calls"]):
    if inner is not None and hasattr(inner, "_rand"):
        inner._rand.seed(request["seed"] + i)
    started = time.perf_counter()
    puzzle, tries = None, 0
    while puzzle is None and time.perf_counter() - started < request["limit"]:
        tries += 1
        try:
            puzzle = generator.generate(level, max_tries=1)
        except RuntimeError:
            pass
    note = f"{tries} tries" if puzzle else f"none in {tries} tries"
    print(json.dumps([time.perf_counter() - started, puzzle, note]), flush=True)
"""
PENCILMARK_SCRIPT = """
import json, sys, time
from pencilmark.gen import GenerationFailed, generate
request = json.loads(sys.stdin.read())
for i in range(request["calls"]):
    spec = {"size": 9, "target_difficulty": request["level"], "symmetry": "rot180", "seed": request["seed"] + i,
            "time_limit": request["limit"]}
    started = time.perf_counter()
    try:
        result = generate(spec)
        out = [time.perf_counter() - started, result["puzzle"]["numbers"], f"difficulty {result['card']['difficulty']}"]
    except GenerationFailed as error:
        out = [time.perf_counter() - started, None, str(error)[:100]]
    print(json.dumps(out), flush=True)
"""


@dataclass(frozen=True)
class Call:
    """One on-demand generation: where it aimed, what it served and what it cost."""

    slider: float
    target: float
    puzzle: str
    value: float
    hit: bool
    seconds: float
    evaluations: int


@dataclass(frozen=True)
class PeerCall:
    """One peer generation: seconds, the puzzle (None when it failed within the limit) and a note."""

    seconds: float
    puzzle: str | None
    note: str


def budget_for(slider: float, options: argparse.Namespace) -> float:
    """The budget of a call at a slider value: the top budget above slider 80."""
    return options.top_budget if slider > TOP_SLIDER else options.budget


def served(slider: float, seed: int, options: argparse.Namespace) -> Call:
    """Generate at a slider value and check the puzzle is unique."""
    target = target_for_slider(slider)
    result = generate(target, seed=seed, budget_s=budget_for(slider, options))
    puzzle = str(result.puzzle)
    assert count_solutions(result.puzzle) == 1, f"not unique: {puzzle} (slider {slider}, seed {seed})"
    return Call(slider, target, puzzle, result.value, result.hit, result.seconds, result.evaluations)


def recheck(calls: Sequence[Call]) -> list[str]:
    """Calls whose D, recomputed by ``rate``, differs from the reported value."""
    wrong = []
    for call in calls:
        d = rate(call.puzzle, measures=difficulty.MEASURES).d
        if abs(d - call.value) > 1e-9:
            wrong.append(f"{call.puzzle}: reported {call.value:.4f}, rate() {d:.4f}")
    return wrong


def censored_p95(values: Sequence[float]) -> float:
    """95th percentile as numpy's linear one, inf when it reaches a censored (inf) value."""
    ordered = sorted(values)
    rank = 0.95 * (len(ordered) - 1)
    low, high = math.floor(rank), math.ceil(rank)
    if not math.isfinite(ordered[high]):
        return math.inf
    return ordered[low] + (rank - low) * (ordered[high] - ordered[low])


STATISTICS = {"median": statistics.median, "mean": statistics.fmean, "p95": censored_p95}


def seconds(values: Sequence[float], statistic: str = "median") -> str:
    """The median, mean or p95 of times in seconds: '-' without values, 'inf' when censored values reach it."""
    if not values:
        return "     -"
    value = STATISTICS[statistic](values)
    return f"{value:6.2f}" if math.isfinite(value) else "   inf"


def expected_to_hit(calls: Sequence[Call]) -> float:
    """Seed 002's generation cost: the expected time to a hit when a miss is retried with a new seed, estimated as
    the time of all calls over the number of hits (inf without a hit); the mean over hits when every call hits."""
    hits = sum(c.hit for c in calls)
    return sum(c.seconds for c in calls) / hits if hits else math.inf


def mark(ok: bool) -> str:
    """A short pass/fail mark beside a figure."""
    return "ok" if ok else "MISS"


def slider_row(slider: int, calls: Sequence[Call]) -> str:
    """One row of figure 1: target, zone, hits, time to a hit, p95 over all calls and evaluations."""
    hits = [c.seconds for c in calls if c.hit]
    share = len(hits) / len(calls)
    time_ok = bool(hits) and statistics.median(hits) < TARGET_MEDIAN_S and p95(hits) < TARGET_P95_S
    all_calls = [c.seconds if c.hit else math.inf for c in calls]
    evaluations = statistics.median(c.evaluations for c in calls)
    return (
        f"   {slider:6}  {calls[0].target:8.2f}  {difficulty.zone(calls[0].target):8}"
        f"  {len(hits):3}/{len(calls):<3} {100 * share:5.1f}% {mark(share >= TARGET_HIT_RATE):4}"
        f"  {seconds(hits)} s {seconds(hits, 'mean')} s {seconds(hits, 'p95')} s "
        f"{mark(time_ok) if slider <= TOP_SLIDER else '(rep)':5}"
        f"| {seconds(all_calls, 'p95')} s  {seconds([expected_to_hit(calls)])} s  {evaluations:10.0f}"
    )


def hit_rate(options: argparse.Namespace) -> None:
    """Figure 1: hit rate, time to a hit and evaluations at slider 5, 15, ..., 95."""
    print(
        f"\n1. hit rate and time to a hit, {options.calls} calls per slider value, tolerance {DEFAULT_TOLERANCE} "
        f"(budget {options.budget} s, {options.top_budget} s above slider {TOP_SLIDER})"
    )
    print(
        f"   targets: hits >= {TARGET_HIT_RATE:.0%}; up to slider {TOP_SLIDER}, time to a hit median < "
        f"{TARGET_MEDIAN_S} s and p95 < {TARGET_P95_S} s (above: reported)"
    )
    print(
        "   slider  target D  zone      hits                       ti"
        "me to a hit             | p95, misses expected     evals"
    )
    print(
        "                                                    median  "
        "  mean      p95         | as inf      w/ retries  median"
    )
    every: list[Call] = []
    mismatches: list[str] = []
    for slider in options.sliders:
        calls = [served(slider, options.seed * 1_000_000 + slider * 1000 + i, options) for i in range(options.calls)]
        every += calls
        mismatches += recheck(calls[: options.recheck])
        print(slider_row(slider, calls), flush=True)
    total = sum(c.hit for c in every) / len(every)
    worst = min(options.sliders, key=lambda s: sum(c.hit for c in every if c.slider == s))
    print(
        f"   overall {100 * total:.1f}% hits, lowest at slider {worst}; all {len(every)} puzzles unique (exact solver)"
    )
    print(
        f"   D re-checked with rate() on {min(options.recheck, options.calls)} per slider value: "
        f"{len(mismatches)} mismatch(es)"
    )
    for line in mismatches:
        print(f"     {line}")


def monotone(options: argparse.Namespace) -> None:
    """Figure 2: Spearman rho between slider value and measured D over random requests."""
    if options.requests < 2:
        print("\n2. monotony: skipped (--requests below 2)")
        return
    rng = random.Random(options.seed)
    calls = []
    for _ in range(options.requests):
        slider = rng.uniform(0, 100)
        calls.append(served(slider, rng.randrange(2**63), options))
    sliders, values = [c.slider for c in calls], [c.value for c in calls]
    rho = spearman(sliders, values)
    hits = sum(c.hit for c in calls)
    print(f"\n2. monotony, {len(calls)} requests at uniform random slider values (seed {options.seed})")
    print(f"   Spearman rho slider vs measured D: {rho:.3f}   (target >= {TARGET_RHO}) {mark(rho >= TARGET_RHO)}")
    print(
        f"   hits {hits}/{len(calls)}; rho target D vs measured D {spearman([c.target for c in calls], values):.3f}; "
        f"all unique; time per request median {statistics.median(c.seconds for c in calls):.2f} s, "
        f"p95 {p95([c.seconds for c in calls]):.2f} s"
    )


def zone_spans(step: float = 0.05) -> dict[str, tuple[float, float]]:
    """The slider span (lowest, highest position) whose target D falls in each zone."""
    spans: dict[str, tuple[float, float]] = {}
    for k in range(round(100 / step) + 1):
        position = k * step
        zone = difficulty.zone(target_for_slider(position))
        low, _ = spans.get(zone, (position, position))
        spans[zone] = (low, position)
    return spans


def zone_positions(span: tuple[float, float], n: int) -> list[float]:
    """n slider positions spread evenly over a span (the midpoints of n equal parts)."""
    low, high = span
    return [low + (i + 0.5) * (high - low) / n for i in range(n)]


def ours_by_zone(options: argparse.Namespace, spans: dict[str, tuple[float, float]]) -> dict[str, list[Call]]:
    """Our calls for each zone, spread over its slider span."""
    out = {}
    for z, zone in enumerate(ZONE_NAMES):
        if zone in spans and zone in options.peer_zones:
            positions = zone_positions(spans[zone], options.calls)
            out[zone] = [
                served(s, options.seed * 1_000_000 + 500_000 + z * 1000 + i, options) for i, s in enumerate(positions)
            ]
    return out


def peer_python() -> tuple[Path | None, set[str]]:
    """The benchmark environment's Python and the peers importable there (missing ones installed on first use)."""
    python = PEERS / "bin" / "python"
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(PEERS)], capture_output=True)
        if made.returncode != 0:
            print("   could not create benchmarks/.peers: peers skipped")
            return None, set()
    available = set()
    for package, module in PEER_PACKAGES.items():
        if subprocess.run([str(python), "-c", f"import {module}"], capture_output=True).returncode != 0:
            install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", package], capture_output=True)
            if install.returncode != 0:
                print(f"   {package} could not be installed: skipped")
                continue
        available.add(package)
    return python, available


def run_peer(python: Path, script: str, level: object, options: argparse.Namespace) -> list[PeerCall] | str:
    """A peer's calls at one level, timed in its own process; an error message when it fails to run."""
    request = {"level": level, "calls": options.peer_calls, "limit": options.peer_limit, "seed": options.seed}
    hard_limit = options.peer_calls * options.peer_limit * 3 + 20  # an attempt may run past the limit
    started = time.perf_counter()
    try:
        run = subprocess.run(
            [str(python), "-c", script], input=json.dumps(request), capture_output=True, text=True, timeout=hard_limit
        )
        stdout, failed = run.stdout, run.returncode != 0
        error = run.stderr.strip().splitlines()[-1:] if failed else []
    except subprocess.TimeoutExpired as expired:
        raw = expired.stdout or ""
        stdout, failed, error = raw.decode() if isinstance(raw, bytes) else raw, False, []
    calls = [PeerCall(*json.loads(line)) for line in stdout.splitlines() if line.startswith("[")]
    if failed and not calls:
        return f"failed to run: {' '.join(error) or 'no output'}"
    if len(calls) < options.peer_calls:  # killed: the call in progress spent the rest (later calls never ran)
        spent = time.perf_counter() - started - sum(c.seconds for c in calls)
        calls.append(PeerCall(spent, None, f"stopped after {spent:.0f} s (killed at the hard limit or crashed)"))
    return calls


def peer_line(label: str, calls: list[PeerCall] | str, ours: float) -> None:
    """One peer level: puzzles made, median and p95 time per puzzle, median D of its puzzles, ratio to ours."""
    if isinstance(calls, str):
        print(f"     {label:26} {calls}")
        return
    times = [c.seconds if c.puzzle else math.inf for c in calls]
    made = [c.puzzle.replace(".", "0") for c in calls if c.puzzle]
    unique = [p for p in made if count_solutions(p) == 1]
    ds = [rate(p, measures=difficulty.MEASURES).d for p in unique]
    median = statistics.median(times)
    if not math.isfinite(ours):
        ratio = "ratio: - (no hit of ours)"
    elif math.isfinite(median):
        ratio = f"ours is {median / ours:.1f}x faster"
    else:  # more than half failed: the time they spent is a lower bound of their time per puzzle
        ratio = f"ours is > {statistics.median(c.seconds for c in calls) / ours:.0f}x faster (lower bound)"
    d_text = f"median D {statistics.median(ds):.2f}" if ds else "median D -"
    failure = next((f"; a failure: {c.note}" for c in calls if not c.puzzle), "")
    print(
        f"     {label:26} {len(made)}/{len(calls)} made ({len(unique)} unique), time per puzzle median "
        f"{seconds(times)} s, p95 {seconds(times, 'p95')} s; {d_text}; {ratio}{failure}",
        flush=True,
    )


def peers(options: argparse.Namespace) -> None:
    """Figure 3: per zone, our median time to a hit beside hodoku-py's and pencilmark's time per puzzle."""
    spans = zone_spans()
    print(
        f"\n3. against peers on comparable levels: {options.calls} of our calls per zone, {options.peer_calls} per "
        f"peer level, peer limit {options.peer_limit} s per call (failures count as infinite)"
    )
    python, available = (None, set()) if options.no_peers else peer_python()
    if not options.no_peers and python is None:
        print("   peers unavailable")
    ours = ours_by_zone(options, spans)
    for zone, calls in ours.items():
        hits = [c.seconds for c in calls if c.hit]
        low, high = spans[zone]
        ours_median = statistics.median(hits) if hits else math.inf
        print(
            f"   {zone} (slider {low:.1f}-{high:.1f}, D {target_for_slider(low):.2f}-{target_for_slider(high):.2f}):"
            f" ours {len(hits)}/{len(calls)} hits, time to a hit median {seconds(hits)} s, mean "
            f"{seconds(hits, 'mean')} s, p95 {seconds(hits, 'p95')} s, expected with retries "
            f"{seconds([expected_to_hit(calls)])} s, median D {statistics.median(c.value for c in calls):.2f}",
            flush=True,
        )
        if python is None:
            continue
        if "hodoku-py" in available:
            level = HODOKU_LEVELS[zone]
            peer_line(f"hodoku-py {level}", run_peer(python, HODOKU_SCRIPT, level, options), ours_median)
        if "pencilmark" in available:
            span = PENCILMARK_RANGES[zone]
            peer_line(
                f"pencilmark [{span[0]}, {span[1]}]",
                run_peer(python, PENCILMARK_SCRIPT, list(span), options),
                ours_median,
            )


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (``--quick`` overrides the sizes for a smoke run)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=20, help="calls per slider value and per zone (default 20)")
    parser.add_argument(
        "--sliders", default=",".join(map(str, SLIDERS)), help="slider values of figure 1 (default 5,15,...,95)"
    )
    parser.add_argument(
        "--requests", type=int, default=200, help="random-slider requests for rho (default 200; 0 skips figure 2)"
    )
    parser.add_argument("--budget", type=float, default=3.0, help="seconds per call up to slider 80 (default 3)")
    parser.add_argument("--top-budget", type=float, default=30.0, help="seconds per call above slider 80 (default 30)")
    parser.add_argument("--recheck", type=int, default=3, help="puzzles per slider value whose D is recomputed")
    parser.add_argument("--peer-calls", type=int, default=10, help="peer calls per level (default 10)")
    parser.add_argument("--peer-limit", type=float, default=60.0, help="seconds per peer call (default 60)")
    parser.add_argument("--peer-zones", default=",".join(ZONE_NAMES), help="zones compared with peers")
    parser.add_argument("--no-peers", action="store_true", help="skip hodoku-py and pencilmark")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--quick", action="store_true", help="smoke run: few calls, small budgets, peers on Easy only")
    options = parser.parse_args(argv)
    if options.quick:
        options.calls, options.requests, options.recheck = 2, 12, 1
        options.budget, options.top_budget = 1.0, 3.0
        options.peer_calls, options.peer_limit, options.peer_zones = 1, 5.0, "Easy"
    options.peer_zones = [z.strip() for z in options.peer_zones.split(",") if z.strip()]
    options.sliders = [int(s) for s in options.sliders.split(",") if s.strip()]
    return options


def main() -> None:
    """Run the benchmark."""
    started = time.perf_counter()
    options = parse()
    print(f"solver backend: {solver.warm_up()}")
    generate(target_for_slider(50), seed=0, budget_s=options.budget)  # compile and warm caches before timing
    for figure in (hit_rate, monotone, peers):
        figure_started = time.perf_counter()
        figure(options)
        print(f"   ({time.perf_counter() - figure_started:.0f} s)", flush=True)
    print(f"\ntotal run time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
