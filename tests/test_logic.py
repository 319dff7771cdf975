"""The logic solver on the corpora: every trace ends solved, and every step of it is true.

Full sample (``SUDOKU_CORPUS_SAMPLE=full``, ``make check-corpus``): all of sudokuexchange_graded_even.tsv
and magictour_top1465.txt, the first 1,000 puzzles of the 17-clue file and the first 200 of the hardest
file. The default sample, run by ``make test``, takes every 5th row of the Sudoku Exchange file (all its
ratings, stratified), every 5th of top1465, the first 500 17-clue and every 2nd of the first 48 hardest puzzles,
so the suite stays within the CI budget. A step is true when none of its eliminations removes the solution's digit
and each placement equals it; the solution comes from the exact solver and is checked by the rules alone.
"""

from __future__ import annotations

import csv
import os

import pytest
from helpers.corpus import corpus_file, data_dir, read_puzzles

from sudoku_engine import logic, solver
from sudoku_engine.board import Board
from sudoku_engine.grid import is_valid_solution, parse_cell, parse_values
from sudoku_engine.techniques import BY_ID, CATALOGUE, step_se

FULL = os.environ.get("SUDOKU_CORPUS_SAMPLE", "").lower() == "full"
# file -> (how many of the first rows, then every how many-th of them)
SAMPLE = {
    "sudokuexchange_graded_even.tsv": (None, 1 if FULL else 5),
    "magictour_top1465.txt": (None, 1 if FULL else 5),
    "tdoku_17clue_even.txt": (1000 if FULL else 500, 1),
    "tdoku_forum_hardest_1905_11plus_even.txt": (200 if FULL else 48, 1 if FULL else 2),
}
CHUNK = 100
# The hardest puzzles take seconds each (up to 15 s, almost all in the nested nets' kernel): small chunks keep the two
# test processes busy to the end.
HARDEST_CHUNK = 6
NO_SOLUTION = "12345678." + "........9" + "." * 63  # r1c9 has no candidate


def _sample_size(name: str) -> int:
    """Puzzles of a file that the sample takes (1 when the file is absent, so its test skips or fails)."""
    path = data_dir() / name
    if not path.is_file():
        return 1
    rows = sum(1 for line in path.read_text().splitlines() if line.strip()) - (path.suffix == ".tsv")
    limit, stride = SAMPLE[name]
    return len(range(0, min(rows, limit or rows), stride))


def sample_puzzles(name: str) -> list[str]:
    """The sampled puzzles of one corpus file."""
    limit, stride = SAMPLE[name]
    return read_puzzles(corpus_file(name), limit)[::stride]


def chunk_size(name: str) -> int:
    """Puzzles per test for a corpus file."""
    return HARDEST_CHUNK if "hardest" in name else CHUNK


CHUNKS = [(name, start) for name in SAMPLE for start in range(0, _sample_size(name), chunk_size(name))]

pytestmark = pytest.mark.corpus


def check_trace(puzzle: str) -> list[str]:
    """Problems found in the logic trace of one puzzle (empty when every step is true and it ends solved)."""
    values = parse_values(puzzle)
    solution = solver.solve(values)
    assert solution is not None and is_valid_solution(values, solution.values)
    truth = solution.values
    trace = logic.solve(puzzle)
    board = Board.from_values(values)
    problems = []
    for step in trace.steps:
        wrong = [(c, d) for c, d in step.placements if truth[c] != d]
        wrong += [(c, d) for c, d in step.eliminations if truth[c] == d]
        if wrong:
            problems.append(f"{puzzle}: {step.technique} is false at {wrong}: {step.text}")
        board.apply(step)
    if not trace.solved or board.values != list(truth):
        problems.append(f"{puzzle}: trace ends unsolved after {len(trace.steps)} steps")
    return problems


@pytest.mark.parametrize("name, start", CHUNKS, ids=[f"{n}[{s}:]" for n, s in CHUNKS])
def test_every_trace_step_is_true_and_ends_solved(name, start):
    puzzles = sample_puzzles(name)[start : start + chunk_size(name)]
    problems = [problem for puzzle in puzzles for problem in check_trace(puzzle)]
    assert not problems, f"{len(problems)} problems, first: {problems[:3]}"


def _steps_past_singles_match_the_trace(puzzle: str) -> bool:
    """Whether placing the singles at once yields the trace's other steps, in order, and ends where it ends."""
    trace = logic.solve(puzzle)
    board = Board.from_grid(puzzle)
    others = [step for step in trace.steps if step.technique not in logic.SINGLES]
    return list(logic.steps_past_singles(board)) == others and board.values == trace.final.values


