"""Build the shipped seed set (``webapp/bank/seed_bank/hardest.jsonl`` and its ``SOURCE.md``) from the hardest lists.

The top of the slider (D about 8 to 12: forcing chains, nets, nested forcing chains) cannot be generated on demand,
so the bank holds such puzzles from set-up (``flask pool seed``, which ``make run`` calls). Candidates are the
puzzles with at most ``generate.MAX_GIVENS`` givens of three lists of ``$SUDOKU_DATA`` whose licence SOURCES.md
states (tdoku's BSD-2-Clause; see ``LISTS``): all of ``magictour_top1465.txt`` and ``forum_hardest_1106_rated.tsv``
and an even spread of ``--sample`` puzzles of ``tdoku_forum_hardest_1905_11plus_even.txt`` (24,383 puzzles, all of
SE 11 or more, so a sample covers its range). Each is rated by the engine over ``--jobs`` worker processes, as
``pool.rated_record`` rates (a puzzle not rated within ``--timeout`` seconds is left out); the ratings go to
``--candidates`` as they arrive (by default a file in ``benchmarks/.seed_bank/``, not committed, named by a
digest of the engine's source, so ratings of another engine version are never reused), and a later run rates
only the puzzles missing there: a build can be resumed, or its selection redone at once.

Selection: about ``--count`` puzzles from D ``--low`` to the highest D found, one nearest each of ``--count``
evenly spaced D values, then more while a slider value from 80 to 100 (every half unit) has fewer than ``--near``
puzzles within the generation tolerance of its target D (``slider.target_for_slider``). Printed: the candidates
per list, the puzzles kept per list and zone, and the slider values still short of ``--near``.

Run: ``.venv/bin/python benchmarks/seed_bank.py [--jobs J] [--count N] [--sample S] [--timeout T]`` (the full
build rates about 2,000 puzzles, the hardest 2-80 s each: hours on two cores). ``--limit L`` rates only the first
L candidates of each list and ``--out`` writes elsewhere: a quick check of the pipeline; ``--stride K`` takes every
K-th puzzle of the lists taken whole.
"""

from __future__ import annotations

import argparse
import bisect
import datetime
import json
import textwrap
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from corpus_stats import DATA, engine_fingerprint

from sudoku_engine import difficulty
from sudoku_engine.generate import DEFAULT_TOLERANCE, MAX_GIVENS
from sudoku_engine.grid import InvalidPuzzle, parse_values
from sudoku_engine.rating import NotUnique, rate
from sudoku_engine.slider import target_for_slider
from sudoku_engine.solver import solve
from webapp.bank import pool, seed
from webapp.bank.cli import mapped

# file, what SOURCES.md says it is, and its provenance and licence as SOURCES.md states them
LISTS = (
    (
        "magictour_top1465.txt",
        "the full magictour top1465 list (Guenter Stertenbrink), as packaged by tdoku (`puzzles3_magictour_top1465`)",
        "copied from `balmerdx/sudoku_pytorch` (`data/puzzles3_magictour_top1465`), a copy of tdoku's `data.zip`; "
        "licence stated: none in the copying repository; tdoku BSD-2-Clause",
    ),
    (
        "tdoku_forum_hardest_1905_11plus_even.txt",
        "the even rows of tdoku's `puzzles5_forum_hardest_1905_11+` (sampled by tdoku from the Enjoy Sudoku forum's "
        '"potential hardest" list ph_1905, restricted to SE rating 11.0 or more)',
        "copied from `balmerdx/sudoku_pytorch` (`data/puzzles5_forum_hardest_1905_11+`), a copy of tdoku's `data.zip`; "
        "licence stated: none in the copying repository; tdoku BSD-2-Clause",
    ),
    (
        "forum_hardest_1106_rated.tsv",
        'HardestDatabase110626, the list that started the Enjoy Sudoku forum\'s "hardest sudokus" thread (t6539); '
        "identical puzzles and order to tdoku's `puzzles6_forum_hardest_1106`",
        "the puzzles are tdoku's `puzzles6_forum_hardest_1106` (copied from `balmerdx/sudoku_pytorch`, a copy of "
        "tdoku's `data.zip`; licence stated: none in the copying repository; tdoku BSD-2-Clause); the file with the "
        "forum's ratings was copied from `operdeck/sudoku` (licence stated: none), and only the puzzle column is used",
    ),
)
SAMPLED = "tdoku_forum_hardest_1905_11plus_even.txt"
CACHE_DIR = Path(__file__).resolve().parent / ".seed_bank"  # ratings kept between runs (not committed)
SLIDER_LOW, SLIDER_STEP = 80.0, 0.5
TDOKU_LICENCE = """BSD 2-Clause License

Copyright (c) 2019, Tom Dillon
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""


@dataclass(frozen=True)
class Candidate:
    """A puzzle of a list: where it is (``file:line``) and its givens."""

    origin: str
    puzzle: str


@dataclass(frozen=True)
class Rated:
    """A rated candidate: its bank record and where it came from."""

    origin: str
    record: pool.BankRecord

    @property
    def d(self) -> float:
        """The record's D."""
        return self.record["d"]


