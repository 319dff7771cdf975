"""Full grids and dig-hole generation (seed 004, section 8, approach 3)."""

from __future__ import annotations

import random

import pytest

from sudoku_engine import solver
from sudoku_engine.generate import (
    MAX_SLIDER_GIVENS,
    MIN_SLIDER_GIVENS,
    dig_holes,
    generate_puzzle,
    givens_for_slider,
    random_full_grid,
)
from sudoku_engine.grid import is_valid_solution


@pytest.mark.parametrize("seed", range(5))
def test_random_full_grids_are_valid_and_seeded(seed):
    grid = random_full_grid(random.Random(seed))
    assert is_valid_solution([0] * 81, grid.values)
    assert random_full_grid(random.Random(seed)) == grid


def test_different_seeds_give_different_grids():
    assert len({random_full_grid(random.Random(seed)) for seed in range(20)}) == 20


@pytest.mark.parametrize("seed", range(8))
def test_free_pattern_puzzles_are_unique_and_locally_minimal(seed):
    made = generate_puzzle(seed=seed, symmetric=False)
    puzzle = list(made.puzzle.values)
    assert is_valid_solution(puzzle, made.solution.values)
    assert solver.count_solutions(puzzle) == 1
    for cell in (c for c in range(81) if puzzle[c]):
        fewer = puzzle[:]
        fewer[cell] = 0
        assert solver.count_solutions(fewer) == 2, f"given at {cell} is redundant"


@pytest.mark.parametrize("seed", range(8))
def test_symmetric_puzzles_are_unique_symmetric_and_pair_minimal(seed):
    made = generate_puzzle(seed=seed, symmetric=True)
    puzzle = list(made.puzzle.values)
    assert solver.count_solutions(puzzle) == 1
    assert all(bool(puzzle[c]) == bool(puzzle[80 - c]) for c in range(81))
    for cell in (c for c in range(41) if puzzle[c]):
        fewer = puzzle[:]
        fewer[cell] = fewer[80 - cell] = 0
        assert solver.count_solutions(fewer) == 2


def test_generation_is_reproducible_from_its_seed():
    first = generate_puzzle(seed=1234)
    assert generate_puzzle(seed=first.seed) == first
    assert generate_puzzle(seed=1235) != first
    unseeded = generate_puzzle()
    assert generate_puzzle(seed=unseeded.seed) == unseeded


@pytest.mark.parametrize("givens", [17, 30, 46, 60, 81])
def test_the_dig_stops_at_the_requested_givens(givens):
    for seed in range(3):
        made = generate_puzzle(seed=seed, givens=givens, symmetric=False)
        assert solver.count_solutions(made.puzzle) == 1
        assert made.puzzle.givens >= givens
        if givens >= 30:
            assert made.puzzle.givens == givens  # far above minimality, single removals always reach it


def test_dig_holes_keeps_the_solution():
    rng = random.Random(7)
    full = random_full_grid(rng)
    puzzle = dig_holes(full, rng, symmetric=False)
    assert is_valid_solution(puzzle.values, full.values)
    assert solver.solve(puzzle) == full


def test_slider_maps_monotonically_onto_givens():
    values = [givens_for_slider(s) for s in range(101)]
    assert values[0] == MIN_SLIDER_GIVENS and values[-1] == MAX_SLIDER_GIVENS
    assert all(a >= b for a, b in zip(values, values[1:]))
    assert givens_for_slider(37.5) in range(MAX_SLIDER_GIVENS, MIN_SLIDER_GIVENS + 1)


@pytest.mark.parametrize("bad", [-1, 100.5, float("nan")])
def test_slider_out_of_range_is_refused(bad):
    with pytest.raises(ValueError, match="slider"):
        givens_for_slider(bad)


@pytest.mark.parametrize("bad", [16, 82])
def test_givens_out_of_range_are_refused(bad):
    with pytest.raises(ValueError, match="givens"):
        generate_puzzle(seed=1, givens=bad)
