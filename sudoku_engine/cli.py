"""The command line: ``solve``, ``rate``, ``hint``, ``generate`` and ``reduce`` (fields: ARCHITECTURE.md, Contracts).

Puzzles come as arguments (puzzle text or a file path) or one per line on stdin. Files ending in ``.tsv``
have a header line; the ``puzzle`` column is read (the first column when no header names it). Files and stdin are
read as UTF-8 (a leading byte order mark is dropped; undecodable bytes make their line a bad line). A bad line
prints one line on stderr, the batch goes on, and the exit code is 2 at the end; a file or stdin without a puzzle
counts as a bad line, and so does a puzzle without a solution for ``solve`` (``--count`` and ``--jsonl`` report it
as 0 solutions instead).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import NoReturn, TextIO, TypeVar

from . import difficulty
from .cluster import ClusterError, chunks, cluster_mapped
from .generate import (
    DEFAULT_BUDGET_S,
    DEFAULT_TOLERANCE,
    MAX_GIVENS,
    METRICS,
    generate,
    generate_puzzle,
    warm_up,
)
from .grid import Grid, InvalidPuzzle, format_values
from .hints import NotUnique as HintNotUnique
from .hints import hint
from .levels import Levels, percentile_levels
from .metrics import simonis
from .parallel import mapped
from .puzzle_files import InputLine, parsed_inputs, read_inputs
from .rating import NotUnique, rate
from .slider import target_for_slider
from .solver import solve_count, solve_count_many
from .warm import is_warm, warm

EXIT_BAD_INPUT = 2
EXIT_MISSED = 1  # generate: every puzzle printed, but at least one missed its target difficulty
NO_SOLUTION = "the puzzle has no solution"
MANY_SOLUTIONS = "the puzzle has more than one solution (--any prints one of them)"
SOLVED = "the puzzle is already solved: nothing to rate"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _emit(out: TextIO, text: str) -> None:
    """Write one output line and flush it, so callers can stream."""
    out.write(text + "\n")
    out.flush()


def _solve_record(puzzle_text: str, found: int, solution: Grid | None) -> dict[str, object]:
    """The JSON record of ``solve`` for one puzzle."""
    return {"puzzle": puzzle_text, "solution": str(solution) if solution else None, "solutions": found}


_In = TypeVar("_In")
_Out = TypeVar("_Out")
SOLVE_BATCH = 256  # puzzles solved in one call of the compiled search (``solver.solve_count_many``)
CLUSTER_SOLVE_BATCHES = 16  # solve batches per task on a Dask cluster (4096 puzzles)
CLUSTER_RATE_CHUNK = 8  # puzzles rated per task on a Dask cluster


def _typed_in(args: Sequence[str]) -> bool:
    """True when the puzzles come from a person typing them (stdin on a terminal): each is answered at once."""
    return (not args or "-" in args) and sys.stdin.isatty()


def _parsed_inputs(args: Sequence[str], err: TextIO, bad: list[int]) -> Iterator[tuple[InputLine, tuple[int, ...]]]:
    """Valid puzzles of the inputs; each bad one is reported on stderr and counted in ``bad``."""
    for item in parsed_inputs(args, sys.stdin):
        if isinstance(item, str):
            bad.append(1)
            err.write(f"error: {item}\n")
        else:
            yield item


def _spread(
    options: argparse.Namespace, function: Callable[[_In], _Out], items: Iterable[_In], chunk_size: int
) -> Iterator[_Out]:
    """function over items, in input order: on the Dask cluster of ``--scheduler``, else over ``--jobs`` processes."""
    if options.scheduler is not None:
        return cluster_mapped(function, items, options.scheduler, chunk_size=chunk_size)
    return mapped(function, items, getattr(options, "jobs", 1))


def _solve_batch(batch: list[tuple[InputLine, tuple[int, ...]]]) -> list[tuple[InputLine, dict[str, object]]]:
    """The ``solve`` records of one batch of puzzles (runs on cluster workers too)."""
    solved = solve_count_many([values for _, values in batch], limit=2)
    return [
        (item, _solve_record(format_values(values), found, solution))
        for (item, values), (found, solution) in zip(batch, solved, strict=True)
    ]


def run_solve(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Solve each input puzzle (on a Dask cluster with ``--scheduler``); text lines or JSON records; 2 when any
    input was bad (or, printing solutions, had no solution)."""
    bad: list[int] = []
    typed = _typed_in(options.puzzles)
    progress = _Progress(err, "solved", shown=not typed)
    batches = chunks(_parsed_inputs(options.puzzles, err, bad), 1 if typed else SOLVE_BATCH)
    for records in _spread(options, _solve_batch, batches, CLUSTER_SOLVE_BATCHES):
        for item, record in records:
            _solve_output(options, out, err, item, record, bad)
        progress.tick(len(records))
    progress.close()
    return EXIT_BAD_INPUT if bad else 0


