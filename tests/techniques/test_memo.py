"""The per-digit memo: memoised finders report exactly what a full search reports, and skip unchanged digits."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator

from technique_support import hard_sample

from sudoku_engine import logic
from sudoku_engine.board import Board, Step
from sudoku_engine.techniques import CATALOGUE, memo

PER_DIGIT = [t for t in CATALOGUE if t.per_digit]


def _full_search(technique_id: str, module: str, board: Board) -> list[tuple[object, ...]]:
    """The steps of the finder called directly on every digit (no memo)."""
    finder = getattr(importlib.import_module(f"sudoku_engine.techniques.{module}"), technique_id)
    return [(s.technique, s.placements, s.eliminations, s.text) for s in finder(board)]


def test_per_digit_techniques_are_the_single_digit_families() -> None:
    """Every finder of the fish, single-digit and colouring families is memoised, and nothing multi-digit is."""
    families = {t.family for t in PER_DIGIT}
    assert families == {"intersections", "fish", "single_digit", "colouring", "chains"}
    assert {t.id for t in PER_DIGIT if t.family in ("intersections", "chains")} == {"pointing", "claiming", "x_chain"}


def test_memoised_steps_equal_a_full_search_along_solves() -> None:
    """At every board of full logic solves of hard puzzles, each memoised finder lists the full search's steps."""
    compared = 0
    for puzzle in hard_sample(per_file=3, top_every=97, se_every=211):
        board = Board.from_grid(puzzle)
        for step in logic.solve(puzzle).steps:
            for tech in PER_DIGIT:
                memoised = [(s.technique, s.placements, s.eliminations, s.text) for s in tech.find(board)]
                assert memoised == _full_search(tech.id, tech.module, board), (tech.id, board.pencilmarks())
                compared += 1
            board.apply(step)
    assert compared > 1000


def test_unchanged_digits_are_skipped() -> None:
    """A second search of the same board asks the finder for no digit; a changed digit is searched again."""
    asked: list[list[int]] = []

    def finder(board: Board, digits: Iterable[int]) -> Iterator[Step]:
        asked.append(list(digits))
        return iter(())

    board = Board.from_grid("." * 81)
    list(memo.find("spy", finder, board))
    list(memo.find("spy", finder, board))
    board.eliminate(40, 5)
    list(memo.find("spy", finder, board))
    assert asked == [list(range(1, 10)), [5]]