@pytest.mark.parametrize("backend, stride", [("numba", 10), ("python", 30)])
def test_steps_past_singles_are_the_traces_other_steps(backend, stride):
    """The generator's staged rating skips single steps: every other step must be the trace's, on both backends
    (every ``stride``-th puzzle of the sample, easiest to hardest, and 17-clue puzzles)."""
    puzzles = sample_puzzles("sudokuexchange_graded_even.tsv")[::stride]
    puzzles += sample_puzzles("tdoku_17clue_even.txt")[: 300 // stride]
    previous = solver.backend()
    solver.use_backend(backend)
    try:
        mismatched = [puzzle for puzzle in puzzles if not _steps_past_singles_match_the_trace(puzzle)]
    finally:
        solver.use_backend(previous)
    assert not mismatched, f"{len(mismatched)} of {len(puzzles)}, first: {mismatched[0]}"


def test_steps_past_singles_stop_on_a_broken_position():
    """A position without a solution leaves the board as it was and yields nothing."""
    board = Board.from_values(parse_values(NO_SOLUTION))
    before = (board.values[:], board.cands[:])
    assert list(logic.steps_past_singles(board)) == []
    assert (board.values, board.cands) == before


# Reached by the logic solver from Sudoku Exchange puzzle
# .54.6.71....749.............73...52.2.8...1.714.....96..63.19.....4.7...4...9...5 (SE 6.6). On digit 8 the
# conjugate pairs r2c7-r3c8 (box 3), r3c5-r1c4 (box 2), r6c4-r6c6 (row 6) and r9c6-r9c7 (row 9), linked by
# r3c8-r3c5 (row 3), r1c4-r6c4 (column 4), r6c6-r9c6 (column 6) and r9c7-r2c7 (column 7), close into an 8-node
# X-loop, and r8c7 sees r2c7 and r9c7, which take opposite colours in that cycle. Found as an X-Chain it is rated
# 6.6 + 0.2 (8 nodes pass the thresholds 4 and 6); found as Simple Colours (the same two colour classes) 6.6.
COLOUR_OR_LOOP = """
89    5     4     28    6     3     7     1     29
38    12368 12    7     4     9     68    5     23
379   236   279   1     28    5     4     68    239
6     7     3     9     1     4     5     2     8
2     9     8     5     3     6     1     4     7
1     4     5     28    7     28    3     9     6
578   28    6     3     258   1     9     78    4
3589  238   29    4     258   7     268   368   1
4     13    17    6     9     28    28    37    5
"""


def test_the_trace_takes_the_lowest_rated_step_not_the_first_technique():
    """X-Chain comes before Simple Colours in the catalogue, but its loop here rates 6.8 against 6.6."""
    board = Board.from_pencilmarks(COLOUR_OR_LOOP)
    chain = next(step for step in BY_ID["x_chain"].find(board) if step.is_progress)
    colours = next(step for step in BY_ID["simple_colours"].find(board) if step.is_progress)
    assert (chain.length, step_se(chain)) == (8, 6.8) and step_se(colours) == 6.6
    first_applicable = next(t for t in CATALOGUE if any(s.is_progress for s in t.find(board)))
    assert first_applicable.id == "x_chain"
    step = logic.next_step(board)
    assert step is not None and step.technique == "simple_colours"
    assert step.eliminations == ((parse_cell("r8c7"), 8),)
    assert logic.solve(board, max_steps=1).steps[0].technique == "simple_colours"


def _lowest_rating(board: Board, below: float) -> float | None:
    """The lowest rating of any application of any technique rated below ``below`` (brute force)."""
    ratings = [step_se(s) for t in CATALOGUE if t.se_rating < below for s in t.find(board) if s.is_progress]
    return min(ratings, default=None)


def test_every_step_of_the_trace_is_the_lowest_rated_one():
    """At each point of traces of Sudoku Exchange puzzles rated 6.5 to 7.5 where no single is left, the step the
    solver takes rates as low as the lowest-rated application of any technique (all applications enumerated)."""
    with corpus_file("sudokuexchange_graded_even.tsv").open(encoding="utf-8") as stream:
        rows = [r for r in csv.DictReader(stream, delimiter="\t") if r["se_rating"]]
    puzzles = [r["puzzle"] for r in rows if 6.5 <= float(r["se_rating"]) <= 7.5][::40]
    checked = 0
    for puzzle in puzzles:
        board = Board.from_grid(puzzle)
        while not board.is_solved:
            step = logic.next_step(board)
            assert step is not None
            if BY_ID[step.technique].family != "singles" and step_se(step) < 8.0:
                assert step_se(step) == _lowest_rating(board, 8.0), (puzzle, step.text)
                checked += 1
            board.apply(step)
    assert checked >= 20
