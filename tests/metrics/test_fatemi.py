"""Seed 000 (Fatemi, Kazemi, Mehrasa): call count of arc consistency with domain splitting, and IQR filtering.

Every test runs on both search backends: ``call_count`` runs on a numba kernel that must make the Python
search's random draws and count its calls exactly.
"""

from __future__ import annotations

import importlib.util
import os
import random

import pytest
from helpers.corpus import corpus_file, read_puzzles

from sudoku_engine import solver
from sudoku_engine.grid import PEERS, Grid, InvalidPuzzle, parse_values
from sudoku_engine.metrics.fatemi import call_count, iqr_filter, one_run
from sudoku_engine.solver import solve

# A solved grid used to build small hand-worked positions.
S = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
TWO_DIGITS = "".join("." if ch in "12" else ch for ch in S)  # every 1 and 2 of S emptied
# The 2s, 4s and 8s of rows 1-3 of S emptied (9 cells).
NINE_BLANKS = "53.67.91.67.1953..19.3..567" + S[27:]


@pytest.fixture(autouse=True, params=["python", "numba"])
def backend(request):
    """Run every test on each backend, then restore the default one."""
    if request.param == "numba" and importlib.util.find_spec("numba") is None:
        if os.environ.get("CI"):
            pytest.fail("numba is missing in CI: `make test` installs the fast extra")
        pytest.skip("numba is not installed")
    previous = solver.backend()
    solver.use_backend(request.param)
    yield request.param
    solver.use_backend(previous)


@pytest.mark.corpus
@pytest.mark.parametrize("backend", ["numba"], indirect=True)
def test_the_kernel_counts_the_python_runs_calls(backend) -> None:
    """Same seeds, same draws: per-run counts and cap flags equal to the Python search's, easy to hardest, with
    caps that stop some runs."""
    puzzles = read_puzzles(corpus_file("sudokuexchange_graded_even.tsv"))[::150]
    puzzles += read_puzzles(corpus_file("magictour_top1465.txt"))[::100]
    cases = [(puzzle, seed, cap) for seed, puzzle in enumerate(puzzles) for cap in (30, 20_000)]
    kernel = [call_count(puzzle, seed=seed, cap=cap) for puzzle, seed, cap in cases]
    solver.use_backend("python")
    reference = [call_count(puzzle, seed=seed, cap=cap) for puzzle, seed, cap in cases]
    assert kernel == reference
    assert any(result.capped for result in reference) and not all(result.capped for result in reference)


def test_solved_and_one_blank_take_one_call() -> None:
    # The root's arc consistency is the only call: a full grid is already solved, and with r5c5 emptied the
    # arcs to its 20 peers remove every digit but 5 from its domain.
    for puzzle in (S, S[:40] + "." + S[41:]):
        result = call_count(puzzle, runs=5, seed=3)
        assert result.per_run == (1, 1, 1, 1, 1) and result.mean == 1.0 and not result.capped


def test_bivalue_pattern_takes_two_calls_whatever_the_split() -> None:
    # After the root call every emptied cell has domain {1, 2} and none is a singleton, so the search splits one
    # of them, whichever is drawn, into children 1 and 2. The 18 cells form one connected pattern through rows,
    # columns and boxes, and S with 1 and 2 swapped is also a solution, so the first child's call assigns every
    # cell: 2 calls in every run.
    result = call_count(TWO_DIGITS, runs=10, seed=11)
    assert result.per_run == (2,) * 10 and result.mean == 2.0


def test_hand_worked_split_counts() -> None:
    # Root call: r2c8 and r3c5 (columns missing only 4) become {4}; then r1c3 = {2,4,8} and six cells on a cycle
    # (r1c6, r1c9, r2c9, r2c3, r3c3, r3c6) = {2,8}. Split on a cycle cell: its first child fixes the whole cycle
    # and leaves r1c3 = {4}: solved in 2 calls. Split on r1c3 (1 of the 7 open cells): child 2 wipes out r1c9
    # (r1c6 and r1c9 both become {8}), child 4 changes nothing and needs one more split, whose first child
    # solves: 1 + 1 + 1 + 1 = 4 calls. So every run takes 2 or 4 calls, 4 about one time in seven.
    result = call_count(NINE_BLANKS, runs=200, seed=5)
    assert set(result.per_run) == {2, 4}
    fours = result.per_run.count(4)
    assert 10 <= fours <= 50  # 200/7 = 28.6 expected; the bounds lie beyond 3.5 standard deviations
    assert result.mean == (2 * (200 - fours) + 4 * fours) / 200


