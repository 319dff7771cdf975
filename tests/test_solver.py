"""The exact solver, on both backends, checked against facts that do not come from the solver."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator

import pytest
from helpers.strategies import blanked_grids, full_grids
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sudoku_engine import solver
from sudoku_engine.grid import Grid, InvalidPuzzle, is_valid_solution, parse_values

# Published with its solution (Project Euler problem 96, grid 01).
EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EULER_01_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# Row 1 needs a 9 at r1c9, but column 9 already holds one: valid givens, no solution.
NO_SOLUTION = "12345678." + "........9" + "." * 63
AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
# More grids of the same problem, for what puzzles made by blanking cells of a full grid seldom need: Grid 03 needs
# naked singles, Grid 04 hidden singles in rows or columns, Grid 06 more than singles, and Grid 44 a hidden single
# in a box that no other kind of single stands in for.
EULER_03 = "......9.7...42.18....7.5.261..9.4....5.....4....5.7..992.1.8....34.59...5.7......"
EULER_04 = ".3..5..4...8.1.5..46.....12.7.5.2.8....6.3....4.1.9.3.25.....98..1.2.6...8..6..2."
EULER_06 = "1..92....524.1...........7..5...81.2.........4.27...9..6...........3.945....71..6"
EULER_44 = ".1.5..2..9....1.....2..8.3.5...3...7..8...5..6...8...4.4.1..7.....7....6..3..4.5."

BACKENDS = ["python", "numba"]
# The backend fixture is set once per test and holds for every example: that is what is wanted.
PER_TEST_FIXTURE = [HealthCheck.function_scoped_fixture]


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Run a test on each search backend, then restore the default one."""
    name = request.param
    if name == "numba" and importlib.util.find_spec("numba") is None:
        if os.environ.get("CI"):
            pytest.fail("numba is missing in CI: `make test` installs the fast extra")
        pytest.skip("numba is not installed")
    previous = solver.backend()
    solver.use_backend(name)
    yield name
    solver.use_backend(previous)


def test_solves_a_published_puzzle_to_its_published_solution(backend):
    assert str(solver.solve(EULER_01)) == EULER_01_SOLUTION
    assert solver.count_solutions(EULER_01) == 1
    assert solver.is_unique(Grid.parse(EULER_01))


def test_hard_puzzle_solution_is_valid_and_unique(backend):
    count, solution = solver.solve_count(AI_ESCARGOT, limit=2)
    assert count == 1
    assert solution is not None and is_valid_solution(parse_values(AI_ESCARGOT), solution.values)


def test_a_puzzle_without_solution(backend):
    assert solver.solve(NO_SOLUTION) is None
    assert solver.count_solutions(NO_SOLUTION) == 0
    assert not solver.is_unique(NO_SOLUTION)


@pytest.mark.parametrize("limit", [1, 2, 5, 30])
def test_empty_grid_count_stops_at_the_limit(backend, limit):
    assert solver.count_solutions([0] * 81, limit=limit) == limit


def test_first_solution_of_the_empty_grid_is_the_lexicographic_one(backend):
    # Filling cells in order with the smallest digit that fits gives 123456789 / 456789123 / 789123456 ...
    solution = str(solver.solve("." * 81))
    assert solution[:27] == "123456789456789123789123456"
    assert is_valid_solution([0] * 81, parse_values(solution))


