"""Fresh puzzles at the top (``webapp.bank.top``): a slice of the neighbourhood search banks new puzzles of D 9 or
more, each unique, locally minimal and rated as the bank says; the scheduled job runs only while the bank is short
of them, and not at all when switched off."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import select

from sudoku_engine.grid import parse_values
from sudoku_engine.metrics.simonis import is_locally_minimal
from sudoku_engine.rating import rate
from sudoku_engine.solver import count_solutions
from webapp import db
from webapp.bank import pool, seed, top
from webapp.models import BankPuzzle


def seeded_app(make_app: Callable[..., Flask], **config: object) -> Flask:
    """An app whose bank holds the shipped seed record nearest D 9.5 (a start for the walk)."""
    app = make_app(**config)
    start = min(seed.read_seed(seed.SEED_FILE), key=lambda record: abs(record["d"] - 9.5))
    with db.sessions_of(app)() as session:
        pool.add(session, [start])
    return app


@pytest.mark.own_database  # a search of some seconds and ratings of the hardest puzzles: once, on SQLite
def test_a_slice_banks_new_unique_minimal_puzzles_rated_as_the_bank_says(make_app: Callable[..., Flask]) -> None:
    app = seeded_app(make_app)
    found: list[BankPuzzle] = []
    for seed_number in range(10):  # slices of 10 s until one finds something (a busy machine tries fewer moves)
        result = app.test_cli_runner().invoke(args=["pool", "top", "--seconds", "10", "--seed", str(seed_number)])
        assert result.exit_code == 0, result.output
        with db.sessions_of(app)() as session:
            found = list(session.scalars(select(BankPuzzle).where(BankPuzzle.source == top.SOURCE)))
        if found:
            break
    assert found, result.output
    assert f"{len(found)} new to the bank" in result.output
    assert len({row.puzzle for row in found}) == len(found)  # canonical forms: no two isomorphs
    for row in found:
        values = parse_values(row.puzzle)
        assert row.d >= top.FLOOR and not row.used
        assert count_solutions(values) == 1 and is_locally_minimal(values)
    for row in sorted(found, key=lambda r: r.rating["ms"])[:2]:  # the two quickest to rate, rated again here
        again = rate(parse_values(row.puzzle))
        assert (round(again.d, 3), again.hardest_technique) == (row.rating["D"], row.hardest_technique)


def test_the_job_runs_only_while_the_bank_is_short_of_top_puzzles(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    slices: list[float] = []
    monkeypatch.setattr(top, "run_slice", lambda session, seconds, seed=None: slices.append(seconds))
    app = seeded_app(make_app, TOP_SEARCH_S=5, TOP_UNUSED=1)
    top.search_job(app, top.SCHEDULED)  # one unused top row: enough
    assert slices == []
    top.search_job(app, top.NOW)  # asked for: runs anyway
    assert slices == [5.0]
    off = seeded_app(make_app, TOP_SEARCH_S=0, TOP_UNUSED=5)
    top.search_job(off, top.NOW)
    assert slices == [5.0]
    short = seeded_app(make_app, TOP_SEARCH_S=5, TOP_UNUSED=5)
    top.search_job(short, top.SCHEDULED)
    assert slices == [5.0, 5.0]


def test_a_bank_without_top_puzzles_says_so(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["pool", "top", "--seconds", "1"])
    assert result.exit_code == 1 and "holds no puzzle of D 9 or more" in result.output