def test_deterministic_for_a_seed() -> None:
    puzzle = read_puzzles(corpus_file("sudokuexchange_graded_even.tsv"))[-2]  # SE 9.3: needs many splits
    first = call_count(puzzle, runs=4, seed=42)
    assert call_count(puzzle, runs=4, seed=42) == first
    assert call_count(puzzle, runs=2, seed=42).per_run == first.per_run[:2]
    assert all(count >= 1 for count in first.per_run)
    assert len(set(first.per_run)) > 1  # the random variable choice does change the count from run to run
    assert first.mean == sum(first.per_run) / 4


def test_search_finds_the_exact_solvers_solution() -> None:
    puzzles = read_puzzles(corpus_file("sudokuexchange_graded_even.tsv"))[::700]
    rng = random.Random(9)
    for puzzle in puzzles:
        run = one_run(parse_values(puzzle), rng)
        assert not run.capped and run.solution == solve(puzzle), puzzle


def naked_singles_solve(puzzle: str) -> bool:
    """True when placing naked singles alone, one at a time, fills the grid."""
    values = list(parse_values(puzzle))
    while 0 in values:
        for cell in range(81):
            if not values[cell]:
                free = set(range(1, 10)) - {values[peer] for peer in PEERS[cell]}
                if len(free) == 1:
                    values[cell] = free.pop()
                    break
        else:
            return False
    return True


def test_one_call_exactly_when_naked_singles_solve() -> None:
    # Arc consistency on != constraints deletes a value only next to a singleton, so its fixed point is the naked
    # single closure: the root call alone solves a puzzle iff naked singles do.
    puzzles = read_puzzles(corpus_file("menneske_graded_even.tsv"))[::150]
    outcomes = set()
    for puzzle in puzzles:
        solved_by_singles = naked_singles_solve(puzzle)
        outcomes.add(solved_by_singles)
        assert (call_count(puzzle, runs=2).per_run == (1, 1)) == solved_by_singles, puzzle
    assert outcomes == {True, False}


def test_cap_is_honoured_and_reported() -> None:
    result = call_count(TWO_DIGITS, runs=3, cap=1)
    assert result.capped and result.per_run == (1, 1, 1)
    assert not call_count(TWO_DIGITS, runs=3, cap=2).capped
    hard = read_puzzles(corpus_file("magictour_top1465.txt"))[0]
    capped = call_count(hard, runs=2, cap=3)
    assert capped.capped and max(capped.per_run) <= 3


def test_inputs_grid_text_and_values_agree() -> None:
    expected = call_count(NINE_BLANKS, runs=6, seed=1)
    assert call_count(Grid.parse(NINE_BLANKS), runs=6, seed=1) == expected
    assert call_count(list(parse_values(NINE_BLANKS)), runs=6, seed=1) == expected


@pytest.mark.parametrize(
    "bad",
    [
        "123",  # too short
        "x" + "." * 80,  # not a digit
        "11" + "." * 79,  # two 1s in row 1
        "12345678." + "........9" + "." * 63,  # conflict-free, but r1c9's domain is wiped out by the root call
    ],
)
def test_bad_input_raises(bad: str) -> None:
    with pytest.raises(InvalidPuzzle):
        call_count(bad)


def test_conflicting_values_raise() -> None:
    with pytest.raises(InvalidPuzzle):
        call_count([5, 5] + [0] * 79)


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError):
        call_count(S, runs=0)
    with pytest.raises(ValueError):
        call_count(S, cap=0)


def test_iqr_filter_uses_the_median_centred_interval() -> None:
    # Quartiles of 1, 2, 3, 4, 100 (inclusive method): Q1 = 2, median = 3, Q3 = 4, so IQR = 2 and the paper's
    # interval is [3 - 3, 3 + 3] = [0, 6]: 100 goes.
    assert iqr_filter([1, 2, 3, 4, 100]) == [1, 2, 3, 4]
    # 6.5 lies outside [0, 6] and goes, although Tukey's fences [Q1 - 3, Q3 + 3] = [-1, 7] would keep it.
    assert iqr_filter([4, 3, 6.5, 1, 2]) == [4, 3, 1, 2]
    assert iqr_filter([7.0]) == [7.0] and iqr_filter([]) == []
    assert iqr_filter([5, 5, 5, 5]) == [5, 5, 5, 5]
