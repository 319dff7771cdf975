"""Shared checks for technique tests: steps judged against the solution, never against the finder itself."""

from __future__ import annotations

from collections.abc import Iterable

from sudoku_engine import solver
from sudoku_engine.board import Board, Step
from sudoku_engine.techniques import technique


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