def _deadly_rectangle(solution: list[int]) -> tuple[int, int, int, int] | None:
    """Four cells in two rows, two columns and two boxes whose digits can be swapped (a b / b a)."""
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    cells = (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
                    a, b, c, d = (solution[x] for x in cells)
                    two_boxes = (r1 // 3 == r2 // 3) != (c1 // 3 == c2 // 3)
                    if a == d and b == c and two_boxes:
                        return cells
    return None


def test_a_puzzle_with_exactly_two_solutions(backend):
    full = list(solver.solve(EULER_01).values)
    cells = _deadly_rectangle(full)
    assert cells is not None
    swapped = full[:]
    for x, y in ((cells[0], cells[1]), (cells[2], cells[3])):
        swapped[x], swapped[y] = swapped[y], swapped[x]
    assert is_valid_solution([0] * 81, swapped)  # the second solution, checked by the rules alone
    puzzle = [0 if c in cells else v for c, v in enumerate(full)]
    assert solver.count_solutions(puzzle, limit=5) == 2
    assert not solver.is_unique(puzzle)
    assert solver.is_unique([v if c != cells[0] else full[c] for c, v in enumerate(puzzle)])
    assert solver.is_unique(parse_values(EULER_01))
    assert not solver.is_unique(parse_values(NO_SOLUTION))


@pytest.mark.parametrize(
    "bad, message",
    [("12", "wrong length"), ("x" * 81, "invalid character"), ([1] * 80, "81 values"), ([10] + [0] * 80, "81 values")],
)
def test_bad_input_raises_invalid_puzzle(bad, message):
    with pytest.raises(InvalidPuzzle, match=message):
        solver.count_solutions(bad)


def test_limit_must_be_positive():
    with pytest.raises(ValueError, match="limit"):
        solver.count_solutions(EULER_01, limit=0)


def test_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="unknown backend"):
        solver.use_backend("fortran")


@settings(max_examples=60, deadline=None, suppress_health_check=PER_TEST_FIXTURE)
@given(blanked_grids())
def test_solving_a_blanked_valid_grid_keeps_the_givens(backend, case):
    _full, puzzle = case
    solution = solver.solve(puzzle)
    assert solution is not None
    assert is_valid_solution(puzzle, solution.values)


@settings(max_examples=60, deadline=None, suppress_health_check=PER_TEST_FIXTURE)
@given(blanked_grids(min_blanks=40), st.integers(1, 4))
def test_count_never_exceeds_its_limit(backend, case, limit):
    _full, puzzle = case
    assert 1 <= solver.count_solutions(puzzle, limit=limit) <= limit


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@settings(max_examples=60, deadline=None)
@given(blanked_grids(min_blanks=45))
def test_backends_agree_on_count_and_first_solution(case):
    _full, puzzle = case
    previous = solver.backend()
    try:
        results = []
        for name in BACKENDS:
            solver.use_backend(name)
            results.append(solver.solve_count(puzzle, limit=3))
    finally:
        solver.use_backend(previous)
    assert results[0] == results[1]


# A plain singles solver written from the rules, independent of the engine: the houses, each empty cell's
# candidates (the digits none of its houses holds), and the four kinds of single in the order the engine documents
# them for ``single_kind``: 0 full house, 1 hidden single in a box, 2 hidden single in any house, 3 naked single.
ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLUMNS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(top + r) * 9 + left + c for r in range(3) for c in range(3)] for top in (0, 3, 6) for left in (0, 3, 6)]
HOUSES = ROWS + COLUMNS + BOXES
HOUSES_OF = [[house for house in HOUSES if cell in house] for cell in range(81)]
Placements = Iterator[tuple[int, int]]


def _candidates(grid: list[int]) -> dict[int, set[int]]:
    """Each empty cell's candidates: the digits that none of its row, column and box holds."""
    return {
        cell: set(range(1, 10)) - {grid[other] for house in HOUSES_OF[cell] for other in house}
        for cell in range(81)
        if not grid[cell]
    }


def _full_houses(grid: list[int], cands: dict[int, set[int]]) -> Placements:
    """A house with one empty cell: the digit the house misses goes there."""
    for house in HOUSES:
        empty = [cell for cell in house if not grid[cell]]
        if len(empty) == 1:
            yield empty[0], (set(range(1, 10)) - {grid[cell] for cell in house}).pop()


def _hidden_singles_in(houses: list[list[int]]) -> Callable[[list[int], dict[int, set[int]]], Placements]:
    """Hidden singles in the given houses: a digit the house misses with one empty cell left for it."""

    def placements(grid: list[int], cands: dict[int, set[int]]) -> Placements:
        for house in houses:
            for digit in set(range(1, 10)) - {grid[cell] for cell in house}:
                places = [cell for cell in house if not grid[cell] and digit in cands[cell]]
                if len(places) == 1:
                    yield places[0], digit

    return placements


def _naked_singles(grid: list[int], cands: dict[int, set[int]]) -> Placements:
    """An empty cell with one candidate: that digit goes there."""
    for cell, digits in cands.items():
        if len(digits) == 1:
            yield cell, min(digits)


SINGLE_KINDS = [_full_houses, _hidden_singles_in(BOXES), _hidden_singles_in(HOUSES), _naked_singles]


def _plain_singles(values: list[int], hardest: int = 3) -> bool:
    """Whether the singles of the kinds up to ``hardest`` fill the grid, placed round after round until a round
    finds none (on a puzzle with a solution every single places that solution's digit)."""
    grid = list(values)
    while True:
        cands = _candidates(grid)
        placements = {cell: digit for kind in SINGLE_KINDS[: hardest + 1] for cell, digit in kind(grid, cands)}
        if not placements:
            return all(grid)
        for cell, digit in placements.items():
            grid[cell] = digit


def _plain_single_kind(values: list[int]) -> int:
    """The hardest kind of single needed: the first kind whose singles with the easier kinds' fill the grid."""
    return next((kind for kind in range(len(SINGLE_KINDS)) if _plain_singles(values, kind)), -1)