def list_puzzles(name: str) -> list[Candidate]:
    """The puzzles of a list with their ``file:line`` (the ``puzzle`` column of a TSV, else the whole line)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    column, first = 0, 0
    if name.endswith(".tsv"):
        column, first = lines[0].split("\t").index("puzzle"), 1
    return [
        Candidate(f"{name}:{number + 1}", line.split("\t")[column].strip())
        for number, line in enumerate(lines)
        if number >= first and line.strip()
    ]


def bankable(candidate: Candidate) -> bool:
    """A readable puzzle with at most MAX_GIVENS givens."""
    try:
        values = parse_values(candidate.puzzle)
    except InvalidPuzzle:
        return False
    return sum(1 for v in values if v) <= MAX_GIVENS


def evenly(items: Sequence[Candidate], count: int) -> list[Candidate]:
    """``count`` items taken evenly across a list (all of it when count is 0 or too large)."""
    if count <= 0 or count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def candidates(sample: int, limit: int | None, stride: int = 1) -> list[Candidate]:
    """The bankable puzzles of every list (an even spread of ``sample`` of the sampled list, every ``stride``-th of
    the others; the first ``limit`` of each list when given)."""
    found = []
    for name, _, _ in LISTS:
        usable = [c for c in list_puzzles(name) if bankable(c)]
        usable = evenly(usable, sample) if name == SAMPLED else usable[::stride]
        found.extend(usable[:limit])
    return found


def rate_candidate(job: tuple[Candidate, float]) -> tuple[Candidate, pool.BankRecord | None]:
    """The bank record of a candidate, as ``pool.rated_record`` makes it, or None when it is not unique or not rated
    within the timeout (runs in worker processes)."""
    candidate, timeout_s = job
    values = parse_values(candidate.puzzle)
    try:
        rating = rate(values, timeout=timeout_s, measures=difficulty.MEASURES)
    except NotUnique:
        return candidate, None
    if rating.timeout:
        return candidate, None
    solution = solve(values)
    assert solution is not None  # rate checked there is exactly one
    return candidate, pool.record_of(values, solution.values, rating, seed.SOURCE)


def read_rated(path: Path) -> dict[str, Rated]:
    """The ratings a candidates file holds already, by origin (none when it does not exist)."""
    if not path.is_file():
        return {}
    rated = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            origin = json.loads(line)["origin"]
            rated[origin] = Rated(origin, seed.parse_record(line))
    return rated


def rate_all(todo: list[Candidate], jobs: int, timeout_s: float, path: Path) -> tuple[list[Rated], int]:
    """Rate the candidates over ``jobs`` processes, appending each rating to the candidates file as it arrives;
    the ratings and how many candidates were left out."""
    rated, dropped = [], 0
    started = time.perf_counter()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        for done, (candidate, record) in enumerate(mapped(rate_candidate, [(c, timeout_s) for c in todo], jobs), 1):
            if record is None:
                dropped += 1
            else:
                rated.append(Rated(candidate.origin, record))
                out.write(seed.seed_line(record, candidate.origin) + "\n")
                out.flush()
            if done % 25 == 0 or done == len(todo):
                print(
                    f"  rated {done}/{len(todo)} ({time.perf_counter() - started:.0f} s, {dropped} left out)",
                    flush=True,
                )
    return rated, dropped


def slider_targets() -> list[tuple[float, float]]:
    """(slider value, target D) every SLIDER_STEP from SLIDER_LOW to 100."""
    steps = int(round((100.0 - SLIDER_LOW) / SLIDER_STEP))
    return [(s, target_for_slider(s)) for s in (SLIDER_LOW + i * SLIDER_STEP for i in range(steps + 1))]


def distinct(rated: Iterable[Rated]) -> list[Rated]:
    """One rating per canonical puzzle (lists share puzzles), sorted by D."""
    by_puzzle: dict[str, Rated] = {}
    for item in rated:
        by_puzzle.setdefault(item.record["puzzle"], item)
    return sorted(by_puzzle.values(), key=lambda item: item.d)


def nearest_free(ds: Sequence[float], taken: set[int], d: float, within: float) -> int | None:
    """Index of the untaken rating nearest D ``d`` within ``within`` (``ds``: the sorted D values), else None."""
    best: int | None = None
    middle = bisect.bisect_left(ds, d)
    low, high = middle - 1, middle
    while low >= 0 or high < len(ds):
        gap_low = d - ds[low] if low >= 0 else float("inf")
        gap_high = ds[high] - d if high < len(ds) else float("inf")
        index, gap = (low, gap_low) if gap_low <= gap_high else (high, gap_high)
        if gap > within:
            break
        if index not in taken:
            best = index
            break
        if index == low:
            low -= 1
        else:
            high += 1
    return best


def select(
    rated: Sequence[Rated], count: int, low: float, near: int, tolerance: float, targets: Sequence[tuple[float, float]]
) -> tuple[list[Rated], list[tuple[float, float, int]]]:
    """About ``count`` ratings spread evenly over D from ``low`` to the top, topped up to ``near`` within
    ``tolerance`` of each target; the kept ratings (by D) and the (slider, target, count) still short."""
    pool_ = [item for item in distinct(rated) if item.d >= low]
    if not pool_:
        return [], [(s, t, 0) for s, t in targets]
    ds = [item.d for item in pool_]
    top = ds[-1]
    step = (top - low) / (count - 1) if count > 1 else top - low
    taken: set[int] = set()
    for i in range(count):
        index = nearest_free(ds, taken, low + i * step, max(step, 1e-9))
        if index is not None:
            taken.add(index)
    short = []
    for slider, target in targets:
        have = sum(1 for i in taken if abs(ds[i] - target) <= tolerance)
        while have < near:
            index = nearest_free(ds, taken, target, tolerance)
            if index is None:
                short.append((slider, target, have))
                break
            taken.add(index)
            have += 1
    return [pool_[i] for i in sorted(taken)], short


def source_text(kept: Sequence[Rated], built: str) -> str:
    """SOURCE.md: where the puzzles come from, their licence, and how the file was built."""
    per_list = Counter(item.origin.split(":", 1)[0] for item in kept)
    rows = "\n".join(f"| `{name}` | {per_list.get(name, 0)} | {what} | {licence} |" for name, what, licence in LISTS)
    low, high = (kept[0].d, kept[-1].d) if kept else (float("nan"), float("nan"))
    return f"""# The shipped seed set: `hardest.jsonl`

