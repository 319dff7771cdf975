"""Filling the puzzle bank: generation tasks along the slider (shared by ``flask pool fill`` and ``ensure``), and the
job that fills the bank up to ``BANK_MIN`` unused puzzles in the background, so a new server serves its first page
at once (from the shipped seed set) while the bank fills.

The job takes a slice of at most ``SLICE_S`` seconds under a lease (one consumer fills at a time, whatever the
number of hosts), aims at slider values drawn at random from an even spread of what is missing, adds each puzzle in
its own transaction as it comes, and queues itself again while the bank is short. Once the bank is full it aims
once, with a longer budget, at the slider values no bank row is near (the holes), at most once a day. A consumer's
start queues the job and each consumer's schedule offers it, so a bank that players have emptied fills again.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import threading
import time
from dataclasses import dataclass, replace

from flask import Flask
from sqlalchemy.orm import Session

from sudoku_engine.generate import DEFAULT_TOLERANCE, generate
from sudoku_engine.slider import target_for_slider

from .. import db, jobs
from . import pool

JOB = "bank-fill"
HOLES = "bank-holes"  # the lease that marks the last pass over the holes
SLICE_S = 60.0  # one job's share of the work; then it queues itself again
LEASE_S = 4 * SLICE_S  # a consumer that died mid-slice gives the work up after this long
HOLES_EVERY_S = 86_400.0
HOLE_STEP = 0.5  # the holes are looked for at this spacing of the slider
HOLE_BUDGET_FACTOR = 4  # and aimed at once more with this many times the budget
HIGH = 80.0  # the top aimed at: above it generation takes whole budgets and rarely lands (the seed set serves it)
BUDGET_S = 1.5
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GenerateTask:
    """One puzzle to generate: its slider value, target D, seed and time budget."""

    slider: float
    target: float
    seed: int | None
    budget_s: float


def generate_task(task: GenerateTask) -> tuple[GenerateTask, pool.BankRecord, bool]:
    """The task, the bank record of its generated puzzle and whether it hit its target (runs in worker
    processes)."""
    made = generate(task.target, DEFAULT_TOLERANCE, seed=task.seed, budget_s=task.budget_s)
    return task, pool.generated_record(made), made.hit


def retries_for(missed: list[GenerateTask], offset: int) -> list[GenerateTask]:
    """The missed tasks once more, with new seeds (``offset`` past the first run's) and four times the budget, so
    that a target the first try missed still gets a puzzle within tolerance and the bank's coverage has no hole."""
    return [
        replace(task, seed=None if task.seed is None else task.seed + offset, budget_s=4 * task.budget_s)
        for task in missed
    ]


def spread(count: int, low: float, high: float) -> list[float]:
    """``count`` slider values evenly spaced over [low, high] (the middle one when count is 1)."""
    if count == 1:
        return [(low + high) / 2]
    step = (high - low) / (count - 1)
    return [low + i * step for i in range(count)]


def tasks_for(sliders: list[float], seed: int | None, budget_s: float) -> list[GenerateTask]:
    """Generation tasks for slider values; puzzle i of a seeded run uses seed ``seed + i``."""
    return [
        GenerateTask(slider, target_for_slider(slider), None if seed is None else seed + i, budget_s)
        for i, slider in enumerate(sliders)
    ]


def closer(task: GenerateTask, first: pool.BankRecord, second: pool.BankRecord) -> pool.BankRecord:
    """Of two records made for a task, the one whose D is nearer its target."""
    return second if abs(second["d"] - task.target) < abs(first["d"] - task.target) else first


def generate_closest(task: GenerateTask) -> pool.BankRecord:
    """A record for the task: its first try if it hit, else the closer of it and a retry (``retries_for``)."""
    _task, record, hit = generate_task(task)
    if hit:
        return record
    _task, again, _hit = generate_task(retries_for([task], 1)[0])
    return closer(task, record, again)


def empty_sliders(session: Session, low: float, high: float) -> list[float]:
    """The slider values from LOW to HIGH (every HOLE_STEP) whose target D has no bank row within the tolerance."""
    values = [low + HOLE_STEP * k for k in range(int((high - low) / HOLE_STEP) + 1)]
    return [v for v in values if pool.rows_near(session, target_for_slider(v), DEFAULT_TOLERANCE) == 0]


@dataclass(frozen=True)
class FillState:
    """How full the bank is: its unused puzzles and the number it is filled up to (0: no filling)."""

    unused: int
    minimum: int

    @property
    def filling(self) -> bool:
        """True while the bank holds fewer unused puzzles than its minimum."""
        return self.unused < self.minimum


def state(app: Flask, session: Session) -> FillState:
    """The bank's unused puzzles beside the app's ``BANK_MIN`` (0 when ``POOL_REFILL`` is off: nothing fills it)."""
    minimum = int(app.config["BANK_MIN"]) if app.config["POOL_REFILL"] else 0
    return FillState(pool.unused_count(session), minimum)


def fill_slice(session: Session, minimum: int, seconds: float, rng: random.Random) -> int:
    """Generate puzzles toward ``minimum`` unused ones for up to ``seconds`` (each added as it comes), logging the
    progress with an estimate of the time left; how many were added."""
    start = time.monotonic()
    missing = minimum - pool.unused_count(session)
    sliders = spread(missing, 0.0, HIGH) if missing > 0 else []
    rng.shuffle(sliders)
    added = 0
    for made, slider in enumerate(sliders, start=1):
        added += pool.add(session, [generate_closest(tasks_for([slider], None, BUDGET_S)[0])])
        elapsed = time.monotonic() - start
        unused = pool.unused_count(session)
        left = elapsed / made * max(minimum - unused, 0)
        log.info("puzzle bank: %d of %d unused puzzles, about %.0f s left", unused, minimum, left)
        if elapsed >= seconds:
            break
    return added


def fill_holes(session: Session) -> int:
    """Aim once, with HOLE_BUDGET_FACTOR times the budget, at each slider value no bank row is near; how many
    puzzles were added."""
    empty = empty_sliders(session, 0.0, HIGH)
    added = sum(
        pool.add(session, [generate_closest(task)]) for task in tasks_for(empty, None, HOLE_BUDGET_FACTOR * BUDGET_S)
    )
    log.info("puzzle bank: aimed at %d slider values no puzzle was near, added %d", len(empty), added)
    return added


def holder() -> str:
    """This consumer thread's name for leases."""
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def fill_job(app: Flask, item: int) -> None:
    """The job (nothing with ``POOL_REFILL`` off): one slice of filling toward ``BANK_MIN`` under the lease, then
    queued again; once the bank is full, a pass over the holes at most once a day."""
    minimum = int(app.config["BANK_MIN"])
    if minimum <= 0 or not app.config["POOL_REFILL"]:
        return
    me = holder()
    with app.app_context(), db.sessions_of(app)() as session:
        if pool.unused_count(session) >= minimum:
            if jobs.take_lease(session, HOLES, me, HOLES_EVERY_S):
                fill_holes(session)
            return
        if not jobs.take_lease(session, JOB, me, LEASE_S):
            return  # another consumer is filling
        try:
            fill_slice(session, minimum, SLICE_S, random.Random())
        finally:
            jobs.release_lease(session, JOB, me)
    jobs.enqueue(app, JOB, item)  # the next slice, or the holes once the bank is full