def _with_published_grids(test: Callable[..., None]) -> Callable[..., None]:
    """The test also run on Project Euler's grids 01, 03, 04, 06 and 44 (explicit examples beside the drawn ones)."""
    for text in (EULER_01, EULER_03, EULER_04, EULER_06, EULER_44):
        test = example(case=(None, list(parse_values(text))))(test)
    return test


@settings(max_examples=60, deadline=None, suppress_health_check=PER_TEST_FIXTURE)
@given(case=blanked_grids())
@_with_published_grids
def test_single_kind_agrees_between_backends(backend, case):
    """The hardest kind of single is the plain solver's on both backends, and -1 exactly when the singles do not
    solve the puzzle."""
    _solution, puzzle = case
    kind = solver.single_kind(puzzle)
    assert (kind == -1) == (not _plain_singles(puzzle))
    assert kind == _plain_single_kind(puzzle)
    if kind != -1:
        assert solver.count_solutions(puzzle) == 1


def test_single_kind_on_known_puzzles(backend):
    assert solver.single_kind(parse_values(EULER_01)) != -1  # an easy puzzle: singles suffice
    assert solver.single_kind(parse_values(AI_ESCARGOT)) == -1
    assert solver.single_kind([0] * 81) == -1
    assert solver.single_kind(parse_values(NO_SOLUTION)) == -1


def _reference_dig(values, groups, min_givens):
    """The dig by plain counting: remove each group while the count of solutions stays 1 and enough givens stay."""
    current, kept = list(values), []
    for group in groups:
        trial = [0 if c in group else v for c, v in enumerate(current)]
        keep = sum(1 for v in trial if v) >= min_givens and solver.count_solutions(trial) == 1
        if keep:
            current = trial
        kept.append(keep)
    return kept


@settings(max_examples=25, deadline=None, suppress_health_check=PER_TEST_FIXTURE)
@given(full_grids(), st.permutations(range(81)), st.booleans(), st.sampled_from([0, 30]))
def test_dig_keeps_exactly_the_removals_that_leave_one_solution(backend, full, order, symmetric, min_givens):
    """Single cells, or mirrored pairs through the centre, in a random order, with and without a floor of givens."""
    if symmetric:
        groups = [(c, 80 - c) if c != 40 else (40,) for c in order if c <= 40]
    else:
        groups = [(c,) for c in order]
    assert solver.dig(full, groups, min_givens) == _reference_dig(full, groups, min_givens)


@settings(max_examples=40, deadline=None, suppress_health_check=PER_TEST_FIXTURE)
@given(full=full_grids(), order=st.permutations(range(81)), data=st.data())
def test_stays_unique_agrees_with_counting_solutions(backend, full, order, data):
    """From a minimal puzzle: remove one or two givens, add some of the solution's digits; unique as counted."""
    groups = [(c,) for c in order]
    kept = solver.dig(full, groups, 0)
    puzzle = [0 if (c,) in {g for g, k in zip(groups, kept) if k} else v for c, v in enumerate(full)]
    givens = [c for c in range(81) if puzzle[c]]
    removed = data.draw(st.lists(st.sampled_from(givens), min_size=0, max_size=2, unique=True))
    blanks = [c for c in range(81) if not puzzle[c]]
    added = data.draw(st.lists(st.sampled_from(blanks), max_size=3, unique=True))
    moved = [0 if c in removed else full[c] if c in added else v for c, v in enumerate(puzzle)]
    assert solver.stays_unique(moved, full, removed) == (solver.count_solutions(moved) == 1)


@settings(max_examples=30, deadline=None, suppress_health_check=PER_TEST_FIXTURE)
@given(cases=st.lists(blanked_grids(), min_size=0, max_size=12), limit=st.integers(1, 4))
@example(cases=[], limit=2)
def test_many_at_once_answer_as_one_at_a_time(backend, cases, limit):
    """``solve_count_many`` gives each puzzle's count and first solution as ``solve_count`` does, in order, with
    puzzles of no solution, one and many among them."""
    puzzles = [puzzle for _full, puzzle in cases] + [NO_SOLUTION, "." * 81, EULER_01, AI_ESCARGOT]
    one = [solver.solve_count(p, limit) for p in puzzles]
    assert solver.solve_count_many(puzzles, limit) == one
    assert solver.count_solutions_many(puzzles, limit) == [n for n, _ in one]
    assert solver.count_solutions_many([], limit) == []


def test_many_at_once_refuse_bad_input():
    with pytest.raises(InvalidPuzzle):
        solver.count_solutions_many([EULER_01, "12"])
    with pytest.raises(ValueError):
        solver.solve_count_many([EULER_01], limit=0)