{len(kept)} of the hardest known puzzles (D {low:.2f} to {high:.2f}), for the top of the difficulty slider, which
on-demand generation cannot reach. `flask --app webapp pool seed` adds them to the puzzle bank (`make run` does);
see docs/webapp.md. Built {built} by `benchmarks/seed_bank.py`, which rated every puzzle with this repository's
engine: each line is a bank record (`webapp/bank/pool.py`, `record_of`: the puzzle and its solution in canonical form,
D, zone, predicted minutes, se_like, hardest technique and the full rating) and `origin`, the list file and line
it was taken from (file names as in the project's puzzle corpus, whose SOURCES.md gives each list's provenance).

## Source lists

| list | puzzles kept | what it is | provenance and licence, as the corpus's SOURCES.md states them |
| --- | ---: | --- | --- |
{rows}

Only puzzles with at most {MAX_GIVENS} givens were taken. The puzzles are stored in canonical form (a relabelling,
rotation or reflection of the published grid, which the bank serves as a random isomorph).

## The licence tdoku states (`t-dillon/tdoku`, LICENSE)

```
{TDOKU_LICENCE}```
"""


MIDDLE_LIST = "sudokuexchange_graded_even.tsv"
MIDDLE_WHAT = (
    "the Sudoku Exchange puzzle bank (QQWing-generated, graded with Sukaku Explainer): the corpus's even rows of its "
    "per-rating files 2.5 ... 9.3"
)
MIDDLE_LICENCE = (
    "copied from `miguellobato84/sudoku-exchange-puzzle-bank` (a fork of `grantm/sudoku-exchange-puzzle-bank`, split "
    "by rating); licence stated: the public domain dedication of grantm's LICENSE.txt"
)
MIDDLE_SLIDERS = (44.0, 66.0)  # where targeted generation lands rarely: D about 4 to 6.5
MIDDLE_SE = (3.5, 7.0)  # the SE ratings the candidates are taken from
MIDDLE_SAMPLE = 900  # of them, spread evenly over the list


def middle(out: Path, sample: int, near: int, jobs: int, timeout_s: float) -> None:
    """The middle set (``middle.jsonl``): published puzzles near every slider value of MIDDLE_SLIDERS (each
    SLIDER_STEP), ``near`` of them within the tolerance of each target where the list has them; SOURCE.md gains its
    section."""
    rows = list_puzzles(MIDDLE_LIST)
    header = (DATA / MIDDLE_LIST).read_text(encoding="utf-8").splitlines()[0].split("\t")
    grades = [line.split("\t")[header.index("se_rating")] for line in (DATA / MIDDLE_LIST).read_text().splitlines()[1:]]
    graded = [c for c, g in zip(rows, grades, strict=True) if g and MIDDLE_SE[0] <= float(g) <= MIDDLE_SE[1]]
    wanted = evenly([c for c in graded if bankable(c)], sample)
    rated, dropped = rate_all(wanted, jobs, timeout_s, CACHE_DIR / f"middle-{engine_fingerprint()}.jsonl")
    pool_ = distinct(rated)
    ds = [item.d for item in pool_]
    taken: set[int] = set()
    low, high = MIDDLE_SLIDERS
    targets = [(low + SLIDER_STEP * k, 0.0) for k in range(int((high - low) / SLIDER_STEP) + 1)]
    for slider, _ in targets:
        target = target_for_slider(slider)
        have = sum(1 for i in taken if abs(ds[i] - target) <= DEFAULT_TOLERANCE)
        while have < near and (index := nearest_free(ds, taken, target, DEFAULT_TOLERANCE)) is not None:
            taken.add(index)
            have += 1
    kept = [pool_[i] for i in sorted(taken)]
    out.write_text("".join(seed.seed_line(item.record, item.origin) + "\n" for item in kept), encoding="utf-8")
    source = out.with_name("SOURCE.md")
    text = source.read_text(encoding="utf-8").split("\n## The middle set", 1)[0].rstrip("\n")
    source.write_text(text + "\n\n" + middle_text(kept, datetime.date.today().isoformat()), encoding="utf-8")
    print(f"rated {len(rated)} ({dropped} left out); kept {len(kept)} in {out}, D {kept[0].d:.2f}-{kept[-1].d:.2f}")
    for slider, _ in targets:
        target = target_for_slider(slider)
        have = sum(1 for item in kept if abs(item.d - target) <= DEFAULT_TOLERANCE)
        if have < near:
            print(f"  short: slider {slider:g} (D {target:.2f}) has {have} within {DEFAULT_TOLERANCE} of its target")


def middle_text(kept: Sequence[Rated], built: str) -> str:
    """SOURCE.md's section on the middle set."""
    low, high = MIDDLE_SLIDERS
    about = textwrap.fill(
        f"{len(kept)} published puzzles (D {kept[0].d:.2f} to {kept[-1].d:.2f}) for slider {low:g} to {high:g}, "
        "where targeted generation lands rarely, so that New puzzle finds a near one there from the first start. "
        f"Built {built} by `benchmarks/seed_bank.py --middle`, rated with this repository's engine, from "
        f"`{MIDDLE_LIST}`: {MIDDLE_WHAT}; {MIDDLE_LICENCE}. At most {MAX_GIVENS} givens, stored in canonical form, "
        "records as above.",
        116,
    )
    return f"## The middle set: `middle.jsonl`\n\n{about}\n"


