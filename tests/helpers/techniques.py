"""Shared checks for technique tests: steps judged against the solution, never against the finder itself."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

from helpers.corpus import corpus_file, read_puzzles
from sudoku_engine import logic, solver
from sudoku_engine.board import Board, Step
from sudoku_engine.grid import PEERS, bit, parse_cell
from sudoku_engine.techniques import CATALOGUE, technique


def solution_of(board: Board) -> tuple[int, ...]:
    """The unique solution of a board's placed digits (the test fails when there is not exactly one)."""
    count, solution = solver.solve_count(board.values, limit=2)
    assert count == 1 and solution is not None, "test position must have exactly one solution"
    return solution.values


def assert_steps_valid(steps: Iterable[Step], solution: tuple[int, ...]) -> int:
    """Every placement equals the solution's digit and no elimination removes it; returns how many steps."""
    checked = 0
    for step in steps:
        for cell, digit in step.placements:
            assert solution[cell] == digit, f"{step.technique} places a wrong digit: {step.text}"
        for cell, digit in step.eliminations:
            assert solution[cell] != digit, f"{step.technique} removes the true {digit} of cell {cell}: {step.text}"
        checked += 1
    return checked


def find_all(technique_id: str, board: Board) -> list[Step]:
    """Every step a technique finds on the board."""
    return list(technique(technique_id).find(board))


def eliminations_of(steps: Iterable[Step]) -> set[tuple[int, int]]:
    """All (cell, digit) eliminations of some steps."""
    return {e for step in steps for e in step.eliminations}


BASIC = [t.id for t in CATALOGUE if t.family in ("singles", "intersections", "subsets", "last_resort")]


def candidates(digit: int, *cells: str) -> set[tuple[int, int]]:
    """(cell, digit) pairs from cell names."""
    return {(parse_cell(name), digit) for name in cells}


def with_candidate(board: Board, name: str, digit: int) -> Board:
    """A copy with one more candidate, which sees no placed copy of its digit (the solution is unchanged)."""
    cell = parse_cell(name)
    assert all(board.values[p] != digit for p in PEERS[cell]) and not board.values[cell]
    copy = board.copy()
    copy.cands[cell] |= bit(digit)
    return copy


def checked_steps(technique_id: str, board: Board) -> list[Step]:
    """The steps of one technique, each checked against the solution."""
    steps = find_all(technique_id, board)
    assert_steps_valid(steps, solution_of(board))
    return steps


def hard_sample(per_file: int, top_every: int, se_every: int) -> list[str]:
    """Hard puzzles: every n-th of magictour top1465 and every m-th SE >= 5 puzzle of sudokuexchange."""
    puzzles = read_puzzles(corpus_file("magictour_top1465.txt"))[::top_every][:per_file]
    with corpus_file("sudokuexchange_graded_even.tsv").open(encoding="utf-8") as stream:
        rows = [r for r in csv.DictReader(stream, delimiter="\t") if r["se_rating"] and float(r["se_rating"]) >= 5]
    return puzzles + [r["puzzle"] for r in rows[::se_every][:per_file]]


def valid_steps_along_basic_solves(puzzles: Iterable[str], techniques: Iterable[str]) -> dict[str, int]:
    """At every board of each puzzle's basic-family solve, check the techniques' steps; count them per technique."""
    counts = dict.fromkeys(techniques, 0)
    for puzzle in puzzles:
        board = Board.from_grid(puzzle)
        solution = solution_of(board)
        for step in logic.solve(puzzle, allow=BASIC).steps:
            for technique_id in counts:
                counts[technique_id] += assert_steps_valid(find_all(technique_id, board), solution)
            board.apply(step)
    return counts


def candidate_pairs(*pairs: tuple[str, int]) -> set[tuple[int, int]]:
    """Candidates named ``("r4c5", 1)`` as (cell, digit) pairs."""
    return {(parse_cell(name), digit) for name, digit in pairs}


def changed(grid: str, **tokens: str) -> Board:
    """The board of a pencil-mark grid with some cells' candidates replaced (``r1c5="149"``)."""
    marks = Board.from_pencilmarks(grid).pencilmarks().split()
    for name, token in tokens.items():
        marks[parse_cell(name)] = token
    return Board.from_pencilmarks(" ".join(marks))


_PLACED = re.compile(r"(\+?)([1-9.])")  # a cell of a HoDoKu givens string: '+' marks a digit that is no given


def hodoku_board(line: str) -> Board:
    """The board of a HoDoKu library line ``:code:digits:givens:deleted:...``: givens, '+' before a digit placed
    by the solver (not a given), then the listed candidates (digit, row, column) removed."""
    fields = line.split(":")
    givens_text, deleted = fields[3], fields[4]
    values, givens = [], []
    for placed, digit in _PLACED.findall(givens_text):
        value = 0 if digit == "." else int(digit)
        values.append(value)
        givens.append(0 if placed else value)
    board = Board.from_values(values, givens)
    for token in deleted.split():
        digit, row, col = (int(ch) for ch in token)
        board.eliminate((row - 1) * 9 + col - 1, digit)
    return board