def _solve_output(
    options: argparse.Namespace, out: TextIO, err: TextIO, item: InputLine, record: dict[str, object], bad: list[int]
) -> None:
    """Write one puzzle's answer as ``solve`` prints it (a missing solution is a bad line when printing solutions)."""
    if options.jsonl:
        _emit(out, json.dumps(record))
    elif options.count:
        _emit(out, str(record["solutions"]))
    elif record["solution"] is None or (record["solutions"] != 1 and not options.any):
        bad.append(1)
        err.write(
            f"error: {item.source}:{item.line}: {NO_SOLUTION if record['solution'] is None else MANY_SOLUTIONS}\n"
        )
    else:
        _emit(out, str(record["solution"]))


MEASURE_SETS: dict[str, bool | tuple[str, ...]] = {"all": True, "d": difficulty.MEASURES, "none": False}


def _rate_item(
    item: tuple[InputLine, tuple[int, ...]], timeout: float | None = None, measures: str = "d"
) -> tuple[InputLine, dict[str, object] | str]:
    """The rating record of one input, or the reason it cannot be rated (runs in worker processes too)."""
    line, values = item
    if all(values):
        return line, SOLVED
    try:
        return line, rate(values, timeout=timeout, measures=MEASURE_SETS[measures]).as_dict()
    except NotUnique as exc:
        return line, str(exc)


class _Progress:
    """A one-line progress counter on stderr, shown only when stderr is a terminal."""

    def __init__(self, err: TextIO, label: str, *, shown: bool = True) -> None:
        self.err, self.label = err, label
        self.shown = shown and err.isatty()
        self.done = 0
        self.started = time.perf_counter()

    def tick(self, count: int = 1) -> None:
        """Count finished items and redraw the line."""
        self.done += count
        if self.shown:
            rate_per_s = self.done / max(time.perf_counter() - self.started, 1e-9)
            self.err.write(f"\r{self.label}: {self.done} done, {rate_per_s:.1f}/s")
            self.err.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.shown and self.done:
            self.err.write("\n")
            self.err.flush()


# Where each measure ``rate --level-metric`` can level by sits in a rate record, and the seed measure it needs.
LEVEL_FIELDS: dict[str, tuple[str, ...]] = {
    "D": ("D",),
    "se_like": ("se_like",),
    "call_count": ("metrics", "call_count"),
    "hsolve": ("metrics", "hsolve"),
    "entropy": ("metrics", "entropy"),
    "guesses": ("metrics", "findling", "guesses"),
}
LEVEL_MEASURE = {"call_count": "call_count", "hsolve": "hsolve", "entropy": "r_reduction", "guesses": "findling"}


