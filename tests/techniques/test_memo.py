"""The memo: memoised finders report exactly what a full search reports, and skip unchanged digits and houses."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable, Iterator

from helpers.techniques import hard_sample

from sudoku_engine import logic
from sudoku_engine.board import Board, Memo, Step
from sudoku_engine.grid import PEERS, UNITS
from sudoku_engine.techniques import CATALOGUE, memo

MEMOISED = [t for t in CATALOGUE if t.per_digit or t.per_house]


def _full_search(technique_id: str, module: str, board: Board) -> list[tuple[object, ...]]:
    """The steps of the finder called directly on every digit and house (no memo)."""
    finder = getattr(importlib.import_module(f"sudoku_engine.techniques.{module}"), technique_id)
    return [(s.technique, s.placements, s.eliminations, s.text) for s in finder(board)]


def test_memoised_techniques_search_one_digit_or_one_house_at_a_time() -> None:
    """Single-digit finders are memoised by digit, subsets by house, and nothing that mixes digits and houses is."""
    by_digit = {t.id for t in CATALOGUE if t.per_digit}
    families = {t.family for t in CATALOGUE if t.per_digit}
    assert families == {"intersections", "fish", "single_digit", "colouring", "chains"}
    assert by_digit & {"locked_pair", "locked_triple", "xy_chain", "nice_loop"} == set()
    assert {"pointing", "claiming", "x_chain"} <= by_digit
    assert {t.id for t in CATALOGUE if t.per_house} == {
        f"{kind}_{size}" for kind in ("naked", "hidden") for size in ("pair", "triple", "quad")
    }


def test_memoised_steps_equal_a_full_search_along_solves() -> None:
    """At every board of full logic solves of hard puzzles, each memoised finder lists the full search's steps."""
    compared = 0
    for puzzle in hard_sample(per_file=3, top_every=97, se_every=211):
        board = Board.from_grid(puzzle)
        for step in logic.solve(puzzle).steps:
            for tech in MEMOISED:
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


def test_unchanged_houses_are_skipped() -> None:
    """After a placement, only the houses whose cells changed are searched again."""
    asked: list[list[int]] = []

    def finder(board: Board, houses: Iterable[int]) -> Iterator[Step]:
        asked.append(list(houses))
        return iter(())

    board = Board.from_grid("." * 81)
    list(memo.find_by_house("spy", finder, board))
    board.place(0, 1)  # r1c1: its row, column and box and every house meeting one of its peers change
    list(memo.find_by_house("spy", finder, board))
    changed = sorted({u for u in range(27) if any(c in UNITS[u] for c in (0, *PEERS[0]))})
    assert asked == [list(range(27)), changed]


def test_a_fresh_board_remembers_nothing_from_another() -> None:
    """What one board's searches remember stays with it: a new board of the same puzzle is searched in full."""
    asked: list[list[int]] = []

    def finder(board: Board, digits: Iterable[int]) -> Iterator[Step]:
        asked.append(list(digits))
        return iter(())

    puzzle = hard_sample(per_file=1, top_every=97, se_every=211)[0]
    first = Board.from_grid(puzzle)
    logic.solve(first)
    list(memo.find("spy", finder, first))
    list(memo.find("spy", finder, first))
    second = Board.from_grid(puzzle)
    assert second.memo.sizes() == {} and first.memo.sizes()
    list(memo.find("spy", finder, second))
    open_digits = [d for d in range(1, 10) if memo.digit_cells(second)[d - 1]]
    assert asked == [open_digits, open_digits]


def test_a_solve_carries_its_memo_from_position_to_position() -> None:
    """The logic solver works on one board (a copy sharing the memo of the board it is given) from the first position
    to the last, so what its finders found empty at one position is known at the next."""
    puzzle = hard_sample(per_file=1, top_every=97, se_every=211)[0]
    board = Board.from_grid(puzzle)
    assert board.copy().memo is board.memo and board.memo.sizes() == {}
    trace = logic.solve(board)
    assert trace.final is not None and trace.final.memo is board.memo
    sizes = board.memo.sizes()
    assert sizes["memo.empty"] > 0, sizes
    assert Board.from_grid(puzzle).memo.sizes() == {}


def _memos_alive() -> int:
    """How many Memo objects the garbage collector tracks."""
    return sum(1 for o in gc.get_objects() if isinstance(o, Memo))


def test_a_memo_goes_with_its_board_without_the_cycle_collector() -> None:
    """Nothing a memo holds refers back to it (no ALS index, link table or cache key keeps the memo), so it is freed
    as soon as its board is, by reference counting alone, even after the ALS finders filled it."""
    puzzles = hard_sample(per_file=3, top_every=97, se_every=211)
    gc.collect()
    before = _memos_alive()
    gc.disable()
    try:
        filled: set[str] = set()
        for puzzle in puzzles:
            board = Board.from_grid(puzzle)
            logic.solve(board)
            filled |= set(board.memo.sizes())
            del board
        assert _memos_alive() == before
    finally:
        gc.enable()
    assert {"sudoku_engine.techniques.als._Index", "sudoku_engine.techniques.als._group_house"} <= filled, filled