def retime(path: Path, jobs: int, timeout_s: float) -> None:
    """Rate the seed file's puzzles again (a new time model, say) and rewrite each record where it stands; a puzzle
    whose D moved, or that is no longer rated within the timeout, stops the run with nothing written."""
    kept = [(json.loads(line)["origin"], seed.parse_record(line)) for _, line in seed.numbered_lines(path)]
    jobs_in = [(Candidate(origin, record["puzzle"]), timeout_s) for origin, record in kept]
    fresh = {candidate.origin: record for candidate, record in mapped(rate_candidate, jobs_in, jobs)}  # as they end
    lines = []
    for origin, old in kept:
        new = fresh[origin]
        if new is None or abs(new["d"] - old["d"]) > 1e-9:
            raise SystemExit(f"{origin}: D {old['d']:.3f} is now {new['d'] if new else 'not rated'}: nothing written")
        lines.append(seed.seed_line(new, origin) + "\n")
        print(f"  {origin}: D {new['d']:.2f}, {new['predicted_minutes']:.1f} min", flush=True)
    path.write_text("".join(lines), encoding="utf-8")
    print(f"rewrote the {len(lines)} records of {path}")


def main() -> None:
    """Rate the candidates (or reuse their ratings), select the seed set and write it with SOURCE.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes that rate")
    parser.add_argument("--count", type=int, default=150, help="puzzles spread evenly over D")
    parser.add_argument("--low", type=float, default=7.5, help="lowest D kept")
    parser.add_argument("--near", type=int, default=3, help="puzzles wanted near every slider value 80-100")
    parser.add_argument("--sample", type=int, default=200, help=f"puzzles taken evenly from {SAMPLED}")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds of rating before a puzzle is left out")
    parser.add_argument("--limit", type=int, default=None, help="rate only the first L candidates of each list")
    parser.add_argument("--stride", type=int, default=1, help="take every K-th puzzle of the lists not sampled")
    parser.add_argument("--out", type=Path, default=seed.SEED_FILE, help="the seed file (SOURCE.md goes beside it)")
    parser.add_argument(
        "--candidates",
        type=Path,
        default=None,
        help="the ratings of every candidate, kept for later runs (default: one file per engine "
        "version in benchmarks/.seed_bank/)",
    )
    parser.add_argument(
        "--retime",
        action="store_true",
        help="rate the puzzles of the seed file again and rewrite their records in place (same puzzles, same order)",
    )
    parser.add_argument(
        "--middle",
        action="store_true",
        help=f"build the middle set (middle.jsonl beside --out) from {MIDDLE_LIST} instead",
    )
    args = parser.parse_args()
    if args.middle:
        middle(args.out.with_name("middle.jsonl"), MIDDLE_SAMPLE, args.near, args.jobs, args.timeout)
        return
    if args.retime:
        retime(args.out, args.jobs, args.timeout)
        return
    cache = args.candidates or CACHE_DIR / f"candidates-{engine_fingerprint()}.jsonl"
    wanted = candidates(args.sample, args.limit, args.stride)
    known = read_rated(cache)
    todo = [c for c in wanted if c.origin not in known]
    per_list = Counter(c.origin.split(":", 1)[0] for c in wanted)
    print(
        f"{len(wanted)} candidates ({', '.join(f'{name}: {n}' for name, n in per_list.items())}); "
        f"{len(wanted) - len(todo)} rated already in {cache}, {len(todo)} to rate",
        flush=True,
    )
    fresh, dropped = rate_all(todo, args.jobs, args.timeout, cache) if todo else ([], 0)
    origins = {c.origin for c in wanted}
    rated = [item for item in known.values() if item.origin in origins] + fresh
    kept, short = select(rated, args.count, args.low, args.near, DEFAULT_TOLERANCE, slider_targets())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(seed.seed_line(item.record, item.origin) + "\n" for item in kept), encoding="utf-8")
    built = datetime.date.today().isoformat()
    source = args.out.with_name("SOURCE.md")
    kept_middle = source.read_text(encoding="utf-8").split("\n## The middle set", 1)[1:] if source.is_file() else []
    middle_part = "\n## The middle set" + kept_middle[0] if kept_middle else ""
    source.write_text(source_text(kept, built).rstrip("\n") + "\n" + middle_part, encoding="utf-8")
    report(rated, dropped, kept, short, args.out)


def report(
    rated: Sequence[Rated], dropped: int, kept: Sequence[Rated], short: Sequence[tuple[float, float, int]], out: Path
) -> None:
    """Print what was rated and kept, per list and zone, and the slider values short of puzzles."""
    ds = [item.d for item in rated] or [float("nan")]
    print(
        f"rated {len(rated)} puzzles ({dropped} left out: not unique or not rated in time), "
        f"D {min(ds):.2f}-{max(ds):.2f}"
    )
    print(f"kept {len(kept)} in {out}:")
    for name, count in Counter(item.origin.split(":", 1)[0] for item in kept).most_common():
        print(f"  {name}: {count}")
    for zone, count in Counter(item.record["label"] for item in kept).most_common():
        print(f"  {zone}: {count}")
    techniques = Counter(item.record["hardest_technique"] for item in kept)
    print("  hardest techniques: " + ", ".join(f"{name} {count}" for name, count in techniques.most_common()))
    for run in runs(short):
        (first, low, _), (last, high, _) = run[0], run[-1]
        fewest, most = min(have for _, _, have in run), max(have for _, _, have in run)
        print(
            f"  short: slider {first:g}-{last:g} (D {low:.2f}-{high:.2f}) has {fewest}-{most} within "
            f"{DEFAULT_TOLERANCE} of its target"
        )
    if not short:
        print(f"every slider value from {SLIDER_LOW:g} to 100 has enough within {DEFAULT_TOLERANCE} of its target")


def runs(short: Sequence[tuple[float, float, int]]) -> list[list[tuple[float, float, int]]]:
    """The short slider values grouped into runs of neighbours (SLIDER_STEP apart)."""
    grouped: list[list[tuple[float, float, int]]] = []
    for item in short:
        if grouped and abs(item[0] - grouped[-1][-1][0] - SLIDER_STEP) < 1e-9:
            grouped[-1].append(item)
        else:
            grouped.append([item])
    return grouped


if __name__ == "__main__":
    main()