def _level_value(record: object, metric: str) -> float | None:
    """The metric's value in a rate record, or None when the record does not hold it as a finite number."""
    value = record
    for key in LEVEL_FIELDS[metric]:
        value = value.get(key) if isinstance(value, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _rated(
    options: argparse.Namespace, puzzles: Sequence[str], err: TextIO, bad: list[int], label: str
) -> Iterator[tuple[InputLine, dict[str, object]]]:
    """Rate records of the puzzles in input order (over ``--jobs`` processes or on the ``--scheduler`` cluster);
    each failure is one stderr line."""
    progress = _Progress(err, label)
    rate_one = partial(_rate_item, timeout=options.timeout, measures=options.measures)
    for item, result in _spread(options, rate_one, _parsed_inputs(puzzles, err, bad), CLUSTER_RATE_CHUNK):
        progress.tick()
        if isinstance(result, str):
            bad.append(1)
            err.write(f"error: {item.source}:{item.line}: {result}\n")
        else:
            yield item, result
    progress.close()


def _reference_records(source: str, text: str, err: TextIO, bad: list[int]) -> Iterator[tuple[InputLine, object]]:
    """The records of ``rate --jsonl`` output; a line that is not JSON is one stderr line."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield InputLine(source, number, line), json.loads(line)
        except json.JSONDecodeError:
            bad.append(1)
            err.write(f"error: {source}:{number}: not a JSON record\n")


def _reference_levels(options: argparse.Namespace, err: TextIO, bad: list[int]) -> Levels | str:
    """Seed 002's levels from ``--reference``: rate records (``.jsonl``) or puzzles rated here; or why not."""
    path = Path(options.reference)
    if not path.is_file():
        return f"{options.reference}: no such file"
    records: Iterable[tuple[InputLine, object]]
    if path.suffix == ".jsonl":
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError as exc:
            return f"{options.reference}: cannot read: {exc.strerror or exc}"
        records = _reference_records(options.reference, text, err, bad)
    else:
        records = _rated(options, [options.reference], err, bad, "reference rated")
    values = []
    for item, record in records:
        value = _level_value(record, options.level_metric)
        if value is None:
            bad.append(1)
            err.write(f"error: {item.source}:{item.line}: no {options.level_metric} value in the rating\n")
        else:
            values.append(value)
    if not values:
        return f"{options.reference}: no {options.level_metric} value to make the reference from"
    return percentile_levels(values, options.levels)


def _level_options_error(options: argparse.Namespace) -> str | None:
    """Why ``--levels``, ``--reference`` and ``--level-metric`` do not go together with ``--measures``, or None."""
    if (options.levels is None) != (options.reference is None):
        return "--levels and --reference go together"
    needed = LEVEL_MEASURE.get(options.level_metric)
    if options.levels is None or needed is None:
        return None
    taking = [name for name, taken in MEASURE_SETS.items() if taken is True or (taken and needed in taken)]
    if options.measures not in taking:
        return f"--level-metric {options.level_metric} needs --measures {' or '.join(taking)}"
    return None


def run_rate(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Rate each input puzzle (over ``--jobs`` processes), in input order; 2 when any input was bad.

    With ``--levels K --reference FILE`` each record gets its level (1..K) of ``--level-metric``, as MCM 2008 team
    2858 grade (``levels``).
    """
    problem = _level_options_error(options)
    if problem:
        err.write(f"error: {problem}\n")
        return EXIT_BAD_INPUT
    bad: list[int] = []
    if options.jobs > 1:
        warm_up()  # load or compile the kernels once, before the workers are forked
    levels: Levels | None = None
    if options.levels is not None:
        made = _reference_levels(options, err, bad)
        if isinstance(made, str):
            err.write(f"error: {made}\n")
            return EXIT_BAD_INPUT
        levels = made
    columns = [*RATE_COLUMNS, *["level"] * (levels is not None)]
    for number, (_item, result) in enumerate(_rated(options, options.puzzles, err, bad, "rated")):
        if levels is not None:
            value = _level_value(result, options.level_metric)
            result["level"] = None if value is None else levels.level(value)
        if options.jsonl:
            _emit(out, json.dumps(result))
            continue
        if number == 0:
            _emit(out, "\t".join(RATE_HEADERS.get(key, key) for key in columns))
        _emit(out, "\t".join(_cell(result.get(key)) for key in columns))
    return EXIT_BAD_INPUT if bad else 0


# Plain ``rate`` prints a header line and these fields of the rate record, tab-separated (``--jsonl``: all of them).
RATE_COLUMNS = (
    "puzzle",
    "D",
    "label",
    "predicted_minutes",
    "se_like",
    "hodoku_like",
    "hodoku_level",
    "hardest_technique",
)
RATE_HEADERS = {"label": "zone", "predicted_minutes": "minutes"}


def _cell(value: object) -> str:
    """A TSV cell of a rate record's field: an empty cell for a missing value (a timeout, minutes beyond the fit)."""
    return "" if value is None else str(value)


def _reduce_record(values: tuple[int, ...], seed: int | None) -> dict[str, object] | str:
    """The JSON record of ``reduce`` for one puzzle, or why it cannot be reduced."""
    solutions = solve_count(values, limit=2)[0]
    if solutions != 1:
        return NO_SOLUTION if solutions == 0 else "the puzzle has more than one solution"
    reduced = simonis.reduce(values, seed=seed)
    return {
        "puzzle": format_values(values),
        "reduced": str(reduced),
        "givens_before": sum(1 for v in values if v),
        "givens_after": reduced.givens,
        "seed": seed,
    }


def run_reduce(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Reduce each input puzzle to a locally minimal one with the same solution; 2 when any input was bad."""
    bad: list[int] = []
    for item, values in _parsed_inputs(options.puzzles, err, bad):
        record = _reduce_record(values, options.seed)
        if isinstance(record, str):
            bad.append(1)
            err.write(f"error: {item.source}:{item.line}: {record}\n")
        else:
            _emit(out, json.dumps(record) if options.jsonl else str(record["reduced"]))
    return EXIT_BAD_INPUT if bad else 0


class ProgressBar:
    """Progress of counted work on a stream: a bar redrawn in place on a terminal, else a line every LINE_S."""

    WIDTH = 30
    LINE_S = 10.0

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label, self.stream = label, stream
        self.terminal = stream.isatty()
        self.last_line = -math.inf

    def __call__(self, done: int, total: int, elapsed: float) -> None:
        """Show ``done`` of ``total`` after ``elapsed`` seconds, with an estimate of the time left."""
        if not self.terminal and elapsed - self.last_line < self.LINE_S and done < total:
            return
        self.last_line = elapsed
        filled = self.WIDTH * done // max(total, 1)
        left = f", about {elapsed * (total - done) / done:.0f} s left" if 0 < done < total else ""
        text = f"{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} ({elapsed:.0f} s{left})"
        self.stream.write(f"\r{text}\x1b[K" if self.terminal else text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line on a terminal."""
        if self.terminal:
            self.stream.write("\n")
            self.stream.flush()


def run_warm(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Load or compile every kernel with a progress bar on stderr and say how long it took; with ``--check``, only
    say whether that is needed (exit code 1 when it is)."""
    if options.check:
        ready = is_warm()
        _emit(out, "engine kernels ready" if ready else "engine kernels not compiled for these sources yet")
        return 0 if ready else 1
    start = time.perf_counter()
    bar = None if options.quiet else ProgressBar("compiling the engine's kernels", err)
    try:
        backend = warm(bar)
    finally:
        if bar is not None:
            bar.close()
    _emit(out, f"engine kernels ready ({backend} backend) in {time.perf_counter() - start:.1f} s")
    return 0


def _one_puzzle(arg: str, stdin: TextIO) -> InputLine | str:
    """The puzzle of an argument that is puzzle text, a file holding one puzzle, or ``-`` for stdin; or why not."""
    items = list(read_inputs([arg], stdin))
    problems = [item for item in items if isinstance(item, str)]
    if problems:
        return problems[0]
    if len(items) > 1:
        return f"{arg}: holds {len(items)} puzzles; hint takes one"
    return items[0]


def run_hint(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print the hint ladder for a puzzle and a position as one JSON object."""
    puzzle = _one_puzzle(options.puzzle, sys.stdin)
    if isinstance(puzzle, str):
        err.write(f"error: {puzzle}\n")
        return EXIT_BAD_INPUT
    try:
        found = hint(puzzle.text, options.position)
    except (InvalidPuzzle, HintNotUnique) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_BAD_INPUT
    _emit(out, json.dumps(found.as_dict()))
    return 0


def _generate_item(index: int, options: argparse.Namespace) -> dict[str, object]:
    """Puzzle ``index`` of a generate run as its record (runs in worker processes too)."""
    seed = None if options.seed is None else options.seed + index
    pattern = options.pattern or ("symmetric" if options.target is None else "free")
    symmetric = pattern == "symmetric"
    if options.target is None:
        started = time.perf_counter()
        made = generate_puzzle(seed=seed, givens=options.givens, symmetric=symmetric, scheme=options.scheme)
        record: dict[str, object] = {
            "puzzle": str(made.puzzle),
            "solution": str(made.solution),
            "givens": made.puzzle.givens,
            "seed": made.seed,
            "pattern": pattern,
        }
        if options.scheme is not None:
            record["scheme"] = options.scheme
        return {**record, "ms": round((time.perf_counter() - started) * 1000, 2)}
    found = generate(
        options.target,
        options.tolerance,
        seed,
        options.budget,
        metric=options.metric,
        symmetric=symmetric,
        max_givens=options.max_givens,
    )
    targeted = found.as_dict()
    if options.slider is not None:
        targeted = {"slider": options.slider, **targeted}
    return {**targeted, "pattern": pattern}


def run_generate(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Generate ``--count`` puzzles (over ``--jobs`` processes); puzzle i of a seeded run uses seed ``K + i``."""
    if options.scheme is not None and (options.target is not None or options.slider is not None):
        err.write("error: --scheme digs a search-free puzzle; it does not take --target or --slider\n")
        return EXIT_BAD_INPUT
    if options.slider is not None:
        if options.metric != "D":
            err.write("error: --slider sets a target D; use --target with --metric\n")
            return EXIT_BAD_INPUT
        options.target = target_for_slider(options.slider)
    elif options.target is None and options.metric != "D":
        err.write("error: --metric needs --target\n")
        return EXIT_BAD_INPUT
    warm_up()
    progress = _Progress(err, "generated")
    make = partial(_generate_item, options=options)
    missed = 0
    for index, record in enumerate(mapped(make, range(options.count), options.jobs), start=1):
        progress.tick()
        _emit(out, json.dumps(record) if options.jsonl else str(record["puzzle"]))
        if record.get("hit") is False:
            missed += 1
            err.write(f"warning: {_missed(index, record, options)}\n")
    progress.close()
    return EXIT_MISSED if missed else 0


def _missed(index: int, record: dict[str, object], options: argparse.Namespace) -> str:
    """What a puzzle that missed its target got instead, and what may help."""
    aim = (
        f"slider {options.slider:g}, target {options.metric} {record['target']}"
        if options.slider is not None
        else f"target {options.metric} {record['target']}"
    )
    return (
        f"puzzle {index} (seed {record['seed']}) has {options.metric} {record['value']}, outside {aim} "
        f"+/- {record['tolerance']}: the closest found in {options.budget:g} s; a longer --budget or another --seed "
        "may land"
    )


def _slider(text: str) -> float:
    """A slider value 0..100 from the command line."""
    value = _number(text)
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"slider must be between 0 and 100, not {text}")
    return value


def _number(text: str) -> float:
    """A finite number from the command line."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def _positive(text: str) -> float:
    """A positive number from the command line."""
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


_seconds = _positive


def _ranged_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type for an int in [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}, not {value}")
        return value

    return parse


def _scheduler_option(command: argparse.ArgumentParser) -> None:
    """The ``--scheduler ADDRESS`` option: run on an existing Dask cluster (the ``cluster`` extra)."""
    command.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler (e.g. tcp://10.0.0.5:8786; its workers need sudoku-lab)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``sudoku-engine``."""
    parser = _Parser(prog="sudoku-engine", description="Solve, rate, explain and generate Sudoku puzzles.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    solve = commands.add_parser("solve", help="solve puzzles and count their solutions (up to 2)")
    solve.add_argument("puzzles", nargs="*", help="puzzle texts, .txt/.tsv files, or - for stdin (the default)")
    solve.add_argument(
        "--count",
        action="store_true",
        help="print the number of solutions (0, 1 or 2); without it or --jsonl, a puzzle without exactly one "
        "solution is a bad line (exit 2)",
    )
    solve.add_argument(
        "--any", action="store_true", help="print a solution even when the puzzle has more than one (one of them)"
    )
    solve.add_argument("--jsonl", action="store_true", help="one JSON object per input line")
    _scheduler_option(solve)
    solve.set_defaults(run=run_solve)

    rate_command = commands.add_parser("rate", help="rate puzzles by their logic solve (SE-like and HoDoKu-like)")
    rate_command.add_argument("puzzles", nargs="*", help="puzzle texts, .txt/.tsv files, or - for stdin (the default)")
    rate_command.add_argument("--jsonl", action="store_true", help="one JSON object per input line")
    rate_command.add_argument("--jobs", type=_ranged_int(1, 256), default=1, help="worker processes (default 1)")
    _scheduler_option(rate_command)
    rate_command.add_argument("--timeout", type=_seconds, help="bound the work per puzzle (seconds); marks the record")
    rate_command.add_argument(
        "--measures",
        choices=tuple(MEASURE_SETS),
        default="d",
        help="the research papers' measures to take: d (the default: those D reads), all (d and the slow hsolve, a "
        "simulated human solver from MCM 2008 team 2858) or none",
    )
    rate_command.add_argument(
        "--levels",
        type=_ranged_int(1, 1000),
        metavar="K",
        help="add a level 1..K: K intervals of equal share of the --reference ratings (as MCM 2008 team 2858 grade)",
    )
    rate_command.add_argument(
        "--reference",
        metavar="FILE",
        help="the reference sample for --levels: rate --jsonl records (.jsonl), or puzzles rated here first",
    )
    rate_command.add_argument(
        "--level-metric", choices=tuple(LEVEL_FIELDS), default="D", help="the measure --levels divides (default D)"
    )
    rate_command.set_defaults(run=run_rate)

    hint_command = commands.add_parser("hint", help="the hint ladder for a position of a puzzle")
    hint_command.add_argument("puzzle", help="the puzzle (givens only): text, a .txt/.tsv file of one, or - for stdin")
    hint_command.add_argument("--position", help="givens plus the player's digits, 81 characters")
    hint_command.set_defaults(run=run_hint)

    generate_command = commands.add_parser(
        "generate", help="generate unique puzzles: locally minimal, dug to a number of givens, or at a difficulty"
    )
    generate_command.add_argument("--count", type=_ranged_int(1, 1_000_000), default=1, help="how many puzzles")
    generate_command.add_argument("--seed", type=_ranged_int(0, 2**63 - 1), help="seed for reproducible output")
    level = generate_command.add_mutually_exclusive_group()
    level.add_argument("--givens", type=_ranged_int(17, 81), help="stop digging at this many givens")
    level.add_argument("--slider", type=_slider, help="difficulty slider 0..100 (the D it maps to is the target)")
    level.add_argument("--target", type=_number, help="target value of the metric (D by default)")
    generate_command.add_argument("--metric", choices=tuple(METRICS), default="D", help="what --target aims at")
    generate_command.add_argument(
        "--tolerance",
        type=_positive,
        help=f"how close counts as a hit (default {DEFAULT_TOLERANCE} for D and "
        "se_like, 5%% of the target for a seed measure)",
    )
    generate_command.add_argument(
        "--budget",
        type=_seconds,
        default=DEFAULT_BUDGET_S,
        help=f"seconds per puzzle before the closest found is returned with hit false (default {DEFAULT_BUDGET_S})",
    )
    generate_command.add_argument("--jobs", type=_ranged_int(1, 256), default=1, help="worker processes (default 1)")
    generate_command.add_argument(
        "--max-givens",
        type=_ranged_int(17, 81),
        default=MAX_GIVENS,
        help=f"with --target/--slider: most givens a puzzle may have (default {MAX_GIVENS}; 81 for no limit)",
    )
    generate_command.add_argument(
        "--pattern",
        choices=("symmetric", "free"),
        help="clue pattern (default: symmetric, or free with --target/--slider, where it hits more often)",
    )
    generate_command.add_argument(
        "--scheme",
        choices=simonis.SCHEMES + simonis.EXTRA_SCHEMES,
        help="dig while this propagation scheme solves the puzzle without search (Simonis, Sudoku as a Constraint "
        "Problem, section 8)",
    )
    generate_command.add_argument("--jsonl", action="store_true", help="one JSON object per puzzle")
    generate_command.set_defaults(run=run_generate)

    reduce_command = commands.add_parser(
        "reduce", help="remove redundant givens until the puzzle is locally minimal (same solution; as Simonis does)"
    )
    reduce_command.add_argument(
        "puzzles", nargs="*", help="puzzle texts, .txt/.tsv files, or - for stdin (the default)"
    )
    reduce_command.add_argument(
        "--seed",
        type=_ranged_int(0, 2**63 - 1),
        help="try the givens in an order shuffled by this seed (default: reading order)",
    )
    reduce_command.add_argument("--jsonl", action="store_true", help="one JSON object per input line")
    reduce_command.set_defaults(run=run_reduce)

    warm_command = commands.add_parser(
        "warm", help="load or compile every numba kernel once (after installing, so first requests do not wait)"
    )
    warm_command.add_argument(
        "--check", action="store_true", help="only say whether they are compiled (exit code 1 when not)"
    )
    warm_command.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    warm_command.set_defaults(run=run_warm)
    return parser


def _read_stdin_as_utf8() -> None:
    """Decode stdin as UTF-8 whatever the locale or PYTHONIOENCODING say: a leading byte order mark is dropped and
    undecodable bytes become U+FFFD, so their line is a bad line instead of a crash."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(encoding="utf-8-sig", errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``sudoku-engine`` and ``python -m sudoku_engine``."""
    options = build_parser().parse_args(argv)
    _read_stdin_as_utf8()
    if getattr(options, "scheduler", None) is not None and getattr(options, "jobs", 1) > 1:
        sys.stderr.write("error: --scheduler and --jobs go apart (the cluster's workers do the work)\n")
        return EXIT_BAD_INPUT
    try:
        code: int = options.run(options, sys.stdout, sys.stderr)
    except ClusterError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    return code
