"""The bank's background fill (``webapp.bank.fill``): the job fills the bank up to ``BANK_MIN`` unused puzzles,
each a unique generated puzzle, one consumer at a time under a lease, queues itself again while short, fills the
holes once the bank is full, and does nothing when switched off; the start page says while the bank is filling."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import select

from sudoku_engine.grid import parse_values
from sudoku_engine.solver import count_solutions
from webapp import db, jobs
from webapp.bank import fill, pool
from webapp.models import BankPuzzle

EULER_1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The jobs the code under test queues, recorded instead of queued."""
    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(jobs, "enqueue", lambda app, name, item: calls.append((name, item)) or True)
    return calls


def unused(app: Flask) -> int:
    """The bank's unused puzzles."""
    with db.sessions_of(app)() as session:
        return pool.unused_count(session)


@pytest.mark.own_database  # generation of some puzzles: once, on SQLite
def test_the_job_fills_the_bank_with_unique_generated_puzzles_and_queues_itself_again(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = queued(monkeypatch)
    monkeypatch.setattr(fill, "SLICE_S", 0.0)  # one puzzle per slice
    app = make_app(BANK_MIN=3, POOL_REFILL=True)
    for _ in range(3):
        fill.fill_job(app, 0)
    assert unused(app) == 3
    assert calls == [(fill.JOB, 0)] * 3  # the next slice each time (the third one then fills the holes)
    with db.sessions_of(app)() as session:
        rows = list(session.scalars(select(BankPuzzle)))
    assert {row.source for row in rows} == {"generated"}
    for row in rows:
        assert count_solutions(parse_values(row.puzzle)) == 1
        assert row.hardest_technique is not None


def test_a_slice_another_consumer_holds_does_nothing(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = queued(monkeypatch)
    made: list[object] = []
    monkeypatch.setattr(fill, "generate_closest", lambda task: made.append(task))
    app = make_app(BANK_MIN=5, POOL_REFILL=True)
    with db.sessions_of(app)() as session:
        assert jobs.take_lease(session, fill.JOB, "another-host:1:1", 600)
    fill.fill_job(app, 0)
    assert made == [] and calls == []


def test_a_full_bank_fills_its_holes_at_most_once_a_day(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    queued(monkeypatch)
    passes: list[int] = []
    monkeypatch.setattr(fill, "fill_holes", lambda session: passes.append(1) or 0)
    app = make_app(BANK_MIN=1, POOL_REFILL=True)
    with db.sessions_of(app)() as session:
        pool.add(session, [pool.rated_record(parse_values(EULER_1))])
    fill.fill_job(app, 0)
    fill.fill_job(app, 0)
    assert passes == [1]


@pytest.mark.parametrize("config", [{"BANK_MIN": 0, "POOL_REFILL": True}, {"BANK_MIN": 5, "POOL_REFILL": False}])
def test_the_job_does_nothing_when_switched_off(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch, config: dict[str, object]
) -> None:
    calls = queued(monkeypatch)
    monkeypatch.setattr(fill, "generate_closest", lambda task: pytest.fail("generated while switched off"))
    app = make_app(**config)
    fill.fill_job(app, 0)
    assert calls == [] and unused(app) == 0
    assert 'id="bank-filling"' not in app.test_client().get("/").get_data(as_text=True)


def test_the_start_page_says_while_the_bank_is_filling(make_app: Callable[..., Flask]) -> None:
    app = make_app(BANK_MIN=400, POOL_REFILL=True)
    page = app.test_client().get("/").get_data(as_text=True)
    assert 'id="bank-filling"' in page and "0 of 400 puzzles" in page
