"""The vocabulary of sudoku_engine.grid: geometry invariants, names, parsing and the validity check."""

from __future__ import annotations

import pytest
from helpers.strategies import BASE, blanked_grids, full_grids
from hypothesis import given
from hypothesis import strategies as st

from sudoku_engine.grid import (
    BOXES,
    CELLS,
    PEERS,
    UNITS,
    UNITS_OF,
    Grid,
    InvalidPuzzle,
    box_of,
    cell_name,
    digits_of,
    format_values,
    is_valid_solution,
    parse_cell,
    parse_values,
    unit_name,
)

SOLVED = "".join(str(v) for row in BASE for v in row)
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_geometry_has_81_cells_27_units_of_9():
    assert len(CELLS) == 81
    assert len(UNITS) == 27
    assert all(len(unit) == 9 and len(set(unit)) == 9 for unit in UNITS)
    assert sorted(c for unit in UNITS for c in unit) == sorted(list(CELLS) * 3)


@pytest.mark.parametrize("cell", CELLS)
def test_every_cell_has_3_units_and_20_peers(cell):
    assert len(UNITS_OF[cell]) == 3
    assert all(cell in UNITS[u] for u in UNITS_OF[cell])
    assert len(PEERS[cell]) == 20
    assert cell not in PEERS[cell]


def test_peers_are_symmetric_and_boxes_are_3_by_3():
    assert all(cell in PEERS[peer] for cell in CELLS for peer in PEERS[cell])
    assert BOXES[0] == (0, 1, 2, 9, 10, 11, 18, 19, 20)
    assert BOXES[8] == (60, 61, 62, 69, 70, 71, 78, 79, 80)
    assert [box_of(c) for c in (0, 8, 40, 72, 80)] == [0, 2, 4, 6, 8]


@pytest.mark.parametrize("cell, name", [(0, "r1c1"), (8, "r1c9"), (9, "r2c1"), (40, "r5c5"), (80, "r9c9")])
def test_cell_names(cell, name):
    assert cell_name(cell) == name
    assert parse_cell(name) == cell
    assert parse_cell(name.upper()) == cell


@pytest.mark.parametrize("bad", ["r0c1", "r1c10", "a1", "", "r1 c1", "c1r1", "r9c0"])
def test_parse_cell_rejects_other_text(bad):
    with pytest.raises(ValueError, match="not a cell name"):
        parse_cell(bad)


def test_unit_names_and_digit_masks():
    assert [unit_name(u) for u in (0, 8, 9, 17, 18, 26)] == ["row 1", "row 9", "column 1", "column 9", "box 1", "box 9"]
    assert digits_of(0b100000101) == (1, 3, 9)
    assert digits_of(0) == ()


def test_parse_accepts_dots_zeros_and_pictures():
    grid = Grid.parse(EASY)
    assert str(grid) == EASY
    assert Grid.parse(EASY.replace(".", "0")) == grid
    assert Grid.parse(grid.picture()) == grid
    assert Grid.parse("\n".join(EASY[i : i + 9] for i in range(0, 81, 9))) == grid
    assert grid.givens == 32
    assert grid[2] == 3 and grid[0] == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("1" * 80, "wrong length: 80 cells, expected 81"),
        ("." * 82, "wrong length: 82 cells, expected 81"),
        ("", "wrong length: 0 cells, expected 81"),
        ("." * 10 + "x" + "." * 70, "invalid character 'x' at position 11"),
        ("." * 80 + "a", "invalid character 'a' at position 81"),
        ("5...5" + "." * 76, r"two 5s in row 1: r1c1 and r1c5"),
        ("7" + "." * 8 + "7" + "." * 71, r"two 7s in column 1: r1c1 and r2c1"),
        ("9" + "." * 9 + "9" + "." * 70, r"two 9s in box 1: r1c1 and r2c2"),
    ],
)
def test_parse_rejects_bad_text_saying_what_and_where(text, message):
    with pytest.raises(InvalidPuzzle, match=message):
        Grid.parse(text)


def test_invalid_puzzle_is_a_value_error():
    assert issubclass(InvalidPuzzle, ValueError)
    with pytest.raises(InvalidPuzzle):
        Grid((0,) * 80)


def test_candidates_follow_the_placed_digits():
    grid = Grid.parse("1" + "." * 80)
    masks = grid.candidates()
    assert masks[0] == 0b1
    assert all(masks[p] == 0x1FE for p in PEERS[0])
    assert masks[80] == 0x1FF


def test_valid_solution_check_uses_the_rules_only():
    solved = parse_values(SOLVED)
    assert is_valid_solution([0] * 81, solved)
    swapped = list(solved)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not is_valid_solution([0] * 81, swapped)
    assert not is_valid_solution([solved[1]] + [0] * 80, solved)
    assert not is_valid_solution([0] * 81, solved[:80])
    shifted = [v % 9 + 1 for v in solved]
    assert is_valid_solution([0] * 81, shifted)
    assert not is_valid_solution([0] * 81, [1] * 81)


@given(blanked_grids())
def test_parse_format_round_trip(case):
    _full, puzzle = case
    text = format_values(puzzle)
    assert parse_values(text) == tuple(puzzle)
    assert str(Grid.parse(text)) == text
    assert Grid.parse(Grid.parse(text).picture()) == Grid.parse(text)


@given(full_grids())
def test_generated_full_grids_are_valid(full):
    assert is_valid_solution([0] * 81, full)


@given(st.text(alphabet="123456789.0x |-+\n", max_size=120))
def test_parse_either_succeeds_or_raises_invalid_puzzle(text):
    try:
        values = parse_values(text)
    except InvalidPuzzle:
        return
    assert len(values) == 81
