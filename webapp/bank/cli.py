"""``flask pool``: fill the puzzle bank (generated in parallel), import outside puzzles, add the shipped seed set,
keep a minimum, count it.

Puzzles are generated or rated in worker processes (``--jobs``); the parent inserts each record as it arrives,
so a running app can serve it at once. Bad input is one line on stderr each, and the exit code is 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import inspect

from sudoku_engine import parallel
from sudoku_engine.generate import DEFAULT_TOLERANCE, warm_up
from sudoku_engine.puzzle_files import InputLine, parsed_inputs

from .. import db
from . import pool, seed, top
from .fill import HIGH as ENSURE_HIGH
from .fill import HOLE_BUDGET_FACTOR, HOLE_STEP, GenerateTask, closer, generate_task, retries_for, spread, tasks_for
from .fill import empty_sliders as empty_sliders_in

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

EXIT_BAD_INPUT = 2
DEFAULT_BUDGET_S = 2.0

_In = TypeVar("_In")
_Out = TypeVar("_Out")
Command = Callable[..., None]

pool_cli = AppGroup("pool", help="The puzzle bank: rated puzzles indexed by D, served once each.")


def rate_task(item: tuple[InputLine, tuple[int, ...]]) -> tuple[InputLine, pool.BankRecord | str]:
    """The bank record of one outside puzzle, or why it cannot be banked (runs in worker processes)."""
    line, values = item
    return line, pool.try_rate(values)


def mapped(function: Callable[[_In], _Out], items: Iterable[_In], jobs: int) -> Iterator[_Out]:
    """function over items as they finish, over ``jobs`` worker processes when jobs > 1 (kernels loaded first)."""
    return parallel.mapped(function, items, jobs, ordered=False, prepare=warm_up)


def require_bank(app: Flask) -> None:
    """Stop with a clear message when the database has no bank table yet."""
    if not inspect(db.engine_of(app)).has_table("bank"):
        raise click.ClickException(f"{db.display_url(app)} has no puzzle bank yet: run `flask init-db` first")


def progress_bar(length: int, label: str) -> ProgressBar[int]:
    """A progress bar on stderr, drawn only when stderr is a terminal."""
    return click.progressbar(length=length, label=label, file=sys.stderr, hidden=not sys.stderr.isatty())


def fill_bank(app: Flask, tasks: list[GenerateTask], jobs: int) -> None:
    """Generate the tasks over ``jobs`` processes and insert each puzzle as it arrives; a missed target is tried
    once more (``retries_for``) and the closer of the two puzzles kept. Prints a summary."""
    require_bank(app)
    added = hits = second = 0
    missed: dict[float, pool.BankRecord] = {}
    sessions = db.sessions_of(app)
    with progress_bar(len(tasks), "generating") as bar, sessions() as session:
        for task, record, hit in mapped(generate_task, tasks, jobs):
            if hit:
                added += pool.add(session, [record])
                hits += 1
            else:
                missed[task.slider] = record
            bar.update(1)
        retries = retries_for([task for task in tasks if task.slider in missed], len(tasks))
        for task, record, hit in mapped(generate_task, retries, jobs):
            added += pool.add(session, [record if hit else closer(task, missed[task.slider], record)])
            second += hit
        unused = pool.unused_count(session)
    click.echo(
        f"generated {len(tasks)} puzzles ({hits + second} within {DEFAULT_TOLERANCE} of their target D, {second} of "
        f"them on a second try), added {added} ({len(tasks) - added} already in the bank); the bank holds {unused} "
        "unused puzzles"
    )


def check_range(low: float, high: float) -> None:
    """Refuse a slider range whose low end is above its high end."""
    if low > high:
        raise click.BadParameter(f"--low {low:g} is above --high {high:g}", param_hint="'--low'")


def generation_options(high: float) -> Callable[[Command], Command]:
    """The options shared by ``fill`` and ``ensure``: jobs, seed, budget and the slider range."""

    def decorate(command: Command) -> Command:
        """Attach the options to a command."""
        options: list[Callable[[Command], Command]] = [
            click.option(
                "--jobs",
                type=click.IntRange(min=1),
                default=1,
                show_default=True,
                help="Worker processes that generate and rate.",
            ),
            click.option("--seed", type=int, default=None, help="Puzzle i uses seed SEED + i (reproducible runs)."),
            click.option(
                "--budget",
                type=click.FloatRange(min=0, min_open=True),
                default=DEFAULT_BUDGET_S,
                show_default=True,
                help="Seconds of generation per puzzle.",
            ),
            click.option(
                "--low",
                type=click.FloatRange(0, 100),
                default=0.0,
                show_default=True,
                help="Lowest slider value aimed at.",
            ),
            click.option(
                "--high",
                type=click.FloatRange(0, 100),
                default=high,
                show_default=True,
                help="Highest slider value aimed at.",
            ),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


@pool_cli.command("fill")
@click.option("--count", type=click.IntRange(min=1), required=True, help="How many puzzles to generate.")
@generation_options(high=100.0)
def fill_command(count: int, jobs: int, seed: int | None, budget: float, low: float, high: float) -> None:
    """Generate COUNT puzzles aimed at slider values spread evenly over [LOW, HIGH] and add them to the bank."""
    check_range(low, high)
    fill_bank(current_app, tasks_for(spread(count, low, high), seed, budget), jobs)


@pool_cli.command("ensure")
@click.option(
    "--min", "minimum", type=click.IntRange(min=0), required=True, help="Fill only up to this many unused puzzles."
)
@click.option(
    "--holes/--no-holes",
    default=True,
    show_default=True,
    help=f"Then aim once more ({HOLE_BUDGET_FACTOR}x the budget) at every slider value, each {HOLE_STEP:g}, that no "
    "bank puzzle is near.",
)
@generation_options(high=ENSURE_HIGH)
def ensure_command(
    minimum: int, holes: bool, jobs: int, seed: int | None, budget: float, low: float, high: float
) -> None:
    """Fill the bank up to MIN unused puzzles, if it holds fewer (quick by default: slider 0 to 80), then fill its
    holes: slider values no bank puzzle is near, where generation lands rarely."""
    check_range(low, high)
    require_bank(current_app)
    with db.sessions_of(current_app)() as session:
        unused = pool.unused_count(session)
    if unused >= minimum:
        click.echo(f"the bank holds {unused} unused puzzles (at least {minimum}): nothing to generate")
    else:
        fill_bank(current_app, tasks_for(spread(minimum - unused, low, high), seed, budget), jobs)
    if holes:
        fill_holes(
            current_app, low, high, None if seed is None else seed + 10 * minimum, HOLE_BUDGET_FACTOR * budget, jobs
        )


def fill_holes(app: Flask, low: float, high: float, seed: int | None, budget_s: float, jobs: int) -> None:
    """Aim once more, with a longer budget, at the slider values no bank row serves (where generation lands
    rarely), so that New puzzle finds a near row there from the start; prints how many were filled."""
    with db.sessions_of(app)() as session:
        empty = empty_sliders_in(session, low, high)
    if not empty:
        return
    with progress_bar(len(empty), "filling holes") as bar, db.sessions_of(app)() as session:
        for _task, record, _hit in mapped(generate_task, tasks_for(empty, seed, budget_s), jobs):
            pool.add(session, [record])
            bar.update(1)
    with db.sessions_of(app)() as session:
        left = empty_sliders_in(session, low, high)
    click.echo(f"aimed at {len(empty)} slider values no bank puzzle was near: {len(empty) - len(left)} now are")


def parsed_lines(path: Path, bad: list[str]) -> Iterator[tuple[InputLine, tuple[int, ...]]]:
    """The puzzles of a file; each unreadable or invalid line is reported on stderr and noted in ``bad``."""
    for item in parsed_inputs([str(path)], sys.stdin):
        if isinstance(item, str):
            report(bad, item)
        else:
            yield item


def report(bad: list[str], message: str) -> None:
    """One error line on stderr."""
    bad.append(message)
    click.echo(f"error: {message}", err=True)


@pool_cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes that rate.")
def import_command(file: Path, jobs: int) -> None:
    """Rate the puzzles of FILE (.txt: one per line; .tsv: a header, the `puzzle` column or the first) and add them.

    Lines that are not puzzles, or whose puzzle has no solution or several, are reported one per line on stderr;
    the rest are added, and the exit code is then 2.
    """
    app = current_app
    require_bank(app)
    bad: list[str] = []
    items = list(parsed_lines(file, bad))
    rated = added = 0
    with progress_bar(len(items), "rating") as bar, db.sessions_of(app)() as session:
        for line, result in mapped(rate_task, items, jobs):
            bar.update(1)
            if isinstance(result, str):
                report(bad, f"{line.source}:{line.line}: {result}")
                continue
            rated += 1
            added += pool.add(session, [result])
        unused = pool.unused_count(session)
    click.echo(
        f"rated {rated} puzzles, added {added} ({rated - added} already in the bank), {len(bad)} bad lines; "
        f"the bank holds {unused} unused puzzles"
    )
    if bad:
        click.get_current_context().exit(EXIT_BAD_INPUT)


@pool_cli.command("seed")
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def seed_command(file: Path | None) -> None:
    """Add the shipped seed sets (the hardest puzzles and the middle set, already rated), or the records of FILE, to
    the bank.

    Nothing is rated: the records are checked and inserted as they are; puzzles the bank holds already (used or
    not) are not added again but take the file's figures where they differ (a seed set rated again), so running it
    again changes nothing. A file with a bad line adds nothing: each bad line is
    reported on stderr and the exit code is 2.
    """
    app = current_app
    require_bank(app)
    paths = [file] if file is not None else [path for path in seed.SEED_FILES if path.is_file()]
    if not paths:
        click.echo(f"no seed set in {seed.SEED_DIR} (benchmarks/seed_bank.py builds it): nothing to add")
        return
    records: list[pool.BankRecord] = []
    for path in paths:
        try:
            records += seed.read_seed(path)
        except seed.SeedFileError as error:
            bad: list[str] = []
            for problem in error.problems:
                report(bad, problem)
            click.echo(f"{path} is not a valid seed file: nothing added", err=True)
            click.get_current_context().exit(EXIT_BAD_INPUT)
    with db.sessions_of(app)() as session:
        added = pool.add(session, records)
        refreshed = pool.refresh(session, records)
        unused = pool.unused_count(session)
    low, high = min(r["d"] for r in records), max(r["d"] for r in records)
    click.echo(
        f"read {len(records)} seed puzzles (D {low:.2f}-{high:.2f}), added {added} ({len(records) - added} already "
        f"in the bank, {refreshed} of them given the file's newer figures); the bank holds {unused} unused puzzles"
    )


@pool_cli.command("stats")
def stats_command() -> None:
    """Count the bank's puzzles by zone: unused, used, total and the D range."""
    require_bank(current_app)
    with db.sessions_of(current_app)() as session:
        counts = pool.zone_counts(session)
    click.echo(f"{'zone':<8} {'unused':>7} {'used':>6} {'total':>6}  D range")
    for row in counts:
        click.echo(f"{row.label:<8} {row.unused:>7} {row.used:>6} {row.total:>6}  {row.d_min:.2f}-{row.d_max:.2f}")
    unused, used = sum(row.unused for row in counts), sum(row.used for row in counts)
    click.echo(f"{'all':<8} {unused:>7} {used:>6} {unused + used:>6}")


@pool_cli.command("top")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="How long the walk searches.",
)
@click.option("--seed", type=int, default=None, help="The walk's random seed (reproducible runs).")
def top_command(seconds: float, seed: int | None) -> None:
    """Search the neighbourhood of a random puzzle of D 9 or more in the bank for new ones, and bank them."""
    require_bank(current_app)
    with db.sessions_of(current_app)() as session:
        done = top.run_slice(session, seconds, seed)
        unused = top.unused_top(session)
    if done is None:
        raise click.ClickException(f"the bank holds no puzzle of D {top.FLOOR:g} or more to start from (pool seed)")
    click.echo(
        f"from bank row {done.start_id}: found {done.found} puzzles of D {top.FLOOR:g} or more, {done.added} new to "
        f"the bank; it holds {unused} unused ones"
    )
