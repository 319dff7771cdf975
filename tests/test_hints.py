"""The hint ladder: wrong entries first, then missing pencil marks, then the easiest step, in four rungs."""

from __future__ import annotations

import json
import random

import pytest

from sudoku_engine.board import Board
from sudoku_engine.cli import main
from sudoku_engine.grid import InvalidPuzzle, bit, format_values, parse_cell, parse_values
from sudoku_engine.hints import NotUnique, hint, unlocks
from sudoku_engine.techniques import BY_ID, CATALOGUE, step_se

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def with_entries(cells_digits: dict[int, int]) -> str:
    """EULER_01 with some player digits."""
    values = list(parse_values(EULER_01))
    for cell, digit in cells_digits.items():
        values[cell] = digit
    return format_values(values)


def test_a_wrong_entry_comes_before_any_technique():
    found = hint(EULER_01, with_entries({0: 7, 1: 8}))  # r1c1 should be 4, r1c2 is right
    assert found.technique == "wrong_entry"
    assert found.wrong_entries == (0,)
    assert found.rungs[2] == "r1c1 is wrong."
    assert "clear it" in found.rungs[3]


def test_wrong_entries_that_break_the_rules_are_still_hints_not_errors():
    found = hint(EULER_01, with_entries({0: 3}))  # a second 3 in row 1
    assert found.wrong_entries == (0,)


def test_the_hint_is_a_true_step_of_the_easiest_technique():
    found = hint(EULER_01)
    assert found.step is not None and len(found.rungs) == 4
    assert found.technique == "hidden_single_box"  # full house cannot apply: no house is one cell short
    for cell, digit in found.step.placements:
        assert int(SOLUTION[cell]) == digit
    assert found.rungs[0] == "Try a Hidden Single (box)."
    assert found.rungs[3] == found.step.text


def test_ties_go_to_the_step_that_unlocks_the_most():
    board = Board.from_grid(EULER_01)
    found = hint(EULER_01)
    alternatives = [s for s in CATALOGUE[1].find(board) if s.is_progress]
    assert len(alternatives) > 1
    assert unlocks(board, found.step) == max(unlocks(board, s) for s in alternatives)


def test_a_solved_position_has_no_step():
    found = hint(EULER_01, SOLUTION)
    assert found.step is None and found.rungs == () and found.technique is None


def test_pencil_marks_lacking_the_true_digit_are_reported_first():
    marks = {0: bit(4) | bit(5), 1: bit(1) | bit(2)}  # r1c1 keeps its 4; r1c2 lost its 8
    found = hint(EULER_01, marks=marks)
    assert found.technique == "missing_candidate"
    assert found.step is not None and found.step.cause == ((1, 8),)


def test_pencil_marks_are_used_when_they_are_right():
    marks = {0: bit(4)}  # the player narrowed r1c1 to its true digit: a naked single appears
    found = hint(EULER_01, marks=marks)
    assert found.step is not None
    assert all(int(SOLUTION[c]) == d for c, d in found.step.placements)


# HoDoKu example ar101: the puzzle, a position where the player has filled r1c1 (9), r1c9 (7) and r2c1 (7) among
# others, and the pencil marks HoDoKu shows there (6 is gone from r3c9).
AR101_PUZZLE = ".5........6.5.42....8.71...4....36.8.........89.1..7..3...........2.7.1..72.3..9."
AR101_POSITION = "9543..1.77615.42..238.71...41...36.8.2....9.189.1..7..3...19.72..92.731.172.3..9."
AR101_MARKS = {
    parse_cell(name): sum(bit(int(d)) for d in digits)
    for name, digits in {
        "r1c5": "268",
        "r1c6": "268",
        "r1c8": "68",
        "r2c5": "89",
        "r2c8": "38",
        "r2c9": "39",
        "r3c4": "69",
        "r3c7": "45",
        "r3c8": "456",
        "r3c9": "459",
        "r4c3": "57",
        "r4c4": "79",
        "r4c5": "259",
        "r4c8": "25",
        "r5c1": "56",
        "r5c3": "3567",
        "r5c4": "4678",
        "r5c5": "4568",
        "r5c6": "568",
        "r5c8": "345",
        "r6c3": "356",
        "r6c5": "2456",
        "r6c6": "256",
        "r6c8": "2345",
        "r6c9": "345",
        "r7c2": "48",
        "r7c3": "56",
        "r7c4": "468",
        "r7c7": "458",
        "r8c1": "56",
        "r8c2": "48",
        "r8c5": "4568",
        "r8c9": "456",
        "r9c4": "468",
        "r9c6": "568",
        "r9c7": "458",
        "r9c9": "456",
    }.items()
}


def _marked(position: str, givens: str) -> Board:
    """A board of a position with the given clues, narrowed to AR101_MARKS."""
    board = Board.from_values(parse_values(position), parse_values(givens))
    for cell, mask in AR101_MARKS.items():
        board.cands[cell] &= mask
    return board


def test_the_players_digits_are_not_givens_so_an_avoidable_rectangle_counts_for_the_hint():
    """r1c1 = 9, r1c9 = 7, r2c1 = 7 are the player's, not givens: r2c9 = 9 would complete a swappable rectangle, so
    Avoidable Rectangle Type 1 (4.5) applies on the hint's board; the hint is the lowest-rated step there, here a
    2-String Kite (4.1). With the same digits as givens the rectangle could not swap, and it does not apply."""
    played = list(BY_ID["avoidable_rectangle_1"].find(_marked(AR101_POSITION, AR101_PUZZLE)))
    assert [step.eliminations for step in played] == [((parse_cell("r2c9"), 9),)]
    assert list(BY_ID["avoidable_rectangle_1"].find(_marked(AR101_POSITION, AR101_POSITION))) == []
    found = hint(AR101_PUZZLE, AR101_POSITION, AR101_MARKS)
    assert found.step is not None and step_se(found.step) <= step_se(played[0])
    assert found.technique == "two_string_kite"


@pytest.mark.parametrize("seed", range(20))
def test_hints_on_random_mid_game_positions_are_true(seed):
    rng = random.Random(seed)
    values = list(parse_values(EULER_01))
    for cell in rng.sample([c for c in range(81) if not values[c]], rng.randrange(0, 40)):
        values[cell] = int(SOLUTION[cell])
    found = hint(EULER_01, format_values(values))
    assert found.step is not None
    assert all(int(SOLUTION[c]) == d for c, d in found.step.placements)
    assert all(int(SOLUTION[c]) != d for c, d in found.step.eliminations)


def test_bad_positions_and_puzzles():
    with pytest.raises(InvalidPuzzle, match="changes the given 3 at r1c3"):
        hint(EULER_01, "..4" + EULER_01[3:])
    with pytest.raises(InvalidPuzzle, match="wrong length"):
        hint(EULER_01, "123")
    with pytest.raises(NotUnique):
        hint("." * 81)


def test_hint_command_prints_the_ladder(capsys):
    assert main(["hint", EULER_01, "--position", with_entries({0: 7})]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {"puzzle", "position", "wrong_entries", "technique", "rungs", "step"}
    assert record["wrong_entries"] == ["r1c1"] and len(record["rungs"]) == 4
    assert main(["hint", EULER_01, "--position", "12"]) == 2
    assert capsys.readouterr().err == "error: wrong length: 2 cells, expected 81\n"
