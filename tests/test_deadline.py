"""Time limits that hold inside a step: a rating's timeout and a hint's budget stop the contradiction nets' search
between two of its kernel calls, not after the whole step, and a hint past its budget reveals a true digit.

The deadline's passing is simulated (the nets' check says "time is up" at its third call), so nothing here depends
on how fast the machine is; one test runs the real clock and checks only that the limit is reported."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from sudoku_engine import deadline, solve
from sudoku_engine.hints import hint
from sudoku_engine.rating import rate
from sudoku_engine.techniques import nets

# Golden Nugget (ER 11.9): no single at the start, and its first step needs nested forcing chains.
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."
# Sudoku Exchange, SE 9.0 (forcing chains): hsolve runs several tier searches on it.
HARD_SE_9 = ".87.....5.15..64..93.......7..63.5.....2.8.....3.45..2.......34..94..25.5.....19."
PARTS = 81 // nets.KERNEL_CELLS  # the nets' kernel calls of one whole search


@pytest.fixture
def up_at_third_part(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The nets' check raises TimeUp at its third call (the deadline passes inside the search); the parts run."""
    parts: list[int] = []
    real: Callable[[], None] = deadline.check

    def check() -> None:
        if len(parts) == 2:
            raise deadline.TimeUp("the time limit has passed")
        parts.append(1)
        real()

    monkeypatch.setattr(nets, "deadline", type("Clocked", (), {"check": staticmethod(check)}))
    return parts


def test_a_rating_stops_inside_the_nets_when_its_time_is_up(up_at_third_part: list[int]) -> None:
    rating = rate(GOLDEN_NUGGET, timeout=600)
    assert len(up_at_third_part) == 2 < PARTS  # two parts ran, the third was not started
    assert rating.timeout and rating.as_dict()["timeout"] is True
    assert rating.steps == 0  # the first step was never finished


def test_a_hint_past_its_budget_reveals_a_true_digit(up_at_third_part: list[int]) -> None:
    found = hint(GOLDEN_NUGGET, budget_s=600)
    assert len(up_at_third_part) == 2
    assert found.technique == "reveal_digit" and found.step is not None
    ((cell, digit),) = found.step.placements
    solution = solve(GOLDEN_NUGGET)
    assert solution is not None and solution.values[cell] == digit and GOLDEN_NUGGET[cell] == "."
    assert "Nested Forcing Chain" in found.rungs[0] and "takes too long to work out" in found.rungs[0]
    assert found.rungs[3] == f"r{cell // 9 + 1}c{cell % 9 + 1} is {digit}: placing it is the help this hint can give."


def test_the_real_clock_stops_a_rating_and_a_hint() -> None:
    """A rating of this puzzle takes seconds, but its hint only 0.3-0.5 s once the kernels are warm: the hint's
    budget is far below that (at 0.2 s a quick run could find the step in time)."""
    assert rate(GOLDEN_NUGGET, timeout=0.2).timeout
    assert hint(GOLDEN_NUGGET, budget_s=0.02).technique == "reveal_digit"
    assert hint(GOLDEN_NUGGET).technique == "nested_forcing_chain"  # no budget: the step itself


def test_nested_limits_keep_the_earlier_and_a_passed_one_stops_a_check():
    now = time.perf_counter()
    with deadline.until(now + 100):
        with deadline.until(now - 1):
            assert deadline.passed()
            with pytest.raises(deadline.TimeUp):
                deadline.check()
        with deadline.until(now + 1000):  # a later one changes nothing
            assert not deadline.passed()
        deadline.check()
    with deadline.until(None):
        deadline.check()
    assert not deadline.passed()


def test_a_seed_measure_stops_inside_its_search_and_is_reported_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """hsolve (seed 002) checks the time at each fresh tier search: past the deadline it stops there, the record
    names it missing and says timeout, and the measures before it stay."""
    from sudoku_engine.metrics import hsolve

    searches: list[int] = []

    def check() -> None:
        if len(searches) == 3:
            raise deadline.TimeUp("the time limit has passed")
        searches.append(1)

    monkeypatch.setattr(hsolve, "deadline", type("Clocked", (), {"check": staticmethod(check)}))
    rating = rate(HARD_SE_9, timeout=600, measures=True)
    assert len(searches) == 3
    assert rating.timeout and rating.metrics.missing == ["hsolve"] and rating.metrics.hsolve is None
    assert rating.metrics.call_count is not None and rating.metrics.schemes is not None
